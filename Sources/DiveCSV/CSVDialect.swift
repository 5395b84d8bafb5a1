/// How a CSV file is written: what separates its fields, how its numbers mark decimals, its
/// encoding, and where its table starts. ``sniff(_:)`` reads it off the first
/// ``CSVTokenizer/sampleSize`` bytes.
public struct CSVDialect: Sendable, Hashable, CustomStringConvertible {
    /// The byte between fields: `,`, `;`, tab or `|`.
    public var delimiter: UInt8
    /// `.` or `,` (a decimal comma, as `;`- and tab-separated files from European locales write).
    public var decimalMark: UInt8
    /// The encoding the text was read in.
    public var encoding: CSVEncoding
    /// Records before the table: comment lines (`#`, `//`, `/* … */`), blank lines, and a
    /// summary block (`key: value` lines, or a header and a row of their own) above it.
    public var preambleRecords: Int
    /// The lines those records take (a quoted field may hold line breaks).
    public var preambleLines: Int
    /// True when the table's first record names its columns.
    public var hasHeader: Bool
    /// The table's width: the header's names (not counting empty names a trailing delimiter
    /// leaves), or the usual field count of a headerless table.
    public var fieldCount: Int

    /// The candidates ``sniff(_:)`` chooses the delimiter from, in the order a tie is broken.
    public static let delimiters: [UInt8] = [0x09, UInt8(ascii: ";"), UInt8(ascii: "|"), UInt8(ascii: ",")]

    /// A dialect; the defaults describe a plain RFC 4180 file with a header.
    public init(delimiter: UInt8 = UInt8(ascii: ","), decimalMark: UInt8 = UInt8(ascii: "."),
                encoding: CSVEncoding = .utf8, preambleRecords: Int = 0, preambleLines: Int = 0,
                hasHeader: Bool = true, fieldCount: Int = 0) {
        self.delimiter = delimiter; self.decimalMark = decimalMark; self.encoding = encoding
        self.preambleRecords = preambleRecords; self.preambleLines = preambleLines
        self.hasHeader = hasHeader; self.fieldCount = fieldCount
    }

    /// The header's record number in the file (1-based, preamble included); `nil` without one.
    public var headerRecord: Int? { hasHeader ? preambleRecords + 1 : nil }

    /// The delimiter's name: `comma`, `semicolon`, `tab`, `pipe`.
    public var delimiterName: String { Self.name(of: delimiter) }

    static func name(of delimiter: UInt8) -> String {
        switch delimiter {
        case UInt8(ascii: ","): return "comma"
        case UInt8(ascii: ";"): return "semicolon"
        case 0x09: return "tab"
        case UInt8(ascii: "|"): return "pipe"
        default: return "\"\(Character(Unicode.Scalar(delimiter)))\""
        }
    }

    /// `semicolon-separated, decimal comma, UTF-8, 18 preamble lines, header, 5 fields`.
    public var description: String {
        var parts = ["\(delimiterName)-separated", decimalMark == UInt8(ascii: ",") ? "decimal comma" : "decimal point",
                     encoding.description]
        if preambleLines > 0 { parts.append("\(preambleLines) preamble line\(preambleLines == 1 ? "" : "s")") }
        parts.append(hasHeader ? "header" : "no header")
        parts.append("\(fieldCount) field\(fieldCount == 1 ? "" : "s")")
        return parts.joined(separator: ", ")
    }

    /// Sniffs the dialect of the text `tokenizer` has read so far (call it before the first
    /// ``CSVTokenizer/next()``, then set the tokenizer's delimiter from it).
    public static func sniff(_ tokenizer: CSVTokenizer) -> CSVDialect {
        let encoding = tokenizer.encoding
        return tokenizer.withSample { sample, whole in sniff(sample: sample, isWholeInput: whole, encoding: encoding) }
    }

