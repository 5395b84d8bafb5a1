import DiveCore

/// `<gases><gas>` as cylinders, by `docs/macdive-mapping.md`.
///
/// The rule for doubles: one `<gas>` is one gas supply with one start and end pressure, so one
/// cylinder. `<double>1</double>` says it is a twinset of two `<tankSize>` cylinders
/// (Subsurface's MacDive.xslt doubles the size): one cylinder of twice the size, marked
/// `umilog.double`. A diver's tank named as two (`8.5 + 8.5`) with `<double>0</double>` has
/// the size MacDive records for it, already the pair's: its name is kept, never parsed.
extension MacDiveState {
    static let maxCylinders = 16

    func readCylinders(_ d: MacDiveDraft, units: MacDiveUnits, into dive: inout Dive, path: String) {
        var types: [DiveType?] = []
        for (i, g) in d.gases.enumerated() {
            let gpath = "\(path)/gases/gas/\(i)"
            if i >= Self.maxCylinders {
                report(.dropped, "cylinders-over-cap", "more than \(Self.maxCylinders) <gas> on one dive; this one is not carried", path: gpath, line: g.line)
                continue
            }
            var c = Cylinder()
            var umilog: [ExtensionValue.Member] = []
            readMix(g, into: &c, path: gpath)
            readPressures(g, units: units, into: &c, path: gpath)
            let wp = workingPressure(g, units: units, path: gpath)
            let double = isDouble(g, path: gpath)
            if let size = tankSize(g, units: units, workingPressure: wp, path: gpath) {
                c.volume = double ? size * 2 : size
                if double {
                    report(.resolved, "double-tank",
                           "<double> is 1: a twinset of two \(Self.shown(size)) l cylinders, carried as one gas supply of \(Self.shown(size * 2)) l (MacDive records one pressure for the pair)",
                           path: "\(gpath)/double", line: g[.double]?.line ?? g.line)
                }
            }
            if double { umilog.append(.init("double", .bool(true))) }
            if !double, let name = g[.tankName], name.text.contains("+") {
                report(.resolved, "twinset-by-name",
                       "the tank \"\(name.text)\" is named as more than one cylinder and <double> is not 1: read as one gas supply of the size MacDive records for it\(c.volume.map { ", \(Self.shown($0)) l" } ?? ""); the name is kept, not parsed",
                       path: "\(gpath)/tankName", line: name.line)
            }
            if let s = g[.supplyType] {
                switch s.text.folded {
                case "open circuit", "oc": types.append(.openCircuit)
                case "closed circuit", "ccr", "rebreather": types.append(.closedCircuit)
                case "semi-closed circuit", "semi-closed", "scr": types.append(.semiClosed)
                case "diluent":
                    c.role = .diluent
                    types.append(.closedCircuit)
                case "oxygen":
                    c.role = .oxygen
                    types.append(.closedCircuit)
                default:
                    umilog.append(.init("supply_type", .string(s.text)))
                    types.append(nil)
                }
            }
            if let v = number(g[.duration], .duration, at: gpath) {
                if v == 0 { zero(.duration, at: gpath, line: g[.duration]!.line, in: "gas") } else if v > 0 {
                    umilog.append(.init("duration", .number(Self.shown(v))))
                } else {
                    report(.dropped, "value-out-of-range", "<duration> \(g[.duration]!.text) s is below zero; not carried", path: "\(gpath)/duration", line: g[.duration]!.line)
                }
            }
            if let name = g[.tankName] {
                c.gearUUID = tank(named: name.text, volume: c.volume, workingPressure: wp, double: double, path: gpath, line: name.line)
            } else if let wp {
                umilog.append(.init("working_pressure", .number(Self.shown(wp))))
            }
            if !umilog.isEmpty { c.extensions = .object([.init("umilog", .object(umilog))]) }
            dive.cylinders.append(c)
        }
        if !d.gases.isEmpty, let v = d[.o2Percent] {
            report(.dropped, "element-repeated", "<o2Percent> \(v.text) is the older spelling of a gas beside the dive's <gases>; not carried",
                   path: "\(path)/o2Percent", line: v.line)
        } else if let v = number(d[.o2Percent], .o2Percent, at: path) {
            // The older spelling: the dive's one gas on the dive itself.
            if v > 0 && v <= 100 {
                var c = Cylinder()
                c.oxygen = v
                dive.cylinders.append(c)
            } else {
                report(.dropped, "mix-invalid", "<o2Percent> \(d[.o2Percent]!.text) is no oxygen fraction; not carried", path: "\(path)/o2Percent", line: d[.o2Percent]!.line)
            }
        }
        // The dive's apparatus, where every gas's supply type names one: a rebreather's
        // diluent or oxygen makes it closed circuit.
        let known = types.compactMap { $0 }
        if !known.isEmpty && known.count == min(d.gases.count, Self.maxCylinders) {
            if known.contains(.closedCircuit) { dive.type = .closedCircuit } else if Set(known).count == 1 { dive.type = known[0] }
        }
    }

