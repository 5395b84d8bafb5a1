import DiveCore
import DiveKit
@testable import DiveStore
import Foundation
import GRDB
import Testing
import TestSupport

@Suite struct BackfillTests {
    /// A seeded logbook and a DiveJSON log of four dives: one at a catalog site's name (no
    /// position), one 55 m from a catalog site, one far from any, one with neither; a sighting
    /// of Chelonia mydas.
    func logbook() throws -> (TemporaryLogbook, near: String, named: String) {
        let log = try TemporaryLogbook()
        _ = try log.store.seedCatalog()
        let (near, named) = try log.store.read { db -> (Row, Row) in
            let near = try Row.fetchOne(db, sql: "SELECT id, name, lat, lon FROM site WHERE kind = 'catalog' ORDER BY rowid LIMIT 1")!
            // A catalog site whose name no other site shares.
            let named = try Row.fetchOne(db, sql: """
                SELECT id, name FROM site s WHERE kind = 'catalog' AND id != ?
                  AND (SELECT count(*) FROM site t WHERE umilog_fold(t.name) = umilog_fold(s.name)) = 1 ORDER BY rowid DESC LIMIT 1
                """, arguments: [near["id"] as String])!
            return (near, named)
        }
        let lat = (near["lat"] as Double) + 0.0005, lon: Double = near["lon"]
        let doc = """
        {"format": "divejson", "version": "1.0", "exported_at": "2026-01-01T00:00:00Z", "generator": {"name": "test"},
         "dives": [
          {"uuid": "11111111-1111-4111-8111-111111111111", "started_at": "2020-01-01T09:00:00", "site_uuids": ["aaaaaaaa-1111-4111-8111-111111111111"],
           "sightings": [{"species_uuid": "cccccccc-1111-4111-8111-111111111111", "count": 2}]},
          {"uuid": "22222222-1111-4111-8111-111111111111", "started_at": "2020-01-02T09:00:00", "entry_position": {"latitude": \(lat), "longitude": \(lon)}},
          {"uuid": "33333333-1111-4111-8111-111111111111", "started_at": "2020-01-03T09:00:00", "site_uuids": ["bbbbbbbb-1111-4111-8111-111111111111"]},
          {"uuid": "44444444-1111-4111-8111-111111111111", "started_at": "2020-01-04T09:00:00"}
         ],
         "sites": [
          {"uuid": "aaaaaaaa-1111-4111-8111-111111111111", "name": "  \((named["name"] as String).uppercased()) "},
          {"uuid": "bbbbbbbb-1111-4111-8111-111111111111", "name": "Nowhere Reef", "position": {"latitude": -60.5, "longitude": 10.25}}
         ],
         "species": [{"uuid": "cccccccc-1111-4111-8111-111111111111", "scientific_name": "Chelonia mydas"}]
        }
        """
        let path = log.directory + "/past.divejson"
        try doc.write(toFile: path, atomically: true, encoding: .utf8)
        let report = log.store.importLogbooks([path])
        #expect(report.inserted == 4, "\(report.files.map(\.status))")
        return (log, near["id"], named["id"])
    }

    @Test("dives are placed by position and by name, the rest are unmatched or pending; a second run changes nothing")
    func places() throws {
        let (log, near, named) = try logbook()
        let report = try log.store.backfill()
        #expect(report.count("site-matched") == 2)
        #expect(report.count("species-resolved") == 1)
        #expect(report.count("visited") == 2)
        try log.store.read { db in
            let status = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, status FROM dive").map { ($0["id"] as String, $0["status"] as String) })
            #expect(status["11111111-1111-4111-8111-111111111111"] == "matched")
            #expect(status["22222222-1111-4111-8111-111111111111"] == "matched")
            #expect(status["33333333-1111-4111-8111-111111111111"] == "unmatched")
            #expect(status["44444444-1111-4111-8111-111111111111"] == "pending")
            #expect(try String.fetchOne(db, sql: "SELECT site_id FROM dive WHERE id = '22222222-1111-4111-8111-111111111111'") == near)
            #expect(try String.fetchOne(db, sql: "SELECT canonical_site_id FROM site WHERE id = 'aaaaaaaa-1111-4111-8111-111111111111'") == named)
            #expect(try Set(String.fetchAll(db, sql: "SELECT site_id FROM list_state WHERE state = 'visited'")) == [near, named])
            #expect(try String.fetchOne(db, sql: "SELECT s.scientific_name FROM sighting g JOIN species s ON s.id = g.species_id WHERE s.kind = 'catalog'") == "Chelonia mydas")
        }
        let before = try log.tables()
        #expect(try log.store.backfill().changes.isEmpty)
        #expect(try log.tables() == before)
        #expect(try log.store.check().isEmpty)
    }

