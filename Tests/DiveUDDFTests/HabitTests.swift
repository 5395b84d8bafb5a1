import Foundation
import Testing
import DiveCore
@testable import DiveUDDF
import TestSupport

/// Writes `xml` to a temporary file and reads it.
func readUDDF(_ xml: String, name: String = "test.uddf") throws -> (Logbook, [Finding]) {
    let dir = try Paths.temporaryDirectory()
    let path = dir + "/" + name
    try xml.write(toFile: path, atomically: true, encoding: .utf8)
    return try UDDFReader(path: path, displayName: name).readAll()
}

/// A minimal UDDF document around `body` (the children of `<dive>`), with `header` before
/// `<profiledata>`.
func uddf(generator: String = "<generator><name>Test</name></generator>", header: String = "", dive body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2">
    \(generator)
    \(header)
    <profiledata><repetitiongroup id="rg"><dive id="d1">
    \(body)
    </dive></repetitiongroup></profiledata>
    </uddf>
    """
}

@Suite struct HabitTests {
    @Test("a negative tank-pressure sample is reported as negative, not read as bar nor as unassigned")
    func negativePressureSample() throws {
        let mixes = "<gasdefinitions><mix id=\"m\"><o2>0.21</o2></mix></gasdefinitions>"
        let (book, findings) = try readUDDF(uddf(header: mixes, dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive>
            <tankdata id="t"><link ref="m"/></tankdata>
            <samples><waypoint><divetime>0</divetime><depth>0</depth><tankpressure>20000000</tankpressure></waypoint>
            <waypoint><divetime>60</divetime><depth>10</depth><tankpressure>-100</tankpressure></waypoint></samples>
            """))
        #expect(book.dives[0].recordings.first?.profile?.pressures.first?.series.values == [2000])
        #expect(findings.map(\.code).filter { $0.hasPrefix("uddf.pressure") || $0.hasPrefix("uddf.tankpressure") } == ["uddf.pressure-negative"])
    }

    @Test("a dive number that is not a number is reported, not dropped silently")
    func nonNumericDiveNumber() throws {
        let (book, findings) = try readUDDF(uddf(dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime><divenumber>abc</divenumber><internaldivenumber>x1</internaldivenumber></informationbeforedive>
            """))
        #expect(book.dives[0].number == nil)
        let bad = findings.filter { $0.code == "uddf.not-a-number" }
        #expect(bad.count == 2)
        #expect(bad.contains { $0.message.contains("<divenumber> holds \"abc\"") })
        #expect(bad.allSatisfy { $0.location.path == "dive/0" })
    }

    @Test func tankVolumeInLitresIsReadByMagnitude() throws {
        let mixes = "<gasdefinitions><mix id=\"m\"><o2>0.21</o2></mix></gasdefinitions>"
        let (book, findings) = try readUDDF(uddf(header: mixes, dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive>
            <tankdata><link ref="m"/><tankvolume>15.0</tankvolume></tankdata>
            <tankdata><link ref="m"/><tankvolume>0.012</tankvolume></tankdata>
            """))
        #expect(book.dives[0].cylinders.map(\.volume) == [15, 12])
        #expect(findings.filter { $0.code == "uddf.tankvolume-litres" }.map(\.location.path) == ["dive/0/tankdata/0"])
    }

    @Test func oxygenAsPercentOrFraction() throws {
        let mixes = """
            <gasdefinitions><mix id="a"><o2>34</o2></mix><mix id="b"><o2>0.34</o2><he>0.1</he></mix><mix id="c"><o2>1.0</o2></mix></gasdefinitions>
            """
        let (book, findings) = try readUDDF(uddf(header: mixes, dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive>
            <tankdata><link ref="a"/></tankdata><tankdata><link ref="b"/></tankdata><tankdata><link ref="c"/></tankdata>
            """))
        let c = book.dives[0].cylinders
        #expect(c.map(\.oxygen) == [34, 34, 100])
        #expect(c.map(\.helium) == [nil, 10, nil])
        #expect(c.map(\.gasLabel) == ["EAN34", "Tx34/10", "O2"])
        #expect(findings.filter { $0.code == "uddf.gas-percent" }.count == 1)
    }

    @Test func shearwaterZIsTheWallClockOnlyForShearwater() throws {
        let body = "<informationbeforedive><datetime>2025-03-21T12:20:48Z</datetime></informationbeforedive>"
        let shearwater = "<generator><name>Shearwater Cloud Desktop</name><manufacturer id=\"Shearwater_Research_Inc\"><name>Shearwater</name></manufacturer></generator>"
        let (sw, swFindings) = try readUDDF(uddf(generator: shearwater, dive: body))
        #expect(sw.dives[0].startedAt?.description == "2025-03-21T12:20:48")
        #expect(swFindings.contains { $0.code == "uddf.shearwater-local-z" && $0.kind == .resolved })
        // The name alone is a string anything may claim: without the manufacturer id, Z is UTC.
        let impostor = "<generator><name>Shearwater Cloud Desktop</name></generator>"
        let (other, otherFindings) = try readUDDF(uddf(generator: impostor, dive: body))
        #expect(other.dives[0].startedAt?.description == "2025-03-21T12:20:48Z")
        #expect(!otherFindings.contains { $0.code == "uddf.shearwater-local-z" })
    }

    @Test func uddf220DateElementsAndUppercaseTags() throws {
        let xml = """
            <UDDF VERSION="2.2.0"><PROFILEDATA><REPETITIONGROUP><DIVE ID="x">
            <DATE><YEAR>2011</YEAR><MONTH>5</MONTH><DAY>17</DAY></DATE><TIME><HOUR>11</HOUR><MINUTE>1</MINUTE></TIME>
            <GREATESTDEPTH>24.7</GREATESTDEPTH><LOWESTTEMPERATURE>283.1</LOWESTTEMPERATURE>
            <SAMPLES><WAYPOINT><DEPTH>2.74</DEPTH><DIVETIME>30</DIVETIME><TEMPERATURE>287.1</TEMPERATURE></WAYPOINT></SAMPLES>
            </DIVE></REPETITIONGROUP></PROFILEDATA></UDDF>
            """
        let (book, findings) = try readUDDF(xml)
        let dive = try #require(book.dives.first)
        #expect(dive.startedAt?.description == "2011-05-17T11:01:00")
        #expect(dive.maxDepth == 24.7)
        #expect(dive.bottomTemperature == 9.95)
        #expect(dive.profile?.depth == Series(times: [30_000], values: [274]))
        #expect(dive.profile?.temperature == Series(times: [30_000], values: [1395]))
        #expect(findings.contains { $0.code == "uddf.time-without-seconds" && $0.kind == .absent })
    }

    @Test func placeholderZeroDepthsBetweenDeepReadingsAreNotReadings() throws {
        var waypoints = ""
        // 20 m, then a zero 4 s later, then 20 m: no diver surfaces and returns in 8 s.
        for (t, d) in [(0, "0"), (60, "20.0"), (64, "0"), (68, "20.2"), (72, "0"), (76, "0"), (80, "19.8"), (400, "0")] {
            waypoints += "<waypoint><divetime>\(t)</divetime><depth>\(d)</depth></waypoint>"
        }
        let (book, findings) = try readUDDF(uddf(dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive>
            <samples>\(waypoints)</samples>
            """))
        let depth = try #require(book.dives[0].profile?.depth)
        #expect(depth.times == [0, 60_000, 68_000, 80_000, 400_000])
        #expect(depth.values == [0, 2000, 2020, 1980, 0])
        #expect(findings.contains { $0.code == "uddf.depth-zero-placeholder" && $0.message.hasPrefix("3 samples") })
    }

    @Test func aShallowSurfacingIsKept() throws {
        // 1.4 m → 0 → 2.5 m in 8 s is possible near the surface: kept as recorded.
        var waypoints = ""
        for (t, d) in [(0, "0"), (4, "1.4"), (8, "0"), (12, "2.5"), (16, "0")] {
            waypoints += "<waypoint><divetime>\(t)</divetime><depth>\(d)</depth></waypoint>"
        }
        let (book, _) = try readUDDF(uddf(dive: "<informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive><samples>\(waypoints)</samples>"))
        #expect(book.dives[0].profile?.depth?.values == [0, 140, 0, 250, 0])
    }

    @Test func pressureChannelsFollowTheMixToTheCylinder() throws {
        let mixes = "<gasdefinitions><mix id=\"air\"><o2>0.21</o2></mix><mix id=\"ean50\"><o2>0.5</o2></mix></gasdefinitions>"
        let (book, findings) = try readUDDF(uddf(header: mixes, dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00+02:00</datetime></informationbeforedive>
            <samples>
            <waypoint><divetime>0</divetime><depth>0</depth><switchmix ref="air"/><tankpressure ref="air">20000000</tankpressure><tankpressure ref="ean50">2.0E7</tankpressure></waypoint>
            <waypoint><divetime>10</divetime><depth>6</depth><switchmix ref="ean50"/><tankpressure ref="air">19000000</tankpressure><tankpressure ref="T9">50000000</tankpressure></waypoint>
            </samples>
            <tankdata><link ref="air"/><tankpressurebegin>0</tankpressurebegin><tankpressureend>7000000</tankpressureend></tankdata>
            <tankdata><link ref="ean50"/></tankdata>
            """))
        let dive = book.dives[0]
        // tankdata after samples (3.2.2 order) still ties the channels to their cylinders.
        let p = try #require(dive.profile)
        #expect(p.pressures.map(\.gasNumber) == [0, 1, 2])
        #expect(p.pressures[0].series.values == [2000, 1900])
        #expect(p.pressures[1].series.values == [2000])
        #expect(p.events.map(\.gasNumber) == [0, 1])
        #expect(dive.cylinders.count == 3)
        #expect(dive.cylinders[0].startPressure == nil) // 0 is a device's absent-marker
        #expect(dive.cylinders[0].endPressure == 70)
        #expect(findings.contains { $0.code == "uddf.tankpressure-undefined-tank" && $0.message.contains("\"T9\"") })
    }

    @Test func emptyElementsAreAbsentNotZero() throws {
        let (book, _) = try readUDDF(uddf(header: "<divesite><site id=\"s\"><name>Reef</name><geography><latitude/><longitude/></geography></site></divesite>", dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime><link ref=" s"/></informationbeforedive>
            <informationafterdive><greatestdepth>0</greatestdepth><visibility/><lowesttemperature></lowesttemperature></informationafterdive>
            """))
        let dive = book.dives[0]
        #expect(dive.maxDepth == nil)
        #expect(dive.visibility == nil)
        #expect(dive.bottomTemperature == nil)
        #expect(book.header.sites.first?.position == nil)
        #expect(dive.siteUUIDs == [book.header.sites[0].uuid]) // refs are whitespace-stripped
    }

    @Test func aDecoModelWithNothingThatRanItIsReportedNotKept() throws {
        let header = "<decomodel><buehlmann id=\"zhl\"><gradientfactorlow>0.3</gradientfactorlow><gradientfactorhigh>0.7</gradientfactorhigh></buehlmann></decomodel>"
        let (book, findings) = try readUDDF(uddf(header: header, dive: "<informationbeforedive><datetime>2024-01-01T10:00:00</datetime><link ref=\"zhl\"/></informationbeforedive>"))
        #expect(book.dives[0].recordings.isEmpty)
        #expect(findings.contains { $0.code == "uddf.decomodel-without-recording" && $0.kind == .dropped })
        // With samples, the same link lands on the recording.
        let (withSamples, _) = try readUDDF(uddf(header: header, dive: "<informationbeforedive><datetime>2024-01-01T10:00:00</datetime><link ref=\"zhl\"/></informationbeforedive><samples><waypoint><divetime>0</divetime><depth>1</depth></waypoint></samples>"))
        #expect(withSamples.dives[0].recordings.first?.decoModel?.gfLow == 30)
        #expect(withSamples.dives[0].recordings.first?.decoModel?.gfHigh == 70)
    }

    @Test func aPlaceholderDateIsNoStart() throws {
        let (book, findings) = try readUDDF(uddf(dive: "<informationbeforedive><datetime>1899-12-30T00:00:00</datetime></informationbeforedive>"))
        #expect(book.dives.count == 1)
        #expect(book.dives[0].startedAt == nil)
        #expect(findings.contains { $0.code == "uddf.placeholder-date" })
    }

    @Test("a <dive> that records nothing but an infinite surface interval, put before the real one as 'the previous dive', is no dive: reported absent, its elements accounted, not carried")
    func anEmptyLeadingDiveIsNoDive() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/previous.uddf"
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2">
            <generator><name>Test</name></generator>
            <profiledata><repetitiongroup id="rg">
            <dive id="previous">
              <informationbeforedive><surfaceintervalbeforedive><infinity/></surfaceintervalbeforedive></informationbeforedive>
            </dive>
            <dive id="d1">
              <informationbeforedive><datetime>2024-01-01T10:00:00</datetime>
                <surfaceintervalbeforedive><passedtime>7200</passedtime></surfaceintervalbeforedive></informationbeforedive>
              <informationafterdive><greatestdepth>18.2</greatestdepth><diveduration>2400</diveduration></informationafterdive>
            </dive>
            </repetitiongroup></profiledata>
            </uddf>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try UDDFReader(path: path, displayName: "previous.uddf")
        reader.recordsAccounting = true
        var dives: [Dive] = []
        var findings: [Finding] = []
        while let dive = try reader.next() { dives.append(dive); findings += reader.takeFindings() }
        findings += reader.takeFindings()
        #expect(dives.count == 1)
        #expect(dives.first?.provenance?.sourceID == "d1")
        #expect(dives.first?.provenance?.index == 1)
        #expect(dives.first?.startedAt == DiveDateTime.parse("2024-01-01T10:00:00")!.0)
        #expect(findings.map(\.description) == [
            "previous.uddf:5: absent[uddf.empty-dive]: dive/0: the <dive> records nothing but the surface interval before it: no date, depth, duration or samples. It is no dive (some writers put such an element before the first dive as \"the previous dive\") and is not carried",
        ])
        // Every element with content is accounted for: none is reported as not carried.
        let walk = try ContentWalk.walk(path)
        #expect(walk.leaves.filter { !reader.accounting.accounted.contains($0) && !named($0, by: findings) }.isEmpty)
        // An element with nothing in it at all is no dive either; one holding a number is a dive.
        let (empty, emptyFindings) = try readUDDF(uddf(dive: ""))
        #expect(empty.dives.isEmpty)
        #expect(emptyFindings.map(\.code) == ["uddf.empty-dive"])
        #expect(emptyFindings.first?.message.hasPrefix("the <dive> records nothing: ") == true)
        let (numbered, _) = try readUDDF(uddf(dive: "<informationbeforedive><divenumber>7</divenumber></informationbeforedive>"))
        #expect(numbered.dives.map(\.number) == [7])
    }
}

