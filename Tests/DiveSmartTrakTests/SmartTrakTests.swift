import Foundation
import Testing
import DiveCore
@testable import DiveSmartTrak
import TestSupport

/// A Smart Z (model 0x1C, the Smart Tec's layout) header of 132 bytes: 26.34 m, 78 min, 22.4 °C,
/// gas 1 25 % from 236.0390625 to 56.421875 bar (1/128 bar), then `samples`.
func smartZ(_ samples: [UInt8]) -> [UInt8] {
    var h = [UInt8](repeating: 0, count: 132)
    h[0...3] = [0xA5, 0xA5, 0x5A, 0x5A]
    func put16(_ at: Int, _ v: Int) { h[at] = UInt8(v & 0xFF); h[at + 1] = UInt8(v >> 8 & 0xFF) }
    put16(4, 132 + samples.count)
    put16(18, 2634)
    put16(20, 78)
    put16(22, 224)
    put16(28, 25)
    put16(34, 30213)
    put16(36, 7222)
    return h + samples
}

/// The sample stream of the Smart Tec table, record by record: an absolute depth (raw 500, the
/// surface the others count from); an absolute temperature 56 (22.4 °C); tank 1's absolute
/// pressure 944 (236 bar); the alarm byte with its warning bit; a relative depth +100; a
/// pressure-and-depth record (−1, +2); a time record repeating the sample twice.
let stream: [UInt8] = [0xFF, 0x00, 0x01, 0xF4] + [0xFF, 0x80, 0x00, 0x38] + [0xFF, 0xC0, 0x03, 0xB0]
    + [0xFC, 0x01] + [0xF0, 0x64] + [0x7F, 0x02] + [0xFE, 0x02]

@Suite("Uwatec Smart bytes")
struct UwatecSmartTests {
    @Test func headerFields() throws {
        let dive = try UwatecSmartDive(model: UwatecSmartDive.model(0x1C)!, bytes: smartZ([]))
        #expect(dive.maxDepth == 26.34)  // no settings word: fresh water, raw / 100
        #expect(dive.diveMinutes == 78)
        #expect(dive.tempMinimum == 22.4)
        #expect(dive.settings == nil && dive.timezoneQuarters == nil)
        let (gases, tanks) = dive.headerGases()
        #expect(gases == [UwatecSmartDive.Gas(id: 0, oxygen: 25, helium: 0)])
        #expect(tanks == [UwatecSmartDive.Tank(id: 0, begin: 30213, end: 7222)])
    }

    @Test func sampleStream() throws {
        var dive = try UwatecSmartDive(model: UwatecSmartDive.model(0x1C)!, bytes: smartZ(stream))
        var got: [UwatecSmartDive.Sample] = []
        try dive.samples { got.append($0) }
        #expect(got.map(\.time) == [0, 4, 8, 12, 16])
        #expect(got.map(\.depthRaw) == [0, 100, 102, 102, 102])
        #expect(got.map(\.temperatureRaw) == [nil, 56, 56, 56, 56])  // the first sample closes before the temperature record
        #expect(got.map(\.pressureRaw) == [nil, 944, 943, 943, 943])
        #expect(got.map { $0.alarmBytes[0] } == [0, 1, 1, 1, 1])
    }

    /// The Galileo family's one-byte type bits: a Galileo Sol (0x11, byte 43's top bit clear:
    /// the 152-byte header), salt water in its settings word, gas 1 32 % with tank 1 from 200 to
    /// 50 bar (end pressures first); samples: absolute depth (`F1`), absolute temperature
    /// (`F3`), tank 2's absolute pressure (`F5`), alarm byte 0 with the bookmark bit (`E8`),
    /// a relative depth +5 (`05`), alarm byte 1 naming gas mix 1 (`F0 20`), a time record of 2
    /// (`C2`).
    @Test func galileoStream() throws {
        var h = [UInt8](repeating: 0, count: 152)
        h[0...3] = [0xA5, 0xA5, 0x5A, 0x5A]
        func put16(_ at: Int, _ v: Int) { h[at] = UInt8(v & 0xFF); h[at + 1] = UInt8(v >> 8 & 0xFF) }
        put16(22, 2050)      // 20.00 m in salt water: 2050 / 102.5
        put16(44, 32)
        put16(50, 50 * 128)  // tank 1's end…
        put16(56, 200 * 128) // …and its begin, after the three ends
        h[92 + 2] = 0x10     // settings 0x100000: salt
        let samples: [UInt8] = [0xF1, 0x01, 0xF4, 0xF3, 0x00, 0x38, 0xF5, 0x03, 0xB0, 0xE8, 0x05, 0xF0, 0x20, 0xC2]
        var dive = try UwatecSmartDive(model: UwatecSmartDive.model(0x11)!, bytes: h + samples)
        #expect(dive.salt && dive.maxDepth == 20)
        let (gases, tanks) = dive.headerGases()
        #expect(gases == [UwatecSmartDive.Gas(id: 0, oxygen: 32, helium: 0)])
        #expect(tanks == [UwatecSmartDive.Tank(id: 0, begin: 25600, end: 6400)])
        var got: [UwatecSmartDive.Sample] = []
        try dive.samples { got.append($0) }
        #expect(got.map(\.time) == [0, 4, 8, 12])
        #expect(got.map(\.depthRaw) == [0, 5, 5, 5])
        #expect(got.map(\.pressureRaw) == [nil, 944, 944, 944])
        #expect(got.map(\.tank) == [0, 1, 1, 1])
        #expect(got.map { $0.alarmBytes[0] } == [0, 8, 8, 8])
        #expect(got.map(\.gasmix) == [0, 1, 1, 1])  // the pressure record's tank, then alarm byte 1's mix
    }

