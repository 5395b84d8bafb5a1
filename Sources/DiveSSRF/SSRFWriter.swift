import DiveCore
import DiveXML

/// Writes a Subsurface XML logbook (save format 3, `<divelog version='3'>`): the file
/// Subsurface itself saves (`core/save-xml.cpp`), read back by a reader following DiveJSON's
/// `docs/ssrf-mapping.md`.
///
/// - Sites go in `<divesites>` under an eight-hex-digit uuid derived from the model uuid
///   (``siteID(for:)``), every site of the header and every site a dive names; a dive points
///   at its first site with `@divesiteid`. A site's locality is one `<geo cat='5'>` entry
///   (Subsurface's "local name"), never split into a town, a region and a country.
/// - Consecutive dives of one trip are wrapped in one `<trip location=…>`, the trip's name
///   as its location; a dive read from Subsurface carries its trip as
///   `extensions.umilog.trip`, which is written back the same way.
/// - Every recording is a `<divecomputer>`, the first carrying the dive's own depths and
///   temperatures; its channels are merged onto one axis of whole seconds, one `<sample>` per
///   instant with every reading that instant has (nothing thinned to changes only).
/// - What Subsurface XML has no element for is a `dropped` finding (code `ssrf.…`) against
///   the record's path; what it spells more coarsely is `resolved`.
///
/// Streaming like ``UDDFWriter``: dives go to a `body` spool as they come;
/// ``finish(header:to:replayingBody:)`` writes the head (settings and sites), the spooled
/// dives, and the end. Memory holds one dive at a time and the sites, people and trips the
/// dives referred to.
public final class SSRFWriter {
    private let body: ByteSink
    private let generator: Generator
    var out = XMLEmitter(depth: 2)
    private var findings: [Finding] = []
    /// Dives handed over, and those the file holds.
    var divesWritten = 0
    var divesInFile = 0

    // Sites: model uuid → `<site @uuid>`, and the records the dives named, for the head.
    var siteIDs: [String: UInt32] = [:]
    var usedSiteIDs: Set<UInt32> = []
    var referencedSites: [Site] = []

    // Trips: the run being written, and what the file did with each trip.
    var openTrip: TripKey?
    /// Trip uuid → the number of `<trip>` runs written for it.
    var tripRuns: [String: Int] = [:]
    /// People the written dives named.
    var namedPeople: Set<String> = []

    var siteIndex = RecordIndex()
    var personIndex = RecordIndex()
    var tripIndex = RecordIndex()

    /// The source file and line of the dive being written, for its findings.
    private var diveFile: String?
    private var diveLine: Int?

    /// - Parameters:
    ///   - body: where the dives are spooled until ``finish(header:to:replayingBody:)``.
    ///   - generator: the program writing the file, named in `<divelog @program>`.
    public init(body: ByteSink, generator: Generator) {
        self.body = body
        self.generator = generator
    }

