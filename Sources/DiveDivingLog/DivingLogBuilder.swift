import DiveCore

/// Turns a Diving Log dive as read (``DivingLogRecord``, from the XML export or the database)
/// into the model, by `docs/divinglog-mapping.md`. Every value the record holds is taken into the
/// dive or reported: what is left in the record when the dive is built is counted per column
/// over the file and reported once the file is read (`divinglog.not-carried`) — the rule is the
/// mechanism, not a list of names, so a column a newer Diving Log adds is reported the first
/// time a file holds it.
final class DivingLogBuilder {
    let file: String
    /// `divinglog` or `divinglog-db`: the prefix of the codes reported.
    let format: String
    /// The program messages name (`Diving Log`, `divelogs.de`): `{program}` in a message.
    let program: String
    var findings: [Finding] = []
    var header = LogbookHeader()
    /// Findings said once per file (or counted over it), said when the file is done.
    var fileTally = FindingTally()
    private var leftovers: [(key: String, name: String, example: String, location: SourceLocation, count: Int)] = []
    private var leftoverIndex: [String: Int] = [:]
    var siteUUIDs: Set<String> = []
    var personUUIDs: Set<String> = []

    init(file: String, format: String, program: String = "Diving Log") {
        self.file = file
        self.format = format
        self.program = program
    }

    func report(_ kind: FindingKind, _ code: String, _ message: String, at location: SourceLocation, losing lost: Int = 0) {
        findings.append(Finding(kind, "\(format).\(code)", message.replacing("{program}", with: program), at: location).losing(lost))
    }

    /// Counts a finding over the file under `key`: one finding, the first place and the count.
    func tally(_ key: String, _ kind: FindingKind, _ code: String, at location: SourceLocation, _ message: @escaping @Sendable (Int) -> String) {
        let program = self.program
        fileTally.add(key, kind, "\(format).\(code)", at: location) { message($0).replacing("{program}", with: program) }
    }

    /// The findings kept for the end of the file: the tallies, and each column left in some
    /// dive's record.
    func finish() -> [Finding] {
        var out = fileTally.findings()
        for e in leftovers {
            let what = e.key.hasPrefix("tank.") ? ("tank", "tanks") : ("dive", "dives")
            let dives = e.count == 1 ? "one \(what.0) holds" : "\(e.count) \(what.1) hold values, the first"
            out.append(Finding(.dropped, "\(format).not-carried",
                               "\(e.name) has no place in umilog's model; \(dives) \"\(e.example)\"; not carried", at: e.location))
        }
        leftovers.removeAll()
        fileTally = FindingTally()
        return out
    }

    // MARK: Values

    /// A number in `value`, or a `not-a-number` finding; `nil` when absent.
    func number(_ value: DivingLogValue?) -> Double? {
        guard let value else { return nil }
        guard let v = Double(value.text), v.isFinite else {
            report(.dropped, "not-a-number", "\(value.name) holds \"\(value.text)\", not a number; not carried", at: value.location)
            return nil
        }
        return v
    }

    /// A number that must lie in `range` (in the unit `unit` names), else a finding.
    func number(_ value: DivingLogValue?, in range: ClosedRange<Double>, unit: String) -> Double? {
        guard let value, let v = number(value) else { return nil }
        guard range.contains(v) else {
            report(.dropped, "out-of-range",
                   "\(value.name) \(value.text) is outside \(tidy(range.lowerBound)) to \(tidy(range.upperBound)) \(unit), not a value in the metric units {program} keeps; not carried",
                   at: value.location)
            return nil
        }
        return v
    }

    /// `True`/`False` as the XML writes them, 1/0 as the database stores them.
    static func flag(_ value: DivingLogValue?) -> Bool? {
        guard let t = value?.text.lowercased() else { return nil }
        if t == "true" || t == "1" || t == "-1" { return true }
        if t == "false" || t == "0" { return false }
        return nil
    }

    // MARK: The dive

