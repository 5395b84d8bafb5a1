import DiveCore
@testable import DiveStore
import Foundation
import GRDB
import Testing
import TestSupport

/// The repository queries the browsing commands (and the app's History, Dive detail, Map and
/// Wildlife screens) use, on the sample logbook: five dives at four sites, read off
/// `Samples/logbook.uddf` (dives 1–5; Shark Reef, Ras Mohammed at 27.7342, 34.2567; Jackfish
/// Alley at 27.7861, 34.2789; Ras Umm Sid at 27.8478, 34.3109; Kaukajärvi, Hervannan uimaranta
/// at 61.4768, 23.8671, dives 4 and 5 on 2024-08-10).
@Suite struct BrowseTests {
    static func sample() throws -> TemporaryLogbook {
        let log = try TemporaryLogbook()
        let report = log.store.importLogbooks([Paths.samples + "/logbook.uddf"])
        try #require(report.inserted == 5)
        return log
    }

    @Test func divesInTheOrderTheyWereDivedAndByScope() throws {
        let log = try Self.sample()
        let s = log.store
        #expect(try s.dives().map(\.number) == [1, 2, 3, 4, 5])
        #expect(try s.dives(DiveListQuery(since: LocalDate(year: 2024, month: 8, day: 1))).map(\.number) == [4, 5])
        #expect(try s.dives(DiveListQuery(until: LocalDate(year: 2024, month: 3, day: 2))).map(\.number) == [1, 2])
        #expect(try s.dives(DiveListQuery(limit: 2)).map(\.number) == [1, 2])
        // Words of the name, whole words, in any order, accents and case folded.
        #expect(try s.dives(DiveListQuery(site: "ras")).map(\.number) == [1, 3])
        #expect(try s.dives(DiveListQuery(site: "SID umm")).map(\.number) == [3])
        #expect(try s.dives(DiveListQuery(site: "kaukajarvi")).map(\.number) == [4, 5])
        #expect(try s.dives(DiveListQuery(site: "Ra")).isEmpty)
        #expect(try s.dives(DiveListQuery(site: "—")).isEmpty)
        let first = try #require(try s.dives().first)
        #expect(first.date == "2024-03-02" && first.startTime == "09:15:00" && first.utcOffset == "+02:00")
        #expect(first.siteName == "Shark Reef, Ras Mohammed" && first.maxDepth == 28.3 && first.bottomTime == 2680)
    }

    @Test func oneDiveInFull() throws {
        let log = try Self.sample()
        let (dives, header) = try log.store.dives(numbered: 3)
        let d = try #require(dives.first)
        #expect(dives.count == 1)
        #expect(d.startedAt?.description == "2024-03-03T10:30:00+02:00")
        #expect(header.sites.first { $0.uuid == d.siteUUIDs.first }?.name == "Ras Umm Sid")
        #expect(try log.store.dives(numbered: 99).dives.isEmpty)
    }

    @Test func sitesNearAPointNearestFirst() throws {
        let log = try Self.sample()
        let near = try log.store.sitesNear(latitude: 27.7342, longitude: 34.2567, radius: 10_000)
        #expect(near.map(\.site.name) == ["Shark Reef, Ras Mohammed", "Jackfish Alley"])  // Ras Umm Sid lies 13 km off
        #expect(near[0].distance < 1)
        #expect((6_000...6_400).contains(near[1].distance))  // 5.77 km north, 2.18 km east
        #expect(try log.store.sitesNear(latitude: 27.7342, longitude: 34.2567, radius: 20_000).map(\.site.name).last == "Ras Umm Sid")
        #expect(try log.store.sitesNear(latitude: 0, longitude: 0, radius: 1_000).isEmpty)
    }

    /// A circle across the antimeridian finds the sites on both sides of it.
    @Test func aCircleAcrossTheAntimeridian() throws {
        let log = try TemporaryLogbook()
        try log.store.write { db in
            try db.execute(sql: "INSERT INTO site (id, name, lat, lon, kind) VALUES ('e', 'East of 180', -16.5, 179.99, 'user'), ('w', 'West of 180', -16.5, -179.99, 'user'), ('far', 'Far', -16.5, 170, 'user')")
        }
        let found = try log.store.sitesNear(latitude: -16.5, longitude: 180, radius: 5_000)
        #expect(Set(found.map(\.site.name)) == ["East of 180", "West of 180"])
        #expect(found.allSatisfy { $0.distance < 1_100 })  // 0.01° of longitude at 16.5° S is 1.07 km
    }

    @Test func greatCircle() {
        #expect(abs(LogbookStore.greatCircle(0, 0, 1, 0) - 111_195) < 1)
        #expect(abs(LogbookStore.greatCircle(10, 20, 10, 20)) < 1e-6)
    }

    @Test func speciesByWordsOfTheirNames() throws {
        let log = try TemporaryLogbook()
        _ = try log.store.seedCatalog()
        let clown = try log.store.searchSpecies("clown")
        #expect(!clown.isEmpty)
        #expect(clown.contains { $0.scientificName == "Amphiprion ocellaris" })
        #expect(try log.store.searchSpecies("amphiprion ocel").map(\.scientificName) == ["Amphiprion ocellaris"])
        #expect(try log.store.searchSpecies("  ").isEmpty)
    }
}
