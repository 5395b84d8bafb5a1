import DiveCore

/// One `Dives` row as a dive, by `docs/smarttrak-mapping.md`.
extension SmartTrakReader {
    func buildDive(_ source: AccessRow) throws -> Dive {
        var row = source
        let idx = row.int("Idx")
        var d = Dive(uuid: Identity.uuid5(namespace: Self.namespace, name: "dive:#\(index)"), startedAt: nil)
        d.provenance = Provenance(format: "smarttrak", file: displayName, index: index, line: nil, positionalIdentity: true)

        if let n = row.int("DiveNumber") {
            if n > 0 { d.number = n } else { zeroAsBlank(source, "DiveNumber") }
        }
        readStart(&row, source, into: &d)
        if let t = row.take("DiveTime"), let text = t.text, let v = AccessDateTime(text) {
            if v.duration > 0 { d.submergedTime = v.duration } else { zeroAsBlank(source, "DiveTime") }
        }
        d.maxDepth = positive(&row, "MaxDepth", source)
        d.visibility = positive(&row, "Visibility", source)
        d.weight = positive(&row, "Weight", source)
        d.airTemperature = nonZero(&row, "AirTemperature", source)
        d.bottomTemperature = nonZero(&row, "MinWaterTemperature", source)
        var notes: [String] = []
        if let remarks = row.text("Remarks") { notes.append(remarks) }
        for (column, table, label) in [("WeatherIdx", "Weather", "Weather"), ("SurfaceIdx", "Surface", "Surface"), ("UnderwaterIdx", "Underwater", "Underwater")] {
            if let text = try pickText(&row, column, table) { notes.append("\(label): \(text)") }
        }
        if let suit = try gear(&row, "SuitIdx", table: "Suit") { d.gearUUIDs.append(suit) }
        if let site = try site(row.int("SiteIdx")) {
            d.siteUUIDs = [site.uuid]
            d.waterType = site.waterType
        }
        d.cylinders = try cylinders(&row, source)

        if let idx {
            try readRelations(dive: idx, into: &d)
            let pictures = try related("DivePictures", dive: idx)
            if !pictures.isEmpty {
                tally.add("pictures", .dropped, "smarttrak.pictures-not-carried", at: location(pictures[0], "Picture")) { n in
                    "\(n == 1 ? "one dive has" : "\(n) dives have") pictures stored in the logbook (DivePictures); umilog keeps no pictures; not carried"
                }
                for p in pictures { used["DivePictures", default: []].insert(p.row) }
            }
        }
        try readComputer(&row, source, into: &d)
        if let idx { try readMarkers(dive: idx, into: &d) }
        if !notes.isEmpty { d.notes = notes.joined(separator: "\n") }
        leftovers(row)
        return d
    }

    // MARK: Columns

    private func positive(_ row: inout AccessRow, _ column: String, _ source: AccessRow) -> Double? {
        guard let v = row.take(column)?.number else { return nil }
        if v > 0 { return v }
        if v == 0 { zeroAsBlank(source, column) } else {
            report(.dropped, "value-out-of-range", "\(column) is \(v), below zero; not carried", at: location(source, column))
        }
        return nil
    }

    private func nonZero(_ row: inout AccessRow, _ column: String, _ source: AccessRow) -> Double? {
        guard let v = row.take(column)?.number else { return nil }
        if v == 0 { zeroAsBlank(source, column); return nil }
        return v
    }

