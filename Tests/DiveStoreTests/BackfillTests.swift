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

@Suite struct LogbookStateTests {
    /// `log` exported to DiveJSON with its state (every dive, or those of `scope`), imported
    /// into a new seeded logbook: the copy, the export's path, and the import's report.
    func restored(_ log: TemporaryLogbook, scope: ExportScope = ExportScope()) throws -> (TemporaryLogbook, String, ImportReport) {
        let exported = log.directory + "/backup.divejson"
        let source = try LogbookExport(store: log.store, scope: scope, logbookState: true)
        let report = DiveKit.convert(source: source, name: log.path, options: ConvertOptions(to: .json, output: exported), standardOutput: MemorySink())
        #expect(report.inputs.allSatisfy { $0.error == nil && $0.findings.isEmpty })
        #expect(DiveKit.validate(paths: [exported]).exitCode == 0)
        let copy = try TemporaryLogbook()
        _ = try copy.store.seedCatalog()
        return (copy, exported, copy.store.importLogbooks([exported]))
    }

    @Test("a backfilled logbook, exported to DiveJSON and imported into a new one, keeps its statuses, matches, user sites, lists, resolved species and sources")
    func backup() throws {
        let (log, _, _) = try BackfillTests().logbook()
        _ = try log.store.backfill()
        _ = try log.store.createSitesFromGPS()
        // A catalog site on the wish list, which no dive refers to.
        try log.store.write { db in
            try db.execute(sql: "INSERT INTO list_state (site_id, state) SELECT id, 'wishlist' FROM site WHERE kind = 'catalog' AND id NOT IN (SELECT site_id FROM list_state) ORDER BY rowid LIMIT 1")
        }
        try log.store.read { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT DISTINCT status FROM dive ORDER BY status") == ["matched", "pending"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM site WHERE canonical_site_id IS NOT NULL") == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sighting WHERE logged_species_id != species_id") == 1)
            #expect(try String.fetchAll(db, sql: "SELECT state FROM list_state ORDER BY state") == ["visited", "visited", "visited", "wishlist"])
        }
        let (copy, backup, report) = try restored(log)
        #expect(report.exitCode == 0 && report.inserted == 4)
        #expect(report.files.flatMap(\.findings).isEmpty)
        // Every table, provenance included: the backup is no source of the dives it restores.
        #expect(try copy.tables() == log.tables())
        #expect(try copy.provenance() == log.provenance())
        #expect(try copy.digest(ofFile: "backup.divejson") == nil)
        #expect(try copy.store.backfill(BackfillOptions(dryRun: true)).changes.isEmpty)
        // Imported again, it adds nothing: its dives' sources are in the logbook.
        let restoredTables = try copy.tables()
        let twice = copy.store.importLogbooks([backup])
        #expect(twice.exitCode == 0 && twice.inserted == 0 && twice.alreadyImported == 4)
        #expect(twice.files.flatMap(\.findings).isEmpty)
        #expect(try copy.tables() == restoredTables)
        // Into the logbook it came from: nothing added, nothing changed.
        let before = try log.tables()
        let again = log.store.importLogbooks([backup])
        #expect(again.exitCode == 0 && again.inserted == 0 && again.alreadyImported == 4)
        #expect(try log.tables() == before)
    }

    @Test("a dive with no start date, which DiveJSON's dives cannot hold, goes into the backup under the umilog extension and is restored from it into an empty logbook")
    func undatedDive() throws {
        let log = try TemporaryLogbook()
        _ = try log.store.seedCatalog()
        #expect(log.store.importLogbooks([try undatedUDDF(in: log.directory)]).inserted == 2)
        let exported = log.directory + "/backup.divejson"
        let report = DiveKit.convert(source: try LogbookExport(store: log.store, logbookState: true), name: log.path,
                                     options: ConvertOptions(to: .json, output: exported), standardOutput: MemorySink())
        #expect(report.inputs.allSatisfy { $0.error == nil } && report.lostDives == 0 && !report.failed)
        #expect(report.inputs.flatMap(\.findings).map(\.code) == ["json.dive-without-start"])
        #expect(DiveKit.validate(paths: [exported]).exitCode == 0)
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(text.contains("\"undated_dives\": ["))
        let copy = try TemporaryLogbook()
        _ = try copy.store.seedCatalog()
        let back = copy.store.importLogbooks([exported])
        #expect(back.exitCode == 0 && back.inserted == 2)
        #expect(back.files.flatMap(\.findings).isEmpty, "\(back.files.flatMap(\.findings))")
        #expect(try copy.tables() == log.tables())
        #expect(try copy.provenance() == log.provenance())
        try copy.store.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT d.max_depth, d.bottom_time, d.notes, s.name FROM dive d JOIN site s ON s.id = d.site_id WHERE d.date IS NULL"))
            #expect(row["max_depth"] as Double == 7.5 && row["bottom_time"] as Int == 1500)
            #expect(row["notes"] as String == "Logbook page torn: no date." && row["name"] as String == "Undated Lagoon")
        }
        // Into the logbook it came from: both dives are there already, nothing changes.
        let before = try log.tables()
        let again = log.store.importLogbooks([exported])
        #expect(again.exitCode == 0 && again.inserted == 0 && again.alreadyImported == 2)
        #expect(try log.tables() == before)
    }

    @Test("dives kept apart as two are restored as two: a backup's dives are never each other's duplicates")
    func keptApart() throws {
        let log = try TemporaryLogbook()
        let (a, b) = try twoComputers(in: log.directory)
        _ = try log.store.seedCatalog()
        _ = log.store.importLogbooks([a])
        #expect(log.store.importLogbooks([b], options: ImportOptions(onDuplicate: .keep)).duplicates == 1)
        #expect(try log.count("dive") == 2)
        let (copy, _, report) = try restored(log)
        #expect(report.exitCode == 0 && report.inserted == 2)
        #expect(try copy.tables() == log.tables())
    }

    @Test("a DiveJSON document whose dives carry no umilog sources is a source file of its own; in one that mixes both, only the dives without are recorded as coming from it")
    func documentAsSource() throws {
        let log = try TemporaryLogbook()
        // Another program's DiveJSON: an ordinary source file.
        let plain = try divejson(["""
            {"uuid": "e3000000-0000-4000-8000-000000000001", "started_at": "2020-02-01T09:00:00", "max_depth": 12, "recordings": [{"device": {"model": "P"}}]}
            """], in: log.directory, name: "plain.divejson")
        #expect(log.store.importLogbooks([plain]).inserted == 1)
        let file = try #require(try log.digest(ofFile: "plain.divejson"))
        try log.store.read { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT f.sha256 FROM dive_source s JOIN source_file f ON f.id = s.source_file_id") == [file])
            #expect(try String.fetchAll(db, sql: "SELECT f.sha256 FROM recording r JOIN source_file f ON f.id = r.source_file_id") == [file])
        }
        // One dive restored from its own source, one that carries none.
        let listed = String(repeating: "ab", count: 32)
        let mixed = try divejson(["""
            {"uuid": "e3000000-0000-4000-8000-000000000002", "started_at": "2020-02-02T09:00:00", "max_depth": 14,
             "extensions": {"umilog": {"sources": [{"source_file": "\(listed)", "record_index": 3, "line": 40}]}}},
            {"uuid": "e3000000-0000-4000-8000-000000000003", "started_at": "2020-02-03T09:00:00", "max_depth": 16}
            """], """
            "extensions": {"umilog": {"source_files": [{"sha256": "\(listed)", "name": "computer.uddf", "format": "uddf", "size": 2048, "records": 4}]}}
            """, in: log.directory, name: "mixed.divejson")
        let report = log.store.importLogbooks([mixed])
        #expect(report.exitCode == 0 && report.inserted == 2 && report.files[0].findings.isEmpty)
        let own = try #require(try log.digest(ofFile: "mixed.divejson"))
        try log.store.read { db throws in
            let sources = try Row.fetchAll(db, sql: """
                SELECT f.sha256, f.records, s.dive_id, s.record_index, s.line FROM dive_source s JOIN source_file f ON f.id = s.source_file_id
                WHERE f.sha256 != ? ORDER BY s.dive_id
                """, arguments: [file]).map { "\($0["sha256"] as String) \($0["records"] as Int) \($0["dive_id"] as String) \($0["record_index"] as Int) \($0["line"] as Int? ?? -1)" }
            #expect(sources == ["\(listed) 4 e3000000-0000-4000-8000-000000000002 3 40", "\(own) 2 e3000000-0000-4000-8000-000000000003 1 4"])
        }
        let before = try log.tables()
        #expect(log.store.importLogbooks([mixed]).alreadyImported == 2)
        #expect(log.store.importLogbooks([plain]).alreadyImported == 1)
        #expect(try log.tables() == before)
    }

    @Test("an export of one day's dive carries that dive's site, the catalog site it matched, its status and the resolved species")
    func scoped() throws {
        let (log, _, named) = try BackfillTests().logbook()
        _ = try log.store.backfill()
        let day = try #require(LocalDate(year: 2020, month: 1, day: 1))
        let (copy, _, report) = try restored(log, scope: ExportScope(from: day, through: day))
        #expect(report.inserted == 1)
        try copy.store.read { db throws in
            let dive = try #require(try Row.fetchOne(db, sql: "SELECT status, site_id FROM dive"))
            #expect(dive["status"] as String == "matched")
            let site = try #require(try Row.fetchOne(db, sql: "SELECT kind, canonical_site_id FROM site WHERE id = ?", arguments: [dive["site_id"] as String]))
            #expect(site["kind"] as String == "log" && site["canonical_site_id"] as String? == named)
            #expect(try String.fetchOne(db, sql: "SELECT state FROM list_state WHERE site_id = ?", arguments: [named]) == "visited")
            let sighting = try #require(try Row.fetchOne(db, sql: "SELECT s.species_id, s.logged_species_id, p.kind FROM sighting s JOIN species p ON p.id = s.species_id"))
            #expect(sighting["kind"] as String == "catalog")
            #expect(sighting["logged_species_id"] as String == "cccccccc-1111-4111-8111-111111111111")
        }
    }

    /// One dive from computer A (with a sighting) and from computer B, a minute apart.
    func twoComputers(in dir: String) throws -> (a: String, b: String) {
        let a = try divejson(["""
            {"uuid": "e1000000-0000-4000-8000-00000000000a", "started_at": "2020-01-01T09:00:00", "max_depth": 18, "recordings": [{"device": {"model": "A"}}],
             "sightings": [{"species_uuid": "e2000000-0000-4000-8000-000000000001", "count": 2}]}
            """], #""species": [{"uuid": "e2000000-0000-4000-8000-000000000001", "scientific_name": "Chelonia mydas"}]"#, in: dir, name: "a.divejson")
        let b = try divejson(["""
            {"uuid": "e1000000-0000-4000-8000-00000000000b", "started_at": "2020-01-01T09:01:00", "max_depth": 18.2, "recordings": [{"device": {"model": "B"}}]}
            """], in: dir, name: "b.divejson")
        return (a, b)
    }

    func models(_ log: TemporaryLogbook) throws -> [String] {
        try log.store.read { db in try String.fetchAll(db, sql: "SELECT device_model FROM recording ORDER BY device_model") }
    }

    @Test("a backup's sources count only with what they brought: a dive left as the logbook had it does not claim the other computer's file, and a merge adds no recording twice")
    func sourcesOnlyWithTheirData() throws {
        let log = try TemporaryLogbook()
        let (a, b) = try twoComputers(in: log.directory)
        _ = try log.store.seedCatalog()
        _ = log.store.importLogbooks([b])
        _ = log.store.importLogbooks([a], options: ImportOptions(onDuplicate: .merge))
        _ = try log.store.backfill()
        let (_, backup, _) = try restored(log)
        // A logbook with B's dive only: the backup is skipped as its duplicate; A imported later still merges.
        let onlyB = try TemporaryLogbook()
        _ = try onlyB.store.seedCatalog()
        _ = onlyB.store.importLogbooks([b])
        #expect(onlyB.store.importLogbooks([backup]).duplicates == 1)
        #expect(onlyB.store.importLogbooks([a], options: ImportOptions(onDuplicate: .merge)).merged == 1)
        #expect(try models(onlyB) == ["A", "B"])
        // A logbook with A's dive: merging the backup adds B's recording once, and no second sighting.
        let onlyA = try TemporaryLogbook()
        _ = try onlyA.store.seedCatalog()
        _ = onlyA.store.importLogbooks([a])
        #expect(onlyA.store.importLogbooks([backup], options: ImportOptions(onDuplicate: .merge)).merged == 1)
        #expect(try models(onlyA) == ["A", "B"])
        #expect(try onlyA.count("sighting") == 1)
        #expect(try onlyA.store.check().isEmpty)
    }

    @Test("a file a scoped backup holds only part of is read in full when it is imported later")
    func partialFile() throws {
        let log = try TemporaryLogbook()
        _ = log.store.importLogbooks([Paths.samples + "/logbook.uddf"])
        let number = try log.store.read { db in try Int.fetchOne(db, sql: "SELECT min(number) FROM dive") }
        let (copy, _, report) = try restored(log, scope: ExportScope(diveNumber: number))
        #expect(report.inserted == 1)
        let again = copy.store.importLogbooks([Paths.samples + "/logbook.uddf"])
        #expect(again.inserted == 4 && again.alreadyImported == 1)
        #expect(try copy.store.importLogbooks([Paths.samples + "/logbook.uddf"]).inserted == 0)
    }

    @Test("a catalog record restored into a logbook that was not seeded is kept as the log's, and reported")
    func unseeded() throws {
        let (log, _, _) = try BackfillTests().logbook()
        _ = try log.store.backfill()
        let exported = log.directory + "/backup.divejson"
        _ = DiveKit.convert(source: try LogbookExport(store: log.store, logbookState: true), name: log.path,
                            options: ConvertOptions(to: .json, output: exported), standardOutput: MemorySink())
        let bare = try TemporaryLogbook()
        let report = bare.store.importLogbooks([exported])
        #expect(report.exitCode == 0 && report.inserted == 4)
        let notes = report.files[0].findings.filter { $0.code == "store.state-unresolved" }
        #expect(notes.count >= 2 && notes.allSatisfy { $0.message.contains("db init --seed") })
    }

    @Test("members of a umilog entry that are not the logbook's state are data: stored with the record, exported back as they were before the state, and imported again adding nothing")
    func dataUnderUmilog() throws {
        let log = try TemporaryLogbook()
        _ = try log.store.seedCatalog()
        let channels = #"[{"name": "ceiling", "times": [0, 60000], "values": [0, 30]}]"#
        let path = try divejson(["""
            {"uuid": "e4000000-0000-4000-8000-000000000001", "started_at": "2020-03-01T09:00:00", "max_depth": 20,
             "extensions": {"umilog": {"surface_interval": 3600}, "other.app": {"mood": "calm"}},
             "recordings": [{"device": {"model": "X"}, "extensions": {"umilog": {"highest_ppo2": 1.40}},
               "profile": {"duration": 60000, "depth": {"times": [0, 60000], "values": [0, 100]},
                           "extensions": {"umilog": {"channels": \(channels)}}}}]},
            {"uuid": "e4000000-0000-4000-8000-000000000002", "started_at": "2020-03-02T09:00:00", "max_depth": 12,
             "extensions": {"umilog": {"surface_interval": "infinity", "status": "pending"}}}
            """], in: log.directory, name: "data.divejson")
        let first = log.store.importLogbooks([path])
        #expect(first.exitCode == 0 && first.inserted == 2 && first.files[0].findings.isEmpty)
        try log.store.read { db throws in
            let details = try String.fetchAll(db, sql: "SELECT detail FROM dive ORDER BY id")
            #expect(details.count == 2 && details.allSatisfy { $0.contains("surface_interval") && !$0.contains("pending") })
            // A state member beside data is still state.
            #expect(try String.fetchAll(db, sql: "SELECT status FROM dive ORDER BY id") == ["new", "pending"])
            #expect(try String.fetchOne(db, sql: "SELECT detail FROM recording")?.contains("highest_ppo2") == true)
        }
        let (copy, backup, restoredReport) = try restored(log)
        #expect(restoredReport.exitCode == 0 && restoredReport.inserted == 2 && restoredReport.files[0].findings.isEmpty)
        // The backup carries the data members unchanged, the state members after them.
        let reader = try openReader(path: backup, format: .json)
        var dives: [Dive] = []
        while let d = try reader.next() { dives.append(d) }
        let sha = try #require(try log.digest(ofFile: "data.divejson"))
        #expect(dives.count == 2)
        let dive = try #require(dives.first)
        let entries = try #require(dive.extensions.flatMap { if case .object(let m) = $0 { m } else { nil } })
        #expect(entries.map(\.name) == ["umilog", "other.app"])
        #expect(umilogMembers(dive.extensions).map(\.name) == ["surface_interval", "sources"])
        #expect(umilogMembers(dive.extensions).first?.value == .number("3600"))
        #expect(dive.extensions?["other.app"] == .object([.init("mood", .string("calm"))]))
        let recording = try #require(dive.recordings.first)
        #expect(umilogMembers(recording.extensions) == [.init("highest_ppo2", .number("1.40")), .init("source_file", .string(sha))])
        let numbers = { (n: [String]) in ExtensionValue.array(n.map(ExtensionValue.number)) }
        let channelsValue = ExtensionValue.array([.object([.init("name", .string("ceiling")), .init("times", numbers(["0", "60000"])), .init("values", numbers(["0", "30"]))])])
        #expect(recording.profile?.extensions == .object([.init("umilog", .object([.init("channels", channelsValue)]))]))
        #expect(umilogMembers(dives.last?.extensions).map(\.name) == ["surface_interval", "status", "sources"])
        #expect(umilogMembers(dives.last?.extensions).first?.value == .string("infinity"))
        // Restored exactly, and imported again (into the copy, into the logbook it came from) it adds nothing.
        #expect(try copy.tables() == log.tables())
        for target in [copy, log] {
            let before = try target.tables()
            let again = target.store.importLogbooks([backup])
            #expect(again.exitCode == 0 && again.inserted == 0 && again.alreadyImported == 2)
            #expect(try target.tables() == before)
        }
        #expect(log.store.importLogbooks([path]).alreadyImported == 2)
    }

    /// The members of the `umilog` entry of `extensions`, in order.
    func umilogMembers(_ extensions: ExtensionValue?) -> [ExtensionValue.Member] {
        if case .object(let members)? = extensions?["umilog"] { members } else { [] }
    }

    @Test("state a DiveJSON file's umilog entries give that the logbook cannot take is reported, and the dives import")
    func unresolvedState() throws {
        let log = try TemporaryLogbook()
        let path = try divejson(["""
            {"uuid": "d1000000-0000-4000-8000-000000000001", "started_at": "2024-07-01T10:00:00", "site_uuids": ["d2000000-0000-4000-8000-000000000001"],
             "extensions": {"umilog": {"status": "lost", "sources": [{"source_file": "00ff", "record_index": 3}]}, "other.app": {"mood": "great"}}}
            """], """
            "sites": [{"uuid": "d2000000-0000-4000-8000-000000000001", "name": "Somewhere",
                       "extensions": {"umilog": {"canonical_site_uuid": "d3000000-0000-4000-8000-000000000001", "list_state": "dreamed"}}}],
            "extensions": {"umilog": {"source_files": [{"name": "no digest"}]}}
            """, in: log.directory, name: "odd.divejson")
        let report = log.store.importLogbooks([path])
        #expect(report.exitCode == 0 && report.inserted == 1)
        #expect(report.files[0].findings.filter { $0.code == "store.state-unresolved" }.count == 5)
        try log.store.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT status FROM dive") == "new")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM list_state") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM source_file") == 1)
            // Another producer's entry stays in the dive's detail; the umilog entry does not.
            let detail = try #require(try String.fetchOne(db, sql: "SELECT detail FROM dive"))
            #expect(detail.contains("other.app") && !detail.contains("umilog"))
        }
    }
}
