import DiveCore

/// The dive's text, conditions, site and people, by `docs/divinglog-mapping.md`.
extension DivingLogBuilder {
    /// `Comments`: plain text in the XML export; RTF in the database (Diving Log's notes editor
    /// is a rich-text box), turned to its plain text.
    func readComments(_ r: inout DivingLogRecord, into dive: inout Dive) {
        guard let v = r.take("comments") else { return }
        var text = v.text
        if text.hasPrefix("{\\rtf") {
            text = RTFText.plainText(text).trimmingWhitespace()
            tally("comments-rtf", .resolved, "comments-rtf", at: v.location) { n in
                "Comments is RTF\(n > 1 ? " in \(n) dives" : ""); carried as its plain text (fonts, sizes and colours are not kept)"
            }
        }
        if text.isEmpty {
            tally("comments-empty", .absent, "comments-empty", at: v.location) { n in
                "Comments holds formatting and no text\(n > 1 ? " (\(n) dives)" : ""); no notes"
            }
        } else {
            dive.notes = text
        }
    }

    /// `Water`, `Entry`, `Weather`, `UWCurrent`, `Surface`, `Visibility`, `VisHor`: the words of
    /// Diving Log's English lists where the model has the same; a diver's own word (`sereno`,
    /// `Media`) or a list number whose meaning is not published stays in the record, and is
    /// reported not carried.
    func readConditions(_ r: inout DivingLogRecord, into dive: inout Dive) {
        func word<T>(_ key: String, _ map: [String: T]) -> T? {
            guard let v = r.values[key], let value = map[v.text.lowercased().trimmingWhitespace()] else { return nil }
            _ = r.take(key)
            return value
        }
        dive.waterType = word("water", ["salt": .salt, "fresh": .fresh, "brackish": .brackish])
        dive.entryType = word("entry", ["boat": .boat, "shore": .shore, "beach": .shore, "pier": .pier, "pool": .pool])
        dive.weather = word("weather", ["clear": .clear, "sunny": .clear, "partly cloudy": .partlyCloudy, "cloudy": .overcast,
                                        "overcast": .overcast, "rain": .rain, "rainy": .rain, "storm": .storm, "snow": .snow, "fog": .fog])
        dive.current = word("uwcurrent", ["none": .none, "no current": .none, "light": .light, "weak": .light, "moderate": .moderate,
                                          "medium": .moderate, "strong": .strong, "extreme": .extreme])
        dive.waves = word("surface", ["calm": .calm, "slight": .slight, "moderate": .moderate, "rough": .rough])
        if let v = r.values["visibility"], v.text == "0" {
            _ = r.take("visibility")
            tally("visibility-zero", .absent, "visibility-zero", at: v.location) { n in
                "Visibility 0 is {program}'s \"not set\" (its list is 1 good, 2 medium, 3 bad)\(n > 1 ? " (\(n) dives)" : ""): no visibility"
            }
        }
        if let v = r.values["vishor"], let m = Double(String(v.text.filter { $0 != "m" }).trimmingWhitespace()), m > 0, m < 100 {
            _ = r.take("vishor")
            dive.visibility = m
        }
    }

    /// `Altitude`: Diving Log keeps the altitude class a diver picks (`0m ... 850m`, `0 m - 900 m`),
    /// a range, not a height; a single height (`1200 m`) is carried.
    func readAltitude(_ r: inout DivingLogRecord, into dive: inout Dive) {
        guard let v = r.values["altitude"] else { return }
        let numbers = v.text.split(whereSeparator: { !$0.isNumber && $0 != "." }).compactMap { Double($0) }
        if numbers.count == 1, let m = numbers.first, m <= 6000 {
            _ = r.take("altitude")
            dive.altitude = Int(m.rounded(.toNearestOrAwayFromZero))
        } else if numbers.count == 2 {
            _ = r.take("altitude")
            let text = v.text
            tally("altitude-range:\(text)", .dropped, "altitude-range", at: v.location) { n in
                "Altitude \"\(text)\" is {program}'s altitude class, a range, not the height of the water\(n > 1 ? " (\(n) dives)" : ""); umilog's model holds one height, so it is not carried"
            }
        }
    }

    /// `Place`, `City`, `Country` and the place's `Lat`/`Lon`: one site per place (by its
    /// `PlaceID`/`ID`, else its name), named by the place, its locality the city and country.
    func readSite(_ r: inout DivingLogRecord, into dive: inout Dive) {
        let place = r.take("place"), city = r.take("city"), country = r.take("country")
        let placeID = r.take("placeid")
        _ = r.take("cityid"); _ = r.take("countryid")
        let lat = r.take("lat"), lon = r.take("lon")
        let locality = [city?.text, country?.text].compactMap { $0 }.joined(separator: ", ")
        guard let name = place?.text ?? (locality.isEmpty ? nil : locality) else {
            if let v = lat ?? lon { report(.dropped, "position-without-place", "\(v.name) is given for no place; not carried", at: v.location) }
            return
        }
        let uuid = Identity.uuid5(namespace: DivingLog.namespace, name: placeID.map { "site:\($0.text)" } ?? "site-name:\(name)")
        dive.siteUUIDs = [uuid]
        guard siteUUIDs.insert(uuid).inserted else { return }
        var site = Site(uuid: uuid, name: String(name.prefix(255)))
        if place != nil, !locality.isEmpty { site.location = Location(name: locality) }
        if let lat, let lon, let la = number(lat), let lo = number(lon) {
            if abs(la) <= 90 && abs(lo) <= 180 && !(la == 0 && lo == 0) {
                site.position = Position(latitude: la, longitude: lo)
            } else {
                report(.dropped, "position-invalid", "Lat \(lat.text), Lon \(lon.text) is no place on Earth (0, 0 is {program}'s \"not set\"); not carried", at: lat.location)
            }
        }
        header.sites.append(site)
    }

    /// `Buddy` (names, with `BuddyIDs`) and `Divemaster`: people of the dive, buddies and guide.
    func readPeople(_ r: inout DivingLogRecord, into dive: inout Dive) {
        let ids = r.take("buddyids")?.text.split(separator: ",").map { String($0).trimmingWhitespace() } ?? []
        if let v = r.take("buddy") {
            let names = v.text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
            // Names are split at commas only where the IDs say as many people.
            let people = names.count == ids.count ? names : [v.text]
            for (i, name) in people.enumerated() {
                let key = people.count == ids.count && !ids[i].isEmpty ? "buddy:\(ids[i])" : "person:\(name)"
                dive.people.append(PersonReference(personUUID: person(name, key: key), role: .buddy))
            }
        }
        if let v = r.take("divemaster") {
            dive.people.append(PersonReference(personUUID: person(v.text, key: "person:\(v.text)"), role: .guide))
        }
    }

    private func person(_ name: String, key: String) -> String {
        let uuid = Identity.uuid5(namespace: DivingLog.namespace, name: key)
        if personUUIDs.insert(uuid).inserted { header.people.append(Person(uuid: uuid, name: name)) }
        return uuid
    }
}
