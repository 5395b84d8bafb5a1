import DiveCore

/// What the user tells the CSV reader that the file does not say.
public struct CSVReadOptions: Sendable, Hashable {
    /// The day/month order of the file's dates, when its date columns cannot decide it.
    public var dateOrder: DateOrder?
    /// The start of a profile that records none (`--started-at`).
    public var startedAt: DiveDateTime?
    /// Column meanings that override the dictionary and the presets, by header name
    /// (case-insensitive) or 1-based column number (`--map`, `--mapping`).
    public var columns: [String: CSVColumnMeaning]
    /// A bad value stops the file instead of being reported and left out.
    public var strict: Bool

    /// Makes options; every choice left out is the file's to decide (no date order, no start, no overrides, bad values reported).
    public init(dateOrder: DateOrder? = nil, startedAt: DiveDateTime? = nil,
                columns: [String: CSVColumnMeaning] = [:], strict: Bool = false) {
        self.dateOrder = dateOrder; self.startedAt = startedAt; self.columns = columns; self.strict = strict
    }
}

/// Reads dives from a CSV file, streaming: a summary table (one row per dive) or a profile
/// table (one row per sample, grouped into dives by a dive column or by a change of start, or
/// the whole file one dive). What the reader understood — dialect, preset, every column's
/// meaning and unit, the date order — is ``layout``, decided before the first dive.
///
/// Nothing is guessed silently: a unit taken from a value's size, a column not carried, a
/// value that is not what its column holds — each is a finding with row and column. A value
/// that cannot be read is left out and reported (with ``CSVReadOptions/strict``, it stops the
/// file).
public final class CSVDiveReader: DiveSource {
    /// The records the file's dives refer to (sites, people, trips, gear), as read so far.
    public private(set) var header = LogbookHeader()
    /// What the file was understood to be.
    public let layout: CSVLayout
    /// The columns a row is read from (those with a meaning to carry, time aside).
    let activeColumns: [CSVColumn]
    /// The same columns' places and meanings, which a row reads without copying a column.
    let active: [(index: Int, meaning: CSVColumnMeaning)]
    // What the builders read on every row, taken out of the layout once.
    let sampleTimeColumn: CSVColumn?
    let sampleInterval: Double?
    let dateOrder: DateOrder?
    /// A `time,code,value` export's codes.
    let codes: [Int: PresetCode]?
    /// Sample times from this many seconds up are the export's documented mistake.
    let timeLimit: Int?
    /// Texts the preset's template leaves for the user to replace, by field (folded).
    let placeholders: [CSVField: Set<String>]
    /// An event-log table's columns (§10.13).
    let eventLog: CSVEventLog?
    /// The channel each word of an event log's channel column names (`nil`: none carried), and
    /// the column its values are reported by (one per word, so that each decides its own unit).
    private var eventLogChannels: [String: (meaning: CSVColumnMeaning, column: CSVColumn)?] = [:]
    /// A Poseidon log's companion file (§1), when one is beside it.
    let companion: CSVCompanion?
    /// Readings not carried, by what they are (a code of a coded export, a word of an event
    /// log), counted, and said once each at the end of the file.
    private var tallies: [String: (order: Int, code: String, field: String, what: String, count: Int)] = [:]
    private var tallyOverflow = 0
    /// The columns profile cells' keys are reported by, by name, and their places.
    private var cellKeyColumns: [String: Int] = [:]

    private let tokenizer: CSVTokenizer
    private let file: String
    private let path: String
    /// The file as the user named it.
    public var fileName: String { file }
    /// Values already reported, by code, column and text (hashed: a value may be a long one): a
    /// column that says "AI is off" on every row is one finding, not one per row.
    private var valuesReported: Set<Int> = []
    /// Findings reported in full, by code; past ``CSVLimits/findingsPerCode`` they are counted
    /// by code, with their kind, and reported in one finding each at the end.
    private var findingsListed: [String: Int] = [:]
    private var findingsNotListed: [String: (kind: FindingKind, count: Int, lostDives: Int)] = [:]
    /// Dives the findings say were left out (rows that looked like a dive and gave none),
    /// counted whether or not their finding was listed.
    public private(set) var divesLost = 0
    /// Whether the end of the file has been reported (what was not listed, the encoding).
    private var endReported = false
    /// Whether the file's falling back to Windows-1252 has been reported.
    private var encodingReported = false
    /// Units decided for columns that state none, by column.
    private var assumedUnits: [Int: CSVUnit] = [:]
    private let options: CSVReadOptions
    private var findings: [Finding] = []
    private var columnReports: Set<String> = []
    private var divesRead = 0
    /// A row read ahead: the first of the next dive in a profile table.
    private var pending: CSVRow?
    /// Rows with values past the table's last column.
    private var overlongRows = 0
    /// A profile's columns not carried that have held 0 or nothing on every row so far, and
    /// those of them that held a 0: a sensor that is not fitted writes 0 (§10.8).
    private var zeroColumns: [Int] = []
    private var zeroSeen: Set<Int> = []
    private var finished = false
    /// Why the file cannot be read as it stands (the dates' order, a missing date column): the
    /// first ``next()`` throws it.
    public private(set) var problem: DiveError?
    /// The start the file's name carries (§10.12), looked for once, when a profile records none.
    lazy var startInFileName: (start: DiveDateTime, text: String)? = CSVValues.startInFileName(file)
    private var startInFileNameReported = false
    /// Whether a dive has taken the start `--started-at` or the file's name gives.
    var startGivenTaken = false
    /// How often each dive identity has been handed out.
    private var identities: [String: Int] = [:]
    /// ``CSVLimits/dives``, lowered by tests.
    var diveLimit = CSVLimits.dives
    /// ``CSVLimits/readingsPerDive``, lowered by tests.
    var readingLimit = CSVLimits.readingsPerDive
    /// ``CSVLimits/namedRecordBytes``, lowered by tests.
    var namedRecordLimit = CSVLimits.namedRecordBytes

