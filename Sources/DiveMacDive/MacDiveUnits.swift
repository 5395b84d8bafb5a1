import DiveCore

/// The unit system of a MacDive file: `<units>Metric</units>` (metres, °C, bar, kg, litres) or
/// `<units>Imperial</units>` (feet, °F, psi, lb, cubic feet of gas at the working pressure).
/// Every value with a unit follows it; times are seconds in both (the surface interval minutes).
enum MacDiveUnits: String {
    case metric = "Metric", imperial = "Imperial"

    /// Metres from the file's depth (or altitude, or visibility).
    func metres(_ v: Double) -> Double { self == .metric ? v : v * 0.3048 }
    /// °C from the file's temperature.
    func celsius(_ v: Double) -> Double { self == .metric ? v : (v - 32) * 5 / 9 }
    /// Bar from the file's pressure.
    func bar(_ v: Double) -> Double { self == .metric ? v : v * 0.0689475729 }
    /// Kilograms from the file's weight.
    func kilograms(_ v: Double) -> Double { self == .metric ? v : v * 0.45359237 }

    /// The magnitude rule for a dive of a file that does not say its units: a cylinder pressure
    /// past 400 can only be psi (no cylinder is filled past 350 bar) and one from 1 to 400 only
    /// bar (a tank read in psi under 400 is empty); failing pressures, a water temperature past
    /// 40 can only be °F (no dive water is warmer than 40 °C) and one from 1 to 40 only °C (40 °F
    /// is 4 °C, colder than almost any logged dive); failing both, metric. Returns the system
    /// and the evidence in words.
    static func byMagnitude(pressures: [Double], temperatures: [Double]) -> (MacDiveUnits, String) {
        if let p = pressures.max(), p > 0 {
            let shown = DecimalNumber(p)?.normalized().description ?? String(p)
            return p > 400 ? (.imperial, "a cylinder pressure of \(shown), which only psi can be")
                           : (.metric, "cylinder pressures up to \(shown), which only bar can be")
        }
        if let t = temperatures.max(), t > 0 {
            let shown = DecimalNumber(t)?.normalized().description ?? String(t)
            return t > 40 ? (.imperial, "a water temperature of \(shown), which only °F can be")
                          : (.metric, "water temperatures up to \(shown), which only °C can be")
        }
        return (.metric, "no pressure or temperature to tell by, so metric, MacDive's default")
    }
}

extension MacDiveState {
    /// The units of dive `d`: the file's `<units>`, else the magnitude rule (reported).
    func units(of d: MacDiveDraft, path: String) -> MacDiveUnits {
        if let declaredUnits { return declaredUnits }
        var pressures: [Double] = []
        for g in d.gases {
            for name in [MacDiveName.pressureStart, .pressureEnd, .workingPressure] {
                if let t = g[name]?.text, let v = Double(t) { pressures.append(v) }
            }
        }
        pressures += d.samples.compactMap(\.pressure)
        var temperatures: [Double] = []
        for name in [MacDiveName.tempHigh, .tempLow] {
            if let t = d[name]?.text, let v = Double(t) { temperatures.append(v) }
        }
        temperatures += d.samples.compactMap(\.temperature)
        let (units, why) = MacDiveUnits.byMagnitude(pressures: pressures, temperatures: temperatures)
        let said = unitsText.map { "<units> says \"\($0.text)\", which is neither Metric nor Imperial" } ?? "the file has no <units>"
        report(.resolved, "units-by-magnitude", "\(said): the dive is read as \(units.rawValue) by the size of its values (\(why))",
               path: path, line: d.line)
        return units
    }
}
