import Foundation
import Testing
import DiveCore
@testable import DiveSSRF
import TestSupport

/// A format-3 logbook around `dives` (the children of `<dives>`), with `sites` in `<divesites>`.
func ssrf(sites: String = "", _ dives: String) -> String {
    """
    <divelog program='subsurface' version='3'>
    <settings>
    </settings>
    <divesites>
    \(sites)
    </divesites>
    <dives>
    \(dives)
    </dives>
    </divelog>
    """
}

func readSSRF(_ xml: String) throws -> (Logbook, [Finding]) {
    let (book, findings, _) = try readSSRFText(xml)
    return (book, findings)
}

/// The named `umilog` member of `extensions`.
func umilog(_ extensions: ExtensionValue?, _ name: String) -> ExtensionValue? {
    guard case .object(let entries)? = extensions, let u = entries.first(where: { $0.name == "umilog" }),
          case .object(let members) = u.value else { return nil }
    return members.first { $0.name == name }?.value
}

/// A profile's `umilog` channel by name (and ref).
func channel(_ p: Profile?, _ name: String, ref: String? = nil) -> (times: [Int], values: [String])? {
    guard case .array(let channels)? = umilog(p?.extensions, "channels") else { return nil }
    for case .object(let m) in channels {
        let get = { (n: String) in m.first { $0.name == n }?.value }
        guard case .string(name)? = get("name") else { continue }
        if let ref { guard case .string(ref)? = get("ref") else { continue } }
        guard case .array(let t)? = get("times"), case .array(let v)? = get("values") else { return nil }
        let times = t.compactMap { if case .number(let s) = $0 { return Int(s) } else { return nil } }
        let values = v.compactMap { if case .number(let s) = $0 { return s } else { return nil } }
        return (times, values)
    }
    return nil
}

@Suite struct SSRFValueTests {
    func clock(_ s: String) -> SSRFValue<Int> { SSRFValues.clock(s) }
    func measure(_ s: String, _ unit: StaticString) -> SSRFValue<DecimalNumber> { SSRFValues.measure(s, unit: unit) }

    @Test func clocksAreMinutesAndTwoDigitSeconds() {
        // 66 × 60 + 50 = 4010 s; 0 × 60 + 10 = 10 s, 10 000 ms on a profile's axis.
        guard case .value(4010) = clock("66:50 min") else { Issue.record("66:50 min"); return }
        guard case .value(10) = clock("0:10 min") else { Issue.record("0:10 min"); return }
        guard case .value(7410) = clock("123:30 min") else { Issue.record("123:30 min"); return }
        // A bare `66 min` is no clock (a factor-of-60 guess), nor are 60 seconds, nor one digit.
        if case .value = clock("66 min") { Issue.record("66 min read") }
        if case .value = clock("1:60 min") { Issue.record("1:60 min read") }
        if case .value = clock("1:5 min") { Issue.record("1:5 min read") }
        guard case .unit("s") = clock("1:05 s") else { Issue.record("1:05 s"); return }
    }

    @Test func measurementsStateTheirUnit() {
        guard case .value(let d) = measure("45.91 m", "m"), d == DecimalNumber(significand: 4591, exponent: -2) else { Issue.record("m"); return }
        #expect(d.scaledInteger(2) == 4591)
        guard case .value(let t) = measure("24.4 C", "C"), t.scaledInteger(2) == 2440 else { Issue.record("C"); return }
        guard case .value(let p) = measure("200.0 bar", "bar"), p.scaledInteger(1) == 2000 else { Issue.record("bar"); return }
        guard case .value(let o) = measure("32.0%", "%"), o == DecimalNumber(32) else { Issue.record("%"); return }
        guard case .value(let s) = measure("6.471 l/min", "l/min"), s == DecimalNumber(significand: 6471, exponent: -3) else { Issue.record("l/min"); return }
        guard case .value(let n) = measure("31", ""), n == DecimalNumber(31) else { Issue.record("bare"); return }
    }

