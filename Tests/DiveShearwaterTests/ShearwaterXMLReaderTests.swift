import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import DiveCore
@testable import DiveShearwater
import TestSupport

/// Reads every dive of `path` and the findings the reader reported.
func readShearwaterXML(_ path: String, accounting: Bool = false) throws -> (dives: [Dive], findings: [Finding], reader: ShearwaterXMLReader) {
    let reader = try ShearwaterXMLReader(path: path)
    reader.recordsAccounting = accounting
    var dives: [Dive] = []
    var findings: [Finding] = []
    while let d = try reader.next() {
        dives.append(d)
        findings += reader.takeFindings()
    }
    return (dives, findings + reader.takeFindings(), reader)
}

/// Reads `xml` written to a temporary file (as UTF-8 bytes, whatever it declares).
func readShearwaterXML(xml: String) throws -> (dives: [Dive], findings: [Finding]) {
    let dir = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/dive.xml"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    let (dives, findings, _) = try readShearwaterXML(path)
    return (dives, findings)
}

/// A Shearwater export around `log` (the `<diveLog>` children) and `records` (`<diveLogRecord>`s).
func shearwaterXML(_ log: String, records: [String] = [], declaration: String = #"<?xml version="1.0" encoding="utf-16"?>"#) -> String {
    """
    \(declaration)
    <dive xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="3">
      <diveLog>
        \(log)
        <diveLogRecords>
    \(records.map { "      <diveLogRecord>\($0)</diveLogRecord>" }.joined(separator: "\n"))
        </diveLogRecords>
      </diveLog>
    </dive>
    """
}

let shearwaterCorpus = Paths.corpus + "/shearwater"

@Suite struct ShearwaterXMLReaderTests {
    /// Read off the file independently:
    /// `python3 -c "import xml.etree.ElementTree as E,sys; r=E.fromstring(open(sys.argv[1],'rb').read().replace(b'utf-16',b'utf-8')); l=r.find('diveLog'); R=l.findall('diveLogRecords/diveLogRecord'); print(len(r.findall('diveLog')), l.findtext('startDate'), l.findtext('maxDepth'), l.findtext('maxTime'), sorted({(x.findtext('fractionO2'),x.findtext('fractionHe')) for x in R}), len(R))" FILE`
    /// prints `1 1/1/2024 1:07:14 PM 41.2 3124 [('0.21', '0')] 5`: one dive, a 12-hour start of
    /// 13:07:14, 41.2 m, 3124 s, air in every record, five records.
    @Test(.enabled(if: Paths.sharedAvailable)) func theOpenCircuitCorpusExport() throws {
        let (dives, findings, _) = try readShearwaterXML(shearwaterCorpus + "/shearwater-xml__valid_depth_data_oc_tec_trimmed.xml")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2024-01-01T13:07:14")
        #expect(d.maxDepth == 41.2)
        #expect(d.submergedTime == 3124)
        #expect(d.cylinders.map(\.oxygen) == [21] && d.cylinders.map(\.helium) == [0])
        #expect(d.profile?.sampleCount == 5)
        #expect(d.profile?.depth?.values == [30, 290, 410, 520, 560])
        #expect(d.profile?.depth?.times == [0, 10_000, 20_000, 30_000, 40_000])
        #expect(d.recordings.first?.mode == .openCircuit)
        #expect(d.recordings.first?.surfacePressure == 0.996)
        #expect(d.recordings.first?.device?.serial == "XXXXXXXX")
        #expect(d.recordings.first?.decoModel?.gfLow == 50 && d.recordings.first?.decoModel?.gfHigh == 70)
        // 'AI is off' in the four tank fields: absent, one finding per field for the five records.
        let ai = findings.filter { $0.code == "shearwater-xml.no-reading" }
        #expect(ai.count == 4)
        #expect(ai.allSatisfy { $0.kind == .absent && $0.message.contains("\"AI is off\"") && $0.message.contains("in 5 records") })
        #expect(d.profile?.pressures.isEmpty == true)
        #expect(findings.contains { $0.code == "shearwater-xml.encoding-declaration-ignored" })
    }

