import Foundation
import Testing
import DiveCore
@testable import DiveMacDive
import TestSupport

/// Each writer's habit and each rule of `docs/macdive-mapping.md`, on small logbooks made here.
@Suite struct MacDiveHabitTests {
    /// `<units>Imperial</units>` decides every value: feet, °F, psi, pounds, cubic feet.
    @Test func imperialUnitsDecideEveryValue() throws {
        let xml = macDiveXML(units: "Imperial", """
            <date>2023-05-06 10:00:00</date><identifier>a</identifier><maxDepth>66</maxDepth><duration>1800</duration>
            <tempAir>86</tempAir><tempLow>50</tempLow><weight>12</weight><visibility>33</visibility>
            <site><name>Reef</name><altitude>1000</altitude></site>
            <gases><gas><pressureStart>2900</pressureStart><pressureEnd>725</pressureEnd><oxygen>21</oxygen>
            <tankSize>80</tankSize><workingPressure>3000</workingPressure></gas></gases>
            <samples><sample><time>0</time><depth>10</depth><pressure>2900</pressure><temperature>50</temperature></sample></samples>
            """)
        let (dives, findings, header) = try readMacDive(xml: xml)
        let d = try #require(dives.first)
        #expect(abs(d.maxDepth! - 20.1168) < 1e-9)
        #expect(abs(d.airTemperature! - 30) < 1e-9 && abs(d.bottomTemperature! - 10) < 1e-9)
        #expect(abs(d.weight! - 5.44310844) < 1e-6 && abs(d.visibility! - 10.0584) < 1e-9)
        #expect(header.sites.first?.altitude == 305)
        #expect(abs(d.cylinders[0].startPressure! - 199.948) < 1e-3 && abs(d.cylinders[0].endPressure! - 49.987) < 1e-3)
        #expect(abs(d.cylinders[0].volume! - 11.097) < 1e-3)
        #expect(d.profile?.depth?.values == [305] && d.profile?.temperature?.values == [1000] && d.profile?.pressures.first?.series.values == [1999])
        #expect(!findings.contains { $0.code == "macdive.units-by-magnitude" })
    }

    /// A file that does not say its units: each dive is read by the size of its values, and
    /// says so.
    @Test(arguments: [
        (nil, "<pressureStart>3000</pressureStart>", "Imperial", "a cylinder pressure of 3000, which only psi can be"),
        (nil, "<pressureStart>200</pressureStart>", "Metric", "cylinder pressures up to 200, which only bar can be"),
        ("Nautical", "<oxygen>21</oxygen>", "Metric", "no pressure or temperature to tell by, so metric, MacDive's default"),
    ] as [(String?, String, String, String)])
    func unitsByMagnitude(units: String?, gas: String, read: String, why: String) throws {
        let xml = macDiveXML(units: units, "<date>2023-05-06 10:00:00</date><maxDepth>100</maxDepth><gases><gas>\(gas)</gas></gases>")
        let (dives, findings, _) = try readMacDive(xml: xml)
        let f = try #require(findings.first { $0.code == "macdive.units-by-magnitude" })
        #expect(f.kind == .resolved && f.location.path == "dive/0")
        #expect(f.message.hasSuffix("the dive is read as \(read) by the size of its values (\(why))"))
        #expect(f.message.hasPrefix(units == nil ? "the file has no <units>" : "<units> says \"Nautical\""))
        #expect(dives.first?.maxDepth == (read == "Imperial" ? 100 * 0.3048 : 100))
    }

    /// MacDive writes 0 for a value never set: not recorded, one finding per element for the
    /// whole file, at its first place.
    @Test func zerosAreValuesNeverSet() throws {
        let dive = "<date>2023-05-06 10:00:00</date><rating>0</rating><tempAir>0.00</tempAir><cns>0.00</cns><maxDepth>12</maxDepth>"
        let (dives, findings, _) = try readMacDive(xml: macDiveXML(dive, dive, dive))
        #expect(dives.allSatisfy { $0.rating == nil && $0.airTemperature == nil && $0.recordings.first?.cnsEnd == nil })
        let zeros = findings.filter { $0.code == "macdive.zero-placeholder" }
        #expect(zeros.map(\.location.path) == ["dive/0/rating", "dive/0/tempAir", "dive/0/cns"])
        #expect(zeros.allSatisfy { $0.kind == .absent && $0.message.contains("(3 times in the file, the first here)") })
    }

