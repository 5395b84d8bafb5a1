import DiveCore

/// Writes a DiveJSON 1.0 document from the canonical model, streaming: `format`, `version`,
/// `exported_at`, `generator` and `diver` first, then each dive as it is handed over, then
/// the collections the dives refer to. Members come in the schema's order; a value the model
/// does not hold is omitted, never written as `null`.
///
/// A dive with no start has no place in `dives` (`started_at` is required): it is written under
/// the document's `extensions.umilog.undated_dives`, which umilog's reader hands back as a dive
/// and other readers ignore (`docs/umilog-extension.md`), so that a backup loses no dive.
public final class DiveJSONWriter {
    private var out: JSONEmitter
    private let generator: Generator
    private let exportedAt: String
    private var started = false
    private var divesOpen = false
    private var findings: [Finding] = []

    /// - Parameters:
    ///   - exportedAt: the export instant with its offset (RFC 3339).
    public init(sink: ByteSink, generator: Generator, exportedAt: String) {
        out = JSONEmitter(sink: sink)
        self.generator = generator
        self.exportedAt = exportedAt
    }

    /// Findings about what the document could not carry, since the last call.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// Whether the diver went out ahead of the dives (the document's head is streamed first).
    private var wroteDiver = false
    /// Dives handed over so far, for the path of a dive with no provenance.
    private var divesSeen = 0
    private var divesWritten = 0
    /// `dives/N/member` of every member a reader computed (`extensions.divejson.inferred`).
    private var inferredPaths: [String] = []
    /// The dives with no start, held until ``finish(header:)`` writes them under the document's
    /// `extensions.umilog.undated_dives`: they are rare, and the extensions come last.
    private var undated: [Dive] = []

    /// A `dropped` finding about `dive`, at its source file, line and record path.
    private func report(_ dive: Dive, _ code: String, _ message: String) {
        let p = dive.provenance
        findings.append(Finding(.dropped, code, message, at: SourceLocation(file: p?.file, line: p?.line, path: dive.sourcePath(else: divesSeen))))
    }

    private func begin(_ header: LogbookHeader) {
        guard !started else { return }
        started = true
        out.beginObject()
        out.key("format"); out.string("divejson")
        out.key("version"); out.string("1.0")
        out.key("exported_at"); out.string(exportedAt)
        out.key("generator"); out.beginObject()
        out.key("name"); out.string(generator.name)
        if let v = generator.version { out.key("version"); out.string(v) }
        out.endObject()
        if let diver = header.diver {
            out.beginRecord(header.layout)
            write(diver)
            out.endRecord()
            wroteDiver = true
        }
    }

    /// Writes one dive. A dive with no start cannot go in `dives` (`started_at` is required):
    /// it is kept for `extensions.umilog.undated_dives`, and reported `resolved`.
    public func write(_ dive: Dive, header: LogbookHeader) throws {
        begin(header)
        defer { divesSeen += 1 }
        guard let start = dive.startedAt else {
            let p = dive.provenance
            findings.append(Finding(.resolved, "json.dive-without-start",
                                    "the dive has no start date, which a dive in DiveJSON's dives requires; written under extensions.umilog.undated_dives[\(undated.count)] instead, where umilog reads it back as a dive (other DiveJSON readers ignore it)",
                                    at: SourceLocation(file: p?.file, line: p?.line, path: dive.sourcePath(else: divesSeen))))
            undated.append(dive)
            return
        }
        if !divesOpen {
            divesOpen = true
            out.key("dives"); out.beginArray()
        }
        write(dive, start: start)
        for name in dive.inferred { inferredPaths.append("dives/\(divesWritten)/\(name)") }
        divesWritten += 1
        try out.flushIfLarge()
    }

