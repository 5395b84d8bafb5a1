import DiveCore

/// Builds one dive from the rows (and preamble values) that describe it.
struct DiveBuilder {
    let reader: CSVDiveReader
    let row: Int
    let line: Int
    /// What every row of the file shares, taken once from the layout (copying it per row
    /// would copy its arrays).
    private let kind: CSVLayout.Kind
    let mark: UInt8
    private let defaultUnits: [CSVUnit.Dimension: CSVUnit]
    private let readingLimit: Int

    private var dive = Dive(uuid: "", startedAt: nil)
    private var date: LocalDate?
    private var time: TimeOfDay?
    private var offset: UTCOffset?
    private var parts: [CSVField: Int] = [:]
    /// A date that names a month or a year but no day (`2011-08`), and its column.
    private var partialDate: (text: String, column: String)?
    private var id: String?
    private var siteName: String?
    private var locationName: String?
    private var country: String?
    private var latitude: Double?
    private var longitude: Double?
    var cylinders: [Int: Cylinder] = [:]
    /// Cylinders a cell listed (`12; 7`), by list position.
    private var listed: [Int: Cylinder] = [:]
    /// Nitrogen read for a cylinder (by number, or by list position as its negative), checked
    /// against the cylinder's oxygen and helium when the dive is built.
    private var nitrogen: [Int: (percent: Double, column: CSVColumn, row: Int?, line: Int?)] = [:]
    var device = Device()
    private var deco = DecoModel()
    private var surfacePressure: Double?
    var profile = Profile()
    /// Channels the model has no member for (a rebreather's setpoint and cells, a battery), in
    /// order of first reading, for the profile's `umilog` extension; and each one's place by name and ref.
    var extraChannels: [ExtraSeries] = []
    var extraPlaces: [String: Int] = [:]
    private var sampleIndex = 0
    private var lastTime: Int?
    private var ambient: [(time: Int, mbar: Double)] = []
    /// Gases named by gas switches, in order of first use: a profile table's cylinders; and
    /// each one's place in that order.
    private var switchGases: [String] = []
    private var switchGasNumbers: [String: Int] = [:]
    /// The place in `profile.pressures` of each cylinder's channel, by gas number.
    private var pressureChannels: [Int: Int] = [:]
    private var readDiveColumns = false
    /// A row's profile cell, read when the row has been (§10.14), its sample interval, and
    /// whether a cell gave the dive a profile.
    var profileCell: (text: String, column: CSVColumn, row: Int?, line: Int?)?
    var cellInterval: Double?
    var profileFromCell = false
    /// Readings at a time their channel already had, left out.
    var repeated = 0
    /// Readings kept so far (an event counts one per 16 bytes of its text), and the rows not
    /// read once they reached ``CSVLimits/readingsPerDive``, with the first of them.
    var readings = 0
    private var rowsPastLimit = 0
    private var firstRowPastLimit: (row: Int, line: Int)?
    /// The row and line being read (`nil` above the table), for the findings of its values.
    private var at: (row: Int?, line: Int?) = (nil, nil)
    /// A preamble duration written as a time of day, decided once the samples are read (§10.16).
    private var clockDuration: (value: ClockShapedDuration, following: CSVMetadata?)?

    init(reader: CSVDiveReader, row: Int, line: Int) {
        self.reader = reader; self.row = row; self.line = line
        kind = reader.layout.kind
        mark = reader.layout.dialect.decimalMark
        defaultUnits = reader.layout.defaultUnits
        readingLimit = reader.readingLimit
    }

    // MARK: Input

    mutating func apply(_ metadata: [CSVMetadata]) throws {
        at = (nil, nil)
        for (k, m) in metadata.enumerated() {
            // Negative indices: a preamble value is a column of its own for findings and units.
            let column = CSVColumn(name: m.label, index: -1 - k, meaning: m.meaning, source: .preset)
            if let clock = Self.clockShapedDuration(metadata, at: k, layout: reader.layout, decimalMark: mark) {
                clockDuration = (clock, metadata[(k + 1)...].first { $0.meaning.field == .duration })
                continue
            }
            try set(m.meaning, m.value, column: column, row: nil, line: nil)
        }
    }

    /// Reads one row into the dive; `false`, reading nothing, when the row's sample time
    /// starts again at or before the dive's first, which makes it the first of another dive.
    mutating func applyRow(_ r: CSVRow) throws -> Bool {
        at = (r.row, r.line)
        var sampleTime: Int?
        if kind == .profile {
            sampleTime = try self.sampleTime(r)
            // A time that goes back starts another dive (a time repeated is the same instant:
            // Series keeps its first reading). A coded export repeats a time on every code.
            if let t = sampleTime, let last = lastTime, t < last, reader.codes == nil {
                reader.noteTimeRestart(row: r.row, line: r.line, at: t, after: last)
                return false
            }
            sampleIndex += 1
            if let t = sampleTime, let last = lastTime, t < last {
                reader.report(.dropped, "csv.time-backwards", "the sample time goes back (\(t / 1000) s after \(last / 1000) s); the row is not read", row: r.row, line: r.line)
                return true
            }
            if let t = sampleTime {
                lastTime = t
            }
            if readings >= readingLimit {
                rowsPastLimit += 1
                if firstRowPastLimit == nil { firstRowPastLimit = (r.row, r.line) }
                return true
            }
        }
        if let codes = reader.codes {
            try coded(r, codes: codes, at: sampleTime)
            return true
        }
        // A profile row repeats its dive's own columns: they are read from its first row.
        let diveColumns = kind == .summary || !readDiveColumns
        readDiveColumns = true
        let reader = self.reader, active = reader.active
        if let log = reader.eventLog {
            try logged(r, log, at: sampleTime)
            if !diveColumns { return true }
        }
        for k in active.indices where active[k].index < r.count {
            let (i, m) = active[k]
            let isSample = kind == .profile && m.field.isSample
            if !isSample && !diveColumns { continue }
            if isSample {
                guard let t = sampleTime else { continue }
                // A plain number, the usual cell of a profile, is read from its bytes.
                if m.field != .events, let v = r.plainNumber(i, decimalMark: mark),
                   try plainSample(m, v, at: t, column: reader.activeColumns[k]) {
                    readings += 1
                    continue
                }
                if r.isBlank(i) { continue }
                readings += 1
                try sample(m, r.string(i), at: t, column: reader.activeColumns[k], row: r.row, line: r.line)
            } else {
                if r.isBlank(i) { continue }
                try set(m, r.string(i), column: reader.activeColumns[k], row: r.row, line: r.line)
            }
        }
        if let cell = profileCell {
            profileCell = nil
            try readProfileCell(cell.text, column: cell.column, row: cell.row, line: cell.line)
        }
        return true
    }