    /// `name`, or, the second time a file names a dive so (two dives of one day in a list that
    /// records dates only), `name#2`: the same file still gives the same identities.
    func unique(_ name: String) -> String {
        identities[name, default: 0] += 1
        let n = identities[name]!
        return n == 1 ? name : "\(name)#\(n)"
    }

    /// Records the dives refer to, by kind and name → uuid, and what they take as
    /// ``CSVLimits/namedRecordBytes`` counts it.
    private var interned: [String: String] = [:]
    private var internedBytes = 0

    /// `readingDateOrder: false` leaves the date order undecided, saving the pass over every
    /// date it takes: for a caller that only asks what the table is (its ``layout``'s columns).
    public init(path: String, displayName: String? = nil, options: CSVReadOptions = CSVReadOptions(),
                readingDateOrder: Bool = true) throws {
        let name = displayName ?? path
        file = name
        self.path = path
        self.options = options
        tokenizer = try CSVTokenizer(path: path, displayName: name)
        let dialect = CSVDialect.sniff(tokenizer)
        tokenizer.delimiter = dialect.delimiter
        // The preamble and the header, kept (they are small), then the layout.
        var preamble: [[String]] = []
        var headerFields: [String]?
        var firstRow: [String]?
        var firstRowNumber = 0, firstLine = 0
        var encoding: Finding?
        while try tokenizer.next() {
            try Self.refuseUnclosedQuote(tokenizer, file: name)
            if encoding == nil { encoding = Self.encodingFallback(tokenizer, file: name) }
            if tokenizer.row <= dialect.preambleRecords {
                preamble.append(tokenizer.fields())
                continue
            }
            if tokenizer.isBlank { continue }
            if dialect.hasHeader && headerFields == nil {
                headerFields = tokenizer.fields()
                continue
            }
            firstRow = tokenizer.fields()
            firstRowNumber = tokenizer.row - dialect.preambleRecords
            firstLine = tokenizer.line
            break
        }
        var dates = DateOrderDecision()
        // The rows after the first, read by a tokenizer of their own only if a column's shape
        // must be seen to decide the layout.
        let skip = dialect.preambleRecords + (dialect.hasHeader ? 1 : 0)
        let lookahead = { () throws -> [[String]] in
            let ahead = try CSVTokenizer(path: path, displayName: name, delimiter: dialect.delimiter)
            var rows: [[String]] = []
            while rows.count < CSVLayout.lookaheadRows, try ahead.next() {
                guard ahead.row > skip, !ahead.isBlank, ahead.row - dialect.preambleRecords > firstRowNumber else { continue }
                rows.append(ahead.fields())
            }
            return rows
        }
        var layout = try CSVLayout.decide(dialect: dialect, preamble: preamble, header: headerFields, firstRow: firstRow,
                                          options: options, file: name, lookahead: lookahead)
        // Day/month order: from every date in the file (a first row in ISO says nothing of the
        // rows after it), read ahead in a pass of its own unless --date-order gives it.
        for m in layout.metadata where m.meaning.field == .date || m.meaning.field == .dateTime { dates.observe(Substring(m.value)) }
        let dateColumns = layout.columns.indices.filter { [.date, .dateTime].contains(layout.columns[$0].meaning?.field) }
        if !dateColumns.isEmpty, firstRow != nil, options.dateOrder == nil, readingDateOrder {
            let scan = try CSVTokenizer(path: path, displayName: name, delimiter: dialect.delimiter)
            var seen = Set<String>()
            var last = [String](repeating: "", count: dateColumns.count)
            while try scan.next() {
                guard scan.row > dialect.preambleRecords + (dialect.hasHeader ? 1 : 0), !scan.isBlank else { continue }
                for (k, c) in dateColumns.enumerated() where c < scan.fieldCount {
                    let v = scan.string(at: c)
                    // A profile repeats its dive's date on every row.
                    if v == last[k] { continue }
                    last[k] = v
                    // Dates seen are kept to be observed once; a long value is no date to keep.
                    if v.utf8.count > 64 {
                        dates.observe(Substring(v))
                    } else if seen.count < 100_000, seen.insert(v).inserted {
                        dates.observe(Substring(v))
                    }
                }
            }
        }
        problem = layout.problem
        var dateOrderFinding: Finding?
        let documented = layout.preset?.dateOrder
        let dateField = dateColumns.first.map { layout.columns[$0].name }
        if let forced = options.dateOrder {
            layout.dateOrder = forced
            layout.dateOrderEvidence = "given by --date-order"
        } else if dates.datesSeen > 0, problem == nil {
            if dates.isContradictory {
                problem = DiveError("csv.date-order-conflict",
                                "the dates cannot be read one way: \(dates.dayFirstEvidence!) is day-first and \(dates.monthFirstEvidence!) month-first; fix the file, or say which with --date-order dmy|mdy",
                                at: SourceLocation(file: name, field: dateField))
            } else if let order = dates.order, let documented, order != .ymd, order != documented.order {
                // The dates say the other order than the layout's documentation: not that layout.
                let evidence = (order == .dmy ? dates.dayFirstEvidence : dates.monthFirstEvidence) ?? ""
                problem = DiveError("csv.date-order-conflict",
                                "\(evidence) is \(order == .dmy ? "day" : "month")-first, but the dates of the \(layout.preset!.title) are \(documented.source); fix the file, or say which with --date-order dmy|mdy",
                                at: SourceLocation(file: name, field: dateField))
            } else if let order = dates.order {
                layout.dateOrder = order
                switch order {
                case .ymd: layout.dateOrderEvidence = "every date is written year first"
                case .dmy: layout.dateOrderEvidence = dates.dayFirstEvidence.map { "\($0) can only be day-first" } ?? dates.dottedExample.map { "\($0) is written with dots, day-first by convention" }
                case .mdy: layout.dateOrderEvidence = dates.monthFirstEvidence.map { "\($0) can only be month-first" }
                }
                if dates.isDayFirstByDots, let example = dates.dottedExample {
                    // The dots decide, and say so: the order is a convention, not in the values.
                    dateOrderFinding = Finding(.resolved, "csv.date-order-dotted",
                                               "every date could be day-first or month-first (\(example) is \(Self.both(example))); dates written with dots are day-first by the convention of the countries that write them so (German, Dutch, most of Europe), so they are read day-first; --date-order mdy reads them the other way",
                                               at: SourceLocation(file: name, field: dateField))
                }
            } else if let documented {
                // Dates that cannot decide their order are read in the one the layout documents.
                layout.dateOrder = documented.order
                layout.dateOrderEvidence = "every date could be either; read as \(documented.source)"
                let other = documented.order == .dmy ? "mdy" : "dmy"
                dateOrderFinding = Finding(.resolved, "csv.date-order-documented",
                                           "every date could be day-first or month-first (\(dates.ambiguousExample ?? "") is \(Self.both(dates.ambiguousExample))); read as \(documented.source); --date-order \(other) reads them the other way",
                                           at: SourceLocation(file: name, field: dateField))
            } else {
                problem = DiveError("csv.date-order-ambiguous",
                                "every date could be day-first or month-first (\(dates.ambiguousExample ?? "") is \(Self.both(dates.ambiguousExample))); say which with --date-order dmy or --date-order mdy",
                                at: SourceLocation(file: name, field: dateField))
            }
        }
        self.layout = layout
        placeholders = layout.preset?.placeholders ?? [:]
        activeColumns = layout.columns.filter { $0.meaning != nil && $0.meaning?.field != .ignored && $0.meaning?.field != .sampleTime }
        sampleTimeColumn = layout.column(.sampleTime)
        sampleInterval = layout.sampleInterval
        dateOrder = layout.dateOrder
        codes = layout.preset.flatMap { $0.codes.isEmpty ? nil : $0.codes }
        timeLimit = layout.preset?.timeLimit
        active = activeColumns.map { ($0.index, $0.meaning!) }
        if layout.kind == .profile, dialect.hasHeader, layout.preset?.codes.isEmpty ?? true {
            zeroColumns = layout.columns.filter { $0.meaning?.field == .ignored && $0.source != .user }.map(\.index)
        }
        if let firstRow, firstRowNumber > layout.skipRows + (dialect.hasHeader ? 1 : 0) {
            pending = CSVRow(strings: firstRow, row: firstRowNumber, line: firstLine)
        }
        if tokenizer.isUnmarkedUTF16 {
            findings.append(Finding(.resolved, "csv.encoding-utf16-unmarked",
                                    "the file has no byte-order mark, and every other byte of its start is 0: read as \(tokenizer.encoding)",
                                    at: SourceLocation(file: name, line: 1)))
        }
        if let encoding {
            findings.append(encoding)
            encodingReported = true
        }
        findings += layout.findings
        if let dateOrderFinding { findings.append(dateOrderFinding) }
        header.sourceFormat = "csv"
        eventLog = layout.eventLog
        // A Poseidon log keeps its start, serial and diluent beside it (§1).
        var companion: CSVCompanion?
        if layout.preset?.id == CSVPreset.poseidonMkVI.id {
            let found = CSVCompanion.find(besideCSV: path, displayName: name)
            companion = found.companion
            if let c = found.companion {
                let start = c.start != nil && options.startedAt != nil ? "; --started-at gives the start instead of its \(c.start!)" : ""
                findings.append(Finding(.resolved, "csv.companion", "\"\(Self.baseName(c.fileName))\" beside the log is its MkVI_Config file, as Subsurface pairs them; read from it: \(c.summary)\(start)",
                                        at: SourceLocation(file: name)))
                if !c.notRead.isEmpty {
                    let keys = c.notRead.prefix(4).map { "\"\(Self.quoted($0))\"" }.joined(separator: ", ") + (c.notRead.count > 4 ? " …" : "")
                    findings.append(Finding(.dropped, "csv.companion-not-carried", "\(c.notRead.count) line\(c.notRead.count == 1 ? "" : "s") of \"\(Self.baseName(c.fileName))\" (\(keys)) \(c.notRead.count == 1 ? "has" : "have") no place in a dive; not read",
                                            at: SourceLocation(file: name)))
                }
            } else if let other = found.notOne {
                findings.append(Finding(.dropped, "csv.companion-not-read", "\"\(Self.baseName(other))\" beside the log does not start with MkVI_Config (or is over \(CSVTokenizer.size(CSVCompanion.limit))), so it is no MkVI log's companion; not read",
                                        at: SourceLocation(file: name)))
            }
        }
        self.companion = companion
        if let preset = layout.preset, let mode = preset.mode {
            findings.append(Finding(.resolved, "csv.mode-from-preset", "the \(preset.title) is a closed-circuit rebreather, so its recording's mode is \(mode == .closedCircuit ? "closed circuit" : mode.rawValue), as Subsurface sets it",
                                    at: SourceLocation(file: name)))
        }
    }

