import DiveCore

/// One column of a CSV table and what it was understood to hold.
public struct CSVColumn: Sendable, Hashable {
    /// Where a column's meaning came from.
    public enum Source: String, Sendable, Hashable { case user, preset, dictionary, none }
    /// The header's name, or the 1-based column number of a headerless table.
    public var name: String
    /// The column's 0-based position in the row; negative (-1 the first) for a value taken from outside the table, a preamble line or a summary block.
    public var index: Int
    /// What the column holds; `nil` when nothing says (the column is not carried).
    public var meaning: CSVColumnMeaning?
    /// Where the meaning came from: the user, the export's preset, the header dictionary, or none.
    public var source: Source
}

/// One `key: value` the file states outside its table (a preamble line, a summary block).
public struct CSVMetadata: Sendable, Hashable {
    /// The label the file gives the value, as written.
    public var label: String
    /// What the value is.
    public var meaning: CSVColumnMeaning
    /// The value, as written.
    public var value: String
}

/// What a CSV file was understood to be, decided from its preamble, its header and its first
/// row: the reader's plan, and what `umilog csv inspect` prints.
public struct CSVLayout: Sendable {
    /// Whether a row is a dive or a sample.
    public enum Kind: String, Sendable, Hashable {
        /// One row per dive.
        case summary
        /// One row per sample.
        case profile
    }

    /// How the file is written: delimiter, decimal mark, encoding, preamble and header.
    public var dialect: CSVDialect
    /// The export this file was recognised as, if any.
    public var preset: CSVPreset?
    /// Every column, in the file's order.
    public var columns: [CSVColumn]
    /// Whether the table is a summary (one row per dive) or a profile (one row per sample).
    public var kind: Kind
    /// The day/month order of the dates, once decided.
    public var dateOrder: DateOrder?
    /// What decided ``dateOrder``, as `csv inspect` says it: the flag, a date that can only be
    /// read one way, the dots' convention, the layout's documentation.
    public var dateOrderEvidence: String?
    /// What the preamble states about the dive(s).
    public var metadata: [CSVMetadata]
    /// Seconds between samples, for a profile with no time column.
    public var sampleInterval: Double?
    /// Units the file states for all its columns of a dimension (Shearwater's `Imperial Units`).
    public var defaultUnits: [CSVUnit.Dimension: CSVUnit]
    /// Data rows under the header that are not samples (Seabear's unit and column-number rows).
    public var skipRows: Int
    /// The columns of an event-log table, whose rows each give one channel's reading (§10.13).
    public var eventLog: CSVEventLog?
    /// Findings about the layout itself (columns and preamble lines not carried).
    var findings: [Finding]

    /// Columns that tell one dive of a profile table from the next.
    var keyColumns: [Int]
    /// Why no dive can be read as the file stands (no date column, no sample time).
    var problem: DiveError?

    /// True when no column was understood as what makes a table a dive log — a date or time,
    /// a depth, a duration — and no preset recognised it: a manifest with a `notes` column is
    /// not a logbook.
    public var understandsNothing: Bool {
        let defining: Set<CSVField> = [.date, .dateTime, .time, .year, .duration, .maxDepth, .avgDepth, .sampleTime, .sampleDepth, .sampleAmbientPressure]
        // A table with no header is one when its values have a dive's shapes: a date or a
        // rising time, and a depth (then its error says how to name them).
        let proposed = Set(proposal.map(\.meaning.field))
        let shaped = !proposed.isDisjoint(with: [.date, .dateTime, .sampleTime]) && !proposed.isDisjoint(with: [.maxDepth, .sampleDepth])
        return preset == nil && !shaped && !columns.contains { $0.meaning.map { defining.contains($0.field) } ?? false }
    }

    /// What the values of each column look like in the first rows, for a table with no header
    /// (§10.18); empty for a table with one.
    public var shapes: [CSVColumnShape]
    /// For a table with no header that is no layout umilog knows: what each column most
    /// likely holds, by position (a line for --map to start from, not read without it).
    public var proposal: [(column: Int, meaning: CSVColumnMeaning)] {
        preset == nil && !columns.contains(where: { $0.meaning != nil }) ? CSVColumnShape.proposal(shapes) : []
    }

