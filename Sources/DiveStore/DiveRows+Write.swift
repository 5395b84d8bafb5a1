import DiveCore
import DiveJSON
import Foundation
import GRDB

/// Writes dives and the records they refer to as rows. Columns take what the app queries;
/// each row's `detail` keeps the rest (see ``Detail``).
struct RowWriter {
    let db: Database
    /// The file's header as read so far (a CSV file's grows as its rows are read).
    var header: LogbookHeader
    var findings: [Finding] = []
    let file: String
    /// Records known to be in the logbook, as `table:id`: each is looked up once per file.
    private var known: Set<String> = []
    /// The logbook's ids of the files a umilog export lists (``LogbookState``), by digest.
    var restoredFiles: [String: Int64] = [:]
    /// The longest text a column takes (``StoreLimits/textBytes``).
    let textBytes: Int

    init(db: Database, header: LogbookHeader, file: String, textBytes: Int = StoreLimits.standard.textBytes) {
        self.db = db; self.header = header; self.file = file; self.textBytes = textBytes
    }

    /// `text`, or nil when it is longer than a column takes: left out, and reported as `what`
    /// at `location` (`store.value-too-long`).
    mutating func fitting(_ text: String?, _ what: @autoclosure () -> String, at location: @autoclosure () -> SourceLocation) -> String? {
        guard let text, text.utf8.count > textBytes else { return text }
        findings.append(Finding(.dropped, "store.value-too-long", "\(what()): \(text.utf8.count) bytes of text, more than the \(textBytes) the logbook keeps in one text; left out", at: location()))
        return nil
    }

    /// `list` without the texts longer than a column takes, each reported as `what` at `location`.
    mutating func fitting(_ list: [String], _ what: String, at location: SourceLocation) -> [String] {
        list.compactMap { fitting($0, what, at: location) }
    }

    /// A name the record cannot be stored without: longer than a column takes fails the file.
    func required(_ name: String, of what: @autoclosure () -> String, at path: String) throws -> String {
        guard name.utf8.count > textBytes else { return name }
        throw DiveError("store.value-too-long", "the name of \(what()): \(name.utf8.count) bytes of text, more than the \(textBytes) the logbook keeps in one text; nothing of the file was imported",
                        at: SourceLocation(file: file, path: path))
    }

    /// A finding about `dive`, at its file, line and record path.
    mutating func report(_ dive: Dive, _ code: String, _ message: String, kind: FindingKind = .dropped) {
        findings.append(Finding(kind, code, message, at: SourceLocation(file: file, line: dive.provenance?.line, path: dive.sourcePath(else: 0))))
    }

    private mutating func dangling(_ dive: Dive, _ what: String, _ uuid: String) {
        report(dive, "store.reference-unresolved", "the dive refers to \(what) \(uuid), which the file does not hold; the reference is left out")
    }

