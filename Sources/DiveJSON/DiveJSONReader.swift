import DiveCore

/// Reads a DiveJSON 1.x document into the canonical model. Everything but the dives is parsed
/// first, so that the header is complete before the first dive (a writer may put the dives
/// before the records they refer to); each dive is parsed when it is handed out, from the
/// file mapped and released as it is read, so a large logbook is never held whole.
///
/// Every member DiveJSON 1.0 defines has a place in the model, each object's `extensions`
/// included. A member outside the format (a newer minor version's, a producer's mistake) is
/// reported `dropped` at its path; a value outside a closed vocabulary is read as absent (§5.6)
/// and reported. How the document spelled what it holds — member order, `20` for `20.0`,
/// empty lists — is kept as each record's ``SourceLayout``, so writing it back changes nothing.
///
/// The dives a umilog export carried with no start, under `extensions.umilog.undated_dives`
/// (DiveJSON's `dives` require `started_at`), are handed out after `dives`, and taken out of
/// the header's extensions.
public final class DiveJSONReader: DiveSource {
    /// The file as findings and errors name it.
    public let displayName: String
    /// The document's diver, records and source, read before the first dive.
    public private(set) var header = LogbookHeader()
    private var dives: [JSONNode] = []
    private var next_ = 0
    private var findings: [Finding] = []
    private let document: JSONNode
    /// The file and where each of its dives lies, when they are parsed one at a time.
    private var deferred: (file: MappedFile, marks: [JSONParser.Mark])?
    /// `extensions.umilog.undated_dives`, and how many of them were handed out.
    private var undated: [JSONNode] = []
    private var nextUndated = 0

    /// Opens the file at `path` and parses all of it but its dives.
    public convenience init(path: String, displayName: String? = nil) throws {
        let name = displayName ?? path
        let file = try MappedFile(path: path, displayName: name)
        var parser = JSONParser(bytes: file.bytes, file: name)
        let (document, marks) = try parser.parseDocument(deferring: "dives", release: file.release(before:))
        try self.init(document: document, duplicates: parser.duplicates, displayName: name)
        file.startOver()
        if !marks.isEmpty { deferred = (file, marks) }
    }

    /// Reads a document already parsed (by a validator that checked it first).
    public init(document: JSONNode, duplicates: [DuplicateMember], displayName name: String) throws {
        displayName = name
        self.document = document
        guard document.isObject else {
            throw DiveError("divejson.not-an-object", "a DiveJSON document is a JSON object; this file holds \(document.typeNameWithArticle)", at: SourceLocation(file: name, line: document.line, column: document.column))
        }
        guard document["format"]?.string == "divejson" else {
            throw DiveError("divejson.not-divejson", "the JSON has no \"format\": \"divejson\", so it is not a DiveJSON document", at: SourceLocation(file: name, line: document.line, column: document.column))
        }
        if let version = document["version"], let text = version.string, !text.hasPrefix("1.") {
            throw DiveError("divejson.version", "DiveJSON version \(text) is not one this reader knows (1.x)", at: SourceLocation(file: name, line: version.line, column: version.column))
        }
        for d in duplicates {
            reportDuplicate(d)
        }
        readHeader()
    }

    /// The next dive: the `dives` in order, then the undated dives umilog carried; `nil` after the last.
    public func next() throws -> Dive? {
        if let (file, marks) = deferred {
            while next_ < marks.count {
                let k = next_
                next_ += 1
                var parser = JSONParser(bytes: file.bytes, file: displayName, at: marks[k], path: [.member("dives"), .index(k)])
                let node = try parser.parseValue(endingAt: marks[k].end)
                file.release(before: marks[k].end)
                for d in parser.duplicates {
                    reportDuplicate(d)
                }
                if let dive = readDive(node, path: "$.dives[\(k)]", index: k) { return dive }
            }
            return nextUndatedDive(after: marks.count)
        }
        while next_ < dives.count {
            let node = dives[next_]
            next_ += 1
            if let dive = readDive(node, path: "$.dives[\(next_ - 1)]", index: next_ - 1) { return dive }
        }
        return nextUndatedDive(after: dives.count)
    }

    /// The next of `undated_dives`, which follow the document's `count` dives in record order.
    private func nextUndatedDive(after count: Int) -> Dive? {
        while nextUndated < undated.count {
            let k = nextUndated
            nextUndated += 1
            if let dive = readDive(undated[k], path: "$.extensions.umilog.undated_dives[\(k)]", index: count + k) { return dive }
        }
        return nil
    }

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    // MARK: Reporting