    /// A row that is not part of the table: a lone value after it (APD LogViewer ends with
    /// the dive's length in minutes on a line of its own).
    func isTrailer(_ row: CSVRow) -> Bool {
        columns.count >= 3 && row.count == 1
    }

    /// The column that holds `field` (the first, or the one for cylinder `index`).
    public func column(_ field: CSVField, index: Int? = nil) -> CSVColumn? {
        columns.first { $0.meaning?.field == field && (index == nil || $0.meaning?.index == index) }
    }

    /// The rows after the first a layout reads ahead, at most, to see the shape of a column.
    static let lookaheadRows = 32

    /// `lookahead` gives up to ``lookaheadRows`` data rows after `firstRow`; it is called only
    /// when a column's values must be seen to decide (§10.8).
    static func decide(dialect: CSVDialect, preamble: [[String]], header: [String]?, firstRow: [String]?,
                       options: CSVReadOptions, file: String, lookahead: () throws -> [[String]] = { [] }) throws -> CSVLayout {
        var findings: [Finding] = []
        let width = max(dialect.fieldCount, header?.count ?? 0, firstRow?.count ?? 0)
        var names: [String]
        if let header {
            names = header
            // Trailing empty names a trailing delimiter leaves.
            while let last = names.last, last.trimmingWhitespace().isEmpty, names.count > dialect.fieldCount { names.removeLast() }
        } else {
            names = (0..<width).map { String($0 + 1) }
        }
        var preset = CSVPreset.recognise(header: header, preamble: preamble, firstRow: firstRow, width: width)
        // A table with no header: a documented layout its values' shapes match, else the
        // user's --map by position (§10.18).
        var shapes: [CSVColumnShape] = []
        if header == nil, let firstRow {
            shapes = CSVColumnShape.of(rows: [firstRow] + (try lookahead()), width: width, decimalMark: dialect.decimalMark)
            if preset == nil, let (layout, evidence) = CSVPreset.recogniseHeaderless(shapes: shapes, dialect: dialect) {
                preset = layout
                findings.append(Finding(.resolved, "csv.layout-by-shape", "the table has no header; \(evidence): read as \(layout.title)'s columns",
                                        at: SourceLocation(file: file)))
            }
        }

        // Columns: the user's mapping, then the preset's, then the dictionary.
        var columns: [CSVColumn] = []
        for (i, raw) in names.enumerated() {
            let name = raw.trimmingWhitespace()
            var meaning: CSVColumnMeaning?
            var source = CSVColumn.Source.none
            if let m = options.columns[name.lowercased()] ?? options.columns[String(i + 1)] {
                meaning = m; source = .user
            } else if let m = preset?.meaning(name: name, index: i) {
                meaning = m; source = .preset
            } else if header != nil, let m = CSVColumnDictionary.meaning(ofHeader: name) {
                meaning = m; source = .dictionary
            }
            columns.append(CSVColumn(name: name.isEmpty ? String(i + 1) : name, index: i, meaning: meaning, source: source))
        }

        // The preamble: a summary block (a header and a row of its own) and `key: value` lines.
        var metadata: [CSVMetadata] = []
        var interval: Double?
        var units: [CSVUnit.Dimension: CSVUnit] = [:]
        func take(_ label: String, _ value: String) {
            let key = label.trimmingWhitespace()
            let v = value.trimmingWhitespace()
            guard !key.isEmpty else { return }
            let folded = key.lowercased()
            if folded.contains("interval") && !folded.contains("surface") {
                if let q = CSVValues.quantity(Substring(v)), let seconds = (q.unit ?? .seconds).dimension == .time ? (q.unit ?? .seconds).toModel(q.value) : nil {
                    // Samples are apart by some time, and no more than a dive lasts.
                    guard seconds > 0, CSVLimits.Range.duration.contains(seconds) else {
                        findings.append(Finding(.dropped, "csv.value-out-of-range", "the sample interval \"\(CSVDiveReader.quoted(v))\" \(seconds.isFinite ? "is \(CSVQuantity.format(seconds)) s" : "reads as an infinite number"), which no time between samples is (over 0, up to \(CSVQuantity.format(CSVLimits.Range.duration.upperBound)) s); not read",
                                                at: SourceLocation(file: file, field: key)))
                        return
                    }
                    interval = seconds
                    return
                }
            }
            if folded == "imperial units" || folded == "units" {
                let imperial = ["true", "yes", "1", "imperial"].contains(v.lowercased())
                let metric = ["false", "no", "0", "metric"].contains(v.lowercased())
                if imperial || metric {
                    units = imperial ? [.length: .feet, .temperature: .fahrenheit, .pressure: .psi, .mass: .pounds]
                                     : [.length: .metres, .temperature: .celsius, .pressure: .bar, .mass: .kilograms]
                    return
                }
            }
            guard !v.isEmpty else { return }
            if let m = options.columns[folded] ?? preset?.meaning(name: key, index: nil) ?? CSVColumnDictionary.meaning(ofHeader: key), m.field != .ignored {
                // A summary's `Depth` is the dive's greatest, its `Temperature` the water's.
                metadata.append(CSVMetadata(label: key, meaning: m.summarised, value: v))
            } else {
                findings.append(Finding(.dropped, "csv.preamble-not-carried", "\"\(key): \(v)\" has no place in a dive; not read",
                                        at: SourceLocation(file: file, field: key)))
            }
        }
        // Every record that is not blank: a bare `Key: value` line is read as a comment's is.
        let meaningful = preamble.filter { !$0.allSatisfy { $0.trimmingWhitespace().isEmpty } }
        var i = 0
        while i < meaningful.count {
            let record = meaningful[i]
            // A summary block: a header and a row of values, neither a comment line.
            if record.count >= 2, i + 1 < meaningful.count, Self.commentText(record[0]) == nil, Self.commentText(meaningful[i + 1][0]) == nil,
               meaningful[i + 1].count == record.count || meaningful[i + 1].count + 1 == record.count {
                let values = meaningful[i + 1]
                for (k, label) in record.enumerated() where k < values.count { take(label, values[k]) }
                i += 2
                continue
            }
            let whole = record.count == 1 ? record[0] : record.joined(separator: String(Character(Unicode.Scalar(dialect.delimiter))))
            let text = Self.commentText(whole) ?? whole
            if let colon = text.firstIndex(of: ":"), !text[..<colon].contains(where: { $0.isNumber }) {
                take(String(text[..<colon]), String(text[text.index(after: colon)...]))
            } else if CSVValues.dateParts(Substring(text)) != nil, CSVValues.timeOfDay(Substring(text)) != nil {
                metadata.append(CSVMetadata(label: text, meaning: CSVColumnMeaning(.dateTime), value: text))
            } else if !text.isEmpty, Self.commentText(whole) == nil, !Self.isDecoration(text) {
                // Free text in a comment (a banner, a licence) says nothing of a dive; a bare line might.
                findings.append(Finding(.dropped, "csv.preamble-not-carried", "the line \"\(text)\" above the table is not read",
                                        at: SourceLocation(file: file)))
            }
            i += 1
        }
        if let preset { for (d, u) in preset.defaultUnits where units[d] == nil { units[d] = u } }

        // Summary or profile, and the columns that change meaning with it. A profile needs a
        // time for each row: a time column, a stated interval, or an export known to be one.
        var fields = Set(columns.compactMap { $0.meaning?.field })
        let perSample = fields.contains(.sampleDepth) || fields.contains(.sampleAmbientPressure)
        // A `Time` column of plain numbers that only increase, beside a depth and no date, counts
        // seconds into the dive: a profile that records no start (Apnealizer's), not a list of
        // dives at times of day (§10.8).
        if preset == nil, perSample, !fields.contains(.sampleTime), !fields.contains(.maxDepth),
           fields.isDisjoint(with: [.date, .dateTime, .year]),
           let t = columns.firstIndex(where: { $0.source == .dictionary && $0.meaning == CSVColumnMeaning(.time) }),
           let values = try Self.increasingNumbers(column: t, firstRow: firstRow, lookahead: lookahead, decimalMark: dialect.decimalMark) {
            columns[t].meaning = CSVColumnMeaning(.sampleTime, unit: .seconds)
            fields.insert(.sampleTime)
            let shown = values.prefix(3).map(CSVQuantity.format).joined(separator: ", ")
            findings.append(Finding(.resolved, "csv.time-counts-seconds", "the column \"\(columns[t].name)\" holds no time of day but plain numbers that increase (\(shown) … in the first \(values.count) rows, starting again only as a new profile would), beside a depth and no date: read as seconds into the dive, one row per sample",
                                    at: SourceLocation(file: file, field: columns[t].name)))
        }
        // Rows of `time, channel, value`, the channel named in words: a profile, one reading a
        // row, the rows of one time one sample (§10.13).
        var eventLog: CSVEventLog?
        var reported = Set<Int>()
        if preset == nil, header != nil, options.columns.isEmpty,
           let found = try Self.eventLog(columns: columns, firstRow: firstRow, lookahead: lookahead, decimalMark: dialect.decimalMark) {
            let log = found.log
            eventLog = log
            let timeUnit = columns[log.time].meaning?.unit.flatMap { $0.dimension == .time ? $0 : nil } ?? .seconds
            columns[log.time].meaning = CSVColumnMeaning(.sampleTime, unit: timeUnit)
            for c in [log.channel, log.value] + (log.unit.map { [$0] } ?? []) {
                columns[c].meaning = nil
                reported.insert(c)
            }
            fields = Set(columns.compactMap { $0.meaning?.field })
            let shown = found.words.prefix(4).map { "\"\(CSVDiveReader.quoted($0))\"" }.joined(separator: ", ") + (found.words.count > 4 ? " …" : "")
            let unitPart = log.unit.map { ", its unit in \"\(columns[$0].name)\"" } ?? ""
            findings.append(Finding(.resolved, "csv.event-log", "the table is an event log: each row gives one reading of the channel its column \"\(columns[log.channel].name)\" names (\(shown) in the first \(found.rows) rows), its value in \"\(columns[log.value].name)\"\(unitPart), at the time in \"\(columns[log.time].name)\" (\(timeUnit == .seconds ? "seconds" : timeUnit.rawValue) into the dive); the rows of one time are one sample",
                                    at: SourceLocation(file: file, field: columns[log.channel].name)))
        }
        var kind = CSVLayout.Kind.summary
        if eventLog != nil {
            kind = .profile
        } else if let preset, !preset.codes.isEmpty, let k = preset.kind {
            kind = k
        } else if fields.contains(.sampleTime) && perSample {
            kind = .profile
        } else if perSample && !fields.contains(.maxDepth) && (interval != nil || preset?.kind == .profile) {
            kind = .profile
            for c in columns.indices where columns[c].meaning?.field == .duration && columns[c].source != .user {
                columns[c].meaning?.field = .sampleTime
            }
        }
        if kind == .summary {
            for c in columns.indices where columns[c].source != .user {
                guard let m = columns[c].meaning?.summarised else { continue }
                columns[c].meaning = m
                // A reading of a profile has no instant in a one-row-per-dive table.
                if m.field.isSample && m.field != .gradientFactor {
                    columns[c].meaning?.field = .ignored
                    reported.insert(c)
                    findings.append(Finding(.dropped, "csv.column-not-carried", "the column \"\(columns[c].name)\" holds a profile's readings, which a table of one row per dive cannot place in time; not read",
                                            at: SourceLocation(file: file, field: columns[c].name)))
                }
            }
        }
        if kind == .summary, preset == nil {
            try Self.readByNeighboursAndValues(&columns, &findings, firstRow: firstRow, lookahead: lookahead,
                                               decimalMark: dialect.decimalMark, file: file)
        }
        fields = Set(columns.compactMap { $0.meaning?.field })
        var skip = preset?.skipRows ?? 0
        // Rows under the header that number the columns 0, 1, 2 … (and a row of codes above
        // that): labels, not samples.
        if skip == 0, header != nil, let firstRow, firstRow.count >= 3,
           firstRow.enumerated().allSatisfy({ Int($0.element.trimmingWhitespace()) == $0.offset }) {
            skip = 1
        }
        var keys: [Int] = []
        if kind == .profile {
            // A dive's number, its day, and its start where every row repeats it: a dive
            // whose number is blank is still told from the next by its date and start (§10.17).
            // A start that changes from row to row is each sample's wall clock, no key.
            let diveFields: Set<CSVField> = [.diveNumber, .diveID, .date, .year, .month, .day]
            let startFields: Set<CSVField> = [.dateTime, .time]
            var ahead: [[String]]?
            for c in columns {
                guard let f = c.meaning?.field else { continue }
                if diveFields.contains(f) {
                    keys.append(c.index)
                } else if startFields.contains(f), let firstRow, c.index < firstRow.count {
                    if ahead == nil { ahead = try lookahead() }
                    let value = firstRow[c.index].trimmingWhitespace()
                    if let next = ahead!.first(where: { c.index < $0.count && !$0[c.index].trimmingWhitespace().isEmpty }),
                       !value.isEmpty, next[c.index].trimmingWhitespace() == value {
                        keys.append(c.index)
                    }
                }
            }
        }
        // A spreadsheet's flattening of an XML log: its rows are elements, not dives (§10.15).
        let flattened = header.flatMap { CSVFlattenedXML.recognise(header: $0) }
        for c in columns where !reported.contains(c.index) && flattened == nil {
            if c.meaning == nil, header != nil, !c.name.isEmpty {
                findings.append(Finding(.dropped, "csv.column-unknown", "the column \"\(c.name)\" means nothing umilog knows; not read (--map '\(c.name)=FIELD' reads it)",
                                        at: SourceLocation(file: file, field: c.name)))
            } else if c.meaning?.field == .ignored {
                findings.append(Finding(.dropped, "csv.column-not-carried", "the column \"\(c.name)\" has no place in a dive log's model; not read",
                                        at: SourceLocation(file: file, field: c.name)))
            }
        }
        // A mapping that names no column is the user's mistake, said at once.
        let named = Set(columns.map { $0.name.lowercased() } + columns.indices.map { String($0 + 1) })
        for name in options.columns.keys.sorted() where !named.contains(name) && !metadata.contains(where: { $0.label.lowercased() == name }) {
            findings.append(Finding(.dropped, "csv.map-unused", "the mapping names a column \"\(name)\" the file does not have (its columns: \(columns.map { "\"\($0.name)\"" }.joined(separator: ", ")))",
                                    at: SourceLocation(file: file)))
        }
        // A summary needs a column its dives' starts come from. (A problem is raised by the
        // reader's first dive, so that `csv inspect` can still show what it understood.)
        var problem: DiveError?
        let startFields: Set<CSVField> = [.date, .dateTime, .year]
        if kind == .summary, options.startedAt == nil, Set(columns.compactMap { $0.meaning?.field }).isDisjoint(with: startFields),
           !metadata.contains(where: { startFields.contains($0.meaning.field) }) {
            problem = DiveError("csv.no-date-column", "no column holds the dives' dates (columns: \(columns.map { "\"\($0.name)\"" }.joined(separator: ", "))); name it with --map 'COLUMN=date'",
                            at: SourceLocation(file: file))
        }
        if header == nil, preset == nil, !columns.contains(where: { $0.source == .user }), !shapes.isEmpty {
            let proposal = CSVColumnShape.proposal(shapes)
            let seen = shapes.enumerated().map { "\($0.offset + 1) \($0.element.description)" }.joined(separator: "; ")
            problem = DiveError("csv.no-header", "the table has no header row, and its columns (\(seen)) are no layout umilog knows; name them by position with --map\(proposal.isEmpty ? " 'N=FIELD[:UNIT]'" : ", perhaps \(CSVColumnShape.mapLine(proposal))") (umilog csv inspect shows each column)",
                                at: SourceLocation(file: file))
        } else if kind == .profile, !fields.contains(.sampleTime), interval == nil {
            problem = DiveError("csv.no-sample-time", "the profile has no time column and states no sample interval; name the time column with --map 'COLUMN=sample_time:s'",
                            at: SourceLocation(file: file))
        }
        if let flattened {
            problem = DiveError("csv.flattened-xml", flattened.message, at: SourceLocation(file: file, line: dialect.preambleLines + 1))
        } else if firstRow == nil {
            if header == nil {
                problem = DiveError("csv.empty", "the file holds no table (no header, no rows)", at: SourceLocation(file: file))
            } else {
                findings.append(Finding(.absent, "csv.no-rows", "the table has a header and no rows: no dives", at: SourceLocation(file: file)))
            }
        }
        return CSVLayout(dialect: dialect, preset: preset, columns: columns, kind: kind, dateOrder: nil, metadata: metadata,
                         sampleInterval: interval, defaultUnits: units, skipRows: skip, eventLog: eventLog, findings: findings,
                         keyColumns: keys, problem: problem, shapes: shapes)
    }

    /// Words that qualify a quantity without naming it: `average` beside `depth` is the
    /// average depth (google-sheets' `dive,…,depth,average,time`, §10.20).
    static let bareAverages: Set<String> = ["average", "avg", "mean", "durchschnitt", "mittel", "moyenne", "media", "promedio", "gemiddeld", "gemiddelde"]

    /// Two rules of a dive list's columns that the header alone cannot settle (§10.20): a bare
    /// `average` right after the greatest depth is the average depth, in its unit; a `Time`
    /// column of whole numbers (no clock time among them), in a list that has no duration
    /// column, is each dive's length in minutes, as divers log a "time" (a time of day is
    /// written with a colon). Each is said.
    static func readByNeighboursAndValues(_ columns: inout [CSVColumn], _ findings: inout [Finding], firstRow: [String]?,
                                          lookahead: () throws -> [[String]], decimalMark: UInt8, file: String) throws {
        for c in columns.indices.dropFirst() where columns[c].meaning == nil && columns[c].source == .none
            && bareAverages.contains(columns[c].name.folded) && columns[c - 1].meaning?.field == .maxDepth {
            columns[c].meaning = CSVColumnMeaning(.avgDepth, unit: columns[c - 1].meaning?.unit)
            columns[c].source = .dictionary
            findings.append(Finding(.resolved, "csv.column-by-neighbour", "the column \"\(columns[c].name)\" names no quantity, and stands right after the greatest depth \"\(columns[c - 1].name)\": read as the average depth",
                                    at: SourceLocation(file: file, field: columns[c].name)))
        }
        // `Dive` alone could name a dive's site or kind; holding whole numbers, it numbers them.
        var ahead: [[String]]?
        func values(_ c: Int) throws -> [String] {
            guard let firstRow else { return [] }
            if ahead == nil { ahead = try lookahead() }
            return ([firstRow] + ahead!).compactMap { c < $0.count ? $0[c].trimmingWhitespace() : nil }.filter { !$0.isEmpty }
        }
        if !columns.contains(where: { $0.meaning?.field == .diveNumber }),
           let d = columns.firstIndex(where: { $0.meaning == nil && $0.source == .none && ["dive", "tauchgang", "plongee", "immersione", "inmersion", "duik"].contains($0.name.folded) }) {
            let numbers = try values(d)
            if !numbers.isEmpty, numbers.allSatisfy({ Int($0).map { $0 > 0 } ?? false }) {
                columns[d].meaning = CSVColumnMeaning(.diveNumber)
                columns[d].source = .dictionary
                findings.append(Finding(.resolved, "csv.column-by-values", "the column \"\(columns[d].name)\" holds whole numbers (\(numbers.prefix(3).joined(separator: ", ")) …): read as the dives' numbers",
                                        at: SourceLocation(file: file, field: columns[d].name)))
            }
        }
        guard !columns.contains(where: { $0.meaning?.field == .duration }), columns.contains(where: { $0.meaning?.field == .date }),
              let t = columns.firstIndex(where: { $0.source == .dictionary && $0.meaning == CSVColumnMeaning(.time) }),
              let firstRow, t < firstRow.count else { return }
        let values = try values(t)
        let minutes = values.compactMap { Int($0) }
        guard !values.isEmpty, minutes.count == values.count, minutes.allSatisfy({ (1...600).contains($0) }) else { return }
        columns[t].meaning = CSVColumnMeaning(.duration, unit: .minutes)
        let shown = minutes.prefix(3).map(String.init).joined(separator: ", ")
        findings.append(Finding(.resolved, "csv.time-is-duration", "the column \"\(columns[t].name)\" holds no time of day but whole numbers (\(shown) … in the first \(values.count) rows), in a list of dives with a date and no length: read as each dive's length in minutes",
                                at: SourceLocation(file: file, field: columns[t].name)))
    }

    /// The values of column `t` in the first row and the rows read ahead, when they are plain
    /// numbers of 0 or more that increase from row to row (blank cells aside), at least two
    /// steps up, and start again only as profiles one after another do: back to no more than
    /// the first value or the smallest step, after a run of three rows or more; else `nil`.
    /// The rows ahead are read only if the first row's value is such a number.
    static func increasingNumbers(column t: Int, firstRow: [String]?, lookahead: () throws -> [[String]],
                                  decimalMark: UInt8) throws -> [Double]? {
        func number(_ row: [String]) -> Double? {
            t < row.count ? CSVValues.number(Substring(row[t]), decimalMark: decimalMark) : nil
        }
        guard let firstRow, let first = number(firstRow), first >= 0, first.isFinite else { return nil }
        var values = [first]
        var restarts: [Int] = []
        for row in try lookahead() {
            guard t < row.count, !row[t].trimmingWhitespace().isEmpty else { continue }
            guard let v = number(row), v.isFinite, v >= 0, v != values.last! else { return nil }
            if v < values.last! { restarts.append(values.count) }
            values.append(v)
        }
        var steps: [Double] = []
        for i in values.indices.dropFirst() where !restarts.contains(i) { steps.append(values[i] - values[i - 1]) }
        guard steps.count >= 2, let step = steps.min() else { return nil }
        var runStart = 0
        for r in restarts {
            guard r - runStart >= 3, values[r] <= max(first, step) else { return nil }
            runStart = r
        }
        return values
    }

    /// The text of a comment line (`// x`, `# x`, `/* x`, ` * x`), or `nil` when the record is
    /// not one.
    static func commentText(_ s: String) -> String? {
        var t = Substring(s.trimmingWhitespace())
        var marked = false
        for marker in ["//", "/*", "*/", "*\\", "#", "*"] where t.hasPrefix(marker) {
            t = t.dropFirst(marker.count)
            marked = true
            break
        }
        while t.hasSuffix("*/") || t.hasSuffix("*\\") { t = t.dropLast(2); marked = true }
        return marked ? String(t).trimmingWhitespace() : nil
    }

    /// A comment line that says nothing about a dive: a banner, a licence line, a rule.
    static func isDecoration(_ s: String) -> Bool {
        s.allSatisfy { !$0.isLetter && !$0.isNumber } || s.uppercased() == s && !s.contains(where: \.isNumber)
    }
}

extension CSVColumnMeaning {
    /// The meaning in a summary: a dive's `Depth` is its greatest, its `Temperature` the water's.
    var summarised: CSVColumnMeaning {
        var m = self
        switch field {
        case .sampleDepth: m.field = .maxDepth
        case .sampleTemperature: m.field = .waterTemperature
        case .sampleTime: m.field = .duration
        default: break
        }
        return m
    }
}
