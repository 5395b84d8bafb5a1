import Testing
@testable import DiveKit

/// A dive from line 10 of `f.uddf`, the fourth of its file.
func checkedDive(_ change: (inout Dive) -> Void) -> Dive {
    var dive = Dive(uuid: "d", startedAt: nil)
    dive.provenance = Provenance(format: "uddf", file: "f.uddf", index: 3, line: 10)
    change(&dive)
    return dive
}

func profile(depth: [(Int, Int)] = [], temperature: [(Int, Int)] = []) -> Profile {
    var p = Profile()
    if !depth.isEmpty { p.depth = Series(times: depth.map(\.0), values: depth.map(\.1)) }
    if !temperature.isEmpty { p.temperature = Series(times: temperature.map(\.0), values: temperature.map(\.1)) }
    return p
}

@Suite struct ModelCheckTests {
    @Test func aPlausibleDiveHasNothingToSay() {
        var checker = ModelChecker(file: "f.uddf")
        let dive = checkedDive {
            $0.maxDepth = 28.3
            $0.submergedTime = 2680
            $0.bottomTemperature = 24
            var c = Cylinder()
            c.oxygen = 32; c.helium = 0; c.startPressure = 200; c.endPressure = 60
            $0.cylinders = [c]
            $0.recordings = [Recording(profile: profile(depth: [(0, 0), (60_000, 1840), (120_000, 2830)]))]
        }
        #expect(checker.check(dive, header: LogbookHeader()) == [])
        #expect(checker.finish(header: LogbookHeader()) == [])
    }

    @Test func implausibleValuesAreWarningsWithTheirRecord() {
        var checker = ModelChecker(file: "f.uddf")
        let dive = checkedDive {
            $0.maxDepth = 452
            $0.bottomTemperature = 60
            $0.submergedTime = 0
            var c = Cylinder()
            c.startPressure = 520
            $0.cylinders = [c]
            $0.recordings = [Recording(profile: profile(depth: [(0, -150), (60_000, 1840), (120_000, 45_200)], temperature: [(0, 2400)]))]
        }
        #expect(checker.check(dive, header: LogbookHeader()).map(\.description) == [
            "f.uddf:10: warning[dive.depth-out-of-range]: dive/3/max_depth: greatest depth 452 m is outside 0–400 m: deeper than any dive on breathing gas reaches",
            "f.uddf:10: warning[dive.duration-not-positive]: dive/3/submerged_time: time in the water is 0 s; a dive lasts longer than nothing",
            "f.uddf:10: warning[dive.temperature-out-of-range]: dive/3/bottom_temperature: lowest water temperature 60 °C is outside −5–45 °C",
            "f.uddf:10: warning[dive.pressure-out-of-range]: dive/3/cylinders/0: start pressure 520 bar is outside 0–450 bar",
            "f.uddf:10: warning[dive.depth-out-of-range]: dive/3/recordings/0/profile: 2 depth samples are outside 0–400 m (-1.5 to 452 m)",
        ])
    }

    @Test func impossibleValuesAreErrors() {
        var checker = ModelChecker(file: "f.divejson", style: .json)
        let dive = checkedDive {
            $0.submergedTime = -60
            var c = Cylinder()
            c.oxygen = 80; c.helium = 30
            $0.cylinders = [c]
            $0.recordings = [Recording(profile: profile(depth: [(0, 0), (30_000, 100), (30_000, 200), (60_000, 300)]))]
        }
        let found = checker.check(dive, header: LogbookHeader())
        #expect(found.map(\.severity) == [.error, .error, .error])
        #expect(found.map(\.description) == [
            "f.divejson:10: error[dive.duration-not-positive]: $.dives[3].submerged_time: time in the water is -60 s; a dive lasts longer than nothing",
            "f.divejson:10: error[dive.gas-over-100]: $.dives[3].cylinders[0]: oxygen 80 % and helium 30 % add up to more than 100 %",
            "f.divejson:10: error[dive.sample-time-order]: $.dives[3].recordings[0].profile: depth sample 3 at 30 s does not come after the one before it (30 s); a channel's times must strictly increase",
        ])
    }

    @Test func referencesMayResolveLaterInTheFileButMustResolve() {
        var checker = ModelChecker(file: "f.uddf")
        let dive = checkedDive {
            $0.siteUUIDs = ["site-1"]
            $0.tripUUID = "trip-1"
            $0.people = [PersonReference(personUUID: "buddy-1", role: .buddy)]
        }
        var header = LogbookHeader()
        header.sites = [Site(uuid: "site-1", name: "Shark Reef")]
        #expect(checker.check(dive, header: header) == [])
        // The trip comes after the dives (UDDF's <divetrip> follows <profiledata>); the buddy never does.
        header.trips = [Trip(uuid: "trip-1", name: "Red Sea")]
        #expect(checker.finish(header: header).map(\.description) == [
            "f.uddf:10: error[dive.reference-unresolved]: dive/3: the dive names the person buddy-1, which the file does not define",
        ])
    }
}
