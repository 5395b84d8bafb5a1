import DiveCore
import DiveXML

/// Turns a `<dive>` as read into the model, by `docs/udcf-mapping.md`.
extension UDCFState {
    /// A number in `value`, or a `not-a-number` finding; `nil` when absent.
    func number(_ value: UDCFValue?, dive path: String) -> Double? {
        guard let value else { return nil }
        guard let v = Double(value.text), v.isFinite else {
            report(.dropped, "not-a-number", "<\(Self.name(value))> holds \"\(value.text)\", not a number; not carried",
                   line: value.line, path: "\(path)/\(value.path)")
            return nil
        }
        return v
    }

    /// The element's name as written (the last step of its path, without a position).
    static func name(_ value: UDCFValue) -> String {
        let steps = value.path.split(separator: "/")
        guard let last = steps.last else { return "" }
        if last.allSatisfy(\.isNumber), steps.count > 1 { return String(steps[steps.count - 2]) }
        return String(last)
    }

    /// Reports `message` once per file, under `key`.
    func reportOnce(_ key: String, _ kind: FindingKind, _ code: String, _ message: String, line: Int?, path: String?) {
        guard saidOnce.insert(key).inserted else { return }
        report(kind, code, message, line: line, path: path)
    }

    /// The units the dive is read in: the file's `<units>`, else the magnitude rule.
    func units(for d: UDCFDiveDraft, path: String) -> UDCFUnits {
        if let u = fileValues.units {
            if let system = UDCFUnits.named(u.text) { return UDCFUnits(system: system) }
            reportOnce("units-unknown", .inferred, "units-unknown",
                       "<\(Self.name(u))> says \"\(u.text)\", which is none of UDCF's Metric, Imperial or SI; the dives are read by the rule for a file that names no units",
                       line: u.line, path: "profile/\(Self.name(u))")
        } else {
            reportOnce("units-absent", .inferred, "units-absent",
                       "the file has no <units>; each dive is read as metric (m, °C, bar, litres) unless its <temperature> is above \(Int(UDCFUnits.absentImperialAbove)), which no water a diver meets is in °C: such a dive is read as imperial (ft, °F, psi)",
                       line: rootLine, path: "profile")
        }
        if let t = d.scalars[.temperature], let v = Double(t.text), v > UDCFUnits.absentImperialAbove {
            report(.inferred, "units-imperial-by-temperature",
                   "<\(Self.name(t))> \(t.text) is above \(Int(UDCFUnits.absentImperialAbove)), a temperature only in °F: the dive is read as imperial",
                   line: t.line, path: "\(path)/\(t.path)")
            return UDCFUnits(system: .imperial)
        }
        return UDCFUnits(system: .metric)
    }

