import DiveCore
import DiveXML

/// The readings of one extra channel on the dive's millisecond axis, exact as the source
/// wrote them (the unit is settled when the channel is written out).
struct ExtraChannelBuilder {
    var times: [Int] = []
    var values: [DecimalNumber] = []
    var collisions = 0

    mutating func add(_ ms: Int, _ value: DecimalNumber) {
        if let last = times.last, last == ms { collisions += 1; return }
        times.append(ms)
        values.append(value)
    }
}

extension UDDFState {
    /// The profile's `umilog` extension: every extra channel the dive recorded, each with what
    /// it measures, its sensor, battery or setting, its unit and its readings (times in ms).
    /// Units are UDDF's SI ones read by the same magnitude rules as the core channels.
    func extraChannelsExtension(_ d: DiveDraft, _ builders: [ExtraChannelBuilder], path: String, line: Int) -> ExtensionValue? {
        var channels: [ExtensionValue] = []
        var pascal = 0, celsius = 0, perMinute = 0, volts = 0
        for (i, key) in d.extraChannels.enumerated() {
            let b = builders[i]
            guard !key.kind.isCore, !b.times.isEmpty else { continue }
            // A series: one reading alone says nothing about the whole dive.
            if key.kind.zeroIsPlaceholder, b.times.count >= 2, b.values.allSatisfy(\.isZero) {
                let what = key.ref.map { "\(key.kind.rawValue) \"\($0)\"" } ?? key.kind.rawValue
                report(.absent, "uddf.placeholder", "every \(what) reading is 0 for the whole dive (\(b.times.count) reading\(b.times.count == 1 ? "" : "s")): a placeholder for a sensor the device does not have; not carried", path: path, line: line)
                continue
            }
            var unit = key.kind.unit
            var values = b.values
            switch key.kind {
            case .sensorPPO2, .setpoint:
                // Pascal by the documentation, bar by some writers: as <calculatedpo2>.
                values = values.map { v in
                    guard DecimalNumber(10) < v else { return v }
                    pascal += 1
                    return v.shifted(by: -5)
                }
            case .heartRate:
                // Hz by the documentation (a heart beats 0.5 to 4 times a second); a value
                // above 10 can only be beats per minute already.
                values = values.map { v in
                    guard !(DecimalNumber(10) < v) else { perMinute += 1; return v }
                    let (m, overflow) = v.significand.multipliedReportingOverflow(by: 60)
                    return overflow ? v : DecimalNumber(significand: m, exponent: v.exponent)
                }
            case .bodyTemperature:
                values = values.map { v in
                    guard DecimalNumber(100) <= v else { celsius += 1; return v }
                    return v.adding(DecimalNumber(significand: -27315, exponent: -2)) ?? v
                }
            case .batteryCharge where isShearwaterCloud:
                // Shearwater Cloud Desktop writes the battery's voltage (1.4–1.5 for an AA
                // cell, 3.9 for a lithium one) where UDDF documents a charge in percent.
                unit = "V"
                volts += b.times.count
            default:
                break
            }
            var members: [ExtensionValue.Member] = [.init("name", .string(key.kind.rawValue))]
            if let ref = key.ref { members.append(.init(key.kind == .setpoint ? "set_by" : "ref", .string(ref))) }
            if let tank = key.tank { members.append(.init("tank", .string(tank))) }
            if !unit.isEmpty { members.append(.init("unit", .string(unit))) }
            if let u = key.sourceUnit { members.append(.init("source_unit", .string(u))) }
            members.append(.init("times", .array(b.times.map { .number(String($0)) })))
            members.append(.init("values", .array(values.map { .number($0.normalized().description) })))
            channels.append(.object(members))
        }
        if pascal > 0 {
            report(.resolved, "uddf.ppo2-pascal", "\(pascal) sensor or setpoint ppO2 value\(pascal == 1 ? " is" : "s are") above 10, so Pascal rather than bar; read as Pascal", path: path, line: line)
        }
        if perMinute > 0 {
            report(.resolved, "uddf.pulserate-per-minute", "\(perMinute) pulse rate\(perMinute == 1 ? " is" : "s are") above 10, which as Hz would be over 600 beats a minute; read as beats per minute", path: path, line: line)
        }
        if celsius > 0 {
            report(.resolved, "uddf.temperature-celsius", "\(celsius) body temperature\(celsius == 1 ? " is" : "s are") below 100, so not Kelvin; read as °C", path: path, line: line)
        }
        if volts > 0 {
            report(.resolved, "uddf.battery-volts", "the generator writes the battery's voltage in <batterychargecondition>, not a charge in percent; carried as volts", path: path, line: line)
        }
        let collisions = builders.reduce(0) { $0 + $1.collisions }
        if collisions > 0 {
            report(.dropped, "uddf.sample-time-collision", "\(collisions) extra reading\(collisions == 1 ? "" : "s") fall on a millisecond another reading of the same sensor already holds; the first is kept", path: path, line: line)
        }
        guard !channels.isEmpty else { return nil }
        return .object([.init("umilog", .object([.init("channels", .array(channels))]))])
    }

