import DiveCore

/// A quantity drawn as thin lines on its own scale at the right of the plot: water
/// temperature (°C), tank pressure (bar, a line per tank, told apart by their dashes) and the
/// no-decompression limit the computer showed (minutes).
struct SecondaryChannel {
    struct Line {
        let name: String
        let series: Series
        let dash: String?
    }

    /// The SVG class of its group: `temperature`, `pressure` or `ndl`.
    let kind: String
    /// The scale's heading.
    let unit: String
    let colour: String
    /// What a sample's integer is divided by for the scale's unit.
    let divisor: Double
    let lines: [Line]
    /// Whether the scale starts at zero (pressure, NDL) or fits the readings (temperature).
    let fromZero: Bool
    /// Where its scale stands, once placed.
    private(set) var axisX = 0.0
    private(set) var scale = PlotScale(low: 0, high: 1, lowPixel: 1, highPixel: 0, step: 1)

    static let dashes: [String?] = [nil, "6 3", "2 2", "8 3 2 3"]

    /// The channels `profile` recorded, in the order their scales stand.
    static func channels(of profile: Profile, cylinders: [Cylinder]) -> [SecondaryChannel] {
        var out: [SecondaryChannel] = []
        if let t = profile.temperature, !t.isEmpty {
            out.append(SecondaryChannel(kind: "temperature", unit: "°C", colour: "#d95f02", divisor: 100,
                                        lines: [Line(name: "temperature", series: t, dash: nil)], fromZero: false))
        }
        let pressures = profile.pressures.filter { !$0.series.isEmpty }
        if !pressures.isEmpty {
            let lines = pressures.enumerated().map { i, p in
                Line(name: tankName(p.gasNumber, cylinders: cylinders), series: p.series, dash: dashes[i % dashes.count])
            }
            out.append(SecondaryChannel(kind: "pressure", unit: "bar", colour: "#1b9e77", divisor: 10, lines: lines, fromZero: true))
        }
        if let ndl = profile.ndl, !ndl.isEmpty {
            out.append(SecondaryChannel(kind: "ndl", unit: "NDL min", colour: "#7570b3", divisor: 60,
                                        lines: [Line(name: "NDL", series: ndl, dash: "1 2")], fromZero: true))
        }
        return out
    }

    /// `tank 2 (EAN50)`: the cylinder's place in the dive and its gas; `gas N` for a channel
    /// whose cylinder the dive does not list.
    static func tankName(_ gasNumber: Int, cylinders: [Cylinder]) -> String {
        guard let i = cylinders.firstIndex(where: { $0.gasNumber == gasNumber }) else { return "gas \(gasNumber)" }
        return "tank \(i + 1)" + (gasName(cylinders[i]).map { " (\($0))" } ?? "")
    }

    /// The name a diver gives the cylinder's gas: the log's own name, else the mix's.
    static func gasName(_ c: Cylinder) -> String? {
        if let name = c.gasName?.trimmingWhitespace(), !name.isEmpty { return name }
        return c.gasLabel
    }

    /// The channel with its scale at `x`, spanning `top…bottom` (highest value at the top).
    func placed(at x: Double, top: Double, bottom: Double) -> SecondaryChannel {
        var values = lines.flatMap { [$0.series.minValue, $0.series.maxValue] }.compactMap { $0 }.map { Double($0) / divisor }
        if fromZero { values.append(0) }
        var low = values.min() ?? 0, high = values.max() ?? 1
        if !fromZero {
            // A margin, so that the line does not run along the frame.
            let margin = max((high - low) * 0.05, 0.1)
            low -= margin; high += margin
        }
        var c = self
        c.axisX = x
        c.scale = PlotScale.rounded(low, high, count: 6, pixels: (bottom, top))
        return c
    }
}
