import DiveCore
import DiveXML

/// Cylinders and the profile of a `<JDive>`, by `docs/jdivelog-mapping.md`.
extension JDiveLogState {
    /// `a sample`, `3 samples`.
    static func samples(_ n: Int) -> String { n == 1 ? "a sample" : "\(n) samples" }

    // MARK: Cylinders

    /// A mix's percentage of `name` (`<O2>`, `<HE>`: fractions, `0.32`).
    private func percent(_ f: JFields, _ name: String, at path: String) -> Double? {
        guard let v = number(f[name], name, at: path) else { return nil }
        if v >= 0 && v <= 1 { return clean(v * 100) }
        if v > 1 && v <= 100 {
            report(.resolved, "fraction-as-percent", "<\(name)> \(f[name]!.text) is more than a fraction can be; read as percent", path: "\(path)/\(name)", line: f[name]!.line)
            return v
        }
        report(.dropped, "value-out-of-range", "<\(name)> \(f[name]!.text) is no share of a gas; not carried", path: "\(path)/\(name)", line: f[name]!.line)
        return nil
    }

    /// A `<MIX>`'s gas and its `<TANK>` as a cylinder (`prefix` is `MIX/` inside an equipment
    /// `<Tank>`, empty for the computer's `<GASES><MIX>`).
    private func mixCylinder(_ f: JFields, prefix: String, units: JDiveLogUnits, at path: String) -> Cylinder {
        var c = Cylinder()
        let mpath = prefix.isEmpty ? path : "\(path)/MIX"
        var m = JFields(line: f.line)
        for (k, v) in f.fields where k.hasPrefix(prefix) { m.fields[String(k.dropFirst(prefix.count))] = v }
        if let n = m["MIXNAME"] { c.gasName = n.text }
        c.oxygen = percent(m, "O2", at: mpath)
        c.helium = percent(m, "HE", at: mpath)
        if let n2 = percent(m, "N2", at: mpath), let o2 = c.oxygen {
            // <N2> is the rest of the mix: carried by O2 and He, checked against them.
            let rest = 100 - o2 - (c.helium ?? 0)
            if abs(rest - n2) > 0.5 {
                report(.dropped, "mix-inconsistent", "<N2> \(m["N2"]!.text) is not what <O2> and <HE> leave (\(clean(rest / 100))); the oxygen and helium are kept",
                       path: "\(mpath)/N2", line: m["N2"]!.line)
            }
        }
        if let v = number(m["TANK/TANKVOLUME"], "TANKVOLUME", at: "\(mpath)/TANK") {
            let l = clean(units.litres(v))
            if l > 0 && l <= 100 { c.volume = l } else if v != 0 {
                report(.dropped, "value-out-of-range", "<TANKVOLUME> \(m["TANK/TANKVOLUME"]!.text) is \(l) l, no cylinder's size; not carried",
                       path: "\(mpath)/TANK/TANKVOLUME", line: m["TANK/TANKVOLUME"]!.line)
            }
        }
        for (name, isStart) in [("PSTART", true), ("PEND", false)] {
            guard let v = number(m["TANK/\(name)"], name, at: "\(mpath)/TANK") else { continue }
            let b = clean(units.bar(v))
            if let d = DecimalNumber(b), InputLimits.Range.tankBar.contains(d), b > 0 {
                if isStart { c.startPressure = b } else { c.endPressure = b }
            } else if v != 0 {
                report(.dropped, "pressure-out-of-range", "<\(name)> \(m["TANK/\(name)"]!.text) is \(b) bar, outside a cylinder's 0 to 350; not carried",
                       path: "\(mpath)/TANK/\(name)", line: m["TANK/\(name)"]!.line)
            }
        }
        return c
    }

