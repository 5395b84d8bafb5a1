import DiveCore

/// The circuit a record states: `currentCircuitSetting` is `OC/BO`, `CC/BO` or `SC/BO` in the XML
/// export, and in the database a code (1 open circuit, 0 closed, made semi-closed by
/// `circuitSwitchType` 1), as Subsurface's importer and the exporter's own mapping read it.
enum ShearwaterCircuit: Equatable {
    case open, closed, semiClosed

    init?(_ setting: String, switchType: String?) {
        switch setting.uppercased() {
        case "OC/BO", "OC": self = .open
        case "CC/BO", "CC": self = .closed
        case "SC/BO", "SC": self = .semiClosed
        case "1": self = .open
        case "0": self = switchType == "1" ? .semiClosed : .closed
        default: return nil
        }
    }

    var mode: RecordingMode {
        switch self {
        case .open: return .openCircuit
        case .closed: return .closedCircuit
        case .semiClosed: return .semiClosed
        }
    }
}

extension ShearwaterLogReading {
    /// One record's place on the time axis.
    private struct Timed { var t: Int; var k: Int }

    /// A gas as the records state it: percentages, and whether it was breathed as a diluent.
    private struct Gas: Hashable { var o2: Double; var he: Double; var diluent: Bool }

    /// Builds the recording's profile, mode and the dive's cylinders from the log's records.
    /// - Parameter msPerTimeUnit: milliseconds per unit of `currentTime` (1: the XML export's
    ///   milliseconds).
    mutating func readRecords(_ log: ShearwaterLogDraft, units: ShearwaterUnits?, msPerTimeUnit: Double = 1,
                              into dive: inout Dive, recording rec: inout Recording) {
        let records = log.records
        guard !records.isEmpty else { return }
        var timed: [Timed] = []
        let spelling = self.spelling
        for (k, r) in records.enumerated() {
            guard let v = r[.time] else {
                count("no-time", .dropped, "sample-without-time", at: spelling.location(record: k, line: r.line)) {
                    "\($0) record\($0 == 1 ? " states" : "s state") no currentTime, which alone places a reading; not carried"
                }
                continue
            }
            guard let ms = number(v, record: (k, .time))?.value else { continue }
            guard ms >= 0, ms * msPerTimeUnit <= 864_000_000 else {
                countDropped(v, k, .time, "value-out-of-range", "ms is not a time in the dive, and its record is")
                continue
            }
            timed.append(Timed(t: Int((ms * msPerTimeUnit).rounded(.toNearestOrAwayFromZero)), k: k))
        }
        // Samples are ordered by their own time, the source's order breaking ties (converting.md).
        timed.sort { $0.t != $1.t ? $0.t < $1.t : $0.k < $1.k }
        if timed.count > samplesPerDive {
            let first = timed[samplesPerDive]
            report(.dropped, "samples-over-limit", "the log holds \(timed.count) records, more than \(samplesPerDive); the rest are not carried",
                   at: spelling.location(record: first.k, line: records[first.k].line))
            timed.removeLast(timed.count - samplesPerDive)
        }

        // Each record's depth, parsed once for the freedive test and the profile (a value that is no
        // number is reported where the profile reads it).
        let depthNumbers: [ShearwaterNumber?] = units == nil ? [] : timed.map { records[$0.k][.depth].flatMap { ShearwaterNumber($0) } }
        let pressureDepths = units.map { depthsArePressures(log, timed: timed, depths: depthNumbers, units: $0) } ?? false
        var profile = Profile()
        var depth = Series(), temperature = Series(), ndl = Series(), tts = Series(), ppo2 = Series(), cns = Series()
        var ceiling = Series(), gf = Series()
        var tanks = [Series](repeating: Series(), count: RecordField.tanks.count)
        /// Each transmitter's field as the source names it (its first reading's), for the findings.
        var tankNames = [String?](repeating: nil, count: RecordField.tanks.count)
        var gases: [Gas] = []
        var events: [Event] = []
        var lastGas: Int?
        var circuits: [ShearwaterCircuit: Int] = [:]
        var firstCircuit: ShearwaterCircuit?
        var percentFractions = false

        for (j, x) in timed.enumerated() {
            let t = x.t, k = x.k
            let r = records[k]
            // Depth (or, in a freedive log, absolute pressure: see depthsArePressures).
            if let v = r[.depth], let units, !pressureDepths, let n = depthNumbers[j] ?? number(v, record: (k, .depth)) {
                if let cm = units.centimetres(n), n.value >= 0, cm <= 1_100_000 {
                    add(&depth, t, cm, v, k, .depth)
                } else {
                    countDropped(v, k, .depth, "depth-out-of-range", "is not a depth below the surface")
                }
            }
            if let v = r[.temperature], let units, let n = number(v, record: (k, .temperature)) {
                if let c = units.centidegrees(n), c >= -5_000, c <= 10_000 { add(&temperature, t, c, v, k, .temperature) } else {
                    countDropped(v, k, .temperature, "value-out-of-range", "is not a water temperature")
                }
            }
            if let v = r[.ndl], let n = number(v, record: (k, .ndl))?.value {
                if n >= 0, n <= 14_400 { add(&ndl, t, Int((n * 60).rounded(.toNearestOrAwayFromZero)), v, k, .ndl) } else {
                    countDropped(v, k, .ndl, "value-out-of-range", "minutes is not a no-decompression time (a negative one is the device's absent-marker)")
                }
            }
            if let v = r[.tts], let n = number(v, record: (k, .tts))?.value {
                if n >= 0, n <= 14_400 { add(&tts, t, Int((n * 60).rounded(.toNearestOrAwayFromZero)), v, k, .tts) } else {
                    countDropped(v, k, .tts, "value-out-of-range", "minutes is not a time to surface")
                }
            }
            if let v = r[.ppo2], let n = number(v, record: (k, .ppo2))?.value {
                if n > 0, n <= 10 { add(&ppo2, t, Int((n * 100).rounded(.toNearestOrAwayFromZero)), v, k, .ppo2) } else if n == 0 {
                    count(RecordField.ppo2.zero, .absent, "zero-ppo2", at: spelling.location(record: k, v),
                          Self.zeroPPO2Message(spelling.named(v.name, record: true)))
                } else {
                    countDropped(v, k, .ppo2, "value-out-of-range", "bar is not a ppO2")
                }
            }
            if let v = r[.cns], let n = number(v, record: (k, .cns))?.value {
                if n >= 0, n <= 1000 { add(&cns, t, Int((n * 10).rounded(.toNearestOrAwayFromZero)), v, k, .cns) } else {
                    countDropped(v, k, .cns, "value-out-of-range", "% is not a CNS loading")
                }
            }
            if let v = r[.ceiling], let units, let n = number(v, record: (k, .ceiling)), n.value != 0 {
                // A ceiling of zero is not a ceiling (converting.md).
                if let cm = units.centimetres(n), n.value > 0, cm <= 1_100_000 { add(&ceiling, t, cm, v, k, .ceiling) } else {
                    countDropped(v, k, .ceiling, "value-out-of-range", "is not a ceiling")
                }
            }
            if let v = r[.gf], let n = number(v, record: (k, .gf))?.value {
                if n >= 0, n <= 1000 { add(&gf, t, Int(n.rounded(.toNearestOrAwayFromZero)), v, k, .gf) } else {
                    countDropped(v, k, .gf, "value-out-of-range", "is not a gradient factor (a negative one is the device's absent-marker)")
                }
            }
            for (i, names) in RecordField.tanks.enumerated() {
                guard let (field, v) = names.lazy.compactMap({ f in r[f].map { (f, $0) } }).first else { continue }
                switch ShearwaterUnits.tankPressure(v) {
                case .bar(let tenths):
                    if tankNames[i] == nil { tankNames[i] = spelling.named(v.name, record: true) }
                    add(&tanks[i], t, tenths, v, k, field)
                case .noReading: countAbsent(v, k, field, "\(v.text) psi, the transmitter's mark of no reading")
                case .state: countAbsent(v, k, field, "\"\(v.text)\", a state and not a reading")
                case .outOfRange: countDropped(v, k, field, "value-out-of-range", "psi is not a tank pressure (0 to 350 bar)")
                case .notANumber: countDropped(v, k, field, "not-a-number", "is not a number")
                }
            }

            // The circuit, and the gas breathed (a diluent on a closed or semi-closed circuit).
            var circuit: ShearwaterCircuit?
            if let v = r[.circuit] {
                circuit = ShearwaterCircuit(v.text, switchType: r[.circuitSwitch]?.text)
                if let circuit {
                    circuits[circuit, default: 0] += 1
                    if firstCircuit == nil { firstCircuit = circuit }
                } else {
                    count(stateKey(.circuit, v.text), .dropped, "circuit-unknown", at: spelling.location(record: k, v),
                          Self.circuitMessage(spelling.named(v.name, record: true), v.text))
                }
            }
            if let gv = r[.o2] ?? r[.he] {
                var o2 = 0.0, he = 0.0, unusable = false
                if let v = r[.o2] { if let n = number(v, record: (k, .o2)) { o2 = n.value } else { unusable = true } }
                if let v = r[.he] { if let n = number(v, record: (k, .he)) { he = n.value } else { unusable = true } }
                // A fraction that is no number has been reported; the record states no usable gas.
                if unusable { continue }
                // A fraction (0.21) in the XML export and Shearwater Desktop, a percent (21) in
                // Shearwater Cloud's tables, as Subsurface's two importers read them: no breathable
                // gas has 1 % oxygen or less, so a value above 1 is a percent.
                let percent = o2 > 1 || he > 1
                if percent { percentFractions = true }
                let o2p = percent ? o2 : o2 * 100, hep = percent ? he : he * 100
                if o2p == 0 && hep == 0 {
                    count(RecordField.o2.zero, .absent, "gas-absent", at: spelling.location(record: k, gv)) {
                        "\($0) record\($0 == 1 ? " states" : "s state") oxygen and helium fractions of 0, no gas; read as not recorded"
                    }
                } else if o2p <= 0 || hep < 0 || o2p + hep > 100.0001 {
                    // Keyed by the mix (rare: a log's mixes are few).
                    count("mix\u{1F}\(o2)/\(he)", .dropped, "mix-invalid", at: spelling.location(record: k, gv), Self.mixMessage(o2, he))
                } else {
                    let gas = Gas(o2: (o2p * 1000).rounded() / 1000, he: (hep * 1000).rounded() / 1000,
                                  diluent: circuit != nil && circuit != .open)
                    let index = gases.firstIndex(of: gas) ?? { gases.append(gas); return gases.count - 1 }()
                    if index != lastGas {
                        events.append(Event(time: t, type: .gasSwitch, gasNumber: index))
                        lastGas = index
                    }
                }
            }
        }
        if percentFractions {
            report(.resolved, "fractions-as-percent", "the records' fractionO2 and fractionHe run above 1, so they are read as percentages",
                   at: spelling.logLocation)
        }

        // The recording's mode, from the circuits the records state.
        if pressureDepths {
            if !circuits.isEmpty {
                report(.dropped, "circuit-on-freedive",
                       "the records are a freedive's (see currentDepth), whose samples carry no circuit state; their circuit setting is not carried",
                       at: spelling.logLocation)
            }
        } else if let first = firstCircuit {
            let rebreather = circuits.keys.first { $0 != .open }
            let mode = (rebreather ?? first).mode
            rec.mode = mode
            if let rebreather, let open = circuits[.open] {
                report(.resolved, "circuit-changes",
                       "\(open) record\(open == 1 ? " is" : "s are") on open circuit (bailout) and \(circuits[rebreather] ?? 0) on \(rebreather == .closed ? "closed" : "semi-closed") circuit; the recording's mode is the rebreather's, and the model holds one mode per recording",
                       at: spelling.logLocation)
            }
        }

        // Cylinders: each gas breathed, then each tank a transmitter reported on.
        let firstCylinder = dive.cylinders.count
        for gas in gases {
            var c = Cylinder()
            c.oxygen = gas.o2
            c.helium = gas.he
            if gas.diluent { c.role = .diluent }
            dive.cylinders.append(c)
        }
        for e in events.indices { events[e].gasNumber = (events[e].gasNumber ?? 0) + firstCylinder }
        // One gas breathed all dive: its first "switch" only restates it.
        if gases.count == 1 { events.removeAll() }
        let reporting = tanks.indices.filter { !tanks[$0].isEmpty }
        // As many gases as transmitters reporting: paired in order, as DiveJSON's FIT mapping pairs
        // a FIT file's (nothing in either links a gas to a transmitter, and position is the only
        // signal), unless a transmitter's name says its tank holds something else.
        let paired = !gases.isEmpty && gases.count == reporting.count
            && zip(gases, reporting).allSatisfy { gas, i in Self.roleAgrees(tankRoles[i], gas) }
        if paired {
            var pairs: [String] = []
            for (g, i) in zip(gases.indices, reporting) {
                tankCylinders[i] = firstCylinder + g
                profile.pressures.append(PressureSeries(gasNumber: firstCylinder + g, series: tanks[i]))
                pairs.append("\(tankNames[i] ?? "transmitter \(i + 1)")'s \(Self.pressures(tanks[i].count)) are the \(percent(gases[g].o2))/\(percent(gases[g].he)) cylinder's")
            }
            let n = gases.count
            report(.resolved, "tank-paired-by-order",
                   "the dive breathed \(n) gas\(n == 1 ? "" : "es") and \(n) transmitter\(n == 1 ? " reports" : "s report") pressures, and the log does not say which tank holds which: paired in order, \(pairs.joined(separator: "; "))",
                   at: spelling.logLocation)
        }
        // Otherwise a transmitter the log names a diluent's, on a dive that breathed exactly one
        // diluent and has no other diluent transmitter, is on that diluent's cylinder: the log
        // states both.
        let diluents = gases.indices.filter { gases[$0].diluent }
        let diluentTanks = reporting.filter { tankRoles[$0] == .diluent }
        for i in reporting where !paired {
            let series = tanks[i], name = tankNames[i] ?? "transmitter \(i + 1)"
            if diluents.count == 1, diluentTanks == [i] {
                let cylinder = firstCylinder + diluents[0]
                tankCylinders[i] = cylinder
                profile.pressures.append(PressureSeries(gasNumber: cylinder, series: series))
                let gas = gases[diluents[0]]
                report(.resolved, "tank-is-diluent",
                       "\(name) is a transmitter the log names the diluent's, and the dive breathed one diluent (\(percent(gas.o2))/\(percent(gas.he))): its \(Self.pressures(series.count)) are that cylinder's",
                       at: spelling.logLocation)
                continue
            }
            tankCylinders[i] = dive.cylinders.count
            var c = Cylinder()
            c.gasNumber = dive.cylinders.count
            c.role = tankRoles[i]
            profile.pressures.append(PressureSeries(gasNumber: dive.cylinders.count, series: series))
            dive.cylinders.append(c)
            let holds = tankRoles[i].map { "names the tank \($0 == .oxygen ? "an oxygen" : "a \($0.rawValue)") tank and states no mix for it" }
                ?? "does not say which gas that tank holds"
            let unpaired = gases.isEmpty ? "the records state no gas"
                : gases.count == reporting.count ? "a transmitter's name disagrees with the gas it would pair with in order"
                : "\(gases.count) gas\(gases.count == 1 ? "" : "es") beside \(reporting.count) transmitter\(reporting.count == 1 ? "" : "s") cannot be paired in order"
            report(.absent, "tank-gas-absent",
                   "\(name) reports \(Self.pressures(series.count)) and the log \(holds); \(unpaired), so they are carried as a cylinder of their own, with no gas",
                   at: spelling.logLocation)
        }
        profile.pressures.sort { $0.gasNumber < $1.gasNumber }

        findings += tally.findings()
        tally.removeAll()
        stateKeys.removeAll()
        guard let last = [depth, temperature, ndl, tts, ppo2, cns, ceiling, gf].compactMap(\.times.last).max()
                ?? profile.pressures.compactMap(\.series.times.last).max() else {
            if !events.isEmpty {
                report(.dropped, "gas-changes-without-profile", "\(events.count) gas changes have no profile to sit on; not carried",
                       at: spelling.logLocation)
            }
            return
        }
        profile.duration = max(last, events.last?.time ?? 0)
        profile.depth = depth.isEmpty ? nil : depth
        profile.temperature = temperature.isEmpty ? nil : temperature
        profile.ndl = ndl.isEmpty ? nil : ndl
        profile.tts = tts.isEmpty ? nil : tts
        profile.ppo2 = ppo2.isEmpty ? nil : ppo2
        profile.cns = cns.isEmpty ? nil : cns
        profile.ceiling = ceiling.isEmpty ? nil : ceiling
        profile.gradientFactor = gf.isEmpty ? nil : gf
        profile.events = events
        rec.profile = profile
        // Numbering only where the profile uses it, then every cylinder is labelled.
        if !profile.pressures.isEmpty || !events.isEmpty {
            for i in dive.cylinders.indices { dive.cylinders[i].gasNumber = i }
        }
    }

