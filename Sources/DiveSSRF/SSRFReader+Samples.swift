import DiveCore
import DiveXML

/// A `<sample>`: the hot path. Its attributes are walked once by index (names resolved by
/// address, values read from their bytes), each reading going straight onto its channel.
extension SSRFState {
    /// Depths within ``InputLimits/Range/depthMetres``, in centimetres.
    static let depthCentimetres = InputLimits.Range.depthMetres.lowerBound.scaledInteger(2)!...InputLimits.Range.depthMetres.upperBound.scaledInteger(2)!
    /// The longest time a sample or a readout (NDL, TTS) can name, seconds.
    static let maxSeconds = InputLimits.Range.diveSeconds.upperBound.roundedInteger()!
    /// Temperatures Subsurface itself keeps (its parser ignores any outside −40 to +70 °C),
    /// in hundredths of a °C.
    static let temperatureCentidegrees = -4000...7000
    /// Cylinder pressures a sample can read, tenths of a bar (no cylinder is rated past 300 bar).
    static let pressureTenths = 1...4500
    /// A clock of −1 seconds (printed unsigned, `71582788:15 min`): Subsurface's marker for
    /// "no value" in a readout that had one before.
    static let unsignedMinusOne = -1

    func readSample(_ attributes: XMLAttributes) {
        dc.samples += 1
        diveSamples += 1
        guard diveSamples <= samplesPerDive else {
            dive?.samplesOverLimit += 1
            coverCurrent()
            markAllRead(attributes)
            return
        }
        guard let base = attributes.base else {
            dropSample(attributes, what: "a <sample> with no attributes")
            return
        }
        let count = attributes.count
        // First pass: the time, and the sticky states later attributes of this sample depend
        // on (the sensor a bare @pressure belongs to, whether the stop depth is a ceiling).
        var timeIndex = -1, sensorIndex = -1, inDecoIndex = -1, cylinderIndex = -1
        var hasStopDepth = false, hasSuppliedPPO2 = false
        var i = 0
        while i < count {
            if let name = base[i * 5] {
                switch SampleAttribute(code: sampleAttributes.code(name)) {
                case .time: if timeIndex < 0 { timeIndex = i }
                case .sensor: sensorIndex = i
                case .inDeco: inDecoIndex = i
                case .stopdepth: hasStopDepth = true
                case .cylinderIndex: cylinderIndex = i
                case .dcSuppliedPPO2: hasSuppliedPPO2 = true
                default: break
                }
            }
            i += 1
        }
        guard timeIndex >= 0 else {
            dropSample(attributes, what: "a <sample> with no @time")
            return
        }
        guard let seconds = sampleClock(valueBytes(base, timeIndex), attribute: "time") else {
            dropSample(attributes, what: nil)
            return
        }
        guard seconds >= 0 else {
            dive?.refusals.add(code: "ssrf.time-before-start", what: "a sample @time", example: String(decoding: valueBytes(base, timeIndex), as: UTF8.self), line: line)
            dropSample(attributes, what: nil)
            return
        }
        guard seconds <= Self.maxSeconds else {
            dive?.refusals.add(code: "ssrf.value-out-of-range", what: "a sample @time past ten days", example: "\(seconds) s", line: line)
            dropSample(attributes, what: nil)
            return
        }
        let ms = seconds * 1000
        markRead(attributes, timeIndex)
        if sensorIndex >= 0 {
            markRead(attributes, sensorIndex)
            if let s = SSRFValues.integer(valueBytes(base, sensorIndex)), (0...9).contains(s) { dc.sensor = s } else {
                refuse("ssrf.not-a-number", "sample @sensor", valueBytes(base, sensorIndex))
            }
        }
        // Format 1: the cylinder this sample's bare @pressure is of (absent, the first), and
        // where it changes, a gas switch (Subsurface's `get_cylinderindex`).
        var pressureSensor = dc.sensor ?? dc.defaultSensor
        if cylinderIndex >= 0 {
            markRead(attributes, cylinderIndex)
            if let k = SSRFValues.integer(valueBytes(base, cylinderIndex)), (0...63).contains(k) {
                pressureSensor = k
                if k != dc.lastCylinderIndex {
                    var e = EventDraft(line: line)
                    e.time = seconds
                    e.name = "gaschange"
                    e.cylinder = k
                    e.inferred = true
                    dc.events.append(e)
                    dc.lastCylinderIndex = k
                }
            } else {
                refuse("ssrf.not-a-number", "sample @cylinderindex", valueBytes(base, cylinderIndex))
            }
        } else if formatOne && dc.implicit {
            pressureSensor = 0
        }
        if inDecoIndex >= 0 {
            markRead(attributes, inDecoIndex)
            if let v = SSRFValues.integer(valueBytes(base, inDecoIndex)), v == 0 || v == 1 {
                let was = dc.inDeco
                dc.inDeco = v == 1
                dc.extras[ExtraKind.inDeco.rawValue].add(ms, DecimalNumber(v))
                // Entering deco makes the stop depth stated before (and inherited by this
                // sample) the ceiling from here on.
                if !was && dc.inDeco && !hasStopDepth, let stop = dc.stopDepth, let cm = stop.scaledInteger(2), cm > 0 {
                    dc.ceiling.add(ms, cm)
                }
                // Leaving deco ends the ceiling: 0 from here on.
                if was && !dc.inDeco { endCeiling(ms) }
            } else {
                refuse("ssrf.not-a-number", "sample @in_deco", valueBytes(base, inDecoIndex))
            }
        }
        i = 0
        while i < count {
            defer { i += 1 }
            guard let name = base[i * 5] else { continue }
            let kind = SampleAttribute(code: sampleAttributes.code(name))
            switch kind {
            case .other, .time, .sensor, .inDeco, .cylinderIndex: continue
            default: break
            }
            markRead(attributes, i)
            let value = valueBytes(base, i)
            switch kind {
            case .depth:
                if let v = sampleMeasure(value, unit: "m", attribute: "depth") {
                    if let cm = v.scaledInteger(2), Self.depthCentimetres.contains(cm) { dc.depth.add(ms, cm) } else { outOfRange("sample @depth", value) }
                }
            case .temp:
                if let v = sampleMeasure(value, unit: "C", attribute: "temp") {
                    if let c = v.scaledInteger(2), Self.temperatureCentidegrees.contains(c) { dc.temperature.add(ms, c) } else { outOfRange("sample @temp", value) }
                }
            case .pressure:
                addPressure(sensor: pressureSensor, value, attribute: "pressure", ms: ms)
            case .o2Pressure:
                // The oxygen cylinder's pressure (Subsurface's `o2pressure_sensor`).
                if let k = dive?.cylinders.lastIndex(where: { $0.use == "oxygen" }) {
                    addPressure(sensor: k, value, attribute: "o2pressure", ms: ms)
                } else {
                    refuse("ssrf.o2pressure-no-oxygen-cylinder", "sample @o2pressure with no cylinder of use='oxygen' to be the pressure of", value)
                }
            case .pressureN(let n):
                addPressure(sensor: n, value, attribute: "pressure\(n)", ms: ms)
            case .ndl: addDuration(&dc.ndl, value, attribute: "ndl", ms: ms)
            case .tts: addDuration(&dc.tts, value, attribute: "tts", ms: ms)
            case .rbt: addExtraDuration(.remainingBottomTime, value, ms: ms)
            case .stoptime: addExtraDuration(.decoStopTime, value, ms: ms)
            case .stopdepth:
                if let v = sampleMeasure(value, unit: "m", attribute: "stopdepth") {
                    guard let cm = v.scaledInteger(2), Self.depthCentimetres.contains(cm) else { outOfRange("sample @stopdepth", value); break }
                    dc.stopDepth = v
                    if dc.inDeco && cm > 0 { dc.ceiling.add(ms, cm) } else if dc.inDeco && cm == 0 && ceilingOpen {
                        // A stop depth of 0 in deco: no stop left, the ceiling ends.
                        endCeiling(ms)
                    } else { dc.extras[ExtraKind.decoStopDepth.rawValue].add(ms, v) }
                }
            case .cns:
                if let v = sampleMeasure(value, unit: "%", attribute: "cns") {
                    if let tenths = v.scaledInteger(1), tenths >= 0, tenths <= 100_000 { dc.cns.add(ms, tenths) } else { outOfRange("sample @cns", value) }
                }
            case .dcSuppliedPPO2:
                if let v = ppo2(value, attribute: "dc_supplied_ppo2"), let h = v.scaledInteger(2) { dc.ppo2.add(ms, h) }
            case .setpoint:
                if let v = ppo2(value, attribute: "po2") {
                    // On an open-circuit computer @po2 is its ppO₂ (before 2015 Subsurface stored
                    // libdivecomputer's ppO₂ there), not a rebreather's setpoint.
                    if isOpenCircuit && !hasSuppliedPPO2, let h = v.scaledInteger(2) {
                        dc.ppo2.add(ms, h)
                        dc.po2AsPPO2 += 1
                    } else {
                        dc.extras[ExtraKind.setpoint.rawValue].add(ms, v)
                    }
                }
            case .cell(let n):
                if let v = ppo2(value, attribute: "sensor\(n)") { dc.extras[n - 1].add(ms, v) }
            case .heartbeat:
                if let v = SSRFValues.integer(value) {
                    if (0...300).contains(v) { dc.extras[ExtraKind.heartRate.rawValue].add(ms, DecimalNumber(v)) } else { outOfRange("sample @heartbeat", value) }
                } else { refuse("ssrf.not-a-number", "sample @heartbeat", value) }
            case .bearing:
                if let v = SSRFValues.integer(value) {
                    // −1 is Subsurface's "no bearing" once one was recorded before.
                    if (0...360).contains(v) { dc.extras[ExtraKind.heading.rawValue].add(ms, DecimalNumber(v)) } else if v == -1 {
                        dive?.refusals.add(code: "ssrf.no-value-marker", what: "sample @bearing of -1", example: "-1", line: line)
                    } else { outOfRange("sample @bearing", value) }
                } else { refuse("ssrf.not-a-number", "sample @bearing", value) }
            case .other, .time, .sensor, .inDeco, .cylinderIndex:
                break
            }
        }
    }

