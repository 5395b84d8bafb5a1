import Testing
import DiveCore
@testable import DiveUDDF
import TestSupport

/// The members of the profile's extra channel `name` under its `umilog` extension: the one
/// whose `ref` (or `set_by`, for a setpoint) is `ref`, or that has neither when `ref` is nil.
private func channelMembers(_ profile: Profile?, _ name: String, ref: String? = nil) -> [ExtensionValue.Member]? {
    guard case .object(let top)? = profile?.extensions,
          case .object(let umilog)? = top.first(where: { $0.name == "umilog" })?.value,
          case .array(let channels)? = umilog.first(where: { $0.name == "channels" })?.value else { return nil }
    for case .object(let members) in channels {
        guard case .string(name)? = members.first(where: { $0.name == "name" })?.value else { continue }
        var owner: String?
        if case .string(let s)? = members.first(where: { $0.name == "ref" || $0.name == "set_by" })?.value { owner = s }
        if owner == ref { return members }
    }
    return nil
}

/// The readings of the extra channel `name` (and `ref`): times in ms, values as their text.
private func channel(_ profile: Profile?, _ name: String, ref: String? = nil) -> (times: [Int], values: [String])? {
    guard let members = channelMembers(profile, name, ref: ref),
          case .array(let times)? = members.first(where: { $0.name == "times" })?.value,
          case .array(let values)? = members.first(where: { $0.name == "values" })?.value else { return nil }
    var t: [Int] = [], v: [String] = []
    for case .number(let s) in times { t.append(Int(s) ?? -1) }
    for case .number(let s) in values { v.append(s) }
    guard t.count == times.count, v.count == values.count else { return nil }
    return (t, v)
}

/// A string member of a channel (`unit`, `ref`, `set_by`, `tank`, `source_unit`).
private func string(_ members: [ExtensionValue.Member]?, _ name: String) -> String? {
    guard case .string(let s)? = members?.first(where: { $0.name == name })?.value else { return nil }
    return s
}

/// The names of every extra channel the profile carries.
private func channelNames(_ profile: Profile?) -> [String] {
    guard case .object(let top)? = profile?.extensions,
          case .object(let umilog)? = top.first(where: { $0.name == "umilog" })?.value,
          case .array(let channels)? = umilog.first(where: { $0.name == "channels" })?.value else { return [] }
    return channels.compactMap { c in
        guard case .object(let m) = c, case .string(let n)? = m.first(where: { $0.name == "name" })?.value else { return nil }
        return n
    }
}

/// `{"umilog": {name: value}}`, the shape the reader's once-per-dive facts take.
private func umilog(_ name: String, _ value: ExtensionValue) -> ExtensionValue {
    .object([.init("umilog", .object([.init(name, value)]))])
}

private let start = "<informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive>"
private let airMix = "<gasdefinitions><mix id=\"air\"><o2>0.21</o2></mix></gasdefinitions>"

