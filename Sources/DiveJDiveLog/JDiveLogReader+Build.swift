import DiveCore
import DiveXML

/// How one `<JDive>` writes its values, by its `<UNITS>` (`docs/jdivelog-mapping.md`).
/// Depths are metres in both. `metric`: °C, bar, minutes (`<Duration>`, `<DELTA>`), litres;
/// `si`: kelvin, pascal, seconds, cubic metres (Subsurface's jdivelog2subsurface.xslt).
enum JDiveLogUnits: String {
    case metric, si

    func celsius(_ v: Double) -> Double { self == .si ? v - 273.15 : v }
    func bar(_ v: Double) -> Double { self == .si ? v / 100_000 : v }
    func seconds(_ v: Double) -> Double { self == .si ? v : v * 60 }
    func litres(_ v: Double) -> Double { self == .si ? v * 1000 : v }
}

/// A value with the noise of binary floating point taken off (`24.691848000000004` →
/// `24.691848`): JDiveLog writes Java doubles converted from feet and psi.
func clean(_ v: Double) -> Double { (v * 1e9).rounded() / 1e9 }

/// Turns a dive as read into the model, by `docs/jdivelog-mapping.md`.
extension JDiveLogState {
    static let maxNameLength = 255

    /// The number in `value`, or a `not-a-number` finding; `nil` when absent.
    func number(_ value: XMLTextValue?, _ name: String, at path: String) -> Double? {
        guard let value else { return nil }
        guard let n = DecimalNumber(value.text)?.doubleValue ?? Double(value.text).flatMap({ $0.isFinite ? $0 : nil }) else {
            report(.dropped, "not-a-number", "<\(name)> holds \"\(value.text)\", not a number; not carried", path: "\(path)/\(name)", line: value.line)
            return nil
        }
        return clean(n)
    }

    func units(of d: JDiveDraft, path: String) -> JDiveLogUnits {
        if let u = d["UNITS"], let units = JDiveLogUnits(rawValue: u.text.folded) { return units }
        // No word, or one this reader was not written from: kelvin and pascal are told apart
        // from °C and bar by their size (no water is 150 °C, no cylinder 1000 bar).
        let temps = ["TEMPERATURE", "DIVE/TEMPERATURE"].compactMap { d[$0].flatMap { Double($0.text) } }
        let pressures = (d.tanks + d.mixes).compactMap { $0["TANK/PSTART"].flatMap { Double($0.text) } }
        let si = temps.contains { $0 > 150 } || pressures.contains { $0 > 1000 }
        let chosen: JDiveLogUnits = si ? .si : .metric
        let what = d["UNITS"].map { "<UNITS> is \"\($0.text)\", neither metric nor si" } ?? "the dive has no <UNITS>"
        report(.resolved, "units-by-magnitude",
               "\(what); read as \(chosen.rawValue) because its temperatures and pressures are \(si ? "kelvin and pascal in size" : "°C and bar in size") (times then \(si ? "seconds" : "minutes"))",
               path: d["UNITS"] == nil ? path : "\(path)/UNITS", line: d["UNITS"]?.line ?? d.line)
        return chosen
    }

    func capped(_ s: String, _ what: String, at path: String, line: Int) -> String {
        guard s.count > Self.maxNameLength else { return s }
        report(.dropped, "name-too-long", "\(what) is longer than \(Self.maxNameLength) characters; cut there", path: path, line: line)
        return String(s.prefix(Self.maxNameLength))
    }