    /// True when the records' `currentDepth` cannot be depths: some are deeper than the log's own
    /// `maxDepth` (by more than rounding). Shearwater's freedive samples carry the absolute
    /// pressure in millibar where a depth would be (libdivecomputer's Shearwater parser reads
    /// them so), and a depth from a pressure needs the water's density, which the log does not
    /// state: the readings are reported, not carried.
    private mutating func depthsArePressures(_ log: ShearwaterLogDraft, timed: [Timed], depths: [ShearwaterNumber?], units: ShearwaterUnits) -> Bool {
        guard let mv = log["maxdepth"], let mn = ShearwaterNumber(mv) else { return false }
        let max = units.metres(mn)
        guard max > 0 else { return false }
        var deepest: (metres: Double, j: Int)?
        for (j, n) in depths.enumerated() {
            guard let n else { continue }
            let m = units.metres(n)
            if m > (deepest?.metres ?? -1) { deepest = (m, j) }
        }
        guard let deepest, deepest.metres > max + Swift.max(1, max / 10), let value = log.records[timed[deepest.j].k][.depth] else { return false }
        let count = timed.filter { log.records[$0.k][.depth] != nil }.count
        report(.dropped, "depth-is-pressure",
               "the records' \(named(value, record: true)) runs to \(value.text), far deeper than the log's \(named(mv)) of \(mv.text): they are absolute pressures in millibar, as a Shearwater freedive log records them, and a depth from a pressure needs a water density the log does not state; the \(count) readings are not carried",
               at: spelling.location(record: timed[deepest.j].k, value))
        return true
    }

