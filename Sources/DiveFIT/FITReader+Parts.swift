import DiveCore

extension FITReader {
    /// The computer: `file_id` and the `device_info` at device index 0 (libdivecomputer's rule;
    /// another index is a transmitter or a strap), else the first naming the file's maker.
    func device(_ facts: FITFileFacts, session: FITMessage?) -> Device? {
        let c = consumption
        var device = Device()
        let file = facts.fileID
        c.mark(file, [0])
        let maker = c.take(file, 1)?.uintValue
        if let maker { device.brand = FITProfile.manufacturers[UInt32(truncatingIfNeeded: maker)] ?? String(maker) }
        device.model = c.take(file, 8)?.stringValue
        let info = facts.deviceInfos.first { $0.value(0)?.uintValue == 0 }
            ?? facts.deviceInfos.first { maker != nil && $0.value(2)?.uintValue == maker }
        if let info {
            c.mark(info, [0, 2, 253])
            if device.brand == nil, let m = c.take(info, 2)?.uintValue {
                device.brand = FITProfile.manufacturers[UInt32(truncatingIfNeeded: m)] ?? String(m)
            }
            if let v = c.take(info, 5)?.uintValue {
                device.firmware = "\(v / 100).\(v % 100 < 10 ? "0" : "")\(v % 100)"
            }
        }
        if let s = (info.flatMap { $0.value(0)?.uintValue == 0 ? c.take($0, 3) : nil } ?? c.take(file, 3))?.uintValue, s != 0 {
            device.serial = String(s)
            // The file's own claim, when it is the same number, is carried with it.
            if file?.value(3)?.uintValue == s { c.mark(file, [3]) }
        }
        if let n = c.take(session, 156)?.uintValue, n > 0, n < 1_000_000_000 { device.diveNumber = Int(n) }
        return device.isEmpty ? nil : device
    }

    /// `dive_settings`: the water the computer was set to, and the gradient factors.
    func readSettings(_ s: FITMessage?, into rec: inout Recording, at: (index: Int, offset: Int)?) {
        guard let s else { return }
        let c = consumption
        c.mark(s, [253, 254])
        if let w = c.take(s, 4)?.uintValue {
            switch w {
            case 0: rec.salinity = .fresh
            case 1: rec.salinity = .salt
            case 2: rec.salinity = .en13319
            case 3:
                let density = c.take(s, 5)?.doubleValue.map { " of \($0) kg/m³" } ?? ""
                report(.dropped, "custom-water-density", "the computer was set to a custom water density\(density), which a recording's salinity cannot hold; not carried", message: s)
            default:
                report(.dropped, "water-type-unknown", "dive_settings.water_type \(w) is not a value of the profile; not carried", message: s)
            }
        }
        if w4IsKnown(s) { c.mark(s, [5]) }
        let low = c.take(s, 2)?.uintValue, high = c.take(s, 3)?.uintValue
        let model = c.take(s, 1)?.uintValue
        if rec.mode == .freedive {
            if low != nil || high != nil || model != nil, consumption.reported.insert(s.index).inserted {
                report(.dropped, "deco-model-on-freedive", "the settings name a decompression model on a freediving session, which runs none; not carried", message: s)
            }
            return
        }
        var deco = DecoModel()
        if let low, let high, low <= 100, high <= 200 {
            deco.gfLow = Int(low)
            deco.gfHigh = Int(high)
        } else if low != nil || high != nil {
            report(.dropped, "gradient-factor-alone", "dive_settings states one gradient factor without the other; neither is carried", message: s)
        }
        if model == 0 { deco.algorithm = "buhlmann" }
        if !deco.isEmpty { rec.decoModel = deco }
    }

    /// The water density rides with a stated water type (it is the type's number).
    private func w4IsKnown(_ s: FITMessage) -> Bool { (s.value(4)?.uintValue).map { $0 <= 2 } ?? false }

    /// `dive_gas`: the enabled and backup gases in the device's own order (the low 12 bits of
    /// `message_index`, the first of a repeated index kept); a disabled slot is a gas the
    /// computer was programmed with and the dive did not carry.
    func buildCylinders(_ gases: [FITMessage], into dive: inout Dive, gasIndex: inout [UInt64: Int]) {
        let c = consumption
        var indexed: [(UInt64, FITMessage)] = []
        var unindexed: [FITMessage] = []
        var seen = Set<UInt64>()
        for g in gases {
            c.mark(g, [254, 253])
            if let i = FITPlan.messageIndex(g) {
                if seen.insert(i).inserted { indexed.append((i, g)) } else {
                    c.mark(g, [0, 1, 2, 3])
                    report(.dropped, "gas-repeated", "dive_gas \(i) is announced again; the first is kept", message: g)
                }
            } else {
                unindexed.append(g)
            }
        }
        indexed.sort { $0.0 < $1.0 }
        for (i, g) in indexed.map({ ($0.0 as UInt64?, $0.1) }) + unindexed.map({ (nil as UInt64?, $0) }) {
            let status = c.take(g, 2)?.uintValue
            let o2 = c.take(g, 1)?.uintValue, he = c.take(g, 0)?.uintValue
            let mode = c.take(g, 3)?.uintValue
            if status == 0 {
                report(.dropped, "gas-disabled", "a disabled gas slot (\(o2.map { "\($0)% O₂" } ?? "no oxygen")\(he.map { ", \($0)% He" } ?? "")) is a gas the computer was programmed with, not one the dive carried; not carried", message: g)
                continue
            }
            var cyl = Cylinder()
            if let o2 {
                if o2 >= 1 && o2 <= 100 { cyl.oxygen = Double(o2) } else {
                    report(.dropped, "gas-out-of-range", "dive_gas oxygen_content \(o2)% is not a fraction of a gas; not carried", message: g)
                }
            }
            if let he {
                if he <= 100, (cyl.oxygen ?? 0) + Double(he) <= 100 { cyl.helium = Double(he) } else {
                    report(.dropped, "gas-out-of-range", "dive_gas helium_content \(he)% does not fit beside its oxygen; not carried", message: g)
                }
            }
            if mode == 1 { cyl.role = .diluent }
            if let i { gasIndex[i] = dive.cylinders.count }
            dive.cylinders.append(cyl)
        }
    }

