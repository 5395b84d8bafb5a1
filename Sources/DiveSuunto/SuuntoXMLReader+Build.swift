import DiveCore
import DiveXML

/// Turns what was read into the model, by `docs/suunto-xml-mapping.md`.
extension SuuntoXMLState {
    static let maxCylinders = 16

    /// A decimal in `value`, or a `text-not-a-number` finding; `nil` when absent.
    func number(_ value: SuuntoValue?, path: String) -> Double? {
        guard let value, let text = value.text else { return nil }
        guard let v = Double(text), v.isFinite else {
            report(.dropped, "not-a-number", "<\(path.split(separator: "/").last ?? "")> holds \"\(text)\", not a number; not carried",
                   path: path, line: value.line)
            return nil
        }
        return v
    }

    func buildDive() -> Dive? {
        let path = "Dive"
        // Start.
        var startedAt: DiveDateTime?
        if let st = scalars["StartTime"], let text = st.text {
            guard let (dt, notes) = DiveDateTime.parse(text), !notes.dateOnly || true else {
                report(.dropped, "start-invalid", "<StartTime> \"\(text)\" is not a date and time; the dive is not carried",
                       path: "\(path)/StartTime", line: st.line, losing: 1)
                return nil
            }
            if dt.offset != nil {
                report(.dropped, "start-with-offset",
                       "<StartTime> \"\(text)\" carries a UTC offset, which this serializer never writes; the file is not a document this reader knows the meaning of, and the dive is not carried",
                       path: "\(path)/StartTime", line: st.line, losing: 1)
                return nil
            }
            if notes.secondsMissing {
                report(.absent, "time-without-seconds", "<StartTime> \"\(text)\" has no seconds; read as :00", path: "\(path)/StartTime", line: st.line)
            }
            startedAt = dt
            report(.absent, "offset-absent", "the format records no UTC offset; the start is the wall clock alone",
                   path: "\(path)/StartTime", line: st.line)
        } else {
            report(.absent, "start-absent", "the dive records no <StartTime>", path: path, line: diveLine)
        }
        var dive = Dive(uuid: Identity.uuid5(namespace: SuuntoXML.namespace, name: "dive:#0"), startedAt: startedAt)
        dive.provenance = Provenance(format: "suunto-xml", file: file, index: 0, line: diveLine, positionalIdentity: true)
        report(.absent, "id-absent", "a DM4/DM5 export records no id for its dive; its identity is positional", path: path, line: diveLine)

        if let v = number(scalars["Duration"], path: "\(path)/Duration") {
            let s = Int(v.rounded(.toNearestOrAwayFromZero))
            if s > 0 { dive.submergedTime = s } else {
                report(.absent, "duration-zero", "<Duration> is \(v), below a whole second: not a duration; not carried",
                       path: "\(path)/Duration", line: scalars["Duration"]!.line)
            }
        }
        if let n = scalars["Note"]?.text { dive.notes = n }
        // The same rule as every reader's (``SummaryDepths``), on the exact decimals.
        let maxDepth = number(scalars["MaxDepth"], path: "\(path)/MaxDepth").flatMap { _ in scalars["MaxDepth"]?.text.flatMap(DecimalNumber.init) }
        let avgDepth = number(scalars["AvgDepth"], path: "\(path)/AvgDepth").flatMap { _ in scalars["AvgDepth"]?.text.flatMap(DecimalNumber.init) }
        let depths = SummaryDepths(max: maxDepth, mean: avgDepth, maxName: "<MaxDepth>", meanName: "<AvgDepth>")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings {
            let element = f.member == .max ? "MaxDepth" : "AvgDepth"
            report(f.kind, f.code, f.message, path: "\(path)/\(element)", line: scalars[element]?.line)
        }
        dive.bottomTemperature = number(scalars["BottomTemperature"], path: "\(path)/BottomTemperature")
        for name in ["Visibility", "Weather", "Weight"] {
            if let v = scalars[name], let t = v.text {
                report(.dropped, "\(name.lowercased())-not-carried",
                       "<\(name)> \"\(t)\" is read at no scale the file states (mapping: refused rather than guessed); not carried",
                       path: "\(path)/\(name)", line: v.line)
            }
        }

        // The recording.
        var rec = Recording()
        var device = Device()
        device.brand = "Suunto"
        device.model = scalars["Source"]?.text
        device.serial = scalars["SerialNumber"]?.text
        device.firmware = scalars["Software"]?.text
        if let v = number(scalars["DiveNumberInSerie"], path: "\(path)/DiveNumberInSerie") {
            if v >= 1, v == v.rounded(), v < 1e9 { device.diveNumber = Int(v) } else {
                report(.dropped, "dive-number-invalid", "<DiveNumberInSerie> \(v) is not a counter; not carried",
                       path: "\(path)/DiveNumberInSerie", line: scalars["DiveNumberInSerie"]!.line)
            }
        }
        rec.device = device
        if let model = device.model {
            header.sourceGenerator = Generator(name: model, version: device.firmware)
        }
        if let m = scalars["Mode"], let t = m.text {
            switch t {
            case "0", "1": rec.mode = .openCircuit
            case "3": rec.mode = .freedive
            default:
                report(.absent, "mode-unknown", "<Mode> \"\(t)\" is not a mode the mapping knows (0, 1, 3); the recording's mode is left absent",
                       path: "\(path)/Mode", line: m.line)
            }
        }
        if rec.mode == .freedive, let pm = scalars["PersonalMode"], let t = pm.text {
            report(.dropped, "conservatism-on-freedive",
                   "<PersonalMode> \"\(t)\" is stated on a freedive, which ran no deco model; not carried",
                   path: "\(path)/PersonalMode", line: pm.line)
        } else if let v = number(scalars["PersonalMode"], path: "\(path)/PersonalMode") {
            if v == v.rounded(), abs(v) < 100 {
                var deco = DecoModel()
                deco.conservatism = Int(v)
                rec.decoModel = deco
            } else {
                report(.dropped, "personal-mode-invalid", "<PersonalMode> \(v) is not a whole conservatism step; not carried",
                       path: "\(path)/PersonalMode", line: scalars["PersonalMode"]!.line)
            }
        }
        if let v = number(scalars["SurfacePressure"], path: "\(path)/SurfacePressure") {
            let bar = v / 100_000
            if let b = DecimalNumber(bar), InputLimits.Range.surfaceBar.contains(b) { rec.surfacePressure = bar } else {
                report(.dropped, "surface-pressure-out-of-range",
                       "<SurfacePressure> \(v) Pa is \(bar) bar, outside 0.4 to 1.2 bar; not carried",
                       path: "\(path)/SurfacePressure", line: scalars["SurfacePressure"]!.line)
            }
        }
        for (name, keyPath) in [("CnsStart", \Recording.cnsStart), ("CnsEnd", \Recording.cnsEnd),
                                ("OtuStart", \Recording.otuStart), ("OtuEnd", \Recording.otuEnd)] {
            if let v = number(scalars[name], path: "\(path)/\(name)") {
                if v >= 0 { rec[keyPath: keyPath] = v } else {
                    report(.dropped, "negative", "<\(name)> \(v) is below zero; not carried", path: "\(path)/\(name)", line: scalars[name]!.line)
                }
            }
        }

        // Cylinders.
        var transmitters: [Int] = []
        var events: [Event] = []
        for (i, mix) in mixtures.enumerated() {
            let mpath = "\(path)/DiveMixtures/DiveMixture/\(i)"
            if i >= Self.maxCylinders {
                report(.dropped, "cylinders-over-cap", "more than \(Self.maxCylinders) <DiveMixture>; this one is not carried", path: mpath, line: mix.line)
                continue
            }
            dive.cylinders.append(cylinder(mix, path: mpath))
            if mix.fields["TransmitterId"]?.text != nil { transmitters.append(i) }
            for change in mix.gasChanges {
                guard let v = number(change, path: "\(mpath)/DiveGasChanges/DiveGasChange/GasChangeTime") else { continue }
                guard v >= 0 else {
                    report(.dropped, "gas-change-before-start", "<GasChangeTime> \(v) s is before the dive began; not carried",
                           path: "\(mpath)/DiveGasChanges/DiveGasChange/GasChangeTime", line: change.line)
                    continue
                }
                events.append(Event(time: Int((v * 1000).rounded(.toNearestOrAwayFromZero)), type: .gasSwitch, gasNumber: i))
            }
        }

        // The profile.
        var profile = Profile()
        var depth = Series(), ceiling = Series(), temperature = Series(), pressure = Series()
        // Samples are ordered by their own time (converting.md), the source's order breaking
        // ties; two readings of one channel on one millisecond keep the first (per channel).
        var timed: [(t: Int, seconds: Double, k: Int)] = []
        // A habit of every sample is one finding, at its first sample, with the count.
        var tally = FindingTally()
        let file = self.file
        func count(_ kind: FindingKind, _ code: String, _ what: String, path: @autoclosure () -> String, line: Int,
                   _ message: @escaping @Sendable (Int) -> String) {
            tally.add(code + "|" + what, kind, "suunto-xml.\(code)", at: SourceLocation(file: file, line: line, path: path()), message)
        }
        func sampleNumber(_ v: SuuntoValue?, _ name: String, path: @autoclosure () -> String) -> Double? {
            guard let v, let text = v.text else { return nil }
            guard let d = Double(text), d.isFinite else {
                count(.dropped, "not-a-number", name, path: path(), line: v.line) { n in
                    "<\(name)> holds \"\(text)\", not a number\(n > 1 ? " (and \(n - 1) more samples like it)" : ""); not carried"
                }
                return nil
            }
            return d
        }
        for (k, s) in samples.enumerated() {
            guard let tv = sampleNumber(s.fields["Time"], "Time", path: "\(path)/DiveSamples/Dive.Sample/\(k)/Time") else {
                if s.fields["Time"]?.text == nil {
                    count(.dropped, "sample-without-time", "", path: "\(path)/DiveSamples/Dive.Sample/\(k)", line: s.line) { n in
                        "\(n == 1 ? "a sample records" : "\(n) samples record") no <Time>; not carried"
                    }
                }
                continue
            }
            timed.append((Int((tv * 1000).rounded(.toNearestOrAwayFromZero)), tv, k))
        }
        timed.sort { $0.t != $1.t ? $0.t < $1.t : $0.k < $1.k }
        var lastTime: Int?
        var kept = 0
        var timeOnly = 0
        func add(_ series: inout Series, _ t: Int, _ value: Int, _ name: String, _ spath: @autoclosure () -> String, _ line: Int) -> Bool {
            if series.appendKeepingFirst(t, value) { return true }
            count(.dropped, "sample-same-instant", name, path: "\(spath())/\(name)", line: line) { n in
                "\(n == 1 ? "a <\(name)> lands" : "\(n) <\(name)> readings land") on the millisecond of an earlier one (the first at \(t) ms); the first is kept"
            }
            return false
        }
        for (t, tv, k) in timed {
            let s = samples[k]
            func spath() -> String { "\(path)/DiveSamples/Dive.Sample/\(k)" }
            if kept >= samplesPerDive {
                report(.dropped, "samples-over-limit", "the dive holds more than \(samplesPerDive) samples; the rest are not carried", path: spath(), line: s.line)
                break
            }
            if t < 0 {
                count(.dropped, "sample-before-start", "", path: spath(), line: s.line) { n in
                    "\(n == 1 ? "a sample" : "\(n) samples") at \(tv) s (the first) before the dive began; not carried"
                }
                continue
            }
            var any = false
            if let v = sampleNumber(s.fields["Depth"], "Depth", path: "\(spath())/Depth") {
                if v >= 0 { any = add(&depth, t, Int((v * 100).rounded(.toNearestOrAwayFromZero)), "Depth", spath(), s.line) || any } else {
                    count(.dropped, "depth-negative", "", path: "\(spath())/Depth", line: s.line) { n in
                        "\(n == 1 ? "a <Depth>" : "\(n) <Depth> readings") above the surface (the first \(v) m); not carried"
                    }
                }
            }
            if let v = sampleNumber(s.fields["Ceiling"], "Ceiling", path: "\(spath())/Ceiling"), v > 0 {
                any = add(&ceiling, t, Int((v * 100).rounded(.toNearestOrAwayFromZero)), "Ceiling", spath(), s.line) || any
            }
            if let v = sampleNumber(s.fields["Temperature"], "Temperature", path: "\(spath())/Temperature") {
                any = add(&temperature, t, Int((v * 100).rounded(.toNearestOrAwayFromZero)), "Temperature", spath(), s.line) || any
            }
            if let v = sampleNumber(s.fields["Pressure"], "Pressure", path: "\(spath())/Pressure") {
                let bar = v / 1000
                if let b = DecimalNumber(bar), InputLimits.Range.tankBar.contains(b) {
                    any = add(&pressure, t, Int((bar * 10).rounded(.toNearestOrAwayFromZero)), "Pressure", spath(), s.line) || any
                } else {
                    count(.dropped, "pressure-out-of-range", "", path: "\(spath())/Pressure", line: s.line) { n in
                        "\(n == 1 ? "a <Pressure>" : "\(n) <Pressure> readings") outside 0 to 350 bar (the first \(v) mbar, \(bar) bar); not carried"
                    }
                }
            }
            // Only a sample that stated no reading at all is time-only; one whose readings
            // collided has been reported per channel above.
            if !any && ["Depth", "Ceiling", "Temperature", "Pressure"].allSatisfy({ s.fields[$0]?.text == nil }) { timeOnly += 1 }
            lastTime = max(lastTime ?? t, t)
            kept += 1
        }
        findings += tally.findings()
        if timeOnly > 0 {
            report(.dropped, "sample-without-reading", "\(timeOnly) samples carry a time and no reading this format can hold",
                   path: "\(path)/DiveSamples", line: diveLine)
        }
        if let last = lastTime {
            profile.duration = last
            profile.depth = depth.isEmpty ? nil : depth
            profile.ceiling = ceiling.isEmpty ? nil : ceiling
            profile.temperature = temperature.isEmpty ? nil : temperature
            if !pressure.isEmpty {
                switch transmitters.count {
                case 1:
                    profile.pressures = [PressureSeries(gasNumber: transmitters[0], series: pressure)]
                case 0:
                    var c = Cylinder()
                    c.gasNumber = dive.cylinders.count
                    profile.pressures = [PressureSeries(gasNumber: dive.cylinders.count, series: pressure)]
                    dive.cylinders.append(c)
                    report(.absent, "pressure-without-cylinder",
                           "tank readings arrive and no <DiveMixture> names a <TransmitterId>; they are carried as a cylinder of their own, with no gas, size or pressures",
                           path: "\(path)/DiveSamples", line: diveLine)
                default:
                    report(.dropped, "pressure-cylinder-ambiguous",
                           "\(transmitters.count) <DiveMixture> name a <TransmitterId> and the samples carry one <Pressure> with no cylinder; the \(pressure.count) readings are not carried",
                           path: "\(path)/DiveSamples", line: diveLine)
                }
            }
            profile.events = events.sorted { $0.time < $1.time }
            rec.profile = profile
        } else if !events.isEmpty {
            report(.dropped, "gas-changes-without-profile", "\(events.count) gas changes have no profile to sit on; not carried",
                   path: "\(path)/DiveMixtures", line: diveLine)
            events = []
        }
        // Numbering: only where the profile uses it, then every cylinder is labelled.
        if !profile.pressures.isEmpty || !(rec.profile?.events.isEmpty ?? true) {
            for i in dive.cylinders.indices { dive.cylinders[i].gasNumber = i }
        }
        dive.recordings = [rec]
        return dive
    }

