/// A Uwatec Smart-family dive as the computer stores it — what SmartTRAK keeps in a `Dives`
/// row's `Log` (the header) and `Profile` (the samples) columns, one after the other. Facts from
/// libdivecomputer's `uwatec_smart_parser.c` (its tables, read as facts; the code is ours):
///
/// - The header opens `A5 A5 5A 5A`, then the whole dive's length (u32 LE), then the computer's
///   clock at the dive (u32 LE, half seconds since 2000-01-01 UTC). Its size and where its
///   fields sit depend on the model code (``Layout``).
/// - Depths are pressures: a header's maximum depth is `raw / (ρ / 10)` metres and a sample's
///   `(raw − first absolute raw) × 2 / (ρ / 10)` metres, with ρ 1025 kg/m³ when the settings word
///   has its salt bit (`0x100000`) and 1000 otherwise — also for a model with no settings word.
/// - The samples are a bit stream: each begins with type bits (a run of 1s ended by a 0 for the
///   Smart models; one byte's nibbles for the Galileo family), then the value's bits, signed;
///   a relative value adds to the last absolute one. A time sample repeats the current values
///   `n` times; every depth sample closes one sample; samples are 4 s apart (1 s in freedive mode).
/// - Temperatures are `raw / 2.5` °C in samples and `raw / 10` °C in the header (signed);
///   pressures `raw / 4` bar in samples and `raw / 128` bar in the header.
struct UwatecSmartDive {
    struct Layout: Sendable {
        var headerSize: Int
        var maxDepth: Int
        var diveTime: Int
        var gasmix: Int?
        var gases: Int
        var tempMinimum: Int
        var tempMaximum: Int?
        var tempSurface: Int?
        var tankPressure: Int?
        var timezone: Int?
        var settings: Int?
    }

    enum Channel: Sendable { case pressureDepth, rbt, temperature, pressure, depth, heartRate, bearing, alarms, time, apnea, misc }

    /// One row of a model's sample table: the type bits' count, whether the value is absolute,
    /// which tank or alarm byte it is, whether the last type byte's data bits are ignored, and
    /// how many whole bytes follow.
    struct SampleKind: Sendable {
        var channel: Channel
        var absolute: Bool
        var index: Int
        var typeBits: Int
        var ignoreType: Bool
        var extraBytes: Int
        init(_ c: Channel, _ a: Int, _ i: Int, _ t: Int, _ g: Int, _ e: Int) {
            channel = c; absolute = a != 0; index = i; typeBits = t; ignoreType = g != 0; extraBytes = e
        }
    }

    enum Alarm: Sendable { case warning, alarm, workload, workloadWarning, bookmark, gasmix, unknown }
    struct AlarmBits: Sendable {
        var alarm: Alarm
        var mask: Int
        var shift: Int
        init(_ a: Alarm, _ m: Int, _ s: Int) { alarm = a; mask = m; shift = s }
    }

    struct Model: Sendable {
        var code: Int
        var names: [(brand: String, model: String)]
        var layout: Layout
        var samples: [SampleKind]
        var alarms: [[AlarmBits]]
        /// Galileo-family type bits (one byte) rather than the Smart run of 1s.
        var galileoBits: Bool
        /// Tank pressures stored end pressures first, then begin pressures (Galileo family).
        var endFirst: Bool
        var trimix: Bool
        var oxygenBytes: Int = 2
        var freediveBit = true
    }

    // MARK: The tables (libdivecomputer's, as facts)

    static let proHeader = Layout(headerSize: 92, maxDepth: 18, diveTime: 20, gasmix: 24, gases: 1, tempMinimum: 22)
    static let galileoHeader = Layout(headerSize: 152, maxDepth: 22, diveTime: 26, gasmix: 44, gases: 3, tempMinimum: 30, tempMaximum: 28, tempSurface: 32, tankPressure: 50, timezone: 16, settings: 92)
    static let trimixHeader = Layout(headerSize: 84, maxDepth: 22, diveTime: 26, gasmix: nil, gases: 0, tempMinimum: 30, tempMaximum: 28, tempSurface: 32, timezone: 16, settings: 68)
    static let aladinTecHeader = Layout(headerSize: 108, maxDepth: 22, diveTime: 24, gasmix: 30, gases: 1, tempMinimum: 26, tempMaximum: 28, tempSurface: 32, timezone: 16, settings: 52)
    static let aladinTec2GHeader = Layout(headerSize: 116, maxDepth: 22, diveTime: 26, gasmix: 34, gases: 3, tempMinimum: 30, tempMaximum: 28, tempSurface: 32, timezone: 16, settings: 60)
    static let comHeader = Layout(headerSize: 100, maxDepth: 18, diveTime: 20, gasmix: 24, gases: 1, tempMinimum: 22, tankPressure: 30)
    static let tecHeader = Layout(headerSize: 132, maxDepth: 18, diveTime: 20, gasmix: 28, gases: 3, tempMinimum: 22, tankPressure: 34)

