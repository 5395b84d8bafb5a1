#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cells of one data row. While the tokenizer stands on the row they are read where they
/// lie, so a profile's numbers never become strings; a row kept for later (the first of the
/// next dive, read ahead) holds its cells as strings.
struct CSVRow {
    private let tokenizer: CSVTokenizer?
    private let strings: [String]
    /// The row number (the header being row 1) and the line it starts on.
    let row: Int
    let line: Int
    let count: Int

    init(tokenizer: CSVTokenizer, row: Int, line: Int) {
        self.tokenizer = tokenizer; strings = []
        self.row = row; self.line = line; count = tokenizer.fieldCount
    }

    init(strings: [String], row: Int, line: Int) {
        tokenizer = nil; self.strings = strings
        self.row = row; self.line = line; count = strings.count
    }

    /// The row with its cells copied out, to outlive the tokenizer's next record.
    func kept() -> CSVRow {
        tokenizer.map { CSVRow(strings: $0.fields(), row: row, line: line) } ?? self
    }

    /// Cell `i` as text.
    func string(_ i: Int) -> String {
        tokenizer?.string(at: i) ?? strings[i]
    }

    /// Every cell as text.
    var fields: [String] { tokenizer?.fields() ?? strings }

    /// True when cell `i` holds nothing but spaces and tabs.
    func isBlank(_ i: Int) -> Bool {
        guard let tokenizer else { return strings[i].utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
        if tokenizer.isEmptyField(i) { return true }
        return tokenizer.withFieldBytes(i) { $0.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
    }

    /// Cell `i` as a plain decimal number (`-12.5`, `3,2` with a decimal comma), read from its
    /// bytes; `nil` for anything else, which the caller reads from its text.
    func plainNumber(_ i: Int, decimalMark: UInt8) -> Double? {
        guard let tokenizer else { return nil }
        return tokenizer.withFieldBytes(i) { CSVValues.plainNumber($0, decimalMark: decimalMark) }
    }

    /// Cell `i`'s bytes, handed to `body` (spaces and tabs around them trimmed); empty for a
    /// cell past the row's end.
    func withTrimmedBytes<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        func trimmed(_ b: UnsafeRawBufferPointer) -> R {
            var start = 0, end = b.count
            while start < end, b[start] == 0x20 || b[start] == 0x09 { start += 1 }
            while end > start, b[end - 1] == 0x20 || b[end - 1] == 0x09 { end -= 1 }
            return body(UnsafeRawBufferPointer(rebasing: b[start..<end]))
        }
        guard i < count else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        if let tokenizer { return tokenizer.withFieldBytes(i, trimmed) }
        var s = strings[i]
        return s.withUTF8 { trimmed(UnsafeRawBufferPointer($0)) }
    }
}

/// What tells one dive of a profile table from the next: the cells of its key columns (a dive
/// number, its date, its start), as its first row gave them, one after another in one buffer
/// (a profile compares them on every row).
struct ProfileDiveKey {
    private var bytes: [UInt8] = []
    /// Where each key column's cell lies in `bytes`.
    private var ends: [Int]

    init(columns: Int) { ends = Array(repeating: 0, count: columns) }

    /// Starts the key again from `r`'s cells.
    mutating func reset(to r: CSVRow, columns: [Int]) {
        bytes.removeAll(keepingCapacity: true)
        for (k, c) in columns.enumerated() {
            r.withTrimmedBytes(c) { bytes.append(contentsOf: $0) }
            ends[k] = bytes.count
        }
    }

    /// True when `r` belongs to another dive: one of its key cells holds something other
    /// than this dive's (a blank cell continues the dive: a dive number written on a dive's
    /// first row only; a cell this dive left blank and `r` fills is another dive's).
    func isAnother(_ r: CSVRow, columns: [Int]) -> Bool {
        bytes.withUnsafeBytes { all in
            var start = 0
            for (k, c) in columns.enumerated() {
                let end = ends[k]
                let differs = r.withTrimmedBytes(c) { b in
                    guard !b.isEmpty else { return false }
                    guard b.count == end - start else { return true }
                    return memcmp(all.baseAddress! + start, b.baseAddress!, b.count) != 0
                }
                if differs { return true }
                start = end
            }
            return false
        }
    }
}

extension CSVValues {
    /// The fast path for a profile's cells: an optional sign, at most 15 digits and one
    /// decimal mark, surrounding spaces aside. Read exactly as `strtod` would (a whole number
    /// below 2^53 divided by an exact power of ten rounds once, correctly); `nil` for anything
    /// else — exponents, units, longer numbers — which ``number(_:decimalMark:)`` reads.
    static func plainNumber(_ b: UnsafeRawBufferPointer, decimalMark: UInt8) -> Double? {
        var i = 0, end = b.count
        while i < end, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
        while end > i, b[end - 1] == 0x20 || b[end - 1] == 0x09 { end -= 1 }
        guard i < end else { return nil }
        var negative = false
        if b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { negative = b[i] == UInt8(ascii: "-"); i += 1 }
        var mantissa: UInt64 = 0, digits = 0, fraction = 0
        var sawMark = false
        while i < end {
            let c = b[i]
            if c &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(c &- 0x30)
                digits += 1
                if sawMark { fraction += 1 }
            } else if c == decimalMark && !sawMark {
                sawMark = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0, digits <= 15 else { return nil }
        let value = Double(mantissa) / powersOfTen[fraction]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...15).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }
}
