/// Checks on the canonical model that hold whatever format a dive came from: readings a
/// diver or a dive computer can physically produce, sample channels in time order, gas
/// blends that add up, references that resolve. Run over a reader's dives as they stream
/// by; ``finish(header:)`` settles the references a later part of the file may define.
///
/// | code | severity | rule |
/// | --- | --- | --- |
/// | `dive.depth-out-of-range` | warning | greatest, average and sampled depths within 0–400 m |
/// | `dive.temperature-out-of-range` | warning | water temperatures (lowest, sampled) within −5–45 °C |
/// | `dive.pressure-out-of-range` | warning | cylinder pressures (start, end, sampled) within 0–450 bar |
/// | `dive.duration-not-positive` | warning, error if negative | time in the water above zero |
/// | `dive.gas-over-100` | error | a cylinder's oxygen and helium add up to 100 % at most |
/// | `dive.gas-out-of-range` | error | oxygen and helium each within 0–100 % |
/// | `dive.sample-time-order` | error | every channel's sample times strictly increasing |
/// | `dive.reference-unresolved` | error | sites, people, trips, gear, contacts and courses a dive names exist |
///
/// Each diagnostic names the file, the dive's first line and a path (`dive/3/cylinders/1`,
/// or `$.dives[3].cylinders[1]` for DiveJSON); a channel's readings are counted, not listed.
public struct ModelChecker {
    /// How record paths are spelled.
    public enum PathStyle: Sendable {
        /// `dive/3/cylinders/1`, as the UDDF reader's findings.
        case record
        /// `$.dives[3].cylinders[1]`, as DiveJSON's validator.
        case json
    }

    /// One line on each code these checks report, for tools that list rules (SARIF).
    public static let rules: [String: String] = [
        "dive.depth-out-of-range": "A depth outside 0–400 m",
        "dive.temperature-out-of-range": "A water temperature outside −5–45 °C",
        "dive.pressure-out-of-range": "A cylinder pressure outside 0–450 bar",
        "dive.duration-not-positive": "A dive whose time in the water is not above zero",
        "dive.gas-over-100": "A gas whose oxygen and helium add up to more than 100 %",
        "dive.gas-out-of-range": "An oxygen or helium share outside 0–100 %",
        "dive.sample-time-order": "A sample channel whose times do not strictly increase",
        "dive.reference-unresolved": "A dive naming a site, person, trip, gear, contact or course the file does not define",
    ]

    /// Plausible depths, metres.
    public static let depthRange = 0.0...400.0
    /// Plausible water temperatures, °C.
    public static let temperatureRange = -5.0...45.0
    /// Plausible cylinder pressures, bar.
    public static let pressureRange = 0.0...450.0

    private let file: String?
    private let style: PathStyle
    private var known = KnownRecords()
    private var pending: [PendingReference] = []
    private var count = 0

    private struct PendingReference {
        var kind: String
        var uuid: String
        var location: SourceLocation
    }

    /// - Parameters:
    ///   - file: the file name diagnostics carry.
    ///   - style: how record paths are spelled.
    public init(file: String?, style: PathStyle = .record) {
        self.file = file; self.style = style
    }

    /// Checks one dive against the header as read so far.
    public mutating func check(_ dive: Dive, header: LogbookHeader) -> [Diagnostic] {
        let index = dive.provenance?.index ?? count
        count += 1
        var out: [Diagnostic] = []
        let line = dive.provenance?.line
        func at(_ sub: String? = nil) -> SourceLocation {
            SourceLocation(file: file, line: line, path: path(index, sub))
        }
        func add(_ severity: Diagnostic.Severity, _ code: String, _ message: String, _ sub: String? = nil) {
            out.append(Diagnostic(severity, code, message, at: at(sub)))
        }

        // Depth.
        for (name, member, value) in [("greatest depth", "max_depth", dive.maxDepth), ("average depth", "avg_depth", dive.avgDepth)] {
            if let v = value, !Self.depthRange.contains(v) {
                let why = v < 0 ? "above the surface" : "deeper than any dive on breathing gas reaches"
                add(.warning, "dive.depth-out-of-range", "\(name) \(text(v)) m is outside 0–400 m: \(why)", member)
            }
        }
        if let v = dive.submergedTime, v <= 0 {
            add(v < 0 ? .error : .warning, "dive.duration-not-positive",
                "time in the water is \(v) s; a dive lasts longer than nothing", "submerged_time")
        }
        if let v = dive.bottomTemperature, !Self.temperatureRange.contains(v) {
            add(.warning, "dive.temperature-out-of-range", "lowest water temperature \(text(v)) °C is outside −5–45 °C", "bottom_temperature")
        }

        // Cylinders.
        for (i, c) in dive.cylinders.enumerated() {
            let sub = member("cylinders", i)
            for (name, value) in [("start pressure", c.startPressure), ("end pressure", c.endPressure)] {
                if let v = value, !Self.pressureRange.contains(v) {
                    add(.warning, "dive.pressure-out-of-range", "\(name) \(text(v)) bar is outside 0–450 bar", sub)
                }
            }
            for (name, value) in [("oxygen", c.oxygen), ("helium", c.helium)] {
                if let v = value, !(0...100).contains(v) {
                    add(.error, "dive.gas-out-of-range", "\(name) \(text(v)) % is not a share of a gas (0–100 %)", sub)
                }
            }
            if let o2 = c.oxygen, let he = c.helium, o2 + he > 100 + 1e-9 {
                add(.error, "dive.gas-over-100", "oxygen \(text(o2)) % and helium \(text(he)) % add up to more than 100 %", sub)
            }
        }

        // Profiles: every recording's channels.
        for (r, recording) in dive.recordings.enumerated() {
            guard let profile = recording.profile else { continue }
            let sub = member("recordings", r) + (style == .json ? ".profile" : "/profile")
            for (name, series) in profile.labelledSeries {
                if let problem = Self.firstDisorder(series.times) {
                    add(.error, "dive.sample-time-order",
                        "\(name) sample \(problem.index + 1) at \(seconds(problem.time)) s does not come after the one before it (\(seconds(problem.previous)) s); a channel's times must strictly increase", sub)
                }
            }
            if let depth = profile.depth {
                outliers(depth.values, scale: 100, range: Self.depthRange).map {
                    add(.warning, "dive.depth-out-of-range", "\($0.count) depth sample\($0.count == 1 ? " is" : "s are") outside 0–400 m (\($0.extremes) m)", sub)
                }
            }
            if let temperature = profile.temperature {
                outliers(temperature.values, scale: 100, range: Self.temperatureRange).map {
                    add(.warning, "dive.temperature-out-of-range", "\($0.count) water temperature sample\($0.count == 1 ? " is" : "s are") outside −5–45 °C (\($0.extremes) °C)", sub)
                }
            }
            for p in profile.pressures {
                outliers(p.series.values, scale: 10, range: Self.pressureRange).map {
                    add(.warning, "dive.pressure-out-of-range", "\($0.count) pressure sample\($0.count == 1 ? " is" : "s are") of cylinder \(p.gasNumber) outside 0–450 bar (\($0.extremes) bar)", sub)
                }
            }
        }

        // References: checked now against what is known, again at the end for the rest.
        known.update(header)
        var references: [(kind: String, uuid: String)] = dive.siteUUIDs.map { ("site", $0) }
        references += dive.people.map { ("person", $0.personUUID) }
        references += dive.gearUUIDs.map { ("gear", $0) }
        references += dive.cylinders.compactMap(\.gearUUID).map { ("gear", $0) }
        if let t = dive.tripUUID { references.append(("trip", t)) }
        if let c = dive.contactUUID { references.append(("contact", c)) }
        if let c = dive.courseUUID { references.append(("course", c)) }
        for (kind, uuid) in references where !known.contains(kind, uuid) {
            pending.append(PendingReference(kind: kind, uuid: uuid, location: at()))
        }
        return out
    }

