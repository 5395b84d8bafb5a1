import Foundation
import Testing
import DiveCore
@testable import DiveDivingLog
import GRDB
import TestSupport

/// Reads every dive of `source` and the findings it reported.
func readAll(_ source: any DiveSource) throws -> (dives: [Dive], findings: [Finding]) {
    var dives: [Dive] = []
    var findings: [Finding] = []
    while let d = try source.next() {
        dives.append(d)
        findings += source.takeFindings()
    }
    return (dives, findings + source.takeFindings())
}

/// Reads `xml` written to a temporary file.
func readXML(_ xml: String) throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
    let dir = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/logbook.xml"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    let reader = try DivingLogXMLReader(path: path)
    let (dives, findings) = try readAll(reader)
    return (dives, findings, reader.header)
}

extension [Finding] {
    func with(_ code: String) -> [Finding] { filter { $0.code == code } }
}

/// The corpus's Diving Log files, each read off by hand (`grep -c '<P Time' FILE` for a dive's
/// samples; the database with `sqlite3 FILE 'select … from Logbook'` and the profile strings'
/// lengths over their record widths).
@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct DivingLogCorpusTests {
    /// Diving Log 6.0.11.1's export of an Italian logbook, UTF-8 with a BOM: 4 dives. The first
    /// reads `<Divedate>2017-11-11</Divedate><Entrytime>09:00</Entrytime>`, `<Divetime>42.00`,
    /// `<Depth>27.40`, one steel 15 l tank `<PresS>210.00`/`<PresE>70.00` of `<O2>21.00`/`<He>0.00`,
    /// and 717 `<P>` samples every 4 s from `Time="4"` to `Time="2868"`.
    @Test func italianExport() throws {
        let (dives, findings) = try readAll(DivingLogXMLReader(path: Paths.corpus + "/divinglog/divinglog__data.xml"))
        #expect(dives.count == 4)
        let d = dives[0]
        #expect(d.uuid == "75bb49d1-d225-45fd-b7bc-2a3df729e154")
        #expect(d.startedAt?.description == "2017-11-11T09:00:00")
        #expect(d.maxDepth == 27.4 && d.avgDepth == 15.74)
        #expect(d.submergedTime == 2520)
        #expect(d.cylinders.count == 1)
        #expect(d.cylinders.first?.volume == 15 && d.cylinders.first?.startPressure == 210 && d.cylinders.first?.endPressure == 70)
        #expect(d.cylinders.first?.oxygen == 21 && d.cylinders.first?.helium == 0)
        #expect(d.profile?.sampleCount == 717)
        #expect(d.profile?.depth?.times.first == 4000 && d.profile?.duration == 2_868_000)
        #expect(d.profile?.depth?.maxValue == 2746)
        #expect(d.bottomTemperature == 17.6 && d.airTemperature == 21.5 && d.weight == 9)
        #expect(d.waterType == .salt && d.entryType == .boat && d.tags == ["Addestramento"])
        #expect(d.people.map(\.role) == [.buddy, .guide])
        // Every element of a dive is carried or reported: the not-carried ones, by name.
        let notCarried = findings.with("divinglog.not-carried").compactMap { $0.location.path?.split(separator: "/").last.map(String.init) }
        // Diving Log's own lists and words with no member in the model (Visibility "Average", Weather
        // "sereno"), its flags (Deco, Rep), the surface interval, gear, shop and trip references.
        #expect(notCarried.sorted() == ["@Updated", "Deco", "Divesuit", "Rep", "ShopID", "Surface", "Surfint", "Tanktype", "TripID",
                                        "UWCurrent", "UsedEquip", "Visibility", "Weather"])
        #expect(findings.with("divinglog.altitude-range").count == 1)
        #expect(findings.with("divinglog.units-metric").count == 1)
        #expect(findings.filter { $0.kind == .dropped && $0.code != "divinglog.not-carried" && $0.code != "divinglog.altitude-range" }.isEmpty,
                "\(findings.filter { $0.kind == .dropped })")
    }

    /// The same program's export as kajyr/dive-log-tools's test holds it: 2 dives, no profile;
    /// the first `2017-02-25` `10:01`, 27.40 m, 42 minutes, 15 l of air from 210 to 70 bar.
    @Test func shortExport() throws {
        let (dives, _) = try readAll(DivingLogXMLReader(path: Paths.corpus + "/other/divinglog__DivingLog6_export.xml"))
        #expect(dives.count == 2)
        let d = dives[0]
        #expect(d.startedAt?.description == "2017-02-25T10:01:00")
        #expect(d.maxDepth == 27.4 && d.submergedTime == 2520)
        #expect(d.cylinders.map(\.oxygen) == [21] && d.cylinders.first?.startPressure == 210)
        #expect(d.profile == nil)
        #expect(dives[1].uuid == "75bb49d1-d225-45fd-b7bc-2a3df7294444")
    }

    /// Subsurface's test database (Diving Log 4.1.1, named `.sql`): one Logbook row, ID 417,
    /// `2015-05-23` `13:23`, Depth 81.5, Divetime 100, its own tank O2 50/He 6 and six Tank rows
    /// (16/55, 25/26, 16/55, 25/26, 50/6, 100/0), ProfileInt 10 and a Profile of 8268 digits,
    /// 689 records of 12: samples at 0 to 6880 s, the deepest `07957`. Airtemp is stored as
    /// 11.100000381469727, the float32 of 11.1.
    @Test func database() throws {
        let reader = try DivingLogDBReader(path: Paths.corpus + "/divinglog/divinglog__TestDivingLog4.1.1.sql")
        let (dives, findings) = try readAll(reader)
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.uuid == "e7959473-8d49-4e04-b3b9-ccaefb6b8fbd" && d.number == 417)
        #expect(d.startedAt?.description == "2015-05-23T13:23:00")
        #expect(d.maxDepth == 81.5 && d.submergedTime == 6000)
        #expect(d.cylinders.map(\.oxygen) == [50, 16, 25, 16, 25, 50, 100])
        #expect(d.cylinders.map(\.helium) == [6, 55, 26, 55, 26, 6, 0])
        #expect(d.profile?.sampleCount == 689 && d.profile?.duration == 6_880_000)
        #expect(d.profile?.depth?.maxValue == 7957)
        #expect(d.profile?.events.filter { $0.type == .gasSwitch }.map(\.gasNumber) == [0, 1, 2, 3, 4, 5, 6])
        #expect(d.airTemperature == 11.1 && d.bottomTemperature == 5.1 && d.avgDepth == 22.46)
        #expect(d.notes == nil)
        #expect(d.recordings.first?.cnsEnd == 55)
        #expect(reader.header.sourceVersion == "4.1.1" && reader.header.sourceGenerator?.name == "Diving Log")
        #expect(findings.with("divinglog-db.float32-rounded").count == 1)
        #expect(findings.with("divinglog-db.comments-rtf").count == 1)
        #expect(findings.with("divinglog-db.table-not-read").count == 12)
    }
}

