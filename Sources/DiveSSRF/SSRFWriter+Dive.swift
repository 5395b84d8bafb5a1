import DiveCore
import DiveXML

extension SSRFWriter {
    /// Writes one `<dive>` (inside the `<trip>` it belongs to): its attributes in the order
    /// Subsurface writes them, then its divemaster, buddies, notes, cylinders, weight and
    /// computers.
    func writeDive(_ d: Dive, header: LogbookHeader) {
        let path = d.sourcePath(else: divesWritten)
        guard let start = d.startedAt else {
            report(.dropped, "ssrf.dive-without-start", "a dive with no start cannot be written: Subsurface keeps a dive by its date", path, losing: 1)
            return
        }
        let (carriedTrip, extensions) = Self.splitCarriedTrip(d.extensions)
        enterTrip(of: d, carried: d.tripUUID == nil ? carriedTrip : nil, header: header, path: path)
        divesInFile += 1
        var carried = CarriedMembers(extensions)

        var a: [(String, String)] = []
        if let n = d.number { a.append(("number", String(n))) }
        if let flag = carried.string("tripflag") { a.append(("tripflag", flag)) }
        if let r = d.rating {
            if (0...5).contains(r) { a.append(("rating", String(r))) } else {
                report(.dropped, "ssrf.rating-out-of-range", "rating \(r) is not written: Subsurface rates a dive with 0 to 5 stars", path)
            }
        }
        // Subsurface's star ratings of the conditions.
        for name in ["visibility", "wavesize", "current", "surge", "chill"] {
            if let v = carried.take("\(name)_rating", { $0.carriedInteger.flatMap { (0...5).contains($0) ? $0 : nil } }) {
                a.append((name, String(v)))
            }
        }
        if carried.take("invalid", { $0 == .bool(true) ? true : nil }) == true { a.append(("invalid", "1")) }
        if let v = carried.decimal("sac") { a.append(("sac", SSRFText.decimal(v) + " l/min")) }
        // The dive-level CNS and OTU are the primary computer's end figures (the mapping's rule).
        let primary = d.recordings.first
        if let otu = primary?.otuEnd, let v = SSRFText.plain(otu) { a.append(("otu", v)) }
        if let cns = primary?.cnsEnd, let v = SSRFText.plain(cns) { a.append(("cns", v + "%")) }
        let tags = writableTags(d.tags, path: path)
        if !tags.isEmpty { a.append(("tags", tags.joined(separator: ", "))) }
        if let siteID = divesiteID(d, header: header, path: path) { a.append(("divesiteid", siteID)) }
        // The water's salinity the diver set: exact when carried, else the water type's.
        var waterType = d.waterType
        if let g = carried.decimal("water_salinity") {
            a.append(("watersalinity", SSRFText.plainDecimal(g) + " g/l"))
        } else if let w = waterType, let g = SSRF.waterSalinity[w] {
            a.append(("watersalinity", "\(g) g/l"))
            waterType = nil
        }
        a.append(("date", SSRFText.date(start.date)))
        if let t = start.time { a.append(("time", SSRFText.time(t))) }
        reportClockLoss(start, what: "the dive's start", path: path)
        if let v = carried.decimal("air_pressure") { a.append(("airpressure", SSRFText.decimal(v) + " bar")) }
        if let s = d.submergedTime {
            if let text = SSRFText.minutes(s) { a.append(("duration", text)) } else {
                report(.dropped, "ssrf.duration-negative", "a negative time in the water (\(s) s) has no Subsurface spelling", path)
            }
        }
        out.open("dive", a)

        writePeople(d, header: header, path: path)
        if let notes = d.notes {
            if notes.isEmpty {
                report(.dropped, "ssrf.empty-notes", "an empty note has no spelling in Subsurface XML", path)
            } else {
                out.element("notes", notes)
            }
        }
        if let suit = carried.string("suit") { out.element("suit", suit) }
        let numbering = CylinderNumbering(d.cylinders)
        writeCylinders(d, header: header, numbering: numbering, path: path)
        writeWeights(d, carried: &carried)
        writeDiveTemperature(d)
        writeComputers(d, numbering: numbering, carried: &carried, path: path)
        writePictures(&carried)
        out.close("dive")

        reportUncarried("ssrf.dive-member-not-carried", nil, [
            ("type", d.type != nil), ("visibility (Subsurface's is a star rating)", d.visibility != nil),
            ("water_type", waterType != nil), ("altitude", d.altitude != nil),
            ("current (Subsurface's is a star rating)", d.current != nil), ("waves (Subsurface's is a star rating)", d.waves != nil),
            ("weather", d.weather != nil), ("entry_type", d.entryType != nil), ("boat_name", d.boatName != nil),
            ("entry_position", d.entryPosition != nil), ("exit_position", d.exitPosition != nil),
            ("course_uuid", d.courseUUID != nil), ("contact_uuid", d.contactUUID != nil), ("gear_uuids", !d.gearUUIDs.isEmpty),
            ("sightings", !d.sightings.isEmpty), ("created_at", d.createdAt != nil), (carried.leftover ?? "", carried.leftover != nil),
        ], path)
    }

