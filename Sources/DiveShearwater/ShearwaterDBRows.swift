import DiveCore
internal import DiveSQLite
internal import Foundation
internal import GRDB

/// The identity namespace and the sniff of a Shearwater Cloud database export.
public enum ShearwaterDB {
    /// `uuid5(NAMESPACE_URL, "https://umilog.example/ns/shearwater_db")`: frozen (DiveJSON names no
    /// namespace for this format; changing it would renumber every dive read from one).
    public static let namespace = "4178ea53-fcfc-5ed3-942b-1c43c28a3baa"

    /// The tables a Shearwater Cloud export holds its dives in.
    static let diveTable = "dive_details"
    static let logTables = ["log_data", "dive_logs"]

    /// SQLite's magic, and the CREATE TABLE text of Shearwater's tables in the file's first bytes
    /// (SQLite keeps its schema as SQL text in its first pages): a SQLite file without them is
    /// left to the generic `sqlite` entry, and the reader confirms the tables through SQLite.
    public static func sniff(_ input: SniffInput) -> SniffConfidence {
        let bytes = input.bytes
        guard SQLiteLogbookFile.sniff(bytes, containing: [diveTable]),
              logTables.contains(where: { SQLiteLogbookFile.contains($0, in: bytes) }) else { return .none }
        return .certain
    }
}

/// A value as SQLite stores it, read as text for the shared reading (``ShearwaterValue``): `nil`
/// for NULL and for empty text (an empty value is not recorded).
func cellText(_ value: DatabaseValue) -> String? {
    switch value.storage {
    case .null: return nil
    case .int64(let i): return String(i)
    case .double(let d): return d.isFinite ? (DecimalNumber(d)?.description ?? "\(d)") : nil
    case .string(let s):
        let t = s.trimmingWhitespace()
        return t.isEmpty ? nil : t
    case .blob(let b): return b.isEmpty ? nil : "(\(b.count)-byte blob)"
    }
}

/// The columns of the rows a reader read and did not carry, counted by `table.column` over the
/// whole file: one finding per column, naming how many rows held a value in it and the first of
/// them, never one per row. A reader marks what it consumed; every other non-empty cell of a row
/// it read is counted here — the rule is the mechanism, not a list of names.
struct ColumnTally {
    private struct Entry { var table: String; var column: String; var row: Int64; var example: String; var count: Int }
    private struct Key: Hashable { var table: String; var column: String }
    private var entries: [Entry] = []
    private var index: [Key: Int] = [:]

    /// Counts every cell of a row (`cells`, ``shearwaterCells(_:rowid:)``'s, of `table` at `rowid`)
    /// whose lowercased column name is not in `consumed`.
    mutating func account(_ cells: [ShearwaterCell], table: String, rowid: Int64, consumed: Set<String>) {
        for cell in cells where !consumed.contains(cell.key) {
            let key = Key(table: table, column: cell.key)
            if let i = index[key] { entries[i].count += 1; continue }
            index[key] = entries.count
            let text = cell.value.text
            let example = text.count > 60 ? String(text.prefix(59)) + "…" : text
            entries.append(Entry(table: table, column: cell.value.name, row: rowid, example: example, count: 1))
        }
    }

    func findings(format: String, file: String) -> [Finding] {
        entries.map { e in
            let rows = e.count == 1 ? "row \(e.row) holds" : "\(e.count) rows hold values, the first (row \(e.row))"
            return Finding(.dropped, "\(format).not-carried",
                           "\(e.table).\(e.column) has no place in umilog's model; \(rows) \"\(e.example)\"; not carried",
                           at: SourceLocation(file: file, path: "\(e.table).\(e.column)", row: Int(e.row)))
        }
    }
}

/// One non-empty cell of a row: its column's lowercased name, and its value.
typealias ShearwaterCell = (key: String, value: ShearwaterValue)

/// A row's non-empty cells in column order, each converted to text once (``cellText(_:)``) and
/// located by the row; the `rowid` column the reader selects beside the table's is left out.
/// - Parameter keys: the columns' lowercased names, in order, where the caller made them once
///   for every row of a query (``columnKeys(_:)``).
func shearwaterCells(_ row: Row, rowid: Int64, keys: [String]? = nil) -> [ShearwaterCell] {
    var out: [ShearwaterCell] = []
    out.reserveCapacity(row.count)
    for (i, (column, value)) in row.enumerated() where column != "rowid" {
        guard let text = cellText(value) else { continue }
        out.append((keys?[i] ?? column.lowercased(), ShearwaterValue(name: column, text: text, line: Int(rowid))))
    }
    return out
}

/// The lowercased names of a row's columns, in order: every row of one query has the same.
func columnKeys(_ row: Row) -> [String] { row.columnNames.map { $0.lowercased() } }

/// A row's cells by lowercased column name, as the shared reading takes them.
func shearwaterValues(_ cells: [ShearwaterCell]) -> [String: ShearwaterValue] {
    Dictionary(cells.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
}

/// Where a `dive_logs`/`dive_log_records` value is, and how messages name it.
struct ShearwaterTableSpelling: ShearwaterSpelling {
    let file: String
    var logRow: Int
    var format: String { "shearwater-db" }

    func named(_ name: String, record: Bool) -> String { "\(record ? "dive_log_records" : "dive_logs").\(name)" }
    func location(of value: ShearwaterValue) -> SourceLocation {
        SourceLocation(file: file, path: "dive_logs.\(value.name)", row: value.line)
    }
    func location(record index: Int, _ value: ShearwaterValue) -> SourceLocation {
        SourceLocation(file: file, path: "dive_log_records.\(value.name)", row: value.line)
    }
    func location(record index: Int, line: Int) -> SourceLocation {
        SourceLocation(file: file, path: "dive_log_records", row: line)
    }
    var logLocation: SourceLocation { SourceLocation(file: file, path: "dive_logs", row: logRow) }
}

/// Where a value decoded from a `log_data.data_bytes_1` log is: the cell, and the record in it.
struct ShearwaterPNFSpelling: ShearwaterSpelling {
    let file: String
    var row: Int
    var format: String { "shearwater-db" }
    static let path = "log_data.data_bytes_1"

    func named(_ name: String, record: Bool) -> String { "the log's \(record ? "sample " : "")\(name)" }
    func location(of value: ShearwaterValue) -> SourceLocation {
        SourceLocation(file: file, path: "\(Self.path)/\(value.name)", row: row)
    }
    func location(record index: Int, _ value: ShearwaterValue) -> SourceLocation {
        SourceLocation(file: file, path: "\(Self.path)/sample/\(index)/\(value.name)", row: row)
    }
    func location(record index: Int, line: Int) -> SourceLocation {
        SourceLocation(file: file, path: "\(Self.path)/sample/\(index)", row: row)
    }
    var logLocation: SourceLocation { SourceLocation(file: file, path: Self.path, row: row) }
}
