import DiveCore
import DiveXML

/// A dive's profile drawn as an SVG document: depth downward in metres against time in
/// minutes, the surface at the top; the area above a recorded decompression ceiling shaded
/// red; water temperature (°C), each tank's pressure (bar) and a recorded no-decompression
/// limit (minutes) as thin lines, each on its own labelled scale at the right; a marker and a
/// label for every event (gas switches named by their gas, bookmarks, alarms and warnings);
/// the title names the site, the start and the dive's number.
///
/// The same dive gives the same bytes. Every channel is thinned to at most two points a
/// pixel column (``Decimation``), so a profile of any length draws a path of bounded size.
public struct ProfilePlot {
    /// Width of the drawing, pixels (at least 320).
    public var width: Int
    /// Height of the drawing, pixels (at least 240).
    public var height: Int

    /// Makes a plot of this size; a width under 320 or a height under 240 pixels is raised to it.
    public init(width: Int = 960, height: Int = 540) {
        self.width = max(width, 320); self.height = max(height, 240)
    }

    /// The SVG of `dive`'s primary profile.
    ///
    /// - Parameters:
    ///   - sites: the logbook's sites, for the title's site name.
    ///   - number: the number the title gives the dive when it has none of its own (its place
    ///     in the file).
    ///   - location: where the dive is, for an error.
    /// - Throws: `plot.no-profile` when the dive recorded no depth samples.
    public func svg(of dive: Dive, sites: [Site] = [], number: Int? = nil, location: SourceLocation) throws -> [UInt8] {
        guard let profile = dive.profile, let depth = profile.depth, !depth.isEmpty else {
            throw DiveError("plot.no-profile", "the dive has no depth profile to plot (its log recorded no depth samples)", at: location)
        }
        var canvas = PlotCanvas(plot: self, dive: dive, profile: profile, depth: depth)
        canvas.draw(title: Self.title(of: dive, sites: sites, number: number), subtitle: Self.subtitle(of: dive, depth: depth))
        return canvas.svg.bytes
    }

    /// `site — date time (dive N)`, with whichever parts are known.
    static func title(of dive: Dive, sites: [Site], number: Int?) -> String {
        var parts: [String] = []
        if let id = dive.siteUUIDs.first, let site = sites.first(where: { $0.uuid == id }) { parts.append(site.name) }
        if let start = dive.startedAt {
            parts.append(start.time.map { "\(start.date) \($0.description.prefix(5))" } ?? start.date.description)
        }
        var title = parts.isEmpty ? "Dive profile" : parts.joined(separator: " — ")
        if let n = dive.number ?? number { title += " (dive \(n))" }
        return title
    }

    /// `max 28.3 m · 45 min · Suunto D5`.
    static func subtitle(of dive: Dive, depth: Series) -> String {
        var parts: [String] = []
        let deepest = dive.maxDepth ?? Double(depth.maxValue ?? 0) / 100
        parts.append("max \(PlotNumber.text(deepest, decimals: 2)) m")
        if let seconds = dive.submergedTime { parts.append("\(seconds / 60) min") }
        if let device = dive.recordings.first(where: { $0.profile != nil })?.device?.displayName { parts.append(device) }
        return parts.joined(separator: " · ")
    }
}

/// One drawing in progress: the layout, the scales and the document written so far.
struct PlotCanvas {
    let dive: Dive
    let profile: Profile
    let depth: Series
    let width: Double
    let height: Double
    /// The plot area, pixels.
    let left: Double, right: Double, top: Double, bottom: Double
    /// Milliseconds shown, from `start` (0, or earlier for samples before the start) to `end`.
    let start: Int, end: Int
    let time: PlotScale
    let depthScale: PlotScale
    /// The thin lines on their own scales at the right, in drawing order.
    let secondary: [SecondaryChannel]
    var svg = XMLEmitter()

    static let font = "DejaVu Sans, Helvetica, Arial, sans-serif"
    static let depthColour = "#1f5fa8", depthFill = "#dce9f7", ceilingColour = "#d62728"
    static let gridColour = "#e4e4e4", axisColour = "#555555", textColour = "#222222"
    /// Pixels each right-hand scale takes.
    static let axisWidth = 54.0