    static let proSamples: [SampleKind] = [
        .init(.depth, 0, 0, 1, 0, 0), .init(.temperature, 0, 0, 2, 0, 0), .init(.time, 1, 0, 3, 0, 0), .init(.alarms, 1, 0, 4, 0, 0),
        .init(.depth, 0, 0, 5, 0, 1), .init(.temperature, 0, 0, 6, 0, 1), .init(.depth, 1, 0, 7, 1, 2), .init(.temperature, 1, 0, 8, 0, 2),
    ]
    static let aladinSamples: [SampleKind] = proSamples + [.init(.alarms, 1, 1, 9, 0, 0)]
    static let galileoSamples: [SampleKind] = [
        .init(.depth, 0, 0, 1, 0, 0), .init(.rbt, 0, 0, 3, 0, 0), .init(.pressure, 0, 0, 4, 0, 0), .init(.temperature, 0, 0, 4, 0, 0),
        .init(.time, 1, 0, 4, 0, 0), .init(.heartRate, 0, 0, 4, 0, 0), .init(.alarms, 1, 0, 4, 0, 0), .init(.alarms, 1, 1, 8, 0, 1),
        .init(.depth, 1, 0, 8, 0, 2), .init(.rbt, 1, 0, 8, 0, 1), .init(.temperature, 1, 0, 8, 0, 2), .init(.pressure, 1, 0, 8, 0, 2),
        .init(.pressure, 1, 1, 8, 0, 2), .init(.pressure, 1, 2, 8, 0, 2), .init(.heartRate, 1, 0, 8, 0, 1), .init(.bearing, 1, 0, 8, 0, 2),
        .init(.alarms, 1, 2, 8, 0, 1), .init(.apnea, 1, 0, 8, 0, 0), .init(.misc, 1, 0, 8, 0, 1),
    ]
    static let comSamples: [SampleKind] = [
        .init(.pressureDepth, 0, 0, 1, 0, 1), .init(.rbt, 0, 0, 2, 0, 0), .init(.temperature, 0, 0, 3, 0, 0), .init(.pressure, 0, 0, 4, 0, 1),
        .init(.depth, 0, 0, 5, 0, 1), .init(.temperature, 0, 0, 6, 0, 1), .init(.alarms, 1, 0, 7, 1, 1), .init(.time, 1, 0, 8, 0, 1),
        .init(.depth, 1, 0, 9, 1, 2), .init(.pressure, 1, 0, 10, 1, 2), .init(.temperature, 1, 0, 11, 1, 2), .init(.rbt, 1, 0, 12, 1, 1),
    ]
    static let tecSamples: [SampleKind] = [
        .init(.pressureDepth, 0, 0, 1, 0, 1), .init(.rbt, 0, 0, 2, 0, 0), .init(.temperature, 0, 0, 3, 0, 0), .init(.pressure, 0, 0, 4, 0, 1),
        .init(.depth, 0, 0, 5, 0, 1), .init(.temperature, 0, 0, 6, 0, 1), .init(.alarms, 1, 0, 7, 1, 1), .init(.time, 1, 0, 8, 0, 1),
        .init(.depth, 1, 0, 9, 1, 2), .init(.temperature, 1, 0, 10, 1, 2), .init(.pressure, 1, 0, 11, 1, 2), .init(.pressure, 1, 1, 12, 1, 2),
        .init(.pressure, 1, 2, 13, 1, 2), .init(.rbt, 1, 0, 14, 1, 1),
    ]

