import DiveCore
internal import Foundation
internal import GRDB

/// Reads a Shearwater Cloud database export (an SQLite file) through SQLite, one dive at a time:
/// each `dive_details` row is a dive, its summary and logbook fields; its `log_data` row holds the
/// computer's own log (`sw-pnf`: the Petrel Native Format, gzip-compressed), from which the
/// profile, gases and settings come; where a dive has no such log, its `dive_logs` and
/// `dive_log_records` rows (the layout Shearwater Desktop's XML export serialises) are read
/// instead. By `docs/shearwater-mapping.md`.
///
/// The file is opened read-only and immutable (`mode=ro&immutable=1`, `PRAGMA query_only`):
/// nothing is written, no journal is made beside it. Every column of every row read is carried or
/// counted into one `shearwater-db.not-carried` finding per column; every table not read at all is
/// reported once.
public final class ShearwaterDBReader: DiveSource {
    /// The file name diagnostics use.
    public let displayName: String
    public private(set) var header = LogbookHeader()
    /// The most samples one dive keeps (``InputLimits/samplesPerDive``); tests lower it.
    package var samplesPerDive = InputLimits.samplesPerDive

    private let queue: DatabaseQueue
    var findings: [Finding] = []
    var columns = ColumnTally()
    /// The tables the file holds, by lowercased name.
    private(set) var tables: Set<String> = []
    /// The `dive_details` rowid read last.
    private(set) var lastRowid = Int64.min
    private var index = 0
    private var done = false

    /// The tables this reader reads; every other one is reported once, unread.
    static let readTables: Set<String> = ["dive_details", "log_data", "dive_logs", "dive_log_records"]

