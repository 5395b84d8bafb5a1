/// A Shearwater computer's own log in the Petrel Native Format (PNF, `log_data.format` `sw-pnf`):
/// 32-byte records, each opening with its type. The layout is libdivecomputer's
/// (`src/shearwater_predator_parser.c`): opening records 0x10–0x19 with the dive's settings,
/// dive samples 0x01 (and freedive samples 0x02, four to a record), tank samples 0xE1, info
/// events 0x30, closing records 0x20–0x29 and a final record 0xFF. Multi-byte numbers are
/// big-endian. Every offset read is range-checked: a short or damaged log is refused with a
/// message, never read past.
struct PetrelNativeLog {
    static let recordSize = 32

    /// A refusal: what is wrong, for a finding.
    struct Failure: Error, Equatable { var message: String }

    /// One dive sample (record 0x01), the fields libdivecomputer reads from it.
    struct Sample {
        /// Tenths of a metre or a foot.
        var depth: Int
        /// The next stop's depth, metres or feet; 0 when not in deco.
        var stopDepth: Int
        /// Minutes.
        var tts: Int
        /// Hundredths of a bar.
        var ppo2: Int
        var o2: Int
        var he: Int
        /// The no-decompression time (not in deco) or the stop's time (in deco), minutes.
        var ndlOrStopTime: Int
        var status: UInt8
        /// °C or °F, as stored (see ``temperature(_:)``).
        var rawTemperature: Int8
        /// Percent.
        var cns: Int
        /// Transmitters 1 and 2: the raw 16-bit fields (2 psi steps in the low 12 bits; 0xFFF0 and
        /// above are states); 3 and 4 from a following 0xE1 record (log version 13 on).
        var tank1: UInt16, tank2: UInt16
        var tank3: UInt16?, tank4: UInt16?

        /// Transmitter `i + 1`'s field (`i` from 0 to 3), where the log has one.
        func tank(_ i: Int) -> UInt16? {
            switch i {
            case 0: return tank1
            case 1: return tank2
            case 2: return tank3
            default: return tank4
            }
        }

        /// Open circuit, per the status byte's 0x10 bit; closed otherwise, semi-closed with 0x08.
        var isOpenCircuit: Bool { status & 0x10 != 0 }
        var isSemiClosed: Bool { !isOpenCircuit && status & 0x08 != 0 }
    }

    /// One freedive sample (a quarter of a 0x02 record).
    struct FreediveSample {
        /// Absolute pressure, millibar.
        var pressure: Int
        /// Tenths of a °C.
        var temperature: Int
    }

    var imperial = false
    var gfLow: Int?
    var gfHigh: Int?
    /// Seconds since 1970 of the computer's clock at the start (a wall clock, not UTC).
    var startTicks: UInt32?
    /// Millibar.
    var surfacePressure: Int?
    var decoModel: Int?
    var conservatism: Int?
    /// kg/m³.
    var density: Int?
    var logVersion = 0
    var aiMode: Int?
    /// Milliseconds between samples (opening record 5, log version 9 on; 10 s before).
    var interval = 10_000
    /// The transmitters' names (`D1`, `O2`: the first letter says diluent or oxygen), version 13 on.
    var tankNames: [String?] = [nil, nil, nil, nil]
    /// Tenths of a metre or foot.
    var maxDepth: Int?
    /// Seconds.
    var diveTime: Int?
    var samples: [Sample] = []
    var freediveSamples: [FreediveSample] = []
    /// Bookmarks (info event 38), by the sample count before them.
    var bookmarks: [Int] = []
    /// Records of types this reader does not decode, counted by type.
    var undecoded: [UInt8: Int] = [:]
    /// Dive samples past `limit`, counted.
    var samplesOverLimit = 0

