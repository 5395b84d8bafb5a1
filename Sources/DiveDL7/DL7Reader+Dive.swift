import DiveCore

/// A dive's segments: `ZDH` (its header), `ZDP{ … ZDP}` (its profile), `ZDT` (its trailer) and,
/// in a `.zxl`, `ZDD` (its details) and `ZSR` (the safety report).
extension DL7Reader {
    static let zdhNames = ["export sequence", "internal dive sequence", "record type", "recording interval", "leave surface",
                           "air temperature", "tank volume", "O2 mode", "rebreather diluent gas", "altitude of the dive site"]
    static let zdpNames = ["time", "depth", "gas switch", "current PO2", "ascent rate violation", "decompression violation",
                           "current ceiling", "water temperature", "warning number", "main cylinder pressure",
                           "diluent cylinder pressure", "oxygen flow rate", "CNS toxicity", "OTU", "ascent rate"]
    static let zdtNames = ["export sequence", "internal dive sequence", "maximum depth", "reach surface", "minimum water temperature",
                           "pressure drop (main tank)"]
    static let zddNames = ["export sequence", "internal dive sequence", "purpose", "program", "environment", "platform", "dive plan",
                           "dive table", "dress", "apparatus", "gas source", "breathing gas", "decompression"]
    static let zsrNames = ["export sequence", "internal dive sequence", "state of rest before the dive", "alcohol before the dive",
                           "exercise before the dive", "medication before the dive", "visibility", "current", "thermal comfort",
                           "workload", "problems", "equipment malfunctions", "symptoms", "exposure to altitude", "comments",
                           "surface interval before altitude exposure", "date of flight", "length of exposure",
                           "altitude of exposure", "treated in a hyperbaric chamber", "name and location of the chamber",
                           "number of recompression treatments"]

    // MARK: Values in the declared units

    /// A depth in metres as a decimal, by the declared unit or, undeclared, the rule: feet when
    /// the file's other units are imperial, else metres.
    func depthMetres(_ v: DecimalNumber) -> DecimalNumber? {
        switch units.depth {
        case .unit(.metres, _): return v
        case .unit(.feet, _): return DecimalNumber((v.doubleValue * 0.3048 * 1000).rounded() / 1000)
        case .unknown: return nil
        case .undeclared:
            undeclared("depth", units.otherUnitsImperial ? "feet, as the file's other units are imperial" : "metres, as the file's other units are not imperial")
            return units.otherUnitsImperial ? DecimalNumber((v.doubleValue * 0.3048 * 1000).rounded() / 1000) : v
        }
    }

    /// A temperature in °C, by the declared unit or, undeclared, the rule: above 45 is °F
    /// (no water a diver meets is that hot in °C), else °C.
    func celsius(_ v: Double) -> Double? {
        switch units.temperature {
        case .unit(let u, _): return u.celsius(v)
        case .unknown: return nil
        case .undeclared:
            undeclared("temperature", "°F for a value above 45 (no water is that hot in °C), else °C")
            return (v > 45 ? DL7TemperatureUnit.fahrenheit : .celsius).celsius(v)
        }
    }

    /// A tank pressure in bar, by the declared unit or, undeclared, the rule: above 400 is psi
    /// (no scuba cylinder holds 400 bar), else bar.
    func bar(_ v: Double) -> Double? {
        switch units.pressure {
        case .unit(let u, _): return u.bar(v)
        case .unknown: return nil
        case .undeclared:
            undeclared("tank pressure", "psi for a value above 400 (no cylinder holds 400 bar), else bar")
            return (v > 400 ? DL7PressureUnit.psi : .bar).bar(v)
        }
    }

    /// Says once per kind that the file declares no unit for it and how it is read.
    func undeclared(_ what: String, _ rule: String) {
        tally.add("undeclared:" + what, .resolved, "dl7.unit-undeclared", at: location(column: nil, path: "ZRH")) { n in
            "the file declares no \(what) unit (ZRH); \(what) values are read as \(rule)\(n > 1 ? " (\(n) values)" : "")"
        }
    }

    // MARK: ZDH