    /// A member name an object repeats: the first is read.
    private func reportDuplicate(_ d: DuplicateMember) {
        report(.dropped, "json.duplicate-member", "\"\(d.name)\" appears twice in one object (first on line \(d.firstLine)); the first is read", d.path, line: d.line, column: d.column)
    }

    fileprivate func report(_ kind: FindingKind, _ code: String, _ message: String, _ path: String, line: Int, column: Int) {
        findings.append(Finding(kind, code, message, at: SourceLocation(file: displayName, line: line, column: column, path: path)))
    }

    /// Reads `node` as an object, or reports it and gives `nil` when it is something else.
    fileprivate func object(_ node: JSONNode, _ path: String) -> Fields? {
        guard node.isObject else {
            report(.dropped, "divejson.wrong-type", "should be an object but is \(node.typeNameWithArticle); not read", path, line: node.line, column: node.column)
            return nil
        }
        return Fields(node: node, path: path, reader: self)
    }

    /// Reads each element of the array member `name` as an object.
    fileprivate func objects(_ f: inout Fields, _ name: String) -> [Fields] {
        guard let v = f.take(name) else { return [] }
        guard case .array(let elements) = v.value else {
            f.wrongType(v, name, "an array")
            return []
        }
        return elements.enumerated().compactMap { object($1, "\(f.path).\(name)[\($0)]") }
    }

    /// Reports a record that lacks a member it cannot exist without.
    fileprivate func incomplete(_ f: Fields, _ what: String, needs: String) {
        report(.dropped, "divejson.record-incomplete", "\(what) without \(needs) cannot be read; skipped", f.path, line: f.node.line, column: f.node.column)
    }

    // MARK: Shared records

    private func position(_ f: inout Fields, _ name: String) -> Position? {
        guard let v = f.take(name), var p = object(v, "\(f.path).\(name)") else { return nil }
        defer { p.done() }
        guard let la = p.number("latitude"), let lo = p.number("longitude") else {
            incomplete(p, "a position", needs: "both latitude and longitude"); return nil
        }
        var position = Position(latitude: la, longitude: lo)
        position.extensions = p.extensions()
        return position
    }

    private func location(_ f: inout Fields, _ name: String) -> Location? {
        guard let v = f.take(name), var l = object(v, "\(f.path).\(name)") else { return nil }
        defer { l.done() }
        guard let n = l.string("name") else { incomplete(l, "a location", needs: "a name"); return nil }
        var location = Location(name: n, position: position(&l, "position"))
        if let b = l.take("bbox"), var box = object(b, "\(l.path).bbox") {
            if let s = box.number("south"), let n = box.number("north"), let w = box.number("west"), let e = box.number("east") {
                location.bbox = BoundingBox(south: s, north: n, west: w, east: e)
                location.bbox?.extensions = box.extensions()
            } else {
                incomplete(box, "a bounding box", needs: "all of south, north, west and east")
            }
            box.done()
        }
        location.extensions = l.extensions()
        return location
    }

    private func storedFile(_ f: inout Fields) -> StoredFile? {
        defer { f.done() }
        guard let uuid = f.string("uuid"), let name = f.string("original_filename"), let type = f.string("content_type"),
              let size = f.integer("byte_size"), let sha = f.string("sha256") else {
            incomplete(f, "a stored file", needs: "uuid, original_filename, content_type, byte_size and sha256"); return nil
        }
        var file = StoredFile(uuid: uuid, originalFilename: name, contentType: type, byteSize: size, sha256: sha)
        file.archivePath = f.string("archive_path")
        file.extensions = f.extensions()
        return file
    }

    private func storedFile(_ f: inout Fields, _ name: String) -> StoredFile? {
        guard let v = f.take(name), var file = object(v, "\(f.path).\(name)") else { return nil }
        return storedFile(&file)
    }

    private func people(_ f: inout Fields, _ name: String) -> [PersonReference] {
        objects(&f, name).compactMap { p in
            var p = p
            defer { p.done() }
            guard let person = p.string("person_uuid") else { incomplete(p, "a person reference", needs: "person_uuid"); return nil }
            var ref = PersonReference(personUUID: person, role: p.vocabulary("role"))
            ref.extensions = p.extensions()
            return ref
        }
    }

    private func externalIDs(_ f: inout Fields) -> [ExternalID] {
        objects(&f, "external_ids").compactMap { x in
            var x = x
            defer { x.done() }
            guard let registry = x.string("registry"), let identifier = x.string("identifier") else {
                incomplete(x, "an external id", needs: "registry and identifier"); return nil
            }
            var id = ExternalID(registry: registry, identifier: identifier)
            id.extensions = x.extensions()
            return id
        }
    }

