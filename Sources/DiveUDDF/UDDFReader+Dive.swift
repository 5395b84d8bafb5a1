import DiveCore
import DiveXML

extension UDDFState {
    /// Builds a canonical dive from what one `<dive>` element said, resolving its references
    /// against the header and reporting every habit it had to read around. An element that
    /// records no dive (``DiveDraft/recordsNoDive``) is reported and gives none.
    func finishDive(_ d: DiveDraft) -> Dive? {
        let path = "dive/\(d.index)"
        reportLongTexts(prefix: path + "/")
        reportDrops(dive: true, prefix: path + "/")
        if d.recordsNoDive {
            // Carried, it would be a dive with no date, depth or time in every output and logbook.
            let what = d.surfaceIntervalInfinite || d.surfaceInterval != nil ? "nothing but the surface interval before it" : "nothing"
            report(.absent, "uddf.empty-dive", "the <dive> records \(what): no date, depth, duration or samples. It is no dive (some writers put such an element before the first dive as \"the previous dive\") and is not carried", path: path, line: d.line)
            return nil
        }
        for (element, bad) in d.badNumbers.sorted(by: { $0.key < $1.key }) {
            let more = bad.count > 1 ? " (and \(bad.count - 1) more like it)" : ""
            report(.dropped, "uddf.not-a-number", "<\(element)> holds \"\(bad.example)\"\(more), which is not a number; not carried", path: path, line: bad.line)
        }
        var dive = Dive(uuid: identity("dive", d.id, index: d.index), startedAt: startTime(d, path: path))
        dive.provenance = Provenance(format: "uddf", file: file, sourceID: d.id, index: d.index, line: d.line,
                                     positionalIdentity: d.id?.isEmpty ?? true)
        dive.number = d.number
        readSummary(d, into: &dive, path: path)
        let links = resolveLinks(d, into: &dive, path: path)
        var cylinders = readCylinders(d, path: path)
        var recording = Recording()
        recording.decoModel = links.decoModel
        recording.profile = readProfile(d, cylinders: &cylinders, recording: &recording, path: path)
        dive.cylinders = cylinders.map(\.cylinder)
        if let sp = d.surfacePressure {
            let bar = pressureInBar(sp, element: "surfacepressure", path: path, line: d.line)
            if let bar, InputLimits.Range.surfaceBar.contains(bar) {
                recording.surfacePressure = bar.doubleValue
            } else if let bar {
                report(.dropped, "uddf.surfacepressure-out-of-range", "surface pressure \(bar) bar is outside 0.4 to 1.2 bar, so it cannot be the air pressure at the surface; not carried", path: path, line: d.line)
            }
        }
        // The dive's own once-per-dive facts go on the first linked computer's recording.
        var devices = links.devices
        if var first = devices.first {
            if let n = d.internalNumber, n >= 0 { first.diveNumber = n }
            devices[0] = first
        } else if let n = d.internalNumber, n >= 0 {
            var device = Device()
            device.diveNumber = n
            devices = [device]
        }
        if let first = devices.first, !first.isEmpty { recording.device = first }
        if let v = d.highestPO2 {
            // Pascal by the documentation, bar by some writers: as <calculatedpo2>.
            let bar = DecimalNumber(10) < v ? v.shifted(by: -5) : v
            if bar.isNegative {
                report(.dropped, "uddf.readout-negative", "highest ppO2 \(v) is negative; not carried", path: path, line: d.line)
            } else {
                recording.extensions = umilogExtension(recording.extensions, "highest_ppo2", .number(bar.normalized().description))
            }
        }
        if d.surfaceIntervalInfinite {
            dive.extensions = umilogExtension(dive.extensions, "surface_interval", .string("infinity"))
        } else if let v = d.surfaceInterval {
            if v.isNegative {
                report(.dropped, "uddf.surface-interval-negative", "surface interval \(v) s is negative; not carried", path: path, line: d.line)
            } else {
                dive.extensions = umilogExtension(dive.extensions, "surface_interval", .number(v.normalized().description))
            }
        }
        if recording.hasContent {
            dive.recordings.append(recording)
        } else if recording.extensions != nil {
            report(.dropped, "uddf.readout-without-recording", "the dive states its highest ppO2 but names no dive computer and has no samples, so nothing says which device measured it; not carried", path: path, line: d.line)
        } else if recording.decoModel != nil {
            report(.dropped, "uddf.decomodel-without-recording", "the dive links a decompression model but names no dive computer and has no samples, so nothing says which device ran it; not carried", path: path, line: d.line)
        }
        for device in devices.dropFirst() where !device.isEmpty {
            dive.recordings.append(Recording(device: device))
        }
        return dive
    }

