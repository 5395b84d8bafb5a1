import DiveCore

/// A `Dives` row's tanks and its computer: the `O2Fraction…`/`PStart…`/`PEnd…`/`Tank…Idx`
/// columns as cylinders, and the `Log` and `Profile` bytes as a Uwatec Smart dive.
extension SmartTrakReader {
    /// Cylinder `n` from its columns (`O2Fraction`, `PStart`, `PEnd`, `Tank1Idx`, `PPO2Limit`
    /// for the first; `O2Fraction2`, `Tank2Idx`… after), for every `n` the row has columns for.
    func cylinders(_ row: inout AccessRow, _ source: AccessRow) throws -> [Cylinder] {
        var out: [Cylinder] = []
        var n = 1
        while true {
            let s = n == 1 ? "" : String(n)
            let columns = ["O2Fraction\(s)", "HeFraction\(s)", "PStart\(s)", "PEnd\(s)", "Tank\(n)Idx", "PPO2Limit\(s)"]
            guard columns.contains(where: { row.cells[$0] != nil }) else { break }
            defer { n += 1 }
            let o2 = row.cells["O2Fraction\(s)"]?.number ?? 0
            let he = row.cells["HeFraction\(s)"]?.number ?? 0
            let start = row.cells["PStart\(s)"]?.number ?? 0
            let end = row.cells["PEnd\(s)"]?.number ?? 0
            let tankIdx = row.cells["Tank\(n)Idx"]?.number.map { Int($0) }
            let tank = try tankGear(tankIdx)
            guard o2 > 0 || he > 0 || start > 0 || end > 0 || tank != nil else {
                for c in columns.prefix(5) where row.cells[c]?.number == 0 { row.cells.removeValue(forKey: c); zeroAsBlank(source, c) }
                if tankIdx != nil { row.cells.removeValue(forKey: "Tank\(n)Idx") }
                continue
            }
            var c = Cylinder()
            c.gasNumber = n
            for col in columns.prefix(5) { row.cells.removeValue(forKey: col) }
            if o2 > 0 {
                if o2 <= 100 { c.oxygen = o2 } else { report(.dropped, "value-out-of-range", "O2Fraction\(s) is \(o2) %, above 100; not carried", at: location(source, "O2Fraction\(s)")) }
            }
            if he > 0, he + (c.oxygen ?? 0) <= 100 { c.helium = he }
            if start > 0 { c.startPressure = start }
            if end > 0 { c.endPressure = end }
            if let limit = row.take("PPO2Limit\(s)")?.number, limit > 0 { c.ppo2Limit = limit }
            if let tank {
                c.gearUUID = tank.uuid
                c.volume = tank.volume
            }
            out.append(c)
        }
        return out
    }

    /// A `Tank` row as cylinder gear, made once: its name, volume (l), nominal pressure (bar) as
    /// working pressure and `TankType` as material.
    private func tankGear(_ idx: Int?) throws -> GearItem? {
        guard var t = try lookup("Tank", idx) else { return nil }
        if let uuid = made["Tank#\(t.row)"] { return header.gear.first { $0.uuid == uuid } }
        t.cells.removeValue(forKey: "Idx")
        guard let name = t.text("Text") else {
            made["Tank#\(t.row)"] = ""
            leftovers(t)
            return nil
        }
        var g = GearItem(uuid: Identity.uuid(kind: "gear", sourceID: "tank:\(idx!)", namespace: Self.namespace), name: name, type: .cylinder)
        if let v = t.take("Volume")?.number { if v > 0 { g.volume = v } else { zeroAsBlank(t, "Volume") } }
        if let p = t.take("NominalPressure")?.number { if p > 0 { g.workingPressure = p } else { zeroAsBlank(t, "NominalPressure") } }
        if var type = try lookup("TankType", t.int("TankTypeIdx")) {
            type.cells.removeValue(forKey: "Idx")
            if let text = type.text("Text") {
                let l = text.lowercased()
                g.material = l.contains("steel") ? .steel : l.contains("alu") ? .aluminium : l.contains("carbon") ? .carbon : nil
                if g.material == nil { g.notes = "Type: \(text)" }
            }
            if made["TankType#\(type.row)"] == nil { made["TankType#\(type.row)"] = ""; leftovers(type) }
        }
        if let notes = t.text("Notes") { g.notes = [g.notes, notes].compactMap { $0 }.joined(separator: "\n") }
        leftovers(t)
        made["Tank#\(t.row)"] = g.uuid
        header.gear.append(g)
        return g
    }

    // MARK: The computer