    /// Closes the dives and writes the header's collections and the provenance block.
    public func finish(header: LogbookHeader) throws {
        begin(header)
        if !wroteDiver, header.diver != nil {
            findings.append(Finding(.dropped, "json.diver-not-carried",
                                    "the diver comes from an input after the first dive was written, and the document's head is already out; not written (convert that input first)",
                                    at: SourceLocation(path: "diver")))
        }
        if divesOpen { out.endArray() }
        out.beginRecord(header.layout)
        list("trips", header.trips, write)
        list("courses", header.courses, write)
        list("sites", header.sites, write)
        list("species", header.species, write)
        list("gear", header.gear, write)
        list("gear_sets", header.gearSets, write)
        list("gear_service_schedules", header.serviceSchedules, write)
        list("gear_service_records", header.serviceRecords, write)
        list("certifications", header.certifications, write)
        list("contacts", header.contacts, write)
        list("people", header.people, write)
        out.endRecord()
        var extensions = header.extensions
        if extensions == nil, let format = header.sourceFormat, format != "divejson" {
            extensions = convertedFrom(format, header)
        }
        write(documentExtensions: extensions)
        out.endObject()
        try out.finish()
    }

    /// The document extensions of a conversion: DiveJSON's `converted_from` block, and what the
    /// source says of its writer beyond a name and a version under umilog's own key.
    private func convertedFrom(_ format: String, _ header: LogbookHeader) -> ExtensionValue {
        var divejson: [ExtensionValue.Member] = [.init("converted_from", .string(format))]
        if let v = header.sourceVersion { divejson.append(.init(header.sourceVersionKey ?? "\(format)_version", .string(v))) }
        if let g = header.sourceGenerator {
            var generator: [ExtensionValue.Member] = [.init("name", .string(g.name))]
            if let v = g.version { generator.append(.init("version", .string(v))) }
            divejson.append(.init("source_generator", .object(generator)))
        }
        let inferred = inferredPaths + undated.enumerated().flatMap { k, d in
            d.inferred.map { "extensions/umilog/undated_dives/\(k)/\($0)" }
        }
        if !inferred.isEmpty { divejson.append(.init("inferred", .array(inferred.map(ExtensionValue.string)))) }
        var members: [ExtensionValue.Member] = [.init("divejson", .object(divejson))]
        if let g = header.sourceGenerator, g.type != nil || g.writtenAt != nil || g.manufacturer != nil {
            var own: [ExtensionValue.Member] = []
            if let v = g.type { own.append(.init("type", .string(v))) }
            if let v = g.writtenAt { own.append(.init("written_at", .string(v))) }
            if let v = g.manufacturer { own.append(.init("manufacturer", .string(v))) }
            members.append(.init("umilog", .object([.init("source_generator", .object(own))])))
        }
        return .object(members)
    }

    /// The document's `extensions`, with the dives that have no start as `undated_dives` last in
    /// its `umilog` entry (made when there is none). Where that entry cannot be an object (the
    /// header's extensions, or its `umilog`, are another value), they are reported lost.
    private func write(documentExtensions extensions: ExtensionValue?) {
        guard !undated.isEmpty else {
            if let extensions { out.key("extensions"); write(extensions) }
            return
        }
        var members: [ExtensionValue.Member] = []
        switch extensions {
        case .object(let m)?: members = m
        case nil: break
        case let other?:
            out.key("extensions"); write(other)
            undatedNotCarried("the document's extensions are not an object")
            return
        }
        if let own = members.first(where: { $0.name == "umilog" }) {
            guard case .object = own.value else {
                out.key("extensions"); write(.object(members))
                undatedNotCarried("the document's extensions.umilog is not an object")
                return
            }
        }
        out.key("extensions"); out.beginObject()
        var wroteOwn = false
        for m in members {
            guard m.name == "umilog", !wroteOwn, case .object(let own) = m.value else { out.key(m.name); write(m.value); continue }
            out.key("umilog"); out.beginObject()
            for o in own where o.name != "undated_dives" { out.key(o.name); write(o.value) }
            writeUndated()
            out.endObject()
            wroteOwn = true
        }
        if !wroteOwn {
            out.key("umilog"); out.beginObject()
            writeUndated()
            out.endObject()
        }
        out.endObject()
    }

    private func writeUndated() {
        out.key("undated_dives"); out.beginArray()
        for d in undated { write(d, start: nil) }
        out.endArray()
    }

    private func undatedNotCarried(_ why: String) {
        let n = undated.count
        findings.append(Finding(.dropped, "json.undated-dives-not-carried",
                                "\(why), so the \(n == 1 ? "dive" : "\(n) dives") with no start date cannot be written under extensions.umilog.undated_dives; not carried",
                                at: SourceLocation(path: "extensions")).losing(n))
    }

    // MARK: Members