    @Test("a dry run reports the changes and makes none; a tighter radius does not reach the site 55 m away")
    func dryRunAndRadius() throws {
        let (log, _, _) = try logbook()
        let before = try log.tables()
        let plan = try log.store.backfill(BackfillOptions(dryRun: true))
        #expect(try log.tables() == before)
        #expect(plan.count("site-matched") == 2)
        let tight = try log.store.backfill(BackfillOptions(radius: 20))
        #expect(tight.count("site-matched") == 1)
    }

    @Test("pending lists the dives with no site; create-from-gps makes a site of the unmatched one and places it")
    func pendingAndCreate() throws {
        let (log, _, _) = try logbook()
        _ = try log.store.backfill()
        #expect(try log.store.pendingDives().map(\.status) == ["unmatched", "pending"])
        let made = try log.store.createSitesFromGPS()
        #expect(made.count("site-created") == 1)
        #expect(try log.store.pendingDives().map(\.status) == ["pending"])
        #expect(try log.store.createSitesFromGPS().changes.isEmpty)
        #expect(try log.store.backfill().changes.isEmpty)
    }

    @Test("renumbering numbers the dives in the order they were dived, once")
    func renumber() throws {
        let (log, _, _) = try logbook()
        let first = try log.store.backfill(BackfillOptions(renumber: true))
        #expect(first.count("renumbered") == 1)
        let numbers = try log.store.read { db in try Int.fetchAll(db, sql: "SELECT number FROM dive ORDER BY start_key") }
        #expect(numbers == [1, 2, 3, 4])
        #expect(try log.store.backfill(BackfillOptions(renumber: true)).changes.isEmpty)
    }

    @Test("distance is the great-circle distance")
    func distance() {
        // One degree of latitude is 111.2 km on the mean sphere.
        #expect(abs(Backfill.distance(0, 0, 1, 0) - 111_195) < 1)
        #expect(Backfill.distance(27.7342, 34.2567, 27.7342, 34.2567) == 0)
    }
}

@Suite struct QueryTests {
    @Test("fetchInBounds returns exactly the sites inside the box; search finds by word prefix, accents folded; popular counts sightings by region")
    func queries() throws {
        let (log, near, named) = try BackfillTests().logbook()
        _ = try log.store.backfill()
        let all = try log.store.read { db in try Row.fetchAll(db, sql: "SELECT id, lat, lon FROM site WHERE lat IS NOT NULL AND canonical_site_id IS NULL") }
        let (a, b, c, d) = (27.0, 28.5, 33.0, 35.0)
        let inside = Set(all.filter { ($0["lat"] as Double) >= a && ($0["lat"] as Double) <= b && ($0["lon"] as Double) >= c && ($0["lon"] as Double) <= d }.map { $0["id"] as String })
        #expect(!inside.isEmpty)
        #expect(Set(try log.store.fetchInBounds(minLat: a, maxLat: b, minLon: c, maxLon: d).map(\.id)) == inside)
        let name = try log.store.read { db in try String.fetchOne(db, sql: "SELECT name FROM site WHERE id = ?", arguments: [named])! }
        let prefix = String(Names.normalized(name).prefix(5))
        #expect(try log.store.searchSites(prefix.uppercased(), limit: 500).contains { $0.id == named })
        // The sighting was on the dive matched by name; its region is that site's area's.
        let region = try log.store.read { db in
            try String.fetchOne(db, sql: "SELECT a.region_id FROM site s JOIN area a ON a.id = s.area_id WHERE s.id = ?", arguments: [named])!
        }
        #expect(try log.store.popular(region: region).map(\.scientificName) == ["Chelonia mydas"])
        #expect(try log.store.popular().first?.sightings == 1)
        let otherRegion = try log.store.read { db in try String.fetchOne(db, sql: "SELECT id FROM region WHERE id != ? LIMIT 1", arguments: [region])! }
        #expect(try log.store.popular(region: otherRegion).isEmpty)
        _ = near
    }
}

