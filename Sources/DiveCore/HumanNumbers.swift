/// Numbers as umilog prints them to a person (`stats`, `inspect`, `dives`, `show`): metres and
/// °C to a tenth, bar to a whole bar, with no trailing `.0` and never `-0` — a depth gauge's
/// and a thermometer's own precision, not a float's (`45.17175 m` is `45.2 m`).
public enum HumanNumbers {
    /// `v` rounded to `places` decimals (half away from zero), without trailing zeros.
    public static func rounded(_ v: Double, places: Int) -> String {
        guard v.isFinite else { return String(v) }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let r = (v * scale).rounded(.toNearestOrAwayFromZero)
        if r == 0 { return "0" }
        let negative = r < 0
        let whole = Int64(abs(r))
        let s = Int64(scale)
        var text = String(whole / s)
        var fraction = places > 0 ? String(whole % s) : ""
        if places > 0 {
            fraction = String(repeating: "0", count: places - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            if !fraction.isEmpty { text += "." + fraction }
        }
        return (negative ? "-" : "") + text
    }

    /// A measured value as a table writes it (the rule of `schemas/csv-columns.md`, "Precision"):
    /// a value whose shortest decimal text has at most ``sourceFractionDigits`` fraction digits
    /// is the source's own reading and is written as it is (`26.34` m read from UDDF, `8.32` °C);
    /// a value with more is a computed one (`45.17175` m from feet, `23.888889` °C from °F,
    /// `236.0390625` bar from 1/128 bar) and is rounded to `places` decimals, halves away from
    /// zero, in decimal arithmetic. No trailing zeros, never `-0`; empty for NaN or infinity.
    public static func reading(_ v: Double, places: Int) -> String {
        guard let d = DecimalNumber(v) else { return "" }
        if d.exponent >= -sourceFractionDigits { return d.description }
        return (d.rounded(places: places) ?? d).normalized().description
    }

    /// The most fraction digits a value read from a source has (a centimetre, a hundredth of a
    /// degree): more are the trace of a unit conversion or a binary scale.
    public static let sourceFractionDigits = 2

    /// Metres to a tenth: `45.2`.
    public static func metres(_ v: Double) -> String { rounded(v, places: 1) }
    /// °C to a tenth: `12.6`.
    public static func celsius(_ v: Double) -> String { rounded(v, places: 1) }
    /// Bar to a whole bar: `236`.
    public static func bar(_ v: Double) -> String { rounded(v, places: 0) }

    /// A duration in seconds: `1 h 18 min`, `47 min`, `0 min 14 s`.
    public static func duration(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
        if h > 0 { return "\(h) h \(m) min" }
        return s == 0 ? "\(m) min" : "\(m) min \(s) s"
    }
}