    /// `Date` (its day) and `Immersion` (its time of day) as the dive's start, the logbook's
    /// wall clock; `OutTime`, `Intvl` and the computer's desaturation and no-fly times are said.
    private func readStart(_ row: inout AccessRow, _ source: AccessRow, into d: inout Dive) {
        let date = row.take("Date")?.text.flatMap(AccessDateTime.init)
        let immersion = row.take("Immersion")?.text.flatMap(AccessDateTime.init)
        if let day = date?.date {
            d.startedAt = DiveDateTime(date: day, time: immersion?.time, offset: nil)
        } else {
            report(.absent, "start-absent", "the dive has no Date; it has no start", at: location(source, "Date"))
        }
        if let out = row.take("OutTime")?.text.flatMap(AccessDateTime.init), let immersion {
            let text = out.text
            if let dur = row.cells["DiveTime"]?.text.flatMap(AccessDateTime.init), (immersion.secondsOfDay + dur.duration) % 86400 == out.secondsOfDay {
                tally.add("outtime", .resolved, "smarttrak.out-time-derived", at: location(source, "OutTime")) { n in
                    "OutTime, the time out of the water, is Immersion plus DiveTime in \(n == 1 ? "the dive" : "all \(n) dives") that hold it; not carried apart"
                }
            } else {
                tally.add("outtime-differs", .dropped, "smarttrak.out-time-differs", at: location(source, "OutTime")) { n in
                    "OutTime differs from Immersion plus DiveTime in \(n == 1 ? "one dive" : "\(n) dives") (the first \(text)); the model keeps no time out of the water; not carried"
                }
            }
        }
        for (column, what) in [("Intvl", "the surface interval before the dive"), ("DesatBefore", "the desaturation time left before the dive"),
                               ("DesatAfter", "the desaturation time after the dive"), ("NoFlyBefore", "the no-fly time left before the dive"),
                               ("NoFly", "the no-fly time after the dive")] {
            guard let v = row.take(column)?.text.flatMap(AccessDateTime.init), v.duration > 0 else { continue }
            let example = hoursMinutes(v.duration)
            tally.add("time.\(column)", .dropped, "smarttrak.time-not-carried", at: location(source, column)) { n in
                "\(column), \(what), has no place in umilog's model; \(n == 1 ? "one dive holds" : "\(n) dives hold it, the first") \(example); not carried"
            }
        }
    }

    /// The `Text` of the row of `table` a column refers to.
    private func pickText(_ row: inout AccessRow, _ column: String, _ table: String) throws -> String? {
        guard var pick = try lookup(table, row.int(column)) else { return nil }
        let key = "\(table)#\(pick.row)"
        let text = pick.text("Text")
        if made[key] == nil {
            made[key] = text ?? ""
            pick.cells.removeValue(forKey: "Idx")
            leftovers(pick)
        }
        return text
    }

    // MARK: Site

    /// The `Site` row `idx` refers to as a site, made once: its `Location` row as the site's
    /// location, its `Water` row's type as fresh (1) or salt (2) water, `Platform` and `Bottom`
    /// as tags.
    func site(_ idx: Int?) throws -> Site? {
        guard var row = try lookup("Site", idx) else { return nil }
        if let uuid = made["Site#\(row.row)"] { return header.sites.first { $0.uuid == uuid } }
        row.cells.removeValue(forKey: "Idx")
        let name = row.text("Text") ?? "Site \(idx!)"
        var s = Site(uuid: Identity.uuid(kind: "site", sourceID: "site:\(idx!)", namespace: Self.namespace), name: name)
        if var loc = try lookup("Location", row.int("LocationIdx")) {
            loc.cells.removeValue(forKey: "Idx")
            let parts = [loc.text("Text"), loc.text("Province"), loc.text("Country")].compactMap { $0 }
            if !parts.isEmpty { s.location = Location(name: parts.joined(separator: ", ")) }
            if made["Location#\(loc.row)"] == nil { made["Location#\(loc.row)"] = ""; leftovers(loc) }
        }
        if var water = try lookup("Water", row.int("WaterIdx")) {
            water.cells.removeValue(forKey: "Idx")
            if let text = water.text("Text") { s.tags.append(text) }
            switch water.int("Type") {
            case 1: s.waterType = .fresh
            case 2: s.waterType = .salt
            case nil, 0: break
            case let t?:
                report(.dropped, "water-type-unknown", "the water type \(t) is neither 1 (fresh) nor 2 (salt); not carried", at: location(water, "Type"))
            }
            if made["Water#\(water.row)"] == nil { made["Water#\(water.row)"] = ""; leftovers(water) }
        }
        for (column, table) in [("PlatformIdx", "Platform"), ("BottomIdx", "Bottom")] {
            if let text = try pickText(&row, column, table) { s.tags.append(text) }
        }
        let lat = row.take("Latitude")?.number, lon = row.take("Longitude")?.number
        if let lat, let lon, lat != 0 || lon != 0 {
            if abs(lat) <= 90, abs(lon) <= 180 { s.position = Position(latitude: lat, longitude: lon) } else {
                report(.dropped, "position-out-of-range", "the site's position \(lat), \(lon) is no place on Earth; not carried", at: location(row, "Latitude"))
            }
        } else if lat == 0, lon == 0 {
            zeroAsBlank(row, "Latitude")
        }
        if let alt = row.take("Altitude")?.number {
            if alt != 0 { s.altitude = Int(alt.rounded()) } else { zeroAsBlank(row, "Altitude") }
        }
        if let depth = row.take("Depth")?.number {
            if depth > 0 { s.depthTo = depth } else { zeroAsBlank(row, "Depth") }
        }
        s.notes = row.text("Notes")
        leftovers(row)
        made["Site#\(row.row)"] = s.uuid
        header.sites.append(s)
        return s
    }

