import DiveCore
import Foundation
import GRDB

/// How ``LogbookStore/backfill(_:)`` places dives.
public struct BackfillOptions: Sendable {
    /// How far from a dive's position a site may lie to be its site, metres.
    public var radius: Double = 200
    /// Number the dives in the order they were dived when the sources' numbers are missing or clash.
    public var renumber = false
    /// Decide everything in a transaction that is rolled back: the report says what a run would change.
    public var dryRun = false
    /// Options with the command line's defaults: a 200 m radius, no renumbering, changes made.
    public init(radius: Double = 200, renumber: Bool = false, dryRun: Bool = false) {
        self.radius = radius; self.renumber = renumber; self.dryRun = dryRun
    }
}

/// One change backfill made (or, in a dry run, would make).
public struct BackfillChange: Sendable, Hashable, CustomStringConvertible {
    /// `site-matched`, `site-ambiguous`, `status`, `visited`, `species-resolved`, `renumbered`, `site-created`.
    public var code: String
    /// What changed, for a person ("dive 3 2024-03-02: matched").
    public var message: String
    /// The change as `umilog backfill` prints it: `code: message`.
    public var description: String { "\(code): \(message)" }
}

/// What backfill (or creating sites from positions) changed, or in a dry run would change.
public struct BackfillReport: Sendable {
    /// Every change, in the order it was made.
    public var changes: [BackfillChange] = []
    /// Dives left unplaced because two or more sites fit (`site-ambiguous`): not changes, so a
    /// second run lists them again and changes nothing.
    public var ambiguous: [BackfillChange] = []
    /// True when nothing was written (``BackfillOptions/dryRun``).
    public var dryRun = false
    /// How many changes have `code` (`site-matched`, `visited`, …).
    public func count(_ code: String) -> Int { changes.count { $0.code == code } }
}

/// A dive that backfill could not place: no site near its position, or no position and no
/// name that names one site.
public struct PendingDive: Sendable, Hashable {
    /// The dive's id.
    public var id: String
    /// The dive's number in the logbook, when it has one.
    public var number: Int?
    /// The day it was dived (`YYYY-MM-DD`), when known.
    public var date: String?
    /// The name of its log site, when it has one.
    public var siteName: String?
    /// Where it was dived — its site's position, else its entry position — in degrees.
    public var latitude: Double?
    /// The longitude of that position, degrees east.
    public var longitude: Double?
    /// `unmatched` (a position, no site near it) or `pending` (neither a position nor a site name that names one site).
    public var status: String
}

extension LogbookStore {
    /// Gives past dives their place: each dive is matched to a catalog or user site by its
    /// position (within `radius`) and its site's name or alias, never when two candidates
    /// remain; matched sites are marked visited; logged species resolve to the catalog's by
    /// name; `renumber` numbers the dives in the order they were dived when numbers are
    /// missing or clash. Every change is reported; a second run changes nothing.
    public func backfill(_ options: BackfillOptions = BackfillOptions()) throws -> BackfillReport {
        var report = BackfillReport()
        report.dryRun = options.dryRun
        try located { try pool.writeWithoutTransaction { db in
            try db.inTransaction {
                var b = Backfill(db: db, radius: options.radius)
                report.changes = try b.run(renumber: options.renumber)
                report.ambiguous = b.ambiguous
                return options.dryRun ? .rollback : .commit
            }
        } }
        return report
    }