    // MARK: Header

    private func readHeader() {
        guard var root = object(document, "$") else { return }
        header.sourceFormat = "divejson"
        header.sourceVersion = root.string("version")
        _ = root.take("format")
        header.exportedAt = root.string("exported_at")
        if let g = root.take("generator"), let name = g["name"]?.string { header.sourceGenerator = Generator(name: name, version: g["version"]?.string) }
        for m in document.members {
            guard !["format", "version", "exported_at", "generator", "dives", "extensions"].contains(m.name),
                  let kind = SchemaShape.root.kind(of: m.name) else { continue }
            header.layout.collect(m.value, kind, path: m.name)
        }
        if let v = root.take("diver"), var d = object(v, "$.diver") { header.diver = readDiver(&d) }
        if let v = root.take("dives") {
            if case .array(let elements) = v.value { dives = elements } else { root.wrongType(v, "dives", "an array") }
        }
        header.trips = objects(&root, "trips").compactMap(readTrip)
        header.courses = objects(&root, "courses").compactMap(readCourse)
        header.sites = objects(&root, "sites").compactMap(readSite)
        header.species = objects(&root, "species").compactMap(readSpecies)
        header.gear = objects(&root, "gear").compactMap(readGear)
        header.gearSets = objects(&root, "gear_sets").compactMap(readGearSet)
        header.serviceSchedules = objects(&root, "gear_service_schedules").compactMap(readSchedule)
        header.serviceRecords = objects(&root, "gear_service_records").compactMap(readServiceRecord)
        header.certifications = objects(&root, "certifications").compactMap(readCertification)
        header.contacts = objects(&root, "contacts").compactMap(readContact)
        header.people = objects(&root, "people").compactMap(readPerson)
        header.extensions = root.extensions()
        takeUndatedDives()
        root.done()
    }

    /// Moves `extensions.umilog.undated_dives` out of the header's extensions into the dives to
    /// hand out (the `umilog` entry goes when nothing else is in it, as do the extensions).
    private func takeUndatedDives() {
        guard let own = document["extensions"]?["umilog"], let list = own["undated_dives"],
              case .object(var members)? = header.extensions,
              let k = members.firstIndex(where: { $0.name == "umilog" }), case .object(var entry) = members[k].value else { return }
        if case .array(let elements) = list.value {
            undated = elements
        } else {
            report(.dropped, "divejson.wrong-type", "\"undated_dives\" should be an array but is \(list.typeNameWithArticle); not read",
                   "$.extensions.umilog.undated_dives", line: list.line, column: list.column)
        }
        entry.removeAll { $0.name == "undated_dives" }
        if entry.isEmpty { members.remove(at: k) } else { members[k].value = .object(entry) }
        header.extensions = members.isEmpty ? nil : .object(members)
    }

    private func readDiver(_ d: inout Fields) -> Diver {
        var diver = Diver(uuid: d.string("uuid"), name: d.string("name"))
        diver.email = d.string("email")
        diver.phone = d.string("phone")
        diver.bornOn = d.date("born_on")
        diver.emergencyContacts = objects(&d, "emergency_contacts").compactMap { e in
            var e = e
            defer { e.done() }
            guard let name = e.string("name") else { incomplete(e, "an emergency contact", needs: "a name"); return nil }
            var contact = EmergencyContact(name: name)
            contact.phone = e.string("phone")
            contact.relationship = e.string("relationship")
            contact.extensions = e.extensions()
            return contact
        }
        diver.insurances = objects(&d, "insurances").compactMap { i in
            var i = i
            defer { i.done() }
            guard let provider = i.string("provider") else { incomplete(i, "an insurance", needs: "a provider"); return nil }
            var insurance = Insurance(provider: provider, number: i.string("number"), expiresOn: i.date("expires_on"))
            insurance.extensions = i.extensions()
            return insurance
        }
        diver.portraitFile = storedFile(&d, "portrait_file")
        diver.createdAt = d.dateTime("created_at")
        diver.extensions = d.extensions()
        d.done()
        return diver
    }

