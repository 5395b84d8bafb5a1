import DiveCore
internal import DiveSQLite
internal import GRDB

/// Reads Diving Log's native database (an SQLite file, whatever its name: `.sql`, `.db`, `.dlb`)
/// through SQLite, one `Logbook` row at a time, by `docs/divinglog-mapping.md`: the row's columns
/// into the record the XML export's reader makes too, its `Tank` rows as further cylinders, and
/// its fixed-width `Profile…` strings as samples (``DivingLogProfileStrings``). Rows whose UUID
/// is in `DeletedRecords` are dives Diving Log deleted, and are not read.
///
/// The file is opened read-only and immutable (`mode=ro&immutable=1`, `PRAGMA query_only`).
/// Diving Log stores its REAL columns from 32-bit floats (`11.100000381469727` for 11.1); a
/// value that is exactly a 32-bit float is read as the shortest decimal naming that float, and
/// said once (`divinglog-db.float32-rounded`).
public final class DivingLogDBReader: DiveSource {
    /// The file name diagnostics use.
    public let displayName: String
    /// The sites and buddies the database's dives refer to, as read so far.
    public var header: LogbookHeader { builder.header }

    private let file: SQLiteLogbookFile
    private let builder: DivingLogBuilder
    private var lastID = Int64.min
    private var index = 0
    private var done = false
    private var floatExample: (String, SourceLocation)?
    private var floatCount = 0

    /// The tables this reader reads; every other one is reported once, unread.
    static let readTables: Set<String> = ["logbook", "tank", "dbinfo", "deletedrecords"]

    /// Opens the Diving Log database at `path`.
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = displayName ?? (path == "-" ? "<stdin>" : path)
        self.displayName = name
        builder = DivingLogBuilder(file: name, format: "divinglog-db")
        // Standard input (an unnamed file) is refused, not copied: `copyPrefix: nil`.
        file = try SQLiteLogbookFile(path: path, displayName: name, format: "divinglog-db", copyPrefix: nil)
        builder.header.sourceFormat = "divinglog_db"
        try openTables()
    }

    /// Lists the tables; refuses a database without `Logbook`; reads `DBInfo`; reports each table not read.
    private func openTables() throws {
        let names = try file.tableNames()
        let lower = Set(names.map { $0.lowercased() })
        guard lower.contains("logbook") else {
            throw DiveError("divinglog-db.not-divinglog",
                            "the file is an SQLite database but not Diving Log's: it has no Logbook table (its tables are \(names.prefix(12).joined(separator: ", ")))",
                            at: SourceLocation(file: displayName))
        }
        if lower.contains("dbinfo"), let info = try file.read(table: "DBInfo", { db in try Row.fetchOne(db, sql: "SELECT * FROM DBInfo LIMIT 1") }) {
            let program: String? = info["PrgName"], version: String? = info["AppVersion"]
            builder.header.sourceVersion = info["DBVersion"]
            if let program {
                var g = Generator(name: program, version: version)
                g.type = "logbook"
                builder.header.sourceGenerator = g
            }
        }
        for (name, count) in try file.unreadTables(names, read: Self.readTables) {
            let at = SourceLocation(file: displayName, path: name)
            if count == 0 {
                builder.report(.absent, "table-not-read", "the table \(name) holds no rows; not read", at: at)
            } else {
                builder.report(.dropped, "table-not-read", "the table \(name) holds \(count) row\(count == 1 ? "" : "s") umilog does not read (a dive's own columns are in Logbook); not read", at: at)
            }
        }
        hasTank = lower.contains("tank")
        hasDeleted = lower.contains("deletedrecords")
    }

    private var hasTank = false
    private var hasDeleted = false

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { builder.findings.removeAll() }
        return builder.findings
    }

    /// The next `Logbook` row as a dive, or `nil` after the last.
    public func next() throws -> Dive? {
        while !done {
            let after = lastID
            let deleted = hasDeleted ? " AND (UUID IS NULL OR UUID NOT IN (SELECT UUID FROM DeletedRecords WHERE UUID IS NOT NULL))" : ""
            guard let row = try file.read(table: "Logbook", { db in
                try Row.fetchOne(db, sql: "SELECT rowid AS umilog_rowid, * FROM Logbook WHERE rowid > ?\(deleted) ORDER BY rowid LIMIT 1", arguments: [after])
            }) else {
                done = true
                if floatCount > 0, let (example, location) = floatExample {
                    builder.report(.resolved, "float32-rounded",
                                   "\(floatCount) REAL values are 32-bit floats as Diving Log stores them (the first \(example)); each is read as the shortest decimal naming that float",
                                   at: location)
                }
                builder.findings += builder.finish()
                return nil
            }
            let rowid: Int64 = row["umilog_rowid"] ?? after + 1
            lastID = rowid
            var record = DivingLogRecord(index: index, location: SourceLocation(file: displayName, path: "Logbook", row: Int(rowid)))
            record.values = values(row, table: "Logbook", rowid: rowid)
            if hasTank, let id = record.values["id"].flatMap({ Int64($0.text) }) {
                let tanks = try file.read(table: "Tank", row: rowid) { db in
                    try Row.fetchAll(db, sql: "SELECT rowid AS umilog_rowid, * FROM Tank WHERE LogID = ? ORDER BY TankID, rowid", arguments: [id])
                }
                record.extraTanks = tanks.map { values($0, table: "Tank", rowid: $0["umilog_rowid"] ?? 0) }
            }
            DivingLogProfileStrings.decode(into: &record, builder: builder)
            index += 1
            if let dive = builder.buildDive(record, source: "divinglog-db") { return dive }
        }
        return nil
    }

    /// A row's non-empty cells by lowercased column name, each as text, located by table and row.
    private func values(_ row: Row, table: String, rowid: Int64) -> [String: DivingLogValue] {
        var out: [String: DivingLogValue] = [:]
        for (column, value) in row where column != "umilog_rowid" {
            let location = SourceLocation(file: displayName, path: "\(table).\(column)", row: Int(rowid))
            guard let text = text(value, location) else { continue }
            out[column.lowercased()] = DivingLogValue(name: "\(table).\(column)", text: text, location: location)
        }
        return out
    }

    /// A cell as text: `nil` for NULL and empty text; a REAL that is exactly a 32-bit float as
    /// the shortest decimal naming that float.
    private func text(_ value: DatabaseValue, _ location: SourceLocation) -> String? {
        switch value.storage {
        case .null: return nil
        case .int64(let i): return String(i)
        case .double(let d):
            guard d.isFinite else { return nil }
            let f = Float(d)
            if Double(f) == d, "\(f)" != "\(d)" {
                floatCount += 1
                if floatExample == nil { floatExample = ("\(d) → \(f)", location) }
                return "\(f)"
            }
            return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        case .string(let s):
            let t = s.trimmingWhitespace()
            return t.isEmpty ? nil : t
        case .blob(let b): return b.isEmpty ? nil : "(\(b.count)-byte blob)"
        }
    }
}