    // MARK: Start time

    private func startTime(_ d: DiveDraft, path: String) -> DiveDateTime? {
        var start: DiveDateTime?
        if let text = d.datetimeText {
            guard let (value, notes) = DiveDateTime.parse(text) else {
                report(.dropped, "uddf.datetime-invalid", "the dive's start \"\(text)\" is not a date and time; the dive has no start time", path: path, line: d.line)
                return nil
            }
            start = value
            if notes.secondsMissing {
                report(.absent, "uddf.time-without-seconds", "the start time has no seconds; read as :00", path: path, line: d.line)
            }
            if notes.dateOnly {
                report(.absent, "uddf.time-of-day-absent", "the start records a date and no time of day; read as a date-only start, not midnight", path: path, line: d.line)
            }
            if notes.offsetOnDateDropped {
                report(.dropped, "uddf.offset-on-date", "the start is a date with a UTC offset and no time of day; the offset places no instant and is not carried", path: path, line: d.line)
            }
        } else if let y = d.year, let m = d.month, let day = d.day {
            // UDDF 2.x: <date><year/><month/><day/></date> and <time><hour/><minute/></time>.
            guard let date = LocalDate(year: y, month: m, day: day) else {
                report(.dropped, "uddf.datetime-invalid", "the dive's date \(y)-\(m)-\(day) does not exist; the dive has no start time", path: path, line: d.line)
                return nil
            }
            var time: TimeOfDay?
            if let h = d.hour, let mi = d.minute {
                time = TimeOfDay(hour: h, minute: mi, second: d.second ?? 0)
                if time != nil, d.second == nil {
                    report(.absent, "uddf.time-without-seconds", "the start time has no seconds; read as :00", path: path, line: d.line)
                }
            }
            if time == nil {
                report(.absent, "uddf.time-of-day-absent", "the start records a date and no time of day; read as a date-only start, not midnight", path: path, line: d.line)
            }
            start = DiveDateTime(date: date, time: time)
        } else {
            report(.absent, "uddf.dive-without-datetime", "the dive records no start date; it is kept without one (DiveJSON carries it under extensions.umilog.undated_dives; UDDF and Subsurface XML, which require a start, cannot)", path: path, line: d.line)
            return nil
        }
        guard var value = start else { return nil }
        if isPlaceholder(value) {
            report(.dropped, "uddf.placeholder-date", "the start \(value) is a writer's placeholder for an unset clock, not a dive date; the dive is kept without a start", path: path, line: d.line)
            return nil
        }
        if case .minutes(let m)? = value.offset, m % 15 != 0 {
            // Every zone in use is a whole quarter hour from UTC, from -12:00 to +14:00;
            // `-00:07` is a writer that put the hours where the minutes go (`-07:00`), the
            // only reading that names a zone. One that names none either way is not an offset.
            let stated = value.offset!
            if (-12...14).contains(m) {
                let hours = UTCOffset.minutes(m * 60)
                report(.resolved, "uddf.offset-minutes-as-hours", "the UTC offset \(stated) is not a whole quarter hour, as every time zone is; read as \(hours), the writer's hours in the minutes' place", path: path, line: d.line)
                value.offset = hours
            } else {
                report(.dropped, "uddf.offset-not-a-zone", "the UTC offset \(stated) is not a whole quarter hour and names no time zone read either way; the start is kept as a wall clock without it", path: path, line: d.line)
                value.offset = nil
            }
        }
        if value.offset == .utc && isShearwaterCloud {
            value.offset = nil
            report(.resolved, "uddf.shearwater-local-z", "the generator writes the local wall clock with a Z suffix; read as a wall clock with no offset", path: path, line: d.line)
        }
        return value
    }