    func buildDive(_ d: JDiveDraft, path: String) -> Dive {
        let units = units(of: d, path: path)
        var extras: [ExtensionValue.Member] = []
        var dive = Dive(uuid: Identity.uuid5(namespace: JDiveLog.namespace, name: "dive:#\(d.index)"), startedAt: start(d, path: path))
        // JDiveLog gives a dive no id of its own: its identity is its place in the file.
        dive.provenance = Provenance(format: "jdivelog", file: file, index: d.index, line: d.line, positionalIdentity: true)

        if let v = number(d["DiveNum"], "DiveNum", at: path) {
            if v >= 1, v == v.rounded(), v < 1e9 { dive.number = Int(v) } else {
                report(.dropped, "dive-number-invalid", "<DiveNum> \(d["DiveNum"]!.text) is not a dive number; not carried", path: "\(path)/DiveNum", line: d["DiveNum"]!.line)
            }
        }
        let depths = SummaryDepths(max: number(d["Depth"], "Depth", at: path).flatMap { DecimalNumber($0) },
                                   mean: number(d["Average_Depth"], "Average_Depth", at: path).flatMap { DecimalNumber($0) },
                                   maxName: "<Depth>", meanName: "<Average_Depth>")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings {
            let name = f.member == .max ? "Depth" : "Average_Depth"
            report(f.kind, f.code, f.message, path: "\(path)/\(name)", line: d[name]?.line ?? d.line)
        }
        if let v = number(d["Duration"], "Duration", at: path) {
            let s = units.seconds(v)
            if s > 0 && s <= 864_000 { dive.submergedTime = Int(s.rounded(.toNearestOrAwayFromZero)) } else {
                report(.dropped, "value-out-of-range", "<Duration> \(d["Duration"]!.text) is not a dive's length; not carried", path: "\(path)/Duration", line: d["Duration"]!.line)
            }
        }
        readTemperatures(d, units: units, into: &dive, path: path)
        for name in ["Visibility", "Equipment/Visibility"] {
            guard let v = d[name] else { continue }
            // JDiveLog's visibility is a word it offers (Bad, Good…); a number is metres.
            if let n = DecimalNumber(v.text)?.doubleValue, n >= 0 {
                if dive.visibility == nil { dive.visibility = n }
            } else {
                extras.append(.init(name == "Visibility" ? "visibility" : "equipment_visibility", .string(v.text)))
            }
        }
        if let c = d["Comment"] { dive.notes = c.text }
        if let t = d["DiveType"] { extras.append(.init("dive_type", .string(t.text))) }
        if let a = d["DiveActivity"] { extras.append(.init("dive_activity", .string(a.text))) }
        if let c = d["Equipment/Comment"] { extras.append(.init("equipment_comment", .string(c.text))) }
        if let s = d["Equipment/Suit"] { extras.append(.init("suit", .string(s.text))) }
        if let g = d["Equipment/Gloves"] { extras.append(.init("gloves", .string(g.text))) }
        if let v = number(d["amv"], "amv", at: path) {
            // Atemminutenvolumen: the diver's breathing rate at the surface, litres a minute.
            if v > 0 && v < 200 { extras.append(.init("amv", .number(DecimalNumber(v)?.description ?? String(v)))) } else {
                report(.dropped, "value-out-of-range", "<amv> \(d["amv"]!.text) l/min is no breathing rate; not carried", path: "\(path)/amv", line: d["amv"]!.line)
            }
        }
        if let w = d["Equipment/Weight"] { dive.weight = weight(w, path: "\(path)/Equipment/Weight") }
        if let b = d["Buddy"] { dive.people = [buddy(b, path: path)] }
        readSite(d, into: &dive, path: path)
        readComputerConditions(d, into: &dive, extras: &extras, path: path)
        var rec = Recording()
        if let v = number(d["DIVE/DENSITY"], "DENSITY", at: "\(path)/DIVE") {
            // Water density, kg/m³: 1000 fresh, 1020 EN 13319's, 1025 and above sea water.
            if v >= 990 && v < 1010 { rec.salinity = .fresh } else if v >= 1019.5 && v <= 1020.5 { rec.salinity = .en13319 } else if v >= 1010 && v <= 1050 {
                rec.salinity = .salt
            } else {
                report(.dropped, "value-out-of-range", "<DENSITY> \(d["DIVE/DENSITY"]!.text) kg/m³ is no water's density; not carried", path: "\(path)/DIVE/DENSITY", line: d["DIVE/DENSITY"]!.line)
            }
            if rec.salinity != nil {
                rec.extensions = .object([.init("umilog", .object([.init("water_density", .number(DecimalNumber(v)?.description ?? String(v)))]))])
            }
        }
        readCylinders(d, units: units, into: &dive, path: path)
        rec.profile = profile(d, units: units, cylinders: dive.cylinders, path: path)
        if rec.hasContent || rec.salinity != nil { dive.recordings = [rec] }
        if !extras.isEmpty { dive.extensions = .object([.init("umilog", .object(extras))]) }
        return dive
    }

