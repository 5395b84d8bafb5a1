import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import DiveCore
@testable import DiveMacDive
import TestSupport

/// Reads every dive of `path` and the findings the reader reported.
func readMacDive(_ path: String, accounting: Bool = false) throws -> (dives: [Dive], findings: [Finding], reader: MacDiveReader) {
    let reader = try MacDiveReader(path: path)
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
func readMacDive(xml: String) throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
    let dir = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/log.xml"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    let (dives, findings, reader) = try readMacDive(path)
    return (dives, findings, reader.header)
}

/// A MacDive logbook around `dives` (each a `<dive>`'s children), in `units` (none when `nil`).
func macDiveXML(units: String? = "Metric", _ dives: String...) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE dives SYSTEM "http://www.mac-dive.com/macdive_logbook.dtd">
    <dives>
    \(units.map { "<units>\($0)</units>" } ?? "")
    <schema>2.2.0</schema>
    \(dives.map { "<dive>\($0)</dive>" }.joined(separator: "\n"))
    </dives>
    """
}

let macDiveCorpus = Paths.corpus + "/macdive"

/// Each corpus file's dive count and one dive, read off the file by hand. The one-liner
/// `python3 -c "import xml.etree.ElementTree as E,sys; r=E.parse(sys.argv[1]).getroot(); D=r.findall('dive'); d=D[0]; print(len(D), d.findtext('date'), d.findtext('maxDepth'), d.findtext('duration'), [(g.findtext('oxygen'),g.findtext('helium'),g.findtext('tankSize'),g.findtext('double')) for g in d.findall('gases/gas')], len(d.findall('samples/sample')), r.findtext('units'))" FILE`
/// prints the line quoted above each test.
@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct MacDiveCorpusTests {
    /// `10 2019-08-04 15:12:27 31.00 3230 [('34', '0', '18', '0')] 324 Metric`: ten dives, the
    /// first (number 163) on nitrox 34 in an 18 l tank, 210.01 → 62.74 bar, 324 samples 10 s apart.
    @Test func theTenDiveLogbook() throws {
        let (dives, findings, reader) = try readMacDive(macDiveCorpus + "/macdive__data.xml")
        #expect(dives.count == 10)
        let d = try #require(dives.first)
        #expect(d.number == 163)
        #expect(d.startedAt?.description == "2019-08-04T15:12:27")
        #expect(d.maxDepth == 31.0)
        #expect(d.submergedTime == 3230)
        #expect(d.cylinders.map(\.oxygen) == [34] && d.cylinders.map(\.helium) == [0] && d.cylinders.map(\.volume) == [18])
        #expect(d.cylinders.first?.startPressure == 210.01 && d.cylinders.first?.endPressure == 62.74)
        #expect(d.profile?.sampleCount == 324)
        // The dives' numbers run 163 down to 154, newest first, as the file lists them.
        #expect(dives.map(\.number) == Array((154...163).reversed()))
        // Ten dives on one computer, at sites some of which repeat: the header holds each once.
        #expect(Set(dives.flatMap(\.siteUUIDs)).count == reader.header.sites.count)
        #expect(reader.header.diver?.name == "Carlo Panzi")
        #expect(!findings.contains { $0.code == "macdive.not-carried" })
        #expect(findings.allSatisfy { $0.kind == .absent || $0.kind == .resolved })
    }

    /// `1 2020-01-11 14:33:47 30.70 3450 [('32', '0', '17', '0')] 346 Metric`: a twinset logged
    /// as one gas, tank `8.5 + 8.5` of 17 l with `<double>0</double>`; 346 samples whose
    /// pressure is 0.00 throughout (no transmitter), with ppO₂ and NDL.
    @Test func theTwinsetDive() throws {
        let (dives, findings, reader) = try readMacDive(macDiveCorpus + "/macdive__doubles.xml")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2020-01-11T14:33:47")
        #expect(d.maxDepth == 30.7 && d.avgDepth == 20.79)
        #expect(d.submergedTime == 3450)
        #expect(d.cylinders.count == 1)
        #expect(d.cylinders.map(\.oxygen) == [32] && d.cylinders.map(\.volume) == [17])
        #expect(d.cylinders.first?.startPressure == 220 && d.cylinders.first?.endPressure == 50)
        let tank = try #require(reader.header.gear.first { $0.uuid == d.cylinders.first?.gearUUID })
        #expect(tank.name == "8.5 + 8.5" && tank.type == .cylinder && tank.workingPressure == 200)
        #expect(findings.contains { $0.code == "macdive.twinset-by-name" && $0.kind == .resolved })
        #expect(d.profile?.sampleCount == 346)
        #expect(d.profile?.pressures.isEmpty == true)
        #expect(findings.contains { $0.code == "macdive.channel-all-zero" && $0.message.contains("<pressure>") })
        // NDL in minutes (99 at 10 s), ppO₂ in hundredths (0.43 bar at 10 s; 0.00 at 0 s is no reading).
        #expect(d.profile?.ndl?.values.dropFirst().first == 99 * 60)
        #expect(d.profile?.ppo2?.times.first == 10_000 && d.profile?.ppo2?.values.first == 43)
        #expect(d.recordings.first?.decoModel?.gfLow == 40 && d.recordings.first?.decoModel?.gfHigh == 85)
        #expect(d.recordings.first?.device?.serial == "A63C5D4A")
        #expect(d.gearUUIDs.count == 17)
        #expect(d.people.map(\.role) == [.buddy, .guide])
        #expect(d.tags == ["tech"])
        #expect(d.notes?.contains("“giusta”") == true)
        // 186 minutes since the last dive.
        #expect(umilogExtension(d.extensions, "surface_interval") == .number("11160"))
    }

    /// `2 1998-11-01 16:55:00 50.30 14 [('21', '0', '15', '0')] 1 Metric`: an Aladin Pro dive of
    /// one sample, and a second dive with empty <gases> and <samples> and the first's identifier.
    @Test func theDivesWithMissingProperties() throws {
        let (dives, findings, _) = try readMacDive(macDiveCorpus + "/macdive__MissingProps.xml")
        #expect(dives.count == 2)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "1998-11-01T16:55:00")
        #expect(d.maxDepth == 50.3 && d.submergedTime == 14)
        #expect(d.cylinders.map(\.oxygen) == [21] && d.cylinders.map(\.volume) == [15])
        // Pressures of 0.00: never set.
        #expect(d.cylinders.first?.startPressure == nil && d.cylinders.first?.endPressure == nil)
        #expect(d.profile?.sampleCount == 1)
        #expect(d.profile?.depth?.values == [5030])
        let second = dives[1]
        #expect(second.cylinders.isEmpty && second.profile == nil)
        #expect(second.uuid != d.uuid && second.provenance?.positionalIdentity == true)
        #expect(findings.contains { $0.code == "macdive.identifier-duplicate" && $0.location.path == "dive/1/identifier" })
        #expect(dives.map(\.weight) == [nil, nil])
    }

    /// `1 2019-07-02 20:11:44 0.00 2061 [] 0 Metric`: a dive logged by hand ("No Computer"), no
    /// depth, no gas, no sample, a surface interval of 249.0333333333333 minutes.
    @Test func theManualEntry() throws {
        let (dives, findings, _) = try readMacDive(macDiveCorpus + "/macdive__nightdive.xml")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2019-07-02T20:11:44")
        #expect(d.maxDepth == nil && d.submergedTime == 2061)
        #expect(d.cylinders.isEmpty && d.profile == nil && d.recordings.isEmpty)
        // The identifier is a UUID: reused as the dive's.
        #expect(d.uuid == "50239012-5986-4d36-a542-dc19ee67f478")
        #expect(findings.contains { $0.code == "macdive.no-computer" })
        #expect(d.weight == 8 && d.boatName == "Triton 1" && d.tags == ["notturna", "secondo tag"])
        #expect(umilogExtension(d.extensions, "surface_interval") == .number("14942"))
        #expect(umilogExtension(d.extensions, "types") == .array([.string("tipo"), .string("topo")]))
    }

    /// `1 2024-06-01 09:00:00 100 2400 [('32', None, '77.4', None)] 2 Imperial`: feet, °F, psi,
    /// pounds and cubic feet (a synthetic fixture).
    @Test func theImperialFixture() throws {
        let (dives, findings, _) = try readMacDive(macDiveCorpus + "/macdive-synthetic__imperial_small.xml")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2024-06-01T09:00:00")
        #expect(abs((d.maxDepth ?? 0) - 30.48) < 1e-9 && abs((d.avgDepth ?? 0) - 18.288) < 1e-9)
        #expect(d.submergedTime == 2400)
        #expect(abs((d.bottomTemperature ?? 0) - 21.1111) < 1e-3)
        #expect(abs((d.weight ?? 0) - 4.5359237) < 1e-9)
        let c = try #require(d.cylinders.first)
        #expect(c.oxygen == 32 && c.helium == nil)
        // 77.4 ft³ at 3000 psi (206.84 bar): 77.4 × 28.317 ÷ (206.84 ÷ 1.01325) = 10.74 l.
        #expect(abs((c.volume ?? 0) - 10.7365) < 1e-3)
        #expect(abs((c.startPressure ?? 0) - 206.843) < 1e-3 && abs((c.endPressure ?? 0) - 68.948) < 1e-3)
        #expect(d.profile?.sampleCount == 2)
        #expect(d.profile?.depth?.values == [0, 3048])
        #expect(d.profile?.pressures.first?.series.values == [2068, 1379])
        #expect(d.profile?.temperature?.values == [2667, 2222])
        #expect(findings.contains { $0.code == "macdive.tank-size-cubic-feet" })
    }

    /// Every element with text in the corpus files is carried or named by a finding of the
    /// reader's, checked against a walk that is not the reader.
    @Test(arguments: ["macdive__data.xml", "macdive__doubles.xml", "macdive__MissingProps.xml", "macdive__nightdive.xml",
                      "macdive-synthetic__imperial_small.xml"])
    func everyElementIsAccountedFor(name: String) throws {
        let file = macDiveCorpus + "/" + name
        let walk = LeafWalk()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: file)))
        parser.delegate = walk
        #expect(parser.parse())
        let (_, findings, reader) = try readMacDive(file, accounting: true)
        #expect(!walk.leaves.isEmpty)
        let lost = walk.leaves.filter { !reader.accounting.accounted.contains($0) }
        #expect(lost.isEmpty, "\(name): neither carried nor reported: \(lost.sorted())")
        #expect(!findings.contains { $0.code == "macdive.not-carried" })
    }
}

/// The member `name` of an `extensions.umilog` object.
func umilogExtension(_ e: ExtensionValue?, _ name: String) -> ExtensionValue? {
    guard case .object(let members)? = e, let u = members.first(where: { $0.name == "umilog" }),
          case .object(let inner) = u.value else { return nil }
    return inner.first { $0.name == name }?.value
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
    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if !String(decoding: block, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, !stack.isEmpty {
            stack[stack.count - 1].text = true
        }
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let e = stack.removeLast()
        if e.text && !stack.isEmpty { leaves.insert((stack.dropFirst().map(\.name) + [e.name]).joined(separator: "/")) }
    }
}
