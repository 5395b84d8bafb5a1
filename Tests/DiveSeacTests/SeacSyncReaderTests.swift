import Foundation
import GRDB
import Testing
import DiveCore
@testable import DiveSeac
import TestSupport

/// Reads every dive of the database at `path` and the findings the reader reported.
func readSeac(_ path: String, displayName: String? = nil) throws -> (dives: [Dive], findings: [Finding]) {
    let (book, findings) = try SeacSyncReader(path: path, displayName: displayName).readAll()
    return (book.dives, findings)
}

/// The two tables as the Seac Sync app makes them (the corpus file's schema, column for column).
let seacSchema = [
    """
    CREATE TABLE headers_dive (dive_id integer PRIMARY KEY, start_address integer NOT NULL, dive_number integer NOT NULL,
      device_sn text NOT NULL, date text NOT NULL, timezone integer NOT NULL, time text NOT NULL, elapsed_surface_time integer NOT NULL,
      residual_desat_time integer NOT NULL, residual_nofly_time integer NOT NULL, dive_type text NOT NULL, start_mode text, water_type text,
      safety_stop_dm integer, safety_stop_min integer, firmware_version text NOT NULL, date_end text NOT NULL, time_end text NOT NULL,
      allowed_altitude integer, new_desat_time integer, new_nofly_time integer, max_depth integer NOT NULL, total_dive_time integer NOT NULL,
      max_temperature integer NOT NULL, min_temperature integer NOT NULL, start_active_o2 integer, average_depth integer NOT NULL,
      deco_violation text, sample_number integer NOT NULL, created_at text NOT NULL, comment text, UNIQUE (dive_number, date, device_sn))
    """,
    """
    CREATE TABLE dive_data (data_id integer PRIMARY KEY, dive_id integer NOT NULL, dive_number integer NOT NULL, runtime_s integer NOT NULL,
      depth_cm integer NOT NULL, temperature_mCx10 integer NOT NULL, active_O2_fr integer NOT NULL, suggested_O2_fr integer NOT NULL,
      first_stop_depth_cm integer NOT NULL, first_stop_time_s integer NOT NULL, ndl_tts_s integer NOT NULL, cns integer NOT NULL,
      tissue1_N2_mb integer NOT NULL, tissue2_N2_mb integer NOT NULL, tissue3_N2_mb integer NOT NULL, tissue4_N2_mb integer NOT NULL,
      tissue5_N2_mb integer NOT NULL, tissue6_N2_mb integer NOT NULL, tissue7_N2_mb integer NOT NULL, tissue8_N2_mb integer NOT NULL,
      tissue9_N2_mb integer NOT NULL, tissue10_N2_mb integer NOT NULL, tissue11_N2_mb integer NOT NULL, tissue12_N2_mb integer NOT NULL,
      tissue13_N2_mb integer NOT NULL, tissue14_N2_mb integer NOT NULL, tissue15_N2_mb integer NOT NULL, tissue16_N2_mb integer NOT NULL,
      gf_h integer NOT NULL, gf_l integer NOT NULL)
    """,
]

/// A `headers_dive` row made here: dive 1 of device `S-1`, 10 March 2024 09:00:00 UTC in zone
/// `zone`, 12.34 m, `time` as total_dive_time; `extra` overrides columns (`"comment": "'x'"`).
func seacHeader(id: Int = 1, zone: Int = 17, date: String = "10/3/24", total: Int = 120 * 256 + 5, extra: [String: String] = [:]) -> String {
    var v: [(String, String)] = [("dive_id", "\(id)"), ("start_address", "4096"), ("dive_number", "\(id)"), ("device_sn", "'S-1'"), ("date", "'\(date)'"),
                                 ("timezone", "\(zone)"), ("time", "'09:00:00'"), ("elapsed_surface_time", "3600"), ("residual_desat_time", "0"),
                                 ("residual_nofly_time", "0"), ("dive_type", "'1'"), ("firmware_version", "'1000070'"), ("date_end", "'\(date)'"),
                                 ("time_end", "'09:02:00'"), ("max_depth", "1234"), ("total_dive_time", "\(total)"), ("max_temperature", "2000"),
                                 ("min_temperature", "1850"), ("average_depth", "800"), ("sample_number", "3"), ("created_at", "'1 Apr 2024 at 10:00:00 UTC'")]
    for (k, x) in extra { if let i = v.firstIndex(where: { $0.0 == k }) { v[i].1 = x } else { v.append((k, x)) } }
    return "INSERT INTO headers_dive (\(v.map(\.0).joined(separator: ", "))) VALUES (\(v.map(\.1).joined(separator: ", ")))"
}