    init(plot: ProfilePlot, dive: Dive, profile: Profile, depth: Series) {
        self.dive = dive; self.profile = profile; self.depth = depth
        width = Double(plot.width); height = Double(plot.height)
        let series = profile.allSeries
        start = min(0, series.compactMap(\.times.first).min() ?? 0, profile.events.map(\.time).min() ?? 0)
        end = max(start + 1000, profile.duration, series.compactMap(\.times.last).max() ?? 0, profile.events.map(\.time).max() ?? 0)
        let channels = SecondaryChannel.channels(of: profile, cylinders: dive.cylinders)
        left = 62; top = 76; bottom = height - 48
        right = width - 18 - Self.axisWidth * Double(channels.count)
        // Seconds from the start of the dive, ticks on whole minutes (or seconds for a short one).
        let seconds = PlotScale.rounded(0, Double(end - start) / 1000, count: 10, pixels: (left, right),
                                        steps: [10, 15, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 14400, 28800, 86400])
        time = PlotScale(low: Double(start) / 1000, high: Double(end) / 1000, lowPixel: left, highPixel: right, step: seconds.step)
        let deepest = Double(max(depth.maxValue ?? 0, profile.ceiling?.maxValue ?? 0, 100)) / 100
        let rounded = PlotScale.rounded(0, deepest * 1.06, count: 9, pixels: (top, bottom))
        depthScale = PlotScale(low: 0, high: rounded.high, lowPixel: top, highPixel: bottom, step: rounded.step)
        var axes: [SecondaryChannel] = []
        for (i, c) in channels.enumerated() {
            let x = right + 10 + Self.axisWidth * Double(i)
            axes.append(c.placed(at: x, top: top, bottom: bottom))
        }
        secondary = axes
    }

    /// The pixel of `ms` on the time axis.
    func x(_ ms: Int) -> Double { time.pixel(Double(ms) / 1000) }
    func y(depthCentimetres v: Double) -> Double { depthScale.pixel(v / 100) }
    var columns: Int { max(Int(right - left), 1) }

