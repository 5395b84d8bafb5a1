import DiveCore

/// One value as a Shearwater log spells it: an element's text (`<maxDepth>20</maxDepth>`), a
/// table's cell (`dive_logs.maxDepth`) or a number decoded from a PNF log, with its name as
/// written and where it was.
struct ShearwaterValue {
    /// The element's or column's name, as written (a PNF log's: the XML export's name).
    var name: String
    /// The text as written, or the number a binary source (a PNF log) decoded: no text is made
    /// for it but for a message.
    private var content: Content
    /// XML: the line the element closed on. A table: the row (1-based) the cell is in.
    var line: Int

    private enum Content { case text(String), number(DecimalNumber) }

    /// A value written as text, trimmed and not empty (an empty value is not recorded).
    init(name: String, text: String, line: Int) {
        self.name = name
        content = .text(text)
        self.line = line
    }

    /// A value decoded as a number.
    init(name: String, number: DecimalNumber, line: Int) {
        self.name = name
        content = .number(number)
        self.line = line
    }

    /// The text; a decoded number's is its decimal text, made when asked (for a message).
    var text: String {
        switch content {
        case .text(let t): return t
        case .number(let d): return d.description
        }
    }

    /// The decoded number, where the source is binary.
    var decoded: DecimalNumber? {
        if case .number(let d) = content { return d }
        return nil
    }

    /// The value as a decimal: the decoded number, or the text parsed.
    var decimal: DecimalNumber? {
        switch content {
        case .text(let t): return DecimalNumber(t)
        case .number(let d): return d
        }
    }
}

/// A value read as a number: exact, and as a `Double` made once.
struct ShearwaterNumber {
    let decimal: DecimalNumber
    let value: Double

    init(_ decimal: DecimalNumber) {
        self.decimal = decimal
        value = Self.double(decimal)
    }

    /// The value's number; `nil` for a state or text that is no number.
    init?(_ v: ShearwaterValue) {
        guard let d = v.decimal else { return nil }
        self.init(d)
        guard value.isFinite else { return nil }
    }

    /// `d` as a `Double` without making its text where that is exact: a significand below 2^53
    /// and a power of ten up to 22 are exact doubles, so one multiplication or division is
    /// correctly rounded (Clinger's fast path), the value `DecimalNumber.doubleValue` parses.
    static func double(_ d: DecimalNumber) -> Double {
        guard d.significand.magnitude < 1 << 53, abs(d.exponent) <= 22 else { return d.doubleValue }
        let p = powersOfTen[abs(d.exponent)]
        return d.exponent < 0 ? Double(d.significand) / p : Double(d.significand) * p
    }

    private static let powersOfTen: [Double] = (0...22).map { e in (0..<e).reduce(1.0) { r, _ in r * 10 } }
}

/// One sample record: a `<diveLogRecord>` or a `dive_log_records` row, its fields by lowercased name.
struct ShearwaterRecord {
    var fields: [String: ShearwaterValue] = [:]
    /// XML: the line the record opened on. A table: its row.
    var line: Int
}

/// A Shearwater log in the shape both of its spellings share: Shearwater Desktop's XML export
/// serialises the `dive_logs` and `dive_log_records` tables of its database, element for column
/// (`<diveLog><maxDepth>` is `dive_logs.maxDepth`), so one reading serves both.
struct ShearwaterLogDraft {
    /// `<diveLog>`'s value children, or a `dive_logs` row's cells, by lowercased name.
    var scalars: [String: ShearwaterValue] = [:]
    var records: [ShearwaterRecord] = []
    /// The start, where the log states it decoded (a PNF log's clock): `startdate` then only
    /// names and locates it.
    var start: DiveDateTime?
    subscript(_ name: String) -> ShearwaterValue? { scalars[name] }

