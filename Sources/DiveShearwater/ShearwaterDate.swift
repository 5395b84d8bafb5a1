import DiveCore

/// The dates Shearwater's XML export writes: .NET's `DateTime.ToString()` in the exporting
/// machine's culture, so `1/1/2024 1:07:14 PM` (US month/day/year, 12-hour clock) in the files in
/// hand, and even `9/13/2024 00:07:10 AM`, a 24-hour hour beside an AM/PM designator (a culture
/// whose pattern is `HH … tt`). The rules, each reported where it decides:
///
/// - The date is month/day/year. Where the first field cannot be a month (13 or more) and the
///   second can, it is day/month/year; where both could be either and differ, the US order is
///   kept and the reading is reported as resolved.
/// - An hour from 1 to 12 with AM/PM is a 12-hour clock (12 AM is 00, 12 PM is 12).
/// - An hour of 0, or 13 to 23 with PM, is a 24-hour clock with a redundant designator: read as
///   written, and reported as resolved. 13 to 23 with AM contradicts itself: no start.
/// - No designator: a 24-hour clock.
/// - ISO 8601 text (`2024-09-13 00:07:10`) is read as such.
enum ShearwaterDate {
    struct Note {
        var kind: FindingKind
        var code: String
        var message: String
    }

    static func parse(_ text: String) -> (DiveDateTime, [Note])? {
        let trimmed = text.trimmingWhitespace()
        if let first = trimmed.first, first.isNumber, trimmed.count >= 5,
           trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)] == "-" {
            guard let (dt, notes) = DiveDateTime.parse(trimmed), dt.offset == nil, dt.time != nil else { return nil }
            return (dt, notes.secondsMissing ? [Note(kind: .absent, code: "time-without-seconds", message: "the time has no seconds; read as :00")] : [])
        }
        var parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var designator: String?
        if parts.count == 3 {
            let d = parts.removeLast().uppercased().filter { $0 != "." }
            guard d == "AM" || d == "PM" else { return nil }
            designator = d
        }
        var notes: [Note] = []
        let date = parts[0].split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard date.count == 3, let a = date[0], let b = date[1], let year = date[2], (1000...9999).contains(year) else { return nil }
        var month = a, day = b
        if a > 12 && b <= 12 {
            month = b; day = a
            notes.append(Note(kind: .resolved, code: "date-day-first",
                              message: "\(a) cannot be a month, so the date is read day/month/year"))
        } else if a <= 12 && b <= 12 && a != b {
            notes.append(Note(kind: .resolved, code: "date-order-assumed",
                              message: "either of \(a) and \(b) could be the month; read month/day/year, the order of the exports in hand"))
        }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard clock.count == 2 || clock.count == 3, let h = clock[0], let minute = clock[1] else { return nil }
        var second = 0
        if clock.count == 3 {
            guard let s = clock[2] else { return nil }
            second = s
        } else {
            notes.append(Note(kind: .absent, code: "time-without-seconds", message: "the time has no seconds; read as :00"))
        }
        var hour = h
        if let designator {
            switch h {
            case 1...12:
                hour = designator == "AM" ? (h == 12 ? 0 : h) : (h == 12 ? 12 : h + 12)
            case 0:
                notes.append(Note(kind: .resolved, code: "hour-zero-with-designator",
                                  message: "hour 00 with \(designator) does not exist on a 12-hour clock; read as a 24-hour clock's 00 (the writer's pattern puts a 24-hour hour beside the designator)"))
            case 13...23 where designator == "PM":
                notes.append(Note(kind: .resolved, code: "24-hour-with-designator",
                                  message: "hour \(h) with PM is a 24-hour clock's hour; read as written"))
            default:
                return nil
            }
        }
        guard let d = LocalDate(year: year, month: month, day: day),
              let t = TimeOfDay(hour: hour, minute: minute, second: second), second <= 59 else { return nil }
        return (DiveDateTime(date: d, time: t), notes)
    }
}