    /// `DiveComputerType` (its low byte, the Uwatec model code), `DiveComputerNumber` (the
    /// serial), and `Log` + `Profile` decoded as that model's dive.
    func readComputer(_ row: inout AccessRow, _ source: AccessRow, into d: inout Dive) throws {
        let type = row.int("DiveComputerType") ?? 0
        let serial = row.int("DiveComputerNumber") ?? 0
        var log: [UInt8] = [], profile: [UInt8] = []
        if case .binary(let b)? = row.take("Log") { log = b }
        if case .binary(let b)? = row.take("Profile") { profile = b }
        let code = type & 0xFF
        guard code != 0 else {
            if !log.isEmpty || !profile.isEmpty {
                report(.dropped, "profile-without-computer", "the dive names no computer (DiveComputerType 0) but holds \(log.count + profile.count) bytes of computer data, which cannot be read without knowing the computer; not carried",
                       at: location(source, "Profile"))
            }
            return
        }
        var rec = Recording()
        var device = Device()
        if serial > 0 { device.serial = String(serial) }
        let model = UwatecSmartDive.model(code)
        if let model {
            let brands = Set(model.names.map(\.brand))
            if brands.count == 1 {
                device.brand = model.names[0].brand
                device.model = model.names.map(\.model).joined(separator: " or ")
            } else {
                device.model = model.names.map { "\($0.brand) \($0.model)" }.joined(separator: " or ")
            }
        }
        defer {
            if !device.isEmpty { rec.device = device }
            if rec.hasContent {
                if d.recordings.isEmpty { d.recordings = [rec] } else { d.recordings[0] = rec }
            }
        }
        guard !log.isEmpty || !profile.isEmpty else { return }
        guard let model else {
            report(.dropped, "computer-unknown", "the computer's model code \(code) (DiveComputerType \(type)) is none libdivecomputer reads as a Uwatec Smart; its \(log.count + profile.count) bytes of dive data are not read",
                   at: location(source, "DiveComputerType"))
            return
        }
        if log.count < 20 {
            report(.dropped, "profile-datatrak", "the dive's computer data came from DataTrak (a \(log.count)-byte header, an Aladin's profile behind it), which SmartTRAK keeps without the header the profile needs; not read",
                   at: location(source, "Log"))
            return
        }
        var dive: UwatecSmartDive
        do { dive = try UwatecSmartDive(model: model, bytes: log + profile) } catch {
            report(.dropped, "profile-unreadable", "the computer data (\(log.count + profile.count) bytes) is not a \(device.model ?? "Uwatec") dive (\(describe(error, dive: nil))); not read",
                   at: location(source, "Log"))
            return
        }
        if dive.statedLength != log.count + profile.count {
            report(.resolved, "length-differs", "the computer data says it is \(dive.statedLength) bytes long, and \(log.count + profile.count) are stored; the bytes stored are read",
                   at: location(source, "Log"))
        }
        readHeader(dive, source, into: &d, recording: &rec)
        rec.profile = readSamples(&dive, source, cylinders: &d.cylinders)
    }

    private func describe(_ error: UwatecSmartDive.Failure, dive: UwatecSmartDive?) -> String {
        switch error {
        case .tooShort(let need): return "shorter than the \(need)-byte header"
        case .badMagic: return "it does not open with A5 A5 5A 5A"
        case .badTypeBits(let at): return "no sample type begins at byte \(at)"
        case .cut(let at): return "a sample is cut short at byte \(at)"
        }
    }

