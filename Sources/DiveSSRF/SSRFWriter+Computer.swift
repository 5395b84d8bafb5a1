import DiveCore
import DiveXML

extension SSRFWriter {
    /// One `<divecomputer>` per recording, in order; the first carries the dive's own
    /// maximum and mean depth and its water and air temperatures (a reader takes those from
    /// the first element only). A dive with no recording gets one bare element when it has
    /// figures for it.
    func writeComputers(_ d: Dive, numbering: CylinderNumbering, carried diveCarried: inout CarriedMembers, path: String) {
        let diveFigures = d.maxDepth != nil || d.avgDepth != nil || d.bottomTemperature != nil || d.airTemperature != nil
        if d.recordings.isEmpty {
            // The computers that gave no recording (Subsurface's "manually added dive", a
            // computer with only a summary), as the reader kept them; else one bare element
            // for the dive's figures.
            let bare: [[ExtensionValue.Member]] = diveCarried.take("divecomputers") { v in
                guard case .array(let items) = v else { return nil }
                let objects = items.compactMap { item -> [ExtensionValue.Member]? in
                    if case .object(let m) = item { return m } else { return nil }
                }
                return objects.count == items.count && !objects.isEmpty ? objects : nil
            } ?? []
            guard diveFigures || !bare.isEmpty else { return }
            for (i, members) in (bare.isEmpty ? [[]] : bare).enumerated() {
                var a: [(String, String)] = []
                var kept = CarriedMembers(.object([.init("umilog", .object(members.filter { $0.name != "index" }))]))
                if let model = kept.string("logged_as") ?? kept.string("model") { a.append(("model", model)) }
                if let s = kept.integer("last_manual_time"), let t = SSRFText.minutes(s) { a.append(("last-manual-time", t)) }
                if let s = kept.integer("duration"), let t = SSRFText.minutes(s) { a.append(("duration", t)) }
                out.open("divecomputer", a)
                if i == 0 {
                    var none = CarriedMembers(nil)
                    writeDiveFigures(d, carried: &none, path: path)
                }
                out.close("divecomputer")
                if let left = kept.leftover {
                    report(.dropped, "ssrf.recording-member-not-carried", "the computer's \(left) have no Subsurface XML element", "\(path)/divecomputers/\(i)")
                }
            }
            return
        }
        var usesNumbering = false
        for (i, r) in d.recordings.enumerated() {
            let rpath = "\(path)/recordings/\(i)"
            var carried = CarriedMembers(r.extensions)
            var deviceCarried = CarriedMembers(r.device?.extensions)
            var a: [(String, String)] = []
            if let device = r.device, device.model != nil || device.brand != nil {
                if let model = device.model {
                    a.append(("model", device.brand.map { model.hasPrefix($0) ? model : "\($0) \(model)" } ?? model))
                } else if let brand = device.brand {
                    a.append(("model", brand))
                }
                if let brand = device.brand {
                    report(.dropped, "ssrf.device-brand-in-model", "Subsurface names a computer with one @model: the brand \"\(brand)\" is written within it", rpath)
                }
            } else if let logged = carried.string("logged_as") {
                // Subsurface's marker for a dive typed in or planned, in place of a computer's name.
                a.append(("model", logged))
            }
            if let s = carried.integer("last_manual_time"), let t = SSRFText.minutes(s) { a.append(("last-manual-time", t)) }
            // Subsurface's own keys of the computer and of the dive on it.
            for key in ["deviceid", "diveid"] {
                if let id = deviceCarried.string(key) ?? carried.string(key) { a.append((key, id)) }
            }
            if let s = r.startedAt, s != d.startedAt {
                a.append(("date", SSRFText.date(s.date)))
                if let t = s.time { a.append(("time", SSRFText.time(t))) }
                reportClockLoss(s, what: "the recording's start", path: rpath)
            }
            if let s = carried.integer("duration"), let t = SSRFText.minutes(s) { a.append(("duration", t)) }
            if let mode = r.mode, let type = SSRF.diveComputerType[mode] {
                a.append(("dctype", type))
            } else if r.mode == nil, let type = carried.string("dctype") {
                a.append(("dctype", type))
            }
            if let n = carried.integer("no_o2sensors") { a.append(("no_o2sensors", String(n))) }
            out.open("divecomputer", a)
            if i == 0 {
                writeDiveFigures(d, carried: &carried, path: path)
            } else {
                writeLaterFigures(&carried)
            }
            if let p = r.surfacePressure, let bar = SSRFText.decimal(p) { out.empty("surface", [("pressure", bar + " bar")]) }
            if let g = carried.decimal("salinity") {
                out.empty("water", [("salinity", SSRFText.plainDecimal(g) + " g/l")])
            } else if let s = r.salinity, let g = SSRF.salinityGramsPerLitre[s] {
                out.empty("water", [("salinity", "\(g) g/l")])
            }
            if let s = carried.integer("surface_interval"), let t = SSRFText.minutes(s) { out.element("surfacetime", t) }
            if let serial = r.device?.serial, !serial.isEmpty { out.empty("extradata", [("key", "Serial"), ("value", serial)]) }
            if let fw = r.device?.firmware, !fw.isEmpty { out.empty("extradata", [("key", "FW Version"), ("value", fw)]) }
            var decoLeft = false
            if let m = r.decoModel, !m.isEmpty {
                if let text = SSRF.decoModelText(m) {
                    out.empty("extradata", [("key", "Deco model"), ("value", text.value)])
                    decoLeft = text.left
                } else {
                    decoLeft = true
                }
            }
            writeExtradata(&carried)
            let sensors = pressureSensors(r.profile, numbering: numbering, carried: &carried, path: rpath)
            for (sensor, cylinder) in sensors.mappings {
                out.empty("tanksensormapping", [("sensorid", String(sensor)), ("cylinderindex", String(cylinder))])
            }
            var profileCarried = CarriedMembers(r.profile?.extensions)
            if let profile = r.profile {
                usesNumbering = writeEvents(profile.events, cylinders: d.cylinders, numbering: numbering, path: rpath) || usesNumbering
                writeSamples(profile, pressures: sensors.channels, carried: &profileCarried, path: rpath)
                usesNumbering = !sensors.channels.isEmpty || usesNumbering
            }
            out.close("divecomputer")

            let p = r.profile
            reportUncarried("ssrf.recording-member-not-carried", "of a recording", [
                ("device.name", r.device?.name != nil), ("device.dive_number", r.device?.diveNumber != nil),
                ("device.\(deviceCarried.leftover ?? "")", deviceCarried.leftover != nil), ("mode gauge", r.mode == .gauge),
                ("deco_model (as Subsurface's \"GF low/high\" or a name)", decoLeft),
                ("cns_start", r.cnsStart != nil), ("otu_start", r.otuStart != nil),
                ("cns_end (only the first computer's is written)", i > 0 && r.cnsEnd != nil),
                ("otu_end (only the first computer's is written)", i > 0 && r.otuEnd != nil),
                ("source_files", !r.sourceFiles.isEmpty), (carried.leftover ?? "", carried.leftover != nil),
                ("profile.gradient_factor", p?.gradientFactor != nil),
                ("profile.surface_gradient_factor", p?.surfaceGradientFactor != nil),
                ("profile.\(profileCarried.leftover ?? "")", profileCarried.leftover != nil),
                ("a channel's extensions", p.map { $0.allSeries.contains { $0.extensions != nil } } ?? false),
            ], rpath)
        }
        if usesNumbering && numbering.positional {
            report(.inferred, "ssrf.gas-number-positional", "the dive's cylinders carry no gas numbers, so its pressure channels and gas switches are tied to cylinders by position", path)
        }
    }

