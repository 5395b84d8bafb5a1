import DiveCore
import DiveXML

/// Building a canonical dive from a ``DiveDraft``, reporting every value it could not carry.
extension SSRFState {
    func finishDive(_ d: DiveDraft) -> Dive? {
        let path = "dive/\(d.index)"
        reportLongTexts(prefix: path + "/")
        reportDrops(dive: true, prefix: path + "/")
        var dive = Dive(uuid: identity("dive", nil, index: d.index), startedAt: startTime(d, path: path))
        dive.provenance = Provenance(format: "ssrf", file: file, index: d.index, line: d.line, positionalIdentity: true)
        var umilog: [ExtensionValue.Member] = []
        let l = d.line

        if let n = d.number {
            if let v = SSRFValues.integer(n) { dive.number = v } else {
                report(.dropped, "ssrf.not-a-number", "the dive's @number \"\(n)\" is not a whole number; not carried", path: path, line: l)
            }
        }
        if let text = d.duration {
            switch SSRFValues.clock(text) {
            case .value(let s):
                if s < 0 {
                    report(.dropped, "ssrf.value-out-of-range", "the dive's @duration \"\(text)\" is a negative time printed unsigned; not carried", path: path, line: l)
                } else if s == 0 {
                    report(.absent, "ssrf.zero-duration", "the dive's @duration is 0:00 min, a placeholder; read as not recorded", path: path, line: l)
                } else if s > Self.maxSeconds {
                    report(.dropped, "ssrf.value-out-of-range", "the dive's @duration \"\(text)\" is longer than ten days; not carried", path: path, line: l)
                } else {
                    dive.submergedTime = s
                }
            case .unit(let u): refusedUnit("the dive's @duration", text, u, path: path, line: l)
            case .invalid:
                report(.dropped, "ssrf.time-invalid", "the dive's @duration \"\(text)\" is not Subsurface's M:SS min clock; not carried", path: path, line: l)
            }
        }
        dive.notes = d.notes
        readSite(d, into: &dive, path: path)
        dive.people = people(buddies: d.buddies, guides: d.guides, path: path, line: l)
        var cylinders = readCylinders(d, path: path)
        cylinderOxygenAbsent = d.cylinders.map { ($0.o2 ?? "").trimmingWhitespace().isEmpty }
        readConditions(d, into: &dive, umilog: &umilog, path: path)

        // Computers: a recording each that yields a device, a profile or a readout.
        var recordings: [Recording] = []
        var leftovers: [ExtensionValue] = []
        var extraCylinders: [Int: Int] = [:]
        var numbered = false
        let definedCylinders = cylinders.count
        for (k, c) in d.computers.enumerated() {
            var extras: [ExtensionValue.Member] = []
            if k == 0 {
                readSummary(c, into: &dive, overridden: d.diveTemperature, extras: &extras, path: path)
            } else {
                laterSummary(c, extras: &extras, path: path)
            }
            let built = recording(c, dive: dive, cylinders: &cylinders, defined: definedCylinders,
                                  extraCylinders: &extraCylinders, extras: &extras, path: path)
            if built.numbers { numbered = true }
            if built.recording.hasContent {
                recordings.append(built.recording)
            } else if !extras.isEmpty {
                leftovers.append(.object([.init("index", .number(String(k)))] + extras))
            }
        }
        if numbered {
            for i in cylinders.indices { cylinders[i].gasNumber = i }
        }
        for (sensor, index) in extraCylinders.sorted(by: { $0.value < $1.value }) {
            report(.resolved, "ssrf.pressure-undefined-cylinder",
                   "tank pressures come from sensor \(sensor), which no <cylinder> of the dive is; carried as a cylinder of its own (\(index + 1)) holding only those pressures",
                   path: path, line: l)
        }
        dive.cylinders = cylinders

        // The dive's oxygen clocks: the end figures of the computer that computed them.
        var readout = Recording()
        if let text = d.cns {
            switch SSRFValues.measure(text, unit: "%") {
            case .value(let v):
                if v.isNegative { report(.dropped, "ssrf.readout-negative", "the dive's @cns \(text) is negative; not carried", path: path, line: l) } else { readout.cnsEnd = v.doubleValue }
            case .unit(let u): refusedUnit("the dive's @cns", text, u, path: path, line: l)
            case .invalid: report(.dropped, "ssrf.not-a-number", "the dive's @cns \"\(text)\" is not a number; not carried", path: path, line: l)
            }
        }
        if let text = d.otu {
            switch SSRFValues.measure(text, unit: "") {
            case .value(let v):
                if v.isNegative { report(.dropped, "ssrf.readout-negative", "the dive's @otu \(text) is negative; not carried", path: path, line: l) } else { readout.otuEnd = v.doubleValue }
            case .unit(let u): refusedUnit("the dive's @otu", text, u, path: path, line: l)
            case .invalid: report(.dropped, "ssrf.not-a-number", "the dive's @otu \"\(text)\" is not a number; not carried", path: path, line: l)
            }
        }
        if readout.cnsEnd != nil || readout.otuEnd != nil {
            if recordings.isEmpty {
                recordings.append(readout)
            } else {
                recordings[0].cnsEnd = readout.cnsEnd
                recordings[0].otuEnd = readout.otuEnd
                if recordings.count > 1 {
                    report(.resolved, "ssrf.readout-on-primary",
                           "the dive's @cns and @otu do not say which of its \(recordings.count) computers computed them; put on the first one's recording",
                           path: path, line: l)
                }
            }
        }
        dive.recordings = recordings
        if !leftovers.isEmpty { umilog.append(.init("divecomputers", .array(leftovers))) }
        if !d.pictures.isEmpty { umilog.append(.init("pictures", .array(d.pictures))) }
        if let trip = d.trip { umilog.append(.init("trip", trip)) }
        if !umilog.isEmpty { dive.extensions = .object([.init("umilog", .object(umilog))]) }

        if d.samplesOverLimit > 0 {
            report(.dropped, "ssrf.samples-over-limit",
                   "the dive has \(d.samplesOverLimit) samples past the first \(samplesPerDive), more than any dive log holds for one dive; those are not carried",
                   path: path, line: l)
        }
        reportRefusals(d.refusals, path: path)
        return dive
    }

