import Foundation
import Testing
import TestSupport

/// `--json` on every command that prints a result: each run on the sample logbook prints one
/// JSON object whose shape — its members, nested, and each value's JSON type — is the
/// recorded one in `Snapshots/json-shapes.txt` (the README's "JSON output" documents it).
/// A member added, renamed or retyped fails here; record the new shape deliberately
/// (`UMILOG_RECORD_SNAPSHOTS=1`), and update the README with it.
@Suite(.serialized) struct JSONShapeTests {
    static let snapshot = Paths.root + "/Tests/UmilogCLITests/Snapshots/json-shapes.txt"

    /// A JSON value's shape: objects as `{name:shape,…}` (names sorted), arrays as the shape of
    /// their first element in brackets (`[]` when empty), scalars by their type.
    static func shape(_ v: Any) -> String {
        switch v {
        case let o as [String: Any]: return "{" + o.keys.sorted().map { "\($0):\(shape(o[$0]!))" }.joined(separator: ",") + "}"
        case let a as [Any]: return a.first.map { "[" + shape($0) + "]" } ?? "[]"
        case is NSNull: return "null"
        case is Bool where !(v is Int) && !(v is Double): return "bool"
        case let n as NSNumber: return String(cString: n.objCType) == "c" ? "bool" : "number"
        case is String: return "string"
        default: return "?"
        }
    }

    @Test func everyCommandsJSONKeepsItsShape() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/l.sqlite"
        #expect(try umilog(["db", "init", "--db", db, "--seed"]).status == 0)
        let runs: [(String, [String])] = [
            ("import", ["import", "Samples/logbook.uddf", "--db", db, "--json"]),
            ("inspect", ["inspect", "Samples/logbook.uddf", "--json"]),
            ("csv inspect", ["csv", "inspect", "Samples/csv/dates-as-written.csv", "--json"]),
            ("stats", ["stats", "--db", db, "--json"]),
            ("dives", ["dives", "--db", db, "--json"]),
            ("species search", ["species", "search", "turtle", "--db", db, "--json"]),
            ("species popular", ["species", "popular", "--db", db, "--json"]),
            ("sites near", ["sites", "near", "27.7342", "34.2567", "--db", db, "--json"]),
            ("sites search", ["sites", "search", "jackfish", "--db", db, "--json"]),
            ("backfill", ["backfill", "--dry-run", "--db", db, "--json"]),
            ("sites create-from-gps", ["sites", "create-from-gps", "--dry-run", "--db", db, "--json"]),
            ("sites pending", ["sites", "pending", "--db", db, "--json"]),
            ("db check", ["db", "check", "--db", db, "--json"]),
        ]
        var lines: [String] = []
        for (name, args) in runs {
            let r = try umilog(args)
            #expect(r.status == 0, "\(name): \(r.stderr)")
            // One JSON object on one line, nothing else on standard output.
            #expect(r.stdout.hasSuffix("}\n") && r.stdout.filter { $0 == "\n" }.count == 1, "\(name): \(r.stdout.prefix(200))")
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
            lines.append("\(name): \(Self.shape(object))")
        }
        let got = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["UMILOG_RECORD_SNAPSHOTS"] != nil {
            try got.write(toFile: Self.snapshot, atomically: true, encoding: .utf8)
        }
        let recorded = try String(contentsOfFile: Self.snapshot, encoding: .utf8)
        for (g, r) in zip(got.split(separator: "\n"), recorded.split(separator: "\n")) where g != r {
            Issue.record("shape changed:\n  recorded \(r)\n  now      \(g)")
        }
        #expect(got.split(separator: "\n").count == recorded.split(separator: "\n").count)
    }
}
