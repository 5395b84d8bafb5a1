/// A linear scale from data values onto pixels, with the round values its gridlines and
/// labels stand at.
struct PlotScale {
    /// The data range shown, `low` at `lowPixel` and `high` at `highPixel`.
    let low: Double
    let high: Double
    let lowPixel: Double
    let highPixel: Double
    /// The distance between ticks, in data units.
    let step: Double

    /// The pixel of `value`.
    func pixel(_ value: Double) -> Double {
        high == low ? lowPixel : lowPixel + (value - low) / (high - low) * (highPixel - lowPixel)
    }

    /// The tick values from `low` to `high`, multiples of `step`.
    var ticks: [Double] {
        var out: [Double] = []
        var i = (low / step).rounded(.up)
        while i * step <= high + step * 1e-9 {
            out.append(i * step)
            i += 1
        }
        return out
    }

    /// A scale over `minimum…maximum` widened to whole steps, with about `count` ticks; the
    /// step is 1, 2 or 5 times a power of ten (`steps` picks from a list instead). An empty
    /// range is widened by one step either way.
    static func rounded(_ minimum: Double, _ maximum: Double, count: Int, pixels: (Double, Double),
                        steps: [Double]? = nil) -> PlotScale {
        let span = maximum > minimum ? maximum - minimum : max(abs(maximum), 1)
        let step = steps.map { list in list.first { $0 * Double(count) >= span } ?? list.last! } ?? niceStep(span / Double(count))
        var low = (minimum / step).rounded(.down) * step
        var high = (maximum / step).rounded(.up) * step
        if high <= low { low -= step; high += step }
        return PlotScale(low: low, high: high, lowPixel: pixels.0, highPixel: pixels.1, step: step)
    }

    /// The smallest of 1, 2 and 5 times a power of ten that is at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= raw { magnitude *= 10 }
        while magnitude > raw { magnitude /= 10 }
        for m in [1.0, 2, 5, 10] where m * magnitude >= raw { return m * magnitude }
        return 10 * magnitude
    }
}

/// Numbers as the drawing writes them: at most one decimal, no trailing `.0`, no `-0`, and
/// the same text for the same value on every machine (no locale, no `%g`).
enum PlotNumber {
    static func text(_ v: Double, decimals: Int = 1) -> String {
        guard v.isFinite else { return "0" }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let n = Int((v * Double(scale)).rounded(.toNearestOrAwayFromZero))
        if n == 0 { return "0" }
        let sign = n < 0 ? "-" : ""
        let whole = abs(n) / scale, fraction = abs(n) % scale
        guard fraction != 0 else { return sign + String(whole) }
        var digits = String(fraction)
        while digits.count < decimals { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        return sign + String(whole) + "." + digits
    }

    /// Minutes for a time-axis label: `12`, or `1:30` when the step is under a minute.
    static func minutes(_ seconds: Double, withSeconds: Bool) -> String {
        let s = Int(seconds.rounded())
        guard withSeconds else { return String(s / 60) }
        let rest = s % 60
        return "\(s / 60):\(rest < 10 ? "0" : "")\(rest)"
    }
}
