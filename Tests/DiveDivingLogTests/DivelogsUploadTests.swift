import Foundation
import Testing
import DiveCore
import DiveKit
@testable import DiveDivingLog
import TestSupport

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct DivelogsUploadCorpusTests {
    /// Subsurface's `test40.divelogs` (its `xslt/divelogs-export.xslt` run on test40), read by hand:
    /// `<date>2014-04-01</date><time>10:00:00</time>`, `<dc_model>Heinrichs Weikamp OSTC 3`,
    /// `<duration>4674` (seconds), `<maxdepth>38.99`, `<meandepth>17.72`, `<depthtemp>4.3`, two
    /// tanks — `Oxy2` 2 l 190.0 → 130.0 bar, `<o2>100.0`, and `Dil2` 2 l 185.0 → 130.0 bar,
    /// `<o2>21` (the stylesheet's air), both `<wp>232.0` — and 2485 `<SAMPLE>` every
    /// `<samplerate>2`: 0 to 4968 s, the sixth (10 s) the first `<d>4.517</d><t>10.0</t>`, the
    /// deepest 38.974, 153 with a temperature, from 4.3 to 10.1.
    @Test func test40() throws {
        let path = Paths.corpus + "/divinglog/subsurface-divelogs-de-export__test40.divelogs"
        guard case .format(let format) = Sniffer.sniff(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) else {
            Issue.record("not recognised"); return
        }
        #expect(format.rawValue == "divelogs-de")
        let (dives, findings) = try readAll(openReader(path: path, format: format))
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2014-04-01T10:00:00")
        #expect(d.submergedTime == 4674 && d.maxDepth == 38.99 && d.avgDepth == 17.72 && d.bottomTemperature == 4.3)
        #expect(d.notes == "CCR dive")
        #expect(d.recordings.first?.device?.name == "Heinrichs Weikamp OSTC 3")
        #expect(d.cylinders.map(\.volume) == [2, 2] && d.cylinders.map(\.oxygen) == [100, 21] && d.cylinders.map(\.helium) == [nil, nil])
        #expect(d.cylinders.map(\.startPressure) == [190, 185] && d.cylinders.map(\.endPressure) == [130, 130])
        let p = try #require(d.profile)
        #expect(p.sampleCount == 2485 && p.duration == 4_968_000 && p.depth?.maxValue == 3897)
        #expect(p.temperature?.times.first == 10_000 && p.temperature?.values.first == 1000 && p.temperature?.times.count == 153)
        let codes = Set(findings.map(\.code))
        #expect(codes.isSuperset(of: ["divelogs-de.units-metric", "divelogs-de.samples-from-zero", "divelogs-de.o2-default"]))
        let notCarried = findings.filter { $0.code == "divelogs-de.not-carried" }.compactMap { $0.location.path?.split(separator: "/").last.map(String.init) }
        #expect(notCarried.sorted() == ["tank", "tankname", "wp"])
        #expect(!findings.contains { $0.code.hasSuffix(".not-read") || $0.code.contains("unread") }, "\(findings)")
    }
}

@Suite struct DivelogsUploadRuleTests {
    func read(_ xml: String) throws -> ([Dive], [Finding], DivelogsUploadReader) {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/a.divelogs"
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let reader = try DivelogsUploadReader(path: path)
        let (dives, findings) = try readAll(reader)
        return (dives, findings, reader)
    }

