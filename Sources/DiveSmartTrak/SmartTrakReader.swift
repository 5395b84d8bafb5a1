import DiveCore

/// Reads Uwatec/Scubapro SmartTRAK's logbook (`.slg`), a Microsoft Access database, through
/// mdb-tools (``AccessDatabase``), by `docs/smarttrak-mapping.md`: one `Dives` row at a time as
/// `mdb-json` prints them, each row's computer bytes (`Log` then `Profile`) decoded as a Uwatec
/// Smart dive (``UwatecSmartDive``), and the small tables a row refers to (`Site`, `Buddy`,
/// `Tank`, …, and the `…Relation` tables) read once, when first needed.
///
/// Every column of every row met is carried or reported: what is left in a row once it is read
/// is counted per column over the file and reported when the file is done
/// (`smarttrak.not-carried`), so a column another SmartTRAK version adds is reported by the same
/// rule. SmartTRAK writes 0 in a number it was never given; in a column read, 0 is read as not
/// recorded and said once (`smarttrak.zero-as-blank`). Without mdb-tools the file is an error
/// that names what to install (`smarttrak.mdbtools-missing`).
public final class SmartTrakReader: DiveSource {
    /// The namespace of the ids this reader mints: uuid5(NAMESPACE_URL, "https://umilog.example/ns/smarttrak"), frozen.
    public static let namespace = "28af86cd-a995-5c98-bcce-5c87cafb9083"

    /// The file as findings and errors name it.
    public let displayName: String
    public internal(set) var header = LogbookHeader()

    let db: AccessDatabase
    private var dives: AccessRowStream?
    /// SmartTRAK's file format (the `SmartTrak` table's `SWversion`), deciding how many tanks a row holds.
    private(set) var version: Int?
    /// Tanks per row: 10 from format 10213, else 3 (Subsurface's reading).
    var tankSlots = 3
    var tables: Set<String> = []
    var findings: [Finding] = []
    var tally = FindingTally()
    var index = 0
    private var done = false

    // Small tables, read once when first needed: Idx → row, and DiveIdx → rows.
    private var lookups: [String: [Int: AccessRow]] = [:]
    private var relations: [String: [Int: [AccessRow]]] = [:]
    /// Rows of each small table some dive referred to.
    var used: [String: Set<Int>] = [:]
    // Model records already made, by table and Idx.
    var made: [String: String] = [:]

    /// The tables whose rows are read: every other one is reported, unread, when opened.
    static let readTables: Set<String> = [
        "Dives", "SmartTrak", "Site", "Location", "Water", "Platform", "Bottom", "Buddy", "BuddyRelation", "Type", "TypeRelation",
        "Activity", "ActivityRelation", "Gear", "GearRelation", "Fish", "FishRelation", "Suit", "Tank", "TankType", "Weather",
        "Surface", "Underwater", "Marker", "DivePictures",
    ]

    /// Opens the SmartTRAK logbook at `path`: lists its tables, refuses an Access database with
    /// no `Dives` table, reads its format version and reports each table not read.
    /// - Parameter toolSearchPath: where mdb-tools is looked for (`PATH` when nil).
    public init(path: String, displayName: String? = nil, toolSearchPath: String? = nil) throws {
        let name = displayName ?? (path == "-" ? "<stdin>" : path)
        self.displayName = name
        db = try AccessDatabase(path: path, displayName: name, format: "smarttrak", program: "SmartTRAK", searchPath: toolSearchPath)
        let names = try db.tableNames()
        tables = Set(names)
        guard tables.contains("Dives") else {
            throw DiveError("smarttrak.not-smarttrak",
                            "the file is a Microsoft Access database but not SmartTRAK's: it has no Dives table (its tables are \(names.prefix(12).joined(separator: ", ")))",
                            at: SourceLocation(file: name))
        }
        header.sourceFormat = "smarttrak"
        var g = Generator(name: "SmartTRAK", version: nil)
        g.type = "logbook"
        if tables.contains("SmartTrak"), var row = try readTable("SmartTrak").first {
            if let v = row.cells.removeValue(forKey: "SWversion")?.number { version = Int(v) }
            row.cells.removeValue(forKey: "Idx")
            leftovers(row)
        }
        if let version {
            header.sourceVersion = String(version)
            if version == 10000 {
                throw DiveError("smarttrak.format-too-old",
                                "the file is SmartTRAK's oldest format (10000), whose Dives table is laid out otherwise; open it in a newer SmartTRAK, which upgrades it, and read it again",
                                at: SourceLocation(file: name, path: "SmartTrak.SWversion"))
            }
            tankSlots = version < 10213 ? 3 : 10
        }
        header.sourceGenerator = g
        for table in names.sorted() where !Self.readTables.contains(table) {
            let count = try db.rowCount(table)
            guard count > 0 else { continue }
            findings.append(Finding(.dropped, "smarttrak.table-not-read",
                                    "the table \(table) holds \(count) row\(count == 1 ? "" : "s") umilog does not read (pictures, the wreck's history and the program's own settings have no place in its model); not read",
                                    at: SourceLocation(file: name, path: table)))
        }
        expectedDives = try db.rowCount("Dives")
        dives = try db.rows("Dives")
    }

