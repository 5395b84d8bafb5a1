import DiveCore

/// `<samples>` into a profile, by `docs/udcf-mapping.md`: depths at `<t>` times (a `<t>` then
/// its `<d>`) or, with no `<t>`, at their place times `<delta>`; a `<switch>` names the mix
/// breathed from the next depth on; an `<alarm>` is at the depth it follows.
extension UDCFState {
    func readProfile(_ d: UDCFDiveDraft, units: UDCFUnits, cylinders: [Cylinder], path: String) -> Profile? {
        let timed = d.items.contains { $0.tag == .t }
        let depthCount = d.items.reduce(0) { $0 + ($1.tag == .d ? 1 : 0) }
        guard depthCount > 0 || d.items.contains(where: { $0.tag == .switch || $0.tag == .alarm }) else {
            if let v = d.scalars[.delta] {
                report(.absent, "delta-without-samples", "<\(Self.name(v))> gives a sample interval and the dive has no <d>", line: v.line, path: "\(path)/\(v.path)")
            }
            return nil
        }
        let first = d.items[0].value
        let samplesPath = "\(path)/\(first.path.split(separator: "/").dropLast().joined(separator: "/"))"
        var delta: Double?
        if let v = d.scalars[.delta], let x = number(v, dive: path) {
            if x > 0 && x <= 3600 { delta = x } else {
                report(.dropped, "delta-invalid", "<\(Self.name(v))> \(v.text) s is no sample interval; not carried", line: v.line, path: "\(path)/\(v.path)")
            }
        }
        if !timed && delta == nil && depthCount > 0 {
            let where0 = d.items.first { $0.tag == .d }!.value
            report(.dropped, "samples-without-time",
                   "the \(depthCount) <d> have neither <t> times nor a <delta> interval to place them at; the profile is not carried",
                   line: where0.line, path: "\(path)/\(where0.path)")
            return nil
        }

        if let lastTimed = timed ? d.items.last(where: { $0.tag == .t }).flatMap({ Double($0.value.text) }) : delta.map({ $0 * Double(depthCount - 1) }) {
            reportOnce("time-seconds", .inferred, "time-seconds",
                       "UDCF states no unit for <delta> and <t>; read as seconds, as every writer's profiles agree with (this dive's \(depthCount) depths then span \(tidy(lastTimed / 60)) minutes; as minutes they would span \(tidy(lastTimed / 60)) hours)",
                       line: first.line, path: samplesPath)
        }
        var tally = FindingTally()
        let file = self.file
        func count(_ kind: FindingKind, _ code: String, _ v: UDCFValue, _ message: @escaping @Sendable (Int) -> String) {
            tally.add(code, kind, "udcf.\(code)", at: SourceLocation(file: file, line: v.line, path: "\(path)/\(v.path)"), message)
        }
        func sampleNumber(_ v: UDCFValue) -> Double? {
            if let x = Double(v.text), x.isFinite { return x }
            let name = Self.name(v), text = v.text
            count(.dropped, "not-a-number", v) { n in
                "<\(name)> holds \"\(text)\", not a number\(n > 1 ? " (and \(n - 1) more samples like it)" : ""); not carried"
            }
            return nil
        }

        var depth = Series()
        var events: [Event] = []
        /// The time of the `<t>` read and not yet used by a `<d>` (timed samples).
        var openTime: Int?
        /// The time of the last depth placed.
        var lastTime: Int?
        var placed = 0
        /// Switches and alarms waiting for the depth they stand before.
        var waiting: [UDCFSampleItem] = []
        func event(_ item: UDCFSampleItem, at time: Int) {
            switch item.tag {
            case .switch:
                if let gas = gasNumber(item.value.text, cylinders) {
                    events.append(Event(time: time, type: .gasSwitch, gasNumber: gas))
                } else {
                    let text = item.value.text, name = Self.name(item.value)
                    count(.dropped, "switch-unknown-mix", item.value) { n in
                        "<\(name)> \"\(text)\" names no <mixname> of the dive and is no mix's number\(n > 1 ? " (and \(n - 1) more switches)" : ""); not carried"
                    }
                }
            default:
                let text = item.value.text
                let keyword = text.lowercased()
                events.append(Event(time: time, type: keyword == "ascent" ? .ascentRate : nil, label: text))
                if !Self.alarmKeywords.contains(keyword) {
                    let name = Self.name(item.value)
                    count(.resolved, "alarm-unknown", item.value) { n in
                        "<\(name)> \"\(text)\" is none of UDCF's warnings (rbt, error, ascent, deco, breath, surface)\(n > 1 ? "; this and \(n - 1) more such alarms are" : "; it is") carried as an event labelled with its text"
                    }
                }
            }
        }
        for item in d.items {
            switch item.tag {
            case .t:
                guard let seconds = sampleNumber(item.value) else { openTime = nil; continue }
                let ms = scaled(seconds, 1000)
                if ms < 0 || ms < (lastTime ?? 0) {
                    count(.dropped, "time-backwards", item.value) { n in
                        "\(n == 1 ? "a <t>" : "\(n) <t>") before the dive began or before the sample before it; its depth is not carried"
                    }
                    openTime = nil
                    continue
                }
                openTime = ms
                for w in waiting where w.tag == .switch { event(w, at: ms) }
                waiting.removeAll { $0.tag == .switch }
            case .d:
                let time: Int
                if timed {
                    guard let t = openTime else {
                        count(.dropped, "depth-without-time", item.value) { n in
                            "\(n == 1 ? "a <d> follows" : "\(n) <d> follow") no <t> of their own in a profile of <t>/<d> pairs; not carried"
                        }
                        continue
                    }
                    time = t
                    openTime = nil
                } else {
                    time = scaled(Double(placed) * delta!, 1000)
                }
                placed += 1
                for w in waiting { event(w, at: time) }
                waiting.removeAll()
                lastTime = time
                guard let raw = sampleNumber(item.value) else { continue }
                let m = units.metres(raw)
                guard m >= 0 && m <= 11_000 else {
                    let text = item.value.text, unit = units.depthUnit
                    count(.dropped, "depth-out-of-range", item.value) { n in
                        "\(n == 1 ? "a <d>" : "\(n) <d>") outside 0 to 11000 m (the first \(text) \(unit)); not carried"
                    }
                    continue
                }
                if !depth.appendKeepingFirst(time, scaled(m, 100)) {
                    count(.dropped, "sample-same-instant", item.value) { n in
                        "\(n == 1 ? "a <d> lands" : "\(n) <d> land") on the instant of the depth before; the first is kept"
                    }
                }
            case .switch:
                if timed, let t = openTime { event(item, at: t) } else { waiting.append(item) }
            default:
                if let t = lastTime { event(item, at: t) } else { waiting.append(item) }
            }
        }
        // What stands after the last depth is at the last depth's time.
        for w in waiting { event(w, at: lastTime ?? 0) }
        findings += tally.findings()
        if d.depthsOverLimit > 0 {
            report(.dropped, "samples-over-limit", "the dive holds \(d.depthsOverLimit) depths past the \(samplesPerDive) a dive keeps; they are not carried",
                   line: d.line, path: "\(path)/samples")
        }
        guard !depth.isEmpty || !events.isEmpty else { return nil }
        var profile = Profile()
        profile.duration = max(lastTime ?? 0, events.last?.time ?? 0)
        profile.depth = depth.isEmpty ? nil : depth
        profile.events = events.enumerated().sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }.map(\.element)
        return profile
    }

    /// The warnings UDCF's documentation names for `<alarm>`.
    static let alarmKeywords: Set<String> = ["rbt", "error", "ascent", "deco", "breath", "surface"]

    /// The cylinder a `<switch>` names: the mix of that `<mixname>` (case and spaces aside), else
    /// a number counting the dive's mixes from 1 (MacDive's `<switch>1</switch>`).
    func gasNumber(_ text: String, _ cylinders: [Cylinder]) -> Int? {
        let key = text.trimmingWhitespace().lowercased()
        if let i = cylinders.firstIndex(where: { $0.gasName?.trimmingWhitespace().lowercased() == key }) { return i }
        if let n = Int(key), n >= 1, n <= cylinders.count { return n - 1 }
        return nil
    }
}
