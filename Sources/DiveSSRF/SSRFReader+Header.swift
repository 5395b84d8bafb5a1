import DiveCore
import DiveXML

/// Sites, people and identities: the records a `.ssrf` file names beside its dives.
extension SSRFState {
    /// The identity of a record of `kind` with source id `id`; a record with none takes its
    /// position in the file (`kind:#index`), stable only while the file's order is.
    func identity(_ kind: String, _ id: String?, index: Int) -> String {
        if let id, !id.isEmpty {
            return Identity.uuid(kind: kind, sourceID: id, namespace: SSRF.namespace)
        }
        return Identity.uuid5(namespace: SSRF.namespace, name: "\(kind):#\(index)")
    }

    /// A `@gps` pair: two decimals, latitude first; refused with a finding when it is not
    /// exactly two decimals, lies outside WGS 84's range, or is Null Island.
    func position(_ text: String, what: String, path: String, line: Int) -> Position? {
        guard let (lat, lon) = SSRFValues.gps(text) else {
            report(.dropped, "ssrf.gps-invalid", "\(what) \"\(text)\" is not two decimals separated by white space, latitude first; no position is carried", path: path, line: line)
            return nil
        }
        guard DecimalNumber(-90) <= lat, lat <= DecimalNumber(90), DecimalNumber(-180) <= lon, lon <= DecimalNumber(180) else {
            report(.dropped, "ssrf.gps-out-of-range", "\(what) \"\(text)\" lies outside latitude −90 to 90 and longitude −180 to 180; no position is carried", path: path, line: line)
            return nil
        }
        if lat.isZero && lon.isZero {
            report(.absent, "ssrf.gps-null-island", "\(what) is 0, 0, which marks no position rather than one off West Africa; read as no position", path: path, line: line)
            return nil
        }
        return Position(latitude: lat.doubleValue, longitude: lon.doubleValue)
    }

    // MARK: Sites

