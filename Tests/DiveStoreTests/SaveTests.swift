import DiveCore
@testable import DiveStore
import Foundation
import GRDB
import Testing
import TestSupport

/// `LogbookStore.save`: the app's wizard saves dives it holds in memory, in one transaction.
@Suite struct SaveTests {
    /// A seeded logbook, one of its catalog sites (id, position) and two catalog species.
    private func seeded() throws -> (log: TemporaryLogbook, site: String, lat: Double, lon: Double, species: [String]) {
        let log = try TemporaryLogbook()
        _ = try log.store.seedCatalog()
        return try log.store.read { db in
            let site = try #require(try Row.fetchOne(db, sql: "SELECT id, lat, lon FROM site WHERE kind = 'catalog' AND lat IS NOT NULL ORDER BY rowid LIMIT 1"))
            let species = try String.fetchAll(db, sql: "SELECT id FROM species WHERE kind = 'catalog' ORDER BY rowid LIMIT 2")
            return (log, site["id"], site["lat"], site["lon"], species)
        }
    }

    private func start(_ day: Int) -> DiveDateTime {
        DiveDateTime(date: LocalDate(year: 2025, month: 5, day: day)!, time: TimeOfDay(hour: 9, minute: 30))
    }

    /// Three wizard dives: at a catalog site with two sightings; at a new site of the diver's
    /// own (in `header`, far from any catalog site) with a sighting of a species of the
    /// diver's own; with no site and no position.
    private func wizardDives(site: String, species: [String]) -> ([Dive], LogbookHeader) {
        var a = Dive(uuid: "5a000000-0000-4000-8000-00000000000a", startedAt: start(1))
        a.siteUUIDs = [site]
        a.maxDepth = 18.5
        a.submergedTime = 2820
        a.sightings = [Sighting(speciesUUID: species[0], count: 3), Sighting(speciesUUID: species[1])]
        a.sightings[1].notes = "under the ledge"
        var b = Dive(uuid: "5a000000-0000-4000-8000-00000000000b", startedAt: start(2))
        b.siteUUIDs = ["5b000000-0000-4000-8000-000000000001"]
        b.sightings = [Sighting(speciesUUID: "5c000000-0000-4000-8000-000000000001", count: 1)]
        let c = Dive(uuid: "5a000000-0000-4000-8000-00000000000c", startedAt: start(3))
        var header = LogbookHeader()
        var reef = Site(uuid: "5b000000-0000-4000-8000-000000000001", name: "Wizard Reef")
        reef.position = Position(latitude: -60.5, longitude: 10.25)
        header.sites = [reef]
        header.species = [Species(uuid: "5c000000-0000-4000-8000-000000000001", scientificName: "Nudibranchia sp. nova")]
        return ([a, b, c], header)
    }

