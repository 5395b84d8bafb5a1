import DiveCore
import DiveXML

/// The records a MacDive dive names inline and the logbook shares: the diver, people, the dive
/// operator, sites and gear. Each is made the first time a dive names it and found again by its
/// key (a name case-folded, a site by all its fields), so a file's dives refer to one record.
extension MacDiveState {
    // MARK: People

    /// `<diver>`: the logbook's owner, from the first dive that names one.
    func readDiver(_ d: MacDiveDraft, path: String) {
        guard let v = d[.diver] else { return }
        if let known = header.diver?.name {
            if known.folded != v.text.folded {
                report(.dropped, "diver-differs",
                       "<diver> \"\(v.text)\" is not the logbook's diver \"\(known)\" (named by its first dive), and a logbook has one diver; not carried",
                       path: "\(path)/diver", line: v.line)
            }
            return
        }
        let name = capped(v.text, "<diver>", at: "\(path)/diver", line: v.line)
        header.diver = Diver(uuid: Identity.uuid(kind: "diver", sourceID: name.folded, namespace: MacDive.namespace), name: name)
    }

    /// `<buddies><buddy>` (role buddy), then `<diveMaster>` (role guide); a name met before is
    /// the same person, case-folded, and a dive names a person once.
    func people(_ d: MacDiveDraft, path: String) -> [PersonReference] {
        var refs: [PersonReference] = []
        func add(_ raw: String, role: PersonRole, element: String, line: Int) {
            let name = capped(raw, "<\(element)>", at: "\(path)/\(element)", line: line)
            let key = name.folded
            let uuid: String
            if let known = personUUIDs[key] { uuid = known } else {
                uuid = Identity.uuid(kind: "person", sourceID: key, namespace: MacDive.namespace)
                personUUIDs[key] = uuid
                header.people.append(Person(uuid: uuid, name: name))
            }
            if let k = refs.firstIndex(where: { $0.personUUID == uuid }) {
                // A buddy who was also the dive master is the guide.
                if role == .guide { refs[k].role = .guide } else {
                    report(.dropped, "buddy-repeated", "<buddy> \"\(name)\" is named twice on the dive; a dive names a person once",
                           path: "\(path)/buddies", line: line)
                }
                return
            }
            refs.append(PersonReference(personUUID: uuid, role: role))
        }
        for b in d.buddies { add(b, role: .buddy, element: "buddy", line: d.line) }
        if let g = d[.diveMaster] { add(g.text, role: .guide, element: "diveMaster", line: g.line) }
        return refs
    }

    /// `<diveOperator>`: a dive centre.
    func contact(_ v: XMLTextValue, path: String) -> String {
        let name = capped(v.text, "<diveOperator>", at: "\(path)/diveOperator", line: v.line)
        if let known = contactUUIDs[name.folded] { return known }
        let uuid = Identity.uuid(kind: "operator", sourceID: name.folded, namespace: MacDive.namespace)
        contactUUIDs[name.folded] = uuid
        var c = Contact(uuid: uuid, name: name)
        c.roles = [.diveCenter]
        header.contacts.append(c)
        return uuid
    }

    // MARK: Sites