    private func readTrip(_ t: Fields) -> Trip? {
        var t = t
        defer { t.done() }
        guard let uuid = t.string("uuid"), let name = t.string("name") else { incomplete(t, "a trip", needs: "uuid and name"); return nil }
        var trip = Trip(uuid: uuid, name: name)
        trip.parts = objects(&t, "parts").map { p in
            var p = p
            defer { p.done() }
            var part = TripPart(startsOn: p.date("starts_on"), endsOn: p.date("ends_on"), location: location(&p, "location"))
            part.accommodationUUID = p.string("accommodation_uuid")
            part.extensions = p.extensions()
            return part
        }
        trip.people = people(&t, "people")
        trip.notes = t.string("notes")
        trip.createdAt = t.dateTime("created_at")
        trip.extensions = t.extensions()
        return trip
    }

    private func readCourse(_ c: Fields) -> Course? {
        var c = c
        defer { c.done() }
        guard let uuid = c.string("uuid"), let name = c.string("name") else { incomplete(c, "a course", needs: "uuid and name"); return nil }
        var course = Course(uuid: uuid, name: name)
        course.agency = c.vocabulary("agency")
        course.agencyOther = c.string("agency_other")
        course.status = c.vocabulary("status")
        course.startsOn = c.date("starts_on")
        course.endsOn = c.date("ends_on")
        course.instructorNumber = c.string("instructor_number")
        course.contactUUID = c.string("contact_uuid")
        course.people = people(&c, "people")
        course.notes = c.string("notes")
        course.createdAt = c.dateTime("created_at")
        course.extensions = c.extensions()
        return course
    }

    private func readSite(_ s: Fields) -> Site? {
        var s = s
        defer { s.done() }
        guard let uuid = s.string("uuid"), let name = s.string("name") else { incomplete(s, "a site", needs: "uuid and name"); return nil }
        var site = Site(uuid: uuid, name: name)
        site.otherNames = s.strings("other_names")
        site.location = location(&s, "location")
        site.position = position(&s, "position")
        site.externalIDs = externalIDs(&s)
        site.depthFrom = s.number("depth_from")
        site.depthTo = s.number("depth_to")
        site.waterType = s.vocabulary("water_type")
        site.altitude = s.integer("altitude")
        site.entryTypes = s.vocabularyList("entry_types")
        site.tags = s.strings("tags")
        site.notes = s.string("notes")
        site.createdAt = s.dateTime("created_at")
        site.extensions = s.extensions()
        return site
    }

    private func readSpecies(_ s: Fields) -> Species? {
        var s = s
        defer { s.done() }
        guard let uuid = s.string("uuid") else { incomplete(s, "a species", needs: "a uuid"); return nil }
        var species = Species(uuid: uuid)
        species.externalIDs = externalIDs(&s)
        species.scientificName = s.string("scientific_name")
        species.commonName = s.string("common_name")
        species.rank = s.string("rank")
        species.createdAt = s.dateTime("created_at")
        species.extensions = s.extensions()
        return species
    }

    private func readGear(_ g: Fields) -> GearItem? {
        var g = g
        defer { g.done() }
        guard let uuid = g.string("uuid"), let name = g.string("name") else { incomplete(g, "a gear item", needs: "uuid and name"); return nil }
        var item = GearItem(uuid: uuid, name: name)
        item.brand = g.string("brand")
        item.serial = g.string("serial")
        item.type = g.vocabulary("type")
        item.volume = g.number("volume")
        item.workingPressure = g.number("working_pressure")
        item.material = g.vocabulary("material")
        item.notes = g.string("notes")
        item.rented = g.bool("rented")
        item.archived = g.bool("archived")
        item.archivedAt = g.dateTime("archived_at")
        item.diveCount = g.integer("dive_count")
        item.diveTime = g.integer("dive_time")
        item.createdAt = g.dateTime("created_at")
        item.extensions = g.extensions()
        return item
    }

    private func readGearSet(_ g: Fields) -> GearSet? {
        var g = g
        defer { g.done() }
        guard let uuid = g.string("uuid"), let name = g.string("name") else { incomplete(g, "a gear set", needs: "uuid and name"); return nil }
        var set = GearSet(uuid: uuid, name: name)
        set.weight = g.number("weight")
        set.gearUUIDs = g.strings("gear_uuids")
        set.createdAt = g.dateTime("created_at")
        set.extensions = g.extensions()
        return set
    }

