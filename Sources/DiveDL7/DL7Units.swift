import DiveCore

/// What a unit field of `ZRH` declared: nothing (the field is empty or there is no `ZRH`), a
/// unit this reader reads, or a code it does not know (values of that kind are then not read).
enum DL7Declared<Unit: Equatable>: Equatable {
    case undeclared
    case unit(Unit, code: String)
    case unknown(code: String)

    var unit: Unit? { if case .unit(let u, _) = self { return u }; return nil }
}

/// How depth is written (ZRH's depth/pressure unit, the augmented NMRI codes of the spec's
/// Table 10): metres or feet of sea or fresh water, gauge.
enum DL7DepthUnit: Equatable {
    case metres, feet
    /// The code's length unit and water.
    static func parse(_ code: String) -> (DL7DepthUnit, Salinity)? {
        switch code.uppercased() {
        case "MSWG": return (.metres, .salt)
        case "MFWG": return (.metres, .fresh)
        case "FSWG": return (.feet, .salt)
        case "FFWG": return (.feet, .fresh)
        default: return nil
        }
    }
}

/// How altitude is written: thousands of metres (`ThM`), thousands of feet (`ThFt`) or
/// flight levels (`FL`, hundreds of feet).
enum DL7AltitudeUnit: Equatable {
    case thousandsOfMetres, thousandsOfFeet, flightLevel
    static func parse(_ code: String) -> DL7AltitudeUnit? {
        switch code.uppercased() {
        case "THM": return .thousandsOfMetres
        case "THFT": return .thousandsOfFeet
        case "FL": return .flightLevel
        default: return nil
        }
    }
    /// Metres for a value in this unit.
    func metres(_ v: Double) -> Double {
        switch self {
        case .thousandsOfMetres: return v * 1000
        case .thousandsOfFeet: return v * 1000 * 0.3048
        case .flightLevel: return v * 100 * 0.3048
        }
    }
}

/// Temperature: `C`, `F` or `K`.
enum DL7TemperatureUnit: Equatable {
    case celsius, fahrenheit, kelvin
    static func parse(_ code: String) -> DL7TemperatureUnit? {
        switch code.uppercased() {
        case "C": return .celsius
        case "F": return .fahrenheit
        case "K": return .kelvin
        default: return nil
        }
    }
    /// °C, to the hundredth.
    func celsius(_ v: Double) -> Double {
        let c: Double
        switch self {
        case .celsius: c = v
        case .fahrenheit: c = (v - 32) * 5 / 9
        case .kelvin: c = v - 273.15
        }
        return (c * 100).rounded() / 100
    }
}

/// Tank pressure: bar for one of Table 10's pressure codes.
enum DL7PressureUnit: Equatable {
    case bar, psi, atmospheres, kilopascals, megapascals, kgPerSquareCentimetre
    static func parse(_ code: String) -> DL7PressureUnit? {
        switch code.uppercased() {
        case "BAR", "BARG", "BARA": return .bar
        case "PSIA", "PSI", "PSIG": return .psi
        case "ATA", "ATM": return .atmospheres
        case "KPA": return .kilopascals
        case "MPA": return .megapascals
        case "KGSC": return .kgPerSquareCentimetre
        default: return nil
        }
    }
    /// Bar, the value taken as written (a PSIA tank reading is not reduced by one atmosphere:
    /// writers put the gauge's figure there). Unrounded: the channel rounds once, to tenths.
    func bar(_ v: Double) -> Double {
        switch self {
        case .bar: return v
        case .psi: return v * 0.0689475729
        case .atmospheres: return v * 1.01325
        case .kilopascals: return v / 100
        case .megapascals: return v * 10
        case .kgPerSquareCentimetre: return v * 0.980665
        }
    }
}

/// Tank volume: litres (`L`) or cubic feet (`CF`).
enum DL7VolumeUnit: Equatable {
    case litres, cubicFeet
    static func parse(_ code: String) -> DL7VolumeUnit? {
        switch code.uppercased() {
        case "L": return .litres
        case "CF": return .cubicFeet
        default: return nil
        }
    }
}

/// The units a file's `ZRH` declares.
struct DL7Units {
    var depth: DL7Declared<DL7DepthUnit> = .undeclared
    var salinity: Salinity?
    var altitude: DL7Declared<DL7AltitudeUnit> = .undeclared
    var temperature: DL7Declared<DL7TemperatureUnit> = .undeclared
    var pressure: DL7Declared<DL7PressureUnit> = .undeclared
    var volume: DL7Declared<DL7VolumeUnit> = .undeclared

    /// True when another declared unit is imperial (°F, psi, cubic feet, thousands of feet):
    /// the rule for a depth unit left undeclared.
    var otherUnitsImperial: Bool {
        temperature.unit == .fahrenheit || pressure.unit == .psi || volume.unit == .cubicFeet
            || altitude.unit == .thousandsOfFeet || altitude.unit == .flightLevel
    }
}

/// A DL7 time stamp, `YYYY[MM[DD[HHMM[SS[.S…]]]]][+/-ZZZZ]` (the spec's TS): the date, the
/// time when written, the offset when written, and whether the seconds were.
struct DL7Timestamp {
    var date: LocalDate
    var time: TimeOfDay?
    var offset: UTCOffset?
    var hasSeconds = false

    var dateTime: DiveDateTime { DiveDateTime(date: date, time: time, offset: offset) }

