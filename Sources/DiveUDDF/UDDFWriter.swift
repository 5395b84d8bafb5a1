import DiveCore
import DiveXML
#if canImport(Glibc)
import Glibc
#endif

/// Writes UDDF 3.2.2 from the canonical model, following DiveJSON's `docs/uddf-writing.md`:
/// elements in the order the XSD demands, SI units computed in decimal, `kind-<uuid>` ids,
/// one `<mix>` per cylinder of a dive (shared across dives), every reading on its own
/// waypoint, and a `dropped` (or `absent`) finding for whatever UDDF has no place for.
/// Nothing is invented for a required element: UDDF's own "not recorded" spelling (`0`) is
/// written where it has one.
///
/// Streaming: dives go to a `body` spool as they come, with their mix references left as
/// placeholders; ``finish(header:to:replayingBody:)`` then writes the sections that precede
/// the dives in the file (the diver's kit, bases and guides, gases), the spooled dives with
/// their references resolved, and the end of the document. Memory holds one dive at a time
/// and the logbook's distinct gases and computers.
public final class UDDFWriter {
    private let body: ByteSink
    private var out = XMLEmitter(depth: 3)
    private let generator: Generator
    private let exportedAt: String
    private var findings: [Finding] = []
    /// Dives handed over, and those the file holds (a dive with no start cannot be written).
    private(set) var divesWritten = 0
    var divesInFile = 0

    // What the dives needed, for the sections written at the end.
    /// The gases the dives need, one per cylinder of a dive (a key's n-th instance is shared
    /// by the n-th cylinder of that gas in every dive); a slot's placeholder is its index.
    var mixSlots: [MixSlot] = []
    var mixPlaceholders: [MixSlot: Int] = [:]
    /// Computers recorded by devices, folded (§ Devices): one record per computer.
    var deviceRecords: [DeviceRecord] = []
    /// `device-<n>` numbers handed out so far.
    var devicesNumbered = 0
    /// Gear items a device record folded into: gear uuid → record index.
    var foldedGear: [String: Int] = [:]
    /// Guides under dive bases: (contact uuid, person uuid) → guide number.
    var guides: [GuideKey: Int] = [:]
    var guideOrder: [GuideKey] = []

    /// How a dive logged with a date and no time is written.
    public var dateOnlyStart: DateOnlyStart = .bare

    /// - Parameters:
    ///   - body: where the dives are spooled until ``finish(header:to:replayingBody:)``.
    ///   - exportedAt: the `<generator><datetime>`, when the source states no export time.
    public init(body: ByteSink, generator: Generator, exportedAt: String) {
        self.body = body
        self.generator = generator
        self.exportedAt = exportedAt
    }

    /// What the file could not carry, since the last call.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// The line the dive being written starts on in its source, for its findings.
    private var diveLine: Int?

    func report(_ kind: FindingKind, _ code: String, _ message: String, _ path: String, losing lost: Int = 0) {
        findings.append(Finding(kind, code, message, at: SourceLocation(file: diveFile, line: diveLine, path: path)).losing(lost))
    }

    /// The source file of the dive being written (a writer's finding is about its input).
    private var diveFile: String?

    /// One `dropped` finding naming every member of a record that is present and has no UDDF
    /// element (`what` says whose, e.g. "of a site").
    func reportUncarried(_ code: String, _ what: String?, _ members: [(name: String, present: Bool)], _ path: String) {
        let names = members.filter(\.present).map(\.name)
        guard !names.isEmpty else { return }
        report(.dropped, code, "\(names.joined(separator: ", "))\(what.map { " " + $0 } ?? "") have no UDDF element", path)
    }

    /// Writes one dive to the spool.
    public func write(_ dive: Dive, header: LogbookHeader) throws {
        let dropped = out.droppedCharacters
        diveLine = dive.provenance?.line
        diveFile = dive.provenance?.file
        defer { diveLine = nil; diveFile = nil }
        writeDive(dive, header: header, into: &out)
        if out.droppedCharacters > dropped {
            report(.dropped, "uddf.character-not-xml", "\(out.droppedCharacters - dropped) control character(s) XML cannot hold were left out of the text", dive.sourcePath(else: divesWritten))
        }
        divesWritten += 1
        if out.bytes.count >= 1 << 16 { try out.flush(to: body) }
    }

