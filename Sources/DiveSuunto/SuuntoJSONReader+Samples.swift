import DiveCore
import DiveJSON

/// Something a sample carries, placed by its instant (ms from `Header.DateTime`) and the
/// sample it came from (`k`, its index in `Samples`).
protocol SampleTimed {
    var t: Int { get }
    var k: Int { get }
    /// Time order, the source's order breaking ties.
    func precedes(_ other: Self) -> Bool
}

extension SampleTimed {
    func precedes(_ other: Self) -> Bool { t != other.t ? t < other.t : k < other.k }
}

/// One reading of a channel: its instant, the sample it came from, its integer-scaled value
/// and where it was written.
struct TimedReading: SampleTimed {
    var t: Int
    var k: Int
    var value: Int
    var line: Int
    var column: Int
}

/// One tank reading of a transmitter slot (`Samples[].Cylinders[]`), in Pascal.
struct TankReading: SampleTimed {
    var t: Int
    var k: Int
    var slot: Int
    var pascal: DecimalNumber
    var line: Int
    var column: Int
}

/// An event as read, with the source's gas number for a switch (resolved to a cylinder later).
struct SourceEvent: SampleTimed {
    var t: Int
    var k: Int
    /// Its place among its sample's events.
    var order: Int
    var event: Event
    var sourceGas: Int?
    var line: Int
    var column: Int

    func precedes(_ other: SourceEvent) -> Bool {
        t != other.t ? t < other.t : (k != other.k ? k < other.k : order < other.order)
    }
}

/// A satellite fix: a sample's own (radians, read to degrees) or the route origin (degrees).
struct SourceFix: SampleTimed {
    var t: Int
    var k: Int
    var position: Position
    var isOrigin: Bool
    var line: Int
    var column: Int
    var at: JSONPath
}

/// Everything the samples carry, before it is ordered by time.
struct SampleStreams {
    var depth: [TimedReading] = []
    var ceiling: [TimedReading] = []
    var temperature: [TimedReading] = []
    var ndl: [TimedReading] = []
    var tts: [TimedReading] = []
    var gradientFactor: [TimedReading] = []
    var surfaceGradientFactor: [TimedReading] = []
    var tanks: [TankReading] = []
    var events: [SourceEvent] = []
    var fixes: [SourceFix] = []
    /// `EHPE` by instant: the receiver's stated horizontal error, metres (the first per instant).
    var errors: [Int: Double] = [:]
    /// Samples that stated a reading this reader reads (carried or refused with a finding).
    var samplesWithReadings = 0
    /// True when the samples' times never go back: every stream is then already in time
    /// order, appended sample by sample, and is not sorted.
    var inOrder = true

    /// `items` in time order, the source's order breaking ties.
    func timeOrdered<T: SampleTimed>(_ items: [T]) -> [T] {
        inOrder ? items : items.sorted { $0.precedes($1) }
    }
}

/// `Samples[]`, by `docs/suunto-json-mapping.md`'s *The profile* and *Events*.
extension SuuntoJSONReader {
    static let samplesPath = "$.DeviceLog.Samples"

    /// §6.6's type for each alert `Type` (matched case-insensitively); the `Type` is its label.
    static let alertTypes: [String: EventType] = [
        "ascent speed": .ascentRate, "mandatory safety stop": .safetyStopMandatory,
        "safety stop broken": .safetyStopViolation, "mandatory safety stop broken": .safetyStopViolation,
        "deep stop broken": .deepStopViolation, "violated deep stop": .deepStopViolation,
        "ceiling broken": .ceilingViolation, "nodecotime": .ndlReached, "po2 high": .ppo2High,
        "tank pressure": .pressureLow, "max.depth": .depthAlarm,
    ]
    /// The four `Notify` values carried, without a label (a `Notify` names the device's state).
    static let notifyTypes: [String: EventType] = [
        "deep stop": .deepStop, "safety stop": .safetyStop, "deco": .ndlReached, "safety stop broken": .safetyStopViolation,
    ]
    /// The `Notify` values deliberately not carried, and why.
    static let notifyNotCarried: [String: String] = [
        "deep stop ahead": "the prompt before a stop this reader already marks",
        "safety stop ahead": "the prompt before a stop this reader already marks",
        "stop done": "the confirmation after a stop this reader already marks",
        "gas switch": "a duplicate of the \"GasSwitch\" event in the same sample",
        "deco window": "the computer narrating its own state, not something that happened on the dive",
        "nofly time": "the computer narrating its own state, not something that happened on the dive",
        "dive time": "the computer narrating its own state, not something that happened on the dive",
        "gas available": "the computer narrating its own state, not something that happened on the dive",
    ]