    /// Doubles: `<double>1</double>` is a twinset of two `<tankSize>` tanks, one gas supply of
    /// twice the size; a tank named as two with `<double>0</double>` keeps MacDive's size.
    @Test func doublesAreOneGasSupply() throws {
        let xml = macDiveXML("""
            <date>2023-05-06 10:00:00</date>
            <gases>
              <gas><oxygen>21</oxygen><double>1</double><tankSize>12</tankSize><workingPressure>232</workingPressure><tankName>D12</tankName></gas>
              <gas><oxygen>50</oxygen><double>0</double><tankSize>14</tankSize><tankName>7 + 7</tankName><supplyType>Open Circuit</supplyType></gas>
            </gases>
            """)
        let (dives, findings, header) = try readMacDive(xml: xml)
        let d = try #require(dives.first)
        #expect(d.cylinders.map(\.volume) == [24, 14])
        #expect(umilogExtension(d.cylinders[0].extensions, "double") == .bool(true))
        let double = try #require(findings.first { $0.code == "macdive.double-tank" })
        #expect(double.message == "<double> is 1: a twinset of two 12 l cylinders, carried as one gas supply of 24 l (MacDive records one pressure for the pair)")
        let byName = try #require(findings.first { $0.code == "macdive.twinset-by-name" })
        #expect(byName.location.path == "dive/0/gases/gas/1/tankName")
        #expect(header.gear.map(\.name) == ["D12", "7 + 7"] && header.gear.map(\.volume) == [24, 14])
        // One gas says nothing of its supply: the dive's apparatus stays unsaid.
        #expect(d.type == nil)
    }

    /// Surface intervals are minutes with a fraction; 0 is a first dive's.
    @Test func surfaceIntervalsAreFractionalMinutes() throws {
        let (dives, findings, _) = try readMacDive(xml: macDiveXML(
            "<date>2023-05-06 10:00:00</date><surfaceInterval>0</surfaceInterval>",
            "<date>2023-05-06 13:00:00</date><surfaceInterval>138.3666666666667</surfaceInterval>"))
        #expect(umilogExtension(dives[0].extensions, "surface_interval") == nil)
        #expect(umilogExtension(dives[1].extensions, "surface_interval") == .number("8302"))
        #expect(findings.contains { $0.code == "macdive.zero-placeholder" && $0.location.path == "dive/0/surfaceInterval" })
    }

    /// Samples: a pressure for the one gas, ppO₂ 0 is no reading, NDL in minutes (0 is deco),
    /// an alarm is an event, times with decimals.
    @Test func samplesReadEachChannelByItsRule() throws {
        let xml = macDiveXML("""
            <date>2023-05-06 10:00:00</date><gases><gas><oxygen>32</oxygen><pressureStart>200</pressureStart></gas></gases>
            <samples>
              <sample><time>0.00</time><depth>0.00</depth><pressure>200</pressure><temperature>0</temperature><ppo2>0.00</ppo2><ndt>0</ndt></sample>
              <sample><time>10.00</time><depth>30.00</depth><pressure>0.00</pressure><temperature>0</temperature><ppo2>1.28</ppo2><ndt>0</ndt><alarm>ascent_rate</alarm></sample>
              <sample><time>20.50</time><depth>29.00</depth><pressure>190</pressure><temperature>0</temperature><ppo2>1.24</ppo2><ndt>3</ndt><alarm>battery</alarm></sample>
            </samples>
            """)
        let (dives, findings, _) = try readMacDive(xml: xml)
        let p = try #require(dives.first?.profile)
        #expect(p.depth?.times == [0, 10_000, 20_500] && p.duration == 20_500)
        #expect(p.pressures.map(\.gasNumber) == [0] && p.pressures.first?.series.values == [2000, 1900])
        #expect(dives.first?.cylinders.first?.gasNumber == 0)
        #expect(p.temperature == nil)
        #expect(p.ppo2?.values == [128, 124])
        #expect(p.ndl?.values == [0, 0, 180])
        #expect(p.events.map(\.type) == [.ascentRate, nil] && p.events.last?.label == "battery")
        #expect(findings.contains { $0.code == "macdive.ppo2-zero" && $0.kind == .absent })
        #expect(findings.contains { $0.code == "macdive.pressure-zero" && $0.location.path == "dive/0/samples/sample/1/pressure" })
        #expect(findings.contains { $0.code == "macdive.channel-all-zero" && $0.message.contains("<temperature>") })
    }

    /// One pressure column and two gases: which tank it read is not said.
    @Test func aPressureWithTwoGasesIsNotGuessed() throws {
        let xml = macDiveXML("""
            <date>2023-05-06 10:00:00</date><gases><gas><oxygen>21</oxygen></gas><gas><oxygen>50</oxygen></gas></gases>
            <samples><sample><time>0</time><depth>1</depth><pressure>200</pressure></sample></samples>
            """)
        let (dives, findings, _) = try readMacDive(xml: xml)
        #expect(dives.first?.profile?.pressures.isEmpty == true)
        #expect(findings.contains { $0.code == "macdive.pressure-cylinder-ambiguous" && $0.kind == .dropped })
    }