    /// The dive without the values the logbook's checks refuse (a rating of 7, a depth below
    /// zero, a latitude of 95, a gas over 100 %): each left out and reported, so that one odd
    /// value does not cost the file.
    private mutating func withoutRefusedValues(_ dive: Dive) -> Dive {
        var d = dive
        func refuse(_ what: String, _ value: Any, _ rule: String) {
            report(dive, "store.value-refused", "\(what) \(value) is not \(rule); left out")
        }
        if let r = d.rating, !(1...5).contains(r) { refuse("the rating", r, "1 to 5"); d.rating = nil }
        // Depths and durations within what the readers take (``InputLimits/Range``): a reader
        // that does not bound them (DiveJSON) cannot store a dive of 10^18 s, which no sum or
        // conversion that follows (stats, the writers) could hold.
        let deepest = InputLimits.Range.depthMetres.upperBound.doubleValue, longest = InputLimits.Range.diveSeconds.upperBound.doubleValue
        if let v = d.maxDepth, v < 0 || v > deepest { refuse("the maximum depth", v, "a depth (0 to 11,000 m)"); d.maxDepth = nil }
        if let v = d.avgDepth, v < 0 || v > deepest { refuse("the average depth", v, "a depth (0 to 11,000 m)"); d.avgDepth = nil }
        if let v = d.submergedTime, v < 0 || Double(v) > longest { refuse("the duration", v, "a duration (0 s to 10 days)"); d.submergedTime = nil }
        if let p = d.entryPosition, !Self.valid(p) { refuse("the entry position", "\(p.latitude), \(p.longitude)", "a position on Earth"); d.entryPosition = nil }
        if let p = d.exitPosition, !Self.valid(p) { refuse("the exit position", "\(p.latitude), \(p.longitude)", "a position on Earth"); d.exitPosition = nil }
        for k in d.cylinders.indices {
            if let v = d.cylinders[k].oxygen, !(0...100).contains(v) { refuse("cylinder \(k + 1)'s oxygen", v, "a percentage"); d.cylinders[k].oxygen = nil }
            if let v = d.cylinders[k].helium, !(0...100).contains(v) { refuse("cylinder \(k + 1)'s helium", v, "a percentage"); d.cylinders[k].helium = nil }
        }
        for k in d.sightings.indices { if let c = d.sightings[k].count, c < 0 { refuse("a sighting's count", c, "a count"); d.sightings[k].count = nil } }
        // A number that is not finite is no reading (and SQLite would store NaN as nothing).
        func finite(_ what: String, _ value: inout Double?) {
            if let v = value, !v.isFinite { refuse(what, v, "a finite number"); value = nil }
        }
        finite("the maximum depth", &d.maxDepth); finite("the average depth", &d.avgDepth)
        finite("the water temperature", &d.bottomTemperature); finite("the air temperature", &d.airTemperature)
        finite("the visibility", &d.visibility); finite("the weight", &d.weight)
        for k in d.cylinders.indices {
            finite("cylinder \(k + 1)'s volume", &d.cylinders[k].volume)
            finite("cylinder \(k + 1)'s start pressure", &d.cylinders[k].startPressure)
            finite("cylinder \(k + 1)'s end pressure", &d.cylinders[k].endPressure)
            finite("cylinder \(k + 1)'s ppO2 limit", &d.cylinders[k].ppo2Limit)
        }
        // Text longer than a column takes: left out, the rest of the dive kept.
        let at = SourceLocation(file: file, line: dive.provenance?.line, path: dive.sourcePath(else: 0))
        func located(_ member: String) -> SourceLocation { var l = at; l.path = (l.path ?? "") + "/" + member; return l }
        d.notes = fitting(d.notes, "the dive's notes", at: located("notes"))
        d.boatName = fitting(d.boatName, "the boat's name", at: located("boat_name"))
        d.tags = fitting(d.tags, "a tag", at: located("tags"))
        for k in d.cylinders.indices {
            d.cylinders[k].gasName = fitting(d.cylinders[k].gasName, "cylinder \(k + 1)'s gas name", at: located("cylinders/\(k)/gas_name"))
        }
        for k in d.sightings.indices {
            d.sightings[k].notes = fitting(d.sightings[k].notes, "a sighting's notes", at: located("sightings/\(k)/notes"))
        }
        for k in d.recordings.indices {
            guard var device = d.recordings[k].device else { continue }
            let base = "recordings/\(k)/device"
            device.brand = fitting(device.brand, "the device's brand", at: located(base + "/brand"))
            device.model = fitting(device.model, "the device's model", at: located(base + "/model"))
            device.serial = fitting(device.serial, "the device's serial number", at: located(base + "/serial"))
            device.name = fitting(device.name, "the device's name", at: located(base + "/name"))
            d.recordings[k].device = device
        }
        return d
    }

    static func valid(_ p: Position) -> Bool { (-90...90).contains(p.latitude) && (-180...180).contains(p.longitude) }

