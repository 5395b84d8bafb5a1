import DiveCore

/// Turns a finished draft into the model, by `docs/dl7-mapping.md`.
extension DL7Reader {
    /// Closes the open dive, if any, and hands it over.
    func closeDive() {
        guard let d = draft else { return }
        draft = nil
        let path = "dive/\(d.index)"
        if d.trailerLine == nil {
            report(.resolved, "trailer-absent", "the dive that starts at line \(d.line) has no ZDT trailer (required by DL7); it is read without one",
                   line: d.line, column: 1, path: "\(path)/ZDH")
        }
        if let t = d.recordType, t != "I" {
            report(.dropped, "record-type-not-carried",
                   t == "M" ? "ZDH's record type M says the dive was entered by hand, not uploaded from a computer; umilog's model has no place for that, not carried"
                            : "ZDH's record type \"\(t)\" is neither I (uploaded) nor M (by hand); not carried",
                   line: d.line, column: nil, path: "\(path)/ZDH/3")
        }
        defer {
            findings += rowTally.findings()
            rowTally.removeAll()
        }
        guard d.startOK else {
            report(.dropped, "dive-not-carried", "the dive at line \(d.line) has no readable start; it is not carried", line: d.line, column: nil, path: path, losing: 1)
            return
        }
        var dive = Dive(uuid: Identity.uuid5(namespace: DL7.namespace, name: "dive:\(d.index)"), startedAt: d.start?.dateTime)
        dive.provenance = Provenance(format: "dl7", file: displayName, index: d.index, line: d.line, positionalIdentity: true)
        tally.add("id-absent", .absent, "dl7.id-absent", at: SourceLocation(file: displayName, line: d.line, path: "\(path)/ZDH")) { n in
            "DL7 records no id for a dive (its sequences count exports and the computer's dives); a dive's identity is its place in the file\(n > 1 ? " (\(n) dives)" : "")"
        }
        dive.airTemperature = d.airTemperature.flatMap { $0 > -60 && $0 < 70 ? $0 : nil }
        dive.altitude = d.altitude
        dive.bottomTemperature = d.minWaterTemperature
        dive.type = d.type
        dive.entryType = d.entry
        let depths = SummaryDepths(max: d.maxDepth, mean: nil, maxName: "ZDT's maximum depth", meanName: "")
        dive.maxDepth = depths.max
        for f in depths.findings { report(f.kind, f.code, f.message, line: d.trailerLine, column: nil, path: "\(path)/ZDT/3") }
        if let s = d.start?.wallSeconds, let e = d.end?.wallSeconds {
            if e > s && e - s < 864_000 {
                dive.submergedTime = e - s
                dive.inferred.append("submerged_time")
                report(.inferred, "submerged-time-derived",
                       "the dive's time in the water is ZDT's reach-surface time less ZDH's leave-surface time, \(e - s) s",
                       line: d.trailerLine, column: nil, path: "\(path)/ZDT/4")
            } else {
                report(.dropped, "end-before-start", "ZDT's reach-surface time is not after ZDH's leave-surface time; the dive's time in the water is not carried",
                       line: d.trailerLine, column: nil, path: "\(path)/ZDT/4")
            }
        }

        var recording = Recording()
        if !device.isEmpty || d.internalSequence != nil {
            var dev = device
            if let s = d.internalSequence {
                if let n = Int(s), n >= 1 { dev.diveNumber = n } else {
                    report(.dropped, "not-carried", "ZDH's internal dive sequence \"\(s)\" is not the computer's dive count (a whole number from 1); not carried",
                           line: d.line, column: nil, path: "\(path)/ZDH/2")
                }
            }
            recording.device = dev.isEmpty ? nil : dev
        }
        recording.salinity = units.salinity
        dive.cylinders = cylinders(d)
        recording.profile = profile(d, path: path)
        if recording.hasContent || recording.salinity != nil { dive.recordings = [recording] }
        emit(dive)
    }

