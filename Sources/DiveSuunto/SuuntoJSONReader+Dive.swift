import DiveCore
import DiveJSON

/// The dive from `Header` and `Header.Diving`, by `docs/suunto-json-mapping.md`'s *The dive*.
extension SuuntoJSONReader {
    func buildDive(_ head: inout JSONMembers, _ log: inout JSONMembers, headNode: JSONNode, device: Device,
                   samples: [JSONNode]) -> Dive? {
        // The start: offset and fraction preserved, never supplied.
        var startedAt: DiveDateTime?
        if let (text, m) = string(&head, "DateTime") {
            guard let (dt, notes) = DiveDateTime.parse(text) else {
                report(.dropped, "start-invalid", "\"DateTime\" \"\(text)\" is not a date and time, so nothing in the activity can be placed; the dive is not carried",
                       path: head.path("DateTime"), line: m.line, column: m.column, losing: 1)
                head.takeAll()
                log.takeAll()
                return nil
            }
            startedAt = dt
            if notes.dateOnly {
                report(.absent, "time-of-day-absent", "\"DateTime\" \"\(text)\" is a date with no time of day; the dive starts on that date, and its samples cannot be placed",
                       path: head.path("DateTime"), line: m.line, column: m.column)
            } else if dt.offset == nil {
                report(.absent, "offset-absent", "\"DateTime\" \"\(text)\" states no UTC offset; the start is the wall clock alone",
                       path: head.path("DateTime"), line: m.line, column: m.column)
            }
            if notes.secondsMissing {
                report(.absent, "time-without-seconds", "\"DateTime\" \"\(text)\" has no seconds; read as :00", path: head.path("DateTime"), line: m.line, column: m.column)
            }
        } else {
            report(.absent, "start-absent", "the header states no \"DateTime\"; the dive has no start, and its samples cannot be placed",
                   path: head.path, line: headNode.line, column: headNode.column)
        }
        var dive = Dive(uuid: Identity.uuid5(namespace: SuuntoJSON.namespace, name: "dive:#0"), startedAt: startedAt)
        dive.provenance = Provenance(format: "suunto-json", file: displayName, index: 0, line: headNode.line, positionalIdentity: true)
        report(.absent, "id-absent", "a Suunto app export records no id for its dive; its identity is its place in the file",
               path: head.path, line: headNode.line, column: headNode.column)

        // Time in the water: `DiveTime` (the in-water figure) before `Duration` (the whole log).
        var bound: Int?
        if let (seconds, ms) = duration(&head, "DiveTime") {
            dive.submergedTime = seconds
            bound = ms
        }
        if dive.submergedTime == nil, let (seconds, _) = duration(&head, "Duration") {
            dive.submergedTime = seconds
        }

        // Summary depths: `DepthAverage` is the Ocean's spelling, `Depth.Avg` the D5's.
        var maxDepth: (DecimalNumber, JSONNode.Member, JSONMembers)?
        var meanDepth: (DecimalNumber, JSONNode.Member, JSONMembers)?
        if let (v, m) = number(&head, "DepthAverage") { meanDepth = (v, m, head) }
        if var depth = object(&head, "Depth") {
            if let (v, m) = number(&depth, "Max") { maxDepth = (v, m, depth) }
            if meanDepth == nil, let (v, m) = number(&depth, "Avg") { meanDepth = (v, m, depth) }
            finish(depth)
        }
        let depths = SummaryDepths(max: maxDepth?.0, mean: meanDepth?.0, maxName: "the maximum depth", meanName: "the average depth")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings {
            guard let (_, m, o) = f.member == .max ? maxDepth : meanDepth else { continue }
            report(f.kind, f.code, "\"\(m.name)\": " + f.message, path: o.path(m.name), line: m.line, column: m.column)
        }
        if let (text, _) = string(&head, "Notes") { dive.notes = text }

        // The recording: the device, and what `Header.Diving` states.
        var rec = Recording(device: device)
        var block: [Cylinder]?
        if var diving = object(&head, "Diving") {
            block = readDiving(&diving, into: &rec)
            finish(diving)
        }

        // The samples: the profile, the telemetry, the switches and the fixes.
        let streams = readSamples(samples, start: startedAt, startLine: headNode.line)
        var profile = Profile()
        profile.depth = settle(streams.depth, "Depth", in: streams)
        profile.ceiling = settle(streams.ceiling, "Ceiling", in: streams)
        profile.temperature = settle(streams.temperature, "Temperature", in: streams)
        profile.ndl = settle(streams.ndl, "NoDecTime", in: streams)
        profile.tts = settle(streams.tts, "TimeToSurface", in: streams)
        profile.gradientFactor = settle(streams.gradientFactor, "RtGradientFactors.gf99", in: streams)
        profile.surfaceGradientFactor = settle(streams.surfaceGradientFactor, "RtGradientFactors.gfSurface", in: streams)
        dive.cylinders = cylinders(block: block, streams: streams, bound: bound, profile: &profile)
        (dive.entryPosition, dive.exitPosition) = positions(streams, depth: profile.depth)

        let last = profile.allSeries.compactMap(\.times.last).max()
        if let last {
            profile.duration = last
        } else if let t = profile.events.map(\.time).max() {
            profile.duration = t
        }
        if !profile.isEmpty {
            rec.profile = profile
        } else if streams.samplesWithReadings > 0 {
            report(.dropped, "profile-empty", "none of the readings of the \(streams.samplesWithReadings) samples that state one could be carried; the dive has no profile",
                   path: log.path("Samples"), line: log.peek("Samples")?.line, column: log.peek("Samples")?.column)
        }
        // Numbering only where the profile needs it (converting.md), then every cylinder.
        if !profile.pressures.isEmpty || profile.events.contains(where: { $0.gasNumber != nil }) {
            for i in dive.cylinders.indices { dive.cylinders[i].gasNumber = i }
        }
        dive.recordings = [rec]
        return dive
    }