    /// The computer being read is open circuit: no `@dctype`, or `OC`.
    var isOpenCircuit: Bool {
        guard let t = dc.dctype, !t.isEmpty else { return true }
        return t == "OC" || t == "oc"
    }

    /// The ceiling has a value above 0 as its last reading.
    var ceilingOpen: Bool { (dc.ceiling.values.last ?? 0) > 0 }

    /// Ends an open ceiling with a reading of 0 at `ms`.
    func endCeiling(_ ms: Int) {
        if ceilingOpen { dc.ceiling.add(ms, 0) }
    }

    /// The sensor a bare `@pressure` belongs to before any `@sensor` names one: Subsurface's
    /// own rule, the first cylinder, or the second where the first is the oxygen cylinder.
    var defaultSensor: Int {
        guard let cylinders = dive?.cylinders, cylinders.count > 1 else { return 0 }
        let oxygen = cylinders.lastIndex { $0.use == "oxygen" }
        return oxygen == 0 ? 1 : 0
    }

    @inline(__always) private func valueBytes(_ base: UnsafeMutablePointer<UnsafePointer<UInt8>?>, _ i: Int) -> UnsafeBufferPointer<UInt8> {
        guard let start = base[i * 5 + 3], let end = base[i * 5 + 4] else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: start, count: end - start)
    }

    @inline(__always) private func markRead(_ attributes: XMLAttributes, _ i: Int) {
        if i < 64 { attributes.readMask?.pointee |= 1 << UInt64(i) }
    }

    /// A sample that cannot be placed: counted, and everything it holds spoken for by that.
    private func dropSample(_ attributes: XMLAttributes, what: String?) {
        if let what { dive?.refusals.add(code: "ssrf.sample-without-time", what: what, example: "", line: line) }
        coverCurrent()
        markAllRead(attributes)
    }

    private func refuse(_ code: String, _ what: String, _ value: UnsafeBufferPointer<UInt8>) {
        let l = line
        dive?.refusals.add(code: code, what: what, example: String(decoding: value, as: UTF8.self), line: l)
    }

    private func outOfRange(_ what: String, _ value: UnsafeBufferPointer<UInt8>) {
        refuse("ssrf.value-out-of-range", what, value)
    }

    @inline(__always) private func sampleMeasure(_ value: UnsafeBufferPointer<UInt8>, unit: StaticString, attribute: String) -> DecimalNumber? {
        switch SSRFValues.measure(value, unit: unit) {
        case .value(let v): return v
        case .unit(let u): refuse("ssrf.unit-unknown", "sample @\(attribute) in \(u.isEmpty ? "no unit" : "'\(u)'")", value)
        case .invalid: refuse("ssrf.not-a-number", "sample @\(attribute)", value)
        }
        return nil
    }

    @inline(__always) private func sampleClock(_ value: UnsafeBufferPointer<UInt8>, attribute: String) -> Int? {
        switch SSRFValues.clock(value) {
        case .value(let v): return v
        case .unit(let u): refuse("ssrf.unit-unknown", "sample @\(attribute) in \(u.isEmpty ? "no unit" : "'\(u)'")", value)
        case .invalid: refuse("ssrf.time-invalid", "sample @\(attribute)", value)
        }
        return nil
    }

    private func ppo2(_ value: UnsafeBufferPointer<UInt8>, attribute: String) -> DecimalNumber? {
        guard let v = sampleMeasure(value, unit: "bar", attribute: attribute) else { return nil }
        guard !v.isNegative, v <= DecimalNumber(10) else { outOfRange("sample @\(attribute)", value); return nil }
        return v
    }

    private func addPressure(sensor: Int, _ value: UnsafeBufferPointer<UInt8>, attribute: String, ms: Int) {
        guard let v = sampleMeasure(value, unit: "bar", attribute: attribute) else { return }
        guard let tenths = v.scaledInteger(1) else { outOfRange("sample @\(attribute)", value); return }
        if tenths == 0 {
            dive?.refusals.add(code: "ssrf.pressure-zero", what: "sample @\(attribute) of 0 bar", example: "0", line: line)
            return
        }
        guard Self.pressureTenths.contains(tenths) else { outOfRange("sample @\(attribute)", value); return }
        dc.pressures[sensor, default: ChannelDraft()].add(ms, tenths)
    }

    private func duration(_ value: UnsafeBufferPointer<UInt8>, attribute: String) -> Int? {
        guard let s = sampleClock(value, attribute: attribute) else { return nil }
        if s == Self.unsignedMinusOne {
            dive?.refusals.add(code: "ssrf.no-value-marker", what: "sample @\(attribute) of -1 s printed unsigned", example: String(decoding: value, as: UTF8.self), line: line)
            return nil
        }
        guard s >= 0, s <= Self.maxSeconds else { outOfRange("sample @\(attribute)", value); return nil }
        return s
    }

    private func addDuration(_ channel: inout ChannelDraft, _ value: UnsafeBufferPointer<UInt8>, attribute: String, ms: Int) {
        if let s = duration(value, attribute: attribute) { channel.add(ms, s) }
    }

    private func addExtraDuration(_ kind: ExtraKind, _ value: UnsafeBufferPointer<UInt8>, ms: Int) {
        if let s = duration(value, attribute: kind.attribute) { dc.extras[kind.rawValue].add(ms, DecimalNumber(s)) }
    }
}