    /// Dives with no site: `unmatched` (a position, no site near it) and `pending` (neither).
    public func pendingDives() throws -> [PendingDive] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.number, d.date, d.status, s.name AS site_name,
                  coalesce(s.lat, d.entry_lat) AS lat, coalesce(s.lon, d.entry_lon) AS lon
                FROM dive d LEFT JOIN site s ON s.id = d.site_id
                WHERE d.status IN ('pending', 'unmatched') ORDER BY d.start_key, d.id
                """).map { PendingDive(id: $0["id"], number: $0["number"], date: $0["date"], siteName: $0["site_name"],
                                       latitude: $0["lat"], longitude: $0["lon"], status: $0["status"]) }
        }
    }

    /// Makes a user site for each group of `unmatched` dives (positions within `radius` of the
    /// group's first), named after their log site or their position, and places them there.
    public func createSitesFromGPS(radius: Double = 200, dryRun: Bool = false) throws -> BackfillReport {
        var report = BackfillReport()
        report.dryRun = dryRun
        try located { try pool.writeWithoutTransaction { db in
            try db.inTransaction {
                var b = Backfill(db: db, radius: radius)
                report.changes = try b.createSites()
                return dryRun ? .rollback : .commit
            }
        } }
        return report
    }
}

struct Backfill {
    let db: Database
    let radius: Double
    var changes: [BackfillChange] = []
    var ambiguous: [BackfillChange] = []

    init(db: Database, radius: Double) { self.db = db; self.radius = radius }

    mutating func run(renumber: Bool) throws -> [BackfillChange] {
        try placeDives()
        try resolveSpecies()
        if renumber { try renumberDives() }
        return changes
    }

    private mutating func change(_ code: String, _ message: String) { changes.append(BackfillChange(code: code, message: message)) }

    /// Where a dive was: its site (log, catalog or user) and its position.
    private struct Place { var dive: String; var label: String; var site: Row?; var lat: Double?; var lon: Double?; var status: String }

    /// Where the logbook's dives were, or only the dives `only` names (a JSON array of ids).
    private func places(only: String?) throws -> [Place] {
        try Row.fetchAll(db, sql: """
            SELECT d.id, d.number, d.date, d.status, d.entry_lat, d.entry_lon, s.id AS sid, s.kind, s.name, s.lat, s.lon, s.canonical_site_id
            FROM dive d LEFT JOIN site s ON s.id = d.site_id
            \(only == nil ? "" : "WHERE d.id IN (SELECT value FROM json_each(?))")
            ORDER BY d.start_key, d.id
            """, arguments: StatementArguments(only.map { [$0] } ?? [])).map { r in
            let label = [(r["number"] as Int?).map { "dive \($0)" }, r["date"] as String?].compactMap { $0 }.joined(separator: " ")
            return Place(dive: r["id"], label: label.isEmpty ? r["id"] : label, site: (r["sid"] as String?) == nil ? nil : r,
                         lat: r["lat"] ?? r["entry_lat"], lon: r["lon"] ?? r["entry_lon"], status: r["status"])
        }
    }

    /// Places every dive of the logbook, or only the dives of `only` (a JSON array of their
    /// ids: the dives a save just added).
    mutating func placeDives(only: String? = nil) throws {
        var decided: [String: String?] = [:] // log site → the site it matched (nil: none)
        for p in try places(only: only) {
            var target: String?
            if let s = p.site, (s["kind"] as String) != "log" {
                target = s["sid"]
            } else if let s = p.site, let c: String = s["canonical_site_id"] {
                target = c
            } else {
                let logSite: String? = p.site?["sid"]
                if let logSite, let known = decided[logSite] {
                    target = known
                } else {
                    let name: String? = p.site?["name"]
                    let found = try match(name: name, lat: p.lat, lon: p.lon, label: p.label)
                    if let logSite {
                        decided[logSite] = found
                        if let found {
                            try db.execute(sql: "UPDATE site SET canonical_site_id = ? WHERE id = ?", arguments: [found, logSite])
                            change("site-matched", "\(name ?? logSite) → \(try siteName(found)) (\(p.label))")
                        }
                    } else if let found {
                        try db.execute(sql: "UPDATE dive SET site_id = ? WHERE id = ?", arguments: [found, p.dive])
                        change("site-matched", "\(p.label) at its position → \(try siteName(found))")
                    }
                    target = found
                }
            }
            let status = target != nil ? "matched" : (p.lat != nil ? "unmatched" : "pending")
            if status != p.status {
                try db.execute(sql: "UPDATE dive SET status = ? WHERE id = ?", arguments: [status, p.dive])
                change("status", "\(p.label): \(status)")
            }
            if let target {
                try db.execute(sql: """
                    INSERT INTO list_state (site_id, state) VALUES (?, 'visited')
                    ON CONFLICT (site_id) DO UPDATE SET state = 'visited' WHERE state != 'visited'
                    """, arguments: [target])
                if db.changesCount > 0 { change("visited", try siteName(target)) }
            }
        }
    }

    private func siteName(_ id: String) throws -> String {
        try String.fetchOne(db, sql: "SELECT name FROM site WHERE id = ?", arguments: [id]) ?? id
    }

    /// The one catalog or user site a dive's place names, or nil (reported when ambiguous).
    private mutating func match(name: String?, lat: Double?, lon: Double?, label: String) throws -> String? {
        var named: [String] = []
        if let name, !Names.normalized(name).isEmpty {
            let key = Names.normalized(name)
            named = try String.fetchAll(db, sql: """
                SELECT id FROM site WHERE kind != 'log' AND (umilog_fold(name) = ? OR id IN (SELECT site_id FROM site_alias WHERE normalized = ?))
                """, arguments: [key, key])
        }
        guard let lat, let lon else {
            if named.count > 1 { ambiguous.append(BackfillChange(code: "site-ambiguous", message: "\(label): \(named.count) sites are called \"\(name!)\"; not matched")) }
            return named.count == 1 ? named[0] : nil
        }
        let near = try sites(near: lat, lon)
        if near.count == 1 { return near[0] }
        if near.count > 1 {
            let both = near.filter(named.contains)
            if both.count == 1 { return both[0] }
            ambiguous.append(BackfillChange(code: "site-ambiguous", message: "\(label): \(near.count) sites lie within \(radius.isFinite && abs(radius) < 1e15 ? String(Int(radius)) : String(radius)) m; not matched"))
            return nil
        }
        // A site of the same name is it when it lies in the same waters — within 10 km (a log
        // often holds the harbour's or the boat's position) — or has no position of its own;
        // one far away is another place of that name ("Blue Hole": Dahab, Gozo, Belize).
        let plausible = try named.filter { id in
            guard let r = try Row.fetchOne(db, sql: "SELECT lat, lon FROM site WHERE id = ?", arguments: [id]),
                  let la: Double = r["lat"], let lo: Double = r["lon"] else { return true }
            return Self.distance(lat, lon, la, lo) <= max(Self.sameWaters, radius)
        }
        return plausible.count == 1 ? plausible[0] : nil
    }

    /// Catalog and user sites within the radius, nearest first.
    private func sites(near lat: Double, _ lon: Double) throws -> [String] {
        let dLat = radius / 111_320, dLon = radius / (111_320 * max(cos(lat * .pi / 180), 0.01))
        let rows = try Row.fetchAll(db, sql: """
            SELECT s.id, s.lat, s.lon FROM site_rtree r JOIN site s ON s.rowid = r.rowid
            WHERE r.min_lat <= ? AND r.max_lat >= ? AND r.min_lon <= ? AND r.max_lon >= ? AND s.kind != 'log'
            """, arguments: [lat + dLat, lat - dLat, lon + dLon, lon - dLon])
        return rows.map { ($0["id"] as String, Self.distance(lat, lon, $0["lat"], $0["lon"])) }
            .filter { $0.1 <= radius }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// How far a site of the same name may lie from a dive's position and still be its site.
    static let sameWaters = 10_000.0

    /// Great-circle distance in metres (haversine, mean Earth radius).
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, p = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * p / 2), 2) + cos(lat1 * p) * cos(lat2 * p) * pow(sin((lon2 - lon1) * p / 2), 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }

    /// Sightings of a log's species resolve to the catalog species of the same scientific name,
    /// else the one catalog species whose common names match through FTS5.
    private mutating func resolveSpecies() throws {
        let rows = try Row.fetchAll(db, sql: """
            SELECT DISTINCT sp.id, sp.scientific_name, sp.common_name FROM sighting g JOIN species sp ON sp.id = g.species_id WHERE sp.kind = 'log'
            """)
        for r in rows {
            let id: String = r["id"]
            var found: [String] = []
            if let sci: String = r["scientific_name"] {
                found = try String.fetchAll(db, sql: "SELECT id FROM species WHERE kind = 'catalog' AND lower(scientific_name) = lower(?)", arguments: [sci.trimmingWhitespace()])
            }
            if found.isEmpty, let common: String = r["common_name"], !Names.normalized(common).isEmpty {
                // FTS5 finds the names that contain the words; only a name that is the same
                // (case, accents and punctuation aside) counts: "Trumpetfish" is not
                // "Chinese trumpetfish".
                let key = Names.normalized(common)
                found = try Row.fetchAll(db, sql: """
                    SELECT s.id, s.common_name, s.names FROM species_fts f JOIN species s ON s.rowid = f.rowid WHERE species_fts MATCH ? AND s.kind = 'catalog'
                    """, arguments: ["names : \"\(key)\""]).filter { row in
                    ([row["common_name"] as String?].compactMap { $0 } + RowReader.strings(row["names"])).contains { Names.normalized($0) == key }
                }.map { $0["id"] }
            }
            guard found.count == 1 else { continue }
            try db.execute(sql: "UPDATE sighting SET species_id = ? WHERE species_id = ?", arguments: [found[0], id])
            if db.changesCount > 0 {
                let name: String = r["scientific_name"] ?? r["common_name"] ?? id
                change("species-resolved", "\(name) → \(try String.fetchOne(db, sql: "SELECT scientific_name FROM species WHERE id = ?", arguments: [found[0]]) ?? found[0]) (\(db.changesCount) sighting\(db.changesCount == 1 ? "" : "s"))")
            }
        }
    }

    /// Numbers every dive 1…n in the order they were dived, when some have no number or two share one.
    private mutating func renumberDives() throws {
        let missing = try Int.fetchOne(db, sql: "SELECT count(*) FROM dive WHERE number IS NULL") ?? 0
        let clashes = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT number FROM dive WHERE number IS NOT NULL GROUP BY number HAVING count(*) > 1)") ?? 0
        guard missing > 0 || clashes > 0 else { return }
        let ids = try String.fetchAll(db, sql: "SELECT id FROM dive ORDER BY start_key IS NULL, start_key, number, id")
        var renumbered = 0
        for (k, id) in ids.enumerated() {
            try db.execute(sql: "UPDATE dive SET number = ? WHERE id = ? AND number IS NOT ?", arguments: [k + 1, id, k + 1])
            renumbered += db.changesCount
        }
        change("renumbered", "\(renumbered) of \(ids.count) dives numbered in the order they were dived (\(missing) had no number, \(clashes) number\(clashes == 1 ? " was" : "s were") shared)")
    }

    mutating func createSites() throws -> [BackfillChange] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT d.id, d.site_id, s.name, coalesce(s.lat, d.entry_lat) AS lat, coalesce(s.lon, d.entry_lon) AS lon, s.kind
            FROM dive d LEFT JOIN site s ON s.id = d.site_id
            WHERE d.status = 'unmatched' AND coalesce(s.lat, d.entry_lat) IS NOT NULL ORDER BY d.start_key, d.id
            """)
        var made: [(id: String, lat: Double, lon: Double)] = []
        for r in rows {
            let lat: Double = r["lat"], lon: Double = r["lon"]
            var site = made.first { Self.distance(lat, lon, $0.lat, $0.lon) <= radius }?.id
            if site == nil {
                let name = (r["name"] as String?) ?? String(format: "%.5f, %.5f", lat, lon)
                let id = Identity.uuid5(namespace: LogbookStore.catalogNamespace, name: "user-site/\(lat),\(lon)")
                try db.execute(sql: "INSERT OR IGNORE INTO site (id, name, lat, lon, kind) VALUES (?, ?, ?, ?, 'user')", arguments: [id, name, lat, lon])
                made.append((id, lat, lon))
                site = id
                change("site-created", "\(name) at \(String(format: "%.5f, %.5f", lat, lon))")
            }
            if let logSite: String = r["site_id"], (r["kind"] as String?) == "log" {
                try db.execute(sql: "UPDATE site SET canonical_site_id = ? WHERE id = ? AND canonical_site_id IS NULL", arguments: [site, logSite])
            } else {
                try db.execute(sql: "UPDATE dive SET site_id = ? WHERE id = ?", arguments: [site, r["id"] as String])
            }
            try db.execute(sql: "UPDATE dive SET status = 'matched' WHERE id = ?", arguments: [r["id"] as String])
            try db.execute(sql: "INSERT INTO list_state (site_id, state) VALUES (?, 'visited') ON CONFLICT (site_id) DO UPDATE SET state = 'visited'", arguments: [site])
        }
        // A new site is one a dive without a position may now match by its site's name: placed
        // here, so that a backfill after this has nothing left to do.
        if !made.isEmpty { try placeDives() }
        return changes
    }
}
