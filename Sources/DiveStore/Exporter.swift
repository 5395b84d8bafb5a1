import DiveCore
import DiveJSON
import GRDB

/// Which dives an export takes.
public struct ExportScope: Sendable, Hashable {
    /// Dives with this number (the logbook's, or the source's when it gave one).
    public var diveNumber: Int?
    /// Dives at a site whose name or an alias holds every word of this (case, accents and
    /// punctuation folded), or at a log site matched to such a site.
    public var site: String?
    /// Dives on or after / on or before these days.
    public var from: LocalDate?
    /// The last day an export takes (inclusive).
    public var through: LocalDate?
    /// A scope of the dives that meet every condition given; none given takes every dive.
    public init(diveNumber: Int? = nil, site: String? = nil, from: LocalDate? = nil, through: LocalDate? = nil) {
        self.diveNumber = diveNumber; self.site = site; self.from = from; self.through = through
    }
    /// True when it takes every dive (and so every record of the logbook).
    public var isAll: Bool { diveNumber == nil && site == nil && from == nil && through == nil }
}

/// The logbook's dives as a `DiveSource`, in the order they were dived, with the records
/// they refer to — or, for the whole logbook, every record a dive log brought into it — so
/// that every writer `convert` has can export them.
///
/// With `logbookState`, the records also carry what the logbook knows beyond DiveJSON — each
/// dive's sources, backfill's decisions, the diver's site lists — under the `umilog` extension
/// key (see `LogbookState`), and the sites and species those refer to come along: a DiveJSON
/// export made so is a backup that `import` restores.
///
/// The export reads one state of the logbook from start to end (a snapshot): an import or
/// backfill running meanwhile is either wholly in it or not at all.
public final class LogbookExport: DiveSource {
    /// The records the dives handed out so far refer to (for the whole logbook, every record); complete when ``next()`` returns `nil`.
    public private(set) var header = LogbookHeader()
    private let store: LogbookStore
    private let snapshot: DatabaseSnapshot
    private let ids: [String]
    private var next_ = 0
    private var findings: [Finding] = []
    private var seen: Set<String> = []
    private let state: Bool
    /// The files the exported dives came from (with `state`), in import order.
    private var sourceFiles: [String] = []
    private var sourceFilesSeen: Set<String> = []
    private var finished = false