    /// The last part of a path.
    static func baseName(_ path: String) -> String {
        path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? path
    }

    /// A quote that is never closed takes the rest of the file into one field: that is not a
    /// table to read dives from (`umilog validate` shows the same place).
    static func refuseUnclosedQuote(_ t: CSVTokenizer, file: String) throws {
        guard t.hasIssues, let issue = t.issues.first(where: { $0.kind == .unterminatedQuote }) else { return }
        throw DiveError("csv.unterminated-quote", "a quote opened here is never closed, so the rest of the file would be one field; close it or remove it",
                        at: SourceLocation(file: file, line: issue.line, column: issue.column))
    }

    /// `1 October or 10 January` for `10/1/13`.
    private static func both(_ example: String?) -> String {
        guard let e = example, let d = CSVValues.date(Substring(e), order: .dmy), let m = CSVValues.date(Substring(e), order: .mdy) else { return "ambiguous" }
        return "\(d) or \(m)"
    }

    /// What the values of each column look like in the table's first rows (the header, the
    /// preamble and the rows a preset skips left out): `csv inspect` shows them for a table it
    /// cannot read (§10.18). Reads the file's start again, by a tokenizer of its own.
    public func columnShapes() throws -> [CSVColumnShape] {
        if !layout.shapes.isEmpty { return layout.shapes }
        let dialect = layout.dialect
        let scan = try CSVTokenizer(path: path, displayName: file, delimiter: dialect.delimiter)
        let skip = dialect.preambleRecords + (dialect.hasHeader ? 1 : 0) + layout.skipRows
        var rows: [[String]] = []
        while rows.count <= CSVLayout.lookaheadRows, try scan.next() {
            guard scan.row > skip, !scan.isBlank else { continue }
            rows.append(scan.fields())
        }
        return CSVColumnShape.of(rows: rows, width: layout.columns.count, decimalMark: dialect.decimalMark)
    }

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    // MARK: Rows

