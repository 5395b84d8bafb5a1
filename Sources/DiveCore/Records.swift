/// The logbook's records beyond dives, sites and gear (DiveJSON §6.13–§6.17): training,
/// certification cards, gear sets and service history, stored files and registry ids.
///
/// Every record keeps its own `extensions` (a producer's members, carried untouched, §5.5).

/// A training or certifying body (§6.16), in the format's closed vocabulary.
public enum Agency: String, Sendable, Hashable, CaseIterable {
    case padi, ssi, naui, sdi, tdi, cmas, raid, bsac, gue, iantd, psai, dan, efr, andi, snsi, acuc, pss
    case ida, ndl, utd, saa, scotsac, iac, protec, pdic, nase, sei, ymca, erdi, aida, molchanovs, pfi
    case apneaAcademy = "apnea_academy", fii, nssCds = "nss_cds", nacd, idea, diwa, other
}

/// A file kept beside the logbook (§6.17): a computer's raw download, a card's photo.
/// The logbook describes it; the bytes live elsewhere.
public struct StoredFile: Sendable, Hashable {
    public var uuid: String
    public var originalFilename: String
    /// A media type such as `application/json`.
    public var contentType: String
    public var byteSize: Int
    /// Lower-case hex SHA-256 of the bytes.
    public var sha256: String
    /// Where an archive holding the logbook keeps the bytes.
    public var archivePath: String?
    public var extensions: ExtensionValue?
    public init(uuid: String, originalFilename: String, contentType: String, byteSize: Int, sha256: String) {
        self.uuid = uuid; self.originalFilename = originalFilename; self.contentType = contentType
        self.byteSize = byteSize; self.sha256 = sha256
    }
}

/// A record's id in an outside registry (WoRMS for species, a site database for sites).
public struct ExternalID: Sendable, Hashable {
    public var registry: String
    public var identifier: String
    public var extensions: ExtensionValue?
    public init(registry: String, identifier: String) { self.registry = registry; self.identifier = identifier }
}

/// Whom to call for the diver.
public struct EmergencyContact: Sendable, Hashable {
    public var name: String
    public var phone: String?
    public var relationship: String?
    public var extensions: ExtensionValue?
    public init(name: String) { self.name = name }
}

/// A latitude/longitude box in decimal degrees.
public struct BoundingBox: Sendable, Hashable {
    public var south: Double
    public var north: Double
    public var west: Double
    public var east: Double
    public var extensions: ExtensionValue?
    public init(south: Double, north: Double, west: Double, east: Double) {
        self.south = south; self.north = north; self.west = west; self.east = east
    }
}

/// Where a course stands.
public enum CourseStatus: String, Sendable, Hashable, CaseIterable {
    case planned, inProgress = "in_progress", completed, incomplete, provisional, notPassed = "not_passed"
}

/// A course the diver took (§6.15); its training dives refer to it.
public struct Course: Sendable, Hashable {
    public var uuid: String
    public var name: String
    public var agency: Agency?
    /// The agency's name when `agency` is `other`.
    public var agencyOther: String?
    public var status: CourseStatus?
    public var startsOn: LocalDate?
    public var endsOn: LocalDate?
    public var instructorNumber: String?
    /// The school that ran it: a contact.
    public var contactUUID: String?
    public var people: [PersonReference] = []
    public var notes: String?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A certification card (§6.16).
public struct Certification: Sendable, Hashable {
    public var uuid: String
    public var agency: Agency
    public var agencyOther: String?
    public var name: String
    /// The card's number.
    public var number: String?
    public var certifiedOn: LocalDate?
    public var expiresOn: LocalDate?
    /// The instructor: a person.
    public var instructorUUID: String?
    public var instructorNumber: String?
    public var contactUUID: String?
    public var courseUUID: String?
    public var notes: String?
    public var frontFile: StoredFile?
    public var backFile: StoredFile?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, agency: Agency, name: String) { self.uuid = uuid; self.agency = agency; self.name = name }
}

/// Gear the diver takes together, with the lead it needs.
public struct GearSet: Sendable, Hashable {
    public var uuid: String
    public var name: String
    /// Kilograms of lead.
    public var weight: Double?
    public var gearUUIDs: [String] = []
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// What was done to a piece of gear.
public enum ServiceType: String, Sendable, Hashable, CaseIterable {
    case service, visualInspection = "visual_inspection", hydrostaticTest = "hydrostatic_test", battery
    case oxygenClean = "oxygen_clean", other
}

/// A recurring service a piece of gear needs: every so many months, dives or hours.
public struct GearServiceSchedule: Sendable, Hashable {
    public var uuid: String
    public var gearUUID: String
    public var type: ServiceType
    public var label: String?
    public var startsOn: LocalDate
    public var intervalMonths: Int?
    public var intervalDives: Int?
    public var intervalHours: Int?
    public var diveCountAtStart: Int?
    /// Seconds.
    public var diveTimeAtStart: Int?
    public var active: Bool?
    public var lastServiceOn: LocalDate?
    public var nextDueOn: LocalDate?
    public var nextDueAtDiveCount: Int?
    /// Seconds.
    public var nextDueAtDiveTime: Int?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, gearUUID: String, type: ServiceType, startsOn: LocalDate) {
        self.uuid = uuid; self.gearUUID = gearUUID; self.type = type; self.startsOn = startsOn
    }
}

/// A service done to a piece of gear.
public struct GearServiceRecord: Sendable, Hashable {
    public var uuid: String
    public var gearUUID: String
    public var scheduleUUID: String?
    public var type: ServiceType
    public var servicedOn: LocalDate
    public var diveCountAtService: Int?
    /// Seconds.
    public var diveTimeAtService: Int?
    public var label: String?
    public var performedBy: String?
    /// The shop that did it.
    public var contactUUID: String?
    public var notes: String?
    public var createdAt: DiveDateTime?
    public var extensions: ExtensionValue?
    public init(uuid: String, gearUUID: String, type: ServiceType, servicedOn: LocalDate) {
        self.uuid = uuid; self.gearUUID = gearUUID; self.type = type; self.servicedOn = servicedOn
    }
}