    private func readSchedule(_ s: Fields) -> GearServiceSchedule? {
        var s = s
        defer { s.done() }
        guard let uuid = s.string("uuid"), let gear = s.string("gear_uuid"), let type: ServiceType = s.vocabulary("type"),
              let starts = s.date("starts_on") else {
            incomplete(s, "a service schedule", needs: "uuid, gear_uuid, a known type and starts_on"); return nil
        }
        var schedule = GearServiceSchedule(uuid: uuid, gearUUID: gear, type: type, startsOn: starts)
        schedule.label = s.string("label")
        schedule.intervalMonths = s.integer("interval_months")
        schedule.intervalDives = s.integer("interval_dives")
        schedule.intervalHours = s.integer("interval_hours")
        schedule.diveCountAtStart = s.integer("dive_count_at_start")
        schedule.diveTimeAtStart = s.integer("dive_time_at_start")
        schedule.active = s.bool("active")
        schedule.lastServiceOn = s.date("last_service_on")
        schedule.nextDueOn = s.date("next_due_on")
        schedule.nextDueAtDiveCount = s.integer("next_due_at_dive_count")
        schedule.nextDueAtDiveTime = s.integer("next_due_at_dive_time")
        schedule.createdAt = s.dateTime("created_at")
        schedule.extensions = s.extensions()
        return schedule
    }

    private func readServiceRecord(_ r: Fields) -> GearServiceRecord? {
        var r = r
        defer { r.done() }
        guard let uuid = r.string("uuid"), let gear = r.string("gear_uuid"), let type: ServiceType = r.vocabulary("type"),
              let on = r.date("serviced_on") else {
            incomplete(r, "a service record", needs: "uuid, gear_uuid, a known type and serviced_on"); return nil
        }
        var record = GearServiceRecord(uuid: uuid, gearUUID: gear, type: type, servicedOn: on)
        record.scheduleUUID = r.string("gear_service_schedule_uuid")
        record.diveCountAtService = r.integer("dive_count_at_service")
        record.diveTimeAtService = r.integer("dive_time_at_service")
        record.label = r.string("label")
        record.performedBy = r.string("performed_by")
        record.contactUUID = r.string("contact_uuid")
        record.notes = r.string("notes")
        record.createdAt = r.dateTime("created_at")
        record.extensions = r.extensions()
        return record
    }

    private func readCertification(_ c: Fields) -> Certification? {
        var c = c
        defer { c.done() }
        guard let uuid = c.string("uuid"), let agency: Agency = c.vocabulary("agency"), let name = c.string("name") else {
            incomplete(c, "a certification", needs: "uuid, a known agency and name"); return nil
        }
        var cert = Certification(uuid: uuid, agency: agency, name: name)
        cert.agencyOther = c.string("agency_other")
        cert.number = c.string("number")
        cert.certifiedOn = c.date("certified_on")
        cert.expiresOn = c.date("expires_on")
        cert.instructorUUID = c.string("instructor_uuid")
        cert.instructorNumber = c.string("instructor_number")
        cert.contactUUID = c.string("contact_uuid")
        cert.courseUUID = c.string("course_uuid")
        cert.notes = c.string("notes")
        cert.frontFile = storedFile(&c, "front_file")
        cert.backFile = storedFile(&c, "back_file")
        cert.createdAt = c.dateTime("created_at")
        cert.extensions = c.extensions()
        return cert
    }

    private func readContact(_ c: Fields) -> Contact? {
        var c = c
        defer { c.done() }
        guard let uuid = c.string("uuid"), let name = c.string("name") else { incomplete(c, "a contact", needs: "uuid and name"); return nil }
        var contact = Contact(uuid: uuid, name: name)
        contact.roles = c.vocabularyList("roles")
        contact.phone = c.string("phone")
        contact.email = c.string("email")
        contact.website = c.string("website")
        if let v = c.take("address"), var a = object(v, "\(c.path).address") {
            if let country = a.string("country") {
                var address = Address(country: country)
                address.street = a.string("street"); address.city = a.string("city")
                address.postcode = a.string("postcode"); address.region = a.string("region")
                address.extensions = a.extensions()
                contact.address = address
            } else {
                incomplete(a, "an address", needs: "a country")
            }
            a.done()
        }
        contact.position = position(&c, "position")
        contact.notes = c.string("notes")
        contact.createdAt = c.dateTime("created_at")
        contact.extensions = c.extensions()
        return contact
    }

    private func readPerson(_ p: Fields) -> Person? {
        var p = p
        defer { p.done() }
        guard let uuid = p.string("uuid"), let name = p.string("name") else { incomplete(p, "a person", needs: "uuid and name"); return nil }
        var person = Person(uuid: uuid, name: name)
        person.email = p.string("email")
        person.phone = p.string("phone")
        person.notes = p.string("notes")
        person.createdAt = p.dateTime("created_at")
        person.extensions = p.extensions()
        return person
    }

    // MARK: Dives

