import DiveCore

/// A `<MSG>`'s gas slots and its one set of cylinder fields.
extension SuuntoDM3State {
    /// The slot a gas field belongs to, from 0: Dive Manager writes eight slots as triples in
    /// this order — `O2PCT`, `HEPCT_0`, `MIXTYPE_0`, then `O2PCT_2`, `HEPCT_1`, `MIXTYPE_1`… up
    /// to `O2PCT_8`, `HEPCT_7`, `MIXTYPE_7` — so a slot's oxygen is numbered one above its
    /// helium and type. `nil` for a name outside that pattern (`O2PCT_1`, `O2PCT_0`).
    static func gasSlot(_ name: String) -> (slot: Int, field: String)? {
        if name == "O2PCT" { return (0, "O2") }
        guard let underscore = name.lastIndex(of: "_"), let n = Int(name[name.index(after: underscore)...]) else { return nil }
        switch name[..<underscore] {
        case "O2PCT": return n >= 2 ? (n - 1, "O2") : nil
        case "HEPCT": return (n, "HE")
        case "MIXTYPE": return (n, "TYPE")
        default: return nil
        }
    }

    /// One cylinder per gas slot whose oxygen is not 0 (an empty slot is 0 % oxygen and 0 %
    /// helium), in slot order; the cylinder fields describe the first of them.
    func readCylinders(path: String) -> [Cylinder] {
        var slots: [Int: [String: (name: String, value: DM3Value)]] = [:]
        for (name, value) in scalars where Self.isGasSlotField(name) {
            guard let (slot, field) = Self.gasSlot(name) else {
                report(.dropped, "gas-slot-unknown", "<\(name)> is not one of Dive Manager's eight gas slots; not carried",
                       path: "\(path)/\(name)", line: value.line)
                continue
            }
            slots[slot, default: [:]][field] = (name, value)
        }
        var cylinders: [Cylinder] = []
        for slot in slots.keys.sorted() {
            let fields = slots[slot]!
            func value(_ field: String) -> Double? {
                guard let (name, v) = fields[field] else { return nil }
                return number(v, name, path: "\(path)/\(name)")
            }
            let o2 = value("O2"), he = value("HE")
            let type = fields["TYPE"]
            guard let o2, o2 != 0 else {
                // An empty slot; helium or a type in it without oxygen is not a gas.
                var stray: [(name: String, value: DM3Value)] = []
                if let h = fields["HE"], let he, he != 0 { stray.append(h) }
                if let t = type, let text = t.value.text, text != "0" { stray.append(t) }
                for (name, v) in stray {
                    report(.dropped, "gas-slot-without-oxygen", "<\(name)> \"\(v.text ?? "")\" is in a gas slot with no oxygen, so no gas; not carried",
                           path: "\(path)/\(name)", line: v.line)
                }
                continue
            }
            if o2 < 0 || o2 > 100 || (he ?? 0) < 0 || o2 + (he ?? 0) > 100 {
                report(.dropped, "mix-invalid", "slot \(slot + 1)'s \(o2) % oxygen and \(he ?? 0) % helium are not a mix; not carried",
                       path: "\(path)/\(fields["O2"]!.name)", line: fields["O2"]!.value.line)
                continue
            }
            var c = Cylinder()
            c.oxygen = o2
            c.helium = he
            cylinders.append(c)
            if let (name, v) = type, let t = v.text {
                report(.dropped, "mix-type-not-carried", "<\(name)> \"\(t)\" is a code Dive Manager does not document; not carried",
                       path: "\(path)/\(name)", line: v.line)
            }
        }
        readVessel(into: &cylinders, path: path)
        return cylinders
    }