    /// One `<weightsystem weight description>` per weight system the dive carried, when they
    /// add up to its weight; else its weight as one.
    private func writeWeights(_ d: Dive, carried: inout CarriedMembers) {
        let systems: [(DecimalNumber?, String?)]? = carried.take("weightsystems") { v in
            guard let list = v.carriedArray else { return nil }
            var out: [(DecimalNumber?, String?)] = []
            var total: DecimalNumber? = DecimalNumber(0)
            var any = false
            for e in list {
                let w = e.carriedMember("weight")?.carriedDecimal, desc = e.carriedMember("description")?.carriedString
                if let w { total = total?.adding(w); any = true }
                out.append((w, desc))
            }
            // They stand for the dive's weight only when they still add up to it.
            let weight = d.weight.flatMap { DecimalNumber($0) }
            return (any ? total : nil) == weight ? out : nil
        }
        if let systems {
            for (w, desc) in systems {
                var a: [(String, String)] = []
                if let w { a.append(("weight", SSRFText.decimal(w) + " kg")) }
                if let desc { a.append(("description", desc)) }
                out.empty("weightsystem", a)
            }
        } else if let w = d.weight, let kg = SSRFText.decimal(w) {
            out.empty("weightsystem", [("weight", kg + " kg")])
        }
    }

    /// `<divetemperature>`: the dive's temperatures where its first computer carried one of its
    /// own (`umilog.air_temperature`, `water_temperature`), which the dive's overrides.
    private func writeDiveTemperature(_ d: Dive) {
        let first = CarriedMembers(d.recordings.first?.extensions)
        var a: [(String, String)] = []
        if first.peek("air_temperature") != nil, let v = d.airTemperature, let c = SSRFText.decimal(v) { a.append(("air", c + " C")) }
        if first.peek("water_temperature") != nil, let v = d.bottomTemperature, let c = SSRFText.decimal(v) { a.append(("water", c + " C")) }
        if !a.isEmpty { out.empty("divetemperature", a) }
    }

    /// `<picture filename offset gps hash>`: the pictures the dive carried.
    private func writePictures(_ carried: inout CarriedMembers) {
        let pictures: [[(String, String)]]? = carried.take("pictures") { v in
            guard let list = v.carriedArray else { return nil }
            let out = list.compactMap { p -> [(String, String)]? in
                guard let file = p.carriedMember("filename")?.carriedString else { return nil }
                var a = [("filename", file)]
                if let o = p.carriedMember("offset")?.carriedInteger, o != 0, let t = SSRFText.minutes(abs(o)) {
                    a.append(("offset", (o < 0 ? "-" : "+") + t))
                }
                if let g = p.carriedMember("gps"), let lat = g.carriedMember("latitude")?.carriedDecimal?.doubleValue,
                   let lon = g.carriedMember("longitude")?.carriedDecimal?.doubleValue,
                   let la = SSRFText.degrees(lat), let lo = SSRFText.degrees(lon) {
                    a.append(("gps", "\(la.text) \(lo.text)"))
                }
                if let h = p.carriedMember("hash")?.carriedString { a.append(("hash", h)) }
                return a
            }
            return out.count == list.count ? out : nil
        }
        for a in pictures ?? [] { out.empty("picture", a) }
    }

    /// Reports what a wall clock loses in Subsurface's `date`/`time`: the UTC offset (it keeps
    /// local wall time only) and any fraction of a second.
    func reportClockLoss(_ t: DiveDateTime, what: String, path: String) {
        if let offset = t.offset {
            report(.dropped, "ssrf.utc-offset-dropped", "Subsurface keeps \(what) as local wall time: the UTC offset \(offset) is not written", path)
        }
        if let f = t.time?.fraction {
            report(.dropped, "ssrf.time-fraction-dropped", "Subsurface keeps whole seconds: the fraction .\(f) of \(what) is not written", path)
        }
    }

    // MARK: Trips