    private func readDive(_ node: JSONNode, path: String, index: Int) -> Dive? {
        guard var d = object(node, path) else { return nil }
        defer { d.done() }
        guard let uuid = d.string("uuid") else {
            report(.dropped, "divejson.dive-without-uuid", "a dive has no uuid, which a dive requires; not read", path, line: node.line, column: node.column)
            return nil
        }
        var dive = Dive(uuid: uuid, startedAt: d.dateTime("started_at"))
        dive.provenance = Provenance(format: "divejson", file: displayName, sourceID: uuid, index: index, line: node.line)
        dive.layout.collect(node, Self.diveShape, path: "")
        dive.number = d.integer("number")
        dive.submergedTime = d.integer("submerged_time")
        dive.notes = d.string("notes")
        dive.type = d.vocabulary("type")
        dive.rating = d.integer("rating")
        dive.tags = d.strings("tags")
        dive.maxDepth = d.number("max_depth")
        dive.avgDepth = d.number("avg_depth")
        dive.bottomTemperature = d.number("bottom_temperature")
        dive.visibility = d.number("visibility")
        dive.weight = d.number("weight")
        dive.waterType = d.vocabulary("water_type")
        dive.altitude = d.integer("altitude")
        dive.airTemperature = d.number("air_temperature")
        dive.current = d.vocabulary("current")
        dive.waves = d.vocabulary("waves")
        dive.weather = d.vocabulary("weather")
        dive.entryType = d.vocabulary("entry_type")
        dive.boatName = d.string("boat_name")
        dive.entryPosition = position(&d, "entry_position")
        dive.exitPosition = position(&d, "exit_position")
        dive.tripUUID = d.string("trip_uuid")
        dive.courseUUID = d.string("course_uuid")
        dive.contactUUID = d.string("contact_uuid")
        dive.siteUUIDs = d.strings("site_uuids")
        dive.gearUUIDs = d.strings("gear_uuids")
        dive.sightings = objects(&d, "sightings").compactMap { s in
            var s = s
            defer { s.done() }
            guard let species = s.string("species_uuid") else { incomplete(s, "a sighting", needs: "species_uuid"); return nil }
            var sighting = Sighting(speciesUUID: species, count: s.integer("count"))
            sighting.abundance = s.vocabulary("abundance")
            sighting.notes = s.string("notes")
            sighting.extensions = s.extensions()
            return sighting
        }
        dive.people = people(&d, "people")
        dive.cylinders = objects(&d, "cylinders").map { c in
            var c = c
            defer { c.done() }
            var cyl = Cylinder()
            cyl.volume = c.number("volume")
            cyl.startPressure = c.number("start_pressure")
            cyl.endPressure = c.number("end_pressure")
            cyl.oxygen = c.number("oxygen")
            cyl.helium = c.number("helium")
            cyl.ppo2Limit = c.number("ppo2_limit")
            cyl.gasNumber = c.integer("gas_number")
            cyl.role = c.vocabulary("role")
            cyl.usage = c.vocabulary("usage")
            cyl.gearUUID = c.string("gear_uuid")
            (cyl.gasName, cyl.extensions) = Self.takingGasName(c.extensions())
            return cyl
        }
        dive.recordings = objects(&d, "recordings").map(readRecording)
        dive.createdAt = d.dateTime("created_at")
        dive.extensions = d.extensions()
        return dive
    }

    /// A cylinder's `umilog.gas_name` (the gas's name where it says more than the mix, which
    /// umilog's writer puts there), taken out of its extensions; what is left, `nil` when nothing.
    static func takingGasName(_ extensions: ExtensionValue?) -> (String?, ExtensionValue?) {
        guard case .object(var members)? = extensions, let k = members.firstIndex(where: { $0.name == "umilog" }),
              case .object(var own) = members[k].value, let g = own.firstIndex(where: { $0.name == "gas_name" }),
              case .string(let name) = own[g].value else { return (nil, extensions) }
        own.remove(at: g)
        if own.isEmpty { members.remove(at: k) } else { members[k].value = .object(own) }
        return (name, members.isEmpty ? nil : .object(members))
    }

    private static let diveShape: SchemaShape = {
        guard case .array(.object(let shape)) = SchemaShape.root.kind(of: "dives") else { fatalError("the schema defines dives") }
        return shape
    }()

