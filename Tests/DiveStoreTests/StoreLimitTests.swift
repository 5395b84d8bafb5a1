import DiveCore
import DiveKit
@testable import DiveStore
import Foundation
import GRDB
import GRDBSQLite
import Testing
import TestSupport

/// Nothing a file holds stops the store: a value longer than the logbook takes is left out with
/// a finding or fails its file with a located error, and no number overflows on the way in.
@Suite struct StoreLimitTests {
    /// A DiveJSON dive whose notes are `note`.
    static func dive(_ uuid: String, notes note: String, extra: String = "") -> String {
        // A start of its own for each dive (from the uuid's last digit), so none is another's duplicate.
        """
        {"uuid": "\(uuid)", "started_at": "2024-05-0\(uuid.last!)T10:00:00", "submerged_time": 2400, "max_depth": 20,
         "notes": "\(note)"\(extra)}
        """
    }

    @Test("a note longer than 1 MiB is left out with a located finding and the dive imports; one of 1 MiB is kept")
    func longNote() throws {
        let log = try TemporaryLogbook()
        #expect(log.store.limits.textBytes == 1 << 20)
        let over = try divejson([Self.dive("d0000000-0000-4000-8000-000000000001", notes: String(repeating: "n", count: (1 << 20) + 1))],
                                in: log.directory, name: "over.divejson")
        let report = log.store.importLogbooks([over])
        #expect(report.exitCode == 0 && report.inserted == 1)
        let finding = try #require(report.files[0].findings.first { $0.code == "store.value-too-long" })
        #expect(finding.kind == .dropped)
        #expect(finding.location.file == over && finding.location.line == 2 && finding.location.path == "dive/0/notes")
        #expect(finding.message == "the dive's notes: 1048577 bytes of text, more than the 1048576 the logbook keeps in one text; left out")
        let stored = try log.store.read { db in try Row.fetchOne(db, sql: "SELECT notes, max_depth FROM dive") }
        #expect(stored?["notes"] as String? == nil && stored?["max_depth"] as Double? == 20)

        let exact = try divejson([Self.dive("d0000000-0000-4000-8000-000000000002", notes: String(repeating: "n", count: 1 << 20))],
                                 in: log.directory, name: "exact.divejson")
        let kept = log.store.importLogbooks([exact])
        #expect(kept.inserted == 1 && kept.files[0].findings.isEmpty)
        #expect(try log.store.read { db in try Int.fetchOne(db, sql: "SELECT length(notes) FROM dive WHERE notes IS NOT NULL") } == 1 << 20)
    }