    func readSamples(_ samples: [JSONNode], start: DiveDateTime?, startLine: Int) -> SampleStreams {
        var out = SampleStreams()
        guard !samples.isEmpty else { return out }
        let pattern = Self.samplesPath + "[]"
        let samplesAt = JSONPath(Self.samplesPath)
        let clock = start.flatMap { $0.time == nil ? nil : SampleClock(start: $0) }
        var lastTime = Int.min
        for (k, node) in samples.enumerated() {
            guard node.isObject else {
                count(.dropped, "wrong-type", "a sample should be an object but is \(node.typeNameWithArticle); not read",
                      pattern: pattern, path: samplesAt.index(k).path, line: node.line, column: node.column)
                continue
            }
            var s = JSONMembers(node, at: samplesAt.index(k))
            defer { finish(s) }
            if k >= InputLimits.samplesPerDive {
                count(.dropped, "samples-over-limit", "the dive holds more than \(InputLimits.samplesPerDive) samples; the rest are not carried",
                      pattern: pattern, path: s.path, line: node.line, column: node.column)
                s.takeAll()
                continue
            }
            guard let t = sampleTime(&s, clock: clock) else {
                s.takeAll()
                continue
            }
            if t < lastTime { out.inOrder = false }
            lastTime = t
            readSample(&s, t: t, k: k, into: &out)
            if s.tookSomething(except: "TimeISO8601") {
                out.samplesWithReadings += 1
            } else if s.hasUntaken {
                count(.dropped, "sample-without-reading", "a sample carries a time and no reading this format can hold",
                      pattern: pattern, path: s.path, line: node.line, column: node.column)
            }
        }
        return out
    }

    /// The sample's instant in milliseconds from the dive's start; `nil`, reported, when it has
    /// none that can be placed.
    private func sampleTime(_ s: inout JSONMembers, clock: SampleClock?) -> Int? {
        guard let (text, m) = string(&s, "TimeISO8601") else {
            if s.node.holdsSomething {
                count(.dropped, "sample-without-time", "a sample records no \"TimeISO8601\", so nothing places it; not carried",
                      pattern: s.pattern("TimeISO8601"), path: s.path, line: s.node.line, column: s.node.column)
            }
            return nil
        }
        let pattern = s.pattern("TimeISO8601")
        guard let clock else {
            count(.dropped, "sample-without-start", "the dive has no start time of day, so a sample's \"TimeISO8601\" places it nowhere; not carried",
                  pattern: pattern, path: s.path("TimeISO8601"), line: m.line, column: m.column)
            return nil
        }
        switch clock.elapsed(text) {
        case .ms(let t):
            if t < 0 {
                count(.dropped, "sample-before-start", "a sample is stamped before the dive began (\"TimeISO8601\" before \"Header.DateTime\"); not carried",
                      pattern: pattern, path: s.path("TimeISO8601"), line: m.line, column: m.column)
                return nil
            }
            return t
        case .invalid:
            count(.dropped, "sample-time-invalid", "a sample's \"TimeISO8601\" \"\(text)\" is not a date and time; not carried",
                  pattern: pattern, path: s.path("TimeISO8601"), line: m.line, column: m.column)
        case .offsetMismatch:
            count(.dropped, "sample-time-offset", "a sample's \"TimeISO8601\" \"\(text)\" and the dive's start do not both state a UTC offset, so the one cannot be placed after the other; not carried",
                  pattern: pattern, path: s.path("TimeISO8601"), line: m.line, column: m.column)
        case .outOfRange:
            count(.dropped, "value-out-of-range", "a sample's \"TimeISO8601\" \"\(text)\" is more than 10 days after the dive began; not carried",
                  pattern: pattern, path: s.path("TimeISO8601"), line: m.line, column: m.column)
        }
        return nil
    }