    /// The next data row (the header being row 1), read in place: it holds until the next call.
    private func nextRow() throws -> CSVRow? {
        if let p = pending {
            pending = nil
            if !zeroColumns.isEmpty { noteZeros(p) }
            return p
        }
        while try tokenizer.next() {
            try Self.refuseUnclosedQuote(tokenizer, file: file)
            noteEncoding()
            if tokenizer.isBlank { continue }
            let row = tokenizer.row - layout.dialect.preambleRecords
            if row <= layout.skipRows + (layout.dialect.hasHeader ? 1 : 0) { continue }
            reportFieldsPastTheTable(row: row)
            let r = CSVRow(tokenizer: tokenizer, row: row, line: tokenizer.line)
            if !zeroColumns.isEmpty { noteZeros(r) }
            return r
        }
        return nil
    }

    /// Keeps of ``zeroColumns`` those `r` holds 0 or nothing in.
    private func noteZeros(_ r: CSVRow) {
        let mark = layout.dialect.decimalMark
        zeroColumns.removeAll { i in
            guard i < r.count, !r.isBlank(i) else { return false }
            // A row kept as text (the first, read ahead) has no bytes to read a number from.
            guard (r.plainNumber(i, decimalMark: mark) ?? CSVValues.number(Substring(r.string(i)), decimalMark: mark)) == 0 else { return true }
            zeroSeen.insert(i)
            return false
        }
    }

    /// At the end of a profile: each column not carried that was 0 on every row records no
    /// reading at all, which is said beside its not being carried.
    private func reportZeroColumns() {
        for i in zeroColumns where zeroSeen.contains(i) {
            let name = layout.columns[i].name
            findings.append(Finding(.absent, "csv.column-zero", "the column \"\(name)\" is 0 on every row, as a sensor that is not fitted writes it: it records no reading",
                                    at: SourceLocation(file: file, field: name)))
        }
        zeroColumns = []
    }

    /// The next dive of the file; `nil` at its end. A value that cannot be read is reported, or with ``CSVReadOptions/strict`` thrown.
    public func next() throws -> Dive? {
        do {
            guard let dive = try nextDive() else {
                reportZeroColumns()
                reportEnd()
                // A read that gives no dive while rows were left out has read nothing: it is no
                // success (a table with no rows at all loses nothing, and says so).
                if divesRead == 0, divesLost > 0 {
                    throw DiveError("csv.no-dives", "no row of the file gave a dive: \(divesLost) row\(divesLost == 1 ? " was" : "s were") left out, each said in its finding",
                                    at: SourceLocation(file: file))
                }
                return nil
            }
            return dive
        } catch {
            reportEnd()
            throw error
        }
    }

