import DiveCore
import DiveXML

/// Turns a dive as read into the model, by `docs/macdive-mapping.md`.
extension MacDiveState {
    static let maxNameLength = 255

    /// The number in `value`, or a `not-a-number` finding; `nil` when absent. MacDive's
    /// weight may be written with a decimal comma (`8,5`), which is read as a point.
    func number(_ value: XMLTextValue?, _ name: MacDiveName, at path: String, comma: Bool = false) -> Double? {
        guard let value else { return nil }
        let text = comma ? String(value.text.map { $0 == "," ? "." : $0 }) : value.text
        guard let n = DecimalNumber(text) else {
            report(.dropped, "not-a-number", "<\(name.spelling)> holds \"\(value.text)\", not a number; not carried",
                   path: "\(path)/\(name.spelling)", line: value.line)
            return nil
        }
        return n.doubleValue
    }

    /// Counts a 0 MacDive wrote for a value never set: one finding for the file per element,
    /// at its first occurrence.
    func zero(_ name: MacDiveName, at path: String, line: Int, in what: String = "dive") {
        let element = name.spelling
        let key = "zero|\(what)|\(element)"
        habits.add(key, .absent, "macdive.zero-placeholder", at: SourceLocation(file: file, line: line, path: "\(path)/\(element)")) { n in
            "<\(element)> is 0, MacDive's mark of a value never set\(n > 1 ? " (\(n) times in the file, the first here)" : ""); read as not recorded"
        }
    }

    /// A name cut to what a record's name holds.
    func capped(_ s: String, _ what: String, at path: String, line: Int) -> String {
        guard s.count > Self.maxNameLength else { return s }
        report(.dropped, "name-too-long", "\(what) is longer than \(Self.maxNameLength) characters; cut there", path: path, line: line)
        return String(s.prefix(Self.maxNameLength))
    }

    func buildDive(_ d: MacDiveDraft, path: String) -> Dive {
        let units = units(of: d, path: path)
        var extras: [ExtensionValue.Member] = []
        var dive = Dive(uuid: "", startedAt: start(d, path: path))
        identify(&dive, d, path: path)

        if let v = number(d[.diveNumber], .diveNumber, at: path) {
            if v >= 1, v == v.rounded(), v < 1e9 { dive.number = Int(v) } else if v == 0 {
                zero(.diveNumber, at: path, line: d[.diveNumber]!.line)
            } else {
                report(.dropped, "dive-number-invalid", "<diveNumber> \(d[.diveNumber]!.text) is not a dive number; not carried",
                       path: "\(path)/diveNumber", line: d[.diveNumber]!.line)
            }
        }
        if let v = number(d[.rating], .rating, at: path) {
            let line = d[.rating]!.line
            if v == 0 { zero(.rating, at: path, line: line) } else if v < 0 || v > 5 {
                report(.dropped, "rating-out-of-range", "<rating> \(d[.rating]!.text) is not a rating of 1 to 5 stars; not carried",
                       path: "\(path)/rating", line: line)
            } else {
                dive.rating = max(1, Int(v.rounded(.toNearestOrAwayFromZero)))
                if v != v.rounded() {
                    report(.resolved, "rating-rounded", "<rating> \(d[.rating]!.text) has a half star; read as \(dive.rating!) of 5",
                           path: "\(path)/rating", line: line)
                }
            }
        }
        if let v = number(d[.duration], .duration, at: path) {
            let line = d[.duration]!.line
            if v == 0 { zero(.duration, at: path, line: line) } else if v < 0 || v > 864_000 {
                report(.dropped, "value-out-of-range", "<duration> \(d[.duration]!.text) s is not a dive's length; not carried",
                       path: "\(path)/duration", line: line)
            } else {
                dive.submergedTime = Int(v.rounded(.toNearestOrAwayFromZero))
            }
        }
        readDepths(d, units: units, into: &dive, path: path)
        readTemperatures(d, units: units, into: &dive, extras: &extras, path: path)
        if let n = d[.notes] { dive.notes = n.text }
        if let v = d[.visibility] {
            // A number is a distance in the file's units; MacDive's own field is free text.
            if let n = DecimalNumber(v.text)?.doubleValue {
                if n == 0 { zero(.visibility, at: path, line: v.line) } else if n < 0 {
                    report(.dropped, "value-out-of-range", "<visibility> \(v.text) is below zero; not carried", path: "\(path)/visibility", line: v.line)
                } else { dive.visibility = units.metres(n) }
            } else {
                extras.append(.init("visibility", .string(v.text)))
            }
        }
        if let v = number(d[.weight], .weight, at: path, comma: true) {
            if v < 0 || v > 200 {
                report(.dropped, "value-out-of-range", "<weight> \(d[.weight]!.text) is not a diver's lead; not carried",
                       path: "\(path)/weight", line: d[.weight]!.line)
            } else { dive.weight = units.kilograms(v) }
        }
        readConditions(d, into: &dive, extras: &extras)
        if let b = d[.boat] { dive.boatName = capped(b.text, "<boat>", at: "\(path)/boat", line: b.line) }
        if let s = d[.skipper] { extras.append(.init("skipper", .string(s.text))) }
        if let o = d[.diveOperator] { dive.contactUUID = contact(o, path: path) }
        readDiver(d, path: path)
        dive.people = people(d, path: path)
        readSite(d, units: units, into: &dive, path: path)
        dive.tags = d.tags
        if !d.types.isEmpty { extras.append(.init("types", .array(d.types.map { .string($0) }))) }
        if let v = number(d[.repetitiveDive], .repetitiveDive, at: path) {
            if v >= 1, v == v.rounded(), v < 1e6 { extras.append(.init("repetitive_dive", .number(String(Int(v))))) } else if v == 0 {
                zero(.repetitiveDive, at: path, line: d[.repetitiveDive]!.line)
            } else {
                report(.dropped, "not-a-count", "<repetitiveDive> \(d[.repetitiveDive]!.text) is not the dive's place in a series; not carried",
                       path: "\(path)/repetitiveDive", line: d[.repetitiveDive]!.line)
            }
        }
        if let v = number(d[.surfaceInterval], .surfaceInterval, at: path) {
            // Minutes, with a fraction (249.0333333333333): the seconds since the last dive.
            let line = d[.surfaceInterval]!.line
            if v == 0 { zero(.surfaceInterval, at: path, line: line) } else if v < 0 {
                report(.dropped, "value-out-of-range", "<surfaceInterval> \(d[.surfaceInterval]!.text) min is below zero; not carried",
                       path: "\(path)/surfaceInterval", line: line)
            } else {
                extras.append(.init("surface_interval", .number(String(Int((v * 60).rounded(.toNearestOrAwayFromZero))))))
            }
        }
        if let g = d[.gasModel] { extras.append(.init("gas_model", .string(g.text))) }
        readGear(d, into: &dive, path: path)
        readCylinders(d, units: units, into: &dive, path: path)
        var rec = recording(d, path: path)
        rec.profile = profile(d, units: units, cylinders: &dive.cylinders, path: path)
        if rec.hasContent || rec.decoModel != nil || rec.extensions != nil { dive.recordings = [rec] }
        findings += d.sampleProblems.findings()
        if !extras.isEmpty { dive.extensions = .object([.init("umilog", .object(extras))]) }
        return dive
    }