    // MARK: Start

    private func dateTime(_ d: JDiveDraft, prefix: String) -> (DiveDateTime?, [String])? {
        let parts = ["DATE/YEAR", "DATE/MONTH", "DATE/DAY", "TIME/HOUR", "TIME/MINUTE"].map { d[prefix + $0] }
        guard parts.contains(where: { $0 != nil }) else { return nil }
        let n = parts.map { $0.flatMap { Int($0.text) } }
        guard let y = n[0], let m = n[1], let day = n[2], let date = LocalDate(year: y, month: m, day: day) else {
            return (nil, parts.compactMap { $0?.text })
        }
        var time: TimeOfDay?
        if let h = n[3], let mi = n[4] { time = TimeOfDay(hour: h, minute: mi) }
        return (DiveDateTime(date: date, time: time), [])
    }

    private func start(_ d: JDiveDraft, path: String) -> DiveDateTime? {
        guard let (dt, bad) = dateTime(d, prefix: "") else {
            report(.absent, "start-absent", "the dive records no <DATE>", path: path, line: d.line)
            return nil
        }
        guard let dt else {
            report(.dropped, "start-invalid", "<DATE>/<TIME> (\(bad.joined(separator: " "))) is no calendar date; the dive is carried without a start",
                   path: "\(path)/DATE", line: d["DATE/YEAR"]?.line ?? d.line)
            return nil
        }
        if dt.time == nil {
            report(.absent, "time-absent", "the dive's <TIME> has no hour and minute; the start is its date alone", path: "\(path)/TIME", line: d.line)
        } else {
            habits.add("seconds", .absent, "jdivelog.time-without-seconds", at: SourceLocation(file: file, line: d["TIME/MINUTE"]?.line, path: "\(path)/TIME")) { n in
                "JDiveLog records a dive's start to the minute (<HOUR>, <MINUTE>)\(n > 1 ? ", \(n) dives" : ""); read as :00"
            }
            habits.add("offset", .absent, "jdivelog.offset-absent", at: SourceLocation(file: file, line: d["TIME/HOUR"]?.line, path: "\(path)/TIME")) { _ in
                "JDiveLog records no time zone: every start is the wall clock where the dive was made, carried without a UTC offset"
            }
        }
        // <DIVE> holds the computer's copy of the start.
        if let (computer, _) = dateTime(d, prefix: "DIVE/"), computer != dt {
            report(.dropped, "computer-start-differs",
                   "the computer's start <DIVE><DATE>/<TIME> (\(computer?.description ?? "no date")) is not the logbook's (\(dt.description)); the logbook's is kept",
                   path: "\(path)/DIVE/DATE", line: d["DIVE/DATE/YEAR"]?.line ?? d.line)
        }
        return dt
    }

    // MARK: Temperatures and conditions