    func buildDive(_ d: UDCFDiveDraft) -> Dive? {
        let path = "dive/\(d.index)"
        let s = d.scalars
        let (startedAt, startOK) = readStart(d, path: path)
        guard startOK else { return nil }
        let units = units(for: d, path: path)
        var dive = Dive(uuid: Identity.uuid5(namespace: UDCF.namespace, name: "dive:#\(d.index)"), startedAt: startedAt)
        dive.provenance = Provenance(format: "udcf", file: file, index: d.index, line: d.line, positionalIdentity: true)
        report(.absent, "id-absent", "UDCF records no id for a dive; its identity is its place in the file",
               line: d.line, path: path)

        readPlace(s[.place], into: &dive, path: path)
        if let v = s[.temperature], let t = number(v, dive: path) {
            let c = tidy(units.celsius(t))
            if c >= -3 && c <= 45 { dive.bottomTemperature = c } else {
                report(.dropped, "temperature-out-of-range",
                       "<\(Self.name(v))> \(v.text) \(units.temperatureUnit) is \(c) °C, not a temperature of water a diver meets; not carried",
                       line: v.line, path: "\(path)/\(v.path)")
            }
        }
        if let v = s[.altitude], let a = number(v, dive: path) {
            let m = units.metres(a)
            if m >= -500 && m <= 6000 { dive.altitude = Int(m.rounded(.toNearestOrAwayFromZero)) } else {
                report(.dropped, "altitude-out-of-range", "<\(Self.name(v))> \(v.text) \(units.depthUnit) is not the height of water a diver enters; not carried",
                       line: v.line, path: "\(path)/\(v.path)")
            }
        }
        if let v = s[.surfaceinterval] {
            report(.dropped, "surface-interval-not-carried",
                   v.text.lowercased() == "infinity"
                       ? "<\(Self.name(v))> infinity marks a dive with none before it; umilog's model has no member for the surface interval, not carried"
                       : "<\(Self.name(v))> \"\(v.text)\" is a surface interval in a unit UDCF's writers do not agree on, and umilog's model has no member for it; not carried",
                   line: v.line, path: "\(path)/\(v.path)")
        }
        if let v = s[.duration], let minutes = number(v, dive: path) {
            if minutes > 0 && minutes < 14_400 {
                dive.submergedTime = Int((minutes * 60).rounded(.toNearestOrAwayFromZero))
                reportOnce("duration-minutes", .inferred, "duration-minutes",
                           "<\(Self.name(v))> states no unit; read as minutes, the unit its profile agrees with (\(v.text) here)",
                           line: v.line, path: "\(path)/\(v.path)")
            } else {
                report(.dropped, "duration-invalid", "<\(Self.name(v))> \(v.text) is not a dive's length in minutes; not carried",
                       line: v.line, path: "\(path)/\(v.path)")
            }
        }

        var recording = Recording()
        recording.salinity = salinity(s[.density], path: path)
        var device = Device()
        device.brand = fileValues.vendor?.text
        device.model = fileValues.model?.text
        device.firmware = fileValues.version?.text
        device.serial = fileValues.serial?.text
        if !device.isEmpty { recording.device = device }

        dive.cylinders = d.mixes.enumerated().map { cylinder($1, index: $0, units: units, path: path) }
        recording.profile = readProfile(d, units: units, cylinders: dive.cylinders, path: path)
        if let profile = recording.profile, !(profile.events.filter { $0.type == .gasSwitch }.isEmpty) {
            for i in dive.cylinders.indices { dive.cylinders[i].gasNumber = i }
        }
        if let deepest = recording.profile?.depth?.maxValue {
            dive.maxDepth = Double(deepest) / 100
            dive.inferred.append("max_depth")
            report(.inferred, "max-depth-derived", "UDCF states no maximum depth for a dive; it is the deepest depth sample",
                   line: d.line, path: path)
        }
        if recording.hasContent { dive.recordings = [recording] }
        return dive
    }

    // MARK: Start

    /// `<date>` and `<time>`, as text (`2006-04-02`, `00:05:00`) or as elements (`<year>`,
    /// `<hour>`…): the start, and whether the dive can be carried (a date that is no date
    /// refuses it, as DiveJSON cannot hold a dive without its start).
    private func readStart(_ d: UDCFDiveDraft, path: String) -> (DiveDateTime?, Bool) {
        let s = d.scalars
        func int(_ v: UDCFValue?) -> Int? { v.flatMap { Int($0.text) } }
        let dateValue = s[.date] ?? s[.year] ?? s[.month] ?? s[.day]
        guard let dv = dateValue else {
            report(.absent, "start-absent", "the dive records no <date>", line: d.line, path: path)
            return (nil, true)
        }
        var date: LocalDate?
        if let text = s[.date]?.text {
            let parts = text.split(separator: "-")
            if parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let dd = Int(parts[2]) { date = LocalDate(year: y, month: m, day: dd) }
        } else if let y = int(s[.year]), let m = int(s[.month]), let dd = int(s[.day]) {
            date = LocalDate(year: y, month: m, day: dd)
        }
        guard let date else {
            let shown = s[.date]?.text ?? [s[.year], s[.month], s[.day]].map { $0?.text ?? "?" }.joined(separator: "-")
            report(.dropped, "start-invalid", "the dive's date \"\(shown)\" is not a date; the dive is not carried",
                   line: dv.line, path: "\(path)/\(dv.path)", losing: 1)
            return (nil, false)
        }
        var start = DiveDateTime(date: date)
        let timeValue = s[.time] ?? s[.hour] ?? s[.minute]
        if let tv = timeValue {
            var time: TimeOfDay?
            var seconds = true
            if let text = s[.time]?.text {
                let parts = text.split(separator: ":")
                if parts.count >= 2, parts.count <= 3, let h = Int(parts[0]), let m = Int(parts[1]) {
                    seconds = parts.count == 3
                    time = TimeOfDay(hour: h, minute: m, second: parts.count == 3 ? Int(parts[2]) ?? -1 : 0)
                }
            } else if let h = int(s[.hour]), let m = int(s[.minute]) {
                seconds = s[.second] != nil
                time = TimeOfDay(hour: h, minute: m, second: s[.second].map { Int($0.text) ?? -1 } ?? 0)
            }
            guard let time else {
                let shown = s[.time]?.text ?? [s[.hour], s[.minute], s[.second]].compactMap { $0?.text }.joined(separator: ":")
                report(.dropped, "start-invalid", "the dive's time \"\(shown)\" is not a time of day; the dive is not carried",
                       line: tv.line, path: "\(path)/\(tv.path)", losing: 1)
                return (nil, false)
            }
            start.time = time
            if !seconds {
                report(.absent, "time-without-seconds", "the dive's time has no seconds; read as :00", line: tv.line, path: "\(path)/\(tv.path)")
            }
        } else {
            report(.absent, "time-absent", "the dive records a <date> and no <time>; its start is the date alone", line: dv.line, path: "\(path)/\(dv.path)")
        }
        report(.absent, "offset-absent", "UDCF records no UTC offset; the start is the wall clock alone", line: dv.line, path: "\(path)/\(dv.path)")
        return (start, true)
    }

