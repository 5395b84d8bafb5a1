import DiveCore
internal import DiveJSON

extension DiveBuilder {
    /// A whole profile in one cell of a dive's row, as a JSON array (§10.14): objects whose keys
    /// name channels as headers do (`[{"time":0,"depth":0},{"time":10,"depth":3.2,"temp":24}]`),
    /// `[seconds, metres]` pairs (`[[0,0],[10,3.2]]`), or depths alone a sample interval apart
    /// (`[0,1.2,3.4]`). Each value is read as a profile table's cell would be; what cannot be is
    /// said, and the dive's other columns are read whatever the cell holds.
    mutating func readProfileCell(_ text: String, column c: CSVColumn, row: Int?, line: Int?) throws {
        let cell = text.trimmingWhitespace()
        // A plain number counts the samples (a dive list's `samples`): it is none of them.
        if !cell.hasPrefix("["), CSVValues.number(Substring(cell), decimalMark: mark) != nil {
            reader.reportColumnOnce(.dropped, "csv.column-not-carried", c, "the column \"\(c.name)\" holds how many samples each dive has (\"\(CSVDiveReader.quoted(cell))\" …), not the samples; not read")
            return
        }
        guard cell.utf8.count <= CSVLimits.profileCellBytes else {
            reader.report(.dropped, "csv.profile-cell-too-long", "the profile in column \"\(c.name)\" takes \(CSVTokenizer.size(cell.utf8.count)), more than the \(CSVTokenizer.size(CSVLimits.profileCellBytes)) one cell's profile may; not read (the dive's other columns are)",
                          row: row, line: line, column: c.name)
            return
        }
        let parsed: JSONNode
        do {
            parsed = try Array(cell.utf8).withUnsafeBytes { raw in
                var parser = JSONParser(bytes: raw, file: reader.fileName)
                return try parser.parseDocument()
            }
        } catch let e as DiveError {
            invalidCell(c, row: row, line: line, "is no JSON (\(e.message) at character \(e.location.column ?? 0) of the cell)")
            return
        }
        guard case .array(let elements) = parsed.value else {
            invalidCell(c, row: row, line: line, "holds \(parsed.typeNameWithArticle), not an array of samples")
            return
        }
        reader.reportColumnOnce(.resolved, "csv.profile-cell", c, "the column \"\(c.name)\" holds each dive's profile as a JSON array (\"\(CSVDiveReader.quoted(cell))\"): its samples are read into the dive's profile")
        profileFromCell = true
        var cellLast: Int?, backwards = 0, untimed = 0, unread = 0
        let interval = cellInterval ?? reader.sampleInterval
        for (k, element) in elements.enumerated() {
            if readings >= reader.readingLimit {
                reader.report(.dropped, "csv.too-many-readings", "the profile in column \"\(c.name)\" reaches \(reader.readingLimit) readings, the most one dive holds; its \(elements.count - k) samples from here on are not read",
                              row: row, line: line, column: c.name)
                break
            }
            // The sample's time and its values, by what the element is.
            var timeText: String?, timeUnit = CSVUnit.seconds
            var values: [(key: String, meaning: CSVColumnMeaning, text: String)] = []
            switch element.value {
            case .number(let n):
                values = [("depth", CSVColumnMeaning(.sampleDepth), n)]
            case .array(let pair) where pair.count == 2:
                guard let t = Self.text(of: pair[0]), let d = Self.text(of: pair[1]) else { unread += 1; continue }
                timeText = t
                values = [("depth", CSVColumnMeaning(.sampleDepth), d)]
            case .object(let members):
                for member in members {
                    guard let v = Self.text(of: member.value) else {
                        if member.value.value != .null { unread += 1 }
                        continue
                    }
                    guard let m = Self.cellKeyMeaning(member.name) else {
                        reader.tallyKey(member.name, column: c)
                        continue
                    }
                    if m.field == .sampleTime {
                        timeText = v
                        timeUnit = m.unit ?? .seconds
                    } else {
                        values.append((member.name, m, v))
                    }
                }
            default:
                unread += 1
                continue
            }
            // The time: its own, else its place times the interval.
            var seconds: Double?
            if let timeText {
                seconds = CSVValues.duration(Substring(timeText), unit: timeUnit, decimalMark: mark)
                if seconds == nil {
                    try reader.bad(timeText, column: c, expected: "a time into the dive", row: row, line: line)
                    continue
                }
            } else if let interval {
                seconds = Double(k) * interval
            }
            guard let s = seconds else { untimed += 1; continue }
            guard CSVLimits.Range.sampleTime.contains(s) else {
                try reader.outOfRange(timeText, s, .sampleTime, column: c, row: row, line: line)
                continue
            }
            let t = Int((s * 1000).rounded())
            if let last = cellLast, t < last { backwards += 1; continue }
            cellLast = t
            for v in values {
                readings += 1
                let column = reader.cellKeyColumn(v.key, meaning: v.meaning, of: c)
                if v.meaning.field == .ndl || v.meaning.field == .tts, let n = CSVValues.number(Substring(v.text), decimalMark: mark) {
                    _ = try plainSample(v.meaning, n, at: t, column: column)
                } else {
                    try sample(v.meaning, v.text, at: t, column: column, row: row ?? self.row, line: line ?? self.line)
                }
            }
        }
        if untimed > 0 {
            reader.report(.dropped, "csv.profile-cell-no-time", "\(untimed) sample\(untimed == 1 ? "" : "s") of the profile in column \"\(c.name)\" give\(untimed == 1 ? "s" : "") no time, and the row no sample interval (a column such as `sample interval`) to place \(untimed == 1 ? "it" : "them"); not read",
                          row: row, line: line, column: c.name)
        }
        if backwards > 0 {
            reader.report(.dropped, "csv.time-backwards", "\(backwards) sample\(backwards == 1 ? "" : "s") of the profile in column \"\(c.name)\" go\(backwards == 1 ? "es" : "") back in time; not read",
                          row: row, line: line, column: c.name)
        }
        if unread > 0 {
            reader.report(.dropped, "csv.profile-cell-unread", "\(unread) item\(unread == 1 ? "" : "s") of the profile in column \"\(c.name)\" \(unread == 1 ? "is" : "are") no sample umilog reads (a sample is an object, a [seconds, metres] pair or a depth; a value a number or a text); not read",
                          row: row, line: line, column: c.name)
        }
    }

