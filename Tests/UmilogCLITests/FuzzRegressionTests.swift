import Foundation
import Testing
import TestSupport

/// Inputs the fuzzers (`scripts/fuzz.sh`) found that crashed, leaked or hung, minimised, in
/// `Samples/fuzz/`: each goes through every output format and `validate` in a child process
/// that must end on its own, in bounded memory, with an exit status rather than a signal.
@Suite struct FuzzRegressionTests {
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.samples + "/fuzz")) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()

    @Test(arguments: files)
    func endsOnItsOwn(_ name: String) throws {
        let path = Paths.samples + "/fuzz/" + name
        let dir = try Paths.temporaryDirectory()
        for to in ["json", "csv", "csv-profile", "uddf", "ssrf"] {
            let run = try runMeasured("/usr/bin/timeout", ["20", Paths.umilog, "convert", path, "--to", to, "-o", dir + "/out." + to])
            #expect(run.signal == nil, "\(name) → \(to)")
            #expect(run.status == 0 || run.status == 1, "\(name) → \(to): status \(run.status) (124: it hung)")
            #expect(run.peakKB < 256 * 1024, "\(name) → \(to)")
        }
        let check = try runMeasured("/usr/bin/timeout", ["20", Paths.umilog, "validate", path])
        #expect(check.signal == nil && check.status != 124, "\(name): validate")
    }

    /// The first one: pressures of a gas no cylinder has held the UDDF writer's samples loop at
    /// their instant for ever. Every instant is one waypoint, and the channel is reported.
    @Test func unresolvedPressuresDoNotHoldTheSamples() throws {
        let dir = try Paths.temporaryDirectory()
        let out = dir + "/out.uddf"
        let run = try runMeasured("/usr/bin/timeout", ["20", Paths.umilog, "convert", Paths.samples + "/fuzz/uddf-writer-unresolved-pressure-hang.divejson", "--to", "uddf", "-o", out])
        #expect(run.status == 0)
        #expect(run.stderr.contains("dropped[uddf.pressure-unresolved]"))
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.components(separatedBy: "<waypoint>").count - 1 == 3)
    }
}
