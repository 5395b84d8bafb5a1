import DiveCore

/// `<samples><sample>` as the recording's profile, by `docs/macdive-mapping.md`.
///
/// Times are seconds (written with decimals, `10.00`), depth, temperature and pressure in the
/// file's units, `<ppo2>` bar, `<ndt>` minutes. MacDive writes every field of every sample, with
/// 0 where the computer had no reading: a pressure or temperature channel that is 0 throughout
/// is no channel (Subsurface's MacDive.xslt reads them so), a 0 tank pressure or a 0 ppO₂ is
/// no reading (no gas is breathed at either), while a 0 NDL is one (the diver is in deco).
extension MacDiveState {
    /// `a sample`, `3 samples`.
    static func samples(_ n: Int) -> String { n == 1 ? "a sample" : "\(n) samples" }

    func profile(_ d: MacDiveDraft, units: MacDiveUnits, cylinders: inout [Cylinder], path: String) -> Profile? {
        let spath = "\(path)/samples"
        if d.samplesOverLimit > 0 {
            report(.dropped, "samples-over-limit",
                   "the dive holds \(d.samplesOverLimit) samples past the \(samplesPerDive) a dive keeps; they are not carried", path: spath, line: d.line)
        }
        guard !d.samples.isEmpty else { return nil }
        var tally = FindingTally()
        let file = self.file
        func count(_ kind: FindingKind, _ code: String, _ what: String, k: Int, line: Int, _ message: @escaping @Sendable (Int) -> String) {
            tally.add(code + "|" + what, kind, "macdive.\(code)", at: SourceLocation(file: file, line: line, path: "\(spath)/sample/\(k)\(what.isEmpty ? "" : "/" + what)"), message)
        }

        // Ordered by their own time (converting.md), the file's order breaking ties.
        var timed: [(t: Int, k: Int)] = []
        for (k, s) in d.samples.enumerated() {
            guard let time = s.time else {
                count(.dropped, "sample-without-time", "", k: k, line: s.line) { n in "\(Self.samples(n)) record no <time>; not carried" }
                continue
            }
            guard time >= 0, time <= 864_000 else {
                count(.dropped, "sample-time-out-of-range", "time", k: k, line: s.line) { n in "\(Self.samples(n)) (the first at \(time) s) lie outside the dive's ten days; not carried" }
                continue
            }
            timed.append((Int((time * 1000).rounded(.toNearestOrAwayFromZero)), k))
        }
        timed.sort { $0.t != $1.t ? $0.t < $1.t : $0.k < $1.k }

        let hasPressure = d.samples.contains { ($0.pressure ?? 0) > 0 }
        let hasTemperature = d.samples.contains { ($0.temperature ?? 0) != 0 }
        for (name, has, all) in [(MacDiveName.pressure, hasPressure, d.samples.contains { $0.pressure != nil }),
                                 (.temperature, hasTemperature, d.samples.contains { $0.temperature != nil })] where all && !has {
            habits.add("flat|\(name.spelling)", .absent, "macdive.channel-all-zero", at: SourceLocation(file: file, line: d.samples[0].line, path: "\(spath)/sample/0/\(name.spelling)")) { n in
                "every sample's <\(name.spelling)> is 0, MacDive's fill for a reading the computer did not make\(name == .pressure ? " (no transmitter)" : "")\(n > 1 ? ", in \(n) dives" : ""); not recorded"
            }
        }

        var profile = Profile()
        var depth = Series(), temperature = Series(), pressure = Series(), ppo2 = Series(), ndl = Series()
        var events: [Event] = []
        var last = 0
        func add(_ series: inout Series, _ t: Int, _ value: Int, _ name: MacDiveName, k: Int, line: Int) {
            if series.appendKeepingFirst(t, value) { return }
            count(.dropped, "sample-same-instant", name.spelling, k: k, line: line) { n in
                "\(n == 1 ? "a <\(name.spelling)> lands" : "\(n) <\(name.spelling)> readings land") on the millisecond of an earlier one (the first at \(t) ms); the first is kept"
            }
        }
        for (t, k) in timed {
            let s = d.samples[k]
            last = max(last, t)
            if let v = s.depth {
                let m = units.metres(v)
                if m < 0 {
                    count(.dropped, "depth-negative", "depth", k: k, line: s.line) { n in "\(Self.samples(n)) (the first \(v)) read a depth above the surface; not carried" }
                } else if m > 11_000 {
                    count(.dropped, "value-out-of-range", "depth", k: k, line: s.line) { n in "\(Self.samples(n)) (the first \(v)) read a depth deeper than any sea; not carried" }
                } else {
                    add(&depth, t, Int((m * 100).rounded(.toNearestOrAwayFromZero)), .depth, k: k, line: s.line)
                }
            }
            if hasTemperature, let v = s.temperature {
                let c = units.celsius(v)
                if c > -10 && c < 60 { add(&temperature, t, Int((c * 100).rounded(.toNearestOrAwayFromZero)), .temperature, k: k, line: s.line) } else {
                    count(.dropped, "value-out-of-range", "temperature", k: k, line: s.line) { n in "\(Self.samples(n)) (the first \(v)) read a temperature no water has; not carried" }
                }
            }
            if hasPressure, let v = s.pressure {
                let bar = units.bar(v)
                if v == 0 {
                    count(.absent, "pressure-zero", "pressure", k: k, line: s.line) { n in "\(Self.samples(n)) read a tank pressure of 0, the computer's mark of no reading from the transmitter; not recorded" }
                } else if let b = DecimalNumber(bar), InputLimits.Range.tankBar.contains(b) {
                    add(&pressure, t, Int((bar * 10).rounded(.toNearestOrAwayFromZero)), .pressure, k: k, line: s.line)
                } else {
                    count(.dropped, "pressure-out-of-range", "pressure", k: k, line: s.line) { n in "\(Self.samples(n)) (the first \(v)) read a tank pressure outside 0 to 350 bar; not carried" }
                }
            }
            if let v = s.ppo2 {
                if v == 0 {
                    count(.absent, "ppo2-zero", "ppo2", k: k, line: s.line) { n in "\(Self.samples(n)) read a ppO₂ of 0, which no breathed gas has: no reading; not recorded" }
                } else if v > 0 && v <= 10 {
                    add(&ppo2, t, Int((v * 100).rounded(.toNearestOrAwayFromZero)), .ppo2, k: k, line: s.line)
                } else {
                    count(.dropped, "value-out-of-range", "ppo2", k: k, line: s.line) { n in "\(Self.samples(n)) (the first \(v) bar) read a ppO₂ outside 0 to 10 bar; not carried" }
                }
            }
            if let v = s.ndt {
                if v >= 0 && v <= 14_400 {
                    add(&ndl, t, Int((v * 60).rounded(.toNearestOrAwayFromZero)), .ndt, k: k, line: s.line)
                } else {
                    count(.dropped, "value-out-of-range", "ndt", k: k, line: s.line) { n in "\(Self.samples(n)) (the first \(v) min) read a no-decompression time below zero or past ten days; not carried" }
                }
            }
            if let a = s.alarm {
                let (type, label) = MacDiveWords.alarm(a)
                events.append(Event(time: t, type: type, label: label))
            }
        }
        findings += tally.findings()
        guard !timed.isEmpty else { return nil }
        profile.duration = last
        profile.depth = depth.isEmpty ? nil : depth
        profile.temperature = temperature.isEmpty ? nil : temperature
        profile.ppo2 = ppo2.isEmpty ? nil : ppo2
        profile.ndl = ndl.isEmpty ? nil : ndl
        profile.events = events
        if !pressure.isEmpty {
            // MacDive's samples carry one pressure and no cylinder: it is the one cylinder's.
            switch cylinders.count {
            case 1:
                profile.pressures = [PressureSeries(gasNumber: 0, series: pressure)]
            case 0:
                cylinders.append(Cylinder())
                profile.pressures = [PressureSeries(gasNumber: 0, series: pressure)]
                report(.absent, "pressure-without-gas",
                       "the samples read tank pressures and the dive has no <gas>; they are carried as a cylinder of their own, with no gas, size or pressures",
                       path: spath, line: d.line)
            default:
                report(.dropped, "pressure-cylinder-ambiguous",
                       "the dive has \(cylinders.count) <gas> and its samples one <pressure> naming none of them; the \(pressure.count) readings are not carried",
                       path: spath, line: d.line)
            }
            if !profile.pressures.isEmpty {
                for i in cylinders.indices { cylinders[i].gasNumber = i }
            }
        }
        if profile.isEmpty {
            report(.dropped, "samples-without-reading",
                   "the dive's \(timed.count) samples carry a time and no reading this format can hold; not carried", path: spath, line: d.line)
            return nil
        }
        return profile
    }
}