    private func readRecording(_ r: Fields) -> Recording {
        var r = r
        defer { r.done() }
        var rec = Recording()
        if let v = r.take("device"), var d = object(v, "\(r.path).device") {
            var device = Device()
            device.brand = d.string("brand"); device.model = d.string("model"); device.serial = d.string("serial")
            device.firmware = d.string("firmware"); device.name = d.string("name")
            device.diveNumber = d.integer("dive_number")
            device.extensions = d.extensions()
            d.done()
            rec.device = device
        }
        rec.mode = r.vocabulary("mode")
        if let v = r.take("deco_model"), var m = object(v, "\(r.path).deco_model") {
            var model = DecoModel()
            model.algorithm = m.string("algorithm"); model.name = m.string("name")
            model.gfLow = m.integer("gf_low"); model.gfHigh = m.integer("gf_high")
            model.conservatism = m.integer("conservatism")
            model.extensions = m.extensions()
            m.done()
            rec.decoModel = model
        }
        rec.salinity = r.vocabulary("salinity")
        rec.startedAt = r.dateTime("started_at")
        rec.surfacePressure = r.number("surface_pressure")
        rec.cnsStart = r.number("cns_start")
        rec.cnsEnd = r.number("cns_end")
        rec.otuStart = r.number("otu_start")
        rec.otuEnd = r.number("otu_end")
        rec.sourceFiles = objects(&r, "source_files").compactMap { f in var f = f; return storedFile(&f) }
        if let v = r.take("profile"), var p = object(v, "\(r.path).profile") {
            var profile = Profile()
            profile.duration = p.integer("duration") ?? 0
            profile.depth = series(&p, "depth"); profile.ceiling = series(&p, "ceiling"); profile.temperature = series(&p, "temperature")
            profile.pressures = objects(&p, "pressures").compactMap { s in
                var s = s
                defer { s.done() }
                guard let g = s.integer("gas_number"), let series = series(&s) else { incomplete(s, "a pressure channel", needs: "gas_number, times and values"); return nil }
                return PressureSeries(gasNumber: g, series: series)
            }
            profile.ndl = series(&p, "ndl"); profile.tts = series(&p, "tts"); profile.ppo2 = series(&p, "ppo2"); profile.cns = series(&p, "cns")
            profile.gradientFactor = series(&p, "gradient_factor"); profile.surfaceGradientFactor = series(&p, "surface_gradient_factor")
            profile.events = objects(&p, "events").compactMap { e in
                var e = e
                defer { e.done() }
                guard let t = e.integer("time") else { incomplete(e, "an event", needs: "a time"); return nil }
                var event = Event(time: t, type: e.vocabulary("type"), gasNumber: e.integer("gas_number"), label: e.string("label"))
                event.extensions = e.extensions()
                return event
            }
            profile.extensions = p.extensions()
            p.done()
            rec.profile = profile
        }
        rec.extensions = r.extensions()
        return rec
    }

    private func series(_ f: inout Fields, _ name: String) -> Series? {
        guard let v = f.take(name), var s = object(v, "\(f.path).\(name)") else { return nil }
        defer { s.done() }
        return series(&s)
    }

    /// The channel in `s`'s `times` and `values`; `nil`, reported, when they do not pair up.
    private func series(_ s: inout Fields) -> Series? {
        let times = s.integers("times"), values = s.integers("values")
        guard let times, let values, times.count == values.count else {
            incomplete(s, "a profile channel", needs: "integer times and values of one length"); return nil
        }
        var series = Series(times: times, values: values)
        series.extensions = s.extensions()
        return series
    }
}

/// One JSON object being read: hands out members by name and remembers which were taken, so
/// that `done()` can report every member the model has no place for.
private struct Fields {
    let node: JSONNode
    let path: String
    unowned let reader: DiveJSONReader
    private var taken: [String] = []

    init(node: JSONNode, path: String, reader: DiveJSONReader) {
        self.node = node; self.path = path; self.reader = reader
    }

    /// The member named `name`, marked as read.
    mutating func take(_ name: String) -> JSONNode? {
        taken.append(name)
        return node[name]
    }

    /// Reports the members nobody took.
    func done() {
        for m in node.members where !taken.contains(m.name) {
            reader.report(.dropped, "divejson.member-not-carried", "\"\(m.name)\" is not carried by umilog's logbook model",
                          path + "." + m.name, line: m.line, column: m.column)
        }
    }

    func wrongType(_ v: JSONNode, _ name: String, _ expected: String) {
        reader.report(.dropped, "divejson.wrong-type", "\"\(name)\" should be \(expected) but is \(v.typeNameWithArticle); not read",
                      path + "." + name, line: v.line, column: v.column)
    }

    mutating func string(_ name: String) -> String? {
        guard let v = take(name) else { return nil }
        if let s = v.string { return s }
        wrongType(v, name, "a string")
        return nil
    }

