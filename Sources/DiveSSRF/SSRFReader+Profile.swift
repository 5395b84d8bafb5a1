import DiveCore
import DiveXML

/// A `<divecomputer>`'s samples and events as a profile: each channel on its own times (the
/// file writes a reading only where it changed, and no channel is padded to another), pressure
/// sensors tied to cylinders, gas switches to the cylinder switched to.
extension SSRFState {
    func profile(_ c: DCDraft, cylinders: inout [Cylinder], defined: Int, extraCylinders: inout [Int: Int],
                 path: String) -> (profile: Profile?, numbers: Bool) {
        var p = Profile()
        var collisions = 0
        var unordered = false
        func series(_ ch: ChannelDraft) -> Series? {
            guard !ch.isEmpty else { return nil }
            let (s, dropped, wasUnordered) = settle(ch)
            collisions += dropped
            if wasUnordered { unordered = true }
            return s
        }
        p.depth = series(c.depth)
        p.ceiling = series(c.ceiling)
        p.temperature = series(c.temperature)
        p.ndl = series(c.ndl)
        p.tts = series(c.tts)
        p.ppo2 = series(c.ppo2)
        p.cns = series(c.cns)

        // Pressures: sensor ids to cylinders, by the computer's <tanksensormapping>s, else
        // Subsurface's implied one (sensor N is cylinder N).
        var unmapped = 0
        var unmappedSensors: [Int] = []
        var byCylinder: [Int: Int] = [:]   // cylinder → sensor feeding it
        let sentinel = c.mappings.count == 1 && c.mappings[0].sensor == -1
        for sensor in c.pressures.keys.sorted() {
            let ch = c.pressures[sensor]!
            var index: Int?
            if sentinel {
                index = nil
            } else if !c.mappings.isEmpty {
                if let m = c.mappings.first(where: { $0.sensor == sensor }), m.cylinder >= 0, m.cylinder < defined { index = m.cylinder }
            } else if sensor < defined {
                index = sensor
            } else if let made = extraCylinders[sensor] {
                index = made
            } else {
                // Evidence of a tank is evidence of a tank: a cylinder carrying only these.
                cylinders.append(Cylinder())
                extraCylinders[sensor] = cylinders.count - 1
                index = cylinders.count - 1
            }
            guard let index, byCylinder[index] == nil else {
                unmapped += ch.times.count
                unmappedSensors.append(sensor)
                continue
            }
            byCylinder[index] = sensor
            if let s = series(ch) { p.pressures.append(PressureSeries(gasNumber: index, series: s)) }
        }
        p.pressures.sort { $0.gasNumber < $1.gasNumber }
        if unmapped > 0 {
            let why = sentinel ? "the computer's <tanksensormapping sensorid='-1'> says no sensor is tied to a cylinder"
                : "no <tanksensormapping> ties \(unmappedSensors.count == 1 ? "it" : "them") to a cylinder of the dive, or another sensor already feeds that cylinder"
            report(.dropped, "ssrf.pressure-unmapped",
                   "\(unmapped) tank pressure reading\(unmapped == 1 ? "" : "s") of sensor\(unmappedSensors.count == 1 ? "" : "s") \(unmappedSensors.map(String.init).joined(separator: ", ")): \(why); not carried",
                   path: path, line: c.line)
        }

        if c.po2AsPPO2 > 0 {
            report(.resolved, "ssrf.po2-open-circuit",
                   "\(c.po2AsPPO2) sample @po2 reading\(c.po2AsPPO2 == 1 ? "" : "s") of an open-circuit computer: Subsurface before 2015 stored the computer's ppO₂ there, and open circuit has no setpoint; read as the ppO₂ channel",
                   path: path, line: c.line)
        }
        p.extensions = extraChannels(c, collisions: &collisions, unordered: &unordered)
        p.events = events(c, cylinders: cylinders, path: path)

        if unordered {
            report(.resolved, "ssrf.samples-out-of-order", "samples are not in time order; each channel is ordered by its own @time", path: path, line: c.line)
        }
        if collisions > 0 {
            report(.dropped, "ssrf.sample-time-collision",
                   "\(collisions) reading\(collisions == 1 ? "" : "s") fall on a time another sample of the same channel already holds; the first is kept",
                   path: path, line: c.line)
        }
        let numbers = !p.pressures.isEmpty || p.events.contains { $0.gasNumber != nil }
        if p.allSeries.isEmpty && p.extensions == nil && p.events.isEmpty { return (nil, numbers) }
        var duration = p.allSeries.compactMap(\.times.last).max() ?? 0
        for e in c.extras { if let last = e.times.last { duration = max(duration, last) } }
        if p.allSeries.isEmpty && p.extensions == nil { duration = p.events.map(\.time).max() ?? 0 }
        p.duration = duration
        return (p, numbers)
    }