    /// Writes the whole document to `target`: the head, the spooled dives (handed over by
    /// `replayingBody`, which must feed every spooled chunk to the consumer it is given, in
    /// order) and the end.
    public func finish(header: LogbookHeader, to target: ByteSink,
                       replayingBody: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try out.flush(to: body)
        // Placeholders in the order they are numbered: by oxygen, then helium, limit and name,
        // an unrecorded gas last; a key's instances in turn.
        let numbered = mixSlots.indices.sorted { a, b in
            let (x, y) = (mixSlots[a], mixSlots[b])
            return x.key != y.key ? x.key < y.key : x.instance < y.instance
        }
        var head = XMLEmitter()
        writeHead(header, gases: numbered, into: &head)
        try head.flush(to: target)
        if divesInFile > 0 {
            var numbers = [Int](repeating: 0, count: mixSlots.count)
            for (n, placeholder) in numbered.enumerated() { numbers[placeholder] = n + 1 }
            var resolver = MixReferenceResolver(numbers: numbers, target: target)
            try replayingBody { try resolver.consume($0) }
            try resolver.finish()
            var tail = XMLEmitter(depth: 3)
            tail.close("repetitiongroup")
            tail.close("profiledata")
            try tail.flush(to: target)
        }
        var end = XMLEmitter()
        end.raw("</uddf>\n")
        try end.flush(to: target)
    }

    // MARK: Head

    private func writeHead(_ header: LogbookHeader, gases: [Int], into x: inout XMLEmitter) {
        x.raw("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n")
        x.open("uddf", [("xmlns", "http://www.streit.cc/uddf/3.2/"), ("version", "3.2.2")])
        x.open("generator")
        x.element("name", generator.name)
        x.element("type", "converter")
        if let v = generator.version { x.element("version", v) }
        x.element("datetime", header.exportedAt ?? exportedAt)
        x.close("generator")
        if header.contacts.contains(where: { $0.roles == [.shop] }) {
            x.open("business")
            for (i, c) in header.contacts.enumerated() where c.roles == [.shop] {
                writeContactBody(c, element: "shop", id: "contact-\(c.uuid)", guides: [], path: "contacts/\(i)", into: &x)
            }
            x.close("business")
        }
        writeDiver(header, into: &x)
        writeSites(header, into: &x)
        writeTrips(header, into: &x)
        writeGases(gases, into: &x)
        if divesInFile > 0 {
            x.open("profiledata")
            x.open("repetitiongroup", [("id", "rg-1")])
        }
        reportUncarriedCollections(header)
    }

    private func reportUncarriedCollections(_ h: LogbookHeader) {
        for (i, c) in h.courses.enumerated() {
            report(.dropped, "uddf.course-not-carried", "course \"\(c.name)\" is not written: UDDF has no course (a <divetrip> is a holiday, not training)", "courses/\(i)")
        }
        for (i, c) in h.certifications.enumerated() {
            report(.dropped, "uddf.certification-not-carried", "certification \"\(c.name)\" is not written: UDDF's <education> holds no card this logbook's shape fits", "certifications/\(i)")
        }
        for (i, s) in h.gearSets.enumerated() {
            report(.dropped, "uddf.gear-set-not-carried", "gear set \"\(s.name)\" is not written: UDDF's <equipmentconfiguration> describes rigging, not a named set", "gear_sets/\(i)")
        }
        for i in h.serviceSchedules.indices {
            report(.dropped, "uddf.service-not-carried", "a gear service schedule is not written: UDDF keeps no service history", "gear_service_schedules/\(i)")
        }
        for i in h.serviceRecords.indices {
            report(.dropped, "uddf.service-not-carried", "a gear service record is not written: UDDF keeps no service history", "gear_service_records/\(i)")
        }
        for (i, s) in h.species.enumerated() {
            report(.dropped, "uddf.species-not-carried", "species \(s.scientificName ?? s.commonName ?? s.uuid) is not written: UDDF files a species under a class DiveJSON does not record", "species/\(i)")
        }
        if h.extensions != nil {
            report(.dropped, "uddf.extensions-not-carried", "the document's extensions have no place in UDDF", "extensions")
        }
    }

    // MARK: Diver, kit, people