    /// The header: water type and mode from the settings word, the computer's clock, maximum
    /// depth, dive time, temperatures and gases, each checked against the row's.
    private func readHeader(_ dive: UwatecSmartDive, _ source: AccessRow, into d: inout Dive, recording rec: inout Recording) {
        let at = location(source, "Log")
        if dive.settings != nil {
            rec.salinity = dive.salt ? .salt : .fresh
            rec.mode = dive.freedive ? .freedive : dive.gauge ? .gauge : .openCircuit
        } else {
            tally.add("fresh-assumed", .inferred, "smarttrak.depth-fresh-water", at: at) { n in
                "\(n == 1 ? "a dive's computer keeps" : "\(n) dives' computers keep") no water type; their depths are read as fresh water's (1000 kg/m³), as libdivecomputer reads them and as SmartTRAK's own maximum depth shows"
            }
        }
        // The computer's clock: half seconds since 2000-01-01 UTC, with its UTC offset for a
        // model that keeps one. Where it reads as the logbook's start, that offset is the dive's.
        let unix = 946_684_800 + dive.clock / 2
        if let q = dive.timezoneQuarters, let clock = DiveDateTime(unixSeconds: unix, offset: .minutes(q * 15)) {
            if let start = d.startedAt, start.time != nil, start.wallClockSeconds == clock.wallClockSeconds {
                d.startedAt?.offset = clock.offset
                tally.add("offset", .resolved, "smarttrak.offset-from-computer", at: at) { n in
                    "\(n == 1 ? "a dive's" : "\(n) dives'") start\(n == 1 ? " is" : "s are") the computer's clock to the second; the UTC offset the computer keeps (its byte 16, quarter hours) is carried with \(n == 1 ? "it" : "them")"
                }
            } else {
                clockDiffers(clock.description, d.startedAt, at: at)
            }
        } else if let clock = DiveDateTime(unixSeconds: unix, offset: .utc) {
            let wall = DiveDateTime(date: clock.date, time: clock.time, offset: nil)
            if let start = d.startedAt, start.time != nil, start.wallClockSeconds == wall.wallClockSeconds {
                tally.add("clock-agrees", .resolved, "smarttrak.clock-agrees", at: at) { n in
                    "\(n == 1 ? "a dive's" : "\(n) dives'") start\(n == 1 ? " is" : "s are") the computer's clock to the second (a clock with no UTC offset)"
                }
            } else {
                clockDiffers(wall.description, d.startedAt, at: at)
            }
        }
        let maxDepth = dive.maxDepth
        if let m = d.maxDepth {
            if abs(m - maxDepth) > 0.01 {
                report(.dropped, "max-depth-differs", "the computer's maximum depth \(round2(maxDepth)) m differs from the logbook's \(round2(m)) m; the logbook's is kept", at: at)
            }
        } else if maxDepth > 0 {
            d.maxDepth = maxDepth
        }
        let minutes = dive.diveMinutes
        if let t = d.submergedTime {
            if t != minutes * 60 {
                report(.dropped, "dive-time-differs", "the computer's dive time \(minutes) min differs from the logbook's \(t / 60) min \(t % 60) s; the logbook's is kept", at: at)
            }
        } else if minutes > 0 {
            d.submergedTime = minutes * 60
        }
        let tMin = dive.tempMinimum
        if let b = d.bottomTemperature {
            if abs(b - tMin) > 0.05 {
                report(.dropped, "temperature-differs", "the computer's lowest water temperature \(tMin) °C differs from the logbook's \(b) °C; the logbook's is kept", at: at)
            }
        } else if tMin != 0 {
            d.bottomTemperature = tMin
        }
        for (value, what) in [(dive.tempMaximum, "highest water temperature"), (dive.tempSurface, "surface temperature")] {
            guard let value else { continue }
            tally.add("header.\(what)", .dropped, "smarttrak.computer-temperature", at: at) { n in
                "the computer's \(what) has no place in umilog's model; \(n == 1 ? "one dive holds" : "\(n) dives hold it, the first") \(value) °C; not carried"
            }
        }
        let (gases, tanks) = dive.headerGases()
        reconcile(gases: gases, tanks: tanks, into: &d.cylinders, at: at)
    }

    private func clockDiffers(_ clock: String, _ start: DiveDateTime?, at: SourceLocation) {
        let logbook = start?.description ?? "none"
        tally.add("clock-differs", .dropped, "smarttrak.clock-differs", at: at) { n in
            "the computer's clock at the dive differs from the logbook's start in \(n == 1 ? "one dive" : "\(n) dives") (the first: \(clock) against \(logbook)); the logbook's start, which SmartTRAK shows and lets the diver correct, is kept"
        }
    }

    /// The computer's gases (whole % oxygen) and tank pressures (1/128 bar) against the row's
    /// cylinders: one the row lacks is added; one that differs is said, the row's kept.
    func reconcile(gases: [UwatecSmartDive.Gas], tanks: [UwatecSmartDive.Tank], into cylinders: inout [Cylinder], at: SourceLocation) {
        let ids = Set(gases.map(\.id)).union(tanks.map(\.id)).sorted()
        for id in ids {
            let gas = gases.first { $0.id == id }, tank = tanks.first { $0.id == id }
            let number = id + 1
            let o2 = gas.map { Double($0.oxygen) }, he = gas.flatMap { $0.helium > 0 ? Double($0.helium) : nil }
            let begin = tank.map { Double($0.begin) / 128 }, end = tank.map { Double($0.end) / 128 }
            guard let i = cylinders.firstIndex(where: { $0.gasNumber == number }) else {
                var c = Cylinder()
                c.gasNumber = number
                c.oxygen = o2
                c.helium = he
                c.startPressure = begin
                c.endPressure = end
                cylinders.append(c)
                continue
            }
            var differs: [String] = []
            func check(_ mine: Double?, _ theirs: Double?, _ what: String, _ unit: String, set: (inout Cylinder, Double) -> Void) {
                guard let theirs else { return }
                if let mine {
                    if abs(mine - theirs) > 0.01 { differs.append("\(what) \(round2(theirs)) \(unit) against \(round2(mine))") }
                } else {
                    set(&cylinders[i], theirs)
                }
            }
            check(cylinders[i].oxygen, o2, "oxygen", "%") { $0.oxygen = $1 }
            check(cylinders[i].helium, he, "helium", "%") { $0.helium = $1 }
            check(cylinders[i].startPressure, begin, "start pressure", "bar") { $0.startPressure = $1 }
            check(cylinders[i].endPressure, end, "end pressure", "bar") { $0.endPressure = $1 }
            if !differs.isEmpty {
                report(.dropped, "gas-differs", "the computer's gas \(number) says \(differs.joined(separator: ", ")) in the logbook; the logbook's is kept", at: at)
            }
        }
        cylinders.sort { ($0.gasNumber ?? 0) < ($1.gasNumber ?? 0) }
    }

