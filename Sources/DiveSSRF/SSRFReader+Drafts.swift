import DiveCore
import DiveXML

/// The `.ssrf` element names the reader acts on, matched on their lowercased local name.
enum SSRFTag: UInt8, CaseIterable {
    case other
    case divelog, dives, program, settings, divesites, site, notes, geo, trip, dive
    case divemaster, diveguide, buddy, suit, cylinder, weightsystem, divetemperature, location, picture
    case divecomputer, depth, temperature, surface, water, surfacetime, extradata, tanksensormapping, event, sample
    case filterpresets

    static let byName: [String: SSRFTag] = {
        var out: [String: SSRFTag] = [:]
        for t in allCases where t != .other { out[String(describing: t)] = t }
        return out
    }()
}

/// A `<sample>` attribute, by what the reader does with it.
enum SampleAttribute: Equatable {
    case other
    case time, depth, temp, pressure, sensor, ndl, tts, rbt, inDeco, stoptime, stopdepth, cns
    case dcSuppliedPPO2, setpoint, heartbeat, bearing
    /// Format 1's `@cylinderindex`: the cylinder the sample's `@pressure` is of.
    case cylinderIndex
    /// 2015-era `@o2pressure`: the pressure of the `use='oxygen'` cylinder.
    case o2Pressure
    /// `pressureN`: the pressure of sensor N (Subsurface 4.6 on).
    case pressureN(Int)
    /// `sensorN` (1 to 6): the reading of O₂ cell N.
    case cell(Int)

    /// The attribute as a byte, for ``NameTable``: the plain cases by their order, `pressureN`
    /// from 64, `sensorN` from 128.
    var code: UInt8 {
        switch self {
        case .pressureN(let n): return 64 + UInt8(clamping: min(n, 63))
        case .cell(let n): return 128 + UInt8(clamping: min(n, 63))
        default: return UInt8(Self.plain.firstIndex(of: self) ?? 0)
        }
    }

    init(code: UInt8) {
        switch code {
        case 128...: self = .cell(Int(code - 128))
        case 64...: self = .pressureN(Int(code - 64))
        default: self = Int(code) < Self.plain.count ? Self.plain[Int(code)] : .other
        }
    }

    private static let plain: [SampleAttribute] = [.other, .time, .depth, .temp, .pressure, .sensor, .ndl, .tts, .rbt, .inDeco,
                                                   .stoptime, .stopdepth, .cns, .dcSuppliedPPO2, .setpoint, .heartbeat, .bearing,
                                                   .cylinderIndex, .o2Pressure]

    static func named(_ name: String) -> SampleAttribute {
        switch name {
        case "time": return .time
        case "depth": return .depth
        case "temp": return .temp
        case "pressure": return .pressure
        case "sensor": return .sensor
        case "ndl": return .ndl
        case "tts": return .tts
        case "rbt": return .rbt
        case "in_deco": return .inDeco
        case "stoptime": return .stoptime
        case "stopdepth": return .stopdepth
        case "cns": return .cns
        case "dc_supplied_ppo2": return .dcSuppliedPPO2
        case "po2": return .setpoint
        case "heartbeat": return .heartbeat
        case "bearing": return .bearing
        case "cylinderindex": return .cylinderIndex
        case "o2pressure": return .o2Pressure
        default: break
        }
        if name.hasPrefix("pressure"), let n = Int(name.dropFirst(8)), (0...9).contains(n), name.count == 9 { return .pressureN(n) }
        if name.hasPrefix("sensor"), let n = Int(name.dropFirst(6)), (1...6).contains(n), name.count == 7 { return .cell(n) }
        return .other
    }
}

/// One channel being read: times in ms and integer-scaled values, in file order.
struct ChannelDraft {
    var times: [Int] = []
    var values: [Int] = []
    /// False once a reading came earlier than the one before it.
    var ordered = true

    @inline(__always) mutating func add(_ ms: Int, _ value: Int) {
        if let last = times.last, ms < last { ordered = false }
        times.append(ms)
        values.append(value)
    }

    var isEmpty: Bool { times.isEmpty }
}

/// The extra channels a `<sample>` can feed, carried under the profile's `umilog` extension.
enum ExtraKind: Int, CaseIterable {
    case cell1, cell2, cell3, cell4, cell5, cell6
    case setpoint, heartRate, heading, remainingBottomTime, decoStopTime, decoStopDepth, inDeco

    var name: String {
        switch self {
        case .cell1, .cell2, .cell3, .cell4, .cell5, .cell6: return "sensor_ppo2"
        case .setpoint: return "setpoint"
        case .heartRate: return "heart_rate"
        case .heading: return "heading"
        case .remainingBottomTime: return "remaining_bottom_time"
        case .decoStopTime: return "deco_stop_time"
        case .decoStopDepth: return "deco_stop_depth"
        case .inDeco: return "in_deco"
        }
    }

    var ref: String? { rawValue <= ExtraKind.cell6.rawValue ? String(rawValue + 1) : nil }

    var unit: String? {
        switch self {
        case .cell1, .cell2, .cell3, .cell4, .cell5, .cell6, .setpoint: return "bar"
        case .heartRate: return "beats/min"
        case .heading: return "degrees"
        case .remainingBottomTime, .decoStopTime: return "s"
        case .decoStopDepth: return "m"
        case .inDeco: return nil
        }
    }

    /// The attribute the channel is read from, for findings.
    var attribute: String {
        switch self {
        case .cell1, .cell2, .cell3, .cell4, .cell5, .cell6: return "sensor\(rawValue + 1)"
        case .setpoint: return "po2"
        case .heartRate: return "heartbeat"
        case .heading: return "bearing"
        case .remainingBottomTime: return "rbt"
        case .decoStopTime: return "stoptime"
        case .decoStopDepth: return "stopdepth"
        case .inDeco: return "in_deco"
        }
    }
}