    /// Seconds since 1970 of the wall clock (the offset ignored), for differences.
    var wallSeconds: Int? {
        guard let time else { return nil }
        return date.daysSinceEpoch * 86_400 + time.secondsSinceMidnight
    }

    /// Parses the text; `nil` when it is not a time stamp. Accepts the spec's `^precision`
    /// component (ignored), a `.` between date and time (the spec's midnight example
    /// `YYYYMMDD.HHMMSS`) and an offset written `+0200` or `+02:00`.
    init?(_ text: String) {
        var s = Substring(text.split(separator: "^", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        var offset: UTCOffset?
        if let signIndex = s.firstIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = s[s.index(after: signIndex)...].filter { $0 != ":" }
            guard zone.count == 4, zone.allSatisfy(\.isASCIIDigit), let h = Int(zone.prefix(2)), let m = Int(zone.suffix(2)), h <= 14, m < 60 else { return nil }
            offset = .minutes((s[signIndex] == "-" ? -1 : 1) * (h * 60 + m))
            s = s[..<signIndex]
        }
        if s.count > 8, s[s.index(s.startIndex, offsetBy: 8)] == "." {
            s = s.prefix(8) + s.dropFirst(9)
        }
        var fraction: String?
        if let dot = s.firstIndex(of: ".") {
            fraction = String(s[s.index(after: dot)...])
            s = s[..<dot]
            guard fraction!.allSatisfy(\.isASCIIDigit) else { return nil }
        }
        guard s.allSatisfy(\.isASCIIDigit), [8, 12, 14].contains(s.count) else { return nil }
        func num(_ from: Int, _ length: Int) -> Int { Int(s.dropFirst(from).prefix(length))! }
        guard let date = LocalDate(year: num(0, 4), month: num(4, 2), day: num(6, 2)) else { return nil }
        self.date = date
        self.offset = offset
        if s.count >= 12 {
            guard let t = TimeOfDay(hour: num(8, 2), minute: num(10, 2), second: s.count == 14 ? num(12, 2) : 0,
                                    fraction: s.count == 14 ? fraction : nil) else { return nil }
            time = t
            hasSeconds = s.count == 14
        }
    }

    /// ISO 8601, as DiveJSON writes an instant.
    var iso: String {
        var out = date.description
        if let time { out += "T" + time.description }
        if let offset { out += offset.description }
        return out
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// ZDH's recording interval (the spec's Table 11): `Q<n>S`, `Q<n>M`, `Q<n>H` a sample every
/// n seconds, minutes or hours; `V` variable; `D<n>m`/`D<n>f` on depth changes; `C`
/// continuous.
enum DL7Interval: Equatable {
    case every(seconds: Int)
    case other

    static func parse(_ code: String) -> DL7Interval {
        let u = Array(code.uppercased().utf8)
        guard u.count >= 3, u.first == UInt8(ascii: "Q"),
              let n = Int(String(decoding: u.dropFirst().dropLast(), as: UTF8.self)), n > 0, n < 100_000 else { return .other }
        switch u.last! {
        case UInt8(ascii: "S"): return .every(seconds: n)
        case UInt8(ascii: "M"): return .every(seconds: n * 60)
        case UInt8(ascii: "H"): return .every(seconds: n * 3600)
        default: return .other
        }
    }
}

/// A breathing gas by the spec's Table 12 (augmented NMRI gas codes), as far as it names a
/// fixed mix: `1` (or `1.mn`) air, `2.mn…` nitrox of mn.… % oxygen, `4.mn…` heliox of mn.… %
/// oxygen, helium the balance. The other codes state a constant oxygen partial pressure (a
/// rebreather's set point) or a trimix by partial pressures and fractions of the remainder,
/// which a cylinder's fractions cannot hold.
enum DL7Gas {
    /// (oxygen %, helium %) for a fixed-fraction code; `nil` otherwise.
    static func mix(_ code: String) -> (oxygen: Double, helium: Double)? {
        let parts = code.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let head = parts.first, let kind = Int(head) else { return nil }
        let digits = parts.count > 1 ? String(parts[1]) : ""
        guard digits.allSatisfy(\.isASCIIDigit) else { return nil }
        switch kind {
        case 1: return (21, 0)
        case 2, 4:
            // mn.o %: the digits after the point are a fraction of one (2.32 is 32 %).
            guard !digits.isEmpty, let f = Double("0." + digits) else { return nil }
            let o2 = (f * 1000).rounded() / 10
            guard o2 > 0, o2 <= 100 else { return nil }
            return kind == 2 ? (o2, 0) : (o2, ((100 - o2) * 10).rounded() / 10)
        default: return nil
        }
    }
}

/// The spec's Table 8 prefixes of a recording dive computer's code, for the brand.
enum DL7Computers {
    static let brands: [String: String] = [
        "BEA": "Beauchat", "DAC": "Dacor", "OCR": "Ocean Reef", "BON": "Bonica", "CSL": "Cis-Lunar", "CIT": "Citizen",
        "COC": "Cochran", "DES": "Desert Star", "MAR": "Mares", "AER": "Aeris", "SCU": "Scubapro", "SHE": "Sherwood",
        "DRT": "Dive Rite", "USD": "US Divers", "APL": "Apollo", "SUU": "Suunto", "ALA": "Uwatec", "UWA": "Uwatec",
        "SWR": "Shearwater",
    ]
}