    private func nextDive() throws -> Dive? {
        guard !finished else { return nil }
        if let problem { finished = true; throw problem }
        switch layout.kind {
        case .summary:
            while var r = try nextRow() {
                if layout.isTrailer(r) { reportTrailer(r); continue }
                if r.count < layout.columns.count, let shifted = realigned(r) { r = shifted }
                var dive = DiveBuilder(reader: self, row: r.row, line: r.line)
                try dive.apply(layout.metadata)
                _ = try dive.applyRow(r)
                if let d = try finish(dive) { return d }
            }
        case .profile:
            let keyColumns = layout.keyColumns
            var key = ProfileDiveKey(columns: keyColumns.count)
            while let first = try nextRow() {
                if layout.isTrailer(first) { reportTrailer(first); continue }
                var dive = DiveBuilder(reader: self, row: first.row, line: first.line)
                try dive.apply(layout.metadata)
                key.reset(to: first, columns: keyColumns)
                _ = try dive.applyRow(first)
                var ended = false
                while let r = try nextRow() {
                    if layout.isTrailer(r) { reportTrailer(r); continue }
                    // Another dive: another key (a blank cell continues the dive), or the
                    // sample time going back.
                    let another = try key.isAnother(r, columns: keyColumns) || !dive.applyRow(r)
                    if another {
                        pending = r.kept()
                        ended = true
                        break
                    }
                }
                if !ended { finished = true }
                if let d = try finish(dive) { return d }
                if finished { return nil }
            }
        }
        finished = true
        return nil
    }

    /// A row of a dive list that lacks cells, with empty ones put where its values fit their
    /// columns best when that is not its end, said (§10.19); `nil` when its end is best.
    private func realigned(_ r: CSVRow) -> CSVRow? {
        var cells = r.fields
        guard let (at, fits) = layout.shiftedCells(cells) else { return nil }
        let width = layout.columns.count, missing = width - cells.count
        let moved = CSVDiveReader.quoted(cells[at].trimmingWhitespace())
        cells.insert(contentsOf: repeatElement("", count: missing), at: at)
        let place = at == 0 ? "first" : "after \"\(layout.columns[at - 1].name)\""
        report(.resolved, "csv.row-shifted",
               "row \(r.row) has \(r.count) cells where the header has \(width), and its values fit their columns only with \(missing == 1 ? "an empty cell" : "\(missing) empty cells") \(place) (\(fits) more of them fit so than with the cells missing at its end): \"\(moved)\" is read under \"\(layout.columns[at + missing].name)\", not under \"\(layout.columns[at].name)\"",
               row: r.row, line: r.line)
        return CSVRow(strings: cells, row: r.row, line: r.line)
    }

    private func reportTrailer(_ r: CSVRow) {
        report(.dropped, "csv.trailer-row", "a row of \(r.count) field\(r.count == 1 ? "" : "s") (\"\(Self.quoted(r.fields.joined(separator: " ")))\") is not part of the \(layout.columns.count)-column table; not read", row: r.row, line: r.line)
    }

    private func finish(_ builder: DiveBuilder) throws -> Dive? {
        guard divesRead < diveLimit else {
            throw DiveError("csv.too-many-dives", "the file holds more than \(diveLimit) dives, the most umilog reads from one file; split it",
                            at: SourceLocation(file: file, line: builder.line, row: builder.row))
        }
        guard var dive = try builder.build() else { return nil }
        dive.provenance = Provenance(format: "csv", file: file, index: divesRead, line: builder.line)
        divesRead += 1
        return dive
    }

    // MARK: Findings

    /// Reports a finding, in full while its code has had fewer than
    /// ``CSVLimits/findingsPerCode`` (the message is built only then), else counted. `losing`
    /// is the dives it leaves out: counted in ``divesLost`` and carried by the finding, or, past
    /// the limit, by the finding that counts those not listed.
    func report(_ kind: FindingKind, _ code: String, _ message: @autoclosure () -> String, row: Int? = nil, line: Int? = nil, column: String? = nil,
                losing lost: Int = 0) {
        divesLost += lost
        let listed = findingsListed[code, default: 0]
        guard listed < CSVLimits.findingsPerCode else {
            findingsNotListed[code, default: (kind, 0, 0)].count += 1
            findingsNotListed[code, default: (kind, 0, 0)].lostDives += lost
            return
        }
        findingsListed[code] = listed + 1
        let finding = Finding(kind, code, message(), at: SourceLocation(file: file, line: line, row: row, field: column))
        findings.append(lost > 0 ? finding.losing(lost) : finding)
    }

    /// Reports a finding about a value once per code, column and text.
    func reportValue(_ kind: FindingKind, _ code: String, _ value: String, column: CSVColumn, row: Int?, line: Int?,
                             _ message: @autoclosure () -> String) {
        var hasher = Hasher()
        hasher.combine(code); hasher.combine(column.index); hasher.combine(column.name); hasher.combine(value)
        let key = hasher.finalize()
        guard !valuesReported.contains(key) else { return }
        // Past the limit the value is only counted: the set grows no further.
        if findingsListed[code, default: 0] < CSVLimits.findingsPerCode { valuesReported.insert(key) }
        report(kind, code, message(), row: row, line: line, column: column.name)
    }

