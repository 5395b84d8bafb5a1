import DiveCore

/// What a CSV column holds, in the canonical model's terms. A summary column describes a
/// dive; a sample column one reading of its profile. The raw value is a field's name in a
/// mapping (`--map 'Tiefe=max_depth:m'`, `umilog csv inspect`'s output).
public enum CSVField: String, Sendable, Hashable, CaseIterable, Codable {
    // The dive.
    case diveNumber = "dive_number"
    /// The dive's own id (our `dive_id`), reused as its uuid.
    case diveID = "dive_id"
    case date
    case time
    /// Date and time in one cell.
    case dateTime = "datetime"
    /// The parts of a start in columns of their own (ReefNet's export, some spreadsheets).
    case year, month, day, hour, minute, second
    case utcOffset = "utc_offset"
    case duration
    case maxDepth = "max_depth"
    case avgDepth = "avg_depth"
    case waterTemperature = "water_temp"
    case airTemperature = "air_temp"
    case site
    case location
    case country
    case latitude
    case longitude
    /// Latitude and longitude in one cell (`27.7342, 34.2567`).
    case position
    case trip
    case buddy
    case guide
    case notes
    case visibility
    case weight
    case rating
    /// Open circuit, CCR, freedive … (`open_circuit`, `CCR`, `OC`, `Apnea`).
    case diveType = "dive_type"
    case computer
    case serial
    case tags
    case suit
    case surfaceInterval = "surface_interval"
    /// A whole profile in one cell of a dive's row, as a JSON array (§10.14).
    case profile
    /// The time between the samples of a profile cell that gives depths alone (§10.14).
    case sampleInterval = "sample_interval"
    case surfacePressure = "surface_pressure"
    case gfLow = "gf_low"
    case gfHigh = "gf_high"
    // One cylinder (``CSVColumnMeaning/index`` says which, 1-based).
    case cylinderSize = "cylinder_size"
    case workingPressure = "working_pressure"
    case startPressure = "start_pressure"
    case endPressure = "end_pressure"
    case oxygen = "o2"
    case helium = "he"
    /// The gas's nitrogen, percent: the balance of its oxygen and helium, which the model holds;
    /// read to check them, or to give a helium the file leaves to be worked out (§10.7).
    case nitrogen = "n2"
    /// A gas by name (`Air`, `EAN32`, `Tx18/45`).
    case gas
    // One sample.
    case sampleTime = "sample_time"
    case sampleDepth = "sample_depth"
    case sampleTemperature = "sample_temp"
    case samplePressure = "sample_pressure"
    /// The water's absolute pressure at the computer, from which depth follows (ReefNet).
    case sampleAmbientPressure = "sample_ambient_pressure"
    case ndl
    case tts
    case ceiling
    case ppo2
    case cns
    /// The gradient factor the computer reports, percent.
    case gradientFactor = "gf"
    /// The ppO₂ a rebreather's controller holds to, bar: carried as the profile's `setpoint`
    /// channel (`docs/umilog-extension.md`).
    case setpoint
    /// One O₂ cell's ppO₂, bar (``CSVColumnMeaning/index`` says which cell, 1-based): carried as
    /// the profile's `sensor_ppo2` channel with that `ref`.
    case sensorPPO2 = "sensor_ppo2"
    case events
    /// Known, and deliberately not read: no member of the model holds it (SAC, heart rate,
    /// battery voltage …). Reported once per column, never silently.
    case ignored

    /// True for the columns of one profile sample.
    public var isSample: Bool {
        switch self {
        case .sampleTime, .sampleDepth, .sampleTemperature, .samplePressure, .sampleAmbientPressure, .ndl, .tts, .ceiling, .ppo2, .cns, .gradientFactor, .setpoint, .sensorPPO2, .events: return true
        default: return false
        }
    }

    /// True for the members of one cylinder.
    public var isCylinder: Bool {
        switch self {
        case .cylinderSize, .workingPressure, .startPressure, .endPressure, .oxygen, .helium, .nitrogen, .gas: return true
        default: return false
        }
    }
}

/// A unit a CSV header or value states. The raw value is its spelling in a mapping.
public enum CSVUnit: String, Sendable, Hashable, CaseIterable, Codable {
    case metres = "m"
    case feet = "ft"
    case celsius = "c"
    case fahrenheit = "f"
    case kelvin = "k"
    case bar
    case millibar = "mbar"
    case psi
    case pascal = "pa"
    case seconds = "s"
    case minutes = "min"
    case hours = "h"
    case litres = "l"
    case cubicFeet = "cuft"
    case kilograms = "kg"
    case pounds = "lb"
    case percent = "%"
    /// A fraction of one (`0.32` for 32 %).
    case fraction

    /// What it measures: two units convert only within one dimension.
    public enum Dimension: Sendable, Hashable { case length, temperature, pressure, time, volume, mass, ratio }