    /// One cylinder per equipment `<Tank>` (the diver's record: size, pressures, mix; Subsurface
    /// reads these), matched with the computer's `<DIVE><GASES><MIX>` by mix name, else by place
    /// when both list as many; a computer mix no tank matches is a cylinder of its own.
    func readCylinders(_ d: JDiveDraft, units: JDiveLogUnits, into dive: inout Dive, path: String) {
        var cylinders: [Cylinder] = []
        for (k, t) in d.tanks.enumerated() {
            let tpath = "\(path)/Equipment/Tanks/Tank/\(k)"
            var c = mixCylinder(t, prefix: "MIX/", units: units, at: tpath)
            var umilog: [ExtensionValue.Member] = []
            if let n = t["Name"] { umilog.append(.init("tank_name", .string(n.text))) }
            if let v = t["Type"] { umilog.append(.init("material", .string(v.text))) }
            if let v = number(t["Volume"], "Volume", at: tpath), v != 0 {
                let l = clean(units.litres(v))
                if c.volume == nil, l > 0, l <= 100 { c.volume = l } else if c.volume != l {
                    report(.dropped, "tank-volume-differs", "the tank's <Volume> \(t["Volume"]!.text) is not its mix's <TANKVOLUME>; the mix's is kept", path: "\(tpath)/Volume", line: t["Volume"]!.line)
                }
            }
            if let v = number(t["WorkingPressure"], "WorkingPressure", at: tpath), v != 0 {
                umilog.append(.init("working_pressure", .number(DecimalNumber(clean(units.bar(v)))?.description ?? "0")))
            }
            if let v = number(t["Weight"], "Weight", at: tpath), v != 0 {
                umilog.append(.init("tank_weight", .number(DecimalNumber(v)?.description ?? "0")))
            }
            let zeros = ["Volume", "WorkingPressure", "Weight"].filter { t[$0].flatMap { Double($0.text) } == 0 }
            if !zeros.isEmpty {
                habits.add("tank-zero|\(zeros.joined(separator: ","))", .absent, "jdivelog.zero-placeholder", at: SourceLocation(file: file, line: t.line, path: tpath)) { n in
                    "the tank's \(zeros.map { "<\($0)>" }.joined(separator: ", ")) \(zeros.count == 1 ? "is" : "are") 0, JDiveLog's mark of a value never entered\(n > 1 ? " (\(n) tanks)" : ""); read as not recorded"
                }
            }
            if !umilog.isEmpty { c.extensions = .object([.init("umilog", .object(umilog))]) }
            cylinders.append(c)
        }
        var mixCylinder: [Int] = []
        var byPlace = d.mixes.count == d.tanks.count
        for (k, m) in d.mixes.enumerated() {
            let mpath = "\(path)/DIVE/GASES/MIX/\(k)"
            let computer = self.mixCylinder(m, prefix: "", units: units, at: mpath)
            if let name = computer.gasName, let i = cylinders.indices.first(where: { cylinders[$0].gasName == name }) {
                mixCylinder.append(i)
                if cylinders[i].oxygen != computer.oxygen || cylinders[i].helium != computer.helium { conflict(computer, cylinders[i], at: mpath, line: m.line) }
                continue
            }
            if byPlace, k < cylinders.count {
                mixCylinder.append(k)
                let c = cylinders[k]
                if c.oxygen != computer.oxygen || c.helium != computer.helium || c.gasName != computer.gasName {
                    conflict(computer, c, at: mpath, line: m.line)
                }
                continue
            }
            byPlace = false
            mixCylinder.append(cylinders.count)
            cylinders.append(computer)
        }
        for i in cylinders.indices { cylinders[i].gasNumber = i }
        dive.cylinders = cylinders
        mixCylinders = mixCylinder
    }

    private func conflict(_ computer: Cylinder, _ tank: Cylinder, at path: String, line: Int) {
        func shown(_ c: Cylinder) -> String {
            let mix = c.oxygen.map { "O₂ \(DecimalNumber($0)?.description ?? "")%" + (c.helium.map { $0 > 0 ? ", He \(DecimalNumber($0)?.description ?? "")%" : "" } ?? "") } ?? "no mix"
            return c.gasName.map { "\"\($0)\" (\(mix))" } ?? mix
        }
        report(.dropped, "gas-differs",
               "the computer's gas \(shown(computer)) is not the equipment's tank \(shown(tank)), the same cylinder by its place; the equipment's (the diver's entry) is kept, and gas switches to it land on that cylinder",
               path: path, line: line)
    }

    // MARK: Profile

