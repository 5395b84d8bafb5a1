import Foundation
import Testing
import DiveCore
import DiveKit
@testable import DiveDivingLog
import TestSupport

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct DivelogsDLDCorpusTests {
    /// Subsurface's `TestDiveDivelogsDE.DLD`: a zip of one `1.xml` (ISO-8859-1), the 2011-05-17
    /// Sund Rock dive read by hand: `<DATE>17.05.2011</DATE><TIME>11:01:00</TIME>`,
    /// `<DIVETIMESEC>1920`, `<MAXDEPTH>24.7`, `<CYLINDERSIZE>11.66`, `<CYLINDERSTARTPRESSURE>164.99`,
    /// `<CYLINDERENDPRESSURE>69.02`, `<O2PCT>32.0`, 65 `<SAMPLE><DEPTH>` every `<SAMPLEINTERVAL>30`,
    /// from 0 to 1920 s, the deepest 24.69.
    @Test func dld() throws {
        let path = Paths.corpus + "/divinglog/divelogs-de__TestDiveDivelogsDE.DLD"
        guard case .format(let format) = Sniffer.sniff(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) else {
            Issue.record("not recognised"); return
        }
        #expect(format.rawValue == "zip")
        let (dives, findings) = try readAll(openReader(path: path, format: format))
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2011-05-17T11:01:00")
        #expect(d.submergedTime == 1920 && d.maxDepth == 24.7 && d.avgDepth == 11.7)
        #expect(d.cylinders.count == 1)
        let c = try #require(d.cylinders.first)
        #expect(c.volume == 11.66 && c.startPressure == 164.99 && c.endPressure == 69.02 && c.oxygen == 32 && c.helium == nil)
        #expect(d.profile?.sampleCount == 65 && d.profile?.duration == 1_920_000 && d.profile?.depth?.maxValue == 2469)
        #expect(d.notes?.hasPrefix("Second deep dive\nLinus and I") == true)
        #expect(d.weather == .clear && d.bottomTemperature == 10 && d.airTemperature == 14 && d.weight == 16)
        let notCarried = findings.filter { $0.code == "divelogs-dld.not-carried" }.compactMap { $0.location.path?.split(separator: "/").last.map(String.init) }
        #expect(notCarried.sorted() == ["CYLINDERDESCRIPTION", "GOOGLEMAPSZOOMLEVEL", "SURFACETIME", "WATERTEMPATEND", "WATERVIZIBILITY"])
    }
}

@Suite struct DivelogsDataRuleTests {
    /// A made document in ISO-8859-1 (`ü` one byte), with a sample's child no rule reads and no
    /// `SAMPLEINTERVAL`.
    @Test func madeDocument() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/1.xml"
        let xml = """
            <?xml version="1.0" encoding="iso-8859-1"?>
            <DIVELOGSDATA><DIVELOGSID>42</DIVELOGSID><DATE>03.02.2001</DATE><TIME>09:15:00</TIME>
            <SITE><![CDATA[Blaue Gr\u{FC}n]]></SITE><MAXDEPTH>8.5</MAXDEPTH>
            <SAMPLE><DEPTH>1.0</DEPTH><CNS>12</CNS></SAMPLE><SAMPLE><DEPTH>8.5</DEPTH></SAMPLE></DIVELOGSDATA>
            """
        try Data(xml.unicodeScalars.map { UInt8($0.value) }).write(to: URL(fileURLWithPath: path))
        let reader = try DivelogsDataReader(path: path)
        let (dives, findings) = try readAll(reader)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2001-02-03T09:15:00")
        #expect(d.provenance?.sourceID == "42")
        #expect(reader.header.sites.first?.name == "Blaue Grün")
        #expect(d.profile == nil)
        #expect(findings.contains { $0.code == "divelogs-dld.profile-without-interval" })
        #expect(findings.contains { $0.code == "divelogs-dld.not-carried" && $0.location.path == "dive/0/SAMPLE/CNS" }, "\(findings)")
    }
}
