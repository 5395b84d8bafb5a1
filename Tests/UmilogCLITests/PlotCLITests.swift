import Foundation
import Testing
import TestSupport

/// `umilog plot`: the sample logbook's deepest dive drawn as SVG and rendered to PNG, the
/// logbook's dive the same, and each way of asking wrongly.
@Suite struct PlotCLITests {
    static let sample = "Samples/logbook.uddf"

    /// The deepest dive, as `inspect` finds it: `deepest: 28.3 m (dive 1, 2024-03-02 09:15)`.
    func deepest() throws -> (depth: String, dive: String) {
        let line = try umilog(["inspect", Self.sample]).stdout.split(separator: "\n").first { $0.hasPrefix("deepest:") }!
        let words = line.split(separator: " ")
        return (String(words[1]), String(words[4].dropLast()))
    }

    @Test func theDeepestSampleDiveAsSVG() throws {
        let (depth, dive) = try deepest()
        #expect(depth == "28.3" && dive == "1")
        let r = try umilog(["plot", Self.sample, "--dive", dive])
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"540\" viewBox=\"0 0 960 540\""))
        #expect(r.stdout.contains(">Shark Reef, Ras Mohammed — 2024-03-02 09:15 (dive 1)</text>"))
        #expect(r.stdout.contains(">\(depth) m</text>"), "the deepest point is labelled with the depth inspect reports")
        // Both tanks and the switch to the second one's gas, from the log's own cylinders.
        #expect(r.stdout.contains(">tank 1 (Air)</text>") && r.stdout.contains(">tank 2 (EAN50)</text>"))
        #expect(r.stdout.contains("<title>39:00 EAN50</title>") && r.stdout.contains("<title>39:10 safety stop</title>"))

        // -o writes the same bytes, and nothing else into the directory.
        let dir = try Paths.temporaryDirectory()
        #expect(try umilog(["plot", Self.sample, "--dive", dive, "-o", dir + "/profile.svg"]).status == 0)
        #expect(try String(contentsOfFile: dir + "/profile.svg", encoding: .utf8) == r.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["profile.svg"])
    }

    /// The "done when": the deepest dive renders to a PNG of the drawing's size.
    @Test(.enabled(if: Paths.rsvgConvertAvailable, "rsvg-convert is not on PATH (apt-get install librsvg2-bin)"))
    func theDeepestSampleDiveRendersToPNG() throws {
        let dir = try Paths.temporaryDirectory()
        let r = try umilog(["plot", Self.sample, "--dive", try deepest().dive, "-o", dir + "/profile.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/profile.png")))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        func u32(_ i: Int) -> Int { Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3]) }
        #expect(u32(16) == 960 && u32(20) == 540)
        #expect(png.count > 20_000, "\(png.count) bytes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["profile.png"], "no temporary is left")

        // --png writes it to standard output (read back as text, 0x89 is not UTF-8).
        let piped = try umilog(["plot", Self.sample, "--dive", "1", "--png"])
        #expect(piped.status == 0)
        #expect(piped.stdout.hasPrefix("\u{FFFD}PNG\r\n\u{1A}\n\0\0\0\rIHDR"))
    }

    @Test func withoutTheRendererThePNGErrorSaysWhatToInstall() throws {
        let dir = try Paths.temporaryDirectory()
        let r = try umilog(["plot", Self.sample, "--dive", "1", "-o", dir + "/p.png"], environment: ["PATH": dir])
        #expect(r.status == 1)
        #expect(r.stderr == "\(dir)/p.png: error[plot.no-renderer]: a PNG is rendered by rsvg-convert, which is not on PATH; install it (Debian, Ubuntu: apt-get install librsvg2-bin) or write the SVG\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func choosingTheDive() throws {
        let several = try umilog(["plot", Self.sample])
        #expect(several.status == 2)
        #expect(several.stderr == "Error: Samples/logbook.uddf holds 5 dives: name the one to plot with --dive 1…5\n")
        let beyond = try umilog(["plot", Self.sample, "--dive", "6"])
        #expect(beyond.status == 2)
        #expect(beyond.stderr == "Error: --dive 6: Samples/logbook.uddf holds 5 dives\n")
        let zero = try umilog(["plot", Self.sample, "--dive", "0"])
        #expect(zero.status == 2 && zero.stderr.hasPrefix("Error: --dive 0: dives in a file are counted from 1\n"))
        let both = try umilog(["plot", Self.sample, "--db", "x.sqlite", "--dive", "1"])
        #expect(both.status == 2 && both.stderr.hasPrefix("Error: plot FILE or --db PATH, not both\n"))

        // Dive 3 was logged without a profile.
        let bare = try umilog(["plot", Self.sample, "--dive", "3"])
        #expect(bare.status == 1)
        #expect(bare.stderr == "Samples/logbook.uddf: error[plot.no-profile]: dive/2: the dive has no depth profile to plot (its log recorded no depth samples)\n")
        #expect(bare.stdout.isEmpty)

        // A file of one dive needs no --dive.
        let one = try umilog(["plot", "Samples/shearwater.xml"])
        #expect(one.status == 0 && one.stdout.contains("<svg "))
    }

    @Test func aLogbooksDiveByItsNumber() throws {
        let db = try Paths.temporaryDirectory() + "/log.sqlite"
        #expect(try umilog(["import", Paths.samples + "/logbook.uddf", "--db", db, "-q"]).status == 0)
        let r = try umilog(["plot", "--db", db, "--dive", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(">Shark Reef, Ras Mohammed — 2024-03-02 09:15 (dive 1)</text>"))
        #expect(r.stdout.contains(">28.3 m</text>") && r.stdout.contains("<title>39:00 EAN50</title>"))

        let missing = try umilog(["plot", "--db", db, "--dive", "99"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "\(db): error[plot.no-such-dive]: dive 99: the logbook has no dive numbered 99\n")
        let unnamed = try umilog(["plot", "--db", db])
        #expect(unnamed.status == 2 && unnamed.stderr.hasPrefix("Error: name the logbook's dive to plot with --dive N\n"))
    }
}
