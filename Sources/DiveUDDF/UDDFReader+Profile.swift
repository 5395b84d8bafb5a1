import DiveCore
import DiveXML

extension UDDFState {
    /// Splits the dive's waypoints into channels on one millisecond axis, ordered by their
    /// own `<divetime>`, and ties pressure channels and gas switches to cylinders.
    func readProfile(_ d: DiveDraft, cylinders: inout [CylinderDraft], recording: inout Recording, path: String) -> Profile? {
        if d.samplesOverLimit > 0 {
            report(.dropped, "uddf.samples-over-limit", "the dive has \(d.samplesOverLimit) waypoints past the first \(samplesPerDive), more than any dive log holds for one dive; those are not carried", path: path, line: d.line)
        }
        guard !d.waypoints.isEmpty else { return nil }
        // Each waypoint's time in ms; the order to visit them is by that time (stable).
        var times = [Int](repeating: -1, count: d.waypoints.count)
        var timeless = 0
        var negative = 0
        var sorted = true
        var previous = Int.min
        var outOfRange = 0
        for (i, w) in d.waypoints.enumerated() {
            guard let t = w.time, let ms = t.scaledInteger(3) else { timeless += 1; continue }
            // Compared as integers (once per sample: a decimal range check costs more).
            guard ms <= Self.maxSampleMilliseconds else { outOfRange += 1; continue }
            guard ms >= 0 else { negative += 1; continue }
            times[i] = ms
            if ms < previous { sorted = false }
            previous = ms
        }
        if timeless > 0 {
            report(.dropped, "uddf.waypoint-without-time", "\(timeless) waypoint\(timeless == 1 ? " has" : "s have") no <divetime>, so nothing can place \(timeless == 1 ? "its readings" : "their readings"); not carried", path: path, line: d.line)
        }
        if negative > 0 {
            report(.dropped, "uddf.waypoint-negative-time", "\(negative) waypoint\(negative == 1 ? "" : "s") carry a negative <divetime>; not carried", path: path, line: d.line)
        }
        var order = d.waypoints.indices.filter { times[$0] >= 0 }
        if !sorted {
            order.sort { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
            report(.resolved, "uddf.waypoints-out-of-order", "waypoints are not in time order; ordered by their own <divetime>", path: path, line: d.line)
        }

        var profile = Profile()
        var depth = ChannelBuilder(), temperature = ChannelBuilder(), ndl = ChannelBuilder()
        var ppo2 = ChannelBuilder(), cns = ChannelBuilder(), gf = ChannelBuilder()
        var tts = ChannelBuilder(), ceiling = ChannelBuilder()
        var extras = [ExtraChannelBuilder](repeating: ExtraChannelBuilder(), count: d.extraChannels.count)
        var zeroCeilings = 0, repeatedSwitches = 0
        var gfSetting: (low: Int, high: Int)?
        var gfChanges = 0, gfZeros = 0, gfHalf = 0
        var lastSwitch: (time: Int, gas: Int?)?
        let definedCylinders = cylinders.count
        var pressures: [Int: ChannelBuilder] = [:]
        var pressureDrops = 0, impossiblePressures = 0
        var undefinedTanks: [String] = []
        var celsiusTemps = 0, barPressures = 0, pascalPPO2 = 0, negativeReadout = 0
        var modeStated: String?
        var modeChanged = false
        var unknownMode: String?
        var switchWithoutCylinder: Set<String> = []
        // The cylinders an id names: a tankdata by its own id, else every tank on that mix.
        func cylindersNamed(_ ref: String) -> [Int] {
            if let i = cylinders.firstIndex(where: { $0.id == ref }) { return [i] }
            return cylinders.indices.filter { cylinders[$0].mix == ref }
        }
        var cylindersForRef = d.refs.map(cylindersNamed)
        var taken = [Int](repeating: 0, count: d.refs.count)
        var touched: [Int] = []

        for index in order {
            let ms = times[index]
            let w = d.waypoints[index]
            if let v = w.depth, let cm = v.scaledInteger(2) {
                if Self.depthCentimetres.contains(cm) { depth.add(ms, cm) } else { outOfRange += 1 }
            }
            if let v = w.temperature {
                if v < DecimalNumber(100) {
                    celsiusTemps += 1
                    if let c = v.scaledInteger(2) { temperature.add(ms, c) }
                } else if let c = v.scaledInteger(2) {
                    temperature.add(ms, c - 27315)
                }
            }
            if let v = w.ndl, let s = v.roundedInteger() {
                if s < 0 { negativeReadout += 1 } else { ndl.add(ms, s) }
            }
            if let v = w.ppo2 {
                let hundredths: Int?
                if v <= DecimalNumber(10) { hundredths = v.scaledInteger(2) } else { pascalPPO2 += 1; hundredths = v.scaledInteger(-3) }
                if let h = hundredths { if h < 0 { negativeReadout += 1 } else { ppo2.add(ms, h) } }
            }
            if let v = w.cns, let tenths = v.scaledInteger(1) {
                if tenths < 0 { negativeReadout += 1 } else { cns.add(ms, tenths) }
            }
            if let v = w.gradientFactor, let p = isShearwaterCloud ? v.roundedInteger() : v.scaledInteger(2) {
                if p < 0 { negativeReadout += 1 } else { gf.add(ms, p) }
            }
            var gfLowSetting: DecimalNumber?, gfHighSetting: DecimalNumber?
            var k = w.extraStart
            while k < w.extraEnd {
                let reading = d.extras[k]
                k += 1
                switch d.extraChannels[reading.channel].kind {
                case .tts:
                    if let s = reading.value.roundedInteger() { if s < 0 { negativeReadout += 1 } else { tts.add(ms, s) } }
                case .ceiling:
                    // A stop at 0 m is no obligation (a ceiling of zero is not a ceiling).
                    if let cm = reading.value.scaledInteger(2) { if cm > 0 { ceiling.add(ms, cm) } else { zeroCeilings += 1 } }
                case .gfLowSetting: gfLowSetting = reading.value
                case .gfHighSetting: gfHighSetting = reading.value
                default: extras[reading.channel].add(ms, reading.value)
                }
            }
            if gfLowSetting != nil || gfHighSetting != nil {
                let percent = { (v: DecimalNumber?) -> Int? in v.flatMap { self.isShearwaterCloud ? $0.roundedInteger() : $0.scaledInteger(2) } }
                if let low = percent(gfLowSetting) ?? gfSetting?.low, let high = percent(gfHighSetting) ?? gfSetting?.high {
                    if low == 0 && high == 0 {
                        gfZeros += 1
                    } else if let set = gfSetting {
                        if set != (low, high) { gfChanges += 1 }
                    } else {
                        gfSetting = (low, high)
                    }
                } else {
                    gfHalf += 1
                }
            }
            if !d.alarms.isEmpty, let items = d.alarms[w.order] {
                profile.events.append(contentsOf: alarmEvents(items, at: ms))
            }
            if w.pressureEnd > w.pressureStart {
                let many = w.pressureEnd - w.pressureStart > 1
                if many { for r in touched { taken[r] = 0 }; touched.removeAll(keepingCapacity: true) }
                for reading in d.pressures[w.pressureStart..<w.pressureEnd] {
                    var index: Int?
                    if reading.ref >= 0 {
                        let candidates = cylindersForRef[reading.ref]
                        let k = many ? taken[reading.ref] : 0
                        if many { taken[reading.ref] = k + 1; touched.append(reading.ref) }
                        if k < candidates.count {
                            index = candidates[k]
                        } else if candidates.isEmpty {
                            // Evidence of a tank is evidence of a tank: telemetry under an id
                            // nothing defines becomes a cylinder carrying only its pressures.
                            let ref = d.refs[reading.ref]
                            cylinders.append(CylinderDraft(cylinder: Cylinder(), id: ref, mix: nil))
                            undefinedTanks.append(ref)
                            cylindersForRef[reading.ref] = [cylinders.count - 1]
                            index = cylinders.count - 1
                        }
                    } else if cylinders.count == 1 {
                        index = 0
                    }
                    guard let index else { pressureDrops += 1; continue }
                    let value = reading.value
                    let tenths: Int?
                    // The summary's rule (``pressureInBar``): below 1000 Pa is bar; below zero no pressure.
                    if value.isNegative { impossiblePressures += 1; continue }
                    if value.isZero || DecimalNumber(1000) <= value { tenths = value.scaledInteger(-4) } else { barPressures += 1; tenths = value.scaledInteger(1) }
                    if let tenths { pressures[index, default: ChannelBuilder()].add(ms, tenths) } else { impossiblePressures += 1 }
                }
            }
            for ref in d.switches.isEmpty ? [] : d.switches[w.order] ?? [] {
                let target = ref.isEmpty ? [] : cylindersNamed(ref)
                if target.isEmpty { switchWithoutCylinder.insert(ref) }
                // A writer that states one switch twice at one instant made one switch.
                if let last = lastSwitch, last.time == ms, last.gas == target.first {
                    repeatedSwitches += 1
                } else {
                    profile.events.append(Event(time: ms, type: .gasSwitch, gasNumber: target.first))
                    lastSwitch = (ms, target.first)
                }
            }
            for marker in d.markers.isEmpty ? [] : d.markers[w.order] ?? [] {
                switch marker {
                case "deep_stop": profile.events.append(Event(time: ms, type: .deepStop))
                case "safety_stop": profile.events.append(Event(time: ms, type: .safetyStop))
                case "bookmark": profile.events.append(Event(time: ms, type: .bookmark))
                default: profile.events.append(Event(time: ms, label: marker))
                }
            }
            if !d.divemodes.isEmpty, let mode = d.divemodes[w.order] {
                if modeStated == nil {
                    modeStated = mode
                    switch mode.lowercased() {
                    case "opencircuit": recording.mode = .openCircuit
                    case "closedcircuit": recording.mode = .closedCircuit
                    case "semiclosedcircuit": recording.mode = .semiClosed
                    case "apnoe", "apnea": recording.mode = .freedive
                    default: unknownMode = mode
                    }
                } else if mode != modeStated {
                    modeChanged = true
                }
            }
        }

        if let map = removeEmptyPressureChannels(&pressures, cylinders: &cylinders, telemetryOnlyFrom: definedCylinders, path: path, line: d.line) {
            for i in profile.events.indices { profile.events[i].gasNumber = profile.events[i].gasNumber.flatMap { map[$0] } }
            undefinedTanks.removeAll { ref in !cylinders.contains { $0.id == ref } }
        }
        if outOfRange > 0 {
            report(.dropped, "uddf.value-out-of-range", "\(outOfRange) sample\(outOfRange == 1 ? " is" : "s are") beyond what a dive can record (a depth deeper than any sea, a time past ten days); not carried", path: path, line: d.line)
        }
        if let mode = unknownMode {
            report(.dropped, "uddf.divemode-unknown", mode.isEmpty ? "a <divemode> states no type; the recording's mode is left unknown" : "dive mode \"\(mode)\" is not a UDDF mode; the recording's mode is left unknown", path: path, line: d.line)
        }
        if modeChanged {
            report(.dropped, "uddf.divemode-change", "the dive mode changes during the dive; only the first mode is carried", path: path, line: d.line)
        }
        if celsiusTemps > 0 {
            report(.resolved, "uddf.temperature-celsius", "\(celsiusTemps) sample temperature\(celsiusTemps == 1 ? " is" : "s are") below 100, so not Kelvin; read as °C", path: path, line: d.line)
        }
        if barPressures > 0 {
            report(.resolved, "uddf.pressure-bar", "\(barPressures) tank pressure\(barPressures == 1 ? " is" : "s are") too small to be Pascal; read as bar", path: path, line: d.line)
        }
        if pascalPPO2 > 0 {
            report(.resolved, "uddf.ppo2-pascal", "\(pascalPPO2) calculated ppO2 value\(pascalPPO2 == 1 ? " is" : "s are") above 10, so Pascal rather than bar; read as Pascal", path: path, line: d.line)
        }
        if negativeReadout > 0 {
            report(.dropped, "uddf.readout-negative", "\(negativeReadout) negative decompression readout\(negativeReadout == 1 ? " is" : "s are") a device's marker for no figure; not carried", path: path, line: d.line)
        }
        if isShearwaterCloud && !gf.series.isEmpty && recording.decoModel?.gfLow == nil {
            report(.resolved, "uddf.gf-whole-percent", "the generator writes gradient factors in whole percent, not as fractions; read as percent", path: path, line: d.line)
        }
        if impossiblePressures > 0 {
            report(.dropped, "uddf.pressure-negative", "\(impossiblePressures) tank pressure reading\(impossiblePressures == 1 ? " is" : "s are") negative or out of range; not carried", path: path, line: d.line)
        }
        if pressureDrops > 0 {
            report(.dropped, "uddf.tankpressure-unassigned", "\(pressureDrops) tank pressure reading\(pressureDrops == 1 ? "" : "s") could not be tied to one cylinder; not carried", path: path, line: d.line)
        }
        for ref in undefinedTanks {
            report(.resolved, "uddf.tankpressure-undefined-tank", "tank pressures name \"\(ref)\", which no tank or gas defines; carried as a cylinder of its own holding only those pressures", path: path, line: d.line)
        }
        for ref in switchWithoutCylinder.sorted() {
            let gas = mixes[ref].map { m in m.name.map { " (\($0))" } ?? "" } ?? ""
            report(.dropped, "uddf.switchmix-no-cylinder", "a gas switch names mix \"\(ref)\"\(gas), which no tank carries; the switch is kept without its gas", path: path, line: d.line)
        }
        zeroCeilings += d.zeroStops
        if d.laterStops > 0 {
            report(.dropped, "uddf.decostop-schedule", "\(d.laterStops) mandatory stop\(d.laterStops == 1 ? "" : "s") beside a waypoint's deepest (the rest of the computer's stop schedule) \(d.laterStops == 1 ? "is" : "are") not carried; the deepest is the ceiling", path: path, line: d.line)
        }
        if zeroCeilings > 0 {
            report(.absent, "uddf.decostop-zero", "\(zeroCeilings) mandatory stop\(zeroCeilings == 1 ? " is" : "s are") at 0 m, which is no obligation; read as no ceiling", path: path, line: d.line)
        }
        if d.placeholderStops > 0 {
            report(.absent, "uddf.placeholder", "\(d.placeholderStops) safety stop\(d.placeholderStops == 1 ? " states" : "s state") 0 m for 0 s: a placeholder, not a stop; not carried", path: path, line: d.line)
        }
        for kind in d.unknownStopKinds.sorted() {
            report(.dropped, "uddf.decostop-kind-unknown", "a <decostop> of kind \"\(kind)\" is neither mandatory nor safety; not carried", path: path, line: d.line)
        }
        if repeatedSwitches > 0 {
            report(.resolved, "uddf.switch-repeated", "\(repeatedSwitches) gas switch\(repeatedSwitches == 1 ? " repeats" : "es repeat") the switch to the same gas at the same instant; carried once", path: path, line: d.line)
        }
        if let set = gfSetting {
            if let model = recording.decoModel, let low = model.gfLow, let high = model.gfHigh, (low, high) != set {
                report(.dropped, "uddf.gf-setting-differs", "the samples set gradient factors \(set.low)/\(set.high), which differ from the linked model's \(low)/\(high); the model's are kept", path: path, line: d.line)
            } else if (0...100).contains(set.low), (0...100).contains(set.high), set.low <= set.high {
                var model = recording.decoModel ?? DecoModel()
                model.gfLow = set.low
                model.gfHigh = set.high
                recording.decoModel = model
            } else {
                report(.dropped, "uddf.gf-setting-invalid", "the samples set gradient factors \(set.low)/\(set.high), which are not a low and a high between 0 and 100 %; not carried", path: path, line: d.line)
            }
            if gfChanges > 0 {
                report(.dropped, "uddf.gf-setting-changed", "the gradient factors change \(gfChanges) time\(gfChanges == 1 ? "" : "s") during the dive; only the first setting is carried", path: path, line: d.line)
            }
        }
        if gfHalf > 0 {
            report(.dropped, "uddf.gf-setting-incomplete", "\(gfHalf) waypoint\(gfHalf == 1 ? " sets" : "s set") one gradient factor with no setting of the other; a low and a high go together, so \(gfHalf == 1 ? "it is" : "they are") not carried", path: path, line: d.line)
        }
        if gfZeros > 0 {
            report(.absent, "uddf.placeholder", "\(gfZeros) gradient factor setting\(gfZeros == 1 ? " is" : "s are") 0/0, a placeholder for no setting; not carried", path: path, line: d.line)
        }
        let collisions = [depth, temperature, ndl, ppo2, cns, gf, tts, ceiling].reduce(0) { $0 + $1.collisions } + pressures.values.reduce(0) { $0 + $1.collisions }
        if collisions > 0 {
            report(.dropped, "uddf.sample-time-collision", "\(collisions) reading\(collisions == 1 ? "" : "s") fall on a millisecond another reading of the same channel already holds; the first is kept", path: path, line: d.line)
        }

        var depthSeries = depth.series
        let removed = removePlaceholderZeros(&depthSeries)
        if removed > 0 {
            report(.resolved, "uddf.depth-zero-placeholder", "\(removed) sample\(removed == 1 ? "" : "s") read 0 m between two deep neighbours, a surfacing no diver can make in that time: the writer's marker for a waypoint with no depth; read as no depth reading", path: path, line: d.line)
        }
        profile.depth = depthSeries.isEmpty ? nil : depthSeries
        if let first = temperature.series.values.first, first == 0, temperature.series.values.allSatisfy({ $0 == 0 }) {
            report(.absent, "uddf.temperature-all-zero", "every sample temperature is 0 °C for the whole dive: the writer had none; read as not recorded", path: path, line: d.line)
            temperature.series = Series()
        }
        profile.temperature = temperature.series.isEmpty ? nil : temperature.series
        profile.tts = tts.series.isEmpty ? nil : tts.series
        profile.ceiling = ceiling.series.isEmpty ? nil : ceiling.series
        profile.extensions = extraChannelsExtension(d, extras, path: path, line: d.line)
        profile.ndl = ndl.series.isEmpty ? nil : ndl.series
        profile.ppo2 = ppo2.series.isEmpty ? nil : ppo2.series
        profile.cns = cns.series.isEmpty ? nil : cns.series
        profile.gradientFactor = gf.series.isEmpty ? nil : gf.series
        for index in pressures.keys.sorted() {
            profile.pressures.append(PressureSeries(gasNumber: index, series: pressures[index]!.series))
        }
        // Cylinders are numbered from 0 in document order, and only where the profile needs
        // the numbering: a pressure channel or a gas switch that names a cylinder.
        if !profile.pressures.isEmpty || profile.events.contains(where: { $0.gasNumber != nil }) {
            for i in cylinders.indices { cylinders[i].cylinder.gasNumber = i }
        }
        profile.duration = profile.allSeries.compactMap(\.times.last).max() ?? 0
        if profile.extensions != nil {
            let extraEnd = extras.compactMap(\.times.last).max() ?? 0
            profile.duration = max(profile.duration, extraEnd)
        }
        if profile.allSeries.isEmpty && profile.extensions == nil {
            report(.dropped, "uddf.samples-unusable", "the dive's samples carry no usable reading; no profile is carried", path: path, line: d.line)
            return nil
        }
        return profile
    }

    /// ``InputLimits/Range`` as the integers a sample is scaled to.
    static let depthCentimetres = InputLimits.Range.depthMetres.lowerBound.scaledInteger(2)!...InputLimits.Range.depthMetres.upperBound.scaledInteger(2)!
    static let maxSampleMilliseconds = InputLimits.Range.diveSeconds.upperBound.scaledInteger(3)!

    /// Removes interior runs of zero depth between two readings at least 3 m deep when, to
    /// produce them, the diver would have had to rise to the surface, stay there for the run,
    /// and descend again faster than 0.5 m/s on average (30 m/min, past the ascent rate every
    /// computer alarms at). divelogs.de writes a waypoint that has no depth as depth 0; a real
    /// surfacing from depth takes minutes, not the seconds between two samples.
    func removePlaceholderZeros(_ s: inout Series) -> Int {
        guard s.count >= 3 else { return 0 }
        var keep = [Bool](repeating: true, count: s.count)
        var removed = 0
        var i = 1
        while i < s.count - 1 {
            guard s.values[i] == 0, s.values[i - 1] >= 300 else { i += 1; continue }
            var j = i
            while j < s.count && s.values[j] == 0 { j += 1 }
            // Zeros i..<j, deep reading before at i-1 and (if any) after at j.
            if j < s.count, s.values[j] >= 300 {
                // Readings are within 11 km and times within 10 days (InputLimits), so none of
                // this can overflow; the checked forms keep it so for any caller.
                let travel = s.values[i - 1].addingReportingOverflow(s.values[j])            // centimetres
                let moving = (s.times[j] - s.times[i - 1]) - (s.times[j - 1] - s.times[i])   // milliseconds
                let fast = travel.overflow || travel.partialValue.multipliedReportingOverflow(by: 20).overflow
                    || travel.partialValue * 20 > moving
                if moving <= 0 || fast {                                                     // above 0.05 cm/ms = 0.5 m/s
                    for k in i..<j { keep[k] = false }
                    removed += j - i
                }
            }
            i = j
        }
        guard removed > 0 else { return 0 }
        var out = Series()
        out.times.reserveCapacity(s.count - removed)
        out.values.reserveCapacity(s.count - removed)
        for k in 0..<s.count where keep[k] { out.append(s.times[k], s.values[k]) }
        s = out
        return removed
    }
}

/// Appends readings to one channel, keeping the first of two readings that land on the
/// same millisecond.
struct ChannelBuilder {
    var series = Series()
    var collisions = 0

    mutating func add(_ ms: Int, _ value: Int) {
        if let last = series.times.last, last == ms { collisions += 1; return }
        series.append(ms, value)
    }
}
