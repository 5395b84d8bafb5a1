import DiveCore
import DiveXML

extension UDDFState {
    func identity(_ kind: String, _ id: String?, index: Int) -> String {
        if let id, !id.isEmpty {
            return Identity.uuid(kind: kind, sourceID: id, namespace: Identity.uddfNamespace)
        }
        return Identity.uuid5(namespace: Identity.uddfNamespace, name: "\(kind):#\(index)")
    }

    /// A latitude/longitude pair, when both are present, in range, and not Null Island.
    func position(_ lat: DecimalNumber?, _ lon: DecimalNumber?, path: String, line: Int) -> Position? {
        guard let lat, let lon else {
            if (lat == nil) != (lon == nil) {
                report(.dropped, "uddf.half-position", "only one of latitude and longitude is recorded; half a position is no position", path: path, line: line)
            }
            return nil
        }
        if lat.isZero && lon.isZero {
            report(.dropped, "uddf.null-island", "latitude and longitude are both exactly 0, a writer's placeholder for no position; not carried", path: path, line: line)
            return nil
        }
        let la = lat.doubleValue, lo = lon.doubleValue
        guard (-90...90).contains(la), (-180...180).contains(lo) else {
            report(.dropped, "uddf.position-out-of-range", "latitude \(lat) / longitude \(lon) is not a place on Earth; not carried", path: path, line: line)
            return nil
        }
        return Position(latitude: la, longitude: lo)
    }

    /// A record's required name, or `nil` after reporting that the record, and every link
    /// to it, is not carried (a nameless site, buddy, piece of gear or trip).
    private func requiredName(_ name: String?, of record: String, requiring what: String, id: String?, code: String, path: String, line: Int) -> String? {
        if let name { return name }
        if let id { droppedIDs.insert(id) }
        report(.dropped, code, "\(record) has no name, which \(what) requires; it and every link to it are not carried", path: path, line: line)
        return nil
    }

    /// Paragraphs joined by a blank line; `nil` when there are none.
    private func paragraphs(_ notes: [String]) -> String? {
        notes.isEmpty ? nil : notes.joined(separator: "\n\n")
    }

    func finishSite(_ d: SiteDraft) {
        let path = "site/\(d.index)"
        guard let name = requiredName(d.name, of: "a dive site", requiring: "a site", id: d.id, code: "uddf.site-without-name", path: path, line: d.line) else { return }
        var s = Site(uuid: identity("site", d.id, index: d.index), name: name)
        var seen: Set<String> = [name.lowercased()]
        for alias in d.aliases where seen.insert(alias.lowercased()).inserted {
            s.otherNames.append(alias)
        }
        if let location = d.location { s.location = Location(name: location) }
        s.position = position(d.latitude, d.longitude, path: path, line: d.line)
        if let alt = d.altitude {
            if let m = alt.roundedInteger(), (-450...6500).contains(m) { s.altitude = m } else {
                report(.dropped, "uddf.altitude-out-of-range", "altitude \(alt) m is outside -450 to 6500 m; not carried", path: path, line: d.line)
            }
        }
        var from = d.minimumDepth, to = d.maximumDepth
        if let f = from, f.isNegative {
            report(.dropped, "uddf.site-depth-negative", "minimum depth \(f) m is above the surface; not carried", path: path, line: d.line)
            from = nil
        }
        if let t = to, t.isNegative {
            report(.dropped, "uddf.site-depth-negative", "maximum depth \(t) m is above the surface; not carried", path: path, line: d.line)
            to = nil
        }
        if let f = from, let t = to, t < f {
            report(.dropped, "uddf.site-depths-reversed", "minimum depth \(f) m is deeper than maximum depth \(t) m; neither is carried", path: path, line: d.line)
            from = nil; to = nil
        }
        s.depthFrom = from?.doubleValue
        s.depthTo = to?.doubleValue
        s.notes = paragraphs(d.notes)
        if let id = d.id { siteUUIDs[id] = s.uuid }
        header.sites.append(s)
    }

    func finishBuddy(_ d: PersonDraft) {
        let path = "buddy/\(d.index)"
        guard let name = requiredName(d.fullName, of: "a buddy", requiring: "a person", id: d.id, code: "uddf.buddy-without-name", path: path, line: d.line) else { return }
        var p = Person(uuid: identity("person", d.id, index: d.index), name: name)
        p.email = validEmail(d.email, path: path, line: d.line)
        p.phone = d.phone ?? d.mobile
        p.notes = paragraphs(d.notes)
        if let id = d.id {
            personUUIDs[id] = p.uuid
            if d.student { studentIDs.insert(id) }
        }
        header.people.append(p)
    }

