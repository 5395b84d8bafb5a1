import Foundation
import Testing
import DiveKit
import TestSupport

/// The DiveJSON corpus's UDDF reader pairs: each `X.uddf` beside the `X.divejson` a correct
/// converter produces. Compared as JSON values (numbers by value, members in any order),
/// without the two members a pair does not fix, `exported_at` and `generator`.
let readerPairs: [String] = {
    guard Paths.sharedAvailable else { return [] }
    let dir = Paths.fixtures + "/uddf"
    return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
        .filter { $0.hasSuffix(".uddf") }.map { String($0.dropLast(5)) }.sorted()
}()

/// The parsed document without `exported_at` and `generator`, and without what umilog adds
/// under its own producer key (`extensions.umilog`): a pair fixes the core members.
func document(_ data: Data) throws -> NSDictionary {
    let object = try JSONSerialization.jsonObject(with: data)
    guard var dict = object as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
    dict["exported_at"] = nil
    dict["generator"] = nil
    return withoutUmilogEntries(dict) as! NSDictionary
}

func withoutUmilogEntries(_ value: Any) -> Any {
    if let array = value as? [Any] { return array.map(withoutUmilogEntries) }
    guard let dict = value as? [String: Any] else { return value }
    var out: [String: Any] = [:]
    for (k, v) in dict {
        var v = withoutUmilogEntries(v)
        if k == "extensions", var entries = v as? [String: Any] {
            entries["umilog"] = nil
            if entries.isEmpty { continue }
            v = entries
        }
        out[k] = v
    }
    return out as NSDictionary
}

typealias TextSink = MemorySink

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct ReaderPairTests {
    @Test(arguments: readerPairs)
    func uddfConvertsToTheExpectedDocument(_ name: String) throws {
        let sink = TextSink()
        let report = convert(inputs: [Paths.fixtures + "/uddf/\(name).uddf"], options: ConvertOptions(to: .json), standardOutput: sink)
        #expect(!report.failed)
        let expected = try Data(contentsOf: URL(fileURLWithPath: Paths.fixtures + "/uddf/\(name).divejson"))
        let produced = try document(Data(sink.bytes))
        #expect(produced == (try document(expected)), "diff against fixtures/uddf/\(name).divejson")
    }

    @Test func everyPairIsFound() {
        #expect(readerPairs.count == 13)
    }
}
