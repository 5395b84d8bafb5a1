import DiveCore
internal import Foundation

/// A Microsoft Access (Jet) database read through mdb-tools (`mdb-tables`, `mdb-count`,
/// `mdb-json`), which Debian and most distributions package as `mdbtools`. Nothing is written:
/// each table is exported by a child process and its rows read one line at a time as they come,
/// so a table is never held whole. A tool that is missing, fails or writes what is not one JSON
/// object per row is a located error.
final class AccessDatabase {
    let displayName: String
    /// The path the tools open (an unnamed input as `/proc/<pid>/fd/N`, which a child can open).
    let path: String
    let tools: String
    let format: String

    /// What to install, said when the tools are missing.
    static let installHint = "install mdb-tools (Debian and Ubuntu: `sudo apt-get install mdbtools`; macOS: `brew install mdbtools`)"

    /// The directory on `searchPath` (by default `PATH`) holding `mdb-json`, `mdb-tables` and
    /// `mdb-count`, or nil.
    static func locateTools(searchPath: String? = nil) -> String? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":").map(String.init) where !dir.isEmpty {
            if ["mdb-json", "mdb-tables", "mdb-count"].allSatisfy({ access(dir + "/" + $0, X_OK) == 0 }) { return dir }
        }
        return nil
    }

    init(path: String, displayName: String, format: String, program: String, searchPath: String? = nil) throws {
        self.displayName = displayName
        self.format = format
        guard path != "-" else {
            throw DiveError("\(format).stdin", "an Access database is read from a file; standard input cannot be opened as one", at: SourceLocation(file: displayName))
        }
        guard let tools = Self.locateTools(searchPath: searchPath) else {
            throw DiveError("\(format).mdbtools-missing",
                            "this is a Microsoft Access database (\(program)'s logbook); umilog reads it through mdb-tools, which is not installed: \(Self.installHint)",
                            at: SourceLocation(file: displayName))
        }
        self.tools = tools
        // A child cannot open our /proc/self/fd/N; it can open /proc/<our pid>/fd/N.
        if path.hasPrefix("/proc/self/fd/") {
            self.path = "/proc/\(getpid())/fd/" + path.dropFirst("/proc/self/fd/".count)
        } else if path.hasPrefix("/dev/fd/") {
            self.path = "/proc/\(getpid())/fd/" + path.dropFirst("/dev/fd/".count)
        } else {
            self.path = path
        }
        _ = try InputFile(path: path, displayName: displayName)  // exists and is readable, or a located error
    }

    /// The database's tables, as mdb-tools lists them (system tables left out).
    func tableNames() throws -> [String] {
        try run("mdb-tables", ["-1", path], what: "its list of tables").split(separator: "\n").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// How many rows `table` holds.
    func rowCount(_ table: String) throws -> Int {
        let out = try run("mdb-count", [path, table], what: "the row count of table \(table)")
        guard let n = Int(out.trimmingWhitespace()) else {
            throw DiveError("\(format).access-unreadable", "mdb-count gave \"\(out.prefix(60))\" for table \(table), not a number", at: SourceLocation(file: displayName, path: table))
        }
        return n
    }

    /// The rows of `table`, streamed.
    func rows(_ table: String) throws -> AccessRowStream {
        try AccessRowStream(executable: tools + "/mdb-json", arguments: ["-D", "%Y-%m-%d %H:%M:%S", "-T", "%Y-%m-%d %H:%M:%S", path, table],
                            table: table, file: displayName, format: format)
    }

    /// Every row of `table`, for the small tables a dive refers to, with how many rows mdb-json
    /// could not read and what it said of the table.
    func allRows(_ table: String) throws -> (rows: [AccessRow], damaged: Int, warnings: String?) {
        let stream = try rows(table)
        var out: [AccessRow] = []
        while let row = try stream.next() { out.append(row) }
        return (out, stream.damaged, stream.warnings)
    }

    /// Runs a tool to its end and returns what it printed; its failure is a located error.
    private func run(_ tool: String, _ arguments: [String], what: String) throws -> String {
        let child: ChildProcess
        do { child = try ChildProcess(tools + "/" + tool, arguments) } catch {
            throw DiveError("\(format).mdbtools-failed", "\(tool) could not be started: \(error)", at: SourceLocation(file: displayName))
        }
        let data = child.readAll()
        guard child.status == 0 else {
            throw DiveError("\(format).access-unreadable",
                            "mdb-tools could not read \(what) (\(tool) said: \(AccessRowStream.said(child.errors))); the file is not an Access database it can read",
                            at: SourceLocation(file: displayName))
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// One cell as mdb-json gives it: text (dates as `YYYY-MM-DD HH:MM:SS`), a number, or binary
/// (an OLE column). A NULL cell is absent from its row.
enum AccessCell: Sendable, Hashable {
    case text(String)
    case number(Double)
    case binary([UInt8])

    var number: Double? { if case .number(let v) = self { return v }; if case .text(let t) = self { return Double(t) }; return nil }
    var text: String? {
        switch self {
        case .text(let t): return t
        case .number(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
        case .binary: return nil
        }
    }
    /// As a finding's example.
    var example: String {
        switch self {
        case .binary(let b): return "\(b.count) bytes of binary data"
        default: return "\"\(text!.prefix(60))\""
        }
    }
}

/// A row: its table, its ordinal (from 1, as mdb-tools lists the table) and its cells by column.
struct AccessRow: Sendable {
    var table: String
    var row: Int
    var cells: [String: AccessCell]
}

/// The rows of one table as `mdb-json` prints them, one JSON object per line, read as they come.
/// Dropping the stream before its end ends the child.
final class AccessRowStream {
    private let child: ChildProcess
    private let table: String
    private let file: String
    private let format: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    private var row = 0
    /// Rows mdb-json printed as blanks: rows it could not read.
    private(set) var damaged = 0
    /// What mdb-json wrote to standard error, once the table is read (a sound file: nothing).
    private(set) var warnings: String?

    /// What a tool wrote to standard error, for a message: its first line, or "nothing".
    static func said(_ data: [UInt8]) -> String {
        let text = String(decoding: data.prefix(400), as: UTF8.self).trimmingWhitespace()
        let first = text.split(separator: "\n").first.map(String.init) ?? ""
        return first.isEmpty ? "nothing" : "\"\(first)\""
    }

    init(executable: String, arguments: [String], table: String, file: String, format: String) throws {
        self.table = table
        self.file = file
        self.format = format
        do { child = try ChildProcess(executable, arguments) } catch {
            throw DiveError("\(format).mdbtools-failed", "mdb-json could not be started: \(error)", at: SourceLocation(file: file, path: table))
        }
    }

    /// The next row, or nil after the last; a failed export or a line that is not a JSON
    /// object is an error located at the table's row.
    func next() throws -> AccessRow? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<nl]
                start = nl + 1
                if line.allSatisfy({ $0 == 0x0D }) { continue }
                row += 1
                // A row of spaces is one mdb-json could not read (a damaged page).
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { damaged += 1; continue }
                return try parse(line)
            }
            if ended {
                if start < buffer.count {
                    let line = buffer[start...]
                    start = buffer.count
                    row += 1
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { damaged += 1; return nil }
                    return try parse(line)
                }
                return nil
            }
            if start > 0 { buffer.removeSubrange(0..<start); start = 0 }
            if let chunk = child.read() {
                buffer += chunk
            } else {
                ended = true
                if !child.errors.isEmpty { warnings = Self.said(child.errors) }
                if child.status != 0 {
                    throw DiveError("\(format).access-unreadable",
                                    "mdb-tools could not read table \(table) (mdb-json said: \(Self.said(child.errors)), exit \(child.status)); the database is damaged or not one it can read",
                                    at: SourceLocation(file: file, path: table, row: row + 1))
                }
            }
        }
    }

    private func parse(_ line: ArraySlice<UInt8>) throws -> AccessRow {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(line)) } catch {
            throw DiveError("\(format).access-unreadable", "mdb-json printed a row of table \(table) that is not JSON (\"\(String(decoding: line.prefix(60), as: UTF8.self))\")",
                            at: SourceLocation(file: file, path: table, row: row))
        }
        guard let dict = object as? [String: Any] else {
            throw DiveError("\(format).access-unreadable", "mdb-json printed a row of table \(table) that is not a JSON object", at: SourceLocation(file: file, path: table, row: row))
        }
        var cells: [String: AccessCell] = [:]
        for (key, value) in dict {
            if let s = value as? String {
                cells[key] = .text(s)
            } else if let b = value as? [String: Any], let text = b["$binary"] as? String {
                cells[key] = .binary(Data(base64Encoded: text).map { [UInt8]($0) } ?? [])
            } else if let n = value as? Int {
                cells[key] = .number(Double(n))
            } else if let n = value as? Double {
                cells[key] = .number(n)
            } else if let n = value as? NSNumber {
                cells[key] = .number(n.doubleValue)
            }
        }
        return AccessRow(table: table, row: row, cells: cells)
    }
}
