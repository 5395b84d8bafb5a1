import Foundation
import Testing
import DiveCore
@testable import DiveUDCF
import TestSupport

/// Reads every dive of `path` and the findings the reader reported.
func readUDCF(_ path: String) throws -> (dives: [Dive], findings: [Finding], reader: UDCFReader) {
    let reader = try UDCFReader(path: path)
    var dives: [Dive] = []
    var findings: [Finding] = []
    while let d = try reader.next() {
        dives.append(d)
        findings += reader.takeFindings()
    }
    return (dives, findings + reader.takeFindings(), reader)
}

/// Reads `xml` written to a temporary file.
func readUDCF(xml: String) throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
    let dir = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/dive.udcf"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    let (dives, findings, reader) = try readUDCF(path)
    return (dives, findings, reader.header)
}

extension [Finding] {
    func codes() -> [String] { map(\.code) }
    func with(_ code: String) -> [Finding] { filter { $0.code == code } }
}

/// The corpus's UDCF files, each read off by hand (the counts with
/// `grep -io '<dive>' FILE | wc -l`, a dive's depths with `grep -io '<d>[^<]*' FILE`).
@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct UDCFCorpusTests {
    /// The Diveboard plugin's Mares M2 download: 138 KB on one line, `<device>` never closed, no
    /// `<units>`, 41 dives in one `<REPGROUP>`. The first dive reads `<DATE>2006-04-02</DATE>
    /// <TIME>00:05:00</TIME><DURATION>8</DURATION><TEMPERATURE>16</TEMPERATURE>`, 26 `<t>`/`<d>`
    /// pairs from t 0 to 500, the deepest `<d>29.6</d>` (at t 220), no gases.
    @Test func diveboardPlugin() throws {
        let (dives, findings, reader) = try readUDCF(Paths.corpus + "/udcf/diveboard-plugin__DB_UDCF_41__1.udcf")
        #expect(dives.count == 41)
        let d = dives[0]
        #expect(d.startedAt?.description == "2006-04-02T00:05:00")
        #expect(d.maxDepth == 29.6)
        #expect(d.submergedTime == 480)
        #expect(d.profile?.duration == 500_000)
        #expect(d.cylinders.isEmpty)
        #expect(d.profile?.sampleCount == 26)
        #expect(d.bottomTemperature == 16)
        #expect(d.recordings.first?.device?.brand == "Mares" && d.recordings.first?.device?.model == "M2")
        // The last dive: 2010-06-29 14:14:00, 136 pairs to t 2700, deepest 12.3.
        #expect(dives[40].startedAt?.description == "2010-06-29T14:14:00")
        #expect(dives[40].profile?.sampleCount == 136 && dives[40].maxDepth == 12.3 && dives[40].profile?.duration == 2_700_000)
        // What libxml2 recovered from is said: the unclosed <device>, and <profile> never closed as a result.
        let recovered = findings.with("xml.recovered")
        #expect(recovered.count == 2)
        #expect(recovered.first?.message.contains("Opening and ending tag mismatch: device") == true)
        #expect(findings.with("udcf.units-absent").count == 1)
        // Its alarms are the computer's codes, not UDCF's words: carried as labelled events, said once a dive.
        #expect(d.profile?.events.first.map { ($0.time, $0.label) } ?? (0, nil) == (100_000, "F_8    F_4"))
        #expect(findings.with("udcf.alarm-unknown").count == 41)
        #expect(reader.header.sourceVersion == "1")
    }

    /// MacDive 2.0.5 (one dive despite the name): `<units>Metric</units>`, the date as `<year>2010
    /// <month>11<day>04`, `<hour>14<minute>19<second>00`, `<mixname>Air</mixname>` over
    /// `<o2>0.32</o2>`, `<switch>1</switch><delta>20.00</delta>` then 32 `<t>`/`<d>` pairs from
    /// 20 to 640, the deepest `<d>33.90</d>`.
    @Test func macDive() throws {
        let (dives, findings, _) = try readUDCF(Paths.corpus + "/udcf/macdive__MacDive_UDCF_41_dives__1.udcf")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2010-11-04T14:19:00")
        #expect(d.maxDepth == 33.9)
        #expect(d.profile?.duration == 640_000)
        #expect(d.cylinders.map(\.oxygen) == [32] && d.cylinders.first?.gasName == "Air")
        #expect(d.profile?.sampleCount == 32)
        #expect(d.profile?.events == [Event(time: 20_000, type: .gasSwitch, gasNumber: 0)])
        #expect(d.recordings.first?.device?.serial == "006730")
        #expect(findings.with("udcf.mix-name-contradicts").count == 1)
        #expect(findings.with("udcf.zero-placeholder").count == 2)  // density 0.0, pstart/pend 0.00
        #expect(findings.with("xml.recovered").isEmpty)
    }

    /// divelogs.de 2.0: lowercase, `<o2>32</o2><n2>68</n2>` percentages, `<pstart>16499000</pstart>`
    /// Pascal under `<units>Metric</units>`, 17 May 2011 11:01, `<delta>30</delta>` over 65
    /// `<d>`, the deepest 24.69.
    @Test func divelogsDE() throws {
        let (dives, findings, _) = try readUDCF(Paths.corpus + "/other/divelogs-de__TestDiveDivelogsDE.udcf")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2011-05-17T11:01:00")
        #expect(d.maxDepth == 24.69)
        #expect(d.profile?.duration == 64 * 30_000)
        #expect(d.cylinders.map(\.oxygen) == [32] && d.cylinders.map(\.helium) == [0])
        #expect(d.cylinders.first?.startPressure == 164.99 && d.cylinders.first?.endPressure == 69.02 && d.cylinders.first?.volume == 11.66)
        #expect(d.profile?.sampleCount == 65)
        #expect(d.recordings.first?.salinity == .salt)
        #expect(findings.with("udcf.pressure-in-pascal").count == 2)
        #expect(findings.with("udcf.mix-in-percent").count == 1)
        #expect(findings.with("xml.recovered").isEmpty)
    }

    /// Diving Log 5.0.8, the same dive: UPPERCASE, `<O2>0.21</O2>` fractions, `<PSTART>165.0</PSTART>`,
    /// `<DELTA>30.0</DELTA>`, `<SWITCH>RealAir</SWITCH>` before the first of 65 `<D>`.
    @Test func divingLogTestDive() throws {
        let (dives, findings, _) = try readUDCF(Paths.corpus + "/other/divinglog__TestDiveDivingLog5.08.udcf")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2011-05-17T11:01:00")
        #expect(d.maxDepth == 24.69)
        #expect(d.profile?.duration == 1_920_000)
        #expect(d.cylinders.map(\.oxygen) == [21] && d.cylinders.first?.gasName == "RealAir")
        #expect(d.cylinders.first?.startPressure == 165 && d.cylinders.first?.endPressure == 69 && d.cylinders.first?.volume == 11.7)
        #expect(d.profile?.sampleCount == 65)
        #expect(d.profile?.events == [Event(time: 0, type: .gasSwitch, gasNumber: 0)])
        #expect(findings.with("xml.recovered").isEmpty && findings.with("udcf.pressure-in-pascal").isEmpty)
    }

    /// Diving Log's nine dives: the first 28 Jul 2010 10:46, `<DELTA>20.0</DELTA>` over 167
    /// `<D>`, deepest 12.80, air; `<PLACE>, , </PLACE>` on every dive; `<ALARM>ASCENT</ALARM>` and
    /// `<ALARM>DECO</ALARM>` in later dives (8 in all).
    @Test func divingLogNineDives() throws {
        let (dives, findings, _) = try readUDCF(Paths.corpus + "/other/divinglog__divinglog_9_dives_1.udcf")
        #expect(dives.count == 9)
        let d = dives[0]
        #expect(d.startedAt?.description == "2010-07-28T10:46:00")
        #expect(d.maxDepth == 12.8)
        #expect(d.profile?.duration == 166 * 20_000)
        #expect(d.cylinders.map(\.oxygen) == [21])
        #expect(d.profile?.sampleCount == 167)
        #expect(dives.allSatisfy { $0.siteUUIDs.isEmpty })
        #expect(findings.with("udcf.place-empty").count == 9)
        let alarms = dives.flatMap { $0.profile?.events ?? [] }.filter { $0.type != .gasSwitch }
        #expect(alarms.count == 8)
        #expect(alarms.filter { $0.type == .ascentRate }.count == alarms.filter { $0.label == "ASCENT" }.count)
        #expect(findings.with("udcf.alarm-unknown").isEmpty)
    }

    /// Every element with content in the corpus is carried or reported: what is neither would
    /// be lost silently. The elements reported `udcf.not-carried` are these, and only these.
    @Test func nothingLostSilently() throws {
        var notCarried: Set<String> = []
        for f in ["udcf/diveboard-plugin__DB_UDCF_41__1.udcf", "udcf/macdive__MacDive_UDCF_41_dives__1.udcf",
                  "other/divelogs-de__TestDiveDivelogsDE.udcf", "other/divinglog__TestDiveDivingLog5.08.udcf",
                  "other/divinglog__divinglog_9_dives_1.udcf"] {
            let (_, findings, _) = try readUDCF(Paths.corpus + "/" + f)
            for n in findings.with("udcf.not-carried") {
                notCarried.insert(n.location.path?.replacingOccurrences(of: #"dive/\d+/"#, with: "", options: .regularExpression).lowercased() ?? "")
            }
        }
        #expect(notCarried == ["program/presstart", "addinfo", "addinfo/totaldives"])
    }
}

/// Small files made for each habit and rule of `docs/udcf-mapping.md`.
@Suite struct UDCFHabitTests {
    /// Diving Log's habit: UPPERCASE, the date in elements, depths at a `<DELTA>` interval, a
    /// `<SWITCH>` by the mix's name, `<ALARM>` after the depth it belongs to.
    @Test func uppercaseDeltaSamples() throws {
        let (dives, findings, header) = try readUDCF(xml: """
            <PROFILE UDCF="1"><UNITS>Metric</UNITS><DEVICE><VENDOR>V</VENDOR><MODEL>M</MODEL></DEVICE>
            <REPGROUP><DIVE><PLACE>Reef</PLACE><DATE><YEAR>2020</YEAR><MONTH>3</MONTH><DAY>9</DAY></DATE>
            <TIME><HOUR>8</HOUR><MINUTE>5</MINUTE></TIME><TEMPERATURE>18.5</TEMPERATURE><DENSITY>1000</DENSITY><ALTITUDE>420</ALTITUDE>
            <GASES><MIX><MIXNAME>Bottom</MIXNAME><TANK><TANKVOLUME>12</TANKVOLUME><PSTART>200</PSTART><PEND>60</PEND></TANK>
            <O2>0.21</O2><N2>0.79</N2><HE>0</HE></MIX><MIX><MIXNAME>Deco</MIXNAME><O2>0.50</O2><N2>0.50</N2></MIX></GASES>
            <DELTAMODE/><SAMPLES><DELTA>10</DELTA><SWITCH>bottom</SWITCH><D>0</D><D>5.5</D><ALARM>ASCENT</ALARM><D>3</D>
            <SWITCH>Deco</SWITCH><D>0</D></SAMPLES></DIVE></REPGROUP></PROFILE>
            """)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2020-03-09T08:05:00")
        #expect(d.profile?.depth?.times == [0, 10_000, 20_000, 30_000] && d.profile?.depth?.values == [0, 550, 300, 0])
        #expect(d.profile?.events == [Event(time: 0, type: .gasSwitch, gasNumber: 0), Event(time: 10_000, type: .ascentRate, label: "ASCENT"),
                                      Event(time: 30_000, type: .gasSwitch, gasNumber: 1)])
        #expect(d.cylinders.map(\.gasNumber) == [0, 1] && d.cylinders.map(\.oxygen) == [21, 50])
        #expect(d.cylinders[0].volume == 12 && d.cylinders[0].startPressure == 200 && d.cylinders[0].endPressure == 60)
        #expect(d.bottomTemperature == 18.5 && d.altitude == 420 && d.recordings.first?.salinity == .fresh)
        #expect(header.sites.map(\.name) == ["Reef"] && d.siteUUIDs == [header.sites[0].uuid])
        #expect(findings.with("udcf.time-without-seconds").count == 1)
        #expect(findings.with("xml.recovered").isEmpty && findings.with("udcf.not-carried").isEmpty)
    }

    /// MacDive's and the Diveboard plugin's habit: `<t>`/`<d>` pairs, a `<switch>` counting the
    /// mixes from 1, the date and time as text.
    @Test func timedPairsAndTextDates() throws {
        let (dives, findings, _) = try readUDCF(xml: """
            <profile udcf="1"><units>metric</units><repgroup><dive><date>2019-12-31</date><time>23:59:30</time>
            <gases><mix><mixname>EAN32</mixname><o2>0.32</o2></mix></gases>
            <samples><switch>1</switch><t>0</t><d>0</d><t>15</t><d>4.2</d><t>15</t><d>4.4</d><t>45</t><d>1</d></samples></dive></repgroup></profile>
            """)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2019-12-31T23:59:30")
        #expect(d.profile?.depth?.times == [0, 15_000, 45_000] && d.profile?.depth?.values == [0, 420, 100])
        #expect(d.profile?.events == [Event(time: 0, type: .gasSwitch, gasNumber: 0)])
        #expect(findings.with("udcf.sample-same-instant").count == 1)
        #expect(findings.with("udcf.time-seconds").count == 1)
    }

    /// An imperial file: feet, °F and psi; a tank size in cubic feet is not a water capacity.
    @Test func imperialFile() throws {
        let (dives, findings, _) = try readUDCF(xml: """
            <profile udcf="1"><units>Imperial</units><repgroup><dive><date>2015-06-01</date><time>10:00:00</time>
            <temperature>77</temperature><altitude>1000</altitude>
            <gases><mix><mixname>Air</mixname><tank><tankvolume>80</tankvolume><pstart>3000</pstart><pend>500</pend></tank><o2>0.21</o2></mix></gases>
            <samples><delta>30</delta><d>0</d><d>100</d><d>10</d></samples></dive></repgroup></profile>
            """)
        let d = try #require(dives.first)
        #expect(d.bottomTemperature == 25)
        #expect(d.altitude == 305)
        #expect(d.profile?.depth?.values == [0, 3048, 305])
        #expect(d.maxDepth == 30.48)
        #expect(d.cylinders.first?.startPressure == 206.842719 && d.cylinders.first?.endPressure == 34.473786)
        #expect(d.cylinders.first?.volume == nil && findings.with("udcf.tank-volume-imperial").count == 1)
    }

    /// An SI file: kelvin and Pascal.
    @Test func siFile() throws {
        let (dives, _, _) = try readUDCF(xml: """
            <profile udcf="1"><units>SI</units><repgroup><dive><date>2015-06-01</date><time>10:00:00</time><temperature>288.15</temperature>
            <gases><mix><tank><pstart>20000000</pstart></tank><o2>0.21</o2></mix></gases><samples><delta>60</delta><d>0</d><d>12</d></samples></dive></repgroup></profile>
            """)
        let d = try #require(dives.first)
        #expect(d.bottomTemperature == 15 && d.cylinders.first?.startPressure == 200 && d.maxDepth == 12)
    }

    /// divelogs.de's habit: percentages for the mix, Pascal for the tank under `<units>Metric`.
    @Test func percentMixAndPascal() throws {
        let (dives, findings, _) = try readUDCF(xml: """
            <profile udcf="1"><units>Metric</units><repgroup><dive><date>2015-06-01</date><time>10:00:00</time>
            <gases><mix><tank><pstart>20000000</pstart><pend>5000000</pend></tank><o2>18</o2><n2>37</n2><he>45</he></mix></gases></dive></repgroup></profile>
            """)
        let c = try #require(dives.first?.cylinders.first)
        #expect(c.oxygen == 18 && c.helium == 45 && c.startPressure == 200 && c.endPressure == 50)
        #expect(findings.with("udcf.mix-in-percent").count == 1 && findings.with("udcf.pressure-in-pascal").count == 2)
        #expect(findings.with("udcf.nitrogen-not-remainder").isEmpty)
        #expect(dives.first?.profile == nil)
    }

    /// No `<units>`: metric, unless the dive's temperature can only be °F; said once a file.
    @Test func unitsAbsentMagnitudeRule() throws {
        let (dives, findings, _) = try readUDCF(xml: """
            <profile udcf="1"><repgroup><dive><date>2015-06-01</date><time>10:00:00</time><temperature>20</temperature><samples><delta>20</delta><d>0</d><d>30</d></samples></dive>
            <dive><date>2015-06-02</date><time>10:00:00</time><temperature>68</temperature><samples><delta>20</delta><d>0</d><d>30</d></samples></dive></repgroup></profile>
            """)
        #expect(dives.map(\.maxDepth) == [30, 9.14])  // 30 ft, at the profile's centimetres
        #expect(dives.map(\.bottomTemperature) == [20, 20])
        #expect(findings.with("udcf.units-absent").count == 1 && findings.with("udcf.units-imperial-by-temperature").count == 1)
    }

    /// The Diveboard plugin's habit: an element never closed. Read through libxml2's recovery,
    /// each place read past a finding; the dives still come out.
    @Test func notWellFormedIsReadThrough() throws {
        let (dives, findings, _) = try readUDCF(xml: """
            <profile udcf='1'><device><vendor>Mares</vendor><model>M2</model><REPGROUP><DIVE><DATE>2006-04-02</DATE><TIME>00:05:00</TIME><SAMPLES><t>0</t><d>3.3</d><t>20</t><d>9.4</d></SAMPLES></DIVE><DIVE><DATE>2006-04-03</DATE><TIME>10:00:00</TIME></DIVE></REPGROUP></profile>
            """)
        #expect(dives.count == 2)
        #expect(dives[0].maxDepth == 9.4 && dives[0].recordings.first?.device?.model == "M2")
        let recovered = findings.with("xml.recovered")
        #expect(!recovered.isEmpty && recovered.allSatisfy { $0.kind == .resolved })
        #expect(recovered[0].location.line == 1 && recovered[0].message.contains("device"))
    }

    /// What a dive cannot hold is said at its element: an unknown mix, an unknown alarm, a
    /// depth with no time, a nitrogen that is not the remainder, an element of no meaning here.
    @Test func findingsAtTheirElements() throws {
        let (dives, findings, _) = try readUDCF(xml: """
            <profile udcf="1"><units>metric</units><repgroup><dive><date>2015-06-01</date><time>10:00</time><surfaceinterval>infinity</surfaceinterval>
            <gases><mix><mixname>Air</mixname><o2>0.21</o2><n2>0.70</n2></mix></gases>
            <samples><t>0</t><d>0</d><d>2</d><switch>Nitrox</switch><t>10</t><d>x</d><alarm>BEEP</alarm><heartbeat>80</heartbeat></samples></dive></repgroup></profile>
            """)
        #expect(dives.count == 1)
        let f = findings
        #expect(f.with("udcf.depth-without-time").first?.location.path == "dive/0/samples/d")
        #expect(f.with("udcf.switch-unknown-mix").count == 1)
        #expect(f.with("udcf.not-a-number").first?.message == "<d> holds \"x\", not a number; not carried")
        #expect(f.with("udcf.alarm-unknown").count == 1 && dives[0].profile?.events.map(\.label) == ["BEEP"])
        #expect(f.with("udcf.nitrogen-not-remainder").count == 1)
        #expect(f.with("udcf.surface-interval-not-carried").count == 1)
        #expect(f.with("udcf.not-carried").first?.location.path == "dive/0/samples/heartbeat")
        #expect(f.with("udcf.time-without-seconds").count == 1)
    }

    /// A root other than `<profile>` is refused with a located error; a date that is no date
    /// refuses its dive and says so.
    @Test func refusals() throws {
        #expect(throws: DiveError.self) { try readUDCF(xml: "<dives><dive/></dives>") }
        do {
            _ = try readUDCF(xml: "<dives/>")
        } catch let e as DiveError {
            #expect(e.code == "udcf.not-udcf" && e.message.contains("<dives>"))
        }
        let (dives, findings, _) = try readUDCF(xml: "<profile udcf=\"1\"><repgroup><dive><date>2015-13-45</date></dive><dive><date>2015-01-02</date></dive></repgroup></profile>")
        #expect(dives.count == 1 && findings.with("udcf.start-invalid").first?.lostDives == 1)
    }

    /// The sniff: any case of `<profile>` with a UDCF version, or a `<profile>` holding a
    /// `<repgroup>`; not another `<profile>`.
    @Test(arguments: [
        ("<PROFILE UDCF=\"1\">", SniffConfidence.certain), ("<profile udcf='1'>", .certain), ("<Profile Udcf=\"1\">", .certain),
        ("<profile><REPGROUP><DIVE>", .likely), ("<profile><name>x</name></profile>", .none), ("<dives udcf=\"1\">", .none),
    ])
    func sniff(_ text: String, _ expected: SniffConfidence) {
        let bytes = Array(text.utf8)
        let root = SniffInput.xmlRoot(bytes)
        let input = SniffInput(bytes: bytes, text: bytes, isWholeInput: true, xmlRoot: root.name, xmlRootTag: root.tag, isJSON: false)
        #expect(UDCF.sniff(input) == expected)
    }
}