    // MARK: Gear

    /// A `Suit` or `Gear` row as a gear item, made once; its uuid.
    func gear(_ row: inout AccessRow, _ column: String, table: String) throws -> String? {
        try gearItem(table, row.int(column))
    }

    func gearItem(_ table: String, _ idx: Int?) throws -> String? {
        guard var g = try lookup(table, idx) else { return nil }
        if let uuid = made["\(table)#\(g.row)"] { return uuid.isEmpty ? nil : uuid }
        g.cells.removeValue(forKey: "Idx")
        guard let name = g.text("Text") else {
            made["\(table)#\(g.row)"] = ""
            leftovers(g)
            return nil
        }
        var item = GearItem(uuid: Identity.uuid(kind: "gear", sourceID: "\(table.lowercased()):\(idx!)", namespace: Self.namespace), name: name)
        let type = g.text("Type")
        if table == "Suit" {
            let t = (type ?? name).lowercased()
            item.type = t.contains("dry") ? .drysuit : (t.contains("wet") || t.contains("shorty") || t.contains("semi")) ? .wetsuit : nil
        } else if let type {
            item.type = GearType(rawValue: type.lowercased())
        }
        if item.type == nil, let type {
            item.notes = "Type: \(type)"
        }
        item.brand = g.text("Vendor")
        if let notes = g.text("Notes") { item.notes = [item.notes, notes].compactMap { $0 }.joined(separator: "\n") }
        leftovers(g)
        made["\(table)#\(g.row)"] = item.uuid
        header.gear.append(item)
        return item.uuid
    }

    // MARK: Relations

    /// Buddies, types and activities (as tags), gear and fish the relation tables give the dive.
    private func readRelations(dive idx: Int, into d: inout Dive) throws {
        for rel in try related("BuddyRelation", dive: idx) {
            var r = rel
            r.cells.removeValue(forKey: "DiveIdx")
            if let uuid = try person(r.int("Idx")) { d.people.append(PersonReference(personUUID: uuid, role: .buddy)) }
            leftovers(r)
        }
        for (relation, table) in [("TypeRelation", "Type"), ("ActivityRelation", "Activity")] {
            for rel in try related(relation, dive: idx) {
                var r = rel
                r.cells.removeValue(forKey: "DiveIdx")
                if let tag = try pickText(&r, "Idx", table), !d.tags.contains(tag) { d.tags.append(tag) }
                leftovers(r)
            }
        }
        for rel in try related("GearRelation", dive: idx) {
            var r = rel
            r.cells.removeValue(forKey: "DiveIdx")
            if let uuid = try gearItem("Gear", r.int("Idx")), !d.gearUUIDs.contains(uuid) { d.gearUUIDs.append(uuid) }
            leftovers(r)
        }
        for rel in try related("FishRelation", dive: idx) {
            var r = rel
            r.cells.removeValue(forKey: "DiveIdx")
            if let uuid = try species(r.int("Idx")) {
                var s = Sighting(speciesUUID: uuid)
                if let n = r.int("Amount"), n > 0 { s.count = n }
                s.notes = r.text("Notes")
                d.sightings.append(s)
            }
            leftovers(r)
        }
    }