    /// A cylinder per distinct mix of the profile's gas switches, in order of first use, the
    /// first given ZDH's tank volume; a diluent when ZDH names one.
    private func cylinders(_ d: DL7Draft) -> [Cylinder] {
        var out: [Cylinder] = []
        for mix in d.mixes {
            var c = Cylinder()
            c.oxygen = mix.oxygen
            c.helium = mix.helium
            out.append(c)
        }
        if out.isEmpty && (d.tankVolume != nil || !d.mainPressure.isEmpty) { out.append(Cylinder()) }
        if !out.isEmpty { out[0].volume = d.tankVolume }
        if let dil = d.diluent {
            var c = Cylinder()
            c.oxygen = dil.oxygen
            c.helium = dil.helium
            c.role = .diluent
            out.append(c)
        }
        let numbered = !d.mainPressure.isEmpty || !d.diluentPressure.isEmpty || Set(d.gases.map(\.mix)).count > 1
        if numbered { for i in out.indices { out[i].gasNumber = i } }
        return out
    }

    /// The profile: each row's time decided (minutes or seconds, see ``timeScale``), the
    /// channels laid on it.
    private func profile(_ d: DL7Draft, path: String) -> Profile? {
        guard !d.rowTimes.isEmpty else { return nil }
        let times = sampleTimes(d, path: path)
        // Rows in time order, the file's order breaking ties.
        var order = Array(d.rowTimes.indices)
        if zip(times, times.dropFirst()).contains(where: { $0 > $1 }) {
            order.sort { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
            report(.resolved, "samples-out-of-order", "the profile's rows are not in time order; they are read in the order of their times",
                   line: d.profileLine, column: nil, path: "\(path)/ZDP")
        }
        var rank = [Int](repeating: 0, count: times.count)
        for (k, row) in order.enumerated() { rank[row] = k }
        var sameInstant = 0
        func series(_ readings: [(row: Int, value: Int)]) -> Series? {
            guard !readings.isEmpty else { return nil }
            var s = Series()
            for r in readings.sorted(by: { rank[$0.row] < rank[$1.row] }) where !s.appendKeepingFirst(times[r.row], r.value) {
                sameInstant += 1
            }
            return s
        }
        var p = Profile()
        p.depth = series(d.depth)
        p.ceiling = series(d.ceiling)
        p.temperature = series(d.temperature)
        p.ppo2 = series(d.ppo2)
        p.cns = series(d.cns)
        if let s = series(d.mainPressure) { p.pressures.append(PressureSeries(gasNumber: 0, series: s)) }
        if let s = series(d.diluentPressure) { p.pressures.append(PressureSeries(gasNumber: d.mixes.isEmpty ? 1 : d.mixes.count, series: s)) }
        if sameInstant > 0 {
            report(.dropped, "sample-same-instant", "\(sameInstant) readings land on the millisecond of an earlier one; the first is kept and these are not carried",
                   line: d.profileLine, column: nil, path: "\(path)/ZDP")
        }
        // Gas switches: the first gas is the one the dive begins on (the cylinder order says
        // it); each change after it is a switch.
        var current: Int?
        for g in d.gases.sorted(by: { rank[$0.row] < rank[$1.row] }) {
            defer { current = g.mix }
            guard let c = current, c != g.mix else { continue }
            p.events.append(Event(time: times[g.row], type: .gasSwitch, gasNumber: g.mix))
        }
        for v in d.violations { p.events.append(Event(time: times[v.row], type: v.type)) }
        p.events.sort { $0.time < $1.time }
        p.duration = times.max() ?? 0
        return p.isEmpty && p.duration == 0 ? nil : p
    }

    /// Each row's time in milliseconds. The spec writes minutes and decimals of a minute; some
    /// writers (Subsurface's test file) write seconds. The rule, said in a finding whenever it
    /// departs from the spec or decides by size:
    ///
    /// 1. With a fixed interval (`Q<n>S/M/H`), the first step between rows tells: a step of
    ///    n s in minutes (`0.083` for `Q5S`) is minutes, a step of n is seconds.
    /// 2. Otherwise the last row's time is compared with the dive's length from ZDH to ZDT:
    ///    whichever reading lands nearer (by ratio) is taken.
    /// 3. With neither, minutes, as the spec says.
    ///
    /// Times in minutes rounded to their last written decimal (`0.083` for 5 s) are put back on
    /// the fixed interval's grid when they are within that rounding of it.
    private func sampleTimes(_ d: DL7Draft, path: String) -> [Int] {
        let raw = d.rowTimes.map(\.doubleValue)
        let at = SourceLocation(file: displayName, line: d.profileLine, path: "\(path)/ZDP/1")
        let interval: Int? = { if case .every(let s) = d.interval { return s }; return nil }()
        var inMinutes = true
        var decided = false
        if let n = interval, let step = zip(raw, raw.dropFirst()).map({ $1 - $0 }).first(where: { $0 > 0 }) {
            let tolerance = max(1, Double(n) / 10)
            if abs(step * 60 - Double(n)) <= tolerance {
                decided = true
            } else if abs(step - Double(n)) <= tolerance {
                inMinutes = false
                decided = true
                tally.add("seconds-by-interval", .resolved, "dl7.profile-in-seconds", at: at) { c in
                    "the profile's times step by \(n) and ZDH's recording interval \(d.intervalText ?? "") is a sample every \(n) s: they are seconds, not the spec's minutes\(c > 1 ? " (\(c) dives)" : "")"
                }
            }
        }
        if !decided, let last = raw.max(), last > 0, let s = d.start?.wallSeconds, let e = d.end?.wallSeconds, e > s {
            let length = Double(e - s)
            func ratio(_ a: Double) -> Double { a > length ? a / length : length / a }
            let minutes = ratio(last * 60) <= ratio(last)
            inMinutes = minutes
            decided = true
            let mode = d.intervalText.map { "the recording interval \($0)" } ?? "no recording interval"
            tally.add("by-length:\(minutes)", .resolved, "dl7.profile-time-unit", at: at) { c in
                "with \(mode) the profile's time unit is not fixed; its last time \(DL7Reader.plain(last)) fits the dive's \(e - s) s from ZDH to ZDT as \(minutes ? "minutes (the spec's unit)" : "seconds"), so its times are read as \(minutes ? "minutes" : "seconds")\(c > 1 ? " (\(c) dives)" : "")"
            }
        }
        if !decided {
            tally.add("spec-minutes", .resolved, "dl7.profile-time-unit", at: at) { c in
                "neither a fixed recording interval nor the dive's end fixes the profile's time unit; its times are read as the spec's minutes\(c > 1 ? " (\(c) dives)" : "")"
            }
        }
        guard inMinutes else { return d.rowTimes.map { Int(($0.doubleValue * 1000).rounded()) } }
        var snapped = 0
        var example: (DecimalNumber, Double)?
        let times = d.rowTimes.map { t -> Int in
            let seconds = t.doubleValue * 60
            if let n = interval, t.exponent < 0 {
                // Half a unit of the last written decimal, in seconds.
                var unit = 1.0
                for _ in 0..<(-t.exponent) { unit /= 10 }
                let slack = 0.5 * unit * 60 + 1e-9
                let k = (seconds / Double(n)).rounded()
                let grid = k * Double(n)
                if abs(seconds - grid) <= slack {
                    if abs(seconds - grid) > 1e-6 {
                        snapped += 1
                        if example == nil { example = (t, grid) }
                    }
                    return Int(grid * 1000)
                }
            }
            return Int((seconds * 1000).rounded())
        }
        if snapped > 0, let n = interval, let (t, grid) = example {
            tally.add("snapped", .resolved, "dl7.time-rounded", at: at) { c in
                "profile times in minutes are rounded to their last decimal (\(t) min for \(DL7Reader.plain(grid)) s); \(c == 1 ? "a dive's" : "\(c) dives'") times within that rounding of the \(d.intervalText ?? "") interval's \(n) s grid are read on it"
            }
        }
        return times
    }

    static func plain(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