    @Test func imperialSpellingsAreRefusedNotConverted() {
        guard case .unit("ft") = measure("150.6 ft", "m") else { Issue.record("ft"); return }
        guard case .unit("F") = measure("67.1 F", "C") else { Issue.record("F"); return }
        guard case .unit("psi") = measure("3000 psi", "bar") else { Issue.record("psi"); return }
        guard case .unit("") = measure("12.0", "l") else { Issue.record("no unit"); return }
        guard case .unit("%") = measure("11%", "") else { Issue.record("% on a count"); return }
        guard case .invalid = measure("deep m", "m") else { Issue.record("not a number"); return }
    }

    @Test func datesAndGPS() {
        #expect(SSRFValues.date("2014-4-1") == LocalDate(year: 2014, month: 4, day: 1))
        #expect(SSRFValues.date("2014-02-30") == nil)
        #expect(SSRFValues.timeOfDay("10:00")?.secondsMissing == true)
        #expect(SSRFValues.gps("-43.342295 171.545936").map { [$0.0, $0.1] } == [DecimalNumber(significand: -43342295, exponent: -6), DecimalNumber(significand: 171545936, exponent: -6)])
        #expect(SSRFValues.gps("28.509700,34.513900") == nil)
    }
}

@Suite struct SSRFReaderTests {
    @Test func aDiveAsTheMappingReadsIt() throws {
        let (book, findings) = try readSSRF(ssrf(sites: "<site uuid=' ff47210' name='Small Brother'>\n</site>", """
            <dive number='45' visibility='5' sac='6.471 l/min' otu='31' cns='11%' divesiteid=' ff47210' date='2026-04-17' time='11:49:23' duration='66:50 min'>
              <cylinder size='12.0 l' start='200.0 bar' end='80.0 bar' />
              <divecomputer model='Open Diving'>
              <depth max='45.91 m' mean='20.841 m' />
              <temperature water='22.4 C' />
              <sample time='0:00 min' depth='1.45 m' />
              <sample time='0:10 min' depth='1.83 m' temp='24.4 C' />
              </divecomputer>
            </dive>
            """))
        let dive = try #require(book.dives.first)
        // The positional stand-in: uuid5(namespace, "dive:#0").
        #expect(dive.uuid == "99ca578d-a074-52d2-9216-e98057a33dcb")
        #expect(dive.uuid == Identity.uuid5(namespace: SSRF.namespace, name: "dive:#0"))
        // The site id is stripped: uuid5(namespace, "site:ff47210").
        #expect(dive.siteUUIDs == ["7d933baf-e3e9-5ae1-91b7-c225045cd347"])
        #expect(dive.submergedTime == 4010)
        #expect(dive.maxDepth == 45.91 && dive.avgDepth == 20.841 && dive.bottomTemperature == 22.4)
        #expect(dive.cylinders.first?.volume == 12 && dive.cylinders.first?.gasNumber == nil)
        let r = try #require(dive.recordings.first)
        #expect(r.cnsEnd == 11 && r.otuEnd == 31)
        #expect(r.profile?.depth == Series(times: [0, 10_000], values: [145, 183]))
        #expect(r.profile?.temperature == Series(times: [10_000], values: [2440]))
        // Five stars of visibility are not five metres; the SAC rides along.
        #expect(dive.visibility == nil)
        #expect(umilog(dive.extensions, "visibility_rating") == .number("5"))
        #expect(umilog(dive.extensions, "sac") == .number("6.471"))
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test func refusedUnitsAreDroppedAndReported() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2026-05-01' time='09:15:00' duration='41:20 min'>
              <divecomputer>
              <depth max='150.6 ft' mean='0.0 m' />
              <sample time='0:00 min' depth='0.0 m' />
              <sample time='2:00 min' depth='9.0 m' temp='67.1 F' />
              <sample time='2:10 min' depth='9.0 m' temp='68.0 F' />
              </divecomputer>
            </dive>
            """))
        let dive = book.dives[0]
        #expect(dive.maxDepth == nil && dive.avgDepth == nil)
        #expect(dive.profile?.temperature == nil)
        #expect(dive.profile?.depth?.values == [0, 900, 900])
        let units = findings.filter { $0.code == "ssrf.unit-unknown" }
        #expect(units.count == 2)
        #expect(units.allSatisfy { $0.kind == .dropped && $0.location.path == "dive/0" })
        #expect(units.contains { $0.message.contains("'ft'") && $0.message.contains("150.6 ft") })
        #expect(units.contains { $0.message.contains("'F'") && $0.message.contains("(2 in this dive)") })
        #expect(findings.contains { $0.code == "ssrf.zero-average-depth" && $0.kind == .absent })
    }

    @Test func formatOne() throws {
        // Subsurface's first XML: <dives> at the root, the program in a child, the summary and
        // samples on the dive itself, its place as text, CRLF line ends.
        let xml = "<dives>\r\n<program name='subsurface' version='1'></program>\r\n"
            + "<dive number='1' date='2009-07-05' time='11:40:42' duration='51:08 min'>\r\n"
            + "  <location>Petrovac, Lastovo</location>\r\n"
            + "  <divemaster>Goran</divemaster>\r\n"
            + "  <buddy>Marko</buddy>\r\n"
            + "  <depth max='19.46 m' mean='9.818 m' />\r\n"
            + "  <temperature water='17.6 C' />\r\n"
            + "  <cylinder o2='21.0%' size='15.0 l' workpressure='200.0 bar' description='15L 200 bar' />\r\n"
            + "  <sample time='0:00 min' depth='0.0 m' temp='26.4 C' />\r\n"
            + "  <sample time='0:10 min' depth='-0.1 m' />\r\n"
            + "  <sample time='0:20 min' depth='1.2 m' temp='26.0 C' />\r\n"
            + "</dive>\r\n"
            + "<dive number='2' date='2009-07-06' time='09:00:00' duration='40:00 min'>\r\n"
            + "  <location>Petrovac, Lastovo</location>\r\n"
            + "</dive>\r\n</dives>\r\n"
        let (book, findings) = try readSSRF(xml)
        #expect(book.header.sourceVersion == "1")
        #expect(book.header.sourceGenerator?.name == "subsurface")
        #expect(book.dives.count == 2)
        let dive = book.dives[0]
        #expect(dive.startedAt?.description == "2009-07-05T11:40:42")
        #expect(dive.submergedTime == 3068)
        #expect(dive.maxDepth == 19.46 && dive.avgDepth == 9.818 && dive.bottomTemperature == 17.6)
        #expect(dive.cylinders.first?.oxygen == 21 && dive.cylinders.first?.volume == 15)
        #expect(umilog(dive.cylinders.first?.extensions, "working_pressure") == .number("200"))
        #expect(umilog(dive.cylinders.first?.extensions, "description") == .string("15L 200 bar"))
        #expect(dive.recordings.count == 1)
        #expect(dive.profile?.depth == Series(times: [0, 10_000, 20_000], values: [0, -10, 120]))
        #expect(dive.profile?.temperature == Series(times: [0, 20_000], values: [2640, 2600]))
        // One place, named twice: one site.
        #expect(book.header.sites.map(\.name) == ["Petrovac, Lastovo"])
        #expect(book.dives[1].siteUUIDs == dive.siteUUIDs && !dive.siteUUIDs.isEmpty)
        #expect(dive.people.map(\.role) == [.buddy, .guide])
        #expect(book.header.people.map(\.name) == ["Marko", "Goran"])
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test func aRootWithoutProgramIsFormatOneAndSaysSo() throws {
        let (book, findings) = try readSSRF("<dives><dive number='3' date='2010-01-02' time='08:00:00'></dive></dives>")
        #expect(book.dives.count == 1)
        #expect(book.header.sourceVersion == nil)
        #expect(findings.contains { $0.code == "ssrf.version-absent" })
    }

    @Test func formatTwoLocationIsASite() throws {
        let xml = """
            <divelog program='subsurface' version='2'>
            <dives>
            <dive number='1' date='2014-03-15' time='21:44:06' duration='52:20 min'>
              <location gps='7.132557 134.224213'>Blue Corner</location>
            </dive>
            <dive number='2' date='2014-03-16' time='21:44:06' duration='52:20 min'>
              <location gps='7.132557 134.224213'>Blue Corner</location>
            </dive>
            <dive number='3' date='2014-03-17' time='21:44:06' duration='52:20 min'>
              <location gps='7.2 134.3'>Blue Corner</location>
            </dive>
            <dive number='4' date='2014-03-18' time='21:44:06' duration='52:20 min'>
              <location gps='7.2 134.3'></location>
            </dive>
            </dives>
            </divelog>
            """
        let (book, findings) = try readSSRF(xml)
        #expect(book.header.sourceVersion == "2")
        // One site per name and position: the same name elsewhere is another place.
        #expect(book.header.sites.count == 2)
        let site = book.header.sites[0]
        #expect(site.name == "Blue Corner")
        #expect(site.position == Position(latitude: 7.132557, longitude: 134.224213))
        #expect(site.uuid == Identity.uuid5(namespace: SSRF.namespace, name: "location:Blue Corner\n7.132557 134.224213"))
        #expect(book.dives[0].siteUUIDs == [site.uuid] && book.dives[1].siteUUIDs == [site.uuid])
        #expect(book.dives[2].siteUUIDs == [book.header.sites[1].uuid])
        // A position with no name makes no site.
        #expect(book.dives[3].siteUUIDs.isEmpty)
        #expect(findings.contains { $0.code == "ssrf.location-nameless" && $0.location.path == "dive/3" })
    }

    @Test func pressuresPerSensorAndGasSwitches() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2025-01-01' time='10:00:00' duration='30:00 min'>
              <cylinder size='12.0 l' o2='32.0%' start='210.0 bar' end='60.0 bar' />
              <cylinder size='7.0 l' o2='50.0%' start='200.0 bar' end='150.0 bar' />
              <divecomputer model='Perdix'>
              <event time='0:00 min' type='25' value='32' name='gaschange' cylinder='0' o2='32.0%' />
              <event time='20:00 min' type='25' flags='2' name='gaschange' />
              <event time='25:00 min' type='11' value='50' name='gaschange' />
              <event time='26:00 min' type='11' value='80' name='gaschange' />
              <sample time='0:00 min' depth='0.0 m' pressure0='210.0 bar' pressure1='200.5 bar' />
              <sample time='0:10 min' depth='3.0 m' pressure0='208.5 bar' />
              <sample time='20:00 min' depth='6.0 m' pressure1='190.0 bar' />
              <sample time='30:00 min' depth='0.0 m' pressure0='60.0 bar' pressure1='150.0 bar' pressure2='99.0 bar' />
              </divecomputer>
            </dive>
            """))
        let dive = book.dives[0]
        let p = try #require(dive.profile)
        // Sensor N is cylinder N with no <tanksensormapping>; tenths of a bar.
        #expect(p.pressures.map(\.gasNumber) == [0, 1, 2])
        #expect(p.pressures[0].series == Series(times: [0, 10_000, 1_800_000], values: [2100, 2085, 600]))
        #expect(p.pressures[1].series == Series(times: [0, 1_200_000, 1_800_000], values: [2005, 1900, 1500]))
        // Sensor 2 names no cylinder: evidence of a tank, carried as a cylinder of its own.
        #expect(dive.cylinders.count == 3)
        #expect(dive.cylinders[2] == { var c = Cylinder(); c.gasNumber = 2; return c }())
        #expect(findings.contains { $0.code == "ssrf.pressure-undefined-cylinder" })
        // Cylinders numbered from 0 because a channel names them.
        #expect(dive.cylinders.map(\.gasNumber) == [0, 1, 2])
        // @cylinder; type 25's @flags (index + 1); the one cylinder holding 50 %; 80 % none.
        #expect(p.events.map(\.type) == [.gasSwitch, .gasSwitch, .gasSwitch, .gasSwitch])
        #expect(p.events.map(\.gasNumber) == [0, 1, 1, nil])
        #expect(p.events.map(\.time) == [0, 1_200_000, 1_500_000, 1_560_000])
        #expect(umilog(p.events[3].extensions, "oxygen") == .number("80"))
        #expect(findings.contains { $0.code == "ssrf.gaschange-by-mix" && $0.kind == .resolved })
        #expect(findings.contains { $0.code == "ssrf.gaschange-no-cylinder" && $0.kind == .dropped })
    }

    @Test func aBarePressureFollowsTheSensorAttribute() throws {
        // Format 2: `pressure` and a sticky `sensor`, the first cylinder until one is named.
        let (book, _) = try readSSRF(ssrf("""
            <dive number='1' date='2011-01-01' time='10:00:00'>
              <cylinder size='12.0 l' />
              <cylinder size='5.0 l' />
              <divecomputer model='Uemis Zurich'>
              <sample time='0:00 min' depth='0.0 m' pressure='200.0 bar' />
              <sample time='1:00 min' depth='5.0 m' pressure='150.0 bar' sensor='1' />
              <sample time='2:00 min' depth='5.0 m' pressure='149.0 bar' />
              <sample time='3:00 min' depth='5.0 m' pressure='190.0 bar' sensor='0' />
              </divecomputer>
            </dive>
            """))
        let p = try #require(book.dives[0].profile)
        #expect(p.pressures.map(\.gasNumber) == [0, 1])
        #expect(p.pressures[0].series == Series(times: [0, 180_000], values: [2000, 1900]))
        #expect(p.pressures[1].series == Series(times: [60_000, 120_000], values: [1500, 1490]))
    }

    @Test func rebreatherSamples() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2026-05-10' time='13:42:17' duration='10:00 min'>
              <cylinder size='3.0 l' o2='100.0%' use='oxygen' />
              <cylinder size='3.0 l' use='diluent' depth='68.053 m' />
              <divecomputer model='Shearwater Petrel 2' dctype='CCR' no_o2sensors='3'>
              <water salinity='1000 g/l' />
              <surface pressure='0.943 bar' />
              <extradata key='Serial' value='316ec40c' />
              <extradata key='FW Version' value='93' />
              <extradata key='Deco model' value='GF 45/75' />
              <extradata key='Logversion' value='14(PNF)' />
              <event time='2:00 min' type='20' value='1300' name='SP change' />
              <event time='3:00 min' flags='1' name='modechange' divemode='OC' />
              <event time='4:00 min' type='8' name='bookmark' />
              <event time='5:00 min' name='Speed Alarm' />
              <sample time='0:10 min' depth='1.4 m' temp='21.0 C' tts='1:00 min' sensor1='0.696 bar' sensor2='0.696 bar' sensor3='0.734 bar' dc_supplied_ppo2='0.7 bar' po2='0.7 bar' cns='1%' />
              <sample time='0:20 min' depth='2.2 m' ndl='99:00 min' sensor1='0.715 bar' />
              <sample time='5:00 min' depth='30.0 m' ndl='0:00 min' in_deco='1' stoptime='1:00 min' stopdepth='6.0 m' heartbeat='88' bearing='270' rbt='12:00 min' />
              <sample time='6:00 min' depth='20.0 m' stopdepth='3.0 m' />
              <sample time='9:00 min' depth='3.0 m' in_deco='0' stoptime='0:00 min' stopdepth='0.0 m' />
              </divecomputer>
            </dive>
            """))
        let dive = book.dives[0]
        #expect(dive.cylinders.map(\.role) == [.oxygen, .diluent])
        #expect(umilog(dive.cylinders[1].extensions, "max_operating_depth") == .number("68.053"))
        let r = try #require(dive.recordings.first)
        #expect(r.mode == .closedCircuit && r.salinity == .fresh && r.surfacePressure == 0.943)
        #expect(r.device?.model == "Shearwater Petrel 2" && r.device?.serial == "316ec40c" && r.device?.firmware == "93")
        #expect(r.decoModel?.algorithm == "buhlmann" && r.decoModel?.gfLow == 45 && r.decoModel?.gfHigh == 75)
        let p = try #require(r.profile)
        #expect(p.ppo2 == Series(times: [10_000], values: [70]))
        #expect(p.cns == Series(times: [10_000], values: [10]))
        #expect(p.tts == Series(times: [10_000], values: [60]))
        #expect(p.ndl == Series(times: [20_000, 300_000], values: [5940, 0]))
        // A stop depth while in deco is the ceiling; after it, the next stop's depth; leaving
        // deco at 9:00 (540 s) ends it with 0.
        #expect(p.ceiling == Series(times: [300_000, 360_000, 540_000], values: [600, 300, 0]))
        #expect(channel(p, "deco_stop_depth")?.values == ["0"])
        #expect(channel(p, "deco_stop_time")?.values == ["60", "0"])
        #expect(channel(p, "sensor_ppo2", ref: "1")?.times == [10_000, 20_000])
        #expect(channel(p, "sensor_ppo2", ref: "1")?.values == ["0.696", "0.715"])
        #expect(channel(p, "sensor_ppo2", ref: "3")?.values == ["0.734"])
        #expect(channel(p, "setpoint")?.values == ["0.7"])
        #expect(channel(p, "heart_rate")?.values == ["88"])
        #expect(channel(p, "heading")?.values == ["270"])
        #expect(channel(p, "remaining_bottom_time")?.values == ["720"])
        #expect(channel(p, "in_deco")?.values == ["1", "0"])
        // Events: the setpoint change and the mode change keep their names; a bookmark is typed.
        #expect(p.events.map(\.label) == ["SP change", "modechange", nil, "Speed Alarm"])
        #expect(p.events.map(\.type) == [nil, nil, .bookmark, nil])
        #expect(umilog(p.events[0].extensions, "setpoint") == .number("1.3"))
        #expect(umilog(p.events[1].extensions, "divemode") == .string("OC"))
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test func aTripIsCarriedOnItsDives() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <trip date='2026-07-07' time='08:00:00' location='Tenerife'>
            <notes>Great dive trip</notes>
            <dive number='42' date='2026-07-07' time='10:05:00' duration='61:00 min'>
            </dive>
            </trip>
            <dive number='44' date='2026-07-11' time='09:45:00' duration='58:00 min'>
            </dive>
            """))
        #expect(book.header.trips.isEmpty)
        #expect(findings.isEmpty, "\(findings)")
        #expect(book.dives[0].tripUUID == nil)
        #expect(umilog(book.dives[0].extensions, "trip") == .object([
            .init("date", .string("2026-07-07")), .init("time", .string("08:00:00")),
            .init("location", .string("Tenerife")), .init("notes", .string("Great dive trip")),
        ]))
        #expect(umilog(book.dives[1].extensions, "trip") == nil)
        // A trip with no dive has nothing to ride on, and says so.
        let (_, emptyTrip) = try readSSRF(ssrf("<trip date='2026-08-01' time='08:00:00' location='Nowhere'>\n</trip>"))
        #expect(emptyTrip.map(\.code) == ["ssrf.trip-without-dives"])
    }

    @Test func tagsRatingAndConditions() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' rating='4' visibility='3' current='2' tags='shore, teaching,Shore,, photo' watersalinity='1030 g/l' date='2014-4-1' time='10:00:00' duration='77:54 min'>
              <suit>dry, Whites Fusion</suit>
              <weightsystem weight='4.536 kg' description='backplate weight' />
              <weightsystem weight='0.907 kg' description='integrated' />
              <divetemperature air='13.333 C' />
              <divecomputer model='X'>
              <temperature air='12.0 C' water='10.0 C' />
              </divecomputer>
            </dive>
            <dive number='2' rating='7' date='2014-04-02' time='10:00:00' />
            """))
        let dive = book.dives[0]
        #expect(dive.startedAt?.description == "2014-04-01T10:00:00")
        #expect(dive.tags == ["shore", "teaching", "photo"])
        #expect(findings.contains { $0.code == "ssrf.tag-repeated" && $0.message.contains("\"Shore\"") })
        #expect(dive.rating == 4)
        #expect(umilog(dive.extensions, "visibility_rating") == .number("3"))
        #expect(umilog(dive.extensions, "current_rating") == .number("2"))
        #expect(dive.current == nil && dive.visibility == nil)
        #expect(dive.waterType == .salt)
        #expect(umilog(dive.extensions, "suit") == .string("dry, Whites Fusion"))
        // 4.536 + 0.907 kg of lead, summed exactly.
        #expect(dive.weight == 5.443)
        #expect(findings.contains { $0.code == "ssrf.weight-summed" && $0.kind == .inferred })
        // The dive's own air temperature (the diver's edit) over the computer's, which stays.
        #expect(dive.airTemperature == 13.333 && dive.bottomTemperature == 10)
        #expect(umilog(dive.recordings[0].extensions, "air_temperature") == .number("12"))
        #expect(book.dives[1].rating == nil)
        #expect(findings.contains { $0.code == "ssrf.rating-invalid" && $0.location.path == "dive/1" })
    }

    @Test func settingsAndFilterPresetsAreReportedNotCarried() throws {
        let xml = """
            <divelog program='subsurface' version='3'>
            <settings>
            <fingerprint model='6b6ca4de' serial='aebb9ac5' deviceid='6550c031' diveid='f021ea5b' data='695b7e3d'/>
            <divecomputerid model='Uemis Zurich' deviceid='e2d4' serial='123' nickname='Mine'/>
              <autogroup state='1' />
            </settings>
            <dives>
            <filterpresets>
             <filterpreset name='2023'>
              <constraint type='year' range_mode='greater'>2023,2026</constraint>
             </filterpreset>
            </filterpresets>
            </dives>
            </divelog>
            """
        let (_, findings, reader) = try readSSRFText(xml, accounting: true)
        #expect(findings.map(\.code) == ["ssrf.settings-not-carried", "ssrf.filterpresets-not-carried"])
        #expect(findings[0].message.contains("1 <fingerprint>, 1 <divecomputerid>, 1 <autogroup>"))
        #expect(reader.accounting.accounted.isSuperset(of: ["settings/fingerprint", "settings/divecomputerid", "dives/filterpresets/filterpreset/@name",
                                                            "dives/filterpresets/filterpreset/constraint"]))
    }

    @Test func moreSamplesThanTheLimitKeepTheFirst() throws {
        let samples = (0..<10).map { "<sample time='0:\(String(format: "%02d", $0)) min' depth='\($0).0 m' />" }.joined(separator: "\n")
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/limit.ssrf"
        try ssrf("<dive number='1' date='2020-01-01' time='10:00:00'><divecomputer>\(samples)</divecomputer></dive>")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try SSRFReader(path: path)
        reader.samplesPerDive = 4
        let (book, findings) = try reader.readAll()
        #expect(book.dives[0].profile?.depth?.values == [0, 100, 200, 300])
        #expect(findings.contains { $0.code == "ssrf.samples-over-limit" && $0.message.contains("6 samples past the first 4") })
    }

    @Test func outOfRangeReadingsAreDroppedNotCrashed() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='1' date='2020-01-01' time='10:00:00'>
              <divecomputer>
              <depth max='12000.0 m' />
              <sample time='0:00 min' depth='99999999999999999999 m' temp='500.0 C' pressure0='9000.0 bar' />
              <sample time='0:10 min' depth='5.0 m' />
              <sample time='99999999:00 min' depth='5.0 m' />
              </divecomputer>
            </dive>
            """))
        #expect(book.dives[0].maxDepth == nil)
        #expect(book.dives[0].profile?.depth == Series(times: [10_000], values: [500]))
        #expect(book.dives[0].profile?.temperature == nil && book.dives[0].profile?.pressures.isEmpty == true)
        #expect(findings.filter { $0.code == "ssrf.value-out-of-range" }.count >= 4)
    }

    @Test func aTruncatedFileIsAnError() throws {
        let full = ssrf("<dive number='1' date='2020-01-01' time='10:00:00'><divecomputer><sample time='0:00 min' depth='1.0 m' /></divecomputer></dive>")
        let cut = String(full.prefix(full.count - 40))
        #expect { try readSSRF(cut) } throws: { ($0 as? DiveError)?.code == "xml.truncated" }
    }

    @Test func aWrongRootIsNotSSRF() throws {
        #expect { try readSSRF("<uddf version='3.2.0'></uddf>") } throws: { ($0 as? DiveError)?.code == "ssrf.not-ssrf" }
        #expect { try readSSRF("<html><body/></html>") } throws: { ($0 as? DiveError)?.code == "ssrf.not-ssrf" }
    }

    @Test func aDiveWithoutADateIsKeptWithoutAStartAndReported() throws {
        let (book, findings) = try readSSRF(ssrf("<dive number='2' time='08:00:00'><notes>x</notes></dive>"))
        #expect(book.dives.count == 1 && book.dives[0].startedAt == nil)
        #expect(findings.contains { $0.code == "ssrf.dive-without-date" && $0.kind == .absent })
    }

    @Test func peopleAreNamesAcrossTheFile() throws {
        let (book, _) = try readSSRF(ssrf("""
            <dive number='101' date='2026-05-02' time='09:30:00'>
              <divemaster>Ahmed Fathy</divemaster>
              <buddy>Mona Salem, Karim</buddy>
            </dive>
            <dive number='102' date='2026-05-02' time='14:10:00'>
              <divemaster>Mona Salem</divemaster>
              <buddy>karim, Mona Salem</buddy>
            </dive>
            """))
        #expect(book.header.people.map(\.name) == ["Mona Salem", "Karim", "Ahmed Fathy"])
        #expect(book.header.people[0].uuid == Identity.uuid5(namespace: SSRF.namespace, name: "person:mona salem"))
        #expect(book.dives[0].people.map(\.role) == [.buddy, .buddy, .guide])
        #expect(book.dives[1].people.map(\.personUUID) == [book.header.people[1].uuid, book.header.people[0].uuid])
        #expect(book.dives[1].people.map(\.role) == [.buddy, .guide])
    }

    @Test func aPlannedDiveHasNoDevice() throws {
        let (book, findings) = try readSSRF(ssrf("""
            <dive number='500' date='2018-10-29' time='16:39:32'>
              <divecomputer model='planned dive' last-manual-time='25:00 min'>
              <sample time='0:00 min' depth='0.0 m' />
              <sample time='0:47 min' depth='20.0 m' />
              </divecomputer>
            </dive>
            """))
        let r = try #require(book.dives[0].recordings.first)
        #expect(r.device == nil)
        #expect(umilog(r.extensions, "logged_as") == .string("planned dive"))
        #expect(umilog(r.extensions, "last_manual_time") == .number("1500"))
        #expect(findings.contains { $0.code == "ssrf.planned-dive" })
    }

    @Test func picturesAreKeptAsReferences() throws {
        let (book, _) = try readSSRF(ssrf("""
            <dive number='1' date='2014-10-10' time='12:34:34'>
              <picture filename='/images/PA102003.jpg' offset='+16:40 min' gps='47.400200 -123.142299' />
              <picture filename='/images/before.jpg' offset='-1:05 min' />
            </dive>
            """))
        guard case .array(let pictures)? = umilog(book.dives[0].extensions, "pictures") else { Issue.record("no pictures"); return }
        #expect(pictures.count == 2)
        #expect(pictures[0] == .object([
            .init("filename", .string("/images/PA102003.jpg")), .init("offset", .number("1000")),
            .init("gps", .object([.init("latitude", .number("47.4002")), .init("longitude", .number("-123.142299"))])),
        ]))
        #expect(pictures[1] == .object([.init("filename", .string("/images/before.jpg")), .init("offset", .number("-65"))]))
    }
}