    private func writeDiver(_ header: LogbookHeader, into x: inout XMLEmitter) {
        let d = header.diver
        let ownerMapped = d.map { $0.name != nil || $0.email != nil || $0.phone != nil || $0.bornOn != nil || !$0.insurances.isEmpty } ?? false
        guard ownerMapped || !header.gear.isEmpty || deviceRecords.contains(where: { $0.number != nil }) || !header.people.isEmpty else {
            if let d, d.uuid != nil || !d.emergencyContacts.isEmpty || d.portraitFile != nil {
                report(.dropped, "uddf.diver-not-carried", "the diver records nothing UDDF's <owner> holds, so no <diver> is written", "diver")
            }
            return
        }
        x.open("diver")
        let ownerID = ownerMapped ? d?.uuid.map { "diver-\($0)" } ?? "owner" : "owner"
        x.open("owner", [("id", ownerID)])
        writePersonal(d?.name, bornOn: d?.bornOn, path: "diver", into: &x)
        writeContactDetails(phone: d?.phone, email: d?.email, website: nil, into: &x)
        writeEquipment(header, into: &x)
        if let d, !d.insurances.isEmpty {
            x.open("diveinsurances")
            for (i, ins) in d.insurances.enumerated() {
                x.open("insurance")
                x.element("name", ins.provider)
                if let e = ins.expiresOn {
                    x.open("validdate")
                    x.element("datetime", midnight(e))
                    x.close("validdate")
                }
                x.close("insurance")
                if ins.number != nil {
                    report(.dropped, "uddf.insurance-number-not-carried", "the insurance number has no element in UDDF's <insurance>", "diver/insurances/\(i)")
                }
            }
            x.close("diveinsurances")
        }
        x.close("owner")
        if let d {
            if !d.emergencyContacts.isEmpty {
                report(.dropped, "uddf.emergency-contact-not-carried", "UDDF has no element for an emergency contact", "diver")
            }
            if d.portraitFile != nil { report(.dropped, "uddf.portrait-not-carried", "UDDF's <owner> has no portrait", "diver") }
        }
        for (i, p) in header.people.enumerated() {
            x.open("buddy", [("id", "person-\(p.uuid)")])
            writePersonal(p.name, bornOn: nil, path: "people/\(i)", into: &x)
            writeContactDetails(phone: p.phone, email: p.email, website: nil, into: &x)
            writeNotes(p.notes, path: "people/\(i)", into: &x)
            x.close("buddy")
            reportUncarried("uddf.person-member-not-carried", "of a person", [
                ("created_at", p.createdAt != nil), ("extensions", p.extensions != nil),
            ], "people/\(i)")
        }
        x.close("diver")
    }

