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