    /// A channel in time order (stable), the later of two readings at one instant dropped.
    private func settle(_ ch: ChannelDraft) -> (Series, dropped: Int, unordered: Bool) {
        var times = ch.times, values = ch.values
        if !ch.ordered {
            let order = times.indices.sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
            times = order.map { ch.times[$0] }
            values = order.map { ch.values[$0] }
        }
        var s = Series()
        s.times.reserveCapacity(times.count)
        s.values.reserveCapacity(times.count)
        var dropped = 0
        for k in times.indices {
            if let last = s.times.last, last == times[k] { dropped += 1; continue }
            s.append(times[k], values[k])
        }
        return (s, dropped, !ch.ordered)
    }

    /// The profile's `umilog` extension: the sample channels DiveJSON has no member for.
    private func extraChannels(_ c: DCDraft, collisions: inout Int, unordered: inout Bool) -> ExtensionValue? {
        var channels: [ExtensionValue] = []
        for kind in ExtraKind.allCases {
            let e = c.extras[kind.rawValue]
            guard !e.times.isEmpty else { continue }
            var times = e.times, values = e.values
            if !e.ordered {
                unordered = true
                let order = times.indices.sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
                times = order.map { e.times[$0] }
                values = order.map { e.values[$0] }
            }
            var keptTimes: [ExtensionValue] = [], keptValues: [ExtensionValue] = []
            var last = -1
            for k in times.indices {
                if times[k] == last { collisions += 1; continue }
                last = times[k]
                keptTimes.append(.number(String(times[k])))
                keptValues.append(values[k].extensionNumber)
            }
            var members: [ExtensionValue.Member] = [.init("name", .string(kind.name))]
            if let ref = kind.ref { members.append(.init("ref", .string(ref))) }
            if let unit = kind.unit { members.append(.init("unit", .string(unit))) }
            members.append(.init("times", .array(keptTimes)))
            members.append(.init("values", .array(keptValues)))
            channels.append(.object(members))
        }
        guard !channels.isEmpty else { return nil }
        return .object([.init("umilog", .object([.init("channels", .array(channels))]))])
    }

    // MARK: Events