    /// `ZDH|1|21|I|Q5S|199802061035|64|10|FO2||0|`: a new dive.
    func openDive() {
        var d = DL7Draft(index: divesRead, line: segment.line)
        divesRead += 1
        let path = "dive/\(d.index)/ZDH"
        var read: Set<Int> = []
        if let s = segment.text(1) { d.exportSequence = s; read.insert(1) }
        if let s = segment.text(2) { d.internalSequence = s; read.insert(2) }
        if let t = segment.text(3) {
            d.recordType = t.uppercased()
            if d.recordType == "I" { read.insert(3) }
        }
        if let t = segment.text(4) {
            d.intervalText = t
            d.interval = DL7Interval.parse(t)
            read.insert(4)
        }
        if let t = segment.text(5) {
            read.insert(5)
            if let stamp = DL7Timestamp(t), stamp.time != nil {
                d.start = stamp
                if !stamp.hasSeconds {
                    tally.add("no-seconds", .absent, "dl7.time-without-seconds", at: location(column: segment.column(5), path: "\(path)/5")) { n in
                        "the leave-surface time \"\(t)\" has no seconds; read as :00\(n > 1 ? " (\(n) dives)" : "")"
                    }
                }
                if stamp.offset == nil {
                    tally.add("no-offset", .absent, "dl7.offset-absent", at: location(column: segment.column(5), path: "\(path)/5")) { n in
                        "ZDH's leave-surface time records no UTC offset; the start is the wall clock alone\(n > 1 ? " (\(n) dives)" : "")"
                    }
                }
            } else {
                d.startOK = false
                report(.dropped, "start-invalid", "ZDH's leave-surface time \"\(t)\" is not a DL7 time stamp (YYYYMMDDHHMM[SS]); the dive is not carried",
                       field: 5, path: path)
            }
        } else {
            report(.absent, "start-absent", "ZDH records no leave-surface time: the dive has no start", line: segment.line, column: segment.column(5), path: path)
        }
        if let v = segment.decimal(6) {
            read.insert(6)
            d.airTemperature = celsius(v.doubleValue)
        }
        if let v = segment.decimal(7) {
            read.insert(7)
            switch units.volume {
            case .unit(.litres, _):
                if v.doubleValue > 0 && v.doubleValue < 100 { d.tankVolume = v.doubleValue } else {
                    report(.dropped, "value-out-of-range", "ZDH's tank volume \(v) L is not a cylinder's; not carried", field: 7, path: path)
                }
            case .unit(.cubicFeet, _):
                report(.dropped, "tank-volume-cubic-feet",
                       "ZDH's tank volume \(v) cu ft is free gas at the working pressure, which DL7 does not record, so it cannot become litres of water capacity; not carried",
                       field: 7, path: path)
            case .unknown: break
            case .undeclared:
                report(.dropped, "tank-volume-unit-undeclared",
                       "ZDH's tank volume \(v) comes with no unit (ZRH), and litres and cubic feet overlap in size; not carried", field: 7, path: path)
            }
        }
        if let code = segment.text(9) {
            read.insert(9)
            if let mix = DL7Gas.mix(code) { d.diluent = mix } else {
                report(.dropped, "gas-code-not-carried",
                       "ZDH's rebreather diluent \"\(code)\" is no fixed mix of DL7's gas codes (1 air, 2.mn nitrox, 4.mn heliox); not carried",
                       field: 9, path: path)
            }
        }
        if let v = segment.decimal(10) {
            read.insert(10)
            switch units.altitude {
            case .unit(let u, _):
                let m = u.metres(v.doubleValue)
                if m > -500 && m < 9000 { d.altitude = Int(m.rounded()) } else {
                    report(.dropped, "value-out-of-range", "ZDH's altitude \(v) is not a dive site's; not carried", field: 10, path: path)
                }
            case .unknown: break
            case .undeclared:
                if v.isZero { d.altitude = 0 } else {
                    report(.dropped, "altitude-unit-undeclared", "ZDH's altitude \(v) comes with no unit (ZRH); not carried", field: 10, path: path)
                }
            }
        }
        reportRest("ZDH", read: read, names: Self.zdhNames, path: "dive/\(d.index)")
        draft = d
    }

    // MARK: ZDP

    func openProfile(_ line: (start: Int, end: Int)) {
        block = ("ZDP", lineNumber, 0, [])
        if draft == nil {
            report(.dropped, "profile-without-dive", "a ZDP{ profile comes before any ZDH dive header; its rows are not carried",
                   line: lineNumber, column: 1, path: "ZDP")
        } else if draft?.profileLine != nil {
            report(.resolved, "profile-repeated", "the dive has a second ZDP{ profile; its rows are read on after the first's",
                   line: lineNumber, column: 1, path: draftPath.map { "\($0)/ZDP" })
        }
        if var d = draft, d.profileLine == nil {
            d.profileLine = lineNumber
            draft = d
        }
    }

