import DiveCore
import DiveJSON
import Foundation
import GRDB

/// Writes dives and the records they refer to as rows. Columns take what the app queries;
/// each row's `detail` keeps the rest (see ``Detail``).
struct RowWriter {
    let db: Database
    let header: LogbookHeader
    var findings: [Finding] = []
    let file: String

    init(db: Database, header: LogbookHeader, file: String) {
        self.db = db; self.header = header; self.file = file
    }

    private mutating func dangling(_ dive: Dive, _ what: String, _ uuid: String) {
        findings.append(Finding(.dropped, "store.reference-unresolved", "the dive refers to \(what) \(uuid), which the file does not hold; the reference is left out",
                                at: SourceLocation(file: file, line: dive.provenance?.line, path: dive.sourcePath(else: 0))))
    }

    private func exists(_ table: String, _ id: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [id]) ?? false
    }

    // MARK: Referenced records

    /// Makes sure the site exists (from the file's header); false when neither has it.
    mutating func site(_ uuid: String) throws -> Bool {
        if try exists("site", uuid) { return true }
        guard let s = header.site(uuid) else { return false }
        var rest = s
        rest.otherNames = []; rest.tags = []
        let position = s.position?.extensions == nil ? s.position : nil
        if position != nil { rest.position = nil }
        var h = LogbookHeader(); h.sites = [rest]
        try db.execute(sql: "INSERT INTO site (id, name, lat, lon, tags, kind, detail) VALUES (?, ?, ?, ?, ?, 'log', ?)",
                       arguments: [s.uuid, s.name, position?.latitude, position?.longitude, Self.json(s.tags), try Detail.text(of: "sites", in: h)])
        for (k, alias) in s.otherNames.enumerated() {
            try db.execute(sql: "INSERT INTO site_alias (site_id, position, alias, normalized) VALUES (?, ?, ?, ?)",
                           arguments: [s.uuid, k, alias, Names.normalized(alias)])
        }
        return true
    }

    mutating func trip(_ uuid: String) throws -> Bool {
        if try exists("trip", uuid) { return true }
        guard let t = header.trips.first(where: { $0.uuid == uuid }) else { return false }
        var rest = t
        rest.notes = nil
        var h = LogbookHeader(); h.trips = [rest]
        try db.execute(sql: "INSERT INTO trip (id, name, notes, detail) VALUES (?, ?, ?, ?)",
                       arguments: [t.uuid, t.name, t.notes, try Detail.text(of: "trips", in: h)])
        for p in t.people { _ = try person(p.personUUID) }
        return true
    }

    mutating func person(_ uuid: String) throws -> Bool {
        if try exists("person", uuid) { return true }
        guard let p = header.person(uuid) else { return false }
        var rest = p
        rest.email = nil; rest.phone = nil; rest.notes = nil
        var h = LogbookHeader(); h.people = [rest]
        try db.execute(sql: "INSERT INTO person (id, name, email, phone, notes, detail) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [p.uuid, p.name, p.email, p.phone, p.notes, try Detail.text(of: "people", in: h)])
        return true
    }

    mutating func gear(_ uuid: String) throws -> Bool {
        if try exists("gear", uuid) { return true }
        guard let g = header.gear.first(where: { $0.uuid == uuid }) else { return false }
        var rest = g
        rest.type = nil; rest.brand = nil; rest.serial = nil
        var h = LogbookHeader(); h.gear = [rest]
        try db.execute(sql: "INSERT INTO gear (id, name, type, brand, serial, detail) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [g.uuid, g.name, g.type?.rawValue, g.brand, g.serial, try Detail.text(of: "gear", in: h)])
        return true
    }

    mutating func species(_ uuid: String) throws -> Bool {
        if try exists("species", uuid) { return true }
        guard let s = header.species.first(where: { $0.uuid == uuid }) else { return false }
        var rest = s
        rest.scientificName = nil; rest.commonName = nil
        var h = LogbookHeader(); h.species = [rest]
        try db.execute(sql: "INSERT INTO species (id, scientific_name, common_name, kind, detail) VALUES (?, ?, ?, 'log', ?)",
                       arguments: [s.uuid, s.scientificName, s.commonName, try Detail.text(of: "species", in: h)])
        return true
    }

    /// A record of a kind the app does not query, kept whole.
    mutating func record(_ kind: String, _ uuid: String) throws -> Bool {
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM logbook_record WHERE kind = ? AND id = ?)", arguments: [kind, uuid]) == true { return true }
        var h = LogbookHeader()
        let name: String?
        switch kind {
        case "courses": guard let r = header.courses.first(where: { $0.uuid == uuid }) else { return false }; h.courses = [r]; name = r.name
        case "contacts": guard let r = header.contacts.first(where: { $0.uuid == uuid }) else { return false }; h.contacts = [r]; name = r.name
        case "certifications": guard let r = header.certifications.first(where: { $0.uuid == uuid }) else { return false }; h.certifications = [r]; name = r.name
        case "gear_sets": guard let r = header.gearSets.first(where: { $0.uuid == uuid }) else { return false }; h.gearSets = [r]; name = r.name
        case "gear_service_schedules": guard let r = header.serviceSchedules.first(where: { $0.uuid == uuid }) else { return false }; h.serviceSchedules = [r]; name = r.label
        case "gear_service_records": guard let r = header.serviceRecords.first(where: { $0.uuid == uuid }) else { return false }; h.serviceRecords = [r]; name = nil
        default: return false
        }
        guard let node = try DiveJSONFragment.node(of: h)[kind]?.elements.first else { return false }
        try db.execute(sql: "INSERT INTO logbook_record (kind, id, name, detail) VALUES (?, ?, ?, ?)", arguments: [kind, uuid, name, node.compactText])
        return true
    }

    /// Every record of the file's header, referred to by a dive or not: nothing a log carried is
    /// left behind. Records already in the logbook (by id) are kept as they are.
    mutating func allRecords() throws {
        for s in header.sites { _ = try site(s.uuid) }
        for t in header.trips { _ = try trip(t.uuid) }
        for p in header.people { _ = try person(p.uuid) }
        for g in header.gear { _ = try gear(g.uuid) }
        for s in header.species { _ = try species(s.uuid) }
        for c in header.courses { _ = try record("courses", c.uuid) }
        for c in header.contacts { _ = try record("contacts", c.uuid) }
        for c in header.certifications { _ = try record("certifications", c.uuid) }
        for g in header.gearSets { _ = try record("gear_sets", g.uuid) }
        for s in header.serviceSchedules { _ = try record("gear_service_schedules", s.uuid) }
        for r in header.serviceRecords { _ = try record("gear_service_records", r.uuid) }
        if let diver = header.diver {
            let id = diver.uuid ?? "diver"
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM logbook_record WHERE kind = 'diver')") != true {
                var h = LogbookHeader(); h.diver = diver
                guard let node = try DiveJSONFragment.node(of: h)["diver"] else { return }
                try db.execute(sql: "INSERT INTO logbook_record (kind, id, name, detail) VALUES ('diver', ?, ?, ?)", arguments: [id, diver.name, node.compactText])
            }
        }
    }

    // MARK: The dive

    /// The dive with references to records neither the logbook nor the file holds left out
    /// (and reported), its referenced records stored first.
    mutating func resolveReferences(_ dive: Dive) throws -> Dive {
        var d = dive
        var sites: [String] = []
        for s in d.siteUUIDs { if try site(s) { sites.append(s) } else { dangling(dive, "site", s) } }
        d.siteUUIDs = sites
        if let t = d.tripUUID, try !trip(t) { dangling(dive, "trip", t); d.tripUUID = nil }
        if let c = d.courseUUID, try !record("courses", c) { dangling(dive, "course", c); d.courseUUID = nil }
        if let c = d.contactUUID, try !record("contacts", c) { dangling(dive, "contact", c); d.contactUUID = nil }
        var people: [PersonReference] = []
        for p in d.people { if try person(p.personUUID) { people.append(p) } else { dangling(dive, "person", p.personUUID) } }
        d.people = people
        var gearList: [String] = []
        for g in d.gearUUIDs { if try gear(g) { gearList.append(g) } else { dangling(dive, "gear item", g) } }
        d.gearUUIDs = gearList
        for k in d.cylinders.indices { if let g = d.cylinders[k].gearUUID, try !gear(g) { dangling(dive, "gear item", g); d.cylinders[k].gearUUID = nil } }
        var sightings: [Sighting] = []
        for s in d.sightings { if try species(s.speciesUUID) { sightings.append(s) } else { dangling(dive, "species", s.speciesUUID) } }
        d.sightings = sightings
        return d
    }

    /// Inserts the dive's rows (its references already resolved).
    mutating func insert(_ dive: Dive, source: Int64?) throws {
        let start = dive.startedAt
        var rest = dive
        rest.number = nil; rest.submergedTime = nil; rest.notes = nil; rest.type = nil; rest.rating = nil; rest.tags = []
        rest.maxDepth = nil; rest.avgDepth = nil; rest.bottomTemperature = nil; rest.visibility = nil; rest.weight = nil
        rest.waterType = nil; rest.altitude = nil; rest.airTemperature = nil; rest.current = nil; rest.waves = nil
        rest.weather = nil; rest.entryType = nil; rest.boatName = nil; rest.tripUUID = nil
        let entry = dive.entryPosition?.extensions == nil ? dive.entryPosition : nil
        let exit = dive.exitPosition?.extensions == nil ? dive.exitPosition : nil
        if entry != nil { rest.entryPosition = nil }
        if exit != nil { rest.exitPosition = nil }
        rest.siteUUIDs = Array(dive.siteUUIDs.dropFirst())
        rest.gearUUIDs = []; rest.sightings = []; rest.people = []; rest.cylinders = []; rest.recordings = []
        rest.provenance = nil; rest.layout = SourceLayout()
        let detail = try Detail.text(ofDive: rest)
        try db.cachedStatement(sql: """
            INSERT INTO dive (id, number, site_id, date, start_time, utc_offset, start_key, max_depth, avg_depth, bottom_time,
              water_temperature, air_temperature, visibility, weight, water_type, altitude, current, waves, weather, entry_type,
              boat_name, entry_lat, entry_lon, exit_lat, exit_lon, type, rating, tags, notes, trip_id, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                dive.uuid, dive.number, dive.siteUUIDs.first, start?.date.description, start?.time?.description, start?.offset?.description,
                start?.wallClockSeconds, dive.maxDepth, dive.avgDepth, dive.submergedTime,
                dive.bottomTemperature, dive.airTemperature, dive.visibility, dive.weight, dive.waterType?.rawValue, dive.altitude,
                dive.current?.rawValue, dive.waves?.rawValue, dive.weather?.rawValue, dive.entryType?.rawValue,
                dive.boatName, entry?.latitude, entry?.longitude, exit?.latitude, exit?.longitude, dive.type?.rawValue, dive.rating,
                Self.json(dive.tags), dive.notes, dive.tripUUID, detail,
            ])
        try insertParts(of: dive, from: 0, source: source)
    }

    /// The dive's lists — cylinders, recordings, people, gear, sightings — at positions from
    /// `first` on (a merge appends to a dive's own).
    mutating func insertParts(of dive: Dive, from first: Int = 0, cylinders: [Cylinder]? = nil, source: Int64?) throws {
        for (k, c) in (cylinders ?? dive.cylinders).enumerated() { try insertCylinder(c, dive: dive.uuid, position: k + first) }
        let recordingBase = try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM recording WHERE dive_id = ?", arguments: [dive.uuid]) ?? 0
        for (k, r) in dive.recordings.enumerated() { try insertRecording(r, dive: dive.uuid, position: recordingBase + k, source: source) }
        let personBase = try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM dive_person WHERE dive_id = ?", arguments: [dive.uuid]) ?? 0
        for (k, p) in dive.people.enumerated() {
            var rest = p
            rest.role = nil
            var holder = Dive(uuid: dive.uuid, startedAt: nil); holder.people = [rest]
            try db.cachedStatement(sql: "INSERT INTO dive_person (dive_id, position, person_id, role, detail) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [dive.uuid, personBase + k, p.personUUID, p.role?.rawValue, try Detail.text(of: "people", in: holder)])
        }
        let gearBase = try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM dive_gear WHERE dive_id = ?", arguments: [dive.uuid]) ?? 0
        for (k, g) in dive.gearUUIDs.enumerated() {
            try db.cachedStatement(sql: "INSERT INTO dive_gear (dive_id, position, gear_id) VALUES (?, ?, ?)").execute(arguments: [dive.uuid, gearBase + k, g])
        }
        let sightingBase = try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM sighting WHERE dive_id = ?", arguments: [dive.uuid]) ?? 0
        for (k, s) in dive.sightings.enumerated() {
            var rest = s
            rest.count = nil; rest.abundance = nil; rest.notes = nil
            var holder = Dive(uuid: dive.uuid, startedAt: nil); holder.sightings = [rest]
            try db.cachedStatement(sql: "INSERT INTO sighting (dive_id, position, species_id, logged_species_id, count, abundance, notes, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                .execute(arguments: [dive.uuid, sightingBase + k, s.speciesUUID, s.speciesUUID, s.count, s.abundance?.rawValue, s.notes, try Detail.text(of: "sightings", in: holder)])
        }
    }

    mutating func insertCylinder(_ c: Cylinder, dive: String, position: Int) throws {
        var holder = Dive(uuid: dive, startedAt: nil)
        var rest = Cylinder()
        rest.extensions = c.extensions
        holder.cylinders = [rest]
        try db.cachedStatement(sql: """
            INSERT INTO cylinder (dive_id, position, volume, start_pressure, end_pressure, oxygen, helium, ppo2_limit, gas_number, role, usage, gear_id, gas_name, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [dive, position, c.volume, c.startPressure, c.endPressure, c.oxygen, c.helium, c.ppo2Limit, c.gasNumber,
                                     c.role?.rawValue, c.usage?.rawValue, c.gearUUID, c.gasNameSaysMore ? c.gasName : nil, try Detail.text(of: "cylinders", in: holder)])
    }

    mutating func insertRecording(_ r: Recording, dive: String, position: Int, source: Int64?) throws {
        var rest = r
        var blob: [UInt8]?
        if let p = r.profile {
            let split = ProfileCodec.split(p)
            blob = split.blob
            rest.profile = split.rest
        }
        // The device's identity in columns when it carries nothing else they cannot hold.
        var device: Device?
        if let d = r.device, d.extensions == nil, d.firmware == nil, d.diveNumber == nil {
            device = d
            rest.device = nil
        }
        rest.mode = nil
        // Settings (a deco model, a mode, a salinity) keep the device beside them: DiveJSON
        // does not write a recording that holds settings alone.
        if !rest.hasContent { rest.device = r.device }
        var holder = Dive(uuid: dive, startedAt: nil)
        holder.recordings = [rest]
        let detail = try Detail.text(of: "recordings", in: holder)
        try db.cachedStatement(sql: """
            INSERT INTO recording (dive_id, position, source_file_id, device_brand, device_model, device_serial, device_name, mode, sample_count, samples, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [dive, position, source, device?.brand, device?.model, device?.serial, device?.name,
                                     r.mode?.rawValue, r.profile?.sampleCount ?? 0, blob.map { Data($0) }, detail])
    }

    static func json(_ list: [String]) -> String {
        JSONNode(.array(list.map { JSONNode(.string($0)) })).compactText
    }
}

/// How names are compared when matching: case, accents, punctuation and spacing folded.
enum Names {
    static func normalized(_ s: String) -> String {
        let folded = s.folded.decomposedStringWithCanonicalMapping
        var out = ""
        var space = false
        for ch in folded.unicodeScalars where ch.properties.generalCategory != .nonspacingMark {
            if ch.properties.isAlphabetic || ("0"..."9").contains(ch) {
                if space, !out.isEmpty { out.append(" ") }
                space = false
                out.unicodeScalars.append(ch)
            } else {
                space = true
            }
        }
        return out
    }
}