/// A `dive_data` row made here for dive `dive`: `t` s, `depth` cm, `o2` %, stop depth `stop` cm.
func seacSample(_ dive: Int, _ t: Int, depth: Int, o2: Int = 21, stop: Int = 0, ndl: Int = 6000, gf: (Int, Int) = (80, 85)) -> String {
    let tissues = Array(repeating: "800", count: 16).joined(separator: ", ")
    return "INSERT INTO dive_data (dive_id, dive_number, runtime_s, depth_cm, temperature_mCx10, active_O2_fr, suggested_O2_fr, first_stop_depth_cm, "
        + "first_stop_time_s, ndl_tts_s, cns, \((1...16).map { "tissue\($0)_N2_mb" }.joined(separator: ", ")), gf_h, gf_l) VALUES "
        + "(\(dive), \(dive), \(t), \(depth), 1900, \(o2), \(o2), \(stop), \(stop > 0 ? 60 : 0), \(ndl), 2, \(tissues), \(gf.1), \(gf.0))"
}

/// What the registry's sniffers see of the file at `path`: its first 64 KiB.
func seacSniffInput(_ path: String) -> SniffInput {
    let bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)).prefix(64 * 1024))) ?? []
    return SniffInput(bytes: bytes, text: bytes, isWholeInput: bytes.count < 64 * 1024, xmlRoot: nil, xmlRootTag: nil, isJSON: false)
}

/// A database made by `statements` in a temporary directory; returns its path and the directory.
func makeSeacDatabase(_ statements: [String]) throws -> (path: String, dir: String) {
    let dir = try Paths.temporaryDirectory()
    let path = dir + "/divesDB.db"
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in for sql in statements { try db.execute(sql: sql) } }
    return (path, dir)
}

