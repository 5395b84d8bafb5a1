import DiveCore
import Foundation
import GRDB

/// A logbook database: one SQLite file (WAL, foreign keys on), its schema brought up to date
/// by named migrations when it is opened.
public final class LogbookStore {
    /// The database file.
    public let path: String
    let pool: DatabasePool

    /// Opens the logbook at `path`, creating it when `create` is true and it does not exist.
    public init(path: String, create: Bool = true) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            guard create else {
                throw DiveError("store.not-found", "there is no logbook at \(path); create one with umilog db init --db \(path)", at: SourceLocation(file: path))
            }
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                throw DiveError("store.open", "the logbook cannot be created: the folder \(folder) does not exist", at: SourceLocation(file: path))
            }
        }
        let existed = FileManager.default.fileExists(atPath: path)
        var config = Configuration()
        config.foreignKeysEnabled = true
        // Another process writing (the app, a second import) is waited for, not an error.
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            // Crash-safe and fast enough: WAL commits are durable at the next checkpoint.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Names compared the way backfill and export scopes compare them.
            db.add(function: DatabaseFunction("umilog_fold", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(Names.normalized)
            })
        }
        do {
            // An existing file is looked at read-only first: a database that is not a logbook,
            // or one a newer umilog wrote, is refused untouched.
            let migrator = Schema.migrator()
            if existed {
                var probe = Configuration()
                probe.readonly = true
                let state = try DatabaseQueue(path: path, configuration: probe).read { db -> (foreign: Bool, newer: Bool) in
                    let migrated = try db.tableExists("grdb_migrations")
                    let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") ?? 0
                    return (!migrated && tables > 0, try migrated && migrator.hasBeenSuperseded(db))
                }
                if state.foreign {
                    throw DiveError("store.not-a-logbook", "the file is an SQLite database, but not a umilog logbook; it is left as it is", at: SourceLocation(file: path))
                }
                if state.newer {
                    throw DiveError("store.newer-schema", "the logbook was written by a newer umilog (its schema has migrations this one does not know); update umilog", at: SourceLocation(file: path))
                }
            }
            pool = try DatabasePool(path: path, configuration: config)
            if try !pool.read(migrator.hasCompletedMigrations) { try migrator.migrate(pool) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw DiveError("store.not-a-logbook", "the file is not a logbook (it is not an SQLite database); it is left as it is", at: SourceLocation(file: path))
        } catch let error as DatabaseError {
            throw DiveError("store.open", "the logbook could not be opened: \(error.message ?? error.description)", at: SourceLocation(file: path))
        }
    }

    /// The names of the migrations applied, in order.
    public func appliedMigrations() throws -> [String] {
        try pool.read { db in try Schema.migrator().appliedIdentifiers(db) }.sorted()
    }

    /// `PRAGMA integrity_check` and `foreign_key_check`: what they report (empty when clean).
    public func check() throws -> [String] {
        try pool.read { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
            for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                problems.append("foreign key: \(row["table"] as String? ?? "?") row \(row["rowid"] as Int64? ?? -1) → \(row["parent"] as String? ?? "?")")
            }
            return problems
        }
    }

    /// The schema as SQL, tables and indexes in name order (`schemas/logbook.sql`).
    public func schemaDump() throws -> String {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT type, name, sql FROM sqlite_schema
                WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                  AND name NOT GLOB 'site_rtree_*' AND name NOT GLOB 'site_fts_*' AND name NOT GLOB 'species_fts_*'
                ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name
                """)
            var out = "-- The umilog logbook schema, as `umilog db init` creates it (migrations: \(try Schema.migrator().appliedIdentifiers(db).sorted().joined(separator: ", "))).\n"
            out += "-- Regenerate with scripts/update-goldens.sh; a test keeps it current.\n\n"
            for row in rows { out += (row["sql"] as String) + ";\n\n" }
            return out
        }
    }

    /// Runs `body` in one transaction: all of it or none of it. A database error comes out as
    /// a ``DiveError`` located at the logbook.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try located { try pool.write(body) }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try located { try pool.read(body) }
    }

    func located<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as DatabaseError {
            throw DiveError("store.database", "the logbook could not be read or written: \(e.message ?? e.description)", at: SourceLocation(file: path))
        }
    }
}