    /// The dimension the unit measures.
    public var dimension: Dimension {
        switch self {
        case .metres, .feet: return .length
        case .celsius, .fahrenheit, .kelvin: return .temperature
        case .bar, .millibar, .psi, .pascal: return .pressure
        case .seconds, .minutes, .hours: return .time
        case .litres, .cubicFeet: return .volume
        case .kilograms, .pounds: return .mass
        case .percent, .fraction: return .ratio
        }
    }

    /// `value` in this unit, in the model's unit for its dimension: metres, °C, bar, seconds,
    /// litres, kilograms, percent. (A cylinder size in cubic feet is
    /// the gas it holds at its working pressure, not its capacity: the reader does not take it.)
    public func toModel(_ value: Double) -> Double {
        switch self {
        case .metres, .celsius, .bar, .seconds, .litres, .kilograms, .percent: return value
        case .feet: return value * 0.3048
        case .fahrenheit: return (value - 32) * 5 / 9
        case .kelvin: return value - 273.15
        case .millibar: return value / 1000
        case .psi: return value * 0.0689475729
        case .pascal: return value / 100_000
        case .minutes: return value * 60
        case .hours: return value * 3600
        case .cubicFeet: return value * 28.316846592
        case .pounds: return value * 0.45359237
        case .fraction: return value * 100
        }
    }
}

/// What one column was understood to hold.
public struct CSVColumnMeaning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The quantity the column holds.
    public var field: CSVField
    /// The unit the header states; `nil` when it states none (then the values, a preset or the
    /// field's default decide).
    public var unit: CSVUnit?
    /// The cylinder a cylinder or pressure column belongs to, 1-based (`startpressure (2)`).
    public var index: Int?

    /// Makes a meaning: this field, with the unit the header states and the cylinder it belongs to, when either is given.
    public init(_ field: CSVField, unit: CSVUnit? = nil, index: Int? = nil) {
        self.field = field; self.unit = unit; self.index = index
    }

    /// `max_depth:ft`, `start_pressure#2:bar` — the spelling `--map` takes.
    public var description: String {
        "\(field.rawValue)\(index.map { "#\($0)" } ?? "")\(unit.map { ":\($0.rawValue)" } ?? "")"
    }

    /// False when the unit measures something else than the field holds (`max_depth:bar`).
    public var unitFits: Bool {
        guard let unit, let d = CSVColumnDictionary.dimension(of: field) else { return true }
        return unit.dimension == d
    }

    /// Reads `field[#index][:unit]`, the spelling of ``description``; `nil` for an unknown field or unit, or an index that is not a positive number.
    public init?(mapping text: String) {
        var rest = Substring(text.trimmingWhitespace())
        var unit: CSVUnit?
        if let colon = rest.lastIndex(of: ":") {
            guard let u = CSVUnit(spelling: String(rest[rest.index(after: colon)...])) else { return nil }
            unit = u
            rest = rest[..<colon]
        }
        var index: Int?
        if let hash = rest.lastIndex(of: "#") {
            guard let n = Int(rest[rest.index(after: hash)...]), n > 0 else { return nil }
            index = n
            rest = rest[..<hash]
        }
        guard let field = CSVField(rawValue: String(rest).lowercased()) else { return nil }
        self.init(field, unit: unit, index: index)
    }
}

extension CSVUnit {
    /// A unit as people write it in a header or after a value: `m`, `ft`, `feet`, `°C`, `℃`,
    /// `F`, `bar`, `psi`, `min`, `sec`, `l`, `cuft`, `ft3`, `kg`, `lbs`, `%` … (case-insensitive).
    public init?(spelling: String) {
        let s = spelling.folded
        switch s {
        case "m", "meter", "meters", "metre", "metres", "mtr", "meter(s)", "metri", "metros", "mètres", "meters (m)": self = .metres
        case "ft", "feet", "foot", "ft.", "'": self = .feet
        case "c", "°c", "℃", "ºc", "deg c", "degc", "celsius", "°": self = .celsius
        case "f", "°f", "℉", "ºf", "deg f", "degf", "fahrenheit": self = .fahrenheit
        case "k", "kelvin": self = .kelvin
        case "bar", "bars": self = .bar
        case "mbar", "millibar", "hpa": self = .millibar
        case "psi", "psig", "psia": self = .psi
        case "pa", "pascal": self = .pascal
        case "s", "sec", "secs", "second", "seconds", "sek", "seg", "sekunden", "secondes", "segundos", "secondi": self = .seconds
        case "min", "mins", "minute", "minutes", "minuten", "minuti", "minutos", "minuut", "minuten(min)": self = .minutes
        case "h", "hr", "hrs", "hour", "hours", "std", "stunden", "heures", "ore", "horas": self = .hours
        case "l", "ltr", "liter", "liters", "litre", "litres", "litri", "litros": self = .litres
        case "cuft", "cu ft", "cu.ft", "cu. ft.", "ft3", "ft³", "cf", "cu.ft.": self = .cubicFeet
        case "kg", "kgs", "kilo", "kilos", "kilogram", "kilograms": self = .kilograms
        case "lb", "lbs", "pound", "pounds": self = .pounds
        case "%", "percent", "pct", "prozent": self = .percent
        case "fraction": self = .fraction
        default: return nil
        }
    }
}