    private func write(_ v: ExtensionValue) {
        switch v {
        case .object(let members):
            out.beginObject()
            for m in members { out.key(m.name); write(m.value) }
            out.endObject()
        case .array(let elements):
            out.beginArray()
            elements.forEach(write)
            out.endArray()
        case .string(let s): out.string(s)
        case .number(let n): out.raw(n)
        case .bool(let b): out.bool(b)
        case .null: out.raw("null")
        }
    }

    private func member(_ name: String, _ value: String?) { if let value { out.key(name); out.string(value) } }
    private func member(_ name: String, _ value: Int?) { if let value { out.key(name); out.integer(value) } }
    private func member(_ name: String, _ value: Double?) { if let value { out.key(name); out.number(value) } }
    private func member(_ name: String, _ value: Bool?) { if let value { out.key(name); out.bool(value) } }
    private func member(_ name: String, _ value: LocalDate?) { if let value { out.key(name); out.dateTime(DiveDateTime(date: value)) } }
    private func member(_ name: String, _ value: DiveDateTime?) { if let value { out.key(name); out.dateTime(value) } }
    private func member<T: RawRepresentable>(_ name: String, _ value: T?) where T.RawValue == String {
        if let value { out.key(name); out.string(value.rawValue) }
    }
    private func member(_ name: String, _ value: ExtensionValue?) { if let value { out.key(name); write(value) } }
    private func strings(_ name: String, _ values: [String]) {
        guard !values.isEmpty || out.keepsEmptyList(name) else { return }
        out.key(name); out.beginArray(); values.forEach { out.string($0) }; out.endArray()
    }
    /// A non-empty array of objects.
    private func list<T>(_ name: String, _ values: [T], _ write: (T) -> Void) {
        guard !values.isEmpty || out.keepsEmptyList(name) else { return }
        out.key(name); out.beginArray(); values.forEach(write); out.endArray()
    }
    /// An object member, written by `body` between its braces.
    private func object(_ name: String, _ body: () -> Void) {
        out.key(name); out.beginObject(); body(); out.endObject()
    }

    private func write(_ p: Position) {
        out.beginObject()
        out.key("latitude"); out.number(p.latitude)
        out.key("longitude"); out.number(p.longitude)
        member("extensions", p.extensions)
        out.endObject()
    }

    private func member(_ name: String, _ p: Position?) { if let p { out.key(name); write(p) } }

    private func write(_ f: StoredFile) {
        out.beginObject()
        member("uuid", f.uuid)
        member("original_filename", f.originalFilename)
        member("content_type", f.contentType)
        member("byte_size", f.byteSize)
        member("sha256", f.sha256)
        member("archive_path", f.archivePath)
        member("extensions", f.extensions)
        out.endObject()
    }

    private func member(_ name: String, _ f: StoredFile?) { if let f { out.key(name); write(f) } }

    private func write(_ p: PersonReference) {
        out.beginObject()
        member("person_uuid", p.personUUID)
        member("role", p.role)
        member("extensions", p.extensions)
        out.endObject()
    }

    private func write(_ x: ExternalID) {
        out.beginObject()
        member("registry", x.registry)
        member("identifier", x.identifier)
        member("extensions", x.extensions)
        out.endObject()
    }

    private func write(_ d: Diver) {
        object("diver") {
            member("uuid", d.uuid)
            member("name", d.name)
            member("email", d.email)
            member("phone", d.phone)
            member("born_on", d.bornOn)
            list("emergency_contacts", d.emergencyContacts) { e in
                out.beginObject()
                member("name", e.name)
                member("phone", e.phone)
                member("relationship", e.relationship)
                member("extensions", e.extensions)
                out.endObject()
            }
            list("insurances", d.insurances) { i in
                out.beginObject()
                member("provider", i.provider)
                member("number", i.number)
                member("expires_on", i.expiresOn)
                member("extensions", i.extensions)
                out.endObject()
            }
            member("portrait_file", d.portraitFile)
            member("created_at", d.createdAt)
            member("extensions", d.extensions)
        }
    }

