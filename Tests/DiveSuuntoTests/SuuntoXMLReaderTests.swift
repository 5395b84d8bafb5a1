import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import DiveCore
@testable import DiveSuunto
import TestSupport

/// Reads every dive of `path` and the findings the reader reported.
func readSuunto(_ path: String) throws -> (dives: [Dive], findings: [Finding]) {
    let reader = try SuuntoXMLReader(path: path)
    var dives: [Dive] = []
    while let d = try reader.next() { dives.append(d) }
    return (dives, reader.takeFindings())
}

/// Reads `xml` written to a temporary file.
func readSuunto(xml: String) throws -> (dives: [Dive], findings: [Finding]) {
    let dir = try Paths.temporaryDirectory()
    let path = dir + "/dive.xml"
    try xml.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    return try readSuunto(path)
}

let dal = #"<Dive xmlns="http://schemas.datacontract.org/2004/07/Suunto.Diving.Dal" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">"#

@Suite struct SuuntoXMLReaderTests {
    /// A habit of every sample is one finding with the count, located at the first sample.
    @Test func aBadValueInEverySampleIsOneFindingWithItsCount() throws {
        let samples = (0..<3).map { k in
            "<Dive.Sample><Depth>\(k + 1)</Depth><Pressure>19333333</Pressure><Time>\(k * 10)</Time></Dive.Sample>"
        }.joined()
        let xml = """
            <Dive xmlns="http://schemas.datacontract.org/2004/07/Suunto.Diving.Dal" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">
            <DiveSamples>\(samples)</DiveSamples><StartTime>2024-06-01T09:30:00</StartTime></Dive>
            """
        let (dives, findings) = try readSuunto(xml: xml)
        #expect(dives.first?.profile?.depth?.count == 3)
        let pressure = findings.filter { $0.code == "suunto-xml.pressure-out-of-range" }
        #expect(pressure.count == 1)
        #expect(pressure.first?.message.hasPrefix("3 <Pressure> readings outside 0 to 350 bar (the first 19333333.0 mbar") == true)
        #expect(pressure.first?.location.path == "Dive/DiveSamples/Dive.Sample/0/Pressure")
    }

    /// Samples/suunto-dm5.xml, made by scripts/make-sample-suunto-xml.py: its values are the
    /// script's (a dive to 24.6 m whose <Duration> is 2640 s, 30 s samples from 0 to 2520 s, 32 %
    /// then 50 %, the first on the transmitter that the samples' pressures come from).
    @Test func theSampleReadsAsItsScriptWroteIt() throws {
        let (dives, findings) = try readSuunto(Paths.samples + "/suunto-dm5.xml")
        let d = try #require(dives.first)
        #expect(dives.count == 1)
        #expect(d.startedAt?.description == "2024-06-01T09:30:00")
        #expect(d.maxDepth == 24.6)
        #expect(d.submergedTime == 2640)
        #expect(d.profile?.pressures.count == 1)
        #expect(d.cylinders.map(\.oxygen) == [32, 50])
        #expect(d.profile?.depth?.count == 85)
        #expect(!findings.contains { $0.kind == .dropped && $0.code.hasPrefix("suunto-xml.sample") })
    }

    /// The corpus's one DM4 export, read off the file by hand: `<StartTime>2013-06-02T13:18:12`,
    /// `<MaxDepth>16.39`, `<Duration>2240` (s), one `<DiveMixture>` of `<Oxygen>21`/`<Helium>0`
    /// whose pressures are the `0`/`0` absent-marker, and no `<Dive.Sample>` at all (the profile
    /// is only in `<ProfileBlob>`, which is not decoded), so no profile and no samples.
    @Test(.enabled(if: Paths.sharedAvailable)) func theCorpusDM4Export() throws {
        let (dives, findings) = try readSuunto(Paths.corpus + "/other/suunto-dm4__suunto_dm4.xml")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2013-06-02T13:18:12")
        #expect(d.maxDepth == 16.39)
        #expect(d.submergedTime == 2240)
        #expect(d.bottomTemperature == 16)
        #expect(d.cylinders.count == 1)
        #expect(d.cylinders.first?.oxygen == 21)
        #expect(d.cylinders.first?.helium == 0)
        #expect(d.cylinders.first?.startPressure == nil)
        #expect(d.recordings.first?.device?.model == "D4i")
        #expect(d.recordings.first?.mode == .openCircuit)
        #expect(d.recordings.first?.cnsEnd == 1)
        #expect((d.profile?.sampleCount ?? 0) == 0)
        // Its one gas change has no profile to sit on.
        #expect(findings.contains { $0.code == "suunto-xml.gas-changes-without-profile" })
        #expect(findings.contains { $0.code == "suunto-xml.weather-not-carried" })
    }