    /// The dive of `record`, or `nil` when it cannot be carried (its date is no date).
    func buildDive(_ r: DivingLogRecord, source: String) -> Dive? {
        var r = r
        let path = "dive/\(r.index)"
        let (startedAt, startOK) = readStart(&r)
        guard startOK else { return nil }
        let uuidValue = r.take("uuid")
        let sourceID = uuidValue?.text
        let uuid = sourceID.map { Identity.uuid(kind: "dive", sourceID: $0, namespace: DivingLog.namespace) }
            ?? Identity.uuid5(namespace: DivingLog.namespace, name: "dive:#\(r.index)")
        var dive = Dive(uuid: uuid, startedAt: startedAt)
        dive.provenance = Provenance(format: source, file: file, sourceID: sourceID, index: r.index, line: r.location.line,
                                     positionalIdentity: sourceID == nil)
        if sourceID == nil {
            report(.absent, "id-absent", "the dive has no UUID; its identity is its place in the file", at: r.location)
        }
        _ = r.take("id")

        if let v = r.take("number") {
            if let n = Int(v.text), n > 0 { dive.number = n } else if v.text != "0" {
                report(.dropped, "not-a-number", "\(v.name) holds \"\(v.text)\", not a dive number; not carried", at: v.location)
            }
        }
        if let v = r.take("divetimesec"), let seconds = number(v, in: 0...864_000, unit: "seconds"), seconds > 0 {
            dive.submergedTime = Int(seconds.rounded(.toNearestOrAwayFromZero))
        }
        if let v = r.values["divetime"], let minutes = number(v, in: 0...14_400, unit: "minutes") {
            _ = r.take("divetime")
            if minutes > 0 { dive.submergedTime = Int((minutes * 60).rounded(.toNearestOrAwayFromZero)) }
            tally("divetime-minutes", .inferred, "divetime-minutes", at: v.location) { _ in
                "Divetime is in minutes (with hundredths), as {program} keeps it; read as minutes"
            }
        } else { _ = r.take("divetime") }
        if let v = r.take("depth"), let d = number(v, in: 0...400, unit: "m"), d > 0 { dive.maxDepth = d }
        if let v = r.take("depthavg"), let d = number(v, in: 0...400, unit: "m"), d > 0 { dive.avgDepth = d }
        if let v = r.take("watertemp"), let t = number(v, in: -3...45, unit: "°C") { dive.bottomTemperature = t }
        if let v = r.take("airtemp"), let t = number(v, in: -60...60, unit: "°C") { dive.airTemperature = t }
        if let v = r.take("weight"), let w = number(v, in: 0...100, unit: "kg") { dive.weight = w }
        if let v = r.take("boat") { dive.boatName = v.text }
        if let v = r.take("divetype") { dive.tags = [v.text] }
        if let v = r.take("rating") {
            if let n = Int(v.text), (1...5).contains(n) { dive.rating = n } else if v.text == "0" {
                tally("rating-zero", .absent, "rating-zero", at: v.location) { n in
                    "Rating 0 is {program}'s \"not rated\"\(n > 1 ? " (\(n) dives)" : ""): no rating"
                }
            } else {
                r.values["rating"] = v
            }
        }
        readComments(&r, into: &dive)
        readConditions(&r, into: &dive)
        readAltitude(&r, into: &dive)
        readSite(&r, into: &dive)
        readPeople(&r, into: &dive)

        var recording = Recording()
        if let v = r.take("computer") {
            var device = Device()
            device.name = v.text
            recording.device = device
        }
        if let v = r.take("cns"), let c = number(v, in: 0...1000, unit: "%") { recording.cnsEnd = c }
        if let v = r.take("supplytype") {
            switch v.text {
            case "0": dive.type = .openCircuit
            case "1": dive.type = .semiClosed
            case "2": dive.type = .closedCircuit
            default: r.values["supplytype"] = v
            }
        }
        dive.cylinders = readCylinders(&r)
        recording.profile = readProfile(&r, cylinders: dive.cylinders, path: path)
        if recording.hasContent { dive.recordings = [recording] }

        for (key, v) in r.values.sorted(by: { $0.key < $1.key }) { leftOver(key, v) }
        return dive
    }

    /// Counts a value no rule took, under `key` (its lowercased column, `tank.` before a `Tank` row's).
    func leftOver(_ key: String, _ v: DivingLogValue) {
        if let i = leftoverIndex[key] { leftovers[i].count += 1; return }
        leftoverIndex[key] = leftovers.count
        let example = v.text.count > 60 ? String(v.text.prefix(59)) + "…" : v.text
        leftovers.append((key, v.name, example, v.location, 1))
    }

    // MARK: Start

    /// `Divedate` (`2017-11-11`) and `Entrytime` (`09:00`): the wall clock, no offset.
    private func readStart(_ r: inout DivingLogRecord) -> (DiveDateTime?, Bool) {
        guard let dv = r.take("divedate") else {
            report(.absent, "start-absent", "the dive records no Divedate", at: r.location)
            _ = r.take("entrytime")
            return (nil, true)
        }
        let parts = dv.text.prefix(10).split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              let date = LocalDate(year: y, month: m, day: d) else {
            report(.dropped, "start-invalid", "the dive's date \"\(dv.text)\" is not a date; the dive is not carried", at: dv.location, losing: 1)
            return (nil, false)
        }
        var start = DiveDateTime(date: date)
        if let tv = r.take("entrytime") {
            let t = tv.text.split(separator: ":")
            guard t.count >= 2, t.count <= 3, let h = Int(t[0]), let mi = Int(t[1]),
                  let time = TimeOfDay(hour: h, minute: mi, second: t.count == 3 ? Int(t[2]) ?? -1 : 0) else {
                report(.dropped, "start-invalid", "the dive's time \"\(tv.text)\" is not a time of day; the dive is not carried", at: tv.location, losing: 1)
                return (nil, false)
            }
            start.time = time
            if t.count == 2 {
                tally("time-without-seconds", .absent, "time-without-seconds", at: tv.location) { n in
                    "Entrytime is hours and minutes\(n > 1 ? " (\(n) dives)" : ""); read as :00"
                }
            }
        } else {
            report(.absent, "time-absent", "the dive records a Divedate and no Entrytime; its start is the date alone", at: dv.location)
        }
        tally("offset-absent", .absent, "offset-absent", at: dv.location) { n in
            "{program} records no UTC offset\(n > 1 ? " (\(n) dives)" : ""); the start is the wall clock alone"
        }
        return (start, true)
    }
}

/// `v` with its float noise cut at six places (a unit conversion's `12.190000000000001`).
func tidy(_ v: Double) -> Double { (v * 1_000_000).rounded() / 1_000_000 }

/// Rounds to the model's integer scale (`scale` per unit).
func scaled(_ v: Double, _ scale: Double) -> Int { Int((v * scale).rounded(.toNearestOrAwayFromZero)) }