    /// Takes a snapshot of `store` and lists the dives `scope` takes; with `logbookState` the records carry what the logbook knows beyond DiveJSON (a backup). Throws `store.database` when the logbook cannot be read.
    public init(store: LogbookStore, scope: ExportScope = ExportScope(), logbookState: Bool = false) throws {
        self.store = store
        self.state = logbookState
        let snapshot = try store.located { try store.pool.makeSnapshot() }
        self.snapshot = snapshot
        var clauses: [String] = []
        var arguments: [DatabaseValueConvertible?] = []
        if let n = scope.diveNumber { clauses.append("number = ?"); arguments.append(n) }
        if let f = scope.from { clauses.append("date >= ?"); arguments.append(f.description) }
        if let t = scope.through { clauses.append("date <= ?"); arguments.append(t.description) }
        if let name = scope.site {
            // Every word of the name a word of the site's name or an alias ("Blue Hole" finds
            // "The Blue Hole, Dahab"); a name with no word matches no dive.
            if let (c, a) = SiteWords.diveClause(name) { clauses.append(c); arguments += a } else { clauses.append("0") }
        }
        let whereClause = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        ids = try store.located { try snapshot.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM dive \(whereClause) ORDER BY start_key IS NULL, start_key, number, id",
                                arguments: StatementArguments(arguments))
        } }
        if scope.isAll { try addEverything() }
    }

    /// How many dives the export holds.
    public var count: Int { ids.count }

    /// The next dive in the order they were dived, or `nil` after the last.
    public func next() throws -> Dive? {
        guard next_ < ids.count else {
            try finish()
            return nil
        }
        let id = ids[next_]
        next_ += 1
        let index = next_ - 1
        return try read { db in
            var reader = RowReader(db: db, state: state)
            guard var dive = try reader.dive(id) else { return nil }
            try addReferences(of: dive, reader: &reader)
            for sha in reader.sourceFiles where sourceFilesSeen.insert(sha).inserted { sourceFiles.append(sha) }
            // Findings about the dive — the writer's, and those reading its stored detail made
            // (located "store") — name the logbook's dive: its number, date and id.
            let label = Self.label(dive)
            var p = Provenance(format: "logbook", file: store.path, sourceID: id, index: index)
            p.label = label
            dive.provenance = p
            findings += reader.findings.map { f in
                guard f.location.file == "store" || f.location.file == nil else { return f }
                var f = f
                let rest = f.location.path.map { $0.hasPrefix("dive/0") ? String($0.dropFirst("dive/0".count)) : "/" + $0 } ?? ""
                f.location = SourceLocation(file: store.path, path: "dive \(label)" + rest)
                return f
            }
            return dive
        }
    }

    /// Lists the files the dives came from in the document's `umilog` entry (with `state`).
    private func finish() throws {
        guard state, !finished else { return }
        finished = true
        let files = try read { db in try RowReader(db: db).sourceFileRecords(sourceFiles) }
        guard !files.isEmpty else { return }
        header.extensions = LogbookState.adding([.init("source_files", .array(files.map(\.value)))], to: header.extensions)
    }

    /// `#13 2009-08-29 a8df7e2a`: the dive's number (`#–` for none), its day and its id's first
    /// eight characters.
    static func label(_ d: Dive) -> String {
        "#\(d.number.map(String.init) ?? "–") \(d.startedAt?.date.description ?? "undated") \(d.uuid.prefix(8))"
    }

    /// Reads the export's state of the logbook; a database error is located at the logbook.
    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try store.located { try snapshot.read(body) }
    }

    /// Findings since the last call: what the logbook holds that the dive could not carry back.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    private func addReferences(of d: Dive, reader: inout RowReader) throws {
        for s in d.siteUUIDs { try addSite(s, reader: &reader) }
        if let t = d.tripUUID, seen.insert("trip:\(t)").inserted, let trip = try reader.trip(t) {
            header.trips.append(trip)
            for p in trip.people where seen.insert("person:\(p.personUUID)").inserted { if let person = try reader.person(p.personUUID) { header.people.append(person) } }
        }
        for p in d.people where seen.insert("person:\(p.personUUID)").inserted { if let person = try reader.person(p.personUUID) { header.people.append(person) } }
        for g in d.gearUUIDs + d.cylinders.compactMap(\.gearUUID) where seen.insert("gear:\(g)").inserted { if let gear = try reader.gear(g) { header.gear.append(gear) } }
        for s in d.sightings { try addSpecies(s.speciesUUID, reader: &reader) }
        if state { for case let s? in try reader.loggedSpecies(ofDive: d.uuid) { try addSpecies(s, reader: &reader) } }
        if let c = d.courseUUID, seen.insert("courses:\(c)").inserted { try reader.record("courses", c, into: &header) }
        if let c = d.contactUUID, seen.insert("contacts:\(c)").inserted { try reader.record("contacts", c, into: &header) }
    }

    /// The site, and (with `state`) the site it was matched to.
    private func addSite(_ id: String, reader: inout RowReader) throws {
        guard seen.insert("site:\(id)").inserted, let site = try reader.site(id) else { return }
        header.sites.append(site)
        if state, let c = try reader.canonicalSite(of: id) { try addSite(c, reader: &reader) }
    }

    private func addSpecies(_ id: String, reader: inout RowReader) throws {
        if seen.insert("species:\(id)").inserted, let sp = try reader.species(id) { header.species.append(sp) }
    }

    /// Every record dive logs brought into the logbook (catalog sites and species only when a
    /// dive refers to them, or, with `state`, when the diver listed or matched the site).
    private func addEverything() throws {
        try read { db in
            var reader = RowReader(db: db, state: state)
            let listed = state ? " OR id IN (SELECT site_id FROM list_state) OR id IN (SELECT canonical_site_id FROM site)" : ""
            for id in try String.fetchAll(db, sql: "SELECT id FROM site WHERE kind != 'catalog'\(listed) ORDER BY rowid") {
                try addSite(id, reader: &reader)
            }
            if state {
                sourceFiles = try String.fetchAll(db, sql: "SELECT sha256 FROM source_file ORDER BY id")
                sourceFilesSeen = Set(sourceFiles)
            }
            for id in try String.fetchAll(db, sql: "SELECT id FROM trip ORDER BY rowid") where seen.insert("trip:\(id)").inserted {
                if let t = try reader.trip(id) { header.trips.append(t) }
            }
            for id in try String.fetchAll(db, sql: "SELECT id FROM person ORDER BY rowid") where seen.insert("person:\(id)").inserted {
                if let p = try reader.person(id) { header.people.append(p) }
            }
            for id in try String.fetchAll(db, sql: "SELECT id FROM gear ORDER BY rowid") where seen.insert("gear:\(id)").inserted {
                if let g = try reader.gear(id) { header.gear.append(g) }
            }
            for id in try String.fetchAll(db, sql: "SELECT id FROM species WHERE kind = 'log' ORDER BY rowid") { try addSpecies(id, reader: &reader) }
            for row in try Row.fetchAll(db, sql: "SELECT kind, id FROM logbook_record ORDER BY kind, id") {
                let kind: String = row["kind"], id: String = row["id"]
                if seen.insert("\(kind):\(id)").inserted { try reader.record(kind, id, into: &header) }
            }
            findings += reader.findings
        }
    }
}
