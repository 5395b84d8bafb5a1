import DiveCore

/// What the values of one column look like in a table's first rows: what `umilog csv inspect`
/// shows of a table it cannot read, and what a headerless table's layout is recognised by
/// (docs/csv-formats.md §10.18).
public struct CSVColumnShape: Sendable, Hashable {
    /// What a column's values look like.
    public enum Kind: String, Sendable, Hashable {
        /// Nothing in any row read.
        case empty
        /// A date (`2021-07-04`, `4.7.2021`), with a time after it or not.
        case date, dateTime = "date and time"
        /// `11:45`, `09:10:30`: a time of day or a length of time.
        case clock = "clock time"
        /// Only 0 and 1.
        case flag = "0/1 flag"
        case wholeNumber = "whole number", number
        /// A whole number of eight digits or more, or letters and digits that stay the same:
        /// a serial number.
        case serial
        case text
    }

    /// What every value in the column looks like.
    public var kind: Kind
    /// Rows read with a value in the column.
    public var count: Int
    /// The smallest and the greatest number (numbers only).
    public var range: ClosedRange<Double>?
    /// Numbers that only increase from row to row.
    public var rising: Bool
    /// Whole numbers that increase by exactly 1 from row to row.
    public var risingByOne: Bool
    /// The same value on every row.
    public var constant: Bool
    /// The first value, as written.
    public var example: String

    /// `dates (2021-07-04 …)`, `numbers 0.0–22.0, rising` …
    public var description: String {
        switch kind {
        case .empty: return "empty"
        case .date, .dateTime, .clock, .text, .serial:
            let quoted = example.count > 24 ? String(example.prefix(23)) + "…" : example
            return "\(kind.rawValue)s (\"\(quoted)\"\(constant && count > 1 ? " on every row" : " …"))"
        case .flag: return "0/1 flags"
        case .wholeNumber, .number:
            let r = range.map { $0.lowerBound == $0.upperBound ? CSVQuantity.format($0.lowerBound) : "\(CSVQuantity.format($0.lowerBound))–\(CSVQuantity.format($0.upperBound))" } ?? ""
            let how = risingByOne ? ", rising by 1" : rising ? ", rising" : constant && count > 1 ? ", the same on every row" : ""
            return "\(kind.rawValue)s \(r)\(how)"
        }
    }

    /// The shapes of `width` columns in `rows` (cells past a row's end count as blank).
    static func of(rows: [[String]], width: Int, decimalMark: UInt8) -> [CSVColumnShape] {
        (0..<width).map { c in
            let values = rows.compactMap { c < $0.count ? $0[c].trimmingWhitespace() : nil }.filter { !$0.isEmpty }
            return shape(values, decimalMark: decimalMark)
        }
    }

    static func shape(_ values: [String], decimalMark: UInt8) -> CSVColumnShape {
        var shape = CSVColumnShape(kind: .empty, count: values.count, range: nil, rising: false, risingByOne: false,
                                   constant: Set(values).count == 1, example: values.first ?? "")
        guard !values.isEmpty else { return shape }
        let numbers = values.compactMap { CSVValues.number(Substring($0), decimalMark: decimalMark) }.filter(\.isFinite)
        if numbers.count == values.count {
            shape.range = numbers.min()!...numbers.max()!
            let whole = numbers.allSatisfy { $0 == $0.rounded() }
            let pairs = zip(numbers, numbers.dropFirst())
            shape.rising = numbers.count >= 2 && pairs.allSatisfy { $0 < $1 }
            shape.risingByOne = whole && numbers.count >= 2 && pairs.allSatisfy { $1 - $0 == 1 }
            if whole && Set(numbers).isSubset(of: [0, 1]) && numbers.count >= 2 {
                shape.kind = .flag
            } else if whole && values.allSatisfy({ $0.count >= 8 && !$0.hasPrefix("-") }) && !shape.rising {
                shape.kind = .serial
            } else {
                shape.kind = whole ? .wholeNumber : .number
            }
        } else if values.allSatisfy({ CSVValues.dateParts(Substring($0)) != nil || CSVValues.namedMonthDate(Substring($0)) != nil }) {
            shape.kind = values.allSatisfy { CSVValues.timeOfDay(Substring($0)) != nil } ? .dateTime : .date
        } else if values.allSatisfy({ $0.contains(":") && CSVValues.timeOfDay(Substring($0)) != nil }) {
            shape.kind = .clock
        } else if shape.constant, values[0].contains(where: \.isNumber), values[0].contains(where: \.isLetter), !values[0].contains(" ") {
            shape.kind = .serial
        } else {
            shape.kind = .text
        }
        return shape
    }