    /// Dates writers put in an unset field: before 1900 (0001-01-01, Delphi's and Excel's
    /// 1899-12-30 epoch), Excel's day one, and the Unix epoch to the second.
    private func isPlaceholder(_ t: DiveDateTime) -> Bool {
        if t.date.year < 1900 { return true }
        let midnight = t.time == nil || t.time?.secondsSinceMidnight == 0
        if t.date == LocalDate(year: 1900, month: 1, day: 1) && midnight { return true }
        if t.date == LocalDate(year: 1970, month: 1, day: 1) && midnight { return true }
        return false
    }

    // MARK: Summary

    private func readSummary(_ d: DiveDraft, into dive: inout Dive, path: String) {
        let l = d.line
        let depths = SummaryDepths(max: d.greatestDepth, mean: d.averageDepth, maxName: "greatest depth", meanName: "average depth")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings { report(f.kind, "uddf." + f.code, f.message, path: path, line: l) }
        if let v = d.duration {
            if !InputLimits.Range.diveSeconds.contains(v) {
                report(.dropped, "uddf.value-out-of-range", "dive duration \(v) s is longer than ten days; not carried", path: path, line: l)
            } else if let s = v.roundedInteger(), s > 0 { dive.submergedTime = s } else {
                report(.absent, "uddf.zero-duration", "dive duration is \(v) s, a placeholder; read as not recorded", path: path, line: l)
            }
        }
        dive.bottomTemperature = celsius(d.lowestTemperature, element: "lowesttemperature", path: path, line: l)
        dive.airTemperature = celsius(d.airTemperature, element: "airtemperature", path: path, line: l)
        if let v = d.altitude {
            if let m = v.roundedInteger(), (-450...6500).contains(m) { dive.altitude = m } else {
                report(.dropped, "uddf.altitude-out-of-range", "altitude \(v) m is outside -450 to 6500 m; not carried", path: path, line: l)
            }
        }
        if let v = d.lead {
            if v.isNegative {
                report(.dropped, "uddf.lead-negative", "lead quantity \(v) kg is negative; not carried", path: path, line: l)
            } else { dive.weight = v.doubleValue }
        }
        if let text = d.visibilityText { dive.visibility = visibility(text, path: path, line: l) }
        if let c = d.current {
            switch c.lowercased() {
            case "no-current": dive.current = Current.none
            case "very-mild-current":
                dive.current = .light
                report(.resolved, "uddf.current-coarsened", "current \"very-mild-current\" read as light: UDDF's six steps become five", path: path, line: l)
            case "mild-current": dive.current = .light
            case "moderate-current": dive.current = .moderate
            case "hard-current": dive.current = .strong
            case "very-hard-current": dive.current = .extreme
            default: report(.dropped, "uddf.current-unknown", "current \"\(c)\" is not a UDDF current; not carried", path: path, line: l)
            }
        }
        if let r = d.rating {
            if let n = DecimalNumber(r)?.roundedInteger(), (1...10).contains(n) {
                dive.rating = (n + 1) / 2
                report(.resolved, "uddf.rating-rescaled", "rating \(n) of 10 read as \((n + 1) / 2) of 5", path: path, line: l)
            } else {
                report(.dropped, "uddf.rating-invalid", "rating \"\(r)\" is not a whole number from 1 to 10; not carried", path: path, line: l)
            }
        }
        if let a = d.apparatus {
            switch a.lowercased() {
            case "open-scuba": dive.type = .openCircuit
            case "rebreather":
                dive.type = .closedCircuit
                report(.resolved, "uddf.rebreather-closed", "apparatus \"rebreather\" covers closed and semi-closed circuits; read as closed circuit", path: path, line: l)
            case "surface-supplied": dive.type = .surfaceSupplied
            default: report(.dropped, "uddf.apparatus-not-carried", "apparatus \"\(a)\" has no dive type to carry it", path: path, line: l)
            }
        }
        if let p = d.platform {
            switch p.lowercased() {
            case "beach-shore", "landside": dive.entryType = .shore
            case "pier": dive.entryType = .pier
            case "small-boat", "charter-boat", "live-aboard", "barge": dive.entryType = .boat
            default: report(.dropped, "uddf.platform-not-carried", "platform \"\(p)\" has no entry type to carry it", path: path, line: l)
            }
        }
        if !d.notes.isEmpty { dive.notes = d.notes.joined(separator: "\n\n") }
    }

