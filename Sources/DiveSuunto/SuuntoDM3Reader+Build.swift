import DiveCore

/// Turns a `<MSG>` into the model, by `docs/suunto-dm3-mapping.md`.
extension SuuntoDM3State {
    /// Reports a `0` that Dive Manager writes for a field the diver left empty.
    func zeroPlaceholder(_ name: String, _ value: DM3Value?, path: String) {
        report(.absent, "zero-placeholder", "<\(name)> is 0, which Dive Manager writes for a field left empty; read as not recorded",
               path: path, line: value?.line)
    }

    func buildDive() -> Dive? {
        let path = messagePath
        func at(_ name: String) -> String { "\(path)/\(name)" }
        let s = scalars

        let (startedAt, startOK) = readStart(path: path)
        guard startOK else { return nil }
        let index = logbook.divesRead
        var dive = Dive(uuid: Identity.uuid5(namespace: SuuntoDM3.namespace, name: "dive:\(entry)#\(messageIndex)"), startedAt: startedAt)
        dive.provenance = Provenance(format: "suunto-dm3", file: logbook.archive, index: index, positionalIdentity: true)
        report(.absent, "id-absent",
               "a Dive Manager export records no id for its dive; its identity is its entry (\(entry)) and its place there",
               path: path, line: messageLine)

        if let title = s["LOGTITLE"], let t = title.text {
            // Dive Manager titles a dive with its date and time until the diver names it.
            let start = [s["DATE"]?.text, s["TIME"]?.text].compactMap { $0 }.joined(separator: " ")
            if t.split(whereSeparator: { $0 == " " }).joined(separator: " ") != start {
                report(.dropped, "title-not-carried", "<LOGTITLE> \"\(t)\" is the dive's title, which umilog's model has no member for; not carried",
                       path: at("LOGTITLE"), line: title.line)
            }
        }
        if let v = s["DIVENUMBER"], let n = integer(v, "DIVENUMBER", path: at("DIVENUMBER")) {
            if n >= 1 { dive.number = n } else { zeroPlaceholder("DIVENUMBER", v, path: at("DIVENUMBER")) }
        }
        if let v = s["DIVETIMESEC"], let n = integer(v, "DIVETIMESEC", path: at("DIVETIMESEC")) {
            if n > 0 { dive.submergedTime = n } else { zeroPlaceholder("DIVETIMESEC", v, path: at("DIVETIMESEC")) }
        }
        // The same rule as every reader's (``SummaryDepths``), on the exact decimals.
        let depths = SummaryDepths(max: decimal(s["MAXDEPTH"], "MAXDEPTH", path: at("MAXDEPTH")),
                                   mean: decimal(s["MEANDEPTH"], "MEANDEPTH", path: at("MEANDEPTH")),
                                   maxName: "<MAXDEPTH>", meanName: "<MEANDEPTH>")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings {
            let element = f.member == .max ? "MAXDEPTH" : "MEANDEPTH"
            report(f.kind, f.code, f.message, path: at(element), line: s[element]?.line)
        }
        dive.airTemperature = temperature("AIRTEMP", path: path)
        dive.bottomTemperature = temperature("WATERTEMPMAXDEPTH", path: path)
        for name in ["WEIGTH", "WEIGHT"] {
            // Kilograms (the corpus's 16,36 is 36 lb converted at 2.2 lb/kg). Zero is a
            // diver's "no lead" (converting.md: the member is ≥ 0). Dive Manager spells it
            // WEIGTH; a WEIGHT beside it is a second weight, which is not carried.
            guard let v = number(s[name], name, path: at(name)) else { continue }
            if let w = dive.weight {
                report(.dropped, "weight-repeated", "<\(name)> \(v) kg repeats the dive's weight, already \(w) kg from <WEIGTH>; not carried",
                       path: at(name), line: s[name]?.line)
            } else if v >= 0 && v < 1000 { dive.weight = v } else {
                report(.dropped, "weight-out-of-range", "<\(name)> \(v) kg is not a weight a diver carries; not carried", path: at(name), line: s[name]?.line)
            }
        }
        if let n = s["LOGNOTES"]?.text { dive.notes = n }
        if let b = s["BOATNAME"]?.text { dive.boatName = b }
        if let w = s["WEATHER"], let t = w.text {
            if let weather = Self.weather[t.lowercased()] { dive.weather = weather } else {
                report(.dropped, "weather-not-carried",
                       "<WEATHER> \"\(t)\" is free text that names none of the model's kinds of weather; not carried",
                       path: at("WEATHER"), line: w.line)
            }
        }
        readSite(into: &dive, path: path)
        dive.people = readPeople(path: path)
        if let v = s["SURFACETIME"], let n = integer(v, "SURFACETIME", path: at("SURFACETIME")) {
            if n > 0 {
                dive.extensions = .object([.init("umilog", .object([.init("surface_interval", .number(String(n)))]))])
            } else {
                zeroPlaceholder("SURFACETIME", v, path: at("SURFACETIME"))
            }
        }

        var recording = Recording()
        var device = Device()
        device.brand = "Suunto"
        device.model = s["DEVICEMODEL"]?.text
        device.serial = s["WRISTOPID"]?.text
        if let v = s["DCDIVENUMBER"], let n = integer(v, "DCDIVENUMBER", path: at("DCDIVENUMBER")) {
            if n >= 1 { device.diveNumber = n } else { zeroPlaceholder("DCDIVENUMBER", v, path: at("DCDIVENUMBER")) }
        }
        recording.device = device
        if let v = s["PMODE"], let n = integer(v, "PMODE", path: at("PMODE")) {
            // Suunto's personal adjustment P0–P2: more conservative as it rises.
            if (0...2).contains(n) {
                var deco = DecoModel()
                deco.conservatism = n
                recording.decoModel = deco
            } else {
                report(.dropped, "personal-mode-invalid", "<PMODE> \(n) is not one of Suunto's P0–P2; not carried", path: at("PMODE"), line: v.line)
            }
        }
        dive.cylinders = readCylinders(path: path)
        recording.profile = readProfile(cylinders: &dive.cylinders, path: path)
        dive.recordings = [recording]
        return dive
    }

