import DiveCore

/// How Subsurface spells a measurement in its XML (`core/save-xml.cpp` and
/// `core/membuffer.cpp`): the number, a space and the unit, always metric. The numbers are
/// decimal text computed exactly (``DecimalNumber``), never formatted from a floating-point
/// product, so `145` cm is `1.45 m` and not `1.4500000000000002 m`.
enum SSRFText {
    /// A decimal as Subsurface's `put_milli` prints one: at least one digit after the point
    /// (`30.0`, `1.45`, `24.4`, `-1.5`), and every digit the value has beyond it (where
    /// Subsurface rounds to thousandths, the value is written exactly rather than rounded).
    static func decimal(_ d: DecimalNumber) -> String {
        let n = d.normalized()
        if n.exponent >= 0 { return n.description + ".0" }
        return n.description
    }

    /// A model `Double` (metres, bar, °C, litres, kg, percent) as ``decimal(_:)`` writes it;
    /// `nil` for a value no decimal spells (NaN, infinity).
    static func decimal(_ v: Double) -> String? { DecimalNumber(v).map(decimal) }

    /// An integer-scaled channel value (`145` at exponent `-2` is `1.45`).
    static func scaled(_ value: Int, _ exponent: Int) -> String {
        decimal(DecimalNumber(significand: Int64(value), exponent: exponent))
    }

    /// A plain decimal without a forced point, as Subsurface writes its counts and CNS
    /// (`11`, `11.5`).
    static func plain(_ v: Double) -> String? { DecimalNumber(v).map { $0.normalized().description } }

    /// An exact decimal without a forced point, as Subsurface writes its g/l (`1025`, `1025.5`).
    static func plainDecimal(_ d: DecimalNumber) -> String { d.normalized().description }

    /// Seconds as Subsurface's clock: `M:SS`, the minutes unbounded and the seconds two
    /// digits below 60 (`4010` is `66:50`). `nil` for a negative time, which it cannot spell.
    static func clock(_ seconds: Int) -> String? {
        guard seconds >= 0 else { return nil }
        let s = seconds % 60
        return "\(seconds / 60):\(s < 10 ? "0" : "")\(s)"
    }

    /// `M:SS min`.
    static func minutes(_ seconds: Int) -> String? { clock(seconds).map { $0 + " min" } }

    /// Milliseconds to the whole second Subsurface's sample and event times hold, halves up;
    /// `nil` before the start of the dive.
    static func second(ms: Int) -> Int? {
        guard ms >= 0 else { return nil }
        return ms / 1000 + (ms % 1000 >= 500 ? 1 : 0)
    }

    /// A coordinate as Subsurface's `put_degrees` writes it: whole degrees, a point and
    /// exactly six digits (micro-degrees), a leading `-` for south and west; and whether
    /// that rounded the value.
    static func degrees(_ v: Double) -> (text: String, rounded: Bool)? {
        guard let d = DecimalNumber(v), let micro = d.scaledInteger(6) else { return nil }
        let rounded = DecimalNumber(significand: Int64(micro), exponent: -6) != d
        let sign = micro < 0 ? "-" : ""
        let m = micro.magnitude
        let fraction = String(m % 1_000_000)
        return ("\(sign)\(m / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)", rounded)
    }

    /// `YYYY-MM-DD`.
    static func date(_ d: LocalDate) -> String { d.description }

    /// `hh:mm:ss`, without any fraction of a second (Subsurface keeps whole seconds).
    static func time(_ t: TimeOfDay) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return "\(two(t.hour)):\(two(t.minute)):\(two(t.second))"
    }

    /// Lowercase hexadecimal, eight digits.
    static func hex8(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 8 - s.count)) + s
    }
}

extension SSRF {
    /// The `g/l` Subsurface writes in `<water @salinity>` for each water density a computer
    /// can assume (its `FRESHWATER_SALINITY`, `EN13319_SALINITY` and `SEAWATER_SALINITY`,
    /// kept in grams per ten litres and written divided by ten).
    public static let salinityGramsPerLitre: [Salinity: Int] = [.fresh: 1000, .en13319: 1020, .salt: 1030]

    /// The dive's `@watersalinity` (g/l) for each water type, as Subsurface's reader (and
    /// ours) tells them apart.
    public static let waterSalinity: [WaterType: Int] = [.fresh: 1000, .brackish: 1010, .salt: 1030]

    /// A deco model as the `<extradata key='Deco model'>` Subsurface writes: `GF 40/85` for
    /// Bühlmann with gradient factors, else the model's name (`VPM-B +3`); `left` when a member
    /// (the conservatism, or a name beside gradient factors) is not in it. `nil` when neither spells it.
    static func decoModelText(_ m: DecoModel) -> (value: String, left: Bool)? {
        if m.algorithm == "buhlmann", let low = m.gfLow, let high = m.gfHigh {
            return ("GF \(low)/\(high)", m.name != nil || m.conservatism != nil || m.extensions != nil)
        }
        if let name = m.name?.trimmingWhitespace(), !name.isEmpty {
            return (name, m.algorithm != nil || m.gfLow != nil || m.gfHigh != nil || m.conservatism != nil || m.extensions != nil)
        }
        return nil
    }

    /// `<divecomputer @dctype>` for each recording mode Subsurface has (its `divemode_text`);
    /// a gauge has none.
    public static let diveComputerType: [RecordingMode: String] = [
        .openCircuit: "OC", .closedCircuit: "CCR", .semiClosed: "PSCR", .freedive: "Freedive",
    ]

    /// `<cylinder @use>` for each role (Subsurface's `cylinderuse_text`). Subsurface has one
    /// open-circuit use, `OC-gas`, for a bottom gas and a deco gas alike.
    public static let cylinderUse: [CylinderRole: String] = [
        .bottom: "OC-gas", .deco: "OC-gas", .diluent: "diluent", .oxygen: "oxygen",
    ]

    /// How each event type is written as an `<event>`: libdivecomputer's event number
    /// (`@type`) where it has one that means the same thing, and the `@name` Subsurface gives
    /// that number (`core/libdivecomputer.cpp`, `get_event_name`); the types libdivecomputer
    /// has no number for are written by name alone, as Subsurface writes a computer's own
    /// named alarms (`name='Safety Stop Violation'`).
    public static func eventSpelling(_ type: EventType) -> (type: Int?, name: String) {
        switch type {
        case .gasSwitch: return (25, "gaschange")
        case .bookmark: return (8, "bookmark")
        case .ascentRate: return (3, "ascent")
        case .ceilingViolation: return (4, "ceiling")
        case .safetyStop: return (10, "safety stop")
        case .safetyStopMandatory: return (13, "safety stop (mandatory)")
        case .deepStop: return (14, "deepstop")
        case .safetyStopViolation: return (nil, "safety stop violation")
        case .deepStopViolation: return (nil, "deep stop violation")
        case .ndlReached: return (nil, "ndl reached")
        case .ppo2High: return (nil, "ppO2 high")
        case .pressureLow: return (nil, "pressure low")
        case .depthAlarm: return (nil, "depth alarm")
        }
    }
}