    /// What the end of the file adds: the findings of each code past those listed, and a fall
    /// back to Windows-1252 that no record read showed.
    private func reportEnd() {
        guard !endReported else { return }
        endReported = true
        reportTimeRestarts()
        if !encodingReported, tokenizer.windows1252Offset != nil {
            encodingReported = true
            findings.append(Finding(.resolved, "csv.encoding-fallback", Self.encodingMessage, at: SourceLocation(file: file)))
        }
        let replaced = tokenizer.utf16Replacements
        if replaced > 0 {
            findings.append(Finding(.dropped, "csv.encoding-utf16-broken", "\(replaced) unit\(replaced == 1 ? "" : "s") of the file's UTF-16 \(replaced == 1 ? "is" : "are") no character (a surrogate without its pair, or a last odd byte); each is read as �",
                                    at: SourceLocation(file: file)))
        }
        for t in tallies.values.sorted(by: { $0.order < $1.order }) {
            findings.append(Finding(.dropped, t.code, "\(t.count) reading\(t.count == 1 ? "" : "s") \(t.what): not read", at: SourceLocation(file: file, field: t.field)))
        }
        if tallyOverflow > 0 {
            findings.append(Finding(.dropped, "csv.channel-not-carried", "\(tallyOverflow) more reading\(tallyOverflow == 1 ? "" : "s") of \(CSVLimits.findingsPerCode) or more other codes or channels are not read", at: SourceLocation(file: file)))
        }
        for (code, more) in findingsNotListed.sorted(by: { $0.key < $1.key }) {
            let lost = more.lostDives == 0 ? "" : "; they leave out \(more.lostDives) dive\(more.lostDives == 1 ? "" : "s")"
            let finding = Finding(more.kind, code, "\(more.count) more finding\(more.count == 1 ? "" : "s") of this code \(more.count == 1 ? "is" : "are") not listed (a file lists the first \(CSVLimits.findingsPerCode) of each)\(lost)",
                                  at: SourceLocation(file: file))
            findings.append(more.lostDives > 0 ? finding.losing(more.lostDives) : finding)
        }
    }

    private static let encodingMessage = "the file is not UTF-8 from here on; read as Windows-1252, the encoding of spreadsheets saved on Windows"

    /// Reports, at the first character that is not UTF-8, that the file is read as
    /// Windows-1252 from there (once, when the record holding it is read).
    private func noteEncoding() {
        // The tokenizer's offset first: it is read from a pointer, the flag with an access check.
        guard tokenizer.windows1252Offset != nil, !encodingReported, let finding = Self.encodingFallback(tokenizer, file: file) else { return }
        encodingReported = true
        findings.append(finding)
    }

    /// `csv.encoding-fallback` at the first character that is not UTF-8, when it is in the
    /// record `t` has just read.
    private static func encodingFallback(_ t: CSVTokenizer, file: String) -> Finding? {
        guard let offset = t.windows1252Offset, t.recordOffsets.upperBound > offset else { return nil }
        let place = t.lineAndColumn(ofOffset: offset)
        return Finding(.resolved, "csv.encoding-fallback", encodingMessage, at: SourceLocation(file: file, line: place?.line, column: place?.column))
    }

    /// `value`, cut to ``CSVLimits/quotedValueCharacters`` for a message.
    static func quoted(_ value: String) -> String {
        var end = value.startIndex
        for _ in 0..<CSVLimits.quotedValueCharacters {
            guard end < value.endIndex else { return value }
            end = value.index(after: end)
        }
        return end == value.endIndex ? value : String(value[..<value.index(before: end)]) + "…"
    }

    /// A value its column cannot hold (in a row, or above the table when `row` is `nil`):
    /// reported once per column and text and left out, or, with `--strict`, the end.
    func bad(_ value: String, column: CSVColumn, expected: String, row: Int?, line: Int?) throws {
        if options.strict {
            throw DiveError("csv.bad-value", "\"\(Self.quoted(value))\" is not \(expected) (--strict stops at the first bad value)",
                            at: SourceLocation(file: file, line: line, row: row, field: column.name))
        }
        reportValue(.dropped, "csv.bad-value", value, column: column, row: row, line: line,
                    "\"\(Self.quoted(value))\" is not \(expected); left out (here and wherever the column says the same)")
    }

    /// A number that is no reading of its quantity: not finite (`1e999`), or outside
    /// ``CSVLimits/Range`` once in the model's unit (`value`). `text` is the cell as written
    /// (`nil` for a plain number read from its bytes). Reported once per column and text and
    /// left out, or, with `--strict`, the end.
    func outOfRange(_ text: String?, _ value: Double, _ quantity: CSVQuantity, column: CSVColumn, row: Int?, line: Int?) throws {
        let written = text ?? CSVQuantity.format(value)
        func message() -> String {
            let range = quantity.range
            let what = value.isFinite
                ? "is \(CSVQuantity.format(value))\(quantity.unit), outside what \(quantity.noun) can be (\(CSVQuantity.format(range.lowerBound)) to \(CSVQuantity.format(range.upperBound))\(quantity.unit))"
                : "is too large for any number (it reads as infinity)"
            return "\"\(Self.quoted(written))\" in column \"\(column.name)\" \(what)"
        }
        if options.strict {
            throw DiveError("csv.value-out-of-range", message() + " (--strict stops at the first bad value)",
                            at: SourceLocation(file: file, line: line, row: row, field: column.name))
        }
        reportValue(.dropped, "csv.value-out-of-range", written, column: column, row: row, line: line, message() + "; left out")
    }