    /// The samples as a profile: depth, temperature, each tank's pressure, the computer's
    /// bookmarks, warnings and gas switches; what the model has no channel for is said.
    private func readSamples(_ dive: inout UwatecSmartDive, _ source: AccessRow, cylinders: inout [Cylinder]) -> Profile? {
        var depth = Series(), temperature = Series()
        var pressures: [Int: Series] = [:]
        var events: [Event] = []
        var previous: [Int]? = nil
        var gasmix: Int? = nil
        var last = 0, dropped = 0, count = 0
        var rbt = 0, heart = 0, bearing = 0, workload = 0, unknownBits = 0
        let density = dive.density
        let limit = InputLimits.samplesPerDive
        let alarms = dive.model.alarms
        var failure: UwatecSmartDive.Failure?
        do {
            try dive.samples { s in
                count += 1
                guard count <= limit else { dropped += 1; return }
                let ms = s.time * 1000
                last = ms
                if let raw = s.depthRaw { depth.append(ms, Int((Double(raw) * 2000 / density).rounded())) }
                if let t = s.temperatureRaw { temperature.append(ms, t * 40) }
                if let p = s.pressureRaw { pressures[s.tank + 1, default: Series()].append(ms, Int((Double(p) * 2.5).rounded())) }
                if s.rbt != nil { rbt += 1 }
                if s.heartRate != nil { heart += 1 }
                if s.bearing != nil { bearing += 1 }
                if gasmix != nil, s.gasmix != gasmix { events.append(Event(time: ms, type: .gasSwitch, gasNumber: s.gasmix + 1)) }
                gasmix = s.gasmix
                for (i, byte) in s.alarmBytes.enumerated() {
                    let risen = byte & ~(previous?[i] ?? 0)
                    for bits in alarms[i] where byte & bits.mask != 0 {
                        switch bits.alarm {
                        case .bookmark where risen & bits.mask != 0: events.append(Event(time: ms, type: .bookmark))
                        case .warning where risen & bits.mask != 0: events.append(Event(time: ms, label: "warning"))
                        case .alarm where risen & bits.mask != 0: events.append(Event(time: ms, label: "alarm"))
                        case .workloadWarning where risen & bits.mask != 0: events.append(Event(time: ms, label: "workload warning"))
                        case .workload: workload += 1
                        case .unknown: unknownBits += 1
                        default: break
                        }
                    }
                }
                previous = s.alarmBytes
            }
        } catch {
            failure = error
        }
        let at = location(source, "Profile")
        if let failure {
            report(.dropped, "profile-cut", "the profile breaks off (\(describe(failure, dive: dive))); the \(depth.count) samples before are kept, the rest is not read", at: at)
        }
        if dropped > 0 {
            report(.dropped, "samples-truncated", "the profile holds more than \(limit) samples; the last \(dropped) are not read", at: at)
        }
        for (n, what) in [(rbt, "remaining bottom time"), (heart, "heart rate"), (bearing, "compass bearing"), (workload, "workload level"), (unknownBits, "alarm bits no public source names")] where n > 0 {
            tally.add("channel.\(what)", .dropped, "smarttrak.channel-not-carried", at: at) { dives in
                "the computer's \(what) samples have no channel in umilog's model; \(dives == 1 ? "one dive holds" : "\(dives) dives hold") them (\(n) in the first); not carried"
            }
        }
        // Gases the samples declare (the trimix models) are cylinders too.
        reconcile(gases: dive.streamGases, tanks: dive.streamTanks, into: &cylinders, at: at)
        var p = Profile()
        p.duration = last
        if !depth.isEmpty { p.depth = depth }
        if !temperature.isEmpty { p.temperature = temperature }
        for number in pressures.keys.sorted() {
            if !cylinders.contains(where: { $0.gasNumber == number }) {
                var c = Cylinder()
                c.gasNumber = number
                cylinders.append(c)
            }
            p.pressures.append(PressureSeries(gasNumber: number, series: pressures[number]!))
        }
        p.events = events
        return p.isEmpty ? nil : p
    }
}

func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }
