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