    /// The row's time into the dive, in milliseconds: its time column, else its place times
    /// the file's sample interval.
    func sampleTime(_ r: CSVRow) throws -> Int? {
        guard let c = reader.sampleTimeColumn else {
            guard let interval = reader.sampleInterval else { return nil }
            let s = Double(sampleIndex) * interval
            guard CSVLimits.Range.sampleTime.contains(s) else {
                try reader.outOfRange(nil, s, .sampleTime, column: CSVColumn(name: "sample interval", index: -1, meaning: nil, source: .none), row: r.row, line: r.line)
                return nil
            }
            return Int((s * 1000).rounded())
        }
        guard c.index < r.count else { return nil }
        let unit = c.meaning?.unit ?? .seconds
        var seconds: Double?
        // The cell as written, for a finding: a plain number's is only made if one is needed.
        var text: String?, plain: Double?
        if unit.dimension == .time, let n = r.plainNumber(c.index, decimalMark: mark) {
            seconds = unit.toModel(n)
            plain = n
        } else {
            let cell = r.string(c.index)
            text = cell
            seconds = CSVValues.duration(Substring(cell), unit: unit, decimalMark: mark)
            if seconds == nil, !r.isBlank(c.index) { try reader.bad(cell, column: c, expected: "a time into the dive", row: r.row, line: r.line) }
            if let s = seconds { noteUnderflow(s, cell, c) }
        }
        guard let s = seconds else { return nil }
        guard CSVLimits.Range.sampleTime.contains(s) else {
            try reader.outOfRange(text ?? plain.map(CSVQuantity.format), s, .sampleTime, column: c, row: r.row, line: r.line)
            return nil
        }
        let t = Int((s * 1000).rounded())
        // An export's documented bad times (Poseidon's from 49151 s up) stand for the time before.
        if let limit = reader.timeLimit, t >= limit * 1000 { return lastTime }
        return t
    }

    /// The number `text` holds, with the unit it states, if any; `nil`, reported as a bad value,
    /// when it holds none. A number too small to be told from 0 (`1e-400`) is 0 and says so.
    /// A cell in two units (`9.3 m / 31 ft`) gives the one in the column's unit `m`, else the
    /// first, the other checked against it (§10.9).
    private func number(_ text: String, _ c: CSVColumn, _ m: CSVColumnMeaning? = nil, expected: String, row: Int?, line: Int?) throws -> (Double, CSVUnit?)? {
        if let pair = CSVValues.twoUnits(Substring(text), decimalMark: mark) {
            let kept = twoUnits(pair, text, c, m)
            noteUnderflow(kept.value, kept.text, c)
            return (kept.value, kept.unit)
        }
        if let q = CSVValues.quantity(Substring(text), decimalMark: mark) {
            noteUnderflow(q.value, text, c)
            return q
        }
        try reader.bad(text, column: c, expected: expected, row: row, line: line)
        return nil
    }

    /// Of a cell's two spellings of one value, the one in the column's unit (stated by its
    /// header or the file), else the first; the other is checked against it, within one unit of
    /// its last digit and half one of the kept one's (their rounding). The column is said once;
    /// a cell whose two disagree is said where it is.
    private func twoUnits(_ pair: (CSVWrittenQuantity, CSVWrittenQuantity), _ text: String, _ c: CSVColumn, _ m: CSVColumnMeaning?) -> CSVWrittenQuantity {
        let columnUnit = m.flatMap { $0.unit ?? defaultUnits[pair.0.unit.dimension] }
        let byColumn = columnUnit != nil && (pair.0.unit == columnUnit || pair.1.unit == columnUnit)
        let (kept, other) = pair.1.unit == columnUnit ? (pair.1, pair.0) : (pair.0, pair.1)
        let why = byColumn ? "the column's unit" : "the first written"
        reader.reportColumnOnce(.resolved, "csv.two-units", c, "the column \"\(c.name)\" writes values in two units (\"\(CSVDiveReader.quoted(text))\" …): \(kept.unit.rawValue), \(why), is read, and \(other.unit.rawValue) checked against it")
        func model(_ v: Double, _ u: CSVUnit) -> Double { u.toModel(v) }
        func scale(_ q: CSVWrittenQuantity) -> Double { abs(model(q.step, q.unit) - model(0, q.unit)) }
        let difference = abs(model(kept.value, kept.unit) - model(other.value, other.unit))
        if difference > scale(other) + scale(kept) / 2 + 1e-9 {
            let d = CSVQuantity(kept.unit.dimension)
            reader.report(.resolved, "csv.two-units-disagree", "\"\(CSVDiveReader.quoted(text))\" gives \(kept.text) and \(other.text), which is \(CSVQuantity.format(Self.clean(model(other.value, other.unit))))\(d.unit) against \(CSVQuantity.format(Self.clean(model(kept.value, kept.unit))))\(d.unit): they differ by more than their rounding; \(kept.text), \(why), is read",
                          row: at.row, line: at.line, column: c.name)
        }
        return kept
    }

    /// `value` in the model's unit: the unit the cell, the column or the file states, else the
    /// one its size shows, else the field's usual one — the last two reported once per column.
    /// `nil` when the unit measures something else, or when the value is no reading of its
    /// quantity (not finite, or outside ``CSVLimits/Range``): reported with `text`, the cell as
    /// written (`nil` for a plain number read from its bytes).
    private func convert(_ value: Double, cellUnit: CSVUnit?, _ c: @autoclosure () -> CSVColumn, _ m: CSVColumnMeaning,
                         dimension: CSVUnit.Dimension, text: String? = nil) throws -> Double? {
        let quantity = CSVQuantity(dimension)
        // Before its unit is decided: an infinite first value must not decide the column's unit.
        guard value.isFinite else {
            try reader.outOfRange(text, value, quantity, column: c(), row: at.row, line: at.line)
            return nil
        }
        let v: Double
        if let u = cellUnit ?? m.unit ?? defaultUnits[dimension] {
            guard u.dimension == dimension else {
                let c = c()
                reader.reportColumnOnce(.dropped, "csv.unit-mismatch", c, "the column \"\(c.name)\" states \(u.rawValue), which does not measure what \(m.field.rawValue) holds; its values are not read")
                return nil
            }
            v = Self.clean(u.toModel(value))
        } else {
            v = Self.clean(reader.assumedUnit(c(), m.field, value, dimension).toModel(value))
        }
        return try accept(v, quantity, text: text ?? CSVQuantity.format(value), column: c())
    }

    /// Reports `text`, read as `v`, when it reads as 0 only because no `Double` is so close to 0.
    private func noteUnderflow(_ v: Double, _ text: String, _ c: CSVColumn) {
        if v == 0, CSVValues.hasNonZeroDigit(Substring(text)) { reader.underflow(text, column: c, row: at.row, line: at.line) }
    }

    /// `v` (in the model's unit) when `quantity` can be it, `-0` read as 0; else `nil`,
    /// reported as `csv.value-out-of-range` at the row being read.
    private func accept(_ v: Double, _ quantity: CSVQuantity, text: @autoclosure () -> String?, column c: @autoclosure () -> CSVColumn) throws -> Double? {
        if quantity.range.contains(v) { return v == 0 ? 0 : v }
        try reader.outOfRange(text(), v, quantity, column: c(), row: at.row, line: at.line)
        return nil
    }

    /// A converted value without the binary noise of its arithmetic (95.8 ft is 29.19984 m, not
    /// 29.199840000000002): a millionth of the unit is far below any instrument's resolution.
    static func clean(_ v: Double) -> Double { (v * 1_000_000).rounded() / 1_000_000 }

