import Testing
import DiveCore
@testable import DiveUDDF
import TestSupport

/// Values read off each file by hand (grep and a text editor, not this reader): the dive
/// count, and the first dive's start, greatest depth, duration and waypoint count.
struct Expected: Sendable, CustomStringConvertible {
    var file: String
    var dives: Int
    var start: String?
    var maxDepth: Double?
    var duration: Int?
    /// Waypoints in the first dive's `<samples>`, as counted in the file.
    var waypoints: Int
    var description: String { file }
}

let expectations: [Expected] = [
    .init(file: "corpus/uddf/divelogs-de__divelogs.uddf", dives: 8, start: "2026-04-17T11:49:00", maxDepth: 45.9, duration: 4001, waypoints: 1073),
    .init(file: "corpus/uddf/divinglog__TestDiveDivingLog5.08.uddf", dives: 1, start: "2011-05-17T11:01:00", maxDepth: 24.7, duration: nil, waypoints: 65),
    .init(file: "corpus/uddf/kenozooid__logbook.uddf", dives: 2, start: "2009-10-22T15:32:43", maxDepth: 30.3, duration: 3857, waypoints: 387),
    .init(file: "corpus/uddf/kenozooid__ostc-dump-26.uddf", dives: 1, start: "2011-09-03T12:39:53", maxDepth: 16.0, duration: 1807, waypoints: 182),
    .init(file: "corpus/uddf/shearwater-cloud-desktop__005_oc-trimix-two-deco-gases--perdix2.uddf", dives: 1, start: "2026-03-26T11:04:03", maxDepth: 58.7, duration: 4338, waypoints: 436),
    .init(file: "corpus/uddf/shearwater-cloud-desktop__Peregrine_TX_93CBB2BB_140_2025-03-21.uddf", dives: 1, start: "2025-03-21T12:20:48", maxDepth: 12.5914631, duration: 5041, waypoints: 507),
    .init(file: "corpus/uddf/shearwater-cloud-desktop__Petrel_3699F336_98.1_2026-1-6_15-57-9.uddf", dives: 1, start: "2026-01-06T15:57:09", maxDepth: 15.1, duration: 2661, waypoints: 269),
    .init(file: "corpus/uddf/shearwater-cloud-desktop__dive31.uddf", dives: 1, start: "2024-07-29T17:44:18", maxDepth: 17.10366, duration: 2231, waypoints: 226),
    .init(file: "corpus/uddf/shearwater-cloud-desktop__issue_71_perdix_single_tank.uddf", dives: 1, start: "2025-12-30T09:32:15", maxDepth: 32.3, duration: 2541, waypoints: 257),
    .init(file: "corpus/uddf/subsurface__2024-06-27_Dive1.uddf", dives: 1, start: "2024-06-27T15:45:44", maxDepth: 11.23, duration: 1620, waypoints: 86),
    .init(file: "corpus/uddf/subsurface__lagraule-subsurface.uddf", dives: 1, start: "2008-04-06T10:35:50", maxDepth: 41.64, duration: 1668, waypoints: 507),
    .init(file: "corpus/uddf/subsurface__subsurface.uddf", dives: 41, start: "2024-09-21T09:12:49", maxDepth: 6.096, duration: 1320, waypoints: 4),
    .init(file: "corpus/uddf/subsurface__suit.uddf", dives: 1, start: "2016-11-27T01:33:00", maxDepth: 16.0, duration: 2320, waypoints: 121),
    .init(file: "corpus/uddf/subsurface__test40.uddf", dives: 1, start: "2014-04-01T10:00:00", maxDepth: 38.99, duration: 4674, waypoints: 2485),
    .init(file: "reference/divejson/fixtures/uddf/conditions.uddf", dives: 2, start: "2026-04-14T08:20:00+02:00", maxDepth: 42.6, duration: 4380, waypoints: 0),
    .init(file: "reference/divejson/fixtures/uddf/contacts.uddf", dives: 2, start: "2026-03-03T09:10:00+02:00", maxDepth: 24.6, duration: 2940, waypoints: 0),
    .init(file: "reference/divejson/fixtures/uddf/divelogs.uddf", dives: 2, start: "2026-04-17T11:49:00", maxDepth: 45.9, duration: 4001, waypoints: 5),
    .init(file: "reference/divejson/fixtures/uddf/gear.uddf", dives: 2, start: "2026-05-02T09:30:00+01:00", maxDepth: 24.5, duration: 2760, waypoints: 3),
    .init(file: "reference/divejson/fixtures/uddf/legacy-writer.uddf", dives: 1, start: "2002-06-18", maxDepth: 18.4, duration: 2400, waypoints: 4),
    .init(file: "reference/divejson/fixtures/uddf/mix-only-cylinder.uddf", dives: 2, start: "2026-05-02T09:30:00+01:00", maxDepth: 28.4, duration: 2760, waypoints: 0),
    .init(file: "reference/divejson/fixtures/uddf/opendiving.uddf", dives: 1, start: "2026-04-19T08:12:00+02:00", maxDepth: 29.6, duration: 2880, waypoints: 6),
    .init(file: "reference/divejson/fixtures/uddf/owner-profile-only.uddf", dives: 0, start: nil, maxDepth: nil, duration: nil, waypoints: 0),
    .init(file: "reference/divejson/fixtures/uddf/people.uddf", dives: 3, start: "2026-03-03T09:10:00+02:00", maxDepth: 18.4, duration: 2760, waypoints: 0),
    .init(file: "reference/divejson/fixtures/uddf/shearwater-cloud-cns.uddf", dives: 1, start: "2026-09-08T15:21:53", maxDepth: 19.1, duration: 2921, waypoints: 16),
    .init(file: "reference/divejson/fixtures/uddf/shearwater-cloud.uddf", dives: 1, start: "2026-09-08T15:18:10", maxDepth: 4, duration: 163, waypoints: 12),
    .init(file: "reference/divejson/fixtures/uddf/sites.uddf", dives: 0, start: nil, maxDepth: nil, duration: nil, waypoints: 0),
    .init(file: "reference/divejson/fixtures/uddf/subsurface.uddf", dives: 2, start: "2026-04-17T11:49:23", maxDepth: 45.91, duration: 4010, waypoints: 8),
]

