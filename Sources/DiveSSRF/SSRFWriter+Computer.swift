import DiveCore
import DiveXML

extension SSRFWriter {
    /// One `<divecomputer>` per recording, in order; the first carries the dive's own
    /// maximum and mean depth and its water and air temperatures (a reader takes those from
    /// the first element only). A dive with no recording gets one bare element when it has
    /// figures for it.
    func writeComputers(_ d: Dive, numbering: CylinderNumbering, path: String) {
        let diveFigures = d.maxDepth != nil || d.avgDepth != nil || d.bottomTemperature != nil || d.airTemperature != nil
        if d.recordings.isEmpty {
            guard diveFigures else { return }
            out.open("divecomputer")
            writeDiveFigures(d, path: path)
            out.close("divecomputer")
            return
        }
        var usesNumbering = false
        for (i, r) in d.recordings.enumerated() {
            let rpath = "\(path)/recordings/\(i)"
            var a: [(String, String)] = []
            if let device = r.device {
                if let model = device.model {
                    a.append(("model", device.brand.map { model.hasPrefix($0) ? model : "\($0) \(model)" } ?? model))
                } else if let brand = device.brand {
                    a.append(("model", brand))
                }
                if let brand = device.brand {
                    report(.dropped, "ssrf.device-brand-in-model", "Subsurface names a computer with one @model: the brand \"\(brand)\" is written within it", rpath)
                }
            }
            if let s = r.startedAt, s != d.startedAt {
                a.append(("date", SSRFText.date(s.date)))
                if let t = s.time { a.append(("time", SSRFText.time(t))) }
                reportClockLoss(s, what: "the recording's start", path: rpath)
            }
            if let mode = r.mode, let type = SSRF.diveComputerType[mode] { a.append(("dctype", type)) }
            out.open("divecomputer", a)
            if i == 0 { writeDiveFigures(d, path: path) }
            if let p = r.surfacePressure, let bar = SSRFText.decimal(p) { out.empty("surface", [("pressure", bar + " bar")]) }
            if let s = r.salinity, let g = SSRF.salinityGramsPerLitre[s] { out.empty("water", [("salinity", "\(g) g/l")]) }
            if let serial = r.device?.serial, !serial.isEmpty { out.empty("extradata", [("key", "Serial"), ("value", serial)]) }
            if let fw = r.device?.firmware, !fw.isEmpty { out.empty("extradata", [("key", "FW Version"), ("value", fw)]) }
            if let profile = r.profile {
                usesNumbering = writeEvents(profile.events, cylinders: d.cylinders, numbering: numbering, path: rpath) || usesNumbering
                usesNumbering = writeSamples(profile, numbering: numbering, path: rpath) || usesNumbering
            }
            out.close("divecomputer")

            let p = r.profile
            let ceiling = (p?.ceiling).map { !$0.isEmpty } ?? false
            reportUncarried("ssrf.recording-member-not-carried", "of a recording", [
                ("device.name", r.device?.name != nil), ("device.dive_number", r.device?.diveNumber != nil),
                ("device.extensions", r.device?.extensions != nil), ("mode gauge", r.mode == .gauge),
                ("deco_model", r.decoModel.map { !$0.isEmpty } ?? false),
                ("cns_start", r.cnsStart != nil), ("otu_start", r.otuStart != nil),
                ("cns_end (only the first computer's is written)", i > 0 && r.cnsEnd != nil),
                ("otu_end (only the first computer's is written)", i > 0 && r.otuEnd != nil),
                ("source_files", !r.sourceFiles.isEmpty), ("extensions", r.extensions != nil),
                ("profile.ceiling (Subsurface's stop depth is the next stop, not the ceiling)", ceiling),
                ("profile.gradient_factor", p?.gradientFactor != nil),
                ("profile.surface_gradient_factor", p?.surfaceGradientFactor != nil),
                ("profile.extensions", p?.extensions != nil),
                ("a channel's extensions", p.map { $0.allSeries.contains { $0.extensions != nil } } ?? false),
            ], rpath)
        }
        if usesNumbering && numbering.positional {
            report(.inferred, "ssrf.gas-number-positional", "the dive's cylinders carry no gas numbers, so its pressure channels and gas switches are tied to cylinders by position", path)
        }
    }

    /// `<depth max mean>` and `<temperature air water>`: the dive's own figures.
    private func writeDiveFigures(_ d: Dive, path: String) {
        var depth: [(String, String)] = []
        if let v = d.maxDepth, let m = SSRFText.decimal(v) { depth.append(("max", m + " m")) }
        if let v = d.avgDepth, let m = SSRFText.decimal(v) { depth.append(("mean", m + " m")) }
        if !depth.isEmpty { out.empty("depth", depth) }
        if d.maxDepth == 0 || d.avgDepth == 0 {
            report(.dropped, "ssrf.depth-zero", "a depth of 0.0 m is Subsurface's \"not recorded\"; a reader takes it for no depth", path)
        }
        var temperature: [(String, String)] = []
        if let v = d.airTemperature, let c = SSRFText.decimal(v) { temperature.append(("air", c + " C")) }
        if let v = d.bottomTemperature, let c = SSRFText.decimal(v) { temperature.append(("water", c + " C")) }
        if !temperature.isEmpty { out.empty("temperature", temperature) }
    }

