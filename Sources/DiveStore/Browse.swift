import DiveCore
import DiveJSON
import Foundation
import GRDB

/// Which dives a list takes (`umilog dives`, the app's History screen).
public struct DiveListQuery: Sendable, Hashable {
    /// Dives at a site whose name or an alias holds every word of this (case, accents and
    /// punctuation folded; a log site matched to a catalog site answers to both names).
    public var site: String?
    /// Dives on or after this day.
    public var since: LocalDate?
    /// Dives on or before this day; with `since`, a closed range.
    public var until: LocalDate?
    /// At most this many, the earliest first; nil for all.
    public var limit: Int?
    /// Makes a query; every criterion left `nil` matches all dives.
    public init(site: String? = nil, since: LocalDate? = nil, until: LocalDate? = nil, limit: Int? = nil) {
        self.site = site; self.since = since; self.until = until; self.limit = limit
    }
}

/// A dive as a list shows it.
public struct DiveListItem: Sendable, Hashable {
    /// The dive's id (its UUID), which `show` and export take.
    public var id: String
    /// The diver's own dive number; `nil` when the source gave none.
    public var number: Int?
    /// The day, `YYYY-MM-DD`; nil for an undated dive.
    public var date: String?
    /// The time of day as recorded (`HH:MM:SS`).
    public var startTime: String?
    /// The UTC offset as recorded (`+02:00`).
    public var utcOffset: String?
    /// The name of the dive's primary site; `nil` when it has none.
    public var siteName: String?
    /// Metres.
    public var maxDepth: Double?
    /// Seconds.
    public var bottomTime: Int?
    /// °C.
    public var waterTemperature: Double?
    /// Backfill's status: `new`, `matched`, `unmatched` or `pending`.
    public var status: String
}

/// A species as a search shows it, with how many of the logbook's sightings are of it.
public struct SpeciesSummary: Sendable, Hashable {
    /// The species' id (a UUID).
    public var id: String
    /// The Latin name, when known.
    public var scientificName: String?
    /// The common name, when known.
    public var commonName: String?
    /// `catalog` (the bundled catalog) or `log` (named by an imported dive log).
    public var kind: String
    /// How many of the logbook's sightings are of this species.
    public var sightings: Int
}

/// A site and how far it lies from a point.
public struct SiteDistance: Sendable, Hashable {
    /// The site.
    public var site: SiteSummary
    /// Metres, along the Earth's surface (a sphere of radius 6 371 km).
    public var distance: Double
}

/// SQL that is true for a `site` row whose folded name, or one of its aliases, holds every word
/// of a text (whole words: "hole" finds "Blue Hole", not "Holes").
enum SiteWords {
    /// The clause over a `site` row's `name` and `id`, and its arguments; nil for a text with no word.
    static func clause(_ text: String) -> (sql: String, arguments: [DatabaseValueConvertible?])? {
        let words = Names.normalized(text).split(separator: " ").map { "% \($0) %" }
        guard !words.isEmpty else { return nil }
        let onName = words.map { _ in "(' ' || umilog_fold(name) || ' ') LIKE ?" }.joined(separator: " AND ")
        let onAlias = words.map { _ in "(' ' || normalized || ' ') LIKE ?" }.joined(separator: " AND ")
        return ("((\(onName)) OR id IN (SELECT site_id FROM site_alias WHERE \(onAlias)))", words + words)
    }

    /// The clause over a `dive` row: its site, or the catalog site its log site is matched to,
    /// answers to the text.
    static func diveClause(_ text: String) -> (sql: String, arguments: [DatabaseValueConvertible?])? {
        guard let (c, a) = clause(text) else { return nil }
        return ("""
            site_id IN (SELECT s.id FROM site s WHERE s.id IN (SELECT id FROM site WHERE \(c))
               OR s.canonical_site_id IN (SELECT id FROM site WHERE \(c)))
            """, a + a)
    }
}

