import Foundation
import Testing
@testable import DiveKit
import TestSupport

/// A report over several samples: errors, warnings, a note (a spreadsheet saved as
/// Windows-1252), and one line-less note added by hand.
func sampleReport() -> ValidationReport {
    var report = validate(paths: [
        "Samples/invalid/uddf.schema.value-invalid.uddf",
        "Samples/invalid/dive.depth-out-of-range.uddf",
        "Samples/invalid/xml.malformed.uddf",
        "Samples/csv/spreadsheet-windows-1252.csv",
    ].map { Paths.root + "/" + $0 })
    report.files[report.files.count - 1].diagnostics.append(
        Diagnostic(.note, "csv.encoding-fallback", "a note about the whole file", at: SourceLocation(file: report.files[report.files.count - 1].path)))
    return report
}

@Suite struct ValidationOutputTests {
    @Test func theReportHasEverySeverity() {
        let report = sampleReport()
        #expect(report.count(.error) > 0 && report.count(.warning) > 0 && report.count(.note) > 0)
    }

    @Test func textIsCompilerStyle() {
        let at = SourceLocation(file: "dives/a.uddf", line: 52, column: 7, path: "/uddf/x")
        #expect(renderDiagnostic(Diagnostic(.error, "uddf.schema.value-invalid", "bad", at: at), as: .text)
                == "dives/a.uddf:52:7: error[uddf.schema.value-invalid]: /uddf/x: bad")
        #expect(renderDiagnostic(Diagnostic(.note, "csv.unchecked", "later", at: SourceLocation(file: "a.csv")), as: .text)
                == "a.csv: note[csv.unchecked]: later")
        #expect(renderDiagnostic(Diagnostic(.note, "csv.unchecked", "later", at: SourceLocation(file: "a.csv")), as: .sarif) == nil)
    }

    @Test func jsonLinesAreObjectsWithEveryKey() throws {
        let lines = sampleReport().diagnostics.compactMap { renderDiagnostic($0, as: .json) }
        #expect(lines.count > 3)
        for line in lines {
            #expect(!line.contains("\n"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["file", "line", "column", "path", "severity", "code", "message"])
            #expect(object["file"] is String && object["code"] is String && object["message"] is String)
            #expect(["error", "warning", "note"].contains(object["severity"] as? String))
            #expect(object["line"] is Int || object["line"] is NSNull)
        }
        let d = Diagnostic(.warning, "c", "a \"quoted\"\tvalue\\\n\u{1}é", at: SourceLocation(file: "f"))
        #expect(renderJSONLine(d) == #"{"file":"f","line":null,"column":null,"path":null,"severity":"warning","code":"c","message":"a \"quoted\"\tvalue\\\n\u0001é"}"#)
    }

    @Test func githubLinesAreWorkflowCommands() throws {
        let pattern = try NSRegularExpression(pattern: #"^::(error|warning|notice) file=[^,]+(,line=\d+)?(,col=\d+)?,title=[^:]+::.+$"#)
        let lines = sampleReport().diagnostics.compactMap { renderDiagnostic($0, as: .github) }
        #expect(lines.count > 3)
        for line in lines {
            #expect(pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil, "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("::notice ") })
        #expect(lines.contains { $0.hasPrefix("::warning ") })
        #expect(lines.contains { $0.hasPrefix("::error ") })
    }

    @Test func githubEscapesPropertiesAndMessages() {
        let d = Diagnostic(.error, "x.y", "100% sure:\r\nnext, line", at: SourceLocation(file: "dir,1/a:b.uddf", line: 4, column: 2, path: "/uddf"))
        #expect(renderGitHubAnnotation(d) == "::error file=dir%2C1/a%3Ab.uddf,line=4,col=2,title=x.y::/uddf: 100%25 sure:%0D%0Anext, line")
    }

    @Test func sarifHasTheRequiredShape() throws {
        let report = sampleReport()
        let text = renderSARIF(report)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "umilog")
        #expect(driver["version"] as? String == umilogGenerator.version)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ruleIDs = rules.compactMap { $0["id"] as? String }
        #expect(Set(ruleIDs) == Set(report.diagnostics.map(\.code)))
        #expect(ruleIDs.count == Set(ruleIDs).count)
        for rule in rules {
            #expect(((rule["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
        }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == report.diagnostics.count)
        for (result, d) in zip(results, report.diagnostics) {
            #expect(result["ruleId"] as? String == d.code)
            #expect(ruleIDs[result["ruleIndex"] as! Int] == d.code)
            #expect(["error", "warning", "note"].contains(result["level"] as? String))
            #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let locations = try #require(result["locations"] as? [[String: Any]])
            let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
            let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(uri == d.location.file)
            let region = physical["region"] as? [String: Any]
            #expect((region?["startLine"] as? Int) == d.location.line)
            #expect((region?["startColumn"] as? Int) == d.location.column)
        }
        // The line-less note gets no region.
        #expect(results.contains { r in
            ((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] == nil
        })
    }

    @Test func sarifURIsArePercentEncoded() {
        #expect(uriReference("corpus/Petrel[3699F336]#98.1 2026.uddf") == "corpus/Petrel%5B3699F336%5D%2398.1%202026.uddf")
        #expect(uriReference("Sjö.uddf") == "Sj%C3%B6.uddf")
    }

    @Test func everyCodeHasARuleDescription() {
        for code in ["uddf.schema.value-invalid", "dive.gas-over-100", "xml.truncated", "csv.ragged-row",
                     "divejson.schema.required", "divejson.gas-over-100", "uddf.tankvolume-litres"] {
            #expect(ruleDescription(code) != code, "\(code)")
        }
    }
}