@Suite struct DivingLogXMLRuleTests {
    static func export(_ dive: String) -> String {
        """
        \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
        <Divinglog DBVersion="4.1.1">
          <Header><AppName>Diving Log 6.0</AppName><AppVersion>6.0.11.1</AppVersion><ExportDate>2020-01-02T03:04:05</ExportDate></Header>
          <Logbook>
        \(dive)
          </Logbook>
        </Divinglog>
        """
    }

    /// A made dive with every habit the rules name: two buddies with two IDs, a single altitude,
    /// a warning flag, a pressure reading and placeholders of zero, a column no rule reads.
    @Test func madeDive() throws {
        let (dives, findings, header) = try readXML(Self.export("""
            <Dive ID="7" UUID="11111111-2222-3333-4444-555555555555">
              <Number>12</Number><Divedate>2019-07-01</Divedate><Entrytime>14:30</Entrytime>
              <Place ID="3" Name="Wreck"><Lat>0</Lat><Lon>0</Lon></Place>
              <Buddy IDs="1,2" Names="Anna, Ben" />
              <Divetime>30.50</Divetime><Depth>18.00</Depth><Altitude>420 m</Altitude>
              <O2>32.00</O2><He>0.00</He><Tanksize>0.00</Tanksize>
              <Colour>blue</Colour>
              <ProfileInt>10</ProfileInt>
              <Profile>
                <P Time="10"><Depth>5.0</Depth><Temp>20.0</Temp><Warning>00100</Warning><Press1>200.0</Press1><Heartrate>0</Heartrate><Pulse>3</Pulse></P>
                <P Time="20"><Depth>18.0</Depth><Temp>19.5</Temp><Warning>00000</Warning><Press1>0.0</Press1></P>
              </Profile>
            </Dive>
            """))
        let d = try #require(dives.first)
        #expect(header.sourceGenerator?.name == "Diving Log 6.0" && header.sourceVersion == "4.1.1" && header.exportedAt == "2020-01-02T03:04:05")
        #expect(d.uuid == "11111111-2222-3333-4444-555555555555" && d.number == 12)
        #expect(d.submergedTime == 1830 && d.altitude == 420)
        #expect(header.people.map(\.name) == ["Anna", "Ben"])
        #expect(header.sites.first?.position == nil)
        #expect(findings.with("divinglog.position-invalid").count == 1)
        #expect(d.cylinders.first?.oxygen == 32 && d.cylinders.first?.volume == nil)
        #expect(d.profile?.events.map(\.type) == [.ascentRate])
        #expect(d.profile?.pressures.first?.series.values == [2000])
        #expect(d.profile?.temperature?.values == [2000, 1950])
        // A column no rule reads, and a sample's child no rule reads: both said.
        #expect(findings.with("divinglog.not-carried").contains { $0.message.contains("Colour") && $0.message.contains("\"blue\"") })
        #expect(findings.with("divinglog.not-carried").contains { $0.location.path == "dive/0/Profile/P/Pulse" })
    }