    /// `<site>` (or, in the older spelling, the dive's own `<site>`, `<location>`, `<country>`,
    /// `<siteLat>`, `<siteLon>`): one site per distinct set of fields.
    func readSite(_ d: MacDiveDraft, units: MacDiveUnits, into dive: inout Dive, path: String) {
        var s = d.site
        var spath = "\(path)/site"
        let oldSpelling = s.isEmpty
        let old: [(MacDiveName, MacDiveName)] = [(.site, .name), (.location, .location), (.country, .country), (.siteLat, .lat), (.siteLon, .lon)]
        if !oldSpelling {
            for (from, _) in old {
                guard let v = d[from] else { continue }
                report(.dropped, "element-repeated", "the dive's own <\(from.spelling)> \"\(v.text)\" is the older spelling of a site field beside a <site> that has its own; not carried",
                       path: "\(path)/\(from.spelling)", line: v.line)
            }
        } else {
            // The older spelling: the site's fields on the dive itself.
            for (from, to) in old { if let v = d[from] { s[to] = v } }
            spath = path
        }
        guard !s.isEmpty else { return }
        let line = d.siteLine > 0 ? d.siteLine : d.line
        func text(_ n: MacDiveName) -> String? { s[n]?.text }
        guard let rawName = text(.name) else {
            report(.dropped, "site-nameless",
                   "the dive's site has no <name>, which a dive site requires; its \(s.keys.map { "<\($0.spelling)>" }.sorted().joined(separator: ", ")) are not carried",
                   path: spath, line: line)
            return
        }
        let key = MacDiveName.siteValues.sorted { $0.rawValue < $1.rawValue }.map { s[$0]?.text.folded ?? "" }.joined(separator: "\n")
        if let known = siteUUIDs[key] {
            dive.siteUUIDs = [known]
            return
        }
        var site = Site(uuid: Identity.uuid(kind: "site", sourceID: key, namespace: MacDive.namespace),
                        name: capped(rawName, "<name>", at: "\(spath)/name", line: line))
        let locality = [text(.location), text(.country)].compactMap { $0 }
        if !locality.isEmpty { site.location = Location(name: capped(locality.joined(separator: ", "), "the site's location", at: spath, line: line)) }
        let latName: MacDiveName = oldSpelling ? .siteLat : .lat
        let lat = number(s[.lat], latName, at: spath), lon = number(s[.lon], oldSpelling ? .siteLon : .lon, at: spath)
        if let lat, let lon {
            if lat == 0 && lon == 0 {
                zero(latName, at: spath, line: s[.lat]!.line, in: "site")
            } else if abs(lat) > 90 || abs(lon) > 180 {
                report(.dropped, "gps-out-of-range", "the site's position \(s[.lat]!.text), \(s[.lon]!.text) lies outside latitude −90 to 90 and longitude −180 to 180; not carried",
                       path: spath, line: line)
            } else {
                site.position = Position(latitude: lat, longitude: lon)
            }
        } else if lat != nil || lon != nil {
            report(.dropped, "gps-half", "the site gives a latitude or a longitude alone, which is no position; not carried", path: spath, line: line)
        }
        if let v = number(s[.altitude], .altitude, at: spath) {
            if v == 0 { zero(.altitude, at: spath, line: s[.altitude]!.line, in: "site") } else {
                let m = units.metres(v)
                if m > -500 && m < 9000 { site.altitude = Int(m.rounded(.toNearestOrAwayFromZero)) } else {
                    report(.dropped, "value-out-of-range", "<altitude> \(s[.altitude]!.text) is no site's height; not carried",
                           path: "\(spath)/altitude", line: s[.altitude]!.line)
                }
            }
        }
        var umilog: [ExtensionValue.Member] = []
        if let w = s[.waterType] {
            if let t = MacDiveWords.water[w.text.folded] { site.waterType = t } else { umilog.append(.init("water_type", .string(w.text))) }
        }
        if let b = text(.bodyOfWater) { umilog.append(.init("body_of_water", .string(b))) }
        if let v = text(.difficulty) { umilog.append(.init("difficulty", .string(v))) }
        if !umilog.isEmpty { site.extensions = .object([.init("umilog", .object(umilog))]) }
        siteUUIDs[key] = site.uuid
        header.sites.append(site)
        dive.siteUUIDs = [site.uuid]
    }

    // MARK: Gear

    /// `<gear><item>`: a piece of kit by its type, maker, name and serial. MacDive's type is
    /// free text: the model's type where the word is one, else `other`; the word as written is
    /// kept under `umilog.type` whenever it is not the model's own.
    func readGear(_ d: MacDiveDraft, into dive: inout Dive, path: String) {
        for (i, item) in d.gear.enumerated() {
            let ipath = "\(path)/gear/item/\(i)"
            guard let rawName = item[.name]?.text else {
                if !item.fields.isEmpty {
                    report(.dropped, "gear-nameless",
                           "a gear item has no <name>, which a piece of gear requires; its \(item.fields.keys.map { "<\($0.spelling)>" }.sorted().joined(separator: ", ")) are not carried",
                           path: ipath, line: item.line)
                }
                continue
            }
            let key = [MacDiveName.type, .manufacturer, .name, .serial].map { item[$0]?.text.folded ?? "" }.joined(separator: "\n")
            let uuid: String
            if let known = gearUUIDs[key] { uuid = known } else {
                uuid = Identity.uuid(kind: "gear", sourceID: key, namespace: MacDive.namespace)
                gearUUIDs[key] = uuid
                var g = GearItem(uuid: uuid, name: capped(rawName, "<name>", at: "\(ipath)/name", line: item.line))
                if let t = item[.type]?.text {
                    g.type = MacDiveWords.gearType(t)
                    if g.type?.rawValue != t.folded { g.extensions = .object([.init("umilog", .object([.init("type", .string(t))]))]) }
                }
                g.brand = item[.manufacturer]?.text
                g.serial = item[.serial]?.text
                header.gear.append(g)
            }
            if !dive.gearUUIDs.contains(uuid) { dive.gearUUIDs.append(uuid) }
        }
    }

    /// A cylinder's gear: the tank MacDive names (`AL80`, `15L`, `8.5 + 8.5`), with its size and
    /// working pressure; one record per distinct name, size and pressure.
    func tank(named name: String, volume: Double?, workingPressure: Double?, double: Bool, path: String, line: Int) -> String {
        let key = [name.folded, volume.map { String($0) } ?? "", workingPressure.map { String($0) } ?? "", double ? "double" : ""].joined(separator: "\n")
        if let known = gearUUIDs["tank\n" + key] { return known }
        let uuid = Identity.uuid(kind: "tank", sourceID: key, namespace: MacDive.namespace)
        gearUUIDs["tank\n" + key] = uuid
        var g = GearItem(uuid: uuid, name: capped(name, "<tankName>", at: "\(path)/tankName", line: line), type: .cylinder)
        g.volume = volume
        g.workingPressure = workingPressure
        header.gear.append(g)
        return uuid
    }
}