    @Test func unitsFollowTheMapping() throws {
        let (dives, _) = try readSuunto(xml: dal + """
          <DiveMixtures><DiveMixture><DiveGasChanges><DiveGasChange><GasChangeTime>0</GasChangeTime></DiveGasChange></DiveGasChanges>
            <EndPressure>144625</EndPressure><Helium>0</Helium><Oxygen>32</Oxygen><PO2>1.4</PO2><Size>12</Size>
            <StartPressure>211391</StartPressure><TransmitterId>1</TransmitterId></DiveMixture></DiveMixtures>
          <DiveSamples><Dive.Sample><Ceiling>3</Ceiling><Depth>1.27</Depth><Pressure>211390</Pressure><Temperature>29.8999882</Temperature><Time>1.5</Time></Dive.Sample></DiveSamples>
          <Mode>1</Mode><StartTime>2021-04-06T11:16:42.6</StartTime><SurfacePressure>104900</SurfacePressure></Dive>
        """)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2021-04-06T11:16:42.6")
        let c = try #require(d.cylinders.first)
        #expect(c.startPressure == 211.391 && c.endPressure == 144.625 && c.oxygen == 32 && c.ppo2Limit == 1.4 && c.volume == 12)
        let r = try #require(d.recordings.first)
        #expect(r.surfacePressure == 1.049)
        let p = try #require(r.profile)
        #expect(p.depth?.values == [127] && p.depth?.times == [1500])
        #expect(p.ceiling?.values == [300])
        #expect(p.temperature?.values == [2990])
        #expect(p.pressures.first?.series.values == [2114] && p.pressures.first?.gasNumber == 0)
        #expect(p.events.map(\.time) == [0])
    }

    @Test func nilIsAbsentEvenWithText() throws {
        let (dives, _) = try readSuunto(xml: dal + #"<MaxDepth i:nil="true">12</MaxDepth><StartTime>2021-04-06T11:16:42</StartTime></Dive>"#)
        #expect(dives.first?.maxDepth == nil)
    }

    @Test func anOffsetIsRefused() throws {
        let (dives, findings) = try readSuunto(xml: dal + "<StartTime>2021-04-06T11:16:42+02:00</StartTime></Dive>")
        #expect(dives.isEmpty)
        #expect(findings.contains { $0.code == "suunto-xml.start-with-offset" })
    }

    @Test func anotherRootIsNotRead() throws {
        #expect(throws: DiveError.self) { try readSuunto(xml: "<divelog/>") }
    }

    /// Every element with content in the five pairs and the corpus's DM4 export is carried or
    /// named by a `suunto-xml.not-carried` finding, checked against a walk that is not the reader.
    @Test(.enabled(if: Paths.sharedAvailable)) func everyElementIsAccountedFor() throws {
        let dir = Paths.fixtures + "/suunto_xml"
        let files = ["freedive", "nitrox-deco", "refusals", "suunto-d5", "unlabelled-pressure"].map { "\(dir)/\($0).xml" }
            + [Paths.corpus + "/other/suunto-dm4__suunto_dm4.xml"]
        for file in files {
            let walk = SuuntoContentWalk()
            let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: file)))
            parser.delegate = walk
            #expect(parser.parse())
            let reader = try SuuntoXMLReader(path: file)
            reader.recordsAccounting = true
            var findings: [Finding] = []
            while try reader.next() != nil { findings += reader.takeFindings() }
            findings += reader.takeFindings()
            let accounted = reader.accounting.accounted
            #expect(!walk.leaves.isEmpty)
            let lost = walk.leaves.filter { leaf in
                if accounted.contains(leaf) { return false }
                let parts = leaf.split(separator: "/").map(String.init)
                let parent = "Dive/" + parts.dropLast().joined(separator: "/")
                return !findings.contains { f in
                    guard f.code == "suunto-xml.not-carried", let p = f.location.path else { return false }
                    return p == "Dive/" + leaf || (p.hasSuffix("/") ? String(p.dropLast()) : p) == (parts.count == 1 ? "Dive" : parent)
                        && f.message.contains("<\(parts.last!)>")
                }
            }
            #expect(lost.isEmpty, "\(file): neither carried nor reported: \(lost.sorted())")
        }
    }
}

/// Leaf elements with text, by path from the root's child down (Foundation's parser).
final class SuuntoContentWalk: NSObject, XMLParserDelegate {
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
