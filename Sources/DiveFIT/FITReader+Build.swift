import DiveCore

extension FITFrame {
    init(_ m: FITMessage) {
        self.init(globalNumber: m.globalNumber, localType: m.localType, offset: m.offset, index: m.index,
                  fileIndex: m.fileIndex, hasCompressedTimestamp: m.hasCompressedTimestamp, timestamp: m.timestamp)
    }
}

/// The kept messages' fields the dives were built from, by (message index, field number).
final class Consumption {
    var taken = Set<Int>()
    /// Messages a once-per-message finding has been raised for.
    var reported = Set<Int>()
    func take(_ m: FITMessage?, _ field: UInt8) -> FITValue? {
        guard let m, let v = m.value(field) else { return nil }
        taken.insert(m.index << 8 | Int(field))
        return v
    }
    func mark(_ m: FITMessage?, _ fields: [UInt8]) {
        guard let m else { return }
        for f in fields { taken.insert(m.index << 8 | Int(f)) }
    }
}

extension FITReader {
    /// Fields of kept messages read for what they are rather than carried (a message's own
    /// index and time, a summary's reference) are marked by ``build(window:draft:)``.
    func reportUnconsumed() {
        if plan.extraDeviceInfos > 0 {
            findings.append(Finding(.dropped, "fit.not-carried",
                                    "\(plan.extraDeviceInfos) × device_info messages past the first eight of a file not read (a device repeats them every few minutes)",
                                    at: SourceLocation(file: displayName)))
        }
        for m in plan.kept {
            for f in m.fields where f.values.contains(where: { $0 != nil }) && !consumption.taken.contains(m.index << 8 | Int(f.number)) {
                tally.field(m.globalNumber, f.number, frame: FITFrame(m))
            }
            for f in m.developerFields where !f.bytes.allSatisfy({ $0 == 0xFF }) {
                let name = plan.files[safe: m.fileIndex]?.developerNames[UInt16(f.developerIndex) << 8 | UInt16(f.number)]
                tally.developerField(m.globalNumber, name: name ?? "number \(f.number)", frame: FITFrame(m))
            }
        }
    }

    static func decimal(_ v: FITValue?, scale: Int) -> DecimalNumber? {
        guard let v else { return nil }
        switch v {
        case .uint(let u): return u <= UInt64(Int64.max) ? DecimalNumber(significand: Int64(u), exponent: -scale) : nil
        case .sint(let s): return DecimalNumber(significand: s, exponent: -scale)
        case .float(let f): return DecimalNumber(f / pow10(scale))
        case .string: return nil
        }
    }