    /// True when the logbook has the record (and remembers it: the caller inserts it otherwise).
    private mutating func exists(_ table: String, _ id: String) throws -> Bool {
        guard known.insert("\(table):\(id)").inserted else { return true }
        return try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)"), arguments: [id]) ?? false
    }

    // MARK: Referenced records

    /// Makes sure the site exists (from the file's header); false when neither has it.
    mutating func site(_ uuid: String) throws -> Bool {
        if try exists("site", uuid) { return true }
        guard let s = header.site(uuid) else { known.remove("site:\(uuid)"); return false }
        var rest = s
        rest.otherNames = []; rest.tags = []
        // A site a umilog export marks as made from a dive's position stays a user site; one
        // of the seed catalog's, which this logbook lacks, is kept as a log site.
        let marked = LogbookState.take(&rest.extensions, of: .site)["kind"]?.string
        let kind = marked == "user" ? "user" : "log"
        if let marked, marked != "user" { catalogRecordMissing("site \"\(s.name)\"", marked, path: "sites/\(s.uuid)") }
        var position = s.position?.extensions == nil ? s.position : nil
        if let p = position, !Self.valid(p) {
            findings.append(Finding(.dropped, "store.value-refused", "the position \(p.latitude), \(p.longitude) of site \"\(s.name)\" is not a position on Earth; left out",
                                    at: SourceLocation(file: file, path: "sites/\(s.uuid)")))
            position = nil
            rest.position = nil
        }
        if position != nil { rest.position = nil }
        var h = LogbookHeader(); h.sites = [rest]
        let at = SourceLocation(file: file, path: "sites/\(s.uuid)")
        let name = try required(s.name, of: "site \(s.uuid)", at: "sites/\(s.uuid)")
        let tags = fitting(s.tags, "a tag of site \"\(s.name.prefix(80))\"", at: at)
        try db.write("INSERT INTO site (id, name, lat, lon, tags, kind, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
                     [s.uuid, name, position?.latitude, position?.longitude, Self.json(tags), kind, try Detail.text(of: "sites", in: h)])
        for (k, alias) in fitting(s.otherNames, "another name of site \"\(s.name.prefix(80))\"", at: at).enumerated() {
            try db.write("INSERT INTO site_alias (site_id, position, alias, normalized) VALUES (?, ?, ?, ?)",
                         [s.uuid, k, alias, Names.normalized(alias)])
        }
        return true
    }

    mutating func trip(_ uuid: String) throws -> Bool {
        if try exists("trip", uuid) { return true }
        guard let t = header.trips.first(where: { $0.uuid == uuid }) else { known.remove("trip:\(uuid)"); return false }
        var rest = t
        rest.notes = nil
        var h = LogbookHeader(); h.trips = [rest]
        let at = SourceLocation(file: file, path: "trips/\(t.uuid)")
        let row: [(any DatabaseValueConvertible)?] = [t.uuid, try required(t.name, of: "trip \(t.uuid)", at: "trips/\(t.uuid)"),
            fitting(t.notes, "the notes of trip \"\(t.name.prefix(80))\"", at: at), try Detail.text(of: "trips", in: h)]
        try db.write("INSERT INTO trip (id, name, notes, detail) VALUES (?, ?, ?, ?)", row)
        for p in t.people { _ = try person(p.personUUID) }
        return true
    }

    mutating func person(_ uuid: String) throws -> Bool {
        if try exists("person", uuid) { return true }
        guard let p = header.person(uuid) else { known.remove("person:\(uuid)"); return false }
        var rest = p
        rest.email = nil; rest.phone = nil; rest.notes = nil
        var h = LogbookHeader(); h.people = [rest]
        let at = SourceLocation(file: file, path: "people/\(p.uuid)")
        let who = "\"\(p.name.prefix(80))\""
        let row: [(any DatabaseValueConvertible)?] = [p.uuid, try required(p.name, of: "person \(p.uuid)", at: "people/\(p.uuid)"), fitting(p.email, "the email of \(who)", at: at),
            fitting(p.phone, "the phone number of \(who)", at: at), fitting(p.notes, "the notes on \(who)", at: at), try Detail.text(of: "people", in: h)]
        try db.write("INSERT INTO person (id, name, email, phone, notes, detail) VALUES (?, ?, ?, ?, ?, ?)", row)
        return true
    }

    mutating func gear(_ uuid: String) throws -> Bool {
        if try exists("gear", uuid) { return true }
        guard let g = header.gear.first(where: { $0.uuid == uuid }) else { known.remove("gear:\(uuid)"); return false }
        var rest = g
        rest.type = nil; rest.brand = nil; rest.serial = nil
        var h = LogbookHeader(); h.gear = [rest]
        let at = SourceLocation(file: file, path: "gear/\(g.uuid)")
        let row: [(any DatabaseValueConvertible)?] = [g.uuid, try required(g.name, of: "gear item \(g.uuid)", at: "gear/\(g.uuid)"), g.type?.rawValue,
            fitting(g.brand, "the brand of gear item \"\(g.name.prefix(80))\"", at: at),
            fitting(g.serial, "the serial number of gear item \"\(g.name.prefix(80))\"", at: at), try Detail.text(of: "gear", in: h)]
        try db.write("INSERT INTO gear (id, name, type, brand, serial, detail) VALUES (?, ?, ?, ?, ?, ?)", row)
        return true
    }

    mutating func species(_ uuid: String) throws -> Bool {
        if try exists("species", uuid) { return true }
        guard let s = header.species.first(where: { $0.uuid == uuid }) else { known.remove("species:\(uuid)"); return false }
        var rest = s
        rest.scientificName = nil; rest.commonName = nil
        if let marked = LogbookState.take(&rest.extensions, of: .species)["kind"]?.string {
            catalogRecordMissing("species \"\(s.scientificName ?? s.commonName ?? s.uuid)\"", marked, path: "species/\(s.uuid)")
        }
        var h = LogbookHeader(); h.species = [rest]
        let at = SourceLocation(file: file, path: "species/\(s.uuid)")
        let row: [(any DatabaseValueConvertible)?] = [s.uuid, fitting(s.scientificName, "the scientific name of species \(s.uuid)", at: at),
            fitting(s.commonName, "the common name of species \(s.uuid)", at: at), try Detail.text(of: "species", in: h)]
        try db.write("INSERT INTO species (id, scientific_name, common_name, kind, detail) VALUES (?, ?, ?, 'log', ?)", row)
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
        let at = SourceLocation(file: file, path: "\(kind)/\(uuid)")
        let row: [(any DatabaseValueConvertible)?] = [kind, uuid, fitting(name, "the name of \(kind) record \(uuid)", at: at), node.compactText]
        try db.write("INSERT INTO logbook_record (kind, id, name, detail) VALUES (?, ?, ?, ?)", row)
        return true
    }

    /// Every record of the file's header, referred to by a dive or not: nothing a log carried is
    /// left behind. Records already in the logbook (by id) are kept as they are.
    mutating func allRecords() throws {
        for s in header.sites { _ = try site(s.uuid) }
        try restoreSiteState()
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
                let at = SourceLocation(file: file, path: "diver")
                let row: [(any DatabaseValueConvertible)?] = [id, fitting(diver.name, "the diver's name", at: at), node.compactText]
                try db.write("INSERT INTO logbook_record (kind, id, name, detail) VALUES ('diver', ?, ?, ?)", row)
            }
        }
    }

    /// A record a umilog export marks as the seed catalog's (or of a kind unknown here), which
    /// the logbook does not have: it is kept as a log record, and reported.
    private mutating func catalogRecordMissing(_ what: String, _ kind: String, path: String) {
        let message = kind == "catalog"
            ? "\(what) is the seed catalog's, and this logbook has not been seeded (umilog db init --seed); it is kept as a record of the log"
            : "\(what) is marked as of kind \"\(kind)\", which umilog does not know; it is kept as a record of the log"
        findings.append(Finding(.resolved, "store.state-unresolved", message, at: SourceLocation(file: file, path: path + "/extensions/umilog")))
    }

    /// What a umilog export says of its sites (``LogbookState``): the site a log site was
    /// matched to and the diver's list state. A logbook that already decides either keeps its own.
    private mutating func restoreSiteState() throws {
        for s in header.sites {
            let state = LogbookState.members(of: s.extensions)
            if let c = state["canonical_site_uuid"]?.string {
                if c != s.uuid, try site(c) {
                    let current = try String.fetchOne(db, sql: "SELECT canonical_site_id FROM site WHERE id = ?", arguments: [s.uuid])
                    if let current, current != c {
                        siteState(s, "store.state-kept", "site \"\(s.name)\" is matched to site \(c) in the file, to site \(current) in the logbook; the logbook's match is kept")
                    } else {
                        try db.write("UPDATE site SET canonical_site_id = ? WHERE id = ?", [c, s.uuid])
                    }
                } else {
                    siteState(s, "store.state-unresolved", "site \"\(s.name)\" is marked as matched to site \(c), which neither the logbook nor the file holds; left unmatched")
                }
            }
            if let l = state["list_state"]?.string {
                if LogbookState.listStates.contains(l) {
                    let current = try String.fetchOne(db, sql: "SELECT state FROM list_state WHERE site_id = ?", arguments: [s.uuid])
                    if let current, current != l {
                        siteState(s, "store.state-kept", "site \"\(s.name)\" is \(l) in the file, \(current) in the logbook; the logbook's is kept")
                    } else if current == nil {
                        try db.write("INSERT INTO list_state (site_id, state) VALUES (?, ?)", [s.uuid, l])
                    }
                } else {
                    siteState(s, "store.state-unresolved", "site \"\(s.name)\" has the list state \"\(l)\", which is not visited, wishlist or planned; left out")
                }
            }
        }
    }

    /// State a umilog export gives a site that the logbook cannot take (`store.state-unresolved`)
    /// or already decides otherwise (`store.state-kept`).
    private mutating func siteState(_ s: Site, _ code: String, _ message: String) {
        findings.append(Finding(.dropped, code, message, at: SourceLocation(file: file, path: "sites/\(s.uuid)/extensions/umilog")))
    }

    // MARK: The dive

    /// The dive with references to records neither the logbook nor the file holds left out
    /// (and reported), its referenced records stored first.
    mutating func resolveReferences(_ dive: Dive) throws -> Dive {
        var d = withoutRefusedValues(dive)
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
        let columns = Self.columns(of: dive)
        try db.write("""
            INSERT INTO dive (id, \(columns.map(\.0).joined(separator: ", ")), detail)
            VALUES (?, \(Array(repeating: "?", count: columns.count).joined(separator: ", ")), ?)
            """, [dive.uuid] + columns.map(\.1) + [try Self.detail(of: dive)])
        try insertParts(of: dive, appending: false, source: source)
    }

    /// The dive's members its columns hold, by column. A position that carries extensions
    /// stays in the detail whole.
    static func columns(of d: Dive) -> [(String, (any DatabaseValueConvertible)?)] {
        let start = d.startedAt
        let entry = d.entryPosition?.extensions == nil ? d.entryPosition : nil
        let exit = d.exitPosition?.extensions == nil ? d.exitPosition : nil
        return [
            ("number", d.number), ("site_id", d.siteUUIDs.first), ("date", start?.date.description), ("start_time", start?.time?.description),
            ("utc_offset", start?.offset?.description), ("start_key", start?.wallClockSeconds), ("max_depth", d.maxDepth), ("avg_depth", d.avgDepth),
            ("bottom_time", d.submergedTime), ("water_temperature", d.bottomTemperature), ("air_temperature", d.airTemperature),
            ("visibility", d.visibility), ("weight", d.weight), ("water_type", d.waterType?.rawValue), ("altitude", d.altitude),
            ("current", d.current?.rawValue), ("waves", d.waves?.rawValue), ("weather", d.weather?.rawValue), ("entry_type", d.entryType?.rawValue),
            ("boat_name", d.boatName), ("entry_lat", entry?.latitude), ("entry_lon", entry?.longitude), ("exit_lat", exit?.latitude), ("exit_lon", exit?.longitude),
            ("type", d.type?.rawValue), ("rating", d.rating), ("tags", json(d.tags)), ("notes", d.notes), ("trip_id", d.tripUUID),
        ]
    }

    /// The dive's detail: what is left when the columns and the dive's own tables have
    /// taken theirs.
    static func detail(of dive: Dive) throws -> String? {
        var rest = Dive(uuid: dive.uuid, startedAt: nil)
        rest.courseUUID = dive.courseUUID
        rest.contactUUID = dive.contactUUID
        rest.siteUUIDs = Array(dive.siteUUIDs.dropFirst())
        rest.createdAt = dive.createdAt
        rest.extensions = dive.extensions
        if dive.entryPosition?.extensions != nil { rest.entryPosition = dive.entryPosition }
        if dive.exitPosition?.extensions != nil { rest.exitPosition = dive.exitPosition }
        return rest == Dive(uuid: dive.uuid, startedAt: nil) ? nil : try Detail.text(ofDive: rest)
    }

    /// The dive's lists — cylinders, recordings, people, gear, sightings — from position 0, or
    /// after the logbook dive's own when `appending` (a merge; its cylinders are merged apart).
    mutating func insertParts(of dive: Dive, appending: Bool, source: Int64?) throws {
        func base(_ table: String) throws -> Int {
            guard appending else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM \(table) WHERE dive_id = ?", arguments: [dive.uuid]) ?? 0
        }
        if !appending { for (k, c) in dive.cylinders.enumerated() { try insertCylinder(c, dive: dive.uuid, position: k) } }
        let recordingBase = try base("recording")
        for (k, r) in dive.recordings.enumerated() {
            try insertRecording(r, dive: dive.uuid, position: recordingBase + k, source: source, at: dive.sourcePath(else: 0) + "/recordings/\(k)")
        }
        let personBase = try base("dive_person")
        for (k, p) in dive.people.enumerated() {
            var rest = p
            rest.role = nil
            var holder = Dive(uuid: dive.uuid, startedAt: nil); holder.people = [rest]
            let detail = p.extensions == nil ? nil : try Detail.text(of: "people", in: holder)
            try db.write("INSERT INTO dive_person (dive_id, position, person_id, role, detail) VALUES (?, ?, ?, ?, ?)",
                         [dive.uuid, personBase + k, p.personUUID, p.role?.rawValue, detail])
        }
        let gearBase = try base("dive_gear")
        for (k, g) in dive.gearUUIDs.enumerated() {
            try db.write("INSERT INTO dive_gear (dive_id, position, gear_id) VALUES (?, ?, ?)", [dive.uuid, gearBase + k, g])
        }
        let sightingBase = try base("sighting")
        for (k, s) in dive.sightings.enumerated() {
            var rest = s
            rest.count = nil; rest.abundance = nil; rest.notes = nil
            // The species as the log named it, where a umilog export says backfill resolved it.
            var logged = s.speciesUUID
            if let l = LogbookState.take(&rest.extensions, of: .sighting)["logged_species_uuid"]?.string {
                if try species(l) { logged = l } else { dangling(dive, "species", l) }
            }
            var holder = Dive(uuid: dive.uuid, startedAt: nil); holder.sightings = [rest]
            let detail = rest.extensions == nil ? nil : try Detail.text(of: "sightings", in: holder)
            try db.write("INSERT INTO sighting (dive_id, position, species_id, logged_species_id, count, abundance, notes, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         [dive.uuid, sightingBase + k, s.speciesUUID, logged, s.count, s.abundance?.rawValue, s.notes, detail])
        }
    }

    mutating func insertCylinder(_ c: Cylinder, dive: String, position: Int) throws {
        var holder = Dive(uuid: dive, startedAt: nil)
        var rest = Cylinder()
        rest.extensions = c.extensions
        holder.cylinders = [rest]
        try db.write("""
            INSERT INTO cylinder (dive_id, position, volume, start_pressure, end_pressure, oxygen, helium, ppo2_limit, gas_number, role, usage, gear_id, gas_name, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [dive, position, c.volume, c.startPressure, c.endPressure, c.oxygen, c.helium, c.ppo2Limit, c.gasNumber,
                  c.role?.rawValue, c.usage?.rawValue, c.gearUUID, c.gasNameSaysMore ? c.gasName : nil,
                  c.extensions == nil ? nil : try Detail.text(of: "cylinders", in: holder)])
    }

    /// Inserts recording `r` of the dive at `position`, attributed to `source` (nil: to no file)
    /// unless a umilog export names its file; `path` is where the file holds it, for findings.
    mutating func insertRecording(_ r: Recording, dive: String, position: Int, source: Int64?, at path: String) throws {
        var rest = r
        // The file it came from, where a umilog export names one the logbook now has.
        var source = source
        if let sha = LogbookState.take(&rest.extensions, of: .recording)["source_file"]?.string {
            if let id = restoredFiles[sha] { source = id } else {
                let attributed = source == nil ? "the file it came from is left unknown" : "the recording is attributed to this file"
                findings.append(Finding(.dropped, "store.state-unresolved", "a recording names source file \(sha), which the document does not list; \(attributed)",
                                        at: SourceLocation(file: file, path: path + "/extensions/umilog")))
            }
        }
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
        try db.write("""
            INSERT INTO recording (dive_id, position, source_file_id, device_brand, device_model, device_serial, device_name, mode, sample_count, samples, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [dive, position, source, device?.brand, device?.model, device?.serial, device?.name,
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
