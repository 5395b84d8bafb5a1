/// One dive, in canonical units: metres, °C, bar, litres, percent, seconds.
///
/// A value the source did not record is `nil`, never zero.
public struct Dive: Sendable, Hashable {
    /// The dive's id (DiveJSON `uuid`).
    public var uuid: String
    /// The diver's own dive number.
    public var number: Int?
    /// When the dive started, with the UTC offset only where the source recorded one;
    /// `nil` when the source recorded no usable start (DiveJSON cannot carry such a dive).
    public var startedAt: DiveDateTime?
    /// Time in the water as the computer or logbook counts it, seconds.
    public var submergedTime: Int?
    /// The diver's notes about the dive.
    public var notes: String?
    /// The breathing apparatus; `nil` when the source does not say.
    public var type: DiveType?
    /// 1 (worst) to 5 (best).
    public var rating: Int?
    /// The diver's labels for the dive.
    public var tags: [String] = []
    /// Metres.
    public var maxDepth: Double?
    /// Time-weighted mean depth, metres.
    public var avgDepth: Double?
    /// Lowest water temperature, °C.
    public var bottomTemperature: Double?
    /// Metres.
    public var visibility: Double?
    /// Lead carried, kg. Zero is a diver's "no lead", not absence.
    public var weight: Double?
    /// The water the dive was in.
    public var waterType: WaterType?
    /// Metres above sea level.
    public var altitude: Int?
    /// °C.
    public var airTemperature: Double?
    /// The current, as the diver judged it.
    public var current: Current?
    /// The surface, as the diver judged it.
    public var waves: Waves?
    /// The weather at the surface.
    public var weather: Weather?
    /// How the diver got in.
    public var entryType: EntryType?
    /// The boat dived from, as written.
    public var boatName: String?
    /// Where the diver went in.
    public var entryPosition: Position?
    /// Where the diver came out.
    public var exitPosition: Position?
    /// The trip the dive was on.
    public var tripUUID: String?
    /// The course this was a training dive of.
    public var courseUUID: String?
    /// The dive centre or shop the dive was made with.
    public var contactUUID: String?
    /// The dive's sites, the first being the primary one.
    public var siteUUIDs: [String] = []
    /// The gear items used, by uuid.
    public var gearUUIDs: [String] = []
    /// Species seen on the dive.
    public var sightings: [Sighting] = []
    /// Buddies, guides and others on the dive, each with their role.
    public var people: [PersonReference] = []
    /// The gas supplies carried, in the source's order.
    public var cylinders: [Cylinder] = []
    /// Each device's record of this dive, the primary first.
    public var recordings: [Recording] = []
    /// When the record was made in the program that wrote it.
    public var createdAt: DiveDateTime?
    /// The dive's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Where in its source file this dive came from.
    public var provenance: Provenance?
    /// How the source spelled this dive (paths relative to the dive).
    public var layout = SourceLayout()
    /// The members the reader computed from the source's readings rather than read
    /// (`submerged_time`, `avg_depth`): DiveJSON lists them under `extensions.divejson.inferred`
    /// (spec §5.4). Each has an `inferred` finding.
    public var inferred: [String] = []

    /// Makes a dive with this uuid and start; everything else unset.
    public init(uuid: String, startedAt: DiveDateTime?) {
        self.uuid = uuid; self.startedAt = startedAt
    }

    /// The primary recording's profile, if any.
    public var profile: Profile? { recordings.first(where: { $0.profile != nil })?.profile }
}

/// Where a record came from: the file, the record's position in it, and the writer.
public struct Provenance: Sendable, Hashable {
    /// Source format's registry id.
    public var format: String
    /// The file as named by the user.
    public var file: String?
    /// The record's own id in the source, if it had one.
    public var sourceID: String?
    /// Zero-based index of the record among its kind in the file.
    public var index: Int
    /// 1-based line where the record starts, for text formats.
    public var line: Int?
    /// The record's uuid stands for its place in the file, because the source gives it no id
    /// (every Subsurface dive, a UDDF dive without `@id`): the first dive of another file gets
    /// the same uuid, so it identifies nothing beyond this file.
    public var positionalIdentity = false
    /// How findings name the record instead of its place (`#13 2009-08-29 a8df7e2a`: a
    /// logbook's dive by number, date and id), or nil.
    public var label: String?
    /// Makes a provenance for the record at this index of a file of this format.
    public init(format: String, file: String? = nil, sourceID: String? = nil, index: Int, line: Int? = nil,
                positionalIdentity: Bool = false) {
        self.format = format; self.file = file; self.sourceID = sourceID; self.index = index; self.line = line
        self.positionalIdentity = positionalIdentity
    }
}

/// The breathing apparatus of a dive (§6.2).
public enum DiveType: String, Sendable, Hashable, CaseIterable {
    case openCircuit = "open_circuit", closedCircuit = "closed_circuit", semiClosed = "semi_closed"
    case freedive, snorkel, surfaceSupplied = "surface_supplied"
}

/// The strength of the current during a dive.
public enum Current: String, Sendable, Hashable, CaseIterable { case none, light, moderate, strong, extreme }
/// The state of the surface during a dive.
public enum Waves: String, Sendable, Hashable, CaseIterable { case calm, slight, moderate, rough }
/// The weather at the surface during a dive.
public enum Weather: String, Sendable, Hashable, CaseIterable {
    case clear, partlyCloudy = "partly_cloudy", overcast, rain, storm, snow, fog
}

