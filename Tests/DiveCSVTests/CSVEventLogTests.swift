import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 2: profiles written as an event log, one reading a row, a code or a word
/// saying which channel (`docs/csv-formats.md` §1, §10.13). The values are read off the sample
/// files by hand.
@Suite struct CSVEventLogTests {
    /// The profile's extra channels, as `name ref: times → values`.
    static func extras(_ dive: Dive) -> [String] {
        guard case .object(let top)? = dive.recordings.first?.profile?.extensions,
              case .object(let umilog)? = top.first(where: { $0.name == "umilog" })?.value,
              case .array(let channels)? = umilog.first(where: { $0.name == "channels" })?.value else { return [] }
        return channels.map { channel in
            guard case .object(let members) = channel else { return "?" }
            func text(_ name: String) -> String {
                switch members.first(where: { $0.name == name })?.value {
                case .string(let s)?: return s
                case .number(let n)?: return n
                case .array(let items)?: return items.map { if case .number(let n) = $0 { return n } else { return "?" } }.joined(separator: " ")
                default: return ""
                }
            }
            return "\(text("name"))\(text("ref").isEmpty ? "" : " " + text("ref")) \(text("unit")): \(text("times")) → \(text("values"))"
        }
    }

    /// `Samples/csv/poseidon-mkvi-log.csv` and its companion `poseidon-mkvi-log.txt`.
    @Test func aPoseidonLogAndItsCompanion() throws {
        let file = Paths.samples + "/csv/poseidon-mkvi-log.csv"
        let (dives, findings, reader) = try readCSV(file)
        #expect(reader.layout.preset?.id == "poseidon-mkvi")
        let d = try #require(dives.first)
        #expect(dives.count == 1)
        // `Dive started at : 2012-07-21 09:05:10`, `Rig Serial number : 0567`.
        #expect(d.startedAt?.description == "2012-07-21T09:05:10")
        let rec = try #require(d.recordings.first)
        #expect(rec.device?.serial == "0567" && rec.device?.displayName == "Poseidon MkVI Discovery")
        #expect(rec.mode == .closedCircuit)
        // Oxygen first (code 13), diluent second (code 14): helium 20 %, nitrogen 59 %, so 21 %
        // oxygen; start pressures 184.0 and 181.0 bar.
        #expect(d.cylinders.map { "\($0.gasNumber ?? -1) \($0.role?.rawValue ?? "-") \($0.oxygen ?? -1) \($0.helium ?? -1) \($0.startPressure ?? -1)" } == [
            "0 oxygen -1.0 -1.0 184.0", "1 diluent 21.0 20.0 181.0",
        ])
        let p = try #require(rec.profile)
        // Code 8 in half metres: 0, 6, 24, 25, 4, 0 → 0, 3, 12, 12.5, 2, 0 m.
        #expect(p.depth == Series(times: [0, 10_000, 20_000, 30_000, 40_000, 50_000], values: [0, 300, 1200, 1250, 200, 0]))
        // Code 39 in fifths of a °C: 130 → 26 °C, 120 → 24 °C.
        #expect(p.temperature == Series(times: [0, 20_000], values: [2600, 2400]))
        // Code 37 in minutes: 254, 99, 254.
        #expect(p.ndl == Series(times: [0, 20_000, 40_000], values: [15_240, 5940, 15_240]))
        // Codes 13 and 14 in bar, tenths in the model.
        #expect(p.pressures.map { "\($0.gasNumber): \($0.series.times) \($0.series.values)" } == [
            "0: [0, 40000] [1840, 1800]", "1: [0, 30000] [1810, 1700]",
        ])
        // Codes 20, 6 and 7 in hundredths of a bar; code 4 the battery's charge in percent.
        #expect(Self.extras(d) == [
            "setpoint bar: 0 20000 → 0.7 1.3",
            "sensor_ppo2 1 bar: 0 10000 20000 30000 → 0.69 0.98 1.28 1.31",
            "sensor_ppo2 2 bar: 0 10000 20000 30000 → 0.71 1.01 1.27 1.29",
            "battery_charge %: 0 → 88",
        ])
        // `0,0,1` mouthpiece CC, `30,11,1` ascent alert, `40,0,0` mouthpiece OC, `50,3,0` power off.
        #expect(p.events == [
            Event(time: 0, label: "mouthpiece position CC"), Event(time: 30_000, type: .ascentRate),
            Event(time: 40_000, label: "mouthpiece position OC"), Event(time: 50_000, label: "power off"),
        ])
        #expect(d.maxDepth == 12.5 && d.submergedTime == 50 && d.bottomTemperature == 24)
        #expect(findings.map(\.description) == [
            "\(file): dropped[csv.column-not-carried]: the column \"2\" has no place in a dive log's model; not read",
            "\(file): dropped[csv.column-not-carried]: the column \"3\" has no place in a dive log's model; not read",
            "\(file): resolved[csv.companion]: \"poseidon-mkvi-log.txt\" beside the log is its MkVI_Config file, as Subsurface pairs them; read from it: the start, 2012-07-21T09:05:10; the rig's serial number, 0567; the diluent, 21 % oxygen and 20 % helium; the oxygen cylinder's start pressure, 184 bar; the diluent cylinder's start pressure, 181 bar",
            "\(file): dropped[csv.companion-not-carried]: 5 lines of \"poseidon-mkvi-log.txt\" (\"Starting PO2 Sensor 1 (Bar)\", \"Starting PO2 Sensor 2 (Bar)\", \"Mouthpiece Position\", \"Software version\" …) have no place in a dive; not read",
            "\(file): resolved[csv.mode-from-preset]: the Poseidon MkVI Discovery is a closed-circuit rebreather, so its recording's mode is closed circuit, as Subsurface sets it",
            "\(file): dropped[csv.code-not-carried]: 1 reading with code 1 (no documented meaning umilog could carry): not read",
            "\(file): dropped[csv.code-not-carried]: 2 readings with code 10 (the ascent or descent rate, which follows from the depth): not read",
            "\(file): dropped[csv.code-not-carried]: 1 reading with code 17 (\"related to O2 injection\" in Subsurface's comments, with no scale): not read",
        ])
    }

    /// `--started-at` wins over the companion's start, and says so.
    @Test func startedAtWinsOverTheCompanion() throws {
        let start = DiveDateTime.parse("2024-05-01T10:12")!.0
        let (dives, findings, _) = try readCSV(Paths.samples + "/csv/poseidon-mkvi-log.csv", CSVReadOptions(startedAt: start))
        #expect(dives.first?.startedAt?.description == "2024-05-01T10:12:00")
        #expect(dives.first?.recordings.first?.device?.serial == "0567")
        let companion = try #require(findings.first { $0.code == "csv.companion" })
        #expect(companion.message.hasSuffix("; --started-at gives the start instead of its 2012-07-21T09:05:10"))
    }

    /// Without its companion, a Poseidon log still needs its start; a `.txt` beside it that is
    /// no MkVI_Config file is said and not read.
    @Test func withoutItsCompanionTheStartIsAsked() throws {
        let dir = try Paths.temporaryDirectory()
        let csv = dir + "/dive.csv"
        try FileManager.default.copyItem(atPath: Paths.samples + "/csv/poseidon-mkvi-log.csv", toPath: csv)
        #expect { _ = try readCSV(csv) } throws: { ($0 as? DiveError)?.code == "csv.no-start" }
        try "Notes from the boat\nDive started at : 2012-07-21 09:05:10\n".write(toFile: dir + "/dive.txt", atomically: true, encoding: .utf8)
        let reader = try CSVDiveReader(path: csv)
        #expect(reader.companion == nil)
        #expect(reader.takeFindings().map(\.description).contains(
            "\(csv): dropped[csv.companion-not-read]: \"dive.txt\" beside the log does not start with MkVI_Config (or is over 64 KiB), so it is no MkVI log's companion; not read"))
        #expect { _ = try reader.next() } throws: { ($0 as? DiveError)?.code == "csv.no-start" }
    }

    /// The companion's lines as Subsurface reads them.
    @Test func theCompanionsLines() throws {
        let text = "MkVI_Config v1.08\r\n\r\nDive started at            : 2011-06-14 11:20:36\r\nRig Serial number          : 0567\r\nHelium percentage          : 0\r\nNitrogen percentage        : 79\r\n"
        let c = try #require(CSVCompanion.parse(Array(text.utf8), fileName: "x.txt"))
        #expect(c.start?.description == "2011-06-14T11:20:36")
        #expect(c.serial == "0567" && c.diluentOxygen == 21 && c.diluentHelium == 0)
        #expect(CSVCompanion.parse(Array("Dive started at : 2011-06-14 11:20:36\n".utf8), fileName: "x.txt") == nil)
        #expect(CSVCompanion.startTime("2011-02-30 11:20:36") == nil)
    }

    /// `Samples/csv/event-log.csv`: `Time;Type;Value`, the channel named in words.
    @Test func anEventLogWithAHeader() throws {
        let file = Paths.samples + "/csv/event-log.csv"
        let (dives, findings, reader) = try readCSV(file, CSVReadOptions(startedAt: DiveDateTime.parse("2024-05-01T10:12")!.0))
        #expect(reader.layout.kind == .profile)
        #expect(reader.layout.eventLog == CSVEventLog(time: 0, channel: 1, value: 2, unit: nil))
        let d = try #require(dives.first)
        #expect(dives.count == 1)
        let p = try #require(d.recordings.first?.profile)
        // depth at 0, 10, 20, 30, 40 s: 0, 3.2, 12.5, 6, 0 m; temp at 0, 20, 40 s: 24, 22.5, 23 °C.
        #expect(p.depth == Series(times: [0, 10_000, 20_000, 30_000, 40_000], values: [0, 320, 1250, 600, 0]))
        #expect(p.temperature == Series(times: [0, 20_000, 40_000], values: [2400, 2250, 2300]))
        #expect(Self.extras(d) == [
            "setpoint bar: 0 20000 → 0.7 1.3",
            "sensor_ppo2 1 bar: 10000 20000 → 0.98 1.29",
            "sensor_ppo2 2 bar: 10000 20000 → 1.01 1.31",
        ])
        #expect(d.maxDepth == 12.5 && d.submergedTime == 40)
        #expect(findings.map(\.description) == [
            "\(file): resolved[csv.event-log]: the table is an event log: each row gives one reading of the channel its column \"Type\" names (\"depth\", \"temp\", \"setpoint\", \"ppo2 cell 1\" … in the first 17 rows), its value in \"Value\", at the time in \"Time\" (seconds into the dive); the rows of one time are one sample",
            "\(file): resolved[csv.unit-assumed]: the column \"Value (depth)\" states no unit; read as m (the metric default)",
            "\(file): resolved[csv.unit-assumed]: the column \"Value (temp)\" states no unit; read as c (the metric default)",
            "\(file): dropped[csv.channel-not-carried]: 2 readings of the channel \"heart rate\" (which has no place in a dive log's model): not read",
            "\(file): dropped[csv.channel-not-carried]: 1 reading of the channel \"gizmo\" (a channel umilog does not know): not read",
        ])
    }

    /// Units from the channel word (`depth (ft)`) or a unit column; the time's unit from its header.
    @Test func unitsFromTheWordOrAUnitColumn() throws {
        let text = """
        elapsed (s),channel,value,unit
        0,depth (ft),0,
        0,water temp,75,F
        30,depth (ft),33,
        30,tank 1 pressure,200,bar
        60,depth (ft),10,

        """
        let (dives, findings, reader) = try readCSVText(text, CSVReadOptions(startedAt: DiveDateTime.parse("2024-05-01T10:12")!.0))
        #expect(reader.layout.eventLog == CSVEventLog(time: 0, channel: 1, value: 2, unit: 3))
        let p = try #require(dives.first?.recordings.first?.profile)
        // 33 ft = 10.0584 m, 10 ft = 3.048 m; 75 °F = 23.89 °C; 200 bar.
        #expect(p.depth == Series(times: [0, 30_000, 60_000], values: [0, 1006, 305]))
        #expect(p.temperature == Series(times: [0], values: [2389]))
        #expect(p.pressures == [PressureSeries(gasNumber: 0, series: Series(times: [30_000], values: [2000]))])
        #expect(!findings.contains { $0.code == "csv.unit-assumed" || $0.code == "csv.channel-not-carried" })
    }

    /// A time that starts again is another dive, as in any profile table (§10.17): the one
    /// start --started-at gives is the first dive's, so the second is left out and counted.
    @Test func timeStartingAgainIsAnotherDive() throws {
        let text = "t,type,value\n0,depth,0\n0,temp,20\n10,depth,5\n20,depth,0\n0,depth,0\n10,depth,8\n"
        let (dives, findings, reader) = try readCSVText(text, CSVReadOptions(startedAt: DiveDateTime.parse("2024-05-01T10:12")!.0))
        #expect(dives.map(\.maxDepth) == [5])
        #expect(findings.first { $0.code == "csv.dive-without-start" }?.location.row == 6)
        #expect(findings.first { $0.code == "csv.time-restarts" }?.location.row == 6)
        #expect(reader.divesLost == 1)
    }

    /// A dive list with a column of words that are no channels is no event log.
    @Test func aDiveListIsNoEventLog() throws {
        let (dives, _, reader) = try readCSVText("Date,Type,Max Depth\n2024-05-01,boat,12\n2024-05-02,shore,9\n")
        #expect(reader.layout.eventLog == nil && reader.layout.kind == .summary)
        #expect(dives.map(\.maxDepth) == [12, 9])
    }
}