    /// The references no record of the whole file resolves, once the header is complete.
    public mutating func finish(header: LogbookHeader) -> [Diagnostic] {
        known.update(header)
        defer { pending.removeAll() }
        return pending.filter { !known.contains($0.kind, $0.uuid) }.map {
            Diagnostic(.error, "dive.reference-unresolved", "the dive names the \($0.kind) \($0.uuid), which the file does not define", at: $0.location)
        }
    }

    // MARK: Helpers

    private func path(_ index: Int, _ sub: String?) -> String {
        switch style {
        case .record: return "dive/\(index)" + (sub.map { $0.hasPrefix("/") ? $0 : "/" + $0 } ?? "")
        case .json: return "$.dives[\(index)]" + (sub.map { $0.hasPrefix(".") ? $0 : "." + $0 } ?? "")
        }
    }

    private func member(_ name: String, _ index: Int) -> String {
        style == .json ? ".\(name)[\(index)]" : "/\(name)/\(index)"
    }

    /// The first sample whose time does not exceed the one before it.
    static func firstDisorder(_ times: [Int]) -> (index: Int, time: Int, previous: Int)? {
        var i = 1
        while i < times.count {
            if times[i] <= times[i - 1] { return (i, times[i], times[i - 1]) }
            i += 1
        }
        return nil
    }

    /// How many integer-scaled values fall outside `range`, and the lowest and highest of them.
    private func outliers(_ values: [Int], scale: Double, range: ClosedRange<Double>) -> (count: Int, extremes: String)? {
        let low = Int((range.lowerBound * scale).rounded()), high = Int((range.upperBound * scale).rounded())
        var count = 0, lowest = Int.max, highest = Int.min
        for v in values where v < low || v > high {
            count += 1
            lowest = min(lowest, v); highest = max(highest, v)
        }
        guard count > 0 else { return nil }
        let extremes = lowest == highest ? text(Double(lowest) / scale) : "\(text(Double(lowest) / scale)) to \(text(Double(highest) / scale))"
        return (count, extremes)
    }

    private func seconds(_ ms: Int) -> String { text(Double(ms) / 1000) }

    /// A number as a diver writes it, to three decimals at most: `28.3`, `12`, never `12.0` or `1e-05`.
    private func text(_ v: Double) -> String {
        DecimalNumber(v)?.rounded(places: 3)?.normalized().description ?? String(v)
    }
}

/// The uuids of the header's records, by kind, kept in step with a growing header.
private struct KnownRecords {
    private var sets: [String: Set<String>] = [:]
    private var seen: [String: Int] = [:]

    mutating func update(_ header: LogbookHeader) {
        add("site", header.sites.count) { header.sites.map(\.uuid) }
        add("person", header.people.count) { header.people.map(\.uuid) }
        add("trip", header.trips.count) { header.trips.map(\.uuid) }
        add("gear", header.gear.count) { header.gear.map(\.uuid) }
        add("contact", header.contacts.count) { header.contacts.map(\.uuid) }
        add("course", header.courses.count) { header.courses.map(\.uuid) }
    }

    /// Takes in the records of `kind` when their count has changed since the last look.
    private mutating func add(_ kind: String, _ count: Int, _ uuids: () -> [String]) {
        guard count != seen[kind, default: 0] else { return }
        seen[kind] = count
        sets[kind, default: []].formUnion(uuids())
    }

    func contains(_ kind: String, _ uuid: String) -> Bool { sets[kind]?.contains(uuid) == true }
}