    /// The unit a value without one is read in: what its size rules out, else the usual one.
    static func unitBySize(_ v: Double, _ field: CSVField, _ d: CSVUnit.Dimension) -> (CSVUnit, String) {
        switch d {
        case .temperature:
            if v > 200 { return (.kelvin, "over 200 is no water or air temperature in °C or °F") }
            if v > 45 { return (.fahrenheit, "over 45 °C is no diving temperature") }
            return (.celsius, "the metric default")
        case .pressure:
            if field == .surfacePressure {
                return v > 100 ? (.millibar, "a surface pressure over 100 is in millibar") : (.bar, "a surface pressure under 100 is in bar")
            }
            if v > 400 { return (.psi, "no cylinder holds over 400 bar") }
            return (.bar, "the metric default")
        case .length: return (.metres, "the metric default")
        case .mass: return (.kilograms, "the metric default")
        case .volume: return (.litres, "the metric default")
        case .time: return (.seconds, "the usual unit")
        case .ratio: return v <= 1 ? (.fraction, "a value of 1 or less is a fraction") : (.percent, "over 1 is a percentage")
        }
    }

    // MARK: Dive members

    private mutating func set(_ m: CSVColumnMeaning, _ text: String, column c: CSVColumn, row: Int?, line: Int?) throws {
        let value = text.trimmingWhitespace()
        // A text the layout's template leaves for the user to replace is no value (§10.7).
        if !reader.placeholders.isEmpty, reader.placeholders[m.field]?.contains(value.folded) == true {
            reader.reportValue(.absent, "csv.placeholder", value, column: c, row: row, line: line,
                               "\"\(CSVDiveReader.quoted(value))\" is the placeholder text of the \(reader.layout.preset?.title ?? "layout")'s template, not a value; the cell is read as empty (here and wherever the column says the same)")
            return
        }
        func quantity(_ d: CSVUnit.Dimension, _ expected: String) throws -> Double? {
            guard let (v, u) = try number(value, c, m, expected: expected, row: row, line: line) else { return nil }
            return try convert(v, cellUnit: u, c, m, dimension: d, text: value)
        }
        func integer(_ expected: String) throws -> Int? {
            guard let n = CSVValues.number(Substring(value), decimalMark: mark), n == n.rounded() else {
                try reader.bad(value, column: c, expected: expected, row: row, line: line)
                return nil
            }
            noteUnderflow(n, value, c)
            return try accept(n, .integer, text: value, column: c).map { Int($0) }
        }
        func coordinate(_ text: String, _ quantity: CSVQuantity, _ expected: String) throws -> Double? {
            guard let (v, _) = try number(text, c, expected: expected, row: row, line: line) else { return nil }
            return try accept(v, quantity, text: text, column: c)
        }
        switch m.field {
        case .diveNumber: dive.number = try integer("a dive number")
        case .diveID: id = value
        case .date, .dateTime:
            guard let start = CSVValues.start(value, order: reader.dateOrder) else {
                // A month or a year is a date, of a precision the model does not hold: the dive
                // is left out when it is built, said there (§10.3).
                if CSVValues.partialDate(Substring(value)) != nil {
                    partialDate = (value, c.name)
                    return
                }
                try reader.bad(value, column: c, expected: m.field == .date ? "a date" : "a date and time", row: row, line: line)
                return
            }
            date = start.date
            if CSVValues.dateParts(Substring(value)) == nil, let named = CSVValues.namedMonthDate(Substring(value)) {
                reader.reportColumnOnce(.resolved, "csv.date-month-named", c, "\"\(CSVDiveReader.quoted(value))\" names its month in a word, so it is \(named.date) whatever the day/month order of the file's other dates; the column's dates so written are read as they say")
            }
            if let t = start.time { time = t }
            if let o = start.offset { offset = o }
        case .time:
            if let t = CSVValues.timeOfDay(Substring(value)) {
                time = t
                if let o = CSVValues.offset(after: value) { offset = o }
            } else { try reader.bad(value, column: c, expected: "a time of day", row: row, line: line) }
        case .year, .month, .day, .hour, .minute, .second:
            if let n = try integer("a whole number") { parts[m.field] = n }
        case .utcOffset:
            if let o = UTCOffset(lenient: value) { offset = o } else { try reader.bad(value, column: c, expected: "a UTC offset such as +02:00", row: row, line: line) }
        case .duration:
            if let s = CSVValues.duration(Substring(value), unit: m.unit, decimalMark: mark) {
                noteUnderflow(s, value, c)
                guard let s = try accept(s, .duration, text: value, column: c) else { return }
                dive.submergedTime = Int(s.rounded())
                if m.unit != .hours, let unpadded = CSVValues.unpaddedMinutesSeconds(Substring(value)) {
                    reader.reportColumnOnce(.resolved, "csv.duration-unpadded", c, "\"\(CSVDiveReader.quoted(value))\" writes its seconds without a leading zero; read as \(unpadded.minutes) min \(unpadded.seconds) s (\(Int(s.rounded())) s), minutes and seconds as a dive's length is written, not \(unpadded.minutes) min \(unpadded.seconds)0 s")
                }
                if m.unit == nil && CSVValues.number(Substring(value), decimalMark: mark) != nil {
                    reader.reportColumnOnce(.resolved, "csv.unit-assumed", c, "the column \"\(c.name)\" states no unit; its plain numbers are read as minutes, how logbooks state a dive's length")
                }
            } else { try reader.bad(value, column: c, expected: "a duration", row: row, line: line) }
        case .maxDepth: dive.maxDepth = try quantity(.length, "a depth")
        case .avgDepth: dive.avgDepth = try quantity(.length, "a depth")
        case .waterTemperature: dive.bottomTemperature = try quantity(.temperature, "a temperature")
        case .airTemperature: dive.airTemperature = try quantity(.temperature, "a temperature")
        case .visibility:
            // A grade in words (`Buena`, `Regular`) is what the diver saw, but no distance (§10.5).
            if CSVValues.quantity(Substring(value), decimalMark: mark) == nil, let grade = Self.visibilityGrade(value) {
                reader.reportValue(.dropped, "csv.visibility-word", value, column: c, row: row, line: line,
                                   "\"\(CSVDiveReader.quoted(value))\" grades the visibility in words (\(grade)); the model holds visibility as a distance, so the grade is not read (here and wherever the column says the same)")
                return
            }
            dive.visibility = try quantity(.length, "a distance")
        case .weight: dive.weight = try quantity(.mass, "a weight")
        case .site: siteName = name(value, c)
        case .location: locationName = name(value, c)
        case .country: country = name(value, c)
        case .latitude: latitude = try coordinate(value, .latitude, "a latitude")
        case .longitude: longitude = try coordinate(value, .longitude, "a longitude")
        case .position:
            // `lat lon` or `lat, lon` in decimal degrees, else with hemispheres and minutes (§10.10).
            let items = value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" })
            let numbers = items.compactMap { CSVValues.number($0) }
            let position: (Double, Double)
            if numbers.count == 2, items.count == 2 {
                position = (numbers[0], numbers[1])
                reader.reportColumnOnce(.resolved, "csv.position-pair", c, "the column \"\(c.name)\" gives a latitude and a longitude in one cell (\"\(CSVDiveReader.quoted(value))\" …): the first is read as the latitude, the second as the longitude, in decimal degrees")
            } else if let p = CSVValues.position(Substring(value)) {
                position = (p.latitude, p.longitude)
                reader.reportColumnOnce(.resolved, "csv.position-degrees", c, "the column \"\(c.name)\" writes positions with hemispheres or in degrees and minutes (\"\(CSVDiveReader.quoted(value))\" …): read as decimal degrees, south and west negative")
            } else {
                try reader.bad(value, column: c, expected: "a latitude and longitude", row: row, line: line)
                return
            }
            guard let la = try accept(position.0, .latitude, text: value, column: c),
                  let lo = try accept(position.1, .longitude, text: value, column: c) else { return }
            latitude = la; longitude = lo
        case .trip: dive.tripUUID = reader.tripUUID(name(value, c), row: row, line: line)
        case .buddy, .guide:
            // A person is named once per dive (by uuid, which follows from the name).
            var named = Set(dive.people.map(\.personUUID))
            for item in firstItems(Self.list(value), c) {
                guard let uuid = reader.personUUID(name(item, c), row: row, line: line) else { continue }
                if named.insert(uuid).inserted { dive.people.append(PersonReference(personUUID: uuid, role: m.field == .guide ? .guide : .buddy)) }
            }
        case .notes: dive.notes = dive.notes.map { $0 + "\n" + value } ?? value
        case .rating:
            if let n = try integer("a rating"), n > 0 { dive.rating = min(n, 5) } // 0 is "not rated" in every export seen
        case .diveType:
            // What a dive-type cell says: the breathing apparatus, else how the dive was entered,
            // else a kind of dive the model has no member for (a course, a night dive), kept as
            // the diver wrote it, as a tag (§10.4).
            if let t = Self.diveType(value) { dive.type = t } else if let e = Self.entryType(value) {
                dive.entryType = e
                reader.reportColumnOnce(.resolved, "csv.dive-type-entry", c, "the column \"\(c.name)\" says how dives were entered (\"\(CSVDiveReader.quoted(value))\" …): read as the dive's entry (boat, shore, pier or pool)")
            } else {
                if !dive.tags.contains(value) { dive.tags.append(value) }
                reader.reportColumnOnce(.resolved, "csv.dive-type-tag", c, "the column \"\(c.name)\" names kinds of dive that are no breathing apparatus and no entry (\"\(CSVDiveReader.quoted(value))\" …): each is kept as a tag, as written")
            }
        case .computer: device.name = value
        case .serial: device.serial = value
        case .tags:
            var tagged = Set(dive.tags)
            for t in firstItems(Self.list(value), c) where tagged.insert(t).inserted { dive.tags.append(t) }
        case .suit:
            let suit = name(value, c)
            if let g = reader.gearUUID(suit, type: Self.suitType(suit), row: row, line: line) { dive.gearUUIDs.append(g) }
        case .surfacePressure: surfacePressure = try quantity(.pressure, "a pressure")
        case .gradientFactor:
            // `GF: 30/70` above a table, a `GF` column of a summary: the factors the computer was set to.
            let pair = value.split(separator: "/").map { Int(String($0).trimmingWhitespace()) }
            guard pair.count == 2, let low = pair[0], let high = pair[1] else {
                try reader.bad(value, column: c, expected: "a pair of gradient factors such as 30/70", row: row, line: line)
                return
            }
            deco.gfLow = low
            deco.gfHigh = high
        case .gfLow: deco.gfLow = try integer("a gradient factor")
        case .gfHigh: deco.gfHigh = try integer("a gradient factor")
        case .cylinderSize, .workingPressure, .startPressure, .endPressure, .oxygen, .helium, .nitrogen, .gas:
            try cylinder(m, value, c, row: row, line: line)
        case .profile:
            // Read once the row is, when an interval column it may need has been (§10.14).
            profileCell = (value, c, row, line)
        case .sampleInterval:
            guard let s = CSVValues.duration(Substring(value), unit: m.unit ?? .seconds, decimalMark: mark) else {
                try reader.bad(value, column: c, expected: "a time between samples", row: row, line: line)
                return
            }
            guard s > 0, let s = try accept(s, .duration, text: value, column: c) else { return }
            if m.unit == nil, CSVValues.number(Substring(value), decimalMark: mark) != nil {
                reader.reportColumnOnce(.resolved, "csv.unit-assumed", c, "the column \"\(c.name)\" states no unit; its plain numbers are read as seconds, how a sample interval is stated")
            }
            cellInterval = s
        case .surfaceInterval:
            reader.reportColumnOnce(.dropped, "csv.column-not-carried", c, "the column \"\(c.name)\" (surface interval) follows from the dives' times; not read")
        case .ignored, .sampleTime, .sampleDepth, .sampleTemperature, .samplePressure, .sampleAmbientPressure, .ndl, .tts, .ceiling, .ppo2, .setpoint, .sensorPPO2, .cns, .events:
            break
        }
    }