    /// Reads one sample's members into the streams.
    private func readSample(_ s: inout JSONMembers, t: Int, k: Int, into out: inout SampleStreams) {
        func drop(_ kind: FindingKind, _ code: String, _ name: String, _ m: JSONNode.Member, _ message: @autoclosure () -> String) {
            count(kind, code, message(), pattern: s.pattern(name), path: s.path(name), line: m.line, column: m.column)
        }
        // Depth and ceiling, metres to centimetres.
        if let (v, m) = number(&s, "Depth") {
            if v.isNegative {
                drop(.dropped, "depth-negative", "Depth", m, "a \"Depth\" below zero is above the surface; not carried")
            } else if !InputLimits.Range.depthMetres.contains(v) {
                drop(.dropped, "value-out-of-range", "Depth", m, "a \"Depth\" of \(v) m is deeper than any sea; not carried")
            } else if let cm = v.scaledInteger(2) {
                out.depth.append(TimedReading(t: t, k: k, value: cm, line: m.line, column: m.column))
            }
        }
        if let (v, m) = number(&s, "Ceiling") {
            if v.isZero {
                drop(.absent, "ceiling-zero", "Ceiling", m, "a \"Ceiling\" of 0 is no decompression obligation rather than a ceiling at the surface; not carried")
            } else if v.isNegative {
                drop(.dropped, "ceiling-negative", "Ceiling", m, "a \"Ceiling\" below zero is no ceiling; not carried")
            } else if !InputLimits.Range.depthMetres.contains(v) {
                drop(.dropped, "value-out-of-range", "Ceiling", m, "a \"Ceiling\" of \(v) m is deeper than any sea; not carried")
            } else if let cm = v.scaledInteger(2) {
                out.ceiling.append(TimedReading(t: t, k: k, value: cm, line: m.line, column: m.column))
            }
        }
        // Kelvin to hundredths of a degree Celsius.
        if let (v, m) = number(&s, "Temperature") {
            if let c = Self.celsius(kelvin: v), Self.celsiusRange.contains(c), let hundredths = c.scaledInteger(2) {
                out.temperature.append(TimedReading(t: t, k: k, value: hundredths, line: m.line, column: m.column))
            } else {
                let celsius = Self.celsius(kelvin: v).map { " (\($0) °C)" } ?? ""
                drop(.dropped, "value-out-of-range", "Temperature", m, "a \"Temperature\" of \(v) K\(celsius) is no water temperature (outside −100 to 200 °C); not carried")
            }
        }
        // The readouts: a negative is the device's absent-marker (the channel's floor), and so
        // is a time to surface of zero (the mapping, settled against the files).
        if let (v, m) = seconds(&s, "NoDecTime") {
            if v < 0 {
                drop(.absent, "ndl-absent-marker", "NoDecTime", m, "a \"NoDecTime\" below zero is the device's mark of no no-decompression time to show; not carried")
            } else {
                out.ndl.append(TimedReading(t: t, k: k, value: v, line: m.line, column: m.column))
            }
        }
        if let (v, m) = seconds(&s, "TimeToSurface") {
            if v <= 0 {
                drop(.absent, "tts-absent-marker", "TimeToSurface", m, "a \"TimeToSurface\" of \(v) is the device's mark of no figure (it writes 0 at any depth); not carried")
            } else {
                out.tts.append(TimedReading(t: t, k: k, value: v, line: m.line, column: m.column))
            }
        }
        if var gf = object(&s, "RtGradientFactors") {
            if let (v, m) = gradient(&gf, "gf99") {
                if v < 0 {
                    count(.absent, "gf99-absent-marker", "a \"gf99\" below zero is the device's mark of no leading compartment; not carried",
                          pattern: gf.pattern("gf99"), path: gf.path("gf99"), line: m.line, column: m.column)
                } else {
                    out.gradientFactor.append(TimedReading(t: t, k: k, value: v, line: m.line, column: m.column))
                }
            }
            // `gtSurface` is `gfSurface` one firmware earlier.
            let name = gf.peek("gfSurface") != nil ? "gfSurface" : "gtSurface"
            if let (v, m) = gradient(&gf, name) {
                if v < 0 {
                    count(.absent, "gf-surface-absent-marker", "a \"\(name)\" below zero is no surface gradient factor; not carried",
                          pattern: gf.pattern(name), path: gf.path(name), line: m.line, column: m.column)
                } else {
                    out.surfaceGradientFactor.append(TimedReading(t: t, k: k, value: v, line: m.line, column: m.column))
                }
            }
            finish(gf)
        }
        // Tank telemetry, per transmitter slot; a `null` pressure is skipped.
        if let (elements, _) = array(&s, "Cylinders") {
            let cylinders = s.at.member("Cylinders")
            for (i, node) in elements.enumerated() {
                guard node.isObject else {
                    count(.dropped, "wrong-type", "a tank reading should be an object but is \(node.typeNameWithArticle); not read",
                          pattern: cylinders.index(i).pattern, path: cylinders.index(i).path, line: node.line, column: node.column)
                    continue
                }
                var c = JSONMembers(node, at: cylinders.index(i))
                let slot = integer(&c, "GasNumber", in: 0...9_999)
                if let (v, m) = number(&c, "Pressure") {
                    if let slot {
                        let bar = v.shifted(by: -4)
                        if v.isNegative || DecimalNumber(3500) < bar {
                            count(.dropped, "pressure-out-of-range", "a tank \"Pressure\" outside 0 to 350 bar is a noisy reading; not carried",
                                  pattern: c.pattern("Pressure"), path: c.path("Pressure"), line: m.line, column: m.column)
                        } else {
                            out.tanks.append(TankReading(t: t, k: k, slot: slot.value, pascal: v, line: m.line, column: m.column))
                        }
                    } else {
                        count(.dropped, "pressure-without-gas-number", "a tank \"Pressure\" with no \"GasNumber\" belongs to no cylinder; not carried",
                              pattern: c.pattern("Pressure"), path: c.path("Pressure"), line: m.line, column: m.column)
                    }
                }
                finish(c)
            }
        }
        // Fixes: a sample's own, in radians; the route origin, in degrees.
        readFix(&s, t: t, k: k, into: &out)
        if var origin = object(&s, "DiveRouteOrigin") {
            let la = number(&origin, "Latitude"), lo = number(&origin, "Longitude")
            if let (lat, m) = la, let (lon, _) = lo {
                if lat.isZero && lon.isZero {
                    count(.dropped, "position-zero", "a \"DiveRouteOrigin\" at exactly 0, 0 is no position (Null Island); not carried",
                          pattern: origin.pattern, path: origin.path, line: m.line, column: m.column)
                } else if lat < DecimalNumber(-90) || DecimalNumber(90) < lat || lon < DecimalNumber(-180) || DecimalNumber(180) < lon {
                    count(.dropped, "position-out-of-range", "a \"DiveRouteOrigin\" of \(lat), \(lon) is no latitude and longitude; not carried",
                          pattern: origin.pattern, path: origin.path, line: m.line, column: m.column)
                } else {
                    out.fixes.append(SourceFix(t: t, k: k, position: Position(latitude: lat.doubleValue, longitude: lon.doubleValue),
                                               isOrigin: true, line: m.line, column: m.column, at: origin.at))
                }
            } else if let m = la?.member ?? lo?.member {
                count(.dropped, "position-half", "a \"DiveRouteOrigin\" with one of its latitude and longitude is half a position; not carried",
                      pattern: origin.pattern, path: origin.path, line: m.line, column: m.column)
            }
            finish(origin)
        }
        if let (v, m) = number(&s, "EHPE") {
            if v.isNegative || DecimalNumber(100_000) < v {
                drop(.dropped, "value-out-of-range", "EHPE", m, "an \"EHPE\" of \(v) m is no position error; not read")
            } else if out.errors[t] == nil {
                out.errors[t] = v.doubleValue
            }
        }
        // Events: the D5 writes `Events`, the Ocean `DiveEvents` (and `Events` for its
        // activity bookkeeping), as an array or as one object.
        var order = 0
        for name in ["Events", "DiveEvents"] {
            guard let m = s.walk(name) else { continue }
            var nodes: [(JSONNode, JSONPath)] = []
            switch m.value.value {
            case .array(let elements):
                for (i, e) in elements.enumerated() { nodes.append((e, s.at.member(name).index(i))) }
            case .object: nodes.append((m.value, s.at.member(name)))
            case .null: break
            default: wrongType(s, m, "an object or an array of objects")
            }
            for (node, at) in nodes {
                guard node.isObject else {
                    count(.dropped, "wrong-type", "an event should be an object but is \(node.typeNameWithArticle); not read",
                          pattern: at.pattern, path: at.path, line: node.line, column: node.column)
                    continue
                }
                var e = JSONMembers(node, at: at)
                readEvents(&e, t: t, k: k, order: &order, into: &out)
                finish(e)
            }
        }
    }

