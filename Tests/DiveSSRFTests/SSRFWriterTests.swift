import DiveCore
@testable import DiveSSRF
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Writes `dives` through ``SSRFWriter`` as `convert` does (spooled, then the head, the body
/// and the end) and returns the document and every finding.
func renderSSRF(_ dives: [Dive], header: LogbookHeader = LogbookHeader()) throws -> (text: String, findings: [Finding]) {
    let body = MemorySink()
    let writer = SSRFWriter(body: body, generator: Generator(name: "umilog", version: "test"))
    var findings: [Finding] = []
    for d in dives {
        try writer.write(d, header: header)
        findings += writer.takeFindings()
    }
    let target = MemorySink()
    try writer.finish(header: header, to: target) { consume in
        try body.bytes.withUnsafeBytes { try consume($0) }
    }
    findings += writer.takeFindings()
    return (target.text, findings)
}

/// True when Foundation's parser (not libxml2, which the writer's own module uses) reads
/// the text as well-formed XML.
func isWellFormed(_ text: String) -> Bool {
    XMLParser(data: Data(text.utf8)).parse()
}

func dive(_ n: Int, _ start: String, duration: Int? = nil) -> Dive {
    var d = Dive(uuid: "00000000-0000-4000-8000-00000000000\(n)", startedAt: DiveDateTime.parse(start)!.0)
    d.number = n
    d.submergedTime = duration
    d.provenance = Provenance(format: "divejson", file: "in.divejson", index: n - 1)
    return d
}

func codes(_ findings: [Finding]) -> [String] { findings.map(\.code) }

@Suite struct SSRFWriterUnitTests {
    // MARK: Units

    @Test func unitsAreSpelledAsSubsurfaceWritesThem() {
        #expect(SSRFText.scaled(145, -2) + " m" == "1.45 m")
        #expect(SSRFText.minutes(4010) == "66:50 min")
        #expect(SSRFText.minutes(10) == "0:10 min")
        #expect(SSRFText.minutes(0) == "0:00 min")
        #expect(SSRFText.minutes(-1) == nil)
        #expect(SSRFText.scaled(2440, -2) + " C" == "24.4 C")
        #expect(SSRFText.decimal(24.4)! + " C" == "24.4 C")
        #expect(SSRFText.scaled(2000, -1) + " bar" == "200.0 bar")
        #expect(SSRFText.decimal(32.0)! + "%" == "32.0%")
        #expect(SSRFText.decimal(12)! + " l" == "12.0 l")
        #expect(SSRFText.decimal(1.013)! + " bar" == "1.013 bar")
        #expect(SSRFText.scaled(-150, -2) == "-1.5")
        #expect(SSRFText.scaled(3, -2) == "0.03")
        #expect(SSRFText.plain(11) == "11")
        #expect(SSRFText.plain(11.5) == "11.5")
        #expect(SSRFText.second(ms: 1499) == 1)
        #expect(SSRFText.second(ms: 1500) == 2)
        #expect(SSRFText.degrees(-43.342295)! == ("-43.342295", false))
        #expect(SSRFText.degrees(7.13)! == ("7.130000", false))
        #expect(SSRFText.degrees(0.0000004)! == ("0.000000", true))
        #expect(SSRFText.degrees(-0.5)! == ("-0.500000", false))
        #expect(SSRFText.degrees(171.5459365)! == ("171.545937", true))
        #expect(SSRFText.hex8(0x1ab) == "000001ab")
    }

    /// Each event type is written under a name of its own, so that a reader can tell them apart.
    @Test func everyEventTypeHasItsOwnName() {
        let names = EventType.allCases.map { SSRF.eventSpelling($0).name }
        #expect(Set(names).count == names.count)
        #expect(SSRF.eventSpelling(.gasSwitch) == (25, "gaschange"))
    }

    /// A profile's channels in their model units come out in Subsurface's, one line per
    /// instant, each with every reading it has.
    @Test func samplesCarryEveryReadingAtItsSecond() throws {
        var d = dive(1, "2024-03-02T09:15:00", duration: 4010)
        var c = Cylinder()
        c.volume = 12; c.startPressure = 200; c.endPressure = 70; c.oxygen = 32; c.gasNumber = 0
        d.cylinders = [c]
        var p = Profile()
        p.duration = 20_000
        p.depth = Series(times: [0, 10_000, 20_000], values: [0, 145, 3000])
        p.temperature = Series(times: [0, 20_000], values: [2440, 2215])
        p.pressures = [PressureSeries(gasNumber: 0, series: Series(times: [10_000], values: [2000]))]
        p.ndl = Series(times: [20_000], values: [4010])
        p.cns = Series(times: [20_000], values: [115])
        p.ppo2 = Series(times: [10_000], values: [121])
        d.recordings = [Recording(profile: p)]
        let (text, findings) = try renderSSRF([d])
        #expect(text.contains("""
                  <divecomputer>
                    <sample time="0:00 min" depth="0.0 m" temp="24.4 C" />
                    <sample time="0:10 min" depth="1.45 m" pressure0="200.0 bar" dc_supplied_ppo2="1.21 bar" />
                    <sample time="0:20 min" depth="30.0 m" temp="22.15 C" ndl="66:50 min" cns="11.5%" />
                  </divecomputer>
            """))
        #expect(text.contains("""
                <dive number="1" date="2024-03-02" time="09:15:00" duration="66:50 min">
                  <cylinder size="12.0 l" o2="32.0%" start="200.0 bar" end="70.0 bar" />
            """))
        #expect(isWellFormed(text))
        #expect(codes(findings) == ["ssrf.dive-uuid-not-carried"])
    }

    /// The whole document for one site-bound dive, as computed by hand.
    @Test func aSiteWithAPositionIsWrittenByItsUUID() throws {
        var header = LogbookHeader()
        var site = Site(uuid: "5f0f0ac6-4bb5-4d9a-9e77-3f4a5c8e7c11", name: "Lake Coleridge")
        site.position = Position(latitude: -43.342295, longitude: 171.545936)
        site.notes = "Entry at the \"boat ramp\" & jetty."
        site.location = Location(name: "Canterbury, New Zealand")
        header.sites = [site]
        var d = dive(1, "2023-01-05T10:00:00", duration: 2400)
        d.siteUUIDs = [site.uuid]
        d.maxDepth = 18.2
        let (text, findings) = try renderSSRF([d], header: header)
        let writer = SSRFWriter(body: MemorySink(), generator: Generator(name: "x"))
        let id = SSRFText.hex8(writer.siteID(for: site.uuid))
        #expect(id.count == 8 && id.first != "0")
        #expect(text == """
            <divelog program="umilog" version="3">
              <settings />
              <divesites>
                <site uuid="\(id)" name="Lake Coleridge" gps="-43.342295 171.545936">
                  <notes>Entry at the "boat ramp" &amp; jetty.</notes>
                  <geo cat="5" origin="2" value="Canterbury, New Zealand" />
                </site>
              </divesites>
              <dives>
                <dive number="1" divesiteid="\(id)" date="2023-01-05" time="10:00:00" duration="40:00 min">
                  <divecomputer>
                    <depth max="18.2 m" />
                  </divecomputer>
                </dive>
              </dives>
            </divelog>

            """)
        #expect(isWellFormed(text))
        #expect(codes(findings) == ["ssrf.dive-uuid-not-carried"])
    }

    /// Site ids are stable for a uuid, never lead with `0`, and stay unique in a file.
    @Test func siteIDsAreStableAndUnique() {
        let a = SSRFWriter(body: MemorySink(), generator: Generator(name: "x"))
        let b = SSRFWriter(body: MemorySink(), generator: Generator(name: "x"))
        let uuids = (0..<2000).map { String(format: "%08x-0000-4000-8000-000000000000", $0) }
        let ids = uuids.map { a.siteID(for: $0) }
        #expect(Set(ids).count == uuids.count)
        #expect(ids.allSatisfy { $0 >= 0x1000_0000 })
        #expect(uuids.map { b.siteID(for: $0) } == ids)
        #expect(a.siteID(for: uuids[7]) == ids[7])
        // A uuid whose hash is taken gets the next free id.
        let c = SSRFWriter(body: MemorySink(), generator: Generator(name: "x"))
        c.usedSiteIDs.insert(ids[0])
        #expect(c.siteID(for: uuids[0]) == ids[0] &+ 1)
    }

    /// A site no dive names still goes in `<divesites>`, and one only a dive names (gone
    /// from the header by the end) too: Subsurface follows a `@divesiteid` unchecked.
    @Test func everySiteADiveNamesResolves() throws {
        var header = LogbookHeader()
        header.sites = [Site(uuid: "s-1", name: "One"), Site(uuid: "s-2", name: "Two")]
        let body = MemorySink()
        let writer = SSRFWriter(body: body, generator: Generator(name: "umilog"))
        var d = dive(1, "2023-01-05T10:00:00")
        d.siteUUIDs = ["s-2", "s-1"]
        var e = dive(2, "2023-01-05T12:00:00")
        e.siteUUIDs = ["missing"]
        try writer.write(d, header: header)
        try writer.write(e, header: header)
        let findings = writer.takeFindings()
        let target = MemorySink()
        var end = LogbookHeader()
        end.sites = [Site(uuid: "s-1", name: "One")]
        try writer.finish(header: end, to: target) { try body.bytes.withUnsafeBytes($0) }
        let text = target.text
        let two = SSRFText.hex8(writer.siteID(for: "s-2"))
        #expect(text.contains("<site uuid=\"\(two)\" name=\"Two\" />"))
        #expect(text.contains("name=\"One\" />"))
        #expect(text.contains("<dive number=\"1\" divesiteid=\"\(two)\""))
        #expect(text.contains("<dive number=\"2\" date="))
        #expect(codes(findings) == ["ssrf.extra-sites-not-carried", "ssrf.site-unresolved"])
        #expect(findings.map { $0.location.path } == ["dive/0", "dive/1"])
        #expect(findings[0].location.file == "in.divejson")
    }

    // MARK: Trips

    /// Consecutive dives of one trip share one `<trip>`; a trip whose dives are apart is
    /// written once per run and said so; a trip no dive is in is reported.
    @Test func consecutiveDivesOfATripShareOneTrip() throws {
        var header = LogbookHeader()
        var trip = Trip(uuid: "t-1", name: "Red Sea 2024")
        trip.notes = "Liveaboard"
        header.trips = [trip, Trip(uuid: "t-2", name: "Never")]
        var dives = [dive(1, "2024-03-02T09:15:00"), dive(2, "2024-03-02T14:05:00"), dive(3, "2024-03-04T10:30:00"), dive(4, "2024-03-05T10:30:00")]
        dives[0].tripUUID = "t-1"
        dives[1].tripUUID = "t-1"
        dives[3].tripUUID = "t-1"
        let (text, findings) = try renderSSRF(dives, header: header)
        #expect(text.contains("""
              <dives>
                <trip date="2024-03-02" time="09:15:00" location="Red Sea 2024">
                  <notes>Liveaboard</notes>
                  <dive number="1" date="2024-03-02" time="09:15:00">
                  </dive>
                  <dive number="2" date="2024-03-02" time="14:05:00">
                  </dive>
                </trip>
                <dive number="3" date="2024-03-04" time="10:30:00">
                </dive>
                <trip date="2024-03-05" time="10:30:00" location="Red Sea 2024">
                  <notes>Liveaboard</notes>
                  <dive number="4" date="2024-03-05" time="10:30:00">
                  </dive>
                </trip>
              </dives>
            """))
        #expect(isWellFormed(text))
        #expect(codes(findings).sorted() == ["ssrf.dive-uuid-not-carried", "ssrf.trip-not-carried", "ssrf.trip-split"])
        #expect(findings.first { $0.code == "ssrf.trip-split" }?.location.path == "trips/0")
        #expect(findings.first { $0.code == "ssrf.trip-not-carried" }?.location.path == "trips/1")
    }

    /// A trip read from Subsurface rides on its dives as `extensions.umilog.trip`, and is
    /// written back as the `<trip>` it was.
    @Test func aCarriedTripIsWrittenBack() throws {
        let trip = ExtensionValue.object([
            .init("location", .string("Hoodsport, WA, USA")), .init("date", .string("2010-12-04")),
            .init("time", .string("10:38:00")), .init("notes", .string("Cold")),
        ])
        var dives = [dive(1, "2010-12-04T10:38:00"), dive(2, "2010-12-04T13:00:00")]
        dives[0].extensions = .object([.init("umilog", .object([.init("trip", trip)]))])
        dives[1].extensions = .object([.init("umilog", .object([.init("trip", trip), .init("other", .bool(true))]))])
        let (text, findings) = try renderSSRF(dives)
        #expect(text.contains("""
                <trip date="2010-12-04" time="10:38:00" location="Hoodsport, WA, USA">
                  <notes>Cold</notes>
                  <dive number="1" date="2010-12-04" time="10:38:00">
                  </dive>
                  <dive number="2" date="2010-12-04" time="13:00:00">
                  </dive>
                </trip>
            """))
        // Only what is left of the extensions beside the trip is reported.
        #expect(findings.filter { $0.code == "ssrf.dive-member-not-carried" }.map { $0.location.path } == ["dive/1"])
    }

    // MARK: Computers

    /// Two recordings are two `<divecomputer>`s: the first with the dive's figures, the
    /// second with its own start; serial and firmware as `<extradata>`.
    @Test func twoRecordingsAreTwoDiveComputers() throws {
        var d = dive(1, "2024-03-02T09:15:00+02:00", duration: 2680)
        d.maxDepth = 28.3; d.avgDepth = 16.8; d.bottomTemperature = 24; d.airTemperature = 23
        var first = Device()
        first.brand = "Shearwater"; first.model = "Teric"; first.serial = "c2f7d8f4"; first.firmware = "23"
        var a = Recording(device: first)
        a.salinity = .salt; a.surfacePressure = 1.013; a.mode = .openCircuit; a.cnsEnd = 11; a.otuEnd = 31
        var second = Device()
        second.model = "Perdix"
        var b = Recording(device: second)
        b.startedAt = DiveDateTime.parse("2024-03-02T09:15:32+02:00")!.0
        b.mode = .closedCircuit
        b.cnsEnd = 12
        var p = Profile()
        p.depth = Series(times: [0, 1000], values: [0, 120])
        b.profile = p
        d.recordings = [a, b]
        let (text, findings) = try renderSSRF([d])
        #expect(text.contains("""
                <dive number="1" otu="31" cns="11%" date="2024-03-02" time="09:15:00" duration="44:40 min">
                  <divecomputer model="Shearwater Teric" dctype="OC">
                    <depth max="28.3 m" mean="16.8 m" />
                    <temperature air="23.0 C" water="24.0 C" />
                    <surface pressure="1.013 bar" />
                    <water salinity="1030 g/l" />
                    <extradata key="Serial" value="c2f7d8f4" />
                    <extradata key="FW Version" value="23" />
                  </divecomputer>
                  <divecomputer model="Perdix" date="2024-03-02" time="09:15:32" dctype="CCR">
                    <sample time="0:00 min" depth="0.0 m" />
                    <sample time="0:01 min" depth="1.2 m" />
                  </divecomputer>
                </dive>
            """))
        #expect(isWellFormed(text))
        #expect(codes(findings) == [
            "ssrf.utc-offset-dropped", "ssrf.device-brand-in-model", "ssrf.utc-offset-dropped",
            "ssrf.recording-member-not-carried", "ssrf.dive-uuid-not-carried",
        ])
        #expect(findings.map { $0.location.path ?? "" } == ["dive/0", "dive/0/recordings/0", "dive/0/recordings/1", "dive/0/recordings/1", "dives"])
        #expect(findings[3].message == "cns_end (only the first computer's is written) of a recording has no Subsurface XML element")
    }

    /// A pressure channel is `pressureN`, N the cylinder's position (not its gas number);
    /// a gas switch names the position too, as Subsurface's own switches do.
    @Test func aPressureChannelAndEventsNameTheCylinderByPosition() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        var back = Cylinder(); back.oxygen = 21; back.gasNumber = 1; back.role = .bottom
        var deco = Cylinder(); deco.oxygen = 50; deco.helium = 0; deco.gasNumber = 2; deco.role = .deco
        d.cylinders = [back, deco]
        var p = Profile()
        p.pressures = [PressureSeries(gasNumber: 2, series: Series(times: [0, 5000], values: [2000, 1995])),
                       PressureSeries(gasNumber: 1, series: Series(times: [5000], values: [1800]))]
        p.events = [Event(time: 61_000, type: .bookmark),
                    Event(time: 60_000, type: .gasSwitch, gasNumber: 2),
                    Event(time: 62_000, label: "Tank Pressure Info"),
                    Event(time: 63_000, type: .ppo2High),
                    Event(time: 64_000, type: .gasSwitch, gasNumber: 7)]
        d.recordings = [Recording(profile: p)]
        let (text, findings) = try renderSSRF([d])
        #expect(text.contains("""
                  <cylinder o2="21.0%" use="OC-gas" />
                  <cylinder o2="50.0%" he="0.0%" use="OC-gas" />
                  <divecomputer>
                    <event time="1:00 min" type="25" flags="2" name="gaschange" cylinder="1" o2="50.0%" he="0.0%" />
                    <event time="1:01 min" type="8" name="bookmark" />
                    <event time="1:02 min" name="Tank Pressure Info" />
                    <event time="1:03 min" name="ppO2 high" />
                    <sample time="0:00 min" pressure1="200.0 bar" />
                    <sample time="0:05 min" pressure0="180.0 bar" pressure1="199.5 bar" />
                  </divecomputer>
            """))
        #expect(codes(findings) == [
            "ssrf.cylinder-member-not-carried", "ssrf.cylinder-role-narrowed", "ssrf.cylinder-member-not-carried",
            "ssrf.gas-switch-unresolved", "ssrf.dive-uuid-not-carried",
        ])
        #expect(findings[0].message == "gas_number 1 (Subsurface numbers cylinders by position, this one 0) of a cylinder has no Subsurface XML element")
        #expect(findings[3].location.path == "dive/0/recordings/0/profile/events/4")
    }

    /// Sub-second times land on their second; a second reading of one channel there is
    /// reported, never silently overwritten.
    @Test func subSecondTimesAreRoundedAndCollisionsReported() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        var p = Profile()
        p.depth = Series(times: [0, 400, 1600, 2000], values: [0, 10, 20, 30])
        p.temperature = Series(times: [1400], values: [2000])
        d.recordings = [Recording(profile: p)]
        let (text, findings) = try renderSSRF([d])
        #expect(text.contains("""
                    <sample time="0:00 min" depth="0.0 m" />
                    <sample time="0:01 min" temp="20.0 C" />
                    <sample time="0:02 min" depth="0.2 m" />
            """))
        #expect(codes(findings) == ["ssrf.sample-time-rounded", "ssrf.sample-collision", "ssrf.dive-uuid-not-carried"])
        #expect(findings[1].message.hasPrefix("2 reading(s)"))
    }

    /// A profile the model checks would refuse (readings before the start, times out of
    /// order, a channel whose values run short) is still written as well-formed XML, and
    /// what cannot be spelled is reported.
    @Test func aMalformedProfileIsWrittenWithoutTrapping() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        var p = Profile()
        p.depth = Series(times: [-2000, 0, 5000, 3000], values: [10, 20, 30, 40])
        p.temperature = Series(times: [0, 1000, 2000], values: [2000])
        p.ndl = Series(times: [1000], values: [-60])
        p.events = [Event(time: -1000, type: .bookmark), Event(time: 1000)]
        d.recordings = [Recording(profile: p)]
        let (text, findings) = try renderSSRF([d])
        #expect(isWellFormed(text))
        #expect(text.contains("""
                    <sample time="0:00 min" depth="0.2 m" temp="20.0 C" />
                    <sample time="0:05 min" depth="0.3 m" />
                    <sample time="0:03 min" depth="0.4 m" />
            """))
        #expect(Set(codes(findings)).isSuperset(of: ["ssrf.event-before-start", "ssrf.event-unnamed", "ssrf.sample-before-start", "ssrf.sample-negative-time"]))
    }

    // MARK: People, dropped members

    @Test func buddiesAndTheDivemasterAreNames() throws {
        var header = LogbookHeader()
        header.people = [Person(uuid: "p1", name: "Leila Haddad"), Person(uuid: "p2", name: "Mikko Virtanen"),
                         Person(uuid: "p3", name: "Ahmed"), Person(uuid: "p4", name: "Nobody")]
        var d = dive(1, "2024-03-02T09:15:00")
        d.people = [PersonReference(personUUID: "p1", role: .buddy), PersonReference(personUUID: "p3", role: .guide),
                    PersonReference(personUUID: "p2", role: .student)]
        let (text, findings) = try renderSSRF([d], header: header)
        #expect(text.contains("""
                  <divemaster>Ahmed</divemaster>
                  <buddy>Leila Haddad, Mikko Virtanen</buddy>
            """))
        #expect(codes(findings) == ["ssrf.person-role-not-carried", "ssrf.dive-uuid-not-carried", "ssrf.person-not-carried"])
        #expect(findings.last?.location.path == "people/3")
    }

    /// Everything a dive holds that Subsurface XML has no element for is one finding, and the
    /// offset of a start is another; the wall clock is written.
    @Test func uncarriedMembersAreDropped() throws {
        var d = dive(1, "2024-03-02T09:15:00.5-05:00", duration: 60)
        d.visibility = 15; d.waterType = .salt; d.current = .light; d.weight = 0; d.rating = 4
        d.tags = ["wreck", "deep, dark", "night"]
        d.notes = "A & B <c>\u{1}"
        var r = Recording()
        var dev = Device(); dev.name = "My computer"; dev.serial = "123"
        r.device = dev
        r.mode = .gauge
        var p = Profile()
        p.duration = 90_000
        p.depth = Series(times: [0, 60_000], values: [0, 100])
        p.ceiling = Series(times: [0], values: [300])
        r.profile = p
        d.recordings = [r]
        let (text, findings) = try renderSSRF([d])
        #expect(text.contains("""
                <dive number="1" rating="4" tags="wreck, night" watersalinity="1030 g/l" date="2024-03-02" time="09:15:00" duration="1:00 min">
                  <notes>A &amp; B &lt;c&gt;</notes>
                  <weightsystem weight="0.0 kg" />
                  <divecomputer>
                    <extradata key="Serial" value="123" />
                    <sample time="0:00 min" depth="0.0 m" in_deco="1" stopdepth="3.0 m" />
                    <sample time="1:00 min" depth="1.0 m" in_deco="0" stopdepth="0.0 m" />
            """))
        #expect(isWellFormed(text))
        let byCode = Dictionary(grouping: findings, by: \.code)
        #expect(byCode["ssrf.tag-comma"]?.count == 1)
        #expect(byCode["ssrf.utc-offset-dropped"]?.first?.message.contains("-05:00") == true)
        #expect(byCode["ssrf.time-fraction-dropped"]?.count == 1)
        #expect(byCode["ssrf.character-not-xml"]?.count == 1)
        #expect(byCode["ssrf.profile-duration-not-carried"]?.count == 1)
        #expect(byCode["ssrf.dive-member-not-carried"]?.first?.message
                == "visibility (Subsurface's is a star rating), current (Subsurface's is a star rating) have no Subsurface XML element")
        #expect(byCode["ssrf.recording-member-not-carried"]?.first?.message
                == "device.name, mode gauge of a recording have no Subsurface XML element")
        #expect(findings.allSatisfy { $0.kind == .dropped || $0.kind == .resolved })
    }

    /// A date-only start is a date with no time; a dive with no start is not written.
    @Test func aDateOnlyStartHasNoTime() throws {
        let dated = dive(1, "2002-06-18")
        var nameless = Dive(uuid: "x", startedAt: nil)
        nameless.number = 2
        let (text, findings) = try renderSSRF([dated, nameless])
        #expect(text.contains("<dive number=\"1\" date=\"2002-06-18\">"))
        #expect(!text.contains("number=\"2\""))
        #expect(codes(findings) == ["ssrf.dive-without-start", "ssrf.dive-uuid-not-carried"])
        #expect(findings[1].message.contains("the uuids of the 1 dive(s)"))
    }

    /// Header records Subsurface XML has no place for are one finding per collection.
    @Test func headerRecordsWithoutAPlaceAreReported() throws {
        var header = LogbookHeader()
        header.diver = Diver(name: "Sofia")
        header.gear = [GearItem(uuid: "g", name: "Fins")]
        header.species = [Species(uuid: "s")]
        let (text, findings) = try renderSSRF([], header: header)
        #expect(text == """
            <divelog program="umilog" version="3">
              <settings />
              <divesites />
              <dives>
              </dives>
            </divelog>

            """)
        #expect(codes(findings) == ["ssrf.diver-not-carried", "ssrf.species-not-carried", "ssrf.gear-not-carried"])
    }
}
