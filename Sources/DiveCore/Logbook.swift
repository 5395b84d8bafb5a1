/// Everything in a logbook except its dives: who wrote it, whose it is, and the records
/// dives refer to. Readers stream dives one at a time and keep this beside them.
///
/// The information model and units follow DiveJSON 1.0. A value the source did not record
/// is `nil` (or an empty collection), never zero.
public struct LogbookHeader: Sendable, Hashable {
    /// The source format's registry id (`uddf`, `csv`, `divejson`).
    public var sourceFormat: String?
    /// The source format's own version (UDDF's `@version`).
    public var sourceVersion: String?
    /// The member DiveJSON writes the version under, when not `<format>_version`
    /// (FIT's protocol version is `fit_protocol_version`).
    public var sourceVersionKey: String?
    /// The program that wrote the source file.
    public var sourceGenerator: Generator?
    /// When the source says it was exported (DiveJSON's `exported_at`), as written.
    public var exportedAt: String?
    /// The logbook's owner; `nil` when the source records nothing about them.
    public var diver: Diver?
    /// Dive sites, which dives refer to by uuid (DiveJSON `sites`).
    public var sites: [Site] = []
    /// Dive trips (DiveJSON `trips`).
    public var trips: [Trip] = []
    /// Species that dives' sightings name (DiveJSON `species`).
    public var species: [Species] = []
    /// The diver's gear items (DiveJSON `gear`).
    public var gear: [GearItem] = []
    /// Buddies, instructors and others dives refer to (DiveJSON `people`).
    public var people: [Person] = []
    /// Courses the diver took (DiveJSON `courses`).
    public var courses: [Course] = []
    /// Gear taken together (DiveJSON `gear_sets`).
    public var gearSets: [GearSet] = []
    /// Recurring services gear needs (DiveJSON `gear_service_schedules`).
    public var serviceSchedules: [GearServiceSchedule] = []
    /// Services done to gear (DiveJSON `gear_service_records`).
    public var serviceRecords: [GearServiceRecord] = []
    /// The diver's certification cards (DiveJSON `certifications`).
    public var certifications: [Certification] = []
    /// Dive centres, shops, places stayed at (§6.18).
    public var contacts: [Contact] = []
    /// The document-level `extensions` of a DiveJSON source, kept to be written back.
    public var extensions: ExtensionValue?
    /// How the source spelled the records above (paths from the document root, e.g. `sites/2`).
    public var layout = SourceLayout()

    /// Makes an empty header: no source, no diver, no records.
    public init() {}

    /// The site with this uuid.
    public func site(_ uuid: String) -> Site? { sites.first { $0.uuid == uuid } }
    /// The person with this uuid.
    public func person(_ uuid: String) -> Person? { people.first { $0.uuid == uuid } }
    /// The trip with this uuid.
    public func trip(_ uuid: String) -> Trip? { trips.first { $0.uuid == uuid } }
    /// The contact with this uuid.
    public func contact(_ uuid: String) -> Contact? { contacts.first { $0.uuid == uuid } }
    /// Adds what another logbook's header holds: records by uuid, each once (the first
    /// seen wins); the diver, source and extensions only where this header has none. The
    /// source layout survives only while one header has contributed records.
    public mutating func merge(_ other: LogbookHeader) {
        let first = sourceFormat == nil && isEmpty
        if sourceFormat == nil {
            sourceFormat = other.sourceFormat
            sourceVersion = other.sourceVersion
            sourceVersionKey = other.sourceVersionKey
            sourceGenerator = other.sourceGenerator
            exportedAt = other.exportedAt
        }
        if diver == nil { diver = other.diver }
        if extensions == nil { extensions = other.extensions }
        func add<T>(_ existing: inout [T], _ new: [T], _ id: (T) -> String) {
            var seen = Set(existing.map(id))
            for item in new where seen.insert(id(item)).inserted { existing.append(item) }
        }
        add(&sites, other.sites, \.uuid)
        add(&trips, other.trips, \.uuid)
        add(&courses, other.courses, \.uuid)
        add(&species, other.species, \.uuid)
        add(&gear, other.gear, \.uuid)
        add(&gearSets, other.gearSets, \.uuid)
        add(&serviceSchedules, other.serviceSchedules, \.uuid)
        add(&serviceRecords, other.serviceRecords, \.uuid)
        add(&certifications, other.certifications, \.uuid)
        add(&people, other.people, \.uuid)
        add(&contacts, other.contacts, \.uuid)
        layout = first ? other.layout : SourceLayout()
    }

    /// True when the header holds no records.
    public var isEmpty: Bool {
        diver == nil && sites.isEmpty && trips.isEmpty && courses.isEmpty && species.isEmpty && gear.isEmpty
            && gearSets.isEmpty && serviceSchedules.isEmpty && serviceRecords.isEmpty && certifications.isEmpty
            && people.isEmpty && contacts.isEmpty
    }
}