    /// A number as the model's texts show it: `17`, `10.74`.
    static func shown(_ v: Double) -> String {
        (DecimalNumber(v)?.rounded(places: 2)?.normalized()).map { $0.description } ?? String(v)
    }

    private func readMix(_ g: MacDiveFields, into c: inout Cylinder, path: String) {
        var o2 = number(g[.oxygen], .oxygen, at: path)
        let he = number(g[.helium], .helium, at: path)
        if o2 == 0 {
            zero(.oxygen, at: path, line: g[.oxygen]!.line, in: "gas")
            o2 = nil
        }
        if (o2 ?? 0) < 0 || (he ?? 0) < 0 || (o2 ?? 0) + (he ?? 0) > 100 {
            report(.dropped, "mix-invalid", "<oxygen> \(g[.oxygen]?.text ?? "–") % and <helium> \(g[.helium]?.text ?? "–") % are not a gas (negative or over 100 %); neither is carried",
                   path: path, line: g.line)
            return
        }
        c.oxygen = o2
        c.helium = o2 == nil && he == 0 ? nil : he
    }

    private func readPressures(_ g: MacDiveFields, units: MacDiveUnits, into c: inout Cylinder, path: String) {
        for name in [MacDiveName.pressureStart, .pressureEnd] {
            guard let v = number(g[name], name, at: path) else { continue }
            let line = g[name]!.line
            if v == 0 { zero(name, at: path, line: line, in: "gas"); continue }
            let bar = units.bar(v)
            guard let b = DecimalNumber(bar), InputLimits.Range.tankBar.contains(b) else {
                report(.dropped, "pressure-out-of-range", "<\(name.spelling)> \(g[name]!.text) is \(Self.shown(bar)) bar, outside 0 to 350 bar; not carried",
                       path: "\(path)/\(name.spelling)", line: line)
                continue
            }
            if name == .pressureStart { c.startPressure = bar } else if let s = c.startPressure, bar > s {
                report(.dropped, "end-above-start", "<pressureEnd> \(Self.shown(bar)) bar is above the start's \(Self.shown(s)) bar; not carried",
                       path: "\(path)/pressureEnd", line: line)
            } else { c.endPressure = bar }
        }
    }

    private func workingPressure(_ g: MacDiveFields, units: MacDiveUnits, path: String) -> Double? {
        guard let v = number(g[.workingPressure], .workingPressure, at: path) else { return nil }
        let line = g[.workingPressure]!.line
        if v == 0 { zero(.workingPressure, at: path, line: line, in: "gas"); return nil }
        let bar = units.bar(v)
        guard bar > 0 && bar <= 450 else {
            report(.dropped, "pressure-out-of-range", "<workingPressure> \(g[.workingPressure]!.text) is \(Self.shown(bar)) bar, no cylinder's rating; not carried",
                   path: "\(path)/workingPressure", line: line)
            return nil
        }
        return bar
    }

    private func isDouble(_ g: MacDiveFields, path: String) -> Bool {
        guard let v = g[.double] else { return false }
        switch v.text {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default:
            report(.dropped, "double-invalid", "<double> \"\(v.text)\" is neither 0 nor 1; read as a single tank", path: "\(path)/double", line: v.line)
            return false
        }
    }

    /// Litres of water the tank holds: `<tankSize>` itself in a metric file; in an imperial one
    /// cubic feet of gas at the working pressure (× 28.317 l/ft³ ÷ (working pressure ÷ 1.01325
    /// bar)), which needs the working pressure.
    private func tankSize(_ g: MacDiveFields, units: MacDiveUnits, workingPressure wp: Double?, path: String) -> Double? {
        guard let v = number(g[.tankSize], .tankSize, at: path) else { return nil }
        let line = g[.tankSize]!.line
        if v == 0 { zero(.tankSize, at: path, line: line, in: "gas"); return nil }
        var litres = v
        if units == .imperial {
            guard let wp else {
                report(.dropped, "tank-size-without-working-pressure",
                       "<tankSize> \(g[.tankSize]!.text) is cubic feet of gas at a working pressure the tank does not give, so no size in litres follows; not carried",
                       path: "\(path)/tankSize", line: line)
                return nil
            }
            litres = v * 28.316846592 / (wp / 1.01325)
            habits.add("cubic-feet", .resolved, "macdive.tank-size-cubic-feet", at: SourceLocation(file: file, line: line, path: "\(path)/tankSize")) { n in
                "an imperial <tankSize> is cubic feet of gas at the working pressure: read as the litres of water that hold it (× 28.317 l/ft³ ÷ (working pressure ÷ 1.01325 bar))\(n > 1 ? ", for \(n) tanks" : "")"
            }
        }
        guard litres > 0 && litres <= 100 else {
            report(.dropped, "value-out-of-range", "<tankSize> \(g[.tankSize]!.text) is \(Self.shown(litres)) l, no diving cylinder; not carried",
                   path: "\(path)/tankSize", line: line)
            return nil
        }
        return litres
    }
}
