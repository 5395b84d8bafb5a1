import DiveCore

/// What the first pass gathers from the configuration and measurement records.
struct DivesoftSettings {
    var mixes: [DivesoftMix] = []
    /// Each tank of an AI configuration record: its mix (index into `mixes`), transmitter, volume and rated pressure.
    var tanks: [(mix: Int, transmitter: Int, volume: Int, rated: Int)] = []
    var deco: DecoModel?
    var salinity: Salinity?
    var serial: String?
    var firmware: String?
    var position: Position?
    /// First and last pressure (bar) per tank index.
    var pressures: [Int: (first: Int, last: Int)] = [:]

    mutating func mix(_ m: DivesoftMix) -> Int {
        if let i = mixes.firstIndex(of: m) { return i }
        mixes.append(m)
        return mixes.count - 1
    }
}

extension DivesoftReader {
    static func mode(_ m: Int) -> (RecordingMode?, DiveType?)? {
        switch m {
        case 1: return (.openCircuit, .openCircuit)
        case 2, 3, 8: return (.closedCircuit, .closedCircuit)
        case 4: return (.freedive, .freedive)
        case 5: return (.gauge, nil)
        case 6, 7: return (.semiClosed, .semiClosed)
        default: return nil
        }
    }

    static func isLoop(_ m: Int) -> Bool { [2, 3, 6, 7, 8].contains(m) }

    func build() throws -> Dive {
        let v1 = headerSize == 32
        // The header.
        let stamp = u32(8)
        let duration: Int, modeNumber: Int, minTemp: Int, maxDepth: Int, atmospheric: Int
        var avgDepth: Int?, offset: UTCOffset?
        var diluent: (Int, Int)?
        if v1 {
            let misc1 = u32(12), misc2 = u32(16)
            duration = misc1 & 0x1FFFF
            modeNumber = (misc1 >> 27) & 7
            let t = (misc2 >> 18) & 0x3FF
            minTemp = t >= 512 ? t - 1024 : t
            maxDepth = u16(20)
            atmospheric = u16(24)
            if u8(26) != 0 || u8(27) != 0 { diluent = (u8(26), u8(27)) }
            let unknown = [(12, "bits 17–26 and 30–31 of the word at byte 12", misc1 & ~0x3800_0000 & ~0x1FFFF),
                           (16, "bits 0–17 and 28–31 of the word at byte 16", misc2 & ~0x0FFC_0000),
                           (22, "bytes 22–23", u16(22)), (28, "bytes 28–31", u32(28))].filter { $0.2 != 0 }
            for (at, what, value) in unknown { drop("header \(what) (\(hex(value))), whose meaning no public source gives", at: at) }
        } else {
            duration = u32(12)
            modeNumber = u8(18)
            minTemp = Int(Int16(truncatingIfNeeded: u16(24)))
            maxDepth = u16(28)
            atmospheric = u16(32)
            avgDepth = u16(38)
            offset = .minutes(Int(Int16(truncatingIfNeeded: u16(40))))
            for (range, what) in [(16..<18, "bytes 16–17"), (19..<24, "bytes 19–23"), (26..<28, "bytes 26–27"),
                                  (30..<32, "bytes 30–31"), (34..<38, "bytes 34–37"), (42..<52, "bytes 42–51")]
            where range.contains(where: { u8($0) != 0 }) {
                drop("header \(what), whose meaning no public source gives", at: range.lowerBound)
            }
        }

        var s = try settings(loop: Self.isLoop(modeNumber), diluent: diluent)
        if !v1, s.serial == nil {
            let text = (52..<64).map { Character(UnicodeScalar(UInt8(u8($0)))) }
            s.serial = String(text[0..<4]) + "-" + String(text[4...])
        }

        // The dive.
        let local = stamp + Divesoft.epochOffset
        let start: DiveDateTime? = offset.map { DiveDateTime(unixSeconds: local, offset: $0) }
            ?? DiveDateTime(unixSeconds: local, offset: .utc).map { DiveDateTime(date: $0.date, time: $0.time, offset: nil) }
        if offset == nil {
            report(.absent, "offset-absent", "a version 1 header records no time zone: the start is the computer's wall clock", at: 8)
        }
        let name = "dive:\(s.serial ?? "")@\(stamp)"
        var dive = Dive(uuid: Identity.uuid5(namespace: Divesoft.namespace, name: name), startedAt: start)
        dive.provenance = Provenance(format: "divesoft-dlf", file: displayName, index: 0)
        dive.submergedTime = duration
        dive.maxDepth = Double(maxDepth) / 100
        dive.avgDepth = avgDepth.map { Double($0) / 100 }
        dive.bottomTemperature = Double(minTemp) / 10
        dive.entryPosition = s.position
        var rec = Recording()
        if let m = Self.mode(modeNumber) {
            rec.mode = m.0
            dive.type = m.1
        } else {
            report(modeNumber == 0 ? .absent : .dropped, "mode-unknown", "the header's dive mode is \(modeNumber), which no public source names; the mode is left absent", at: v1 ? 12 : 18)
        }
        rec.surfacePressure = Double(atmospheric) / 10_000
        rec.salinity = s.salinity
        rec.decoModel = s.deco
        var device = Device()
        device.brand = "Divesoft"
        device.serial = s.serial
        device.firmware = s.firmware
        rec.device = device

        // Cylinders: each tank of an AI record, then each mix no tank holds.
        var cylinderOfMix: [Int: Int] = [:]
        var cylinderOfTransmitter: [Int: Int] = [:]
        func cylinder(_ mix: DivesoftMix) -> Cylinder {
            var c = Cylinder()
            c.oxygen = Double(mix.oxygen)
            c.helium = Double(mix.helium)
            c.role = mix.use == .oxygen ? .oxygen : mix.use == .diluent ? .diluent : nil
            c.gasNumber = dive.cylinders.count + 1
            return c
        }
        for (k, t) in s.tanks.enumerated() {
            var c = cylinder(s.mixes[t.mix])
            if t.volume <= 990 { c.volume = Double(t.volume) / 10 }
            if let p = s.pressures[k] { c.startPressure = Double(p.first * 2); c.endPressure = Double(p.last * 2) }
            if cylinderOfMix[t.mix] == nil { cylinderOfMix[t.mix] = dive.cylinders.count }
            if cylinderOfTransmitter[t.transmitter] == nil { cylinderOfTransmitter[t.transmitter] = dive.cylinders.count }
            dive.cylinders.append(c)
        }
        for (i, m) in s.mixes.enumerated() where cylinderOfMix[i] == nil {
            cylinderOfMix[i] = dive.cylinders.count
            dive.cylinders.append(cylinder(m))
        }

        rec.profile = try profile(&s, cylinderOfMix: cylinderOfMix, cylinderOfTransmitter: cylinderOfTransmitter, cylinders: dive.cylinders)
        dive.recordings = [rec]
        return dive
    }