/// A whole logbook in memory: the header and its dives. Readers stream instead; this is
/// for small documents and tests.
public struct Logbook: Sendable, Hashable {
    /// The diver, the records dives refer to and where the logbook came from.
    public var header: LogbookHeader
    /// The dives, in the logbook's order.
    public var dives: [Dive]

    /// Makes a logbook of these dives under this header.
    public init(header: LogbookHeader = LogbookHeader(), dives: [Dive] = []) {
        self.header = header; self.dives = dives
    }
}

/// The program that produced a file.
public struct Generator: Sendable, Hashable {
    /// The program's name as it gives it.
    public var name: String
    /// The program's version as it gives it; `nil` when unstated.
    public var version: String?
    /// What kind of program it is, in the source's words (UDDF's `logbook`, `divecomputer`…).
    public var type: String?
    /// When it wrote the file, as the source states it.
    public var writtenAt: String?
    /// Who makes it.
    public var manufacturer: String?
    /// Makes a generator with this name and version.
    public init(name: String, version: String? = nil) { self.name = name; self.version = version }
}

/// A latitude/longitude pair in decimal degrees (WGS 84). Both are required: half a
/// position is no position.
public struct Position: Sendable, Hashable {
    /// Degrees north; negative is south.
    public var latitude: Double
    /// Degrees east; negative is west.
    public var longitude: Double
    /// The position's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a position from decimal degrees.
    public init(latitude: Double, longitude: Double) { self.latitude = latitude; self.longitude = longitude }
}

/// The logbook's owner.
public struct Diver: Sendable, Hashable {
    /// The diver's id; `nil` when the source gives none.
    public var uuid: String?
    /// The diver's name as the source gives it.
    public var name: String?
    /// The diver's e-mail address.
    public var email: String?
    /// The diver's phone number, as written.
    public var phone: String?
    /// The diver's date of birth (DiveJSON `born_on`).
    public var bornOn: LocalDate?
    /// Whom to call for the diver, in the source's order.
    public var emergencyContacts: [EmergencyContact] = []
    /// The diver's dive insurances.
    public var insurances: [Insurance] = []
    /// A portrait of the diver.
    public var portraitFile: StoredFile?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The diver's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a diver with this uuid and name; everything else unset.
    public init(uuid: String? = nil, name: String? = nil) { self.uuid = uuid; self.name = name }
}

/// A diver's dive insurance.
public struct Insurance: Sendable, Hashable {
    /// The insurer's name.
    public var provider: String
    /// The policy or membership number.
    public var number: String?
    /// The last day the insurance covers.
    public var expiresOn: LocalDate?
    /// The insurance's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes an insurance with this provider, number and expiry.
    public init(provider: String, number: String? = nil, expiresOn: LocalDate? = nil) {
        self.provider = provider; self.number = number; self.expiresOn = expiresOn
    }
}

/// What a contact is to the diver (§6.18), in the format's fixed order.
public enum ContactRole: String, Sendable, Hashable, CaseIterable, Comparable {
    case diveCenter = "dive_center", school, shop, accommodation, liveaboard, club, other