    /// `<DATE>` and `<TIME>`: the start, and whether the dive can be carried at all (a start
    /// that is not a date refuses the dive, as DiveJSON cannot hold one).
    private func readStart(path: String) -> (DiveDateTime?, Bool) {
        let s = scalars
        guard let dv = s["DATE"], let dt = dv.text else {
            report(.absent, "start-absent", "the dive records no <DATE>", path: path, line: messageLine)
            if let tv = s["TIME"], let tt = tv.text {
                report(.dropped, "time-without-date", "<TIME> \"\(tt)\" names no day without a <DATE>; not carried", path: "\(path)/TIME", line: tv.line)
            }
            return (nil, true)
        }
        guard let date = Self.date(dt) else {
            report(.dropped, "start-invalid", "<DATE> \"\(dt)\" is not a dd.mm.yyyy date; the dive is not carried", path: "\(path)/DATE", line: dv.line, losing: 1)
            return (nil, false)
        }
        var start = DiveDateTime(date: date)
        if let tv = s["TIME"], let tt = tv.text {
            guard let (time, noSeconds) = Self.time(tt) else {
                report(.dropped, "start-invalid", "<TIME> \"\(tt)\" is not a time of day; the dive is not carried", path: "\(path)/TIME", line: tv.line, losing: 1)
                return (nil, false)
            }
            start.time = time
            if noSeconds { report(.absent, "time-without-seconds", "<TIME> \"\(tt)\" has no seconds; read as :00", path: "\(path)/TIME", line: tv.line) }
        } else {
            report(.absent, "time-absent", "the dive records a <DATE> and no <TIME>; its start is the date alone", path: "\(path)/DATE", line: dv.line)
        }
        report(.absent, "offset-absent", "the format records no UTC offset; the start is the wall clock alone", path: "\(path)/DATE", line: dv.line)
        return (start, true)
    }

