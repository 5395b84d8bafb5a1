import Foundation
import Testing
import DiveCore
@testable import DiveSSRF
import TestSupport

/// The reviewer's findings on the reader, each with a hand-written input and values worked
/// out by hand.
@Suite struct SSRFReaderReviewTests {
    // MARK: 1. Gas switches by mix

    @Test func gasSwitchesMatchAirAndTheNearestMix() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2025-01-01' time='10:00:00' duration='30:00 min'>
              <cylinder size='12.0 l' o2='32.0%' />
              <cylinder size='12.0 l' />
              <cylinder size='7.0 l' o2='50.0%' />
              <cylinder size='12.0 l' o2='21.0%' he='35.0%' />
              <divecomputer model='Uemis Zurich'>
              <event time='1:00 min' type='11' value='21' name='gaschange' />
              <event time='2:00 min' type='11' value='50' name='gaschange' />
              <event time='3:00 min' type='11' value='33' name='gaschange' />
              <event time='4:00 min' type='25' value='2293781' name='gaschange' />
              <event time='5:00 min' type='11' value='40' name='gaschange' />
              <sample time='0:00 min' depth='0.0 m' />
              <sample time='6:00 min' depth='0.0 m' />
              </divecomputer>
            </dive>
            <dive number='2' date='2025-01-02' time='10:00:00' duration='30:00 min'>
              <cylinder size='12.0 l' o2='30.0%' />
              <cylinder size='12.0 l' o2='32.0%' />
              <divecomputer model='Uemis Zurich'>
              <event time='1:00 min' type='11' value='31' name='gaschange' />
              <sample time='0:00 min' depth='0.0 m' />
              </divecomputer>
            </dive>
            """))
        let p = try #require(book.dives[0].profile)
        // 21 %: cylinder 1 has no @o2, air (20.9 %), 0.1 point away. 50 %: cylinder 2 exactly.
        // 33 %: cylinder 0 (32 %) 1 point away. Type 25, 2293781 = 35 << 16 + 21: 21/35 is
        // cylinder 3 exactly. 40 %: nothing within 1 point.
        #expect(p.events.map(\.gasNumber) == [1, 2, 0, 3, nil])
        #expect(book.dives[0].cylinders[1].oxygen == nil)
        let byMix = findings.filter { $0.code == "ssrf.gaschange-by-mix" && $0.location.path == "dive/0/divecomputer/0" }
        #expect(byMix.count == 4 && byMix.allSatisfy { $0.kind == .resolved })
        #expect(byMix[0].message.contains("air") && byMix[2].message.contains("nearest"))
        // The raw libdivecomputer coding is kept, as on every other event.
        #expect(umilog(p.events[0].extensions, "type") == .number("11"))
        #expect(umilog(p.events[0].extensions, "value") == .number("21"))
        #expect(umilog(p.events[3].extensions, "value") == .number("2293781"))
        #expect(umilog(p.events[4].extensions, "oxygen") == .number("40"))
        // 31 % is 1 point from both 30 % and 32 %: no cylinder.
        #expect(book.dives[1].profile?.events.first?.gasNumber == nil)
        #expect(findings.contains { $0.code == "ssrf.gaschange-no-cylinder" && $0.location.path == "dive/1/divecomputer/0" })
    }

    @Test(.enabled(if: Paths.sharedAvailable)) func sampleDivesSwitchesToAirResolve() throws {
        let (_, findings) = try readCorpusSSRF("subsurface__SampleDivesV2.ssrf")
        // Uemis switches to 21 % (value='21') with the air cylinder stating no @o2.
        for line in [957, 1472, 1474, 1476] {
            #expect(findings.contains { $0.location.line == line && $0.code == "ssrf.gaschange-by-mix" && $0.kind == .resolved }, "line \(line)")
            #expect(!findings.contains { $0.location.line == line && $0.code == "ssrf.gaschange-no-cylinder" }, "line \(line)")
        }
    }

    // MARK: 2. Format 1

    @Test func formatOneCylinderIndexEventsAndWater() throws {
        let xml = """
            <dives>
            <program name='subsurface' version='1'></program>
            <dive number='1' date='2012-07-05' time='11:40:42' duration='30:00 min'>
              <cylinder size='12.0 l' o2='21.0%' start='200.0 bar' end='60.0 bar' />
              <cylinder size='5.5 l' o2='50.0%' start='200.0 bar' end='150.0 bar' />
              <depth max='20.0 m' mean='10.0 m' />
              <surface pressure='1.013 bar' />
              <water salinity='1030.0 kg/l' />
              <surfacetime>90:00 min</surfacetime>
              <event time='10:00 min' type='8' name='bookmark' />
              <sample time='0:00 min' depth='0.0 m' pressure='200.0 bar' />
              <sample time='10:00 min' depth='20.0 m' pressure='120.0 bar' />
              <sample time='20:00 min' depth='6.0 m' pressure='60.0 bar' cylinderindex='0' />
              <sample time='21:00 min' depth='6.0 m' pressure='198.0 bar' cylinderindex='1' />
              <sample time='30:00 min' depth='0.0 m' pressure='150.0 bar' cylinderindex='1' />
            </dive>
            </dives>
            """
        let (book, findings) = try readSSRF(xml)
        let dive = book.dives[0]
        let r = try #require(dive.recordings.first)
        let p = try #require(r.profile)
        // Cylinder 0: 200, 120, 60 bar at 0, 600, 1200 s; cylinder 1: 198, 150 at 1260, 1800 s.
        #expect(p.pressures.map(\.gasNumber) == [0, 1])
        #expect(p.pressures[0].series == Series(times: [0, 600_000, 1_200_000], values: [2000, 1200, 600]))
        #expect(p.pressures[1].series == Series(times: [1_260_000, 1_800_000], values: [1980, 1500]))
        #expect(dive.cylinders.count == 2)
        // The bookmark on the dive itself, and the switch to cylinder 1 where the index changes.
        #expect(p.events.map(\.time) == [600_000, 1_260_000])
        #expect(p.events.map(\.type) == [.bookmark, .gasSwitch])
        #expect(p.events[1].gasNumber == 1)
        #expect(findings.contains { $0.code == "ssrf.gaschange-inferred" && $0.kind == .inferred })
        // <surface>, <water> and <surfacetime> on the dive are its computer's.
        #expect(r.surfacePressure == 1.013)
        #expect(r.salinity == .salt)
        #expect(findings.contains { $0.code == "ssrf.salinity-kg-per-litre" && $0.kind == .resolved && $0.location.path == "dive/0" })
        #expect(umilog(r.extensions, "surface_interval") == .number("5400"))
        #expect(findings.count == 2, "\(findings)")
    }

    // MARK: 3. @po2 on open circuit, @o2pressure

    @Test func openCircuitPO2IsThePPO2() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2013-06-01' time='10:14:58'>
              <cylinder size='11.1 l' o2='30.0%' />
              <divecomputer model='Shearwater Petrel' deviceid='64cb6f5d'>
              <sample time='0:10 min' depth='7.5 m' po2='0.52 bar' />
              <sample time='0:20 min' depth='8.0 m' po2='0.54 bar' />
              </divecomputer>
            </dive>
            <dive number='2' date='2013-06-02' time='10:14:58'>
              <divecomputer model='Petrel' dctype='OC'>
              <sample time='0:10 min' depth='7.5 m' po2='0.52 bar' dc_supplied_ppo2='0.5 bar' />
              </divecomputer>
            </dive>
            """))
        let p = try #require(book.dives[0].profile)
        // 0.52 and 0.54 bar in hundredths.
        #expect(p.ppo2 == Series(times: [10_000, 20_000], values: [52, 54]))
        #expect(channel(p, "setpoint") == nil)
        #expect(findings.contains { $0.code == "ssrf.po2-open-circuit" && $0.kind == .resolved && $0.location.path == "dive/0/divecomputer/0" })
        // With the computer's own ppO₂ beside it, @po2 stays the setpoint.
        let q = try #require(book.dives[1].profile)
        #expect(q.ppo2 == Series(times: [10_000], values: [50]))
        #expect(channel(q, "setpoint")?.values == ["0.52"])
    }

    @Test func o2PressureIsTheOxygenCylinders() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2015-06-01' time='10:00:00'>
              <cylinder size='3.0 l' use='diluent' />
              <cylinder size='3.0 l' o2='100.0%' use='oxygen' />
              <divecomputer model='Poseidon MkVI' dctype='CCR'>
              <sample time='0:00 min' depth='0.0 m' pressure='200.0 bar' o2pressure='190.0 bar' />
              <sample time='1:00 min' depth='5.0 m' o2pressure='188.5 bar' />
              </divecomputer>
            </dive>
            <dive number='2' date='2015-06-02' time='10:00:00'>
              <cylinder size='3.0 l' />
              <divecomputer model='Poseidon MkVI'>
              <sample time='0:00 min' depth='0.0 m' o2pressure='190.0 bar' />
              </divecomputer>
            </dive>
            """))
        let p = try #require(book.dives[0].profile)
        #expect(p.pressures.map(\.gasNumber) == [0, 1])
        #expect(p.pressures[0].series == Series(times: [0], values: [2000]))
        #expect(p.pressures[1].series == Series(times: [0, 60_000], values: [1900, 1885]))
        #expect(book.dives[1].profile?.pressures.isEmpty == true)
        #expect(findings.contains { $0.code == "ssrf.o2pressure-no-oxygen-cylinder" && $0.location.path == "dive/1" })
    }

    @Test(.enabled(if: Paths.sharedAvailable)) func sampleDivesPetrelHasPPO2NotSetpoints() throws {
        let (book, _) = try readCorpusSSRF("subsurface__SampleDivesV2.ssrf")
        // The Petrel is the second computer of 11 dives (grep: 11 <divecomputer model='Shearwater
        // Petrel'>), open circuit on EAN30, `po2='0.52 bar'` at 7.468 m first.
        let petrel = book.dives.flatMap(\.recordings).filter { $0.device?.model == "Shearwater Petrel" }
        #expect(petrel.count == 11)
        for r in petrel {
            #expect(r.profile?.ppo2 != nil)
            #expect(channel(r.profile, "setpoint") == nil)
        }
        let first = try #require(petrel.first?.profile?.ppo2)
        #expect(first.times.first == 10_000 && first.values.first == 52)
    }

    // MARK: 4. The ceiling ends

    @Test func aStopDepthOfZeroInDecoEndsTheCeiling() throws {
        let (book, _) = try readSSRF(ssrf("""
            <dive number='1' date='2020-01-02' time='10:00:00'>
              <divecomputer model='OSTC'>
              <sample time='5:00 min' depth='30.0 m' in_deco='1' stopdepth='3.0 m' />
              <sample time='7:00 min' depth='10.0 m' stopdepth='0.0 m' />
              <sample time='8:00 min' depth='5.0 m' in_deco='0' />
              </divecomputer>
            </dive>
            """))
        let p = try #require(book.dives[0].profile)
        #expect(p.ceiling == Series(times: [300_000, 420_000], values: [300, 0]))
        #expect(channel(p, "deco_stop_depth") == nil)
    }

    // MARK: 5. The divemaster field is a list

    @Test func theDivemasterFieldIsAList() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2020-01-02' time='10:00:00'>
              <divemaster>Ann, Bob</divemaster>
              <buddy>Bob, Carl</buddy>
            </dive>
            """))
        #expect(book.header.people.map(\.name) == ["Bob", "Carl", "Ann"])
        // Bob is in both fields: one reference, the guide.
        #expect(book.dives[0].people.map(\.personUUID) == book.header.people.map(\.uuid))
        #expect(book.dives[0].people.map(\.role) == [.guide, .buddy, .guide])
        #expect(findings.isEmpty, "\(findings)")
    }

    // MARK: 6. A zero weight system

    @Test func aZeroWeightIsNoLead() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2020-01-02' time='10:00:00'>
              <weightsystem weight='0.0 kg' description='ankle weights' />
            </dive>
            <dive number='2' date='2020-01-03' time='10:00:00'>
              <weightsystem weight='4.0 kg' description='belt' />
              <weightsystem weight='0.0 kg' description='trim' />
            </dive>
            """))
        #expect(book.dives[0].weight == nil)
        #expect(umilog(book.dives[0].extensions, "weightsystems") == .array([.object([.init("description", .string("ankle weights"))])]))
        #expect(findings.contains { $0.code == "ssrf.weight-zero" && $0.kind == .absent && $0.location.path == "dive/0" })
        #expect(book.dives[1].weight == 4)
        #expect(umilog(book.dives[1].extensions, "weightsystems") == .array([
            .object([.init("weight", .number("4")), .init("description", .string("belt"))]),
            .object([.init("description", .string("trim"))]),
        ]))
        // One weight system with lead: nothing summed.
        #expect(!findings.contains { $0.code == "ssrf.weight-summed" })
    }

    // MARK: 7. Negative times

    @Test func unsignedClocksPastTwoToThe31AreNegative() {
        // 71582788 × 60 + 6 = 4 294 967 286 = 2³² − 10.
        guard case .value(-10) = SSRFValues.clock("71582788:06 min") else { Issue.record("−10 s"); return }
        guard case .value(-1) = SSRFValues.clock("71582788:15 min") else { Issue.record("−1 s"); return }
        // 35791394 × 60 + 8 = 2 147 483 648 = 2³¹: not past it.
        guard case .value(2_147_483_648) = SSRFValues.clock("35791394:08 min") else { Issue.record("2³¹"); return }
    }

    @Test func eventsAndSamplesBeforeTheStartAreReported() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2020-01-02' time='10:00:00'>
              <divecomputer model='Petrel'>
              <event time='71582788:06 min' type='8' name='bookmark' />
              <event time='20:00 min' type='8' name='bookmark' />
              <sample time='71582788:00 min' depth='1.0 m' />
              <sample time='0:10 min' depth='3.0 m' ndl='99:00 min' />
              <sample time='0:20 min' depth='3.0 m' ndl='71582788:15 min' />
              </divecomputer>
            </dive>
            """))
        let p = try #require(book.dives[0].profile)
        #expect(p.events.map(\.time) == [1_200_000])
        #expect(p.depth == Series(times: [10_000, 20_000], values: [300, 300]))
        #expect(p.ndl == Series(times: [10_000], values: [5940]))
        let before = findings.filter { $0.code == "ssrf.time-before-start" }
        #expect(before.count == 2 && before.allSatisfy { $0.kind == .dropped })
        // The NDL's −1 stays Subsurface's "no value" marker.
        #expect(findings.contains { $0.code == "ssrf.no-value-marker" && $0.kind == .absent })
    }

    // MARK: 8. Salinity

    @Test func onlyTheThreeSettingsAreNamed() throws {
        let (book, _) = try readSSRF(ssrf("""
            <dive number='1' date='2020-01-02' time='10:00:00' watersalinity='1025 g/l'>
              <divecomputer model='A'><water salinity='1025 g/l' /><sample time='0:00 min' depth='1.0 m' /></divecomputer>
            </dive>
            <dive number='2' date='2020-01-03' time='10:00:00' watersalinity='1020 g/l'>
              <divecomputer model='A'><water salinity='1020 g/l' /><sample time='0:00 min' depth='1.0 m' /></divecomputer>
            </dive>
            <dive number='3' date='2020-01-04' time='10:00:00' watersalinity='1030 g/l'>
              <divecomputer model='A'><water salinity='1030 g/l' /><sample time='0:00 min' depth='1.0 m' /></divecomputer>
            </dive>
            """))
        let d = book.dives
        #expect(d[0].recordings[0].salinity == nil)
        #expect(umilog(d[0].recordings[0].extensions, "salinity") == .number("1025"))
        #expect(d[0].waterType == nil && umilog(d[0].extensions, "water_salinity") == .number("1025"))
        #expect(d[1].recordings[0].salinity == .en13319 && umilog(d[1].recordings[0].extensions, "salinity") == nil)
        #expect(d[1].waterType == nil && umilog(d[1].extensions, "water_salinity") == .number("1020"))
        #expect(d[2].recordings[0].salinity == .salt && d[2].waterType == .salt)
        #expect(umilog(d[2].extensions, "water_salinity") == nil)
    }

    // MARK: 9. Silent drops

    @Test func everyGeoEntryIsCarried() throws {
        let (book, _) = try readSSRF(ssrf(sites: """
            <site uuid='1a2b3c4d' name='Reef'>
              <geo cat='2' origin='2' value='USA' />
              <geo cat='3' origin='2' value='Hawaii' />
              <geo cat='4' origin='2' value='Honolulu County' />
              <geo cat='5' origin='2' value='Honolulu' />
              <geo cat='6' origin='2' value='Waikiki' />
              <geo cat='2' origin='2' value='United States' />
              <geo cat='1' origin='2' value='Pacific' />
              <geo cat='99' origin='2' value='x' />
            </site>
            """, "<dive number='1' date='2020-01-02' time='10:00:00' divesiteid='1a2b3c4d' />"))
        let site = try #require(book.header.sites.first)
        #expect(site.location?.name == "Honolulu, Hawaii, USA")
        #expect(umilog(site.extensions, "ocean") == .string("Pacific"))
        func g(_ c: Int, _ v: String) -> ExtensionValue { .object([.init("cat", .number(String(c))), .init("value", .string(v))]) }
        #expect(umilog(site.extensions, "geo") == .array([g(4, "Honolulu County"), g(6, "Waikiki"), g(2, "United States"), g(99, "x")]))
    }

    @Test func aComputersStartIsTheDivesWhenItHasNone() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1'>
              <divecomputer model='A' date='2020-01-02' time='10:00:00'><sample time='0:00 min' depth='1.0 m' /></divecomputer>
            </dive>
            """))
        #expect(book.dives[0].startedAt?.description == "2020-01-02T10:00:00")
        #expect(book.dives[0].recordings[0].startedAt == nil)
        #expect(findings.contains { $0.code == "ssrf.start-from-computer" && $0.kind == .inferred })
        #expect(!findings.contains { $0.code == "ssrf.dive-without-date" })
    }
}
