import Foundation
import Testing
import DiveKit
@testable import DiveJSON
import TestSupport

/// Hostile DiveJSON (issue 15): each a located error or a finding, never a trap, never a
/// value no reader can hold written out.
@Suite struct HostileJSONTests {
    func document(_ dive: String) -> String {
        #"{"format":"divejson","version":"1.0","exported_at":"2020-01-01T00:00:00Z","dives":[{"uuid":"2d15ba8f-aad9-59bb-ba1a-9aa35a26adde","started_at":"2024-01-01T10:00:00",\#(dive)}]}"#
    }

    func convertText(_ text: String) throws -> (ConversionReport, String) {
        let path = try Paths.temporaryDirectory() + "/in.divejson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let sink = MemorySink()
        let report = convert(inputs: [path], options: ConvertOptions(to: .json), standardOutput: sink)
        return (report, sink.text)
    }

    @Test("1e999 is not read (a finding at its line and column), and the output is JSON with no inf")
    func aNumberBeyondADouble() throws {
        let (report, out) = try convertText(document(#""max_depth":1e999,"submerged_time":3000"#))
        #expect(!report.failed)
        let f = try #require(report.inputs.first?.findings.first { $0.code == "divejson.number-out-of-range" })
        #expect(f.kind == .dropped)
        #expect(f.location.line == 1 && f.location.column == 178)
        #expect(!out.contains("inf"))
        let parsed = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        #expect((parsed?["dives"] as? [[String: Any]])?.first?["max_depth"] == nil)
    }

    @Test("1e-400 reads as 0 and says so")
    func aNumberBelowADouble() throws {
        let (report, _) = try convertText(document(#""max_depth":12,"avg_depth":1e-400,"submerged_time":3000"#))
        let f = try #require(report.inputs.first?.findings.first { $0.code == "divejson.number-underflow" })
        #expect(f.kind == .resolved)
        #expect(f.message.contains("read as 0"))
    }

    @Test("validate calls 1e999 an error: not a number any reader can hold")
    func validateRefusesANumberBeyondADouble() throws {
        let path = try Paths.temporaryDirectory() + "/in.divejson"
        try document(#""max_depth":1e999,"submerged_time":3000"#).write(toFile: path, atomically: true, encoding: .utf8)
        let report = validate(paths: [path])
        #expect(report.exitCode == 1)
        #expect(report.diagnostics.contains { $0.code == "divejson.schema.type" && $0.message.contains("1e999") })
    }

    @Test("100,000 nested arrays are json.too-deep at their place, in convert and validate")
    func deepArrays() throws {
        let text = #"{"format":"divejson","version":"1.0","exported_at":"2020-01-01T00:00:00Z","x":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        let (report, _) = try convertText(text)
        #expect(report.failed)
        #expect(report.inputs.first?.error?.code == "json.too-deep")
        let path = try Paths.temporaryDirectory() + "/deep.divejson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(validate(paths: [path]).diagnostics.map(\.code).contains("json.too-deep"))
    }
}
