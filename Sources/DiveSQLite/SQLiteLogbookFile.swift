import DiveCore
internal import Foundation
package import GRDB

/// An SQLite logbook (a Shearwater Cloud export, a Seac Sync database, Diving Log's database) as
/// every SQLite reader opens it: the file must exist and open with SQLite's header; it is opened
/// read-only and immutable (`mode=ro&immutable=1`, `PRAGMA query_only`), so nothing is written and
/// no journal is made beside it; SQLite's errors become located ones under the reader's code
/// prefix (`<format>.corrupt`, `.not-a-database`, `.sqlite`, `.not-sqlite`, `.stdin`).
///
/// SQLite cannot open an unnamed input (standard input, spooled to a deleted file) by its
/// `/proc/self/fd/N` path: a reader that accepts one has it copied to a named file only this
/// user can read, removed when the file is closed; one that does not refuses it as standard input.
package final class SQLiteLogbookFile {
    /// The file name diagnostics use.
    package let displayName: String
    /// The readers' code prefix: `shearwater-db`, `seac-sync`, `divinglog-db`.
    package let format: String
    private let queue: DatabaseQueue
    /// The named copy of an unnamed input made for SQLite, removed on close.
    private let copy: String?

    /// SQLite's magic: the first 16 bytes of every SQLite 3 database.
    package static let header = Array("SQLite format 3\0".utf8)

    /// Opens the database at `path` (`-` is standard input, which cannot be opened as one).
    /// - Parameters:
    ///   - displayName: the name diagnostics use.
    ///   - format: the prefix of the codes of the errors thrown.
    ///   - copyPrefix: the name prefix of the named copy an unnamed input (`/proc/self/fd/N`,
    ///     `/dev/fd/N`) is read through; `nil` refuses such input as standard input.
    package init(path: String, displayName: String, format: String, copyPrefix: String?) throws {
        self.displayName = displayName
        self.format = format
        let unnamed = path.hasPrefix("/proc/self/fd/") || path.hasPrefix("/dev/fd/")
        guard path != "-" && (copyPrefix != nil || !unnamed) else {
            throw DiveError("\(format).stdin", "a database is read from a file; standard input cannot be opened as one",
                            at: SourceLocation(file: displayName))
        }
        // The file must exist and open with SQLite's magic before SQLite is asked to open it.
        let input = try InputFile(path: path, displayName: displayName)
        var magic = [UInt8](repeating: 0, count: 16)
        let n = try magic.withUnsafeMutableBytes { try input.readFully(into: $0) }
        guard n == 16, magic.elementsEqual(Self.header) else {
            throw DiveError("\(format).not-sqlite", "the file is not an SQLite database: it does not open with SQLite's header",
                            at: SourceLocation(file: displayName))
        }
        let copied = unnamed ? try copyPrefix.map { try Self.namedCopy(of: path, displayName: displayName, prefix: $0) } : nil
        var config = Configuration()
        config.readonly = true
        config.label = format
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        do {
            queue = try DatabaseQueue(path: Self.immutableURI(copied ?? path), configuration: config)
        } catch {
            if let copied { unlink(copied) }
            throw Self.located(error, format: format, file: displayName, table: nil, row: nil)
        }
        copy = copied
    }

    deinit { if let copy { unlink(copy) } }

    /// Runs `body` in a read, turning SQLite's errors into errors located at `table` and `row`.
    package func read<T>(table: String?, row: Int64? = nil, _ body: (Database) throws -> T) throws -> T {
        do { return try queue.read(body) } catch { throw Self.located(error, format: format, file: displayName, table: table, row: row) }
    }

    /// The names of the file's own tables (not SQLite's), as written, sorted.
    package func tableNames() throws -> [String] {
        try read(table: "sqlite_master") { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        }
    }

    /// Each of `names` not in `read` (lowercased) with its number of rows: the tables a reader
    /// reports once, unread.
    package func unreadTables(_ names: [String], read: Set<String>) throws -> [(name: String, rows: Int)] {
        try names.filter { !read.contains($0.lowercased()) }.map { name in
            (name, try self.read(table: name) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(name.quotedDatabaseIdentifier)") ?? 0 })
        }
    }

    /// `names` as a refusal lists them: "it has no tables", or "its tables are a, b, …" (the first 12).
    package static func listing(_ names: [String]) -> String {
        names.isEmpty ? "it has no tables" : "its tables are \(names.prefix(12).joined(separator: ", "))\(names.count > 12 ? ", …" : "")"
    }

    /// A GRDB error as a located one: a damaged file is `<format>.corrupt`, a file SQLite cannot
    /// read as a database `<format>.not-a-database`, anything else `<format>.sqlite`; a
    /// ``DiveError`` is thrown as it is.
    static func located(_ error: any Error, format: String, file: String, table: String?, row: Int64?) -> DiveError {
        if let e = error as? DiveError { return e }
        let at = SourceLocation(file: file, path: table, row: row.map { Int($0) })
        let reading = table.map { " while reading \($0)\(row.map { " row \($0)" } ?? "")" } ?? ""
        guard let e = error as? DatabaseError else { return DiveError("\(format).sqlite", "SQLite failed\(reading): \(error)", at: at) }
        let said = e.message ?? "\(e.resultCode)"
        switch e.resultCode {
        case .SQLITE_CORRUPT:
            return DiveError("\(format).corrupt", "the database is damaged (SQLite: \(said))\(reading); it cannot be read", at: at)
        case .SQLITE_NOTADB:
            return DiveError("\(format).not-a-database", "the file opens like an SQLite database but SQLite cannot read it as one (SQLite: \(said))", at: at)
        default:
            return DiveError("\(format).sqlite", "SQLite failed\(reading): \(said)", at: at)
        }
    }

    /// `path` as an SQLite URI opening it read-only and immutable (no lock, no journal beside it).
    static func immutableURI(_ path: String) -> String {
        var out = "file:"
        let hex = Array("0123456789ABCDEF")
        for b in path.utf8 {
            let c = Character(UnicodeScalar(b))
            if b < 0x80, c.isLetter || c.isNumber || "-._~/".contains(c) { out.append(c) } else { out += "%\(hex[Int(b >> 4)])\(hex[Int(b & 15)])" }
        }
        return out + "?mode=ro&immutable=1"
    }

    /// What `path` holds, copied to a new file only this user can read in the temporary directory
    /// (named `prefix-XXXXXX`); the caller removes the copy.
    private static func namedCopy(of path: String, displayName: String, prefix: String) throws -> String {
        let input = try InputFile(path: path, displayName: displayName)
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/" + prefix + "-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { p in p.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else {
            throw DiveError("io.create", "cannot make a temporary copy of the database: \(String(cString: strerror(errno)))", at: SourceLocation(file: displayName))
        }
        defer { close(fd) }
        let target = template.withUnsafeBufferPointer { p in p.baseAddress.map { String(cString: $0) } ?? "" }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { raw in write(fd, raw.baseAddress.map { $0 + written }, n - written) }
                guard w > 0 else {
                    unlink(target)
                    throw DiveError("io.create", "cannot make a temporary copy of the database: \(String(cString: strerror(errno)))", at: SourceLocation(file: displayName))
                }
                written += w
            }
        }
        return target
    }

    // MARK: Sniffing

    /// True when `bytes` (a file's first bytes) open with SQLite's header and hold each of
    /// `texts`: SQLite keeps its schema as SQL text (the CREATE TABLE statements) in its first
    /// pages, so a format is told from other SQLite files by its tables' text there.
    package static func sniff(_ bytes: [UInt8], containing texts: [String]) -> Bool {
        bytes.starts(with: header) && texts.allSatisfy { contains($0, in: bytes) }
    }

    /// True when `text` occurs in `bytes` (the file's own bytes: a database's zero bytes can make
    /// the sniffer's single-byte text a UTF-16 reading of it).
    package static func contains(_ text: String, in bytes: [UInt8]) -> Bool {
        bytes.firstRange(of: Array(text.utf8)) != nil
    }
}