    @Test("a save stores each dive, its sightings and its site's list state, and places the dives in the dive list")
    func saves() throws {
        let (log, site, _, _, species) = try seeded()
        let (dives, header) = wizardDives(site: site, species: species)
        let report = try log.store.save(dives, header: header)
        #expect(report.saved == dives.map(\.uuid))
        #expect(report.alreadySaved.isEmpty)
        #expect(report.findings.isEmpty)
        #expect(report.placed.contains(BackfillChange(code: "visited", message: try log.store.read { db in try String.fetchOne(db, sql: "SELECT name FROM site WHERE id = ?", arguments: [site])! })))
        try log.store.read { db in
            let status = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, status FROM dive").map { ($0["id"] as String, $0["status"] as String) })
            #expect(status == [dives[0].uuid: "matched", dives[1].uuid: "unmatched", dives[2].uuid: "pending"])
            let a = try #require(try Row.fetchOne(db, sql: "SELECT site_id, date, start_time, max_depth, bottom_time FROM dive WHERE id = ?", arguments: [dives[0].uuid]))
            #expect(a["site_id"] as String == site)
            #expect(a["date"] as String == "2025-05-01")
            #expect(a["max_depth"] as Double == 18.5)
            #expect(a["bottom_time"] as Int == 2820)
            let sightings = try Row.fetchAll(db, sql: "SELECT dive_id, species_id, count, notes FROM sighting ORDER BY dive_id, position")
            #expect(sightings.map { "\($0["dive_id"] as String) \($0["species_id"] as String) \(($0["count"] as Int?).map(String.init) ?? "-") \(($0["notes"] as String?) ?? "-")" } == [
                "\(dives[0].uuid) \(species[0]) 3 -",
                "\(dives[0].uuid) \(species[1]) - under the ledge",
                "\(dives[1].uuid) 5c000000-0000-4000-8000-000000000001 1 -",
            ])
            // The diver's own site and species are stored from the header, as the log's.
            #expect(try String.fetchOne(db, sql: "SELECT kind FROM site WHERE id = '5b000000-0000-4000-8000-000000000001'") == "log")
            #expect(try String.fetchOne(db, sql: "SELECT kind FROM species WHERE id = '5c000000-0000-4000-8000-000000000001'") == "log")
            #expect(try Row.fetchAll(db, sql: "SELECT site_id, state FROM list_state").map { "\($0["site_id"] as String) \($0["state"] as String)" } == ["\(site) visited"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM dive_source") == 0)
        }
        #expect(try log.store.check().isEmpty)
        // What the save placed is what backfill would: a backfill after it changes nothing.
        #expect(try log.store.backfill().changes.isEmpty)
    }

    @Test("saving the same dives again changes nothing: every table is as it was")
    func idempotent() throws {
        let (log, site, _, _, species) = try seeded()
        let (dives, header) = wizardDives(site: site, species: species)
        try log.store.save(dives, header: header)
        let before = try log.tables()
        let again = try log.store.save(dives, header: header)
        #expect(again.saved.isEmpty)
        #expect(again.alreadySaved == dives.map(\.uuid))
        #expect(again.placed.isEmpty)
        #expect(try log.tables() == before)
        // One dive given twice in one save is saved once.
        var other = Dive(uuid: "5a000000-0000-4000-8000-0000000000dd", startedAt: start(9))
        other.siteUUIDs = [site]
        let twice = try log.store.save([other, other])
        #expect(twice.saved == [other.uuid])
        #expect(twice.alreadySaved == [other.uuid])
        #expect(try log.count("dive") == 4)
    }

    @Test("a dive the logbook refuses midway rolls the whole save back, with a located error")
    func rollsBack() throws {
        let (log, site, _, _, species) = try seeded()
        // The logbook refuses one sighting: the third dive's, after the first two dives' rows
        // (and their sightings) are written.
        try log.store.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON sighting WHEN new.notes = 'refused' BEGIN SELECT RAISE(ABORT, 'this sighting is refused'); END")
        }
        var (dives, header) = wizardDives(site: site, species: species)
        dives[2].sightings = [Sighting(speciesUUID: species[0])]
        dives[2].sightings[0].notes = "refused"
        let before = try log.tables()
        let e = try #require(throws: DiveError.self) { try log.store.save(dives, header: header) }
        #expect(e.code == "store.write")
        #expect(e.description == "\(log.path): error[store.write]: dive/2: the logbook refused dive 3 (\(dives[2].uuid)): this sighting is refused; nothing was saved")
        #expect(try log.tables() == before)
        #expect(try log.count("dive") == 0)
        #expect(try log.count("list_state") == 0)
    }

    @Test("what the logbook cannot take of a dive is left out and reported at the dive; the rest is saved")
    func reportsWhatItLeavesOut() throws {
        let (log, site, _, _, species) = try seeded()
        var first = Dive(uuid: "5a000000-0000-4000-8000-0000000000e1", startedAt: start(4))
        first.siteUUIDs = [site]
        var odd = Dive(uuid: "5a000000-0000-4000-8000-0000000000e2", startedAt: start(5))
        odd.rating = 9
        odd.sightings = [Sighting(speciesUUID: species[0]), Sighting(speciesUUID: "5c000000-0000-4000-8000-00000000ffff")]
        let report = try log.store.save([first, odd])
        #expect(report.saved == [first.uuid, odd.uuid])
        #expect(report.findings.map { "\($0.code) \($0.location.path ?? "-")" } == ["store.value-refused dive/1", "store.reference-unresolved dive/1"])
        #expect(try log.count("sighting") == 1)
        #expect(try log.store.read { db in try Int.fetchOne(db, sql: "SELECT rating FROM dive WHERE id = ?", arguments: [odd.uuid]) } == nil)
    }
}
