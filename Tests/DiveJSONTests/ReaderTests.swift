import Foundation
import Testing
import DiveKit
@testable import DiveJSON
import TestSupport

/// The fixtures of `valid/`.
let validFixtures: [String] = Paths.sharedAvailable
    ? ((try? FileManager.default.contentsOfDirectory(atPath: Paths.fixtures + "/valid")) ?? []).filter { $0.hasSuffix(".divejson") }.sorted()
    : []

/// A document's text without its `exported_at` line and `generator` object.
func withoutExportMembers(_ text: String) -> String {
    var out: [Substring] = []
    var inGenerator = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("  \"exported_at\": ") { continue }
        if line.hasPrefix("  \"generator\": {") { inGenerator = true; continue }
        if inGenerator { if line.hasPrefix("  }") { inGenerator = false }; continue }
        out.append(line)
    }
    return out.joined(separator: "\n")
}

/// The document as a comparable value, without the members a conversion sets anew.
func comparable(_ data: Data, dropping: [String] = ["exported_at", "generator"]) throws -> NSDictionary {
    var dict = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    for key in dropping { dict[key] = nil }
    return dict as NSDictionary
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct DiveJSONReaderTests {
    /// Every document the corpus's UDDF pairs expect holds only what the model carries, so it
    /// reads and writes back to the same document, its `extensions` kept as they were.
    @Test(arguments: readerPairs)
    func convertedDocumentsReadBackWhole(_ name: String) throws {
        let path = Paths.fixtures + "/uddf/\(name).divejson"
        let sink = TextSink()
        let report = convert(inputs: [path], options: ConvertOptions(to: .json), standardOutput: sink)
        #expect(!report.failed)
        #expect(report.inputs.first?.findings.isEmpty == true, "\(report.inputs.first?.findings ?? [])")
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try comparable(Data(sink.bytes)) == (try comparable(original)))
    }

    /// DiveJSON → model → DiveJSON gives back the very bytes (the corpus's `exported_at` and
    /// `generator` aside, which a conversion sets anew), including each fixture's own member
    /// orders, `20` for `20.0`, a lower-case `z` and lists spelled out empty.
    @Test(arguments: validFixtures)
    func validDocumentsRoundTripByteForByte(_ name: String) throws {
        let path = Paths.fixtures + "/valid/\(name)"
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let sink = TextSink()
        let report = convert(inputs: [path], options: ConvertOptions(to: .json), standardOutput: sink)
        #expect(!report.failed)
        #expect(report.inputs.first?.findings.isEmpty == true, "\(report.inputs.first?.findings ?? [])")
        let written = try #require(String(bytes: sink.bytes, encoding: .utf8))
        #expect(withoutExportMembers(written) == withoutExportMembers(original))
    }

    /// A member DiveJSON does not define, outside `extensions`, is reported where it is, and the
    /// rest of the object is read.
    @Test func anUndefinedMemberIsReportedWhereItIs() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/extra.divejson"
        try """
        {
          "format": "divejson",
          "version": "1.0",
          "exported_at": "2026-01-01T00:00:00Z",
          "dives": [
            {
              "uuid": "0198a6f0-0000-7000-8000-000000000001",
              "started_at": "2026-01-01T10:00:00",
              "wetsuit_mm": 5,
              "max_depth": 12.5
            }
          ]
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try DiveJSONReader(path: path, displayName: "extra.divejson")
        let dive = try #require(try reader.next())
        #expect(dive.maxDepth == 12.5)
        let finding = try #require(reader.takeFindings().first)
        #expect(finding.code == "divejson.member-not-carried")
        #expect(finding.kind == .dropped)
        #expect(finding.location.path == "$.dives[0].wetsuit_mm")
        #expect(finding.location.line == 9 && finding.location.column == 7)
    }

    /// An integer is a number with no fraction, however it is spelled (JSON Schema's sense,
    /// which the validator applies): `5520.0` is 5520 seconds, as is every profile time so spelled.
    @Test func anIntegerWrittenWithAFractionOfZeroReads() throws {
        let path = try Paths.temporaryDirectory() + "/int.divejson"
        try """
        {"format": "divejson", "version": "1.0", "exported_at": "2026-01-01T00:00:00Z", "dives": [
          {"uuid": "0198a6f0-0000-7000-8000-000000000001", "started_at": "2026-01-01T10:00:00", "submerged_time": 5520.0,
           "recordings": [{"profile": {"duration": 6e4, "depth": {"times": [0, 6.0e4], "values": [0, 1200.00]}}}]}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try DiveJSONReader(path: path)
        let dive = try #require(try reader.next())
        #expect(dive.submergedTime == 5520)
        #expect(dive.recordings.first?.profile?.depth == Series(times: [0, 60_000], values: [0, 1200]))
        #expect(reader.takeFindings().isEmpty)
        #expect(try DiveJSONValidator().validate(path: path).isEmpty)
    }

    /// The layout is presentation: applied only where the value is still the one read, it
    /// never changes what a document says.
    @Test func aChangedValueIsWrittenInTheWritersSpelling() throws {
        let reader = try DiveJSONReader(path: Paths.fixtures + "/valid/technical-dive.divejson")
        var dives: [Dive] = []
        while let d = try reader.next() { dives.append(d) }
        #expect(dives[0].layout.texts["visibility"] == "25")
        dives[0].visibility = 30
        let sink = TextSink()
        let writer = DiveJSONWriter(sink: sink, generator: Generator(name: "t"), exportedAt: "2026-01-01T00:00:00Z")
        for d in dives { try writer.write(d, header: reader.header) }
        try writer.finish(header: reader.header)
        let text = try #require(String(bytes: sink.bytes, encoding: .utf8))
        #expect(text.contains("\"visibility\": 30.0"))
        #expect(text.contains("\"weight\": 0,"))
    }

    @Test func aDuplicateMemberIsReportedAndTheFirstRead() throws {
        let reader = try DiveJSONReader(path: Paths.fixtures + "/invalid/duplicate-json-member.divejson")
        let findings = reader.takeFindings()
        #expect(findings.contains { $0.code == "json.duplicate-member" && $0.location.line == 5 })
    }

    @Test func otherJSONIsNotDiveJSON() throws {
        #expect(throws: DiveError.self) {
            try DiveJSONReader(path: Paths.corpus + "/json/suunto-app__suunto_eon_core_nitrox.json")
        }
    }
}