    /// A `DiveTime` or `Duration` in whole seconds (halves away from zero) and in milliseconds;
    /// `nil`, reported, when it is zero below a whole second or past any dive's length.
    private func duration(_ head: inout JSONMembers, _ name: String) -> (seconds: Int, ms: Int)? {
        guard let (v, m) = number(&head, name) else { return nil }
        guard !v.isNegative else {
            report(.dropped, "value-out-of-range", "\"\(name)\" \(v) s is negative, which no time is; not carried",
                   path: head.path(name), line: m.line, column: m.column)
            return nil
        }
        guard InputLimits.Range.diveSeconds.contains(v), let s = v.roundedInteger(), let ms = v.scaledInteger(3) else {
            report(.dropped, "value-out-of-range", "\"\(name)\" \(v) s is longer than any dive (10 days); not carried",
                   path: head.path(name), line: m.line, column: m.column)
            return nil
        }
        guard s > 0 else {
            report(.absent, "duration-zero", "\"\(name)\" is \(v) s, below a whole second: a placeholder, not a duration; not carried",
                   path: head.path(name), line: m.line, column: m.column)
            return nil
        }
        return (s, ms)
    }

    // MARK: Header.Diving

    /// The readouts, the mode and the deco model onto `rec`; the gas block, when there is one.
    private func readDiving(_ diving: inout JSONMembers, into rec: inout Recording) -> [Cylinder]? {
        if let (n, _) = integer(&diving, "NumberInSeries", in: 0...999_999_999) { rec.device?.diveNumber = n }
        for (blockName, cns, otu) in [("StartTissue", \Recording.cnsStart, \Recording.otuStart),
                                      ("EndTissue", \Recording.cnsEnd, \Recording.otuEnd)] {
            guard var tissue = object(&diving, blockName) else { continue }
            if let (v, m) = number(&tissue, "CNS") {
                if let pct = nonNegative(v, m, tissue, scale: 2, limit: 100_000, what: "a CNS fraction") { rec[keyPath: cns] = pct }
            }
            if let (v, m) = number(&tissue, "OTU") {
                if let units = nonNegative(v, m, tissue, scale: 0, limit: 100_000, what: "an OTU count") { rec[keyPath: otu] = units }
            }
            finish(tissue)
        }
        if let (v, m) = number(&diving, "SurfacePressure") {
            let bar = v.shifted(by: -5)
            if InputLimits.Range.surfaceBar.contains(bar) {
                rec.surfacePressure = bar.doubleValue
            } else {
                report(.dropped, "surface-pressure-out-of-range", "\"SurfacePressure\" \(v) Pa is \(bar) bar, outside 0.4 to 1.2 bar; not carried",
                       path: diving.path("SurfacePressure"), line: m.line, column: m.column)
            }
        }
        if let (mode, m) = string(&diving, "DiveMode") {
            switch mode.lowercased() {
            case "air", "nitrox", "mixed": rec.mode = .openCircuit
            default:
                report(.absent, "mode-unknown", "\"DiveMode\" \"\(mode)\" is not a mode the mapping knows (Air, Nitrox, Mixed); the recording's mode is left absent rather than assumed",
                       path: diving.path("DiveMode"), line: m.line, column: m.column)
            }
        }
        var deco = DecoModel()
        if let name = capped(string(&diving, "Algorithm"), diving, limit: 64, what: "deco model's name") {
            deco.name = name
            switch name.lowercased() {
            case "suunto fused2 rgbm", "suunto fused rgbm 2": deco.algorithm = "rgbm"
            default:
                if let m = diving.peek("Algorithm") {
                    report(.absent, "algorithm-family-unknown", "\"Algorithm\" \"\(name)\" is carried as the model's name; it is not one the mapping names a family for, so none is derived",
                           path: diving.path("Algorithm"), line: m.line, column: m.column)
                }
            }
        }
        // A negative is Suunto's P-1 or P-2, a reading (§6.4c puts no floor on it).
        if let (v, _) = integer(&diving, "Conservatism", in: -99...99) { deco.conservatism = v }
        if !deco.isEmpty { rec.decoModel = deco }

        guard let (gases, _) = array(&diving, "Gases"), !gases.isEmpty else { return nil }
        var out: [Cylinder] = []
        for (i, node) in gases.enumerated() {
            let at = diving.at.member("Gases").index(i)
            guard node.isObject else {
                count(.dropped, "wrong-type", "a gas should be an object but is \(node.typeNameWithArticle); not read",
                      pattern: at.pattern, path: at.path, line: node.line, column: node.column)
                continue
            }
            var g = JSONMembers(node, at: at)
            if out.count >= Self.maxCylinders {
                report(.dropped, "cylinders-over-cap", "more than \(Self.maxCylinders) gases; this one is not carried", path: at.path, line: node.line, column: node.column)
                g.takeAll()
            } else {
                out.append(blockCylinder(&g))
            }
            finish(g)
        }
        return out
    }