    /// The trip a dive read from Subsurface carried (`extensions.umilog.trip`), and the
    /// extensions without it (`nil` when nothing else is left).
    static func splitCarriedTrip(_ e: ExtensionValue?) -> (trip: ExtensionValue?, rest: ExtensionValue?) {
        guard case .object(let members)? = e, let u = members.firstIndex(where: { $0.name == "umilog" }),
              case .object(let umilog) = members[u].value, let t = umilog.firstIndex(where: { $0.name == "trip" }),
              case .object = umilog[t].value else { return (nil, e) }
        var rest = members
        var inner = umilog
        inner.remove(at: t)
        if inner.isEmpty { rest.remove(at: u) } else { rest[u].value = .object(inner) }
        return (umilog[t].value, rest.isEmpty ? nil : .object(rest))
    }

    /// Closes the `<trip>` being written when this dive is not of it, and opens this dive's
    /// when it has one: a run of consecutive dives of one trip is one `<trip>`.
    private func enterTrip(of d: Dive, carried: ExtensionValue?, header: LogbookHeader, path: String) {
        var key: TripKey?
        var record: Trip?
        if let uuid = d.tripUUID {
            record = tripIndex.find(uuid, in: header.trips, \.uuid)
            if record != nil {
                key = .record(uuid)
            } else {
                report(.dropped, "ssrf.trip-unresolved", "the dive's trip is not in the logbook, so it has no name to write; the dive is written outside any trip", path)
            }
        } else if let carried {
            key = .carried(carried)
        }
        guard key != openTrip else { return }
        closeTrip()
        guard let key else { return }
        var a: [(String, String)] = []
        var notes: String?
        if let record {
            tripRuns[record.uuid, default: 0] += 1
            if let start = d.startedAt {
                // Subsurface dates a trip by its first dive.
                a.append(("date", SSRFText.date(start.date)))
                if let t = start.time { a.append(("time", SSRFText.time(t))) }
            }
            a.append(("location", record.name))
            notes = record.notes
        } else if case .carried(let value) = key {
            func text(_ name: String) -> String? {
                guard case .object(let m) = value, case .string(let s)? = m.first(where: { $0.name == name })?.value else { return nil }
                return s
            }
            for name in ["date", "time", "location"] { if let v = text(name) { a.append((name, v)) } }
            notes = text("notes")
        }
        out.open("trip", a)
        if let notes, !notes.isEmpty { out.element("notes", notes) }
        openTrip = key
    }

    /// Ends the `<trip>` being written, if any.
    func closeTrip() {
        guard openTrip != nil else { return }
        out.close("trip")
        openTrip = nil
    }

    // MARK: Site, tags, people

    /// The dive's `@divesiteid`: its first site's, when the logbook holds that site.
    private func divesiteID(_ d: Dive, header: LogbookHeader, path: String) -> String? {
        guard let uuid = d.siteUUIDs.first else { return nil }
        if d.siteUUIDs.count > 1 {
            report(.dropped, "ssrf.extra-sites-not-carried", "a Subsurface dive has one site: \(d.siteUUIDs.count - 1) more are not written", path)
        }
        guard let site = siteIndex.find(uuid, in: header.sites, \.uuid) else {
            // Subsurface follows a `@divesiteid` to its site unchecked: one it cannot find must not be written.
            report(.dropped, "ssrf.site-unresolved", "the dive's site is not in the logbook, so the dive is written without one", path)
            return nil
        }
        if siteIDs[uuid] == nil { referencedSites.append(site) }
        return SSRFText.hex8(siteID(for: uuid))
    }

    /// The tags Subsurface's comma-separated `@tags` can hold.
    private func writableTags(_ tags: [String], path: String) -> [String] {
        var out: [String] = []
        for tag in tags {
            let trimmed = tag.trimmingWhitespace()
            if trimmed.isEmpty {
                report(.dropped, "ssrf.tag-empty", "an empty tag has no spelling in Subsurface's tag list", path)
            } else if trimmed.contains(",") {
                report(.dropped, "ssrf.tag-comma", "the tag \"\(tag)\" holds a comma, which Subsurface's tag list splits on; not written", path)
            } else {
                out.append(trimmed)
            }
        }
        return out
    }