    /// How many rows mdb-tools counts in `Dives`: a file that yields fewer is damaged.
    private var expectedDives = 0
    private var divesRead = 0

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// The next `Dives` row as a dive, or nil after the last.
    public func next() throws -> Dive? {
        guard !done else { return nil }
        guard let stream = dives, let row = try stream.next() else {
            done = true
            if let stream = dives {
                let at = SourceLocation(file: displayName, path: "Dives")
                // A lost dive is never quiet: rows mdb-json could not read, or fewer than counted, fail the file.
                if stream.damaged > 0 || divesRead < expectedDives {
                    let said = stream.warnings.map { " (mdb-json said: \($0))" } ?? ""
                    throw DiveError("smarttrak.access-damaged",
                                    "mdb-tools read \(divesRead) of the \(expectedDives) rows of table Dives\(stream.damaged > 0 ? " and could not read \(stream.damaged)" : "")\(said); the database is damaged: repair it (Access's or SmartTRAK's \"compact and repair\") and read it again",
                                    at: at)
                }
                if let warnings = stream.warnings {
                    report(.dropped, "mdbtools-warned", "mdb-tools read every row of table Dives but said \(warnings); check the dives", at: at)
                }
            }
            dives = nil
            finish()
            return nil
        }
        divesRead += 1
        defer { index += 1 }
        return try buildDive(row)
    }

    /// The findings said once the file is read: rows of the small tables no dive referred to,
    /// and the tallies.
    private func finish() {
        for table in lookups.keys.sorted() {
            let rows = lookups[table]!
            let unused = rows.keys.filter { !(used[table]?.contains($0) ?? false) }
            guard !unused.isEmpty else { continue }
            findings.append(Finding(.dropped, "smarttrak.rows-not-referred",
                                    "\(unused.count) of the \(rows.count) rows of table \(table) are referred to by no dive (SmartTRAK's pick lists hold entries never used); not read",
                                    at: SourceLocation(file: displayName, path: table, row: rows[unused.min()!]!.row)))
        }
        findings += tally.findings()
        tally.removeAll()
    }

    // MARK: Tables

    /// The row of `table` whose `Idx` is `idx` (0 and negative refer to none), marked used.
    func lookup(_ table: String, _ idx: Int?) throws -> AccessRow? {
        guard let idx, idx > 0, tables.contains(table) else { return nil }
        if lookups[table] == nil {
            var byIdx: [Int: AccessRow] = [:]
            for row in try readTable(table) {
                guard let i = row.cells["Idx"]?.number.map({ Int($0) }) else { continue }
                if byIdx[i] == nil { byIdx[i] = row }
            }
            lookups[table] = byIdx
        }
        guard let row = lookups[table]?[idx] else {
            tally.add("dangling.\(table)", .dropped, "smarttrak.reference-dangling", at: SourceLocation(file: displayName, path: table)) { n in
                "\(n == 1 ? "a dive refers" : "\(n) references refer") to a row of table \(table) that does not exist (the first Idx \(idx)); nothing is carried for \(n == 1 ? "it" : "them")"
            }
            return nil
        }
        used[table, default: []].insert(idx)
        return row
    }

    /// The rows of relation table `table` for the dive whose `Idx` is `dive`.
    func related(_ table: String, dive: Int) throws -> [AccessRow] {
        guard tables.contains(table) else { return [] }
        if relations[table] == nil {
            var byDive: [Int: [AccessRow]] = [:]
            for row in try readTable(table) {
                guard let d = row.cells["DiveIdx"]?.number.map({ Int($0) }) else { continue }
                byDive[d, default: []].append(row)
            }
            relations[table] = byDive
        }
        return relations[table]?[dive] ?? []
    }

    /// Every row of a small table; rows mdb-json could not read, and what it said, are reported.
    private func readTable(_ table: String) throws -> [AccessRow] {
        let (rows, damaged, warnings) = try db.allRows(table)
        if damaged > 0 || warnings != nil {
            let said = warnings.map { " (mdb-json said: \($0))" } ?? ""
            report(.dropped, "table-damaged",
                   "mdb-tools could not read \(damaged) row\(damaged == 1 ? "" : "s") of table \(table)\(said); what the dives refer to there is not carried",
                   at: SourceLocation(file: displayName, path: table))
        }
        return rows
    }