    /// Tank telemetry: each pod's summary where it has a figure, else its readings' ends; joined
    /// to the gases in order only when there are as many pods as gases (nothing in a FIT file
    /// links one to the other).
    func buildTanks(_ summaries: [FITMessage], draft d: DiveDraft, dive: inout Dive, profile: inout Profile,
                    ms: (UInt32) -> Int?, at: (index: Int, offset: Int)?) {
        let c = consumption
        struct Pod { var sensor: UInt64?; var start: Double?; var end: Double?; var series: Series? }
        var pods: [Pod] = []
        func bar(_ v: UInt64?, _ what: String, _ m: FITMessage?) -> Double? {
            guard let v else { return nil }
            let b = Double(v) / 100
            if v == 0 { return nil }
            guard let d = DecimalNumber(b), InputLimits.Range.tankBar.contains(d) else {
                report(.dropped, "pressure-out-of-range", "a tank \(what) of \(b) bar is outside 0–350 bar; not carried", message: m)
                return nil
            }
            return b
        }
        var bySensor: [UInt64: Int] = [:]
        for s in summaries {
            c.mark(s, [253])
            let sensor = c.take(s, 0)?.uintValue
            let start = bar(c.take(s, 1)?.uintValue, "start pressure", s)
            let end = bar(c.take(s, 2)?.uintValue, "end pressure", s)
            guard start != nil || end != nil || (sensor.map { d.tanks[$0] != nil } ?? false) else {
                report(.absent, "tank-summary-empty", "a tank_summary names a transmitter and carries no pressure (zero is the device's absent-marker); it describes no cylinder", message: s)
                continue
            }
            if let sensor { bySensor[sensor] = pods.count }
            pods.append(Pod(sensor: sensor, start: start, end: end))
        }
        var impossible = 0
        defer {
            if impossible > 0 {
                report(.dropped, "pressure-out-of-range", "\(impossible) tank_update reading(s) of 0 bar or past 350 bar are no cylinder's pressure; not carried", at: at)
            }
        }
        for sensor in d.tankSensors {
            guard let raw = d.tanks[sensor] else { continue }
            var pairs: [(Int, Int)] = []
            var bars: [(Int, Double)] = []
            for k in raw.times.indices {
                guard let t = ms(raw.times[k]) else { continue }
                let b = Double(raw.values[k]) / 100
                guard b > 0, let d = DecimalNumber(b), InputLimits.Range.tankBar.contains(d) else { impossible += 1; continue }
                pairs.append((t, Int((b * 10).rounded(.toNearestOrAwayFromZero))))
                bars.append((t, b))
            }
            var collisions = 0
            let series = Self.series(pairs, collisions: &collisions)
            let ordered = bars.sorted { $0.0 < $1.0 }
            let i = bySensor[sensor] ?? { pods.append(Pod(sensor: sensor)); return pods.count - 1 }()
            pods[i].series = series
            if pods[i].start == nil { pods[i].start = ordered.first?.1 }
            if pods[i].end == nil { pods[i].end = ordered.last?.1 }
        }
        guard !pods.isEmpty else { return }
        for i in pods.indices {
            if let s = pods[i].start, let e = pods[i].end, e > s {
                report(.dropped, "end-pressure-above-start", "a tank's end pressure \(e) bar is above its start \(s) bar; the end is not carried", at: at)
                pods[i].end = nil
            }
        }
        let identified = pods.filter { $0.sensor != nil } + pods.filter { $0.sensor == nil }
        if dive.cylinders.isEmpty {
            for p in identified {
                var cyl = Cylinder()
                cyl.startPressure = p.start
                cyl.endPressure = p.end
                if let s = p.series { profile.pressures.append(PressureSeries(gasNumber: dive.cylinders.count, series: s)) }
                dive.cylinders.append(cyl)
            }
        } else if identified.count == dive.cylinders.count {
            for (i, p) in identified.enumerated() {
                dive.cylinders[i].startPressure = p.start
                dive.cylinders[i].endPressure = p.end
                if let s = p.series { profile.pressures.append(PressureSeries(gasNumber: i, series: s)) }
            }
        } else {
            report(.dropped, "tank-unpaired", "\(identified.count) tank transmitter(s) beside \(dive.cylinders.count) gas(es): nothing in a FIT file links a gas to a transmitter, so their pressures are not carried", at: at)
        }
    }

