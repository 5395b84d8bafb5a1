import DiveCore

/// A preamble's duration label whose value is written as a time of day (`Dauer: 12:07`), in a
/// file that gives no other time of day: a mistranslated label, or a length (§10.16).
struct ClockShapedDuration {
    var label: String
    var value: String
    /// The value as a time of day, and as the duration its label claims (minutes and seconds).
    var time: TimeOfDay
    var seconds: Double
    var column: CSVColumn
}

extension DiveBuilder {
    /// The value of preamble line `k` when it is a duration's written as a time of day (`H:MM`
    /// or `HH:MM`, hours 0–23) and nothing else in the file gives a time of day; else `nil`.
    static func clockShapedDuration(_ metadata: [CSVMetadata], at k: Int, layout: CSVLayout, decimalMark: UInt8) -> ClockShapedDuration? {
        let m = metadata[k]
        guard m.meaning.field == .duration, m.meaning.unit == nil, let time = clockTime(m.value) else { return nil }
        let timeFields: Set<CSVField> = [.time, .hour]
        if layout.columns.contains(where: { timeFields.contains($0.meaning?.field ?? .ignored) || $0.meaning?.field == .dateTime }) { return nil }
        if metadata.contains(where: { timeFields.contains($0.meaning.field) || ($0.meaning.field == .dateTime && CSVValues.timeOfDay(Substring($0.value)) != nil) }) {
            return nil
        }
        let seconds = CSVValues.duration(Substring(m.value), unit: nil, decimalMark: decimalMark) ?? Double(time.hour * 60 + time.minute)
        return ClockShapedDuration(label: m.label, value: m.value, time: time, seconds: seconds,
                                   column: CSVColumn(name: m.label, index: -1 - k, meaning: m.meaning, source: .preset))
    }

    /// `H:MM` or `HH:MM`, a time of day.
    static func clockTime(_ value: String) -> TimeOfDay? {
        let parts = value.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        return TimeOfDay(hour: h, minute: m)
    }

    /// Decides what a clock-shaped duration is, and says so: the dive's start when another
    /// duration label follows it (`following`) or the profile's samples (`samplesLast`, seconds)
    /// last otherwise; else the duration its label claims. Returns the start, or the length.
    func resolve(_ c: ClockShapedDuration, following: CSVMetadata?, samplesLast: Int?) -> (start: TimeOfDay?, seconds: Int?) {
        let written = "\"\(c.label): \(CSVDiveReader.quoted(c.value))\""
        let asDuration = Self.spoken(Int(c.seconds.rounded()))
        let start = "read as the dive's start time, \(c.value.trimmingWhitespace()), not as a duration"
        if let following {
            reader.reportColumnOnce(.resolved, "csv.label-shape", c.column, "\(written) is written as a time of day and the file gives no other, while \"\(following.label): \(CSVDiveReader.quoted(following.value))\" below it gives the dive's length: \(start)")
            return (c.time, nil)
        }
        if let samplesLast, samplesLast > 0 {
            func agrees(_ s: Double) -> Bool { abs(s - Double(samplesLast)) <= max(300, Double(samplesLast) / 4) }
            let hoursMinutes = Double(c.time.hour * 3600 + c.time.minute * 60)
            if !agrees(c.seconds) && agrees(hoursMinutes) {
                reader.reportColumnOnce(.resolved, "csv.label-shape", c.column, "\(written) could be a time of day, as the file gives no other, but the profile's samples last \(Self.spoken(samplesLast)): read as the dive's length in hours and minutes, \(Self.spoken(Int(hoursMinutes))), not \(asDuration)")
                return (nil, Int(hoursMinutes))
            }
            if !agrees(c.seconds) {
                reader.reportColumnOnce(.resolved, "csv.label-shape", c.column, "\(written) is written as a time of day and the file gives no other; as a duration it would be \(asDuration) (or \(Self.spoken(Int(hoursMinutes))) in hours and minutes), but the profile's samples last \(Self.spoken(samplesLast)): \(start)")
                return (c.time, nil)
            }
            reader.reportColumnOnce(.resolved, "csv.label-shape", c.column, "\(written) could be a time of day, as the file gives no other, but the profile's samples last \(Self.spoken(samplesLast)) too: read as the dive's length, \(asDuration), as its label says")
            return (nil, Int(c.seconds.rounded()))
        }
        reader.reportColumnOnce(.resolved, "csv.label-shape", c.column, "\(written) could be a time of day, as the file gives no other, but nothing in it tells the dive's length otherwise: read as its label says, a duration of \(asDuration)")
        return (nil, Int(c.seconds.rounded()))
    }

    /// `47 min`, `12 min 7 s`, `1 h 5 min`.
    static func spoken(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
        var parts: [String] = []
        if h > 0 { parts.append("\(h) h") }
        if m > 0 || (h == 0 && s == 0) { parts.append("\(m) min") }
        if s > 0 { parts.append("\(s) s") }
        return parts.joined(separator: " ")
    }
}
