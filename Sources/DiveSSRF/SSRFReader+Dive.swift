import DiveCore
import DiveXML

/// Reading a `<dive>` element's start and end tags into its ``DiveDraft``.
extension SSRFState {
    func startDive(_ attributes: XMLAttributes) {
        var d = DiveDraft(index: diveIndex, line: line)
        diveIndex += 1
        d.number = attributes.value("number")
        d.date = attributes.value("date")
        d.time = attributes.value("time")
        d.duration = attributes.value("duration")
        d.siteID = attributes.value("divesiteid")
        d.cns = attributes.value("cns")
        d.otu = attributes.value("otu")
        d.tags = attributes.value("tags")
        d.rating = attributes.value("rating")
        for name in ["visibility", "wavesize", "current", "surge", "chill"] as [StaticString] {
            if let v = attributes.value(name) { d.stars.append((name.description, v)) }
        }
        d.sac = attributes.value("sac")
        d.invalid = attributes.value("invalid")
        d.tripflag = attributes.value("tripflag")
        d.waterSalinity = attributes.value("watersalinity")
        d.airPressure = attributes.value("airpressure")
        dive = d
        inDive = true
        diveSamples = 0
        diveDepth = stack.count
        accountant.inRecord = true
        accountant.recordDepth = stack.count
    }

    func startInDive(_ tag: SSRFTag, _ attributes: XMLAttributes) {
        let p = parent()
        if p == .divecomputer && inDC {
            computerChild(tag, attributes)
            return
        }
        guard p == .dive else { return }
        switch tag {
        case .divecomputer:
            closeImplicitComputer()
            dc = DCDraft(index: dive?.computers.count ?? 0, line: line)
            dc.defaultSensor = defaultSensor
            inDC = true
            dc.model = attributes.value("model")
            dc.deviceID = attributes.value("deviceid")
            dc.diveID = attributes.value("diveid")
            dc.dateText = attributes.value("date")
            dc.timeText = attributes.value("time")
            dc.duration = attributes.rawValue("duration").flatMap { diveClock($0, what: "<divecomputer @duration>") }
            dc.lastManualTime = attributes.rawValue("last-manual-time").flatMap { diveClock($0, what: "<divecomputer @last-manual-time>") }
            dc.dctype = attributes.value("dctype")
            if let n = attributes.value("no_o2sensors") {
                if let v = SSRFValues.integer(n), v >= 0 { dc.noO2Sensors = v } else {
                    dive?.refusals.add(code: "ssrf.not-a-number", what: "<divecomputer @no_o2sensors>", example: n, line: line)
                }
            }
        case .depth, .temperature, .sample, .event, .surface, .water, .surfacetime:
            // Format 1: the dive's own summary, events and samples, which Subsurface reads into
            // its first computer.
            openImplicitComputer()
            if tag == .sample { readSample(attributes) } else { computerChild(tag, attributes) }
        case .cylinder:
            var c = CylinderDraft(line: line)
            c.size = attributes.value("size")
            c.workPressure = attributes.value("workpressure")
            c.description = attributes.value("description")
            c.o2 = attributes.value("o2")
            c.he = attributes.value("he")
            c.start = attributes.value("start")
            c.end = attributes.value("end")
            c.use = attributes.value("use")
            c.depth = attributes.value("depth")
            dive?.cylinders.append(c)
        case .weightsystem:
            dive?.weights.append((attributes.value("weight"), attributes.value("description"), line))
        case .divetemperature:
            dive?.diveTemperature = (attributes.value("air"), attributes.value("water"), line)
        case .location:
            dive?.location = (nil, attributes.value("gps"), line)
        case .picture:
            readPicture(attributes)
        default: break
        }
    }