extension LogbookStore {
    /// The dives the query takes, in the order they were dived (undated ones last).
    public func dives(_ query: DiveListQuery = DiveListQuery()) throws -> [DiveListItem] {
        var clauses: [String] = []
        var arguments: [DatabaseValueConvertible?] = []
        if let f = query.since { clauses.append("d.date >= ?"); arguments.append(f.description) }
        if let t = query.until { clauses.append("d.date <= ?"); arguments.append(t.description) }
        if let text = query.site {
            // A text with no word (punctuation only) matches no site.
            guard let (c, a) = SiteWords.diveClause(text) else { return [] }
            clauses.append("d." + c)
            arguments += a
        }
        let whereClause = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        let limit = query.limit.map { " LIMIT \(max(0, $0))" } ?? ""
        return try read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.number, d.date, d.start_time, d.utc_offset, s.name AS site_name, d.max_depth, d.bottom_time,
                       d.water_temperature, d.status
                FROM dive d LEFT JOIN site s ON s.id = d.site_id \(whereClause)
                ORDER BY d.start_key IS NULL, d.start_key, d.number, d.id\(limit)
                """, arguments: StatementArguments(arguments)).map {
                DiveListItem(id: $0["id"], number: $0["number"], date: $0["date"], startTime: $0["start_time"], utcOffset: $0["utc_offset"],
                             siteName: $0["site_name"], maxDepth: $0["max_depth"], bottomTime: $0["bottom_time"],
                             waterTemperature: $0["water_temperature"], status: $0["status"])
            }
        }
    }

    /// The dives numbered `number` in full (a number given twice — by two sources — gives each),
    /// with the records they refer to, read as `export` reads them.
    public func dives(numbered number: Int) throws -> (dives: [Dive], header: LogbookHeader) {
        let export = try LogbookExport(store: self, scope: ExportScope(diveNumber: number))
        var out: [Dive] = []
        while let d = try export.next() { out.append(d) }
        return (out, export.header)
    }

    /// Species whose scientific name or one of whose common names holds every word of `text`
    /// (prefixes too: "clown" finds "clownfish"), accents folded, best first.
    public func searchSpecies(_ text: String, limit: Int = 20) throws -> [SpeciesSummary] {
        let words = Names.normalized(text).split(separator: " ").map { "\"\($0)\"*" }
        guard !words.isEmpty else { return [] }
        return try read { db in
            try Row.fetchAll(db, sql: """
                SELECT sp.id, sp.scientific_name, sp.common_name, sp.kind,
                       (SELECT count(*) FROM sighting g WHERE g.species_id = sp.id) AS n
                FROM species_fts f JOIN species sp ON sp.rowid = f.rowid
                WHERE species_fts MATCH ? ORDER BY bm25(species_fts), sp.scientific_name LIMIT ?
                """, arguments: [words.joined(separator: " "), limit]).map {
                SpeciesSummary(id: $0["id"], scientificName: $0["scientific_name"], commonName: $0["common_name"], kind: $0["kind"], sightings: $0["n"])
            }
        }
    }

    /// The sites within `radius` metres of a point, nearest first: the R*Tree of site positions
    /// gives the box around the circle, the great-circle distance the circle (log sites matched
    /// to a catalog site are left out, as ``fetchInBounds(minLat:maxLat:minLon:maxLon:limit:)``).
    public func sitesNear(latitude: Double, longitude: Double, radius: Double, limit: Int = 50) throws -> [SiteDistance] {
        // The box around the circle: its latitude extent, and the longitude extent at the
        // latitude where the circle is widest (the whole world when it reaches a pole).
        let angular = radius / 6_371_000
        let dLat = angular * 180 / .pi
        let cosLat = cos(latitude * .pi / 180)
        let dLon = sin(angular) < cosLat ? asin(sin(angular) / cosLat) * 180 / .pi : 180
        let boxes: [(Double, Double)] = {
            let w = longitude - dLon, e = longitude + dLon
            if dLon >= 180 { return [(-180, 180)] }
            if w < -180 { return [(w + 360, 180), (-180, e)] }
            if e > 180 { return [(w, 180), (-180, e - 360)] }
            return [(w, e)]
        }()
        var found: [SiteDistance] = []
        for (w, e) in boxes {
            for s in try fetchInBounds(minLat: max(-90, latitude - dLat), maxLat: min(90, latitude + dLat), minLon: w, maxLon: e, limit: Int.max) {
                guard let lat = s.latitude, let lon = s.longitude else { continue }
                let d = Self.greatCircle(latitude, longitude, lat, lon)
                if d <= radius { found.append(SiteDistance(site: s, distance: d)) }
            }
        }
        return Array(found.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.site.name < $1.site.name }.prefix(limit))
    }

    /// Metres between two points on a sphere of radius 6 371 km (haversine).
    static func greatCircle(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_000.0, p = Double.pi / 180
        let a = sin((lat2 - lat1) * p / 2) * sin((lat2 - lat1) * p / 2) + cos(lat1 * p) * cos(lat2 * p) * sin((lon2 - lon1) * p / 2) * sin((lon2 - lon1) * p / 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }
}