/// One gas supply carried on a dive (§6.3).
public struct Cylinder: Sendable, Hashable {
    /// Water capacity, litres.
    public var volume: Double?
    /// Bar.
    public var startPressure: Double?
    /// Bar.
    public var endPressure: Double?
    /// Oxygen, percent. `nil` means not recorded, not 21.
    public var oxygen: Double?
    /// Helium, percent.
    public var helium: Double?
    /// Bar.
    public var ppo2Limit: Double?
    /// The label pressure channels and gas switches use for this cylinder.
    public var gasNumber: Int?
    /// What the gas is for: bottom, deco, a rebreather's diluent or oxygen.
    public var role: CylinderRole?
    /// How it is carried beside the others.
    public var usage: CylinderUsage?
    /// The gear item the cylinder is (a `cylinder` gear record).
    public var gearUUID: String?
    /// The name the source gave the gas, when it named one (e.g. a UDDF mix name).
    public var gasName: String?
    /// The cylinder's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?

    /// Makes a cylinder with nothing recorded.
    public init() {}

    /// A diver's name for the gas: `Air`, `EAN32`, `EAN32.5`, `Tx18/45`, `O2`; `nil` when no
    /// oxygen fraction was recorded. Percentages as the source recorded them, a computed one
    /// (`31.9999999` from a fraction) to a tenth of a percent (``HumanNumbers/reading(_:places:)``).
    public var gasLabel: String? {
        guard let o2 = oxygen else { return nil }
        let o = HumanNumbers.reading(o2, places: 1), he = HumanNumbers.reading(helium ?? 0, places: 1)
        if (helium ?? 0) > 0, he != "0" { return "Tx\(o)/\(he)" }
        if o == "21" { return "Air" }
        if o == "100" { return "O2" }
        return "EAN\(o)"
    }

    /// True when ``gasName`` says something the mix does not: a name such as `Deco 1`, or a
    /// mix's name for a cylinder whose fractions were not recorded. `EAN32` on a 32 % cylinder
    /// is only a spelling of its mix.
    public var gasNameSaysMore: Bool {
        guard let name = gasName?.trimmingWhitespace(), !name.isEmpty else { return false }
        guard let mix = Self.mix(named: name), let o2 = oxygen else { return true }
        return mix.oxygen != o2 || mix.helium != (helium ?? 0)
    }

    /// The oxygen and helium percentages a gas's name states, the inverse of ``gasLabel``:
    /// `Air`, `EAN32`, `Nitrox 32`, `NX32`, `32%`, `Tx18/45`, `Trimix 18/45`, `18/45`, `O2`;
    /// `nil` for a name that states no mix.
    public static func mix(named name: String) -> (oxygen: Double, helium: Double)? {
        let v = name.lowercased().trimmingWhitespace()
        if v == "air" || v == "luft" || v == "air (21%)" { return (21, 0) }
        if v == "o2" || v == "oxygen" || v == "100%" { return (100, 0) }
        // Numbers, a fraction kept (`Tx10.5/70`).
        let digits = v.split(whereSeparator: { !$0.isNumber && $0 != "." }).compactMap { Double($0.trimmingCharacters(of: ".")) }
        if v.hasPrefix("ean") || v.hasPrefix("nx") || v.hasPrefix("nitrox") || v.hasSuffix("%"), digits.count == 1, digits[0] > 21, digits[0] <= 100 { return (digits[0], 0) }
        if v.hasPrefix("tx") || v.hasPrefix("trimix") || v.hasPrefix("tmx") || v.contains("/"), digits.count == 2, digits[0] + digits[1] <= 100 { return (digits[0], digits[1]) }
        return nil
    }
}

/// What a cylinder's gas is for.
public enum CylinderRole: String, Sendable, Hashable { case bottom, deco, diluent, oxygen }

/// Whether a cylinder is breathed alongside others (sidemount, doubles) or carried to be switched to.
public enum CylinderUsage: String, Sendable, Hashable { case parallel, staged }

/// How much of a species was seen, when not counted.
public enum Abundance: String, Sendable, Hashable, CaseIterable { case few, many, abundant }

/// A species seen on a dive.
public struct Sighting: Sendable, Hashable {
    /// The species seen.
    public var speciesUUID: String
    /// How many were seen; at most one of this and `abundance` is set.
    public var count: Int?
    /// How many were seen, when not counted.
    public var abundance: Abundance?
    /// The diver's notes about the sighting.
    public var notes: String?
    /// The sighting's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a sighting of this species, counted or not.
    public init(speciesUUID: String, count: Int? = nil) { self.speciesUUID = speciesUUID; self.count = count }
}

/// A person on a dive, and in what role.
public struct PersonReference: Sendable, Hashable {
    /// The person.
    public var personUUID: String
    /// What the person was; `nil` when the source does not say.
    public var role: PersonRole?
    /// The reference's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a reference to this person in this role.
    public init(personUUID: String, role: PersonRole? = nil) { self.personUUID = personUUID; self.role = role }
}

/// What a person was to the diver on a dive, a trip or a course.
public enum PersonRole: String, Sendable, Hashable { case buddy, guide, instructor, student, companion }

extension Dive {
    /// The dive's record path in its source for findings about it (`dive/3`, as the readers and
    /// the model checks spell it): its place among its file's dives, else `index`, its place in
    /// what the writer was handed; a dive whose provenance has a label is named by it
    /// (`dive #13 2009-08-29 a8df7e2a`, a logbook's dive).
    public func sourcePath(else index: Int) -> String {
        if let label = provenance?.label { return "dive \(label)" }
        return "dive/\(provenance?.index ?? index)"
    }
}

extension Substring {
    fileprivate func trimmingCharacters(of c: Character) -> Substring {
        var s = self
        while s.first == c { s.removeFirst() }
        while s.last == c { s.removeLast() }
        return s
    }
}