    // MARK: Identity and start

    private func identify(_ dive: inout Dive, _ d: MacDiveDraft, path: String) {
        let positional = Identity.uuid5(namespace: MacDive.namespace, name: "dive:#\(d.index)")
        if let id = d[.identifier] {
            if identifiers.insert(id.text).inserted {
                dive.uuid = Identity.uuid(kind: "dive", sourceID: id.text, namespace: MacDive.namespace)
                dive.provenance = Provenance(format: "macdive", file: file, sourceID: id.text, index: d.index, line: d.line)
                return
            }
            report(.resolved, "identifier-duplicate",
                   "<identifier> \"\(id.text)\" is an earlier dive's too; two dives cannot share one identity, so this one's is its place in the file",
                   path: "\(path)/identifier", line: id.line)
        } else {
            report(.absent, "id-absent", "the dive records no <identifier>; its identity is its place in the file", path: path, line: d.line)
        }
        dive.uuid = positional
        dive.provenance = Provenance(format: "macdive", file: file, index: d.index, line: d.line, positionalIdentity: true)
    }

    private func start(_ d: MacDiveDraft, path: String) -> DiveDateTime? {
        guard let v = d[.date] else {
            report(.absent, "start-absent", "the dive records no <date>", path: path, line: d.line)
            return nil
        }
        guard let (dt, notes) = DiveDateTime.parse(v.text) else {
            report(.dropped, "start-invalid", "<date> \"\(v.text)\" is not MacDive's yyyy-MM-dd HH:mm:ss; the dive is carried without a start",
                   path: "\(path)/date", line: v.line)
            return nil
        }
        if notes.dateOnly {
            report(.absent, "time-absent", "<date> \"\(v.text)\" has no time of day", path: "\(path)/date", line: v.line)
        } else if notes.secondsMissing {
            report(.absent, "time-without-seconds", "<date> \"\(v.text)\" has no seconds; read as :00", path: "\(path)/date", line: v.line)
        }
        if dt.offset == nil && !offsetReported {
            offsetReported = true
            report(.absent, "offset-absent",
                   "MacDive XML records no time zone: every <date> is the wall clock where the dive was made, carried without a UTC offset",
                   path: "\(path)/date", line: v.line)
        }
        return dt
    }

    // MARK: Depths, temperatures, conditions

