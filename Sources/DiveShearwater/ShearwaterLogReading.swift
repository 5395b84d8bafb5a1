import DiveCore

/// Reads one ``ShearwaterLogDraft`` into a dive, by `docs/shearwater-mapping.md`: the summary
/// values of `<diveLog>` (or a `dive_logs` row) and the samples of its records. Values come out
/// in the model's units; what the model has no member for, or the source wrote as a state
/// rather than a reading, is a finding under the spelling's prefix.
struct ShearwaterLogReading {
    let spelling: any ShearwaterSpelling
    var findings: [Finding] = []
    /// The records' findings, each counted once per kind (``count(_:_:_:at:_:)``).
    var tally = FindingTally()
    /// The tally keys of a field's states (`AI is off`), made once per field and text.
    var stateKeys: [StateKey: String] = [:]
    struct StateKey: Hashable { var field: String; var text: String }
    var samplesPerDive = InputLimits.samplesPerDive
    /// Transmitter (0…3) to the cylinder its pressure channel went on, once the records are read.
    var tankCylinders: [Int: Int] = [:]
    /// What each transmitter's tank holds, where the log names it (a PNF log's `D1`, `O2`).
    var tankRoles: [Int: CylinderRole] = [:]
    /// Whether `maxTime` is read: seconds in the XML export, and in the database seconds in some
    /// versions and minutes in others (public readers disagree), so there it is reported instead.
    var readsMaxTime = true

    init(spelling: any ShearwaterSpelling) { self.spelling = spelling }

    mutating func report(_ kind: FindingKind, _ code: String, _ message: String, at location: SourceLocation) {
        findings.append(Finding(kind, "\(spelling.format).\(code)", message, at: location))
    }

    func named(_ v: ShearwaterValue, record: Bool = false) -> String { spelling.named(v.name, record: record) }

    /// Counts one finding of a kind about many records into ``tally`` (DiveCore's
    /// ``FindingTally``): its code, location and message are made only the first time `key` is
    /// met. The autoclosures must not capture `self`, whose tally this changes.
    mutating func count(_ key: String, _ kind: FindingKind, _ code: String, at location: @autoclosure () -> SourceLocation,
                        _ message: @autoclosure () -> @Sendable (Int) -> String) {
        guard tally.count(key) == 0 else {
            tally.add(key, kind, code, at: location(), Self.counted)
            return
        }
        tally.add(key, kind, "\(spelling.format).\(code)", at: location(), message())
    }

    private static let counted: @Sendable (Int) -> String = { _ in "" }

    /// The tally key of `text` in `field`, a state or a mark of no reading: made once per pair.
    mutating func stateKey(_ field: RecordField, _ text: String) -> String {
        let pair = StateKey(field: field.key, text: text)
        if let key = stateKeys[pair] { return key }
        let key = field.key + "\u{1F}" + text
        stateKeys[pair] = key
        return key
    }

    // MARK: Values

    /// A value's number, or a finding when it is not one: a state such as `AI is off` is absent,
    /// anything else dropped. A record's value (`record`: its place and field) is counted once
    /// per kind (``count(_:_:_:at:_:)``), a log's reported; `nil` when absent.
    mutating func number(_ v: ShearwaterValue?, record: (k: Int, field: RecordField)? = nil) -> ShearwaterNumber? {
        guard let v else { return nil }
        if let n = ShearwaterNumber(v) { return n }
        let state = isShearwaterState(v.text)
        if let (k, field) = record {
            if state { countAbsent(v, k, field, "\"\(v.text)\", a state and not a reading") } else { countDropped(v, k, field, "not-a-number", "is not a number") }
        } else if state {
            report(.absent, "no-reading", "\(named(v)) says \"\(v.text)\", a state and not a reading; read as not recorded",
                   at: spelling.location(of: v))
        } else {
            report(.dropped, "not-a-number", "\(named(v)) holds \"\(v.text)\", not a number; not carried", at: spelling.location(of: v))
        }
        return nil
    }

