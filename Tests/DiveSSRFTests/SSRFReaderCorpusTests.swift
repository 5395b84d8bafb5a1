import Foundation
import Testing
import DiveCore
@testable import DiveSSRF
import TestSupport

/// Values read off each file by hand (grep and a text editor, not this reader): the dive
/// count, and the first dive's start, first computer's maximum depth, duration, cylinder count
/// and the number of that computer's `<sample>`s (each writes a depth).
struct SSRFExpected: Sendable, CustomStringConvertible {
    var file: String
    var dives: Int
    var start: String
    var maxDepth: Double
    var duration: Int
    var cylinders: Int
    var depthSamples: Int
    var description: String { file }
}

let ssrfExpectations: [SSRFExpected] = [
    // <dives><program name='subsurface' version='1'>, CRLF; `51:08 min`.
    .init(file: "subsurface-v1__subsurface-1.xml", dives: 23, start: "2009-07-05T11:40:42", maxDepth: 19.46, duration: 3068, cylinders: 1, depthSamples: 768),
    // date='2014-4-1' unpadded; `77:54 min`.
    .init(file: "subsurface-v2__test40.xml", dives: 1, start: "2014-04-01T10:00:00", maxDepth: 38.99, duration: 4674, cylinders: 2, depthSamples: 2485),
    // `123:30 min`; 47 <sample>s, two of them at 94:00 (the second is a collision): 46 instants.
    .init(file: "subsurface-v3-planner__test51.xml", dives: 1, start: "2018-10-29T16:39:32", maxDepth: 110.0, duration: 7410, cylinders: 5, depthSamples: 46),
    // `53:10 min`.
    .init(file: "subsurface__002_ccr_only_low_sp_no_calculated_po2.ssrf.xml", dives: 1, start: "2023-01-04T10:10:39", maxDepth: 40.8, duration: 3190, cylinders: 3, depthSamples: 325),
    // `77:20 min`.
    .init(file: "subsurface__003_ccr_with_setpoint_switch_and_calculated_po2.ssrf.xml", dives: 1, start: "2026-05-10T13:42:17", maxDepth: 52.8, duration: 4640, cylinders: 2, depthSamples: 523),
    // `14:30 min`.
    .init(file: "subsurface__SampleDivesV2.ssrf", dives: 29, start: "2010-12-04T10:38:00", maxDepth: 10.97, duration: 870, cylinders: 1, depthSamples: 30),
    // `52:20 min`; a manually added dive: no cylinder, no sample.
    .init(file: "subsurface__TwoTimesTwo.ssrf", dives: 4, start: "2014-03-15T21:44:06", maxDepth: 15.0, duration: 3140, cylinders: 0, depthSamples: 0),
    // `19:40 min`.
    .init(file: "subsurface__anonymized_subsurface_export.ssrf", dives: 144, start: "2021-06-19T14:52:39", maxDepth: 6.8, duration: 1180, cylinders: 1, depthSamples: 129),
    // `27:22 min`; the first of its two computers has 12 samples.
    .init(file: "subsurface__merged-tank-sensors.xml", dives: 4, start: "2025-03-11T20:46:51", maxDepth: 40.965, duration: 1642, cylinders: 8, depthSamples: 12),
    // `22:00 min`.
    .init(file: "subsurface__subsurface.ssrf", dives: 41, start: "2024-09-21T09:12:49", maxDepth: 6.096, duration: 1320, cylinders: 1, depthSamples: 4),
]

let ssrfCorpus = Paths.corpus + "/ssrf"