    /// Sniffs the dialect of `sample`, the start of a file's text as UTF-8. Without
    /// `isWholeInput`, the last record is taken to be cut off and left out.
    ///
    /// - The delimiter is the candidate that splits the most lines into one consistent field
    ///   count greater than 1 (quotes respected); a tie goes to the earlier of ``delimiters``.
    /// - The table starts at the record from which the most records agree with its width —
    ///   90 % of them, when some start manages that. A row that stops early after a delimiter
    ///   (`2.5;`) and one with empty fields beyond the width (`1,2,,`) agree.
    /// - The records above the table are its preamble: comment lines (`#`, `//`, `/*`, `*`),
    ///   blank lines, and a summary block (`key: value` lines, or a header and a row of their
    ///   own) none of whose records agrees with the table's width; at most 50 records besides
    ///   comments and blank lines, and no more than the table. A summary a spreadsheet padded
    ///   to the table's width (`Diver,Ann,,,`) is skipped when a header follows it.
    /// - There is a header when, in the columns holding numbers or dates, the first record
    ///   holds mostly words. A `#` comment of the table's width right above a headerless
    ///   table is its header (`#Nr,date,time`).
    /// - Decimals are commas when the delimiter is not a comma and more numbers are written
    ///   `12,5` than `12.5`.
    public static func sniff(sample: UnsafeRawBufferPointer, isWholeInput: Bool, encoding: CSVEncoding = .utf8) -> CSVDialect {
        sniffTable(sample: sample, isWholeInput: isWholeInput, encoding: encoding).dialect
    }

    /// ``sniff(sample:isWholeInput:encoding:)``, and whether the sample is one table: 90 % or
    /// more of the records from the table's start fit its width, as in a CSV file (a
    /// document with a table in it, such as Markdown, is not one).
    public static func sniffTable(sample: UnsafeRawBufferPointer, isWholeInput: Bool,
                                  encoding: CSVEncoding = .utf8) -> (dialect: CSVDialect, isOneTable: Bool) {
        var isOneTable = false
        var dialect = CSVDialect(encoding: encoding, hasHeader: false)
        var best: (delimiter: UInt8, lines: [SniffedLine], table: TableStart)?
        for delimiter in delimiters {
            let lines = SniffedLine.split(sample, delimiter: delimiter, isWholeInput: isWholeInput)
            guard let table = TableStart.find(in: lines) else { continue }
            if let current = best?.table, !(table.isBetter(than: current)) { continue }
            best = (delimiter, lines, table)
        }
        let lines: [SniffedLine]
        var start: Int
        if let best {
            dialect.delimiter = best.delimiter
            lines = best.lines
            start = best.table.start
            isOneTable = best.table.isConsistent
        } else {
            // One column (or nothing): no delimiter splits anything.
            lines = SniffedLine.split(sample, delimiter: dialect.delimiter, isWholeInput: isWholeInput)
            start = lines.firstIndex { !$0.isBlank && $0.comment == .none } ?? lines.count
        }
        guard start < lines.count else {
            dialect.preambleRecords = lines.count
            dialect.preambleLines = lines.last.map { $0.line + $0.lineCount - 1 } ?? 0
            return (dialect, isOneTable)
        }
        let shapes = SniffedLine.shapes(sample, delimiter: dialect.delimiter, isWholeInput: isWholeInput,
                                        upTo: min(lines.count, start + 451))
        start = skipPaddedSummary(lines, shapes, from: start)
        let rows = (start + 1..<shapes.count).filter { !lines[$0].isBlank }.map { shapes[$0] }
        dialect.hasHeader = looksLikeHeader(shapes[start], over: rows)
        if !dialect.hasHeader, let previous = (0..<start).last(where: { !lines[$0].isBlank }),
           lines[previous].comment == .hash, lines[previous].fields == lines[start].fields {
            start = previous
            dialect.hasHeader = true
        }
        dialect.preambleRecords = start
        dialect.preambleLines = lines[start].line - 1

        let table = lines[start...].filter { !$0.isBlank }
        if dialect.hasHeader {
            let header = lines[start]
            let beyond = table.dropFirst().filter { $0.lastNonEmpty > header.lastNonEmpty }.count
            dialect.fieldCount = beyond * 2 > table.count - 1 ? header.fields : max(header.lastNonEmpty, 1)
        } else {
            var counts: [Int: Int] = [:]
            for line in table { counts[line.fields, default: 0] += 1 }
            dialect.fieldCount = counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 1
        }

        if dialect.delimiter != UInt8(ascii: ",") {
            var commas = 0, points = 0
            for row in shapes[(dialect.hasHeader ? start + 1 : start)...] {
                for shape in row {
                    if shape == .decimalComma || shape == .quantityComma { commas += 1 } else if shape == .decimalPoint || shape == .quantityPoint { points += 1 }
                }
            }
            if commas > points { dialect.decimalMark = UInt8(ascii: ",") }
        }
        return (dialect, isOneTable)
    }

