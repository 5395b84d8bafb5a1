import DiveCore
import DiveJSON
import Foundation
import GRDB

/// What `db init --seed` loaded.
public struct SeedReport: Sendable {
    /// Regions in the catalog.
    public var regions = 0
    /// Areas in the catalog (each within a region).
    public var areas = 0
    /// Dive sites in the catalog.
    public var sites = 0
    /// Species in the catalog.
    public var species = 0
    /// Rows that were not in the logbook before.
    public var added = 0
}

extension JSONNode {
    fileprivate var number: Double? { numberText.flatMap(Double.init) }
}

extension LogbookStore {
    /// Loads the bundled catalog (`Sources/DiveStore/Resources/catalog.json`, embedded in the
    /// binary): regions → areas → sites with coordinates, species with WoRMS AphiaIDs. Rows
    /// already present are left as they are, so seeding twice adds nothing.
    public func seedCatalog() throws -> SeedReport {
        let catalog = try JSONNode.parse(Self.catalogText)
        var report = SeedReport()
        try write { db in
            func add(_ sql: String, _ arguments: StatementArguments) throws {
                try db.execute(sql: sql, arguments: arguments)
                report.added += db.changesCount
            }
            for r in catalog["regions"]?.elements ?? [] {
                let b = r["bounds"]
                try add("INSERT OR IGNORE INTO region (id, name, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?, ?)",
                        [r["id"]?.string, r["name"]?.string, b?["min_lat"]?.number, b?["max_lat"]?.number, b?["min_lon"]?.number, b?["max_lon"]?.number])
                report.regions += 1
            }
            for a in catalog["areas"]?.elements ?? [] {
                let b = a["bounds"]
                try add("INSERT OR IGNORE INTO area (id, region_id, name, country, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [a["id"]?.string, a["region_id"]?.string, a["name"]?.string, a["country"]?.string,
                         b?["min_lat"]?.number, b?["max_lat"]?.number, b?["min_lon"]?.number, b?["max_lon"]?.number])
                report.areas += 1
            }
            for s in catalog["sites"]?.elements ?? [] {
                let id = s["id"]?.string.map { Self.catalogID("site", $0) }
                try db.execute(sql: "INSERT OR IGNORE INTO site (id, area_id, name, lat, lon, tags, typicals, kind, wikidata) VALUES (?, ?, ?, ?, ?, ?, ?, 'catalog', ?)",
                               arguments: [id, s["area_id"]?.string, s["name"]?.string, s["lat"]?.number, s["lon"]?.number,
                                           s["tags"]?.compactText ?? "[]", s["typicals"]?.compactText, s["wikidata"]?.string])
                if db.changesCount > 0 {
                    report.added += 1
                    for (k, alias) in (s["aliases"]?.elements ?? []).compactMap(\.string).enumerated() {
                        try db.execute(sql: "INSERT INTO site_alias (site_id, position, alias, normalized) VALUES (?, ?, ?, ?)",
                                       arguments: [id, k, alias, Names.normalized(alias)])
                    }
                }
                report.sites += 1
            }
            for s in catalog["species"]?.elements ?? [] {
                let names = s["common_names"]?.elements.compactMap(\.string) ?? []
                try add("INSERT OR IGNORE INTO species (id, scientific_name, common_name, names, aphia_id, rarity, regions, kind) VALUES (?, ?, ?, ?, ?, ?, ?, 'catalog')",
                        [s["id"]?.string.map { Self.catalogID("species", $0) }, s["scientific_name"]?.string, names.first, RowWriter.json(names), s["aphia_id"]?.integer,
                         s["rarity"]?.string, s["regions"]?.compactText ?? "[]"])
                report.species += 1
            }
        }
        return report
    }

    /// The id a catalog site or species has in every logbook: a UUID (DiveJSON's ids are) made
    /// from its catalog slug, so that seeding is idempotent and exports name it the same.
    public static func catalogID(_ kind: String, _ slug: String) -> String {
        Identity.uuid5(namespace: catalogNamespace, name: "\(kind)/\(slug)")
    }

    static let catalogNamespace = Identity.uuid5(namespace: Identity.urlNamespace, name: "https://umilog.app/ns/catalog")

    /// The schema a new logbook gets, as SQL (made in a temporary database).
    public static func schemaSQL() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("umilog-schema-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try LogbookStore(path: dir.appendingPathComponent("schema.sqlite").path).schemaDump()
    }
}