    func finishOwner(_ d: PersonDraft) {
        var diver = Diver(name: d.fullName)
        diver.email = validEmail(d.email, path: "owner", line: d.line)
        diver.phone = d.phone ?? d.mobile
        if let born = d.bornOn {
            if let (dt, _) = DiveDateTime.parse(born) { diver.bornOn = dt.date } else {
                report(.dropped, "uddf.birthdate-invalid", "birth date \"\(born)\" is not a date; not carried", path: "owner", line: d.line)
            }
        }
        for (i, insurance) in d.insurances.enumerated() {
            guard let provider = insurance.name else {
                report(.dropped, "uddf.insurance-without-name", "an insurance has no <name>, which an insurance's provider requires; not carried", path: "owner/insurance/\(i)", line: d.line)
                continue
            }
            var expires: LocalDate?
            if let text = insurance.validDate {
                expires = DiveDateTime.parse(text)?.0.date
                if expires == nil {
                    report(.dropped, "uddf.insurance-date-invalid", "insurance valid date \"\(text)\" is not a date; not carried", path: "owner/insurance/\(i)", line: d.line)
                }
            }
            diver.insurances.append(Insurance(provider: String(provider.prefix(255)), expiresOn: expires))
        }
        guard diver.name != nil || diver.email != nil || diver.phone != nil || diver.bornOn != nil || !diver.insurances.isEmpty else { return }
        diver.uuid = identity("diver", d.id, index: 0)
        header.diver = diver
    }

    func validEmail(_ text: String?, path: String, line: Int) -> String? {
        guard let text else { return nil }
        if TextForms.isEmailAddress(text), text.unicodeScalars.count <= 255 { return text }
        report(.dropped, "uddf.email-invalid", "\"\(text)\" is not an email address; not carried", path: path, line: line)
        return nil
    }

    func finishGear(_ d: GearDraft) {
        let path = "equipment/\(d.index)"
        if d.tag == .divecomputer, let id = d.id {
            var device = Device()
            device.brand = d.brand
            device.model = d.model
            device.serial = d.serial
            device.name = d.name
            computers[id] = device
        }
        if let id = d.id, let v = d.volume, let litres = cylinderVolume(v, path: path, line: d.line) {
            gearVolumes[id] = litres
        }
        guard let name = requiredName(d.name, of: "a piece of equipment (<\(d.tag)>)", requiring: "a gear item", id: d.id, code: "uddf.gear-without-name", path: path, line: d.line) else { return }
        var g = GearItem(uuid: identity("gear", d.id, index: d.index), name: name, type: gearType(d))
        g.brand = d.brand
        g.serial = d.serial
        if d.tag == .tank {
            g.volume = d.id.flatMap { gearVolumes[$0] }?.doubleValue
            g.material = d.material.flatMap { CylinderMaterial(rawValue: $0.lowercased()) }
        }
        g.notes = paragraphs(d.notes)
        if let id = d.id { gearUUIDs[id] = g.uuid }
        header.gear.append(g)
    }

    private func gearType(_ d: GearDraft) -> GearType {
        switch d.tag {
        case .mask: return .mask
        case .fins: return .fins
        case .gloves: return .gloves
        case .boots: return .boots
        case .compass: return .compass
        case .knife: return .knife
        case .light: return .light
        case .camera, .videocamera: return .camera
        case .regulator: return .regulator
        case .rebreather: return .rebreather
        case .scooter: return .scooter
        case .buoyancycontroldevice: return .bcd
        case .divecomputer: return .computer
        case .tank: return .cylinder
        case .suit: return d.suitType?.lowercased().contains("dry") == true ? .drysuit : .wetsuit
        default: return .other
        }
    }