    private func invalidCell(_ c: CSVColumn, row: Int?, line: Int?, _ what: String) {
        reader.report(.dropped, "csv.profile-cell-invalid", "the profile in column \"\(c.name)\" \(what); not read (the dive's other columns are)",
                      row: row, line: line, column: c.name)
    }

    /// A value's text: a number as written, a string's content; `nil` for anything else.
    private static func text(of node: JSONNode) -> String? {
        switch node.value {
        case .number(let n): return n
        case .string(let s): return s
        default: return nil
        }
    }

    /// What a key of a profile cell's sample names: as a header in the dictionary, a time
    /// (`time`, `t`, `elapsed`, `time_s`) being the sample's time, a water temperature its
    /// temperature; the extra channels of an event log (§10.13) too. `.ignored` and `nil` are
    /// not read.
    static func cellKeyMeaning(_ key: String) -> CSVColumnMeaning? {
        if ["t", "s", "sec", "secs", "seconds"].contains(key.folded) { return CSVColumnMeaning(.sampleTime, unit: .seconds) }
        if let m = CSVColumnDictionary.meaning(ofHeader: key), [.time, .duration, .sampleTime].contains(m.field) {
            return CSVColumnMeaning(.sampleTime, unit: m.unit.flatMap { $0.dimension == .time ? $0 : nil })
        }
        guard let m = CSVLayout.eventLogMeaning(key), m.field != .ignored else { return nil }
        return m
    }
}