    /// `<depth max mean>` and `<temperature air water>`: the dive's own figures, except a
    /// temperature the first computer measured itself (`umilog.water_temperature`,
    /// `air_temperature`), which the dive's `<divetemperature>` overrides.
    private func writeDiveFigures(_ d: Dive, carried: inout CarriedMembers, path: String) {
        var depth: [(String, String)] = []
        if let v = d.maxDepth, let m = SSRFText.decimal(v) { depth.append(("max", m + " m")) }
        if let v = d.avgDepth, let m = SSRFText.decimal(v) { depth.append(("mean", m + " m")) }
        if !depth.isEmpty { out.empty("depth", depth) }
        if d.maxDepth == 0 || d.avgDepth == 0 {
            report(.dropped, "ssrf.depth-zero", "a depth of 0.0 m is Subsurface's \"not recorded\"; a reader takes it for no depth", path)
        }
        var temperature: [(String, String)] = []
        if let v = carried.decimal("air_temperature") {
            temperature.append(("air", SSRFText.decimal(v) + " C"))
        } else if let v = d.airTemperature, let c = SSRFText.decimal(v) {
            temperature.append(("air", c + " C"))
        }
        if let v = carried.decimal("water_temperature") {
            temperature.append(("water", SSRFText.decimal(v) + " C"))
        } else if let v = d.bottomTemperature, let c = SSRFText.decimal(v) {
            temperature.append(("water", c + " C"))
        }
        if !temperature.isEmpty { out.empty("temperature", temperature) }
    }

