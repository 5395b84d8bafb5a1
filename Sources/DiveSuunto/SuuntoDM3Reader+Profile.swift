import DiveCore

/// A `<MSG>`'s `<SAMPLE>`s (seconds, metres, millibar, °C, a bookmark's text) and
/// `<GASCHANGE>`s, as one recording's profile.
extension SuuntoDM3State {
    func readProfile(cylinders: inout [Cylinder], path: String) -> Profile? {
        let s = scalars
        let samplePath = "\(path)/SAMPLE"
        /// A sample's path, built only for a finding.
        func at(_ k: Int) -> String { "\(samplePath)/\(k)" }
        if let v = s["SAMPLECNT"], let n = integer(v, "SAMPLECNT", path: "\(path)/SAMPLECNT"), n != samples.count {
            report(.resolved, "sample-count-mismatch", "<SAMPLECNT> says \(n) samples and the dive holds \(samples.count); each one held is read",
                   path: "\(path)/SAMPLECNT", line: v.line)
        }
        if let v = s["NOPROFILE"], let t = v.text {
            if t == "1" && !samples.isEmpty {
                report(.resolved, "noprofile-with-samples", "<NOPROFILE> is 1 and the dive holds \(samples.count) samples; they are read",
                       path: "\(path)/NOPROFILE", line: v.line)
            } else if t != "0" && t != "1" {
                report(.dropped, "noprofile-unknown", "<NOPROFILE> \"\(t)\" is neither 0 nor 1; not carried", path: "\(path)/NOPROFILE", line: v.line)
            }
        }

        // Samples are ordered by their own time (converting.md), the source's order breaking ties.
        var timed: [(t: Int, k: Int)] = []
        for (k, sample) in samples.enumerated() {
            guard let seconds = decimal(sample.fields["SAMPLETIME"], "SAMPLETIME", path: "\(at(k))/SAMPLETIME") else {
                if sample.fields["SAMPLETIME"]?.text == nil {
                    count(.dropped, "sample-without-time", "SAMPLE", "a <SAMPLE> records no <SAMPLETIME>; not carried", path: at(k), line: sample.line)
                }
                continue
            }
            guard InputLimits.Range.diveSeconds.contains(seconds), let ms = seconds.scaledInteger(3) else {
                count(.dropped, "sample-time-out-of-range", "SAMPLETIME", "<SAMPLETIME> \(seconds) s is outside a dive's 0 s to 10 days; not carried",
                      path: "\(at(k))/SAMPLETIME", line: sample.line)
                continue
            }
            timed.append((ms, k))
        }
        timed.sort { $0.t != $1.t ? $0.t < $1.t : $0.k < $1.k }

        // Pressures in decipascals (thousandths of a millibar), to keep Dive Manager's
        // millibars exact until the straight-line test has read them.
        var depth = Series(), temperature = Series(), pressures = Series()
        var events: [Event] = []
        var zeroTemperatures = 0, zeroPressures = 0
        var kept: [Int] = []
        func add(_ series: inout Series, _ t: Int, _ value: Int, _ name: String, _ k: Int, _ line: Int) {
            if !series.appendKeepingFirst(t, value) {
                count(.dropped, "sample-same-instant", name,
                      "a <\(name)> lands on the millisecond of an earlier one (\(t) ms); the first is kept and this one is not carried",
                      path: "\(at(k))/\(name)", line: line)
            }
        }
        for (t, k) in timed {
            let sample = samples[k]
            if kept.count >= samplesPerDive {
                report(.dropped, "samples-over-limit", "the dive holds more than \(samplesPerDive) samples; the rest are not carried", path: at(k), line: sample.line)
                break
            }
            kept.append(t)
            let f = sample.fields
            if let d = decimal(f["DEPTH"], "DEPTH", path: "\(at(k))/DEPTH") {
                if d.isNegative || !InputLimits.Range.depthMetres.contains(d) {
                    count(.dropped, "depth-out-of-range", "DEPTH", "<DEPTH> \(d) m is above the surface or deeper than any sea; not carried", path: "\(at(k))/DEPTH", line: sample.line)
                } else if let cm = d.scaledInteger(2) {
                    add(&depth, t, cm, "DEPTH", k, sample.line)
                }
            }
            if let c = decimal(f["TEMPERATURE"], "TEMPERATURE", path: "\(at(k))/TEMPERATURE") {
                if c.isZero { zeroTemperatures += 1 } else if let v = c.scaledInteger(2), abs(v) < 100_000 {
                    add(&temperature, t, v, "TEMPERATURE", k, sample.line)
                }
            }
            if let p = decimal(f["PRESSURE"], "PRESSURE", path: "\(at(k))/PRESSURE") {
                if p.isZero { zeroPressures += 1 } else if p.isNegative || p.shifted(by: -3).doubleValue > 500 {
                    count(.dropped, "pressure-out-of-range", "PRESSURE", "<PRESSURE> \(p) mbar is outside 0 to 500 bar; not carried", path: "\(at(k))/PRESSURE", line: sample.line)
                } else if let dPa = p.scaledInteger(3) {
                    add(&pressures, t, dPa, "PRESSURE", k, sample.line)
                }
            }
            if let text = f["BOOKMARK"]?.text {
                // Dive Manager's bookmarks are text ("Surface", "Heading: 120°"): an event with
                // that label and no type, the model's types not being its words.
                events.append(Event(time: t, label: String(text.prefix(255))))
            }
        }
        if zeroTemperatures > 0 {
            report(.resolved, "zero-temperature",
                   "\(zeroTemperatures == 1 ? "1 sample gives" : "\(zeroTemperatures) samples give") 0 °C, which Dive Manager writes in every sample the computer took no temperature for; read as no reading",
                   path: samplePath, line: messageLine)
        }
        if zeroPressures > 0 {
            report(.resolved, "zero-pressure", "\(zeroPressures == 1 ? "1 sample gives" : "\(zeroPressures) samples give") a <PRESSURE> of 0 mbar, Dive Manager's mark of no reading; read as no reading",
                   path: samplePath, line: messageLine)
        }
        if let v = s["SAMPLEINTERVAL"], let interval = decimal(v, "SAMPLEINTERVAL", path: "\(path)/SAMPLEINTERVAL"), let ms = interval.scaledInteger(3),
           zip(kept, kept.dropFirst()).contains(where: { $1 - $0 != ms }) {
            report(.resolved, "sample-interval-mismatch",
                   "<SAMPLEINTERVAL> says a sample every \(interval) s and the samples' own times are not so spaced; their own times are kept",
                   path: "\(path)/SAMPLEINTERVAL", line: v.line)
        }

        var profile = Profile()
        let usesNumbers = readPressures(pressures, into: &profile, cylinders: &cylinders, path: path)
        events += gasSwitches(cylinders: cylinders, hasProfile: !kept.isEmpty, path: path)
        guard let last = kept.max() else { return nil }
        profile.duration = last
        profile.depth = depth.isEmpty ? nil : depth
        profile.temperature = temperature.isEmpty ? nil : temperature
        profile.events = events.sorted { $0.time < $1.time }
        // Numbering: only where the profile uses it, then every cylinder is labelled.
        if usesNumbers || profile.events.contains(where: { $0.type == .gasSwitch }) {
            for i in cylinders.indices { cylinders[i].gasNumber = i }
        }
        return profile
    }