    /// A header holds words where the rows under it hold numbers or dates: each column whose
    /// values are 90 % numbers or dates votes for a header when its first value is a word and
    /// against when it is a number or date. Without such columns it is a header unless every
    /// value of it is a number or date.
    static func looksLikeHeader(_ first: [CSVValueShape], over rows: [[CSVValueShape]]) -> Bool {
        var votes = 0
        for (column, shape) in first.enumerated() where shape != .empty {
            var values = 0, valueLike = 0
            for row in rows where column < row.count && row[column] != .empty {
                values += 1
                if row[column].isValueLike { valueLike += 1 }
            }
            guard values > 0, valueLike * 10 >= values * 9 else { continue }
            votes += shape.isValueLike ? -1 : 1
        }
        if votes != 0 { return votes > 0 }
        return first.contains { $0 == .text }
    }

    /// Moves the table's start past a summary block a spreadsheet padded to the table's width
    /// (`Diver,Ann,,,,`): a run of records with at most two values under a table at least
    /// four wide, when the run is followed by a header: a record with three quarters of its
    /// fields filled, mostly with words.
    static func skipPaddedSummary(_ lines: [SniffedLine], _ shapes: [[CSVValueShape]], from start: Int) -> Int {
        let width = lines[start].fields
        guard width >= 4 else { return start }
        var i = start
        while i < lines.count, i - start <= 50, lines[i].isBlank || lines[i].nonEmpty <= 2 { i += 1 }
        guard i > start, i < shapes.count, i - start <= 50, lines[i].nonEmpty * 4 >= width * 3 else { return start }
        let words = shapes[i].filter { $0 == .text }.count
        return words * 2 > lines[i].nonEmpty ? i : start
    }
}

/// One record of the sniffing sample, as a candidate delimiter splits it.
struct SniffedLine {
    enum Comment { case none, hash, other }
    /// Its field count.
    var fields: Int
    /// The 1-based index of its last non-empty field (0 when all are empty).
    var lastNonEmpty: Int
    /// How many of its fields are not empty.
    var nonEmpty: Int
    var isBlank: Bool
    /// Whether its first field starts like a comment: `#`, or `//`, `/*`, `*`.
    var comment: Comment
    /// The line it starts on, and how many it spans.
    var line: Int
    var lineCount: Int
    /// True for the last record of a sample that is not the whole input when a quote opened in
    /// it is still open at the sample's end: a field (a long note) that goes on past it.
    var isCut = false

    /// True when the record fits a table `width` wide: as wide; wider with only empty fields
    /// beyond; or narrower and ending with a delimiter (a writer that stops at the last value).
    /// A record the sample cuts off fits when it is no wider: its fields go on past the sample.
    func fits(width: Int) -> Bool {
        if isCut { return fields <= width }
        if fields == width { return true }
        if fields > width { return lastNonEmpty <= width }
        return fields >= 2 && lastNonEmpty < fields
    }

    static func split(_ sample: UnsafeRawBufferPointer, delimiter: UInt8, isWholeInput: Bool) -> [SniffedLine] {
        let tokenizer = CSVTokenizer(decoded: sample, delimiter: delimiter)
        var lines: [SniffedLine] = []
        var lastIsOpen = false
        while (try? tokenizer.next()) == true {
            var last = 0, nonEmpty = 0
            for k in 0..<tokenizer.fieldCount where !tokenizer.isEmptyField(k) {
                last = k + 1; nonEmpty += 1
            }
            let comment = tokenizer.withFieldBytes(0) { bytes -> Comment in
                guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return .none }
                let next = first + 1 < bytes.count ? bytes[first + 1] : 0
                switch (bytes[first], next) {
                case (UInt8(ascii: "#"), _): return .hash
                case (UInt8(ascii: "/"), UInt8(ascii: "/")), (UInt8(ascii: "/"), UInt8(ascii: "*")), (UInt8(ascii: "*"), _): return .other
                default: return .none
                }
            }
            if let previous = lines.indices.last { lines[previous].lineCount = tokenizer.line - lines[previous].line }
            lines.append(SniffedLine(fields: tokenizer.fieldCount, lastNonEmpty: last, nonEmpty: nonEmpty,
                                     isBlank: tokenizer.isBlank, comment: comment, line: tokenizer.line, lineCount: 1))
            lastIsOpen = tokenizer.hasIssues && tokenizer.issues.contains { $0.kind == .unterminatedQuote }
        }
        guard let last = lines.indices.last else { return lines }
        lines[last].lineCount = max(1, lastLine(sample) - lines[last].line + 1)
        // The last record is cut off where the sample ends. One in an open quote stays: the
        // lines it spans are the table's (a note longer than the sample, written by a writer
        // that quotes); counted as records of another delimiter, they would pass for the table.
        if !isWholeInput && lastIsOpen { lines[last].isCut = true }
        if !isWholeInput && lines.count > 1 && !lines[last].isCut { lines.removeLast() }
        return lines
    }

    /// The line the last character of `sample` is on (CRLF, LF and CR each end a line).
    static func lastLine(_ sample: UnsafeRawBufferPointer) -> Int {
        var line = 1
        for k in sample.indices.dropLast() where sample[k] == 0x0A || (sample[k] == 0x0D && sample[k + 1] != 0x0A) {
            line += 1
        }
        return line
    }

    /// The value shapes of the first `limit` records.
    static func shapes(_ sample: UnsafeRawBufferPointer, delimiter: UInt8, isWholeInput: Bool, upTo limit: Int) -> [[CSVValueShape]] {
        let tokenizer = CSVTokenizer(decoded: sample, delimiter: delimiter)
        var out: [[CSVValueShape]] = []
        while out.count < limit, (try? tokenizer.next()) == true {
            out.append((0..<tokenizer.fieldCount).map { k in tokenizer.withFieldBytes(k, CSVValueShape.of) })
        }
        return out
    }
}

