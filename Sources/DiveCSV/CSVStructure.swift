import DiveCore

/// What ``checkCSVStructure(path:displayName:)`` found in a CSV file: its dialect, its
/// columns, and its problems.
public struct CSVStructureReport: Sendable {
    /// How the file is written; `encoding` is as the whole file was read.
    public var dialect: CSVDialect
    /// The header's names, or `1`, `2`, … for a headerless table.
    public var columns: [String]
    /// Rows of the table under its header (blank lines not counted).
    public var dataRows: Int
    /// Problems and observations, in file order.
    public var diagnostics: [Diagnostic]

    /// True when no diagnostic is an error.
    public var isValid: Bool { !diagnostics.contains { $0.severity == .error } }
}

/// Checks the structure of the CSV file at `path`, streaming it: its dialect is sniffed from
/// its first 64 KiB, then every record is read once, in flat memory.
///
/// Diagnostics, located by line (and column where a character is to blame), row (1-based,
/// the header being row 1) and column name:
///
/// | code | severity | |
/// | --- | --- | --- |
/// | `csv.empty` | error | no rows (nothing but blank lines and a preamble, or nothing at all) |
/// | `csv.unterminated-quote` | error | a quoted field still open at the end of the file |
/// | `csv.flattened-xml` | error | the columns are named after an XML log's paths: a spreadsheet's flattening of it (§10.15) |
/// | `csv.ragged-row` | error | a row with another number of fields than the header |
/// | `csv.stray-quote` | warning | a quote inside an unquoted field, or text after a closing quote |
/// | `csv.short-row` | warning | rows that stop after a delimiter before the last column (`2.5;`), once per file |
/// | `csv.type-mismatch` | warning | a value that is not a number in a column 90 % numbers |
/// | `csv.encoding-fallback` | note | bytes that are not UTF-8, read as Windows-1252 |
/// | `csv.more` | note | how many diagnostics of a code past the first 100 are not listed |
///
/// Throws when the file cannot be read (`io.open`, `io.read`) or passes a limit of
/// ``CSVLimits`` (`csv.field-too-long`, `csv.record-too-long`, `csv.too-many-columns`).
public func checkCSVStructure(path: String, displayName: String) throws -> CSVStructureReport {
    let tokenizer = try CSVTokenizer(path: path, displayName: displayName)
    let dialect = CSVDialect.sniff(tokenizer)
    tokenizer.delimiter = dialect.delimiter
    var checker = CSVStructureChecker(dialect: dialect, file: displayName)
    while try tokenizer.next() {
        checker.check(tokenizer)
    }
    return checker.finish(encoding: tokenizer.encoding)
}

/// The state of one structure check: the header, per-column counts, and what was found.
struct CSVStructureChecker {
    /// Diagnostics of one code listed before the rest are only counted.
    static let limitPerCode = 100
    /// Values that are not numbers kept per column, to report once the column's type is known.
    static let samplesPerColumn = 10

    let dialect: CSVDialect
    let file: String
    private(set) var columns: [String] = []
    private var width: Int
    private var dataRows = 0
    private var sawTable = false
    private var diagnostics: [Diagnostic] = []
    private var perCode: [String: Int] = [:]
    private var encodingReported = false

    /// Per column: values that are numbers, values that are not, and the first of those.
    private var numbers: [Int]
    private var others: [Int]
    private var samples: [[(row: Int, line: Int, value: String)]]
    private var shortRows = 0
    private var firstShortRow: (row: Int, line: Int, fields: Int)?

    init(dialect: CSVDialect, file: String) {
        self.dialect = dialect
        self.file = file
        width = max(dialect.fieldCount, 1)
        numbers = Array(repeating: 0, count: width)
        others = Array(repeating: 0, count: width)
        samples = Array(repeating: [], count: width)
        if !dialect.hasHeader { columns = (1...width).map(String.init) }
    }

    private func columnName(_ index: Int) -> String {
        index < columns.count && !columns[index].isEmpty ? columns[index] : String(index + 1)
    }

    /// Counts a problem of `code`; true while the code is under ``limitPerCode``, so that
    /// the message is built only for the problems kept (a file whose every row is ragged
    /// would otherwise build a sentence per row).
    private mutating func keeps(_ code: String) -> Bool {
        perCode[code, default: 0] += 1
        return perCode[code]! <= Self.limitPerCode
    }