/// An extra channel's readings, exact as written.
struct ExtraDraft {
    var times: [Int] = []
    var values: [DecimalNumber] = []
    var ordered = true

    @inline(__always) mutating func add(_ ms: Int, _ value: DecimalNumber) {
        if let last = times.last, ms < last { ordered = false }
        times.append(ms)
        values.append(value)
    }
}

/// An `<event>` of a `<divecomputer>`, as written.
struct EventDraft {
    var time: Int?
    var name: String?
    var type: Int?
    var flags: Int?
    var value: Int?
    var cylinder: Int?
    var oxygen: DecimalNumber?
    var helium: DecimalNumber?
    var divemode: String?
    var line: Int
    /// Not written as an event: a gas switch inferred where format 1's samples change
    /// `@cylinderindex` (Subsurface's `get_cylinderindex`).
    var inferred = false
}

/// Values refused inside a dive, counted by attribute and cause: one finding each per dive.
struct RefusalTally {
    struct Entry {
        var code: String
        var what: String
        var example: String
        var count: Int
        var line: Int
    }
    private(set) var entries: [Entry] = []
    private var index: [String: Int] = [:]

    mutating func add(code: String, what: String, example: @autoclosure () -> String, line: Int) {
        let key = code + "\u{0}" + what
        if let i = index[key] { entries[i].count += 1; return }
        index[key] = entries.count
        entries.append(Entry(code: code, what: what, example: example(), count: 1, line: line))
    }

    var isEmpty: Bool { entries.isEmpty }
}

/// One `<divecomputer>` (or, in format 1, the dive's own summary and samples, which Subsurface
/// reads into its first computer).
struct DCDraft {
    var index: Int
    var line: Int
    var implicit = false
    var model: String?
    var deviceID: String?
    var diveID: String?
    var dateText: String?
    var timeText: String?
    var duration: Int?
    var lastManualTime: Int?
    var dctype: String?
    var noO2Sensors: Int?
    var maxDepth: DecimalNumber?
    var meanDepth: DecimalNumber?
    var waterTemperature: DecimalNumber?
    var airTemperature: DecimalNumber?
    var depthLine: Int?
    var temperatureLine: Int?
    var surfacePressure: DecimalNumber?
    var salinity: DecimalNumber?
    var surfaceTime: Int?
    var extradata: [(key: String, value: String)] = []
    var mappings: [(sensor: Int, cylinder: Int)] = []
    var events: [EventDraft] = []

    // Samples, channel by channel.
    var samples = 0
    var depth = ChannelDraft()
    var temperature = ChannelDraft()
    var ndl = ChannelDraft()
    var tts = ChannelDraft()
    var cns = ChannelDraft()
    var ppo2 = ChannelDraft()
    var ceiling = ChannelDraft()
    /// Pressure readings by sensor id.
    var pressures: [Int: ChannelDraft] = [:]
    var extras = [ExtraDraft](repeating: ExtraDraft(), count: ExtraKind.allCases.count)

    // What the file states once and each later sample inherits (Subsurface's own reading).
    /// The sensor a bare `@pressure` belongs to, once a `@sensor` has named one.
    var sensor: Int?
    /// The sensor a bare `@pressure` belongs to before any `@sensor`.
    var defaultSensor = 0
    var inDeco = false
    var stopDepth: DecimalNumber?
    /// Format 1's `@cylinderindex` of the samples so far (Subsurface starts at 0).
    var lastCylinderIndex = 0
    /// Samples whose `@po2` was read as the open-circuit computer's ppO₂, not a setpoint.
    var po2AsPPO2 = 0

    init(index: Int, line: Int) { self.index = index; self.line = line }

    var hasSamples: Bool { samples > 0 }
}

/// A `<site>` of `<divesites>`.
struct SiteDraft {
    var id: String?
    var index: Int
    var line: Int
    var name: String?
    var gps: String?
    var description: String?
    var notes: String?
    var geo: [(category: Int?, value: String)] = []
    var unknownGeo: [ExtensionValue] = []
}

/// A `<cylinder>`, as written.
struct CylinderDraft {
    var line: Int
    var size: String?
    var workPressure: String?
    var description: String?
    var o2: String?
    var he: String?
    var start: String?
    var end: String?
    var use: String?
    var depth: String?
}

/// Everything one `<dive>` said, collected until it closes.
struct DiveDraft {
    var index: Int
    var line: Int
    var number: String?
    var date: String?
    var time: String?
    var duration: String?
    var siteID: String?
    var cns: String?
    var otu: String?
    var tags: String?
    var rating: String?
    var stars: [(name: String, value: String)] = []
    var sac: String?
    var invalid: String?
    var tripflag: String?
    var waterSalinity: String?
    var airPressure: String?
    var notes: String?
    var suit: String?
    var buddies: [String] = []
    var guides: [String] = []
    var location: (name: String?, gps: String?, line: Int)?
    var cylinders: [CylinderDraft] = []
    var weights: [(weight: String?, description: String?, line: Int)] = []
    var diveTemperature: (air: String?, water: String?, line: Int)?
    var pictures: [ExtensionValue] = []
    var computers: [DCDraft] = []
    /// The trip the dive sits in, as its `umilog` entry.
    var trip: ExtensionValue?

    /// Values refused inside the dive (units, numbers, clocks), reported once each.
    var refusals = RefusalTally()
    var samplesOverLimit = 0

    init(index: Int, line: Int) { self.index = index; self.line = line }
}
