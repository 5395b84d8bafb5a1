import DiveCore
import DiveXML

extension UDDFWriter {
    /// Writes `<dive>`: what came before it, its tanks, its samples, what came after.
    func writeDive(_ d: Dive, header: LogbookHeader, into x: inout XMLEmitter) {
        let path = d.sourcePath(else: divesWritten)
        guard let start = d.startedAt else {
            report(.dropped, "uddf.dive-without-start", "a dive with no start cannot be written: UDDF requires its <datetime>", path, losing: 1)
            return
        }
        let primary = d.recordings.first
        let deviceLinks = recordDevices(d, header: header, path: path)
        divesInFile += 1
        x.open("dive", [("id", "dive-\(d.uuid)")])

        // informationbeforedive, in its sequence's order.
        x.open("informationbeforedive")
        for s in d.siteUUIDs { x.empty("link", [("ref", "site-\(s)")]) }
        let contact = d.contactUUID.flatMap { header.contact($0) }
        if let c = d.contactUUID { x.empty("link", [("ref", "contact-\(c)")]) }
        for (i, p) in d.people.enumerated() {
            if p.role == .guide, let contact, contact.roles != [.shop] {
                let key = GuideKey(contact: contact.uuid, person: p.personUUID)
                if guides[key] == nil { guides[key] = guideOrder.count; guideOrder.append(key) }
                x.empty("link", [("ref", "guide-\(guides[key]!)")])
                continue
            }
            x.empty("link", [("ref", "person-\(p.personUUID)")])
            switch p.role {
            case .buddy?: break
            case nil:
                report(.resolved, "uddf.person-role-absent", "a reference with no role is written as a plain link, which a reader takes as a buddy", "\(path)/people/\(i)")
            case let role?:
                report(.dropped, "uddf.person-role-not-carried", "the role \(role.rawValue) has no spelling on a UDDF dive\(role == .guide ? " without a dive base" : ""); written as a plain link (a buddy)", "\(path)/people/\(i)")
            }
        }
        if let n = d.number {
            if n > 0 { x.element("divenumber", String(n)) } else {
                report(.dropped, "uddf.dive-number-not-positive", "dive number \(n) is not written: UDDF's <divenumber> is a positive integer", path)
            }
        }
        if let n = primary?.device?.diveNumber {
            if n > 0 { x.element("internaldivenumber", String(n)) } else {
                report(.dropped, "uddf.device-dive-number-not-positive", "the computer's dive counter \(n) is not written: UDDF's <internaldivenumber> is a positive integer", path)
            }
        }
        if start.time == nil, dateOnlyStart == .midnight {
            x.element("datetime", midnight(start.date))
            report(.resolved, "uddf.date-only-start-midnight", "the dive was logged with a date and no time: written as midnight (--date-only-start midnight), which reads back as a dive that began at 00:00", path)
        } else {
            x.element("datetime", start.description)
            if start.time == nil {
                report(.resolved, "uddf.date-only-start", "the dive was logged with a date and no time: written as the bare date UDDF's documentation allows (a time would be invented); strict XSD validators expect a time here (--date-only-start midnight writes 00:00 instead)", path)
            }
        }
        if let t = d.airTemperature, let k = decimal(t).flatMap(kelvin) {
            x.element("airtemperature", k)
        }
        if let a = d.altitude { x.element("altitude", String(a)) }
        if d.weight != nil || !d.gearUUIDs.isEmpty || !deviceLinks.isEmpty {
            x.open("equipmentused")
            if let w = d.weight { x.element("leadquantity", number(w)) }
            for g in d.gearUUIDs { x.empty("link", [("ref", "gear-\(g)")]) }
            for n in deviceLinks { x.empty("link", [("ref", "device-\(n)")]) }
            x.close("equipmentused")
        }
        switch d.type {
        case .openCircuit?: x.element("apparatus", "open-scuba")
        case .closedCircuit?: x.element("apparatus", "rebreather")
        case .semiClosed?:
            x.element("apparatus", "rebreather")
            report(.dropped, "uddf.dive-type-narrowed", "semi-closed circuit is written as UDDF's \"rebreather\", which a reader takes as closed circuit", path)
        case .surfaceSupplied?: x.element("apparatus", "surface-supplied")
        case let t?: report(.dropped, "uddf.dive-type-not-carried", "dive type \(t.rawValue) has no UDDF apparatus", path)
        case nil: break
        }
        switch d.entryType {
        case .shore?: x.element("platform", "beach-shore")
        case .pier?: x.element("platform", "pier")
        case let e?: report(.dropped, "uddf.entry-type-not-carried", "entry type \(e.rawValue) has no UDDF platform that says only that", path)
        case nil: break
        }
        if let t = d.tripUUID { x.empty("tripmembership", [("ref", "trip-\(t)")]) }
        if let p = primary?.surfacePressure, let pa = decimal(p) { x.element("surfacepressure", pa.shifted(by: 5)) }
        x.close("informationbeforedive")

        // tankdata: a mix of its own per cylinder of this dive.
        var mixOfGas: [Int: Int] = [:]
        var used: [MixKey: Int] = [:]
        let needsNumbering = primary?.profile.map { !$0.pressures.isEmpty || $0.events.contains { $0.type == .gasSwitch } } ?? false
        for (i, c) in d.cylinders.enumerated() {
            let cpath = "\(path)/cylinders/\(i)"
            let key = mixKey(c)
            let instance = used[key, default: 0]
            used[key] = instance + 1
            let slot = MixSlot(key: key, instance: instance)
            if mixPlaceholders[slot] == nil {
                mixPlaceholders[slot] = mixSlots.count
                mixSlots.append(slot)
            }
            let placeholder = mixPlaceholders[slot]!
            if let g = c.gasNumber { mixOfGas[g] = placeholder }
            x.open("tankdata")
            x.empty("link", [("ref", "mix-\u{1}\(placeholder)\u{1}")], verbatim: true)
            if let g = c.gearUUID { x.empty("link", [("ref", "gear-\(g)")]) }
            if let v = c.volume, let l = decimal(v) { x.element("tankvolume", l.shifted(by: -3)) }
            if let p = c.startPressure, let b = decimal(p) {
                x.element("tankpressurebegin", b.shifted(by: 5))
            } else {
                x.element("tankpressurebegin", "0")
                report(.absent, "uddf.start-pressure-absent", "UDDF requires a start pressure; written as 0, its spelling for not recorded", cpath)
            }
            if let p = c.endPressure, let b = decimal(p) { x.element("tankpressureend", b.shifted(by: 5)) }
            x.close("tankdata")
            reportUncarried("uddf.cylinder-member-not-carried", "of a cylinder", [
                ("role", c.role != nil), ("usage", c.usage != nil), ("extensions", c.extensions != nil),
                ("gas_number \(c.gasNumber ?? 0)", c.gasNumber.map { !(needsNumbering && $0 == i) } ?? false),
            ], cpath)
        }

        // A dive whose cylinders carry no labels at all (some writers' exports) ties its
        // channels to cylinders by position: label n is the n-th cylinder.
        if d.cylinders.allSatisfy({ $0.gasNumber == nil }) {
            for (i, c) in d.cylinders.enumerated() {
                if let slot = mixPlaceholders[MixSlot(key: mixKey(c), instance: d.cylinders[..<i].filter { mixKey($0) == mixKey(c) }.count)] {
                    mixOfGas[i] = slot
                }
            }
            if !mixOfGas.isEmpty, primary?.profile.map({ !$0.pressures.isEmpty || $0.events.contains { $0.type == .gasSwitch } }) == true {
                report(.inferred, "uddf.gas-number-positional", "the dive's cylinders carry no gas numbers, so its pressure channels and gas switches are tied to cylinders by position", path)
            }
        }
        if let r = primary, let profile = r.profile {
            writeSamples(profile, mode: r.mode, mixOfGas: mixOfGas, path: path, into: &x)
        }
        if let r = primary { reportRecording(r, path: "\(path)/recordings/0") }
        for i in d.recordings.indices.dropFirst() {
            report(.dropped, "uddf.recording-not-carried", "UDDF gives a dive one profile: recording \(i) is not written (its computer is kept in the diver's equipment)", "\(path)/recordings/\(i)")
        }

        // informationafterdive, in the order its type declares.
        x.open("informationafterdive")
        if let t = d.bottomTemperature, let k = decimal(t).flatMap(kelvin) {
            x.element("lowesttemperature", k)
        }
        if let m = d.maxDepth { x.element("greatestdepth", number(m)) } else {
            x.element("greatestdepth", "0")
            report(.absent, "uddf.max-depth-absent", "UDDF requires the greatest depth; written as 0, which a reader takes as not recorded", path)
        }
        if let v = d.visibility { x.element("visibility", number(v)) }
        if let c = d.current {
            let names: [Current: String] = [.none: "no-current", .light: "mild-current", .moderate: "moderate-current",
                                            .strong: "hard-current", .extreme: "very-hard-current"]
            x.element("current", names[c]!)
        }
        writeNotes(d.notes, path: path, into: &x)
        if let r = d.rating {
            x.open("rating")
            x.element("ratingvalue", String(r * 2))
            x.close("rating")
        }
        if let s = d.submergedTime { x.element("diveduration", String(s)) } else {
            x.element("diveduration", "0")
            report(.absent, "uddf.duration-absent", "UDDF requires the dive's duration; written as 0, which a reader takes as not recorded", path)
        }
        if let a = d.avgDepth { x.element("averagedepth", number(a)) }
        x.close("informationafterdive")
        x.close("dive")

        reportUncarried("uddf.dive-member-not-carried", nil, [
            ("water_type", d.waterType != nil), ("tags", !d.tags.isEmpty), ("waves", d.waves != nil), ("weather", d.weather != nil),
            ("boat_name", d.boatName != nil), ("entry_position", d.entryPosition != nil), ("exit_position", d.exitPosition != nil),
            ("course_uuid", d.courseUUID != nil), ("created_at", d.createdAt != nil), ("sightings", !d.sightings.isEmpty),
            ("extensions", d.extensions != nil),
        ], path)
    }