    /// Decodes `data`; throws when it is not a PNF log with its opening and closing records.
    init(_ data: [UInt8], sampleLimit: Int) throws(Failure) {
        guard data.count >= Self.recordSize else {
            throw Failure(message: "the log is \(data.count) bytes, not a sequence of 32-byte records")
        }
        guard !(data[0] == 0xFF && data[1] == 0xFF) else {
            throw Failure(message: "the log is in the Predator's older layout (it opens 0xFFFF), not the Petrel Native Format")
        }
        // Which opening records the log holds; where each closing record is (record 0 is read).
        var opening = [Bool](repeating: false, count: 10)
        var closing = [Int?](repeating: nil, count: 10)
        var offset = 0
        func u16(_ at: Int) -> Int { Int(data[at]) << 8 | Int(data[at + 1]) }
        while offset + Self.recordSize <= data.count {
            defer { offset += Self.recordSize }
            let record = data[offset..<(offset + Self.recordSize)]
            if record.allSatisfy({ $0 == 0 }) { continue }
            let type = data[offset]
            let p = offset + 1
            switch type {
            case 0x01:
                guard samples.count < sampleLimit else { samplesOverLimit += 1; continue }
                samples.append(Sample(
                    depth: u16(p), stopDepth: u16(p + 2), tts: u16(p + 4), ppo2: Int(data[p + 6]), o2: Int(data[p + 7]),
                    he: Int(data[p + 8]), ndlOrStopTime: Int(data[p + 9]), status: data[p + 11],
                    rawTemperature: Int8(bitPattern: data[p + 13]), cns: Int(data[p + 22]),
                    tank1: UInt16(u16(p + 27)), tank2: UInt16(u16(p + 19))))
            case 0xE1:
                if logVersion >= 13, !samples.isEmpty {
                    samples[samples.count - 1].tank3 = UInt16(u16(p))
                    samples[samples.count - 1].tank4 = UInt16(u16(p + 2))
                } else {
                    undecoded[type, default: 0] += 1
                }
            case 0x02:
                for i in 0..<4 {
                    let at = offset + i * 8
                    if data[at..<(at + 8)].allSatisfy({ $0 == 0 }) { break }
                    guard freediveSamples.count < sampleLimit else { samplesOverLimit += 1; continue }
                    freediveSamples.append(FreediveSample(pressure: u16(at + 1), temperature: Int(Int16(bitPattern: UInt16(u16(at + 3))))))
                }
            case 0x30:
                // Info event 38 is a bookmark the diver set (libdivecomputer); other events are not decoded.
                if data[offset + 1] == 38 { bookmarks.append(samples.count) } else { undecoded[type, default: 0] += 1 }
            case 0x10...0x19:
                opening[Int(type - 0x10)] = true
                readOpening(Int(type - 0x10), at: offset, data)
            case 0x20...0x29:
                closing[Int(type - 0x20)] = offset
            case 0xFF:
                break
            default:
                undecoded[type, default: 0] += 1
            }
        }
        for i in 0...4 where !opening[i] || closing[i] == nil {
            throw Failure(message: "the log has no \(opening[i] ? "closing" : "opening") record \(i), which every PNF log holds")
        }
        if let c = closing[0] {
            maxDepth = u16(c + 4)
            diveTime = Int(data[c + 6]) << 16 | Int(data[c + 7]) << 8 | Int(data[c + 8])
        }
    }

    private mutating func readOpening(_ n: Int, at o: Int, _ data: [UInt8]) {
        func u16(_ at: Int) -> Int { Int(data[at]) << 8 | Int(data[at + 1]) }
        switch n {
        case 0:
            gfLow = Int(data[o + 4])
            gfHigh = Int(data[o + 5])
            imperial = data[o + 8] == 1
            startTicks = UInt32(data[o + 12]) << 24 | UInt32(data[o + 13]) << 16 | UInt32(data[o + 14]) << 8 | UInt32(data[o + 15])
        case 1:
            surfacePressure = u16(o + 16)
        case 2:
            decoModel = Int(data[o + 18])
            conservatism = Int(data[o + 19])
        case 3:
            density = u16(o + 3)
        case 4:
            logVersion = Int(data[o + 16])
            if logVersion >= 7 { aiMode = Int(data[o + 28]) }
        case 5:
            if logVersion >= 9 {
                let ms = u16(o + 23)
                if ms > 0 { interval = ms }
            }
        case 6:
            if logVersion >= 13 {
                tankNames[0] = Self.name(data[o + 20], data[o + 21])
                tankNames[1] = Self.name(data[o + 23], data[o + 24])
            }
        case 7:
            if logVersion >= 13 {
                tankNames[2] = Self.name(data[o + 2], data[o + 3])
                tankNames[3] = Self.name(data[o + 12], data[o + 13])
            }
        default:
            break
        }
    }

    private static func name(_ a: UInt8, _ b: UInt8) -> String? {
        let bytes = [a, b].filter { $0 >= 0x20 && $0 < 0x7F }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// A sample's temperature in the log's units: a negative byte is folded back as
    /// libdivecomputer does ("fix negative temperatures": add 102, never above 0).
    static func temperature(_ raw: Int8) -> Int {
        var t = Int(raw)
        if t < 0 { t = min(t + 102, 0) }
        return t
    }
}
