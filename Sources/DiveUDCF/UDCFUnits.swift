import DiveCore

/// The system of units a UDCF file's values are in: what its `<units>` names, or what the
/// mapping's magnitude rule decides for a file that names none (`docs/udcf-mapping.md`).
struct UDCFUnits {
    enum System: String { case metric, imperial, si = "SI" }
    var system: System

    /// The system `<units>` names (`Metric`, `imperial`, `SI`, any case); `nil` for another word.
    static func named(_ text: String) -> System? {
        switch text.lowercased() {
        case "metric": return .metric
        case "imperial": return .imperial
        case "si": return .si
        default: return nil
        }
    }

    var depthUnit: String { system == .imperial ? "ft" : "m" }
    var temperatureUnit: String {
        switch system {
        case .metric: return "°C"
        case .imperial: return "°F"
        case .si: return "K"
        }
    }
    var pressureUnit: String {
        switch system {
        case .metric: return "bar"
        case .imperial: return "psi"
        case .si: return "Pa"
        }
    }

    /// A depth or an altitude in metres.
    func metres(_ v: Double) -> Double { system == .imperial ? v * 0.3048 : v }

    /// A temperature in °C.
    func celsius(_ v: Double) -> Double {
        switch system {
        case .metric: return v
        case .imperial: return (v - 32) * 5 / 9
        case .si: return v - 273.15
        }
    }

    /// A pressure in bar.
    func bar(_ v: Double) -> Double {
        switch system {
        case .metric: return v
        case .imperial: return v * 0.068_947_572_9
        case .si: return v / 100_000
        }
    }

    /// The magnitude rule for a pressure a metric file writes: no cylinder holds 1000 bar, and
    /// divelogs.de writes Pascal under `<units>Metric` (16499000 for 165 bar).
    static let metricPascalAbove = 1000.0

    /// The magnitude rule for a file with no `<units>`: water a diver meets is below 40 °C and
    /// above 40 °F, so a dive whose `<temperature>` is above 40 is read as imperial, any other
    /// as metric.
    static let absentImperialAbove = 40.0
}

/// Rounds to the model's integer scale (`scale` digits after the point).
func scaled(_ v: Double, _ scale: Double) -> Int { Int((v * scale).rounded(.toNearestOrAwayFromZero)) }

/// `v` with its float noise cut at six places (a unit conversion's `12.190000000000001`).
func tidy(_ v: Double) -> Double { (v * 1_000_000).rounded() / 1_000_000 }