    func refusedUnit(_ what: String, _ text: String, _ unit: String, path: String, line: Int) {
        let message = unit.isEmpty
            ? "\(what) \"\(text)\" states no unit where Subsurface writes one; not carried"
            : "\(what) \"\(text)\" is in '\(unit)', a unit this reader does not convert (Subsurface's imperial spellings are refused, not guessed at); not carried"
        report(.dropped, "ssrf.unit-unknown", message, path: path, line: line)
    }

    private func reportRefusals(_ tally: RefusalTally, path: String) {
        for e in tally.entries {
            let more = e.count > 1 ? " (\(e.count) in this dive)" : ""
            let example = e.example.isEmpty ? "" : " \"\(e.example)\""
            let message: String
            switch e.code {
            case "ssrf.unit-unknown":
                message = "\(e.what)\(more), e.g.\(example): a unit this reader does not convert (imperial spellings are refused, not guessed at); not carried"
            case "ssrf.not-a-number":
                message = "\(e.what)\(example)\(more) is not a number; not carried"
            case "ssrf.time-invalid":
                message = "\(e.what)\(example)\(more) is not Subsurface's M:SS min clock; not carried"
            case "ssrf.value-out-of-range":
                message = "\(e.what)\(example)\(more) is beyond what a dive can record; not carried"
            case "ssrf.sample-without-time":
                message = "\(e.what)\(more): nothing places its readings on the dive's time axis; not carried"
            case "ssrf.time-before-start":
                message = "\(e.what)\(example)\(more) is before the dive's start (Subsurface prints a negative time unsigned, 2³² s plus it); not carried"
            case "ssrf.o2pressure-no-oxygen-cylinder":
                message = "\(e.what)\(more), e.g.\(example); not carried"
            case "ssrf.event-without-time":
                message = "\(e.what)\(example)\(more) has no @time; not carried"
            case "ssrf.pressure-zero":
                message = "\(e.what)\(more): a pressure of nothing is no reading; read as not recorded"
            case "ssrf.no-value-marker":
                message = "\(e.what)\(more): Subsurface's marker for a readout that stopped; read as no reading"
            default:
                message = "\(e.what)\(example)\(more); not carried"
            }
            let kind: FindingKind = e.code == "ssrf.pressure-zero" || e.code == "ssrf.no-value-marker" ? .absent : .dropped
            findings.append(Finding(kind, e.code, message, at: SourceLocation(file: file, line: e.line, path: path)))
        }
    }