    static let tecAlarms: [[AlarmBits]] = [[.init(.warning, 0x01, 0), .init(.alarm, 0x02, 1), .init(.workloadWarning, 0x04, 2), .init(.workload, 0x38, 3), .init(.unknown, 0xC0, 6)]]
    static let aladinTecAlarms: [[AlarmBits]] = [[.init(.warning, 0x01, 0), .init(.alarm, 0x02, 1), .init(.bookmark, 0x04, 2), .init(.unknown, 0x08, 3)], [.init(.unknown, 0xFF, 0)]]
    static let aladinTec2GAlarms: [[AlarmBits]] = [[.init(.warning, 0x01, 0), .init(.alarm, 0x02, 1), .init(.bookmark, 0x04, 2), .init(.unknown, 0x08, 3)], [.init(.unknown, 0x07, 0), .init(.gasmix, 0x18, 3)]]
    static let galileoAlarms: [[AlarmBits]] = [
        [.init(.warning, 0x01, 0), .init(.alarm, 0x02, 1), .init(.workloadWarning, 0x04, 2), .init(.bookmark, 0x08, 3)],
        [.init(.workload, 0x07, 0), .init(.unknown, 0x18, 3), .init(.gasmix, 0x60, 5), .init(.unknown, 0x80, 7)],
        [.init(.unknown, 0xFF, 0)],
    ]
    static let trimixAlarms: [[AlarmBits]] = [galileoAlarms[0], galileoAlarms[1], [.init(.unknown, 0x0F, 0), .init(.gasmix, 0xF0, 4)]]