    /// Whether a transmitter named for `role` (its PNF name's `D…`, `O…`) can be on `gas`'s
    /// cylinder: a diluent's on a diluent, an oxygen tank's on pure oxygen; an unnamed one on any.
    private static func roleAgrees(_ role: CylinderRole?, _ gas: Gas) -> Bool {
        switch role {
        case nil: return true
        case .diluent?: return gas.diluent
        case .oxygen?: return gas.o2 == 100 && gas.he == 0
        default: return false
        }
    }

    private static func pressures(_ n: Int) -> String { n == 1 ? "1 pressure" : "\(n) pressures" }

    /// A percentage as a diver writes it: `21`, `10.5`.
    private func percent(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    /// Appends a reading, unless the channel already has one at this millisecond.
    /// (The records are in time order, so an earlier instant cannot follow.)
    private mutating func add(_ series: inout Series, _ t: Int, _ value: Int, _ v: ShearwaterValue, _ k: Int, _ field: RecordField) {
        guard !series.appendKeepingFirst(t, value) else { return }
        let spelling = self.spelling
        count(field.sameInstant, .dropped, "sample-same-instant", at: spelling.location(record: k, v), Self.sameInstantMessage(spelling.named(v.name, record: true)))
    }

    /// A value of `field` dropped, counted: "name text what (the first of N); not carried".
    mutating func countDropped(_ v: ShearwaterValue, _ k: Int, _ field: RecordField, _ code: String, _ what: @autoclosure () -> String) {
        let spelling = self.spelling
        count(code == "not-a-number" ? field.notANumber : field.outOfRange, .dropped, code, at: spelling.location(record: k, v),
              Self.droppedMessage(spelling.named(v.name, record: true), v.text, what()))
    }

    /// A value of `field` that is no reading, counted per field and text: "name holds what, in N records".
    mutating func countAbsent(_ v: ShearwaterValue, _ k: Int, _ field: RecordField, _ what: @autoclosure () -> String) {
        let spelling = self.spelling
        count(stateKey(field, v.text), .absent, "no-reading", at: spelling.location(record: k, v),
              Self.absentMessage(spelling.named(v.name, record: true), what()))
    }

    private static func droppedMessage(_ name: String, _ text: String, _ what: String) -> @Sendable (Int) -> String {
        { "\(name) \(text) \(what)\($0 > 1 ? " (the first of \($0))" : ""); not carried" }
    }

    private static func absentMessage(_ name: String, _ what: String) -> @Sendable (Int) -> String {
        { "\(name) holds \(what), in \($0) record\($0 == 1 ? "" : "s"); read as not recorded" }
    }

    private static func sameInstantMessage(_ name: String) -> @Sendable (Int) -> String {
        { "\($0 == 1 ? "a reading" : "\($0) readings") of \(name) \($0 == 1 ? "lands" : "land") on the millisecond of an earlier one; the first is kept" }
    }

    private static func zeroPPO2Message(_ name: String) -> @Sendable (Int) -> String {
        { "\(name) is 0 in \($0) record\($0 == 1 ? "" : "s"): no gas has none, so it is the log's mark of no figure; read as not recorded" }
    }

    private static func mixMessage(_ o2: Double, _ he: Double) -> @Sendable (Int) -> String {
        { "oxygen \(o2) and helium \(he) (\($0) record\($0 == 1 ? "" : "s")) are not a mix; not carried" }
    }

    private static func circuitMessage(_ name: String, _ text: String) -> @Sendable (Int) -> String {
        { "\(name) \"\(text)\" (\($0) record\($0 == 1 ? "" : "s")) is not a circuit this reader knows; not carried" }
    }
}