    /// `|0.33|5|1.21|0.21||F||25|…|`: one sample.
    func readProfileRow() {
        guard var d = draft else { return }
        draft = nil
        defer { draft = d }
        let path = "dive/\(d.index)/ZDP"
        func drop(_ k: Int, _ code: String, _ message: String) {
            let key = "\(code):\(k)"
            rowTally.add(key, .dropped, "dl7.\(code)", at: SourceLocation(file: displayName, line: segment.line, column: segment.column(k), path: "\(path)/\(k)")) { n in
                n == 1 ? message : "\(message) (\(n) rows; the first is here)"
            }
        }
        guard let time = segment.decimal(1), !time.isNegative else {
            drop(1, "sample-time-invalid", "a profile row's time \"\(segment.text(1) ?? "")\" is no time; the row is not carried")
            return
        }
        if d.rowTimes.count >= samplesPerDive {
            d.samplesDropped += 1
            drop(1, "samples-over-limit", "the dive holds more than \(samplesPerDive) samples; the rest are not carried")
            return
        }
        let row = d.rowTimes.count
        d.rowTimes.append(time)
        d.rowLines.append(segment.line)
        var read: Set<Int> = [1]
        if let v = segment.decimal(2) {
            read.insert(2)
            if let m = depthMetres(v) {
                if m.isNegative && !m.isZero || !InputLimits.Range.depthMetres.contains(m) {
                    drop(2, "depth-out-of-range", "a profile depth of \(m) m is above the surface or deeper than any sea; not carried")
                } else if let cm = m.scaledInteger(2) { d.depth.append((row, cm)) }
            }
        } else if !segment.isEmpty(2) {
            read.insert(2)
            drop(2, "value-invalid", "a profile depth \"\(segment.text(2)!)\" is no number; not carried")
        }
        if let code = segment.text(3) {
            read.insert(3)
            if let mix = DL7Gas.mix(code) {
                let i = d.mixes.firstIndex { $0.oxygen == mix.oxygen && $0.helium == mix.helium } ?? {
                    d.mixes.append(mix)
                    return d.mixes.count - 1
                }()
                d.gases.append((row, i))
            } else {
                drop(3, "gas-code-not-carried",
                     "the gas switch \"\(code)\" is no fixed mix of DL7's gas codes (1 air, 2.mn nitrox, 4.mn heliox); not carried")
            }
        }
        if let v = segment.decimal(4) {
            read.insert(4)
            // Atmospheres absolute, to hundredths of a bar.
            let bar = v.doubleValue * 1.01325
            if bar >= 0 && bar < 10 { d.ppo2.append((row, Int((bar * 100).rounded()))) } else {
                drop(4, "value-out-of-range", "a PO2 of \(v) ATA is not a partial pressure a diver breathes; not carried")
            }
        }
        for (k, type) in [(5, EventType.ascentRate), (6, EventType.ceilingViolation)] {
            guard let flag = segment.text(k) else { continue }
            read.insert(k)
            switch flag.uppercased() {
            case "T": d.violations.append((row, type))
            case "F": break
            default: drop(k, "flag-invalid", "a profile row's \(Self.zdpNames[k - 1]) flag \"\(flag)\" is neither T nor F; not carried")
            }
        }
        if let v = segment.decimal(7) {
            read.insert(7)
            if let m = depthMetres(v), !m.isNegative, InputLimits.Range.depthMetres.contains(m), let cm = m.scaledInteger(2) {
                d.ceiling.append((row, cm))
            } else if case .unknown = units.depth {} else {
                drop(7, "value-out-of-range", "a ceiling of \(v) is above the surface or deeper than any sea; not carried")
            }
        }
        if let v = segment.decimal(8) {
            read.insert(8)
            if let c = celsius(v.doubleValue) {
                if c > -10 && c < 60 { d.temperature.append((row, Int((c * 100).rounded()))) } else {
                    drop(8, "value-out-of-range", "a water temperature of \(c) °C is not one a diver meets; not carried")
                }
            }
        }
        for (k, isMain) in [(10, true), (11, false)] {
            guard let v = segment.decimal(k) else { continue }
            read.insert(k)
            guard let b = bar(v.doubleValue) else { continue }
            if b < 0 || b > 500 {
                drop(k, "value-out-of-range", "a \(Self.zdpNames[k - 1]) of \(b) bar is outside 0 to 500 bar; not carried")
            } else if isMain {
                d.mainPressure.append((row, Int((b * 10).rounded())))
            } else if d.diluent != nil {
                d.diluentPressure.append((row, Int((b * 10).rounded())))
            } else {
                drop(k, "diluent-pressure-without-diluent",
                     "a diluent cylinder pressure arrives and ZDH names no diluent gas to give it a cylinder; not carried")
            }
        }
        if let v = segment.decimal(13) {
            read.insert(13)
            if !v.isNegative, v.doubleValue < 1000, let tenths = v.scaledInteger(1) { d.cns.append((row, tenths)) } else {
                drop(13, "value-out-of-range", "a CNS of \(v) % is not one; not carried")
            }
        }
        // Warning numbers (the unit's own hex codes), oxygen flow, OTU and ascent rate, and
        // anything past the spec's fifteen columns: counted per column over the dive.
        for k in 2..<segment.count where !read.contains(k) && !segment.isEmpty(k) {
            let name = k <= Self.zdpNames.count ? Self.zdpNames[k - 1] : "column \(k)"
            let value = segment.text(k) ?? ""
            drop(k, "not-carried", "the profile's \(name) (\"\(value)\" here) has no channel in umilog's model; not carried")
        }
        for k in read where k < 64 { profileTaken |= 1 << UInt64(k) }
    }