    /// `<personal>` with a name split at its first space (`personalType` requires both parts).
    private func writePersonal(_ name: String?, bornOn: LocalDate?, path: String, into x: inout XMLEmitter) {
        let words = (name ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        let normalised = words.joined(separator: " ")
        if let name, normalised != name {
            report(.resolved, "uddf.name-whitespace", normalised.isEmpty
                   ? "a name of whitespace alone is written empty; a reader drops the person"
                   : "the name's whitespace is written as single spaces", path)
        }
        x.open("personal")
        x.element("firstname", words.first.map(String.init) ?? "")
        x.element("lastname", words.dropFirst().joined(separator: " "))
        if let bornOn {
            x.open("birthdate")
            x.element("datetime", midnight(bornOn))
            x.close("birthdate")
        }
        x.close("personal")
    }

    private func writeContactDetails(phone: String?, email: String?, website: String?, into x: inout XMLEmitter) {
        guard phone != nil || email != nil || website != nil else { return }
        x.open("contact")
        if let phone { x.element("phone", phone) }
        if let email { x.element("email", email) }
        if let website { x.element("homepage", website) }
        x.close("contact")
    }

    func writeNotes(_ notes: String?, path: String, into x: inout XMLEmitter) {
        guard let notes else { return }
        guard !notes.isEmpty else {
            report(.dropped, "uddf.empty-notes", "an empty note has no spelling in UDDF", path)
            return
        }
        x.open("notes")
        x.element("para", notes)
        x.close("notes")
    }

    /// The UDDF element for a gear type, and whether the type comes back as itself.
    private func element(for type: GearType?) -> (String, Bool) {
        switch type {
        case .mask?, .fins?, .gloves?, .boots?, .compass?, .knife?, .light?, .regulator?, .rebreather?, .scooter?:
            return (type!.rawValue, true)
        case .bcd?: return ("buoyancycontroldevice", true)
        case .wing?: return ("buoyancycontroldevice", false)
        case .computer?: return ("divecomputer", true)
        case .cylinder?: return ("tank", true)
        case .wetsuit?, .drysuit?: return ("suit", true)
        case .other?: return ("variouspieces", true)
        default: return ("variouspieces", false)
        }
    }

    private static let equipmentOrder = ["boots", "buoyancycontroldevice", "camera", "compass", "compressor", "divecomputer",
                                         "equipmentconfiguration", "fins", "gloves", "knife", "lead", "light", "mask", "rebreather",
                                         "regulator", "scooter", "suit", "tank", "variouspieces", "videocamera", "watch"]

    private func writeEquipment(_ header: LogbookHeader, into x: inout XMLEmitter) {
        let unfolded = deviceRecords.filter { $0.number != nil }.sorted { $0.number! < $1.number! }
        guard !header.gear.isEmpty || !unfolded.isEmpty else { return }
        x.open("equipment")
        for name in Self.equipmentOrder {
            for (i, g) in header.gear.enumerated() where element(for: g.type).0 == name {
                writeGearItem(g, path: "gear/\(i)", into: &x)
            }
            if name == "divecomputer" {
                for r in unfolded { writeDeviceElement(r, number: r.number!, into: &x) }
            }
        }
        x.close("equipment")
    }

    private func writeGearItem(_ g: GearItem, path: String, into x: inout XMLEmitter) {
        let (tag, keepsType) = element(for: g.type)
        if !keepsType {
            report(.dropped, "uddf.gear-type-not-carried", "gear type \(g.type?.rawValue ?? "(none)") has no UDDF element of its own; written as <\(tag)>", path)
        }
        let device = foldedGear[g.uuid].map { deviceRecords[$0].device }
        x.open(tag, [("id", "gear-\(g.uuid)")])
        x.element("name", g.name)
        if let brand = g.brand ?? device?.brand {
            x.open("manufacturer", [("id", "mfr-\(g.uuid)")])
            x.element("name", brand)
            x.close("manufacturer")
        }
        if let model = device?.model { x.element("model", model) }
        if let serial = device?.serial ?? g.serial { x.element("serialnumber", serial) }
        writeNotes(g.notes, path: path, into: &x)
        if tag == "suit" {
            x.element("suittype", g.type == .drysuit ? "dry-suit" : "wet-suit")
        }
        if tag == "tank" {
            if let m = g.material { x.element("tankmaterial", m.rawValue) }
            if let v = g.volume, let d = decimal(v) { x.element("tankvolume", d.shifted(by: -3)) }
        } else if g.volume != nil || g.material != nil {
            report(.dropped, "uddf.gear-vessel-not-carried", "volume and material are written only on a <tank>", path)
        }
        reportUncarried("uddf.gear-member-not-carried", "of a gear item", [
            ("working_pressure", g.workingPressure != nil), ("rented", g.rented != nil), ("archived", g.archived != nil),
            ("archived_at", g.archivedAt != nil), ("dive_count", g.diveCount != nil), ("dive_time", g.diveTime != nil),
            ("created_at", g.createdAt != nil), ("extensions", g.extensions != nil),
        ], path)
        x.close(tag)
    }

    private func writeDeviceElement(_ r: DeviceRecord, number: Int, into x: inout XMLEmitter) {
        x.open("divecomputer", [("id", "device-\(number)")])
        x.element("name", r.device.name ?? "")
        if let brand = r.device.brand {
            x.open("manufacturer", [("id", "mfr-device-\(number)")])
            x.element("name", brand)
            x.close("manufacturer")
        }
        if let model = r.device.model { x.element("model", model) }
        if let serial = r.device.serial { x.element("serialnumber", serial) }
        x.close("divecomputer")
    }

    // MARK: Sites, bases, trips

    private func writeContactBody(_ c: Contact, element: String, id: String, guides: [(Int, String)], path: String, into x: inout XMLEmitter) {
        x.open(element, [("id", id)])
        x.element("name", c.name)
        if let a = c.address {
            x.open("address")
            if let s = a.street { x.element("street", s) }
            if let s = a.city { x.element("city", s) }
            if let s = a.postcode { x.element("postcode", s) }
            x.element("country", a.country)
            if let s = a.region { x.element("province", s) }
            x.close("address")
        }
        writeContactDetails(phone: c.phone, email: c.email, website: c.website, into: &x)
        for (n, person) in guides {
            x.open("guide", [("id", "guide-\(n)")])
            x.empty("link", [("ref", "person-\(person)")])
            x.close("guide")
        }
        writeNotes(c.notes, path: path, into: &x)
        x.close(element)
    }

    /// Reports what no element of a contact holds, wherever (and whether) it is written.
    private func reportContacts(_ header: LogbookHeader) {
        let accommodations = Set(header.trips.flatMap { $0.parts.compactMap(\.accommodationUUID) })
        for (i, c) in header.contacts.enumerated() {
            var implied: Set<ContactRole> = [c.roles == [.shop] ? .shop : .diveCenter]
            if accommodations.contains(c.uuid) { implied.insert(.accommodation) }
            if Set(c.roles) != implied {
                report(.dropped, "uddf.contact-roles-not-carried", "the contact's roles (\(c.roles.map(\.rawValue).joined(separator: ", "))) have no element; a reader takes them from where the contact is written", "contacts/\(i)")
            }
            if c.position != nil { report(.dropped, "uddf.contact-position-not-carried", "a contact's position has no UDDF element", "contacts/\(i)") }
            reportUncarried("uddf.contact-member-not-carried", "of a contact", [
                ("created_at", c.createdAt != nil), ("extensions", c.extensions != nil),
            ], "contacts/\(i)")
        }
    }

    private func writeSites(_ header: LogbookHeader, into x: inout XMLEmitter) {
        reportContacts(header)
        guard header.contacts.contains(where: { $0.roles != [.shop] }) || !header.sites.isEmpty else { return }
        x.open("divesite")
        for (i, c) in header.contacts.enumerated() where c.roles != [.shop] {
            let own = guideOrder.enumerated().filter { $0.element.contact == c.uuid }.map { ($0.offset, $0.element.person) }
            writeContactBody(c, element: "divebase", id: "contact-\(c.uuid)", guides: own, path: "contacts/\(i)", into: &x)
        }
        for (i, s) in header.sites.enumerated() {
            let path = "sites/\(i)"
            x.open("site", [("id", "site-\(s.uuid)")])
            x.element("name", s.name)
            for alias in s.otherNames { x.element("aliasname", alias) }
            if let l = s.location {
                writeGeography(l.name, s.position, altitude: s.altitude, into: &x)
                if l.position != nil || l.bbox != nil {
                    report(.dropped, "uddf.locality-position-not-carried", "the locality's own position and box have no element; <geography>'s coordinates are the site's pin", path)
                }
            } else if s.position != nil || s.altitude != nil {
                report(.dropped, "uddf.site-position-without-location", "UDDF's <geography> requires a place name, which the site lacks; its coordinates and altitude are not written", path)
            }
            if s.depthFrom != nil || s.depthTo != nil {
                x.open("sitedata")
                if let v = s.depthTo { x.element("maximumdepth", number(v)) }
                if let v = s.depthFrom { x.element("minimumdepth", number(v)) }
                x.close("sitedata")
            }
            writeNotes(s.notes, path: path, into: &x)
            x.close("site")
            reportUncarried("uddf.site-member-not-carried", "of a site", [
                ("external_ids", !s.externalIDs.isEmpty), ("water_type", s.waterType != nil),
                ("entry_types", !s.entryTypes.isEmpty), ("tags", !s.tags.isEmpty), ("created_at", s.createdAt != nil),
            ], path)
        }
        x.close("divesite")
    }

    /// `<geography>`: a place name (UDDF requires one) and the point and altitude, if any.
    private func writeGeography(_ location: String, _ p: Position?, altitude: Int?, into x: inout XMLEmitter) {
        x.open("geography")
        x.element("location", location)
        if let p {
            x.element("latitude", number(p.latitude))
            x.element("longitude", number(p.longitude))
        }
        if let altitude { x.element("altitude", String(altitude)) }
        x.close("geography")
    }

    private func writeTrips(_ header: LogbookHeader, into x: inout XMLEmitter) {
        guard !header.trips.isEmpty else { return }
        var copies = 0
        var nameCount: [String: Int] = [:]
        for c in header.contacts { nameCount[c.name.folded, default: 0] += 1 }
        x.open("divetrip")
        for (i, t) in header.trips.enumerated() {
            let path = "trips/\(i)"
            x.open("trip", [("id", "trip-\(t.uuid)")])
            x.element("name", t.name)
            let parts = t.parts.isEmpty ? [TripPart()] : t.parts
            for (j, part) in parts.enumerated() {
                let partPath = "\(path)/parts/\(j)"
                var stay = part.accommodationUUID.flatMap { header.contact($0) }
                if let c = stay, (nameCount[c.name.folded] ?? 0) > 1 {
                    report(.dropped, "uddf.accommodation-ambiguous", "the part's accommodation shares its name with another contact, so a reader could not tell which it was; not written", partPath)
                    stay = nil
                }
                var attributes: [(String, String)] = []
                if let c = stay { attributes.append(("type", c.roles.contains(.liveaboard) ? "boat" : "hotel")) }
                x.open("trippart", attributes)
                x.element("name", part.location?.name ?? "")
                if part.location == nil && !t.parts.isEmpty {
                    report(.absent, "uddf.trippart-without-place", "UDDF requires a part's name; the part has no place, so it is written empty", partPath)
                }
                if let start = part.startsOn ?? part.endsOn, let end = part.endsOn ?? part.startsOn {
                    x.empty("dateoftrip", [("startdate", midnight(start)), ("enddate", midnight(end))])
                    if part.startsOn == nil || part.endsOn == nil {
                        report(.resolved, "uddf.trippart-one-date", "UDDF requires both ends of a part's dates; the one recorded is written as both", partPath)
                    }
                }
                if let l = part.location {
                    writeGeography(l.name, l.position, altitude: nil, into: &x)
                    if l.bbox != nil { report(.dropped, "uddf.bbox-not-carried", "UDDF's <geography> holds a point, not a box", partPath) }
                }
                if let c = stay {
                    var copy = c
                    copy.roles = []
                    // The copy's notes are the contact's, already reported where the contact is written.
                    writeContactBody(copy, element: "accomodation", id: "accommodation-\(copies)", guides: [],
                                     path: "contacts/\(header.contacts.firstIndex { $0.uuid == c.uuid } ?? 0)", into: &x)
                    copies += 1
                }
                if j == 0 { writeNotes(t.notes, path: path, into: &x) }
                x.close("trippart")
            }
            x.close("trip")
            if !t.people.isEmpty { report(.dropped, "uddf.trip-people-not-carried", "a trip's people have no UDDF element", path) }
            reportUncarried("uddf.trip-member-not-carried", "of a trip", [
                ("created_at", t.createdAt != nil), ("extensions", t.extensions != nil),
            ], path)
        }
        x.close("divetrip")
    }

    // MARK: Gases

    /// `<gasdefinitions>`: `placeholders` in the order they are numbered `mix-1`, `mix-2`….
    private func writeGases(_ placeholders: [Int], into x: inout XMLEmitter) {
        guard !placeholders.isEmpty else { return }
        x.open("gasdefinitions")
        for (n, placeholder) in placeholders.enumerated() {
            let key = mixSlots[placeholder].key
            x.open("mix", [("id", "mix-\(n + 1)")])
            x.element("name", key.name)
            if let o2 = key.oxygen { x.element("o2", o2.shifted(by: -2)) }
            if let he = key.helium { x.element("he", he.shifted(by: -2)) }
            if let p = key.ppo2Limit { x.element("maximumpo2", p) }
            x.close("mix")
        }
        x.close("gasdefinitions")
    }

    // MARK: Numbers

    /// The exact decimal a `Double` reads as (its shortest round-tripping text), without
    /// trailing zeros, so that its text is plain (`0.012`, `22000000`, `284.65`).
    func decimal(_ v: Double) -> DecimalNumber? { DecimalNumber(v) }


    func number(_ v: Double) -> DecimalNumber { decimal(v) ?? DecimalNumber(0) }

    /// °C to kelvin, exactly.
    func kelvin(_ celsius: DecimalNumber) -> DecimalNumber? { celsius.adding(DecimalNumber(significand: 27315, exponent: -2)) }

    /// A date widened to midnight, as `xs:dateTime` requires (a reader takes the date back off).
    func midnight(_ d: LocalDate) -> String { "\(d)T00:00:00" }
}

// MARK: - Gas and device bookkeeping

/// A gas as UDDF's `<mix>` states it.
struct MixKey: Hashable, Comparable {
    var name: String
    /// Percent.
    var oxygen: DecimalNumber?
    var helium: DecimalNumber?
    /// Bar.
    var ppo2Limit: DecimalNumber?