    /// A sample's own `Latitude`/`Longitude`, in radians.
    private func readFix(_ s: inout JSONMembers, t: Int, k: Int, into out: inout SampleStreams) {
        let la = number(&s, "Latitude"), lo = number(&s, "Longitude")
        guard la != nil || lo != nil else { return }
        guard let (lat, m) = la, let (lon, _) = lo else {
            if let m = la?.member ?? lo?.member {
                count(.dropped, "position-half", "a fix with one of \"Latitude\" and \"Longitude\" is half a position; not carried",
                      pattern: s.pattern("Latitude"), path: s.path(m.name), line: m.line, column: m.column)
            }
            return
        }
        if lat.isZero && lon.isZero {
            count(.dropped, "position-zero", "a fix at exactly 0, 0 is no position (Null Island); not carried",
                  pattern: s.pattern("Latitude"), path: s.path("Latitude"), line: m.line, column: m.column)
            return
        }
        let (rlat, rlon) = (lat.doubleValue, lon.doubleValue)
        guard abs(rlat) <= Double.pi / 2, abs(rlon) <= Double.pi,
              let dlat = DecimalNumber(rlat * 180 / Double.pi)?.rounded(places: 6),
              let dlon = DecimalNumber(rlon * 180 / Double.pi)?.rounded(places: 6) else {
            count(.dropped, "position-out-of-range", "a fix of \(lat), \(lon) radians is no latitude and longitude; not carried",
                  pattern: s.pattern("Latitude"), path: s.path("Latitude"), line: m.line, column: m.column)
            return
        }
        out.fixes.append(SourceFix(t: t, k: k, position: Position(latitude: dlat.doubleValue, longitude: dlon.doubleValue),
                                   isOrigin: false, line: m.line, column: m.column, at: s.at.member("Latitude")))
    }