    // MARK: ZDT, ZDD, ZSR

    /// Checks that a trailing segment's sequences name the open dive; `nil` when there is none.
    private func trailing(_ id: String) -> DL7Draft? {
        guard let d = draft else {
            report(.dropped, "segment-without-dive", "a \(id) segment comes before any ZDH dive header; not carried",
                   line: segment.line, column: 1, path: id)
            return nil
        }
        if let s = segment.text(1), let e = d.exportSequence, s != e {
            report(.resolved, "sequence-mismatch", "\(id)'s export sequence \(s) is not the open dive's (\(e), line \(d.line)); read as that dive's",
                   field: 1, path: "dive/\(d.index)/\(id)")
        }
        return d
    }

    /// `ZDT|1|21|125|199802061134|75|1200|`: the maximum depth, when the diver surfaced, the
    /// lowest water temperature.
    func readZDT() {
        guard var d = trailing("ZDT") else { return }
        let path = "dive/\(d.index)"
        var read: Set<Int> = [1, 2]
        d.trailerLine = segment.line
        if let v = segment.decimal(3) {
            read.insert(3)
            d.maxDepth = depthMetres(v)
        }
        if let t = segment.text(4) {
            read.insert(4)
            if let stamp = DL7Timestamp(t), stamp.time != nil { d.end = stamp } else {
                report(.dropped, "timestamp-invalid", "ZDT's reach-surface time \"\(t)\" is not a DL7 time stamp; not carried", field: 4, path: "\(path)/ZDT")
            }
        }
        if let v = segment.decimal(5) {
            read.insert(5)
            if let c = celsius(v.doubleValue) {
                if c > -10 && c < 60 { d.minWaterTemperature = c } else {
                    report(.dropped, "value-out-of-range", "ZDT's minimum water temperature \(c) °C is not one a diver meets; not carried", field: 5, path: "\(path)/ZDT")
                }
            }
        }
        reportRest("ZDT", read: read, names: Self.zdtNames, path: path)
        draft = d
    }

    /// `ZDD`: the dive's details, codes of the spec's lists. The apparatus (open-circuit scuba,
    /// surface supplied) and the platform (shore, pier, boat) are carried; the rest is reported.
    func readZDD() {
        guard var d = trailing("ZDD") else { return }
        var read: Set<Int> = [1, 2]
        switch segment.text(10) {
        case "1": d.type = .openCircuit; read.insert(10)
        case "3": d.type = .surfaceSupplied; read.insert(10)
        default: break
        }
        switch segment.text(6) {
        case "1": d.entry = .shore; read.insert(6)
        case "2": d.entry = .pier; read.insert(6)
        case "3", "4", "5": d.entry = .boat; read.insert(6)
        default: break
        }
        reportRest("ZDD", read: read, names: Self.zddNames, path: "dive/\(d.index)")
        draft = d
    }

    /// `ZSR`: the safety and outcome report, which umilog's model has no place for.
    func readZSR() {
        guard let d = trailing("ZSR") else { return }
        reportRest("ZSR", read: [1, 2], names: Self.zsrNames, path: "dive/\(d.index)")
    }
}
