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

/// The streamed check (a dive at a time, what `validate` runs) finds exactly what the check of
/// the whole parsed document finds, on every fixture of the conformance corpus, valid and
/// invalid, and on umilog's own exports.
@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct StreamedValidationTests {
    static var files: [String] {
        ["valid", "invalid", "uddf", "write"].flatMap { dir in corpusFiles(dir).map { dir + "/" + $0 } }
    }

    @Test(arguments: files)
    func streamedFindsWhatTheWholeDocumentCheckFinds(_ file: String) throws {
        let path = Paths.fixtures + "/" + file
        let validator = try DiveJSONValidator()
        let whole = try validator.validate(path: path).map(\.description).sorted()
        let streamed = try validator.validateStreaming(path: path).map(\.description).sorted()
        #expect(streamed == whole)
    }

    /// Made documents whose defects lie in the dives and across dives and records: the same
    /// issues either way (a uuid a dive repeats from a site, a dangling reference, a repeated
    /// member inside a dive, a schema violation deep in a profile).
    @Test func defectsInsideAndAcrossDives() throws {
        let text = """
            {"format": "divejson", "version": "1.0", "exported_at": "2024-01-01T00:00:00Z",
             "dives": [
               {"uuid": "11111111-1111-4111-8111-111111111111", "started_at": "2024-01-01T10:00:00", "site_uuids": ["22222222-2222-4222-8222-222222222222"]},
               {"uuid": "33333333-3333-4333-8333-333333333333", "uuid": "33333333-3333-4333-8333-333333333333", "started_at": "2024-01-02T10:00:00",
                "site_uuids": ["99999999-9999-4999-8999-999999999999"],
                "recordings": [{"profile": {"duration": 10, "depth": {"times": [0, 20, 10], "values": [0, 100, "x"]}}}]},
               {"uuid": "44444444-4444-4444-8444-444444444444", "started_at": "2024-01-03T10:00:00", "max_depth": 10, "avg_depth": 12}
             ],
             "sites": [{"uuid": "44444444-4444-4444-8444-444444444444", "name": "Reef"}, {"uuid": "22222222-2222-4222-8222-222222222222", "name": "Wall"}]}
            """
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/made.divejson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let validator = try DiveJSONValidator()
        let whole = try validator.validate(path: path)
        let streamed = try validator.validateStreaming(path: path)
        #expect(streamed.map(\.description).sorted() == whole.map(\.description).sorted())
        let codes = Set(streamed.map(\.code))
        #expect(codes.isSuperset(of: ["divejson.duplicate-member", "divejson.dangling-reference", "divejson.duplicate-uuid",
                                       "divejson.series-order", "divejson.avg-depth-exceeds-max", "divejson.schema.type"]), "\(codes)")
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
