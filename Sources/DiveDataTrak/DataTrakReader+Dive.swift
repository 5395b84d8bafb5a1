import DiveCore

/// One DataTrak record as a dive, field by field in the record's order
/// (`docs/datatrak-mapping.md`). A 16-bit `7FFF` is DataTrak's "not recorded".
extension DataTrakReader {
    /// Days from 1600-01-01 (DataTrak's day 0) to 1970-01-01.
    static let daysFrom1600 = 135_140
    static let unknown = 0x7FFF

    func readDive() throws -> Dive {
        let start = offset
        // Subsurface moves on byte by byte to the next A0 00; a gap is said, not read.
        while offset + 1 < bytes.count, !(bytes[offset] == 0xA0 && bytes[offset + 1] == 0x00) { offset += 1 }
        guard offset + 1 < bytes.count else {
            throw DiveError("datatrak.record-missing", "dive \(index + 1) of the header's \(declaredDives) does not begin (no A0 00 follows byte \(start)); the file ends",
                            at: location(start))
        }
        if offset > start {
            report(.dropped, "bytes-skipped", "\(offset - start) bytes before dive \(index + 1)'s record (A0 00) belong to no record; not read", at: start, field: "gap")
        }
        offset += 2
        var d = Dive(uuid: Identity.uuid5(namespace: Self.namespace, name: "dive:#\(index)"), startedAt: nil)
        d.provenance = Provenance(format: "uwatec-datatrak", file: displayName, index: index, line: nil, positionalIdentity: true)

        let dateAt = offset
        let days = try u32("date")
        let minutes = try u16("time")
        if let date = LocalDate(daysSinceEpoch: days - Self.daysFrom1600), minutes < 1440, let time = TimeOfDay(hour: minutes / 60, minute: minutes % 60) {
            d.startedAt = DiveDateTime(date: date, time: time, offset: nil)
        } else {
            report(.dropped, "start-invalid", "day \(days) from 1600-01-01 and minute \(minutes) of the day are no date and time; the dive has no start", at: dateAt, field: "date")
        }

        let locality = try string("locality")
        let point = try string("dive point")
        site(locality: locality, point: point, into: &d)

        let altitudeAt = offset
        let altitude = try u8("altitude")
        if altitude != 0 {
            let ranges = [1: "0–700 m", 2: "700–1700 m", 3: "1700–2700 m", 4: "above 2700 m"]
            tally.count(.dropped, "altitude-class", "the altitude class (1: 0–700 m, 2: 700–1700 m, 3: 1700–2700 m, 4: above 2700 m, by Subsurface's reading) is a range the model's altitude in metres cannot hold; not carried",
                        example: "\(altitude)\(ranges[altitude].map { " (\($0))" } ?? " (no class known)")", at: altitudeAt, dive: index + 1)
        }
        let intervalAt = offset
        let interval = try u16("surface interval")
        if interval != Self.unknown {
            tally.count(.dropped, "surface-interval", "the surface interval before the dive, in minutes, has no place in umilog's model; not carried", example: "\(interval) min", at: intervalAt, dive: index + 1)
        }
        let weatherAt = offset
        let weather = try u8("weather")
        switch weather {
        case 0: break
        case 1: d.weather = .clear
        case 3: d.weather = .fog
        case 4: d.weather = .rain
        case 5: d.weather = .storm
        case 6: d.weather = .snow
        default:
            tally.count(.dropped, "weather-not-carried", "the weather code (2 is misty by Subsurface's table, which the model's weather has no value for; above 6 unknown); not carried",
                        example: "\(weather)", at: weatherAt, dive: index + 1)
        }
        if let air = try reading("air temperature", max: 6000, { "the air temperature \($0) (hundredths of a °C) is no air's" }) { d.airTemperature = Double(air) / 100 }
        let suitAt = offset
        let suit = try u8("suit")
        if suit != 0 {
            let names = [1: "no suit", 2: "shorty", 3: "combi", 4: "wet suit", 5: "semidry suit", 6: "dry suit"]
            tally.count(.dropped, "suit", "the suit (Subsurface's table: 1 no suit, 2 shorty, 3 combi, 4 wet suit, 5 semidry, 6 dry suit) names no gear item of the logbook; not carried",
                        example: "\(suit)\(names[suit].map { " (\($0))" } ?? " (not in the table)")", at: suitAt, dive: index + 1)
        }
        let tank = try u16("tank volume")
        let depth = try u16("max depth")
        if depth != Self.unknown {
            d.maxDepth = Double(depth) / 100  // at most 327.66 m: inside the model's range
        }
        if let minutes = try reading("dive time", max: 14_400, { "the dive time \($0) min is no dive's" }) { d.submergedTime = minutes * 60 }
        if let water = try reading("water temperature", max: 5000, { "the lowest water temperature \($0) (hundredths of a °C) is no water's" }) {
            d.bottomTemperature = Double(water) / 100
        }
        let usedAt = offset
        let used = try u16("air used")
        if used != Self.unknown {
            tally.count(.dropped, "air-used", "the pressure the tank lost over the dive, in hundredths of a bar, has no place in umilog's model (a cylinder's start and end pressures, which the record does not hold); not carried",
                        example: "\(Double(used) / 100) bar", at: usedAt, dive: index + 1)
        }
        try readTypeAndActivities(into: &d)

        var notes: [String] = []
        if let other = try string("other activities") { notes.append("Other activities: \(other)") }
        if let buddy = try string("buddies") { d.people = [person(buddy)] }
        if let text = try string("notes") { notes.append(text) }
        if !notes.isEmpty { d.notes = notes.joined(separator: "\n") }

        let alarmsAt = offset
        let alarms = try u16("alarms")
        if alarms != 0 {
            tally.count(.dropped, "alarms", "the two alarm bytes are bit tables whose bits no public source names; not carried", example: "\(hex(UInt8(alarms & 0xFF))) \(hex(UInt8(alarms >> 8)))", at: alarmsAt, dive: index + 1)
        }
        let numberAt = offset
        let number = try u16("dive number")
        if number >= 1 { d.number = number } else {
            report(.absent, "number-absent", "the dive number is 0; the dive has no number", at: numberAt, field: "dive number")
        }
        let stampAt = offset
        let stamp = try u32("computer timestamp")
        tally.count(.dropped, "computer-clock", "the computer's clock at the dive (libdivecomputer counts it in half seconds; without the clock's reading at download it dates nothing); not carried",
                    example: "\(stamp)", at: stampAt, dive: index + 1)
        let modelAt = offset
        let model = try u8("computer model")
        let unknownAt = offset
        let unknown = try take(7, "unknown bytes")
        tally.count(.dropped, "bytes-unknown", "the 7 bytes after the computer's model (Subsurface: air usage, then 6 of no known use) have no meaning known from public sources; not carried",
                    example: unknown.map { hex($0) }.joined(separator: " "), at: unknownAt, dive: index + 1)
        let length = try u16("profile length")
        let profileAt = offset
        let profile = try take(length, "profile")

        var rec = Recording()
        let kind = DataTrakModel.kind(model)
        if model != 0 {
            var device = Device()
            if let name = DataTrakModel.names[model] {
                device.brand = name.brand
                device.model = name.model
            } else {
                tally.count(.dropped, "model-unknown", "the computer model code \(hex(UInt8(model))) is none Subsurface's table names: no brand or model is carried, and its profile is read as an Aladin Air X/Z's, as Subsurface reads an unknown code's",
                            example: hex(UInt8(model)), at: modelAt, dive: index + 1)
            }
            if !device.isEmpty { rec.device = device }
        }
        // A tank the record sizes, or the mix a nitrox or O2 computer's profile holds.
        if tank != Self.unknown || (model != 0 && kind != .air) {
            var c = Cylinder()
            if tank != Self.unknown { c.volume = Double(tank) / 100 }  // at most 327.66 l
            c.oxygen = oxygen(kind: kind, model: model, profile: profile, at: profileAt)
            if c.volume != nil || c.oxygen != nil { d.cylinders = [c] }
        }
        if model == 0 {
            if length > 0 {
                tally.count(.dropped, "profile-without-computer", "a dive entered by hand (computer model 0) with a profile, which Subsurface does not read either: no public source gives its layout; not carried",
                            example: "a \(length)-byte profile", at: profileAt, dive: index + 1)
            }
        } else if length > 0 {
            rec.profile = try readProfile(profile, kind: kind, at: profileAt)
        }
        if rec.hasContent { d.recordings = [rec] }
        return d
    }