    private func readDepths(_ d: MacDiveDraft, units: MacDiveUnits, into dive: inout Dive, path: String) {
        let maxValue = number(d[.maxDepth], .maxDepth, at: path)
        let means = [MacDiveName.averageDepth, .avgDepth, .avergeDepth].filter { d[$0] != nil }
        let meanName = means.first ?? .averageDepth
        for other in means.dropFirst() {
            report(.dropped, "element-repeated", "<\(other.spelling)> \(d[other]!.text) is a second spelling of the mean depth beside <\(meanName.spelling)>, which is kept",
                   path: "\(path)/\(other.spelling)", line: d[other]!.line)
        }
        let meanValue = number(d[meanName], meanName, at: path)
        let depths = SummaryDepths(max: maxValue.flatMap { DecimalNumber(units.metres($0)) },
                                   mean: meanValue.flatMap { DecimalNumber(units.metres($0)) },
                                   maxName: "<maxDepth>", meanName: "<\(meanName.spelling)>")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings {
            let name: MacDiveName = f.member == .max ? .maxDepth : meanName
            let line = d[name]?.line ?? d.line
            if f.kind == .absent { zero(name, at: path, line: line) } else {
                report(f.kind, f.code, f.message, path: "\(path)/\(name.spelling)", line: line)
            }
        }
    }

    private func readTemperatures(_ d: MacDiveDraft, units: MacDiveUnits, into dive: inout Dive,
                                  extras: inout [ExtensionValue.Member], path: String) {
        for name in [MacDiveName.tempAir, .tempLow, .tempHigh] {
            guard let raw = number(d[name], name, at: path) else { continue }
            let line = d[name]!.line
            if raw == 0 { zero(name, at: path, line: line); continue }
            let c = units.celsius(raw)
            guard c > -60 && c < 60 else {
                report(.dropped, "value-out-of-range", "<\(name.spelling)> \(d[name]!.text) is \(c) °C, no temperature a dive meets; not carried",
                       path: "\(path)/\(name.spelling)", line: line)
                continue
            }
            switch name {
            case .tempAir: dive.airTemperature = c
            case .tempLow: dive.bottomTemperature = c
            default: extras.append(.init("temp_high", .number(DecimalNumber(c)?.description ?? String(c))))
            }
        }
    }

    /// Weather, current, surface and entry: MacDive's words where they are the model's
    /// (English, as MacDive offers them), else kept as written under `umilog`.
    private func readConditions(_ d: MacDiveDraft, into dive: inout Dive, extras: inout [ExtensionValue.Member]) {
        if let v = d[.weather] {
            if let w = MacDiveWords.weather[v.text.folded] { dive.weather = w } else { extras.append(.init("weather", .string(v.text))) }
        }
        if let v = d[.current] {
            if let c = MacDiveWords.current[v.text.folded] { dive.current = c } else { extras.append(.init("current", .string(v.text))) }
        }
        if let v = d[.surfaceConditions] {
            if let w = MacDiveWords.waves[v.text.folded] { dive.waves = w } else { extras.append(.init("surface_conditions", .string(v.text))) }
        }
        if let v = d[.entryType] {
            if let e = MacDiveWords.entry[v.text.folded] { dive.entryType = e } else { extras.append(.init("entry_type", .string(v.text))) }
        }
    }

    // MARK: The computer

    private func recording(_ d: MacDiveDraft, path: String) -> Recording {
        var rec = Recording()
        var device = Device()
        if let c = d[.computer] {
            if c.text.folded == "no computer" {
                habits.add("manual", .absent, "macdive.no-computer", at: SourceLocation(file: file, line: c.line, path: "\(path)/computer")) { n in
                    "<computer> is \"No Computer\": \(n == 1 ? "a dive" : "\(n) dives") logged by hand, recorded by no device"
                }
            } else {
                device.model = c.text
            }
        }
        if let s = d[.serial] { device.serial = s.text }
        if !device.isEmpty { rec.device = device }
        if let v = d[.decoModel] { rec.decoModel = MacDiveWords.decoModel(v.text) }
        if let v = number(d[.cns], .cns, at: path) {
            if v == 0 { zero(.cns, at: path, line: d[.cns]!.line) } else if v < 0 || v > 1000 {
                report(.dropped, "value-out-of-range", "<cns> \(d[.cns]!.text) % is no oxygen toxicity; not carried", path: "\(path)/cns", line: d[.cns]!.line)
            } else { rec.cnsEnd = v }
        }
        if let v = number(d[.sampleInterval], .sampleInterval, at: path) {
            if v == 0 { zero(.sampleInterval, at: path, line: d[.sampleInterval]!.line) } else if v > 0 {
                rec.extensions = .object([.init("umilog", .object([.init("sample_interval", .number(Self.shown(v)))]))])
            } else {
                report(.dropped, "value-out-of-range", "<sampleInterval> \(d[.sampleInterval]!.text) s is below zero; not carried",
                       path: "\(path)/sampleInterval", line: d[.sampleInterval]!.line)
            }
        }
        return rec
    }
}
