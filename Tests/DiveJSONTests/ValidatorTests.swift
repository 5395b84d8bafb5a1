import Foundation
import Testing
@testable import DiveJSON
import DiveKit
import DiveCore
import TestSupport

func corpusFiles(_ dir: String) -> [String] {
    guard Paths.sharedAvailable else { return [] }
    return ((try? FileManager.default.contentsOfDirectory(atPath: Paths.fixtures + "/" + dir)) ?? [])
        .filter { $0.hasSuffix(".divejson") }.sorted()
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct ValidatorCorpusTests {
    @Test(arguments: corpusFiles("valid").map { "valid/" + $0 } + corpusFiles("uddf").map { "uddf/" + $0 })
    func validDocumentsHaveNoIssue(_ file: String) throws {
        let issues = try DiveJSONValidator().validate(path: Paths.fixtures + "/" + file)
        #expect(issues.isEmpty, "\(issues)")
    }

    @Test(arguments: corpusFiles("invalid"))
    func invalidDocumentsAreRejected(_ file: String) throws {
        let issues = try DiveJSONValidator().validate(path: Paths.fixtures + "/invalid/" + file)
        #expect(!issues.isEmpty)
        #expect(issues.allSatisfy { $0.location.line != nil && $0.location.path != nil })
    }
}

@Suite struct ValidatorRuleTests {
    func issues(_ json: String) throws -> [ValidationIssue] {
        var bytes = Array(json.utf8)
        return try bytes.withUnsafeMutableBytes { raw in
            var p = JSONParser(bytes: UnsafeRawBufferPointer(raw), file: "t.divejson")
            let doc = try p.parseDocument()
            return try DiveJSONValidator().validate(doc, duplicates: p.duplicates, file: "t.divejson")
        }
    }

    let head = #"{"format": "divejson", "version": "1.0", "exported_at": "2026-01-01T00:00:00Z""#

    @Test func aMinimalDocumentIsValid() throws {
        #expect(try issues(head + "}").isEmpty)
    }

    @Test func profileSeriesIntegrityInEveryRecording() throws {
        let doc = head + #", "dives": [{"uuid": "0198a6f0-5555-7001-8000-000000000001", "started_at": "2026-01-01T10:00:00", "recordings": [{"device": {"brand": "X"}}, {"profile": {"duration": 1000, "depth": {"times": [0, 2000, 2000], "values": [0, 100, 50]}}}]}]}"#
        let found = try issues(doc)
        #expect(Set(found.map(\.code)) == ["divejson.series-order", "divejson.profile-duration"])
        #expect(found.first { $0.code == "divejson.series-order" }?.location.path == "$.dives[0].recordings[1].profile.depth.times[2]")
    }

    /// Every reference member the schema defines (`*_uuid`, `*_uuids`) is resolved, and no other.
    @Test func theReferenceTableIsTheSchemasReferences() throws {
        var names = Set<String>()
        func walk(_ n: JSONNode) {
            for m in n.members {
                if m.name.hasSuffix("_uuid") || m.name.hasSuffix("_uuids") { names.insert(m.name) }
                walk(m.value)
            }
            for e in n.elements { walk(e) }
        }
        walk(try DiveJSONValidator.schemaDocument.get())
        #expect(names == Set(Rules.referenceTargets.keys))
    }

    @Test func aDanglingServiceScheduleIsFound() throws {
        let doc = head + #", "gear": [{"uuid": "0198a6f0-5555-7001-8000-0000000000a1", "name": "Reg"}], "gear_service_records": [{"uuid": "0198a6f0-5555-7001-8000-0000000000b1", "gear_uuid": "0198a6f0-5555-7001-8000-0000000000a1", "gear_service_schedule_uuid": "0198a6f0-5555-7001-8000-0000000000c1", "serviced_on": "2026-01-01", "type": "annual"}]}"#
        #expect(try issues(doc).contains { $0.code == "divejson.dangling-reference" && $0.location.path?.hasSuffix("gear_service_schedule_uuid") == true })
    }

    @Test func issuesPrintLikeACompiler() throws {
        let found = try issues("{\"version\": \"1.0\",\n\"format\": \"divejson\", \"exported_at\": \"2026-01-01T00:00:00\"}")
        #expect(found.map(\.description).contains("t.divejson:1:1: error[divejson.member-order]: $: \"format\" must be the document's first member and \"version\" its second"))
        #expect(found.contains { $0.code == "divejson.exported-at-offset" && $0.location.line == 2 })
    }
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct OwnOutputTests {
    /// Whatever a real file holds, what umilog writes is a conforming document: every way a
    /// source can be wrong resolves to an omission and a finding, never to invalid output.
    @Test(arguments: Paths.sharedUDDF.map { Paths.shared + "/" + $0 } + [Paths.samples + "/logbook.uddf"])
    func everyConvertedDocumentValidates(_ file: String) throws {
        let sink = TextSink()
        let report = DiveKit.convert(inputs: [file], options: ConvertOptions(to: .json), standardOutput: sink)
        #expect(!report.failed)
        let issues = try sink.bytes.withUnsafeBytes { raw in
            var p = JSONParser(bytes: raw, file: file)
            return try DiveJSONValidator().validate(p.parseDocument(), duplicates: p.duplicates, file: file)
        }
        #expect(issues.isEmpty, "\(issues)")
    }
}