    /// The `<diveLog>` children (and `dive_logs` columns) the reading takes; what it then refuses
    /// it reports itself. Everything else is not carried, which the XML accountant and the table
    /// reader's column accounting report.
    static let scalarNames: Set<String> = [
        "number", "gfmin", "gfmax", "imperialunits", "startcns", "endcns", "startdate", "computerfirmware",
        "computersoftwareversion", "maxdepth", "maxtime", "computerserial", "decomodel", "vpmbconservatism",
        "startsurfacepressure",
    ]
    /// The `<diveLogRecord>` children (and `dive_log_records` columns) the reading takes.
    static let recordNames: Set<String> = [
        "currenttime", "currentdepth", "ttsmins", "averageppo2", "fractiono2", "fractionhe", "currentndl",
        "currentcircuitsetting", "circuitswitchtype", "watertemp", "decoceiling", "cnspercent", "gf99",
        "tank0pressurepsi", "tank1pressurepsi", "tank2pressurepsi", "tank3pressurepsi",
        "aisensor0_pressurepsi", "aisensor1_pressurepsi", "aisensor2_pressurepsi", "aisensor3_pressurepsi",
    ]
}

/// How one of the two spellings names and locates what the reading reports.
protocol ShearwaterSpelling {
    /// The finding codes' prefix: `shearwater-xml`, `shearwater-db`.
    var format: String { get }
    var file: String { get }
    /// How a message names a value: `<maxDepth>`, `dive_logs.maxDepth`.
    func named(_ name: String, record: Bool) -> String
    /// Where a log value is.
    func location(of value: ShearwaterValue) -> SourceLocation
    /// Where a record's value is (`index` is the record's place among the log's records).
    func location(record index: Int, _ value: ShearwaterValue) -> SourceLocation
    /// Where a record is.
    func location(record index: Int, line: Int) -> SourceLocation
    /// Where the log as a whole is.
    var logLocation: SourceLocation { get }
}

/// A record field the reading takes: its name, lowercased, and the keys of the counted findings
/// about it (``ShearwaterLogReading/tally``), made once rather than per record.
struct RecordField: Sendable {
    /// The name as the XML export spells it, which a decoded PNF sample's values take.
    let name: String
    /// The lowercased name, the record's key.
    let key: String
    /// Keys: a value out of range, not a number, on the instant of an earlier one, a zero.
    let outOfRange: String, notANumber: String, sameInstant: String, zero: String

    init(_ name: String) {
        self.name = name
        key = name.lowercased()
        outOfRange = key + "\u{1F}range"
        notANumber = key + "\u{1F}nan"
        sameInstant = key + "\u{1F}instant"
        zero = key + "\u{1F}zero"
    }

    static let time = RecordField("currentTime"), depth = RecordField("currentDepth"), temperature = RecordField("waterTemp")
    static let ndl = RecordField("currentNdl"), tts = RecordField("ttsMins"), ppo2 = RecordField("averagePPO2")
    static let cns = RecordField("CNSPercent"), ceiling = RecordField("decoCeiling"), gf = RecordField("gf99")
    static let o2 = RecordField("fractionO2"), he = RecordField("fractionHe")
    static let circuit = RecordField("currentCircuitSetting"), circuitSwitch = RecordField("circuitSwitchType")
    /// The four tank pressure fields, by transmitter: the XML names, then the database's.
    static let tanks: [[RecordField]] = (0..<4).map { [RecordField("tank\($0)pressurePSI"), RecordField("aiSensor\($0)_PressurePSI")] }
}

extension ShearwaterRecord {
    subscript(_ field: RecordField) -> ShearwaterValue? { fields[field.key] }

    /// Sets a decoded number (a PNF sample's).
    mutating func set(_ field: RecordField, _ number: DecimalNumber) {
        fields[field.key] = ShearwaterValue(name: field.name, number: number, line: line)
    }

    /// Sets decoded text (a PNF sample's circuit or transmitter state).
    mutating func set(_ field: RecordField, text: String) {
        fields[field.key] = ShearwaterValue(name: field.name, text: text, line: line)
    }
}

/// What one sample's field says when it is not a number: Shearwater writes its transmitter and
/// gas-time states as text in numeric fields (`AI is off`, `UNAVAILABLE_SENSOR_DATA`, `Not paired`).
func isShearwaterState(_ text: String) -> Bool {
    Double(text) == nil && text.unicodeScalars.contains { $0.properties.isAlphabetic }
}