    /// The computer's events in time order: gas switches tied to the cylinder switched to,
    /// the alarms §6.6 names typed, every other event kept under its own name.
    private func events(_ c: DCDraft, cylinders: [Cylinder], path: String) -> [Event] {
        var out: [Event] = []
        var unnamed = 0
        for e in c.events {
            guard let seconds = e.time else { continue }
            let ms = seconds * 1000
            var umilog: [ExtensionValue.Member] = []
            let name = e.name
            let gasChange = name?.lowercased() == "gaschange" || (name == nil && (e.type == 11 || e.type == 25))
            var event = Event(time: ms)
            if gasChange {
                event.type = .gasSwitch
                event.gasNumber = gasSwitchTarget(e, cylinders: cylinders, umilog: &umilog, path: path)
                // The switch as libdivecomputer coded it, kept like any event's.
                if let t = e.type { umilog.append(.init("type", .number(String(t)))) }
                if let v = e.value { umilog.append(.init("value", .number(String(v)))) }
                if let f = e.flags { umilog.append(.init("flags", .number(String(f)))) }
            } else {
                event.type = Self.eventType(name: name, type: e.type)
                if let name, !(name == "bookmark" && event.type == .bookmark) {
                    event.label = name
                } else if name == nil && event.type == nil {
                    unnamed += 1
                    continue
                }
                if let t = e.type { umilog.append(.init("type", .number(String(t)))) }
                if let v = e.value {
                    if name == "SP change" {
                        // The new setpoint, in mbar.
                        umilog.append(.init("setpoint", DecimalNumber(significand: Int64(v), exponent: -3).extensionNumber))
                    } else {
                        umilog.append(.init("value", .number(String(v))))
                    }
                }
                if let f = e.flags { umilog.append(.init("flags", .number(String(f)))) }
                if let mode = e.divemode { umilog.append(.init("divemode", .string(mode))) }
                if let o2 = e.oxygen { umilog.append(.init("oxygen", o2.extensionNumber)) }
                if let he = e.helium { umilog.append(.init("helium", he.extensionNumber)) }
                if let cyl = e.cylinder { umilog.append(.init("cylinder", .number(String(cyl)))) }
            }
            if e.inferred {
                report(.inferred, "ssrf.gaschange-inferred",
                       "the samples' @cylinderindex changes to \(e.cylinder ?? 0) at \(seconds) s; a gas switch to that cylinder is inferred there, as Subsurface does",
                       path: path, line: e.line)
            }
            if !umilog.isEmpty { event.extensions = .object([.init("umilog", .object(umilog))]) }
            out.append(event)
        }
        if unnamed > 0 {
            report(.dropped, "ssrf.event-unnamed", "\(unnamed) event\(unnamed == 1 ? " has" : "s have") neither a name nor a type this reader knows; not carried", path: path, line: c.line)
        }
        // Stable: events at one instant keep the file's order.
        return out.enumerated().sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }.map(\.element)
    }

    /// The cylinder a gas switch names: its `@cylinder`; for `type='25'` the index in
    /// `@flags` (plus one), Subsurface's extension of that format; else the one cylinder
    /// whose mix is the event's. `nil` when none is named, with the mix kept under umilog.
    private func gasSwitchTarget(_ e: EventDraft, cylinders: [Cylinder], umilog: inout [ExtensionValue.Member], path: String) -> Int? {
        if let k = e.cylinder {
            if k >= 0 && k < cylinders.count { return k }
            report(.dropped, "ssrf.gaschange-cylinder-unknown", "a gas switch names cylinder \(k), which the dive does not have; the switch is kept without its cylinder", path: path, line: e.line)
            umilog.append(.init("cylinder", .number(String(k))))
            return nil
        }
        if e.type == 25, let f = e.flags, f > 0 {
            if f - 1 < cylinders.count { return f - 1 }
        }
        // The mix: @o2 / @he, else the event value (O₂ percent, and for type 25 He in the high 16 bits).
        var o2 = e.oxygen, he = e.helium
        if o2 == nil, let v = e.value {
            o2 = DecimalNumber(v & 0xFFFF)
            if e.type == 25 { he = DecimalNumber(v >> 16) }
        }
        if let o2 {
            let h = he ?? DecimalNumber(0)
            let match = Self.cylinderForMix(o2: o2, he: h, cylinders: cylinders, oxygenAbsent: cylinderOxygenAbsent)
            let mix = "\(o2) % oxygen\(h.isZero ? "" : " and \(h) % helium")"
            switch match {
            case .exact(let k, let air):
                report(.resolved, "ssrf.gaschange-by-mix",
                       air ? "a gas switch to \(mix) names no cylinder; tied to the one cylinder (\(k + 1)) that states no oxygen, which Subsurface reads as air (20.9 %) when it matches a switch (the cylinder's oxygen stays unrecorded)"
                           : "a gas switch to \(mix) names no cylinder; tied to the one cylinder holding that mix (\(k + 1))",
                       path: path, line: e.line)
                return k
            case .near(let k, let air):
                report(.resolved, "ssrf.gaschange-by-mix",
                       "a gas switch to \(mix) names no cylinder, and no cylinder holds exactly that mix; tied to the one nearest within 1 percentage point, cylinder \(k + 1)\(air ? ", which states no oxygen and is read as air (20.9 %) for the match (its oxygen stays unrecorded)" : ""), as Subsurface takes the nearest mix",
                       path: path, line: e.line)
                return k
            case .none(let ambiguous):
                umilog.append(.init("oxygen", o2.extensionNumber))
                if let he { umilog.append(.init("helium", he.extensionNumber)) }
                report(.dropped, "ssrf.gaschange-no-cylinder",
                       "a gas switch to \(mix) names no cylinder, and \(ambiguous ? "more than one" : "no") cylinder of the dive records that mix (or one within 1 percentage point of it); the switch is kept without its cylinder (the mix under umilog)",
                       path: path, line: e.line)
                return nil
            }
        }
        report(.dropped, "ssrf.gaschange-no-cylinder", "a gas switch names neither a cylinder nor a mix; the switch is kept without its cylinder", path: path, line: e.line)
        return nil
    }

    enum MixMatch: Equatable {
        /// The one cylinder holding exactly the mix; `air` when it states no oxygen.
        case exact(Int, air: Bool)
        /// The one cylinder nearest the mix, within 1 percentage point of O₂ and of He.
        case near(Int, air: Bool)
        /// None within 1 point, or two or more equally near (`ambiguous`).
        case none(ambiguous: Bool)
    }

    /// The cylinder a gas switch's mix names. A cylinder whose `<cylinder>` states no `@o2` is
    /// air for this (Subsurface writes `@o2` only when it is not air, and its `get_o2` reads
    /// none as 20.9 %); no `@he` is 0 %. An exact mix first; else the nearest within ±1
    /// percentage point of both gases, when no other is as near (Subsurface's loader takes
    /// the nearest mix, `find_best_gasmix_match`; a type-11 value is whole percent).
    static func cylinderForMix(o2: DecimalNumber, he: DecimalNumber, cylinders: [Cylinder], oxygenAbsent: [Bool]) -> MixMatch {
        guard let eo2 = o2.scaledInteger(1), let ehe = he.scaledInteger(1) else { return .none(ambiguous: false) }
        var exact: [(Int, Bool)] = [], near: [(Int, Bool, Int)] = []
        for i in cylinders.indices {
            let air = cylinders[i].oxygen == nil && i < oxygenAbsent.count && oxygenAbsent[i]
            let co2: Int
            if let o = cylinders[i].oxygen { co2 = Int((o * 10).rounded()) } else if air { co2 = 209 } else { continue }
            let che = Int(((cylinders[i].helium ?? 0) * 10).rounded())
            let d2 = abs(co2 - eo2), dh = abs(che - ehe)
            if d2 == 0 && dh == 0 { exact.append((i, air)) } else if d2 <= 10 && dh <= 10 { near.append((i, air, d2 + dh)) }
        }
        if exact.count == 1 { return .exact(exact[0].0, air: exact[0].1) }
        if exact.count > 1 { return .none(ambiguous: true) }
        guard let best = near.map(\.2).min() else { return .none(ambiguous: false) }
        let nearest = near.filter { $0.2 == best }
        if nearest.count == 1 { return .near(nearest[0].0, air: nearest[0].1) }
        return .none(ambiguous: true)
    }

    /// §6.6's type for a Subsurface event, by its name (libdivecomputer's, as Subsurface
    /// stores them), else its libdivecomputer type number.
    static func eventType(name: String?, type: Int?) -> EventType? {
        if let name {
            switch name.lowercased() {
            case "bookmark": return .bookmark
            case "ascent": return .ascentRate
            case "deepstop": return .deepStop
            case "safety stop", "safety stop (voluntary)": return .safetyStop
            case "safety stop (mandatory)": return .safetyStopMandatory
            case "safety stop violation": return .safetyStopViolation
            case "ceiling": return .ceilingViolation
            case "maxdepth": return .depthAlarm
            case "po₂", "po2": return .ppo2High
            default: return nil
            }
        }
        switch type {
        case 3: return .ascentRate
        case 4: return .ceilingViolation
        case 8: return .bookmark
        case 10, 12: return .safetyStop
        case 13: return .safetyStopMandatory
        case 14: return .deepStop
        case 18: return .depthAlarm
        default: return nil
        }
    }
}