    func finishTrip(_ d: TripDraft) {
        let path = "trip/\(d.index)"
        guard let name = requiredName(d.name, of: "a trip", requiring: "a trip", id: d.id, code: "uddf.trip-without-name", path: path, line: d.line) else { return }
        var t = Trip(uuid: identity("trip", d.id, index: d.index), name: name)
        for part in d.parts {
            let partPath = "trippart/\(part.index)"
            var p = TripPart()
            p.startsOn = part.startDate.flatMap { DiveDateTime.parse($0)?.0.date }
            p.endsOn = part.endDate.flatMap { DiveDateTime.parse($0)?.0.date }
            if let place = part.location ?? part.name {
                p.location = Location(name: place, position: position(part.latitude, part.longitude, path: partPath, line: d.line))
                if let label = part.name, part.location != nil, label != place {
                    report(.dropped, "uddf.trippart-name", "the trip part's name \"\(label)\" differs from its location \"\(place)\"; a part has no name of its own, so it is not carried", path: partPath, line: d.line)
                }
            }
            if let type = part.typeAttribute {
                report(.dropped, "uddf.trippart-type", "the trip part's type \"\(type)\" has no member to carry it", path: partPath, line: d.line)
            }
            if part.hasVessel {
                report(.dropped, "uddf.vessel", "the trip part's <vessel> (a boat) is not carried; its operator is read as a contact", path: partPath, line: d.line)
            }
            for ref in part.links {
                linkedContacts.insert(ref)
                report(.dropped, "uddf.trippart-link", "the trip part links \"\(ref)\" (who ran the dives); a part records where the diver stayed, so the link is not carried", path: partPath, line: d.line)
            }
            guard p.startsOn != nil || p.endsOn != nil || p.location != nil || part.stay != nil else { continue }
            if let stay = part.stay {
                stayDrafts.append((stay, header.trips.count, t.parts.count))
            }
            t.parts.append(p)
        }
        t.notes = paragraphs(d.notes)
        if let id = d.id { tripUUIDs[id] = t.uuid }
        header.trips.append(t)
    }

    /// `<tankvolume>` in litres: below 1 it is the documented m³; at 1 or above a writer
    /// (Subsurface before 2025-09-30) already wrote litres.
    func cylinderVolume(_ v: DecimalNumber, path: String, line: Int) -> DecimalNumber? {
        guard !v.isZero, !v.isNegative else { return nil }
        if v < DecimalNumber(1) { return v.shifted(by: 3) }
        report(.resolved, "uddf.tankvolume-litres", "tank volume \(v) is 1 or more, which as cubic metres would be a cylinder of \(v.shifted(by: 3)) litres; read as litres", path: path, line: line)
        return v
    }
}

// MARK: Contacts

extension UDDFState {
    /// Builds `header.contacts` once the whole file is read: the bases in file order, then
    /// the shops, then the places trip parts stayed at, each folded by name into a contact
    /// read before it. A name-only base nothing links is a writer's placeholder and skipped.
    func finishContacts() {
        var contacts: [Contact] = []
        var byName: [String: Int] = [:]
        func key(_ name: String) -> String { name.folded }
        let stayNames = Set(stayDrafts.compactMap { $0.draft.name.map(key) })
        func add(_ draft: ContactDraft, role: ContactRole, uuid: String, path: String) -> Int? {
            guard let contact = makeContact(draft, role: role, uuid: uuid, path: path) else { return nil }
            contacts.append(contact)
            if byName[key(contact.name)] == nil { byName[key(contact.name)] = contacts.count - 1 }
            return contacts.count - 1
        }
        for (i, base) in baseDrafts.enumerated() {
            let path = "divebase/\(i)"
            let linked = base.id.map { linkedContacts.contains($0) } ?? false
            let named = base.name.map { stayNames.contains(key($0)) } ?? false
            if !linked && !named && !base.hasAddress && !base.hasContact && base.notes.isEmpty {
                report(.dropped, "uddf.divebase-placeholder", "the dive base \"\(base.name ?? "")\" carries only a name and nothing links it (Subsurface writes one such placeholder into every export); not carried", path: path, line: base.line)
                continue
            }
            _ = add(base, role: .diveCenter, uuid: identity("contact", base.id, index: i), path: path)
        }
        for (i, shop) in shopDrafts.enumerated() {
            _ = add(shop, role: .shop, uuid: identity("contact", shop.id, index: i), path: "shop/\(i)")
        }
        for (stay, tripIndex, partIndex) in stayDrafts {
            let path = "trippart/\(stay.partIndex)"
            let role: ContactRole = stay.kind == .liveaboard ? .liveaboard : .accommodation
            var target: Int?
            if let name = stay.name, let existing = byName[key(name)] {
                target = existing
                fold(stay, into: &contacts[existing], role: role, path: path)
            } else {
                let uuid = stay.kind == .liveaboard
                    ? Identity.uuid5(namespace: Identity.uddfNamespace, name: "contact:#\(stay.partIndex)")
                    : identity("contact", stay.id, index: stay.partIndex)
                target = add(stay, role: role, uuid: uuid, path: path)
            }
            if let target, tripIndex < header.trips.count, partIndex < header.trips[tripIndex].parts.count {
                header.trips[tripIndex].parts[partIndex].accommodationUUID = contacts[target].uuid
            }
        }
        header.contacts = contacts
    }