    func finishSite(_ s: SiteDraft) {
        let path = "divesites/site/\(s.index)"
        let id = s.id?.trimmingWhitespace()
        guard var name = s.name?.trimmingWhitespace(), !name.isEmpty else {
            if let id, !id.isEmpty { droppedSiteIDs.insert(id) }
            report(.dropped, "ssrf.site-nameless",
                   "the site \(id.map { "\"\($0)\"" } ?? "") has no name, which a dive site requires; it is not carried, nor its position, notes or locality, nor the dives' references to it",
                   path: path, line: s.line)
            return
        }
        if let id, !id.isEmpty, siteUUIDs[id] != nil || droppedSiteIDs.contains(id) {
            report(.dropped, "ssrf.site-duplicate", "a second site has the uuid \"\(id)\"; two records cannot share one identity, so the first is kept", path: path, line: s.line)
            return
        }
        if name.count > 255 {
            name = String(name.prefix(255))
            report(.dropped, "ssrf.site-name-too-long", "the site's name is longer than 255 characters; cut there", path: path, line: s.line)
        }
        var site = Site(uuid: identity("site", id, index: s.index), name: name)
        if let gps = s.gps, !gps.isEmpty { site.position = position(gps, what: "the site's @gps", path: path, line: s.line) }
        // The description first, then a blank line, then the notes; either alone stands alone.
        let parts = [s.description?.trimmingWhitespace(), s.notes].compactMap { $0 }.filter { !$0.isEmpty }
        if !parts.isEmpty { site.notes = parts.joined(separator: "\n\n") }
        var used = Set<Int>()
        if let locality = locality(s.geo, used: &used, path: path, line: s.line) { site.location = Location(name: locality) }
        var umilog: [ExtensionValue.Member] = []
        if let k = s.geo.firstIndex(where: { $0.category == 1 }) {
            umilog.append(.init("ocean", .string(s.geo[k].value)))
            used.insert(k)
        }
        // Every entry the locality and the ocean did not take: unknown categories, a county or
        // city beside a region or town, a second entry of one category.
        let unread = s.geo.indices.filter { !used.contains($0) }.map { s.geo[$0] }
        if !unread.isEmpty {
            umilog.append(.init("geo", .array(unread.map { g in
                .object((g.category.map { [ExtensionValue.Member("cat", .number(String($0)))] } ?? []) + [.init("value", .string(g.value))])
            })))
        }
        if !umilog.isEmpty { site.extensions = .object([.init("umilog", .object(umilog))]) }
        if let id, !id.isEmpty { siteUUIDs[id] = site.uuid }
        header.sites.append(site)
    }

    /// A site's locality from its `<geo>` taxonomy: the town (5, else the city 6), the region
    /// (3, else the county 4) and the country (2), joined with `", "`, leaving out a part equal
    /// to an earlier one case-folded.
    private func locality(_ geo: [(category: Int?, value: String)], used: inout Set<Int>, path: String, line: Int) -> String? {
        func value(_ c: Int) -> String? {
            guard let k = geo.firstIndex(where: { $0.category == c }) else { return nil }
            let v = geo[k].value.trimmingWhitespace()
            guard !v.isEmpty else { return nil }
            used.insert(k)
            return v
        }
        let parts = [value(5) ?? value(6), value(3) ?? value(4), value(2)].compactMap { $0 }
        var kept: [String] = []
        for p in parts where !kept.contains(where: { $0.lowercased() == p.lowercased() }) { kept.append(p) }
        guard !kept.isEmpty else { return nil }
        var name = kept.joined(separator: ", ")
        if name.count > 255 {
            name = String(name.prefix(255))
            report(.dropped, "ssrf.locality-too-long", "the site's locality is longer than 255 characters; cut there", path: path, line: line)
        }
        return name
    }

    /// The site a format 1 or 2 dive names with its own `<location gps=…>name</location>`:
    /// one site per distinct name and position, made the first time a dive names it.
    func locationSite(name: String?, gps: String?, path: String, line: Int) -> String? {
        let name = name?.trimmingWhitespace() ?? ""
        let gps = gps?.trimmingWhitespace() ?? ""
        guard !name.isEmpty else {
            if !gps.isEmpty {
                report(.dropped, "ssrf.location-nameless",
                       "the dive's <location> gives a position (\(gps)) and no name, and a dive site needs one; not carried", path: path, line: line)
            }
            return nil
        }
        let key = gps.isEmpty ? name : name + "\n" + gps
        if let uuid = locationSites[key] { return uuid }
        var site = Site(uuid: Identity.uuid(kind: "location", sourceID: key, namespace: SSRF.namespace), name: String(name.prefix(255)))
        if name.count > 255 {
            report(.dropped, "ssrf.site-name-too-long", "the dive's place name is longer than 255 characters; cut there", path: path, line: line)
        }
        if !gps.isEmpty { site.position = position(gps, what: "the dive's <location @gps>", path: path, line: line) }
        locationSites[key] = site.uuid
        header.sites.append(site)
        return site.uuid
    }

    // MARK: People

    /// The dive's people: each name of its buddy field in order (role `buddy`), then each of
    /// its divemaster field (role `guide`), both comma-separated; a name met before is the same
    /// person, case-folded.
    func people(buddies: [String], guides: [String], path: String, line: Int) -> [PersonReference] {
        var refs: [PersonReference] = []
        var at: [String: Int] = [:]
        var repeated: [String] = []
        func add(_ raw: String, role: PersonRole) {
            let name = raw.trimmingWhitespace()
            guard !name.isEmpty else { return }
            let key = name.folded
            let uuid: String
            if let known = personUUIDs[key] { uuid = known } else {
                uuid = Identity.uuid(kind: "person", sourceID: key, namespace: SSRF.namespace)
                personUUIDs[key] = uuid
                var person = Person(uuid: uuid, name: String(name.prefix(255)))
                if name.count > 255 {
                    report(.dropped, "ssrf.person-name-too-long", "a person's name is longer than 255 characters; cut there", path: path, line: line)
                }
                person.createdAt = nil
                header.people.append(person)
            }
            if let k = at[uuid] {
                // A dive names a person once; a guide also in the buddy field is the guide.
                if role == .guide { refs[k].role = .guide } else { repeated.append(name) }
                return
            }
            at[uuid] = refs.count
            refs.append(PersonReference(personUUID: uuid, role: role))
        }
        for field in buddies {
            for name in field.split(separator: ",", omittingEmptySubsequences: false) { add(String(name), role: .buddy) }
        }
        // The divemaster field is a comma-separated list too (Subsurface's diveguide).
        for field in guides {
            for name in field.split(separator: ",", omittingEmptySubsequences: false) { add(String(name), role: .guide) }
        }
        if !repeated.isEmpty {
            report(.dropped, "ssrf.buddy-repeated",
                   "the buddy field names \(repeated.map { "\"\($0)\"" }.joined(separator: ", ")) more than once; a dive names a person once",
                   path: path, line: line)
        }
        return refs
    }
}