    /// A child of a `<divecomputer>` (or, in format 1, of the `<dive>` itself, read into its
    /// implicit computer).
    private func computerChild(_ tag: SSRFTag, _ attributes: XMLAttributes) {
        switch tag {
        case .depth: readSummaryDepth(attributes)
        case .temperature: readSummaryTemperature(attributes)
        case .surface:
            if let raw = attributes.rawValue("pressure") {
                dc.surfacePressure = diveMeasure(raw, unit: "bar", what: "<surface @pressure>")
            }
        case .water:
            if let raw = attributes.rawValue("salinity") { readSalinity(raw) }
        case .extradata:
            let key = attributes.value("key") ?? "", value = attributes.value("value") ?? ""
            if !key.isEmpty && !value.isEmpty {
                dc.extradata.append((key, value))
            } else if !key.isEmpty || !value.isEmpty {
                // Subsurface keeps an entry only with both halves; one half alone says nothing.
                report(.dropped, "ssrf.extradata-incomplete",
                       "an <extradata> with \(key.isEmpty ? "a value and no key" : "the key \"\(key)\" and no value") names nothing; not carried",
                       path: divePath + "/divecomputer/\(dc.index)")
            }
        case .tanksensormapping:
            let sensor = attributes.value("sensorid").flatMap(SSRFValues.integer)
            let cylinder = attributes.value("cylinderindex").flatMap(SSRFValues.integer)
            if let sensor, let cylinder {
                dc.mappings.append((sensor, cylinder))
            } else {
                report(.dropped, "ssrf.tanksensormapping-invalid",
                       "a <tanksensormapping> without a whole sensor id and cylinder index maps nothing; not carried",
                       path: divePath + "/divecomputer/\(dc.index)")
            }
        case .event: readEvent(attributes)
        default: break
        }
    }

    func endInDive(_ tag: SSRFTag) {
        let p = parent()
        switch tag {
        case .notes where p == .dive: dive?.notes = string()
        case .buddy where p == .dive: if let s = string() { dive?.buddies.append(s) }
        case .divemaster where p == .dive, .diveguide where p == .dive: if let s = string() { dive?.guides.append(s) }
        case .suit where p == .dive: dive?.suit = string()
        case .location where p == .dive: dive?.location?.name = string()
        case .surfacetime where (p == .divecomputer || (p == .dive && dc.implicit)) && inDC:
            markCarried()
            text.withUnsafeBufferPointer { dc.surfaceTime = diveClock($0, what: "<surfacetime>") }
        case .divecomputer where p == .dive && inDC:
            dive?.computers.append(dc)
            dc = DCDraft(index: 0, line: 0)
            inDC = false
        case .dive:
            closeImplicitComputer()
            inDive = false
            accountant.inRecord = false
            if var draft = dive {
                dive = nil
                if let t = trip {
                    draft.trip = .object(t)
                    tripDives += 1
                }
                if let built = finishDive(draft) { ready.append(built) }
            }
        default: break
        }
    }

    /// The record path of the dive being read, for findings.
    var divePath: String { "dive/\(dive?.index ?? 0)" }

    private func openImplicitComputer() {
        guard !inDC else { return }
        dc = DCDraft(index: dive?.computers.count ?? 0, line: line)
        dc.implicit = true
        dc.defaultSensor = defaultSensor
        inDC = true
    }

    /// Ends format 1's computer at the dive's end or where a `<divecomputer>` begins.
    private func closeImplicitComputer() {
        guard inDC, dc.implicit else { return }
        dive?.computers.append(dc)
        dc = DCDraft(index: 0, line: 0)
        inDC = false
    }

    /// `<water @salinity>` in g/l. Format 1 wrote `'1030.0 kg/l'`, a number of g/l under the
    /// wrong unit (Subsurface's parser reads the number and never the unit): a `kg/l` of 100 or
    /// more is read as g/l and said so; a smaller one is refused like any unit.
    private func readSalinity(_ raw: UnsafeBufferPointer<UInt8>) {
        if case .unit("kg/l") = SSRFValues.measure(raw, unit: "g/l"), case .value(let v) = SSRFValues.measure(raw, unit: "kg/l"),
           DecimalNumber(100) <= v {
            dc.salinity = v
            report(.resolved, "ssrf.salinity-kg-per-litre",
                   "<water @salinity> \"\(String(decoding: raw, as: UTF8.self))\" states kg/l, but no water is a ton a litre: Subsurface's format 1 wrote grams per litre under that unit; read as \(v.normalized()) g/l",
                   path: dc.implicit ? divePath : divePath + "/divecomputer/\(dc.index)")
            return
        }
        dc.salinity = diveMeasure(raw, unit: "g/l", what: "<water @salinity>")
    }

    private func readSummaryDepth(_ attributes: XMLAttributes) {
        dc.depthLine = line
        if let raw = attributes.rawValue("max") { dc.maxDepth = diveMeasure(raw, unit: "m", what: "<depth @max>") }
        if let raw = attributes.rawValue("mean") { dc.meanDepth = diveMeasure(raw, unit: "m", what: "<depth @mean>") }
    }

    private func readSummaryTemperature(_ attributes: XMLAttributes) {
        dc.temperatureLine = line
        if let raw = attributes.rawValue("water") { dc.waterTemperature = diveMeasure(raw, unit: "C", what: "<temperature @water>") }
        if let raw = attributes.rawValue("air") { dc.airTemperature = diveMeasure(raw, unit: "C", what: "<temperature @air>") }
    }

    private func readEvent(_ attributes: XMLAttributes) {
        var e = EventDraft(line: line)
        e.time = attributes.rawValue("time").flatMap { diveClock($0, what: "<event @time>", negative: true) }
        if let t = e.time, t < 0 {
            // Subsurface's unsigned print of a time before the dive's start.
            dive?.refusals.add(code: "ssrf.time-before-start", what: "an <event @time>", example: attributes.value("time") ?? "", line: line)
            e.time = nil
        }
        e.name = attributes.value("name").flatMap { $0.isEmpty ? nil : $0 }
        e.type = attributes.value("type").flatMap { eventInteger($0, "type") }
        e.flags = attributes.value("flags").flatMap { eventInteger($0, "flags") }
        e.value = attributes.value("value").flatMap { eventInteger($0, "value") }
        e.cylinder = attributes.value("cylinder").flatMap { eventInteger($0, "cylinder") }
        if let raw = attributes.rawValue("o2") { e.oxygen = diveMeasure(raw, unit: "%", what: "<event @o2>") }
        if let raw = attributes.rawValue("he") { e.helium = diveMeasure(raw, unit: "%", what: "<event @he>") }
        e.divemode = attributes.value("divemode").flatMap { $0.isEmpty ? nil : $0 }
        if e.time == nil && attributes.rawValue("time") == nil {
            dive?.refusals.add(code: "ssrf.event-without-time", what: "<event>", example: e.name ?? "", line: line)
        }
        dc.events.append(e)
    }

    private func eventInteger(_ text: String, _ attribute: String) -> Int? {
        if let v = SSRFValues.integer(text) { return v }
        dive?.refusals.add(code: "ssrf.not-a-number", what: "<event @\(attribute)>", example: text, line: line)
        return nil
    }

    private func readPicture(_ attributes: XMLAttributes) {
        var members: [ExtensionValue.Member] = []
        if let f = attributes.value("filename"), !f.isEmpty { members.append(.init("filename", .string(f))) }
        if let o = attributes.value("offset"), !o.isEmpty {
            // `+16:40 min`: seconds from the dive's start, signed.
            let negative = o.hasPrefix("-")
            let body = o.hasPrefix("+") || negative ? String(o.dropFirst()) : o
            if case .value(let s) = SSRFValues.clock(body) {
                members.append(.init("offset", .number(String(negative ? -s : s))))
            } else {
                dive?.refusals.add(code: "ssrf.time-invalid", what: "<picture @offset>", example: o, line: line)
            }
        }
        if let g = attributes.value("gps"), !g.isEmpty {
            if let p = position(g, what: "a picture's @gps", path: divePath, line: line) {
                members.append(.init("gps", .object([.init("latitude", .number(String(p.latitude))), .init("longitude", .number(String(p.longitude)))])))
            }
        }
        if let h = attributes.value("hash"), !h.isEmpty { members.append(.init("hash", .string(h))) }
        if !members.isEmpty { dive?.pictures.append(.object(members)) }
    }

    // MARK: Values inside a dive

    /// A measurement of the dive being read in `unit`, or `nil` with the refusal counted.
    func diveMeasure(_ raw: UnsafeBufferPointer<UInt8>, unit: StaticString, what: String) -> DecimalNumber? {
        switch SSRFValues.measure(raw, unit: unit) {
        case .value(let v): return v
        case .unit(let u):
            let l = line
            dive?.refusals.add(code: "ssrf.unit-unknown", what: "\(what) in \(u.isEmpty ? "no unit" : "'\(u)'")",
                               example: String(decoding: raw, as: UTF8.self), line: l)
        case .invalid:
            let l = line
            dive?.refusals.add(code: "ssrf.not-a-number", what: what, example: String(decoding: raw, as: UTF8.self), line: l)
        }
        return nil
    }

    /// A `M:SS min` clock of the dive being read, in seconds, or `nil` with the refusal counted.
    /// A negative clock (printed unsigned) is refused unless `negative` says the caller places it.
    func diveClock(_ raw: UnsafeBufferPointer<UInt8>, what: String, negative: Bool = false) -> Int? {
        switch SSRFValues.clock(raw) {
        case .value(let v) where v < 0 && !negative:
            let l = line
            dive?.refusals.add(code: "ssrf.value-out-of-range", what: "\(what) negative (printed unsigned)",
                               example: String(decoding: raw, as: UTF8.self), line: l)
        case .value(let v): return v
        case .unit(let u):
            let l = line
            dive?.refusals.add(code: "ssrf.unit-unknown", what: "\(what) in \(u.isEmpty ? "no unit" : "'\(u)'")",
                               example: String(decoding: raw, as: UTF8.self), line: l)
        case .invalid:
            let l = line
            dive?.refusals.add(code: "ssrf.time-invalid", what: what, example: String(decoding: raw, as: UTF8.self), line: l)
        }
        return nil
    }
}
