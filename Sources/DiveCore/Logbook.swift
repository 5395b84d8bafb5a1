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
    public var sites: [Site] = []
    public var trips: [Trip] = []
    public var species: [Species] = []
    public var gear: [GearItem] = []
    public var people: [Person] = []
    public var courses: [Course] = []
    public var gearSets: [GearSet] = []
    public var serviceSchedules: [GearServiceSchedule] = []
    public var serviceRecords: [GearServiceRecord] = []
    public var certifications: [Certification] = []
    /// Dive centres, shops, places stayed at (§6.18).
    public var contacts: [Contact] = []
    /// The document-level `extensions` of a DiveJSON source, kept to be written back.
    public var extensions: ExtensionValue?
    /// How the source spelled the records above (paths from the document root, e.g. `sites/2`).
    public var layout = SourceLayout()

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
    public var header: LogbookHeader
    public var dives: [Dive]

    public init(header: LogbookHeader = LogbookHeader(), dives: [Dive] = []) {
        self.header = header; self.dives = dives
    }
}

/// The program that produced a file.
public struct Generator: Sendable, Hashable {
    public var name: String
    public var version: String?
    /// What kind of program it is, in the source's words (UDDF's `logbook`, `divecomputer`…).
    public var type: String?
    /// When it wrote the file, as the source states it.
    public var writtenAt: String?
    /// Who makes it.
    public var manufacturer: String?
    public init(name: String, version: String? = nil) { self.name = name; self.version = version }
}

/// A latitude/longitude pair in decimal degrees (WGS 84). Both are required: half a
/// position is no position.
public struct Position: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var extensions: ExtensionValue?
    public init(latitude: Double, longitude: Double) { self.latitude = latitude; self.longitude = longitude }
}

/// The logbook's owner.
public struct Diver: Sendable, Hashable {
    public var uuid: String?
    public var name: String?
    public var email: String?
    public var phone: String?
    public var bornOn: LocalDate?
    public var emergencyContacts: [EmergencyContact] = []
    public var insurances: [Insurance] = []
    /// A portrait of the diver.
    public var portraitFile: StoredFile?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String? = nil, name: String? = nil) { self.uuid = uuid; self.name = name }
}

/// A diver's dive insurance.
public struct Insurance: Sendable, Hashable {
    public var provider: String
    public var number: String?
    public var expiresOn: LocalDate?
    public var extensions: ExtensionValue?
    public init(provider: String, number: String? = nil, expiresOn: LocalDate? = nil) {
        self.provider = provider; self.number = number; self.expiresOn = expiresOn
    }
}

/// What a contact is to the diver (§6.18), in the format's fixed order.
public enum ContactRole: String, Sendable, Hashable, CaseIterable, Comparable {
    case diveCenter = "dive_center", school, shop, accommodation, liveaboard, club, other

    public static func < (a: ContactRole, b: ContactRole) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A postal address; a country is required.
public struct Address: Sendable, Hashable {
    public var street: String?
    public var city: String?
    public var postcode: String?
    public var region: String?
    public var country: String
    public var extensions: ExtensionValue?
    public init(country: String) { self.country = country }
}

/// An organisation or place: a dive centre, a shop, where the diver stayed.
public struct Contact: Sendable, Hashable {
    public var uuid: String
    public var name: String
    public var roles: [ContactRole] = []
    public var phone: String?
    public var email: String?
    public var website: String?
    public var address: Address?
    public var position: Position?
    public var notes: String?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A named place (§6.9): a dive site's locality or a trip part's place.
public struct Location: Sendable, Hashable {
    public var name: String
    public var position: Position?
    public var bbox: BoundingBox?
    public var extensions: ExtensionValue?
    public init(name: String, position: Position? = nil) { self.name = name; self.position = position }
}

/// Kinds of water a site or dive is in.
public enum WaterType: String, Sendable, Hashable, CaseIterable { case fresh, salt, brackish }

/// How a diver entered the water.
public enum EntryType: String, Sendable, Hashable, CaseIterable { case shore, boat, pier, pool }

/// A dive site.
public struct Site: Sendable, Hashable {
    public var uuid: String
    public var name: String
    public var otherNames: [String] = []
    public var location: Location?
    public var position: Position?
    /// The site's ids in outside registries.
    public var externalIDs: [ExternalID] = []
    /// Shallowest depth of the site, metres.
    public var depthFrom: Double?
    /// Deepest depth of the site, metres.
    public var depthTo: Double?
    public var waterType: WaterType?
    /// Metres above sea level.
    public var altitude: Int?
    /// How divers get in here.
    public var entryTypes: [EntryType] = []
    public var tags: [String] = []
    public var notes: String?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A part of a trip: dates and a place.
public struct TripPart: Sendable, Hashable {
    public var startsOn: LocalDate?
    public var endsOn: LocalDate?
    public var location: Location?
    /// Where the diver stayed: a contact.
    public var accommodationUUID: String?
    public var extensions: ExtensionValue?
    public init(startsOn: LocalDate? = nil, endsOn: LocalDate? = nil, location: Location? = nil) {
        self.startsOn = startsOn; self.endsOn = endsOn; self.location = location
    }
}

/// A dive trip.
public struct Trip: Sendable, Hashable {
    public var uuid: String
    public var name: String
    public var parts: [TripPart] = []
    public var people: [PersonReference] = []
    public var notes: String?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A marine species.
public struct Species: Sendable, Hashable {
    public var uuid: String
    /// Ids in outside registries (`worms` AphiaIDs).
    public var externalIDs: [ExternalID] = []
    public var scientificName: String?
    public var commonName: String?
    /// Taxonomic rank (`species`, `genus`, …) when the name is not a species.
    public var rank: String?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
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
    public var uuid: String
    public var name: String
    public var type: GearType?
    public var brand: String?
    public var serial: String?
    /// Water capacity, litres (cylinders).
    public var volume: Double?
    /// Working pressure, bar (cylinders).
    public var workingPressure: Double?
    public var material: CylinderMaterial?
    public var notes: String?
    /// Hired rather than owned.
    public var rented: Bool?
    /// No longer in use.
    public var archived: Bool?
    public var archivedAt: DiveDateTime?
    /// Dives made with it, as the program that wrote it counted them.
    public var diveCount: Int?
    /// Seconds under water with it.
    public var diveTime: Int?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, name: String, type: GearType? = nil) {
        self.uuid = uuid; self.name = name; self.type = type
    }
}

/// Someone the diver dives with.
public struct Person: Sendable, Hashable {
    public var uuid: String
    public var name: String
    public var email: String?
    public var phone: String?
    public var notes: String?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}
