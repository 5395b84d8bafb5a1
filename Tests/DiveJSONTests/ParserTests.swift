import Foundation
import Testing
@testable import DiveJSON
import DiveCore
import TestSupport

func parse(_ text: String) throws -> (JSONNode, [DuplicateMember]) {
    var bytes = Array(text.utf8)
    return try bytes.withUnsafeMutableBytes { raw in
        var p = JSONParser(bytes: UnsafeRawBufferPointer(raw), file: "t.json")
        let node = try p.parseDocument()
        return (node, p.duplicates)
    }
}

func parseError(_ text: String) -> DiveError? {
    do { _ = try parse(text) } catch let e as DiveError { return e } catch {}
    return nil
}

@Suite struct ParserTests {
    @Test func keepsMemberOrderAndNumberText() throws {
        let (node, _) = try parse(#"{"format": "divejson", "b": [1, 2.50, -0.0, 1e-05, 12345678901234567890], "a": {"x": true, "y": null}}"#)
        #expect(node.members.map(\.name) == ["format", "b", "a"])
        #expect(node["b"]?.elements.compactMap(\.numberText) == ["1", "2.50", "-0.0", "1e-05", "12345678901234567890"])
        #expect(node["a"]?["x"]?.value == .bool(true))
        #expect(node["a"]?["y"]?.value == JSONNode.Value.null)
    }

    @Test func decodesEscapes() throws {
        let (node, _) = try parse(#"["a\"b\\c\/\n\u00e9\ud83d\udc20"]"#)
        #expect(node.elements.first?.string == "a\"b\\c/\né🐠")
    }

    @Test func locatesValues() throws {
        let (node, _) = try parse("{\n  \"dives\": [\n    {\"uuid\": 1}\n  ]\n}")
        let dive = try #require(node["dives"]?.elements.first)
        #expect(dive.line == 3)
        #expect(dive.column == 5)
        #expect(dive.members.first?.column == 6)
    }

    @Test func findsDuplicateMembersOtherParsersCollapse() throws {
        let (_, duplicates) = try parse("{\n\"a\": 1,\n\"b\": {\"c\": 1, \"c\": 2},\n\"a\": 3\n}")
        #expect(duplicates.map(\.name) == ["c", "a"])
        #expect(duplicates.map(\.path) == ["$.b", "$"])
        #expect(duplicates.last?.line == 4)
        #expect(duplicates.last?.firstLine == 2)
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "json.syntax", 1, 9),
        ("{\"a\": 01}", "json.syntax", 1, 8),
        ("[1, 2", "json.truncated", 1, 6),
        ("{\"a\": \"x\ny\"}", "json.syntax", 1, 9),
        ("{} {}", "json.trailing", 1, 4),
        ("{\"a\": NaN}", "json.syntax", 1, 7),
        ("\n\n  [tru]", "json.syntax", 3, 4),
    ])
    func errorsAreLocated(text: String, code: String, line: Int, column: Int) throws {
        let e = try #require(parseError(text))
        #expect(e.code == code)
        #expect(e.location.line == line)
        #expect(e.location.column == column)
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let (node, _) = try parse("\u{FEFF}{\"a\": 1}")
        #expect(node["a"]?.numberText == "1")
    }

    @Test(.enabled(if: Paths.sharedAvailable, "needs ../shared"))
    func theCorpusDuplicateMemberFixtureIsCaught() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.fixtures + "/invalid/duplicate-json-member.divejson"))
        let duplicates = try data.withUnsafeBytes { raw -> [DuplicateMember] in
            var p = JSONParser(bytes: raw, file: "duplicate-json-member.divejson")
            _ = try p.parseDocument()
            return p.duplicates
        }
        #expect(duplicates.count == 1)
        // Foundation's parser reads the same text without complaint: the check is ours to make.
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil)
    }
}

/// Reads the DiveJSON text through the path reader (dives parsed one at a time): the dives,
/// or the error it stops at.
func readDeferred(_ text: String) throws -> (dives: [Dive], findings: [Finding]) {
    let path = NSTemporaryDirectory() + "umilog-deferred-\(UUID().uuidString).divejson"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = try DiveJSONReader(path: path, displayName: "t.divejson")
    var dives: [Dive] = [], findings = reader.takeFindings()
    while let d = try reader.next() { dives.append(d); findings += reader.takeFindings() }
    return (dives, findings)
}

