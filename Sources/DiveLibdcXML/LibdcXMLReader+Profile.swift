import DiveCore

/// `<sample>`s as the recording's profile, by `docs/libdc-xml-mapping.md`.
extension LibdcXMLState {
    static func samples(_ n: Int) -> String { n == 1 ? "a sample" : "\(n) samples" }

    /// libdivecomputer's event names (its `events[]` table) that are the model's event types.
    static let eventTypes: [String: EventType] = [
        "ascent": .ascentRate, "bookmark": .bookmark, "ceiling": .ceilingViolation, "safety stop": .safetyStop,
        "safety stop (voluntary)": .safetyStop, "safety stop (mandatory)": .safetyStopMandatory, "deepstop": .deepStop,
        "ceiling (safety stop)": .safetyStopViolation, "PO2": .ppo2High, "maxdepth": .depthAlarm, "rbt": .pressureLow,
    ]

    func profile(_ d: LDiveDraft, units: LibdcUnits, gasCylinder: [Int?], cylinders: inout [Cylinder], path: String) -> Profile? {
        let spath = "\(path)/sample"
        if d.samplesOverLimit > 0 {
            report(.dropped, "samples-over-limit", "the dive holds \(d.samplesOverLimit) samples past the \(samplesPerDive) a dive keeps; they are not carried", path: spath, line: d.line)
        }
        guard !d.samples.isEmpty else { return nil }
        var tally = FindingTally()
        let file = self.file
        func count(_ kind: FindingKind, _ code: String, _ what: String, k: Int, line: Int, _ message: @escaping @Sendable (Int) -> String) {
            tally.add(code + "|" + what, kind, "libdc-xml.\(code)", at: SourceLocation(file: file, line: line, path: "\(spath)/\(k)/\(what)"), message)
        }
        var depth = Series(), temperature = Series(), ppo2 = Series(), cns = Series(), ndl = Series(), ceiling = Series()
        var pressures: [Int: Series] = [:]
        var events: [Event] = []
        var lastGas: Int?
        var last = 0
        for (k, s) in d.samples.enumerated() {
            guard let tv = s.values.first(where: { $0.name == "time" })?.value, let seconds = minutesSeconds(tv.text) else {
                count(.dropped, "sample-without-time", "time", k: k, line: s.line) { n in "\(Self.samples(n)) have no <time> in mm:ss; not carried" }
                continue
            }
            let t = seconds * 1000
            last = max(last, t)
            func put(_ series: inout Series, _ value: Int, _ name: String) {
                if !series.appendKeepingFirst(t, value) {
                    count(.dropped, "sample-same-instant", name, k: k, line: s.line) { n in "\(n == 1 ? "a <\(name)>" : "\(n) <\(name)>") on the second of an earlier reading; the first is kept" }
                }
            }
            for (name, v) in s.values where name != "time" {
                let n = Double(v.text)
                switch name {
                case "depth":
                    guard let n, case let m = units.metres(n), m >= 0, m <= 11_000 else {
                        count(.dropped, "value-out-of-range", name, k: k, line: v.line) { c in "\(Self.samples(c)) (the first \(v.text)) read no depth a dive has; not carried" }
                        continue
                    }
                    put(&depth, Int((m * 100).rounded(.toNearestOrAwayFromZero)), name)
                case "temperature":
                    guard let n, case let c = units.celsius(n), c > -10, c < 60 else {
                        count(.dropped, "value-out-of-range", name, k: k, line: v.line) { c in "\(Self.samples(c)) (the first \(v.text)) read no temperature water has; not carried" }
                        continue
                    }
                    put(&temperature, Int((c * 100).rounded(.toNearestOrAwayFromZero)), name)
                case "pressure":
                    guard let n, let tank = v.tank.flatMap({ Int($0) }), tank >= 0, tank < cylinders.count, tank < d.tanks.count || d.tanks.isEmpty else {
                        count(.dropped, "pressure-tank-unknown", name, k: k, line: v.line) { c in "\(Self.samples(c)) read a pressure of a tank=\"\(v.tank ?? "")\" the dive lists no <tank> for; not carried" }
                        continue
                    }
                    let b = units.bar(n)
                    guard b > 0, b <= 350 else {
                        count(.dropped, "pressure-out-of-range", name, k: k, line: v.line) { c in "\(Self.samples(c)) (the first \(v.text)) read a tank pressure outside 0 to 350 bar; not carried" }
                        continue
                    }
                    var series = pressures[tank] ?? Series()
                    put(&series, Int((b * 10).rounded(.toNearestOrAwayFromZero)), name)
                    pressures[tank] = series
                case "ppo2":
                    guard let n, n > 0, n <= 10 else {
                        count(.dropped, "value-out-of-range", name, k: k, line: v.line) { c in "\(Self.samples(c)) (the first \(v.text)) read a ppO₂ outside 0 to 10 bar; not carried" }
                        continue
                    }
                    put(&ppo2, Int((n * 100).rounded(.toNearestOrAwayFromZero)), name)
                case "cns":
                    guard let n, n >= 0, n <= 1000 else { continue }
                    put(&cns, Int((n * 10).rounded(.toNearestOrAwayFromZero)), name)
                case "deco":
                    // type ndl: the no-decompression time (time, s); deco, deep, safety: a stop
                    // at depth (m) for time (s): the ceiling, its time not carried.
                    if v.text == "ndl" {
                        if let time = v.type.flatMap({ Int($0) }) { put(&ndl, time, name) }
                    } else if let dm = v.tank.flatMap({ Double($0) }), dm >= 0 {
                        put(&ceiling, Int((units.metres(dm) * 100).rounded(.toNearestOrAwayFromZero)), name)
                        count(.dropped, "stop-time-not-carried", name, k: k, line: v.line) { c in "\(c == 1 ? "a <deco>" : "\(c) <deco>") stop's time (the first \(v.type ?? "") s) has no place beside the ceiling it gives; not carried" }
                    }
                case "gasmix":
                    guard let i = Int(v.text), i >= 0, i < gasCylinder.count, let c = gasCylinder[i] else {
                        count(.dropped, "switch-unknown-gas", name, k: k, line: v.line) { c in "\(c == 1 ? "a <gasmix>" : "\(c) <gasmix>") switch (the first to \(v.text)) names no breathable gas of the dive; not carried" }
                        continue
                    }
                    if c != lastGas { events.append(Event(time: t, type: .gasSwitch, gasNumber: c)) }
                    lastGas = c
                case "event":
                    var e = Event(time: t, type: Self.eventTypes[v.text], label: v.text.isEmpty ? nil : v.text)
                    let parts = (v.tank ?? ",,").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                    var members: [ExtensionValue.Member] = []
                    for (key, value) in zip(["type", "time", "flags", "value"], [v.type ?? ""] + parts) where !value.isEmpty {
                        members.append(.init(key, DecimalNumber(value).map { .number($0.description) } ?? .string(value)))
                    }
                    if !members.isEmpty { e.extensions = .object([.init("umilog", .object([.init("libdc_event", .object(members))]))]) }
                    events.append(e)
                default: break
                }
            }
        }
        findings += tally.findings()
        var profile = Profile()
        profile.duration = last
        profile.depth = depth.isEmpty ? nil : depth
        profile.temperature = temperature.isEmpty ? nil : temperature
        profile.ppo2 = ppo2.isEmpty ? nil : ppo2
        profile.cns = cns.isEmpty ? nil : cns
        profile.ndl = ndl.isEmpty ? nil : ndl
        profile.ceiling = ceiling.isEmpty ? nil : ceiling
        profile.events = events
        if !pressures.isEmpty, cylinders.isEmpty {
            cylinders.append(Cylinder())
            cylinders[0].gasNumber = 0
        }
        profile.pressures = pressures.keys.sorted().map { PressureSeries(gasNumber: $0, series: pressures[$0]!) }
        return profile.isEmpty ? nil : profile
    }
}
