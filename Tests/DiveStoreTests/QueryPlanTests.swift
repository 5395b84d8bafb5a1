import DiveCore
@testable import DiveStore
import Foundation
import GRDB
import Testing

/// The query plans of what the app asks of a logbook (issue 21, point 4): no statement the
/// repository queries, the site export or the wizard's save run reads the whole of the `dive`,
/// `sighting` or `site` table, but for the scans listed here with why each is the query's own
/// work. SQLite chooses plans from the schema alone (a logbook is never `ANALYZE`d), so a
/// small logbook gets the plans a 20,000-dive one gets; Benchmarks.md has the timings.
@Suite struct QueryPlanTests {
    /// Collects the statements a logbook's connections run.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var statements: [String] = []
        func record(_ sql: String) { lock.withLock { statements.append(sql) } }
        func take() -> [String] { lock.withLock { defer { statements.removeAll() }; return statements } }
    }

    /// The full scans allowed, by operation and table, with why. Every one must still occur, so
    /// the list says what the plans are.
    static let allowed: [String: [String: String]] = [
        // The figures are over every dive: its count, total time, years and the distinct
        // places and species (each a single pass; the deepest and the longest are index lookups).
        "stats": [
            "dive": "counts, sums and groups by year over every dive",
            "sighting": "the distinct species of every sighting (through the covering index sighting_species)",
        ],
        // The History list is every dive.
        "dives": ["dive": "the list is every dive"],
        // A site named by any words of its name or aliases ("reef" in "Shark Reef"): the folded
        // name is compared word by word with LIKE '% word %', which no index answers. The site
        // table is the catalog and the sites dive logs brought (hundreds to a few thousand
        // rows, not the dives); the dives are then looked up through dive_site.
        "dives(site:)": ["site": "the site name's words are matched with LIKE over every site (no index answers '% word %')"],
        "export --site": ["site": "the site name's words are matched with LIKE over every site (no index answers '% word %')"],
    ]

    /// A seeded logbook with dives at catalog sites (one in the Red Sea), at a log site matched
    /// to a catalog site, and with sightings of catalog species.
    private func logbook() throws -> (log: TemporaryLogbook, site: (name: String, lat: Double, lon: Double)) {
        let log = try TemporaryLogbook()
        _ = try log.store.seedCatalog()
        let (sites, species) = try log.store.read { db in
            (try Row.fetchAll(db, sql: """
                SELECT s.id, s.name, s.lat, s.lon FROM site s JOIN area a ON a.id = s.area_id
                WHERE s.kind = 'catalog' AND s.lat IS NOT NULL AND a.region_id = 'red-sea' ORDER BY s.rowid LIMIT 3
                """).map { (id: $0["id"] as String, name: $0["name"] as String, lat: $0["lat"] as Double, lon: $0["lon"] as Double) },
             try String.fetchAll(db, sql: "SELECT id FROM species WHERE kind = 'catalog' ORDER BY rowid LIMIT 4"))
        }
        try #require(sites.count == 3 && species.count == 4)
        var header = LogbookHeader()
        var logSite = Site(uuid: "5b000000-0000-4000-8000-000000000001", name: sites[0].name)
        logSite.position = Position(latitude: sites[0].lat + 0.0003, longitude: sites[0].lon)
        header.sites = [logSite]
        var dives: [Dive] = []
        for n in 0..<12 {
            var d = Dive(uuid: "5a000000-0000-4000-8000-0000000000\(String(format: "%02d", n))",
                         startedAt: DiveDateTime(date: LocalDate(year: 2024, month: 3, day: 1 + n)!, time: TimeOfDay(hour: 9, minute: 0)))
            d.number = n + 1
            d.siteUUIDs = [n % 4 == 3 ? logSite.uuid : sites[n % 3].id]
            d.maxDepth = Double(10 + n)
            d.submergedTime = 2_400 + 60 * n
            d.sightings = [Sighting(speciesUUID: species[n % 4], count: 1), Sighting(speciesUUID: species[(n + 1) % 4])]
            dives.append(d)
        }
        try log.store.save(dives, header: header)
        return (log, (sites[0].name, sites[0].lat, sites[0].lon))
    }

    /// `table alias` pairs of a statement (`FROM dive d`, `JOIN site AS c`), and each table by its own name.
    static func aliases(_ sql: String) -> [String: String] {
        let keywords: Set<String> = ["where", "on", "left", "join", "inner", "cross", "order", "group", "limit", "using", "natural",
                                     "union", "having", "set", "values", "as", "indexed", "not"]
        var out: [String: String] = [:]
        for m in sql.matches(of: /(?i)\b(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/) {
            let table = String(m.1).lowercased()
            out[table] = table
            if let a = m.2.map({ String($0) }), !keywords.contains(a.lowercased()) { out[a] = table }
        }
        return out
    }

    /// The tables of `watched` each statement reads whole ("SCAN x", not through a virtual
    /// table's index), with the plan lines.
    static func scans(_ statements: [String], in store: LogbookStore, watched: Set<String>) throws -> (tables: [String: [String]], plans: [String]) {
        var tables: [String: [String]] = [:], plans: [String] = []
        for sql in statements where sql.range(of: #"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b"#, options: [.regularExpression, .caseInsensitive]) != nil {
            let plan = try store.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String } }
            let names = aliases(sql)
            plans.append(sql + "\n  " + plan.joined(separator: "\n  "))
            for line in plan where line.hasPrefix("SCAN ") && !line.contains("VIRTUAL TABLE") && line != "SCAN CONSTANT ROW" {
                let name = String(line.dropFirst(5).prefix { $0 != " " })
                if let table = names[name], watched.contains(table) { tables[table, default: []].append(line) }
            }
        }
        return (tables, plans)
    }

    @Test("the app's queries, the site export and the wizard's save read no whole dive, sighting or site table but where the query's own work is every row")
    func noScansButTheQueriesOwn() throws {
        let (log, site) = try logbook()
        let recorder = Recorder()
        let store = try LogbookStore(path: log.path, limits: .standard, statements: { recorder.record($0) })
        let siteID = try store.read { db in try String.fetchOne(db, sql: "SELECT id FROM site WHERE name = ? AND kind = 'catalog'", arguments: [site.name]) }
        let twoSpecies = try store.read { db in try String.fetchAll(db, sql: "SELECT id FROM species WHERE kind = 'catalog' ORDER BY rowid LIMIT 2") }
        // Each operation, and how many rows (dives, sites, species) it must give.
        let operations: [(name: String, expected: Int?, run: () throws -> Int)] = [
            ("stats", 12, { try store.stats().dives }),
            ("fetchInBounds", nil, { try store.fetchInBounds(minLat: site.lat - 1, maxLat: site.lat + 1, minLon: site.lon - 1, maxLon: site.lon + 1).count }),
            ("sitesNear", nil, { try store.sitesNear(latitude: site.lat, longitude: site.lon, radius: 20_000).count }),
            ("searchSites", nil, { try store.searchSites(site.name).count }),
            ("searchSpecies", nil, { try store.searchSpecies("fish").count }),
            ("popular", 4, { try store.popular().count }),
            ("popular(region:)", 4, { try store.popular(region: "red-sea").count }),
            ("dives", 12, { try store.dives().count }),
            ("dives(site:)", 6, { try store.dives(DiveListQuery(site: site.name)).count }),
            ("dives(numbered:)", 1, { try store.dives(numbered: 3).dives.count }),
            ("export --site", 6, {
                let export = try LogbookExport(store: store, scope: ExportScope(site: site.name))
                var n = 0
                while try export.next() != nil { n += 1 }
                return n
            }),
            ("save", 1, {
                var d = Dive(uuid: "5a000000-0000-4000-8000-0000000000ff", startedAt: DiveDateTime(date: LocalDate(year: 2024, month: 4, day: 1)!, time: TimeOfDay(hour: 10, minute: 0)))
                d.siteUUIDs = siteID.map { [$0] } ?? []
                d.sightings = twoSpecies.map { Sighting(speciesUUID: $0) }
                return try store.save([d]).saved.count
            }),
        ]
        var found: [String: [String: [String]]] = [:]
        for (name, expected, run) in operations {
            _ = recorder.take()
            let rows = try run()
            if let expected { #expect(rows == expected, "\(name)") } else { #expect(rows > 0, "\(name)") }
            let statements = recorder.take()
            let (tables, plans) = try Self.scans(statements, in: store, watched: ["dive", "sighting", "site"])
            #expect(!plans.isEmpty, "\(name) ran no statement the recorder saw")
            found[name] = tables
            for (table, lines) in tables where Self.allowed[name]?[table] == nil {
                Issue.record("\(name) reads the whole \(table) table (\(lines.joined(separator: "; "))):\n\(plans.joined(separator: "\n"))")
            }
            if name == "fetchInBounds" {
                #expect(plans.contains { $0.contains("SCAN r VIRTUAL TABLE INDEX") }, "fetchInBounds goes through the R*Tree")
            }
        }
        for (name, tables) in Self.allowed {
            for table in tables.keys {
                #expect(found[name]?[table] != nil, "\(name) no longer reads the whole \(table) table: take it off the allowed list")
            }
        }
    }

    @Test("popular(region:) counts the sightings of the dives at the region's sites, a log site in its matched catalog site's region")
    func popularByRegion() throws {
        let (log, _) = try logbook()
        // The region's dives found the plain way, through every dive's site and its match.
        let expected = try log.store.read { db in
            try Row.fetchAll(db, sql: """
                SELECT g.species_id, count(*) AS n FROM sighting g JOIN dive d ON d.id = g.dive_id JOIN site s ON s.id = d.site_id
                LEFT JOIN site c ON c.id = s.canonical_site_id JOIN area a ON a.id = coalesce(c.area_id, s.area_id)
                WHERE a.region_id = 'red-sea' GROUP BY g.species_id
                """).reduce(into: [String: Int]()) { $0[$1["species_id"]] = $1["n"] }
        }
        #expect(expected.values.reduce(0, +) == 24)
        #expect(try log.store.popular(limit: 100, region: "red-sea").reduce(into: [String: Int]()) { $0[$1.id] = $1.sightings } == expected)
        #expect(try log.store.popular(region: "caribbean").isEmpty)
        // The dives at the log site count in the Red Sea only through its match.
        try log.store.write { db in try db.execute(sql: "UPDATE site SET canonical_site_id = NULL WHERE kind = 'log'") }
        #expect(try log.store.popular(limit: 100, region: "red-sea").reduce(0) { $0 + $1.sightings } == 18)
    }

    @Test func aliasesOfAStatement() {
        #expect(Self.aliases("SELECT d.id FROM dive d LEFT JOIN site AS s ON s.id = d.site_id WHERE x IN (SELECT id FROM site WHERE 1)")
            == ["dive": "dive", "d": "dive", "site": "site", "s": "site"])
    }
}