    /// The identifier is the dive's id; a second dive with it takes its place in the file.
    @Test func identifiersAreIdsAndARepeatIsPositional() throws {
        let (dives, findings, _) = try readMacDive(xml: macDiveXML(
            "<date>2023-05-06 10:00:00</date><identifier>20230506100000-ABC</identifier>",
            "<date>2023-05-07 10:00:00</date><identifier>20230506100000-ABC</identifier>",
            "<date>2023-05-08 10:00:00</date>"))
        #expect(dives[0].uuid == Identity.uuid(kind: "dive", sourceID: "20230506100000-ABC", namespace: MacDive.namespace))
        #expect(dives[0].provenance?.sourceID == "20230506100000-ABC")
        #expect(dives[1].uuid == Identity.uuid5(namespace: MacDive.namespace, name: "dive:#1"))
        #expect(dives[2].provenance?.positionalIdentity == true)
        #expect(findings.map(\.code).filter { $0.hasPrefix("macdive.id") } == ["macdive.identifier-duplicate", "macdive.id-absent"])
    }

    /// Sites, people, operators and gear are records the dives share.
    @Test func sharedRecordsAreMadeOnce() throws {
        let dive = """
            <date>2023-05-06 10:00:00</date><diver>Ann</diver><diveMaster>Bo</diveMaster><diveOperator>Shop</diveOperator>
            <site><country>Italy</country><location>Elba</location><name>Scoglio</name><lat>42.7</lat><lon>10.1</lon><waterType>Salt Water</waterType></site>
            <buddies><buddy>Cy</buddy><buddy>Bo</buddy></buddies>
            <gear><item><type>Octopus</type><manufacturer>Acme</manufacturer><name>O1</name><serial></serial></item></gear>
            """
        let (dives, _, header) = try readMacDive(xml: macDiveXML(dive, dive.replacingOccurrences(of: "Ann", with: "ann")))
        #expect(header.sites.count == 1 && header.people.map(\.name) == ["Cy", "Bo"] && header.contacts.count == 1 && header.gear.count == 1)
        #expect(header.sites.first?.location?.name == "Elba, Italy" && header.sites.first?.waterType == .salt)
        #expect(header.sites.first?.position == Position(latitude: 42.7, longitude: 10.1))
        #expect(header.gear.first?.type == .regulator && umilogExtension(header.gear.first?.extensions, "type") == .string("Octopus"))
        #expect(header.diver?.name == "Ann")
        // Bo is both a buddy and the dive master: the guide.
        #expect(dives[0].people.map(\.role) == [.buddy, .guide])
        #expect(dives[1].siteUUIDs == dives[0].siteUUIDs && dives[1].contactUUID == dives[0].contactUUID)
    }

    /// The older spelling Subsurface's MacDive.xslt reads: lowercase names, the gas and the site
    /// on the dive itself.
    @Test func theOlderSpellingIsRead() throws {
        let xml = macDiveXML("""
            <date>2010-05-06 10:00:00</date><divenumber>7</divenumber><maxdepth>20</maxdepth><avgdepth>11</avgdepth>
            <o2percent>32</o2percent><site>Wall</site><country>Egypt</country><sitelat>27.1</sitelat><sitelon>34.2</sitelon>
            """)
        let (dives, findings, header) = try readMacDive(xml: xml)
        let d = try #require(dives.first)
        #expect(d.number == 7 && d.maxDepth == 20 && d.avgDepth == 11 && d.cylinders.map(\.oxygen) == [32])
        #expect(header.sites.first?.name == "Wall" && header.sites.first?.location?.name == "Egypt")
        #expect(header.sites.first?.position == Position(latitude: 27.1, longitude: 34.2))
        #expect(!findings.contains { $0.code == "macdive.not-carried" })
    }

    /// What the model has no place for is reported by path, never dropped silently; what is
    /// in the file twice keeps the first.
    @Test func unknownElementsAndRepeatsAreReported() throws {
        let xml = macDiveXML("""
            <date>2023-05-06 10:00:00</date><notes>one</notes><notes>two</notes>
            <photos><photo><path>/p/1.jpg</path><caption>Ray</caption></photo></photos>
            """)
        let (dives, findings, _) = try readMacDive(xml: xml)
        #expect(dives.first?.notes == "one")
        let repeated = try #require(findings.first { $0.code == "macdive.element-repeated" })
        #expect(repeated.location.path == "dive/0/notes" && repeated.message.contains("\"two\""))
        let photo = try #require(findings.first { $0.code == "macdive.not-carried" })
        #expect(photo.location.path == "dive/0/photos/photo" && photo.kind == .dropped)
        #expect(photo.message.contains("<path>/p/1.jpg</path>") && photo.message.contains("<caption>Ray</caption>"))
    }

