#if canImport(Glibc)
import Glibc
#endif
import DiveCore

/// The order of a date's day, month and year when it is not ISO (`10/1/13`).
public enum DateOrder: String, Sendable, Hashable, CaseIterable, Codable {
    /// Day, month, year: `18/02/2026`, `18.02.2026` (most of the world).
    case dmy
    /// Month, day, year: `2/18/2026` (the United States).
    case mdy
    /// Year, month, day: `2026-02-18`, `2012.10.01`.
    case ymd
}

/// Reading the text of one CSV cell as a number, a quantity with its unit, a duration, a
/// date or a time of day. Every function returns `nil` for text it cannot read; none guesses.
public enum CSVValues {
    /// The calendar year now, for two-digit years.
    static let thisYear: Int = {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return Int(parts.tm_year) + 1900
    }()

    /// A plain number written with `decimalMark` (`.` or `,`): `12`, `-3.5`, `12,5`, `1e3`.
    /// Spaces around it are ignored; anything else (`12 m`, `AI is off`) is not a number.
    public static func number(_ text: Substring, decimalMark: UInt8 = UInt8(ascii: ".")) -> Double? {
        // Byte by byte: this runs for every cell of a profile.
        let u = text.utf8
        var start = u.startIndex, end = u.endIndex
        while start < end, u[start] == 0x20 || u[start] == 0x09 { start = u.index(after: start) }
        while end > start, u[u.index(before: end)] == 0x20 || u[u.index(before: end)] == 0x09 { end = u.index(before: end) }
        guard start < end else { return nil }
        var comma = false, point = false
        for b in u[start..<end] {
            switch b {
            case 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"): continue
            case UInt8(ascii: "."): point = true
            case UInt8(ascii: ","): comma = true
            default: return nil // `Double()` takes "inf", "nan" and hex; a cell never means those
            }
        }
        if decimalMark == UInt8(ascii: ",") {
            if point { return nil }
            if comma { return Double(String(decoding: u[start..<end].map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 }, as: UTF8.self)) }
        } else if comma {
            return nil
        }
        return Double(Substring(u[start..<end]))
    }

    /// True when the number `text` starts with has a digit other than 0 (`1e-400`, unlike
    /// `0.0`): one that reads as 0 only because no `Double` is so close to 0.
    static func hasNonZeroDigit(_ text: Substring) -> Bool {
        for b in text.utf8.drop(while: { $0 == 0x20 || $0 == 0x09 }) {
            switch b {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return true
            case UInt8(ascii: "0"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ","): continue
            default: return false
            }
        }
        return false
    }

    /// A number followed by a unit, as some writers put both in one cell: `28.0 ℃`, `18m`,
    /// `3000 psi`, `8.0 m / 26 ft`, `22 C (72 F)` (the first of two spellings is taken; the reader
    /// picks and checks them with ``twoUnits(_:decimalMark:)``). A bare number comes
    /// back with a `nil` unit; text that is neither is `nil`.
    public static func quantity(_ text: Substring, decimalMark: UInt8 = UInt8(ascii: ".")) -> (value: Double, unit: CSVUnit?)? {
        if let n = number(text, decimalMark: decimalMark) { return (n, nil) }
        if let (first, _) = twoUnits(text, decimalMark: decimalMark) { return (first.value, first.unit) }
        var s = text
        if let slash = s.firstIndex(of: "/") { s = s[..<slash] }
        while s.last == " " { s.removeLast() }
        while s.first == " " { s.removeFirst() }
        if let n = number(s, decimalMark: decimalMark) { return (n, nil) }
        // Split where the number ends.
        var end = s.startIndex
        while end < s.endIndex, let a = s[end].asciiValue,
              (a &- 0x30) < 10 || a == UInt8(ascii: "-") || a == UInt8(ascii: "+") || a == decimalMark {
            end = s.index(after: end)
        }
        guard end > s.startIndex, end < s.endIndex,
              let n = number(s[..<end], decimalMark: decimalMark),
              let unit = CSVUnit(spelling: String(s[end...])) else { return nil }
        return (n, unit)
    }

    /// A duration in seconds: `2700` or `45` in `unit` (seconds when `nil`… see below),
    /// `45:00` as minutes and seconds, `0:45:00` and `1:05:00` as hours, minutes and
    /// seconds, `45 min`, `1h 5min`, `45'`. A bare number with no unit is minutes, how
    /// logbooks state a dive's length; a sample column passes `.seconds`. With `unit` hours,
    /// `1:05` is an hour and five minutes.
    public static func duration(_ text: Substring, unit: CSVUnit?, decimalMark: UInt8 = UInt8(ascii: ".")) -> Double? {
        if let n = number(text, decimalMark: decimalMark) {
            return (unit ?? .minutes).dimension == .time ? (unit ?? .minutes).toModel(n) : nil
        }
        var s = text
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        guard !s.isEmpty else { return nil }
        if s.contains(":") {
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
            var numbers: [Double] = []
            for (i, p) in parts.enumerated() {
                // Only the last part may carry a fraction (`0:40.5`).
                guard let v = i == parts.count - 1 ? number(p, decimalMark: decimalMark) : Int(p).map(Double.init), v >= 0 else { return nil }
                numbers.append(v)
            }
            if numbers.count == 3 { return numbers[0] * 3600 + numbers[1] * 60 + numbers[2] }
            return unit == .hours ? numbers[0] * 3600 + numbers[1] * 60 : numbers[0] * 60 + numbers[1]
        }
        if let n = number(s, decimalMark: decimalMark) {
            return (unit ?? .minutes).dimension == .time ? (unit ?? .minutes).toModel(n) : nil
        }
        // `45 min`, `45'`, `1h 5min`, `1 h 05`, `00h38'`, `1h05`, `1 h 5 m`.
        var total = 0.0, sawUnit = false
        var rest = s[...]
        while !rest.isEmpty {
            while rest.first == " " { rest.removeFirst() }
            var end = rest.startIndex
            while end < rest.endIndex, let a = rest[end].asciiValue, (a &- 0x30) < 10 || a == decimalMark { end = rest.index(after: end) }
            guard end > rest.startIndex, let v = number(rest[..<end], decimalMark: decimalMark) else { return nil }
            rest = rest[end...]
            while rest.first == " " { rest.removeFirst() }
            var unitEnd = rest.startIndex
            while unitEnd < rest.endIndex, !(rest[unitEnd].asciiValue.map { ($0 &- 0x30) < 10 } ?? false), rest[unitEnd] != " " { unitEnd = rest.index(after: unitEnd) }
            var spelled = String(rest[..<unitEnd])
            rest = rest[unitEnd...]
            if spelled.count > 1, spelled.last == "." { spelled.removeLast() } // `38 min.`
            let u: CSVUnit
            if spelled == "'" || spelled == "\u{2019}" || spelled == "\u{2032}" { u = .minutes } else if spelled == "\"" || spelled == "''" || spelled == "\u{2033}" || spelled == "\u{2019}\u{2019}" { u = .seconds } else if spelled == "m" || spelled == "M" {
                // In a duration `m` can only be minutes.
                u = .minutes
            } else if spelled.isEmpty {
                // `1 h 05`: a trailing bare number after hours is minutes.
                guard sawUnit else { return nil }
                u = .minutes
            } else {
                guard let parsed = CSVUnit(spelling: spelled), parsed.dimension == .time else { return nil }
                u = parsed
            }
            sawUnit = true
            total += u.toModel(v)
        }
        return sawUnit ? total : nil
    }

    /// The three numbers of a date (`10/1/13`, `18.02.2026`, `2026-02-18`, `2012.10.01`) and
    /// whether the first is a four-digit year; `nil` when the text is not such a date. The
    /// date may be followed by a time after a space or `T`, which is ignored here.
    static func dateParts(_ text: Substring) -> (a: Int, b: Int, c: Int, yearFirst: Bool, separator: Character)? {
        var s = text
        while s.first == " " { s.removeFirst() }
        if let cut = s.firstIndex(where: { $0 == " " || $0 == "T" }) { s = s[..<cut] }
        guard let sep = s.first(where: { $0 == "/" || $0 == "." || $0 == "-" }) else { return nil }
        let parts = s.split(separator: sep, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) }),
              let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2]) else { return nil }
        return (a, b, c, parts[0].count == 4, sep)
    }

    /// A date in `order` (ISO and year-first dates are read whatever the order). A two-digit
    /// year is the latest that is not after this year (`25` is 2025, `69` is 1969).
    public static func date(_ text: Substring, order: DateOrder?) -> LocalDate? {
        // A month in a word settles the order for that date (`4. Juli 2021`).
        guard let p = dateParts(text) else { return namedMonthDate(text.trimmingPrefix(while: \.isWhitespace))?.date }
        if p.yearFirst { return LocalDate(year: p.a, month: p.b, day: p.c) }
        guard p.c >= 0 else { return nil }
        let year = p.c < 100 ? (p.c <= thisYear % 100 ? 2000 + p.c : 1900 + p.c) : p.c
        switch order {
        case .dmy?: return LocalDate(year: year, month: p.b, day: p.a)
        case .mdy?: return LocalDate(year: year, month: p.a, day: p.b)
        case .ymd?, nil: return nil
        }
    }

    /// A date of ISO 8601's reduced precision, a month (`2011-08`) or a year (`2011`), as Darwin
    /// Core's `eventDate` allows; `nil` for anything else (a whole date included).
    public static func partialDate(_ text: Substring) -> (year: Int, month: Int?)? {
        let s = String(text).trimmingWhitespace()
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 4, let year = Int(parts[0]), (1...9999).contains(year) else { return nil }
        guard parts.count == 2 else { return (year, nil) }
        guard parts[1].count == 2, parts[1].allSatisfy({ $0.isASCII }), let month = Int(parts[1]), (1...12).contains(month) else { return nil }
        return (year, month)
    }

    /// A time of day: `10:34`, `09:12:49`, `7:37:41 PM`, `12:05 am`, `10.34` (four bare digits
    /// are not a time). The time may follow a date in the same cell, and an offset may follow it.
    public static func timeOfDay(_ text: Substring) -> TimeOfDay? {
        var s = text
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        // After a date: the part behind the first space or `T`.
        if dateParts(s) != nil, let cut = s.firstIndex(where: { $0 == " " || $0 == "T" }) {
            s = s[s.index(after: cut)...]
            while s.first == " " { s.removeFirst() }
        } else if let named = namedMonthDate(s) {
            s = named.rest.trimmingPrefix(while: { $0 == " " || $0 == "," || $0 == "T" })
        }
        // An offset after the time is the offset's business (`10:12 +02`, `10:12-0530`, `10:12 UTC+1`).
        if let z = s.firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" || $0 == "U" || $0 == "G" }) { s = s[..<z] }
        while s.last == " " { s.removeLast() }
        var meridiem: Character?
        if s.count > 2 {
            let tail = s.suffix(2).lowercased()
            if tail == "am" || tail == "pm" {
                meridiem = tail.first
                s = s.dropLast(2)
                while s.last == " " { s.removeLast() }
            }
        }
        let sep: Character = s.contains(":") ? ":" : "."
        let parts = s.split(separator: sep, omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        guard var hour = Int(parts[0]), let minute = Int(parts[1]), parts[1].count == 2 else { return nil }
        var second = 0
        var fraction: String?
        if parts.count == 3 {
            let sec = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let whole = Int(sec[0]), sec[0].count == 2 else { return nil }
            second = whole
            if sec.count == 2 { fraction = String(sec[1]) }
        }
        if let m = meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (m == "p" ? 12 : 0)
        }
        return TimeOfDay(hour: hour, minute: minute, second: second, fraction: fraction)
    }
}

