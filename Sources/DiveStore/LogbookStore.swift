import DiveCore
import Foundation
import GRDB
import GRDBSQLite

/// A logbook database: one SQLite file (WAL, foreign keys on), its schema brought up to date
/// by named migrations when it is opened.
///
/// Any number of processes may open, create and write one logbook at once: creating and
/// migrating happen in one immediate transaction (the first process to take the write lock
/// migrates, the others find it done), and a writer waits up to a minute for another.
public final class LogbookStore {
    /// The database file.
    public let path: String
    let pool: DatabasePool
    /// What one value may hold, within what the connection takes.
    let limits: StoreLimits

    /// How long a writer waits for another process's transaction, and how long opening
    /// retries while other processes create or migrate the logbook.
    static let busyTimeout: TimeInterval = 60

    /// Opens the logbook at `path`, creating it when `create` is true and it does not exist.
    public convenience init(path: String, create: Bool = true) throws {
        try self.init(path: path, create: create, limits: .standard)
    }

    /// Opens the logbook with `limits` (lowered by tests; the writer's `SQLITE_LIMIT_LENGTH` is
    /// set to `limits.valueBytes` when that is lower than SQLite's). `statements`, when given, is
    /// handed every statement the logbook's connections run, its arguments written in (tests read
    /// their query plans); a trigger's statements are not.
    init(path: String, create: Bool = true, limits: StoreLimits, statements: (@Sendable (String) -> Void)? = nil) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw DiveError("store.is-a-directory", "\(path) is a folder, not a logbook file; name the file, as in --db \(path.hasSuffix("/") ? path : path + "/")logbook.sqlite",
                            at: SourceLocation(file: path))
        }
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
        config.busyMode = .timeout(Self.busyTimeout)
        let valueBytes = Int32(clamping: limits.valueBytes)
        config.prepareDatabase { db in
            // Crash-safe and fast enough: WAL commits are durable at the next checkpoint.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Names compared the way backfill and export scopes compare them.
            db.add(function: DatabaseFunction("umilog_fold", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(Names.normalized)
            })
            // The writer takes no value (and no row) larger than the store's limit. Readers keep
            // SQLite's own, so a logbook written with a higher one still reads.
            if !db.configuration.readonly, let connection = db.sqliteConnection, sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, -1) > valueBytes {
                sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, valueBytes)
            }
            if let statements {
                db.trace { event in
                    if case .statement(let s) = event, !s.sql.hasPrefix("--") { statements(s.expandedSQL) }
                }
            }
        }
        let opened: DatabasePool
        do {
            // Several processes opening a logbook that does not exist yet race to create it,
            // switch it to WAL and migrate it; SQLite answers some of them "database is locked"
            // without waiting (it will not wait where waiting could deadlock). Those start again.
            let deadline = Date(timeIntervalSinceNow: Self.busyTimeout)
            var attempt = 0
            while true {
                do {
                    opened = try Self.open(path, existed: existed, configuration: config)
                    break
                } catch let e as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(e.resultCode) && Date() < deadline {
                    attempt += 1
                    let ceiling = UInt32(min(200, 2 << min(attempt, 7)))
                    usleep(1000 * UInt32.random(in: 1...ceiling))
                }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw DiveError("store.not-a-logbook", "the file is not a logbook (it is not an SQLite database); it is left as it is", at: SourceLocation(file: path))
        } catch let error as DatabaseError {
            throw DiveError("store.open", "the logbook could not be opened: \(error.message ?? error.description)", at: SourceLocation(file: path))
        }
        pool = opened
        var effective = limits
        effective.valueBytes = min(limits.valueBytes, try opened.writeWithoutTransaction { $0.lengthLimit })
        effective.textBytes = min(limits.textBytes, effective.valueBytes)
        self.limits = effective
    }

    /// Opens the pool on `path` and brings the schema up to date. An existing file is looked
    /// at read-only first: a database that is not a logbook, or one a newer umilog wrote, is
    /// refused untouched.
    private static func open(_ path: String, existed: Bool, configuration: Configuration) throws -> DatabasePool {
        let migrator = Schema.migrator()
        if existed {
            func probe(readonly: Bool) throws -> (foreign: Bool, newer: Bool) {
                var config = Configuration()
                config.readonly = readonly
                config.busyMode = .timeout(busyTimeout)
                return try DatabaseQueue(path: path, configuration: config).read { db in
                    let migrated = try db.tableExists("grdb_migrations")
                    let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") ?? 0
                    return (!migrated && tables > 0, try migrated && migrator.hasBeenSuperseded(db))
                }
            }
            let state: (foreign: Bool, newer: Bool)
            do {
                state = try probe(readonly: true)
            } catch let e as DatabaseError where e.resultCode == .SQLITE_READONLY {
                // A process killed while it created the logbook can leave a hot journal, which a
                // read-only connection cannot roll back ("attempt to write a readonly database").
                // A read-write one does, and reads; it writes nothing else.
                state = try probe(readonly: false)
            }
            if state.foreign {
                throw DiveError("store.not-a-logbook", "the file is an SQLite database, but not a umilog logbook; it is left as it is", at: SourceLocation(file: path))
            }
            if state.newer {
                throw DiveError("store.newer-schema", "the logbook was written by a newer umilog (its schema has migrations this one does not know); update umilog", at: SourceLocation(file: path))
            }
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        // Up to date: nothing to lock (a reader opening the logbook during an import does not
        // wait for it). Else migrate under the write lock, where what is applied is read again.
        if try !pool.read(migrator.hasCompletedMigrations) {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try Schema.migrate(db)
                    return .commit
                }
            }
        }
        return pool
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
        do { return try body() } catch let e as DatabaseError { throw located(e) }
    }

    /// A database error as a ``DiveError`` located at the logbook.
    func located(_ e: DatabaseError) -> DiveError {
        DiveError("store.database", "the logbook could not be read or written: \(e.message ?? e.description)", at: SourceLocation(file: path))
    }
}