    /// A dive; `start` is `nil` only for one of `undated_dives`.
    private func write(_ d: Dive, start: DiveDateTime?) {
        out.beginObject()
        out.beginRecord(d.layout)
        member("uuid", d.uuid)
        member("number", d.number)
        member("started_at", start)
        member("submerged_time", d.submergedTime)
        member("notes", d.notes)
        member("type", d.type)
        member("rating", d.rating)
        strings("tags", d.tags)
        member("max_depth", d.maxDepth)
        member("avg_depth", d.avgDepth)
        member("bottom_temperature", d.bottomTemperature)
        member("visibility", d.visibility)
        member("weight", d.weight)
        member("water_type", d.waterType)
        member("altitude", d.altitude)
        member("air_temperature", d.airTemperature)
        member("current", d.current)
        member("waves", d.waves)
        member("weather", d.weather)
        member("entry_type", d.entryType)
        member("boat_name", d.boatName)
        member("entry_position", d.entryPosition)
        member("exit_position", d.exitPosition)
        member("trip_uuid", d.tripUUID)
        member("course_uuid", d.courseUUID)
        member("contact_uuid", d.contactUUID)
        strings("site_uuids", d.siteUUIDs)
        strings("gear_uuids", d.gearUUIDs)
        list("sightings", d.sightings) { s in
            out.beginObject()
            member("species_uuid", s.speciesUUID)
            member("count", s.count)
            member("abundance", s.abundance)
            member("notes", s.notes)
            member("extensions", s.extensions)
            out.endObject()
        }
        list("people", d.people, write)
        list("cylinders", d.cylinders, write)
        for (k, c) in d.cylinders.enumerated() where c.gasNameSaysMore && Self.withGasName(c) == nil {
            report(d, "json.gas-name-not-carried", "cylinder \(k + 1)'s gas is named \"\(c.gasName!)\", which DiveJSON has no member for, and its extensions (or their umilog entry) are no object to hold it in; not written")
        }
        let recordings = d.recordings.filter(\.hasContent)
        if recordings.count < d.recordings.count {
            report(d, "json.recording-without-content",
                   "a recording with no device, profile or readout cannot be carried (a mode or deco model alone describes nothing)")
        }
        list("recordings", recordings, write)
        member("created_at", d.createdAt)
        member("extensions", d.extensions)
        out.endRecord()
        out.endObject()
    }

    private func write(_ c: Cylinder) {
        out.beginObject()
        member("volume", c.volume)
        member("start_pressure", c.startPressure)
        member("end_pressure", c.endPressure)
        member("oxygen", c.oxygen)
        member("helium", c.helium)
        member("ppo2_limit", c.ppo2Limit)
        member("gas_number", c.gasNumber)
        member("role", c.role)
        member("usage", c.usage)
        member("gear_uuid", c.gearUUID)
        member("extensions", c.gasNameSaysMore ? Self.withGasName(c) ?? c.extensions : c.extensions)
        out.endObject()
    }

    /// The cylinder's extensions with its gas's name (one that says more than its mix: `RealAir`,
    /// `Deco 1`, a name on a cylinder with no fractions) as `umilog.gas_name`, which DiveJSON has
    /// no member for; `nil` when its extensions, or their `umilog`, are not an object.
    static func withGasName(_ c: Cylinder) -> ExtensionValue? {
        guard let name = c.gasName else { return c.extensions }
        let entry = ExtensionValue.Member("gas_name", .string(name))
        var members: [ExtensionValue.Member]
        switch c.extensions {
        case nil: members = []
        case .object(let m)?: members = m
        default: return nil
        }
        guard let k = members.firstIndex(where: { $0.name == "umilog" }) else {
            return .object(members + [.init("umilog", .object([entry]))])
        }
        guard case .object(var own) = members[k].value else { return nil }
        own.removeAll { $0.name == "gas_name" }
        own.append(entry)
        members[k].value = .object(own)
        return .object(members)
    }

    private func write(_ r: Recording) {
        out.beginObject()
        if let device = r.device, !device.isEmpty {
            object("device") {
                member("brand", device.brand)
                member("model", device.model)
                member("serial", device.serial)
                member("firmware", device.firmware)
                member("name", device.name)
                member("dive_number", device.diveNumber)
                member("extensions", device.extensions)
            }
        }
        member("mode", r.mode)
        if let m = r.decoModel, !m.isEmpty {
            object("deco_model") {
                member("algorithm", m.algorithm)
                member("name", m.name)
                member("gf_low", m.gfLow)
                member("gf_high", m.gfHigh)
                member("conservatism", m.conservatism)
                member("extensions", m.extensions)
            }
        }
        member("salinity", r.salinity)
        member("started_at", r.startedAt)
        member("surface_pressure", r.surfacePressure)
        member("cns_start", r.cnsStart)
        member("cns_end", r.cnsEnd)
        member("otu_start", r.otuStart)
        member("otu_end", r.otuEnd)
        list("source_files", r.sourceFiles, write)
        if let p = r.profile { write(p) }
        member("extensions", r.extensions)
        out.endObject()
    }