    private func reportRecording(_ r: Recording, path: String) {
        let p = r.profile
        reportUncarried("uddf.recording-member-not-carried", nil, [
            ("device.firmware", r.device?.firmware != nil), ("salinity", r.salinity != nil),
            ("cns_start", r.cnsStart != nil), ("cns_end", r.cnsEnd != nil), ("otu_start", r.otuStart != nil), ("otu_end", r.otuEnd != nil),
            ("source_files", !r.sourceFiles.isEmpty), ("started_at", r.startedAt != nil),
            ("deco_model (UDDF's <decomodel> requires a tissue table)", r.decoModel.map { !$0.isEmpty } ?? false),
            ("mode gauge", r.mode == .gauge), ("profile.ceiling", p?.ceiling != nil), ("profile.tts", p?.tts != nil),
            ("profile.surface_gradient_factor", p?.surfaceGradientFactor != nil), ("profile.extensions", p?.extensions != nil),
            ("device.extensions", r.device?.extensions != nil),
            ("extensions", r.extensions != nil),
        ], path)
    }

    /// The gas a cylinder's `<mix>` states.
    private func mixKey(_ c: Cylinder) -> MixKey {
        let o2 = c.oxygen.flatMap(decimal)
        let he = c.helium.flatMap(decimal)
        let name: String
        if let given = c.gasName { name = given } else if let o2 {
            let heValue = he ?? DecimalNumber(0)
            if !heValue.isZero {
                name = o2.adding(heValue) == DecimalNumber(100) ? "Heliox \(o2)/\(heValue)" : "Trimix \(o2)/\(heValue)"
            } else if o2 == DecimalNumber(21) {
                name = "Air"
            } else if o2 == DecimalNumber(100) {
                name = "Oxygen"
            } else {
                name = "EAN\(o2)"
            }
        } else {
            name = "unrecorded"
        }
        return MixKey(name: name, oxygen: o2, helium: he, ppo2Limit: c.ppo2Limit.flatMap(decimal))
    }