    /// A name (a site's, a person's, a trip's …) as the record it names is known by: without a
    /// pair of quotes of its own around the whole of it (`"frente al centro"`, which a
    /// spreadsheet saves as `"""frente al centro"""`), reported once per column and text (§10.6).
    private func name(_ value: String, _ c: CSVColumn) -> String {
        guard let inner = Self.insideQuotes(value) else { return value }
        reader.reportValue(.resolved, "csv.name-quoted", value, column: c, row: at.row, line: at.line,
                           "the name \(CSVDiveReader.quoted(value)) is written inside quotes of its own (a spreadsheet saves a cell typed with quotes as \"\"\"…\"\"\"); read as \(CSVDiveReader.quoted(inner))")
        return inner
    }

    /// The text inside one pair of quotes around the whole of `value`, when it holds no quote
    /// of that pair itself and is not empty; else `nil`.
    static func insideQuotes(_ value: String) -> String? {
        guard let first = value.first, let last = value.last, value.count >= 3 else { return nil }
        let pairs: [(Character, Character)] = [("\"", "\""), ("\u{201C}", "\u{201D}"), ("\u{201E}", "\u{201C}"), ("«", "»")]
        guard let (open, close) = pairs.first(where: { $0.0 == first && $0.1 == last }) else { return nil }
        let inner = value.dropFirst().dropLast()
        guard !inner.contains(open), !inner.contains(close) else { return nil }
        let trimmed = String(inner).trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }

    private mutating func cylinder(_ m: CSVColumnMeaning, _ value: String, _ c: CSVColumn, row: Int?, line: Int?) throws {
        // One cell may list every cylinder (`12; 7`), as umilog's own CSV writes them.
        let cells = m.index == nil && value.contains(";") ? value.split(separator: ";", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() } : [value]
        for (k, cell) in firstItems(cells, c).enumerated() where !cell.isEmpty {
            var cyl = (m.index == nil ? listed[k + 1] : cylinders[m.index!]) ?? Cylinder()
            switch m.field {
            case .gas:
                // A cell may describe the whole cylinder: `EAN32 12L 200->70bar` (§10.10).
                if let parts = CSVValues.cylinderCell(cell) { try wholeCylinder(parts, cell, &cyl, c, row: row, line: line) } else { gas(cell, &cyl, c, row: row, line: line) }
            case .oxygen, .helium, .nitrogen:
                guard let (v, u) = try number(cell, c, expected: "a gas fraction", row: row, line: line) else { continue }
                let pct = try convert(v, cellUnit: u ?? (v <= 1 && v > 0 ? .fraction : .percent), c, m, dimension: .ratio, text: cell)
                if m.field == .nitrogen {
                    if let pct { nitrogen[m.index ?? -(k + 1)] = (pct, c, row, line) }
                    continue
                }
                guard let pct, pct > 0 || m.field == .helium else { continue } // 0 % oxygen is an export's blank
                if m.field == .oxygen {
                    if let name = cyl.gasName, let named = Cylinder.mix(named: name), named.oxygen != pct { gasDisagrees(name, named.oxygen, pct, c) }
                    cyl.oxygen = pct
                } else if pct > 0 { cyl.helium = pct }
            case .cylinderSize:
                guard let (v, u) = try number(cell, c, m, expected: "a cylinder size", row: row, line: line), v > 0 else { continue }
                if (u ?? m.unit) == .cubicFeet {
                    reader.reportColumnOnce(.dropped, "csv.cylinder-size-gas-volume", c, "the column \"\(c.name)\" gives cylinder sizes as gas volume; without each cylinder's working pressure their water capacity is not known; not read")
                    continue
                }
                cyl.volume = try convert(v, cellUnit: u, c, m, dimension: .volume, text: cell)
            case .startPressure, .endPressure, .workingPressure:
                guard let (v, u) = try number(cell, c, m, expected: "a pressure", row: row, line: line) else { continue }
                let bar = try convert(v, cellUnit: u, c, m, dimension: .pressure, text: cell)
                if m.field == .startPressure { cyl.startPressure = bar } else if m.field == .endPressure { cyl.endPressure = bar } else {
                    reader.reportColumnOnce(.dropped, "csv.column-not-carried", c, "the column \"\(c.name)\" (working pressure) has no member of a cylinder; not read")
                }
            default: break
            }
            if let i = m.index { cylinders[i] = cyl } else { listed[k + 1] = cyl }
        }
    }

    /// A gas cell's name, and the mix it states (§10.7).
    private func gas(_ cell: String, _ cyl: inout Cylinder, _ c: CSVColumn, row: Int?, line: Int?) {
        var mix = Cylinder.mix(named: cell)
        var name = cell
        // PADI's spelling of nitrox, `Enriched_32`: the mix its number states (§10.7).
        if mix == nil, let o2 = Self.enrichedAirOxygen(cell) {
            mix = (o2, 0)
            name = "EAN" + CSVQuantity.format(o2)
            reader.reportValue(.resolved, "csv.gas-enriched-air", cell, column: c, row: row, line: line,
                               "\"\(CSVDiveReader.quoted(cell))\" names enriched air (nitrox) with \(CSVQuantity.format(o2)) % oxygen: read as \(name)")
        }
        cyl.gasName = name
        // The name states the mix (`Air` is 21 % oxygen and no helium); an oxygen the
        // row records in a column of its own is kept, and a different one said.
        if let (o2, he) = mix {
            if let recorded = cyl.oxygen {
                if recorded != o2 { gasDisagrees(name, o2, recorded, c) }
            } else {
                cyl.oxygen = o2
            }
            if cyl.helium == nil { cyl.helium = he }
        }
    }

    /// A cell that gives a cylinder's gas with its size or its start and end pressures: each
    /// part read into the cylinder as its own column would be, and a part that is no gas, size
    /// or pressures said (§10.10).
    private func wholeCylinder(_ parts: CSVCylinderCell, _ cell: String, _ cyl: inout Cylinder, _ c: CSVColumn, row: Int?, line: Int?) throws {
        reader.reportColumnOnce(.resolved, "csv.cylinder-cell", c, "the column \"\(c.name)\" describes each cylinder in one cell (\"\(CSVDiveReader.quoted(cell))\" …): its gas, size and start and end pressures are read from it")
        if let g = parts.gas {
            // The gas is the longest run of first words that names a mix (`EAN32` of
            // `EAN32 200->`); words with no digit name a gas as any gas cell does (`Deco`).
            let words = g.split(separator: " ")
            let n = stride(from: words.count, to: 0, by: -1).first { n in
                let name = words[..<n].joined(separator: " ")
                return Cylinder.mix(named: name) != nil || Self.enrichedAirOxygen(name) != nil
            } ?? (g.contains(where: { $0.isNumber }) ? 0 : words.count)
            if n > 0 { gas(words[..<n].joined(separator: " "), &cyl, c, row: row, line: line) }
            if n < words.count {
                let rest = words[n...].joined(separator: " ")
                reader.report(.dropped, "csv.cylinder-part-unread", "in the cylinder \"\(CSVDiveReader.quoted(cell))\", \"\(CSVDiveReader.quoted(rest))\" is no gas, size or start and end pressures umilog reads; it is left out, the rest is read",
                              row: row, line: line, column: c.name)
            }
        }
        if let size = parts.size {
            if size.unit == .cubicFeet {
                reader.reportColumnOnce(.dropped, "csv.cylinder-size-gas-volume", c, "the column \"\(c.name)\" gives cylinder sizes as gas volume; without each cylinder's working pressure their water capacity is not known; not read")
            } else if let v = try convert(size.value, cellUnit: size.unit, c, CSVColumnMeaning(.cylinderSize), dimension: .volume, text: size.text), v > 0 {
                cyl.volume = v
            }
        }
        if let p = parts.pressures {
            var start = p.startUnit, end = p.endUnit
            if start == nil {
                let (u, why) = defaultUnits[.pressure].map { ($0, "the file's unit") } ?? Self.unitBySize(max(p.start, p.end), .startPressure, .pressure)
                start = u; end = u
                reader.reportColumnOnce(.resolved, "csv.unit-assumed", c, "the column \"\(c.name)\" states no unit for its cylinders' pressures (\"\(CSVDiveReader.quoted(p.text))\" …); read as \(u.rawValue) (\(why))")
            }
            if let v = try convert(p.start, cellUnit: start, c, CSVColumnMeaning(.startPressure), dimension: .pressure, text: p.text) { cyl.startPressure = v }
            if let v = try convert(p.end, cellUnit: end, c, CSVColumnMeaning(.endPressure), dimension: .pressure, text: p.text) { cyl.endPressure = v }
        }
    }

    /// A gas named for one oxygen fraction with another recorded: the recorded one is kept.
    private func gasDisagrees(_ name: String, _ named: Double, _ recorded: Double, _ c: CSVColumn) {
        reader.report(.resolved, "csv.gas-disagrees", "the gas is named \(CSVDiveReader.quoted(name)), \(CSVQuantity.format(named)) % oxygen, but its oxygen is recorded as \(CSVQuantity.format(recorded)) %; the recorded \(CSVQuantity.format(recorded)) % is read",
                      row: at.row, line: at.line, column: c.name)
    }