/// A dive with a start, `tanks` (its `<tankdata>`) and `waypoints` as its samples.
private func readDive(_ waypoints: String, generator: String? = nil, header: String = "", tanks: String = "") throws -> (Dive, [Finding]) {
    let body = start + tanks + "<samples>\(waypoints)</samples>"
    let xml = generator.map { uddf(generator: $0, header: header, dive: body) } ?? uddf(header: header, dive: body)
    let (book, findings) = try readUDDF(xml)
    return (try #require(book.dives.first), findings)
}

@Suite struct ReadingsTests {
    // MARK: Decompression readouts

    @Test func timeToSurfaceIsTheTTSChannel() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>300</divetime><depth>20</depth><timetosurface>600</timetosurface></waypoint>
            """)
        // <timetosurface> is in seconds, as the TTS channel; 300 s = 300 000 ms.
        #expect(dive.recordings.first?.profile?.tts == Series(times: [300_000], values: [600]))
        #expect(!findings.contains { $0.code == "uddf.not-carried" })
    }

    @Test func aMandatoryStopIsTheCeilingAndItsTime() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>600</divetime><depth>30</depth><decostop kind="mandatory" decodepth="6" duration="120"/></waypoint>
            """)
        let p = dive.recordings.first?.profile
        // decodepth 6 m = 600 cm at 600 s = 600 000 ms; duration 120 s stays seconds.
        #expect(p?.ceiling == Series(times: [600_000], values: [600]))
        #expect(channel(p, "deco_stop_time")?.times == [600_000])
        #expect(channel(p, "deco_stop_time")?.values == ["120"])
        #expect(string(channelMembers(p, "deco_stop_time"), "unit") == "s")
        #expect(!findings.contains { $0.code.hasPrefix("uddf.decostop") || $0.code == "uddf.not-carried" })
    }

    @Test func aStopScheduleKeepsTheDeepestStopAsTheCeiling() throws {
        // Two waypoints each with a 6 m and a 3 m stop, in both orders.
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>600</divetime><depth>30</depth>
              <decostop kind="mandatory" decodepth="6" duration="120"/><decostop kind="mandatory" decodepth="3" duration="180"/></waypoint>
            <waypoint><divetime>660</divetime><depth>29</depth>
              <decostop kind="mandatory" decodepth="3" duration="240"/><decostop kind="mandatory" decodepth="6" duration="60"/></waypoint>
            """)
        let p = dive.recordings.first?.profile
        // 6 m = 600 cm is the deepest of each waypoint; its own duration goes with it.
        #expect(p?.ceiling == Series(times: [600_000, 660_000], values: [600, 600]))
        #expect(channel(p, "deco_stop_time")?.values == ["120", "60"])
        let schedule = findings.filter { $0.code == "uddf.decostop-schedule" }
        #expect(schedule.count == 1)
        #expect(schedule.first?.kind == .dropped)
        #expect(schedule.first?.message.hasPrefix("2 mandatory stops") == true)
        #expect(schedule.first?.message.contains("the deepest is the ceiling") == true)
    }

    @Test("a mandatory stop that rounds to 0 cm is no ceiling, and its time goes with it")
    func aStopOfMillimetresIsNoObligation() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>60</divetime><depth>5</depth><decostop kind="mandatory" decodepth="0.004" duration="30"/></waypoint>
            """)
        let p = dive.recordings.first?.profile
        #expect(p?.ceiling == nil)
        #expect(channel(p, "deco_stop_time") == nil)
        #expect(findings.contains { $0.code == "uddf.decostop-zero" && $0.kind == .absent })
    }

    @Test func aMandatoryStopAtZeroMetresIsNoCeiling() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>60</divetime><depth>5</depth><decostop kind="mandatory" decodepth="0" duration="0"/></waypoint>
            """)
        let p = try #require(dive.recordings.first?.profile)
        #expect(p.ceiling == nil)
        #expect(channel(p, "deco_stop_time") == nil)
        let zero = findings.filter { $0.code == "uddf.decostop-zero" }
        #expect(zero.count == 1)
        #expect(zero.first?.kind == .absent)
        #expect(zero.first?.message.contains("1 mandatory stop is at 0 m") == true)
    }

    @Test func aSafetyStopOfZeroMetresForZeroSecondsIsAPlaceholder() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>60</divetime><depth>5</depth><decostop kind="safety" decodepth="0" duration="0"/></waypoint>
            """)
        let p = try #require(dive.recordings.first?.profile)
        #expect(p.extensions == nil)
        #expect(channel(p, "safety_stop_depth") == nil && channel(p, "safety_stop_time") == nil)
        let placeholder = findings.filter { $0.code == "uddf.placeholder" }
        #expect(placeholder.count == 1)
        #expect(placeholder.first?.kind == .absent)
        #expect(placeholder.first?.message.contains("safety stop") == true)
        #expect(placeholder.first?.message.contains("0 m for 0 s") == true)
    }

    @Test func aSafetyStopIsItsDepthAndTimeChannels() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>2400</divetime><depth>5</depth><decostop kind="safety" decodepth="5" duration="180"/></waypoint>
            """)
        let p = try #require(dive.recordings.first?.profile)
        // decodepth in metres, duration in seconds, both kept in the source's unit; 2400 s = 2 400 000 ms.
        #expect(channel(p, "safety_stop_depth")?.times == [2_400_000])
        #expect(channel(p, "safety_stop_depth")?.values == ["5"])
        #expect(string(channelMembers(p, "safety_stop_depth"), "unit") == "m")
        #expect(channel(p, "safety_stop_time")?.values == ["180"])
        #expect(string(channelMembers(p, "safety_stop_time"), "unit") == "s")
        #expect(p.ceiling == nil)   // a safety stop is no obligation
        #expect(!findings.contains { $0.code == "uddf.placeholder" || $0.code == "uddf.not-carried" })
    }

    // MARK: Alarms and infos

    @Test func alarmsAndInfosAreEvents() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><alarm>ascent</alarm></waypoint>
            <waypoint><divetime>120</divetime><depth>12</depth><alarm level="2">deco</alarm></waypoint>
            <waypoint><divetime>180</divetime><depth>12</depth><info type="battery">low</info></waypoint>
            """)
        #expect(dive.recordings.first?.profile?.events == [
            Event(time: 60_000, type: .ascentRate),
            Event(time: 120_000, label: "deco alarm (level 2)"),
            Event(time: 180_000, label: "battery: low"),
        ])
        #expect(!findings.contains { $0.code == "uddf.not-carried" })
    }

    // MARK: Gradient-factor settings

    @Test func gradientFactorSettingsAreTheDecoModel() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><setgflow>0.40</setgflow><setgfhigh>0.85</setgfhigh></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth></waypoint>
            """)
        // Fractions × 100: 0.40 → 40 %, 0.85 → 85 % (a generic generator writes fractions).
        #expect(dive.recordings.first?.decoModel?.gfLow == 40)
        #expect(dive.recordings.first?.decoModel?.gfHigh == 85)
        #expect(!findings.contains { $0.code.hasPrefix("uddf.gf-") || $0.code == "uddf.not-carried" })
    }

    @Test func aChangedGradientFactorSettingKeepsTheFirst() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><setgflow>0.40</setgflow><setgfhigh>0.85</setgfhigh></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><setgflow>0.30</setgflow><setgfhigh>0.70</setgfhigh></waypoint>
            """)
        #expect(dive.recordings.first?.decoModel?.gfLow == 40)
        #expect(dive.recordings.first?.decoModel?.gfHigh == 85)
        let changed = findings.filter { $0.code == "uddf.gf-setting-changed" }
        #expect(changed.count == 1)
        #expect(changed.first?.kind == .dropped)
        #expect(changed.first?.message.contains("change 1 time") == true)
        #expect(changed.first?.message.contains("only the first setting is carried") == true)
    }

    @Test func aZeroGradientFactorSettingIsAPlaceholder() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><setgflow>0.00</setgflow><setgfhigh>0.00</setgfhigh></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth></waypoint>
            """)
        #expect(dive.recordings.first?.decoModel?.gfLow == nil)
        #expect(dive.recordings.first?.decoModel?.gfHigh == nil)
        let placeholder = findings.filter { $0.code == "uddf.placeholder" }
        #expect(placeholder.count == 1)
        #expect(placeholder.first?.kind == .absent)
        #expect(placeholder.first?.message.contains("gradient factor setting is 0/0") == true)
    }

    // MARK: Rebreather channels

    @Test func setpointsAreChannelsBySetter() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><setpo2 setby="computer">70000</setpo2></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><setpo2 setby="user">1.3</setpo2></waypoint>
            """)
        let p = dive.recordings.first?.profile
        // 70000 is above 10, so Pascal: 70000 Pa = 0.7 bar. 1.3 is bar as written.
        let computer = channelMembers(p, "setpoint", ref: "computer")
        #expect(computer?.map(\.name) == ["name", "set_by", "unit", "times", "values"])
        #expect(string(computer, "unit") == "bar")
        #expect(channel(p, "setpoint", ref: "computer")?.times == [0])
        #expect(channel(p, "setpoint", ref: "computer")?.values == ["0.7"])
        #expect(channel(p, "setpoint", ref: "user")?.times == [60_000])
        #expect(channel(p, "setpoint", ref: "user")?.values == ["1.3"])
        let pascal = findings.filter { $0.code == "uddf.ppo2-pascal" }
        #expect(pascal.count == 1)
        #expect(pascal.first?.kind == .resolved)
        #expect(pascal.first?.message.hasPrefix("1 sensor or setpoint ppO2 value is above 10") == true)
        #expect(!findings.contains { $0.code == "uddf.not-carried" })
    }

    @Test func cellReadingsAreSensorChannelsByRef() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><measuredpo2 ref="c1">0.71</measuredpo2><ppo2 ref="c2">69000</ppo2></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><measuredpo2 ref="c1">1.29</measuredpo2></waypoint>
            """)
        let p = dive.recordings.first?.profile
        // measuredpo2 in bar as written; UDDF 3.3's <ppo2> 69000 Pa = 0.69 bar.
        #expect(channel(p, "sensor_ppo2", ref: "c1")?.times == [0, 60_000])
        #expect(channel(p, "sensor_ppo2", ref: "c1")?.values == ["0.71", "1.29"])
        #expect(channel(p, "sensor_ppo2", ref: "c2")?.times == [0])
        #expect(channel(p, "sensor_ppo2", ref: "c2")?.values == ["0.69"])
        #expect(string(channelMembers(p, "sensor_ppo2", ref: "c2"), "unit") == "bar")
        #expect(p?.ppo2 == nil)   // a cell is not the computer's calculated ppO2
        #expect(findings.contains { $0.code == "uddf.ppo2-pascal" && $0.kind == .resolved })
        #expect(!findings.contains { $0.code == "uddf.not-carried" })
    }

    @Test func oxygenToleranceUnitsAreAChannel() throws {
        let (dive, _) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>1500</divetime><depth>30</depth><otu>25.5</otu></waypoint>
            """)
        let p = dive.recordings.first?.profile
        #expect(channel(p, "otu")?.times == [1_500_000])
        #expect(channel(p, "otu")?.values == ["25.5"])
        #expect(string(channelMembers(p, "otu"), "unit") == "OTU")
    }

    @Test func pulseRateIsHertzOrBeatsPerMinute() throws {
        let (hz, hzFindings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><pulserate>1.2</pulserate></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth></waypoint>
            """)
        let p = hz.recordings.first?.profile
        // 1.2 Hz × 60 s/min = 72 beats/min.
        #expect(channel(p, "heart_rate")?.values == ["72"])
        #expect(string(channelMembers(p, "heart_rate"), "unit") == "beats/min")
        #expect(!hzFindings.contains { $0.code == "uddf.pulserate-per-minute" })

        let (bpm, bpmFindings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><pulserate>75</pulserate></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth></waypoint>
            """)
        // 75 as Hz would be 4500 beats/min: it is beats per minute already.
        #expect(channel(bpm.recordings.first?.profile, "heart_rate")?.values == ["75"])
        let perMinute = bpmFindings.filter { $0.code == "uddf.pulserate-per-minute" }
        #expect(perMinute.count == 1)
        #expect(perMinute.first?.kind == .resolved)
        #expect(perMinute.first?.message.hasPrefix("1 pulse rate is above 10") == true)
    }

    @Test func batteryVoltageAndChargeAreChannels() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><batteryvoltage ref="b1">5.6</batteryvoltage></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><batterychargecondition deviceref="dc">87</batterychargecondition></waypoint>
            """)
        let p = dive.recordings.first?.profile
        #expect(channel(p, "battery_voltage", ref: "b1")?.values == ["5.6"])
        #expect(string(channelMembers(p, "battery_voltage", ref: "b1"), "unit") == "V")
        #expect(channel(p, "battery_charge", ref: "dc")?.times == [60_000])
        #expect(channel(p, "battery_charge", ref: "dc")?.values == ["87"])
        #expect(string(channelMembers(p, "battery_charge", ref: "dc"), "unit") == "%")
        #expect(!findings.contains { $0.code == "uddf.battery-volts" || $0.code == "uddf.not-carried" })
    }

    @Test func aBatteryChargeNamesItsTank() throws {
        let (dive, _) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><batterychargecondition deviceref="tx" tankref="T1">64</batterychargecondition></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth></waypoint>
            """)
        let members = channelMembers(dive.recordings.first?.profile, "battery_charge", ref: "tx")
        #expect(members?.map(\.name) == ["name", "ref", "tank", "unit", "times", "values"])
        #expect(string(members, "tank") == "T1")
        #expect(channel(dive.recordings.first?.profile, "battery_charge", ref: "tx")?.values == ["64"])
    }

    @Test func shearwaterCloudWritesBatteryVoltsAsTheCharge() throws {
        let shearwater = "<generator><name>Shearwater Cloud Desktop</name><manufacturer id=\"Shearwater_Research_Inc\"><name>Shearwater Research, Inc</name></manufacturer></generator>"
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><batterychargecondition deviceref="dc">1.48</batterychargecondition></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><batterychargecondition deviceref="dc">1.47</batterychargecondition></waypoint>
            """, generator: shearwater)
        let p = dive.recordings.first?.profile
        #expect(channel(p, "battery_charge", ref: "dc")?.values == ["1.48", "1.47"])
        #expect(string(channelMembers(p, "battery_charge", ref: "dc"), "unit") == "V")
        let volts = findings.filter { $0.code == "uddf.battery-volts" }
        #expect(volts.count == 1)
        #expect(volts.first?.kind == .resolved)
        #expect(volts.first?.message.contains("carried as volts") == true)
    }

    @Test func aScrubberChannelKeepsItsRefAndHasNoUnit() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><scrubber ref="stik" units="">3</scrubber></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth></waypoint>
            """)
        let members = channelMembers(dive.recordings.first?.profile, "scrubber", ref: "stik")
        // An empty units attribute states no unit: neither unit nor source_unit.
        #expect(members?.map(\.name) == ["name", "ref", "times", "values"])
        #expect(channel(dive.recordings.first?.profile, "scrubber", ref: "stik")?.values == ["3"])
        #expect(!findings.contains { $0.code == "uddf.not-carried" })
    }

    @Test func aScrubberUnitTheSourceStatesIsKept() throws {
        let (dive, _) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><scrubber ref="stik" units="minutes">45</scrubber></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth></waypoint>
            """)
        let members = channelMembers(dive.recordings.first?.profile, "scrubber", ref: "stik")
        #expect(members?.map(\.name) == ["name", "ref", "source_unit", "times", "values"])
        #expect(string(members, "source_unit") == "minutes")
    }

    @Test func headingIsAChannel() throws {
        let (dive, _) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><heading>90</heading></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><heading>270</heading></waypoint>
            """)
        let p = dive.recordings.first?.profile
        #expect(channel(p, "heading")?.times == [0, 60_000])
        #expect(channel(p, "heading")?.values == ["90", "270"])
        #expect(string(channelMembers(p, "heading"), "unit") == "degrees")
    }

    @Test func aHeadingOfZeroAllDiveIsAPlaceholder() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><heading>0</heading></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><heading>0</heading></waypoint>
            """)
        let p = try #require(dive.recordings.first?.profile)
        #expect(channel(p, "heading") == nil)
        #expect(!channelNames(p).contains("heading"))
        let placeholder = findings.filter { $0.code == "uddf.placeholder" }
        #expect(placeholder.count == 1)
        #expect(placeholder.first?.kind == .absent)
        #expect(placeholder.first?.message.hasPrefix("every heading reading is 0 for the whole dive (2 readings)") == true)
    }

    // MARK: Once-per-dive facts

    @Test func highestPPO2IsOnTheRecording() throws {
        let (book, findings) = try readUDDF(uddf(dive: start + """
            <samples><waypoint><divetime>0</divetime><depth>0</depth></waypoint><waypoint><divetime>60</divetime><depth>10</depth></waypoint></samples>
            <informationafterdive><highestpo2>131000</highestpo2></informationafterdive>
            """))
        // 131000 Pa = 1.31 bar.
        #expect(book.dives[0].recordings.first?.extensions == umilog("highest_ppo2", .number("1.31")))
        #expect(!findings.contains { $0.code == "uddf.not-carried" || $0.code == "uddf.readout-without-recording" })
    }

    @Test func theSurfaceIntervalIsOnTheDive() throws {
        let (book, findings) = try readUDDF(uddf(dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime>
            <surfaceintervalbeforedive><passedtime>5400</passedtime></surfaceintervalbeforedive></informationbeforedive>
            """))
        // <passedtime> in seconds, kept as seconds: 5400 s = 1 h 30 min.
        #expect(book.dives[0].extensions == umilog("surface_interval", .number("5400")))
        #expect(!findings.contains { $0.code == "uddf.not-carried" })
    }

    @Test func anInfiniteSurfaceIntervalIsTheWordInfinity() throws {
        let (book, findings) = try readUDDF(uddf(dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime>
            <surfaceintervalbeforedive><infinity/></surfaceintervalbeforedive></informationbeforedive>
            """))
        #expect(book.dives[0].extensions == umilog("surface_interval", .string("infinity")))
        #expect(!findings.contains { $0.code == "uddf.not-carried" })
    }

    @Test func notesWithoutParagraphsAreTheDiveNotes() throws {
        let (book, findings) = try readUDDF(uddf(dive: start + "<informationafterdive><notes>Plain text, no para</notes></informationafterdive>"))
        #expect(book.dives[0].notes == "Plain text, no para")
        #expect(!findings.contains { $0.code == "uddf.not-carried" })
    }

    // MARK: Placeholders and habits

    @Test func aConstantImpossiblePressureUnderAnUndefinedRefIsAPlaceholder() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><tankpressure ref="t1">20000000</tankpressure><tankpressure ref="X">56250000</tankpressure></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><tankpressure ref="t1">19000000</tankpressure><tankpressure ref="X">56250000</tankpressure></waypoint>
            """, header: airMix, tanks: "<tankdata id=\"t1\"><link ref=\"air\"/></tankdata>")
        let p = try #require(dive.recordings.first?.profile)
        // t1: 20000000 Pa = 200 bar = 2000 tenths, 19000000 Pa = 1900 tenths. X: 56250000 Pa = 562.5 bar.
        #expect(p.pressures == [PressureSeries(gasNumber: 0, series: Series(times: [0, 60_000], values: [2000, 1900]))])
        #expect(dive.cylinders.count == 1)   // no cylinder for "X"
        let placeholder = findings.filter { $0.code == "uddf.pressure-placeholder" }
        #expect(placeholder.count == 1)
        #expect(placeholder.first?.kind == .absent)
        #expect(placeholder.first?.message.contains("\"X\" is 562.5 bar") == true)
        #expect(!findings.contains { $0.code == "uddf.tankpressure-undefined-tank" })
    }

    @Test func allZeroTankPressuresAreNotRecorded() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><tankpressure ref="t1">0</tankpressure></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><tankpressure ref="t1">0</tankpressure></waypoint>
            """, header: airMix, tanks: "<tankdata id=\"t1\"><link ref=\"air\"/></tankdata>")
        let p = try #require(dive.recordings.first?.profile)
        #expect(p.pressures.isEmpty)
        #expect(dive.cylinders.count == 1)   // the tank the dive defines stays
        let zero = findings.filter { $0.code == "uddf.pressure-all-zero" }
        #expect(zero.count == 1)
        #expect(zero.first?.kind == .absent)
        #expect(zero.first?.message.contains("every tank pressure of \"t1\" is 0 bar") == true)
    }

    @Test func aPressureChannelThatRepeatsAnotherIsCarriedOnce() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><tankpressure ref="t1">20000000</tankpressure><tankpressure ref="t2">20000000</tankpressure></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><tankpressure ref="t1">19000000</tankpressure><tankpressure ref="t2">19000000</tankpressure></waypoint>
            """, header: airMix, tanks: "<tankdata id=\"t1\"><link ref=\"air\"/></tankdata><tankdata id=\"t2\"><link ref=\"air\"/></tankdata>")
        let p = try #require(dive.recordings.first?.profile)
        // 200 bar and 190 bar in tenths of a bar, once, for the first tank.
        #expect(p.pressures == [PressureSeries(gasNumber: 0, series: Series(times: [0, 60_000], values: [2000, 1900]))])
        let duplicate = findings.filter { $0.code == "uddf.pressure-duplicate" }
        #expect(duplicate.count == 1)
        #expect(duplicate.first?.kind == .resolved)
        #expect(duplicate.first?.message.contains("\"t2\" repeat those of \"t1\"") == true)
    }

    @Test func zeroDegreesAllDiveIsNoTemperature() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><temperature>273.15</temperature></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><temperature>273.15</temperature></waypoint>
            """)
        // 273.15 K − 273.15 = 0 °C at every sample.
        let p = try #require(dive.recordings.first?.profile)
        #expect(p.temperature == nil)
        #expect(p.depth?.values == [0, 1000])
        let zero = findings.filter { $0.code == "uddf.temperature-all-zero" }
        #expect(zero.count == 1)
        #expect(zero.first?.kind == .absent)
    }

    @Test func anOffsetOfMinutesIsHours() throws {
        let (book, findings) = try readUDDF(uddf(dive: "<informationbeforedive><datetime>2025-05-10T09:30:00-00:07</datetime></informationbeforedive>"))
        // -00:07 is 7 minutes, no time zone; -07:00 = -420 minutes is one.
        #expect(book.dives[0].startedAt?.offset == .minutes(-420))
        #expect(book.dives[0].startedAt?.description == "2025-05-10T09:30:00-07:00")
        let hours = findings.filter { $0.code == "uddf.offset-minutes-as-hours" }
        #expect(hours.count == 1)
        #expect(hours.first?.kind == .resolved)

        // Nepal is 5 h 45 min east of UTC: a whole quarter hour, kept as written.
        let (nepal, nepalFindings) = try readUDDF(uddf(dive: "<informationbeforedive><datetime>2025-05-10T09:30:00+05:45</datetime></informationbeforedive>"))
        #expect(nepal.dives[0].startedAt?.offset == .minutes(345))
        #expect(!nepalFindings.contains { $0.code == "uddf.offset-minutes-as-hours" })
    }

    @Test func aRepeatedGasSwitchIsOneSwitch() throws {
        let tanks = "<tankdata id=\"t1\"><link ref=\"air\"/></tankdata>"
        let (one, oneFindings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><switchmix ref="air"/><switchmix ref="air"/></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth></waypoint>
            """, header: airMix, tanks: tanks)
        #expect(one.recordings.first?.profile?.events == [Event(time: 0, type: .gasSwitch, gasNumber: 0)])
        let repeated = oneFindings.filter { $0.code == "uddf.switch-repeated" }
        #expect(repeated.count == 1)
        #expect(repeated.first?.kind == .resolved)
        #expect(repeated.first?.message.hasPrefix("1 gas switch repeats") == true)

        // Two waypoints at one divetime are one instant; the same gas again later is a switch.
        let (two, twoFindings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><switchmix ref="air"/></waypoint>
            <waypoint><divetime>60</divetime><switchmix ref="air"/></waypoint>
            <waypoint><divetime>120</divetime><depth>10</depth><switchmix ref="air"/></waypoint>
            """, header: airMix, tanks: tanks)
        #expect(two.recordings.first?.profile?.events == [
            Event(time: 60_000, type: .gasSwitch, gasNumber: 0),
            Event(time: 120_000, type: .gasSwitch, gasNumber: 0),
        ])
        #expect(twoFindings.filter { $0.code == "uddf.switch-repeated" }.count == 1)
    }

    // MARK: Edge cases of the rules above

    @Test("one gradient factor set without the other is reported, not dropped silently")
    func aLoneGradientFactorSettingIsReported() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><setgflow>0.30</setgflow></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth></waypoint>
            """)
        #expect(dive.recordings.first?.decoModel?.gfLow == nil)
        let f = findings.filter { $0.code == "uddf.gf-setting-incomplete" }
        #expect(f.count == 1)
        #expect(f.first?.kind == .dropped)
    }

    @Test("an alarm with a level and no words is labelled by its level alone")
    func anAlarmWithoutTextIsLabelledByItsLevel() throws {
        let (dive, _) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><alarm level="2"/></waypoint>
            """)
        #expect(dive.recordings.first?.profile?.events.map(\.label) == ["alarm (level 2)"])
    }

    @Test("an offset that names no zone read either way is dropped, the wall clock kept")
    func anOffsetThatNamesNoZoneIsDropped() throws {
        // -00:13 as hours would be -13:00, west of the last zone (-12:00).
        let (book, findings) = try readUDDF(uddf(dive: "<informationbeforedive><datetime>2025-05-10T09:30:00-00:13</datetime></informationbeforedive>"))
        let start = try #require(book.dives.first?.startedAt)
        #expect(start.offset == nil)
        #expect(start.description == "2025-05-10T09:30:00")
        #expect(findings.contains { $0.code == "uddf.offset-not-a-zone" && $0.kind == .dropped })
        #expect(!findings.contains { $0.code == "uddf.offset-minutes-as-hours" })
    }

    @Test("two tanks that read one constant pressure all dive stay two tanks")
    func twoUntouchedStagesAreNotOneTank() throws {
        let (dive, findings) = try readDive("""
            <waypoint><divetime>0</divetime><depth>0</depth><tankpressure ref="s1">20000000</tankpressure><tankpressure ref="s2">20000000</tankpressure></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><tankpressure ref="s1">20000000</tankpressure><tankpressure ref="s2">20000000</tankpressure></waypoint>
            """)
        #expect(dive.recordings.first?.profile?.pressures.count == 2)
        #expect(!findings.contains { $0.code == "uddf.pressure-duplicate" })
    }

    @Test("a dive past the samples limit keeps the first ones and reports the rest, with their pressures")
    func samplesPastTheLimitAreReported() throws {
        let path = try Paths.temporaryDirectory() + "/long.uddf"
        let waypoints = (0..<5).map { "<waypoint><divetime>\($0 * 10)</divetime><depth>\($0 + 1)</depth><tankpressure ref=\"t\">\(200 - $0)00000</tankpressure></waypoint>" }.joined()
        try uddf(dive: start + "<tankdata id=\"t\"><tankvolume>0.012</tankvolume></tankdata><samples>\(waypoints)</samples>")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try UDDFReader(path: path)
        reader.samplesPerDive = 3
        let dive = try #require(try reader.next())
        let findings = reader.takeFindings()
        let p = try #require(dive.recordings.first?.profile)
        #expect(p.depth?.values == [100, 200, 300])
        #expect(p.pressures.first?.series.values == [2000, 1990, 1980])
        let f = try #require(findings.first { $0.code == "uddf.samples-over-limit" })
        #expect(f.kind == .dropped)
        #expect(f.message.hasPrefix("the dive has 2 waypoints past the first 3"))
    }
}