    mutating func number(_ name: String) -> Double? {
        guard let v = take(name) else { return nil }
        guard let t = v.numberText, let d = Double(t) else { wrongType(v, name, "a number"); return nil }
        guard d.isFinite else {
            reader.report(.dropped, "divejson.number-out-of-range", "\"\(name)\" is \(t), beyond what a number can hold; not read",
                          path + "." + name, line: v.line, column: v.column)
            return nil
        }
        if d == 0, t.contains(where: { $0 >= "1" && $0 <= "9" }), let e = t.firstIndex(where: { $0 == "e" || $0 == "E" }),
           t[..<e].contains(where: { $0 >= "1" && $0 <= "9" }) {
            reader.report(.resolved, "divejson.number-underflow", "\"\(name)\" is \(t), smaller than a number can hold; read as 0",
                          path + "." + name, line: v.line, column: v.column)
        }
        return d
    }

    mutating func integer(_ name: String) -> Int? {
        guard let v = take(name) else { return nil }
        if let i = v.integer { return i }
        wrongType(v, name, "an integer")
        return nil
    }

    mutating func bool(_ name: String) -> Bool? {
        guard let v = take(name) else { return nil }
        if case .bool(let b) = v.value { return b }
        wrongType(v, name, "true or false")
        return nil
    }

    mutating func strings(_ name: String) -> [String] {
        guard let v = take(name) else { return [] }
        guard case .array(let elements) = v.value else { wrongType(v, name, "an array of strings"); return [] }
        return elements.compactMap { e in
            if let s = e.string { return s }
            wrongType(e, name, "an array of strings")
            return nil
        }
    }

    /// An array of integers, or `nil` (reported) when it is not one.
    mutating func integers(_ name: String) -> [Int]? {
        guard let v = take(name) else { return nil }
        guard case .array(let elements) = v.value else { wrongType(v, name, "an array of integers"); return nil }
        var out: [Int] = []
        out.reserveCapacity(elements.count)
        for e in elements {
            guard let i = e.integer else { wrongType(e, name, "an array of integers"); return nil }
            out.append(i)
        }
        return out
    }

    /// A value of a closed vocabulary; one this reader does not know reads as absent (§5.6), reported.
    mutating func vocabulary<T: RawRepresentable>(_ name: String) -> T? where T.RawValue == String {
        guard let text = string(name) else { return nil }
        if let v = T(rawValue: text) { return v }
        let n = node[name]!
        reader.report(.absent, "divejson.unknown-value", "\"\(name)\": \"\(text)\" is not a value this reader knows; read as not recorded",
                      path + "." + name, line: n.line, column: n.column)
        return nil
    }

    /// A list of vocabulary values; unknown ones are left out, reported.
    mutating func vocabularyList<T: RawRepresentable>(_ name: String) -> [T] where T.RawValue == String {
        let n = node[name]
        return strings(name).compactMap { text in
            if let v = T(rawValue: text) { return v }
            reader.report(.absent, "divejson.unknown-value", "\"\(name)\" holds \"\(text)\", not a value this reader knows; left out",
                          path + "." + name, line: n?.line ?? node.line, column: n?.column ?? node.column)
            return nil
        }
    }

    mutating func dateTime(_ name: String) -> DiveDateTime? {
        guard let text = string(name) else { return nil }
        if let (v, _) = DiveDateTime.parse(text) { return v }
        let n = node[name]!
        reader.report(.dropped, "divejson.datetime-invalid", "\"\(name)\": \"\(text)\" is not a date-time; not read",
                      path + "." + name, line: n.line, column: n.column)
        return nil
    }

    mutating func date(_ name: String) -> LocalDate? {
        guard let text = string(name) else { return nil }
        if let (v, _) = DiveDateTime.parse(text), v.time == nil { return v.date }
        let n = node[name]!
        reader.report(.dropped, "divejson.date-invalid", "\"\(name)\": \"\(text)\" is not a date (yyyy-mm-dd); not read",
                      path + "." + name, line: n.line, column: n.column)
        return nil
    }

    /// The object's `extensions`, carried untouched.
    mutating func extensions() -> ExtensionValue? { take("extensions").map(extensionValue) }
}

/// A parsed JSON value as an opaque extension value.
func extensionValue(_ node: JSONNode) -> ExtensionValue {
    switch node.value {
    case .object(let members): return .object(members.map { .init($0.name, extensionValue($0.value)) })
    case .array(let elements): return .array(elements.map(extensionValue))
    case .string(let s): return .string(s)
    case .number(let n): return .number(n)
    case .bool(let b): return .bool(b)
    case .null: return .null
    }
}
