import Foundation
import Testing
@testable import DiveKit
import TestSupport

/// Every UDDF the project has, through Subsurface XML and on to DiveJSON: each dive's start,
/// maximum depth and time under water survive both steps unchanged.
@Suite struct SSRFRoundTripTests {
    static let ssrf = FileFormat(rawValue: "ssrf")!

    static var inputs: [String] {
        let samples = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.samples)) ?? [])
            .filter { $0.hasSuffix(".uddf") }.sorted().map { Paths.samples + "/" + $0 }
        let corpus = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.corpus + "/uddf")) ?? [])
            .filter { $0.hasSuffix(".uddf") }.sorted().map { Paths.corpus + "/uddf/" + $0 }
        return samples + corpus
    }

    /// One dive's identity card: what the round trip must keep.
    struct Card: Equatable, CustomStringConvertible {
        var start: String?
        var maxDepth: Double?
        var submergedTime: Int?
        init(_ d: Dive) {
            // Subsurface XML stores the wall clock; an offset is reported as not carried.
            start = d.startedAt.map { "\($0.date)" + ($0.time.map { "T\($0)" } ?? "") }
            maxDepth = d.maxDepth
            submergedTime = d.submergedTime
        }
        var description: String { "\(start ?? "-") \(maxDepth.map { "\($0) m" } ?? "-") \(submergedTime.map { "\($0) s" } ?? "-")" }
    }

    func cards(_ path: String, _ format: FileFormat) throws -> [Card] {
        let (logbook, _) = try openReader(path: path, format: format).readAll()
        return logbook.dives.map(Card.init)
    }

    func convert(_ input: String, to format: FileFormat, into dir: String, named name: String) throws -> (String, ConversionReport) {
        let out = dir + "/" + name
        let report = DiveKit.convert(inputs: [input], options: ConvertOptions(to: format, output: out, exportedAt: "1970-01-01T00:00:00+00:00"), standardOutput: MemorySink())
        return (out, report)
    }

    @Test(arguments: inputs)
    func startDepthAndTimeSurviveUDDFToSubsurfaceToDiveJSON(input: String) throws {
        let dir = try Paths.temporaryDirectory()
        let original = try cards(input, .uddf)
        let (ssrfFile, toSSRF) = try convert(input, to: Self.ssrf, into: dir, named: "out.ssrf")
        #expect(!toSSRF.failed, "\(toSSRF.inputs.first?.error.map { "\($0)" } ?? "")")
        // A dive with no start cannot be written to Subsurface XML (it is reported): the rest go through.
        let dated = original.filter { $0.start != nil }
        let viaSSRF = try cards(ssrfFile, Self.ssrf)
        #expect(viaSSRF == dated, "UDDF → ssrf changed \(zip(viaSSRF, dated).filter { $0 != $1 }.prefix(3).map { "\($1) → \($0)" })")
        let (jsonFile, toJSON) = try convert(ssrfFile, to: .json, into: dir, named: "out.divejson")
        #expect(!toJSON.failed)
        let viaJSON = try cards(jsonFile, .json)
        #expect(viaJSON == dated, "ssrf → DiveJSON changed \(zip(viaJSON, dated).filter { $0 != $1 }.prefix(3).map { "\($1) → \($0)" })")
        if original.count != dated.count {
            #expect(toSSRF.inputs.first?.findings.contains { $0.code.hasPrefix("ssrf.") } == true, "a dive left out must be reported")
        }
    }
}

/// Subsurface XML through umilog's writer and back: every Subsurface file the project has reads
/// the same after `--to ssrf` as before, dive for dive (the uuids aside: a dive's is its place,
/// a site's the writer's own 8 hex digits). Compared as models, streamed, so that the test
/// process stays small (the CLI tests measure their children's memory).
@Suite struct SSRFSelfRoundTripTests {
    static var inputs: [String] {
        let corpus = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.corpus + "/ssrf")) ?? [])
            .sorted().map { Paths.corpus + "/ssrf/" + $0 }
        return [Paths.samples + "/logbook.ssrf"] + corpus
    }

    /// The dive without its identities, its place in its file, and the names the records it
    /// refers to go by instead of their uuids.
    static func comparable(_ d: Dive, _ header: LogbookHeader) -> Dive {
        var d = d
        d.uuid = ""
        d.provenance = nil
        d.layout = SourceLayout()
        d.siteUUIDs = d.siteUUIDs.map { header.site($0)?.name ?? "?" }
        d.people = d.people.map { var p = $0; p.personUUID = header.person(p.personUUID)?.name ?? "?"; return p }
        return d
    }

    @Test(arguments: inputs)
    func aSubsurfaceLogbookWrittenBackReadsTheSame(input: String) throws {
        let dir = try Paths.temporaryDirectory()
        let ssrf = FileFormat(rawValue: "ssrf")!
        let report = DiveKit.convert(inputs: [input], options: ConvertOptions(to: ssrf, output: dir + "/b.ssrf"), standardOutput: MemorySink())
        #expect(!report.failed)
        let a = try openReader(path: input, format: ssrf), b = try openReader(path: dir + "/b.ssrf", format: ssrf)
        var count = 0
        while let x = try a.next() {
            let y = try #require(try b.next(), "dive \(count) is missing after the round trip")
            #expect(Self.comparable(x, a.header) == Self.comparable(y, b.header), "dive \(count) of \(input) differs")
            count += 1
        }
        #expect(try b.next() == nil)
        #expect(count > 0)
        // The sites, by what they hold.
        func sites(_ h: LogbookHeader) -> [String] { h.sites.map { "\($0.name)|\(String(describing: $0.position))|\($0.notes ?? "")|\($0.location?.name ?? "")" }.sorted() }
        #expect(sites(a.header) == sites(b.header))
    }
}

@Suite struct ForcedFormatTests {
    /// `--from` naming another format than the file's: the error says what the file looks like.
    @Test func aWrongFromSaysWhatTheFileLooksLike() throws {
        let report = DiveKit.convert(inputs: [Paths.samples + "/logbook.ssrf"], options: ConvertOptions(to: .csv, from: .uddf), standardOutput: MemorySink())
        let e = try #require(report.inputs.first?.error)
        #expect(e.code == "uddf.not-uddf")
        #expect(e.message.hasSuffix("; the file looks like Subsurface XML (--from ssrf, or leave --from out)"))
    }
}