    /// A `Buddy` row as a person, made once: the nickname (`Text`) as the name, the full name
    /// when it says more, e-mail and phone.
    private func person(_ idx: Int?) throws -> String? {
        guard var b = try lookup("Buddy", idx) else { return nil }
        if let uuid = made["Buddy#\(b.row)"] { return uuid.isEmpty ? nil : uuid }
        b.cells.removeValue(forKey: "Idx")
        let nick = b.text("Text")
        let full = [b.text("Title"), b.text("FirstName"), b.text("MiddleName"), b.text("Name")].compactMap { $0 }.joined(separator: " ")
        guard let name = nick ?? (full.isEmpty ? nil : full) else {
            made["Buddy#\(b.row)"] = ""
            leftovers(b)
            return nil
        }
        var p = Person(uuid: Identity.uuid(kind: "person", sourceID: "buddy:\(idx!)", namespace: Self.namespace), name: name)
        var notes: [String] = []
        if !full.isEmpty, full != name { notes.append("Full name: \(full)") }
        p.email = b.text("e-Mail")
        p.phone = b.text("Mobile") ?? b.text("Phone")
        if let n = b.text("Notes") { notes.append(n) }
        if !notes.isEmpty { p.notes = notes.joined(separator: "\n") }
        leftovers(b)
        made["Buddy#\(b.row)"] = p.uuid
        header.people.append(p)
        return p.uuid
    }

    /// A `Fish` row as a species, made once.
    private func species(_ idx: Int?) throws -> String? {
        guard var f = try lookup("Fish", idx) else { return nil }
        if let uuid = made["Fish#\(f.row)"] { return uuid.isEmpty ? nil : uuid }
        f.cells.removeValue(forKey: "Idx")
        let common = f.text("Name") ?? f.text("Text")
        let latin = f.text("LatinName")
        guard common != nil || latin != nil else {
            made["Fish#\(f.row)"] = ""
            leftovers(f)
            return nil
        }
        let s = Species(uuid: Identity.uuid(kind: "species", sourceID: "fish:\(idx!)", namespace: Self.namespace), scientificName: latin, commonName: common)
        leftovers(f)
        made["Fish#\(f.row)"] = s.uuid
        header.species.append(s)
        return s.uuid
    }

    /// The `Marker` rows of the dive: bookmarks SmartTRAK's user placed on the profile at
    /// `XPosition` minutes, with their text.
    private func readMarkers(dive idx: Int, into d: inout Dive) throws {
        let markers = try related("Marker", dive: idx)
        guard !markers.isEmpty else { return }
        var events: [Event] = []
        for m in markers {
            var r = m
            r.cells.removeValue(forKey: "DiveIdx")
            r.cells.removeValue(forKey: "Idx")
            guard let minutes = r.take("XPosition")?.number, minutes >= 0 else {
                report(.dropped, "marker-without-time", "a marker has no time on the profile (XPosition); not carried", at: location(m))
                leftovers(r)
                continue
            }
            // Where on the drawing the marker's label sits and points: no dive data.
            for column in ["YPosition", "XConnect", "YConnect"] where r.cells.removeValue(forKey: column) != nil {}
            let label = r.text("Text")
            let ms = Int((minutes * 60).rounded()) * 1000
            events.append(Event(time: ms, type: .bookmark, label: label))
            leftovers(r)
        }
        guard !events.isEmpty else { return }
        if d.recordings.isEmpty { d.recordings = [Recording()] }
        var p = d.recordings[0].profile ?? Profile()
        // A marker at a bookmark the computer recorded (within one 4 s sample) names it.
        for e in events {
            if let i = p.events.firstIndex(where: { $0.type == .bookmark && $0.label == nil && abs($0.time - e.time) <= 4000 }) {
                p.events[i].label = e.label
            } else {
                p.events.append(e)
            }
        }
        p.events.sort { $0.time < $1.time }
        p.duration = max(p.duration, p.events.last?.time ?? 0)
        d.recordings[0].profile = p
    }

    private func hoursMinutes(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60
        return h > 0 ? "\(h) h \(m) min" : "\(m) min"
    }
}