    /// What the columns of a table with these shapes most likely hold, by position — a line
    /// for `--map` to start from, never read without the user saying so. A rising number
    /// beside no date makes a profile (its seconds, then a depth and a temperature); else a
    /// list of dives (a number rising by 1, a date, a clock time, a depth, a length in
    /// minutes, a temperature). Columns it cannot place are left out.
    public static func proposal(_ shapes: [CSVColumnShape], understood: Set<Int> = []) -> [(column: Int, meaning: CSVColumnMeaning)] {
        var out: [(Int, CSVColumnMeaning)] = []
        var taken = Set<CSVField>()
        func propose(_ c: Int, _ m: CSVColumnMeaning) {
            guard !taken.contains(m.field) else { return }
            taken.insert(m.field)
            if !understood.contains(c) { out.append((c, m)) }
        }
        let hasDate = shapes.contains { $0.kind == .date || $0.kind == .dateTime }
        let time = shapes.firstIndex { ($0.kind == .number || $0.kind == .wholeNumber) && $0.rising && !$0.risingByOne && ($0.range?.lowerBound ?? -1) >= 0 }
            ?? shapes.firstIndex { $0.kind == .wholeNumber && $0.risingByOne && ($0.range?.lowerBound ?? -1) == 0 }
        if let time, !hasDate || shapes.contains(where: { ($0.kind == .date || $0.kind == .dateTime) && $0.constant }) {
            for (c, s) in shapes.enumerated() {
                if c == time { propose(c, CSVColumnMeaning(.sampleTime, unit: .seconds)); continue }
                guard let r = s.range, s.kind == .number || s.kind == .wholeNumber else {
                    if s.kind == .date { propose(c, CSVColumnMeaning(.date)) }
                    if s.kind == .dateTime { propose(c, CSVColumnMeaning(.dateTime)) }
                    continue
                }
                if !taken.contains(.sampleDepth), r.lowerBound >= 0, r.upperBound <= 350, r.upperBound > 0 {
                    propose(c, CSVColumnMeaning(.sampleDepth, unit: .metres))
                } else if taken.contains(.sampleDepth), r.lowerBound >= -2, r.upperBound <= 40 {
                    propose(c, CSVColumnMeaning(.sampleTemperature, unit: .celsius))
                }
            }
            return out
        }
        for (c, s) in shapes.enumerated() {
            switch s.kind {
            case .date: propose(c, CSVColumnMeaning(.date))
            case .dateTime: propose(c, CSVColumnMeaning(.dateTime))
            case .clock:
                if !taken.contains(.time) && !taken.contains(.dateTime) { propose(c, CSVColumnMeaning(.time)) } else { propose(c, CSVColumnMeaning(.duration)) }
            case .wholeNumber where s.risingByOne && !taken.contains(.diveNumber):
                propose(c, CSVColumnMeaning(.diveNumber))
            case .number, .wholeNumber:
                guard let r = s.range else { continue }
                if !taken.contains(.maxDepth), s.kind == .number || r.upperBound <= 60, r.lowerBound > 0, r.upperBound <= 350 {
                    propose(c, CSVColumnMeaning(.maxDepth, unit: .metres))
                } else if !taken.contains(.duration), s.kind == .wholeNumber, r.lowerBound >= 3, r.upperBound <= 600 {
                    propose(c, CSVColumnMeaning(.duration, unit: .minutes))
                } else if taken.contains(.maxDepth), r.lowerBound >= -2, r.upperBound <= 40 {
                    propose(c, CSVColumnMeaning(.waterTemperature, unit: .celsius))
                }
            case .text where !taken.contains(.site) && s.count > 1 && !s.constant:
                propose(c, CSVColumnMeaning(.site))
            default:
                break
            }
        }
        return out
    }

    /// `--map '1=dive_number' --map '2=date' …`.
    public static func mapLine(_ proposal: [(column: Int, meaning: CSVColumnMeaning)]) -> String {
        proposal.map { "--map '\($0.column + 1)=\($0.meaning)'" }.joined(separator: " ")
    }
}