func readCorpusSSRF(_ name: String) throws -> (Logbook, [Finding]) {
    try SSRFReader(path: ssrfCorpus + "/" + name, displayName: name).readAll()
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct SSRFReaderCorpusTests {
    @Test func everyCorpusFileHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ssrfCorpus)
        #expect(Set(files) == Set(ssrfExpectations.map(\.file)))
    }

    @Test(arguments: ssrfExpectations)
    func readsWhatTheFileSays(_ e: SSRFExpected) throws {
        let (book, findings) = try readCorpusSSRF(e.file)
        #expect(book.dives.count == e.dives)
        #expect(book.header.sourceFormat == "ssrf")
        #expect(book.header.sourceGenerator?.name == "subsurface")
        let first = try #require(book.dives.first)
        #expect(first.startedAt?.description == e.start)
        #expect(first.maxDepth == e.maxDepth)
        #expect(first.submergedTime == e.duration)
        #expect(first.cylinders.count == e.cylinders)
        #expect((first.recordings.first?.profile?.depth?.count ?? 0) == e.depthSamples)
        // Nothing read from Subsurface's own files is refused as a unit or a number.
        #expect(!findings.contains { $0.code == "ssrf.unit-unknown" || $0.code == "ssrf.not-a-number" || $0.code == "ssrf.not-carried" },
                "\(findings.filter { $0.code == "ssrf.unit-unknown" || $0.code == "ssrf.not-a-number" || $0.code == "ssrf.not-carried" })")
    }

    @Test func versionsAndGenerators() throws {
        #expect(try readCorpusSSRF("subsurface-v1__subsurface-1.xml").0.header.sourceVersion == "1")
        #expect(try readCorpusSSRF("subsurface-v2__test40.xml").0.header.sourceVersion == "2")
        #expect(try readCorpusSSRF("subsurface__subsurface.ssrf").0.header.sourceVersion == "3")
    }

    @Test func formatOneDivesTakeTheirPlaceAsASite() throws {
        // subsurface-1.xml: seven dives carry a <location>, naming five places.
        let (book, _) = try readCorpusSSRF("subsurface-v1__subsurface-1.xml")
        #expect(book.header.sites.count == 5)
        #expect(book.dives.filter { !$0.siteUUIDs.isEmpty }.count == 7)
        #expect(book.dives.map(\.number) == (1...23).map { $0 })
    }

    @Test func twoTimesTwoIsTwoPlaces() throws {
        // Blue Corner and Blue Corner, Palau, each twice at one position.
        let (book, _) = try readCorpusSSRF("subsurface__TwoTimesTwo.ssrf")
        #expect(book.header.sites.map(\.name) == ["Blue Corner", "Blue Corner, Palau"])
        #expect(book.header.sites.allSatisfy { $0.position == Position(latitude: 7.132557, longitude: 134.224213) })
        #expect(book.dives.map { $0.siteUUIDs } == [[book.header.sites[0].uuid], [book.header.sites[1].uuid],
                                                     [book.header.sites[0].uuid], [book.header.sites[1].uuid]])
    }

    @Test func ccrDiveOfTest40() throws {
        let (book, findings) = try readCorpusSSRF("subsurface-v2__test40.xml")
        let dive = book.dives[0]
        #expect(dive.cylinders.map(\.role) == [.oxygen, .diluent])
        let r = try #require(dive.recordings.first)
        #expect(r.mode == .closedCircuit)
        #expect(r.salinity == .fresh)
        #expect(r.surfacePressure == 1.02)
        #expect(r.device?.model == "Heinrichs Weikamp OSTC 3")
        // The one gas switch (line 14, type 25, value 21: 21 % O₂, 0 % He) names no cylinder;
        // Dil2 states no @o2, air (20.9 %) for the match, 0.1 point away: cylinder 1, resolved.
        #expect(r.profile?.events.map(\.type) == [.gasSwitch])
        #expect(r.profile?.events.first?.gasNumber == 1)
        #expect(findings.contains { $0.code == "ssrf.gaschange-by-mix" && $0.kind == .resolved && $0.location.line == 14 })
        #expect(!findings.contains { $0.code == "ssrf.gaschange-no-cylinder" })
        #expect(dive.cylinders.map(\.gasNumber) == [0, 1])
        // Dil2's oxygen stays unrecorded.
        #expect(dive.cylinders[1].oxygen == nil)
        // Deco from 44:12 (6 m) to 48:12: the ceiling ends with 0 at 2 892 s.
        let ceiling = try #require(r.profile?.ceiling)
        #expect(ceiling.times.first == 2_652_000 && ceiling.values.first == 600)
        #expect(ceiling.times.last == 2_892_000 && ceiling.values.last == 0)
    }

    @Test func tankSensorMappings() throws {
        // merged-tank-sensors.xml, dive number 5 (the fourth): default mapping, sensors 0 and 1
        // on cylinders 0 and 1 of four.
        let (book, findings) = try readCorpusSSRF("subsurface__merged-tank-sensors.xml")
        // Dive 2: the sentinel sensorid='-1' unmaps both sensors of both computers.
        #expect(book.dives[0].recordings.allSatisfy { $0.profile?.pressures.isEmpty == true })
        #expect(findings.filter { $0.code == "ssrf.pressure-unmapped" && $0.location.path?.hasPrefix("dive/0/") == true }.count == 2)
        // Dive 4: computer 1 maps sensor 0 → cylinder 1 and 1 → 0; computer 2 sensor 0 → 5, 1 → 4.
        let dive4 = book.dives[2]
        #expect(dive4.recordings[0].profile?.pressures.map(\.gasNumber) == [0, 1])
        #expect(dive4.recordings[1].profile?.pressures.map(\.gasNumber) == [4, 5])
        #expect(dive4.cylinders.map(\.gasNumber) == Array(0..<8))
    }
}