    /// A number written with digits other than 0 that reads as 0 (`1e-400`): it is closer to
    /// 0 than any number a computer holds apart from 0.
    func underflow(_ text: String, column: CSVColumn, row: Int?, line: Int?) {
        reportValue(.resolved, "csv.number-underflow", text, column: column, row: row, line: line,
                    "\"\(Self.quoted(text))\" in column \"\(column.name)\" is closer to 0 than any number a computer holds apart from 0; read as 0")
    }

    /// Values in fields past the table's last column have no column to be read by: the first
    /// row that holds one is reported, with how many more do (empty fields past the end, a
    /// trailing delimiter, are nothing).
    private func reportFieldsPastTheTable(row: Int) {
        let width = layout.columns.count, count = tokenizer.fieldCount
        guard count > width, (width..<count).contains(where: { !tokenizer.isEmptyField($0) }) else { return }
        overlongRows += 1
        guard overlongRows == 1 else { return }
        report(.dropped, "csv.ragged-row", "row \(row) has \(count) fields where the \(layout.dialect.hasHeader ? "header" : "table") has \(width); the values past the last column are not read (the same in any later row that has more fields)",
               row: row, line: tokenizer.line)
    }

    /// Says, once per file, that a profile's start was taken from the file's name.
    func reportStartFromFileName(row: Int, line: Int) {
        guard !startInFileNameReported, let found = startInFileName else { return }
        startInFileNameReported = true
        let base = file.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? file
        report(.inferred, "csv.start-from-file-name",
               "the profile records no date; its start, \(found.start), is taken from the file's name (\"\(CSVDiveReader.quoted(found.text))\" in \"\(CSVDiveReader.quoted(base))\"), as programs name the exports of a dive; --started-at gives another",
               row: row, line: line)
    }

    /// Profile rows whose sample time went back with no other sign of a new dive, each read
    /// as another dive's first; and the first of them.
    private var timeRestarts = 0
    private var firstTimeRestart: (row: Int, line: Int, time: Int, after: Int)?

    /// Notes that row `row`'s sample time (`time` ms) goes back from the dive's last
    /// (`after`), which starts another dive: said once per file, with how often (§10.17).
    func noteTimeRestart(row: Int, line: Int, at time: Int, after: Int) {
        timeRestarts += 1
        if firstTimeRestart == nil { firstTimeRestart = (row, line, time, after) }
    }

