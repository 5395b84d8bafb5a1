import DiveCore

/// How an event is drawn: a gas switch as a green triangle named by its gas, a bookmark as a
/// blue square, an alarm or warning as a red circle, a planned stop as a grey diamond, and an
/// event of no known type by its own label.
struct EventMarker {
    enum Shape { case triangle, square, circle, diamond }

    /// The SVG class: `gas-switch`, `bookmark`, `alarm`, `stop` or `other`.
    let kind: String
    let label: String
    let colour: String
    let shape: Shape

    init(_ event: Event, cylinders: [Cylinder]) {
        switch event.type {
        case .gasSwitch:
            kind = "gas-switch"; colour = "#1a7f37"; shape = .triangle
            label = event.gasNumber.map { n in
                cylinders.first { $0.gasNumber == n }.flatMap(SecondaryChannel.gasName) ?? "gas \(n)"
            } ?? event.label ?? "gas switch"
        case .bookmark:
            kind = "bookmark"; colour = "#1f5fa8"; shape = .square
            label = event.label ?? "bookmark"
        case .deepStop, .safetyStop, .safetyStopMandatory:
            kind = "stop"; colour = "#666666"; shape = .diamond
            label = Self.name(event.type!) + (event.label.map { ": \($0)" } ?? "")
        case .some(let type):
            kind = "alarm"; colour = "#c62828"; shape = .circle
            label = Self.name(type) + (event.label.map { ": \($0)" } ?? "")
        case nil:
            kind = "other"; colour = "#666666"; shape = .diamond
            label = event.label ?? "event"
        }
    }

    /// A diver's words for an event type.
    static func name(_ type: EventType) -> String {
        switch type {
        case .gasSwitch: "gas switch"
        case .deepStop: "deep stop"
        case .safetyStop: "safety stop"
        case .bookmark: "bookmark"
        case .ascentRate: "ascent rate"
        case .safetyStopMandatory: "mandatory safety stop"
        case .safetyStopViolation: "safety stop missed"
        case .deepStopViolation: "deep stop missed"
        case .ceilingViolation: "ceiling broken"
        case .ndlReached: "NDL reached"
        case .ppo2High: "ppO2 high"
        case .pressureLow: "tank pressure low"
        case .depthAlarm: "depth alarm"
        }
    }

    /// The marker's outline centred on `x`, `y`, as path data.
    func shapePath(_ x: Double, _ y: Double) -> String {
        let n = PlotNumber.text
        switch shape {
        case .triangle: return "M\(n(x, 1)) \(n(y - 6, 1))L\(n(x + 5, 1)) \(n(y + 3, 1))L\(n(x - 5, 1)) \(n(y + 3, 1))Z"
        case .square: return "M\(n(x - 4, 1)) \(n(y - 4, 1))h8v8h-8Z"
        case .diamond: return "M\(n(x, 1)) \(n(y - 5, 1))L\(n(x + 5, 1)) \(n(y, 1))L\(n(x, 1)) \(n(y + 5, 1))L\(n(x - 5, 1)) \(n(y, 1))Z"
        case .circle: return "M\(n(x - 4, 1)) \(n(y, 1))a4 4 0 1 0 8 0a4 4 0 1 0 -8 0Z"
        }
    }
}

extension PlotCanvas {
    /// Each event: a dashed line at its time, its marker on the profile, its label written up
    /// beside the line from the top of the plot (moved right of a label it would overprint).
    /// Where events crowd so that a label would stand far from its line, it is left off the
    /// drawing; the event keeps its marker and its `<title>` (a tooltip).
    mutating func drawEvents() {
        guard !profile.events.isEmpty else { return }
        svg.open("g", [("class", "events"), ("font-size", "10")])
        var lastLabelX = -Double.infinity
        for event in profile.events.sorted(by: { $0.time < $1.time }) {
            let marker = EventMarker(event, cylinders: dive.cylinders)
            let px = x(event.time)
            let py = Decimation.value(of: depth, at: event.time).map { y(depthCentimetres: $0) } ?? top
            svg.open("g", [("class", "event " + marker.kind), ("fill", marker.colour), ("stroke", marker.colour)])
            svg.element("title", "\(PlotNumber.minutes(Double(event.time) / 1000, withSeconds: true)) \(marker.label)")
            svg.empty("line", [("x1", n(px)), ("y1", n(top)), ("x2", n(px)), ("y2", n(bottom)), ("stroke-width", "0.7"),
                               ("stroke-dasharray", "3 3"), ("stroke-opacity", "0.6")])
            svg.empty("path", [("d", marker.shapePath(px, py)), ("stroke", "#ffffff"), ("stroke-width", "1")])
            // The label's baseline, right of the line so the glyphs sit beside it; pushed
            // further right past the label before, up to a few label widths.
            let labelX = max(px + 12, lastLabelX + 12)
            if labelX - px <= 48 && labelX <= right + 8 {
                lastLabelX = labelX
                svg.element("text", marker.label, [("x", "0"), ("y", "0"), ("stroke", "none"), ("text-anchor", "end"),
                                                   ("transform", "translate(\(n(labelX)) \(n(top + 4))) rotate(-90)")])
            }
            svg.close("g")
        }
        svg.close("g")
    }
}
