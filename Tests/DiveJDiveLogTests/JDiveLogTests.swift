import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import DiveCore
@testable import DiveJDiveLog
import TestSupport

/// Reads every dive of `path` and the findings the reader reported.
func readJDiveLog(_ path: String, accounting: Bool = false) throws -> (dives: [Dive], findings: [Finding], reader: JDiveLogReader) {
    let reader = try JDiveLogReader(path: path)
    reader.recordsAccounting = accounting
    var dives: [Dive] = []
    var findings: [Finding] = []
    while let d = try reader.next() {
        dives.append(d)
        findings += reader.takeFindings()
    }
    return (dives, findings + reader.takeFindings(), reader)
}

/// Reads `xml` written to a temporary file.
func readJDiveLog(xml: String) throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
    let dir = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/log.jlb"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    let (dives, findings, reader) = try readJDiveLog(path)
    return (dives, findings, reader.header)
}

/// A logbook of one `<JDive>` holding `body`.
func jdive(_ body: String) -> String {
    "<?xml version=\"1.0\"?>\n<JDiveLog><Version>2.13</Version><JDive>\(body)</JDive></JDiveLog>"
}

/// The member `name` of an `extensions.umilog` object.
func umilog(_ e: ExtensionValue?, _ name: String) -> ExtensionValue? {
    guard case .object(let members)? = e, let u = members.first(where: { $0.name == "umilog" }),
          case .object(let inner) = u.value else { return nil }
    return inner.first { $0.name == name }?.value
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct JDiveLogCorpusTests {
    static let file = Paths.corpus + "/other/jdivelog__TestDiveJDiveLog.jlb"

    /// Read off the file with `python3 -c "import xml.etree.ElementTree as E; r=E.parse(F).getroot();
    /// d=r.find('JDive'); print(len(r.findall('JDive')), [d.findtext(p) for p in ['DATE/YEAR','DATE/MONTH',
    /// 'DATE/DAY','TIME/HOUR','TIME/MINUTE','Depth','Duration','UNITS']], [(m.findtext('MIXNAME'),
    /// m.findtext('O2'), m.findtext('TANK/TANKVOLUME')) for m in d.iter('MIX')], len(d.findall('DIVE/SAMPLES/D')),
    /// d.findtext('DIVE/SAMPLES/DELTA'))"`:
    /// `1 ['2011','5','17','11','1','24.691848000000004','32.0','metric'] [('NX 32','0.32','11.699778092399999'),
    /// ('RealAir','0.21','11.7')] 65 0.5` — one dive at 11:01, 32 minutes, the equipment's tank NX 32
    /// (165 → 69 bar) and the computer's RealAir for the same cylinder, 65 depths half a minute apart.
    @Test func theOneDiveLogbook() throws {
        let (dives, findings, reader) = try readJDiveLog(Self.file)
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.number == 1)
        #expect(d.startedAt?.description == "2011-05-17T11:01:00")
        #expect(d.maxDepth == 24.691848 && d.avgDepth == 11.652504)
        #expect(d.submergedTime == 1920)
        #expect(d.bottomTemperature == 10)
        #expect(abs((d.weight ?? 0) - 16.329) < 1e-3)   // 36lbs
        #expect(d.notes == "This is a JDiveLog Comment")
        #expect(d.cylinders.count == 1)
        let c = try #require(d.cylinders.first)
        #expect(c.oxygen == 32 && c.helium == 0 && c.gasName == "NX 32")
        #expect(c.volume == 11.699778092 && c.startPressure == 165 && c.endPressure == 69)
        let p = try #require(d.profile)
        #expect(p.sampleCount == 65)
        #expect(p.depth?.times.last == 64 * 30_000 && p.depth?.values.prefix(3) == [0, 274, 488])
        #expect(p.events == [Event(time: 0, type: .gasSwitch, gasNumber: 0)])
        #expect(d.recordings.first?.salinity == .salt && d.altitude == 0)
        #expect(umilog(d.extensions, "visibility") == .string("Bad"))
        #expect(umilog(d.extensions, "amv") == .number("16.21051"))
        #expect(d.people.count == 1 && reader.header.people.first?.name == "Linus")
        let site = try #require(reader.header.sites.first)
        #expect(d.siteUUIDs == [site.uuid])
        #expect(site.name == "Yellow House" && site.location?.name == "Hoodsport, WA, USA")
        // <longitude>N47 24,01200</longitude><latitude>W123 8.53794</latitude>: read by the letters.
        #expect(site.position?.latitude == 47.4002 && site.position?.longitude == -123.142299)
        #expect(reader.header.sourceVersion == "2.13")
        let codes = Set(findings.map(\.code))
        for code in ["jdivelog.gas-differs", "jdivelog.coordinates-swapped", "jdivelog.weight-with-unit", "jdivelog.settings-not-carried",
                     "jdivelog.no-previous-dive", "jdivelog.zero-placeholder", "jdivelog.time-without-seconds", "jdivelog.offset-absent"] {
            #expect(codes.contains(code), "\(code)")
        }
    }

    /// Every element with text is carried or named by a finding, checked against a walk that is
    /// not the reader: the settings blocks by one finding, `<htmlExported>` by the accountant's.
    @Test func everyElementIsAccountedFor() throws {
        let walk = LeafWalk()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: Self.file)))
        parser.delegate = walk
        #expect(parser.parse())
        let (_, findings, reader) = try readJDiveLog(Self.file, accounting: true)
        let reported = findings.filter { $0.code == "jdivelog.not-carried" }.compactMap { $0.location.path }
        let lost = walk.leaves.filter { leaf in
            !reader.accounting.accounted.contains(leaf)
                && !reported.contains { $0.hasSuffix(String(leaf.drop { $0 != "/" }.dropFirst())) }
        }
        #expect(lost.isEmpty, "neither carried nor reported: \(lost.sorted())")
        #expect(reported == ["dive/0/htmlExported"])
    }
}