    private func write(_ p: Profile) {
        object("profile") {
            out.key("duration"); out.integer(p.duration)
            series("depth", p.depth)
            series("ceiling", p.ceiling)
            series("temperature", p.temperature)
            list("pressures", p.pressures) { s in
                out.beginObject()
                out.key("times"); out.integers(s.series.times)
                out.key("values"); out.integers(s.series.values)
                out.key("gas_number"); out.integer(s.gasNumber)
                member("extensions", s.series.extensions)
                out.endObject()
            }
            series("ndl", p.ndl)
            series("tts", p.tts)
            series("ppo2", p.ppo2)
            series("cns", p.cns)
            series("gradient_factor", p.gradientFactor)
            series("surface_gradient_factor", p.surfaceGradientFactor)
            list("events", p.events) { e in
                out.beginObject()
                out.key("time"); out.integer(e.time)
                member("type", e.type)
                member("gas_number", e.gasNumber)
                member("label", e.label)
                member("extensions", e.extensions)
                out.endObject()
            }
            member("extensions", p.extensions)
        }
    }

    private func series(_ name: String, _ s: Series?) {
        guard let s else { return }
        object(name) {
            out.key("times"); out.integers(s.times)
            out.key("values"); out.integers(s.values)
            member("extensions", s.extensions)
        }
    }

    private func write(_ t: Trip) {
        out.beginObject()
        member("uuid", t.uuid)
        member("name", t.name)
        list("parts", t.parts) { part in
            out.beginObject()
            member("starts_on", part.startsOn)
            member("ends_on", part.endsOn)
            if let l = part.location { out.key("location"); write(l) }
            member("accommodation_uuid", part.accommodationUUID)
            member("extensions", part.extensions)
            out.endObject()
        }
        list("people", t.people, write)
        member("notes", t.notes)
        member("created_at", t.createdAt)
        member("extensions", t.extensions)
        out.endObject()
    }

    private func write(_ l: Location) {
        out.beginObject()
        member("name", l.name)
        member("position", l.position)
        if let b = l.bbox {
            object("bbox") {
                out.key("south"); out.number(b.south)
                out.key("north"); out.number(b.north)
                out.key("west"); out.number(b.west)
                out.key("east"); out.number(b.east)
                member("extensions", b.extensions)
            }
        }
        member("extensions", l.extensions)
        out.endObject()
    }

    private func write(_ c: Course) {
        out.beginObject()
        member("uuid", c.uuid)
        member("name", c.name)
        member("agency", c.agency)
        member("agency_other", c.agencyOther)
        member("status", c.status)
        member("starts_on", c.startsOn)
        member("ends_on", c.endsOn)
        member("instructor_number", c.instructorNumber)
        member("contact_uuid", c.contactUUID)
        list("people", c.people, write)
        member("notes", c.notes)
        member("created_at", c.createdAt)
        member("extensions", c.extensions)
        out.endObject()
    }

    private func write(_ s: Site) {
        out.beginObject()
        member("uuid", s.uuid)
        member("name", s.name)
        strings("other_names", s.otherNames)
        if let l = s.location { out.key("location"); write(l) }
        member("position", s.position)
        list("external_ids", s.externalIDs, write)
        member("depth_from", s.depthFrom)
        member("depth_to", s.depthTo)
        member("water_type", s.waterType)
        member("altitude", s.altitude)
        strings("entry_types", s.entryTypes.map(\.rawValue))
        strings("tags", s.tags)
        member("notes", s.notes)
        member("created_at", s.createdAt)
        member("extensions", s.extensions)
        out.endObject()
    }

    private func write(_ s: Species) {
        out.beginObject()
        member("uuid", s.uuid)
        list("external_ids", s.externalIDs, write)
        member("scientific_name", s.scientificName)
        member("common_name", s.commonName)
        member("rank", s.rank)
        member("created_at", s.createdAt)
        member("extensions", s.extensions)
        out.endObject()
    }

