/// A calendar date with no time zone.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, four digits in ISO 8601 text.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int

    /// Creates a date if it exists in the proleptic Gregorian calendar.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        self.year = year; self.month = month; self.day = day
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The date `days` days after 1970-01-01 (Howard Hinnant's civil_from_days); nil outside
    /// years 1–9999.
    public init?(daysSinceEpoch days: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// `YYYY-MM-DD`.
    public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

    /// Orders dates by year, month, then day.
    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// A time of day as written, keeping any fraction of a second digit for digit.
public struct TimeOfDay: Sendable, Hashable, CustomStringConvertible {
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 60 (60 for a leap second).
    public var second: Int
    /// Digits after the decimal point of the seconds, exactly as the source wrote them.
    public var fraction: String?

    /// Makes a time of day; `nil` when the hour, minute or second is out of range.
    public init?(hour: Int, minute: Int, second: Int = 0, fraction: String? = nil) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        self.hour = hour; self.minute = minute; self.second = second
        self.fraction = fraction.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Seconds since midnight, ignoring the fraction.
    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 + second }

    /// `hh:mm:ss[.f…]`.
    public var description: String {
        var s = "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if let fraction { s += "." + fraction }
        return s
    }
}

/// A recorded UTC offset. `Z` and `+00:00` state the same instant and are kept apart only
/// so that a document's spelling survives a round trip.
public enum UTCOffset: Sendable, Hashable, CustomStringConvertible {
    /// `Z`: UTC.
    case utc
    /// `±hh:mm`, in minutes east of UTC.
    case minutes(Int)

    /// Minutes east of UTC.
    public var totalMinutes: Int {
        switch self {
        case .utc: return 0
        case .minutes(let m): return m
        }
    }

    /// `Z` or `±hh:mm`.
    public var description: String {
        switch self {
        case .utc: return "Z"
        case .minutes(let m):
            let sign = m < 0 ? "-" : "+"
            return "\(sign)\(pad(abs(m) / 60, 2)):\(pad(abs(m) % 60, 2))"
        }
    }
}

/// When a dive started, as the source recorded it: a wall-clock date and time, a date
/// alone, and a UTC offset only when the source stated one (never supplied).
public struct DiveDateTime: Sendable, Hashable, CustomStringConvertible {
    /// The calendar day.
    public var date: LocalDate
    /// The time of day; `nil` for a date-only start (the source recorded the day only).
    public var time: TimeOfDay?
    /// The offset the source recorded; `nil` means the wall clock with the instant unknown.
    public var offset: UTCOffset?

    /// Makes a start from a date and, when the source recorded them, a time of day and an offset.
    public init(date: LocalDate, time: TimeOfDay? = nil, offset: UTCOffset? = nil) {
        self.date = date; self.time = time; self.offset = offset
    }

    /// ISO 8601 text as DiveJSON writes it: `2024-05-01T10:12:00+02:00`, `2024-05-01T10:12:00`
    /// or `2024-05-01`.
    public var description: String {
        guard let time else { return date.description }
        return "\(date)T\(time)\(offset?.description ?? "")"
    }

    /// The instant `unixSeconds` (UTC) as the wall clock `offsetMinutes` east of UTC reads it,
    /// carrying that offset.
    public init?(unixSeconds: Int, offset: UTCOffset) {
        let local = unixSeconds + offset.totalMinutes * 60
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let secs = local - days * 86400
        guard let date = LocalDate(daysSinceEpoch: days),
              let time = TimeOfDay(hour: secs / 3600, minute: secs / 60 % 60, second: secs % 60) else { return nil }
        self.init(date: date, time: time, offset: offset)
    }

    /// Seconds of wall-clock time since 1970-01-01T00:00:00 (ignoring the offset).
    public var wallClockSeconds: Int {
        date.daysSinceEpoch * 86400 + (time?.secondsSinceMidnight ?? 0)
    }

    /// Seconds since the Unix epoch in UTC, when the offset is known.
    public var utcSeconds: Int? {
        guard let offset, time != nil else { return nil }
        return wallClockSeconds - offset.totalMinutes * 60
    }
}

/// What a lenient ISO 8601 parse noticed about its input.
public struct DateTimeParseNotes: Sendable, Hashable {
    /// The time of day had no seconds and `:00` was read.
    public var secondsMissing = false
    /// The text was a date with no time of day.
    public var dateOnly = false
    /// A date-only text carried an offset, which was dropped.
    public var offsetOnDateDropped = false
    /// Makes notes with nothing noticed.
    public init() {}
}

extension DiveDateTime {
    /// Parses ISO 8601 leniently: `T` or a space between date and time, a missing seconds
    /// field, any number of fraction digits, `Z`/`z`, `±hh:mm`, `±hhmm` or `±hh`, and a trailing
    /// `T` with no time. The calendar is checked afterwards. Returns `nil` for anything else.
    public static func parse(_ text: String) -> (DiveDateTime, DateTimeParseNotes)? {
        var notes = DateTimeParseNotes()
        let b = Array(text.utf8.drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }))
        var end = b.count
        while end > 0, b[end - 1] == 0x20 || b[end - 1] == 0x0A || b[end - 1] == 0x0D || b[end - 1] == 0x09 { end -= 1 }
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= end else { return nil }
            var v = 0
            for k in i..<(i + count) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            i += count
            return v
        }
        func expect(_ c: Character) -> Bool {
            guard i < end, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let y = number(4), expect("-"), let mo = number(2), expect("-"), let d = number(2),
              let date = LocalDate(year: y, month: mo, day: d) else { return nil }
        func parseOffset() -> UTCOffset?? {
            // Returns .some(nil) when nothing is left, nil on garbage.
            guard i < end else { return .some(nil) }
            return UTCOffset(iso: b[i..<end]).map { .some($0) }
        }
        if i == end || (i + 1 == end && (b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t"))) {
            notes.dateOnly = true
            return (DiveDateTime(date: date), notes)
        }
        if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "Z") {
            guard case .some(.some) = parseOffset() else { return nil }
            notes.dateOnly = true
            notes.offsetOnDateDropped = true
            return (DiveDateTime(date: date), notes)
        }
        guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == 0x20 else { return nil }
        i += 1
        guard let hh = number(2), expect(":"), let mm = number(2) else { return nil }
        var ss = 0
        var fraction: String?
        if i < end, b[i] == UInt8(ascii: ":") {
            i += 1
            guard let s = number(2) else { return nil }
            ss = s
            if i < end, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                i += 1
                let start = i
                while i < end, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
                guard i > start else { return nil }
                fraction = String(decoding: b[start..<i], as: UTF8.self)
            }
        } else {
            notes.secondsMissing = true
        }
        guard let time = TimeOfDay(hour: hh, minute: mm, second: ss, fraction: fraction),
              case .some(let offset) = parseOffset() else { return nil }
        return (DiveDateTime(date: date, time: time, offset: offset), notes)
    }
}