    /// Kelvin to °C, exactly. A value below 100 cannot be a Kelvin reading of anything a
    /// diver meets, so it was written in °C already.
    func celsius(_ v: DecimalNumber?, element: String, path: String, line: Int) -> Double? {
        guard let v else { return nil }
        if v < DecimalNumber(100) {
            report(.resolved, "uddf.temperature-celsius", "<\(element)> \(v) is below 100, so it cannot be Kelvin; read as °C", path: path, line: line)
            return v.doubleValue
        }
        return v.subtracting(DecimalNumber(significand: 27315, exponent: -2))?.doubleValue
    }

    /// Pascal to bar, exactly. A value below 1000 Pa (0.01 bar) is no reading in Pascal, so a
    /// writer put bar there.
    func pressureInBar(_ v: DecimalNumber, element: String, path: String, line: Int) -> DecimalNumber? {
        if v.isNegative {
            report(.dropped, "uddf.pressure-negative", "<\(element)> \(v) is negative; not carried", path: path, line: line)
            return nil
        }
        if v.isZero || DecimalNumber(1000) <= v { return v.shifted(by: -5) }
        report(.resolved, "uddf.pressure-bar", "<\(element)> \(v) is too small to be Pascal; read as bar", path: path, line: line)
        return v
    }

    /// `<visibility>` in metres; a number with a unit (`40 ft`) is converted and reported.
    private func visibility(_ text: String, path: String, line: Int) -> Double? {
        if let v = DecimalNumber(text) {
            if v.isNegative {
                report(.dropped, "uddf.visibility-negative", "visibility \(v) m is negative; not carried", path: path, line: line)
                return nil
            }
            return v.doubleValue
        }
        let lower = text.lowercased()
        let digits = lower.prefix { $0.isNumber || $0 == "." }
        let unit = String(lower.dropFirst(digits.count)).trimmingWhitespace()
        if let v = DecimalNumber(String(digits)) {
            switch unit {
            case "m", "meter", "meters", "metre", "metres":
                report(.resolved, "uddf.visibility-unit", "visibility \"\(text)\" carries its unit; read as \(v) m", path: path, line: line)
                return v.doubleValue
            case "ft", "feet", "foot", "'":
                let m = (v.doubleValue * 0.3048 * 100).rounded() / 100
                report(.resolved, "uddf.visibility-unit", "visibility \"\(text)\" is in feet; read as \(m) m", path: path, line: line)
                return m
            default: break
            }
        }
        report(.dropped, "uddf.visibility-not-a-number", "visibility \"\(text)\" is not a distance; not carried", path: path, line: line)
        return nil
    }

    // MARK: Links

    struct ResolvedLinks {
        var devices: [Device] = []
        var decoModel: DecoModel?
    }