    /// The oxygen of a name for enriched air, nitrox by the name recreational agencies and
    /// PADI's logbook give it: `Enriched_32`, `Enriched Air 32%`, `Enriched Air Nitrox 36`;
    /// `nil` for any other name.
    static func enrichedAirOxygen(_ name: String) -> Double? {
        let words = CSVColumnDictionary.fold(name).split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == ".") })
        guard words.contains("enriched") else { return nil }
        let numbers = words.compactMap { Double($0) }
        guard numbers.count == 1, (22...100).contains(numbers[0]),
              words.allSatisfy({ Double($0) != nil || ["enriched", "air", "nitrox", "ean", "eanx"].contains($0) }) else { return nil }
        return numbers[0]
    }

    /// A cylinder's nitrogen checked against its oxygen and helium: the balance of the two it
    /// agrees with; the helium, when the file leaves it to be worked out; else said.
    private func checkNitrogen(_ cyl: inout Cylinder, _ n2: (percent: Double, column: CSVColumn, row: Int?, line: Int?)) {
        let f = CSVQuantity.format
        guard let o2 = cyl.oxygen else {
            reader.report(.dropped, "csv.nitrogen-unchecked", "the gas's nitrogen (\(f(n2.percent)) %) is the balance of its oxygen and helium, and its oxygen is not recorded; not read",
                          row: n2.row, line: n2.line, column: n2.column.name)
            return
        }
        let rest = 100 - o2 - (cyl.helium ?? 0) - n2.percent
        if abs(rest) <= 0.5 {
            reader.reportColumnOnce(.resolved, "csv.nitrogen-balance", n2.column, "the column \"\(n2.column.name)\" gives each gas's nitrogen, the balance of its oxygen and helium (100 % less both); it agrees with them, which carry it")
        } else if cyl.helium == nil, rest > 0 {
            cyl.helium = Self.clean(rest)
            reader.report(.inferred, "csv.helium-from-nitrogen", "the gas's helium is not recorded; \(f(Self.clean(rest))) % is what its oxygen (\(f(o2)) %) and nitrogen (\(f(n2.percent)) %) leave",
                          row: n2.row, line: n2.line, column: n2.column.name)
        } else {
            reader.report(.dropped, "csv.gas-fractions-disagree", "the gas's oxygen (\(f(o2)) %), helium (\(f(cyl.helium ?? 0)) %) and nitrogen (\(f(n2.percent)) %) add up to \(f(Self.clean(100 - rest))) %, not 100 %; the nitrogen is not read",
                          row: n2.row, line: n2.line, column: n2.column.name)
        }
    }

    /// The first ``CSVLimits/listItems`` items of a cell's list; a longer list is reported.
    private func firstItems(_ items: [String], _ c: CSVColumn) -> ArraySlice<String> {
        if items.count > CSVLimits.listItems {
            reader.report(.dropped, "csv.list-too-long", "the cell of column \"\(c.name)\" lists \(items.count) items, more than a dive has; the first \(CSVLimits.listItems) are read",
                          row: at.row, line: at.line, column: c.name)
        }
        return items.prefix(CSVLimits.listItems)
    }

    // MARK: Samples

    mutating func sample(_ m: CSVColumnMeaning, _ text: String, at t: Int, column c: CSVColumn, row: Int, line: Int) throws {
        switch m.field {
        case .ndl, .tts:
            guard let time = CSVValues.duration(Substring(text), unit: m.unit ?? .minutes, decimalMark: mark) else {
                try reader.bad(text, column: c, expected: m.field == .ndl ? "a no-decompression time" : "a time to surface", row: row, line: line)
                return
            }
            noteUnderflow(time, text, c)
            guard let s = try accept(time, .duration, text: text, column: c) else { return }
            if m.field == .ndl { Self.append(&profile.ndl, t, s, &repeated) } else { Self.append(&profile.tts, t, s, &repeated) }
        case .events:
            // An event's text takes memory as readings do.
            readings += text.utf8.count / 16
            // `gas_switch EAN50; safety_stop (label)`, as umilog's csv-profile writes them.
            for item in text.split(separator: ";").map({ String($0).trimmingWhitespace() }) where !item.isEmpty {
                var rest = Substring(item)
                var label: String?
                if rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") {
                    label = String(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)])
                    rest = rest[..<open]
                }
                let words = rest.split(separator: " ", maxSplits: 1)
                guard let first = words.first, let type = EventType(rawValue: String(first)) else {
                    profile.events.append(Event(time: t, label: item))
                    continue
                }
                var event = Event(time: t, type: type, label: label)
                if type == .gasSwitch, words.count == 2 {
                    let gas = String(words[1]).trimmingWhitespace()
                    if let k = switchGasNumbers[gas] { event.gasNumber = k } else {
                        switchGasNumbers[gas] = switchGases.count
                        event.gasNumber = switchGases.count
                        switchGases.append(gas)
                    }
                }
                profile.events.append(event)
            }
        default:
            let expected: String
            switch m.field {
            case .sampleDepth, .ceiling: expected = "a depth"
            case .sampleTemperature: expected = "a temperature"
            case .samplePressure, .sampleAmbientPressure, .ppo2, .setpoint, .sensorPPO2: expected = "a pressure"
            default: expected = "a percentage"
            }
            guard let (v, u) = try number(text, c, m, expected: expected, row: row, line: line) else { return }
            try record(m, v, cellUnit: u, at: t, column: c, text: text)
        }
    }

    /// A sample cell that holds a plain number: `false` when its column's unit is not one
    /// such a number can be read in (the text path then says so). Inlined: it is the path of
    /// nearly every cell of a profile.
    @inline(__always)
    mutating func plainSample(_ m: CSVColumnMeaning, _ v: Double, at t: Int, column c: @autoclosure () -> CSVColumn) throws -> Bool {
        switch m.field {
        case .ndl, .tts:
            let unit = m.unit ?? .minutes
            guard unit.dimension == .time else { return false }
            guard let s = try accept(unit.toModel(v), .duration, text: CSVQuantity.format(v), column: c()) else { return true }
            if m.field == .ndl { Self.append(&profile.ndl, t, s, &repeated) } else { Self.append(&profile.tts, t, s, &repeated) }
        default:
            try record(m, v, cellUnit: nil, at: t, column: c())
        }
        return true
    }

    /// One numeric reading, in its unit (the cell's, else the column's, else the file's, else
    /// the column's first value's), into its channel. `text` is the cell as written, for a
    /// value that is no reading (`nil` for a plain number read from its bytes).
    mutating func record(_ m: CSVColumnMeaning, _ v: Double, cellUnit u: CSVUnit?, at t: Int, column c: @autoclosure () -> CSVColumn,
                                 text: String? = nil) throws {
        switch m.field {
        case .sampleDepth:
            if let v = try convert(v, cellUnit: u, c(), m, dimension: .length, text: text) { Self.append(&profile.depth, t, v * 100, &repeated) }
        case .ceiling:
            if let v = try convert(v, cellUnit: u, c(), m, dimension: .length, text: text) { Self.append(&profile.ceiling, t, v * 100, &repeated) }
        case .sampleTemperature:
            if let v = try convert(v, cellUnit: u, c(), m, dimension: .temperature, text: text) { Self.append(&profile.temperature, t, v * 100, &repeated) }
        case .samplePressure:
            guard let v = try convert(v, cellUnit: u, c(), m, dimension: .pressure, text: text) else { return }
            let n = (m.index ?? 1) - 1
            if let k = pressureChannels[n] {
                if profile.pressures[k].series.times.last == t { repeated += 1; return }
                profile.pressures[k].series.append(t, Int((v * 10).rounded()))
            } else {
                pressureChannels[n] = profile.pressures.count
                profile.pressures.append(PressureSeries(gasNumber: n, series: Series(times: [t], values: [Int((v * 10).rounded())])))
            }
        case .sampleAmbientPressure:
            if let bar = try convert(v, cellUnit: u ?? (m.unit == nil ? .millibar : nil), c(), m, dimension: .pressure, text: text) {
                if ambient.last?.time == t { repeated += 1 } else { ambient.append((t, bar * 1000)) }
            }
        case .ppo2:
            if let bar = try convert(v, cellUnit: u ?? (m.unit == nil ? .bar : nil), c(), m, dimension: .pressure, text: text) { Self.append(&profile.ppo2, t, bar * 100, &repeated) }
        case .setpoint, .sensorPPO2:
            // Bar, as ppO₂ is written; the model's extra channels (`docs/umilog-extension.md`).
            if let bar = try convert(v, cellUnit: u ?? (m.unit == nil ? .bar : nil), c(), m, dimension: .pressure, text: text) {
                extra(m.field == .setpoint ? "setpoint" : "sensor_ppo2", ref: m.field == .sensorPPO2 ? String(m.index ?? 1) : nil, unit: "bar", t, bar)
            }
        case .cns:
            if let v = try accept(v, .ratio, text: text ?? CSVQuantity.format(v), column: c()) { Self.append(&profile.cns, t, v * 10, &repeated) }
        case .gradientFactor:
            if let v = try accept(v, .ratio, text: text ?? CSVQuantity.format(v), column: c()) { Self.append(&profile.gradientFactor, t, v, &repeated) }
        default:
            break
        }
    }

    /// Appends a reading; a second reading at a time the channel already has (a computer
    /// logging on at the surface with its clock stopped) is counted, not kept: a series' times
    /// increase strictly.
    static func append(_ channel: inout Series?, _ t: Int, _ scaled: Double, _ repeated: inout Int) {
        if channel == nil { channel = Series() }
        if channel!.times.last == t { repeated += 1; return }
        channel!.append(t, Int(scaled.rounded()))
    }

    // MARK: The dive

    func build() throws -> Dive? {
        var d = dive
        if let first = firstRowPastLimit {
            reader.report(.dropped, "csv.too-many-readings", "the dive that starts on row \(row) reaches \(readingLimit) readings, the most one dive holds; its \(rowsPastLimit) row\(rowsPastLimit == 1 ? "" : "s") from here on \(rowsPastLimit == 1 ? "is" : "are") not read",
                          row: first.row, line: first.line)
        }
        if repeated > 0 {
            reader.report(.dropped, "csv.time-repeated", "\(repeated) reading\(repeated == 1 ? "" : "s") fall on a time the dive's profile already has a reading for (the clock stood still); the first at each time is kept", row: row, line: line)
        }
        var date = self.date, time = self.time
        if let (clock, following) = clockDuration {
            let span = kind == .profile ? [profile.depth?.times.last, ambient.last?.time].compactMap { $0 }.max().map { $0 / 1000 } : nil
            let resolved = resolve(clock, following: following, samplesLast: span)
            if let start = resolved.start, time == nil { time = start }
            if let seconds = resolved.seconds { d.submergedTime = seconds }
        }
        if date == nil, let y = parts[.year], let mo = parts[.month], let day = parts[.day] { date = LocalDate(year: y, month: mo, day: day) }
        if time == nil, let h = parts[.hour], let mi = parts[.minute] { time = TimeOfDay(hour: h, minute: mi, second: parts[.second] ?? 0) }
        if let date {
            d.startedAt = DiveDateTime(date: date, time: time, offset: time == nil ? nil : offset)
        } else if let partial = partialDate, let (year, month) = CSVValues.partialDate(Substring(partial.text)) {
            // The model places a dive on a day; a month is not one, and its first day would be
            // a day the file never named.
            let span = month.map { "\(Self.monthNames[$0 - 1]) \(year)" } ?? String(year)
            let message = "row \(row)'s date \"\(CSVDiveReader.quoted(partial.text))\" names \(month == nil ? "a year" : "a month") but no day; a dive is placed on a day, and any day of \(span) would be one the file does not name, so the dive is left out (write its day to keep it)"
            if reader.strict { throw DiveError("csv.date-partial", message, at: SourceLocation(file: reader.fileName, line: line, row: row, field: partial.column)) }
            reader.report(.dropped, "csv.date-partial", message, row: row, line: line, column: partial.column, losing: 1)
            return nil
        } else if kind == .profile, reader.startGivenTaken, reader.startedAt != nil || reader.companion?.start != nil || reader.startInFileName != nil {
            // One start, given or named, is one dive's: a second dive of the file that records
            // no date of its own cannot be placed by it (§10.17).
            let message = "the profile goes on to another dive at row \(row), and records no date for it; the start \(reader.startedAt != nil ? "--started-at gives" : reader.companion?.start != nil ? "its companion file gives" : "the file's name carries") is the first dive's, so this dive is left out (read it from a file of its own with its --started-at)"
            if reader.strict { throw DiveError("csv.dive-without-start", message, at: SourceLocation(file: reader.fileName, line: line, row: row)) }
            reader.report(.dropped, "csv.dive-without-start", message, row: row, line: line, losing: 1)
            return nil
        } else if let start = reader.startedAt {
            d.startedAt = start
            reader.startGivenTaken = true
        } else if kind == .profile, let start = reader.companion?.start {
            // A Poseidon log's start, in its companion file (§1).
            d.startedAt = start
            reader.startGivenTaken = true
        } else if kind == .profile, let named = reader.startInFileName {
            // A profile that records no date, in a file whose name does (§10.12).
            d.startedAt = named.start
            reader.startGivenTaken = true
            reader.reportStartFromFileName(row: row, line: line)
        } else if kind == .profile {
            throw DiveError("csv.no-start", "the profile records no date; give its start with --started-at 2024-05-01T10:12",
                            at: SourceLocation(file: reader.fileName, line: line, row: row))
        } else {
            // One row of a summary: the dive is left out, the others still import.
            let message = "row \(row) has no date the dive can be placed by; the dive is left out"
            if reader.strict { throw DiveError("csv.row-without-start", message, at: SourceLocation(file: reader.fileName, line: line, row: row)) }
            reader.report(.dropped, "csv.row-without-start", message, row: row, line: line, losing: 1)
            return nil
        }
        var device = self.device
        if let companion = reader.companion { Self.apply(companion, to: &device) }
        // Identity: the dive's own id, else its start and number.
        if let id, Identity.embeddedUUID(id) != nil { d.uuid = Identity.embeddedUUID(id)! } else {
            d.uuid = Identity.uuid5(namespace: Identity.csvNamespace,
                                    name: reader.unique("dive:\(d.startedAt!)|\(d.number.map(String.init) ?? "")|\(device.serial ?? "")"))
        }
        if let s = reader.siteUUID(name: siteName, location: locationName, country: country,
                                   position: latitude.flatMap { la in longitude.map { Position(latitude: la, longitude: $0) } }, row: row, line: line) {
            d.siteUUIDs = [s]
        } else if latitude != nil && longitude != nil {
            d.entryPosition = Position(latitude: latitude!, longitude: longitude!)
        }
        // Cylinders: numbered columns first, then listed cells; a nitrogen checked against each.
        var cylinders = self.cylinders, listed = self.listed
        if let companion = reader.companion { Self.apply(companion, to: &cylinders) }
        for (key, n2) in nitrogen.sorted(by: { $0.key < $1.key }) {
            var cyl = (key > 0 ? cylinders[key] : listed[-key]) ?? Cylinder()
            checkNitrogen(&cyl, n2)
            if key > 0 { cylinders[key] = cyl } else { listed[-key] = cyl }
        }
        let numbered = cylinders.keys.sorted().map { cylinders[$0]! }
        let list = listed.keys.sorted().map { listed[$0]! }
        var all = numbered.isEmpty ? list : numbered
        all = all.filter { $0 != Cylinder() }
        for i in all.indices { all[i].gasNumber = i }
        // A profile table names its gases only in its switches: one cylinder each, in order of use.
        if all.isEmpty {
            for (k, gas) in switchGases.enumerated() {
                var c = Cylinder()
                c.gasNumber = k
                c.gasName = gas
                if let (o2, he) = Cylinder.mix(named: gas) { c.oxygen = o2; c.helium = he }
                all.append(c)
            }
        }
        // A pressure channel belongs to a cylinder, even one the file says nothing else of.
        for p in profile.pressures where !all.contains(where: { $0.gasNumber == p.gasNumber }) {
            var c = Cylinder()
            c.gasNumber = p.gasNumber
            all.append(c)
        }
        all.sort { ($0.gasNumber ?? 0) < ($1.gasNumber ?? 0) }
        d.cylinders = all

        var recording = Recording()
        if !device.isEmpty { recording.device = device }
        if !deco.isEmpty { recording.decoModel = deco }
        recording.surfacePressure = surfacePressure
        recording.mode = reader.layout.preset?.mode
        var p = profile
        p.extensions = extraChannelsExtension()
        if !ambient.isEmpty {
            // Depth from the water's absolute pressure: what it adds to the surface pressure,
            // at EN 13319's 1020 kg/m³ (the density dive computers assume). A file that records
            // no surface pressure is read against the standard atmosphere, and says so.
            let surface: Double
            if let s = surfacePressure { surface = s * 1000 } else {
                surface = 1013.25
                reader.report(.resolved, "csv.depth-from-pressure", "depth is computed from the water's absolute pressure against the standard atmosphere (1013.25 mbar, the file records no surface pressure) at EN 13319's 1020 kg/m³")
            }
            var depth = Series()
            for a in ambient { depth.append(a.time, Int((max(0, a.mbar - surface) * 100 / (1020 * 9.80665) * 100).rounded())) }
            p.depth = depth
            recording.salinity = .en13319
        }
        if kind == .profile || profileFromCell {
            p.duration = [p.depth, p.temperature, p.ceiling, p.ndl, p.tts, p.ppo2, p.cns].compactMap { $0?.times.last }.max() ?? 0
            p.duration = max(p.duration, p.pressures.compactMap { $0.series.times.last }.max() ?? 0)
            if !p.isEmpty || p.extensions != nil { recording.profile = p }
            if d.maxDepth == nil, let m = p.depth?.maxValue { d.maxDepth = Double(m) / 100 }
            if d.submergedTime == nil, !(p.depth?.isEmpty ?? true) { d.submergedTime = p.duration / 1000 }
            if d.bottomTemperature == nil, let t = p.temperature?.minValue { d.bottomTemperature = Double(t) / 100 }
        }
        if recording.hasContent {
            d.recordings = [recording]
        } else if recording.decoModel != nil || recording.mode != nil {
            // §6.4a: settings alone are no recording; there is nothing to keep them on.
            reader.report(.dropped, "csv.settings-not-carried", "the dive's computer settings describe no recording (no computer, profile or reading is named); not read", row: row, line: line)
        }
        return d
    }

    // MARK: Text forms

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    /// Names in one cell: `Dirk, Linus`, `Leila; Mikko`, `, Kiyan Griffin`.
    static func list(_ value: String) -> [String] {
        let sep: Character = value.contains(";") ? ";" : ","
        return value.split(separator: sep).map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    static func diveType(_ value: String) -> DiveType? {
        let v = value.lowercased().replacingSeparators()
        switch v {
        case "open circuit", "oc", "opencircuit", "scuba", "oc rec", "oc tec", "recreational", "nitrox", "trimix", "air", "gauge": return .openCircuit
        case "closed circuit", "ccr", "rebreather", "closedcircuit", "cc", "ccr closed circuit": return .closedCircuit
        case "semi closed", "scr", "semiclosed", "semi closed circuit", "pscr": return .semiClosed
        case "freedive", "free dive", "freediving", "apnea", "apnoe", "apnée": return .freedive
        case "snorkel", "snorkeling", "snorkelling", "schnorcheln": return .snorkel
        case "surface supplied", "hookah", "ssbe": return .surfaceSupplied
        default: return nil
        }
    }

    /// The English for a word that grades visibility (`Buena` → good), in the languages the
    /// dictionary reads; `nil` for any other text.
    static func visibilityGrade(_ value: String) -> String? {
        visibilityGrades[CSVColumnDictionary.fold(value.trimmingWhitespace())]
    }

    private static let visibilityGrades: [String: String] = [
        "excellent": "excellent", "very good": "very good", "good": "good", "fair": "fair", "average": "average",
        "moderate": "moderate", "poor": "poor", "bad": "poor", "very poor": "very poor",
        "excelente": "excellent", "muy buena": "very good", "buena": "good", "bueno": "good", "regular": "fair",
        "normal": "average", "mala": "poor", "malo": "poor", "muy mala": "very poor",
        "sehr gut": "very good", "gut": "good", "mittel": "average", "massig": "moderate", "schlecht": "poor",
        "excellente": "excellent", "tres bonne": "very good", "bonne": "good", "moyenne": "average", "mauvaise": "poor",
        "ottima": "excellent", "buona": "good", "discreta": "fair", "scarsa": "poor", "pessima": "very poor",
        "uitstekend": "excellent", "goed": "good", "matig": "moderate", "slecht": "poor",
    ]

    /// How a dive was entered, from the words a log writes for it (`boatDive`, `Shore dive`,
    /// `beach`, UDDF's `small-boat` …), in the languages the dictionary reads.
    static func entryType(_ value: String) -> EntryType? {
        let v = String(String.UnicodeScalarView(CSVColumnDictionary.fold(value).unicodeScalars.filter { ("a"..."z").contains($0) }))
        switch v {
        case "boat", "boatdive", "boatentry", "smallboat", "charterboat", "liveaboard", "barge", "barco", "bote", "embarcacion",
             "boot", "bootstauchgang", "bateau", "barca": return .boat
        case "shore", "shoredive", "shoreentry", "beach", "beachdive", "beachshore", "landside", "costa", "orilla", "playa",
             "ufer", "strand", "landtauchgang", "rivage", "plage", "riva", "spiaggia", "kant": return .shore
        case "pier", "pierdive", "jetty", "muelle", "steg", "jetee", "molo", "steiger": return .pier
        case "pool", "pooldive", "piscina", "schwimmbad", "piscine", "zwembad": return .pool
        default: return nil
        }
    }

    static func suitType(_ value: String) -> GearType? {
        let v = value.lowercased()
        if v.hasPrefix("dry") || v.contains("drysuit") || v.contains("trocken") { return .drysuit }
        if v.hasPrefix("wet") || v.contains("wetsuit") || v.contains("mm") || v.contains("shorty") || v.contains("nass") { return .wetsuit }
        return nil
    }
}

extension String {
    fileprivate func replacingSeparators() -> String {
        String(map { $0 == "_" || $0 == "-" || $0 == "(" || $0 == ")" ? " " : $0 }).split(separator: " ").joined(separator: " ")
    }
}