    /// Opens the Shearwater Cloud database at `path`.
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = displayName ?? (path == "-" ? "<stdin>" : path)
        self.displayName = name
        guard path != "-" else {
            throw DiveError("shearwater-db.stdin", "a database is read from a file; standard input cannot be opened as one",
                            at: SourceLocation(file: name))
        }
        // The file must exist and open with SQLite's magic before SQLite is asked to open it.
        let input = try InputFile(path: path, displayName: name)
        var magic = [UInt8](repeating: 0, count: 16)
        let n = try magic.withUnsafeMutableBytes { try input.readFully(into: $0) }
        guard n == 16, magic.elementsEqual("SQLite format 3\0".utf8) else {
            throw DiveError("shearwater-db.not-sqlite", "the file is not an SQLite database: it does not open with SQLite's header",
                            at: SourceLocation(file: name))
        }
        // SQLite resolves a `/proc/self/fd/N` path (standard input, spooled to an unnamed file) to
        // the deleted file's name, which it cannot open: such input is copied to a named file.
        let copied = path.hasPrefix("/proc/self/fd/") || path.hasPrefix("/dev/fd/") ? try Self.namedCopy(of: path, displayName: name) : nil
        copy = copied
        var config = Configuration()
        config.readonly = true
        config.label = "shearwater-db"
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        do {
            queue = try DatabaseQueue(path: Self.immutableURI(copied ?? path), configuration: config)
        } catch {
            if let copied { unlink(copied) }
            throw Self.located(error, file: name, table: nil, row: nil)
        }
        header.sourceFormat = "shearwater_db"
        try openTables()
    }

    deinit { if let copy { unlink(copy) } }

    /// The named copy of an unnamed input this reader made, removed when it is done.
    private var copy: String?

    /// What `path` holds, copied to a new file only this user can read in the temporary directory
    /// (named `prefix-XXXXXX`): SQLite cannot open an unnamed input (standard input) by its
    /// `/proc/self/fd` path. Every SQLite reader uses it; the caller removes the copy.
    package static func namedCopy(of path: String, displayName: String, prefix: String = "umilog-shearwater") throws -> String {
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

    /// `path` as an SQLite URI opening it read-only and immutable (no lock, no journal beside it).
    package static func immutableURI(_ path: String) -> String {
        var out = "file:"
        for b in path.utf8 {
            let c = Character(UnicodeScalar(b))
            if b < 0x80, c.isLetter || c.isNumber || "-._~/".contains(c) {
                out.append(c)
            } else {
                let hex = Array("0123456789ABCDEF")
                out += "%\(hex[Int(b >> 4)])\(hex[Int(b & 15)])"
            }
        }
        return out + "?mode=ro&immutable=1"
    }

    /// A GRDB error as a located one: a damaged file is `shearwater-db.corrupt`, a file SQLite
    /// cannot read as a database `shearwater-db.not-a-database`, anything else `shearwater-db.sqlite`.
    static func located(_ error: any Error, file: String, table: String?, row: Int64?) -> DiveError {
        let at = SourceLocation(file: file, path: table, row: row.map { Int($0) })
        let reading = table.map { " while reading \($0)\(row.map { " row \($0)" } ?? "")" } ?? ""
        guard let e = error as? DatabaseError else {
            if let e = error as? DiveError { return e }
            return DiveError("shearwater-db.sqlite", "SQLite failed\(reading): \(error)", at: at)
        }
        let said = e.message ?? "\(e.resultCode)"
        switch e.resultCode {
        case .SQLITE_CORRUPT:
            return DiveError("shearwater-db.corrupt", "the database is damaged (SQLite: \(said))\(reading); it cannot be read", at: at)
        case .SQLITE_NOTADB:
            return DiveError("shearwater-db.not-a-database", "the file opens like an SQLite database but SQLite cannot read it as one (SQLite: \(said))", at: at)
        default:
            return DiveError("shearwater-db.sqlite", "SQLite failed\(reading): \(said)", at: at)
        }
    }

    /// Runs `body` in a read, turning SQLite's errors into located ones.
    func read<T>(table: String?, row: Int64? = nil, _ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch {
            throw Self.located(error, file: displayName, table: table, row: row)
        }
    }

    /// Lists the tables; refuses a database without `dive_details`; reports each table not read.
    private func openTables() throws {
        let names = try read(table: "sqlite_master") { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        }
        tables = Set(names.map { $0.lowercased() })
        guard tables.contains(ShearwaterDB.diveTable) else {
            let list = names.isEmpty ? "it has no tables" : "its tables are \(names.prefix(12).joined(separator: ", "))\(names.count > 12 ? ", …" : "")"
            throw DiveError("shearwater-db.not-shearwater",
                            "the file is an SQLite database but not a Shearwater Cloud export: it has no dive_details table (\(list))",
                            at: SourceLocation(file: displayName))
        }
        for name in names where !Self.readTables.contains(name.lowercased()) {
            let count = try read(table: name) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(name.quotedDatabaseIdentifier)") ?? 0 }
            let at = SourceLocation(file: displayName, path: name)
            if count == 0 {
                findings.append(Finding(.absent, "shearwater-db.table-not-read", "the table \(name) holds no rows; not read", at: at))
            } else {
                findings.append(Finding(.dropped, "shearwater-db.table-not-read",
                                        "the table \(name) holds \(count) row\(count == 1 ? "" : "s") of no dive's summary, log or samples; not read",
                                        at: at))
            }
        }
    }

    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// The next `dive_details` row as a dive, or `nil` after the last; the columns not carried
    /// are reported once the last is read.
    public func next() throws -> Dive? {
        guard !done else { return nil }
        let after = lastRowid
        guard let row = try read(table: "dive_details", { db in
            try Row.fetchOne(db, sql: "SELECT rowid, * FROM dive_details WHERE rowid > ? ORDER BY rowid LIMIT 1", arguments: [after])
        }) else {
            done = true
            findings += columns.findings(format: "shearwater-db", file: displayName)
            return nil
        }
        let rowid: Int64 = row["rowid"] ?? after + 1
        lastRowid = rowid
        defer { index += 1 }
        return try dive(from: row, rowid: rowid)
    }

    func report(_ kind: FindingKind, _ code: String, _ message: String, path: String, row: Int64) {
        findings.append(Finding(kind, "shearwater-db.\(code)", message, at: SourceLocation(file: displayName, path: path, row: Int(row))))
    }

    // MARK: One dive

    private func dive(from row: Row, rowid: Int64) throws -> Dive {
        let ordered = shearwaterCells(row, rowid: rowid)
        let cells = shearwaterValues(ordered)
        var consumed: Set<String> = []
        func take(_ name: String) -> ShearwaterValue? {
            consumed.insert(name)
            return cells[name]
        }
        let id = take("diveid")?.text
        let uuid = id.map { Identity.uuid(kind: "dive", sourceID: $0, namespace: ShearwaterDB.namespace) }
            ?? Identity.uuid5(namespace: ShearwaterDB.namespace, name: "dive:#\(index)")
        var dive = Dive(uuid: uuid, startedAt: nil)
        dive.provenance = Provenance(format: "shearwater-db", file: displayName, sourceID: id, index: index, line: nil, positionalIdentity: id == nil)
        if id == nil {
            report(.absent, "id-absent", "the row has no DiveId; its identity is its place in the table", path: "dive_details.DiveId", row: rowid)
        }
        tankCylinders = [:]
        var rec = Recording()
        var device = Device()
        device.brand = "Shearwater"

        if let v = take("divedate") {
            if let (start, notes) = DiveDateTime.parse(v.text) {
                dive.startedAt = start
                if notes.secondsMissing { report(.absent, "time-without-seconds", "\(v.name) \"\(v.text)\" has no seconds; read as :00", path: "dive_details.\(v.name)", row: rowid) }
                if notes.dateOnly { report(.absent, "time-absent", "\(v.name) \"\(v.text)\" is a date with no time of day", path: "dive_details.\(v.name)", row: rowid) }
                if start.offset == nil {
                    report(.absent, "offset-absent", "the database records no UTC offset; the start is the wall clock alone", path: "dive_details.\(v.name)", row: rowid)
                }
            } else {
                report(.dropped, "start-invalid", "\(v.name) \"\(v.text)\" is not a date and time; not carried", path: "dive_details.\(v.name)", row: rowid)
            }
        } else {
            report(.absent, "start-absent", "the dive's row records no DiveDate", path: "dive_details", row: rowid)
        }
        let maxText = take("depth"), meanText = take("averagedepth")
        let depths = SummaryDepths(max: maxText.flatMap { DecimalNumber($0.text) }, mean: meanText.flatMap { DecimalNumber($0.text) },
                                   maxName: "dive_details.Depth", meanName: "dive_details.AverageDepth")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings { report(f.kind, f.code, f.message, path: f.member == .max ? "dive_details.Depth" : "dive_details.AverageDepth", row: rowid) }
        for v in [maxText, meanText].compactMap({ $0 }) where DecimalNumber(v.text) == nil {
            report(.dropped, "not-a-number", "\(v.name) \"\(v.text)\" is not a number; not carried", path: "dive_details.\(v.name)", row: rowid)
        }
        if let v = take("divelengthtime") {
            if let s = DecimalNumber(v.text)?.roundedInteger(), s > 0, s <= 864_000 { dive.submergedTime = s } else {
                report(.dropped, "value-out-of-range", "\(v.name) \"\(v.text)\" is not a dive time in seconds; not carried", path: "dive_details.\(v.name)", row: rowid)
            }
        }
        if let v = take("serialnumber") { device.serial = String(v.text.prefix(64)) }
        if let v = take("divenumber") {
            // The computer's own counter, as the XML export's <number> (converting.md: not the diver's numbering).
            if let n = DecimalNumber.exactInteger(v.text), n >= 1, n < 1_000_000_000 { device.diveNumber = n } else {
                report(.dropped, "value-out-of-range", "\(v.name) \"\(v.text)\" is not a dive counter; not carried", path: "dive_details.\(v.name)", row: rowid)
            }
        }
        if let v = take("notes") { dive.notes = v.text }
        if let v = take("site") {
            let site = Site(uuid: Identity.uuid5(namespace: ShearwaterDB.namespace, name: "site:\(v.text)"), name: v.text)
            if header.site(site.uuid) == nil { header.sites.append(site) }
            dive.siteUUIDs = [site.uuid]
        }
        if let v = take("buddy") {
            let person = Person(uuid: Identity.uuid5(namespace: ShearwaterDB.namespace, name: "person:\(v.text)"), name: v.text)
            if header.person(person.uuid) == nil { header.people.append(person) }
            dive.people = [PersonReference(personUUID: person.uuid, role: .buddy)]
        }
        rec.device = device

        // The computer's log: log_data's, else dive_logs and dive_log_records.
        var units: ShearwaterUnits?
        var logRead = false
        if let id, tables.contains("log_data") {
            (logRead, units) = try readLogData(diveID: id, into: &dive, recording: &rec)
        }
        if let id, tables.contains("dive_logs") {
            let u = try readDiveLogs(diveID: id, samples: !logRead, into: &dive, recording: &rec)
            units = units ?? u
        }
        // The temperatures dive_details states are in the log's units: read only where a log says which.
        if let units, let v = take("mintemp") {
            if let n = ShearwaterNumber(v), case let c = units.celsius(n), c >= -5, c <= 50 { dive.bottomTemperature = c } else {
                report(.dropped, "value-out-of-range", "\(v.name) \"\(v.text)\" is not a water temperature; not carried", path: "dive_details.\(v.name)", row: rowid)
            }
        }
        readTankPressures(cells, consumed: &consumed, into: &dive, recording: &rec, row: rowid)
        columns.account(ordered, table: "dive_details", rowid: rowid, consumed: consumed)
        if rec.hasContent { dive.recordings = [rec] }
        return dive
    }

    /// `dive_details.Tank1PressureStart` … `Tank4PressureEnd` (lowercased): transmitter 1 to 4's
    /// start and end.
    private static let tankColumns = (1...4).map { ["tank\($0)pressurestart", "tank\($0)pressureend"] }

    /// `dive_details.Tank1PressureStart` … `Tank4PressureEnd`, in psi: the start and end of each
    /// transmitter's tank, on the cylinder its pressures are on (or a cylinder of its own), read
    /// by the samples' rule (``ShearwaterUnits/tankPressure(_:)``).
    private func readTankPressures(_ cells: [String: ShearwaterValue], consumed: inout Set<String>, into dive: inout Dive,
                                   recording rec: inout Recording, row: Int64) {
        for (tank, names) in Self.tankColumns.enumerated() {
            var ends: [Double?] = [nil, nil]
            for (e, name) in names.enumerated() {
                consumed.insert(name)
                guard let v = cells[name] else { continue }
                let path = "dive_details.\(v.name)"
                switch ShearwaterUnits.tankPressure(v.text) {
                case .bar(let tenths):
                    ends[e] = Double(tenths) / 10
                case .noReading:
                    report(.absent, "no-reading", "\(v.name) is \(v.text) psi, the transmitter's mark of no reading; read as not recorded", path: path, row: row)
                case .state:
                    report(.absent, "no-reading", "\(v.name) says \"\(v.text)\", a state and not a reading; read as not recorded", path: path, row: row)
                case .outOfRange:
                    report(.dropped, "value-out-of-range", "\(v.name) \(v.text) psi is not a tank pressure (0 to 350 bar); not carried", path: path, row: row)
                case .notANumber:
                    report(.dropped, "not-a-number", "\(v.name) \"\(v.text)\" is not a number; not carried", path: path, row: row)
                }
            }
            guard ends[0] != nil || ends[1] != nil else { continue }
            let cylinder = tankCylinder(tank, in: &dive, recording: &rec)
            if let s = ends[0] { dive.cylinders[cylinder].startPressure = s }
            if let e = ends[1] {
                if let s = dive.cylinders[cylinder].startPressure, e > s {
                    let name = cells[names[1]]?.name ?? names[1]
                    report(.dropped, "end-above-start", "\(name) is above its start; not carried", path: "dive_details.\(name)", row: row)
                } else {
                    dive.cylinders[cylinder].endPressure = e
                }
            }
        }
    }

    /// The cylinder transmitter `tank`'s pressures are on, made where there is none.
    private func tankCylinder(_ tank: Int, in dive: inout Dive, recording rec: inout Recording) -> Int {
        if let i = tankCylinders[tank] { return i }
        dive.cylinders.append(Cylinder())
        tankCylinders[tank] = dive.cylinders.count - 1
        return dive.cylinders.count - 1
    }

    /// Transmitter (0…3) to the cylinder its pressures went on, for the dive being read.
    var tankCylinders: [Int: Int] = [:]
}