    /// What the file could not carry, since the last call.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    func report(_ kind: FindingKind, _ code: String, _ message: String, _ path: String, losing lost: Int = 0) {
        findings.append(Finding(kind, code, message, at: SourceLocation(file: diveFile, line: diveLine, path: path)).losing(lost))
    }

    /// One `dropped` finding naming every member of a record that is present and that
    /// Subsurface XML has no element for (`what` says whose, e.g. "of a site").
    func reportUncarried(_ code: String, _ what: String?, _ members: [(name: String, present: Bool)], _ path: String) {
        let names = members.filter(\.present).map(\.name)
        guard !names.isEmpty else { return }
        let verb = names.count == 1 ? "has" : "have"
        report(.dropped, code, "\(names.joined(separator: ", "))\(what.map { " " + $0 } ?? "") \(verb) no Subsurface XML element", path)
    }

    /// Writes one dive to the spool.
    public func write(_ dive: Dive, header: LogbookHeader) throws {
        let dropped = out.droppedCharacters
        diveLine = dive.provenance?.line
        diveFile = dive.provenance?.file
        defer { diveLine = nil; diveFile = nil }
        writeDive(dive, header: header)
        if out.droppedCharacters > dropped {
            report(.dropped, "ssrf.character-not-xml", "\(out.droppedCharacters - dropped) control character(s) XML cannot hold were left out of the text", dive.sourcePath(else: divesWritten))
        }
        divesWritten += 1
        if out.bytes.count >= 1 << 16 { try out.flush(to: body) }
    }

    /// Writes the whole document to `target`: the head, the spooled dives (handed over by
    /// `replayingBody`, which must feed every spooled chunk to the consumer it is given, in
    /// order) and the end.
    public func finish(header: LogbookHeader, to target: ByteSink,
                       replayingBody: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        closeTrip()
        try out.flush(to: body)
        var head = XMLEmitter()
        let dropped = head.droppedCharacters
        writeHead(header, into: &head)
        if head.droppedCharacters > dropped {
            report(.dropped, "ssrf.character-not-xml", "\(head.droppedCharacters - dropped) control character(s) XML cannot hold were left out of the sites' text", "sites")
        }
        try head.flush(to: target)
        try replayingBody { try target.write($0) }
        var end = XMLEmitter(depth: 2)
        end.close("dives")
        end.close("divelog")
        try end.flush(to: target)
        reportUncarriedHeader(header)
    }

    // MARK: Head

    private func writeHead(_ header: LogbookHeader, into x: inout XMLEmitter) {
        x.open("divelog", [("program", generator.name), ("version", "3")])
        x.empty("settings", [])
        // Every site of the header, then those only the dives named (a site dropped from
        // the header between the dives and the end must still resolve: Subsurface follows
        // a `@divesiteid` without checking it).
        var sites: [(Site, String)] = header.sites.enumerated().map { ($0.element, "sites/\($0.offset)") }
        let inHeader = Set(header.sites.map(\.uuid))
        sites += referencedSites.filter { !inHeader.contains($0.uuid) }.map { ($0, "sites") }
        if sites.isEmpty {
            x.empty("divesites", [])
        } else {
            x.open("divesites")
            for (site, path) in sites { writeSite(site, path: path, into: &x) }
            x.close("divesites")
        }
        x.open("dives")
    }

    /// `<site uuid name gps>` with its notes and its locality.
    private func writeSite(_ s: Site, path: String, into x: inout XMLEmitter) {
        var attributes = [("uuid", SSRFText.hex8(siteID(for: s.uuid)))]
        if !s.name.isEmpty {
            attributes.append(("name", s.name))
        } else {
            report(.dropped, "ssrf.site-name-empty", "the site's name is empty, which Subsurface writes as no name; a reader drops a nameless site", path)
        }
        if let p = s.position {
            if p.latitude == 0 && p.longitude == 0 {
                report(.dropped, "ssrf.site-position-zero", "a position of 0, 0 is Subsurface's \"no position\"; not written", path)
            } else if let lat = SSRFText.degrees(p.latitude), let lon = SSRFText.degrees(p.longitude) {
                attributes.append(("gps", "\(lat.text) \(lon.text)"))
                if lat.rounded || lon.rounded {
                    report(.resolved, "ssrf.gps-rounded", "the position is written to the micro-degree (six decimals), as Subsurface keeps one", path)
                }
            }
        }
        let notes = s.notes.flatMap { $0.isEmpty ? nil : $0 }
        let locality = s.location.flatMap { $0.name.isEmpty ? nil : $0.name }
        // The ocean (category 1) and the taxonomy entries the locality does not use, carried.
        var carried = CarriedMembers(s.extensions)
        var geo: [[(String, String)]] = []
        if let ocean = carried.string("ocean") { geo.append([("cat", "1"), ("origin", "2"), ("value", ocean)]) }
        if let entries: [[(String, String)]] = carried.take("geo", { v in
            guard let list = v.carriedArray else { return nil }
            let out = list.compactMap { e -> [(String, String)]? in
                guard let value = e.carriedMember("value")?.carriedString else { return nil }
                return (e.carriedMember("cat")?.carriedInteger.map { [("cat", String($0))] } ?? []) + [("origin", "2"), ("value", value)]
            }
            return out.count == list.count ? out : nil
        }) { geo += entries }
        if notes == nil && locality == nil && geo.isEmpty {
            x.empty("site", attributes)
        } else {
            x.open("site", attributes)
            if let notes { x.element("notes", notes) }
            if let locality { x.empty("geo", [("cat", "5"), ("origin", "2"), ("value", locality)]) }
            for g in geo { x.empty("geo", g) }
            x.close("site")
        }
        if s.notes?.isEmpty == true { report(.dropped, "ssrf.empty-notes", "an empty note has no spelling in Subsurface XML", path) }
        if let l = s.location {
            reportUncarried("ssrf.locality-member-not-carried", "of a site's locality", [
                ("position", l.position != nil), ("bbox", l.bbox != nil), ("extensions", l.extensions != nil),
            ], path)
        }
        reportUncarried("ssrf.site-member-not-carried", "of a site", [
            ("other_names", !s.otherNames.isEmpty), ("external_ids", !s.externalIDs.isEmpty),
            ("depth_from", s.depthFrom != nil), ("depth_to", s.depthTo != nil), ("water_type", s.waterType != nil),
            ("altitude", s.altitude != nil), ("entry_types", !s.entryTypes.isEmpty), ("tags", !s.tags.isEmpty),
            ("created_at", s.createdAt != nil), (carried.leftover ?? "", carried.leftover != nil),
            ("position.extensions", s.position?.extensions != nil),
        ], path)
    }

    /// The `<site @uuid>` of a model site: the first eight hex digits of a UUIDv5 of its uuid
    /// in the format's namespace, the leading digit never `0` (Subsurface prints the id
    /// space-padded, `%8x`, so a leading zero would come back as a space), and the next free
    /// value where two sites of one file would share one. Stable for a site across files,
    /// unique within one.
    func siteID(for uuid: String) -> UInt32 {
        if let id = siteIDs[uuid] { return id }
        let hash = Identity.uuid5(namespace: SSRF.namespace, name: "site:\(uuid)")
        var id = UInt32(hash.prefix(8), radix: 16) ?? 0x1000_0000
        if id < 0x1000_0000 { id |= 0x1000_0000 }
        while usedSiteIDs.contains(id) { id = id == .max ? 0x1000_0000 : id + 1 }
        usedSiteIDs.insert(id)
        siteIDs[uuid] = id
        return id
    }

    // MARK: What the header holds that the file cannot

    private func reportUncarriedHeader(_ h: LogbookHeader) {
        if divesInFile > 0 {
            report(.dropped, "ssrf.dive-uuid-not-carried", "Subsurface XML gives a dive no id: the uuids of the \(divesInFile) dive(s) are not written (a reader derives one from each dive's place in the file)", "dives")
        }
        if let d = h.diver {
            report(.dropped, "ssrf.diver-not-carried", "Subsurface XML records nothing about the logbook's owner\(d.name.map { " (\($0))" } ?? "")", "diver")
        }
        for (i, t) in h.trips.enumerated() {
            let path = "trips/\(i)"
            guard let runs = tripRuns[t.uuid] else {
                report(.dropped, "ssrf.trip-not-carried", "trip \"\(t.name)\" is not written: no dive in the file belongs to it, and a Subsurface trip is the dives it holds", path)
                continue
            }
            if runs > 1 {
                report(.dropped, "ssrf.trip-split", "the trip's dives are not consecutive, and a <trip> holds consecutive dives: it is written as \(runs) trips", path)
            }
            reportUncarried("ssrf.trip-member-not-carried", "of a trip", [
                ("parts", !t.parts.isEmpty), ("people", !t.people.isEmpty),
                ("created_at", t.createdAt != nil), ("extensions", t.extensions != nil),
            ], path)
        }
        for (i, p) in h.people.enumerated() {
            let path = "people/\(i)"
            guard namedPeople.contains(p.uuid) else {
                report(.dropped, "ssrf.person-not-carried", "\(p.name) is not written: Subsurface XML keeps a person only as a name on a dive, and no dive in the file names them", path)
                continue
            }
            reportUncarried("ssrf.person-member-not-carried", "of a person", [
                ("email", p.email != nil), ("phone", p.phone != nil), ("notes", p.notes != nil),
                ("created_at", p.createdAt != nil), ("extensions", p.extensions != nil),
            ], path)
        }
        func records(_ code: String, _ what: String, _ collection: String, _ count: Int) {
            guard count > 0 else { return }
            report(.dropped, code, "Subsurface XML has no \(what): the \(count) record(s) are not written", collection)
        }
        records("ssrf.species-not-carried", "species list", "species", h.species.count)
        records("ssrf.gear-not-carried", "gear list", "gear", h.gear.count)
        records("ssrf.gear-set-not-carried", "gear set", "gear_sets", h.gearSets.count)
        records("ssrf.service-not-carried", "gear service history", "gear_service_schedules", h.serviceSchedules.count)
        records("ssrf.service-not-carried", "gear service history", "gear_service_records", h.serviceRecords.count)
        records("ssrf.course-not-carried", "course", "courses", h.courses.count)
        records("ssrf.certification-not-carried", "certification", "certifications", h.certifications.count)
        records("ssrf.contact-not-carried", "dive centre, shop or other contact", "contacts", h.contacts.count)
        if h.extensions != nil {
            report(.dropped, "ssrf.extensions-not-carried", "the document's extensions have no place in Subsurface XML", "extensions")
        }
    }
}

/// A record's position in a header collection by uuid, rebuilt when the collection grows
/// (a batch's header is merged input by input), so that a dive's references resolve in
/// constant time.
struct RecordIndex {
    private var positions: [String: Int] = [:]
    private var indexed = -1

    mutating func find<T>(_ uuid: String, in records: [T], _ id: (T) -> String) -> T? {
        if records.count != indexed {
            positions.removeAll(keepingCapacity: true)
            for (i, r) in records.enumerated() where positions[id(r)] == nil { positions[id(r)] = i }
            indexed = records.count
        }
        guard let i = positions[uuid], i < records.count, id(records[i]) == uuid else {
            return records.first { id($0) == uuid }
        }
        return records[i]
    }
}

/// What makes consecutive dives one `<trip>`: a trip record, or the trip a dive read from
/// Subsurface carried in `extensions.umilog.trip`.
enum TripKey: Hashable {
    case record(String)
    case carried(ExtensionValue)
}
