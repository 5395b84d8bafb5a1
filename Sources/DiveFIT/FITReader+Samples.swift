import DiveCore

/// One channel of samples as read: FIT seconds and the raw integer the profile stores.
struct RawChannel {
    var times: [UInt32] = []
    var values: [Int32] = []
    mutating func add(_ t: UInt32, _ v: Int32) { times.append(t); values.append(v) }
}

/// The sample channels a `record` carries that this reader maps.
enum Channel: Int, CaseIterable {
    /// mm, mm, °C, s, s, %, hundredths of a bar, beats/min, s.
    case depth, ceiling, temperature, ndl, tts, cns, ppo2, heartRate, stopTime
    /// The `record` field each is read from.
    var field: UInt8 {
        switch self {
        case .depth: 92
        case .ceiling: 93
        case .temperature: 13
        case .ndl: 96
        case .tts: 95
        case .cns: 97
        case .ppo2: 129
        case .heartRate: 3
        case .stopTime: 94
        }
    }
}

/// An event as read.
enum RawEvent {
    case gasSwitch(UInt64?)
    case bookmark
    case alert(String)
}

/// One dive's samples as the second pass meets them.
final class DiveDraft {
    var channels = [RawChannel](repeating: RawChannel(), count: Channel.allCases.count)
    var fixes: [(time: UInt32, lat: Int32, lon: Int32, error: Int32?)] = []
    var events: [(time: UInt32, event: RawEvent, at: (index: Int, offset: Int))] = []
    /// Tank pressure by sensor, in order of first appearance (hundredths of a bar).
    var tankSensors: [UInt64] = []
    var tanks: [UInt64: RawChannel] = [:]
    var firstTime: UInt32?
    var records = 0
    var untimed = 0
    var overLimit = 0
}

/// Record field numbers read as something other than a channel.
/// The fields a message carries, by number: a table looked up per field per record.
struct FieldSet: Sendable {
    private var bits = [Bool](repeating: false, count: 256)
    init(_ numbers: [UInt8]) { for n in numbers { bits[Int(n)] = true } }
    @inline(__always) func contains(_ n: UInt8) -> Bool { bits[Int(n)] }
}

/// The `record` fields this reader reads: the channels, a fix and its error, the time.
let recordFieldsRead = FieldSet(Channel.allCases.map(\.field) + [0, 1, 31, 253])
/// The `event` fields read: the kind, its type, its data (both widths), group and time.
let eventFieldsRead = FieldSet([0, 1, 2, 3, 4, 253])
/// The `tank_update` fields read: the transmitter, the pressure, the time.
let tankUpdateFieldsRead = FieldSet([0, 1, 253])

extension FITReader {
    func readRecord(_ frame: FITFrame) {
        guard let w = window(for: frame.timestamp, file: frame.fileIndex, frame: frame) else { return }
        let d = draft(w)
        tallyDeveloperFields(frame)
        guard let t = frame.timestamp else {
            d.untimed += 1
            tally.note(.dropped, "sample-without-time", "a record with no time has no place on the profile; not carried", frame: frame)
            return
        }
        guard d.records < InputLimits.samplesPerDive else {
            d.overLimit += 1
            tally.note(.dropped, "too-many-samples", "records past \(InputLimits.samplesPerDive) in one dive are not read", frame: frame)
            return
        }
        d.records += 1
        if d.firstTime == nil { d.firstTime = t }
        for c in Channel.allCases {
            guard let v = decoder.value(c.field) else { continue }
            let raw: Int64
            switch v {
            case .uint(let u): raw = u > UInt64(Int32.max) ? Int64(Int32.max) : Int64(u)
            case .sint(let s): raw = s
            case .float(let f): raw = f.isFinite && abs(f) < 1e9 ? Int64(f.rounded()) : Int64(Int32.max)
            case .string: continue
            }
            guard raw >= Int64(Int32.min), raw <= Int64(Int32.max) else { continue }
            d.channels[c.rawValue].add(t, Int32(raw))
        }
        if let lat = decoder.value(0)?.intValue, let lon = decoder.value(1)?.intValue,
           let la = Int32(exactly: lat), let lo = Int32(exactly: lon) {
            let error = decoder.value(31)?.intValue.flatMap { Int32(exactly: $0) }
            d.fixes.append((t, la, lo, error))
        }
        decoder.forEachValidField { n in
            if !recordFieldsRead.contains(n) { tally.field(Mesg.record, n, frame: frame) }
        }
    }

    func readEvent(_ frame: FITFrame) {
        let kind = decoder.value(0)?.uintValue
        let event: RawEvent?
        switch kind {
        case 0: // timer: where the dive begins and ends, which the session and the axis say already.
            event = nil
        case 57: event = .gasSwitch(decoder.value(3)?.uintValue.map { $0 & 0x0FFF })
        case 32: event = .bookmark
        case 56:
            if let data = decoder.value(3)?.uintValue {
                event = .alert(FITProfile.diveAlerts[UInt32(truncatingIfNeeded: data)] ?? String(data))
            } else {
                tally.note(.dropped, "alert-without-data", "a dive_alert event names no alert, and an event with no type needs a label; not carried", frame: frame)
                event = nil
            }
        default:
            let name = kind.flatMap { FITProfile.events[UInt32(truncatingIfNeeded: $0)] } ?? kind.map { "number \($0)" } ?? "with no kind"
            tally.note(.dropped, "event-not-carried", "an event \(name) is not a dive event this reader maps; not carried", frame: frame)
            event = nil
        }
        tallyDeveloperFields(frame)
        decoder.forEachValidField { n in
            if !eventFieldsRead.contains(n) { tally.field(Mesg.event, n, frame: frame) }
        }
        guard let event else { return }
        guard let w = window(for: frame.timestamp, file: frame.fileIndex, frame: frame) else { return }
        guard let t = frame.timestamp else {
            tally.note(.dropped, "event-without-time", "an event with no time has no place on the profile; not carried", frame: frame)
            return
        }
        draft(w).events.append((t, event, (frame.index, frame.offset)))
    }