    private func readTemperatures(_ d: JDiveDraft, units: JDiveLogUnits, into dive: inout Dive, path: String) {
        func celsius(_ name: String) -> Double? {
            guard let raw = number(d[name], name, at: path) else { return nil }
            let c = clean(units.celsius(raw))
            guard c > -60 && c < 60 else {
                report(.dropped, "value-out-of-range", "<\(name)> \(d[name]!.text) is \(c) °C, no temperature a dive meets; not carried", path: "\(path)/\(name)", line: d[name]!.line)
                return nil
            }
            return c
        }
        for (logbook, computer) in [("TEMPERATURE", "DIVE/TEMPERATURE"), ("surfaceTemperature", "DIVE/surfaceTemperature")] {
            let a = celsius(logbook), b = celsius(computer)
            if let a, let b, a != b {
                report(.dropped, "computer-value-differs", "the computer's <\(computer)> \(b) °C is not the logbook's <\(logbook)> \(a) °C; the logbook's is kept",
                       path: "\(path)/\(computer)", line: d[computer]!.line)
            }
            guard let c = a ?? b else { continue }
            if logbook == "TEMPERATURE" { dive.bottomTemperature = c } else { dive.airTemperature = c }
        }
    }

    /// `<DIVE>`'s surface interval and altitude, and `<DELTAMODE>`.
    private func readComputerConditions(_ d: JDiveDraft, into dive: inout Dive, extras: inout [ExtensionValue.Member], path: String) {
        if let v = d["DIVE/SURFACEINTERVAL"] {
            if v.text.folded == "infinity" {
                habits.add("si-infinity", .absent, "jdivelog.no-previous-dive", at: SourceLocation(file: file, line: v.line, path: "\(path)/DIVE/SURFACEINTERVAL")) { n in
                    "<SURFACEINTERVAL> is \"infinity\": no earlier dive the computer counts\(n > 1 ? " (\(n) dives)" : ""); no surface interval is carried"
                }
            } else if let n = number(v, "SURFACEINTERVAL", at: "\(path)/DIVE"), n >= 0 {
                // Minutes in a metric file, as its other times [I].
                extras.append(.init("surface_interval", .number(String(Int((n * 60).rounded(.toNearestOrAwayFromZero))))))
            }
        }
        if let v = number(d["DIVE/ALTITUDE"], "ALTITUDE", at: "\(path)/DIVE") {
            if v > -500 && v < 9000 { dive.altitude = Int(v.rounded(.toNearestOrAwayFromZero)) } else {
                report(.dropped, "value-out-of-range", "<ALTITUDE> \(d["DIVE/ALTITUDE"]!.text) m is no dive's height; not carried", path: "\(path)/DIVE/ALTITUDE", line: d["DIVE/ALTITUDE"]!.line)
            }
        }
        if let m = d["DIVE/DELTAMODE"] { extras.append(.init("delta_mode", .string(m.text))) }
    }

    /// `<Weight>`: a number, in kilograms, or a number with its unit (`36lbs`, `8 kg`).
    private func weight(_ v: XMLTextValue, path: String) -> Double? {
        let t = v.text.lowercased()
        let digits = t.prefix { $0.isNumber || $0 == "." || $0 == "," }
        let unit = String(t.dropFirst(digits.count)).trimmingWhitespace()
        guard let n = Double(String(digits.map { $0 == "," ? "." : $0 })) else {
            report(.dropped, "not-a-number", "<Weight> holds \"\(v.text)\", not a weight; not carried", path: path, line: v.line)
            return nil
        }
        let kg: Double
        switch unit {
        case "", "kg", "kgs": kg = n
        case "lb", "lbs", "#": kg = n * 0.453_592_37
        default:
            report(.dropped, "unit-unknown", "<Weight> \"\(v.text)\" names a unit this reader does not know; not carried", path: path, line: v.line)
            return nil
        }
        guard kg <= 200 else {
            report(.dropped, "value-out-of-range", "<Weight> \(v.text) is not a diver's lead; not carried", path: path, line: v.line)
            return nil
        }
        if !unit.isEmpty {
            report(.resolved, "weight-with-unit", "<Weight> \"\(v.text)\" says its unit in the text; read as \(clean(kg)) kg", path: path, line: v.line)
        }
        return clean(kg)
    }

    // MARK: People and sites