    // MARK: Devices

    /// Folds every recording's device into a computer record (and a record into a `computer`
    /// gear item where `docs/uddf-writing.md`'s rules allow); returns the `device-<n>` numbers
    /// this dive must link.
    private func recordDevices(_ d: Dive, header: LogbookHeader, path: String) -> [Int] {
        var links: [Int] = []
        /// The element each recording's computer is written on, by recording.
        var elements: [ComputerElement?] = []
        for r in d.recordings {
            guard let device = r.device, !device.isEmpty else { elements.append(nil); continue }
            var index = deviceRecords.firstIndex { Self.sameComputer($0.device, device) }
            if index == nil {
                var record = DeviceRecord(device: device)
                if let g = header.gear.first(where: { $0.type == .computer && foldedGear[$0.uuid] == nil && Self.folds(gear: $0, device: device) }) {
                    record.gearUUID = g.uuid
                    foldedGear[g.uuid] = deviceRecords.count
                }
                deviceRecords.append(record)
                index = deviceRecords.count - 1
            }
            let i = index!
            if let g = deviceRecords[i].gearUUID, d.gearUUIDs.contains(g) { elements.append(.gear(g)); continue }
            if deviceRecords[i].number == nil {
                deviceRecords[i].number = devicesNumbered
                devicesNumbered += 1
            }
            let n = deviceRecords[i].number!
            elements.append(.device(n))
            if !links.contains(n) { links.append(n) }
        }
        // A reader gives the profile to the first computer the dive links (`docs/uddf-writing.md`
        // names the two shapes where that is not the primary recording's, reported against the dive).
        let computers = Set(header.gear.lazy.filter { $0.type == .computer }.map(\.uuid))
        let firstLinked = d.gearUUIDs.first { computers.contains($0) }.map(ComputerElement.gear) ?? links.first.map(ComputerElement.device)
        if let primary = elements.first ?? nil, let firstLinked, firstLinked != primary {
            if elements.dropFirst().contains(firstLinked) {
                report(.dropped, "uddf.recordings-reordered", "the dive reaches its computers in another order than its recordings, so they come back reordered, the profile on another computer", "\(path)/recordings/0")
            } else {
                let name = { () -> String in if case .gear(let g) = firstLinked, let n = header.gear.first(where: { $0.uuid == g })?.name { return " \"\(n)\"" }; return "" }()
                report(.dropped, "uddf.linked-computer-first", "the dive links the computer\(name) before the one that recorded it, so the profile and the dive counter come back on that computer", "\(path)/recordings/0")
            }
        }
        return links
    }

