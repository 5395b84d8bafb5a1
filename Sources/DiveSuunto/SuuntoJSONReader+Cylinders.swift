import DiveCore
import DiveJSON

/// Cylinders, their pressure channels and the gas switches, by `docs/suunto-json-mapping.md`'s
/// two cylinder sections, the `DiveTime` bound and *Numbering*.
extension SuuntoJSONReader {
    /// The dive's cylinders. Where the header has a gas block it is the list, authoritative,
    /// numbered one-based by the samples; where it has none, a cylinder is listed because the
    /// diver switched to it (chronologically), numbered as the samples state. Either way a
    /// transmitter slot no cylinder claims is evidence of a tank and is appended. The
    /// pressure channels and the switches go onto `profile`, labelled by cylinder position.
    func cylinders(block: [Cylinder]?, streams: SampleStreams, bound: Int?, profile: inout Profile) -> [Cylinder] {
        let events = streams.timeOrdered(streams.events)
        // Tank readings in time order, grouped by slot in the order each slot first reported.
        var slots: [Int] = []
        var bySlot: [Int: [TankReading]] = [:]
        for r in streams.timeOrdered(streams.tanks) {
            if bySlot[r.slot] == nil { slots.append(r.slot) }
            bySlot[r.slot, default: []].append(r)
        }

        var list = block ?? []
        let fromBlock = list.count
        var position: [Int: Int] = [:]
        for i in 0..<fromBlock { position[i + 1] = i }
        func add(_ gas: Int, line: Int, column: Int, path: String, why: String) {
            guard list.count < Self.maxCylinders else {
                report(.dropped, "cylinders-over-cap", "gas \(gas) would be a cylinder past the \(Self.maxCylinders) read from one dive; not carried",
                       path: path, line: line, column: column)
                return
            }
            position[gas] = list.count
            list.append(Cylinder())
            report(.absent, "gas-absent", "gas \(gas) \(why); the export records no gas mixture, size or ppO₂ limit for it, and none is supplied",
                   path: path, line: line, column: column)
        }
        if block == nil {
            for e in events {
                guard let g = e.sourceGas, position[g] == nil else { continue }
                add(g, line: e.line, column: e.column, path: "\(Self.samplesPath)[\(e.k)]", why: "is a cylinder because the diver switched to it")
            }
        }
        for slot in slots where position[slot] == nil {
            guard let first = bySlot[slot]?.first else { continue }
            add(slot, line: first.line, column: first.column, path: "\(Self.samplesPath)[\(first.k)].Cylinders",
                why: "is a cylinder because its transmitter reported, though no switch to it is recorded")
        }

        for slot in slots {
            guard let readings = bySlot[slot] else { continue }
            let name = "Cylinders[].Pressure"
            guard let p = position[slot] else {
                if let r = readings.first {
                    report(.dropped, "pressures-over-cap", "\(readings.count) tank readings of gas \(slot) belong to no cylinder read; not carried",
                           path: "\(Self.samplesPath)[\(r.k)].Cylinders", line: r.line, column: r.column)
                }
                continue
            }
            var series = Series()
            for r in readings {
                // Tenths of a bar from Pascal (the channel's scale), halves away from zero.
                guard let tenths = r.pascal.scaledInteger(-4) else { continue }
                if !series.appendKeepingFirst(r.t, tenths) {
                    count(.dropped, "sample-same-instant", "a tank \"Pressure\" of one gas lands on the millisecond of an earlier one; the first is kept and this one is not carried",
                          pattern: Self.samplesPath + "[]." + name, path: "\(Self.samplesPath)[\(r.k)].Cylinders", line: r.line, column: r.column)
                }
            }
            profile.pressures.append(PressureSeries(gasNumber: p, series: series))
            // A block's pressures are authoritative; telemetry adds nothing to them.
            if p >= fromBlock { telemetryPressures(readings, bound: bound, into: &list[p]) }
        }
        profile.pressures.sort { $0.gasNumber < $1.gasNumber }

        for e in events {
            var event = e.event
            if let g = e.sourceGas {
                if let p = position[g] { event.gasNumber = p } else {
                    report(.dropped, "gas-switch-unknown-gas",
                           "a switch to gas \(g), which the file describes nowhere, is kept as a switch with no cylinder; the number is not carried",
                           path: "\(Self.samplesPath)[\(e.k)]", line: e.line, column: e.column)
                }
            }
            profile.events.append(event)
        }
        return list
    }

    /// A cylinder's start and end pressure from its transmitter: the first and last reading
    /// up to `Header.DateTime + DiveTime` (a transmitter keeps reporting while the diver breaks
    /// down their kit); every reading when the header states no `DiveTime`.
    private func telemetryPressures(_ readings: [TankReading], bound: Int?, into c: inout Cylinder) {
        let within = readings.filter { r in bound.map { r.t <= $0 } ?? true }
        guard let first = within.first, let last = within.last else { return }
        let path = { (r: TankReading) in "\(Self.samplesPath)[\(r.k)].Cylinders" }
        let start = first.pascal.shifted(by: -5), end = last.pascal.shifted(by: -5)
        if start.isZero {
            report(.absent, "pressures-zero", "a transmitter's first reading is 0 bar, a device's mark of a pressure it did not have; no start pressure is carried",
                   path: path(first), line: first.line, column: first.column)
        } else {
            c.startPressure = start.doubleValue
        }
        if let s = c.startPressure, s < end.doubleValue {
            report(.dropped, "end-above-start", "a transmitter's last reading in the dive, \(end) bar, is above its first, \(start) bar; no end pressure is carried",
                   path: path(last), line: last.line, column: last.column)
        } else {
            c.endPressure = end.doubleValue
        }
    }
}