@Suite struct ErrorTests {
    func error(_ xml: String) throws -> DiveError {
        do {
            _ = try readUDDF(xml, name: "bad.uddf")
        } catch let e as DiveError {
            return e
        }
        Issue.record("no error thrown")
        return DiveError("none", "", at: SourceLocation())
    }

    @Test func aDoctypeIsRefusedBeforeAnyEntityIsExpanded() throws {
        let e = try error("""
            <?xml version="1.0"?>
            <!DOCTYPE uddf [ <!ENTITY boom "boom"> ]>
            <uddf version="3.2.2"><generator><name>&boom;</name></generator></uddf>
            """)
        #expect(e.code == "xml.doctype")
        #expect(e.location.line == 2)
        #expect(e.description.hasPrefix("bad.uddf:2:"))
        #expect(e.description.contains("error[xml.doctype]: the file declares a document type (<!DOCTYPE>)"))
    }

    @Test func aTruncatedFileSaysWhereItEnds() throws {
        let e = try error("<uddf version=\"3.2.2\">\n<profiledata>\n<repetitiongroup>\n<dive id=\"a\">\n<samples><waypoint><depth>3.")
        #expect(e.code == "xml.truncated")
        #expect(e.location.line == 5)
        #expect(e.message == "the file ends before the XML is complete: <depth> (inside 6 more open elements) is never closed; the file looks truncated")
    }

    @Test func malformedXMLIsLocated() throws {
        let e = try error("<uddf version=\"3.2.2\">\n  <generator><name>x</nme></generator>\n</uddf>")
        #expect(e.code == "xml.malformed")
        #expect(e.location.line == 2)
        #expect(e.description.hasPrefix("bad.uddf:2:"))
    }

    @Test func anotherXMLDocumentIsNotUDDF() throws {
        let e = try error("<?xml version=\"1.0\"?>\n<divelog><dive/></divelog>")
        #expect(e.code == "uddf.not-uddf")
        #expect(e.description.hasPrefix("bad.uddf:2:"))
        #expect(e.description.hasSuffix(": error[uddf.not-uddf]: the file is XML but not UDDF: its root element is <divelog>, not <uddf>"))
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: DiveError.self) { try UDDFReader(path: "/nonexistent/file.uddf") }
    }
}