    // MARK: Accounting

    /// A cell SmartTRAK leaves for "nothing": 0, empty text, its `---`, `--` and `???` placeholders (none, unknown),
    /// empty binary.
    static func isBlank(_ cell: AccessCell) -> Bool {
        switch cell {
        case .number(let v): return v == 0
        case .text(let t):
            let s = t.trimmingWhitespace()
            return s.isEmpty || s == "---" || s == "--" || s == "???"
        case .binary(let b): return b.isEmpty
        }
    }

    /// Reports each cell left in `row` that holds something, counted per column over the file.
    func leftovers(_ row: AccessRow) {
        for column in row.cells.keys.sorted() {
            let cell = row.cells[column]!
            guard !Self.isBlank(cell) else { continue }
            let example = cell.example
            tally.add("left.\(row.table).\(column)", .dropped, "smarttrak.not-carried", at: SourceLocation(file: displayName, path: "\(row.table).\(column)", row: row.row)) { n in
                "\(row.table).\(column) has no place in umilog's model; \(n == 1 ? "one row holds" : "\(n) rows hold values, the first") \(example); not carried"
            }
        }
    }

    /// Says (once, counted) that a 0 in a column read is taken as not recorded.
    func zeroAsBlank(_ row: AccessRow, _ column: String) {
        tally.add("zero-as-blank", .resolved, "smarttrak.zero-as-blank", at: SourceLocation(file: displayName, path: "\(row.table).\(column)", row: row.row)) { n in
            "SmartTRAK writes 0 in a number it was never given; \(n) zero\(n == 1 ? "" : "s") in columns read (the first \(row.table).\(column)) \(n == 1 ? "is" : "are") read as not recorded"
        }
    }

    func location(_ row: AccessRow, _ column: String? = nil) -> SourceLocation {
        SourceLocation(file: displayName, path: column.map { "\(row.table).\($0)" } ?? row.table, row: row.row)
    }

    func report(_ kind: FindingKind, _ code: String, _ message: String, at location: SourceLocation) {
        findings.append(Finding(kind, "smarttrak.\(code)", message, at: location))
    }
}

/// Takes cells out of a row as they are read; what is left is reported.
extension AccessRow {
    /// The cell, taken out of the row; nil when NULL.
    mutating func take(_ column: String) -> AccessCell? { cells.removeValue(forKey: column) }

    /// Text, taken; nil for NULL and SmartTRAK's blanks.
    mutating func text(_ column: String) -> String? {
        guard let c = take(column), !SmartTrakReader.isBlank(c), let t = c.text else { return nil }
        return t.trimmingWhitespace()
    }

    /// A whole number, taken; nil for NULL (0 is returned: the caller decides what it means).
    mutating func int(_ column: String) -> Int? { take(column)?.number.map { Int($0) } }
}

/// A date or time cell as mdb-json prints it (`YYYY-MM-DD HH:MM:SS`, the format it is asked
/// for): Access stores days since 1899-12-30 with the time of day as the fraction, so a time
/// alone is that day's, and a duration is days since then plus the time of day.
struct AccessDateTime {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    init?(_ text: String) {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" || $0 == "T" }).compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        (year, month, day, hour, minute, second) = (parts[0], parts[1], parts[2], parts[3], parts[4], parts[5])
        guard (1...12).contains(month), (0...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
    }

    /// Days since 1970-01-01 of a (proleptic Gregorian) date; day 0 is the month's day before its first.
    static func days(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let y2 = m <= 2 ? y - 1 : y
        let era = (y2 >= 0 ? y2 : y2 - 399) / 400
        let yoe = y2 - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Access's day 0.
    static let zero = days(1899, 12, 30)

    var secondsOfDay: Int { hour * 3600 + minute * 60 + second }
    /// As a duration: whole days since 1899-12-30 and the time of day, in seconds.
    var duration: Int { (Self.days(year, month, day) - Self.zero) * 86400 + secondsOfDay }
    var date: LocalDate? { LocalDate(daysSinceEpoch: Self.days(year, month, day)) }
    var time: TimeOfDay? { TimeOfDay(hour: hour, minute: minute, second: second) }
    /// As mdb-json printed it.
    var text: String {
        func p(_ n: Int, _ w: Int) -> String { let s = String(n); return String(repeating: "0", count: max(0, w - s.count)) + s }
        return "\(p(year, 4))-\(p(month, 2))-\(p(day, 2)) \(p(hour, 2)):\(p(minute, 2)):\(p(second, 2))"
    }
}
