import DiveCore
internal import DiveSQLite
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
    /// The sites and buddies the database's dives refer to, as read so far.
    public private(set) var header = LogbookHeader()
    /// The most samples one dive keeps (``InputLimits/samplesPerDive``); tests lower it.
    package var samplesPerDive = InputLimits.samplesPerDive

    /// The database, opened read-only; its reads turn SQLite's errors into located ones.
    let file: SQLiteLogbookFile
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
        file = try SQLiteLogbookFile(path: path, displayName: name, format: "shearwater-db", copyPrefix: "umilog-shearwater")
        header.sourceFormat = "shearwater_db"
        try openTables()
    }

    /// Lists the tables; refuses a database without `dive_details`; reports each table not read.
    private func openTables() throws {
        let names = try file.tableNames()
        tables = Set(names.map { $0.lowercased() })
        guard tables.contains(ShearwaterDB.diveTable) else {
            let list = SQLiteLogbookFile.listing(names)
            throw DiveError("shearwater-db.not-shearwater",
                            "the file is an SQLite database but not a Shearwater Cloud export: it has no dive_details table (\(list))",
                            at: SourceLocation(file: displayName))
        }
        for (name, count) in try file.unreadTables(names, read: Self.readTables) {
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

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// The next `dive_details` row as a dive, or `nil` after the last; the columns not carried
    /// are reported once the last is read.
    public func next() throws -> Dive? {
        guard !done else { return nil }
        let after = lastRowid
        guard let row = try file.read(table: "dive_details", { db in
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