    static func < (a: MixKey, b: MixKey) -> Bool {
        func rank(_ v: DecimalNumber?, absentFirst: Bool) -> (Int, DecimalNumber) {
            v.map { (1, $0) } ?? (absentFirst ? 0 : 2, DecimalNumber(0))
        }
        let (ao, bo) = (rank(a.oxygen, absentFirst: false), rank(b.oxygen, absentFirst: false))
        if ao.0 != bo.0 { return ao.0 < bo.0 }
        if ao.1 != bo.1 { return ao.1 < bo.1 }
        let (ah, bh) = (rank(a.helium, absentFirst: true), rank(b.helium, absentFirst: true))
        if ah.0 != bh.0 { return ah.0 < bh.0 }
        if ah.1 != bh.1 { return ah.1 < bh.1 }
        let (ap, bp) = (rank(a.ppo2Limit, absentFirst: true), rank(b.ppo2Limit, absentFirst: true))
        if ap.0 != bp.0 { return ap.0 < bp.0 }
        if ap.1 != bp.1 { return ap.1 < bp.1 }
        return a.name < b.name
    }
}

struct MixSlot: Hashable {
    var key: MixKey
    var instance: Int
}

struct GuideKey: Hashable {
    var contact: String
    var person: String
}

/// One computer, as the devices of every recording it made describe it.
struct DeviceRecord {
    var device: Device
    /// The `computer` gear item it folded into, if any.
    var gearUUID: String?
    /// Its `device-<n>` number, once a recording needs an element of its own for it: it folded
    /// into no gear item, or its dive does not link the one it folded into.
    var number: Int?
}

/// Replaces the spooled dives' mix placeholders (`\u{1}n\u{1}`) with final numbers while
/// copying them out, across chunk boundaries.
struct MixReferenceResolver {
    /// Final `mix-<n>` number by placeholder.
    let numbers: [Int]
    let target: ByteSink
    private var inPlaceholder = false
    private var value = 0
    private var buffer: [UInt8] = []