    /// A later computer's own `<depth>` and `<temperature>` (not the dive's), carried under umilog.
    private func writeLaterFigures(_ carried: inout CarriedMembers) {
        var depth: [(String, String)] = []
        if let v = carried.decimal("max_depth") { depth.append(("max", SSRFText.decimal(v) + " m")) }
        if let v = carried.decimal("avg_depth") { depth.append(("mean", SSRFText.decimal(v) + " m")) }
        if !depth.isEmpty { out.empty("depth", depth) }
        var temperature: [(String, String)] = []
        if let v = carried.decimal("air_temperature") { temperature.append(("air", SSRFText.decimal(v) + " C")) }
        if let v = carried.decimal("water_temperature") { temperature.append(("water", SSRFText.decimal(v) + " C")) }
        if !temperature.isEmpty { out.empty("temperature", temperature) }
    }

    /// The computer's other `<extradata key value>`s, as read.
    private func writeExtradata(_ carried: inout CarriedMembers) {
        let pairs: [(String, String)]? = carried.take("extradata") { v in
            guard let list = v.carriedArray else { return nil }
            let pairs = list.compactMap { e -> (String, String)? in
                guard let k = e.carriedMember("key")?.carriedString, let v = e.carriedMember("value")?.carriedString else { return nil }
                return (k, v)
            }
            return pairs.count == list.count ? pairs : nil
        }
        for (k, v) in pairs ?? [] { out.empty("extradata", [("key", k), ("value", v)]) }
    }

