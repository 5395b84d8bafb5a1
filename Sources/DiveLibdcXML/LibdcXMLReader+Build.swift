import DiveCore

/// The units a dump's numbers are in. libdivecomputer's own are metric (m, °C, bar, litres);
/// dctool's `--units imperial` writes ft, °F, psi and ft³, and the file does not say which.
enum LibdcUnits: String {
    case metric, imperial

    func metres(_ v: Double) -> Double { self == .imperial ? v * 0.3048 : v }
    func celsius(_ v: Double) -> Double { self == .imperial ? (v - 32) * 5 / 9 : v }
    func bar(_ v: Double) -> Double { self == .imperial ? v * 0.068_947_572_9 : v }
}

/// `mm:ss` (minutes past 59 allowed) as seconds.
func minutesSeconds(_ text: String) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let m = Int(parts[0]), let s = Int(parts[1]), m >= 0, s >= 0, s < 60 else { return nil }
    return m * 60 + s
}

extension LibdcXMLState {
    func number(_ v: LValue?, _ name: String, at path: String) -> Double? {
        guard let v else { return nil }
        guard let n = DecimalNumber(v.text)?.doubleValue else {
            report(.dropped, "not-a-number", "<\(name)> holds \"\(v.text)\", not a number; not carried", path: "\(path)/\(name)", line: v.line)
            return nil
        }
        return n
    }

    /// The magnitude rule: water warmer than 40 (°F, for no diver meets 40 °C water) or a
    /// tank pressure past 400 (psi) makes the dive imperial; otherwise it is metric.
    private func units(_ d: LDiveDraft, path: String) -> LibdcUnits {
        var temps = d.temperatures.compactMap { Double($0.text) }
        var pressures = d.tanks.compactMap { $0["beginpressure"].flatMap { Double($0.text) } }
        for s in d.samples {
            for (name, v) in s.values {
                if name == "temperature", let t = Double(v.text) { temps.append(t) }
                if name == "pressure", let p = Double(v.text) { pressures.append(p) }
            }
        }
        let units: LibdcUnits
        let reason: String
        if let t = temps.max() {
            units = t > 40 ? .imperial : .metric
            reason = "its warmest temperature being \(DecimalNumber(t)?.description ?? "") (\(units == .imperial ? "°F: no dive meets water above 40 °C" : "°C: °F water is never so cold"))"
        } else if let p = pressures.max() {
            units = p > 400 ? .imperial : .metric
            reason = "its highest tank pressure being \(DecimalNumber(p)?.description ?? "") (\(units == .imperial ? "psi: no cylinder holds 400 bar" : "bar"))"
        } else {
            units = .metric
            reason = "libdivecomputer's own units, with no temperature or pressure to tell otherwise"
        }
        if let seen = unitsSeen[units] { unitsSeen[units] = (seen.count + 1, seen.reason, seen.path) } else { unitsSeen[units] = (1, reason, path) }
        return units
    }