    @Test func brokenStreams() throws {
        #expect(throws: UwatecSmartDive.Failure.badMagic) { try UwatecSmartDive(model: UwatecSmartDive.model(0x1C)!, bytes: [0] + smartZ([]).dropFirst()) }
        #expect(throws: UwatecSmartDive.Failure.tooShort(need: 132)) { try UwatecSmartDive(model: UwatecSmartDive.model(0x1C)!, bytes: Array(smartZ([]).prefix(100))) }
        var cut = try UwatecSmartDive(model: UwatecSmartDive.model(0x1C)!, bytes: smartZ([0xFF, 0x00, 0x01]))
        #expect(throws: UwatecSmartDive.Failure.cut(offset: 134)) { try cut.samples { _ in } }
        // Ten 1 bits name no row of the Aladin Tec's nine-row table.
        var aladin = [UInt8](repeating: 0, count: 108)
        aladin[0...3] = [0xA5, 0xA5, 0x5A, 0x5A]
        var bad = try UwatecSmartDive(model: UwatecSmartDive.model(0x12)!, bytes: aladin + [0xFF, 0xC0])
        #expect(throws: UwatecSmartDive.Failure.badTypeBits(offset: 108)) { try bad.samples { _ in } }
    }

    @Test func modelCodes() {
        #expect(UwatecSmartDive.model(0x1C)?.names.first?.model == "Smart Z")
        #expect(UwatecSmartDive.model(0x12)?.layout.headerSize == 108)
        #expect(UwatecSmartDive.model(0x32)?.trimix == true)
        #expect(UwatecSmartDive.model(0x99) == nil)
    }

    @Test func accessDates() {
        #expect(AccessDateTime("1899-12-30 01:18:00")?.duration == 4680)
        #expect(AccessDateTime("1900-01-00 00:00:00")?.duration == 86400)  // mdb-tools' way of writing day 1
        #expect(AccessDateTime("2009-08-29 00:00:00")?.date?.description == "2009-08-29")
        #expect(AccessDateTime.days(1970, 1, 1) == 0)
        #expect(AccessDateTime("2009-13-01 00:00:00") == nil)
    }
}

@Suite("SmartTRAK without mdb-tools")
struct SmartTrakToolsTests {
    @Test func namesWhatToInstall() throws {
        let path = Paths.root + "/Package.swift"
        let error = #expect(throws: DiveError.self) { try SmartTrakReader(path: path, toolSearchPath: "/nonexistent") }
        #expect(error?.code == "smarttrak.mdbtools-missing")
        #expect(error?.message.contains("apt-get install mdbtools") == true)
        let stdin = #expect(throws: DiveError.self) { try SmartTrakReader(path: "-") }
        #expect(stdin?.code == "smarttrak.stdin")
    }
}

/// The demo logbook SmartTRAK ships (Subsurface's `dives/Demo_SmartTrak.slg`): 16 dives, 9 from
/// Smart Z computers and 7 from Aladin Tecs. The pinned values were read off the file with
/// mdb-json and a separate decoding of the computer bytes.
@Suite(.enabled(if: Paths.sharedAvailable && AccessDatabase.locateTools() != nil, "needs ../shared and mdb-tools (scripts/setup.sh mdbtools)"))
struct SmartTrakCorpusTests {
    static let file = Paths.corpus + "/other/smarttrak__Demo_SmartTrak.slg"