    private func buddy(_ v: XMLTextValue, path: String) -> PersonReference {
        let name = capped(v.text, "<Buddy>", at: "\(path)/Buddy", line: v.line)
        let key = name.folded
        if let known = personUUIDs[key] { return PersonReference(personUUID: known, role: .buddy) }
        let uuid = Identity.uuid(kind: "person", sourceID: key, namespace: JDiveLog.namespace)
        personUUIDs[key] = uuid
        header.people.append(Person(uuid: uuid, name: name))
        return PersonReference(personUUID: uuid, role: .buddy)
    }

    private func readSite(_ d: JDiveDraft, into dive: inout Dive, path: String) {
        if let id = d["diveSiteId"] {
            if let k = siteFields.firstIndex(where: { $0["privateId"]?.text == id.text }) {
                dive.siteUUIDs = [site(k)]
            } else {
                report(.dropped, "site-unknown", "<diveSiteId> \(id.text) names no <DiveSite> of the logbook's <Masterdata>; not carried", path: "\(path)/diveSiteId", line: id.line)
            }
        }
        // The dive's own place, JDiveLog's older spelling of a site.
        let place = d["PLACE"], country = d["Country"]
        guard place != nil || country != nil else { return }
        if !dive.siteUUIDs.isEmpty {
            report(.dropped, "place-beside-site", "the dive's own <PLACE>/<Country> (\([place?.text, country?.text].compactMap { $0 }.joined(separator: ", "))) beside its <diveSiteId>; the site is kept",
                   path: "\(path)/PLACE", line: (place ?? country)!.line)
            return
        }
        let name = capped(place?.text ?? country!.text, "<PLACE>", at: "\(path)/PLACE", line: (place ?? country)!.line)
        let key = "place:\(name.folded)|\(country?.text.folded ?? "")"
        if let known = siteUUIDs[key] { dive.siteUUIDs = [known]; return }
        var s = Site(uuid: Identity.uuid(kind: "site", sourceID: key, namespace: JDiveLog.namespace), name: name)
        if let country, place != nil { s.location = Location(name: country.text) }
        siteUUIDs[key] = s.uuid
        header.sites.append(s)
        dive.siteUUIDs = [s.uuid]
    }

    /// The `<DiveSite>` at `k` as a site of the logbook's, made the first time it is named.
    func site(_ k: Int) -> String {
        let f = siteFields[k]
        let key = f["privateId"]?.text ?? "#\(k)"
        if let known = siteUUIDs[key] { return known }
        let spath = "Masterdata/DiveSites/DiveSite/\(k)"
        let locality = ["city", "state", "country"].compactMap { f[$0]?.text }
        let name = capped(f["spot"]?.text ?? locality.first ?? "site \(key)", "<spot>", at: "\(spath)/spot", line: f.line)
        var s = Site(uuid: Identity.uuid(kind: "site", sourceID: key, namespace: JDiveLog.namespace), name: name)
        if !locality.isEmpty { s.location = Location(name: locality.joined(separator: ", ")) }
        s.position = position(f, path: spath)
        var umilog: [ExtensionValue.Member] = []
        for (field, member) in [("waters", "waters"), ("timezone", "timezone"), ("directions", "directions"), ("warnings", "warnings"),
                                ("privateRemarks", "private_remarks"), ("mainDiveActivity", "main_dive_activity"), ("publicId", "public_id"), ("ownerId", "owner_id")] {
            if let v = f[field] { umilog.append(.init(member, .string(v.text))) }
        }
        for (field, member) in [("siteType", "site_type"), ("evaluation", "evaluation")] {
            if let v = f[field] { umilog.append(.init(member, DecimalNumber(v.text).map { .number($0.description) } ?? .string(v.text))) }
        }
        for field in ["publish", "published"] {
            if let v = f[field] { umilog.append(.init(field, v.text.folded == "true" ? .bool(true) : v.text.folded == "false" ? .bool(false) : .string(v.text))) }
        }
        if let v = f["description"] { s.notes = v.text }
        let depths = [("minDepth", "depthFrom"), ("maxDepth", "depthTo")].map { (field, _) in number(f[field], field, at: spath).flatMap { $0 > 0 && $0 < 11_000 ? $0 : nil } }
        s.depthFrom = depths[0]
        s.depthTo = depths[1]
        if let v = number(f["avgDepth"], "avgDepth", at: spath) { umilog.append(.init("avg_depth", .number(DecimalNumber(v)?.description ?? String(v)))) }
        if let v = number(f["altitude"], "altitude", at: spath) {
            if v > -500 && v < 9000 { s.altitude = Int(v.rounded(.toNearestOrAwayFromZero)) } else {
                report(.dropped, "value-out-of-range", "<altitude> \(f["altitude"]!.text) m is no site's height; not carried", path: "\(spath)/altitude", line: f["altitude"]!.line)
            }
        }
        if !umilog.isEmpty { s.extensions = .object([.init("umilog", .object(umilog))]) }
        siteUUIDs[key] = s.uuid
        header.sites.append(s)
        return s.uuid
    }

