import DiveCore

/// The columns of an event-log table (§10.13): rows of `time, channel, value` where a column
/// names in words which channel each row's value is (`0;depth;3.2`, `10;ppo2 cell 1;0.98`).
public struct CSVEventLog: Sendable, Hashable {
    /// The column of each row's time into the dive.
    public var time: Int
    /// The column that names the channel.
    public var channel: Int
    /// The column of the value.
    public var value: Int
    /// A column of the value's unit, if the table has one (`unit`, `Einheit` …).
    public var unit: Int?
}

extension CSVLayout {
    /// The most distinct channel words an event log's first rows may name: a table of more
    /// different words in one column is a column of text, not of channels.
    static let eventLogWords = 32

    /// Headers of a unit column beside an event log's value, in the dictionary's languages.
    private static let unitHeaders: Set<String> = ["unit", "units", "einheit", "unite", "unidad", "unita", "eenheid"]
    /// Headers that name the value column when more than one column holds numbers.
    private static let valueHeaders: Set<String> = ["value", "val", "reading", "wert", "messwert", "valeur", "valor", "valore", "waarde"]

    /// The event-log columns of a table with a header, when its shape is one: a column of a few
    /// distinct words, at least one a channel the model carries (``eventLogMeaning(_:)``), and
    /// no numbers; beside it a time into the dive (a time column, numbers or durations) and a
    /// value (a number, with or without its unit). `nil` when the table is no event log. The
    /// rows ahead are read only when the first row names a channel.
    static func eventLog(columns: [CSVColumn], firstRow: [String]?, lookahead: () throws -> [[String]],
                         decimalMark: UInt8) throws -> (log: CSVEventLog, words: [String], rows: Int)? {
        guard let firstRow, columns.count >= 3, firstRow.count >= 3 else { return nil }
        func isNumber(_ s: String) -> Bool { CSVValues.quantity(Substring(s), decimalMark: decimalMark) != nil }
        func word(_ s: String) -> String? {
            let w = s.trimmingWhitespace()
            return w.isEmpty || isNumber(w) ? nil : w
        }
        // The channel column: its first value names a channel (whatever its header: `Type` is
        // a dive's type to the dictionary; the values decide).
        guard let channel = firstRow.indices.first(where: { i in
            i < columns.count && word(firstRow[i]).flatMap { eventLogMeaning($0) } != nil
        }) else { return nil }
        // The time: a column the dictionary calls a time or a duration, else the first other
        // column of plain numbers; its first value a time into the dive.
        let timeFields: Set<CSVField> = [.time, .sampleTime, .duration]
        let others = columns.indices.filter { $0 != channel && $0 < firstRow.count }
        guard let time = others.first(where: { timeFields.contains($0 < columns.count ? columns[$0].meaning?.field ?? .ignored : .ignored) })
                ?? others.first(where: { CSVValues.number(Substring(firstRow[$0]), decimalMark: decimalMark) != nil }),
              CSVValues.duration(Substring(firstRow[time]), unit: columns[time].meaning?.unit ?? .seconds, decimalMark: decimalMark) != nil,
              // A time of day (`10:30`) is no time into the dive.
              columns[time].meaning?.field != .time || CSVValues.number(Substring(firstRow[time]), decimalMark: decimalMark) != nil
        else { return nil }
        // The value: the column so named, else the first other column holding a number.
        let numeric = others.filter { $0 != time && isNumber(firstRow[$0]) }
        guard let value = numeric.first(where: { valueHeaders.contains(columns[$0].name.folded) }) ?? numeric.first else { return nil }
        let unit = others.first { $0 != time && $0 != value && unitHeaders.contains(columns[$0].name.folded) }
        // Every row ahead names a channel in words, and the column names few of them.
        let rows = try lookahead()
        var words: [String] = [firstRow[channel].trimmingWhitespace()]
        var seen: Set<String> = [words[0].folded]
        for row in rows where channel < row.count {
            let cell = row[channel].trimmingWhitespace()
            if cell.isEmpty { continue }
            guard word(cell) != nil else { return nil }
            if seen.insert(cell.folded).inserted { words.append(cell) }
            if words.count > eventLogWords { return nil }
        }
        // Most of its words are channels the dictionary knows, and one a channel the model carries.
        let known = words.compactMap { eventLogMeaning($0) }
        guard known.count * 2 >= words.count, known.contains(where: { $0.field != .ignored }) else { return nil }
        return (CSVEventLog(time: time, channel: channel, value: value, unit: unit), words, rows.count + 1)
    }

    /// The channel an event log's word names: the profile channels the dictionary knows
    /// (`depth`, `temp`, `depth (ft)`, `tank 2 pressure`, `ppo2`, `ndl` …; a water temperature
    /// is the temperature channel), and a rebreather's `setpoint` and O₂ cells (`ppo2 cell 1`,
    /// `cell 2`, `o2 sensor 3`), which the dictionary leaves to its columns' own readers. `nil`
    /// for a word that names none; a word the dictionary knows as not carried is `.ignored`.
    static func eventLogMeaning(_ word: String) -> CSVColumnMeaning? {
        let words = word.folded.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        let numbers = words.compactMap { Int($0) }
        let phrase = words.filter { Int($0) == nil }.joined(separator: " ")
        if numbers.isEmpty, ["setpoint", "set point", "sp", "ppo2 setpoint", "po2 setpoint", "setpoint ppo2"].contains(phrase) {
            return CSVColumnMeaning(.setpoint)
        }
        if numbers.count == 1, (1...9).contains(numbers[0]),
           ["cell", "o2 cell", "ppo2 cell", "po2 cell", "cell ppo2", "sensor", "o2 sensor", "ppo2 sensor", "po2 sensor", "sensor ppo2"].contains(phrase) {
            return CSVColumnMeaning(.sensorPPO2, index: numbers[0])
        }
        guard var m = CSVColumnDictionary.meaning(ofHeader: word) else { return nil }
        if m.field == .waterTemperature { m.field = .sampleTemperature }
        if m.field == .ignored { return m }
        guard m.field.isSample, m.field != .sampleTime, m.field != .events else { return nil }
        return m
    }
}