    func readTankUpdate(_ frame: FITFrame) {
        tallyDeveloperFields(frame)
        decoder.forEachValidField { n in
            if !tankUpdateFieldsRead.contains(n) { tally.field(Mesg.tankUpdate, n, frame: frame) }
        }
        guard let w = window(for: frame.timestamp, file: frame.fileIndex, frame: frame) else { return }
        guard let t = frame.timestamp, let p = decoder.value(1)?.uintValue, p <= UInt64(Int32.max) else {
            tally.note(.dropped, "tank-update-incomplete", "a tank_update with no time or no pressure; not carried", frame: frame)
            return
        }
        let sensor = decoder.value(0)?.uintValue ?? UInt64.max
        let d = draft(w)
        if d.tanks[sensor] == nil { d.tankSensors.append(sensor) }
        d.tanks[sensor, default: RawChannel()].add(t, Int32(p))
    }

    func tallyDeveloperFields(_ frame: FITFrame) {
        for f in decoder.currentDeveloperFields {
            let name = plan.files[safe: frame.fileIndex]?.developerNames[UInt16(f.developerIndex) << 8 | UInt16(f.number)]
            tally.developerField(frame.globalNumber, name: name ?? "number \(f.number)", frame: frame)
        }
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

/// What the reader met and did not carry, counted and reported once per kind at the end
/// (DiveCore's ``FindingTally``), located at its first message.
struct FITTally {
    private var tally = FindingTally()
    let file: String

    init(file: String) { self.file = file }

    private static func location(_ file: String, _ frame: FITFrame) -> SourceLocation {
        SourceLocation(file: file, path: "message \(frame.index) (byte \(frame.offset))")
    }

    /// "N × what not carried (the first here)".
    private mutating func notCarried(_ key: String, _ code: String, _ what: @autoclosure @escaping @Sendable () -> String, frame: FITFrame) {
        let file = self.file
        tally.add(key, .dropped, "fit.\(code)", at: Self.location(file, frame)) { "\($0) × \(what()) not carried (the first here)" }
    }

    /// A message of a type the reader does not read.
    mutating func message(_ frame: FITFrame) {
        let g = frame.globalNumber
        notCarried("m\(g)", "not-carried",
                   FITProfile.messageNames[g].map { "\($0) messages (\(g))" } ?? "messages of type \(g), which the FIT profile does not define,",
                   frame: frame)
    }

    /// The fields of each message type the reader reads that it did not carry: one finding per
    /// message type, naming each field with its count (a file repeats them in every record).
    private var fields: [UInt16: (first: FITFrame, counts: [(number: UInt8, count: Int)])] = [:]
    private var fieldOrder: [UInt16] = []

    /// A field of a message the reader reads, which it does not carry.
    mutating func field(_ message: UInt16, _ number: UInt8, frame: FITFrame) {
        if fields[message] == nil {
            fields[message] = (frame, [])
            fieldOrder.append(message)
        }
        if let k = fields[message]!.counts.firstIndex(where: { $0.number == number }) {
            fields[message]!.counts[k].count += 1
        } else {
            fields[message]!.counts.append((number, 1))
        }
    }

    static func fieldName(_ message: UInt16, _ number: UInt8) -> String {
        FITProfile.fieldNames[message]?[number].map { "\($0) (\(number))" } ?? "field \(number) (not in the FIT profile)"
    }

    mutating func developerField(_ message: UInt16, name: String, frame: FITFrame) {
        notCarried("d\(message).\(name)", "developer-field",
                   "\(FITProfile.messageNames[message] ?? "message \(message)") developer field \"\(name)\" (a vendor's own extension; the reader maps the profile)",
                   frame: frame)
    }

    mutating func late(_ frame: FITFrame) {
        notCarried("late", "sample-out-of-order", "samples timed before the dive they follow in the file, already written out,", frame: frame)
    }

    /// Any other repeated finding, keyed by its code and message.
    mutating func note(_ kind: FindingKind, _ code: String, _ message: String, frame: FITFrame) {
        let file = self.file
        tally.add("n\(code)|\(message)", kind, "fit.\(code)", at: Self.location(file, frame)) { $0 == 1 ? message : "\(message) (\($0) times; the first here)" }
    }

    func report(into findings: inout [Finding]) {
        findings += tally.findings()
        for m in fieldOrder {
            guard let f = fields[m] else { continue }
            let name = FITProfile.messageNames[m] ?? "message \(m)"
            let list = f.counts.map { c in (c.count > 1 ? "\(c.count) × " : "") + Self.fieldName(m, c.number) }.joined(separator: ", ")
            findings.append(Finding(.dropped, "fit.not-carried", "\(name) fields a dive log has no member for, not carried: \(list) (the first here)",
                                    at: Self.location(file, f.first)))
        }
    }
}