    /// A whole number in `range`, or a finding; `nil` when absent.
    mutating func integer(_ v: ShearwaterValue?, in range: ClosedRange<Int>, what: String) -> Int? {
        guard let v, let n = number(v)?.value else { return nil }
        guard n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            report(.dropped, "value-out-of-range", "\(named(v)) \(v.text) is not \(what); not carried", at: spelling.location(of: v))
            return nil
        }
        return Int(n)
    }

    /// The units `imperialUnits` states: `true`/`1` imperial, `false`/`0` metric. Absent, the
    /// numbers are read as metric, as Subsurface's importer reads a log with no flag, and said so.
    mutating func units(_ log: ShearwaterLogDraft) -> ShearwaterUnits? {
        guard let v = log["imperialunits"] else {
            report(.resolved, "units-absent", "the log states no imperialUnits; its depths and temperatures are read as metres and °C",
                   at: spelling.logLocation)
            return .metric
        }
        switch v.text.lowercased() {
        case "true", "1": return .imperial
        case "false", "0": return .metric
        default:
            report(.dropped, "units-unknown",
                   "\(named(v)) \"\(v.text)\" is neither true nor false; the log's depths and temperatures, whose units it decides, are not carried",
                   at: spelling.location(of: v))
            return nil
        }
    }

    // MARK: The log's summary

    /// Fills the dive's summary, its recording's device, settings and readouts from the log's
    /// values. A value the dive already holds (a database's `dive_details` states the start, the
    /// depth and the time) is kept, and the log's own is compared with it.
    mutating func readSummary(_ log: ShearwaterLogDraft, units: ShearwaterUnits?, into dive: inout Dive, recording rec: inout Recording) {
        if let v = log["startdate"] {
            if let (start, notes) = log.start.map({ ($0, [ShearwaterDate.Note]()) }) ?? ShearwaterDate.parse(v.text) {
                for note in notes { report(note.kind, note.code, "\(named(v)) \"\(v.text)\": \(note.message)", at: spelling.location(of: v)) }
                if let kept = dive.startedAt {
                    if kept != start {
                        report(.resolved, "start-differs", "\(named(v)) says \(start), the dive's record \(kept); the dive's record is kept",
                               at: spelling.location(of: v))
                    }
                } else {
                    dive.startedAt = start
                    report(.absent, "offset-absent", "the log records no UTC offset; the start is the wall clock alone", at: spelling.location(of: v))
                }
            } else {
                report(.dropped, "start-invalid", "\(named(v)) \"\(v.text)\" is not a date and time this reader knows; not carried",
                       at: spelling.location(of: v))
            }
        }
        if let v = log["maxdepth"], let units, let n = number(v) {
            let depths = SummaryDepths(max: units.metresDecimal(n), mean: nil, maxName: named(v), meanName: "")
            for f in depths.findings { report(f.kind, f.code, f.message, at: spelling.location(of: v)) }
            if let m = depths.max {
                if let kept = dive.maxDepth {
                    if abs(kept - m) > 0.05 {
                        report(.resolved, "max-depth-differs", "\(named(v)) says \(m) m, the dive's record \(kept) m; the dive's record is kept",
                               at: spelling.location(of: v))
                    }
                } else {
                    dive.maxDepth = m
                }
            }
        }
        if let v = log["maxtime"], !readsMaxTime {
            report(.dropped, "max-time-unit-unknown",
                   "\(named(v)) \(v.text) is a dive time in seconds in some Shearwater versions and in minutes in others; not carried",
                   at: spelling.location(of: v))
        } else if let v = log["maxtime"], let s = integer(v, in: 0...864_000, what: "a dive time in seconds") {
            if let kept = dive.submergedTime {
                if kept != s {
                    report(.resolved, "duration-differs", "\(named(v)) says \(s) s, the dive's record \(kept) s; the dive's record is kept",
                           at: spelling.location(of: v))
                }
            } else if s > 0 {
                dive.submergedTime = s
            } else {
                report(.absent, "duration-zero", "\(named(v)) is 0: not a duration; not carried", at: spelling.location(of: v))
            }
        }
        if let v = log["startsurfacepressure"], let mbar = number(v)?.value {
            let bar = mbar / 1000
            if let b = DecimalNumber(bar), InputLimits.Range.surfaceBar.contains(b) { rec.surfacePressure = bar } else {
                report(.dropped, "value-out-of-range", "\(named(v)) \(v.text) mbar is outside 400 to 1200 mbar; not carried",
                       at: spelling.location(of: v))
            }
        }
        if let v = log["startcns"], let n = number(v)?.value {
            if n >= 0 && n <= 1000 { rec.cnsStart = n } else {
                report(.dropped, "value-out-of-range", "\(named(v)) \(v.text) % is not a CNS loading; not carried", at: spelling.location(of: v))
            }
        }
        if let v = log["endcns"], let n = number(v)?.value {
            if n >= 0 && n <= 1000 { rec.cnsEnd = n } else {
                report(.dropped, "value-out-of-range", "\(named(v)) \(v.text) % is not a CNS loading; not carried", at: spelling.location(of: v))
            }
        }
        readDevice(log, into: &rec)
        readDecoModel(log, into: &rec)
    }

    private mutating func readDevice(_ log: ShearwaterLogDraft, into rec: inout Recording) {
        var device = rec.device ?? Device()
        // The format is Shearwater's own, so it names its maker (converting.md, *The Devices table*).
        device.brand = "Shearwater"
        if let v = log["computerserial"] {
            if let kept = device.serial, kept.lowercased() != v.text.lowercased() {
                report(.resolved, "serial-differs", "\(named(v)) says \(v.text), the dive's record \(kept); the dive's record is kept",
                       at: spelling.location(of: v))
            } else if device.serial == nil {
                device.serial = String(v.text.prefix(64))
            }
        }
        if let v = log["computerfirmware"] { device.firmware = device.firmware ?? String(v.text.prefix(32)) }
        if let v = log["computersoftwareversion"] {
            // The exporter writes the one firmware version twice; a second, different one has no member.
            if let firmware = device.firmware, firmware != v.text {
                report(.dropped, "not-carried", "\(named(v)) \"\(v.text)\" differs from the firmware \(firmware), and a device has one firmware; not carried",
                       at: spelling.location(of: v))
            } else if device.firmware == nil {
                device.firmware = String(v.text.prefix(32))
            }
        }
        if let v = log["number"], let n = integer(v, in: 0...999_999_999, what: "a dive counter") {
            // The computer's own counter, not the diver's numbering (converting.md).
            if n >= 1 { device.diveNumber = device.diveNumber ?? n } else {
                report(.absent, "dive-number-zero", "\(named(v)) is 0: not a dive counter; not carried", at: spelling.location(of: v))
            }
        }
        rec.device = device
    }

    /// `decoModel`: 0 Bühlmann with gradient factors, 1 VPM-B, 2 VPM-B/GFS, 3 DCIEM (the codes
    /// libdivecomputer's Shearwater parser reads from the same field of the computer's log).
    private mutating func readDecoModel(_ log: ShearwaterLogDraft, into rec: inout Recording) {
        guard let v = log["decomodel"], let code = integer(v, in: 0...255, what: "a deco model code") else {
            for name in ["gfmin", "gfmax", "vpmbconservatism"] {
                if let s = log[name] {
                    report(.dropped, "deco-setting-without-model", "\(named(s)) \(s.text) belongs to a deco model the log does not name; not carried",
                           at: spelling.location(of: s))
                }
            }
            return
        }
        var model = DecoModel()
        var unused: [String] = []
        switch code {
        case 0:
            model.algorithm = "buhlmann"
            let low = integer(log["gfmin"], in: 0...100, what: "a gradient factor")
            let high = integer(log["gfmax"], in: 0...100, what: "a gradient factor")
            if let low, let high, low <= high {
                model.gfLow = low
                model.gfHigh = high
            } else if low != nil || high != nil {
                report(.dropped, "gradient-factors-invalid", "the gradient factors \(low.map(String.init) ?? "-")/\(high.map(String.init) ?? "-") are not a low and a high one; not carried",
                       at: spelling.location(of: log["gfmin"] ?? log["gfmax"] ?? v))
            }
            unused = ["vpmbconservatism"]
        case 1, 2:
            model.name = code == 1 ? "VPM-B" : "VPM-B/GFS"
            model.conservatism = integer(log["vpmbconservatism"], in: -10...10, what: "a conservatism step")
            unused = code == 1 ? ["gfmin", "gfmax"] : ["gfmin"]
            if code == 2, let s = log["gfmax"] {
                report(.dropped, "not-carried", "\(named(s)) \(s.text) is VPM-B/GFS's surfacing gradient factor, which a deco model has no member for; not carried",
                       at: spelling.location(of: s))
            }
        case 3:
            model.name = "DCIEM"
            unused = ["gfmin", "gfmax", "vpmbconservatism"]
        default:
            report(.absent, "deco-model-unknown", "\(named(v)) \(code) is not a deco model code this reader knows (0 to 3); the model is left absent",
                   at: spelling.location(of: v))
            return
        }
        for name in unused {
            guard let s = log[name] else { continue }
            report(.dropped, "deco-setting-unused", "\(named(s)) \(s.text) is a setting of a model the dive did not run; not carried",
                   at: spelling.location(of: s))
        }
        rec.decoModel = model
    }
}