    /// `<divemaster>` (the guides) and `<buddy>` (everyone else), each comma-joined, the names
    /// taken from the logbook's people.
    private func writePeople(_ d: Dive, header: LogbookHeader, path: String) {
        var buddies: [String] = []
        var guides: [String] = []
        for (i, ref) in d.people.enumerated() {
            let ppath = "\(path)/people/\(i)"
            guard let person = personIndex.find(ref.personUUID, in: header.people, \.uuid) else {
                report(.dropped, "ssrf.person-unresolved", "the person is not in the logbook, so there is no name to write", ppath)
                continue
            }
            let name = person.name.trimmingWhitespace()
            guard !name.isEmpty else {
                report(.dropped, "ssrf.person-name-empty", "a person with no name has no spelling in Subsurface's buddy list", ppath)
                continue
            }
            namedPeople.insert(person.uuid)
            if ref.extensions != nil { report(.dropped, "ssrf.person-reference-extensions", "the reference's extensions have no Subsurface XML element", ppath) }
            if name.contains(",") {
                report(.dropped, "ssrf.person-name-comma", "the name \"\(name)\" holds a comma, which Subsurface's \(ref.role == .guide ? "divemaster" : "buddy") list splits on: it reads back as more than one person", ppath)
            }
            switch ref.role {
            case .guide?:
                // Subsurface's divemaster is a list like its buddies.
                guides.append(name)
                continue
            case .buddy?: break
            case nil:
                report(.resolved, "ssrf.person-role-absent", "a person with no role is written as a buddy", ppath)
            case let role?:
                report(.dropped, "ssrf.person-role-not-carried", "Subsurface has a buddy list and one divemaster: the role \(role.rawValue) is not written, the person is written as a buddy", ppath)
            }
            buddies.append(name)
        }
        if !guides.isEmpty { out.element("divemaster", guides.joined(separator: ", ")) }
        if !buddies.isEmpty { out.element("buddy", buddies.joined(separator: ", ")) }
    }

    // MARK: Cylinders

    private func writeCylinders(_ d: Dive, header: LogbookHeader, numbering: CylinderNumbering, path: String) {
        for (i, c) in d.cylinders.enumerated() {
            let cpath = "\(path)/cylinders/\(i)"
            var a: [(String, String)] = []
            var carried = CarriedMembers(c.extensions)
            if let v = c.volume, let l = SSRFText.decimal(v) { a.append(("size", l + " l")) }
            // A cylinder's type (a working pressure and a name): what it carried, else its gear item's.
            let gear = c.gearUUID.flatMap { g in header.gear.first { $0.uuid == g } }
            if let p = carried.decimal("working_pressure") {
                a.append(("workpressure", SSRFText.decimal(p) + " bar"))
            } else if let p = gear?.workingPressure, let bar = SSRFText.decimal(p) {
                a.append(("workpressure", bar + " bar"))
            }
            if let name = carried.string("description") {
                a.append(("description", name))
            } else if let name = gear?.name, !name.isEmpty {
                a.append(("description", name))
            }
            if let o2 = c.oxygen, let v = SSRFText.decimal(o2) { a.append(("o2", v + "%")) }
            if let he = c.helium, let v = SSRFText.decimal(he) { a.append(("he", v + "%")) }
            if let p = c.startPressure, let bar = SSRFText.decimal(p) { a.append(("start", bar + " bar")) }
            if let p = c.endPressure, let bar = SSRFText.decimal(p) { a.append(("end", bar + " bar")) }
            if let use = carried.string("use") {
                // The use it was read with (`not used`, `Travel Gas`) before the role.
                a.append(("use", use))
            } else if let role = c.role, let use = SSRF.cylinderUse[role] {
                a.append(("use", use))
                if role == .deco {
                    report(.dropped, "ssrf.cylinder-role-narrowed", "Subsurface has one open-circuit use: the deco cylinder is written as OC-gas, as a bottom cylinder is", cpath)
                }
            }
            if let m = carried.decimal("max_operating_depth") { a.append(("depth", SSRFText.decimal(m) + " m")) }
            out.empty("cylinder", a)
            reportUncarried("ssrf.cylinder-member-not-carried", "of a cylinder", [
                ("gas_name \"\(c.gasName ?? "")\"", c.gasNameSaysMore), ("ppo2_limit", c.ppo2Limit != nil), ("usage", c.usage != nil),
                ("gear_uuid", c.gearUUID != nil), (carried.leftover ?? "", carried.leftover != nil),
                ("gas_number \(c.gasNumber ?? 0) (Subsurface numbers cylinders by position, this one \(i))", c.gasNumber.map { $0 != i } ?? false),
            ], cpath)
        }
    }
}

/// How a dive's pressure channels and gas switches name its cylinders (by `gasNumber`)
/// turned into Subsurface's cylinder positions.
struct CylinderNumbering {
    private var index: [Int: Int] = [:]
    /// True when no cylinder carries a gas number, so that number n is the n-th cylinder.
    let positional: Bool
    private let count: Int

    init(_ cylinders: [Cylinder]) {
        count = cylinders.count
        positional = !cylinders.isEmpty && cylinders.allSatisfy { $0.gasNumber == nil }
        for (i, c) in cylinders.enumerated() {
            if let g = c.gasNumber, index[g] == nil { index[g] = i }
        }
    }

    /// The position of the cylinder gas number `g` names, if the dive has it.
    func position(of g: Int) -> Int? {
        if positional { return g >= 0 && g < count ? g : nil }
        return index[g]
    }
}