    static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { r, _ in r * 10 } }

    /// Semicircles to decimal degrees at six places; nil off the globe.
    static func degrees(_ semicircles: Int64) -> Double? {
        let d = (Double(semicircles) * 180 / 2_147_483_648 * 1_000_000).rounded(.toNearestOrAwayFromZero) / 1_000_000
        return d.isFinite ? d : nil
    }

    static func position(lat: Int64?, lon: Int64?) -> Position? {
        guard let lat, let lon, let a = degrees(lat), let o = degrees(lon), abs(a) <= 90, abs(o) <= 180 else { return nil }
        return Position(latitude: a, longitude: o)
    }

    /// Builds the dive of window `w` from what the first pass kept and the second streamed.
    func build(window index: Int, draft d: DiveDraft) -> Dive? {
        let w = plan.windows[index]
        let c = consumption
        let facts = plan.files[w.file]
        let session = w.session, lap = w.lap, summary = w.summary
        let at = (lap ?? session).map { ($0.index, $0.offset) }
        // Read for what they are: a message's time, index, event and start, the laps a session
        // names (the first pass placed the dive by them), a summary's reference.
        c.mark(session, [253, 254, 0, 1, 2, 25, 26])
        c.mark(lap, [253, 254, 0, 1, 2])
        c.mark(summary, [253, 0, 1])
        for m in w.copies { c.mark(m, m.fields.map(\.number)) }

        let depths = d.channels[Channel.depth.rawValue]
        if let sport = c.take(session, 5)?.uintValue, sport != 53, depths.times.isEmpty {
            let name = FITProfile.sports[UInt32(truncatingIfNeeded: sport)] ?? "number \(sport)"
            report(.dropped, "not-a-dive", "the session is a \(name) activity with no depth sample, not a dive; skipped", at: at)
            return nil
        }
        let divePosition = ordinal
        ordinal += 1

        // Where the profile's axis begins.
        let origin = w.start ?? d.firstTime
        var dive = Dive(uuid: Identity.uuid5(namespace: FIT.namespace, name: "dive:#\(divePosition)"), startedAt: nil)
        dive.provenance = Provenance(format: "fit", file: displayName, index: divePosition, positionalIdentity: true)
        if divePosition == 0 {
            report(.absent, "id-absent", "a FIT file records no id for its dive; its identity is its position in the file", at: at)
        }
        if let origin {
            var offset = UTCOffset.utc
            if let activity = facts.activity, let local = c.take(activity, 5)?.intValue, let utc = activity.timestamp {
                c.mark(activity, [253])
                let minutes = Int(((Double(local) - Double(utc)) / 60).rounded(.toNearestOrAwayFromZero))
                if abs(minutes) <= 14 * 60 { offset = .minutes(minutes) } else {
                    report(.dropped, "offset-out-of-range", "activity.local_timestamp is \(minutes) minutes from its timestamp, past any time zone; the start is read as UTC", message: activity)
                }
            } else if divePosition == 0 {
                report(.absent, "offset-absent", "the file has no activity message to recover the local time from; the start is the UTC instant the device recorded", at: at)
            }
            dive.startedAt = DiveDateTime(unixSeconds: Int(origin) + FIT.epochOffset, offset: offset)
        } else {
            report(.absent, "start-absent", "nothing in the file says when the dive began", at: at)
        }

        // The recording: device, mode, settings, oxygen clock.
        var rec = Recording()
        rec.device = device(facts, session: lap == nil ? session : nil)
        if let m = rec.device?.model ?? rec.device?.brand, header.sourceGenerator == nil {
            header.sourceGenerator = Generator(name: facts.fileID.flatMap { $0.value(8)?.stringValue } ?? m, version: rec.device?.firmware)
        }
        if let sub = c.take(lap ?? session, lap == nil ? 6 : 39)?.uintValue ?? c.take(session, 6)?.uintValue {
            switch sub {
            case 53, 54: rec.mode = .openCircuit
            case 55: rec.mode = .gauge
            case 56, 57: rec.mode = .freedive
            case 63: rec.mode = .closedCircuit
            default:
                report(.absent, "mode-unknown", "sub_sport \(FITProfile.subSports[UInt32(truncatingIfNeeded: sub)] ?? String(sub)) is not a dive mode; the recording's mode is left absent", at: at)
            }
        }
        readSettings(w.settings, into: &rec, at: at)
        let summarySource = summary ?? (lap == nil ? session : nil)
        if let v = c.take(summary, 5)?.doubleValue ?? (lap == nil ? c.take(session, 143)?.doubleValue : nil) { rec.cnsStart = v }
        if let v = c.take(summary, 6)?.doubleValue ?? (lap == nil ? c.take(session, 144)?.doubleValue : nil) { rec.cnsEnd = v }
        if let v = c.take(summary, 9)?.doubleValue ?? (lap == nil ? c.take(session, 155)?.doubleValue : nil) { rec.otuEnd = v }
        if rec.cnsStart == nil, summarySource != nil, divePosition == 0 {
            report(.absent, "cns-start-absent", "the dive's summary states no start_cns", at: at)
        }
        _ = summarySource

        // Cylinders.
        var gasIndex: [UInt64: Int] = [:]
        buildCylinders(w.gases, into: &dive, gasIndex: &gasIndex)

        // The profile.
        var profile = Profile()
        let originTime = origin ?? 0
        func ms(_ t: UInt32) -> Int? {
            let delta = Int64(t) - Int64(originTime)
            return delta >= 0 ? Int(delta) * 1000 : nil
        }
        var beforeStart = 0
        /// Readings no sea or diver can give (a damaged file's), per channel: first value and count.
        var impossible: [(field: String, first: Int32, count: Int)] = []
        func series(_ ch: Channel, _ convert: (Int32) -> Int?) -> Series? {
            let raw = d.channels[ch.rawValue]
            guard !raw.times.isEmpty else { return nil }
            var pairs: [(Int, Int)] = []
            pairs.reserveCapacity(raw.times.count)
            var rejected = 0, first: Int32 = 0
            for k in raw.times.indices {
                guard let t = ms(raw.times[k]) else { beforeStart += 1; continue }
                guard let v = convert(raw.values[k]) else {
                    if rejected == 0 { first = raw.values[k] }
                    rejected += 1
                    continue
                }
                pairs.append((t, v))
            }
            if rejected > 0 { impossible.append((FITProfile.fieldNames[Mesg.record]?[ch.field] ?? "field \(ch.field)", first, rejected)) }
            return Self.series(pairs, collisions: &collisions)
        }
        var collisions = 0
        var zeroCeilings = 0
        // Millimetres as the file states them, for the dive's figures; centimetres on the profile.
        let depthMM = series(.depth) { v in v >= 0 && v <= 11_000_000 ? Int(v) : nil }
        profile.depth = depthMM.map { Series(times: $0.times, values: $0.values.map { Int((Double($0) / 10).rounded(.toNearestOrAwayFromZero)) }) }
        profile.temperature = series(.temperature) { v in v >= -50 && v <= 100 ? Int(v) * 100 : nil }
        let ceilingMM = series(.ceiling) { v in
            if v == 0 { zeroCeilings += 1; return 0 }
            return v > 0 && v <= 11_000_000 ? Int((Double(v) / 10).rounded(.toNearestOrAwayFromZero)) : nil
        }
        // A zero is no ceiling (DiveJSON's converting.md), counted apart from the impossible.
        profile.ceiling = ceilingMM.flatMap { s in
            let keep = s.values.indices.filter { s.values[$0] != 0 }
            return keep.isEmpty ? nil : Series(times: keep.map { s.times[$0] }, values: keep.map { s.values[$0] })
        }
        profile.ndl = series(.ndl) { v in v >= 0 ? Int(v) : nil }
        profile.tts = series(.tts) { v in v >= 0 ? Int(v) : nil }
        profile.cns = series(.cns) { v in v >= 0 && v <= 1000 ? Int(v) * 10 : nil }
        profile.ppo2 = series(.ppo2) { v in v >= 0 ? Int(v) : nil }
        for x in impossible {
            report(.dropped, "value-out-of-range", "\(x.count) record(s) state a \(x.field) no dive can have (the first: \(x.first) in the file's units), a damaged value; not carried", at: at)
        }
        if zeroCeilings > 0 {
            report(.dropped, "zero-ceiling", "\(zeroCeilings) record(s) state a next_stop_depth of 0, which says the diver may surface, not a ceiling at 0 m; not carried as ceilings", at: at)
        }
        var extras: [ExtensionValue] = []
        for (ch, name, unit) in [(Channel.heartRate, "heart_rate", "beats/min"), (.stopTime, "deco_stop_time", "s")] {
            guard let s = series(ch, { v in v >= 0 ? Int(v) : nil }), !s.isEmpty else { continue }
            extras.append(.object([.init("name", .string(name)), .init("unit", .string(unit)),
                                   .init("times", .array(s.times.map { .number(String($0)) })),
                                   .init("values", .array(s.values.map { .number(String($0)) }))]))
        }
        if !extras.isEmpty { profile.extensions = .object([.init("umilog", .object([.init("channels", .array(extras))]))]) }

        // Tank pressures, per pod, joined to the gases only when the counts match.
        buildTanks(w.tankSummaries, draft: d, dive: &dive, profile: &profile, ms: ms, at: at)

        // Events.
        var usesGasNumbers = !profile.pressures.isEmpty
        for (t, e, where_) in d.events {
            guard let time = ms(t) else { beforeStart += 1; continue }
            switch e {
            case .gasSwitch(let index):
                let n = index.flatMap { gasIndex[$0] }
                if n == nil {
                    report(.resolved, "gas-switch-unresolved", "a gas switch to a gas this file's gas list does not describe; carried with no gas number", at: where_)
                } else { usesGasNumbers = true }
                profile.events.append(Event(time: time, type: .gasSwitch, gasNumber: n))
            case .bookmark:
                profile.events.append(Event(time: time, type: .bookmark))
            case .alert(let label):
                profile.events.append(Event(time: time, label: label))
            }
        }
        profile.events.sort { $0.time < $1.time }
        if usesGasNumbers { for i in dive.cylinders.indices { dive.cylinders[i].gasNumber = i } }
        if collisions > 0 {
            report(.dropped, "sample-collision", "\(collisions) reading(s) on an instant a channel already had; the first kept", at: at)
        }
        if beforeStart > 0 {
            report(.dropped, "sample-before-start", "\(beforeStart) sample(s) timed before the dive's start have no place on its axis; not carried", at: at)
        }
        let last = profile.allSeries.compactMap { $0.times.last }.max()
        if let last {
            profile.duration = max(last, profile.events.map(\.time).max() ?? 0)
            rec.profile = profile
        } else if !profile.events.isEmpty {
            profile.duration = profile.events.map(\.time).max() ?? 0
            rec.profile = profile
        }

        // Positions: the samples' fixes by the shared rule, else the session's or lap's own.
        readPositions(d, dive: &dive, depth: depthMM, origin: originTime, summaryOf: lap ?? session, at: at)

        // The dive's figures.
        summarise(&dive, depthMM: depthMM, window: w, at: at)
        if rec.hasContent { dive.recordings = [rec] }
        return dive
    }

    static func series(_ pairs: [(Int, Int)], collisions: inout Int) -> Series? {
        guard !pairs.isEmpty else { return nil }
        var sorted = pairs
        if !zip(pairs, pairs.dropFirst()).allSatisfy({ $0.0 <= $1.0 }) {
            sorted = pairs.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        }
        var s = Series()
        s.times.reserveCapacity(sorted.count)
        s.values.reserveCapacity(sorted.count)
        for (t, v) in sorted where !s.appendKeepingFirst(t, v) { collisions += 1 }
        return s
    }
}