    /// The conditions MacDive offers in English are the model's; a diver's own words are kept.
    @Test func conditionsAreReadOrKept() throws {
        let xml = macDiveXML("""
            <date>2023-05-06 10:00:00</date><weather>Sunny</weather><current>Strong</current><surfaceConditions>Calm</surfaceConditions>
            <entryType>Da Barca</entryType><visibility>Ottima</visibility><decoModel>Buhlmann ZHL-16C GF 30/70</decoModel>
            <computer>Shearwater Perdix</computer><rating>4</rating>
            """)
        let (dives, _, _) = try readMacDive(xml: xml)
        let d = try #require(dives.first)
        #expect(d.weather == .clear && d.current == .strong && d.waves == .calm && d.entryType == nil && d.rating == 4)
        #expect(umilogExtension(d.extensions, "entry_type") == .string("Da Barca"))
        #expect(umilogExtension(d.extensions, "visibility") == .string("Ottima"))
        let deco = try #require(d.recordings.first?.decoModel)
        #expect(deco.algorithm == "buhlmann" && deco.gfLow == 30 && deco.gfHigh == 70)
        #expect(d.recordings.first?.device?.model == "Shearwater Perdix")
    }

    /// A file whose root is not `<dives>` is refused with a located error; so is an internal
    /// DTD subset.
    @Test func notMacDiveIsAnError() throws {
        #expect { try readMacDive(xml: "<?xml version=\"1.0\"?>\n<logbook><dive/></logbook>\n") } throws: {
            ($0 as? DiveError)?.code == "macdive.not-macdive" && ($0 as? DiveError)?.message.contains("<logbook>") == true
        }
        #expect { try readMacDive(xml: "<!DOCTYPE dives [<!ENTITY x \"y\">]>\n<dives><units>&x;</units></dives>\n") } throws: {
            ($0 as? DiveError)?.code == "xml.doctype"
        }
    }

    /// `Samples/macdive.xml` (made for the mapping's examples): a twinset and a stage with
    /// supply types, a deco profile with an alarm, and a dive logged by hand.
    @Test func theSampleLogbook() throws {
        let (dives, findings, reader) = try readMacDive(Paths.samples + "/macdive.xml")
        #expect(dives.count == 2)
        let d = dives[0]
        #expect(d.startedAt?.description == "2024-09-14T09:42:10" && d.maxDepth == 42.3 && d.submergedTime == 3300)
        #expect(d.cylinders.map(\.oxygen) == [21, 50] && d.cylinders.map(\.volume) == [24, 7] && d.type == .openCircuit)
        #expect(d.profile?.sampleCount == 6 && d.profile?.events.first?.type == .ascentRate && d.profile?.events.first?.time == 1_800_000)
        #expect(d.weight == 6.5 && d.visibility == 15 && d.airTemperature == 24 && d.entryType == .boat)
        #expect(d.recordings.first?.cnsEnd == 18 && d.recordings.first?.device?.model == "Shearwater Perdix 2")
        #expect(umilogExtension(dives[1].extensions, "surface_interval") == .number("14330"))
        #expect(dives[1].recordings.isEmpty && dives[1].profile == nil && dives[1].avgDepth == nil)
        #expect(reader.header.sites.count == 2 && reader.header.contacts.count == 1 && reader.header.people.count == 2)
        #expect(findings.filter { $0.kind == .dropped }.isEmpty)
    }

    /// The sniff: a `<dives>` root naming MacDive's DTD or holding a `<schema>`.
    @Test func theSniff() {
        func sniff(_ s: String, root: String = "dives") -> SniffConfidence {
            let b = Array(s.utf8)
            return MacDive.sniff(SniffInput(bytes: b, text: b, isWholeInput: true, xmlRoot: root, xmlRootTag: "<\(root)>", isJSON: false))
        }
        #expect(sniff(macDiveXML()) == .likely)
        #expect(sniff("<dives><schema>2.2.0</schema></dives>") == .likely)
        #expect(sniff("<!DOCTYPE dives SYSTEM \"http://www.mac-dive.com/macdive_logbook.dtd\"><dives></dives>") == .likely)
        #expect(sniff("<dives><dive/></dives>") == .none)
        #expect(sniff("<log><schema>1</schema></log>", root: "log") == .none)
    }
}