    /// The tank pressures: readings of the first cylinder, except where Dive Manager drew them.
    /// With `<HPTRANSMITTER>` 0 no transmitter read the tank, and pressures that fall on one
    /// straight line in time (within 2 mbar, Dive Manager rounding to the millibar) are the line
    /// it draws between the start and end pressures a diver types in: they are carried as the
    /// cylinder's start and end, not as readings. Returns whether a pressure channel was made.
    /// `pressures` are in decipascals (thousandths of a millibar).
    private func readPressures(_ pressures: Series, into profile: inout Profile,
                               cylinders: inout [Cylinder], path: String) -> Bool {
        guard let t0 = pressures.times.first, let t1 = pressures.times.last,
              let p0 = pressures.values.first, let p1 = pressures.values.last else { return false }
        let transmitter = scalars["HPTRANSMITTER"]
        func mbar(_ dPa: Int) -> Double { Double(dPa) / 1000 }
        func bar(_ dPa: Int) -> Double { Double(dPa) / 1_000_000 }
        if cylinders.isEmpty {
            var c = Cylinder()
            c.gasNumber = 0
            cylinders.append(c)
            report(.absent, "pressure-without-cylinder",
                   "tank pressures arrive and no gas slot or cylinder field describes a cylinder; they go to a cylinder of their own, with no gas or size",
                   path: "\(path)/SAMPLE", line: messageLine)
        }
        let span = Double(t1 - t0)
        let onALine = pressures.count >= 3 && span > 0 && zip(pressures.times, pressures.values).allSatisfy { t, v in
            let expected = mbar(p0) + (mbar(p1) - mbar(p0)) * Double(t - t0) / span
            return abs(mbar(v) - expected) <= 2
        }
        if transmitter?.text == "0" && onALine {
            var c = cylinders[0]
            var kept: [String] = []
            if c.startPressure == nil { c.startPressure = bar(p0); kept.append("start") }
            if c.endPressure == nil, bar(p1) <= bar(p0) { c.endPressure = bar(p1); kept.append("end") }
            cylinders[0] = c
            let carried = kept.isEmpty ? "the cylinder's own start and end pressures are kept instead"
                : "carried as the cylinder's \(kept.joined(separator: " and ")) pressure\(kept.count > 1 ? "s" : ""), not as readings"
            report(.resolved, "pressure-interpolated",
                   "<HPTRANSMITTER> is 0, so no transmitter read the tank, and the \(pressures.count) <PRESSURE> values fall on one straight line from \(bar(p0)) bar at \(t0 / 1000) s to \(bar(p1)) bar at \(t1 / 1000) s: the line Dive Manager draws between the pressures a diver enters; \(carried)",
                   path: "\(path)/SAMPLE", line: transmitter?.line ?? messageLine)
            return false
        }
        if transmitter?.text == "0" {
            report(.resolved, "pressure-without-transmitter",
                   "<HPTRANSMITTER> is 0 and the samples carry \(pressures.count) tank pressures that are not Dive Manager's straight line; carried as readings of the first cylinder",
                   path: "\(path)/SAMPLE", line: transmitter?.line ?? messageLine)
        }
        var series = Series()
        for (t, v) in zip(pressures.times, pressures.values) {
            // Tenths of a bar, halves away from zero.
            guard let tenths = DecimalNumber(v).shifted(by: -5).roundedInteger() else { continue }
            series.append(t, tenths)
        }
        profile.pressures = [PressureSeries(gasNumber: 0, series: series)]
        return true
    }