    // MARK: Start

    private func startTime(_ d: DiveDraft, path: String) -> DiveDateTime? {
        guard let dateText = d.date, !dateText.isEmpty else {
            // The first computer's own @date and @time, which Subsurface writes on a
            // <divecomputer> when its start differs from the dive's.
            for c in d.computers {
                guard let dt = c.dateText.flatMap(SSRFValues.date), let (time, _) = c.timeText.flatMap(SSRFValues.timeOfDay) else { continue }
                let cpath = c.implicit ? path : "\(path)/divecomputer/\(c.index)"
                report(.inferred, "ssrf.start-from-computer",
                       "the dive records no @date; its start is taken from its computer's @date \"\(c.dateText!)\" and @time \"\(c.timeText!)\"",
                       path: cpath, line: c.line)
                return DiveDateTime(date: dt, time: time)
            }
            report(.absent, "ssrf.dive-without-date",
                   "the dive records no @date; it is kept without a start (DiveJSON carries it under extensions.umilog.undated_dives; UDDF and Subsurface XML, which require one, cannot)",
                   path: path, line: d.line)
            return nil
        }
        guard let date = SSRFValues.date(dateText) else {
            report(.dropped, "ssrf.date-invalid", "the dive's @date \"\(dateText)\" is not a date; the dive has no start", path: path, line: d.line)
            return nil
        }
        guard let timeText = d.time, !timeText.isEmpty else {
            report(.absent, "ssrf.time-of-day-absent", "the dive records a date and no @time; read as a date-only start, not midnight", path: path, line: d.line)
            return DiveDateTime(date: date)
        }
        guard let (time, secondsMissing) = SSRFValues.timeOfDay(timeText) else {
            report(.dropped, "ssrf.time-invalid", "the dive's @time \"\(timeText)\" is not a time of day; read as a date-only start", path: path, line: d.line)
            return DiveDateTime(date: date)
        }
        if secondsMissing {
            report(.absent, "ssrf.time-without-seconds", "the dive's @time \"\(timeText)\" has no seconds; read as :00", path: path, line: d.line)
        }
        return DiveDateTime(date: date, time: time)
    }

    // MARK: Site and conditions

    private func readSite(_ d: DiveDraft, into dive: inout Dive, path: String) {
        if let id = d.siteID?.trimmingWhitespace(), !id.isEmpty {
            if let uuid = siteUUIDs[id] {
                dive.siteUUIDs = [uuid]
            } else if droppedSiteIDs.contains(id) {
                report(.dropped, "ssrf.site-reference-dropped", "the dive's site \"\(id)\" was not carried (see its finding), so neither is the reference", path: path, line: d.line)
            } else {
                report(.dropped, "ssrf.site-unresolved", "the dive names the site \"\(id)\", which <divesites> does not define; the reference is not carried", path: path, line: d.line)
            }
        }
        if let location = d.location {
            if dive.siteUUIDs.isEmpty && d.siteID == nil {
                if let uuid = locationSite(name: location.name, gps: location.gps, path: path, line: location.line) { dive.siteUUIDs = [uuid] }
            } else {
                report(.dropped, "ssrf.location-beside-site",
                       "the dive names a site by @divesiteid and also carries a <location> of its own (\"\(location.name ?? location.gps ?? "")\"); the site is the dive's place, the location is not carried",
                       path: path, line: location.line)
            }
        }
    }

