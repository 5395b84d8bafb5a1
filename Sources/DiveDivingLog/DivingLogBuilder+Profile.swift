import DiveCore

/// The dive's cylinders and profile, by `docs/divinglog-mapping.md`.
extension DivingLogBuilder {
    /// The dive's own tank (the `Logbook` row's `Tanksize`, `PresS`… columns, the XML's elements
    /// of those names), then each `Tank` row: cylinder *n* has gas number *n*, the number the
    /// database's profile names the tank breathed by.
    func readCylinders(_ r: inout DivingLogRecord) -> [Cylinder] {
        var out: [Cylinder] = []
        if let c = cylinder(&r.values, gasNumber: 0, prefix: "") { out.append(c) }
        for (i, tank) in r.extraTanks.enumerated() {
            var columns = tank
            let number = columns.removeValue(forKey: "tankid").flatMap { Int($0.text) } ?? i + 1
            for key in ["id", "logid", "sortord", "uuid"] { columns.removeValue(forKey: key) }
            if let c = cylinder(&columns, gasNumber: number, prefix: "tank.") { out.append(c) }
            for (key, v) in columns.sorted(by: { $0.key < $1.key }) { leftOver("tank.\(key)", v) }
        }
        return out
    }

    /// One tank's columns as a cylinder, taking what it carries out of `columns`; `nil` when the
    /// tank records nothing of a cylinder (every value empty or a zero placeholder).
    private func cylinder(_ columns: inout [String: DivingLogValue], gasNumber: Int, prefix: String) -> Cylinder? {
        var c = Cylinder()
        c.gasNumber = gasNumber
        func zero(_ v: DivingLogValue) {
            tally("zero:\(prefix)\(v.name)", .absent, "zero-placeholder", at: v.location) { n in
                "\(v.name) 0 is {program}'s \"not recorded\"\(n > 1 ? " (\(n) tanks)" : ""): no value"
            }
        }
        func take(_ key: String, in range: ClosedRange<Double>, unit: String) -> Double? {
            guard let v = columns.removeValue(forKey: key) else { return nil }
            guard let x = number(v) else { return nil }
            if x == 0 { zero(v); return nil }
            guard range.contains(x) else {
                report(.dropped, "out-of-range", "\(v.name) \(v.text) is outside \(tidy(range.lowerBound)) to \(tidy(range.upperBound)) \(unit); not carried", at: v.location)
                return nil
            }
            return x
        }
        c.volume = take("tanksize", in: 0...100, unit: "litres")
        c.startPressure = take("press", in: 0...350, unit: "bar")
        c.endPressure = take("prese", in: 0...350, unit: "bar")
        c.oxygen = take("o2", in: 0...100, unit: "%")
        if c.oxygen != nil, let v = columns.removeValue(forKey: "he") {
            // Beside an oxygen fraction, 0 % helium is a value: the mix has none.
            if let x = number(v) {
                if (0...100).contains(x) { c.helium = x } else {
                    report(.dropped, "out-of-range", "\(v.name) \(v.text) is outside 0 to 100 %; not carried", at: v.location)
                }
            }
        } else if let v = columns["he"], v.text.allSatisfy({ $0 == "0" || $0 == "." }) {
            columns.removeValue(forKey: "he")
            zero(v)
        }
        if let o = c.oxygen, o + (c.helium ?? 0) > 100 {
            report(.dropped, "mix-invalid", "O2 \(o) % and He \(c.helium ?? 0) % are above 100 %; neither is carried", at: columns["o2"]?.location ?? SourceLocation(file: file))
            c.oxygen = nil; c.helium = nil
        }
        if let s = c.startPressure, let e = c.endPressure, e > s {
            report(.dropped, "end-above-start", "PresE \(e) bar is above PresS \(s) bar; not carried", at: SourceLocation(file: file))
            c.endPressure = nil
        }
        if let v = columns["maxppo2"], let x = Double(v.text), x > 0, x <= 3 {
            columns.removeValue(forKey: "maxppo2")
            c.ppo2Limit = x
        }
        if let v = columns["minppo2"], Double(v.text) == 0 { columns.removeValue(forKey: "minppo2"); zero(v) }
        if let v = columns["dbltank"], Self.flag(v) == false { columns.removeValue(forKey: "dbltank") }
        if let v = columns.removeValue(forKey: "gas") { c.gasName = v.text }
        let recorded = c.volume != nil || c.startPressure != nil || c.endPressure != nil || c.oxygen != nil || c.gasName != nil
        return recorded ? c : nil
    }

    // MARK: Profile

