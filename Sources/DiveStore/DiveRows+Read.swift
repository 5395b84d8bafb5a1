import DiveCore
import DiveJSON
import Foundation
import GRDB

/// Reads dives and the records they refer to back from their rows: the record the `detail`
/// describes, with the column-held members set from the columns.
///
/// Its statements are prepared once per connection (`cachedStatement`): an export reads thousands
/// of dives with the same dozen, and preparing them again for each dive took half its time.
struct RowReader {
    let db: Database
    var findings: [Finding] = []
    /// Whether records carry the logbook's own state under the `umilog` extension key (see
    /// ``LogbookState``): for a DiveJSON export, which `import` restores.
    let state: Bool
    /// The digests of the files the dives read so far came from (with `state`), in order.
    private(set) var sourceFiles: [String] = []

    init(db: Database, state: Bool = false) { self.db = db; self.state = state }

    mutating func noteSource(_ sha: String) {
        if !sourceFiles.contains(sha) { sourceFiles.append(sha) }
    }

    mutating func dive(_ id: String) throws -> Dive? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM dive WHERE id = ?"), arguments: [id]) else { return nil }
        var d = try Detail.dive(row["detail"], uuid: id, findings: &findings)
        d.startedAt = Self.start(date: row["date"], time: row["start_time"], offset: row["utc_offset"])
        d.number = row["number"]
        d.submergedTime = row["bottom_time"]
        d.notes = row["notes"]
        d.type = (row["type"] as String?).flatMap(DiveType.init(rawValue:))
        d.rating = row["rating"]
        d.tags = Self.strings(row["tags"])
        d.maxDepth = row["max_depth"]
        d.avgDepth = row["avg_depth"]
        d.bottomTemperature = row["water_temperature"]
        d.visibility = row["visibility"]
        d.weight = row["weight"]
        d.waterType = (row["water_type"] as String?).flatMap(WaterType.init(rawValue:))
        d.altitude = row["altitude"]
        d.airTemperature = row["air_temperature"]
        d.current = (row["current"] as String?).flatMap(Current.init(rawValue:))
        d.waves = (row["waves"] as String?).flatMap(Waves.init(rawValue:))
        d.weather = (row["weather"] as String?).flatMap(Weather.init(rawValue:))
        d.entryType = (row["entry_type"] as String?).flatMap(EntryType.init(rawValue:))
        d.boatName = row["boat_name"]
        if let lat: Double = row["entry_lat"], let lon: Double = row["entry_lon"] { d.entryPosition = Position(latitude: lat, longitude: lon) }
        if let lat: Double = row["exit_lat"], let lon: Double = row["exit_lon"] { d.exitPosition = Position(latitude: lat, longitude: lon) }
        d.tripUUID = row["trip_id"]
        if let site: String = row["site_id"] { d.siteUUIDs.insert(site, at: 0) }
        d.gearUUIDs = try String.fetchAll(db.cachedStatement(sql: "SELECT gear_id FROM dive_gear WHERE dive_id = ? ORDER BY position"), arguments: [id])
        for r in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM cylinder WHERE dive_id = ? ORDER BY position"), arguments: [id]) {
            var c = try element("cylinders", r["detail"], [:]).cylinders.first ?? Cylinder()
            c.volume = r["volume"]; c.startPressure = r["start_pressure"]; c.endPressure = r["end_pressure"]
            c.oxygen = r["oxygen"]; c.helium = r["helium"]; c.ppo2Limit = r["ppo2_limit"]; c.gasNumber = r["gas_number"]
            c.role = (r["role"] as String?).flatMap(CylinderRole.init(rawValue:))
            c.usage = (r["usage"] as String?).flatMap(CylinderUsage.init(rawValue:))
            c.gearUUID = r["gear_id"]; c.gasName = r["gas_name"]
            d.cylinders.append(c)
        }
        for r in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM recording WHERE dive_id = ? ORDER BY position"), arguments: [id]) {
            var rec = try element("recordings", r["detail"], [:]).recordings.first ?? Recording()
            let brand: String? = r["device_brand"], model: String? = r["device_model"], serial: String? = r["device_serial"], name: String? = r["device_name"]
            if brand != nil || model != nil || serial != nil || name != nil {
                var device = rec.device ?? Device()
                device.brand = brand; device.model = model; device.serial = serial; device.name = name
                rec.device = device
            }
            rec.mode = (r["mode"] as String?).flatMap(RecordingMode.init(rawValue:))
            if let blob: Data = r["samples"] {
                var profile = rec.profile ?? Profile()
                try ProfileCodec.join(Array(blob), into: &profile)
                rec.profile = profile
            }
            d.recordings.append(rec)
        }
        for r in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM dive_person WHERE dive_id = ? ORDER BY position"), arguments: [id]) {
            let person: String = r["person_id"]
            var p = try element("people", r["detail"], ["person_uuid": JSONNode(.string(person))]).people.first ?? PersonReference(personUUID: person)
            p.personUUID = person
            p.role = (r["role"] as String?).flatMap(PersonRole.init(rawValue:))
            d.people.append(p)
        }
        for r in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM sighting WHERE dive_id = ? ORDER BY position"), arguments: [id]) {
            let species: String = r["species_id"]
            var s = try element("sightings", r["detail"], ["species_uuid": JSONNode(.string(species))]).sightings.first ?? Sighting(speciesUUID: species)
            s.speciesUUID = species
            s.count = r["count"]
            s.abundance = (r["abundance"] as String?).flatMap(Abundance.init(rawValue:))
            s.notes = r["notes"]
            d.sightings.append(s)
        }
        if state { try addState(to: &d, status: row["status"]) }
        return d
    }

    /// The dive's status and sources, its recordings' files and its sightings' logged species,
    /// under the `umilog` extension key.
    private mutating func addState(to d: inout Dive, status: String) throws {
        var members: [ExtensionValue.Member] = []
        if status != "new" { members.append(.init("status", .string(status))) }
        let sources = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT f.sha256, s.record_index, s.record_id, s.line, s.source_uuid FROM dive_source s JOIN source_file f ON f.id = s.source_file_id
            WHERE s.dive_id = ? ORDER BY f.id, s.record_index
            """), arguments: [d.uuid]).map { r in
            LogbookState.DiveSourceRecord(sha256: r["sha256"], index: r["record_index"], recordID: r["record_id"], line: r["line"], sourceUUID: r["source_uuid"])
        }
        for s in sources { noteSource(s.sha256) }
        if !sources.isEmpty { members.append(.init("sources", .array(sources.map(\.value)))) }
        d.extensions = LogbookState.adding(members, to: d.extensions)
        let files = try String?.fetchAll(db.cachedStatement(sql: """
            SELECT f.sha256 FROM recording r LEFT JOIN source_file f ON f.id = r.source_file_id WHERE r.dive_id = ? ORDER BY r.position
            """), arguments: [d.uuid])
        for (k, sha) in zip(d.recordings.indices, files) {
            guard let sha else { continue }
            noteSource(sha)
            d.recordings[k].extensions = LogbookState.adding([.init("source_file", .string(sha))], to: d.recordings[k].extensions)
        }
        for (k, species) in zip(d.sightings.indices, try loggedSpecies(ofDive: d.uuid)) {
            guard let species else { continue }
            d.sightings[k].extensions = LogbookState.adding([.init("logged_species_uuid", .string(species))], to: d.sightings[k].extensions)
        }
    }

    /// For each sighting of the dive, the species the log named where backfill resolved it to
    /// another (nil where it did not).
    func loggedSpecies(ofDive id: String) throws -> [String?] {
        try String?.fetchAll(db.cachedStatement(sql: """
            SELECT CASE WHEN logged_species_id != species_id THEN logged_species_id END FROM sighting WHERE dive_id = ? ORDER BY position
            """), arguments: [id])
    }

    /// A dive holding element 0 of `list` as `detail` describes it; an empty dive when there is
    /// no detail (the columns hold everything).
    private mutating func element(_ list: String, _ detail: String?, _ members: [String: JSONNode]) throws -> Dive {
        guard detail != nil else { return Dive(uuid: "", startedAt: nil) }
        return try Detail.dive(list: list, detail, with: members, findings: &findings)
    }

    static func start(date: String?, time: String?, offset: String?) -> DiveDateTime? {
        guard let date else { return nil }
        let text = time.map { "\(date)T\($0)\(offset ?? "")" } ?? date
        return DiveDateTime.parse(text)?.0
    }

    static func strings(_ json: String?) -> [String] {
        guard let json, let node = try? JSONNode.parse(json) else { return [] }
        return node.elements.compactMap(\.string)
    }

    // MARK: Records

    mutating func site(_ id: String) throws -> Site? {
        guard let r = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM site WHERE id = ?"), arguments: [id]) else { return nil }
        let name: String = r["name"]
        var s = try header("sites", r["detail"], id: id, name: name).sites.first ?? Site(uuid: id, name: name)
        s.uuid = id; s.name = name
        s.otherNames = try String.fetchAll(db.cachedStatement(sql: "SELECT alias FROM site_alias WHERE site_id = ? ORDER BY position"), arguments: [id])
        if let lat: Double = r["lat"], let lon: Double = r["lon"] { s.position = Position(latitude: lat, longitude: lon) }
        s.tags = Self.strings(r["tags"])
        if let q: String = r["wikidata"], !s.externalIDs.contains(where: { $0.identifier == q }) {
            s.externalIDs.append(ExternalID(registry: "wikidata", identifier: q))
        }
        if state {
            var members: [ExtensionValue.Member] = []
            let kind: String = r["kind"]
            if kind != "log" { members.append(.init("kind", .string(kind))) }
            if let c: String = r["canonical_site_id"] { members.append(.init("canonical_site_uuid", .string(c))) }
            if let l = try String.fetchOne(db.cachedStatement(sql: "SELECT state FROM list_state WHERE site_id = ?"), arguments: [id]) {
                members.append(.init("list_state", .string(l)))
            }
            s.extensions = LogbookState.adding(members, to: s.extensions)
        }
        return s
    }

    /// The catalog or user site a log site was matched to.
    func canonicalSite(of id: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT canonical_site_id FROM site WHERE id = ?"), arguments: [id]) ?? nil
    }

    /// The files of `digests`, as the document's `umilog` entry lists them.
    func sourceFileRecords(_ digests: [String]) throws -> [LogbookState.SourceFile] {
        try digests.compactMap { sha in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT *, coalesce(records, (SELECT count(*) FROM dive_source WHERE source_file_id = source_file.id)) AS held FROM source_file WHERE sha256 = ?
                """), arguments: [sha]).map { r in
                LogbookState.SourceFile(sha256: sha, name: r["name"], format: r["format"], generator: r["generator"],
                                        generatorVersion: r["generator_version"], size: r["size"], records: r["held"])
            }
        }
    }

    mutating func trip(_ id: String) throws -> Trip? {
        guard let r = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM trip WHERE id = ?"), arguments: [id]) else { return nil }
        let name: String = r["name"]
        var t = try header("trips", r["detail"], id: id, name: name).trips.first ?? Trip(uuid: id, name: name)
        t.uuid = id; t.name = name; t.notes = r["notes"]
        return t
    }

    mutating func person(_ id: String) throws -> Person? {
        guard let r = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM person WHERE id = ?"), arguments: [id]) else { return nil }
        let name: String = r["name"]
        var p = try header("people", r["detail"], id: id, name: name).people.first ?? Person(uuid: id, name: name)
        p.uuid = id; p.name = name; p.email = r["email"]; p.phone = r["phone"]; p.notes = r["notes"]
        return p
    }

    mutating func gear(_ id: String) throws -> GearItem? {
        guard let r = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM gear WHERE id = ?"), arguments: [id]) else { return nil }
        let name: String = r["name"]
        var g = try header("gear", r["detail"], id: id, name: name).gear.first ?? GearItem(uuid: id, name: name)
        g.uuid = id; g.name = name; g.brand = r["brand"]; g.serial = r["serial"]
        g.type = (r["type"] as String?).flatMap(GearType.init(rawValue:))
        return g
    }

    mutating func species(_ id: String) throws -> Species? {
        guard let r = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM species WHERE id = ?"), arguments: [id]) else { return nil }
        var s = try header("species", r["detail"], id: id, name: nil).species.first ?? Species(uuid: id)
        s.uuid = id; s.scientificName = r["scientific_name"]; s.commonName = r["common_name"]
        if let aphia: Int = r["aphia_id"], !s.externalIDs.contains(where: { $0.registry == "worms" }) {
            s.externalIDs.append(ExternalID(registry: "worms", identifier: String(aphia)))
        }
        if state, (r["kind"] as String) == "catalog" {
            s.extensions = LogbookState.adding([.init("kind", .string("catalog"))], to: s.extensions)
        }
        return s
    }

    /// Puts the record of `kind` and `id` kept whole in `logbook_record` into `header`.
    mutating func record(_ kind: String, _ id: String, into header: inout LogbookHeader) throws {
        guard let detail = try String.fetchOne(db.cachedStatement(sql: "SELECT detail FROM logbook_record WHERE kind = ? AND id = ?"), arguments: [kind, id]) else { return }
        let h = try DiveJSONFragment.header(from: JSONNode.object([(kind, kind == "diver" ? try JSONNode.parse(detail) : JSONNode(.array([try JSONNode.parse(detail)])))]), findings: &findings)
        header.courses += h.courses; header.contacts += h.contacts; header.certifications += h.certifications
        header.gearSets += h.gearSets; header.serviceSchedules += h.serviceSchedules; header.serviceRecords += h.serviceRecords
        if let diver = h.diver { header.diver = diver }
    }

    private mutating func header(_ list: String, _ detail: String?, id: String, name: String?) throws -> LogbookHeader {
        guard detail != nil else { return LogbookHeader() }
        var members = ["uuid": JSONNode(.string(id))]
        if let name { members["name"] = JSONNode(.string(name)) }
        return try Detail.header(list: list, detail, with: members, findings: &findings)
    }
}