    /// `<SAMPLES>`: `<DELTA>` the interval, then one `<D>` depth per interval from 0; a
    /// `<TEMPERATURE>` is the preceding depth's; `<SWITCH>` (a mix's name) and `<ALARM>` fall
    /// at the time of the depths before them times the interval (Subsurface's reading).
    func profile(_ d: JDiveDraft, units: JDiveLogUnits, cylinders: [Cylinder], path: String) -> Profile? {
        let spath = "\(path)/DIVE/SAMPLES"
        if d.samplesOverLimit > 0 {
            report(.dropped, "samples-over-limit",
                   "the dive holds \(d.samplesOverLimit) depth samples past the \(samplesPerDive) a dive keeps; they and what follows them are not carried", path: spath, line: d.line)
        }
        guard !d.samples.isEmpty else { return nil }
        var tally = FindingTally()
        let file = self.file
        func count(_ kind: FindingKind, _ code: String, _ what: String, line: Int, _ message: @escaping @Sendable (Int) -> String) {
            tally.add(code + "|" + what, kind, "jdivelog.\(code)", at: SourceLocation(file: file, line: line, path: "\(spath)/\(what)"), message)
        }
        var delta: Int?
        var t = 0, depths = 0
        var lastDepthTime: Int?
        var depth = Series(), temperature = Series()
        var events: [Event] = []
        for item in d.samples {
            switch item {
            case .delta(let v):
                guard let n = Double(v.text), n > 0, units.seconds(n) <= 3600 else {
                    report(.dropped, "delta-invalid", "<DELTA> \"\(v.text)\" is no sample interval; not carried", path: "\(spath)/DELTA", line: v.line)
                    continue
                }
                if delta != nil, depths > 0 {
                    report(.resolved, "delta-changed", "a second <DELTA> \(v.text) after \(depths) depths: the samples after it are read at this interval", path: "\(spath)/DELTA", line: v.line)
                }
                delta = Int((units.seconds(n) * 1000).rounded(.toNearestOrAwayFromZero))
            case .depth(let v):
                guard let step = delta else {
                    count(.dropped, "sample-without-delta", "D", line: v.line) { n in "\(Self.samples(n)) come before any <DELTA>, so no time is known for them; not carried" }
                    continue
                }
                lastDepthTime = t
                defer { t += step; depths += 1 }
                guard let m = Double(v.text) else {
                    count(.dropped, "not-a-number", "D", line: v.line) { n in "\(Self.samples(n)) hold no number in <D>; not carried" }
                    continue
                }
                guard m >= 0, m <= 11_000 else {
                    count(.dropped, "value-out-of-range", "D", line: v.line) { n in "\(Self.samples(n)) (the first \(v.text)) read a depth above the surface or deeper than any sea; not carried" }
                    continue
                }
                depth.append(t, Int((m * 100).rounded(.toNearestOrAwayFromZero)))
            case .temperature(let v):
                guard let at = lastDepthTime else {
                    count(.dropped, "temperature-before-depth", "TEMPERATURE", line: v.line) { n in "\(n == 1 ? "a <TEMPERATURE>" : "\(n) <TEMPERATURE>") before any depth sample; not carried" }
                    continue
                }
                guard let raw = Double(v.text), case let c = units.celsius(raw), c > -10 && c < 60 else {
                    count(.dropped, "value-out-of-range", "TEMPERATURE", line: v.line) { n in "\(n == 1 ? "a sample <TEMPERATURE>" : "\(n) sample <TEMPERATURE>") (the first \(v.text)) read no temperature water has; not carried" }
                    continue
                }
                if !temperature.appendKeepingFirst(at, Int((c * 100).rounded(.toNearestOrAwayFromZero))) {
                    count(.dropped, "sample-same-instant", "TEMPERATURE", line: v.line) { n in "\(n == 1 ? "a second <TEMPERATURE>" : "\(n) more <TEMPERATURE>") after one depth; the first is kept" }
                }
            case .gasSwitch(let v):
                if let k = d.mixes.firstIndex(where: { $0["MIXNAME"]?.text == v.text }), k < mixCylinders.count {
                    events.append(Event(time: t, type: .gasSwitch, gasNumber: mixCylinders[k]))
                } else if let i = cylinders.firstIndex(where: { $0.gasName == v.text }) {
                    events.append(Event(time: t, type: .gasSwitch, gasNumber: i))
                } else {
                    report(.dropped, "switch-unknown-gas", "<SWITCH> names \"\(v.text)\", no <MIX> of the dive; not carried", path: "\(spath)/SWITCH", line: v.line)
                }
            case .alarm(let v):
                switch v.text.uppercased() {
                case "SURFACE":
                    count(.dropped, "surface-alarm", "ALARM", line: v.line) { n in "\(n == 1 ? "an <ALARM>" : "\(n) <ALARM>") SURFACE marks the computer seeing the diver surface, which the depths show; not carried" }
                case "SLOW": events.append(Event(time: t, type: .ascentRate, label: v.text))
                case "DECO": events.append(Event(time: t, type: .ndlReached, label: v.text))
                default: events.append(Event(time: t, label: v.text))
                }
            }
        }
        findings += tally.findings()
        var profile = Profile()
        profile.depth = depth.isEmpty ? nil : depth
        profile.temperature = temperature.isEmpty ? nil : temperature
        profile.events = events
        profile.duration = max(depth.times.last ?? 0, temperature.times.last ?? 0, events.map(\.time).max() ?? 0)
        if let step = delta {
            let seconds = Double(step) / 1000
            profile.extensions = .object([.init("umilog", .object([.init("sample_interval", .number(DecimalNumber(seconds)?.description ?? String(seconds)))]))])
        }
        return profile.isEmpty ? nil : profile
    }
}