    private func reportTimeRestarts() {
        guard let first = firstTimeRestart else { return }
        firstTimeRestart = nil
        let seconds = { (ms: Int) in CSVQuantity.format(Double(ms) / 1000) }
        let by = layout.keyColumns.isEmpty
            ? "the table has no column that numbers or dates its dives"
            : "its \(layout.keyColumns.map { "\"\(layout.columns[$0].name)\"" }.joined(separator: ", ")) stayed the same or blank"
        let more = timeRestarts == 1 ? "" : ", and at \(timeRestarts - 1) more row\(timeRestarts == 2 ? "" : "s")"
        findings.append(Finding(.resolved, "csv.time-restarts",
                                "the sample time goes back at row \(first.row) (\(seconds(first.time)) s after \(seconds(first.after)) s)\(more); \(by), so each such row is read as the first of another dive",
                                at: SourceLocation(file: file, line: first.line, row: first.row, field: layout.column(.sampleTime)?.name)))
    }

    /// Reports something about a column once per file (the message is built only then).
    func reportColumnOnce(_ kind: FindingKind, _ code: String, _ column: CSVColumn, _ message: @autoclosure () -> String) {
        guard columnReports.insert("\(code)|\(column.index)|\(column.name)").inserted else { return }
        findings.append(Finding(kind, code, message(), at: SourceLocation(file: file, field: column.name)))
    }

    /// A reading of a coded export not carried: its code is undocumented (`what` is `nil`) or
    /// documented as something the model has no place for. Counted, said once per code at the end.
    func tallyCode(_ code: Int, _ what: String?) {
        tally("code \(code)", order: code, code: "csv.code-not-carried", field: "code \(code)",
              what: "with code \(code) (\(what ?? "no documented meaning umilog could carry"))")
    }

    /// Counts one reading not carried under `key`; the first ``CSVLimits/findingsPerCode`` keys
    /// are each said at the end, the rest counted together.
    private func tally(_ key: String, order: Int, code: String, field: String, what: @autoclosure () -> String) {
        if tallies[key] != nil { tallies[key]!.count += 1; return }
        guard tallies.count < CSVLimits.findingsPerCode else { tallyOverflow += 1; return }
        tallies[key] = (order, code, field, what(), 1)
    }

    /// The channel a word of an event log's channel column names, and the column its values
    /// are reported by; `nil` (counted, said at the end) for a word it carries no channel for.
    func eventLogChannel(_ written: String) -> (meaning: CSVColumnMeaning, column: CSVColumn)? {
        if let known = eventLogChannels[written] {
            if known == nil { tallyWord(written) }
            return known
        }
        let word = written.trimmingWhitespace()
        var found: (meaning: CSVColumnMeaning, column: CSVColumn)?
        if let m = CSVLayout.eventLogMeaning(word), m.field != .ignored, let log = eventLog {
            let name = "\(layout.columns[log.value].name) (\(Self.quoted(word)))"
            found = (m, CSVColumn(name: name, index: -1_000_000 - eventLogChannels.count, meaning: m, source: .dictionary))
        }
        // The words kept are few: past the limit, a word is looked up again each time.
        if eventLogChannels.count < CSVLimits.findingsPerCode { eventLogChannels[written] = .some(found) }
        if found == nil { tallyWord(written) }
        return found
    }

    /// The column a profile cell's key is reported by, one per key of each column, so that each
    /// decides its own unit (§10.14).
    func cellKeyColumn(_ key: String, meaning: CSVColumnMeaning, of c: CSVColumn) -> CSVColumn {
        let name = "\(c.name) (\(Self.quoted(key)))"
        if let index = cellKeyColumns[name] { return CSVColumn(name: name, index: index, meaning: meaning, source: .dictionary) }
        let index = -2_000_000 - cellKeyColumns.count
        // The keys kept are few: past the limit, a key shares the last column's place.
        if cellKeyColumns.count < CSVLimits.findingsPerCode { cellKeyColumns[name] = index }
        return CSVColumn(name: name, index: index, meaning: meaning, source: .dictionary)
    }

    /// A key of a profile cell's samples that names nothing the model carries: counted, said
    /// once per key and column at the end.
    func tallyKey(_ key: String, column c: CSVColumn) {
        let ignored = CSVLayout.eventLogMeaning(key)?.field == .ignored
        tally("key \(c.index) \(key)", order: tallies.count, code: "csv.profile-key-not-carried", field: c.name,
              what: "of the key \"\(Self.quoted(key))\" in the profiles of column \"\(c.name)\" (\(ignored ? "which has no place in a dive log's model" : "a key umilog does not know"))")
    }

    private func tallyWord(_ written: String) {
        guard let log = eventLog else { return }
        let word = written.trimmingWhitespace()
        let ignored = CSVLayout.eventLogMeaning(word)?.field == .ignored
        tally("word \(word.folded)", order: tallies.count, code: "csv.channel-not-carried", field: layout.columns[log.channel].name,
              what: "of the channel \"\(Self.quoted(word))\" (\(ignored ? "which has no place in a dive log's model" : "a channel umilog does not know"))")
    }

    /// The unit of a column whose values state none, nor its header, nor the file: decided
    /// once, by its first value's size (a column never mixes units), and reported.
    func assumedUnit(_ column: CSVColumn, _ field: CSVField, _ value: Double, _ dimension: CSVUnit.Dimension) -> CSVUnit {
        if let u = assumedUnits[column.index] { return u }
        let (unit, why) = DiveBuilder.unitBySize(value, field, dimension)
        assumedUnits[column.index] = unit
        reportColumnOnce(.resolved, "csv.unit-assumed", column, "the column \"\(column.name)\" states no unit; read as \(unit.rawValue) (\(why))")
        return unit
    }

    // MARK: Records the dives refer to

    /// The uuid of the `kind` record known by `key`, adding it with `add` the first time:
    /// CSV records carry no ids, so theirs derive from what names them. `nil`, reported at
    /// `row` and `line`, for a record past ``CSVLimits/namedRecordBytes``.
    private func intern(_ kind: String, _ key: String, named shown: String, row: Int?, line: Int?, _ add: (String) -> Void) -> String? {
        let name = "\(kind):\(key)"
        if let u = interned[name] { return u }
        let cost = name.utf8.count + CSVLimits.namedRecordOverhead
        guard internedBytes + cost <= namedRecordLimit else {
            report(.dropped, "csv.too-many-names", "the \(kind) \"\(Self.quoted(shown))\" is not carried: the sites, people, trips and suits the file names take \(CSVTokenizer.size(namedRecordLimit)), the most one file's may",
                   row: row, line: line)
            return nil
        }
        internedBytes += cost
        let uuid = Identity.uuid5(namespace: Identity.csvNamespace, name: name)
        add(uuid)
        interned[name] = uuid
        return uuid
    }

    func siteUUID(name: String?, location: String?, country: String?, position: Position?, row: Int?, line: Int?) -> String? {
        guard let siteName = name ?? location else { return nil }
        let key = [siteName, location ?? "", country ?? "", position.map { "\($0.latitude),\($0.longitude)" } ?? ""].joined(separator: "|")
        return intern("site", key, named: siteName, row: row, line: line) { uuid in
            var site = Site(uuid: uuid, name: siteName)
            // A country is part of the place's name: the model has no member of its own for it.
            let place = [name == nil ? nil : location, country].compactMap { $0 }.joined(separator: ", ")
            if !place.isEmpty { site.location = Location(name: place) }
            site.position = position
            header.sites.append(site)
        }
    }

    func personUUID(_ name: String, row: Int?, line: Int?) -> String? {
        intern("person", name, named: name, row: row, line: line) { header.people.append(Person(uuid: $0, name: name)) }
    }

    func tripUUID(_ name: String, row: Int?, line: Int?) -> String? {
        intern("trip", name, named: name, row: row, line: line) { header.trips.append(Trip(uuid: $0, name: name)) }
    }

    func gearUUID(_ name: String, type: GearType?, row: Int?, line: Int?) -> String? {
        intern("gear", "\(type?.rawValue ?? ""):\(name)", named: name, row: row, line: line) { header.gear.append(GearItem(uuid: $0, name: name, type: type)) }
    }

    var strict: Bool { options.strict }
    var startedAt: DiveDateTime? { options.startedAt }
}

extension Identity {
    /// `uuid5(NAMESPACE_URL, "https://divejson.org/ns/csv")`: CSV records carry no ids, so
    /// theirs are derived from what identifies them (a dive's start and number).
    public static let csvNamespace = uuid5(namespace: urlNamespace, name: "https://divejson.org/ns/csv")
}
