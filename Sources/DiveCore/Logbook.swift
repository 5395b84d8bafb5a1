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
    /// The program that wrote the source file.
    public var sourceGenerator: Generator?
    /// The logbook's owner; `nil` when the source records nothing about them.
    public var diver: Diver?
    public var sites: [Site] = []
    public var trips: [Trip] = []
    public var species: [Species] = []
    public var gear: [GearItem] = []
    public var people: [Person] = []
    /// Dive centres, shops, places stayed at (§6.18).
    public var contacts: [Contact] = []
    /// The document-level `extensions` of a DiveJSON source, kept to be written back.
    public var extensions: ExtensionValue?

    public init() {}

    /// The site with this uuid.
    public func site(_ uuid: String) -> Site? { sites.first { $0.uuid == uuid } }
    /// The person with this uuid.
    public func person(_ uuid: String) -> Person? { people.first { $0.uuid == uuid } }
    /// The trip with this uuid.
    public func trip(_ uuid: String) -> Trip? { trips.first { $0.uuid == uuid } }
    /// The contact with this uuid.
    public func contact(_ uuid: String) -> Contact? { contacts.first { $0.uuid == uuid } }
    /// The gear item with this uuid.
    public func gearItem(_ uuid: String) -> GearItem? { gear.first { $0.uuid == uuid } }
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
    public init(name: String, version: String? = nil) { self.name = name; self.version = version }
}

/// A latitude/longitude pair in decimal degrees (WGS 84). Both are required: half a
/// position is no position.
public struct Position: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) { self.latitude = latitude; self.longitude = longitude }
}

/// The logbook's owner.
public struct Diver: Sendable, Hashable {
    public var uuid: String?
    public var name: String?
    public var email: String?
    public var phone: String?
    public var bornOn: LocalDate?
    public var insurances: [Insurance] = []
    public init(uuid: String? = nil, name: String? = nil) { self.uuid = uuid; self.name = name }
}

/// A diver's dive insurance.
public struct Insurance: Sendable, Hashable {
    public var provider: String
    public var number: String?
    public var expiresOn: LocalDate?
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
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A named place (§6.9): a dive site's locality or a trip part's place.
public struct Location: Sendable, Hashable {
    public var name: String
    public var position: Position?
    public init(name: String, position: Position? = nil) { self.name = name; self.position = position }
}

/// Kinds of water a site or dive is in.
public enum WaterType: String, Sendable, Hashable, CaseIterable { case fresh, salt, brackish }

/// How a diver entered the water.
public enum EntryType: String, Sendable, Hashable, CaseIterable { case shore, boat, pier }

/// A dive site.
public struct Site: Sendable, Hashable {
    public var uuid: String
    public var name: String
    public var otherNames: [String] = []
    public var location: Location?
    public var position: Position?
    /// Shallowest depth of the site, metres.
    public var depthFrom: Double?
    /// Deepest depth of the site, metres.
    public var depthTo: Double?
    public var waterType: WaterType?
    /// Metres above sea level.
    public var altitude: Int?
    public var notes: String?
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A part of a trip: dates and a place.
public struct TripPart: Sendable, Hashable {
    public var startsOn: LocalDate?
    public var endsOn: LocalDate?
    public var location: Location?
    /// Where the diver stayed: a contact.
    public var accommodationUUID: String?
    public init(startsOn: LocalDate? = nil, endsOn: LocalDate? = nil, location: Location? = nil) {
        self.startsOn = startsOn; self.endsOn = endsOn; self.location = location
    }
}

/// A dive trip.
public struct Trip: Sendable, Hashable {
    public var uuid: String
    public var name: String
    public var parts: [TripPart] = []
    public var notes: String?
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A marine species.
public struct Species: Sendable, Hashable {
    public var uuid: String
    public var scientificName: String?
    public var commonName: String?
    /// The WoRMS AphiaID, when known.
    public var wormsID: Int?
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
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}
