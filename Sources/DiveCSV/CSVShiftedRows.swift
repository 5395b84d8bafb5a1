import DiveCore

/// A row of a dive list with fewer cells than its header, whose values fit their columns only
/// with its missing cells somewhere before its end: a writer that leaves out an empty cell
/// instead of writing it empty, so that `25,7 m` comes to stand under the gas column
/// (docs/csv-formats.md §10.19).
extension CSVLayout {
    /// Where the missing cells of `row` (fewer than the columns) belong: the place among its
    /// cells at which as many empty cells as it lacks make the most of its values fit their
    /// columns, when that is better than at its end; else `nil` (read as it stands, the
    /// missing cells being the last). `fits` is how many more values fit there than at the end.
    func shiftedCells(_ row: [String]) -> (at: Int, fits: Int)? {
        let missing = columns.count - row.count
        guard missing > 0, row.count >= 2 else { return nil }
        let mark = dialect.decimalMark
        // fit[i][j]: how value i fits column j (+1, 0, −1).
        let fit = row.map { value in columns.map { $0.meaning?.fit(value, decimalMark: mark) ?? 0 } }
        func score(_ at: Int) -> Int {
            var s = 0
            for i in row.indices { s += fit[i][i < at ? i : i + missing] }
            return s
        }
        let atEnd = score(row.count)
        var best: (at: Int, score: Int)?
        for at in stride(from: row.count - 1, through: 0, by: -1) {
            let s = score(at)
            if s > (best?.score ?? atEnd) { best = (at, s) }
        }
        return best.map { ($0.at, $0.score - atEnd) }
    }
}

extension CSVColumnMeaning {
    /// How `text` fits this column: 1 when it is what the column holds (a date under a date,
    /// a length under a depth), −1 when it is plainly something else (a length under a gas,
    /// a word under a depth), 0 when it says nothing either way (anything under a name or a
    /// note, an empty cell).
    func fit(_ text: String, decimalMark: UInt8) -> Int {
        let v = Substring(text.trimmingWhitespace())
        guard !v.isEmpty else { return 0 }
        let quantity = CSVValues.quantity(v, decimalMark: decimalMark)
        let isDate = CSVValues.dateParts(v) != nil || CSVValues.namedMonthDate(v) != nil
        switch field {
        case .date: return isDate ? 1 : -1
        case .dateTime: return isDate && CSVValues.timeOfDay(v) != nil ? 1 : -1
        case .time: return v.contains(":") && !isDate && CSVValues.timeOfDay(v) != nil ? 1 : -1
        case .duration, .surfaceInterval:
            return !isDate && CSVValues.duration(v, unit: unit, decimalMark: decimalMark) != nil ? 1 : -1
        case .gas:
            if Cylinder.mix(named: String(v)) != nil || CSVValues.cylinderCell(String(v)) != nil { return 1 }
            return isDate || quantity?.unit.map({ $0.dimension != .ratio }) == true ? -1 : 0
        case .diveNumber, .rating, .year, .month, .day, .hour, .minute, .second:
            return quantity != nil && quantity?.unit == nil ? 1 : -1
        case .latitude, .longitude:
            return quantity != nil || CSVValues.position(v) != nil ? 1 : -1
        default:
            if let dimension = CSVColumnDictionary.dimension(of: field) {
                guard let q = quantity, !isDate else { return -1 }
                return q.unit.map { $0.dimension == dimension } ?? true ? 1 : -1
            }
            // A name, a note, a place: a measurement with its unit or a date is not one.
            return isDate || quantity?.unit != nil ? -1 : 0
        }
    }
}