    /// Events for a waypoint's `<alarm>`s and `<info>`s. An ascent alarm is DiveJSON's
    /// `ascent_rate`; every other alarm and every info keeps its words as the event's label.
    func alarmEvents(_ items: [AlarmDraft], at ms: Int) -> [Event] {
        items.map { item in
            let level = item.info ? "" : item.qualifier.map { " (level \($0))" } ?? ""
            if item.info {
                let label = [item.qualifier, item.text.isEmpty ? nil : item.text].compactMap { $0 }.joined(separator: ": ")
                return Event(time: ms, label: label)
            }
            if item.text.lowercased() == "ascent" {
                return Event(time: ms, type: .ascentRate, label: level.isEmpty ? nil : "ascent alarm\(level)")
            }
            return Event(time: ms, label: item.text.isEmpty ? "alarm\(level)" : "\(item.text) alarm\(level)")
        }
    }

    /// Pressure channels that record nothing: one constant value above any cylinder's rating
    /// for the whole dive (a writer's placeholder), all zeros (not recorded), or the same
    /// readings as another channel (the same tank seen twice). Each is removed and reported,
    /// and a cylinder that only such a channel made is removed with it. Returns the cylinders'
    /// new indices (nil: removed).
    func removeEmptyPressureChannels(_ pressures: inout [Int: ChannelBuilder], cylinders: inout [CylinderDraft],
                                     telemetryOnlyFrom: Int, path: String, line: Int) -> [Int?]? {
        var removedCylinders: Set<Int> = []
        var kept: [(Int, Series)] = []
        for index in pressures.keys.sorted() {
            let s = pressures[index]!.series
            let name = cylinders[index].id.map { "\"\($0)\"" } ?? "cylinder \(index + 1)"
            var why: String?
            // A series: one reading alone says nothing about the whole dive.
            if s.count >= 2, let first = s.values.first, s.values.allSatisfy({ $0 == first }) {
                if first == 0 {
                    report(.absent, "uddf.pressure-all-zero", "every tank pressure of \(name) is 0 bar: the writer had none; read as not recorded", path: path, line: line)
                    why = "zero"
                } else if first > 3500 {
                    report(.absent, "uddf.pressure-placeholder", "every tank pressure of \(name) is \(Double(first) / 10) bar for the whole dive, above any cylinder's rating: a writer's placeholder, not a cylinder; not carried", path: path, line: line)
                    why = "placeholder"
                }
            }
            // Two tanks that read the same constant all dive (two stages never breathed) are
            // two tanks; only a varying series repeated reading for reading is one tank twice.
            if why == nil, s.values.contains(where: { $0 != s.values[0] }), let twin = kept.first(where: { $0.1 == s }) {
                let twinName = cylinders[twin.0].id.map { "\"\($0)\"" } ?? "cylinder \(twin.0 + 1)"
                report(.resolved, "uddf.pressure-duplicate", "the tank pressures of \(name) repeat those of \(twinName) reading for reading: one tank seen twice; carried once", path: path, line: line)
                why = "duplicate"
            }
            if why != nil {
                pressures[index] = nil
                if index >= telemetryOnlyFrom { removedCylinders.insert(index) }
            } else {
                kept.append((index, s))
            }
        }
        guard !removedCylinders.isEmpty else { return nil }
        var map: [Int?] = []
        var next = 0
        for i in cylinders.indices {
            if removedCylinders.contains(i) { map.append(nil) } else { map.append(next); next += 1 }
        }
        cylinders = cylinders.indices.filter { !removedCylinders.contains($0) }.map { cylinders[$0] }
        var moved: [Int: ChannelBuilder] = [:]
        for (k, v) in pressures { if let n = map[k] { moved[n] = v } }
        pressures = moved
        return map
    }
}