    /// A u16 reading: nil for `7FFF` (not recorded), and above `max` nil and reported
    /// (`value-out-of-range`, `said` of the value).
    private func reading(_ field: String, max: Int, _ said: (Int) -> String) throws -> Int? {
        let at = offset
        let v = try u16(field)
        guard v != Self.unknown else { return nil }
        guard v <= max else {
            report(.dropped, "value-out-of-range", said(v) + "; not carried", at: at, field: field)
            return nil
        }
        return v
    }

    /// Dive type 1 and 2 and activity 1 and 2: bit tables, read by Subsurface's names as tags
    /// and the water type.
    private func readTypeAndActivities(into d: inout Dive) throws {
        let typeAt = offset
        let type1 = try u8("dive type 1")
        let type2 = try u8("dive type 2")
        let act1 = try u8("activity 1")
        let act2 = try u8("activity 2")
        var tags: [String] = []
        let named: [(Int, Int, String)] = [
            (type1, 2, "no stop"), (type1, 3, "deco"), (type1, 4, "single ascent"), (type1, 5, "multiple ascent"),
            (type2, 0, "nitrox"), (type2, 1, "rebreather"),
            (act1, 0, "sight seeing"), (act1, 1, "club dive"), (act1, 2, "instructor"), (act1, 3, "instruction"),
            (act1, 4, "night"), (act1, 5, "cave"), (act1, 6, "ice"), (act1, 7, "search"),
            (act2, 0, "wreck"), (act2, 1, "river"), (act2, 2, "drift"), (act2, 3, "photo"), (act2, 4, "other"),
        ]
        for (byte, bit, tag) in named where byte & (1 << bit) != 0 { tags.append(tag) }
        d.tags = tags
        switch (type1 & 0x40 != 0, type1 & 0x80 != 0) {
        case (true, false): d.waterType = .fresh
        case (false, true): d.waterType = .salt
        case (true, true):
            report(.dropped, "water-both", "dive type 1 says both fresh and salt water; no water type is carried", at: typeAt, field: "dive type 1")
        default: break
        }
        let unnamed = [("dive type 1", type1 & 0x03), ("dive type 2", type2 & 0xFC), ("activity 2", act2 & 0xE0)]
        for (name, bits) in unnamed where bits != 0 {
            tally.count(.dropped, "bits-unknown", "bits of \(name) that no public source names; not carried", example: "\(hex(UInt8(bits))) (the bits set)", at: typeAt, dive: index + 1)
        }
    }