    /// The same one-liner prints `1 9/13/2024 00:07:10 AM 20 94 [('0', '0')] 10`: the impossible
    /// 12-hour `00:07:10 AM`, 20 m, 94 s, no gas (fractions of 0), ten records whose
    /// `<currentDepth>` (1093 … 1699) are absolute pressures, not depths.
    @Test(.enabled(if: Paths.sharedAvailable)) func theFreediveCorpusExport() throws {
        let (dives, findings, _) = try readShearwaterXML(shearwaterCorpus + "/shearwater-xml__valid_depth_data_trimmed.xml")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2024-09-13T00:07:10")
        #expect(findings.contains { $0.code == "shearwater-xml.hour-zero-with-designator" && $0.kind == .resolved })
        #expect(d.maxDepth == 20)
        #expect(d.submergedTime == 94)
        #expect(d.cylinders.isEmpty)
        #expect(findings.contains { $0.code == "shearwater-xml.gas-absent" && $0.message.hasPrefix("10 records") })
        #expect(d.profile?.sampleCount == 10)
        #expect(d.profile?.depth == nil)
        let pressure = try #require(findings.first { $0.code == "shearwater-xml.depth-is-pressure" })
        #expect(pressure.location.path == "dive/diveLog/diveLogRecords/diveLogRecord/9/currentDepth")
        #expect(d.recordings.first?.mode == nil)
        #expect(findings.filter { $0.code == "shearwater-xml.no-reading" }.allSatisfy { $0.message.contains("UNAVAILABLE_SENSOR_DATA") })
    }

