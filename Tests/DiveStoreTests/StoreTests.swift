import DiveCore
import DiveKit
import DiveJSON
@testable import DiveStore
import Foundation
import GRDB
import Testing
import TestSupport

/// A fresh logbook in a temporary directory, removed with it.
final class TemporaryLogbook {
    let directory: String
    let path: String
    let store: LogbookStore
    /// Whether the directory is this logbook's own, removed with it.
    private let owned: Bool

    init() throws {
        directory = NSTemporaryDirectory() + "umilog-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/logbook.sqlite"
        store = try LogbookStore(path: path)
        owned = true
    }

    /// The logbook at `path` (one a `umilog` process wrote); its directory is left as it is.
    init(opening path: String) throws {
        directory = (path as NSString).deletingLastPathComponent
        self.path = path
        store = try LogbookStore(path: path, create: false)
        owned = false
    }

    deinit { if owned { try? FileManager.default.removeItem(atPath: directory) } }

    /// Every row of every table, in a stable order, as text: what "the same logbook" compares.
    func tables(except skipped: Set<String> = []) throws -> [String: [String]] {
        try store.read { db in
            var out: [String: [String]] = [:]
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                  AND name NOT GLOB 'site_rtree*' AND name NOT GLOB '*_fts*'
                """)
            for name in names where !skipped.contains(name) {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(name)")
                out[name] = rows.map { row in
                    row.columnNames.filter { !skipped.contains("\(name).\($0)") }.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: "|")
                }.sorted()
            }
            return out
        }
    }

    /// Where the dives and recordings came from, by file digest (row ids differ between two
    /// logbooks), leaving out the rows of the file whose digest is `file`.
    func provenance(except file: String? = nil) throws -> [String: [String]] {
        try store.read { db in
            let queries = [
                "source_file": "SELECT sha256 AS file, name, format, generator, generator_version, size FROM source_file",
                "dive_source": "SELECT f.sha256 AS file, s.dive_id, s.record_index, s.record_id, s.line, s.source_uuid FROM dive_source s JOIN source_file f ON f.id = s.source_file_id",
                "recording": "SELECT f.sha256 AS file, r.dive_id, r.position FROM recording r LEFT JOIN source_file f ON f.id = r.source_file_id",
            ]
            var out: [String: [String]] = [:]
            for (table, sql) in queries {
                out[table] = try Row.fetchAll(db, sql: sql).filter { file == nil || ($0["file"] as String?) != file }.map { row in
                    row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: "|")
                }.sorted()
            }
            return out
        }
    }

    /// The digest of the imported file called `name`.
    func digest(ofFile name: String) throws -> String? {
        try store.read { db in try String.fetchOne(db, sql: "SELECT sha256 FROM source_file WHERE name = ?", arguments: [name]) }
    }

    func count(_ table: String) throws -> Int {
        try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }
}

@Suite struct SchemaTests {
    @Test("a new logbook gets the named migrations, WAL and foreign keys, and the schema schemas/logbook.sql holds")
    func schema() throws {
        let log = try TemporaryLogbook()
        #expect(try log.store.appliedMigrations() == ["v1-catalog", "v1-logbook", "v2-dive-source-uuid", "v3-source-file-records", "v4-dive-query-indexes"])
        let (journal, foreignKeys) = try log.store.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(journal == "wal")
        #expect(foreignKeys == 1)
        let dump = try String(contentsOfFile: Paths.root + "/schemas/logbook.sql", encoding: .utf8)
        #expect(try log.store.schemaDump() == dump, "schemas/logbook.sql is out of date: umilog db schema > schemas/logbook.sql")
        // Opening it again runs nothing twice.
        let again = try LogbookStore(path: log.path)
        #expect(try again.appliedMigrations() == ["v1-catalog", "v1-logbook", "v2-dive-source-uuid", "v3-source-file-records", "v4-dive-query-indexes"])
        #expect(try again.check().isEmpty)
    }

    @Test("the embedded catalog is Sources/DiveStore/Resources/catalog.json byte for byte")
    func embeddedCatalog() throws {
        let file = try String(contentsOfFile: Paths.root + "/Sources/DiveStore/Resources/catalog.json", encoding: .utf8)
        #expect(LogbookStore.catalogText + "\n" == file, "run scripts/embed-schema.sh")
    }

    @Test("every species' common names are those species-names.tsv lists with the pages that state them, and no two species share one")
    func speciesNameSources() throws {
        let tsv = try String(contentsOfFile: Paths.root + "/Sources/DiveStore/Resources/species-names.tsv", encoding: .utf8)
        var sourced: [String: (names: [String], pages: [String])] = [:]
        for line in tsv.split(separator: "\n").dropFirst(2) {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == 3 else { Issue.record("not three cells: \(line)"); continue }
            sourced[cells[0]] = (cells[1].components(separatedBy: "; "), cells[2].split(separator: " ").map(String.init))
        }
        let log = try TemporaryLogbook()
        _ = try log.store.seedCatalog()
        let species = try log.store.read { db in try Row.fetchAll(db, sql: "SELECT id, names FROM species WHERE kind = 'catalog'") }
        #expect(species.count == sourced.count)
        var seen: [String: String] = [:]
        for row in species {
            let names = RowReader.strings(row["names"])
            let id: String = row["id"]
            let entry = sourced.first { LogbookStore.catalogID("species", $0.key) == id }
            #expect(entry?.value.names == names, "\(names)")
            #expect(entry.map { !$0.value.pages.isEmpty && $0.value.pages.allSatisfy { $0.hasPrefix("http") } } == true)
            for n in names {
                let key = Names.normalized(n)
                #expect(seen[key] == nil, "\(n) names two species")
                seen[key] = id
            }
        }
    }

    @Test("seeding loads the catalog once: sites inside their areas, searchable, in the R*Tree; again adds nothing")
    func seed() throws {
        let log = try TemporaryLogbook()
        let first = try log.store.seedCatalog()
        #expect(first.sites > 100 && first.species > 100)
        #expect(first.added == first.regions + first.areas + first.sites + first.species)
        #expect(try log.store.seedCatalog().added == 0)
        #expect(try log.count("site_rtree") == first.sites)
        try log.store.read { db in
            // Every site lies in its area's box; every species has an AphiaID.
            let outside = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM site s JOIN area a ON a.id = s.area_id
                WHERE s.lat NOT BETWEEN a.min_lat AND a.max_lat OR s.lon NOT BETWEEN a.min_lon AND a.max_lon
                """)
            #expect(outside == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM species WHERE aphia_id IS NULL") == 0)
            let turtles = try String.fetchAll(db, sql: "SELECT s.scientific_name FROM species_fts JOIN species s ON s.rowid = species_fts.rowid WHERE species_fts MATCH 'turtle'")
            #expect(turtles.contains("Chelonia mydas"))
        }
        #expect(try log.store.check().isEmpty)
    }
}