    // MARK: Site, water

    /// `<place>`: the site's name, one site per distinct name in the file. Diving Log writes
    /// `, , ` for a dive with no site, country or region: nothing.
    private func readPlace(_ v: UDCFValue?, into dive: inout Dive, path: String) {
        guard let v else { return }
        guard v.text.contains(where: { $0 != "," && $0 != " " }) else {
            report(.absent, "place-empty", "<\(Self.name(v))> \"\(v.text)\" holds separators and no name; no site", line: v.line, path: "\(path)/\(v.path)")
            return
        }
        let name = String(v.text.prefix(255))
        if v.text.count > 255 {
            report(.dropped, "site-name-too-long", "<\(Self.name(v))> is longer than 255 characters; cut there", line: v.line, path: "\(path)/\(v.path)")
        }
        if let uuid = siteUUIDs[name] {
            dive.siteUUIDs = [uuid]
            return
        }
        let site = Site(uuid: Identity.uuid5(namespace: UDCF.namespace, name: "site:\(name)"), name: name)
        siteUUIDs[name] = site.uuid
        header.sites.append(site)
        dive.siteUUIDs = [site.uuid]
    }

    /// `<density>`, kg/m³ in every corpus file: 1000 fresh, 1020 the EN 13319 value, 1030 salt;
    /// 0 is a placeholder (MacDive).
    private func salinity(_ v: UDCFValue?, path: String) -> Salinity? {
        guard let v, let density = number(v, dive: path) else { return nil }
        switch density {
        case 0:
            report(.absent, "zero-placeholder", "<\(Self.name(v))> is 0, no water's density: not recorded", line: v.line, path: "\(path)/\(v.path)")
        case 990..<1015: return .fresh
        case 1015..<1023: return .en13319
        case 1023...1040: return .salt
        default:
            report(.dropped, "density-out-of-range", "<\(Self.name(v))> \(v.text) is no density of water in kg/m³; not carried",
                   line: v.line, path: "\(path)/\(v.path)")
        }
        return nil
    }

    // MARK: Cylinders

    /// A `<mix>`: its gas, and the `<tank>` it is breathed from.
    private func cylinder(_ mix: UDCFMixDraft, index: Int, units: UDCFUnits, path: String) -> Cylinder {
        var c = Cylinder()
        let f = mix.fields
        let mpath = "\(path)/\(mix.path)"
        func at(_ v: UDCFValue) -> String { "\(path)/\(v.path)" }
        c.gasName = f[.mixname]?.text
        if let v = f[.tankvolume], let volume = number(v, dive: path) {
            if volume <= 0 {
                report(.absent, "zero-placeholder", "<\(Self.name(v))> is \(v.text): no cylinder size; not carried", line: v.line, path: at(v))
            } else if units.system == .imperial {
                report(.dropped, "tank-volume-imperial",
                       "<\(Self.name(v))> \(v.text) in an imperial file is cubic feet of gas at a working pressure the file does not state, not the cylinder's water capacity; not carried",
                       line: v.line, path: at(v))
            } else if volume > 100 {
                report(.dropped, "tank-volume-out-of-range", "<\(Self.name(v))> \(v.text) litres is no diving cylinder's size; not carried", line: v.line, path: at(v))
            } else {
                c.volume = volume
            }
        }
        let start = pressure(f[.pstart], units: units, path: path)
        let end = pressure(f[.pend], units: units, path: path)
        if start == 0 && (end == 0 || end == nil) {
            report(.absent, "zero-placeholder", "the tank's start and end pressures are both 0: not recorded", line: mix.line, path: mpath)
        } else {
            if let s = start {
                if s > 0 && s <= 350 { c.startPressure = s } else if let v = f[.pstart] {
                    report(.dropped, "pressure-out-of-range", "<\(Self.name(v))> \(v.text) is \(s) bar, outside 0 to 350 bar; not carried", line: v.line, path: at(v))
                }
            }
            if let e = end, let v = f[.pend] {
                if e < 0 || e > 350 {
                    report(.dropped, "pressure-out-of-range", "<\(Self.name(v))> \(v.text) is \(e) bar, outside 0 to 350 bar; not carried", line: v.line, path: at(v))
                } else if let s = c.startPressure, e > s {
                    report(.dropped, "end-above-start", "<\(Self.name(v))> \(e) bar is above the start's \(s) bar; not carried", line: v.line, path: at(v))
                } else {
                    c.endPressure = e
                }
            }
        }
        readGas(f, into: &c, line: mix.line, path: path, mixPath: mpath)
        return c
    }