    @Test func notAnExport() throws {
        #expect(throws: DiveError.self) { try readXML("<Logbook><Dive/></Logbook>") }
    }

    @Test func dateThatIsNoDate() throws {
        let (dives, findings, _) = try readXML(Self.export("<Dive UUID=\"x\"><Divedate>2019-13-45</Divedate></Dive>"))
        #expect(dives.isEmpty)
        #expect(findings.with("divinglog.start-invalid").first?.lostDives == 1)
    }
}

@Suite struct DivingLogDatabaseRuleTests {
    /// A made database: Diving Log's tables with two dives, one of them deleted; float32 REALs;
    /// an RTF comment with a code-page byte, a Unicode escape and two paragraphs.
    @Test func madeDatabase() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/Logbook.dlb"
        let db = try DatabaseQueue(path: path)
        try db.write { db in
            try db.execute(sql: """
                CREATE TABLE DBInfo('PrgName' TEXT, 'DBVersion' TEXT);
                INSERT INTO DBInfo VALUES ('Diving Log', '4.1.1');
                CREATE TABLE DeletedRecords('ID' INTEGER PRIMARY KEY, 'UUID' TEXT UNIQUE, 'Updated' TEXT);
                INSERT INTO DeletedRecords VALUES (1, 'B', NULL);
                CREATE TABLE Tank('ID' INTEGER PRIMARY KEY, 'LogID' INTEGER, 'TankID' INTEGER, 'O2' REAL, 'He' REAL, 'PresS' REAL);
                INSERT INTO Tank VALUES (1, 1, 1, 100, 0, 180);
                CREATE TABLE Logbook('ID' INTEGER PRIMARY KEY, 'Number' INTEGER, 'Divedate' TEXT, 'Entrytime' TEXT, 'Depth' REAL,
                  'Divetime' REAL, 'Watertemp' REAL, 'Comments' TEXT, 'O2' REAL, 'He' REAL, 'ProfileInt' INTEGER, 'Profile' TEXT, 'Profile2' TEXT, 'UUID' TEXT);
                """)
            try db.execute(sql: "INSERT INTO Logbook VALUES (1, 1, '2020-05-06', '07:08', ?, 40, ?, ?, 21, 0, 20, ?, ?, 'A')",
                           arguments: [Double(Float(12.3)), Double(Float(9.7)),
                                       "{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}\\f0\\fs17 Wrack \\'fcber Sand\\par zwei \\u8364?\\par\n}",
                                       "001000000000" + "012300100000", "18020000000" + "17518001000"])
            try db.execute(sql: "INSERT INTO Logbook VALUES (2, 2, '2020-05-07', '07:08', 10, 40, 10, '', 21, 0, 20, '', '', 'B')")
        }
        let (dives, findings) = try readAll(DivingLogDBReader(path: path))
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.maxDepth == 12.3 && d.bottomTemperature == 9.7)
        #expect(d.notes == "Wrack über Sand\nzwei €")
        #expect(d.cylinders.map(\.oxygen) == [21, 100] && d.cylinders.last?.startPressure == 180)
        let p = try #require(d.profile)
        #expect(p.depth?.times == [0, 20_000] && p.depth?.values == [100, 1230])
        #expect(p.temperature?.values == [1800, 1750])
        #expect(p.pressures.map(\.gasNumber) == [0, 1] && p.pressures.map(\.series.values) == [[2000], [1800]])
        #expect(p.events.contains { $0.type == .gasSwitch && $0.gasNumber == 1 && $0.time == 20_000 })
        #expect(p.events.contains { $0.label == "rbt" && $0.time == 20_000 })
        #expect(findings.with("divinglog-db.float32-rounded").count == 1)
    }

    @Test func notDivingLog() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/other.db"
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE t(a)") }
        #expect { try DivingLogDBReader(path: path) } throws: { ($0 as? DiveError)?.code == "divinglog-db.not-divinglog" }
    }

    @Test func rtf() {
        #expect(RTFText.plainText("{\\rtf1{\\*\\generator Msftedit;}Eins\\tab zwei\\line drei \\{x\\}}") == "Eins\tzwei\ndrei {x}")
    }
}