    /// A made upload: the bare and the `<d>`/`<t>` sample forms, a site with its locality and
    /// position, a buddy, weights, a trimix tank, and an element the stylesheet does not write.
    @Test func bothSampleFormsAndTheDivesFields() throws {
        let (dives, findings, reader) = try read("""
            <dive ignore-root="yes"><date>2020-07-05</date><time>14:30:00</time><duration>600</duration>
            <location><![CDATA[Malta / Gozo]]></location><divesite><![CDATA[Blue Hole]]></divesite>
            <visibility>4</visibility><buddy>Ann</buddy>
            <tanks type="array"><tank><tank>D12 232 bar</tank><tankname>D12 232 bar</tankname><dbltank>0</dbltank>
            <vol>12.0</vol><start_pressure>200.0</start_pressure><end_pressure>50.0</end_pressure><wp>198</wp>
            <o2>21.0</o2><he>35.0</he></tank></tanks>
            <weights>6.5</weights><notes>made</notes><lat>36.05</lat><lng>14.19</lng><maxdepth>20.1</maxdepth>
            <meandepth/><airtemp>25.0</airtemp><depthtemp>18.0</depthtemp><samplerate>10</samplerate>
            <sampledata type="array"><SAMPLE>0.0</SAMPLE><SAMPLE><d>10.5</d><t>19.5</t></SAMPLE><SAMPLE>20.1</SAMPLE>
            <SAMPLE><d>5.0</d><t>18.0</t><x>1</x></SAMPLE></sampledata><extra>9</extra></dive>
            """)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2020-07-05T14:30:00" && d.submergedTime == 600 && d.maxDepth == 20.1 && d.avgDepth == nil)
        #expect(d.airTemperature == 25 && d.bottomTemperature == 18 && d.weight == 6.5 && d.notes == "made")
        let site = try #require(reader.header.sites.first)
        #expect(site.name == "Blue Hole" && site.location?.name == "Malta / Gozo" && site.position?.latitude == 36.05 && site.position?.longitude == 14.19)
        #expect(reader.header.people.map(\.name) == ["Ann"])
        let c = try #require(d.cylinders.first)
        #expect(c.volume == 12 && c.startPressure == 200 && c.endPressure == 50 && c.oxygen == 21 && c.helium == 35)
        let p = try #require(d.profile)
        #expect(p.depth?.times == [0, 10_000, 20_000, 30_000] && p.depth?.values == [0, 1050, 2010, 500])
        #expect(p.temperature?.times == [10_000, 30_000] && p.temperature?.values == [1950, 1800])
        // 21.0 is the diver's mix, not the stylesheet's stand-in.
        #expect(!findings.contains { $0.code == "divelogs-de.o2-default" })
        let dropped = Set(findings.filter { $0.kind == .dropped }.compactMap(\.location.path))
        #expect(dropped.contains("dive/0/visibility") && dropped.contains("dive/0/extra"), "\(findings)")
        #expect(findings.contains { $0.kind == .dropped && $0.location.path?.hasSuffix("SAMPLE/x") == true }, "\(findings)")
        #expect(!findings.contains { $0.message.contains("ignore-root") || $0.message.contains("array") }, "\(findings)")
    }

    /// A dive entered by hand: its profile is the stylesheet's 60 s fill, not carried; the model
    /// is no computer. Without `samplerate`, samples have no place.
    @Test func aManualDivesProfileIsNotCarriedAndNoRateNoProfile() throws {
        let (manual, mf, _) = try read("""
            <dive ignore-root="yes"><date>2020-07-05</date><time>14:30:00</time><dc_model>manually added dive</dc_model>
            <samplerate>60</samplerate><sampledata type="array"><SAMPLE>0</SAMPLE><SAMPLE>10</SAMPLE></sampledata></dive>
            """)
        #expect(manual.first?.profile == nil && manual.first?.recordings.first?.device == nil)
        #expect(mf.contains { $0.code == "divelogs-de.profile-resampled" && $0.kind == .dropped })
        #expect(mf.contains { $0.code == "divelogs-de.manual-dive" })
        let (norate, nf, _) = try read("""
            <dive ignore-root="yes"><date>2020-07-05</date><sampledata type="array"><SAMPLE>1</SAMPLE></sampledata></dive>
            """)
        #expect(norate.first?.profile == nil)
        #expect(nf.contains { $0.code == "divelogs-de.profile-without-interval" })
    }

    @Test func anotherRootIsAnError() throws {
        #expect(throws: DiveError.self) { _ = try read("<divelog/>") }
    }
}
