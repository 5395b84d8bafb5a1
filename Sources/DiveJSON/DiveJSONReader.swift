import DiveCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads a DiveJSON 1.x document into the canonical model. The document is parsed whole
/// (DiveJSON files are a fraction of their UDDF sources' size); dives are then handed out
/// one at a time with the header complete.
///
/// A member the model does not carry yet is reported `dropped` by its path; a value outside
/// a closed vocabulary is read as absent (spec §5.6) and reported.
public final class DiveJSONReader: DiveSource {
    public let displayName: String
    public private(set) var header = LogbookHeader()
    private var dives: [JSONNode] = []
    private var next_ = 0
    private var findings: [Finding] = []
    /// The parsed document, for the validator.
    public let document: JSONNode
    /// Member names repeated within one object.
    public let duplicates: [DuplicateMember]

    /// Opens and parses the file at `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = displayName ?? path
        self.displayName = name
        let bytes = try readFile(path, displayName: name)
        (document, duplicates) = try bytes.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw, file: name)
            let node = try parser.parseDocument()
            return (node, parser.duplicates)
        }
        guard document.isObject else {
            throw DiveError("divejson.not-an-object", "a DiveJSON document is a JSON object; this file holds a \(document.typeName)", at: SourceLocation(file: name, line: document.line, column: document.column))
        }
        guard document["format"]?.string == "divejson" else {
            throw DiveError("divejson.not-divejson", "the JSON has no \"format\": \"divejson\", so it is not a DiveJSON document", at: SourceLocation(file: name, line: document.line, column: document.column))
        }
        if let version = document["version"], let text = version.string, !text.hasPrefix("1.") {
            throw DiveError("divejson.version", "DiveJSON version \(text) is not one this reader knows (1.x)", at: SourceLocation(file: name, line: version.line, column: version.column))
        }
        for d in duplicates {
            report(.dropped, "json.duplicate-member", "\"\(d.name)\" appears twice in one object (first on line \(d.firstLine)); the first is read", d.path, line: d.line, column: d.column)
        }
        readHeader()
    }

    public func next() throws -> Dive? {
        while next_ < dives.count {
            let node = dives[next_]
            next_ += 1
            if let dive = readDive(node, path: "$.dives[\(next_ - 1)]", index: next_ - 1) { return dive }
        }
        return nil
    }

    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    // MARK: Reporting

    private func report(_ kind: FindingKind, _ code: String, _ message: String, _ path: String, line: Int, column: Int) {
        findings.append(Finding(kind, code, message, at: SourceLocation(file: displayName, line: line, column: column, path: path)))
    }

    /// Reports every member of `node` that is not in `known`.
    private func notCarried(_ node: JSONNode, _ path: String, known: Set<String>) {
        for m in node.members where !known.contains(m.name) {
            report(.dropped, "divejson.member-not-carried", "\"\(m.name)\" is not carried by umilog's logbook model yet", path + "." + m.name, line: m.line, column: m.column)
        }
    }

    // MARK: Values

    private func string(_ node: JSONNode, _ name: String, _ path: String) -> String? {
        guard let v = node[name] else { return nil }
        if let s = v.string { return s }
        wrongType(v, name, path, "a string")
        return nil
    }

    private func number(_ node: JSONNode, _ name: String, _ path: String) -> Double? {
        guard let v = node[name] else { return nil }
        if let t = v.numberText, let d = Double(t), d.isFinite { return d }
        wrongType(v, name, path, "a number")
        return nil
    }

    private func integer(_ node: JSONNode, _ name: String, _ path: String) -> Int? {
        guard let v = node[name] else { return nil }
        if let t = v.numberText, let i = Int(t) { return i }
        wrongType(v, name, path, "an integer")
        return nil
    }

    private func strings(_ node: JSONNode, _ name: String, _ path: String) -> [String] {
        node[name]?.elements.compactMap(\.string) ?? []
    }

    private func wrongType(_ v: JSONNode, _ name: String, _ path: String, _ expected: String) {
        report(.dropped, "divejson.wrong-type", "\"\(name)\" should be \(expected) but is a \(v.typeName); not read", path + "." + name, line: v.line, column: v.column)
    }

    private func vocabulary<T: RawRepresentable>(_ node: JSONNode, _ name: String, _ path: String) -> T? where T.RawValue == String {
        guard let text = string(node, name, path) else { return nil }
        if let v = T(rawValue: text) { return v }
        let n = node[name]!
        report(.absent, "divejson.unknown-value", "\"\(name)\": \"\(text)\" is not a value this reader knows; read as not recorded", path + "." + name, line: n.line, column: n.column)
        return nil
    }

    private func dateTime(_ node: JSONNode, _ name: String, _ path: String) -> DiveDateTime? {
        guard let text = string(node, name, path) else { return nil }
        if let (v, _) = DiveDateTime.parse(text) { return v }
        let n = node[name]!
        report(.dropped, "divejson.datetime-invalid", "\"\(name)\": \"\(text)\" is not a date-time; not read", path + "." + name, line: n.line, column: n.column)
        return nil
    }

    private func position(_ node: JSONNode?) -> Position? {
        guard let node, let la = node["latitude"]?.numberText.flatMap(Double.init),
              let lo = node["longitude"]?.numberText.flatMap(Double.init) else { return nil }
        return Position(latitude: la, longitude: lo)
    }

    private func series(_ node: JSONNode?) -> Series? {
        guard let node else { return nil }
        let times = node["times"]?.elements.compactMap { $0.numberText.flatMap { Int($0) } } ?? []
        let values = node["values"]?.elements.compactMap { $0.numberText.flatMap { Int($0) } } ?? []
        guard times.count == values.count else { return nil }
        return Series(times: times, values: values)
    }

    // MARK: Header

    private func readHeader() {
        let root = document
        header.sourceFormat = "divejson"
        header.sourceVersion = string(root, "version", "$")
        if let g = root["generator"], let name = g["name"]?.string { header.sourceGenerator = Generator(name: name, version: g["version"]?.string) }
        notCarried(root, "$", known: ["format", "version", "exported_at", "generator", "diver", "dives", "trips", "sites", "species", "gear", "people", "contacts", "extensions"])
        header.extensions = root["extensions"].map(extensionValue)
        if let d = root["diver"] {
            let path = "$.diver"
            var diver = Diver(uuid: string(d, "uuid", path), name: string(d, "name", path))
            diver.email = string(d, "email", path)
            diver.phone = string(d, "phone", path)
            diver.bornOn = string(d, "born_on", path).flatMap { DiveDateTime.parse($0)?.0.date }
            for (i, ins) in (d["insurances"]?.elements ?? []).enumerated() {
                guard let provider = ins["provider"]?.string else { continue }
                diver.insurances.append(Insurance(provider: provider, number: ins["number"]?.string,
                                                  expiresOn: ins["expires_on"]?.string.flatMap { DiveDateTime.parse($0)?.0.date }))
                notCarried(ins, "\(path).insurances[\(i)]", known: ["provider", "number", "expires_on"])
            }
            notCarried(d, path, known: ["uuid", "name", "email", "phone", "born_on", "insurances"])
            header.diver = diver
        }
        dives = root["dives"]?.elements ?? []
        for (i, t) in (root["trips"]?.elements ?? []).enumerated() {
            let path = "$.trips[\(i)]"
            guard let uuid = string(t, "uuid", path), let name = string(t, "name", path) else { continue }
            var trip = Trip(uuid: uuid, name: name)
            for (j, p) in (t["parts"]?.elements ?? []).enumerated() {
                var part = TripPart()
                part.startsOn = p["starts_on"]?.string.flatMap { DiveDateTime.parse($0)?.0.date }
                part.endsOn = p["ends_on"]?.string.flatMap { DiveDateTime.parse($0)?.0.date }
                if let l = p["location"], let n = l["name"]?.string { part.location = Location(name: n, position: position(l["position"])) }
                part.accommodationUUID = p["accommodation_uuid"]?.string
                notCarried(p, "\(path).parts[\(j)]", known: ["starts_on", "ends_on", "location", "accommodation_uuid"])
                trip.parts.append(part)
            }
            trip.notes = string(t, "notes", path)
            notCarried(t, path, known: ["uuid", "name", "parts", "notes"])
            header.trips.append(trip)
        }
        for (i, s) in (root["sites"]?.elements ?? []).enumerated() {
            let path = "$.sites[\(i)]"
            guard let uuid = string(s, "uuid", path), let name = string(s, "name", path) else { continue }
            var site = Site(uuid: uuid, name: name)
            site.otherNames = strings(s, "other_names", path)
            if let l = s["location"], let n = l["name"]?.string { site.location = Location(name: n, position: position(l["position"])) }
            site.position = position(s["position"])
            site.depthFrom = number(s, "depth_from", path)
            site.depthTo = number(s, "depth_to", path)
            site.waterType = vocabulary(s, "water_type", path)
            site.altitude = integer(s, "altitude", path)
            site.notes = string(s, "notes", path)
            notCarried(s, path, known: ["uuid", "name", "other_names", "location", "position", "depth_from", "depth_to", "water_type", "altitude", "notes"])
            header.sites.append(site)
        }
        for (i, s) in (root["species"]?.elements ?? []).enumerated() {
            let path = "$.species[\(i)]"
            guard let uuid = string(s, "uuid", path) else { continue }
            let sp = Species(uuid: uuid, scientificName: string(s, "scientific_name", path), commonName: string(s, "common_name", path))
            notCarried(s, path, known: ["uuid", "scientific_name", "common_name"])
            header.species.append(sp)
        }
        for (i, g) in (root["gear"]?.elements ?? []).enumerated() {
            let path = "$.gear[\(i)]"
            guard let uuid = string(g, "uuid", path), let name = string(g, "name", path) else { continue }
            var item = GearItem(uuid: uuid, name: name, type: vocabulary(g, "type", path))
            item.brand = string(g, "brand", path)
            item.serial = string(g, "serial", path)
            item.volume = number(g, "volume", path)
            item.workingPressure = number(g, "working_pressure", path)
            item.material = vocabulary(g, "material", path)
            item.notes = string(g, "notes", path)
            notCarried(g, path, known: ["uuid", "name", "type", "brand", "serial", "volume", "working_pressure", "material", "notes"])
            header.gear.append(item)
        }
        for (i, p) in (root["people"]?.elements ?? []).enumerated() {
            let path = "$.people[\(i)]"
            guard let uuid = string(p, "uuid", path), let name = string(p, "name", path) else { continue }
            var person = Person(uuid: uuid, name: name)
            person.email = string(p, "email", path)
            person.phone = string(p, "phone", path)
            person.notes = string(p, "notes", path)
            notCarried(p, path, known: ["uuid", "name", "email", "phone", "notes"])
            header.people.append(person)
        }
        for (i, c) in (root["contacts"]?.elements ?? []).enumerated() {
            let path = "$.contacts[\(i)]"
            guard let uuid = string(c, "uuid", path), let name = string(c, "name", path) else { continue }
            var contact = Contact(uuid: uuid, name: name)
            contact.roles = strings(c, "roles", path).compactMap(ContactRole.init(rawValue:))
            contact.phone = string(c, "phone", path)
            contact.email = string(c, "email", path)
            contact.website = string(c, "website", path)
            if let a = c["address"], let country = a["country"]?.string {
                var address = Address(country: country)
                address.street = a["street"]?.string; address.city = a["city"]?.string
                address.postcode = a["postcode"]?.string; address.region = a["region"]?.string
                contact.address = address
            }
            contact.position = position(c["position"])
            contact.notes = string(c, "notes", path)
            notCarried(c, path, known: ["uuid", "name", "roles", "phone", "email", "website", "address", "position", "notes"])
            header.contacts.append(contact)
        }
    }

    // MARK: Dives

    private func readDive(_ d: JSONNode, path: String, index: Int) -> Dive? {
        guard let uuid = string(d, "uuid", path) else {
            report(.dropped, "divejson.dive-without-uuid", "a dive has no uuid, which a dive requires; not read", path, line: d.line, column: d.column)
            return nil
        }
        var dive = Dive(uuid: uuid, startedAt: dateTime(d, "started_at", path))
        dive.provenance = Provenance(format: "divejson", file: displayName, sourceID: uuid, index: index, line: d.line)
        dive.number = integer(d, "number", path)
        dive.submergedTime = integer(d, "submerged_time", path)
        dive.notes = string(d, "notes", path)
        dive.type = vocabulary(d, "type", path)
        dive.rating = integer(d, "rating", path)
        dive.tags = strings(d, "tags", path)
        dive.maxDepth = number(d, "max_depth", path)
        dive.avgDepth = number(d, "avg_depth", path)
        dive.bottomTemperature = number(d, "bottom_temperature", path)
        dive.visibility = number(d, "visibility", path)
        dive.weight = number(d, "weight", path)
        dive.waterType = vocabulary(d, "water_type", path)
        dive.altitude = integer(d, "altitude", path)
        dive.airTemperature = number(d, "air_temperature", path)
        dive.current = vocabulary(d, "current", path)
        dive.waves = vocabulary(d, "waves", path)
        dive.weather = vocabulary(d, "weather", path)
        dive.entryType = vocabulary(d, "entry_type", path)
        dive.boatName = string(d, "boat_name", path)
        dive.entryPosition = position(d["entry_position"])
        dive.exitPosition = position(d["exit_position"])
        dive.tripUUID = string(d, "trip_uuid", path)
        dive.contactUUID = string(d, "contact_uuid", path)
        dive.siteUUIDs = strings(d, "site_uuids", path)
        dive.gearUUIDs = strings(d, "gear_uuids", path)
        for s in d["sightings"]?.elements ?? [] {
            guard let species = s["species_uuid"]?.string else { continue }
            var sighting = Sighting(speciesUUID: species, count: s["count"]?.numberText.flatMap { Int($0) })
            sighting.notes = s["notes"]?.string
            dive.sightings.append(sighting)
        }
        for p in d["people"]?.elements ?? [] {
            guard let person = p["person_uuid"]?.string else { continue }
            dive.people.append(PersonReference(personUUID: person, role: p["role"]?.string.flatMap(PersonRole.init(rawValue:))))
        }
        for (i, c) in (d["cylinders"]?.elements ?? []).enumerated() {
            let cpath = "\(path).cylinders[\(i)]"
            var cyl = Cylinder()
            cyl.volume = number(c, "volume", cpath)
            cyl.startPressure = number(c, "start_pressure", cpath)
            cyl.endPressure = number(c, "end_pressure", cpath)
            cyl.oxygen = number(c, "oxygen", cpath)
            cyl.helium = number(c, "helium", cpath)
            cyl.ppo2Limit = number(c, "ppo2_limit", cpath)
            cyl.gasNumber = integer(c, "gas_number", cpath)
            cyl.role = vocabulary(c, "role", cpath)
            cyl.gearUUID = string(c, "gear_uuid", cpath)
            notCarried(c, cpath, known: ["volume", "start_pressure", "end_pressure", "oxygen", "helium", "ppo2_limit", "gas_number", "role", "gear_uuid"])
            dive.cylinders.append(cyl)
        }
        for (i, r) in (d["recordings"]?.elements ?? []).enumerated() {
            dive.recordings.append(readRecording(r, path: "\(path).recordings[\(i)]"))
        }
        notCarried(d, path, known: ["uuid", "number", "started_at", "submerged_time", "notes", "type", "rating", "tags", "max_depth",
                                    "avg_depth", "bottom_temperature", "visibility", "weight", "water_type", "altitude", "air_temperature",
                                    "current", "waves", "weather", "entry_type", "boat_name", "entry_position", "exit_position",
                                    "trip_uuid", "contact_uuid", "site_uuids", "gear_uuids", "sightings", "people", "cylinders", "recordings"])
        return dive
    }

    private func readRecording(_ r: JSONNode, path: String) -> Recording {
        var rec = Recording()
        if let d = r["device"] {
            var device = Device()
            device.brand = d["brand"]?.string; device.model = d["model"]?.string; device.serial = d["serial"]?.string
            device.firmware = d["firmware"]?.string; device.name = d["name"]?.string
            device.diveNumber = d["dive_number"]?.numberText.flatMap { Int($0) }
            rec.device = device
        }
        rec.mode = vocabulary(r, "mode", path)
        if let m = r["deco_model"] {
            var model = DecoModel()
            model.algorithm = m["algorithm"]?.string; model.name = m["name"]?.string
            model.gfLow = m["gf_low"]?.numberText.flatMap { Int($0) }; model.gfHigh = m["gf_high"]?.numberText.flatMap { Int($0) }
            rec.decoModel = model
        }
        rec.startedAt = dateTime(r, "started_at", path)
        rec.surfacePressure = number(r, "surface_pressure", path)
        if let p = r["profile"] {
            var profile = Profile()
            profile.duration = p["duration"]?.numberText.flatMap { Int($0) } ?? 0
            profile.depth = series(p["depth"]); profile.ceiling = series(p["ceiling"]); profile.temperature = series(p["temperature"])
            profile.ndl = series(p["ndl"]); profile.tts = series(p["tts"]); profile.ppo2 = series(p["ppo2"]); profile.cns = series(p["cns"])
            profile.gradientFactor = series(p["gradient_factor"]); profile.surfaceGradientFactor = series(p["surface_gradient_factor"])
            for ps in p["pressures"]?.elements ?? [] {
                if let s = series(ps), let g = ps["gas_number"]?.numberText.flatMap({ Int($0) }) { profile.pressures.append(PressureSeries(gasNumber: g, series: s)) }
            }
            for e in p["events"]?.elements ?? [] {
                guard let t = e["time"]?.numberText.flatMap({ Int($0) }) else { continue }
                profile.events.append(Event(time: t, type: e["type"]?.string.flatMap(EventType.init(rawValue:)),
                                            gasNumber: e["gas_number"]?.numberText.flatMap { Int($0) }, label: e["label"]?.string))
            }
            notCarried(p, path + ".profile", known: ["duration", "depth", "ceiling", "temperature", "pressures", "ndl", "tts", "ppo2", "cns", "gradient_factor", "surface_gradient_factor", "events"])
            rec.profile = profile
        }
        notCarried(r, path, known: ["device", "mode", "deco_model", "started_at", "surface_pressure", "profile"])
        return rec
    }
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

/// The whole content of a file.
public func readFile(_ path: String, displayName: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
        throw DiveError("io.open", "cannot open the file: \(String(cString: strerror(errno)))", at: SourceLocation(file: displayName))
    }
    defer { close(fd) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            throw DiveError("io.read", "cannot read the file: \(String(cString: strerror(errno)))", at: SourceLocation(file: displayName))
        }
        if n == 0 { return out }
        out.append(contentsOf: buffer[0..<n])
    }
}
