import DiveCore
@testable import DiveSSRF
import Testing

/// `extensions.umilog` with these members.
func umilog(_ members: [(String, ExtensionValue)]) -> ExtensionValue {
    .object([.init("umilog", .object(members.map { ExtensionValue.Member($0.0, $0.1) }))])
}

func numbers(_ values: [String]) -> ExtensionValue { .array(values.map { .number($0) }) }

/// What the reader carries under umilog is written back in Subsurface's spelling, and what the
/// core model holds that Subsurface spells its own way (ceiling, deco model, guides, many
/// pressure sensors) is written as Subsurface writes it.
@Suite struct SSRFWriterCarriedTests {
    /// Item 1: a setpoint change is `value` in mbar, a mode change names its mode, flags and
    /// libdivecomputer numbers are kept; a core type without umilog keeps its spelling.
    @Test func eventsCarryTheirSubsurfaceFields() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        var p = Profile()
        var sp = Event(time: 10_000, label: "SP change")
        sp.extensions = umilog([("type", .number("20")), ("setpoint", .number("1.3"))])
        var mode = Event(time: 20_000, label: "modechange")
        mode.extensions = umilog([("divemode", .string("CCR"))])
        var mark = Event(time: 30_000, type: .bookmark)
        mark.extensions = umilog([("type", .number("8")), ("flags", .number("2")), ("value", .number("7"))])
        var violation = Event(time: 40_000, type: .safetyStopViolation)
        violation.label = "Safety Stop Violation"
        p.events = [sp, mode, mark, violation, Event(time: 50_000, type: .ascentRate)]
        d.recordings = [Recording(profile: p)]
        let (text, findings) = try renderSSRF([d])
        #expect(text.contains("""
                  <divecomputer>
                    <event time="0:10 min" type="20" value="1300" name="SP change" />
                    <event time="0:20 min" divemode="CCR" name="modechange" />
                    <event time="0:30 min" type="8" flags="2" value="7" name="bookmark" />
                    <event time="0:40 min" name="Safety Stop Violation" />
                    <event time="0:50 min" type="3" name="ascent" />
                  </divecomputer>
            """))
        #expect(codes(findings) == ["ssrf.dive-uuid-not-carried"])
    }

    /// Item 2: a switch to no cylinder of the dive is written with its mix, as Subsurface
    /// writes one: GASCHANGE (11) for nitrox, GASCHANGE2 (25) with helium in the high bits.
    @Test func aGasSwitchWithoutACylinderIsWrittenByItsMix() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        var p = Profile()
        var air = Event(time: 2000, type: .gasSwitch)
        air.extensions = umilog([("oxygen", .number("21")), ("helium", .number("0"))])
        var trimix = Event(time: 3000, type: .gasSwitch)
        trimix.extensions = umilog([("oxygen", .number("18")), ("helium", .number("45"))])
        p.events = [air, trimix, Event(time: 4000, type: .gasSwitch)]
        d.recordings = [Recording(profile: p)]
        let (text, findings) = try renderSSRF([d])
        // 18 + (45 << 16) = 18 + 2949120 = 2949138.
        #expect(text.contains("""
                    <event time="0:02 min" type="11" value="21" name="gaschange" o2="21.0%" he="0.0%" />
                    <event time="0:03 min" type="25" value="2949138" name="gaschange" o2="18.0%" he="45.0%" />
                  </divecomputer>
            """))
        #expect(codes(findings) == ["ssrf.gas-switch-unresolved", "ssrf.dive-uuid-not-carried"])
        #expect(findings[0].message == "the gas switch names no cylinder and records no mix: Subsurface has nothing to switch to, it is not written")
        #expect(findings[0].location.path == "dive/0/recordings/0/profile/events/2")
    }

    /// Item 3: the ceiling is `in_deco='1'` with its `stopdepth`, and deco ends where it
    /// returns to 0; the channels carried under umilog are their sample attributes.
    @Test func theCeilingAndCarriedChannelsAreSampleAttributes() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        var p = Profile()
        p.depth = Series(times: [0, 10_000, 20_000, 30_000], values: [0, 1800, 1200, 500])
        p.ceiling = Series(times: [10_000, 20_000], values: [300, 0])
        func channel(_ name: String, ref: String? = nil, unit: String?, _ times: [String], _ values: [String]) -> ExtensionValue {
            var m: [ExtensionValue.Member] = [.init("name", .string(name))]
            if let ref { m.append(.init("ref", .string(ref))) }
            if let unit { m.append(.init("unit", .string(unit))) }
            return .object(m + [.init("times", numbers(times)), .init("values", numbers(values))])
        }
        p.extensions = umilog([("channels", .array([
            channel("sensor_ppo2", ref: "2", unit: "bar", ["0"], ["0.98"]),
            channel("setpoint", unit: "bar", ["0"], ["1.3"]),
            channel("heart_rate", unit: "beats/min", ["10000"], ["92"]),
            channel("heading", unit: "degrees", ["10000"], ["270"]),
            channel("remaining_bottom_time", unit: "s", ["10000"], ["600"]),
            channel("deco_stop_time", unit: "s", ["20000"], ["60"]),
            channel("deco_stop_depth", unit: "m", ["30000"], ["3"]),
            channel("mystery", unit: "au", ["0"], ["1"]),
        ]))])
        d.recordings = [Recording(profile: p)]
        let (text, findings) = try renderSSRF([d])
        #expect(text.contains("""
                    <sample time="0:00 min" depth="0.0 m" sensor2="0.98 bar" po2="1.3 bar" />
                    <sample time="0:10 min" depth="18.0 m" heartbeat="92" bearing="270" rbt="10:00 min" in_deco="1" stopdepth="3.0 m" />
                    <sample time="0:20 min" depth="12.0 m" stoptime="1:00 min" in_deco="0" stopdepth="0.0 m" />
                    <sample time="0:30 min" depth="5.0 m" stopdepth="3.0 m" />
            """))
        #expect(codes(findings) == ["ssrf.recording-member-not-carried", "ssrf.dive-uuid-not-carried"])
        #expect(findings[0].message == "profile.extensions (umilog.channels) of a recording has no Subsurface XML element")
    }

    /// Item 4: a Bühlmann model with gradient factors is `GF low/high`; another by its name.
    @Test func theDecoModelIsExtradata() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        var gf = DecoModel(); gf.algorithm = "buhlmann"; gf.gfLow = 40; gf.gfHigh = 85
        var vpm = DecoModel(); vpm.name = "VPM-B +3"
        var a = Recording(); a.decoModel = gf
        var b = Recording(); b.decoModel = vpm
        d.recordings = [a, b]
        let (text, findings) = try renderSSRF([d])
        #expect(text.contains("""
                  <divecomputer>
                    <extradata key="Deco model" value="GF 40/85" />
                  </divecomputer>
                  <divecomputer>
                    <extradata key="Deco model" value="VPM-B +3" />
                  </divecomputer>
            """))
        #expect(codes(findings) == ["ssrf.dive-uuid-not-carried"])
    }

    /// Item 5: the dive's, cylinder's, computer's and site's carried members in their
    /// Subsurface spellings and order.
    @Test func carriedMembersAreWrittenBack() throws {
        var header = LogbookHeader()
        var site = Site(uuid: "s1", name: "Reef")
        site.extensions = umilog([("ocean", .string("Red Sea")), ("geo", .array([.object([.init("cat", .number("99")), .init("value", .string("x"))])]))])
        header.sites = [site]
        var d = dive(1, "2024-03-02T09:15:00")
        d.siteUUIDs = ["s1"]
        d.weight = 6.5
        d.airTemperature = 25; d.bottomTemperature = 21
        d.extensions = umilog([
            ("visibility_rating", .number("4")), ("current_rating", .number("2")), ("sac", .number("14.25")),
            ("tripflag", .string("NOTRIP")), ("invalid", .bool(true)), ("suit", .string("5mm")),
            ("water_salinity", .number("1025")), ("air_pressure", .number("1.013")),
            ("weightsystems", .array([.object([.init("weight", .number("4.5")), .init("description", .string("belt"))]),
                                      .object([.init("weight", .number("2")), .init("description", .string("pockets"))])])),
            ("pictures", .array([.object([.init("filename", .string("/p/a.jpg")), .init("offset", .number("-75")),
                                          .init("gps", .object([.init("latitude", .number("27.5")), .init("longitude", .number("-34.25"))]))])])),
        ])
        var c = Cylinder(); c.oxygen = 32; c.role = .bottom
        c.extensions = umilog([("working_pressure", .number("232")), ("description", .string("D12 232 bar")),
                               ("use", .string("not used")), ("max_operating_depth", .number("31.162"))])
        d.cylinders = [c]
        var r = Recording()
        r.extensions = umilog([
            ("logged_as", .string("manually added dive")), ("last_manual_time", .number("1500")),
            ("deviceid", .string("64257c95")), ("diveid", .string("832b8abe")), ("duration", .number("3000")),
            ("dctype", .string("Weird")), ("no_o2sensors", .number("3")), ("salinity", .number("1025")),
            ("surface_interval", .number("5400")), ("water_temperature", .number("20.5")),
            ("extradata", .array([.object([.init("key", .string("Logversion")), .init("value", .string("13"))])])),
        ])
        var later = Recording()
        var dev = Device(); dev.model = "Perdix"; dev.extensions = umilog([("deviceid", .string("0000abcd"))])
        later.device = dev
        later.extensions = umilog([("max_depth", .number("33")), ("avg_depth", .number("14.016")), ("water_temperature", .number("29.2"))])
        d.recordings = [r, later]
        let (text, findings) = try renderSSRF([d], header: header)
        #expect(text.contains("""
                  <geo cat="1" origin="2" value="Red Sea" />
                  <geo cat="99" origin="2" value="x" />
                </site>
            """))
        #expect(text.contains("""
            tripflag="NOTRIP" visibility="4" current="2" invalid="1" sac="14.25 l/min" divesiteid="
            """.dropLast()))
        #expect(text.contains("""
            watersalinity="1025 g/l" date="2024-03-02" time="09:15:00" airpressure="1.013 bar">
                  <suit>5mm</suit>
                  <cylinder workpressure="232.0 bar" description="D12 232 bar" o2="32.0%" use="not used" depth="31.162 m" />
                  <weightsystem weight="4.5 kg" description="belt" />
                  <weightsystem weight="2.0 kg" description="pockets" />
                  <divetemperature water="21.0 C" />
                  <divecomputer model="manually added dive" last-manual-time="25:00 min" deviceid="64257c95" diveid="832b8abe" duration="50:00 min" dctype="Weird" no_o2sensors="3">
                    <temperature air="25.0 C" water="20.5 C" />
                    <water salinity="1025 g/l" />
                    <surfacetime>90:00 min</surfacetime>
                    <extradata key="Logversion" value="13" />
                  </divecomputer>
                  <divecomputer model="Perdix" deviceid="0000abcd">
                    <depth max="33.0 m" mean="14.016 m" />
                    <temperature water="29.2 C" />
                  </divecomputer>
                  <picture filename="/p/a.jpg" offset="-1:15 min" gps="27.500000 -34.250000" />
                </dive>
            """))
        #expect(codes(findings) == ["ssrf.dive-uuid-not-carried"])
    }

    /// Item 6: pressures of cylinders past the fifth go on sensors numbered 0 to 4 in
    /// cylinder order, each mapped; a sixth sensor is dropped.
    @Test func pressuresPastTheFifthCylinderAreMappedSensors() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        d.cylinders = (0..<8).map { _ in Cylinder() }
        var p = Profile()
        p.pressures = [1, 2, 3, 4, 6, 7].map { PressureSeries(gasNumber: $0, series: Series(times: [0], values: [2000 + $0])) }
        d.recordings = [Recording(profile: p)]
        let (text, findings) = try renderSSRF([d])
        #expect(text.contains("""
                    <tanksensormapping sensorid="0" cylinderindex="1" />
                    <tanksensormapping sensorid="1" cylinderindex="2" />
                    <tanksensormapping sensorid="2" cylinderindex="3" />
                    <tanksensormapping sensorid="3" cylinderindex="4" />
                    <tanksensormapping sensorid="4" cylinderindex="6" />
                    <sample time="0:00 min" pressure0="200.1 bar" pressure1="200.2 bar" pressure2="200.3 bar" pressure3="200.4 bar" pressure4="200.6 bar" />
            """))
        #expect(codes(findings) == ["ssrf.pressure-sensor-limit", "ssrf.gas-number-positional", "ssrf.dive-uuid-not-carried"])
        #expect(findings[0].message.contains("cylinder 7's"))
    }

    /// Item 6: below the fifth cylinder, sensor N is cylinder N, which Subsurface writes as no mapping.
    @Test func pressuresOfTheFirstFiveCylindersNeedNoMapping() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        d.cylinders = [Cylinder(), Cylinder()]
        var p = Profile()
        p.pressures = [PressureSeries(gasNumber: 1, series: Series(times: [0], values: [1995]))]
        d.recordings = [Recording(profile: p)]
        let (text, _) = try renderSSRF([d])
        #expect(text.contains("""
                  <divecomputer>
                    <sample time="0:00 min" pressure1="199.5 bar" />
            """))
    }

    /// Item 7: every guide is in the divemaster list.
    @Test func severalGuidesAreOneDivemasterList() throws {
        var header = LogbookHeader()
        header.people = [Person(uuid: "p1", name: "Ahmed"), Person(uuid: "p2", name: "Leila"), Person(uuid: "p3", name: "Mikko")]
        var d = dive(1, "2024-03-02T09:15:00")
        d.people = [PersonReference(personUUID: "p1", role: .guide), PersonReference(personUUID: "p2", role: .buddy),
                    PersonReference(personUUID: "p3", role: .guide)]
        let (text, findings) = try renderSSRF([d], header: header)
        #expect(text.contains("""
                  <divemaster>Ahmed, Mikko</divemaster>
                  <buddy>Leila</buddy>
            """))
        #expect(codes(findings) == ["ssrf.dive-uuid-not-carried"])
    }

    /// Item 8: the exact salinity when carried, else the model's value.
    @Test func salinityIsExactWhenCarried() throws {
        var d = dive(1, "2024-03-02T09:15:00")
        var exact = Recording(); exact.extensions = umilog([("salinity", .number("1025.5"))])
        var salt = Recording(); salt.salinity = .salt
        d.recordings = [exact, salt]
        let (text, _) = try renderSSRF([d])
        #expect(text.contains("""
                  <divecomputer>
                    <water salinity="1025.5 g/l" />
                  </divecomputer>
                  <divecomputer>
                    <water salinity="1030 g/l" />
                  </divecomputer>
            """))
    }
}