    /// A tank pressure in bar, by the file's units; a metric value above 1000 is Pascal (the
    /// magnitude rule divelogs.de's files need).
    private func pressure(_ v: UDCFValue?, units: UDCFUnits, path: String) -> Double? {
        guard let v, let p = number(v, dive: path) else { return nil }
        if units.system == .metric && p > UDCFUnits.metricPascalAbove {
            report(.inferred, "pressure-in-pascal",
                   "<\(Self.name(v))> \(v.text) cannot be bar, which the file's <units> says, as no cylinder holds over \(Int(UDCFUnits.metricPascalAbove)) bar; read as Pascal, \(tidy(p / 100_000)) bar",
                   line: v.line, path: "\(path)/\(v.path)")
            return tidy(p / 100_000)
        }
        return tidy(units.bar(p))
    }

    /// `<o2>`, `<he>` and `<n2>`: fractions (0.21) as the format writes them, or percentages
    /// (32) as divelogs.de does: a value above 1 makes the mix percentages. Nitrogen is the
    /// model's remainder; it is checked, not stored.
    private func readGas(_ f: [UDCFTag: UDCFValue], into c: inout Cylinder, line: Int, path: String, mixPath: String) {
        let o2 = number(f[.o2], dive: path), he = number(f[.he], dive: path), n2 = number(f[.n2], dive: path)
        let present = [o2, he, n2].compactMap { $0 }
        guard !present.isEmpty else {
            report(.absent, "gas-absent", "the mix records no <o2>, <he> or <n2>", line: line, path: mixPath)
            return
        }
        let percent = present.contains { $0 > 1 }
        let scale = percent ? 1.0 : 100.0
        if percent {
            report(.inferred, "mix-in-percent",
                   "the mix's fractions are written as percentages (\(present.map { String($0) }.joined(separator: ", "))), not the format's fractions of 1: read as percent",
                   line: line, path: mixPath)
        }
        let oxygen = o2.map { tidy($0 * scale) }, helium = he.map { tidy($0 * scale) }, nitrogen = n2.map { tidy($0 * scale) }
        if (oxygen ?? 0) < 0 || (helium ?? 0) < 0 || (oxygen ?? 0) + (helium ?? 0) > 100 {
            report(.dropped, "mix-invalid", "<o2> \(oxygen ?? 0) % and <he> \(helium ?? 0) % are not a mix (above 100 % or negative); neither is carried",
                   line: line, path: mixPath)
            return
        }
        c.oxygen = oxygen
        c.helium = helium
        if let nitrogen, abs((oxygen ?? 0) + (helium ?? 0) + nitrogen - 100) > 1 {
            report(.dropped, "nitrogen-not-remainder",
                   "<n2> \(nitrogen) % is not what oxygen and helium leave (\(tidy(100 - (oxygen ?? 0) - (helium ?? 0))) %); the model holds nitrogen as that remainder, so this figure is not carried",
                   line: f[.n2]?.line ?? line, path: f[.n2].map { "\(path)/\($0.path)" } ?? mixPath)
        }
        if c.gasNameSaysMore, let name = c.gasName, let named = Cylinder.mix(named: name), let o = c.oxygen {
            report(.resolved, "mix-name-contradicts",
                   "the mix is named \"\(name)\" (\(named.oxygen) % oxygen) and its fractions say \(o) % oxygen, \(c.helium ?? 0) % helium: the fractions are carried, the name kept as written",
                   line: line, path: mixPath)
        }
    }
}