extension CSVValues {
    /// A date, its time of day and UTC offset in one cell: ISO 8601 as `DiveDateTime.parse`
    /// reads it, else a date in `order`, a time and an offset as tables write them
    /// (`2/18/2026 7:37:41 PM`, `18.02.2026 10:12 +02`, `2024-05-01 10:12 UTC+1`).
    public static func start(_ text: String, order: DateOrder?) -> (date: LocalDate, time: TimeOfDay?, offset: UTCOffset?)? {
        if let (d, _) = DiveDateTime.parse(text) { return (d.date, d.time, d.offset) }
        guard let date = date(Substring(text), order: order) else { return nil }
        let time = timeOfDay(Substring(text))
        return (date, time, time == nil ? nil : offset(after: text))
    }

    /// The offset that ends a date-time cell, if one does.
    static func offset(after text: String) -> UTCOffset? {
        let s = Substring(text.trimmingWhitespace())
        // From the last `:` on (the time's), the first sign or zone name starts the offset.
        let from = s.lastIndex(of: ":") ?? s.startIndex
        guard let start = s[from...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" || $0 == "U" || $0 == "G" }) else { return nil }
        return UTCOffset(lenient: String(s[start...]))
    }
}

/// Decides a date column's day/month order from every date in it, never from one: a day over
/// 12 in first place says day-first, in second place month-first. A column whose dates all
/// have both numbers at 12 or under cannot be decided, and the caller must ask for
/// `--date-order`. Dates with dots (`18.02.2026`) are day-first by the convention everyone who
/// writes them follows, unless the column says otherwise.
public struct DateOrderDecision: Sendable {
    /// The first date seen with a day over 12 in first place, which says day-first.
    public private(set) var dayFirstEvidence: String?
    /// The first date seen with a day over 12 in second place, which says month-first.
    public private(set) var monthFirstEvidence: String?
    private var yearFirstOnly = true
    private var dotted = false
    /// Cells read as dates so far, a date with its month in words too (a date no order makes sense of is not counted).
    public private(set) var datesSeen = 0
    /// An ambiguous example, for the message.
    public private(set) var ambiguousExample: String?
    /// An ambiguous date written with dots (`1.8.2024`), for the message.
    public private(set) var dottedExample: String?