    /// The pressure channels as Subsurface's sensors (`pressure0` to `pressure4`, five per
    /// computer) and the `<tanksensormapping>`s tying them to cylinders: the computer's own
    /// mappings when it carried some that fit; else sensor N for cylinder N when every cylinder
    /// is below 5 (Subsurface's implied mapping, written as none); else the sensors numbered
    /// 0 to 4 in cylinder order, each mapped.
    private func pressureSensors(_ p: Profile?, numbering: CylinderNumbering, carried: inout CarriedMembers,
                                 path: String) -> (channels: [(sensor: Int, series: Series)], mappings: [(Int, Int)]) {
        var byCylinder: [(Int, Series)] = []
        for (k, ch) in (p?.pressures ?? []).enumerated() {
            let cpath = "\(path)/profile/pressures/\(k)"
            guard let i = numbering.position(of: ch.gasNumber) else {
                report(.dropped, "ssrf.pressure-unresolved", "the pressure readings of gas \(ch.gasNumber), a cylinder this dive does not have, cannot be written", cpath)
                continue
            }
            guard !byCylinder.contains(where: { $0.0 == i }) else {
                report(.dropped, "ssrf.pressure-duplicate", "a second pressure channel for cylinder \(i) has no sensor of its own; not written", cpath)
                continue
            }
            byCylinder.append((i, ch.series))
        }
        byCylinder.sort { $0.0 < $1.0 }
        // The computer's own mappings, when each cylinder with readings has one sensor of 0 to 4.
        let own: [(Int, Int)]? = carried.peek("tank_sensor_mappings")?.carriedArray.flatMap { list in
            let pairs = list.compactMap { e -> (Int, Int)? in
                guard let s = e.carriedMember("sensor")?.carriedInteger, let c = e.carriedMember("cylinder")?.carriedInteger else { return nil }
                return (s, c)
            }
            return pairs.count == list.count ? pairs : nil
        }
        if let own {
            let sensorOf = byCylinder.map { cyl in own.filter { $0.1 == cyl.0 }.map(\.0) }
            let sensors = own.map(\.0)
            if sensorOf.allSatisfy({ $0.count == 1 && (0...4).contains($0[0]) }), Set(sensors).count == sensors.count {
                _ = carried.take("tank_sensor_mappings") { $0 }
                return (zip(sensorOf, byCylinder).map { ($0[0], $1.1) }, own)
            }
        }
        if byCylinder.allSatisfy({ $0.0 <= 4 }) {
            return (byCylinder.map { ($0.0, $0.1) }, [])
        }
        var channels: [(sensor: Int, series: Series)] = []
        var mappings: [(Int, Int)] = []
        for (i, series) in byCylinder {
            guard channels.count < 5 else {
                report(.dropped, "ssrf.pressure-sensor-limit", "Subsurface reads five pressure sensors per computer (pressure0 to pressure4): cylinder \(i)'s, a sixth, are not written", "\(path)/profile")
                continue
            }
            mappings.append((channels.count, i))
            channels.append((channels.count, series))
        }
        return (channels, mappings)
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
            var carried = CarriedMembers(ev.extensions)
            if let type = ev.type {
                let spelling = SSRF.eventSpelling(type)
                if type == .gasSwitch {
                    if let g = ev.gasNumber, let i = numbering.position(of: g) {
                        named = true
                        // As Subsurface writes a switch: libdivecomputer's GASCHANGE2, the cylinder
                        // in `flags` (plus one) and `@cylinder`, and that cylinder's mix; the
                        // type, flags and value the source stated, when the reader kept them.
                        let stated = carried.integer("type")
                        a.append(("type", String(stated ?? 25)))
                        if let flags = carried.integer("flags") ?? (stated == nil ? i + 1 : nil) { a.append(("flags", String(flags))) }
                        if let value = carried.integer("value") { a.append(("value", String(value))) }
                        a += [("name", spelling.name), ("cylinder", String(i))]
                        if let o2 = cylinders[i].oxygen, let v = SSRFText.decimal(o2) {
                            a.append(("o2", v + "%"))
                            if let he = cylinders[i].helium, let v = SSRFText.decimal(he) { a.append(("he", v + "%")) }
                        }
                    } else if let mix = switchMix(ev, carried: &carried) {
                        // As Subsurface writes a switch to no cylinder: GASCHANGE (GASCHANGE2 with
                        // helium), the mix in whole percent in `value` (helium in the high 16
                        // bits) and exactly in `@o2`/`@he`.
                        let o2 = mix.o2.roundedInteger() ?? 0, he = mix.he?.roundedInteger() ?? 0
                        let number = carried.integer("type") ?? (he > 0 ? 25 : 11)
                        a.append(("type", String(number)))
                        if let flags = carried.integer("flags") { a.append(("flags", String(flags))) }
                        a += [("value", String(carried.integer("value") ?? o2 + (he << 16))), ("name", spelling.name),
                              ("o2", SSRFText.decimal(mix.o2) + "%")]
                        if let h = mix.he { a.append(("he", SSRFText.decimal(h) + "%")) }
                        if let g = ev.gasNumber {
                            report(.dropped, "ssrf.gas-switch-unresolved", "the gas switch names gas \(g), a cylinder this dive does not have: it is written as a switch to its mix alone", epath)
                        }
                    } else {
                        let why = ev.gasNumber.map { "names gas \($0), a cylinder this dive does not have, and" } ?? "names no cylinder and"
                        report(.dropped, "ssrf.gas-switch-unresolved", "the gas switch \(why) records no mix: Subsurface has nothing to switch to, it is not written", epath)
                        continue
                    }
                } else {
                    let number = carried.integer("type") ?? spelling.type
                    eventFields(number: number, carried: &carried, into: &a)
                    // The label when it reads back as this type (`Safety Stop Violation`), else the type's name.
                    if let label = ev.label, !label.isEmpty, SSRFState.eventType(name: label, type: number) == type {
                        a.append(("name", label))
                    } else {
                        a.append(("name", spelling.name))
                        if ev.label != nil {
                            report(.dropped, "ssrf.event-label-not-carried", "a Subsurface event has one name: the \(type.rawValue) event's label is not written", epath)
                        }
                    }
                    if ev.gasNumber != nil {
                        report(.dropped, "ssrf.event-gas-not-carried", "only a gas switch names a cylinder in Subsurface XML: the event's gas number is not written", epath)
                    }
                }
            } else if let label = ev.label, !label.isEmpty {
                eventFields(number: carried.integer("type"), carried: &carried, into: &a)
                a.append(("name", label))
                if ev.gasNumber != nil {
                    report(.dropped, "ssrf.event-gas-not-carried", "only a gas switch names a cylinder in Subsurface XML: the event's gas number is not written", epath)
                }
            } else {
                report(.dropped, "ssrf.event-unnamed", "an event with neither a type nor a label has nothing to write", epath)
                continue
            }
            if let left = carried.leftover {
                report(.dropped, "ssrf.event-extensions", "the event's \(left) have no Subsurface XML element", epath)
            }
            out.empty("event", a)
        }
        if rounded {
            report(.resolved, "ssrf.event-time-rounded", "event times are written to the whole second Subsurface keeps", "\(path)/profile/events")
        }
        return named
    }


    /// `@type`, `@flags`, and `@value` or `@divemode`, in Subsurface's order: the event's
    /// libdivecomputer number and what it carried under umilog (a setpoint in bar is
    /// Subsurface's value in mbar; a mode change names its mode, which Subsurface reads as OC
    /// when absent).
    private func eventFields(number: Int?, carried: inout CarriedMembers, into a: inout [(String, String)]) {
        if let number, number != 0 { a.append(("type", String(number))) }
        if let f = carried.integer("flags"), f != 0 { a.append(("flags", String(f))) }
        if let mode = carried.string("divemode") {
            a.append(("divemode", mode))
        } else if let sp = carried.peek("setpoint")?.carriedDecimal, let mbar = sp.scaledInteger(3) {
            _ = carried.decimal("setpoint")
            a.append(("value", String(mbar)))
        } else if let v = carried.integer("value") {
            a.append(("value", String(v)))
        }
    }

    /// The mix a gas switch to no cylinder of the dive switches to: what it carried under umilog.
    private func switchMix(_ ev: Event, carried: inout CarriedMembers) -> (o2: DecimalNumber, he: DecimalNumber?)? {
        guard let o2 = carried.decimal("oxygen") else { return nil }
        return (o2, carried.decimal("helium"))
    }

    // MARK: Samples

    /// One channel of a profile on its way into `<sample>` attributes.
    private struct Channel {
        let attribute: String
        let times: [Int]
        /// How many readings there are (a channel whose values run short of its times ends
        /// with its values).
        let count: Int
        /// The reading at an index as Subsurface spells it; `nil` where it cannot (a negative time).
        let spell: (Int) -> String?
        var cursor = 0

        /// A model channel: `exponent` the decimal exponent of its scaled values, `unit`
        /// the unit after it (`nil` for a time); `plain` without a forced decimal point (a
        /// percentage of CNS).
        init(attribute: String, series: Series, exponent: Int, unit: String?, plain: Bool = false) {
            self.attribute = attribute
            times = series.times
            count = min(series.times.count, series.values.count)
            let values = series.values
            spell = { k in
                guard let unit else { return SSRFText.minutes(values[k]) }
                let d = DecimalNumber(significand: Int64(values[k]), exponent: exponent)
                return (plain ? d.normalized().description : SSRFText.decimal(d)) + unit
            }
        }

        /// A channel of readings already spelled.
        init(attribute: String, times: [Int], texts: [String?]) {
            self.attribute = attribute
            self.times = times
            count = min(times.count, texts.count)
            spell = { texts[$0] }
        }

        /// The time of the next reading, if any.
        var nextTime: Int? { cursor < count ? times[cursor] : nil }
    }

    /// A channel carried under the profile's `umilog.channels`: its name, `ref`, unit, times
    /// and exact values (`nil` when it is not of that shape).
    private struct CarriedChannel {
        let name: String
        let ref: String?
        let unit: String?
        let times: [Int]
        let values: [DecimalNumber]

        init?(_ v: ExtensionValue) {
            guard let name = v.carriedMember("name")?.carriedString,
                  let t = v.carriedMember("times")?.carriedArray, let vs = v.carriedMember("values")?.carriedArray else { return nil }
            let times = t.compactMap(\.carriedInteger), values = vs.compactMap(\.carriedDecimal)
            guard times.count == t.count, values.count == vs.count, times.count == values.count else { return nil }
            self.name = name
            ref = v.carriedMember("ref")?.carriedString ?? v.carriedMember("set_by")?.carriedString
            unit = v.carriedMember("unit")?.carriedString
            self.times = times
            self.values = values
        }
    }

    /// The `<sample>` attribute a carried channel is written as, and its spelling of a value;
    /// `nil` for a channel Subsurface has no attribute for.
    private static func sampleAttribute(_ c: CarriedChannel) -> (String, (DecimalNumber) -> String?)? {
        func clock(_ v: DecimalNumber) -> String? { v.normalized().exponent >= 0 ? v.roundedInteger().flatMap(SSRFText.minutes) : nil }
        func count(_ v: DecimalNumber) -> String? { v.normalized().exponent >= 0 ? v.roundedInteger().map(String.init) : nil }
        switch (c.name, c.unit) {
        case ("sensor_ppo2", "bar"):
            guard let ref = c.ref, let n = Int(ref), (1...6).contains(n) else { return nil }
            return ("sensor\(n)", { SSRFText.decimal($0) + " bar" })
        case ("setpoint", "bar"): return ("po2", { SSRFText.decimal($0) + " bar" })
        case ("heart_rate", "beats/min"): return ("heartbeat", count)
        case ("heading", "degrees"): return ("bearing", count)
        case ("remaining_bottom_time", "s"): return ("rbt", clock)
        case ("deco_stop_time", "s"): return ("stoptime", clock)
        case ("deco_stop_depth", "m"): return ("stopdepth", { SSRFText.decimal($0) + " m" })
        case ("in_deco", nil): return ("in_deco", count)
        default: return nil
        }
    }

    /// The deco state as `in_deco` and `stopdepth`: the ceiling while in deco (`in_deco='1'`,
    /// written where it changes, and `in_deco='0' stopdepth='0.0 m'` where the ceiling returns
    /// to 0 or ends) merged with the stop depth carried for outside deco; the computer's own
    /// `in_deco` readings, when it carried them, in place of those the ceiling implies.
    private static func decoChannels(ceiling: Series?, depth: Series?, stops: CarriedChannel?, inDeco: CarriedChannel?) -> [Channel] {
        var stop: [Int: String] = [:]
        var deco: [Int: String] = [:]
        if let stops {
            for (t, v) in zip(stops.times, stops.values) { stop[t] = SSRFText.decimal(v) + " m" }
        }
        if let c = ceiling {
            var inside = false
            for k in 0..<min(c.times.count, c.values.count) where c.times[k] >= 0 {
                let t = c.times[k], v = c.values[k]
                stop[t] = SSRFText.scaled(max(v, 0), -2) + " m"
                if (v > 0) != inside { inside = v > 0; deco[t] = inside ? "1" : "0" }
            }
            // Where the ceiling ends in deco, the end of deco (unless the computer's own
            // `in_deco` readings say where it ended).
            if inside, inDeco == nil, let last = c.times.last, let end = depth?.times.first(where: { $0 > last }), stop[end] == nil {
                deco[end] = "0"
                stop[end] = "0.0 m"
            }
        }
        if let inDeco {
            deco = [:]
            for (t, v) in zip(inDeco.times, inDeco.values) { deco[t] = v.normalized().description }
        }
        var out: [Channel] = []
        for (attribute, map) in [("in_deco", deco), ("stopdepth", stop)] where !map.isEmpty {
            let times = map.keys.sorted()
            out.append(Channel(attribute: attribute, times: times, texts: times.map { map[$0] }))
        }
        return out
    }

    /// `<sample>`s: every channel's instants merged onto one axis of whole seconds, each
    /// line carrying every reading its instant has: the model's channels, the pressures by
    /// sensor, the deco state, and the channels carried under umilog.
    private func writeSamples(_ p: Profile, pressures: [(sensor: Int, series: Series)], carried: inout CarriedMembers, path: String) {
        var channels: [Channel] = []
        if let s = p.depth { channels.append(Channel(attribute: "depth", series: s, exponent: -2, unit: " m")) }
        if let s = p.temperature { channels.append(Channel(attribute: "temp", series: s, exponent: -2, unit: " C")) }
        for (sensor, s) in pressures {
            channels.append(Channel(attribute: "pressure\(sensor)", series: s, exponent: -1, unit: " bar"))
        }
        if let s = p.ndl { channels.append(Channel(attribute: "ndl", series: s, exponent: 0, unit: nil)) }
        if let s = p.tts { channels.append(Channel(attribute: "tts", series: s, exponent: 0, unit: nil)) }
        if let s = p.cns { channels.append(Channel(attribute: "cns", series: s, exponent: -1, unit: "%", plain: true)) }
        // The computer's own ppO2 (Subsurface's `@po2` is the rebreather's setpoint instead).
        if let s = p.ppo2 { channels.append(Channel(attribute: "dc_supplied_ppo2", series: s, exponent: -2, unit: " bar")) }

        // The channels carried under umilog, each to its attribute; one Subsurface has none
        // for stays under umilog (and is reported).
        var kept: [ExtensionValue] = []
        var stops: CarriedChannel?, inDeco: CarriedChannel?
        var seen: Set<String> = []
        for v in carried.take("channels", \.carriedArray) ?? [] {
            guard let c = CarriedChannel(v), let (attribute, spell) = Self.sampleAttribute(c), seen.insert(attribute).inserted else {
                kept.append(v)
                continue
            }
            switch attribute {
            case "stopdepth": stops = c
            case "in_deco": inDeco = c
            default: channels.append(Channel(attribute: attribute, times: c.times, texts: c.values.map(spell)))
            }
        }
        if !kept.isEmpty { carried.put("channels", .array(kept)) }
        channels += Self.decoChannels(ceiling: p.ceiling.flatMap { $0.isEmpty ? nil : $0 }, depth: p.depth, stops: stops, inDeco: inDeco)

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
                if let v = channels[c].spell(channels[c].cursor) {
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
            report(.dropped, "ssrf.sample-negative-time", "\(unspellable) reading(s) (a negative NDL or TTS, a fraction of a second or of a beat) have no Subsurface spelling", "\(path)/profile")
        }
        // The profile's span is its last instant on reading back (of the channels written
        // and the events); a longer recorded span is lost.
        let lastEvent = p.events.map(\.time).max() ?? Int.min
        let lastReading = channels.compactMap(\.times.last).max() ?? Int.min
        if p.duration > max(lastEvent, lastReading) {
            report(.dropped, "ssrf.profile-duration-not-carried", "the profile's span (\(p.duration) ms) runs past its last reading; Subsurface keeps no span of its own", "\(path)/profile")
        }
    }
}