    func buildDive(_ d: LDiveDraft, path: String) -> Dive {
        let u = units(d, path: path)
        var extras: [ExtensionValue.Member] = []
        var start: DiveDateTime?
        if let v = d.values["datetime"] {
            // `yyyy-mm-dd hh:mm:ss`, and dctool's `+hh:mm` after a space where the computer keeps a zone.
            let parts = v.text.split(separator: " ")
            let text = parts.count == 3 && (parts[2].hasPrefix("+") || parts[2].hasPrefix("-")) ? "\(parts[0])T\(parts[1])\(parts[2])" : v.text
            if let (dt, _) = DiveDateTime.parse(text) { start = dt } else {
                report(.dropped, "start-invalid", "<datetime> \"\(v.text)\" is not libdivecomputer's yyyy-mm-dd hh:mm:ss; the dive is carried without a start", path: "\(path)/datetime", line: v.line)
            }
            if start?.offset == nil && start != nil {
                habits.add("offset", .absent, "libdc-xml.offset-absent", at: SourceLocation(file: file, line: v.line, path: "\(path)/datetime")) { n in
                    "<datetime> has no UTC offset (the computer keeps none)\(n > 1 ? ", in \(n) dives" : ""): the wall clock where the dive was made, carried without one"
                }
            }
        } else {
            report(.absent, "start-absent", "the dive records no <datetime>", path: path, line: d.line)
        }
        var dive = Dive(uuid: "", startedAt: start)
        if let f = d.values["fingerprint"], fingerprints.insert(f.text).inserted {
            // The fingerprint is the dive's identity on its computer (libdivecomputer downloads
            // only dives newer than the last fingerprint it was given).
            dive.uuid = Identity.uuid(kind: "dive", sourceID: f.text, namespace: LibdcXML.namespace)
            dive.provenance = Provenance(format: "libdc-xml", file: file, sourceID: f.text, index: d.index, line: d.line)
        } else {
            if let f = d.values["fingerprint"] {
                report(.resolved, "fingerprint-duplicate", "<fingerprint> \(f.text) is an earlier dive's too; this dive's identity is its place in the file", path: "\(path)/fingerprint", line: f.line)
            } else {
                report(.absent, "fingerprint-absent", "the dive has no <fingerprint>; its identity is its place in the file", path: path, line: d.line)
            }
            dive.uuid = Identity.uuid5(namespace: LibdcXML.namespace, name: "dive:#\(d.index)")
            dive.provenance = Provenance(format: "libdc-xml", file: file, index: d.index, line: d.line, positionalIdentity: true)
        }
        if let v = number(d.values["number"], "number", at: path) { extras.append(.init("download_number", .number(DecimalNumber(v)?.description ?? "0"))) }
        if let v = number(d.values["size"], "size", at: path) { extras.append(.init("raw_size", .number(DecimalNumber(v)?.description ?? "0"))) }
        if let v = d.values["divetime"] {
            if let s = minutesSeconds(v.text), s > 0 { dive.submergedTime = s } else {
                report(.dropped, "divetime-invalid", "<divetime> \"\(v.text)\" is no dive's length in mm:ss; not carried", path: "\(path)/divetime", line: v.line)
            }
        }
        let depths = SummaryDepths(max: number(d.values["maxdepth"], "maxdepth", at: path).flatMap { DecimalNumber(u.metres($0)) },
                                   mean: nil, maxName: "<maxdepth>", meanName: "")
        dive.maxDepth = depths.max
        for f in depths.findings { report(f.kind, f.code, f.message, path: "\(path)/maxdepth", line: d.values["maxdepth"]?.line) }
        for t in d.temperatures {
            guard let raw = number(t, "temperature", at: path) else { continue }
            let c = (u.celsius(raw) * 100).rounded() / 100
            switch t.type {
            case "minimum": dive.bottomTemperature = c
            case "surface": dive.airTemperature = c
            case "maximum": extras.append(.init("max_temperature", .number(DecimalNumber(c)?.description ?? "0")))
            default:
                report(.dropped, "temperature-type-unknown", "<temperature type=\"\(t.type ?? "")\"> \(t.text) is none of surface, minimum, maximum; not carried", path: "\(path)/temperature", line: t.line)
            }
        }
        var rec = Recording()
        if let v = d.values["divemode"] {
            switch v.text {
            case "oc": rec.mode = .openCircuit
            case "cc": rec.mode = .closedCircuit
            case "gauge": rec.mode = .gauge
            case "freedive": rec.mode = .freedive
            default: report(.dropped, "divemode-unknown", "<divemode> \"\(v.text)\" is none of freedive, gauge, oc, cc; not carried", path: "\(path)/divemode", line: v.line)
            }
        }
        if let v = d.values["salinity"] {
            // type 0 fresh, 1 salt (DC_WATER_FRESH, DC_WATER_SALT); the text the density, kg/m³.
            switch v.type {
            case "0": rec.salinity = .fresh
            case "1": rec.salinity = .salt
            default: report(.dropped, "salinity-unknown", "<salinity type=\"\(v.type ?? "")\"> is neither fresh (0) nor salt (1); not carried", path: "\(path)/salinity", line: v.line)
            }
            if let n = DecimalNumber(v.text), n.doubleValue > 0 {
                rec.extensions = .object([.init("umilog", .object([.init("water_density", .number(n.description))]))])
            }
        }
        if let v = number(d.values["atmospheric"], "atmospheric", at: path) {
            let b = u.bar(v)
            if b > 0.5 && b < 1.1 { rec.surfacePressure = b } else {
                report(.dropped, "value-out-of-range", "<atmospheric> \(d.values["atmospheric"]!.text) is no air pressure at a dive site; not carried", path: "\(path)/atmospheric", line: d.values["atmospheric"]!.line)
            }
        }
        let gasCylinder = readCylinders(d, units: u, into: &dive, path: path)
        rec.profile = profile(d, units: u, gasCylinder: gasCylinder, cylinders: &dive.cylinders, path: path)
        if rec.hasContent || rec.mode != nil || rec.salinity != nil || rec.surfacePressure != nil { dive.recordings = [rec] }
        if !extras.isEmpty { dive.extensions = .object([.init("umilog", .object(extras))]) }
        return dive
    }