    /// One `Gases[]` entry, in SI, as a cylinder.
    private func blockCylinder(_ g: inout JSONMembers) -> Cylinder {
        var c = Cylinder()
        let o2 = number(&g, "Oxygen"), he = number(&g, "Helium")
        let o2pct = o2.map { $0.value.shifted(by: 2) }, hepct = he.map { $0.value.shifted(by: 2) }
        let zero = DecimalNumber(0), hundred = DecimalNumber(100)
        let sum = (o2pct ?? zero).adding(hepct ?? zero)
        if (o2pct ?? zero) < zero || (hepct ?? zero) < zero || sum == nil || hundred < (sum ?? zero) {
            report(.dropped, "mix-invalid", "\"Oxygen\" \(o2?.value.description ?? "0") and \"Helium\" \(he?.value.description ?? "0") are not a mix (negative, or above 1 together); neither is carried",
                   path: g.path, line: g.node.line, column: g.node.column)
        } else {
            c.oxygen = o2pct?.doubleValue
            c.helium = hepct?.doubleValue
        }
        if o2 == nil && he == nil {
            report(.absent, "gas-absent", "the export records no gas mixture for this cylinder", path: g.path, line: g.node.line, column: g.node.column)
        }
        if let (v, m) = number(&g, "TankSize") {
            let litres = v.shifted(by: 3)
            if v.isZero || v.isNegative {
                report(.absent, "zero-placeholder", "\"TankSize\" is \(v): no cylinder size; not carried", path: g.path("TankSize"), line: m.line, column: m.column)
            } else if DecimalNumber(1000) < litres {
                report(.dropped, "value-out-of-range", "\"TankSize\" \(v) m³ is \(litres) litres, larger than any cylinder; not carried",
                       path: g.path("TankSize"), line: m.line, column: m.column)
            } else {
                c.volume = litres.doubleValue
            }
        }
        let start = number(&g, "StartPressure"), end = number(&g, "EndPressure")
        if let s = start, s.value.isZero, end == nil || end?.value.isZero == true {
            report(.absent, "pressures-zero", "\"StartPressure\" is 0 Pa, a device's mark of a pressure it did not have; not carried",
                   path: g.path("StartPressure"), line: s.member.line, column: s.member.column)
        } else {
            if let (v, m) = start { c.startPressure = tankPressure(v, m, g, start: true) }
            if let (v, m) = end, let bar = tankPressure(v, m, g, start: false) {
                if let s = c.startPressure, bar > s {
                    report(.dropped, "end-above-start", "\"EndPressure\" \(bar) bar is above the start's \(s) bar; not carried",
                           path: g.path("EndPressure"), line: m.line, column: m.column)
                } else {
                    c.endPressure = bar
                }
            }
        }
        if let (v, m) = number(&g, "PO2") {
            let bar = v.shifted(by: -5)
            if bar >= DecimalNumber(significand: 4, exponent: -1) && bar <= DecimalNumber(2) {
                c.ppo2Limit = bar.doubleValue
            } else {
                report(.dropped, "ppo2-limit-out-of-range", "\"PO2\" \(v) Pa is \(bar) bar, outside 0.4 to 2.0 bar; not carried",
                       path: g.path("PO2"), line: m.line, column: m.column)
            }
        }
        if let (state, m) = string(&g, "State") {
            if state.lowercased() == "primary" { c.role = .bottom } else {
                report(.absent, "role-unknown", "\"State\" \"\(state)\" is not a state the mapping names a role for (Primary); the cylinder has no role",
                       path: g.path("State"), line: m.line, column: m.column)
            }
        }
        return c
    }