    private func write(_ g: GearItem) {
        out.beginObject()
        member("uuid", g.uuid)
        member("name", g.name)
        member("brand", g.brand)
        member("serial", g.serial)
        member("type", g.type)
        member("volume", g.volume)
        member("working_pressure", g.workingPressure)
        member("material", g.material)
        member("notes", g.notes)
        member("rented", g.rented)
        member("archived", g.archived)
        member("archived_at", g.archivedAt)
        member("dive_count", g.diveCount)
        member("dive_time", g.diveTime)
        member("created_at", g.createdAt)
        member("extensions", g.extensions)
        out.endObject()
    }

    private func write(_ g: GearSet) {
        out.beginObject()
        member("uuid", g.uuid)
        member("name", g.name)
        member("weight", g.weight)
        strings("gear_uuids", g.gearUUIDs)
        member("created_at", g.createdAt)
        member("extensions", g.extensions)
        out.endObject()
    }

    private func write(_ s: GearServiceSchedule) {
        out.beginObject()
        member("uuid", s.uuid)
        member("gear_uuid", s.gearUUID)
        member("type", s.type)
        member("label", s.label)
        member("starts_on", s.startsOn)
        member("interval_months", s.intervalMonths)
        member("interval_dives", s.intervalDives)
        member("interval_hours", s.intervalHours)
        member("dive_count_at_start", s.diveCountAtStart)
        member("dive_time_at_start", s.diveTimeAtStart)
        member("active", s.active)
        member("last_service_on", s.lastServiceOn)
        member("next_due_on", s.nextDueOn)
        member("next_due_at_dive_count", s.nextDueAtDiveCount)
        member("next_due_at_dive_time", s.nextDueAtDiveTime)
        member("created_at", s.createdAt)
        member("extensions", s.extensions)
        out.endObject()
    }

    private func write(_ r: GearServiceRecord) {
        out.beginObject()
        member("uuid", r.uuid)
        member("gear_uuid", r.gearUUID)
        member("gear_service_schedule_uuid", r.scheduleUUID)
        member("type", r.type)
        member("serviced_on", r.servicedOn)
        member("dive_count_at_service", r.diveCountAtService)
        member("dive_time_at_service", r.diveTimeAtService)
        member("label", r.label)
        member("performed_by", r.performedBy)
        member("contact_uuid", r.contactUUID)
        member("notes", r.notes)
        member("created_at", r.createdAt)
        member("extensions", r.extensions)
        out.endObject()
    }

    private func write(_ c: Certification) {
        out.beginObject()
        member("uuid", c.uuid)
        member("agency", c.agency)
        member("agency_other", c.agencyOther)
        member("name", c.name)
        member("number", c.number)
        member("certified_on", c.certifiedOn)
        member("expires_on", c.expiresOn)
        member("instructor_uuid", c.instructorUUID)
        member("instructor_number", c.instructorNumber)
        member("contact_uuid", c.contactUUID)
        member("course_uuid", c.courseUUID)
        member("notes", c.notes)
        member("front_file", c.frontFile)
        member("back_file", c.backFile)
        member("created_at", c.createdAt)
        member("extensions", c.extensions)
        out.endObject()
    }

    private func write(_ c: Contact) {
        out.beginObject()
        member("uuid", c.uuid)
        member("name", c.name)
        strings("roles", c.roles.map(\.rawValue))
        member("phone", c.phone)
        member("email", c.email)
        member("website", c.website)
        if let a = c.address {
            object("address") {
                member("street", a.street)
                member("city", a.city)
                member("postcode", a.postcode)
                member("region", a.region)
                member("country", a.country)
                member("extensions", a.extensions)
            }
        }
        member("position", c.position)
        member("notes", c.notes)
        member("created_at", c.createdAt)
        member("extensions", c.extensions)
        out.endObject()
    }

    private func write(_ p: Person) {
        out.beginObject()
        member("uuid", p.uuid)
        member("name", p.name)
        member("email", p.email)
        member("phone", p.phone)
        member("notes", p.notes)
        member("created_at", p.createdAt)
        member("extensions", p.extensions)
        out.endObject()
    }
}