    @Test("a value longer than the connection's SQLITE_LIMIT_LENGTH is a located error, nothing of the file imported — never GRDB's fatal error on binding")
    func connectionLimit() throws {
        let log = try TemporaryLogbook()
        // What a note over SQLite's 1,000,000,000 bytes did, in miniature: the writer takes
        // 20,000 bytes in one value, and the note (under the store's own text limit) is longer.
        log.store.pool.writeWithoutTransaction { db in
            _ = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 20_000)
        }
        let path = try divejson([
            Self.dive("d1000000-0000-4000-8000-000000000001", notes: "short"),
            Self.dive("d1000000-0000-4000-8000-000000000002", notes: String(repeating: "n", count: 30_000)),
        ], in: log.directory, name: "long.divejson")
        let report = log.store.importLogbooks([path])
        #expect(report.exitCode == 1)
        guard case .failed(let e) = report.files[0].status else { Issue.record("not failed: \(report.files[0].status)"); return }
        #expect(e.code == "store.value-too-long")
        #expect(e.location.file == path && e.location.line == 4 && e.location.path == "dive/1", "\(e.location)")
        #expect(e.message == "a value for the logbook's dive table is 30000 bytes, more than the 20000 bytes the logbook takes in one value; nothing of the file was imported")
        #expect(try log.count("dive") == 0 && log.count("source_file") == 0)
    }

    @Test("a record larger than the store's value limit fails its file at the dive that holds it; a site's name over the text limit fails it at the site")
    func valueLimit() throws {
        let dir = try Paths.temporaryDirectory()
        var limits = StoreLimits()
        limits.textBytes = 1000
        limits.valueBytes = 4000
        let store = try LogbookStore(path: dir + "/small.sqlite", limits: limits)
        #expect(store.limits == limits)
        // The dive's extensions are kept in its detail, which is more than 4000 bytes.
        let big = "\"extensions\": {\"test\": {\"blob\": \"" + String(repeating: "x", count: 5000) + "\"}}"
        let path = try divejson([
            Self.dive("d2000000-0000-4000-8000-000000000001", notes: "fine"),
            Self.dive("d2000000-0000-4000-8000-000000000002", notes: "fine", extra: ", " + big),
        ], in: dir, name: "big.divejson")
        let report = store.importLogbooks([path])
        guard case .failed(let e) = report.files[0].status else { Issue.record("not failed: \(report.files[0].status)"); return }
        #expect(e.code == "store.value-too-long" && e.location.line == 4 && e.location.path == "dive/1", "\(e.location)")
        #expect(e.message.hasPrefix("a value for the logbook's dive table is 50"))
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM dive") } == 0)
        // A note over 1000 bytes is left out; a site's name over 1000 bytes cannot be.
        let site = try divejson([
            Self.dive("d2000000-0000-4000-8000-000000000003", notes: String(repeating: "n", count: 1001),
                      extra: ", \"site_uuids\": [\"e2000000-0000-4000-8000-000000000001\"]"),
        ], "\"sites\": [{\"uuid\": \"e2000000-0000-4000-8000-000000000001\", \"name\": \"\(String(repeating: "s", count: 1001))\"}]", in: dir, name: "site.divejson")
        let named = store.importLogbooks([site])
        guard case .failed(let n) = named.files[0].status else { Issue.record("not failed: \(named.files[0].status)"); return }
        #expect(n.code == "store.value-too-long" && n.location.path == "sites/e2000000-0000-4000-8000-000000000001")
        #expect(n.message == "the name of site e2000000-0000-4000-8000-000000000001: 1001 bytes of text, more than the 1000 the logbook keeps in one text; nothing of the file was imported")
    }

    @Test("a number that is not finite, or a depth or duration beyond what the readers take, is refused and reported, not stored")
    func refusedNumbers() throws {
        let log = try TemporaryLogbook()
        var dive = Dive(uuid: "d3000000-0000-4000-8000-000000000001", startedAt: DiveDateTime.parse("2024-05-01T10:00:00")?.0)
        dive.maxDepth = .infinity
        dive.avgDepth = .nan
        dive.bottomTemperature = .infinity
        dive.airTemperature = 24
        var c = Cylinder(); c.startPressure = -.infinity
        dive.cylinders = [c]
        let (kept, findings) = try log.store.write { db in
            var w = RowWriter(db: db, header: LogbookHeader(), file: "x.divejson")
            return (try w.resolveReferences(dive), w.findings)
        }
        #expect(kept.maxDepth == nil && kept.avgDepth == nil && kept.bottomTemperature == nil && kept.cylinders[0].startPressure == nil && kept.airTemperature == 24)
        #expect(findings.map(\.message) == [
            "the maximum depth inf is not a depth (0 to 11,000 m); left out", "the average depth nan is not a finite number; left out",
            "the water temperature inf is not a finite number; left out", "cylinder 1's start pressure -inf is not a finite number; left out",
        ])
        // A duration of 2^63 - 1 s, which DiveJSON can write: refused, so no sum or conversion
        // of it follows (umilog stats stopped on converting it back from a Double).
        let path = try divejson(["""
            {"uuid": "d3000000-0000-4000-8000-000000000002", "started_at": "2024-05-02T10:00:00", "submerged_time": 9223372036854775807, "max_depth": 20}
            """], in: log.directory, name: "long.divejson")
        let report = log.store.importLogbooks([path])
        #expect(report.inserted == 1)
        #expect(report.files[0].findings.map(\.message) == ["the duration 9223372036854775807 is not a duration (0 s to 10 days); left out"])
        #expect(try log.store.stats().longest == nil)
    }

    @Test("sample series whose values are as far apart as integers go are stored and read back exactly")
    func profileExtremes() throws {
        var p = Profile()
        p.depth = Series(times: [0, Int.max, Int.min, 5], values: [Int.min, Int.max, 0, Int.min])
        p.pressures = [PressureSeries(gasNumber: 3, series: Series(times: [Int.max], values: [Int.max]))]
        let (blob, rest) = ProfileCodec.split(p)
        var back = rest
        try ProfileCodec.join(try #require(blob), into: &back)
        #expect(back == p)
        // A damaged blob whose count is beyond any integer is an error, not a trap.
        var damaged = ProfileCodec.magic + [1, 0]
        damaged += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        #expect(throws: DiveError.self) { try ProfileCodec.join(damaged, into: &back) }
    }

    @Test("merging a tank whose gas number is the largest integer gives it a free number, no overflow")
    func mergeGasNumberAtIntMax() throws {
        let log = try TemporaryLogbook()
        let a = try divejson(["""
            {"uuid": "d4000000-0000-4000-8000-000000000001", "started_at": "2024-05-01T10:00:00", "submerged_time": 2400, "max_depth": 20,
             "cylinders": [{"oxygen": 21, "volume": 12, "gas_number": 9223372036854775807}]}
            """], in: log.directory, name: "a.divejson")
        let b = try divejson(["""
            {"uuid": "d4000000-0000-4000-8000-000000000002", "started_at": "2024-05-01T10:01:00", "submerged_time": 2410, "max_depth": 20.2,
             "cylinders": [{"oxygen": 50, "volume": 7, "gas_number": 9223372036854775807}]}
            """], in: log.directory, name: "b.divejson")
        #expect(log.store.importLogbooks([a]).inserted == 1)
        let merged = log.store.importLogbooks([b], options: ImportOptions(onDuplicate: .merge))
        #expect(merged.exitCode == 0 && merged.merged == 1)
        let numbers = try log.store.read { db in try Row.fetchAll(db, sql: "SELECT oxygen, gas_number FROM cylinder ORDER BY position") }
        #expect(numbers.map { $0["gas_number"] as Int } == [Int.max, 0])
    }

    @Test("a duplicate check against a duration as far from the logbook's as integers go does not overflow")
    func duplicateExtremeDuration() throws {
        let log = try TemporaryLogbook()
        _ = log.store.importLogbooks([Paths.samples + "/logbook.uddf"])
        var dive = Dive(uuid: "d5000000-0000-4000-8000-000000000001", startedAt: DiveDateTime.parse("2024-03-02T09:15:00+02:00")?.0)
        dive.submergedTime = Int.min
        dive.maxDepth = 28.3
        let match = try log.store.read { db in
            try Duplicates.find(dive, files: [], placed: [], tolerance: DuplicateTolerance(), db: db)
        }
        #expect(match == nil)
    }
}
