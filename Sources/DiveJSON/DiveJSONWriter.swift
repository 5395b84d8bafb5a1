import DiveCore

/// Writes a DiveJSON 1.0 document from the canonical model, streaming: `format`, `version`,
/// `exported_at`, `generator` and `diver` first, then each dive as it is handed over, then
/// the collections the dives refer to. Members come in the schema's order; a value the model
/// does not hold is omitted, never written as `null`.
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
        if let diver = header.diver { write(diver) }
    }

    /// Writes one dive. A dive with no start cannot be carried (`started_at` is required)
    /// and is reported instead.
    public func write(_ dive: Dive, header: LogbookHeader) throws {
        begin(header)
        guard let start = dive.startedAt else {
            let p = dive.provenance
            findings.append(Finding(.dropped, "json.dive-without-start",
                                    "a dive with no start date cannot be carried: DiveJSON requires started_at",
                                    at: SourceLocation(file: p?.file, line: p?.line, path: p.map { "dive/\($0.index)" })))
            return
        }
        if !divesOpen {
            divesOpen = true
            out.key("dives"); out.beginArray()
        }
        write(dive, start: start)
        try out.flushIfLarge()
    }

    /// Closes the dives and writes the header's collections and the provenance block.
    public func finish(header: LogbookHeader) throws {
        begin(header)
        if divesOpen { out.endArray() }
        if !header.trips.isEmpty { out.key("trips"); out.beginArray(); header.trips.forEach(write); out.endArray() }
        if !header.sites.isEmpty { out.key("sites"); out.beginArray(); header.sites.forEach(write); out.endArray() }
        if !header.species.isEmpty { out.key("species"); out.beginArray(); header.species.forEach(write); out.endArray() }
        if !header.gear.isEmpty { out.key("gear"); out.beginArray(); header.gear.forEach(write); out.endArray() }
        if !header.contacts.isEmpty { out.key("contacts"); out.beginArray(); header.contacts.forEach(write); out.endArray() }
        if !header.people.isEmpty { out.key("people"); out.beginArray(); header.people.forEach(write); out.endArray() }
        if let extensions = header.extensions {
            out.key("extensions")
            write(extensions)
        } else if let format = header.sourceFormat, format != "divejson" {
            out.key("extensions"); out.beginObject()
            out.key("divejson"); out.beginObject()
            out.key("converted_from"); out.string(format)
            if let v = header.sourceVersion { out.key("\(format)_version"); out.string(v) }
            if let g = header.sourceGenerator {
                out.key("source_generator"); out.beginObject()
                out.key("name"); out.string(g.name)
                if let v = g.version { out.key("version"); out.string(v) }
                out.endObject()
            }
            out.endObject()
            out.endObject()
        }
        out.endObject()
        try out.finish()
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
    private func uuids(_ name: String, _ values: [String]) {
        guard !values.isEmpty else { return }
        out.key(name); out.beginArray(); values.forEach { out.string($0) }; out.endArray()
    }
    private func strings(_ name: String, _ values: [String]) { uuids(name, values) }

    private func write(_ p: Position) {
        out.beginObject()
        out.key("latitude"); out.number(p.latitude)
        out.key("longitude"); out.number(p.longitude)
        out.endObject()
    }

    private func member(_ name: String, _ p: Position?) { if let p { out.key(name); write(p) } }

    private func write(_ d: Diver) {
        out.key("diver"); out.beginObject()
        member("uuid", d.uuid)
        member("name", d.name)
        member("email", d.email)
        member("phone", d.phone)
        member("born_on", d.bornOn?.description)
        if !d.insurances.isEmpty {
            out.key("insurances"); out.beginArray()
            for i in d.insurances {
                out.beginObject()
                member("provider", i.provider)
                member("number", i.number)
                member("expires_on", i.expiresOn?.description)
                out.endObject()
            }
            out.endArray()
        }
        out.endObject()
    }

    private func write(_ d: Dive, start: DiveDateTime) {
        out.beginObject()
        member("uuid", d.uuid)
        member("number", d.number)
        member("started_at", start.description)
        member("submerged_time", d.submergedTime)
        member("notes", d.notes)
        member("type", d.type?.rawValue)
        member("rating", d.rating)
        strings("tags", d.tags)
        member("max_depth", d.maxDepth)
        member("avg_depth", d.avgDepth)
        member("bottom_temperature", d.bottomTemperature)
        member("visibility", d.visibility)
        member("weight", d.weight)
        member("water_type", d.waterType?.rawValue)
        member("altitude", d.altitude)
        member("air_temperature", d.airTemperature)
        member("current", d.current?.rawValue)
        member("waves", d.waves?.rawValue)
        member("weather", d.weather?.rawValue)
        member("entry_type", d.entryType?.rawValue)
        member("boat_name", d.boatName)
        member("entry_position", d.entryPosition)
        member("exit_position", d.exitPosition)
        member("trip_uuid", d.tripUUID)
        member("contact_uuid", d.contactUUID)
        uuids("site_uuids", d.siteUUIDs)
        uuids("gear_uuids", d.gearUUIDs)
        if !d.sightings.isEmpty {
            out.key("sightings"); out.beginArray()
            for s in d.sightings {
                out.beginObject()
                member("species_uuid", s.speciesUUID)
                member("count", s.count)
                member("notes", s.notes)
                out.endObject()
            }
            out.endArray()
        }
        if !d.people.isEmpty {
            out.key("people"); out.beginArray()
            for p in d.people {
                out.beginObject()
                member("person_uuid", p.personUUID)
                member("role", p.role?.rawValue)
                out.endObject()
            }
            out.endArray()
        }
        if !d.cylinders.isEmpty {
            out.key("cylinders"); out.beginArray()
            d.cylinders.forEach(write)
            out.endArray()
        }
        let recordings = d.recordings.filter(\.hasContent)
        if recordings.count < d.recordings.count {
            let p = d.provenance
            findings.append(Finding(.dropped, "json.recording-without-content",
                                    "a recording with no device, profile or readout cannot be carried (a mode or deco model alone describes nothing)",
                                    at: SourceLocation(file: p?.file, line: p?.line, path: p.map { "dive/\($0.index)" })))
        }
        if !recordings.isEmpty {
            out.key("recordings"); out.beginArray()
            recordings.forEach(write)
            out.endArray()
        }
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
        member("role", c.role?.rawValue)
        member("gear_uuid", c.gearUUID)
        member("gas_number", c.gasNumber)
        out.endObject()
    }

    private func write(_ r: Recording) {
        out.beginObject()
        if let device = r.device, !device.isEmpty {
            out.key("device"); out.beginObject()
            member("brand", device.brand)
            member("model", device.model)
            member("serial", device.serial)
            member("firmware", device.firmware)
            member("name", device.name)
            member("dive_number", device.diveNumber)
            out.endObject()
        }
        member("mode", r.mode?.rawValue)
        if let m = r.decoModel, m.algorithm != nil || m.name != nil || m.gfLow != nil {
            out.key("deco_model"); out.beginObject()
            member("algorithm", m.algorithm)
            member("name", m.name)
            member("gf_low", m.gfLow)
            member("gf_high", m.gfHigh)
            out.endObject()
        }
        member("started_at", r.startedAt?.description)
        member("surface_pressure", r.surfacePressure)
        if let p = r.profile { write(p) }
        out.endObject()
    }

    private func write(_ p: Profile) {
        out.key("profile"); out.beginObject()
        out.key("duration"); out.integer(p.duration)
        series("depth", p.depth)
        series("ceiling", p.ceiling)
        series("temperature", p.temperature)
        if !p.pressures.isEmpty {
            out.key("pressures"); out.beginArray()
            for s in p.pressures {
                out.beginObject()
                out.key("times"); out.integers(s.series.times)
                out.key("values"); out.integers(s.series.values)
                out.key("gas_number"); out.integer(s.gasNumber)
                out.endObject()
            }
            out.endArray()
        }
        series("ndl", p.ndl)
        series("tts", p.tts)
        series("ppo2", p.ppo2)
        series("cns", p.cns)
        series("gradient_factor", p.gradientFactor)
        series("surface_gradient_factor", p.surfaceGradientFactor)
        if !p.events.isEmpty {
            out.key("events"); out.beginArray()
            for e in p.events {
                out.beginObject()
                out.key("time"); out.integer(e.time)
                member("type", e.type?.rawValue)
                member("gas_number", e.gasNumber)
                member("label", e.label)
                out.endObject()
            }
            out.endArray()
        }
        out.endObject()
    }

    private func series(_ name: String, _ s: Series?) {
        guard let s else { return }
        out.key(name); out.beginObject()
        out.key("times"); out.integers(s.times)
        out.key("values"); out.integers(s.values)
        out.endObject()
    }

    private func write(_ t: Trip) {
        out.beginObject()
        member("uuid", t.uuid)
        member("name", t.name)
        if !t.parts.isEmpty {
            out.key("parts"); out.beginArray()
            for part in t.parts {
                out.beginObject()
                member("starts_on", part.startsOn?.description)
                member("ends_on", part.endsOn?.description)
                if let l = part.location { out.key("location"); write(l) }
                member("accommodation_uuid", part.accommodationUUID)
                out.endObject()
            }
            out.endArray()
        }
        member("notes", t.notes)
        out.endObject()
    }

    private func write(_ l: Location) {
        out.beginObject()
        member("name", l.name)
        member("position", l.position)
        out.endObject()
    }

    private func write(_ s: Site) {
        out.beginObject()
        member("uuid", s.uuid)
        member("name", s.name)
        strings("other_names", s.otherNames)
        if let l = s.location { out.key("location"); write(l) }
        member("position", s.position)
        member("depth_from", s.depthFrom)
        member("depth_to", s.depthTo)
        member("water_type", s.waterType?.rawValue)
        member("altitude", s.altitude)
        member("notes", s.notes)
        out.endObject()
    }

    private func write(_ s: Species) {
        out.beginObject()
        member("uuid", s.uuid)
        member("scientific_name", s.scientificName)
        member("common_name", s.commonName)
        out.endObject()
    }

    private func write(_ g: GearItem) {
        out.beginObject()
        member("uuid", g.uuid)
        member("name", g.name)
        member("brand", g.brand)
        member("serial", g.serial)
        member("type", g.type?.rawValue)
        member("volume", g.volume)
        member("working_pressure", g.workingPressure)
        member("material", g.material?.rawValue)
        member("notes", g.notes)
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
            out.key("address"); out.beginObject()
            member("street", a.street)
            member("city", a.city)
            member("postcode", a.postcode)
            member("region", a.region)
            member("country", a.country)
            out.endObject()
        }
        member("position", c.position)
        member("notes", c.notes)
        out.endObject()
    }

    private func write(_ p: Person) {
        out.beginObject()
        member("uuid", p.uuid)
        member("name", p.name)
        member("email", p.email)
        member("phone", p.phone)
        member("notes", p.notes)
        out.endObject()
    }
}