@Suite struct ProfileCodecTests {
    @Test("series survive the blob exactly, negative steps and gaps included")
    func roundTrip() throws {
        var p = Profile()
        p.depth = Series(times: Array(stride(from: 0, to: 3_600_000, by: 1000)), values: (0..<3600).map { Int(sin(Double($0) / 300) * 3000) + 3000 })
        p.temperature = Series(times: [0, 60_000, 61_000], values: [2850, -150, 2800])
        p.pressures = [PressureSeries(gasNumber: 2, series: Series(times: [0, 5000], values: [2000, 1990]))]
        p.events = [Event(time: 5000, type: .gasSwitch, gasNumber: 2)]
        let (blob, rest) = ProfileCodec.split(p)
        #expect(rest.depth == nil && rest.pressures.isEmpty && rest.events == p.events)
        #expect(blob!.count < 3600 * 4, "an hour of 1 s depths in under 4 bytes a sample")
        var back = rest
        try ProfileCodec.join(blob!, into: &back)
        #expect(back == p)
        #expect(throws: DiveError.self) { var q = Profile(); try ProfileCodec.join(Array(blob!.prefix(20)), into: &q) }
    }
}

@Suite struct StatsTests {
    @Test("stats agree with the dives as the reader reads them")
    func statsMatchTheModel() throws {
        let log = try TemporaryLogbook()
        let sample = Paths.samples + "/logbook.uddf"
        _ = log.store.importLogbooks([sample])
        let (book, _) = try openReader(path: sample, format: .uddf).readAll()
        let s = try log.store.stats()
        #expect(s.dives == book.dives.count)
        #expect(s.bottomTime == book.dives.compactMap(\.submergedTime).reduce(0, +))
        #expect(s.deepest?.value == book.dives.compactMap(\.maxDepth).max())
        #expect(Double(s.longest.map { Int($0.value) } ?? 0) == Double(book.dives.compactMap(\.submergedTime).max() ?? 0))
        #expect(s.sitesVisited == Set(book.dives.compactMap(\.siteUUIDs.first)).count)
        #expect(s.years.map(\.dives).reduce(0, +) == s.dives - s.undated)
        let json = try JSONNode.parse(s.json)
        #expect(json["dives"]?.integer == s.dives)
    }
}

@Suite struct SHA256Tests {
    @Test("FIPS 180-4 test vectors, fed whole and in pieces")
    func vectors() {
        func digest(_ text: String, pieces: Int = 1) -> String {
            var h = SHA256()
            let bytes = Array(text.utf8)
            let step = max(1, bytes.count / pieces)
            var i = 0
            while i < bytes.count { let j = min(bytes.count, i + step); bytes[i..<j].withUnsafeBytes { h.update($0) }; i = j }
            return h.finish()
        }
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(digest(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(digest(long, pieces: 7) == digest(long))
        #expect(digest(String(repeating: "a", count: 1_000_000), pieces: 13) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