    mutating func draw(title: String, subtitle: String) {
        svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        let w = PlotNumber.text(width), h = PlotNumber.text(height)
        svg.open("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("width", w), ("height", h), ("viewBox", "0 0 \(w) \(h)"),
                         ("font-family", Self.font), ("font-size", "11"), ("fill", Self.textColour)])
        svg.element("title", title)
        svg.empty("rect", [("x", "0"), ("y", "0"), ("width", w), ("height", h), ("fill", "#ffffff")])
        svg.element("text", title, [("class", "title"), ("x", n(left)), ("y", "24"), ("font-size", "16"), ("font-weight", "bold")])
        svg.element("text", subtitle, [("class", "subtitle"), ("x", n(left)), ("y", "42"), ("font-size", "12"), ("fill", "#555555")])
        drawLegend(y: 60)
        drawGrid()
        let depthPath = path(depth) { y(depthCentimetres: Double($0)) }
        drawDepthArea(depthPath.points, depthPath.d)
        drawCeiling()
        drawDepthLine(depthPath.d)
        for channel in secondary { drawSecondary(channel) }
        drawEvents()
        drawFrame()
        svg.close("svg")
    }

    /// A coordinate as the document writes it.
    func n(_ v: Double) -> String { PlotNumber.text(v) }

    /// `M x y L x y …` through the thinned samples of `series`, `value` mapping a sample to
    /// its pixel row.
    func path(_ series: Series, _ value: (Int) -> Double) -> (d: String, points: [(Double, Double)]) {
        let kept = Decimation.indices(series, start: start, end: end, columns: columns)
        var d = ""
        d.reserveCapacity(kept.count * 14)
        var points: [(Double, Double)] = []
        points.reserveCapacity(kept.count)
        for i in kept {
            let p = (x(series.times[i]), value(series.values[i]))
            d += (points.isEmpty ? "M" : "L") + n(p.0) + " " + n(p.1)
            points.append(p)
        }
        return (d, points)
    }

    mutating func drawGrid() {
        svg.open("g", [("class", "grid"), ("stroke", Self.gridColour), ("stroke-width", "1")])
        for v in depthScale.ticks {
            let y = n(depthScale.pixel(v))
            svg.empty("line", [("x1", n(left)), ("y1", y), ("x2", n(right)), ("y2", y)])
        }
        for s in time.ticks {
            let x = n(time.pixel(s))
            svg.empty("line", [("x1", x), ("y1", n(top)), ("x2", x), ("y2", n(bottom))])
        }
        svg.close("g")
        svg.open("g", [("class", "depth-axis"), ("text-anchor", "end")])
        for v in depthScale.ticks {
            svg.element("text", PlotNumber.text(v), [("x", n(left - 6)), ("y", n(depthScale.pixel(v) + 4))])
        }
        svg.element("text", "depth (m)", [("x", "0"), ("y", "0"), ("text-anchor", "middle"),
                                          ("transform", "translate(16 \(n((top + bottom) / 2))) rotate(-90)")])
        svg.close("g")
        svg.open("g", [("class", "time-axis"), ("text-anchor", "middle")])
        let withSeconds = time.step < 60
        for s in time.ticks {
            svg.element("text", PlotNumber.minutes(s, withSeconds: withSeconds), [("x", n(time.pixel(s))), ("y", n(bottom + 16))])
        }
        svg.element("text", "time (min)", [("x", n((left + right) / 2)), ("y", n(bottom + 36))])
        svg.close("g")
    }

    /// The area above a recorded ceiling, from the surface down to it, shaded.
    mutating func drawCeiling() {
        guard let ceiling = profile.ceiling, !ceiling.isEmpty, (ceiling.maxValue ?? 0) > 0 else { return }
        let (d, points) = path(ceiling) { y(depthCentimetres: Double(max($0, 0))) }
        svg.empty("path", [("class", "ceiling"), ("d", "M\(n(points[0].0)) \(n(top))L" + d.dropFirst() + "L\(n(points[points.count - 1].0)) \(n(top))Z"),
                           ("fill", Self.ceilingColour), ("fill-opacity", "0.25"), ("stroke", Self.ceilingColour),
                           ("stroke-width", "0.8")])
    }

    /// The water between the surface and the profile, filled.
    mutating func drawDepthArea(_ points: [(Double, Double)], _ d: String) {
        svg.empty("path", [("class", "depth-area"), ("d", "M\(n(points[0].0)) \(n(top))L" + d.dropFirst() + "L\(n(points[points.count - 1].0)) \(n(top))Z"),
                           ("fill", Self.depthFill), ("stroke", "none")])
    }

    /// The depth line, and the deepest point labelled.
    mutating func drawDepthLine(_ d: String) {
        svg.empty("path", [("class", "depth"), ("d", d), ("fill", "none"), ("stroke", Self.depthColour),
                           ("stroke-width", "1.8"), ("stroke-linejoin", "round")])
        guard let deepest = depth.values.indices.max(by: { depth.values[$0] < depth.values[$1] }) else { return }
        let px = x(depth.times[deepest]), py = y(depthCentimetres: Double(depth.values[deepest]))
        svg.empty("circle", [("class", "max-depth"), ("cx", n(px)), ("cy", n(py)), ("r", "3"), ("fill", Self.depthColour)])
        let anchor = px > (left + right) / 2 ? "end" : "start"
        svg.element("text", "\(PlotNumber.text(Double(depth.values[deepest]) / 100, decimals: 2)) m",
                    [("class", "max-depth"), ("x", n(px + (anchor == "end" ? -6 : 6))), ("y", n(min(py + 14, bottom - 4))),
                     ("text-anchor", anchor), ("font-weight", "bold"), ("fill", Self.depthColour)])
    }

    /// One thin line and its scale at the right.
    mutating func drawSecondary(_ c: SecondaryChannel) {
        svg.open("g", [("class", c.kind), ("stroke", c.colour), ("fill", "none")])
        for line in c.lines {
            var attributes = [("d", path(line.series) { c.scale.pixel(Double($0) / c.divisor) }.d), ("stroke-width", "1.2")]
            if let dash = line.dash { attributes.append(("stroke-dasharray", dash)) }
            svg.open("path", attributes)
            svg.element("title", line.name)
            svg.close("path")
        }
        let x = c.axisX
        svg.empty("line", [("x1", n(x)), ("y1", n(top)), ("x2", n(x)), ("y2", n(bottom)), ("stroke-width", "1")])
        for v in c.scale.ticks {
            let y = n(c.scale.pixel(v))
            svg.empty("line", [("x1", n(x)), ("y1", y), ("x2", n(x + 4)), ("y2", y), ("stroke-width", "1")])
        }
        svg.close("g")
        svg.open("g", [("class", c.kind + "-axis"), ("fill", c.colour)])
        for v in c.scale.ticks {
            svg.element("text", PlotNumber.text(v), [("x", n(x + 6)), ("y", n(c.scale.pixel(v) + 4))])
        }
        svg.element("text", c.unit, [("x", n(x)), ("y", n(top - 6)), ("font-weight", "bold")])
        svg.close("g")
    }

    mutating func drawFrame() {
        svg.empty("rect", [("class", "frame"), ("x", n(left)), ("y", n(top)), ("width", n(right - left)), ("height", n(bottom - top)),
                           ("fill", "none"), ("stroke", Self.axisColour), ("stroke-width", "1")])
    }

    /// What each colour is, in one row under the subtitle.
    mutating func drawLegend(y: Double) {
        var items: [(name: String, colour: String, dash: String?, area: Bool)] = [("depth", Self.depthColour, nil, false)]
        if let c = profile.ceiling, (c.maxValue ?? 0) > 0 { items.append(("ceiling", Self.ceilingColour, nil, true)) }
        for c in secondary { for line in c.lines { items.append((line.name, c.colour, line.dash, false)) } }
        svg.open("g", [("class", "legend")])
        var x = left
        for item in items {
            if item.area {
                svg.empty("rect", [("x", n(x)), ("y", n(y - 8)), ("width", "18"), ("height", "9"), ("fill", item.colour), ("fill-opacity", "0.25"),
                                   ("stroke", item.colour), ("stroke-width", "0.8")])
            } else {
                var attributes = [("x1", n(x)), ("y1", n(y - 4)), ("x2", n(x + 18)), ("y2", n(y - 4)), ("stroke", item.colour), ("stroke-width", "2")]
                if let dash = item.dash { attributes.append(("stroke-dasharray", dash)) }
                svg.empty("line", attributes)
            }
            svg.element("text", item.name, [("x", n(x + 22)), ("y", n(y))])
            x += 22 + Double(item.name.count) * 6.6 + 14
        }
        svg.close("g")
    }
}