    // MARK: Events

    /// `<event>`s in time order; returns whether a gas switch named a cylinder.
    private func writeEvents(_ events: [Event], cylinders: [Cylinder], numbering: CylinderNumbering, path: String) -> Bool {
        var named = false
        var rounded = false
        let order = events.indices.sorted { (events[$0].time, $0) < (events[$1].time, $1) }
        for e in order {
            let ev = events[e]
            let epath = "\(path)/profile/events/\(e)"
            guard let second = SSRFText.second(ms: ev.time), let time = SSRFText.minutes(second) else {
                report(.dropped, "ssrf.event-before-start", "an event before the start of the dive has no Subsurface spelling", epath)
                continue
            }
            if ev.time % 1000 != 0 { rounded = true }
            var a = [("time", time)]
            if ev.extensions != nil { report(.dropped, "ssrf.event-extensions", "the event's extensions have no Subsurface XML element", epath) }
            if let type = ev.type {
                let spelling = SSRF.eventSpelling(type)
                if type == .gasSwitch {
                    named = true
                    guard let g = ev.gasNumber, let i = numbering.position(of: g) else {
                        report(.dropped, "ssrf.gas-switch-unresolved", "a gas switch to a cylinder this dive does not have cannot be written", epath)
                        continue
                    }
                    // As Subsurface writes a switch: libdivecomputer's GASCHANGE2, the cylinder
                    // in `flags` (plus one) and `@cylinder`, and that cylinder's mix.
                    a += [("type", "25"), ("flags", String(i + 1)), ("name", spelling.name), ("cylinder", String(i))]
                    if let o2 = cylinders[i].oxygen, let v = SSRFText.decimal(o2) {
                        a.append(("o2", v + "%"))
                        if let he = cylinders[i].helium, let v = SSRFText.decimal(he) { a.append(("he", v + "%")) }
                    }
                } else {
                    if let t = spelling.type { a.append(("type", String(t))) }
                    a.append(("name", spelling.name))
                    if ev.gasNumber != nil {
                        report(.dropped, "ssrf.event-gas-not-carried", "only a gas switch names a cylinder in Subsurface XML: the event's gas number is not written", epath)
                    }
                }
                if ev.label != nil {
                    report(.dropped, "ssrf.event-label-not-carried", "a Subsurface event has one name: the \(type.rawValue) event's label is not written", epath)
                }
            } else if let label = ev.label, !label.isEmpty {
                a.append(("name", label))
                if ev.gasNumber != nil {
                    report(.dropped, "ssrf.event-gas-not-carried", "only a gas switch names a cylinder in Subsurface XML: the event's gas number is not written", epath)
                }
            } else {
                report(.dropped, "ssrf.event-unnamed", "an event with neither a type nor a label has nothing to write", epath)
                continue
            }
            out.empty("event", a)
        }
        if rounded {
            report(.resolved, "ssrf.event-time-rounded", "event times are written to the whole second Subsurface keeps", "\(path)/profile/events")
        }
        return named
    }

    // MARK: Samples

    /// One channel of a profile on its way into `<sample>` attributes.
    private struct Channel {
        let attribute: String
        let series: Series
        /// Decimal exponent of the scaled value, and the unit after it; `nil` for a time.
        let exponent: Int
        let unit: String?
        /// Written without a forced decimal point (a percentage of CNS).
        var plain = false
        var cursor = 0

        /// The time of the next reading, if any (a channel whose values run short of its
        /// times ends with its values).
        var nextTime: Int? {
            cursor < min(series.times.count, series.values.count) ? series.times[cursor] : nil
        }

        /// The reading as Subsurface spells it; `nil` for a negative time, which it cannot.
        func text(_ v: Int) -> String? {
            guard let unit else { return SSRFText.minutes(v) }
            let d = DecimalNumber(significand: Int64(v), exponent: exponent)
            return (plain ? d.normalized().description : SSRFText.decimal(d)) + unit
        }
    }