    /// Entry and exit: the records' fixes split at the deepest sample (DiveJSON's shared rule),
    /// else the start and end positions the session (or lap) states.
    func readPositions(_ d: DiveDraft, dive: inout Dive, depth: Series?, origin: UInt32,
                       summaryOf m: FITMessage?, at: (index: Int, offset: Int)?) {
        let c = consumption
        let split = FixChoice.split(depth)
        var fixes: [FixChoice.Fix] = []
        for f in d.fixes {
            guard let p = Self.position(lat: Int64(f.lat), lon: Int64(f.lon)) else { continue }
            let time = Int(Int64(f.time) - Int64(origin)) * 1000
            fixes.append(FixChoice.Fix(time: time, position: p, error: f.error.map(Double.init)))
        }
        let choice = FixChoice.choose(fixes, split: split)
        dive.entryPosition = choice.entry?.fix.position
        dive.exitPosition = choice.exit?.fix.position
        for ch in [choice.entry, choice.exit].compactMap({ $0 }) where ch.passedOverNearest {
            report(.resolved, "fix-chosen", "the fix taken is the nearest the receiver vouched for (error at most 10 m within 40 s), not the nearest to the dive", at: at)
        }
        guard let m else { return }
        let isLap = m.globalNumber == Mesg.lap
        let start = Self.position(lat: c.take(m, 3)?.intValue, lon: c.take(m, 4)?.intValue)
        let end = isLap ? Self.position(lat: c.take(m, 5)?.intValue, lon: c.take(m, 6)?.intValue)
                        : Self.position(lat: c.take(m, 38)?.intValue, lon: c.take(m, 39)?.intValue)
        if dive.entryPosition == nil { dive.entryPosition = start }
        if dive.exitPosition == nil { dive.exitPosition = end }
    }

    /// Time in the water, maximum and mean depth: the dive's own summary first, the session's
    /// maximum first, the samples where nothing states a figure (`inferred`).
    func summarise(_ dive: inout Dive, depthMM depth: Series?, window w: DiveWindow, at: (index: Int, offset: Int)?) {
        let c = consumption
        let lap = w.lap, session = w.session, summary = w.summary
        let own = lap ?? session
        let derived = depth.flatMap { TimeInWater.derive(times: $0.times, depths: $0.values.map { Double($0) / 1000 }) }

        var inferredTime = false, inferredMean = false, inferredMax = false
        if let v = c.take(summary, 11)?.uintValue, v > 0 {
            dive.submergedTime = Int((Double(v) / 1000).rounded(.toNearestOrAwayFromZero))
        } else if let derived {
            dive.submergedTime = derived.seconds
            inferredTime = true
        } else if let v = c.take(own, 7)?.uintValue ?? c.take(own, 8)?.uintValue, v >= 500 {
            dive.submergedTime = Int((Double(v) / 1000).rounded(.toNearestOrAwayFromZero))
        }
        var maxDepth = lap != nil ? Self.decimal(c.take(lap, 123), scale: 3) : Self.decimal(c.take(session, 141), scale: 3)
        if maxDepth == nil { maxDepth = Self.decimal(c.take(summary, 3), scale: 3) }
        if maxDepth == nil, let deepest = depth?.values.max(), deepest > 0 {
            maxDepth = DecimalNumber(significand: Int64(deepest), exponent: -3)
            inferredMax = true
        }
        var mean = Self.decimal(c.take(summary, 2), scale: 3)
        if mean == nil, let derived {
            mean = DecimalNumber(derived.meanDepth)
            inferredMean = true
        }
        if mean == nil { mean = Self.decimal(c.take(own, lap != nil ? 122 : 140), scale: 3) }
        let depths = SummaryDepths(max: maxDepth, mean: mean, maxName: "the maximum depth", meanName: "the mean depth")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings { report(f.kind, f.code, f.message, at: at) }
        // Raised after the check, so a dropped figure is never listed as carried.
        if inferredTime, dive.submergedTime != nil {
            dive.inferred.append("submerged_time")
            report(.inferred, "submerged-time-derived", "the file states no time in the water for the dive; it is the time its depth samples spent deeper than 1.2 m", at: at)
        }
        if inferredMax, dive.maxDepth != nil {
            dive.inferred.append("max_depth")
            report(.inferred, "max-depth-derived", "the file states no maximum depth for the dive; it is the deepest depth sample", at: at)
        }
        if inferredMean, dive.avgDepth != nil {
            dive.inferred.append("avg_depth")
            report(.inferred, "avg-depth-derived", "the file states no mean depth for the dive; it is the time-weighted mean of its depth samples deeper than 1.2 m", at: at)
        }
    }
}