    /// `<GASCHANGE>`: at `<MIXTIME>` seconds the diver breathes the slot whose oxygen and
    /// helium are `<MIXVALUE>` and `<MIXHEVALUE>`. The change at 0 s to the first cylinder's
    /// gas states the gas the dive began on, which the cylinder order already says.
    private func gasSwitches(cylinders: [Cylinder], hasProfile: Bool, path: String) -> [Event] {
        var events: [Event] = []
        for (k, g) in gasChanges.enumerated() {
            let at = "\(path)/GASCHANGE/\(k)"
            guard let seconds = decimal(g.fields["MIXTIME"], "MIXTIME", path: "\(at)/MIXTIME") else {
                if g.fields["MIXTIME"]?.text == nil {
                    report(.dropped, "gas-change-without-time", "a <GASCHANGE> records no <MIXTIME>; not carried", path: at, line: g.line)
                }
                continue
            }
            let o2 = number(g.fields["MIXVALUE"], "MIXVALUE", path: "\(at)/MIXVALUE")
            let he = number(g.fields["MIXHEVALUE"], "MIXHEVALUE", path: "\(at)/MIXHEVALUE") ?? 0
            guard let o2, let i = cylinders.firstIndex(where: { $0.oxygen == o2 && ($0.helium ?? 0) == he }) else {
                report(.dropped, "gas-change-unknown-mix",
                       "the <GASCHANGE> at \(seconds) s switches to \(o2.map { "\($0) %" } ?? "no") oxygen and \(he) % helium, which no gas slot holds; not carried",
                       path: at, line: g.line)
                continue
            }
            if seconds.isZero && i == 0 { continue }
            guard hasProfile, !seconds.isNegative, let ms = seconds.scaledInteger(3) else {
                report(.dropped, "gas-change-without-profile", "the <GASCHANGE> at \(seconds) s has no profile to sit on; not carried", path: at, line: g.line)
                continue
            }
            events.append(Event(time: ms, type: .gasSwitch, gasNumber: i))
        }
        return events
    }
}