    /// A temperature in °C. Dive Manager writes 0 for one the diver left empty and for one the
    /// computer did not record, so 0 is read as not recorded, and said so.
    private func temperature(_ name: String, path: String) -> Double? {
        let at = "\(path)/\(name)"
        guard let v = number(scalars[name], name, path: at) else { return nil }
        if v == 0 {
            report(.resolved, "zero-temperature",
                   "<\(name)> is 0 °C, which Dive Manager also writes for a temperature left empty; read as not recorded",
                   path: at, line: scalars[name]?.line)
            return nil
        }
        guard v > -10 && v < 60 else {
            report(.dropped, "temperature-out-of-range", "<\(name)> \(v) °C is not a temperature a diver meets; not carried", path: at, line: scalars[name]?.line)
            return nil
        }
        return v
    }

    /// Words of Dive Manager's free-text `<WEATHER>` that name one of the model's kinds.
    static let weather: [String: Weather] = [
        "sunny": .clear, "clear": .clear, "partly cloudy": .partlyCloudy, "cloudy": .overcast, "overcast": .overcast,
        "rain": .rain, "rainy": .rain, "storm": .storm, "stormy": .storm, "snow": .snow, "fog": .fog, "foggy": .fog,
    ]

    /// `<SITE>` names the dive site and `<LOCATION>` the place it is in; one site per distinct
    /// pair in the archive.
    private func readSite(into dive: inout Dive, path: String) {
        let site = scalars["SITE"], location = scalars["LOCATION"]
        guard let name = site?.text else {
            if let l = location?.text {
                report(.dropped, "location-without-site",
                       "<LOCATION> \"\(l)\" names a place and no <SITE> names the dive site in it, and a site needs a name; not carried",
                       path: "\(path)/LOCATION", line: location?.line)
            }
            return
        }
        let key = name + "\n" + (location?.text ?? "")
        if let uuid = logbook.siteUUIDs[key] {
            dive.siteUUIDs = [uuid]
            return
        }
        var record = Site(uuid: Identity.uuid(kind: "site", sourceID: key, namespace: SuuntoDM3.namespace), name: String(name.prefix(255)))
        if name.count > 255 {
            report(.dropped, "site-name-too-long", "<SITE> is longer than 255 characters; cut there", path: "\(path)/SITE", line: site?.line)
        }
        if let l = location?.text { record.location = Location(name: String(l.prefix(255))) }
        logbook.siteUUIDs[key] = record.uuid
        logbook.header.sites.append(record)
        dive.siteUUIDs = [record.uuid]
    }

    /// `<PARTNER>` is a buddy and `<DIVEMASTER>` a guide, each one name as written (Dive
    /// Manager's fields are free text; a comma is not read as a list). A name met before in
    /// the archive, case-folded, is the same person.
    private func readPeople(path: String) -> [PersonReference] {
        var refs: [PersonReference] = []
        for (field, role) in [("PARTNER", PersonRole.buddy), ("DIVEMASTER", PersonRole.guide)] {
            guard let value = scalars[field], let name = value.text else { continue }
            let key = name.folded
            let uuid: String
            if let known = logbook.personUUIDs[key] { uuid = known } else {
                uuid = Identity.uuid(kind: "person", sourceID: key, namespace: SuuntoDM3.namespace)
                logbook.personUUIDs[key] = uuid
                logbook.header.people.append(Person(uuid: uuid, name: String(name.prefix(255))))
                if name.count > 255 {
                    report(.dropped, "person-name-too-long", "<\(field)> is longer than 255 characters; cut there", path: "\(path)/\(field)", line: value.line)
                }
            }
            if let k = refs.firstIndex(where: { $0.personUUID == uuid }) {
                // One person as buddy and divemaster is the guide.
                if role == .guide { refs[k].role = .guide }
                continue
            }
            refs.append(PersonReference(personUUID: uuid, role: role))
        }
        return refs
    }
}