@Suite struct DeferredDiveTests {
    static let head = #"{"format": "divejson", "version": "1.0", "exported_at": "2026-01-01T00:00:00Z","# + "\n"

    @Test("dives are parsed one at a time and read as the whole document reads them, records after the dives included")
    func sameAsWhole() throws {
        let text = try String(contentsOfFile: Paths.samples + "/expected/logbook.divejson", encoding: .utf8)
        let deferred = try readDeferred(text)
        let (document, duplicates) = try parse(text)
        let whole = try DiveJSONReader(document: document, duplicates: duplicates, displayName: "t.divejson")
        var dives: [Dive] = []
        while let d = try whole.next() { dives.append(d) }
        #expect(dives.count == 5)
        #expect(deferred.dives == dives)
        // A document whose sites come after its dives (as umilog writes them) still resolves them.
        let late = Self.head + """
         "dives": [{"uuid": "a1000000-0000-4000-8000-000000000001", "started_at": "2024-01-01T10:00:00", "site_uuids": ["a2000000-0000-4000-8000-000000000001"]}],
         "sites": [{"uuid": "a2000000-0000-4000-8000-000000000001", "name": "Late Reef"}]}
        """
        let path = NSTemporaryDirectory() + "umilog-late-\(UUID().uuidString).divejson"
        try late.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try DiveJSONReader(path: path)
        let dive = try #require(try reader.next())
        #expect(reader.header.site(dive.siteUUIDs[0])?.name == "Late Reef")
    }

    @Test("an error inside a later dive is located at its line and column", arguments: [
        // A missing comma, a bracket closing the wrong thing, a raw line break in a string, a truncated file.
        (#"{"uuid": "b", "started_at": "2024-01-02" "max_depth": 3}"#, "json.syntax", 4, 42),
        (#"{"uuid": "b", "started_at": "2024-01-02", "tags": ["x"}"#, "json.syntax", 4, 55),
        ("{\"uuid\": \"b\", \"notes\": \"a\nb\"}", "json.syntax", 4, 26),
        (#"{"uuid": "b", "started_at": "2024-01-02", "tags": ["#, "json.truncated", 4, 52),
    ])
    func locatedErrors(second: String, code: String, line: Int, column: Int) throws {
        let text = Self.head + " \"dives\": [\n{\"uuid\": \"a\", \"started_at\": \"2024-01-01\"},\n" + second + (code == "json.truncated" ? "" : "]}")
        var caught: DiveError?
        do { _ = try readDeferred(text) } catch let e as DiveError { caught = e }
        let e = try #require(caught)
        #expect(e.code == code)
        #expect(e.location.line == line && e.location.column == column, "\(e)")
    }

    @Test("a file rewritten in place between the scan and a dive's parse is an error, not a misread")
    func changedUnderneath() throws {
        let text = Self.head + " \"dives\": [{\"uuid\": \"c1000000-0000-4000-8000-000000000001\", \"started_at\": \"2024-01-01\", \"notes\": \"xx\"}]}"
        let path = NSTemporaryDirectory() + "umilog-changed-\(UUID().uuidString).divejson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try DiveJSONReader(path: path)
        // The same length, the dive's object now ending one byte earlier.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(text.replacingOccurrences(of: "\"xx\"}", with: "\"x\"} ").utf8))
        try handle.close()
        var caught: DiveError?
        do { _ = try reader.next() } catch let e as DiveError { caught = e }
        #expect(caught?.code == "io.changed")
    }

    @Test("a member repeated inside a dive is reported at the dive's path")
    func duplicatesInDives() throws {
        let text = Self.head + " \"dives\": [{\"uuid\": \"c1000000-0000-4000-8000-000000000001\", \"started_at\": \"2024-01-01\", \"notes\": \"a\", \"notes\": \"b\"}]}"
        let (dives, findings) = try readDeferred(text)
        #expect(dives.first?.notes == "a")
        let f = try #require(findings.first { $0.code == "json.duplicate-member" })
        #expect(f.location.path == "$.dives[0]" && f.location.line == 2)
    }
}