    private func resolveLinks(_ d: DiveDraft, into dive: inout Dive, path: String) -> ResolvedLinks {
        var out = ResolvedLinks()
        var seenPeople: [String: Int] = [:]
        var unresolved: [String] = []
        for ref in d.links {
            if let uuid = siteUUIDs[ref] {
                if !dive.siteUUIDs.contains(uuid) { dive.siteUUIDs.append(uuid) }
            } else if personUUIDs[ref] != nil || guideBuddy[ref].flatMap({ personUUIDs[$0] }) != nil {
                let isGuide = personUUIDs[ref] == nil
                let buddy = isGuide ? guideBuddy[ref]! : ref
                let uuid = personUUIDs[buddy]!
                let role: PersonRole = isGuide ? .guide : (studentIDs.contains(buddy) ? .student : .buddy)
                if let at = seenPeople[uuid] {
                    if role == .guide { dive.people[at].role = .guide }
                    report(.dropped, "uddf.person-linked-twice", "the dive links one person twice; kept once", path: path, line: d.line)
                } else {
                    seenPeople[uuid] = dive.people.count
                    dive.people.append(PersonReference(personUUID: uuid, role: role))
                }
            } else if definedIDs[ref] == .divebase || definedIDs[ref] == .shop {
                linkedContacts.insert(ref)
                if dive.contactUUID == nil {
                    dive.contactUUID = identity("contact", ref, index: 0)
                } else {
                    report(.dropped, "uddf.second-contact", "the dive links a second dive centre or shop \"\(ref)\"; a dive has one, so the first is kept", path: path, line: d.line)
                }
            } else if let model = decoModels[ref] {
                out.decoModel = decoModel(model, path: path, line: d.line)
            } else if let device = computers[ref] {
                out.devices.append(device)
            } else if droppedIDs.contains(ref) {
                continue
            } else if let tag = definedIDs[ref] {
                report(.dropped, "uddf.link-not-carried", "the dive links <\(tag)> \"\(ref)\", which this logbook model does not carry", path: path, line: d.line)
            } else {
                unresolved.append(ref)
            }
        }
        if !unresolved.isEmpty {
            let list = unresolved.map { "\"\($0)\"" }.joined(separator: ", ")
            report(.dropped, "uddf.link-unresolved", "the dive links \(list), which the file defines nowhere", path: path, line: d.line)
        }
        for ref in d.equipmentLinks {
            if let uuid = gearUUIDs[ref], !dive.gearUUIDs.contains(uuid) { dive.gearUUIDs.append(uuid) }
            if let device = computers[ref] { out.devices.append(device) }
            if gearUUIDs[ref] == nil && computers[ref] == nil && !droppedIDs.contains(ref) {
                report(.dropped, "uddf.link-unresolved", "the dive's equipment links \"\(ref)\", which the file defines nowhere", path: path, line: d.line)
            }
        }
        if let ref = d.tripRef {
            if let uuid = tripUUIDs[ref] { dive.tripUUID = uuid } else if !droppedIDs.contains(ref) {
                report(.dropped, "uddf.link-unresolved", "the dive's trip membership names \"\(ref)\", which the file defines nowhere", path: path, line: d.line)
            }
        }
        return out
    }

    private func decoModel(_ m: DecoDraft, path: String, line: Int) -> DecoModel {
        var model = DecoModel()
        model.algorithm = "buhlmann"
        func percent(_ v: DecimalNumber?) -> Int? {
            guard let v else { return nil }
            let p = isShearwaterCloud ? v.roundedInteger() : v.scaledInteger(2)
            guard let p, (0...100).contains(p) else { return nil }
            return p
        }
        if let low = percent(m.gfLow), let high = percent(m.gfHigh) {
            model.gfLow = low
            model.gfHigh = high
            if isShearwaterCloud {
                report(.resolved, "uddf.gf-whole-percent", "the generator writes gradient factors in whole percent, not as fractions; read as percent", path: path, line: line)
            }
        }
        return model
    }

    // MARK: Cylinders

    struct CylinderDraft {
        var cylinder: Cylinder
        var id: String?
        var mix: String?
    }