@Suite struct SpeciesResolutionTests {
    @Test("a logged common name resolves only to a catalog species of that very name")
    func exactNames() throws {
        let log = try TemporaryLogbook()
        _ = try log.store.seedCatalog()
        // A catalog species with an English name of two words or more, and its last word alone.
        let (full, partial) = try log.store.read { db -> (String, String) in
            let name = try String.fetchOne(db, sql: "SELECT common_name FROM species WHERE kind = 'catalog' AND common_name LIKE '% %' ORDER BY rowid LIMIT 1")!
            return (name, String(name.split(separator: " ").last!))
        }
        let path = try divejson(["""
            {"uuid": "e0000000-0000-4000-8000-000000000001", "started_at": "2024-07-01T10:00:00",
             "sightings": [{"species_uuid": "f0000000-0000-4000-8000-000000000001"}, {"species_uuid": "f0000000-0000-4000-8000-000000000002"}]}
            """], """
            "species": [{"uuid": "f0000000-0000-4000-8000-000000000001", "common_name": "\(full.uppercased())"},
                        {"uuid": "f0000000-0000-4000-8000-000000000002", "common_name": "\(partial)"}]
            """, in: log.directory, name: "seen.divejson")
        #expect(log.store.importLogbooks([path]).inserted == 1)
        let report = try log.store.backfill()
        #expect(report.count("species-resolved") == 1)
        #expect(report.changes.contains { $0.code == "species-resolved" && $0.message.hasPrefix(full.uppercased()) })
    }
}

@Suite struct NameDistanceTests {
    @Test("a site of the dive's site's name matches within 10 km, not farther")
    func sameWaters() throws {
        let log = try TemporaryLogbook()
        _ = try log.store.seedCatalog()
        let (name, lat, lon) = try log.store.read { db -> (String, Double, Double) in
            let r = try Row.fetchOne(db, sql: """
                SELECT name, lat, lon FROM site s WHERE kind = 'catalog'
                  AND (SELECT count(*) FROM site t WHERE umilog_fold(t.name) = umilog_fold(s.name)) = 1 ORDER BY rowid LIMIT 1
                """)!
            return (r["name"], r["lat"], r["lon"])
        }
        // 0.05° of latitude is 5.6 km; 0.5° is 56 km.
        let path = try divejson(["""
            {"uuid": "a1000000-0000-4000-8000-000000000001", "started_at": "2024-07-01T10:00:00", "site_uuids": ["a2000000-0000-4000-8000-000000000001"]},
            {"uuid": "a1000000-0000-4000-8000-000000000002", "started_at": "2024-07-02T10:00:00", "site_uuids": ["a2000000-0000-4000-8000-000000000002"]}
            """], """
            "sites": [{"uuid": "a2000000-0000-4000-8000-000000000001", "name": "\(name)", "position": {"latitude": \(lat + 0.05), "longitude": \(lon)}},
                      {"uuid": "a2000000-0000-4000-8000-000000000002", "name": "\(name)", "position": {"latitude": \(lat + 0.5), "longitude": \(lon)}}]
            """, in: log.directory, name: "named.divejson")
        #expect(log.store.importLogbooks([path]).inserted == 2)
        let report = try log.store.backfill()
        #expect(report.count("site-matched") == 1)
        #expect(try log.store.pendingDives().map(\.id) == ["a1000000-0000-4000-8000-000000000002"])
    }
}