    static func read() throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
        let reader = try SmartTrakReader(path: file)
        var dives: [Dive] = [], findings: [Finding] = []
        while let d = try reader.next() { dives.append(d); findings += reader.takeFindings() }
        return (dives, findings + reader.takeFindings(), reader.header)
    }

    @Test func smartZDive() throws {
        let (dives, _, header) = try Self.read()
        #expect(dives.count == 16)
        #expect(header.sourceVersion == "10212")
        let d = dives[0]  // Dives row 1, Idx 30
        #expect(d.number == 13)
        #expect(d.startedAt?.description == "2009-08-29T09:06:22")
        #expect(d.maxDepth == 26.34)
        #expect(d.submergedTime == 78 * 60)
        #expect(d.bottomTemperature == 22.4)
        #expect(d.cylinders.count == 1)
        #expect(d.cylinders[0].oxygen == 25)
        #expect(d.cylinders[0].startPressure == 236.0390625 && d.cylinders[0].endPressure == 56.421875)
        #expect(d.cylinders[0].volume == 12)
        let rec = try #require(d.recordings.first)
        #expect(rec.device?.serial == "24100029")
        #expect(rec.device?.model?.contains("Smart Z") == true)
        #expect(rec.salinity == nil)  // the Smart Z keeps no water type
        let p = try #require(rec.profile)
        #expect(p.depth?.count == 1246)
        #expect(p.depth?.times.last == 4980_000)
        #expect(p.depth?.maxValue == 2630)  // (raw − surface) × 2 cm: 26.30 m, the computer's own 26.34 m at its finer sampling
        #expect(p.pressures.first?.series.values.first == 2363)  // 945 / 4 = 236.25 bar
        #expect(header.sites.contains { $0.uuid == d.siteUUIDs.first && $0.name == "Paradise Reef - Safaga" && $0.location?.name == "Red Sea, Sinai, Egypt" })
        #expect(header.people.contains { $0.uuid == d.people.first?.personUUID && $0.name == "Elisabetta" })
    }

    @Test func aladinTecDive() throws {
        let (dives, _, _) = try Self.read()
        let d = try #require(dives.first { $0.number == 14 })  // Idx 16
        #expect(d.startedAt?.description == "2009-09-08T15:42:00")
        #expect(abs((d.maxDepth ?? 0) - 55.668) < 0.001)  // 5706 / 102.5: the settings word's salt bit
        #expect(d.submergedTime == 93 * 60)
        let rec = try #require(d.recordings.first)
        #expect(rec.salinity == .salt && rec.mode == .openCircuit)
        #expect(rec.device?.brand == "Uwatec")
        let p = try #require(rec.profile)
        #expect(p.depth?.count == 1477)
        #expect(p.pressures.isEmpty)  // no transmitter
        // SmartTRAK's four markers, at their minutes, with their text.
        let marks = p.events.filter { $0.type == .bookmark }
        #expect(marks.map(\.time) == [4464_000, 4668_000, 4840_000, 5592_000])
        #expect(marks.allSatisfy { $0.label == "Safety stop timer started here!" })
        #expect(d.tags.contains("Fresh water") && d.tags.contains("Decompression"))
    }

    @Test func everyColumnAccounted() throws {
        let (_, findings, _) = try Self.read()
        #expect(findings.allSatisfy { $0.code.hasPrefix("smarttrak.") })
        let codes = Set(findings.map(\.code))
        // DAN-style columns, the pick lists no dive uses, the computer's clock and channels are said.
        #expect(codes.isSuperset(of: ["smarttrak.not-carried", "smarttrak.rows-not-referred", "smarttrak.clock-differs", "smarttrak.channel-not-carried",
                                       "smarttrak.zero-as-blank", "smarttrak.depth-fresh-water", "smarttrak.table-not-read"]))
        #expect(findings.contains { $0.code == "smarttrak.not-carried" && $0.location.path == "Dives.DiveTimeCounter" })
        #expect(!findings.contains { $0.location.path == "Dives.MaxDepth" || $0.location.path == "Dives.Remarks" })
    }

    /// A logbook cut short (its last 118 KB gone): mdb-json prints what it cannot read as rows
    /// of spaces and exits 0; the rows it could not read, or fewer than `mdb-count` counts, fail
    /// the file, so no dive is lost quietly.
    @Test func aDamagedDatabaseFailsTheFile() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cut.slg"
        try Data(try Data(contentsOf: URL(fileURLWithPath: Self.file)).prefix(1_000_000)).write(to: URL(fileURLWithPath: path))
        let reader = try SmartTrakReader(path: path)
        let error = #expect(throws: DiveError.self) { while try reader.next() != nil {} }
        #expect(error?.code == "smarttrak.access-damaged")
        #expect(error?.message.contains("of the 16 rows of table Dives") == true)
    }
}