    /// `Samples/shearwater.xml`, by `scripts/make-sample-shearwater.py`: 49 records every 30 s,
    /// air, then 50 % from 1200 s on; transmitter 1 on, the others 'AI is off'.
    @Test func theSampleExport() throws {
        let (dives, findings, _) = try readShearwaterXML(Paths.samples + "/shearwater.xml")
        let d = try #require(dives.first)
        #expect(dives.count == 1)
        #expect(d.startedAt?.description == "2025-06-14T14:05:30")
        #expect(d.maxDepth == 18 && d.submergedTime == 1440)
        #expect(d.cylinders.map(\.oxygen) == [21, 50, nil])
        #expect(d.profile?.sampleCount == 49)
        #expect(d.profile?.events.map(\.time) == [0, 1_200_000])
        #expect(d.profile?.pressures.map(\.gasNumber) == [2])
        #expect(d.recordings.first?.device?.firmware == "5A" && d.recordings.first?.device?.diveNumber == 42)
        #expect(findings.filter { $0.code == "shearwater-xml.no-reading" }.count == 3)
        // Two gases beside one transmitter: not paired, and the finding names the field the file uses.
        #expect(findings.first { $0.code == "shearwater-xml.tank-gas-absent" }?.message
                == "<tank0pressurePSI> reports 49 pressures and the log does not say which gas that tank holds; 2 gases beside 1 transmitter cannot be paired in order, so they are carried as a cylinder of their own, with no gas")
    }

    /// As many gases as transmitters reporting are paired in order (DiveJSON's rule for FIT).
    @Test func gasesAndTransmittersOfEqualCountArePairedInOrder() throws {
        let rec = { (t: Int, o2: String, p0: String, p1: String) in
            "<currentTime>\(t)</currentTime><currentDepth>10</currentDepth><fractionO2>\(o2)</fractionO2><fractionHe>0</fractionHe><tank0pressurePSI>\(p0)</tank0pressurePSI><tank1pressurePSI>\(p1)</tank1pressurePSI>"
        }
        let (dives, findings) = try readShearwaterXML(xml: shearwaterXML("<imperialUnits>false</imperialUnits>",
            records: [rec(0, "0.21", "3000", "AI is off"), rec(10_000, "0.21", "2900", "2800"), rec(20_000, "0.5", "2800", "2700")]))
        let d = try #require(dives.first)
        #expect(d.cylinders.map(\.oxygen) == [21, 50])
        #expect(d.profile?.pressures.map(\.gasNumber) == [0, 1])
        #expect(d.profile?.pressures.map(\.series.values) == [[2068, 1999, 1931], [1931, 1862]])
        #expect(findings.first { $0.code == "shearwater-xml.tank-paired-by-order" }?.message
                == "the dive breathed 2 gases and 2 transmitters report pressures, and the log does not say which tank holds which: paired in order, <tank0pressurePSI>'s 3 pressures are the 21/0 cylinder's; <tank1pressurePSI>'s 2 pressures are the 50/0 cylinder's")
        #expect(!findings.contains { $0.code == "shearwater-xml.tank-gas-absent" })
    }

    @Test func aStateInANumericFieldIsAbsentAndReportedOnce() throws {
        let records = (0..<3).map { "<currentTime>\($0 * 1000)</currentTime><currentDepth>\($0 + 1)</currentDepth><tank0pressurePSI>AI is off</tank0pressurePSI>" }
            + ["<currentTime>3000</currentTime><currentDepth>4</currentDepth><tank0pressurePSI>2960</tank0pressurePSI>"]
        let (dives, findings) = try readShearwaterXML(xml: shearwaterXML("<imperialUnits>false</imperialUnits>", records: records))
        let d = try #require(dives.first)
        let ai = findings.filter { $0.code == "shearwater-xml.no-reading" }
        #expect(ai.count == 1)
        #expect(ai.first?.kind == .absent)
        #expect(ai.first?.message == #"<tank0pressurePSI> holds "AI is off", a state and not a reading, in 3 records; read as not recorded"#)
        #expect(ai.first?.location.path == "dive/diveLog/diveLogRecords/diveLogRecord/0/tank0pressurePSI")
        // The one reading is a tank's: 2960 psi is 204.1 bar, on a cylinder of its own.
        let p = try #require(d.profile?.pressures.first)
        #expect(p.series.times == [3000] && p.series.values == [2041])
        #expect(d.cylinders.count == 1 && d.cylinders[0].oxygen == nil)
    }

    /// A sample's tank field past any cylinder's pressure is dropped and said, as dive_details's is.
    @Test func aTankPressurePastAnyCylinderIsOutOfRange() throws {
        let records = ["<currentTime>0</currentTime><tank0pressurePSI>6000</tank0pressurePSI>",
                       "<currentTime>1000</currentTime><tank0pressurePSI>3000</tank0pressurePSI>",
                       "<currentTime>2000</currentTime><tank0pressurePSI>full</tank0pressurePSI>"]
        let (dives, findings) = try readShearwaterXML(xml: shearwaterXML("<imperialUnits>false</imperialUnits>", records: records))
        #expect(dives.first?.profile?.pressures.first?.series.values == [2068])
        let range = try #require(findings.first { $0.code == "shearwater-xml.value-out-of-range" })
        #expect(range.message == "<tank0pressurePSI> 6000 psi is not a tank pressure (0 to 350 bar); not carried")
        #expect(range.location.path == "dive/diveLog/diveLogRecords/diveLogRecord/0/tank0pressurePSI")
        #expect(findings.first { $0.code == "shearwater-xml.no-reading" }?.message == #"<tank0pressurePSI> holds "full", a state and not a reading, in 1 record; read as not recorded"#)
    }

    /// A finding about many records is one per field and kind (and per state's text), counted,
    /// located at its first record.
    @Test func recordFindingsAreCountedOncePerKind() throws {
        let tanks = ["AI is off", "No comms for 30 seconds", "AI is off", "-5", "-7"]
        let records = tanks.enumerated().map { "<currentTime>\($0.offset * 1000)</currentTime><tank0pressurePSI>\($0.element)</tank0pressurePSI>" }
        let (_, findings) = try readShearwaterXML(xml: shearwaterXML("<imperialUnits>false</imperialUnits>", records: records))
        let tank = findings.filter { $0.location.path?.hasSuffix("tank0pressurePSI") == true }
        #expect(tank.map(\.message) == [
            #"<tank0pressurePSI> holds "AI is off", a state and not a reading, in 2 records; read as not recorded"#,
            #"<tank0pressurePSI> holds "No comms for 30 seconds", a state and not a reading, in 1 record; read as not recorded"#,
            "<tank0pressurePSI> -5 psi is not a tank pressure (0 to 350 bar) (the first of 2); not carried",
        ])
        #expect(tank.map { $0.location.path ?? "" } == (0..<3).map { "dive/diveLog/diveLogRecords/diveLogRecord/\([0, 1, 3][$0])/tank0pressurePSI" })
    }

    /// A decoded number's Double (made without its text where that is exact) is the one its text parses to.
    @Test(arguments: [(472, -1), (21, -2), (-5, -1), (0, 0), (8190, 0), (123_456_789, -7), (1, 22), (7, -22), (1 << 53 - 1, -3), (1 << 60, -2), (3, 30), (3, -30)])
    func aDecodedNumbersDoubleIsItsTextsDouble(significand: Int, exponent: Int) {
        let d = DecimalNumber(significand: Int64(significand), exponent: exponent)
        #expect(ShearwaterNumber(d).value == Double(d.description))
    }

    /// A transmitter whose name (a PNF log's `O…`) says its tank holds oxygen is not paired with
    /// air by position, however the counts fall.
    @Test func aTransmitterNamedForAnotherGasIsNotPairedByOrder() throws {
        var reading = ShearwaterLogReading(spelling: ShearwaterXMLSpelling(file: "t.xml", logLine: 1))
        reading.tankRoles[0] = .oxygen
        var draft = ShearwaterLogDraft()
        var r = ShearwaterRecord(line: 2)
        r.set(.time, DecimalNumber(0))
        r.set(.o2, DecimalNumber(significand: 21, exponent: -2))
        r.set(RecordField.tanks[0][0], DecimalNumber(3000))
        draft.records = [r]
        var dive = Dive(uuid: "u", startedAt: nil), rec = Recording()
        reading.readRecords(draft, units: .metric, into: &dive, recording: &rec)
        #expect(dive.cylinders.map(\.oxygen) == [21, nil] && dive.cylinders.map(\.role) == [nil, .oxygen])
        #expect(reading.findings.first { $0.code == "shearwater-xml.tank-gas-absent" }?.message
                == "<tank0pressurePSI> reports 1 pressure and the log names the tank an oxygen tank and states no mix for it; a transmitter's name disagrees with the gas it would pair with in order, so they are carried as a cylinder of their own, with no gas")
    }

    /// Names are matched case-insensitively, once per distinct name, and messages keep each as written.
    @Test func namesMatchInAnyCaseAndAreQuotedAsWritten() throws {
        let (dives, findings) = try readShearwaterXML(xml: shearwaterXML("<imperialUnits>false</imperialUnits><STARTCNS>x</STARTCNS><maxdepth> 12.5 </maxdepth>",
            records: ["<currentTime>0</currentTime><CurrentDepth>3</CurrentDepth>", "<CURRENTTIME>1000</CURRENTTIME><currentDepth>4</currentDepth>"]))
        let d = try #require(dives.first)
        #expect(d.maxDepth == 12.5)
        #expect(d.profile?.depth?.values == [300, 400] && d.profile?.depth?.times == [0, 1000])
        #expect(findings.first { $0.code == "shearwater-xml.no-reading" }?.message == #"<STARTCNS> says "x", a state and not a reading; read as not recorded"#)
    }

    @Test func extremeNumbersAreRefusedNeverTrapped() throws {
        let (dives, findings) = try readShearwaterXML(xml: shearwaterXML(
            "<imperialUnits>true</imperialUnits><maxDepth>1e999</maxDepth><maxTime>-1e200</maxTime><startCns>1e200</startCns><number>99999999999999999999</number>",
            records: ["<currentTime>1e200</currentTime><currentDepth>1</currentDepth>",
                      "<currentTime>0</currentTime><currentDepth>1e200</currentDepth><waterTemp>-1e200</waterTemp><tank0pressurePSI>1e200</tank0pressurePSI><currentNdl>1e200</currentNdl><fractionO2>1e999</fractionO2>"]))
        let d = try #require(dives.first)
        #expect(d.maxDepth == nil && d.submergedTime == nil)
        #expect(d.profile == nil)
        #expect(findings.contains { $0.code == "shearwater-xml.value-out-of-range" })
        #expect(findings.contains { $0.code == "shearwater-xml.depth-out-of-range" })
        #expect(findings.contains { $0.code == "shearwater-xml.not-a-number" && $0.location.path == "dive/diveLog/maxDepth" })
        #expect(!findings.contains { $0.code == "shearwater-xml.gas-absent" })
        #expect(d.cylinders.isEmpty)
    }

    @Test func aLyingEncodingDeclarationIsReadAsUTF8AndReported() throws {
        let (dives, findings) = try readShearwaterXML(xml: shearwaterXML("<imperialUnits>false</imperialUnits><computerSerial>Café</computerSerial>"))
        #expect(dives.first?.recordings.first?.device?.serial == "Café")
        let f = try #require(findings.first { $0.code == "shearwater-xml.encoding-declaration-ignored" })
        #expect(f.kind == .resolved && f.location.line == 1)
        #expect(f.message.contains(#"encoding="utf-16""#))
        // A declaration that tells the truth says nothing.
        let (_, honest) = try readShearwaterXML(xml: shearwaterXML("<imperialUnits>false</imperialUnits>", declaration: #"<?xml version="1.0" encoding="utf-8"?>"#))
        #expect(!honest.contains { $0.code == "shearwater-xml.encoding-declaration-ignored" })
    }

    @Test func aRealUTF16FileIsStillReadAsUTF16() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = shearwaterXML("<imperialUnits>false</imperialUnits><computerSerial>Ü1</computerSerial>")
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/utf16.xml"))
        let (dives, findings, _) = try readShearwaterXML(dir + "/utf16.xml")
        #expect(dives.first?.recordings.first?.device?.serial == "Ü1")
        #expect(!findings.contains { $0.code == "shearwater-xml.encoding-declaration-ignored" })
    }

    @Test(arguments: [
        ("1/1/2024 1:07:14 PM", "2024-01-01T13:07:14", nil),
        ("12/31/2023 12:05:00 AM", "2023-12-31T00:05:00", nil),
        ("7/4/2024 12:30:00 PM", "2024-07-04T12:30:00", "date-order-assumed"),
        ("9/13/2024 00:07:10 AM", "2024-09-13T00:07:10", "hour-zero-with-designator"),
        ("9/13/2024 14:07:10 PM", "2024-09-13T14:07:10", "24-hour-with-designator"),
        ("13/9/2024 8:00:00 AM", "2024-09-13T08:00:00", "date-day-first"),
        ("9/13/2024 21:15:00", "2024-09-13T21:15:00", nil),
        ("2024-09-13 21:15:00", "2024-09-13T21:15:00", nil),
    ] as [(String, String, String?)])
    func twelveHourDates(text: String, expected: String, note: String?) throws {
        let (dt, notes) = try #require(ShearwaterDate.parse(text))
        #expect(dt.description == expected)
        #expect(notes.map(\.code) == (note.map { [$0] } ?? []))
    }

    @Test(arguments: ["9/13/2024 14:07:10 AM", "2/30/2024 1:00:00 PM", "9/13/2024 1:07 XM", "yesterday"])
    func impossibleDatesAreNoStart(text: String) throws {
        #expect(ShearwaterDate.parse(text) == nil)
        let (dives, findings) = try readShearwaterXML(xml: shearwaterXML("<startDate>\(text)</startDate>"))
        #expect(dives.first?.startedAt == nil)
        #expect(findings.contains { $0.code == "shearwater-xml.start-invalid" && $0.location.path == "dive/diveLog/startDate" })
    }

    @Test func anUnknownElementIsReportedWithItsPath() throws {
        let (_, findings) = try readShearwaterXML(xml: shearwaterXML("<imperialUnits>false</imperialUnits><fooBar>7</fooBar>",
                                                                      records: ["<currentTime>0</currentTime><mystery>5</mystery>"]))
        let dropped = findings.filter { $0.code == "shearwater-xml.not-carried" }
        #expect(dropped.contains { $0.location.path == "dive/diveLog/fooBar" && $0.message.contains("<fooBar>7</fooBar>") })
        #expect(dropped.contains { $0.location.path == "dive/diveLog/diveLogRecords/diveLogRecord/mystery" && $0.message.contains("<mystery>5</mystery>") })
    }

    @Test func aTruncatedFileIsALocatedError() throws {
        let xml = shearwaterXML("<imperialUnits>false</imperialUnits>", records: ["<currentTime>0</currentTime><currentDepth>1</currentDepth>"])
        let cut = String(xml.prefix(upTo: try #require(xml.range(of: "<currentDepth>")).upperBound))
        let e = try #require(throws: DiveError.self) { try readShearwaterXML(xml: cut + "1.") }
        #expect(e.code == "xml.truncated")
        #expect(e.location.file?.hasSuffix("dive.xml") == true && e.location.line != nil)
        #expect(e.message.contains("<currentDepth>"))
    }

    @Test func anotherRootIsRefused() throws {
        let e = try #require(throws: DiveError.self) { try readShearwaterXML(xml: "<divelog><diveLog/></divelog>") }
        #expect(e.code == "shearwater-xml.not-shearwater-xml")
        let none = try #require(throws: DiveError.self) { try readShearwaterXML(xml: "<dive version='3'/>") }
        #expect(none.code == "shearwater-xml.no-dive-log")
    }

    @Test func imperialUnitsConvertDepthsAndTemperatures() throws {
        let (dives, _) = try readShearwaterXML(xml: shearwaterXML(
            "<imperialUnits>true</imperialUnits><maxDepth>100</maxDepth><maxTime>600</maxTime>",
            records: ["<currentTime>0</currentTime><currentDepth>33</currentDepth><waterTemp>68</waterTemp><fractionO2>0.32</fractionO2><fractionHe>0</fractionHe><currentCircuitSetting>OC/BO</currentCircuitSetting>"]))
        let d = try #require(dives.first)
        #expect(d.maxDepth == 30.48)
        #expect(d.profile?.depth?.values == [1006])
        #expect(d.profile?.temperature?.values == [2000])
        #expect(d.cylinders.first?.oxygen == 32)
    }

    @Test func gasSwitchesAndABailoutAreCarried() throws {
        let rec = { (t: Int, o2: String, circuit: String) in
            "<currentTime>\(t)</currentTime><currentDepth>10</currentDepth><fractionO2>\(o2)</fractionO2><fractionHe>0</fractionHe><currentCircuitSetting>\(circuit)</currentCircuitSetting>"
        }
        let (dives, findings) = try readShearwaterXML(xml: shearwaterXML("<imperialUnits>false</imperialUnits>",
            records: [rec(0, "0.21", "CC/BO"), rec(10_000, "0.21", "CC/BO"), rec(20_000, "0.5", "OC/BO")]))
        let d = try #require(dives.first)
        #expect(d.cylinders.map(\.oxygen) == [21, 50])
        #expect(d.cylinders.map(\.role) == [.diluent, nil])
        #expect(d.profile?.events.map(\.time) == [0, 20_000])
        #expect(d.profile?.events.map(\.gasNumber) == [0, 1])
        #expect(d.recordings.first?.mode == .closedCircuit)
        #expect(findings.contains { $0.code == "shearwater-xml.circuit-changes" })
    }

    /// Every element with content in the corpus exports is carried or named by a finding of the
    /// reader's, checked against a walk that is not the reader.
    @Test(.enabled(if: Paths.sharedAvailable)) func everyElementIsAccountedFor() throws {
        for name in ["shearwater-xml__valid_depth_data_oc_tec_trimmed.xml", "shearwater-xml__valid_depth_data_trimmed.xml"] {
            let file = shearwaterCorpus + "/" + name
            let walk = LeafWalk()
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            let parser = XMLParser(data: Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "utf-16", with: "utf-8").utf8))
            parser.delegate = walk
            #expect(parser.parse())
            let (_, findings, reader) = try readShearwaterXML(file, accounting: true)
            let accounted = reader.accounting.accounted
            #expect(!walk.leaves.isEmpty)
            let lost = walk.leaves.filter { leaf in
                if accounted.contains(leaf) { return false }
                let parts = leaf.split(separator: "/").map(String.init)
                let parent = "dive/" + parts.dropLast().joined(separator: "/")
                return !findings.contains { f in
                    guard let p = f.location.path else { return false }
                    return p.hasPrefix("dive/" + leaf) || (p == parent && f.message.contains("<\(parts.last ?? "")>"))
                        || (f.code == "shearwater-xml.not-carried" && p == parent && f.message.contains("<\(parts.last ?? "")>"))
                }
            }
            #expect(lost.isEmpty, "\(name): neither carried nor reported: \(lost.sorted())")
        }
    }
}

/// Leaf elements with text, by path from the root's child down (Foundation's parser).
final class LeafWalk: NSObject, XMLParserDelegate {
    private var stack: [(name: String, text: Bool)] = []
    var leaves: Set<String> = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        stack.append((name, false))
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if !string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, !stack.isEmpty { stack[stack.count - 1].text = true }
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let e = stack.removeLast()
        if e.text && !stack.isEmpty { leaves.insert((stack.dropFirst().map(\.name) + [e.name]).joined(separator: "/")) }
    }
}