    /// Orders roles as the format lists them: dive centre first, `other` last.
    public static func < (a: ContactRole, b: ContactRole) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A postal address; a country is required.
public struct Address: Sendable, Hashable {
    /// Street and number.
    public var street: String?
    /// The city or town.
    public var city: String?
    /// The postal code, as written.
    public var postcode: String?
    /// The region within the country: a state, province or county.
    public var region: String?
    /// The country, as the source names it.
    public var country: String
    /// The address's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes an address in this country; its other parts unset.
    public init(country: String) { self.country = country }
}

/// An organisation or place: a dive centre, a shop, where the diver stayed.
public struct Contact: Sendable, Hashable {
    /// The contact's id, which dives, trips and courses refer to.
    public var uuid: String
    /// The contact's name as the source gives it.
    public var name: String
    /// What the contact is to the diver; empty when unstated.
    public var roles: [ContactRole] = []
    /// The contact's phone number, as written.
    public var phone: String?
    /// The contact's e-mail address.
    public var email: String?
    /// The contact's web address.
    public var website: String?
    /// The contact's postal address.
    public var address: Address?
    /// Where the contact is.
    public var position: Position?
    /// The diver's notes about the contact.
    public var notes: String?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The contact's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a contact with this uuid and name; everything else unset.
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A named place (§6.9): a dive site's locality or a trip part's place.
public struct Location: Sendable, Hashable {
    /// The place's name as the source gives it.
    public var name: String
    /// A point for the place.
    public var position: Position?
    /// The area the place covers.
    public var bbox: BoundingBox?
    /// The location's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a location with this name and, when known, a point for it.
    public init(name: String, position: Position? = nil) { self.name = name; self.position = position }
}

/// Kinds of water a site or dive is in.
public enum WaterType: String, Sendable, Hashable, CaseIterable { case fresh, salt, brackish }

/// How a diver entered the water.
public enum EntryType: String, Sendable, Hashable, CaseIterable { case shore, boat, pier, pool }

/// A dive site.
public struct Site: Sendable, Hashable {
    /// The site's id, which dives refer to in `siteUUIDs`.
    public var uuid: String
    /// The site's name as the source gives it.
    public var name: String
    /// Other names the site goes by, in the diver's order (DiveJSON `other_names`).
    public var otherNames: [String] = []
    /// The locality the site is in (a town, a reef, a region).
    public var location: Location?
    /// The site's own coordinates.
    public var position: Position?
    /// The site's ids in outside registries.
    public var externalIDs: [ExternalID] = []
    /// Shallowest depth of the site, metres.
    public var depthFrom: Double?
    /// Deepest depth of the site, metres.
    public var depthTo: Double?
    /// The water at the site.
    public var waterType: WaterType?
    /// Metres above sea level.
    public var altitude: Int?
    /// How divers get in here.
    public var entryTypes: [EntryType] = []
    /// The diver's labels for the site.
    public var tags: [String] = []
    /// The diver's notes about the site.
    public var notes: String?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The site's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a site with this uuid and name; everything else unset.
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A part of a trip: dates and a place.
public struct TripPart: Sendable, Hashable {
    /// The part's first day.
    public var startsOn: LocalDate?
    /// The part's last day.
    public var endsOn: LocalDate?
    /// Where the part was spent.
    public var location: Location?
    /// Where the diver stayed: a contact.
    public var accommodationUUID: String?
    /// The part's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a trip part with these dates and place.
    public init(startsOn: LocalDate? = nil, endsOn: LocalDate? = nil, location: Location? = nil) {
        self.startsOn = startsOn; self.endsOn = endsOn; self.location = location
    }
}

/// A dive trip.
public struct Trip: Sendable, Hashable {
    /// The trip's id, which dives refer to in `tripUUID`.
    public var uuid: String
    /// The trip's name as the source gives it.
    public var name: String
    /// The trip's parts: dates and places, in the source's order.
    public var parts: [TripPart] = []
    /// People on the trip, each with their role.
    public var people: [PersonReference] = []
    /// The diver's notes about the trip.
    public var notes: String?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The trip's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a trip with this uuid and name; no parts or people.
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A marine species.
public struct Species: Sendable, Hashable {
    /// The species' id, which sightings refer to.
    public var uuid: String
    /// Ids in outside registries (`worms` AphiaIDs).
    public var externalIDs: [ExternalID] = []
    /// The Latin name (genus and species, or the taxon at `rank`).
    public var scientificName: String?
    /// The name in the diver's language.
    public var commonName: String?
    /// Taxonomic rank (`species`, `genus`, …) when the name is not a species.
    public var rank: String?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The species' DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a species with this uuid and names; at least one name is expected.
    public init(uuid: String, scientificName: String? = nil, commonName: String? = nil) {
        self.uuid = uuid; self.scientificName = scientificName; self.commonName = commonName
    }
}

/// A kind of gear (§6.12).
public enum GearType: String, Sendable, Hashable, CaseIterable {
    case mask, snorkel, fins, wetsuit, drysuit, vest, hood, gloves, boots, bcd, backplate, wing
    case regulator, rebreather, computer, transmitter, cylinder, light, scooter, smb, mirror
    case whistle, reel, knife, lineCutter = "line_cutter", shears, compass, camera, other
}

/// What a cylinder is made of.
public enum CylinderMaterial: String, Sendable, Hashable { case steel, aluminium, carbon }

/// A piece of the diver's kit.
public struct GearItem: Sendable, Hashable {
    /// The item's id, which dives, cylinders and gear sets refer to.
    public var uuid: String
    /// The item's name as the diver gives it.
    public var name: String
    /// What kind of gear it is; `nil` when the source does not say.
    public var type: GearType?
    /// The maker's name.
    public var brand: String?
    /// The serial number, as written.
    public var serial: String?
    /// Water capacity, litres (cylinders).
    public var volume: Double?
    /// Working pressure, bar (cylinders).
    public var workingPressure: Double?
    /// The cylinder's material (cylinders).
    public var material: CylinderMaterial?
    /// The diver's notes about the item.
    public var notes: String?
    /// Hired rather than owned.
    public var rented: Bool?
    /// No longer in use.
    public var archived: Bool?
    /// When the item was archived.
    public var archivedAt: DiveDateTime?
    /// Dives made with it, as the program that wrote it counted them.
    public var diveCount: Int?
    /// Seconds under water with it.
    public var diveTime: Int?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The item's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a gear item with this uuid, name and kind; everything else unset.
    public init(uuid: String, name: String, type: GearType? = nil) {
        self.uuid = uuid; self.name = name; self.type = type
    }
}

/// Someone the diver dives with.
public struct Person: Sendable, Hashable {
    /// The person's id, which dives, trips and courses refer to.
    public var uuid: String
    /// The person's name as the source gives it.
    public var name: String
    /// The person's e-mail address.
    public var email: String?
    /// The person's phone number, as written.
    public var phone: String?
    /// The diver's notes about the person.
    public var notes: String?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The person's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a person with this uuid and name; everything else unset.
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}