    /// Gases and tanks as cylinders: a `<tank>` is a cylinder with the gas its `<gasmix>`
    /// index names; a gas no tank names is a cylinder of its own. A gas of 0 % oxygen is no gas
    /// a diver breathes — libdivecomputer's reading of an unused gas slot — and is not carried.
    /// Returns each gas's cylinder.
    private func readCylinders(_ d: LDiveDraft, units: LibdcUnits, into dive: inout Dive, path: String) -> [Int?] {
        var gases: [Cylinder?] = []
        for (k, g) in d.gasmixes.enumerated() {
            let gpath = "\(path)/gasmix/\(k)"
            let o2 = number(g["o2"], "o2", at: gpath), he = number(g["he"], "he", at: gpath)
            if o2 == 0 {
                habits.add("unused-gas", .absent, "libdc-xml.gas-unused", at: SourceLocation(file: file, line: g["o2"]?.line, path: gpath)) { n in
                    "\(n == 1 ? "a <gasmix>" : "\(n) <gasmix>") of 0 % oxygen: no gas a diver breathes, the computer's unused gas slot; not carried"
                }
                gases.append(nil)
                continue
            }
            var c = Cylinder()
            c.oxygen = o2
            c.helium = he
            if let o2, let n2 = number(g["n2"], "n2", at: gpath), abs(100 - o2 - (he ?? 0) - n2) > 0.5 {
                report(.dropped, "mix-inconsistent", "<n2> \(n2) is not what <o2> and <he> leave; the oxygen and helium are kept", path: "\(gpath)/n2", line: g["n2"]?.line)
            }
            gases.append(c)
        }
        var cylinders: [Cylinder] = []
        var gasCylinder = [Int?](repeating: nil, count: gases.count)
        for (k, t) in d.tanks.enumerated() {
            let tpath = "\(path)/tank/\(k)"
            var c = Cylinder()
            if let i = number(t["gasmix"], "gasmix", at: tpath).map(Int.init) {
                if i >= 0, i < gases.count, let g = gases[i] {
                    c.oxygen = g.oxygen; c.helium = g.helium
                    if gasCylinder[i] == nil { gasCylinder[i] = cylinders.count }
                } else {
                    report(.dropped, "tank-gas-unknown", "<gasmix> \(i) of the tank names no breathable <gasmix> of the dive; the tank is carried without a gas", path: "\(tpath)/gasmix", line: t["gasmix"]?.line)
                }
            }
            let imperialVolume = t["type"]?.text == "imperial"
            if let v = number(t["volume"], "volume", at: tpath), v > 0 {
                // libdivecomputer's volume is the water capacity in litres; dctool's imperial
                // output writes ft³ of gas, which needs the working pressure.
                if units == .imperial {
                    if let wp = number(t["workpressure"], "workpressure", at: tpath), wp > 0 {
                        c.volume = v * 28.316_846_592 / (units.bar(wp) / 1.013_25)
                    }
                } else { c.volume = v }
            }
            if let wp = number(t["workpressure"], "workpressure", at: tpath), wp > 0 {
                c.extensions = .object([.init("umilog", .object([
                    .init("working_pressure", .number(DecimalNumber((units.bar(wp) * 1000).rounded() / 1000)?.description ?? "0")),
                    .init("size_type", .string(imperialVolume ? "imperial" : "metric")),
                ]))])
            }
            for (name, isStart) in [("beginpressure", true), ("endpressure", false)] {
                guard let v = number(t[name], name, at: tpath), v > 0 else { continue }
                let b = (units.bar(v) * 100).rounded() / 100
                if isStart { c.startPressure = b } else { c.endPressure = b }
            }
            cylinders.append(c)
        }
        for (i, g) in gases.enumerated() where g != nil && gasCylinder[i] == nil {
            gasCylinder[i] = cylinders.count
            cylinders.append(g!)
        }
        for i in cylinders.indices { cylinders[i].gasNumber = i }
        dive.cylinders = cylinders
        return gasCylinder
    }
}