    /// `<latitude>`/`<longitude>`: degrees with a hemisphere letter, decimal (`N47.4`) or
    /// degrees and decimal minutes (`N47 24,01200`, a comma or a point). JDiveLog has been seen
    /// to write each in the other's element; the letter decides which is which.
    private func position(_ f: JFields, path: String) -> Position? {
        guard f["latitude"] != nil || f["longitude"] != nil else { return nil }
        var lat: Double?, lon: Double?
        var swapped = false
        for field in ["latitude", "longitude"] {
            guard let v = f[field] else { continue }
            guard let (deg, axis) = Self.coordinate(v.text) else {
                report(.dropped, "coordinate-invalid", "<\(field)> \"\(v.text)\" is not a coordinate; not carried", path: "\(path)/\(field)", line: v.line)
                continue
            }
            let isLat = axis.map { $0 == "lat" } ?? (field == "latitude")
            if isLat != (field == "latitude") { swapped = true }
            if isLat { lat = deg } else { lon = deg }
        }
        if swapped {
            report(.resolved, "coordinates-swapped",
                   "<latitude> \"\(f["latitude"]?.text ?? "")\" and <longitude> \"\(f["longitude"]?.text ?? "")\" carry each other's hemisphere letter; read by the letters",
                   path: "\(path)/latitude", line: f["latitude"]?.line ?? f.line)
        }
        guard let lat, let lon, abs(lat) <= 90, abs(lon) <= 180 else {
            if lat != nil || lon != nil {
                report(.dropped, "coordinate-incomplete", "the site's position lacks its \(lat == nil ? "latitude" : "longitude"); not carried", path: path, line: f.line)
            }
            return nil
        }
        return Position(latitude: clean(lat), longitude: clean(lon))
    }

    /// Degrees of `text`, and the axis its hemisphere letter names (`nil` without one).
    static func coordinate(_ text: String) -> (Double, String?)? {
        var t = text.trimmingWhitespace().uppercased()
        var sign = 1.0
        var axis: String?
        if let c = t.first, "NSEW".contains(c) {
            axis = c == "N" || c == "S" ? "lat" : "lon"
            if c == "S" || c == "W" { sign = -1 }
            t.removeFirst()
        }
        let parts = String(t.map { $0 == "," ? "." : $0 }).split(whereSeparator: { $0 == " " || $0 == "°" || $0 == "'" })
        guard let first = parts.first, let deg = Double(first), parts.count <= 2 else { return nil }
        var v = abs(deg)
        if parts.count == 2 {
            guard let min = Double(parts[1]), min >= 0, min < 60 else { return nil }
            v += min / 60
        }
        if deg < 0 { sign = -sign }
        return (sign * v, axis)
    }
}