    /// `<sample>`s: every channel's instants merged onto one axis of whole seconds, each
    /// line carrying every reading its instant has. Returns whether a pressure channel named a
    /// cylinder.
    private func writeSamples(_ p: Profile, numbering: CylinderNumbering, path: String) -> Bool {
        var channels: [Channel] = []
        if let s = p.depth { channels.append(Channel(attribute: "depth", series: s, exponent: -2, unit: " m")) }
        if let s = p.temperature { channels.append(Channel(attribute: "temp", series: s, exponent: -2, unit: " C")) }
        // Pressures by cylinder position: Subsurface's `pressureN` is the N-th cylinder's
        // sensor, and its reader knows pressure0 to pressure4.
        var pressures: [(Int, Series)] = []
        for (k, ch) in p.pressures.enumerated() {
            let cpath = "\(path)/profile/pressures/\(k)"
            guard let i = numbering.position(of: ch.gasNumber) else {
                report(.dropped, "ssrf.pressure-unresolved", "the pressure readings of gas \(ch.gasNumber), a cylinder this dive does not have, cannot be written", cpath)
                continue
            }
            guard i <= 4 else {
                report(.dropped, "ssrf.pressure-sensor-limit", "Subsurface reads the pressures of cylinders 0 to 4 only: cylinder \(i)'s are not written", cpath)
                continue
            }
            guard !pressures.contains(where: { $0.0 == i }) else {
                report(.dropped, "ssrf.pressure-duplicate", "a second pressure channel for cylinder \(i) has no attribute of its own; not written", cpath)
                continue
            }
            pressures.append((i, ch.series))
        }
        for (i, s) in pressures.sorted(by: { $0.0 < $1.0 }) {
            channels.append(Channel(attribute: "pressure\(i)", series: s, exponent: -1, unit: " bar"))
        }
        if let s = p.ndl { channels.append(Channel(attribute: "ndl", series: s, exponent: 0, unit: nil)) }
        if let s = p.tts { channels.append(Channel(attribute: "tts", series: s, exponent: 0, unit: nil)) }
        if let s = p.cns { channels.append(Channel(attribute: "cns", series: s, exponent: -1, unit: "%", plain: true)) }
        // The computer's own ppO2 (Subsurface's `@po2` is the rebreather's setpoint instead).
        if let s = p.ppo2 { channels.append(Channel(attribute: "dc_supplied_ppo2", series: s, exponent: -2, unit: " bar")) }

        var rounded = false
        var collisions = 0
        var early = 0
        var unspellable = 0
        while true {
            // The next instant: the earliest second any channel's next reading falls on
            // (readings before the start, which Subsurface cannot spell, are passed over).
            var t = Int.max
            for c in channels.indices {
                while let ms = channels[c].nextTime, ms < 0 {
                    channels[c].cursor += 1
                    early += 1
                }
                if let ms = channels[c].nextTime { t = min(t, SSRFText.second(ms: ms)!) }
            }
            guard t != Int.max, let time = SSRFText.minutes(t) else { break }
            var a = [("time", time)]
            for c in channels.indices {
                guard let ms = channels[c].nextTime, SSRFText.second(ms: ms) == t else { continue }
                if ms % 1000 != 0 { rounded = true }
                if let v = channels[c].text(channels[c].series.values[channels[c].cursor]) {
                    a.append((channels[c].attribute, v))
                } else {
                    unspellable += 1
                }
                channels[c].cursor += 1
                // Later readings of this channel on the same second have no line of their own.
                while let next = channels[c].nextTime, next >= 0, SSRFText.second(ms: next) == t {
                    if next % 1000 != 0 { rounded = true }
                    channels[c].cursor += 1
                    collisions += 1
                }
            }
            // An instant whose every reading was unspellable has no line.
            if a.count > 1 { out.empty("sample", a) }
        }
        if rounded {
            report(.resolved, "ssrf.sample-time-rounded", "sample times are written to the whole second Subsurface keeps", "\(path)/profile")
        }
        if collisions > 0 {
            report(.dropped, "ssrf.sample-collision", "\(collisions) reading(s) fell on a second another reading of their channel already holds, and are not written", "\(path)/profile")
        }
        if early > 0 {
            report(.dropped, "ssrf.sample-before-start", "\(early) reading(s) before the start of the dive have no Subsurface spelling", "\(path)/profile")
        }
        if unspellable > 0 {
            report(.dropped, "ssrf.sample-negative-time", "\(unspellable) negative NDL or TTS reading(s) have no Subsurface spelling", "\(path)/profile")
        }
        // The profile's span is its last instant on reading back (of the channels written
        // and the events); a longer recorded span is lost.
        let lastEvent = p.events.map(\.time).max() ?? Int.min
        let lastReading = channels.compactMap(\.series.times.last).max() ?? Int.min
        if p.duration > max(lastEvent, lastReading) {
            report(.dropped, "ssrf.profile-duration-not-carried", "the profile's span (\(p.duration) ms) runs past its last reading; Subsurface keeps no span of its own", "\(path)/profile")
        }
        return !pressures.isEmpty
    }
}