func read(_ relative: String) throws -> (Logbook, [Finding]) {
    try UDDFReader(path: Paths.shared + "/" + relative, displayName: relative).readAll()
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct CorpusTests {
    @Test func everySharedUDDFFileHasAnExpectation() {
        #expect(Set(Paths.sharedUDDF) == Set(expectations.map(\.file)))
    }

    @Test(arguments: expectations)
    func readsWhatTheFileSays(_ e: Expected) throws {
        let (book, _) = try read(e.file)
        #expect(book.dives.count == e.dives)
        guard let first = book.dives.first else { return }
        #expect(first.startedAt?.description == e.start)
        #expect(first.maxDepth == e.maxDepth)
        #expect(first.submergedTime == e.duration)
        // Every waypoint with a <divetime> is one sample instant; the exceptions below say
        // which waypoints a rule removed, and are tested on their own.
        if !["corpus/uddf/divelogs-de__divelogs.uddf", "reference/divejson/fixtures/uddf/legacy-writer.uddf"].contains(e.file) {
            #expect((first.profile?.sampleCount ?? 0) == e.waypoints)
        }
    }

    @Test func lastDivesOfMultiDiveFiles() throws {
        let (subsurface, _) = try read("corpus/uddf/subsurface__subsurface.uddf")
        let last = try #require(subsurface.dives.last)
        #expect(last.startedAt?.description == "2026-07-03T12:08:43")
        #expect(last.maxDepth == 7.41)
        #expect(last.submergedTime == 4590)
        #expect(last.profile?.sampleCount == 385)
        #expect(subsurface.dives.map(\.number) == (1...41).map { $0 })

        let (divelogs, _) = try read("corpus/uddf/divelogs-de__divelogs.uddf")
        let lastDivelogs = try #require(divelogs.dives.last)
        #expect(lastDivelogs.startedAt?.description == "2026-07-11T09:45:00")
        #expect(lastDivelogs.maxDepth == 14.9)
        #expect(lastDivelogs.submergedTime == 3480)
        #expect(lastDivelogs.profile == nil)
    }

    @Test func aWaypointWithoutDivetimeIsDroppedAndReported() throws {
        // legacy-writer.uddf: four waypoints, the last has no <DIVETIME>.
        let (book, findings) = try read("reference/divejson/fixtures/uddf/legacy-writer.uddf")
        #expect(book.dives[0].profile?.sampleCount == 3)
        #expect(findings.contains { $0.code == "uddf.waypoint-without-time" && $0.kind == .dropped })
        // Waypoints out of order (120, 30, 30.4) come out by their own time, 30.4 s kept apart from 30 s.
        #expect(book.dives[0].profile?.depth?.times == [30_000, 30_400, 120_000])
    }
}