/// Where a table starts for one candidate delimiter, and how well the records agree on it.
struct TableStart {
    /// The index of its first record.
    var start: Int
    /// Its width, from the first record.
    var width: Int
    /// Records from `start` on (blank ones aside) that fit the width, and all of them.
    var fitting: Int
    var total: Int
    /// The lines the fitting (or one short) records span: a quoted note's lines are one
    /// record of the right delimiter, and may pass for many records of another.
    var fittingLines: Int
    /// Records one cell short of a table four or more wide, no more than a quarter as many as
    /// those that fit: a writer that leaves an empty cell out (§10.19) still writes the
    /// table's row.
    var oneShort = 0

    /// 90 % or more of the records fit, or are one cell short.
    var isConsistent: Bool { (fitting + oneShort) * 10 >= total * 9 }

    /// Consistent first, then the one that explains more of the text's lines as its table,
    /// then more of its records.
    func isBetter(than other: TableStart) -> Bool {
        if isConsistent != other.isConsistent { return isConsistent }
        if fittingLines != other.fittingLines { return fittingLines > other.fittingLines }
        if fitting != other.fitting { return fitting > other.fitting }
        return fitting + oneShort > other.fitting + other.oneShort
    }

    /// The most records (not blank, not comments) a preamble may hold.
    static let longestPreamble = 50

    /// The best start: the one with the most fitting records, consistent ones first. Records
    /// before it (blank ones and comments aside) are its preamble: at most
    /// ``longestPreamble``, none fitting its width, and no more than the records from it on.
    /// `nil` when no record has two fields or more.
    static func find(in lines: [SniffedLine]) -> TableStart? {
        var best: TableStart?
        var preamble = 0
        for s in lines.indices where !lines[s].isBlank && lines[s].comment == .none {
            defer { preamble += 1 }
            if preamble > longestPreamble { break }
            let width = lines[s].fields
            guard width >= 2 else { continue }
            let preambleFits = lines[..<s].contains { !$0.isBlank && $0.comment == .none && $0.fits(width: width) }
            if preambleFits { continue }
            // A header that ends with a delimiter (`…,he (6) [%],`) names one column fewer
            // than it has fields; rows of either width agree with it.
            let named = lines[s].lastNonEmpty
            var fitting = 0, total = 0, fittingLines = 0, oneShort = 0, oneShortLines = 0
            for line in lines[s...] where !line.isBlank {
                total += 1
                if line.fits(width: width) || (named >= 2 && named < width && line.fits(width: named)) {
                    fitting += 1
                    fittingLines += line.lineCount
                } else if width >= 4, line.fields == width - 1, !line.isCut {
                    oneShort += 1
                    oneShortLines += line.lineCount
                }
            }
            if total < preamble { continue }
            // Rows a cell short are a writer's slip only while they are few beside the rows
            // that fit: a table most of whose rows are narrower is that narrower table.
            if oneShort * 4 > fitting { oneShort = 0 } else { fittingLines += oneShortLines }
            let candidate = TableStart(start: s, width: width, fitting: fitting, total: total, fittingLines: fittingLines, oneShort: oneShort)
            if let current = best, !candidate.isBetter(than: current) { continue }
            best = candidate
        }
        return best
    }
}