    /// The cylinder fields, on the first cylinder (a cylinder of their own, with no gas, when no
    /// slot holds one): size in litres, or in cubic feet of gas at the working pressure
    /// (`<CYLINDERUNITS>` 1); pressures in millibar, 0 being the absent-marker.
    private func readVessel(into cylinders: inout [Cylinder], path: String) {
        let s = scalars
        func at(_ name: String) -> String { "\(path)/\(name)" }
        var c = cylinders.first ?? Cylinder()
        var umilog: [ExtensionValue.Member] = []
        var any = false
        var workingBar: DecimalNumber?
        if let v = s["CYLINDERWORKPRESSURE"], let wp = decimal(v, "CYLINDERWORKPRESSURE", path: at("CYLINDERWORKPRESSURE")) {
            let bar = wp.shifted(by: -3)
            if wp.isZero { zeroPlaceholder("CYLINDERWORKPRESSURE", v, path: at("CYLINDERWORKPRESSURE")) } else if bar.doubleValue > 0 && bar.doubleValue <= 500 {
                workingBar = bar
                // A fact of the vessel, which the model holds on gear only (converting.md):
                // carried under umilog, as the Subsurface reader carries its @workpressure.
                umilog.append(.init("working_pressure", .number(bar.normalized().description)))
                any = true
            } else {
                report(.dropped, "pressure-out-of-range", "<CYLINDERWORKPRESSURE> \(wp) mbar is \(bar) bar, outside 0 to 500 bar; not carried",
                       path: at("CYLINDERWORKPRESSURE"), line: v.line)
            }
        }
        if let v = s["CYLINDERSIZE"], let size = decimal(v, "CYLINDERSIZE", path: at("CYLINDERSIZE")) {
            let units = s["CYLINDERUNITS"]
            if size.isZero { zeroPlaceholder("CYLINDERSIZE", v, path: at("CYLINDERSIZE")) } else if size.isNegative {
                report(.dropped, "size-negative", "<CYLINDERSIZE> \(size) is below zero; not carried", path: at("CYLINDERSIZE"), line: v.line)
            } else {
                switch units?.text {
                case "0":
                    c.volume = size.doubleValue
                    any = true
                case "1":
                    if let wp = workingBar {
                        // Cubic feet of free gas at the working pressure: the water capacity is
                        // that gas at one atmosphere over the pressure in atmospheres.
                        let litres = size.doubleValue * 28.316846592 / (wp.doubleValue / 1.01325)
                        c.volume = (litres * 100).rounded(.toNearestOrAwayFromZero) / 100
                        any = true
                        report(.resolved, "cylinder-cubic-feet",
                               "<CYLINDERSIZE> \(size) with <CYLINDERUNITS> 1 is cubic feet of gas at the working pressure of \(wp.normalized()) bar: a cylinder of \(c.volume!) litres (× 28.317 l/ft³ ÷ (\(wp.normalized()) bar ÷ 1.01325 bar))",
                               path: at("CYLINDERSIZE"), line: v.line)
                    } else {
                        report(.dropped, "cylinder-size-unconvertible",
                               "<CYLINDERSIZE> \(size) is cubic feet of gas (<CYLINDERUNITS> 1) and no working pressure says how much water holds it; not carried",
                               path: at("CYLINDERSIZE"), line: v.line)
                    }
                case nil:
                    report(.dropped, "cylinder-units-absent", "<CYLINDERSIZE> \(size) comes with no <CYLINDERUNITS> to say litres or cubic feet; not carried",
                           path: at("CYLINDERSIZE"), line: v.line)
                case let other?:
                    report(.dropped, "cylinder-units-unknown", "<CYLINDERUNITS> \"\(other)\" is neither 0 (litres) nor 1 (cubic feet); the size \(size) is not carried",
                           path: at("CYLINDERUNITS"), line: units?.line)
                }
            }
        }
        var start: Double?
        for name in ["CYLINDERSTARTPRESSURE", "CYLINDERENDPRESSURE"] {
            guard let v = s[name], let mbar = decimal(v, name, path: at(name)) else { continue }
            let bar = mbar.shifted(by: -3).doubleValue
            if mbar.isZero {
                // converting.md: a start pressure of 0 is a device's absent-marker; an end of 0
                // beside it is the same empty field.
                zeroPlaceholder(name, v, path: at(name))
            } else if bar < 0 || bar > 500 {
                report(.dropped, "pressure-out-of-range", "<\(name)> \(mbar) mbar is \(bar) bar, outside 0 to 500 bar; not carried", path: at(name), line: v.line)
            } else if name == "CYLINDERSTARTPRESSURE" {
                c.startPressure = bar
                start = bar
                any = true
            } else if let start, bar > start {
                report(.dropped, "end-above-start", "<CYLINDERENDPRESSURE> \(bar) bar is above the start's \(start) bar; not carried", path: at(name), line: v.line)
            } else {
                c.endPressure = bar
                any = true
            }
        }
        if let d = s["CYLINDERDESCRIPTION"]?.text {
            umilog.append(.init("description", .string(d)))
            any = true
        }
        if !umilog.isEmpty { c.extensions = .object([.init("umilog", .object(umilog))]) }
        if cylinders.isEmpty {
            guard any else { return }
            report(.absent, "gas-absent", "the cylinder fields describe a cylinder and no gas slot holds a gas; its gas is not recorded", path: path, line: messageLine)
            cylinders.append(c)
        } else {
            cylinders[0] = c
        }
    }
}