    /// The samples, at their times: depth, temperature, each tank's pressure, NDL or TTS, ppO₂
    /// and CNS; the warning flags and the tank changes as events. Zeros where Diving Log writes a
    /// zero for "not recorded" (a pressure of 0.0 bar, a heart rate of 0) are no values.
    func readProfile(_ r: inout DivingLogRecord, cylinders: [Cylinder], path: String) -> Profile? {
        _ = r.take("profileint")
        let program = self.program
        if r.samplesOverLimit > 0 {
            report(.dropped, "samples-over-limit", "the dive holds \(r.samplesOverLimit) samples past the \(InputLimits.samplesPerDive) a dive keeps; they are not carried",
                   at: r.location)
        }
        guard !r.samples.isEmpty else { return nil }
        var depth = Series(), temperature = Series(), ndl = Series(), tts = Series(), ppo2 = Series(), cns = Series()
        var pressures: [Int: Series] = [:]
        var events: [Event] = []
        var tally = FindingTally()
        var lastTank: Int?
        var last = -1
        let gasNumbers = Set(cylinders.compactMap(\.gasNumber))
        let code = format
        for s in r.samples {
            guard s.time > last else {
                tally.add("time-backwards", .dropped, "\(code).time-backwards", at: s.location) { n in
                    "\(n == 1 ? "a sample" : "\(n) samples") at or before the time of the sample before; not carried"
                }
                continue
            }
            last = s.time
            let ms = s.time * 1000
            if let d = s.depth {
                if d >= 0 && d <= 400 { depth.times.append(ms); depth.values.append(scaled(d, 100)) } else {
                    tally.add("depth-range", .dropped, "\(code).out-of-range", at: s.location) { n in
                        "\(n == 1 ? "a depth" : "\(n) depths") outside 0 to 400 m; not carried"
                    }
                }
            }
            if let t = s.temperature {
                if t >= -3 && t <= 45 { temperature.times.append(ms); temperature.values.append(scaled(t, 100)) } else {
                    tally.add("temp-range", .dropped, "\(code).out-of-range", at: s.location) { n in
                        "\(n == 1 ? "a temperature" : "\(n) temperatures") outside -3 to 45 °C; not carried"
                    }
                }
            }
            for p in s.pressures {
                if p.bar == 0 {
                    tally.add("pressure-zero", .absent, "\(code).zero-placeholder", at: s.location) { n in
                        "\(n) tank pressures of 0.0 bar, \(program)'s \"no reading\": no values"
                    }
                } else if !gasNumbers.contains(p.tank) {
                    tally.add("pressure-tank", .dropped, "\(code).pressure-without-tank", at: s.location) { n in
                        "\(n) tank pressures of a tank the dive does not list; not carried"
                    }
                } else if p.bar > 0 && p.bar <= 350 {
                    pressures[p.tank, default: Series()].times.append(ms)
                    pressures[p.tank, default: Series()].values.append(scaled(p.bar, 10))
                }
            }
            if let tank = s.tank, tank != lastTank {
                if gasNumbers.contains(tank) { events.append(Event(time: ms, type: .gasSwitch, gasNumber: tank)) } else {
                    tally.add("switch-tank", .dropped, "\(code).switch-unknown-tank", at: s.location) { n in
                        "\(n) tank changes to a tank the dive does not list; not carried"
                    }
                }
                lastTank = tank
            }
            if let v = s.ndlOrTTS {
                if s.inDeco { if v > 0 { tts.times.append(ms); tts.values.append(v * 60) } } else { ndl.times.append(ms); ndl.values.append(v * 60) }
            }
            let cells = s.cells.filter { $0 > 0 }
            if !cells.isEmpty {
                ppo2.times.append(ms); ppo2.values.append(scaled(cells.reduce(0, +) / Double(cells.count), 100))
                if s.cells.filter({ $0 > 0 }).count > 1 {
                    tally.add("cells", .resolved, "\(code).ppo2-cells-averaged", at: s.location) { n in
                        "\(n) samples give more than one oxygen cell's ppO₂; the model holds one, carried as their mean"
                    }
                }
            }
            if let c = s.cns, c > 0 { cns.times.append(ms); cns.values.append(scaled(c, 10)) }
            if s.rbtWarning { events.append(Event(time: ms, label: "rbt")) }
            if s.ascentWarning { events.append(Event(time: ms, type: .ascentRate)) }
            if s.decoStopIgnored { events.append(Event(time: ms, type: .ceilingViolation, label: "deco stop ignored")) }
            if s.workWarning { events.append(Event(time: ms, label: "workload")) }
            if let w = s.otherWarning {
                tally.add("warning", .dropped, "\(code).warning-unknown", at: s.location) { n in
                    "\(n == 1 ? "a warning" : "\(n) warnings") \"\(w)\" that is none of \(program)'s five flags; not carried"
                }
            }
            func notCarried(_ key: String, _ what: String, _ value: Int?) {
                guard let value else { return }
                if value == 0 {
                    tally.add("\(key)-zero", .absent, "\(code).zero-placeholder", at: s.location) { n in
                        "\(n) samples give \(what) 0, \(program)'s \"not recorded\": no values"
                    }
                } else {
                    tally.add(key, .dropped, "\(code).\(key)-not-carried", at: s.location) { n in
                        "\(n) samples give \(what) (the first \(value)), which umilog's profile has no channel for; not carried"
                    }
                }
            }
            notCarried("heart-rate", "a heart rate", s.heartRate)
            notCarried("rbt", "a remaining bottom time", s.rbt)
            notCarried("stop", "a deco stop's time", s.stopTime.flatMap { $0 == 0 && (s.stopDepth ?? 0) == 0 ? nil : $0 })
            notCarried("otu", "an OTU", s.otu.map { scaled($0, 10) })
            notCarried("setpoint", "a setpoint", s.setpoint.map { scaled($0, 100) })
        }
        findings += tally.findings()
        var profile = Profile()
        profile.duration = last * 1000
        func set(_ s: Series) -> Series? { s.isEmpty ? nil : s }
        profile.depth = set(depth)
        profile.temperature = set(temperature)
        profile.ndl = set(ndl)
        profile.tts = set(tts)
        profile.ppo2 = set(ppo2)
        profile.cns = set(cns)
        profile.pressures = pressures.keys.sorted().map { PressureSeries(gasNumber: $0, series: pressures[$0]!) }
        profile.events = events
        return profile.isEmpty ? nil : profile
    }
}