    private func cylinder(_ mix: MixtureDraft, path: String) -> Cylinder {
        var c = Cylinder()
        let f = mix.fields
        if let v = number(f["Size"], path: "\(path)/Size") {
            if v > 0 { c.volume = v } else {
                report(.absent, "zero-placeholder", "<Size> is \(v): no cylinder size; not carried", path: "\(path)/Size", line: f["Size"]!.line)
            }
        }
        let start = number(f["StartPressure"], path: "\(path)/StartPressure")
        let end = number(f["EndPressure"], path: "\(path)/EndPressure")
        if start == 0 && (end == 0 || end == nil) {
            report(.absent, "pressures-zero", "<StartPressure> and <EndPressure> are both 0, the format's mark of a cylinder with no transmitter; not carried",
                   path: path, line: mix.line)
        } else {
            if let s = start {
                let bar = s / 1000
                if bar <= 0 || bar > 350 {
                    report(.dropped, "pressure-out-of-range", "<StartPressure> \(s) mbar is \(bar) bar, outside 0 to 350 bar; not carried",
                           path: "\(path)/StartPressure", line: f["StartPressure"]!.line)
                } else { c.startPressure = bar }
            }
            if let e = end {
                let bar = e / 1000
                if bar < 0 || bar > 350 {
                    report(.dropped, "pressure-out-of-range", "<EndPressure> \(e) mbar is \(bar) bar, outside 0 to 350 bar; not carried",
                           path: "\(path)/EndPressure", line: f["EndPressure"]!.line)
                } else if let s = c.startPressure, bar > s {
                    report(.dropped, "end-above-start", "<EndPressure> \(bar) bar is above the start's \(s) bar; not carried",
                           path: "\(path)/EndPressure", line: f["EndPressure"]!.line)
                } else { c.endPressure = bar }
            }
        }
        let o2 = number(f["Oxygen"], path: "\(path)/Oxygen")
        let he = number(f["Helium"], path: "\(path)/Helium")
        if (o2 ?? 0) + (he ?? 0) > 100 || (o2 ?? 0) < 0 || (he ?? 0) < 0 {
            report(.dropped, "mix-invalid", "<Oxygen> \(o2 ?? 0) % and <Helium> \(he ?? 0) % are not a mix (above 100 % or negative); neither is carried",
                   path: path, line: mix.line)
        } else {
            c.oxygen = o2
            c.helium = he
        }
        if o2 == nil && he == nil {
            report(.absent, "gas-absent", "the export records no gas for this cylinder", path: path, line: mix.line)
        }
        if let v = number(f["PO2"], path: "\(path)/PO2") {
            if v >= 0.4 && v <= 2.0 { c.ppo2Limit = v } else {
                report(.dropped, "ppo2-limit-out-of-range", "<PO2> \(v) bar is outside 0.4 to 2.0 bar; not carried",
                       path: "\(path)/PO2", line: f["PO2"]!.line)
            }
        }
        return c
    }
}