    init(numbers: [Int], target: ByteSink) {
        self.numbers = numbers; self.target = target
        buffer.reserveCapacity(1 << 16)
    }

    mutating func consume(_ chunk: UnsafeRawBufferPointer) throws {
        guard let base = chunk.baseAddress else { return }
        var i = 0
        while i < chunk.count {
            if inPlaceholder {
                let b = chunk[i]
                i += 1
                if b == 0x01 {
                    buffer.append(contentsOf: String(value < numbers.count ? numbers[value] : 0).utf8)
                    inPlaceholder = false
                } else {
                    value = value * 10 + Int(b &- 0x30)
                }
                continue
            }
            // Copy up to the next placeholder in one piece.
            let rest = chunk.count - i
            if let hit = memchr(base + i, 0x01, rest) {
                let n = base.distance(to: UnsafeRawPointer(hit)) - i
                try emit(UnsafeRawBufferPointer(start: base + i, count: n))
                i += n + 1
                inPlaceholder = true
                value = 0
            } else {
                try emit(UnsafeRawBufferPointer(start: base + i, count: rest))
                i = chunk.count
            }
        }
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Passes on a run with no placeholder: a long one straight to the target (the spool is
    /// most of the document: copying it through the buffer once more cost a pass over every
    /// byte), a short one through the buffer.
    private mutating func emit(_ run: UnsafeRawBufferPointer) throws {
        if run.count >= 1 << 14 {
            try flush()
            try target.write(run)
        } else {
            buffer.append(contentsOf: run)
        }
    }

    private mutating func flush() throws {
        try buffer.withUnsafeBytes { try target.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func finish() throws { try flush() }
}

/// How a dive logged with a date and no time of day is written as UDDF's `<datetime>`.
public enum DateOnlyStart: String, Sendable, CaseIterable {
    /// The bare date, as UDDF's documentation allows and `docs/uddf-writing.md` prescribes:
    /// nothing invented, though a strict XSD validator refuses the spelling (`xs:dateTime`).
    case bare
    /// Midnight of that day, so that the file passes a strict XSD validator; reported per
    /// dive, since the time is the writer's, and it reads back as a dive that began at midnight.
    case midnight
}