@inline(__always) func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

extension UTCOffset {
    /// An ISO 8601 offset: `Z`, `±hh`, `±hh:mm` or `±hhmm`, hours up to 23.
    public init?(iso b: ArraySlice<UInt8>) {
        guard let first = b.first else { return nil }
        if first == UInt8(ascii: "Z") || first == UInt8(ascii: "z") {
            guard b.count == 1 else { return nil }
            self = .utc
            return
        }
        guard first == UInt8(ascii: "+") || first == UInt8(ascii: "-") else { return nil }
        var digits = Array(b.dropFirst())
        if digits.count == 5, digits[2] == UInt8(ascii: ":") { digits.remove(at: 2) }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0 &- 0x30 < 10 }) else { return nil }
        let hh = Int(digits[0] - 0x30) * 10 + Int(digits[1] - 0x30)
        let mm = digits.count == 4 ? Int(digits[2] - 0x30) * 10 + Int(digits[3] - 0x30) : 0
        guard hh <= 23, mm <= 59 else { return nil }
        self = .minutes((first == UInt8(ascii: "-") ? -1 : 1) * (hh * 60 + mm))
    }

    /// An offset as tables write one: the ISO forms, and a one-digit hour (`+2`, `-5`), a
    /// `UTC` or `GMT` before it (`UTC+1`, `GMT-05:00`), or `UTC` alone.
    public init?(lenient text: String) {
        var b = Array(text.utf8.filter { $0 != 0x20 })
        if b.count >= 3, String(decoding: b[0..<3], as: UTF8.self).uppercased() == "UTC" || String(decoding: b[0..<3], as: UTF8.self).uppercased() == "GMT" {
            b.removeFirst(3)
            if b.isEmpty { self = .utc; return }
        }
        // `+2` → `+02`, `-5:30` → `-05:30`.
        if b.count >= 2, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"), b[1] &- 0x30 < 10, b.count == 2 || b[2] &- 0x30 >= 10 {
            b.insert(UInt8(ascii: "0"), at: 1)
        }
        self.init(iso: b[...])
    }
}