    /// Where a recording's computer is written: the gear item it folded into, or `device-<n>`.
    enum ComputerElement: Equatable {
        case gear(String)
        case device(Int)
    }

    private static func fold(_ s: String?) -> String? { s.map(\.folded) }

    /// Two devices are one computer: equal serials where both have one, else equal labels
    /// (name, else model) with brands that do not disagree. No label, no fold.
    static func sameComputer(_ a: Device, _ b: Device) -> Bool {
        if let sa = fold(a.serial), let sb = fold(b.serial) { return sa == sb }
        guard let la = fold(a.name ?? a.model), let lb = fold(b.name ?? b.model), la == lb else { return false }
        if let ba = fold(a.brand), let bb = fold(b.brand), ba != bb { return false }
        return true
    }

    /// A `computer` gear item is the device's computer (same legs as ``sameComputer(_:_:)``,
    /// the gear item's name standing for its label).
    static func folds(gear g: GearItem, device: Device) -> Bool {
        if let sg = fold(g.serial), let sd = fold(device.serial) { return sg == sd }
        guard let label = fold(device.name ?? device.model), fold(g.name) == label else { return false }
        if let bg = fold(g.brand), let bd = fold(device.brand), bg != bd { return false }
        return true
    }

    // MARK: Samples

    private func writeSamples(_ p: Profile, mode: RecordingMode?, mixOfGas: [Int: Int], path: String, into x: inout XMLEmitter) {
        // Each channel's cursor; waypoints are the union of every channel's instants.
        var channels: [Series] = []
        func add(_ s: Series?) -> Int { guard let s else { return -1 }; channels.append(s); return channels.count - 1 }
        let cns = add(p.cns), ppo2 = add(p.ppo2), depth = add(p.depth), temperature = add(p.temperature)
        let gf = add(p.gradientFactor), ndl = add(p.ndl)
        let pressures = p.pressures.map { add($0.series) }
        // Each channel's `<tankpressure ref>`, resolved once; a channel with no cylinder is one finding.
        let pressureRefs: [[(String, String)]?] = p.pressures.enumerated().map { i, ch in
            guard let mix = mixOfGas[ch.gasNumber] else {
                report(.dropped, "uddf.pressure-unresolved", "the pressure readings of gas \(ch.gasNumber), a cylinder this dive does not have, cannot be written", "\(path)/recordings/0/profile/pressures/\(i)")
                return nil
            }
            return [("ref", "mix-\u{1}\(mix)\u{1}")]
        }
        let events = p.events.sorted { $0.time < $1.time }
        var cursors = [Int](repeating: 0, count: channels.count)
        var e = 0
        var first = true
        x.open("samples")
        while true {
            var t = Int.max
            for (i, s) in channels.enumerated() where cursors[i] < s.count { t = min(t, s.times[cursors[i]]) }
            if e < events.count { t = min(t, events[e].time) }
            guard t != Int.max else { break }
            func value(_ ch: Int) -> Int? {
                guard ch >= 0 else { return nil }
                let c = cursors[ch]
                guard c < channels[ch].count, channels[ch].times[c] == t else { return nil }
                cursors[ch] = c + 1
                return channels[ch].values[c]
            }
            var marker: String?
            var switchTo: Int?
            while e < events.count, events[e].time == t {
                let ev = events[e]
                let epath = "\(path)/recordings/0/profile/events/\(e)"
                e += 1
                if ev.type == .gasSwitch {
                    guard let g = ev.gasNumber, let mix = mixOfGas[g] else {
                        report(.dropped, "uddf.gas-switch-unresolved", "a gas switch to a cylinder this dive does not have cannot be written", epath); continue
                    }
                    if switchTo != nil { report(.dropped, "uddf.event-collision", "a second gas switch at one instant has no place in a waypoint", epath); continue }
                    switchTo = mix
                    continue
                }
                let text: String?
                switch ev.type {
                case .deepStop?, .safetyStop?, .bookmark?:
                    text = ev.type!.rawValue
                    if ev.label != nil { report(.dropped, "uddf.event-label-not-carried", "a marker carries its type or its label, not both: the label is not written", epath) }
                case nil: text = ev.label
                case let type?:
                    text = ev.label
                    report(.dropped, "uddf.event-type-not-carried", ev.label == nil
                           ? "an event of type \(type.rawValue) with no label has no UDDF spelling; not written"
                           : "the event type \(type.rawValue) has no UDDF spelling; its label is written", epath)
                }
                guard let text else { continue }
                if marker != nil { report(.dropped, "uddf.event-collision", "a second marker at one instant has no place in a waypoint", epath); continue }
                marker = text
            }
            x.open("waypoint")
            if let v = value(cns) { x.element("cns", DecimalNumber(significand: Int64(v), exponent: -1)) }
            if let v = value(ppo2) { x.element("calculatedpo2", DecimalNumber(significand: Int64(v), exponent: -2)) }
            if let v = value(depth) { x.element("depth", DecimalNumber(significand: Int64(v), exponent: -2)) }
            x.element("divetime", DecimalNumber(significand: Int64(t), exponent: -3))
            if let marker { x.element("setmarker", marker) }
            if let switchTo { x.empty("switchmix", [("ref", "mix-\u{1}\(switchTo)\u{1}")], verbatim: true) }
            for (i, ch) in pressures.enumerated() {
                // Every channel's cursor moves past this instant, written or not: a channel
                // left behind would hold the waypoints at its time for ever (a hang the
                // fuzzer found: pressures of a gas no cylinder has).
                let reading = value(ch)
                guard let ref = pressureRefs[i], let v = reading else { continue }
                x.element("tankpressure", DecimalNumber(significand: Int64(v), exponent: 4), ref, verbatim: true)
            }
            if let v = value(temperature), let k = kelvin(DecimalNumber(significand: Int64(v), exponent: -2)) {
                x.element("temperature", k)
            }
            if first, let mode {
                let names: [RecordingMode: String] = [.openCircuit: "opencircuit", .closedCircuit: "closedcircuit",
                                                      .semiClosed: "semiclosedcircuit", .freedive: "apnoe"]
                if let name = names[mode] { x.empty("divemode", [("type", name)]) }
            }
            first = false
            if let v = value(gf) { x.element("gradientfactor", DecimalNumber(significand: Int64(v), exponent: -2)) }
            if let v = value(ndl) { x.element("nodecotime", DecimalNumber(significand: Int64(v), exponent: 0)) }
            x.close("waypoint")
        }
        x.close("samples")
    }
}