struct JDiveLogHabitTests {
    /// `<UNITS>si</UNITS>`: kelvin, pascal (with an exponent), seconds, cubic metres; the
    /// temperatures between depths are the depth's before them; SLOW is an ascent alarm at the
    /// next interval, SURFACE is reported; a site written the right way round.
    @Test func siUnitsSample() throws {
        let (dives, findings, reader) = try readJDiveLog(Paths.samples + "/jdivelog/si-units.jlb")
        let d = try #require(dives.first)
        #expect(d.number == 12 && d.startedAt?.description == "2009-10-03T09:45:00")
        #expect(d.submergedTime == 180 && d.maxDepth == 18.4 && d.bottomTemperature == 24)
        #expect(d.weight == 6)
        let c = try #require(d.cylinders.first)
        #expect(d.cylinders.count == 1 && c.oxygen == 36 && c.volume == 11.1 && c.startPressure == 200 && c.endPressure == 80)
        let p = try #require(d.profile)
        #expect(p.depth?.times == [0, 60_000, 120_000, 180_000] && p.depth?.values == [0, 1250, 1840, 0])
        #expect(p.temperature?.times == [0, 120_000] && p.temperature?.values == [2500, 2400])
        #expect(p.events == [Event(time: 0, type: .gasSwitch, gasNumber: 0), Event(time: 120_000, type: .ascentRate, label: "SLOW")])
        #expect(d.recordings.first?.salinity == .fresh)
        #expect(reader.header.sites.first?.position == Position(latitude: 28.575, longitude: 34.535))
        #expect(findings.contains { $0.code == "jdivelog.surface-alarm" })
        #expect(!findings.contains { $0.code == "jdivelog.coordinates-swapped" || $0.code == "jdivelog.not-carried" })
    }

    /// Without `<UNITS>`, kelvin-sized temperatures make the dive si, and it says so.
    @Test func unitsByMagnitude() throws {
        let (dives, findings, _) = try readJDiveLog(xml: jdive("<DATE><YEAR>2010</YEAR><MONTH>1</MONTH><DAY>2</DAY></DATE><Duration>600</Duration><TEMPERATURE>280.15</TEMPERATURE>"))
        let d = try #require(dives.first)
        #expect(d.submergedTime == 600 && d.bottomTemperature == 7)
        #expect(d.startedAt?.description == "2010-01-02")
        #expect(findings.contains { $0.code == "jdivelog.units-by-magnitude" && $0.message.contains("read as si") })
        #expect(findings.contains { $0.code == "jdivelog.time-absent" })
        let (metric, f2, _) = try readJDiveLog(xml: jdive("<UNITS>metric</UNITS><Duration>42.5</Duration><TEMPERATURE>18</TEMPERATURE>"))
        #expect(metric.first?.submergedTime == 2550 && metric.first?.bottomTemperature == 18)
        #expect(f2.contains { $0.code == "jdivelog.start-absent" } && !f2.contains { $0.code == "jdivelog.units-by-magnitude" })
    }

    /// Depths before any `<DELTA>` have no time; a `<SWITCH>` to a gas the dive lacks, an
    /// unknown element and a repeated one are reported; the computer's mix beyond the tanks is
    /// a cylinder of its own.
    @Test func sampleAndGasHabits() throws {
        let (dives, findings, _) = try readJDiveLog(xml: jdive("""
            <UNITS>metric</UNITS><Depth>10</Depth><Depth>11</Depth><Mood>happy</Mood>
            <DIVE><GASES><MIX><MIXNAME>Air</MIXNAME><O2>0.21</O2><HE>0</HE></MIX><MIX><MIXNAME>EAN50</MIXNAME><O2>0.5</O2><N2>0.4</N2><HE>0</HE></MIX></GASES>
            <SAMPLES><D>1.0</D><DELTA>0.25</DELTA><D>2.0</D><D>3.0</D><SWITCH>EAN50</SWITCH><SWITCH>Trimix</SWITCH><ALARM>DECO</ALARM></SAMPLES></DIVE>
            """))
        let d = try #require(dives.first)
        #expect(d.maxDepth == 10)
        #expect(d.cylinders.map(\.oxygen) == [21, 50] && d.cylinders.map(\.gasNumber) == [0, 1])
        #expect(d.profile?.depth?.times == [0, 15_000])
        #expect(d.profile?.events == [Event(time: 30_000, type: .gasSwitch, gasNumber: 1), Event(time: 30_000, type: .ndlReached, label: "DECO")])
        let codes = findings.map(\.code)
        for code in ["jdivelog.sample-without-delta", "jdivelog.switch-unknown-gas", "jdivelog.not-carried", "jdivelog.element-repeated", "jdivelog.mix-inconsistent"] {
            #expect(codes.contains(code), "\(code)")
        }
    }

    /// Another root is refused with a sentence that names it.
    @Test func foreignRoot() throws {
        #expect(throws: DiveError.self) { try readJDiveLog(xml: "<dives><dive/></dives>") }
        do { _ = try readJDiveLog(xml: "<dives><dive/></dives>") } catch let e as DiveError {
            #expect(e.code == "jdivelog.not-jdivelog" && e.message.contains("<dives>"))
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
