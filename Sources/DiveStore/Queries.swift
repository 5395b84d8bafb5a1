import DiveCore
import GRDB

/// A site as the app's map and lists show it.
public struct SiteSummary: Sendable, Hashable {
    /// The site's id (a UUID).
    public var id: String
    /// Its name.
    public var name: String
    /// Its position, degrees north, when it has one.
    public var latitude: Double?
    /// Degrees east.
    public var longitude: Double?
    /// The catalog area it lies in, when known.
    public var areaID: String?
    /// `catalog` (the seed catalog's), `log` (brought by a dive log) or `user` (made from dives' positions).
    public var kind: String
}

/// A species with how often the logbook's dives saw it.
public struct SpeciesCount: Sendable, Hashable {
    /// The species' id (a UUID).
    public var id: String
    /// Its scientific name, when known.
    public var scientificName: String?
    /// Its common name, when known.
    public var commonName: String?
    /// How many sightings of it the logbook's dives record.
    public var sightings: Int
}

extension LogbookStore {
    /// The sites inside a box, through the R*Tree of site positions (log sites matched to a
    /// catalog site are left out: their catalog site stands for them).
    public func fetchInBounds(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double, limit: Int = 500) throws -> [SiteSummary] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.id, s.name, s.lat, s.lon, s.area_id, s.kind FROM site_rtree r JOIN site s ON s.rowid = r.rowid
                WHERE r.min_lat >= ? AND r.max_lat <= ? AND r.min_lon >= ? AND r.max_lon <= ? AND s.canonical_site_id IS NULL
                ORDER BY s.name COLLATE NOCASE LIMIT ?
                """, arguments: [minLat, maxLat, minLon, maxLon, limit]).map(Self.site)
        }
    }

    /// Sites whose name or aliases match `text` word by word (prefixes too), accents folded,
    /// best first.
    public func searchSites(_ text: String, limit: Int = 20) throws -> [SiteSummary] {
        let words = Names.normalized(text).split(separator: " ").map { "\"\($0)\"*" }
        guard !words.isEmpty else { return [] }
        return try read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.id, s.name, s.lat, s.lon, s.area_id, s.kind FROM site_fts f JOIN site s ON s.rowid = f.rowid
                WHERE site_fts MATCH ? ORDER BY bm25(site_fts, 4.0, 1.0) LIMIT ?
                """, arguments: [words.joined(separator: " "), limit]).map(Self.site)
        }
    }

    /// The species seen most often on the logbook's dives, optionally only on dives at sites of
    /// one region (a catalog region id).
    public func popular(limit: Int = 12, region: String? = nil) throws -> [SpeciesCount] {
        try read { db in
            // A site lies in the area of the catalog site it was matched to, else in its own.
            // The sites are found from the region's areas and the dives from their sites, each
            // through an index, so that a region's dives cost what they are, not the logbook.
            let regionFilter = region == nil ? "" : """
                AND g.dive_id IN (SELECT d.id FROM dive d WHERE d.site_id IN (
                  SELECT s.id FROM area a JOIN site s ON s.area_id = a.id WHERE a.region_id = ?
                    AND (s.canonical_site_id IS NULL OR (SELECT c.area_id FROM site c WHERE c.id = s.canonical_site_id) IS NULL)
                  UNION ALL
                  SELECT s.id FROM area a JOIN site c ON c.area_id = a.id JOIN site s ON s.canonical_site_id = c.id WHERE a.region_id = ?))
                """
            var arguments: [DatabaseValueConvertible?] = []
            if let region { arguments += [region, region] }
            arguments.append(limit)
            return try Row.fetchAll(db, sql: """
                SELECT sp.id, sp.scientific_name, sp.common_name, count(*) AS n FROM sighting g JOIN species sp ON sp.id = g.species_id
                WHERE 1 \(regionFilter) GROUP BY sp.id ORDER BY n DESC, sp.scientific_name LIMIT ?
                """, arguments: StatementArguments(arguments)).map {
                SpeciesCount(id: $0["id"], scientificName: $0["scientific_name"], commonName: $0["common_name"], sightings: $0["n"])
            }
        }
    }

    private static func site(_ r: Row) -> SiteSummary {
        SiteSummary(id: r["id"], name: r["name"], latitude: r["lat"], longitude: r["lon"], areaID: r["area_id"], kind: r["kind"])
    }
}
