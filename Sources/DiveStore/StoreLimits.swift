import DiveCore
import Foundation
import GRDB
import GRDBSQLite

/// The most the logbook stores in one value, so that no file can make a write fail half-way
/// (or, past SQLite's own limit, stop the process): each limit is checked before a value is
/// bound, and passing it is a `dropped` finding that keeps the rest of the dive or a located
/// error that fails the file (nothing of it imported).
public struct StoreLimits: Sendable, Hashable {
    /// The longest text a column holds (a note, a name, a tag, a device's serial): 1 MiB, the
    /// readers' own limit for one text. Longer optional text is left out with a `dropped`
    /// finding (`store.value-too-long`); a longer name a record cannot do without fails the file.
    public var textBytes = InputLimits.textBytes
    /// The largest single value, whatever it is (a record's DiveJSON detail, a recording's
    /// samples blob): 64 MiB, and never more than the connection's `SQLITE_LIMIT_LENGTH`
    /// (the writer's is set to it). Larger fails the file (`store.value-too-long`).
    public var valueBytes = 64 << 20

    /// The standard limits (1 MiB of text, 64 MiB in one value).
    public init() {}

    /// The default limits.
    public static let standard = StoreLimits()
}

/// A value too large for the logbook, found before it was bound: the importer turns it into a
/// located ``DiveError`` (`store.value-too-long`), and the file's transaction is rolled back.
struct ValueTooLarge: Error {
    var table: String
    var bytes: Int
    var limit: Int

    /// The error at `location`.
    func located(_ location: SourceLocation) -> DiveError {
        DiveError("store.value-too-long", "a value for the logbook's \(table) table is \(bytes) bytes, more than the \(limit) bytes the logbook takes in one value; nothing of the file was imported", at: location)
    }
}

extension Database {
    /// The connection's `SQLITE_LIMIT_LENGTH`: the longest string or blob, and the largest row,
    /// it takes (SQLite's default is 1,000,000,000 bytes).
    var lengthLimit: Int {
        guard let connection = sqliteConnection else { return 1_000_000_000 }
        return Int(sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, -1))
    }

    /// Runs one statement of the store's writes with `values`, after checking that none is
    /// longer than the connection takes: SQLite refuses such a value when it is bound, which
    /// GRDB treats as a programming error and stops the process on.
    func write(_ sql: String, _ values: [(any DatabaseValueConvertible)?]) throws {
        let arguments = try Self.checked(values, sql: sql, limit: lengthLimit)
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }

    /// `values` as statement arguments, or ``ValueTooLarge`` for the first longer than `limit`.
    static func checked(_ values: [(any DatabaseValueConvertible)?], sql: String, limit: Int) throws -> StatementArguments {
        var out: [DatabaseValue] = []
        out.reserveCapacity(values.count)
        for v in values {
            let value = v?.databaseValue ?? .null
            let bytes: Int
            switch value.storage {
            case .string(let s): bytes = s.utf8.count
            case .blob(let d): bytes = d.count
            default: bytes = 0
            }
            if bytes > limit { throw ValueTooLarge(table: table(of: sql), bytes: bytes, limit: limit) }
            out.append(value)
        }
        return StatementArguments(out)
    }

    /// The table an `INSERT … INTO t` or `UPDATE t` writes.
    private static func table(of sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" })
        if let k = words.firstIndex(where: { $0.uppercased() == "INTO" }), k + 1 < words.count { return String(words[k + 1]) }
        if let k = words.firstIndex(where: { $0.uppercased() == "UPDATE" }), k + 1 < words.count { return String(words[k + 1]) }
        return "logbook"
    }
}