    private func readCylinders(_ d: DiveDraft, path: String) -> [CylinderDraft] {
        var out: [CylinderDraft] = []
        var usedGear: Set<String> = []
        for (j, t) in d.tanks.enumerated() {
            let tpath = "\(path)/tankdata/\(j)"
            var c = Cylinder()
            var mixLink: String?
            var gearLink: String?
            var volumeFromGear: DecimalNumber?
            var other: [String] = []
            for link in t.links where !link.isEmpty {
                if mixes[link] != nil {
                    if mixLink == nil { mixLink = link } else {
                        report(.dropped, "uddf.tank-second-mix", "a tank links a second gas \"\(link)\"; a cylinder holds one gas, so it is not carried", path: tpath, line: t.line)
                    }
                } else if definedIDs[link]?.isGearPiece == true || gearUUIDs[link] != nil {
                    if volumeFromGear == nil { volumeFromGear = gearVolumes[link] }
                    if gearLink == nil, !usedGear.contains(link) { gearLink = link } else {
                        report(.dropped, "uddf.tank-second-vessel", "a tank links the vessel \"\(link)\" that another cylinder of the dive already is; the link is not carried", path: tpath, line: t.line)
                    }
                } else {
                    other.append(link)
                }
            }
            if mixLink == nil, let first = other.first {
                mixLink = first
                other.removeFirst()
                report(.dropped, "uddf.mix-undefined", "a tank's gas \"\(first)\" is defined in no <gasdefinitions>; its blend is not known", path: tpath, line: t.line)
            }
            for link in other {
                report(.dropped, "uddf.tank-link-unresolved", "a tank links \"\(link)\", which is neither a gas nor a piece of equipment; not carried", path: tpath, line: t.line)
            }
            if let g = gearLink { usedGear.insert(g); c.gearUUID = gearUUIDs[g] }
            if let v = t.volume ?? volumeFromGear {
                c.volume = (t.volume != nil ? cylinderVolume(v, path: tpath, line: t.line) : v)?.doubleValue
            }
            if let b = t.begin, let bar = pressureInBar(b, element: "tankpressurebegin", path: tpath, line: t.line), !bar.isZero {
                if bar <= DecimalNumber(350) { c.startPressure = bar.doubleValue } else {
                    report(.dropped, "uddf.pressure-out-of-range", "start pressure \(bar) bar is above 350 bar; not carried", path: tpath, line: t.line)
                }
            }
            if let e = t.end, let bar = pressureInBar(e, element: "tankpressureend", path: tpath, line: t.line) {
                if bar <= DecimalNumber(350) { c.endPressure = bar.doubleValue } else {
                    report(.dropped, "uddf.pressure-out-of-range", "end pressure \(bar) bar is above 350 bar; not carried", path: tpath, line: t.line)
                }
            }
            if let ref = mixLink, let m = mixes[ref] {
                // A mix named `unrecorded` with no oxygen is how a writer says nothing about the
                // gas (DiveJSON's uddf-writing.md): no name was recorded.
                c.gasName = m.name?.lowercased() == "unrecorded" && m.o2 == nil && m.he == nil ? nil : m.name
                c.oxygen = gasPercent(m.o2, element: "o2", mix: ref, path: tpath, line: t.line)
                c.helium = gasPercent(m.he, element: "he", mix: ref, path: tpath, line: t.line)
                if let limit = m.maximumPO2 {
                    if DecimalNumber(significand: 4, exponent: -1) <= limit && limit <= DecimalNumber(2) {
                        c.ppo2Limit = limit.doubleValue
                    } else {
                        report(.dropped, "uddf.maximumpo2-out-of-range", "maximum ppO2 \(limit) bar is outside 0.4 to 2.0 bar; not carried", path: tpath, line: t.line)
                    }
                }
            }
            out.append(CylinderDraft(cylinder: c, id: t.id, mix: mixLink))
        }
        return out
    }

    /// A gas fraction as percent: at or below 1 the documented fraction, above it a writer's
    /// percentage (pre-2017 Subsurface, Kenozooid).
    private func gasPercent(_ v: DecimalNumber?, element: String, mix: String, path: String, line: Int) -> Double? {
        guard let v else { return nil }
        if v.isNegative || DecimalNumber(100) < v {
            report(.dropped, "uddf.gas-fraction-invalid", "<\(element)> \(v) of mix \"\(mix)\" is not a gas fraction; not carried", path: path, line: line)
            return nil
        }
        if v <= DecimalNumber(1) { return v.shifted(by: 2).doubleValue }
        report(.resolved, "uddf.gas-percent", "<\(element)> \(v) of mix \"\(mix)\" is above 1, so it is a percentage, not a fraction; read as \(v) %", path: path, line: line)
        return v.doubleValue
    }
}

/// `extensions` with `name: value` added to its `umilog` entry (DiveJSON §5.5's producer key;
/// `docs/umilog-extension.md` lists what the readers put there).
func umilogExtension(_ extensions: ExtensionValue?, _ name: String, _ value: ExtensionValue) -> ExtensionValue {
    var entries: [ExtensionValue.Member] = []
    if case .object(let e)? = extensions { entries = e }
    var members: [ExtensionValue.Member] = []
    if let k = entries.firstIndex(where: { $0.name == "umilog" }), case .object(let m) = entries[k].value {
        members = m
        entries.remove(at: k)
    }
    members.removeAll { $0.name == name }
    members.append(.init(name, value))
    entries.append(.init("umilog", .object(members)))
    return .object(entries)
}