    static func names(_ list: String) -> [(brand: String, model: String)] {
        list.split(separator: "|").map { entry in
            let parts = entry.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), String(parts[1]))
        }
    }

    /// The model a code names, or nil for a code libdivecomputer does not read as a Smart.
    static func model(_ code: Int) -> Model? {
        let galileoCodes: [Int: String] = [
            0x11: "Uwatec:Galileo Sol|Uwatec:Galileo Luna|Uwatec:Galileo Terra", 0x19: "Uwatec:Galileo Trimix",
            0x15: "Uwatec:Aladin 2G|Uwatec:Aladin Tec 3G|Uwatec:Aladin Sport|Subgear:XP-3G", 0x20: "Scubapro:Meridian|Scubapro:Mantis",
            0x24: "Scubapro:Chromis", 0x26: "Scubapro:Mantis 2", 0x22: "Scubapro:Aladin Square",
        ]
        let trimixCodes: [Int: String] = [
            0x32: "Scubapro:G2|Scubapro:G2 Console", 0x42: "Scubapro:G2 HUD", 0x31: "Scubapro:G2 TEK", 0x34: "Scubapro:G3",
            0x17: "Scubapro:Aladin Sport Matrix|Scubapro:Aladin H Matrix", 0x25: "Scubapro:Aladin A1", 0x28: "Scubapro:Aladin A2",
            0x50: "Scubapro:Luna 2.0 AI", 0x51: "Scubapro:Luna 2.0",
        ]
        if let n = galileoCodes[code] {
            return Model(code: code, names: names(n), layout: galileoHeader, samples: galileoSamples, alarms: galileoAlarms, galileoBits: true, endFirst: true, trimix: false)
        }
        if let n = trimixCodes[code] {
            return Model(code: code, names: names(n), layout: trimixHeader, samples: galileoSamples, alarms: trimixAlarms, galileoBits: true, endFirst: true, trimix: true)
        }
        switch code {
        case 0x10: return Model(code: code, names: names("Uwatec:Smart Pro"), layout: proHeader, samples: proSamples, alarms: tecAlarms, galileoBits: false, endFirst: false, trimix: false)
        case 0x12: return Model(code: code, names: names("Uwatec:Aladin Tec|Uwatec:Aladin Prime|Uwatec:Aladin One"), layout: aladinTecHeader, samples: aladinSamples,
                                alarms: aladinTecAlarms, galileoBits: false, endFirst: false, trimix: false, freediveBit: false)
        case 0x13: return Model(code: code, names: names("Uwatec:Aladin Tec 2G|Uwatec:Aladin 2G|Subgear:XP-10"), layout: aladinTec2GHeader, samples: aladinSamples,
                                alarms: aladinTec2GAlarms, galileoBits: false, endFirst: false, trimix: false, oxygenBytes: 1, freediveBit: false)
        case 0x14: return Model(code: code, names: names("Uwatec:Smart Com"), layout: comHeader, samples: comSamples, alarms: tecAlarms, galileoBits: false, endFirst: false, trimix: false)
        case 0x18: return Model(code: code, names: names("Uwatec:Smart Tec"), layout: tecHeader, samples: tecSamples, alarms: tecAlarms, galileoBits: false, endFirst: false, trimix: false)
        case 0x1C: return Model(code: code, names: names("Uwatec:Smart Z|Subgear:XP Air"), layout: tecHeader, samples: tecSamples, alarms: tecAlarms, galileoBits: false, endFirst: false, trimix: false)
        default: return nil
        }
    }

    // MARK: Reading

    struct Gas: Sendable, Equatable { var id: Int; var oxygen: Int; var helium: Int }
    struct Tank: Sendable, Equatable { var id: Int; var begin: Int; var end: Int }

    /// A sample as the stream closes it: every value the computer holds at `time`.
    struct Sample: Sendable {
        var time: Int
        var depthRaw: Int?
        var temperatureRaw: Int?
        var pressureRaw: Int?
        var tank: Int
        var gasmix: Int
        var rbt: Int?
        var heartRate: Int?
        var bearing: Int?
        /// Each alarm byte as last recorded (state, not news: an event is a bit's rise).
        var alarmBytes: [Int]
    }

    enum Failure: Error, Equatable {
        case tooShort(need: Int)
        case badMagic
        case badTypeBits(offset: Int)
        case cut(offset: Int)
    }

    let model: Model
    let bytes: [UInt8]
    let layout: Layout

    init(model: Model, bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        var model = model
        // A Galileo whose byte 43 has its top bit writes the trimix header (84 bytes).
        if model.code == 0x11 || model.code == 0x19 {
            guard bytes.count >= 44 else { throw .tooShort(need: 44) }
            if bytes[43] & 0x80 != 0 { model.layout = Self.trimixHeader; model.alarms = Self.trimixAlarms; model.trimix = true }
        }
        self.model = model
        layout = model.layout
        guard bytes.count >= layout.headerSize else { throw .tooShort(need: layout.headerSize) }
        guard bytes[0] == 0xA5, bytes[1] == 0xA5, bytes[2] == 0x5A, bytes[3] == 0x5A else { throw .badMagic }
    }

    func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    func s16(_ at: Int) -> Int { Int(Int16(truncatingIfNeeded: u16(at))) }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }

    /// The length the header's bytes 4–7 give the whole dive.
    var statedLength: Int { u32(4) }
    /// The computer's clock at the dive: half seconds since 2000-01-01T00:00:00Z.
    var clock: Int { u32(8) }
    /// The computer's UTC offset in quarter hours, for a model that keeps one.
    var timezoneQuarters: Int? { layout.timezone.map { Int(Int8(bitPattern: bytes[$0])) } }
    var settings: Int? { layout.settings.map { u32($0) } }
    var salt: Bool { (settings ?? 0) & 0x100000 != 0 }
    /// Water density the depths are computed with, kg/m³.
    var density: Double { salt ? 1025 : 1000 }
    var gauge: Bool { (settings ?? 0) & 0x1000 != 0 }
    var freedive: Bool { model.freediveBit && (settings ?? 0) & 0x80 != 0 }
    var maxDepth: Double { Double(u16(layout.maxDepth)) / (density / 10) }
    var diveMinutes: Int { u16(layout.diveTime) }
    var tempMinimum: Double { Double(s16(layout.tempMinimum)) / 10 }
    var tempMaximum: Double? { layout.tempMaximum.map { Double(s16($0)) / 10 } }
    var tempSurface: Double? { layout.tempSurface.map { Double(s16($0)) / 10 } }
    /// Seconds between samples.
    var interval: Int { freedive ? 1 : 4 }

    /// The header's gases (oxygen in whole percent; 0 is no gas) and tanks (pressures in 1/128 bar).
    func headerGases() -> (gases: [Gas], tanks: [Tank]) {
        guard let at = layout.gasmix else { return ([], []) }
        var gases: [Gas] = [], tanks: [Tank] = []
        for i in 0..<layout.gases {
            let o2 = model.oxygenBytes == 1 ? Int(bytes[at + i]) : u16(at + 2 * i)
            if o2 != 0 { gases.append(Gas(id: i, oxygen: o2, helium: 0)) }
            guard let p = layout.tankPressure, !freedive else { continue }
            let (begin, end) = model.endFirst ? (u16(p + 2 * i + 2 * layout.gases), u16(p + 2 * i)) : (u16(p + 4 * i), u16(p + 4 * i + 2))
            if (begin != 0 || end != 0) && begin != 0xFFFF && end != 0xFFFF { tanks.append(Tank(id: i, begin: begin, end: end)) }
        }
        return (gases, tanks)
    }

    /// Gases and tanks the samples' "misc" records declare (the trimix models' way), by id.
    private(set) var streamGases: [Gas] = []
    private(set) var streamTanks: [Tank] = []

    /// Walks the sample stream, calling `emit` for each closed sample; throws where the stream
    /// breaks (the samples before are kept by the caller).
    mutating func samples(_ emit: (Sample) -> Void) throws(Failure) {
        let table = model.samples
        var offset = layout.headerSize
        var time = 0, complete = 0
        var depth = 0, calibration: Int?
        var temperature: Int?, pressure = 0, havePressure = false, tank = 0, gasmix = 0
        var rbt: Int?, heart: Int?, bearing: Int?
        var alarmBytes = [Int](repeating: 0, count: model.alarms.count)
        while offset < bytes.count {
            let id: Int
            if model.galileoBits {
                let v = Int(bytes[offset])
                id = v & 0x80 == 0 ? 0 : v & 0xE0 == 0x80 ? 1 : v & 0xF0 != 0xF0 ? (v & 0x70) >> 4 : (v & 0x0F) + 7
            } else {
                var count = 0
                scan: for i in offset..<bytes.count {
                    for j in 0..<8 {
                        if bytes[i] & (0x80 >> j) == 0 { break scan }
                        count += 1
                    }
                }
                id = count
            }
            guard id < table.count else { throw .badTypeBits(offset: offset) }
            let kind = table[id]
            offset += kind.typeBits / 8
            var nbits = 0, value = 0
            let n = kind.typeBits % 8
            if n > 0 {
                guard offset < bytes.count else { throw .cut(offset: offset) }
                nbits = 8 - n
                value = Int(bytes[offset]) & (0xFF >> n)
                if kind.ignoreType { nbits = 0; value = 0 }
                offset += 1
            }
            guard offset + kind.extraBytes <= bytes.count else { throw .cut(offset: offset) }
            for _ in 0..<kind.extraBytes {
                nbits += 8
                value = value << 8 | Int(bytes[offset])
                offset += 1
            }
            let signed = nbits > 0 && value & (1 << (nbits - 1)) != 0 ? value - (1 << nbits) : value
            switch kind.channel {
            case .pressureDepth:
                pressure += Int(Int8(truncatingIfNeeded: signed >> 8))
                depth += Int(Int8(truncatingIfNeeded: signed))
                complete = 1
            case .rbt:
                rbt = kind.absolute ? value : (rbt ?? 0) + signed
            case .temperature:
                temperature = kind.absolute ? signed : (temperature ?? 0) + signed
            case .pressure:
                if kind.absolute {
                    if model.trimix { tank = (value & 0xF000) >> 12; pressure = value & 0x0FFF } else { tank = kind.index; pressure = value }
                    havePressure = true
                    gasmix = tank
                } else {
                    pressure += signed
                }
            case .depth:
                if kind.absolute {
                    depth = value
                    if calibration == nil { calibration = value }
                } else {
                    depth += signed
                }
                complete = 1
            case .heartRate:
                heart = kind.absolute ? value : (heart ?? 0) + signed
            case .bearing:
                bearing = value
            case .alarms:
                guard kind.index < model.alarms.count else { throw .badTypeBits(offset: offset) }
                alarmBytes[kind.index] = value
                for bits in model.alarms[kind.index] where bits.alarm == .gasmix { gasmix = (value & bits.mask) >> bits.shift }
            case .time:
                complete = value
            case .apnea:
                guard offset + 8 <= bytes.count else { throw .cut(offset: offset) }
                offset += 8
            case .misc:
                guard value >= 1, offset + value - 1 <= bytes.count else { throw .cut(offset: offset) }
                let subtype = Int(bytes[offset])
                if (32...41).contains(subtype), value >= 16 {
                    let id = subtype - 32
                    let o2 = u16(offset + 1), he = u16(offset + 3), begin = u16(offset + 5), end = u16(offset + 7)
                    if (o2 != 0 || he != 0), !streamGases.contains(where: { $0.id == id }) { streamGases.append(Gas(id: id, oxygen: o2, helium: he)) }
                    if (begin != 0 || end != 0), begin != 0xFFFF, end != 0xFFFF, !streamTanks.contains(where: { $0.id == id }) {
                        streamTanks.append(Tank(id: id, begin: begin, end: end))
                    }
                }
                offset += value - 1
            }
            while complete > 0 {
                emit(Sample(time: time, depthRaw: calibration.map { depth - $0 }, temperatureRaw: temperature,
                            pressureRaw: havePressure ? pressure : nil, tank: tank, gasmix: gasmix, rbt: rbt, heartRate: heart,
                            bearing: bearing, alarmBytes: alarmBytes))
                bearing = nil
                time += interval
                complete -= 1
            }
        }
    }
}