    private func makeContact(_ d: ContactDraft, role: ContactRole, uuid: String, path: String) -> Contact? {
        guard let rawName = d.name else {
            report(.dropped, "uddf.contact-without-name", "a <\(elementName(d.kind))> has no name, which a contact requires; it and every link to it are not carried", path: path, line: d.line)
            return nil
        }
        var c = Contact(uuid: uuid, name: String(rawName.prefix(255)))
        c.roles = [role]
        apply(d, to: &c, path: path, reportConflicts: false)
        return c
    }

    /// Takes what `d` states into `c`: members `c` lacks are filled, differing ones reported.
    private func apply(_ d: ContactDraft, to c: inout Contact, path: String, reportConflicts: Bool) {
        func take(_ value: String?, _ member: WritableKeyPath<Contact, String?>, _ label: String) {
            guard let value else { return }
            if let existing = c[keyPath: member] {
                if reportConflicts && existing != value {
                    report(.dropped, "uddf.contact-conflict", "the \(label) \"\(value)\" differs from the one \(c.name) already has; the first is kept", path: path, line: d.line)
                }
            } else {
                c[keyPath: member] = value
            }
        }
        let phones = d.phones + d.mobiles
        if let phone = phones.first {
            if phone.count <= 32 { take(phone, \.phone, "phone") } else {
                report(.dropped, "uddf.phone-too-long", "phone \"\(phone)\" is longer than 32 characters; not carried", path: path, line: d.line)
            }
        }
        for extra in phones.dropFirst() {
            report(.dropped, "uddf.contact-extra-phone", "a second phone \"\(extra)\" has no member to carry it", path: path, line: d.line)
        }
        if let email = d.emails.first { take(validEmail(email, path: path, line: d.line), \.email, "email") }
        for extra in d.emails.dropFirst() {
            report(.dropped, "uddf.contact-extra-email", "a second email \"\(extra)\" has no member to carry it", path: path, line: d.line)
        }
        if let site = d.homepages.first {
            if TextForms.isAbsoluteURI(site) && site.unicodeScalars.count <= 512 { take(site, \.website, "website") } else {
                report(.dropped, "uddf.homepage-invalid", "homepage \"\(site)\" is not an absolute address with its scheme; not carried", path: path, line: d.line)
            }
        }
        for extra in d.homepages.dropFirst() {
            report(.dropped, "uddf.contact-extra-homepage", "a second homepage \"\(extra)\" has no member to carry it", path: path, line: d.line)
        }
        if d.hasAddress {
            if let country = d.country {
                var a = Address(country: country)
                a.street = d.street; a.city = d.city; a.postcode = d.postcode; a.region = d.province
                if c.address == nil { c.address = a } else if reportConflicts && c.address != a {
                    report(.dropped, "uddf.contact-conflict", "the address differs from the one \(c.name) already has; the first is kept", path: path, line: d.line)
                }
            } else {
                report(.dropped, "uddf.address-without-country", "an address has no <country>, which an address requires; not carried", path: path, line: d.line)
            }
        }
        if !d.notes.isEmpty { take(d.notes.joined(separator: "\n\n"), \.notes, "notes") }
        for child in d.unread {
            report(.dropped, "uddf.contact-unread", "<\(child)> of \(c.name) has no member to carry it", path: path, line: d.line)
        }
    }

    private func fold(_ d: ContactDraft, into c: inout Contact, role: ContactRole, path: String) {
        if !c.roles.contains(role) { c.roles.append(role); c.roles.sort() }
        apply(d, to: &c, path: path, reportConflicts: true)
    }

    private func elementName(_ kind: ContactDraft.Kind) -> String {
        switch kind {
        case .base: return "divebase"
        case .shop: return "shop"
        case .accommodation: return "accomodation"
        case .liveaboard: return "operator"
        }
    }
}
