import Foundation
import Testing
import DiveCore
@testable import DiveLibdcXML
import TestSupport

func readLibdc(_ path: String) throws -> (dives: [Dive], findings: [Finding]) {
    let reader = try LibdcXMLReader(path: path)
    var dives: [Dive] = []
    var findings: [Finding] = []
    while let d = try reader.next() {
        dives.append(d)
        findings += reader.takeFindings()
    }
    return (dives, findings + reader.takeFindings())
}

func readLibdc(xml: String) throws -> (dives: [Dive], findings: [Finding]) {
    let dir = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/dump.xml"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    return try readLibdc(path)
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct LibdcXMLCorpusTests {
    /// Read off the file with `python3 -c "import re; t=open(F).read(); D=t.split('<dive>')[1:]; d=D[0];
    /// print(len(D), *[re.search('<%s>(.*)</%s>'%(k,k), d).group(1) for k in ['datetime','divetime','maxdepth']],
    /// re.findall('<o2>(.*)</o2>', d), d.count('<sample>'), re.findall('<time>(.*)</time>', d)[-1])"`:
    /// `23 2012-06-24 16:32:56 47:00 35.56 ['21.0', '0.0', '0.0'] 795 52:56` — 23 sibling `<dive>`s
    /// with no root (CRLF), the first on air (its two 0 % gases the computer's unused slots), 795
    /// samples four seconds apart to 52:56, every depth of them at or below the surface.
    @Test func theTwentyThreeDiveDump() throws {
        let (dives, findings) = try readLibdc(Paths.corpus + "/other/libdivecomputer-universal__libdc-1.xml")
        #expect(dives.count == 23)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2012-06-24T16:32:56")
        #expect(d.submergedTime == 47 * 60)
        #expect(d.maxDepth == 35.56)
        #expect(d.cylinders.map(\.oxygen) == [21] && d.cylinders.first?.helium == 0)
        let p = try #require(d.profile)
        #expect(p.sampleCount == 795 && p.duration == (52 * 60 + 56) * 1000)
        #expect(p.depth?.values.prefix(3) == [0, 242, 314] && p.temperature?.values.prefix(3) == [2800, 2800, 2560])
        #expect(d.provenance?.sourceID == "10DCF32E")
        #expect(Set(dives.map(\.uuid)).count == 23)
        let codes = Set(findings.map(\.code))
        for code in ["libdc-xml.units-by-magnitude", "libdc-xml.offset-absent", "libdc-xml.gas-unused", "libdc-xml.not-carried"] {
            #expect(codes.contains(code), "\(code)")
        }
        // <vendor> and <bearing> are what the model has no place for, once a dive each.
        #expect(findings.filter { $0.code == "libdc-xml.not-carried" }.allSatisfy { $0.message.contains("<vendor") || $0.message.contains("<bearing>") })
    }
}

struct LibdcXMLHabitTests {
    /// dctool's `<device>` wrapper, an offset, tanks, gas switches, NDL, ppO₂, CNS, an event,
    /// salinity and air pressure, a heartbeat reported.
    @Test func dctoolSample() throws {
        let (dives, findings) = try readLibdc(Paths.samples + "/libdc-xml/dctool-device.xml")
        let d = try #require(dives.first)
        #expect(dives.count == 1)
        #expect(d.startedAt?.description == "2021-03-14T10:05:00+01:00")
        #expect(d.submergedTime == 90 && d.maxDepth == 21.4 && d.bottomTemperature == 14 && d.airTemperature == 18.5)
        #expect(d.cylinders.map(\.oxygen) == [32, 50] && d.cylinders.first?.volume == 12)
        #expect(d.cylinders.first?.startPressure == 210 && d.cylinders.first?.endPressure == 60)
        let r = try #require(d.recordings.first)
        #expect(r.mode == .openCircuit && r.salinity == .salt && r.surfacePressure == 1.013)
        let p = try #require(r.profile)
        #expect(p.depth?.values == [0, 2140, 600, 0])
        #expect(p.pressures.first?.series.values == [2100, 600])
        #expect(p.ndl?.values == [540] && p.ppo2?.values == [99] && p.cns?.values == [40])
        #expect(p.events.map(\.type) == [.gasSwitch, .gasSwitch, .ascentRate])
        #expect(p.events.map(\.gasNumber) == [0, 1, nil])
        #expect(findings.contains { $0.code == "libdc-xml.not-carried" && $0.message.contains("heartbeat") })
    }

    /// The sniff takes a bare dump and dctool's; a dive without a fingerprint is positional; a
    /// time that is no mm:ss drops its sample.
    @Test func habits() throws {
        let (dives, findings) = try readLibdc(xml: "<?xml version=\"1.0\"?>\n<dive><datetime>2020-01-01 09:00:00</datetime><divetime>10:00</divetime><sample><time>x</time><depth>3</depth></sample><sample><time>00:10</time><depth>3.5</depth></sample></dive><dive><divetime>5:00</divetime></dive>")
        #expect(dives.count == 2)
        #expect(dives[0].provenance?.positionalIdentity == true && dives[0].profile?.depth?.values == [350])
        let codes = findings.map(\.code)
        for code in ["libdc-xml.fingerprint-absent", "libdc-xml.sample-without-time", "libdc-xml.start-absent"] {
            #expect(codes.contains(code), "\(code)")
        }
    }
}