    private func site(locality: String?, point: String?, into d: inout Dive) {
        guard let name = point ?? locality else { return }
        let key = "\(locality?.folded ?? "")|\(point?.folded ?? "")"
        if let known = siteUUIDs[key] { d.siteUUIDs = [known]; return }
        var s = Site(uuid: Identity.uuid(kind: "site", sourceID: key, namespace: Self.namespace), name: name)
        if let locality, point != nil { s.location = Location(name: locality) }
        siteUUIDs[key] = s.uuid
        header.sites.append(s)
        d.siteUUIDs = [s.uuid]
    }

    private func person(_ name: String) -> PersonReference {
        let key = name.folded
        if let known = personUUIDs[key] { return PersonReference(personUUID: known, role: .buddy) }
        let uuid = Identity.uuid(kind: "person", sourceID: key, namespace: Self.namespace)
        personUUIDs[key] = uuid
        header.people.append(Person(uuid: uuid, name: name))
        return PersonReference(personUUID: uuid, role: .buddy)
    }

    /// The tank's oxygen: air for an air computer (libdivecomputer's reading); for a nitrox one
    /// the low nibble of profile byte 23 (20 + 2 × n %, 0 air); for an O2 one byte 23 itself.
    private func oxygen(kind: DataTrakModel.Kind, model: Int, profile: ArraySlice<UInt8>, at: Int) -> Double? {
        guard model != 0 else { return nil }
        let header = kind.headerBytes
        switch kind {
        case .air:
            if DataTrakModel.names[model] == nil {
                tally.count(.inferred, "gas-air-assumed", "the tank of a computer whose model code no table names is taken to hold air, as libdivecomputer reads the Aladin Air X/Z Subsurface takes such a code for",
                            example: "model \(hex(UInt8(model)))", at: at, dive: index + 1)
            }
            return 21
        case .nitrox, .oxygen:
            guard profile.count >= header else {
                report(.absent, "gas-absent", "the profile is shorter than the \(header)-byte header that holds the \(kind.rawValue) computer's mix; the tank's gas is not known", at: at, field: "profile")
                return nil
            }
            let b = Int(profile[profile.startIndex + 23])
            if kind == .oxygen { return Double(b) }
            return b & 0x0F == 0 ? 21 : Double(20 + 2 * (b & 0x0F))
        }
    }
}

/// The computer models Subsurface's `datatrak.h` names, and what a model code's high nibble
/// says of its profile (libdivecomputer's `uwatec_memomouse_parser.c`).
enum DataTrakModel {
    enum Kind: String { case air, nitrox, oxygen = "O2"
        /// The profile's header before its samples.
        var headerBytes: Int { self == .nitrox ? 24 : self == .oxygen ? 25 : 22 }
    }

    /// By the libdivecomputer model Subsurface hands the profile to (an unknown code as 0x44,
    /// the Aladin Air X/Z): of those, only A4 is an O2 and F4 and FF nitrox computers.
    static func kind(_ model: Int) -> Kind { model == 0xA4 ? .oxygen : model == 0xF4 || model == 0xFF ? .nitrox : .air }

    static let names: [Int: (brand: String, model: String)] = [
        0x1B: ("Uwatec", "Aladin Pro"), 0x1C: ("Uwatec", "Aladin Air"), 0x1D: ("Spiro", "Monitor 2 plus"),
        0x1E: ("Uwatec", "Aladin Sport"), 0x1F: ("Uwatec", "Aladin Pro"), 0x34: ("Uwatec", "Aladin Air X/Z"),
        0x3D: ("Spiro", "Monitor 2 plus"), 0x3E: ("Uwatec", "Aladin Sport"), 0x3F: ("Uwatec", "Aladin Pro"),
        0x44: ("Uwatec", "Aladin Air X/Z"), 0x48: ("Spiro", "Monitor 3 Air"), 0xA4: ("Uwatec", "Aladin Air X/Z O2"),
        0xB1: ("Citizen", "Hyper Aqualand"), 0xB2: ("Citizen", "ProMaster"), 0xB3: ("Mares", "Guardian"),
        0xF4: ("Uwatec", "Aladin Air X/Z Nitrox"), 0xFF: ("Uwatec", "Aladin Pro Nitrox"),
    ]
}