    /// Checks the record `tokenizer` has just read.
    mutating func check(_ tokenizer: CSVTokenizer) {
        if !encodingReported, let offset = tokenizer.windows1252Offset, tokenizer.recordOffsets.upperBound > offset {
            encodingReported = true
            let place = tokenizer.lineAndColumn(ofOffset: offset)
            if keeps("csv.encoding-fallback") {
                diagnostics.append(Diagnostic(.note, "csv.encoding-fallback", "the file is not UTF-8 from here on; read as Windows-1252", at: SourceLocation(file: file, line: place?.line, column: place?.column)))
            }
        }
        let inPreamble = tokenizer.row <= dialect.preambleRecords
        let row = tokenizer.row - dialect.preambleRecords
        for issue in tokenizer.hasIssues ? tokenizer.issues : [] {
            let at = SourceLocation(file: file, line: issue.line, column: issue.column,
                                    row: inPreamble ? nil : row, field: inPreamble ? nil : columnName(issue.field))
            switch issue.kind {
            case .unterminatedQuote:
                if keeps("csv.unterminated-quote") {
                    diagnostics.append(Diagnostic(.error, "csv.unterminated-quote", "\(inPreamble ? "a" : "row \(row): a") quote opened here is never closed; the rest of the file was read as one field", at: at))
                }
            case .strayQuote where !inPreamble:
                if keeps("csv.stray-quote") {
                    diagnostics.append(Diagnostic(.warning, "csv.stray-quote", "row \(row): a quote inside an unquoted field; read as a literal \"", at: at))
                }
            case .textAfterClosingQuote where !inPreamble:
                if keeps("csv.stray-quote") {
                    diagnostics.append(Diagnostic(.warning, "csv.stray-quote", "row \(row): text follows the closing quote of a quoted field; read as part of the field", at: at))
                }
            default:
                break
            }
        }
        guard !inPreamble, !tokenizer.isBlank else { return }
        sawTable = true
        if row == 1 && dialect.hasHeader {
            columns = tokenizer.fields()
            return
        }
        dataRows += 1
        let count = tokenizer.fieldCount
        if count != width {
            if count > width, !(width..<count).contains(where: { !tokenizer.isEmptyField($0) }) {
                // Empty fields past the last column: a trailing delimiter.
            } else if count < width, count >= 2, tokenizer.isEmptyField(count - 1) {
                shortRows += 1
                if firstShortRow == nil { firstShortRow = (row, tokenizer.line, count) }
            } else {
                if keeps("csv.ragged-row") {
                    diagnostics.append(Diagnostic(.error, "csv.ragged-row", "row \(row) has \(count) field\(count == 1 ? "" : "s") where the \(dialect.hasHeader ? "header" : "table") has \(width)", at: SourceLocation(file: file, line: tokenizer.line, row: row)))
                }
            }
        }
        let mark = dialect.decimalMark
        // Columns whose value here is not a number, while they have room for a sample.
        var toSample: [Int] = []
        numbers.withUnsafeMutableBufferPointer { numbers in
            others.withUnsafeMutableBufferPointer { others in
                for column in 0..<min(count, width) {
                    switch tokenizer.withFieldBytes(column, { CSVValueShape.isNumber($0, decimalMark: mark) }) {
                    case nil:
                        continue
                    case true?:
                        numbers[column] += 1
                    case false?:
                        others[column] += 1
                        if others[column] <= Self.samplesPerColumn { toSample.append(column) }
                    }
                }
            }
        }
        if !toSample.isEmpty { keepSamples(tokenizer, columns: toSample, row: row) }
    }

    /// Keeps the current record's values in `columns` (ones that are not numbers).
    private mutating func keepSamples(_ tokenizer: CSVTokenizer, columns: [Int], row: Int) {
        for column in columns {
            var value = tokenizer.string(at: column)
            if value.count > 60 { value = String(value.prefix(57)) + "…" }
            samples[column].append((row, tokenizer.line, value))
        }
    }

    /// The report, once every record has been checked.
    mutating func finish(encoding: CSVEncoding) -> CSVStructureReport {
        if !sawTable {
            if keeps("csv.empty") {
                diagnostics.append(Diagnostic(.error, "csv.empty", "the file holds no rows", at: SourceLocation(file: file)))
            }
        }
        if dialect.hasHeader, let flattened = CSVFlattenedXML.recognise(header: columns), keeps("csv.flattened-xml") {
            diagnostics.append(Diagnostic(.error, "csv.flattened-xml", flattened.message, at: SourceLocation(file: file, line: dialect.preambleLines + 1)))
        }
        if let first = firstShortRow {
            let others = shortRows - 1
            let message = others == 0
                ? "row \(first.row) ends early, after a delimiter (\(first.fields) of \(width) fields); its missing fields are read as empty"
                : "row \(first.row) and \(others) more row\(others == 1 ? "" : "s") end early, after a delimiter "
                    + "(row \(first.row) has \(first.fields) of \(width) fields); their missing fields are read as empty"
            if keeps("csv.short-row") {
                diagnostics.append(Diagnostic(.warning, "csv.short-row", message, at: SourceLocation(file: file, line: first.line, row: first.row)))
            }
        }
        let markName = dialect.decimalMark == UInt8(ascii: ",") ? ", written with a decimal comma" : ""
        for column in 0..<width where others[column] > 0 && numbers[column] * 10 >= (numbers[column] + others[column]) * 9 {
            let percent = numbers[column] * 100 / (numbers[column] + others[column])
            let samples = self.samples[column]
            for (k, sample) in samples.enumerated() {
                var message = "row \(sample.row): \"\(sample.value)\" is not a number, unlike \(percent) % of the values in column \"\(columnName(column))\"\(markName)"
                if k == samples.count - 1 && others[column] > samples.count {
                    message += "; \(others[column] - samples.count) more values in the column are not numbers either"
                }
                if keeps("csv.type-mismatch") {
                    diagnostics.append(Diagnostic(.warning, "csv.type-mismatch", message, at: SourceLocation(file: file, line: sample.line, row: sample.row, field: columnName(column))))
                }
            }
        }
        var ordered = diagnostics.enumerated().sorted {
            let a = ($0.element.location.line ?? 0, $0.element.location.column ?? 0, $0.offset)
            let b = ($1.element.location.line ?? 0, $1.element.location.column ?? 0, $1.offset)
            return a < b
        }.map(\.element)
        for (code, n) in perCode.sorted(by: { $0.key < $1.key }) where n > Self.limitPerCode {
            ordered.append(Diagnostic(.note, "csv.more", "\(n - Self.limitPerCode) more \(code) diagnostics are not listed",
                                      at: SourceLocation(file: file)))
        }
        var dialect = self.dialect
        dialect.encoding = encoding
        return CSVStructureReport(dialect: dialect, columns: columns, dataRows: dataRows, diagnostics: ordered)
    }
}
