import DiveCore
internal import DiveSQLite
internal import Foundation
internal import GRDB

/// Reads a Seac Sync database (the SQLite file the Seac Sync app downloads a Seac Action's or
/// Screen's dives into) through SQLite, one dive at a time: each `headers_dive` row is a dive,
/// its `dive_data` rows (joined by `dive_id`) its samples. By `docs/seac-sync-mapping.md`.
///
/// The file is opened read-only and immutable (`mode=ro&immutable=1`, `PRAGMA query_only`):
/// nothing is written, no journal is made beside it. Every column of every row read is met in a
/// walk over the row: it is carried, or counted into one `seac-sync.not-carried` finding per
/// column for the file, naming what the column holds where that is known; every table not read
/// is reported once.
public final class SeacSyncReader: DiveSource {
    /// The file name diagnostics use.
    public let displayName: String
    /// The source format; the reader adds no records beside the dives.
    public private(set) var header = LogbookHeader()
    /// The most samples one dive keeps (``InputLimits/samplesPerDive``); tests lower it.
    package var samplesPerDive = InputLimits.samplesPerDive

    /// The database, opened read-only; its reads turn SQLite's errors into located ones.
    let file: SQLiteLogbookFile
    var findings: [Finding] = []
    var notCarried = SeacColumnTally.notCarried()
    var outOfRange = SeacColumnTally.outOfRange()
    /// The file has a `dive_data` table.
    private(set) var hasSamples = false
    private var lastRowid = Int64.min
    var index = 0
    private var done = false

    /// Opens the Seac Sync database at `path`.
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = displayName ?? (path == "-" ? "<stdin>" : path)
        self.displayName = name
        file = try SQLiteLogbookFile(path: path, displayName: name, format: "seac-sync", copyPrefix: "umilog-seac")
        header.sourceFormat = "seac_sync"
        try openTables()
    }

    /// Lists the tables; refuses a database without `headers_dive`; reports each table not read
    /// and a missing `dive_data`.
    private func openTables() throws {
        let names = try file.tableNames()
        let lowered = Set(names.map { $0.lowercased() })
        guard lowered.contains(SeacSync.diveTable) else {
            let list = SQLiteLogbookFile.listing(names)
            throw DiveError("seac-sync.not-seac", "the file is an SQLite database but not a Seac Sync one: it has no headers_dive table (\(list))",
                            at: SourceLocation(file: displayName))
        }
        hasSamples = lowered.contains(SeacSync.sampleTable)
        if !hasSamples {
            findings.append(Finding(.absent, "seac-sync.samples-absent", "the database has no dive_data table: its dives have no profile",
                                    at: SourceLocation(file: displayName, path: SeacSync.sampleTable)))
        }
        for (name, count) in try file.unreadTables(names, read: [SeacSync.diveTable, SeacSync.sampleTable]) {
            let rows = count == 0 ? "holds no rows" : "holds \(count) row\(count == 1 ? "" : "s") of no dive's summary or samples"
            findings.append(Finding(count == 0 ? .absent : .dropped, "seac-sync.table-not-read", "the table \(name) \(rows); not read",
                                    at: SourceLocation(file: displayName, path: name)))
        }
    }

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// The next `headers_dive` row as a dive, or `nil` after the last; the columns not carried
    /// are reported once the last is read.
    public func next() throws -> Dive? {
        guard !done else { return nil }
        let after = lastRowid
        guard let row = try file.read(table: SeacSync.diveTable, { db in
            try Row.fetchOne(db, sql: "SELECT rowid AS umilog_rowid, * FROM headers_dive WHERE rowid > ? ORDER BY rowid LIMIT 1", arguments: [after])
        }) else {
            done = true
            findings += notCarried.findings(file: displayName) + outOfRange.findings(file: displayName)
            return nil
        }
        let rowid: Int64 = row["umilog_rowid"] ?? after + 1
        lastRowid = rowid
        defer { index += 1 }
        return try dive(from: row, rowid: rowid)
    }

    /// A finding at `path` (`table.column`) and `row` (the table's rowid), when one row is meant.
    func report(_ kind: FindingKind, _ code: String, _ message: String, path: String, row: Int64?) {
        findings.append(Finding(kind, "seac-sync.\(code)", message, at: SourceLocation(file: displayName, path: path, row: row.map { Int($0) })))
    }
}

/// A cell as the reader takes it: `nil` for NULL and empty text (not recorded), else its text
/// and, where it is a whole number, that number.
struct SeacCell {
    let text: String
    let int: Int?

    init?(_ value: DatabaseValue) {
        switch value.storage {
        case .null: return nil
        case .int64(let i): text = String(i); int = Int(exactly: i)
        case .double(let d):
            guard d.isFinite else { return nil }
            text = DecimalNumber(d)?.description ?? "\(d)"
            int = d == d.rounded() ? Int(exactly: d) : nil
        case .string(let s):
            let t = s.trimmingWhitespace()
            guard !t.isEmpty else { return nil }
            text = t; int = DecimalNumber.exactInteger(t)
        case .blob(let b):
            guard !b.isEmpty else { return nil }
            text = "(\(b.count)-byte blob)"; int = nil
        }
    }
}

/// Cells of the rows read, counted by `table.column` over the whole file: one finding per column,
/// naming what the column holds (where the mapping knows), how many rows held a value in it and
/// the first of them — never one per row. One tally counts the cells not carried
/// (`seac-sync.not-carried`), another the values outside what their column can hold
/// (`seac-sync.value-out-of-range`).
struct SeacColumnTally {
    private struct Entry { var path: String; var row: Int64; var example: String; var count: Int; var why: String }
    private var entries: [Entry] = []
    private var index: [String: Int] = [:]
    /// The finding's code (after `seac-sync.`) and its kind.
    let code: String
    let kind: FindingKind
    /// What is said of the column: "has no place in umilog's model".
    let verdict: String

    static func notCarried() -> SeacColumnTally { SeacColumnTally(code: "not-carried", kind: .dropped, verdict: "has no place in umilog's model") }
    static func outOfRange() -> SeacColumnTally { SeacColumnTally(code: "value-out-of-range", kind: .dropped, verdict: "holds what no such reading can be") }

    /// Counts `cell` of `table.column` at `row`; `why` says what the column holds ("the
    /// computer's memory address of the dive").
    mutating func count(_ table: String, _ column: String, _ cell: SeacCell, row: Int64, why: String) {
        let path = "\(table).\(column)"
        if let i = index[path] { entries[i].count += 1; return }
        index[path] = entries.count
        let example = cell.text.count > 60 ? String(cell.text.prefix(59)) + "…" : cell.text
        entries.append(Entry(path: path, row: row, example: example, count: 1, why: why))
    }

    func findings(file: String) -> [Finding] {
        entries.map { e in
            let rows = e.count == 1 ? "row \(e.row) holds" : "\(e.count) rows hold such values, the first (row \(e.row))"
            return Finding(kind, "seac-sync.\(code)", "\(e.path), \(e.why), \(verdict); \(rows) \"\(e.example)\"; not carried",
                           at: SourceLocation(file: file, path: e.path, row: Int(e.row)))
        }
    }
}