@Suite struct SeacSyncHabitTests {
    /// Three samples on air over 120 s: the start is the UTC clock moved to zone 17 (UTC+2); the
    /// depths are centimetres, the temperatures 1/100 °C, total_dive_time 256ths of a second.
    @Test func aDiveMadeHere() throws {
        let (path, dir) = try makeSeacDatabase(seacSchema + [seacHeader(extra: ["comment": "'Reef'"]),
                                                             seacSample(1, 0, depth: 100), seacSample(1, 60, depth: 1234), seacSample(1, 120, depth: 50)])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (dives, findings) = try readSeac(path)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2024-03-10T11:00:00+02:00")
        #expect(d.maxDepth == 12.34 && d.avgDepth == 8 && d.bottomTemperature == 18.5 && d.notes == "Reef")
        #expect(d.submergedTime == 120)
        #expect(d.createdAt?.description == "2024-04-01T10:00:00Z")
        #expect(d.cylinders.map(\.oxygen) == [21] && d.cylinders[0].helium == nil)
        let p = try #require(d.profile)
        #expect(p.depth?.values == [100, 1234, 50] && p.temperature?.values == [1900, 1900, 1900] && p.cns?.values == [20, 20, 20])
        #expect(p.ndl?.values == [6000, 6000, 6000] && p.events.isEmpty && p.duration == 120_000)
        #expect(d.recordings.first?.decoModel?.gfLow == 80 && d.recordings.first?.decoModel?.gfHigh == 85)
        #expect(d.recordings.first?.device?.serial == "S-1" && d.recordings.first?.device?.diveNumber == 1)
        #expect(findings.first { $0.code == "seac-sync.dive-time-scaled" }?.message
                == "total_dive_time 30725 is not seconds: read as 256ths of a second, 120 s (the profile's last sample at 120 s agrees)")
        #expect(!findings.contains { $0.code == "seac-sync.sample-count-differs" })
    }

    /// A dive time in seconds that the profile agrees with is read as seconds, and said of nothing.
    @Test func aDiveTimeInSecondsIsReadAsSeconds() throws {
        let (path, dir) = try makeSeacDatabase(seacSchema + [seacHeader(total: 125), seacSample(1, 0, depth: 100), seacSample(1, 120, depth: 50)])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (dives, findings) = try readSeac(path)
        #expect(dives.first?.submergedTime == 125)
        #expect(!findings.contains { $0.code.hasPrefix("seac-sync.dive-time") })
        #expect(findings.first { $0.code == "seac-sync.sample-count-differs" }?.message == "sample_number says 3 samples and dive_data holds 2 for the dive; the rows are read")
    }

    /// Without dive_data, total_dive_time is read by the clock from time to time_end (120 s);
    /// without that too, by magnitude; each says so.
    @Test func withoutSamplesTheDiveTimeIsReadByTheClockOrByMagnitude() throws {
        let (path, dir) = try makeSeacDatabase([seacSchema[0], seacHeader(id: 1), seacHeader(id: 2, total: 900, extra: ["time_end": "''"]),
                                                seacHeader(id: 3, total: 300 * 256 + 5, extra: ["time_end": "''"]), seacHeader(id: 4, total: 900)])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (dives, findings) = try readSeac(path)
        #expect(dives.map(\.submergedTime) == [120, 900, 300, nil])
        #expect(dives.allSatisfy { $0.profile == nil && $0.cylinders.isEmpty })
        #expect(findings.contains { $0.code == "seac-sync.samples-absent" })
        #expect(findings.filter { $0.code == "seac-sync.dive-time-scaled" }.map(\.message) == [
            "total_dive_time 30725 is not seconds: read as 256ths of a second, 120 s (the clock from time to time_end, 120 s, agrees)",
            "total_dive_time 76805 is not seconds: read as 256ths of a second, 300 s (ten hours or more is taken for no dive's length; neither a profile nor an end time checks it)",
        ])
        #expect(findings.first { $0.code == "seac-sync.dive-time-unchecked" }?.message == "total_dive_time 900 is read as seconds; neither a profile nor an end time checks it")
        #expect(findings.first { $0.code == "seac-sync.dive-time-differs" }?.location.row == 4)
    }

    /// Zone 15 is UTC; an index past the computer's 42 zones keeps the UTC instant and says so.
    @Test func theZoneIndex() throws {
        let (path, dir) = try makeSeacDatabase([seacSchema[0], seacHeader(id: 1, zone: 15), seacHeader(id: 2, zone: 0, date: "31/12/23"),
                                                seacHeader(id: 3, zone: 42), seacHeader(id: 4, date: "2024-03-10")])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (dives, findings) = try readSeac(path)
        #expect(dives.map { $0.startedAt?.description } == ["2024-03-10T09:00:00+00:00", "2023-12-30T21:00:00-12:00", "2024-03-10T09:00:00Z", nil])
        #expect(findings.first { $0.code == "seac-sync.zone-unknown" }?.message
                == "timezone 42 is no index of the computer's zones (0 to 41); the start is given in UTC, as the computer's clock keeps it")
        let bad = try #require(findings.first { $0.code == "seac-sync.start-invalid" })
        #expect(bad.location.path == "headers_dive.date" && bad.location.row == 4)
    }

    /// Oxygen that changes between samples is a second cylinder and a gas switch; a stop shown
    /// (first_stop_depth_cm) makes ndl_tts_s ambiguous: not on the NDL channel, counted.
    @Test func twoGasesAndAStop() throws {
        let (path, dir) = try makeSeacDatabase(seacSchema + [seacHeader(), seacSample(1, 0, depth: 100, o2: 32), seacSample(1, 60, depth: 900, o2: 32),
                                                             seacSample(1, 90, depth: 600, o2: 50, stop: 300, ndl: 240), seacSample(1, 120, depth: 300, o2: 50)])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (dives, findings) = try readSeac(path)
        let d = try #require(dives.first)
        #expect(d.cylinders.map(\.oxygen) == [32, 50] && d.cylinders.map(\.gasNumber) == [0, 1])
        #expect(d.profile?.events == [Event(time: 90_000, type: .gasSwitch, gasNumber: 1)])
        #expect(d.profile?.ndl?.times == [0, 60_000, 120_000])
        let paths = Set(findings.filter { $0.code == "seac-sync.not-carried" }.compactMap(\.location.path))
        #expect(paths.isSuperset(of: ["dive_data.first_stop_depth_cm", "dive_data.first_stop_time_s", "dive_data.ndl_tts_s"]))
    }

    /// Every column is met by the walk over the row: one the mapping does not know is reported
    /// by name in either table, as are another table and a gradient factor that changes.
    @Test func everyColumnIsCarriedOrReported() throws {
        let (path, dir) = try makeSeacDatabase(seacSchema + ["ALTER TABLE headers_dive ADD COLUMN rating integer", "ALTER TABLE dive_data ADD COLUMN heart_bpm integer",
                                                             "CREATE TABLE settings (k text, v text)", "INSERT INTO settings VALUES ('units', 'metric')",
                                                             seacHeader(extra: ["rating": "4", "deco_violation": "'ceiling'"]),
                                                             seacSample(1, 0, depth: 100), seacSample(1, 60, depth: 900, gf: (30, 85)), "UPDATE dive_data SET heart_bpm = 90"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, findings) = try readSeac(path)
        let notCarried = findings.filter { $0.code == "seac-sync.not-carried" }
        #expect(notCarried.first { $0.location.path == "headers_dive.rating" }?.message
                == "headers_dive.rating, a column this reader does not know, has no place in umilog's model; row 1 holds \"4\"; not carried")
        #expect(notCarried.first { $0.location.path == "dive_data.heart_bpm" }?.message
                == "dive_data.heart_bpm, a column this reader does not know, has no place in umilog's model; 2 rows hold such values, the first (row 1) \"90\"; not carried")
        #expect(notCarried.contains { $0.location.path == "dive_data.gf_l" && $0.location.row == 2 })
        #expect(notCarried.contains { $0.location.path == "headers_dive.deco_violation" })
        #expect(findings.first { $0.code == "seac-sync.table-not-read" }?.message == "the table settings holds 1 row of no dive's summary or samples; not read")
        // The columns carried are never reported.
        for carried in ["headers_dive.max_depth", "headers_dive.date", "headers_dive.dive_id", "dive_data.depth_cm", "dive_data.runtime_s", "dive_data.data_id"] {
            #expect(!findings.contains { $0.location.path == carried })
        }
    }

    @Test func anotherSQLiteDatabaseIsRefusedClearlyAndNotSniffed() throws {
        let (path, dir) = try makeSeacDatabase(["CREATE TABLE Logbook (ID INTEGER PRIMARY KEY, Divedate TEXT)"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let e = try #require(throws: DiveError.self) { try readSeac(path, displayName: "logbook.sql") }
        #expect(e.description == "logbook.sql: error[seac-sync.not-seac]: the file is an SQLite database but not a Seac Sync one: it has no headers_dive table (its tables are Logbook)")
        #expect(SeacSync.sniff(seacSniffInput(path)) == .none)
        let notSQLite = try #require(throws: DiveError.self) { try readSeac(Paths.samples + "/macdive.xml", displayName: "macdive.xml") }
        #expect(notSQLite.code == "seac-sync.not-sqlite")
    }
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct SeacSyncCorpusTests {
    static let file = Paths.corpus + "/other/seac-sync__TestDiveSeacSync.db"

    /// Read off the file by hand with `sqlite3 -header FILE "select * from headers_dive"` and
    /// `select dive_id, count(*), max(runtime_s), max(depth_cm), min(active_O2_fr), max(active_O2_fr)
    /// from dive_data group by 1`: two rows. dive_id 13 (dive_number 16, device A-2566, firmware
    /// 1000070): date 1/7/20, time 16:49:23 (UTC), timezone 10 (UTC−4: 12:49:23 on 1 July 2020
    /// on the diver's clock), max_depth 1397 cm, average_depth 825, min_temperature 1403,
    /// total_dive_time 196101 (= 766 × 256 + 5), sample_number 155; its 155 samples run 0 to 766 s
    /// every 5 s (the last 1 s after the one before) on 21 % oxygen, gf_l and gf_h 80. dive_id 14: 11/7/20
    /// 17:41:37, 2607 cm, 385290 (= 1505 × 256 + 10), 303 rows on 35 %, two of them at 1505 s.
    @Test func theCorpusFile() throws {
        #expect(SeacSync.sniff(seacSniffInput(Self.file)) == .certain)
        let (dives, findings) = try readSeac(Self.file)
        #expect(dives.count == 2)
        let d = dives[0]
        #expect(d.startedAt?.description == "2020-07-01T12:49:23-04:00")
        #expect(d.maxDepth == 13.97 && d.avgDepth == 8.25 && d.bottomTemperature == 14.03)
        #expect(d.submergedTime == 766)
        #expect(d.cylinders.map(\.oxygen) == [21])
        #expect(d.profile?.sampleCount == 155 && d.profile?.depth?.maxValue == 1397 && d.profile?.duration == 766_000)
        #expect(d.recordings.first?.mode == .openCircuit && d.type == .openCircuit)
        #expect(d.recordings.first?.device?.serial == "A-2566" && d.recordings.first?.device?.firmware == "1000070" && d.recordings.first?.device?.diveNumber == 16)
        #expect(d.recordings.first?.decoModel?.gfLow == 80 && d.recordings.first?.decoModel?.gfHigh == 80)
        #expect(d.createdAt?.description == "2020-07-21T19:04:00Z")
        #expect(d.uuid == Identity.uuid(kind: "dive", sourceID: "13", namespace: SeacSync.namespace))
        let e = dives[1]
        #expect(e.startedAt?.description == "2020-07-11T13:41:37-04:00" && e.maxDepth == 26.07 && e.submergedTime == 1505)
        #expect(e.cylinders.map(\.oxygen) == [35] && e.profile?.sampleCount == 302)
        // 303 rows, two at 1505 s: the first by data_id is kept, and the other said.
        #expect(findings.first { $0.code == "seac-sync.sample-duplicate-time" }?.location.row == 4158)
        #expect(findings.filter { $0.code == "seac-sync.dive-time-scaled" }.count == 2)
        // Every column not carried is one finding for the file.
        let notCarried = Set(findings.filter { $0.code == "seac-sync.not-carried" }.compactMap(\.location.path))
        let expected: Set<String> = Set(["start_address", "elapsed_surface_time", "residual_desat_time", "residual_nofly_time", "start_mode", "water_type",
                                         "safety_stop_dm", "safety_stop_min", "date_end", "time_end", "allowed_altitude", "new_desat_time",
                                         "new_nofly_time", "max_temperature", "start_active_o2"].map { "headers_dive.\($0)" })
            .union((1...16).map { "dive_data.tissue\($0)_N2_mb" }).union(["dive_data.suggested_O2_fr"])
        #expect(notCarried == expected)
        #expect(findings.count == expected.count + 3)
    }
}
