import Foundation
import GRDB
import Testing
import DiveCore
@testable import DiveShearwater
import TestSupport

/// Reads every dive of the database at `path` and the findings the reader reported.
func readShearwaterDB(_ path: String, displayName: String? = nil) throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
    let reader = try ShearwaterDBReader(path: path, displayName: displayName)
    var dives: [Dive] = []
    var findings = reader.takeFindings()
    while let d = try reader.next() {
        dives.append(d)
        findings += reader.takeFindings()
    }
    return (dives, findings + reader.takeFindings(), reader.header)
}

/// A database made by `statements` in a temporary directory; returns its path and the directory.
func makeDatabase(_ statements: [String]) throws -> (path: String, dir: String) {
    let dir = try Paths.temporaryDirectory()
    let path = dir + "/export.db"
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
        for sql in statements { try db.execute(sql: sql) }
    }
    return (path, dir)
}

let cloudCorpus = Paths.corpus + "/shearwater/shearwater-cloud-synthetic__102_o2_cell_traffic_light_demo.db.export"

@Suite struct ShearwaterDBReaderTests {
    /// Read off the file independently:
    /// `python3 -c "import sqlite3,gzip,sys; c=sqlite3.connect('file:'+sys.argv[1]+'?mode=ro&immutable=1',uri=True); print(c.execute('select count(*), DiveDate, Depth, DiveLengthTime from dive_details').fetchone()); d=gzip.decompress(c.execute('select data_bytes_1 from log_data').fetchone()[0][4:]); s=[d[i:i+32] for i in range(0,len(d),32) if d[i]==1]; print(len(s), sorted({(x[8],x[9]) for x in s}), sum(1 for x in s if x[3:5]==b'\0\0'))" FILE`
    /// prints `(1, '2026-01-01 12:00:00', '47.2', '4190')` and `419 [(21, 0)] 106`: one dive of
    /// 47.2 m and 4190 s, 419 dive samples (type 0x01) all on 21 % oxygen and no helium, 106 of
    /// them out of deco (stop depth 0, so an NDL). Their status byte's open-circuit bit (0x10) is
    /// clear: a closed-circuit dive, so the gas is a diluent.
    @Test(.enabled(if: Paths.sharedAvailable)) func theCorpusCloudExport() throws {
        let (dives, findings, _) = try readShearwaterDB(cloudCorpus)
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2026-01-01T12:00:00")
        #expect(d.maxDepth == 47.2)
        #expect(d.submergedTime == 4190)
        #expect(d.cylinders.first?.oxygen == 21 && d.cylinders.first?.helium == 0 && d.cylinders.first?.role == .diluent)
        let p = try #require(d.profile)
        #expect(p.sampleCount == 419)
        #expect(p.depth?.count == 419)
        #expect(p.ndl?.count == 106)
        #expect(p.depth?.times.first == 10_000 && p.depth?.times.last == 4_190_000)
        #expect(p.depth?.maxValue == 4720)
        let r = try #require(d.recordings.first)
        #expect(r.mode == .closedCircuit)
        #expect(r.device?.model == "Petrel 3" && r.device?.serial == "DEAD0810")
        #expect(r.decoModel?.gfLow == 40 && r.decoModel?.gfHigh == 70)
        #expect(d.uuid == Identity.uuid5(namespace: ShearwaterDB.namespace, name: "dive:9000000000000000001"))
        // The log's own summary disagrees with dive_details's (a demo file): reported, not used.
        #expect(findings.contains { $0.code == "shearwater-db.max-depth-differs" })
        // Its clock, 1785575328 s from 1970 in opening record 0 (bytes 12-15; `datetime.utcfromtimestamp`
        // reads it 2026-08-01 09:08:48), is a wall clock: no offset.
        #expect(findings.first { $0.code == "shearwater-db.start-differs" }?.message
                == "the log's startDate says 2026-08-01T09:08:48, the dive's record 2026-01-01T12:00:00; the dive's record is kept")
        #expect(findings.contains { $0.code == "shearwater-db.not-carried" && $0.location.path == "log_data.format_version" })
    }

    /// `Samples/shearwater-cloud.db`, by `scripts/make-sample-shearwater.py`: an open-circuit dive
    /// of 75 samples on air with transmitter 1 (3000 → 2850 psi in dive_details), and a
    /// closed-circuit one of 98 samples; one table (SWC_TableVersion) the reader does not read.
    /// One gas and one transmitter are paired in order: one air cylinder with its pressures (it
    /// was an air cylinder without them beside a cylinder of pressures without a gas).
    @Test func theSampleDatabase() throws {
        let (dives, findings, header) = try readShearwaterDB(Paths.samples + "/shearwater-cloud.db")
        #expect(dives.count == 2)
        #expect(dives.map { $0.startedAt?.description } == ["2025-06-14T09:12:00", "2025-06-15T10:40:00"])
        #expect(dives.map(\.maxDepth) == [22, 30])
        #expect(dives.map(\.submergedTime) == [750, 980])
        #expect(dives.map { $0.profile?.sampleCount } == [75, 98])
        #expect(dives.map { $0.recordings.first?.mode } == [.openCircuit, .closedCircuit])
        #expect(dives.map { $0.recordings.first?.device?.model } == ["Teric", "Petrel 3"])
        #expect(dives[0].cylinders.map(\.oxygen) == [21])
        #expect(dives[0].cylinders[0].startPressure == 206.8 && dives[0].cylinders[0].endPressure == 196.5)
        #expect(dives[0].profile?.pressures.map(\.gasNumber) == [0] && dives[0].profile?.pressures.first?.series.count == 75)
        #expect(findings.first { $0.code == "shearwater-db.tank-paired-by-order" }?.message
                == "the dive breathed 1 gas and 1 transmitter reports pressures, and the log does not say which tank holds which: paired in order, the log's sample tank0pressurePSI's 75 pressures are the 21/0 cylinder's")
        #expect(!findings.contains { $0.code == "shearwater-db.tank-gas-absent" })
        #expect(dives[1].cylinders.map(\.role) == [.diluent])
        #expect(header.sites.map(\.name) == ["Red Rock"])
        #expect(findings.contains { $0.code == "shearwater-db.table-not-read" && $0.location.path == "SWC_TableVersion" })
        #expect(findings.contains { $0.code == "shearwater-db.not-carried" && $0.location.path == "dive_details.Weather" })
    }

    @Test func aDatabaseWithoutShearwaterTablesIsRefusedClearly() throws {
        let (path, dir) = try makeDatabase(["CREATE TABLE Logbook (ID INTEGER PRIMARY KEY, Divedate TEXT)", "INSERT INTO Logbook VALUES (1, '2024-01-01')"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let e = try #require(throws: DiveError.self) { try readShearwaterDB(path, displayName: "divinglog.sql") }
        #expect(e.code == "shearwater-db.not-shearwater")
        #expect(e.description == "divinglog.sql: error[shearwater-db.not-shearwater]: the file is an SQLite database but not a Shearwater Cloud export: it has no dive_details table (its tables are Logbook)")
        #expect(ShearwaterDB.sniff(sniffInput(path)) == .none)
    }

    @Test func aCorruptDatabaseIsALocatedError() throws {
        var statements = ["CREATE TABLE dive_details (DiveId varchar primary key not null, DiveDate datetime, Notes varchar)",
                          "CREATE TABLE log_data (log_id varchar primary key not null, format varchar, data_bytes_1 blob)"]
        for i in 0..<300 { statements.append("INSERT INTO dive_details VALUES ('\(i)', '2024-01-01 10:00:00', '\(String(repeating: "x", count: 300))')") }
        let (path, dir) = try makeDatabase(statements)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        for i in pageSize..<min(bytes.count, pageSize * 6) { bytes[i] = 0xA5 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let e = try #require(throws: DiveError.self) { try readShearwaterDB(path, displayName: "broken.db") }
        #expect(e.code == "shearwater-db.corrupt")
        #expect(e.location.file == "broken.db" && e.location.path == "dive_details")
        #expect(e.message.contains("damaged"))
        // Garbage behind SQLite's magic is refused the same way, by SQLite.
        try Data(Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0x5A, count: 2000)).write(to: URL(fileURLWithPath: path))
        let garbage = try #require(throws: DiveError.self) { try readShearwaterDB(path, displayName: "broken.db") }
        #expect(garbage.code.hasPrefix("shearwater-db."))
        #expect(garbage.location.file == "broken.db")
        // A file that is no SQLite at all.
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: path))
        #expect((try #require(throws: DiveError.self) { try readShearwaterDB(path) }).code == "shearwater-db.not-sqlite")
    }

    @Test func everyColumnIsCarriedOrReportedAndUnreadTablesOnce() throws {
        let (path, dir) = try makeDatabase([
            "CREATE TABLE dive_details (DiveId varchar primary key not null, DiveDate datetime, Depth varchar, DiveLengthTime varchar, Weather varchar, Site varchar, Buddy varchar, FooBar varchar, Notes varchar)",
            "INSERT INTO dive_details VALUES ('A', '2024-03-01 09:30:00', '18.4', '2700', 'Sunny', 'Blue Hole', 'Ann', 'x', NULL)",
            "INSERT INTO dive_details VALUES ('B', '2024-03-02 10:00:00', '12', '1800', 'Windy', 'Blue Hole', NULL, NULL, '')",
            "CREATE TABLE log_data (log_id varchar primary key not null, file_name varchar, format varchar, data_bytes_1 blob)",
            "CREATE TABLE SyncV3MetadataDiveLog (Id varchar, Body varchar)",
            "INSERT INTO SyncV3MetadataDiveLog VALUES ('A', '{}')",
            "CREATE TABLE DeletedLogs (Id varchar)",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (dives, findings, header) = try readShearwaterDB(path, displayName: "x.db")
        #expect(dives.map(\.maxDepth) == [18.4, 12])
        #expect(dives.map(\.submergedTime) == [2700, 1800])
        #expect(header.sites.map(\.name) == ["Blue Hole"])
        #expect(dives[0].siteUUIDs == dives[1].siteUUIDs)
        #expect(header.people.map(\.name) == ["Ann"] && dives[0].people.first?.role == .buddy)
        let weather = try #require(findings.first { $0.code == "shearwater-db.not-carried" && $0.location.path == "dive_details.Weather" })
        #expect(weather.location.row == 1)
        #expect(weather.message == #"dive_details.Weather has no place in umilog's model; 2 rows hold values, the first (row 1) "Sunny"; not carried"#)
        #expect(findings.filter { $0.location.path == "dive_details.FooBar" }.count == 1)
        #expect(!findings.contains { $0.location.path == "dive_details.Notes" })
        let tables = findings.filter { $0.code == "shearwater-db.table-not-read" }
        #expect(tables.map { $0.location.path ?? "" }.sorted() == ["DeletedLogs", "SyncV3MetadataDiveLog"])
        #expect(tables.first { $0.location.path == "SyncV3MetadataDiveLog" }?.kind == .dropped)
        #expect(findings.filter { $0.code == "shearwater-db.log-absent" }.count == 2)
    }

    /// Shearwater Desktop's layout: the dive's log in `dive_logs`, its samples in
    /// `dive_log_records`, the columns the XML export's elements are named after.
    @Test func theDiveLogsLayoutIsRead() throws {
        var statements = [
            "CREATE TABLE dive_details (DiveId varchar primary key not null, DiveDate datetime, Depth varchar, DiveLengthTime varchar)",
            "INSERT INTO dive_details VALUES ('7', '2023-06-10 08:00:00', '21.5', '40')",
            "CREATE TABLE dive_logs (diveId varchar primary key not null, number integer, imperialUnits integer, gfMin integer, gfMax integer, decoModel integer, maxTime integer, computerSerial integer, startSurfacePressure integer, logChecksum integer)",
            "INSERT INTO dive_logs VALUES ('7', 12, 0, 30, 85, 0, 40, 12345, 1012, 99)",
            "CREATE TABLE dive_log_records (id integer primary key autoincrement not null, diveLogId varchar, currentTime integer, currentDepth float, fractionO2 float, fractionHe float, currentCircuitSetting integer, waterTemp integer, sensor1Millivolts integer)",
        ]
        for i in 0..<5 {
            statements.append("INSERT INTO dive_log_records (diveLogId, currentTime, currentDepth, fractionO2, fractionHe, currentCircuitSetting, waterTemp, sensor1Millivolts) VALUES ('7', \(i * 10_000), \(Double(i) * 2.5), 32, 0, 1, 24, 40)")
        }
        let (path, dir) = try makeDatabase(statements)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (dives, findings, _) = try readShearwaterDB(path)
        let d = try #require(dives.first)
        #expect(d.profile?.depth?.values == [0, 250, 500, 750, 1000])
        #expect(d.profile?.depth?.times == [0, 10_000, 20_000, 30_000, 40_000])
        #expect(d.cylinders.map(\.oxygen) == [32])
        #expect(d.recordings.first?.mode == .openCircuit)
        #expect(d.recordings.first?.decoModel?.gfLow == 30)
        #expect(d.recordings.first?.device?.diveNumber == 12)
        #expect(findings.contains { $0.code == "shearwater-db.fractions-as-percent" })
        #expect(findings.contains { $0.code == "shearwater-db.max-time-unit-unknown" })
        #expect(findings.contains { $0.code == "shearwater-db.not-carried" && $0.location.path == "dive_log_records.sensor1Millivolts" && $0.message.contains("5 rows") })
        #expect(findings.contains { $0.code == "shearwater-db.not-carried" && $0.location.path == "dive_logs.logChecksum" })
    }

    @Test(.enabled(if: Paths.sharedAvailable)) func theSniffWantsShearwatersTables() throws {
        #expect(ShearwaterDB.sniff(sniffInput(cloudCorpus)) == .certain)
    }

    /// dive_details's tank columns are read by the samples' one rule, and every outcome is said:
    /// the no-reading mark and a state are absent, a number no cylinder holds is out of range,
    /// text that is neither is not a number; a cylinder is made only for a pressure carried.
    @Test func tankColumnsFollowTheSamplesRule() throws {
        let (path, dir) = try makeDatabase([
            "CREATE TABLE dive_details (DiveId varchar primary key not null, DiveDate datetime, Tank1PressureStart varchar, Tank1PressureEnd varchar, Tank2PressureStart varchar, Tank2PressureEnd varchar, Tank3PressureStart varchar, Tank3PressureEnd varchar, Tank4PressureStart varchar, Tank4PressureEnd varchar)",
            "INSERT INTO dive_details VALUES ('1', '2024-05-05 11:00:00', '-5', '1e300', '12,5', 'AI is off', '6000', '0', '3000', '2900')",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (dives, findings, _) = try readShearwaterDB(path, displayName: "t.db")
        let d = try #require(dives.first)
        #expect(d.cylinders.count == 1)
        #expect(d.cylinders.first?.startPressure == 206.8 && d.cylinders.first?.endPressure == 199.9)
        let tanks = findings.filter { $0.location.path?.hasPrefix("dive_details.Tank") == true }
        #expect(tanks.map(\.description) == [
            "t.db:row 1: dropped[shearwater-db.value-out-of-range]: dive_details.Tank1PressureStart: Tank1PressureStart -5 psi is not a tank pressure (0 to 350 bar); not carried",
            "t.db:row 1: dropped[shearwater-db.value-out-of-range]: dive_details.Tank1PressureEnd: Tank1PressureEnd 1e300 psi is not a tank pressure (0 to 350 bar); not carried",
            "t.db:row 1: dropped[shearwater-db.not-a-number]: dive_details.Tank2PressureStart: Tank2PressureStart \"12,5\" is not a number; not carried",
            "t.db:row 1: absent[shearwater-db.no-reading]: dive_details.Tank2PressureEnd: Tank2PressureEnd says \"AI is off\", a state and not a reading; read as not recorded",
            "t.db:row 1: dropped[shearwater-db.value-out-of-range]: dive_details.Tank3PressureStart: Tank3PressureStart 6000 psi is not a tank pressure (0 to 350 bar); not carried",
            "t.db:row 1: absent[shearwater-db.no-reading]: dive_details.Tank3PressureEnd: Tank3PressureEnd is 0 psi, the transmitter's mark of no reading; read as not recorded",
        ])
    }

    @Test(arguments: [
        ("2960", TankPressure.bar(tenths: 2041)), ("5076", .bar(tenths: 3500)), ("5078", .outOfRange), ("0", .noReading),
        ("8184", .noReading), ("8190", .noReading), ("8192", .outOfRange), ("-5", .outOfRange), ("0.001", .outOfRange),
        ("1e300", .outOfRange), ("1e999", .outOfRange), ("AI is off", .state), ("UNAVAILABLE_SENSOR_DATA", .state),
        ("--", .notANumber), ("0x10", .notANumber), ("nan", .notANumber),
    ] as [(String, TankPressure)])
    func oneTankPressureRule(text: String, expected: TankPressure) {
        #expect(ShearwaterUnits.tankPressure(text) == expected)
    }

    @Test func aDamagedLogKeepsTheDiveAndSaysWhy() throws {
        let (path, dir) = try makeDatabase([
            "CREATE TABLE dive_details (DiveId varchar primary key not null, DiveDate datetime, Depth varchar)",
            "INSERT INTO dive_details VALUES ('1', '2024-05-05 11:00:00', '9.5')",
            "CREATE TABLE log_data (log_id varchar primary key not null, format varchar, data_bytes_1 blob)",
            "INSERT INTO log_data VALUES ('1', 'sw-pnf', X'0010000000112233445566778899AABBCCDDEEFF0011')",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (dives, findings, _) = try readShearwaterDB(path)
        #expect(dives.first?.maxDepth == 9.5)
        let f = try #require(findings.first { $0.code == "shearwater-db.log-unreadable" })
        #expect(f.location.path == "log_data.data_bytes_1" && f.location.row == 1)
        #expect(f.message.contains("gzip"))
    }
}

/// What the registry's sniffers see of the file at `path`: its first 64 KiB.
func sniffInput(_ path: String) -> SniffInput {
    let bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)).prefix(64 * 1024))) ?? []
    return SniffInput(bytes: bytes, text: bytes, isWholeInput: bytes.count < 64 * 1024, xmlRoot: nil, xmlRootTag: nil, isJSON: false)
}