    private func readConditions(_ d: DiveDraft, into dive: inout Dive, umilog: inout [ExtensionValue.Member], path: String) {
        let l = d.line
        if let text = d.tags {
            var seen: Set<String> = []
            var repeated: [String] = [], long: [String] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: true) {
                let tag = String(part).trimmingWhitespace()
                guard !tag.isEmpty else { continue }
                guard tag.count <= 64 else { long.append(tag); continue }
                if seen.insert(tag.folded).inserted { dive.tags.append(tag) } else { repeated.append(tag) }
            }
            if !repeated.isEmpty {
                report(.dropped, "ssrf.tag-repeated", "the tags repeat \(repeated.map { "\"\($0)\"" }.joined(separator: ", ")) once case-folded; each tag is kept once", path: path, line: l)
            }
            if !long.isEmpty {
                report(.dropped, "ssrf.tag-too-long", "\(long.count) tag\(long.count == 1 ? " is" : "s are") longer than 64 characters, more than a tag holds; not carried", path: path, line: l)
            }
        }
        if let text = d.rating {
            if let v = SSRFValues.integer(text), (1...5).contains(v) { dive.rating = v } else if SSRFValues.integer(text) == 0 {
                report(.absent, "ssrf.rating-zero", "the dive's rating is 0, Subsurface's unrated; read as not rated", path: path, line: l)
            } else {
                report(.dropped, "ssrf.rating-invalid", "the dive's rating \"\(text)\" is not 1 to 5 stars; not carried", path: path, line: l)
            }
        }
        for (name, text) in d.stars {
            // Star ratings (0 to 5): `visibility` is not metres, `current` not a strength.
            if let v = SSRFValues.integer(text), (0...5).contains(v) {
                if v > 0 { umilog.append(.init("\(name)_rating", .number(String(v)))) }
            } else {
                report(.dropped, "ssrf.stars-invalid", "the dive's @\(name) \"\(text)\" is not 0 to 5 stars; not carried", path: path, line: l)
            }
        }
        if let text = d.sac {
            switch SSRFValues.measure(text, unit: "l/min") {
            case .value(let v): umilog.append(.init("sac", v.extensionNumber))
            case .unit(let u): refusedUnit("the dive's @sac", text, u, path: path, line: l)
            case .invalid: report(.dropped, "ssrf.not-a-number", "the dive's @sac \"\(text)\" is not a number; not carried", path: path, line: l)
            }
        }
        if let text = d.invalid {
            if text == "1" { umilog.append(.init("invalid", .bool(true))) } else if text != "0" {
                report(.dropped, "ssrf.not-a-number", "the dive's @invalid \"\(text)\" is neither 0 nor 1; not carried", path: path, line: l)
            }
        }
        if let text = d.tripflag, !text.isEmpty { umilog.append(.init("tripflag", .string(text))) }
        if let text = d.waterSalinity {
            switch SSRFValues.measure(text, unit: "g/l") {
            case .value(let v):
                // As a computer's <water @salinity>: a water type only for a density that is
                // exactly one (1000 fresh, Subsurface's brackish 1010, 1030 salt); any other,
                // 1020 and 1025 too, is kept exactly under umilog.
                if v == DecimalNumber(1010) { dive.waterType = .brackish } else {
                    switch Self.salinitySetting(v) {
                    case .fresh?: dive.waterType = .fresh
                    case .salt?: dive.waterType = .salt
                    case .en13319?, nil: umilog.append(.init("water_salinity", v.extensionNumber))
                    }
                }
            case .unit(let u): refusedUnit("the dive's @watersalinity", text, u, path: path, line: l)
            case .invalid: report(.dropped, "ssrf.not-a-number", "the dive's @watersalinity \"\(text)\" is not a number; not carried", path: path, line: l)
            }
        }
        if let text = d.airPressure {
            switch SSRFValues.measure(text, unit: "bar") {
            case .value(let v): umilog.append(.init("air_pressure", v.extensionNumber))
            case .unit(let u): refusedUnit("the dive's @airpressure", text, u, path: path, line: l)
            case .invalid: report(.dropped, "ssrf.not-a-number", "the dive's @airpressure \"\(text)\" is not a number; not carried", path: path, line: l)
            }
        }
        if let suit = d.suit { umilog.append(.init("suit", .string(suit))) }
        if !d.weights.isEmpty {
            var total: DecimalNumber? = DecimalNumber(0)
            var any = false
            var weighed = 0
            var list: [ExtensionValue] = []
            for w in d.weights {
                var members: [ExtensionValue.Member] = []
                if let text = w.weight {
                    switch SSRFValues.measure(text, unit: "kg") {
                    case .value(let v) where v.isZero:
                        // Subsurface writes @weight on every row, one with only a description too.
                        report(.absent, "ssrf.weight-zero", "a weight system of \(text) records no lead (Subsurface writes the attribute on every row); not added to the dive's weight", path: path, line: w.line)
                    case .value(let v) where !v.isNegative:
                        members.append(.init("weight", v.extensionNumber))
                        total = total?.adding(v)
                        any = true
                        weighed += 1
                    case .value:
                        report(.dropped, "ssrf.weight-negative", "a weight system of \(text) is negative; not carried", path: path, line: w.line)
                    case .unit(let u): refusedUnit("a <weightsystem @weight>", text, u, path: path, line: w.line)
                    case .invalid: report(.dropped, "ssrf.not-a-number", "a <weightsystem @weight> \"\(text)\" is not a number; not carried", path: path, line: w.line)
                    }
                }
                if let desc = w.description, !desc.isEmpty { members.append(.init("description", .string(desc))) }
                if !members.isEmpty { list.append(.object(members)) }
            }
            if any, let total {
                dive.weight = total.doubleValue
                if weighed > 1 {
                    report(.inferred, "ssrf.weight-summed", "the dive's \(weighed) weight systems are added up to its lead, \(total.normalized()) kg", path: path, line: l)
                }
            }
            if !list.isEmpty { umilog.append(.init("weightsystems", .array(list))) }
        }
    }

    /// The named salinity setting a density is exactly: 1000 g/l fresh, 1020 EN 13319, 1030 salt.
    static func salinitySetting(_ v: DecimalNumber) -> Salinity? {
        if v == DecimalNumber(1000) { return .fresh }
        if v == DecimalNumber(1020) { return .en13319 }
        if v == DecimalNumber(1030) { return .salt }
        return nil
    }

    // MARK: Cylinders

    private func readCylinders(_ d: DiveDraft, path: String) -> [Cylinder] {
        d.cylinders.enumerated().map { k, c in
            let cpath = "\(path)/cylinder/\(k)"
            var cyl = Cylinder()
            var umilog: [ExtensionValue.Member] = []
            func measure(_ text: String?, _ unit: StaticString, _ what: String) -> DecimalNumber? {
                guard let text, !text.isEmpty else { return nil }
                switch SSRFValues.measure(text, unit: unit) {
                case .value(let v): return v
                case .unit(let u): refusedUnit("a <cylinder @\(what)>", text, u, path: cpath, line: c.line)
                case .invalid: report(.dropped, "ssrf.not-a-number", "a <cylinder @\(what)> \"\(text)\" is not a number; not carried", path: cpath, line: c.line)
                }
                return nil
            }
            if let v = measure(c.size, "l", "size") {
                if v.isZero || v.isNegative {
                    report(.absent, "ssrf.cylinder-size-zero", "a cylinder's size is \(v) l, no vessel; read as not recorded", path: cpath, line: c.line)
                } else { cyl.volume = v.doubleValue }
            }
            if let v = measure(c.workPressure, "bar", "workpressure"), !v.isZero {
                if v.isNegative {
                    report(.dropped, "ssrf.pressure-out-of-range", "a cylinder's working pressure \(v) bar is negative; not carried", path: cpath, line: c.line)
                } else { umilog.append(.init("working_pressure", v.extensionNumber)) }
            }
            if let desc = c.description, !desc.isEmpty { umilog.append(.init("description", .string(desc))) }
            let o2 = measure(c.o2, "%", "o2"), he = measure(c.he, "%", "he")
            let hundred = DecimalNumber(100)
            var gasOK = true
            for (name, v) in [("oxygen", o2), ("helium", he)] {
                if let v, v.isNegative || hundred < v {
                    report(.dropped, "ssrf.gas-out-of-range", "a cylinder's \(name) \(v) % is not a share of a gas; not carried", path: cpath, line: c.line)
                    gasOK = false
                }
            }
            if gasOK, let o2, let he, let sum = o2.adding(he), hundred < sum {
                report(.dropped, "ssrf.gas-over-100", "a cylinder's oxygen \(o2) % and helium \(he) % add up to more than 100 %; neither is carried", path: cpath, line: c.line)
                gasOK = false
            }
            if gasOK {
                cyl.oxygen = o2?.doubleValue
                cyl.helium = he?.doubleValue
            }
            var start = measure(c.start, "bar", "start"), end = measure(c.end, "bar", "end")
            if let v = start, v.isZero {
                report(.absent, "ssrf.start-pressure-zero", "a cylinder's start pressure is 0 bar, a device's marker for none; read as not recorded", path: cpath, line: c.line)
                start = nil
            }
            for (name, v) in [("start", start), ("end", end)] {
                if let v, v.isNegative || DecimalNumber(350) < v {
                    report(.dropped, "ssrf.pressure-out-of-range", "a cylinder's \(name) pressure \(v) bar is outside 0 to 350 bar; not carried", path: cpath, line: c.line)
                    if name == "start" { start = nil } else { end = nil }
                }
            }
            if let s = start, let e = end, s < e {
                report(.dropped, "ssrf.pressure-order", "a cylinder's end pressure \(e) bar is above its start pressure \(s) bar; the end pressure is not carried", path: cpath, line: c.line)
                end = nil
            }
            cyl.startPressure = start?.doubleValue
            cyl.endPressure = end?.doubleValue
            if let use = c.use, !use.isEmpty {
                switch use {
                case "oxygen": cyl.role = .oxygen
                case "diluent": cyl.role = .diluent
                case "OC-gas": break
                case "not used", "Travel Gas": umilog.append(.init("use", .string(use)))
                default:
                    umilog.append(.init("use", .string(use)))
                    report(.resolved, "ssrf.cylinder-use-unknown", "a cylinder's use \"\(use)\" is none of Subsurface's (OC-gas, diluent, oxygen, not used, Travel Gas); no role is carried, the text is kept under umilog", path: cpath, line: c.line)
                }
            }
            if let v = measure(c.depth, "m", "depth"), !v.isZero, !v.isNegative {
                umilog.append(.init("max_operating_depth", v.extensionNumber))
            }
            if !umilog.isEmpty { cyl.extensions = .object([.init("umilog", .object(umilog))]) }
            return cyl
        }
    }

    // MARK: Summaries

    /// The first computer's `<depth>` and `<temperature>`: the dive's maximum and mean depth and
    /// its water and air temperatures (a dive's own `<divetemperature>`, the diver's edit, wins
    /// over the computer's, which then stays on its recording).
    private func readSummary(_ c: DCDraft, into dive: inout Dive, overridden: (air: String?, water: String?, line: Int)?,
                             extras: inout [ExtensionValue.Member], path: String) {
        let l = c.depthLine ?? c.line
        let depths = SummaryDepths(max: c.maxDepth, mean: c.meanDepth, maxName: "the maximum depth", meanName: "the mean depth")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings { report(f.kind, "ssrf." + f.code, f.message, path: path, line: l) }
        let tl = c.temperatureLine ?? c.line
        var water = c.waterTemperature, air = c.airTemperature
        if let o = overridden {
            let ol = o.line
            if let text = o.water {
                switch SSRFValues.measure(text, unit: "C") {
                case .value(let v):
                    if let w = water { extras.append(.init("water_temperature", w.extensionNumber)) }
                    water = v
                case .unit(let u): refusedUnit("the dive's <divetemperature @water>", text, u, path: path, line: ol)
                case .invalid: report(.dropped, "ssrf.not-a-number", "the dive's <divetemperature @water> \"\(text)\" is not a number; not carried", path: path, line: ol)
                }
            }
            if let text = o.air {
                switch SSRFValues.measure(text, unit: "C") {
                case .value(let v):
                    if let a = air { extras.append(.init("air_temperature", a.extensionNumber)) }
                    air = v
                case .unit(let u): refusedUnit("the dive's <divetemperature @air>", text, u, path: path, line: ol)
                case .invalid: report(.dropped, "ssrf.not-a-number", "the dive's <divetemperature @air> \"\(text)\" is not a number; not carried", path: path, line: ol)
                }
            }
        }
        dive.bottomTemperature = celsius(water, what: "water temperature", path: path, line: tl)
        dive.airTemperature = celsius(air, what: "air temperature", path: path, line: tl)
    }

    private func celsius(_ v: DecimalNumber?, what: String, path: String, line: Int) -> Double? {
        guard let v else { return nil }
        guard let c = v.scaledInteger(2), Self.temperatureCentidegrees.contains(c) else {
            report(.dropped, "ssrf.value-out-of-range", "the \(what) \(v) °C is outside −40 to 70 °C, which Subsurface itself ignores; not carried", path: path, line: line)
            return nil
        }
        return v.doubleValue
    }

    /// A later computer's `<depth>` and `<temperature>`: not the dive's figures (the first
    /// computer's are), kept on its own recording.
    private func laterSummary(_ c: DCDraft, extras: inout [ExtensionValue.Member], path: String) {
        let cpath = "\(path)/divecomputer/\(c.index)"
        // Kept on the recording, and said once per kind: the dive's figures are its first
        // computer's (a decision about whose, so `resolved`; nothing is lost).
        func keep(_ what: String, line: Int?, _ values: [(member: String, label: String, value: DecimalNumber?, unit: String)]) {
            guard let line else { return }
            var named: [String] = []
            for v in values {
                guard let value = v.value else { continue }
                extras.append(.init(v.member, value.extensionNumber))
                named.append("\(v.label) \(value) \(v.unit)")
            }
            guard !named.isEmpty else { return }
            report(.resolved, "ssrf.later-computer-summary",
                   "the dive's \(what) are its first computer's; this computer's \(named.joined(separator: " and ")) \(named.count == 1 ? "is" : "are") not the dive's (kept on its recording under umilog)",
                   path: cpath, line: line)
        }
        keep("depths", line: c.depthLine, [("max_depth", "maximum", c.maxDepth, "m"), ("avg_depth", "mean", c.meanDepth, "m")])
        keep("temperatures", line: c.temperatureLine, [("water_temperature", "water temperature", c.waterTemperature, "°C"),
                                                     ("air_temperature", "air temperature", c.airTemperature, "°C")])
    }

    // MARK: Recordings

    /// One `<divecomputer>`'s recording: its device, mode, deco model, start, readouts and
    /// profile. `numbers` is true when its profile ties a channel or a switch to a cylinder.
    private func recording(_ c: DCDraft, dive: Dive, cylinders: inout [Cylinder], defined: Int, extraCylinders: inout [Int: Int],
                           extras: inout [ExtensionValue.Member], path: String) -> (recording: Recording, numbers: Bool) {
        let cpath = c.implicit ? path : "\(path)/divecomputer/\(c.index)"
        var r = Recording()
        var device = Device()
        var deviceExtras: [ExtensionValue.Member] = []
        func text(_ value: String?, limit: Int, member: String) -> String? {
            guard let value = value?.trimmingWhitespace(), !value.isEmpty else { return nil }
            guard value.count <= limit else {
                report(.resolved, "ssrf.device-text-too-long", "the computer's \(member) \"\(value.prefix(40))…\" is longer than \(limit) characters, more than a device's \(member) holds; kept under umilog", path: cpath, line: c.line)
                deviceExtras.append(.init(member, .string(value)))
                return nil
            }
            return value
        }
        switch c.model {
        case "manually added dive"?, "planned dive"?:
            // Subsurface's markers for a dive typed in or planned, not a computer's name.
            extras.append(.init("logged_as", .string(c.model!)))
            if c.model == "planned dive" {
                report(.resolved, "ssrf.planned-dive",
                       "the computer is Subsurface's dive planner: the profile is a plan, not a recording of a dive; carried as written, with no device",
                       path: cpath, line: c.line)
            }
        default:
            device.model = text(c.model, limit: 64, member: "model")
        }
        var others: [ExtensionValue] = []
        for (key, value) in c.extradata {
            switch key {
            case "Serial" where device.serial == nil: device.serial = text(value, limit: 64, member: "serial")
            case "FW Version" where device.firmware == nil: device.firmware = text(value, limit: 32, member: "firmware")
            case "Deco model" where r.decoModel == nil: r.decoModel = decoModel(value, path: cpath, line: c.line)
            default: others.append(.object([.init("key", .string(key)), .init("value", .string(value))]))
            }
        }
        if let id = c.deviceID, !id.isEmpty { deviceExtras.append(.init("deviceid", .string(id))) }
        if let id = c.diveID, !id.isEmpty { deviceExtras.append(.init("diveid", .string(id))) }
        if device.brand != nil || device.model != nil || device.serial != nil || device.firmware != nil {
            if !deviceExtras.isEmpty { device.extensions = .object([.init("umilog", .object(deviceExtras))]) }
            r.device = device
        } else {
            extras += deviceExtras
        }
        if let t = c.dctype, !t.isEmpty {
            switch t {
            case "OC", "oc": r.mode = .openCircuit
            case "CCR", "cc": r.mode = .closedCircuit
            case "PSCR", "pscr": r.mode = .semiClosed
            case "Freedive", "freedive": r.mode = .freedive
            case "gauge": r.mode = .gauge
            default:
                extras.append(.init("dctype", .string(t)))
                report(.resolved, "ssrf.dctype-unknown", "the computer's mode \"\(t)\" is none of Subsurface's (OC, CCR, PSCR, Freedive); kept under umilog", path: cpath, line: c.line)
            }
        }
        if let start = dive.startedAt, c.dateText != nil || c.timeText != nil {
            if let dt = c.dateText.flatMap(SSRFValues.date), let (time, _) = c.timeText.flatMap(SSRFValues.timeOfDay) {
                let own = DiveDateTime(date: dt, time: time)
                if own != start { r.startedAt = own }
            } else {
                report(.dropped, "ssrf.date-invalid", "the computer's @date \"\(c.dateText ?? "")\" and @time \"\(c.timeText ?? "")\" are not a date and a time; its recording takes the dive's start", path: cpath, line: c.line)
            }
        } else if c.dateText != nil || c.timeText != nil {
            report(.dropped, "ssrf.date-invalid", "the computer's @date \"\(c.dateText ?? "")\" and @time \"\(c.timeText ?? "")\" are not a date and a time, and the dive has no start of its own; not carried", path: cpath, line: c.line)
        }
        if let v = c.surfacePressure {
            if InputLimits.Range.surfaceBar.contains(v) {
                r.surfacePressure = v.doubleValue
            } else {
                report(.dropped, "ssrf.surface-pressure-out-of-range", "the surface pressure \(v) bar is outside 0.4 to 1.2 bar, so it cannot be the air pressure at the surface; not carried", path: cpath, line: c.line)
            }
        }
        if let v = c.salinity {
            // Only Subsurface's three settings are named; any other density (1025 g/l too) is
            // kept exactly, under umilog.
            switch Self.salinitySetting(v) {
            case .fresh?: r.salinity = .fresh
            case .en13319?: r.salinity = .en13319
            case .salt?: r.salinity = .salt
            case nil: extras.append(.init("salinity", v.extensionNumber))
            }
        }
        if let v = c.duration { extras.append(.init("duration", .number(String(v)))) }
        if let v = c.lastManualTime { extras.append(.init("last_manual_time", .number(String(v)))) }
        if let v = c.noO2Sensors { extras.append(.init("no_o2sensors", .number(String(v)))) }
        if let v = c.surfaceTime { extras.append(.init("surface_interval", .number(String(v)))) }
        if !others.isEmpty { extras.append(.init("extradata", .array(others))) }
        if !c.mappings.isEmpty {
            extras.append(.init("tank_sensor_mappings", .array(c.mappings.map {
                .object([.init("sensor", .number(String($0.sensor))), .init("cylinder", .number(String($0.cylinder)))])
            })))
        }
        let built = profile(c, cylinders: &cylinders, defined: defined, extraCylinders: &extraCylinders, path: cpath)
        r.profile = built.profile
        if r.hasContent && !extras.isEmpty {
            r.extensions = .object([.init("umilog", .object(extras))])
            extras = []
        }
        return (r, built.numbers)
    }

    /// `GF 30/85` is Bühlmann with those gradient factors; any other model string Subsurface
    /// keeps (`VPM-B +3`) is the model's name, as written.
    private func decoModel(_ value: String, path: String, line: Int) -> DecoModel? {
        var m = DecoModel()
        let parts = value.split(separator: " ")
        if parts.count == 2, parts[0] == "GF" {
            let gf = parts[1].split(separator: "/", omittingEmptySubsequences: false)
            if gf.count == 2, let low = Int(gf[0]), let high = Int(gf[1]), (0...100).contains(low), (0...100).contains(high), low <= high {
                m.algorithm = "buhlmann"
                m.gfLow = low
                m.gfHigh = high
                return m
            }
        }
        let name = value.trimmingWhitespace()
        guard !name.isEmpty, name.count <= 64 else {
            report(.dropped, "ssrf.deco-model-unread", "the computer's deco model \"\(value.prefix(64))\" is longer than a model's name holds; not carried", path: path, line: line)
            return nil
        }
        m.name = name
        return m
    }
}