/// The units a log's numbers are in: `imperialUnits` says, depths in feet and temperatures in °F.
enum ShearwaterUnits {
    case metric, imperial

    /// Metres of a depth in these units.
    func metres(_ n: ShearwaterNumber) -> Double {
        switch self {
        case .metric: return n.value
        case .imperial: return n.value * 0.3048
        }
    }

    /// Metres of a depth in these units, as a decimal (exact for metres); `nil` past a decimal's range.
    func metresDecimal(_ n: ShearwaterNumber) -> DecimalNumber? {
        self == .metric ? n.decimal : DecimalNumber(metres(n))
    }

    /// Centimetres of a depth in these units, rounded half away from zero.
    func centimetres(_ n: ShearwaterNumber) -> Int? {
        switch self {
        case .metric: return n.decimal.scaledInteger(2)
        case .imperial: return Int(exactly: (n.value * 30.48).rounded(.toNearestOrAwayFromZero))
        }
    }

    /// °C of a temperature in these units.
    func celsius(_ n: ShearwaterNumber) -> Double {
        switch self {
        case .metric: return n.value
        case .imperial: return (n.value - 32) * 5 / 9
        }
    }

    /// Hundredths of a °C, rounded half away from zero.
    func centidegrees(_ n: ShearwaterNumber) -> Int? {
        switch self {
        case .metric: return n.decimal.scaledInteger(2)
        case .imperial: return Int(exactly: ((n.value - 32) * 500 / 9).rounded(.toNearestOrAwayFromZero))
        }
    }
}

/// Bar per pound per square inch.
let barPerPSI = 0.0689475729

/// What a transmitter's tank field says: a sample's `tank0pressurePSI` (`aiSensor0_PressurePSI`),
/// or `dive_details.Tank1PressureStart` … `Tank4PressureEnd`. One rule for all of them
/// (``ShearwaterUnits/tankPressure(_:)``), each outcome reported by the reader.
enum TankPressure: Equatable {
    /// A pressure, in tenths of a bar.
    case bar(tenths: Int)
    /// 0 psi, or a transmitter code at the top of its range (8180 to 8191 psi: 8184 and 8190
    /// in the logs in hand): no reading, as Subsurface's importer reads them.
    case noReading
    /// Text such as `AI is off`, `No comms for 90 seconds`: the transmitter's state, not a reading.
    case state
    /// A number no cylinder holds: negative, too small to round to 0.1 bar, or past
    /// ``InputLimits/Range/tankBar``.
    case outOfRange
    /// Neither a number nor a state.
    case notANumber
}

extension ShearwaterUnits {
    /// The most tenths of a bar a tank holds (``InputLimits/Range/tankBar``).
    static let tankTenthsLimit = InputLimits.Range.tankBar.upperBound.scaledInteger(1)!

    /// What a tank field's text says: psi, converted to tenths of a bar (rounded half away from
    /// zero), a mark or state of no reading, or no pressure at all.
    static func tankPressure(_ text: String) -> TankPressure {
        guard let d = DecimalNumber(text) else {
            if isShearwaterState(text) { return .state }
            // Decimal text too large for a DecimalNumber (`1e999`) is a number, and no pressure.
            let decimalSyntax = text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 | 0x20 == 0x65 }
            return decimalSyntax && Double(text) != nil ? .outOfRange : .notANumber
        }
        return tankPressure(psi: ShearwaterNumber.double(d))
    }

    /// What a tank value says: a decoded number is read as such, text by ``tankPressure(_:)-(String)``.
    static func tankPressure(_ v: ShearwaterValue) -> TankPressure {
        if let d = v.decoded { return tankPressure(psi: ShearwaterNumber.double(d)) }
        return tankPressure(v.text)
    }

    private static func tankPressure(psi: Double) -> TankPressure {
        if psi == 0 || (8180...8191).contains(psi) { return .noReading }
        guard psi > 0 else { return .outOfRange }
        let tenths = (psi * barPerPSI * 10).rounded(.toNearestOrAwayFromZero)
        guard tenths >= 1, tenths <= Double(tankTenthsLimit) else { return .outOfRange }
        return .bar(tenths: Int(tenths))
    }
}