    /// A tank pressure in Pascal as bar, within what §6.3 allows (a start above 0, both at most
    /// 350 bar); `nil`, reported, outside.
    func tankPressure(_ v: DecimalNumber, _ m: JSONNode.Member, _ o: JSONMembers, start: Bool) -> Double? {
        let bar = v.shifted(by: -5)
        if bar.isNegative || (start && bar.isZero) || DecimalNumber(350) < bar {
            report(.dropped, "pressure-out-of-range", "\"\(m.name)\" \(v) Pa is \(bar) bar, outside \(start ? "above 0" : "0") to 350 bar; not carried",
                   path: o.path(m.name), line: m.line, column: m.column)
            return nil
        }
        return bar.doubleValue
    }

    /// `v × 10^scale` when it is not negative and below `limit`; reported otherwise.
    private func nonNegative(_ v: DecimalNumber, _ m: JSONNode.Member, _ o: JSONMembers, scale: Int, limit: Int, what: String) -> Double? {
        let scaled = v.shifted(by: scale)
        guard !scaled.isNegative, scaled < DecimalNumber(limit) else {
            report(.dropped, "value-out-of-range", "\"\(m.name)\" \(v) is not \(what) (below zero, or beyond any reading); not carried",
                   path: o.path(m.name), line: m.line, column: m.column)
            return nil
        }
        return scaled.doubleValue
    }

    /// At most this many cylinders are read from one dive.
    static let maxCylinders = 16
}