    /// The first pass: configuration and measurement records.
    func settings(loop: Bool, diluent: (Int, Int)?) throws -> DivesoftSettings {
        var s = DivesoftSettings()
        var previousID: Int?
        var diluents: [DivesoftMix] = []
        var events: [DivesoftMix] = []
        var fixedIDs = 0, fixedAt = 0
        records { o, type, _, id in
            switch type {
            case 6:
                switch id {
                case 4:
                    let misc = u16(o + 4)
                    if misc & 0x20 != 0 {
                        var d = DecoModel(); d.algorithm = "vpm"; s.deco = d
                    } else {
                        var d = DecoModel(); d.algorithm = "buhlmann"; d.gfLow = u8(o + 8); d.gfHigh = u8(o + 9); s.deco = d
                    }
                    s.salinity = misc & 0x02 != 0 ? .salt : .fresh
                case 3:
                    let text = (o + 4..<o + 16).map { Character(UnicodeScalar(UInt8(u8($0)))) }
                    s.serial = String(text[0..<4]) + "-" + String(text[4...])
                case 5:
                    s.firmware = "\(u8(o + 7)).\(u8(o + 8)).\(u8(o + 9)).\(u32(o + 12))"
                    drop("device type number and hardware version in the version record, which name no model a public source lists", at: o)
                case 9:
                    for i in 0..<4 where u8(o + 6 + 3 * i) & 1 != 0 {
                        diluents.append(DivesoftMix(oxygen: u8(o + 4 + 3 * i), helium: u8(o + 5 + 3 * i), use: .diluent))
                    }
                case 7:
                    var gasID = u8(o + 11)
                    // Pre-release firmware numbered the loop's oxygen and diluent 0 and 1 after the
                    // bailouts, rather than 10 and 11 (libdivecomputer's reading).
                    if gasID < 10, let p = previousID, gasID <= p {
                        gasID += 10
                        if fixedIDs == 0 { fixedAt = o }
                        fixedIDs += 1
                    }
                    previousID = gasID
                    let use: DivesoftMix.Use = gasID == 10 ? .oxygen : gasID == 11 ? .diluent : .openCircuit
                    let m = s.mix(DivesoftMix(oxygen: u8(o + 4), helium: u8(o + 5), use: use))
                    s.tanks.append((m, u8(o + 10), u16(o + 6), u16(o + 8)))
                    drop("tank rated pressure in the AI configuration record, which umilog's cylinder does not hold", at: o)
                default:
                    drop(["CCR full test", "CCR partial test", "oxygen sensor calibration", "", "", "", "ascent settings", "", "CCR settings"][safe: id].map { "configuration record (\($0))" }
                         ?? "configuration record of number \(id)", at: o)
                }
            case 1...5, 9:
                let event = u16(o + 4)
                if [5, 23, 24].contains(event) {
                    let use: DivesoftMix.Use = event == 23 || (event == 24 && Self.isLoop(u8(o + 8))) ? .diluent : .openCircuit
                    events.append(DivesoftMix(oxygen: u8(o + 6), helium: u8(o + 7), use: use))
                }
            case 7 where id == 7:
                for i in 0..<12 {
                    let p = u8(o + 4 + i)
                    guard p != 0, p != 0xFF, let k = s.tanks.firstIndex(where: { $0.transmitter == i }) else { continue }
                    s.pressures[k] = (s.pressures[k]?.first ?? p, p)
                }
            case 7 where id == 4:
                if s.position == nil {
                    let lat = Double(s32(o + 4)) / 1_000_000, lon = Double(s32(o + 8)) / 1_000_000
                    if abs(lat) <= 90, abs(lon) <= 180 { s.position = Position(latitude: lat, longitude: lon) }
                    else { drop("GPS position off the globe", at: o) }
                } else {
                    drop("GPS position past the first (the dive's place is the first)", at: o)
                }
            default: break
            }
        }
        if fixedIDs > 0 {
            report(.resolved, "gas-id-renumbered", "\(fixedIDs) AI configuration record(s) number the loop's gases below the bailouts' (pre-release firmware): read as the oxygen and the diluent, as libdivecomputer does", at: fixedAt)
        }
        for m in diluents { _ = s.mix(m) }
        if loop, let d = diluent { _ = s.mix(DivesoftMix(oxygen: d.0, helium: d.1, use: .diluent)) }
        else if diluent != nil { drop("header diluent of a dive not on a loop", at: 26) }
        for m in events { _ = s.mix(m) }
        return s
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