    /// One event object: a gas switch, and an alarm, warning or notification.
    private func readEvents(_ e: inout JSONMembers, t: Int, k: Int, order: inout Int, into out: inout SampleStreams) {
        if var g = object(&e, "GasSwitch") {
            if let (n, m) = integer(&g, "GasNumber", in: 0...9_999) {
                out.events.append(SourceEvent(t: t, k: k, order: order, event: Event(time: t, type: .gasSwitch), sourceGas: n,
                                              line: m.line, column: m.column))
                order += 1
            }
            finish(g)
        }
        for kind in ["Alarm", "Warning", "Notify"] {
            guard var a = object(&e, kind) else { continue }
            defer { finish(a) }
            let type = string(&a, "Type"), active = bool(&a, "Active")
            guard let (text, m) = type else {
                if let (_, m) = active {
                    count(.dropped, "event-without-type", "a \"\(kind)\" states no \"Type\", so nothing says what it was; not carried",
                          pattern: a.pattern, path: a.path, line: m.line, column: m.column)
                }
                continue
            }
            guard let (isActive, _) = active else {
                count(.dropped, "event-without-edge", "a \"\(kind)\" states no \"Active\", so it is neither the start nor the end of anything; not carried",
                      pattern: a.pattern, path: a.path, line: m.line, column: m.column)
                continue
            }
            guard isActive else {
                count(.dropped, "event-end-not-carried", "an alert's or notification's end (\"Active\": false) is not carried: the marker is its start",
                      pattern: a.pattern, path: a.path, line: m.line, column: m.column)
                continue
            }
            let key = text.lowercased()
            var event = Event(time: t)
            if kind == "Notify" {
                guard let type = Self.notifyTypes[key] else {
                    let why = Self.notifyNotCarried[key] ?? "a notification this reader knows no meaning for"
                    count(.dropped, "notify-not-carried", "a \"Notify\" of \"\(text)\" is \(why); not carried",
                          pattern: a.pattern, path: a.path, line: m.line, column: m.column, variant: key)
                    continue
                }
                event.type = type
            } else {
                // The device's wording is the label; an unknown alert is unclassified (§6.6).
                event.type = Self.alertTypes[key]
                event.label = text
            }
            out.events.append(SourceEvent(t: t, k: k, order: order, event: event, sourceGas: nil, line: m.line, column: m.column))
            order += 1
        }
    }

    /// A readout in whole seconds (`NoDecTime`, `TimeToSurface`), within 10 days either way.
    private func seconds(_ o: inout JSONMembers, _ name: String) -> (value: Int, member: JSONNode.Member)? {
        guard let (v, m) = number(&o, name) else { return nil }
        guard let s = v.roundedInteger(), abs(s) <= 864_000 else {
            count(.dropped, "value-out-of-range", "a \"\(name)\" of \(v) s is longer than any dive; not carried",
                  pattern: o.pattern(name), path: o.path(name), line: m.line, column: m.column)
            return nil
        }
        return (s, m)
    }

    /// A gradient factor in whole percent. §6.4 sets no ceiling and none is invented: only what
    /// an integer cannot carry is refused.
    private func gradient(_ o: inout JSONMembers, _ name: String) -> (value: Int, member: JSONNode.Member)? {
        guard let (v, m) = number(&o, name) else { return nil }
        guard let p = v.roundedInteger(), abs(p) <= Int(Int32.max) else {
            count(.dropped, "value-out-of-range", "a \"\(name)\" of \(v) % is beyond what a reading can be; not carried",
                  pattern: o.pattern(name), path: o.path(name), line: m.line, column: m.column)
            return nil
        }
        return (p, m)
    }

    /// Water temperatures a reading can be, °C (looser than the model checks' plausible range).
    static let celsiusRange = DecimalNumber(-100)...DecimalNumber(200)

    /// A temperature in Kelvin, the app's SI, as °C, exactly; `nil` past what a decimal holds.
    static func celsius(kelvin: DecimalNumber) -> DecimalNumber? {
        kelvin.subtracting(DecimalNumber(significand: 27315, exponent: -2))
    }

    static func celsius(kelvin text: String) -> DecimalNumber? { DecimalNumber(text).flatMap { celsius(kelvin: $0) } }

    /// True for a member whose numbers are temperatures in Kelvin: the app names each one
    /// `…Temperature` (`Temperature`, `DeviceInternalTemperature`, the header's `Temperature`
    /// block of `Max` and `Min`).
    static func isKelvin(_ name: String) -> Bool { name.hasSuffix("Temperature") }

    /// Orders one channel's readings by their own time (the source's order breaking ties) and
    /// keeps the first of two on one millisecond, reporting the second (per channel).
    func settle(_ readings: [TimedReading], _ name: String, in streams: SampleStreams) -> Series? {
        guard !readings.isEmpty else { return nil }
        var series = Series()
        for r in streams.timeOrdered(readings) where !series.appendKeepingFirst(r.t, r.value) {
            count(.dropped, "sample-same-instant", "a \"\(name)\" lands on the millisecond of an earlier one; the first is kept and this one is not carried",
                  pattern: Self.samplesPath + "[]." + name, path: "\(Self.samplesPath)[\(r.k)].\(name)", line: r.line, column: r.column)
        }
        return series
    }
}

/// Places a sample's `TimeISO8601` on the dive's axis: milliseconds after `Header.DateTime`,
/// computed in decimal from both instants' own fractions, halves away from zero.
struct SampleClock {
    enum Elapsed { case ms(Int), invalid, offsetMismatch, outOfRange }
    let start: DiveDateTime
    let startFraction: DecimalNumber

    init(start: DiveDateTime) {
        self.start = start
        startFraction = Self.fraction(start)
    }

    static func fraction(_ dt: DiveDateTime) -> DecimalNumber {
        guard let f = dt.time?.fraction, let d = DecimalNumber("0." + f) else { return DecimalNumber(0) }
        return d
    }

    func elapsed(_ text: String) -> Elapsed {
        guard let (dt, notes) = DiveDateTime.parse(text), dt.time != nil, !notes.dateOnly else { return .invalid }
        let seconds: Int
        switch (start.utcSeconds, dt.utcSeconds) {
        case (let a?, let b?): seconds = b - a
        case (nil, nil): seconds = dt.wallClockSeconds - start.wallClockSeconds
        default: return .offsetMismatch
        }
        guard abs(seconds) <= 864_000,
              let d = DecimalNumber(seconds).adding(Self.fraction(dt))?.subtracting(startFraction),
              let ms = d.scaledInteger(3) else { return .outOfRange }
        return .ms(ms)
    }
}
