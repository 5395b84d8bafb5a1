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
    /// The file's id.
    public var uuid: String
    /// The file's name where it came from.
    public var originalFilename: String
    /// A media type such as `application/json`.
    public var contentType: String
    /// The file's size in bytes.
    public var byteSize: Int
    /// Lower-case hex SHA-256 of the bytes.
    public var sha256: String
    /// Where an archive holding the logbook keeps the bytes.
    public var archivePath: String?
    /// The file's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a description of a stored file from its name, media type, size and hash.
    public init(uuid: String, originalFilename: String, contentType: String, byteSize: Int, sha256: String) {
        self.uuid = uuid; self.originalFilename = originalFilename; self.contentType = contentType
        self.byteSize = byteSize; self.sha256 = sha256
    }
}

/// A record's id in an outside registry (WoRMS for species, a site database for sites).
public struct ExternalID: Sendable, Hashable {
    /// The registry's name (`worms` for the World Register of Marine Species).
    public var registry: String
    /// The record's id in that registry, as the registry writes it.
    public var identifier: String
    /// The entry's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes an entry for this registry and identifier.
    public init(registry: String, identifier: String) { self.registry = registry; self.identifier = identifier }
}

/// Whom to call for the diver.
public struct EmergencyContact: Sendable, Hashable {
    /// The contact's name.
    public var name: String
    /// The contact's phone number, as written.
    public var phone: String?
    /// What the contact is to the diver (`spouse`, `mother`…), as written.
    public var relationship: String?
    /// The contact's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes an emergency contact with this name; phone and relationship unset.
    public init(name: String) { self.name = name }
}

/// A latitude/longitude box in decimal degrees.
public struct BoundingBox: Sendable, Hashable {
    /// Southern edge, degrees latitude.
    public var south: Double
    /// Northern edge, degrees latitude.
    public var north: Double
    /// Western edge, degrees longitude.
    public var west: Double
    /// Eastern edge, degrees longitude.
    public var east: Double
    /// The box's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a box from its four edges in decimal degrees.
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
    /// The course's id, which training dives refer to in `courseUUID`.
    public var uuid: String
    /// The course's name as the source gives it.
    public var name: String
    /// The agency the course is with; `nil` when the source does not say.
    public var agency: Agency?
    /// The agency's name when `agency` is `other`.
    public var agencyOther: String?
    /// Where the course stands; `nil` when the source does not say.
    public var status: CourseStatus?
    /// The course's first day.
    public var startsOn: LocalDate?
    /// The course's last day.
    public var endsOn: LocalDate?
    /// The instructor's number with the agency.
    public var instructorNumber: String?
    /// The school that ran it: a contact.
    public var contactUUID: String?
    /// Instructors and others on the course, each with their role.
    public var people: [PersonReference] = []
    /// The diver's notes about the course.
    public var notes: String?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The course's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a course with this uuid and name; everything else unset.
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// A certification card (§6.16).
public struct Certification: Sendable, Hashable {
    /// The card's id.
    public var uuid: String
    /// The agency that issued the card.
    public var agency: Agency
    /// The agency's name when `agency` is `other`.
    public var agencyOther: String?
    /// The certification's name as the card gives it.
    public var name: String
    /// The card's number.
    public var number: String?
    /// The day the diver was certified.
    public var certifiedOn: LocalDate?
    /// The last day the card is valid; `nil` when it does not expire or the source does not say.
    public var expiresOn: LocalDate?
    /// The instructor: a person.
    public var instructorUUID: String?
    /// The instructor's number with the agency.
    public var instructorNumber: String?
    /// The school that certified the diver: a contact.
    public var contactUUID: String?
    /// The course the certification was earned on.
    public var courseUUID: String?
    /// The diver's notes about the card.
    public var notes: String?
    /// A picture of the card's front.
    public var frontFile: StoredFile?
    /// A picture of the card's back.
    public var backFile: StoredFile?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The card's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a card from this agency with this uuid and name; everything else unset.
    public init(uuid: String, agency: Agency, name: String) { self.uuid = uuid; self.agency = agency; self.name = name }
}

/// Gear the diver takes together, with the lead it needs.
public struct GearSet: Sendable, Hashable {
    /// The set's id.
    public var uuid: String
    /// The set's name as the diver gives it.
    public var name: String
    /// Kilograms of lead.
    public var weight: Double?
    /// The gear items in the set, by uuid.
    public var gearUUIDs: [String] = []
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The set's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes an empty set with this uuid and name.
    public init(uuid: String, name: String) { self.uuid = uuid; self.name = name }
}

/// What was done to a piece of gear.
public enum ServiceType: String, Sendable, Hashable, CaseIterable {
    case service, visualInspection = "visual_inspection", hydrostaticTest = "hydrostatic_test", battery
    case oxygenClean = "oxygen_clean", other
}

/// A recurring service a piece of gear needs: every so many months, dives or hours.
public struct GearServiceSchedule: Sendable, Hashable {
    /// The schedule's id, which service records refer to.
    public var uuid: String
    /// The gear item the schedule is for.
    public var gearUUID: String
    /// What the service is.
    public var type: ServiceType
    /// The diver's name for the service, as written.
    public var label: String?
    /// The day the schedule starts counting from.
    public var startsOn: LocalDate
    /// Due every so many months.
    public var intervalMonths: Int?
    /// Due every so many dives.
    public var intervalDives: Int?
    /// Due every so many hours under water.
    public var intervalHours: Int?
    /// The item's dive count when the schedule started.
    public var diveCountAtStart: Int?
    /// Seconds.
    public var diveTimeAtStart: Int?
    /// Whether the schedule still runs; `nil` when the source does not say.
    public var active: Bool?
    /// The day the service was last done.
    public var lastServiceOn: LocalDate?
    /// The day the service is next due.
    public var nextDueOn: LocalDate?
    /// The dive count at which the service is next due.
    public var nextDueAtDiveCount: Int?
    /// Seconds.
    public var nextDueAtDiveTime: Int?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The schedule's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a schedule for this gear item, kind of service and start day; no interval set.
    public init(uuid: String, gearUUID: String, type: ServiceType, startsOn: LocalDate) {
        self.uuid = uuid; self.gearUUID = gearUUID; self.type = type; self.startsOn = startsOn
    }
}

/// A service done to a piece of gear.
public struct GearServiceRecord: Sendable, Hashable {
    /// The record's id.
    public var uuid: String
    /// The gear item serviced.
    public var gearUUID: String
    /// The schedule the service fulfils, when one does.
    public var scheduleUUID: String?
    /// What was done.
    public var type: ServiceType
    /// The day it was done.
    public var servicedOn: LocalDate
    /// The item's dive count at the service.
    public var diveCountAtService: Int?
    /// Seconds.
    public var diveTimeAtService: Int?
    /// The diver's name for the service, as written.
    public var label: String?
    /// Who did the service, as written.
    public var performedBy: String?
    /// The shop that did it.
    public var contactUUID: String?
    /// The diver's notes about the service.
    public var notes: String?
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The record's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a record of this service to this gear item on this day.
    public init(uuid: String, gearUUID: String, type: ServiceType, servicedOn: LocalDate) {
        self.uuid = uuid; self.gearUUID = gearUUID; self.type = type; self.servicedOn = servicedOn
    }
}