    /// Makes a decision that has seen no date.
    public init() {}

    /// Takes one cell of the date column into account.
    public mutating func observe(_ text: Substring) {
        guard let p = CSVValues.dateParts(text) else {
            // A month in a word says nothing of the order of the column's numeric dates.
            if CSVValues.namedMonthDate(text.trimmingPrefix(while: \.isWhitespace)) != nil { datesSeen += 1 }
            return
        }
        // Both numbers over 12 is no date at all (31/31/2024): it says nothing of the order,
        // and its row reports it as a bad value.
        guard p.yearFirst || p.a <= 12 || p.b <= 12 else { return }
        datesSeen += 1
        guard !p.yearFirst else { return }
        yearFirstOnly = false
        if p.separator == "." { dotted = true }
        if p.a > 12 && p.b <= 12 {
            if dayFirstEvidence == nil { dayFirstEvidence = String(text) }
        } else if p.b > 12 && p.a <= 12 {
            if monthFirstEvidence == nil { monthFirstEvidence = String(text) }
        } else {
            if ambiguousExample == nil { ambiguousExample = String(text) }
            if p.separator == ".", dottedExample == nil { dottedExample = String(text) }
        }
    }

    /// True when no date decides the order and the dots do: every date could be either, and
    /// some are written with dots, which is day-first by convention.
    public var isDayFirstByDots: Bool { !yearFirstOnly && dayFirstEvidence == nil && monthFirstEvidence == nil && dotted }

    /// The order, when the column decides it.
    public var order: DateOrder? {
        if yearFirstOnly { return .ymd }
        switch (dayFirstEvidence, monthFirstEvidence) {
        case (_?, nil): return .dmy
        case (nil, _?): return .mdy
        case (nil, nil): return dotted ? .dmy : nil
        case (_?, _?): return nil
        }
    }

    /// True when the column holds both a day-first and a month-first date.
    public var isContradictory: Bool { dayFirstEvidence != nil && monthFirstEvidence != nil }
}
