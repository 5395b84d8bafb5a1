import Foundation
import Testing
import DiveKit
@testable import DiveJSON
import TestSupport

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

    @Test func membersTheModelLacksAreReportedWhereTheyAre() throws {
        let reader = try DiveJSONReader(path: Paths.fixtures + "/valid/demo-logbook.divejson", displayName: "demo.divejson")
        var findings = reader.takeFindings()
        while try reader.next() != nil { findings += reader.takeFindings() }
        let courses = try #require(findings.first { $0.location.path == "$.courses" })
        #expect(courses.kind == .dropped)
        #expect(courses.code == "divejson.member-not-carried")
        #expect(courses.location.line != nil && courses.location.column == 3)
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
