import DiveCore

/// A recording's sample series in one compact blob: per channel, its sample times and values
/// as zigzag varints of their differences (a 1 s profile of an hour is a few kilobytes).
/// Only series without extensions are stored here; the rest of a profile (events, its
/// extensions, a series that carries extensions) stays in the recording's DiveJSON detail.
enum ProfileCodec {
    static let magic: [UInt8] = [0x55, 0x50, 0x01] // "UP", version 1

    enum Channel: UInt8, CaseIterable {
        case depth = 0, ceiling, temperature, ndl, tts, ppo2, cns, gradientFactor, surfaceGradientFactor
        case pressure = 16

        var keyPath: WritableKeyPath<Profile, Series?>? {
            switch self {
            case .depth: \.depth
            case .ceiling: \.ceiling
            case .temperature: \.temperature
            case .ndl: \.ndl
            case .tts: \.tts
            case .ppo2: \.ppo2
            case .cns: \.cns
            case .gradientFactor: \.gradientFactor
            case .surfaceGradientFactor: \.surfaceGradientFactor
            case .pressure: nil
            }
        }
    }

    /// Splits `profile` into the blob (its plain series) and what is left of it; `nil` blob
    /// when there is no plain series.
    static func split(_ profile: Profile) -> (blob: [UInt8]?, rest: Profile) {
        var rest = profile
        var out = magic
        var channels = 0
        var body: [UInt8] = []
        for c in Channel.allCases {
            if let path = c.keyPath {
                guard let s = profile[keyPath: path], s.extensions == nil else { continue }
                body.append(c.rawValue)
                append(s, to: &body)
                rest[keyPath: path] = nil
                channels += 1
            } else {
                var kept: [PressureSeries] = []
                for p in profile.pressures {
                    guard p.series.extensions == nil, p.gasNumber >= 0 else { kept.append(p); continue }
                    body.append(c.rawValue)
                    varint(UInt64(p.gasNumber), to: &body)
                    append(p.series, to: &body)
                    channels += 1
                }
                rest.pressures = kept
            }
        }
        guard channels > 0 else { return (nil, profile) }
        varint(UInt64(channels), to: &out)
        out += body
        return (out, rest)
    }

    /// Puts the blob's series back into `profile` (pressure series after those it holds).
    static func join(_ blob: [UInt8], into profile: inout Profile) throws {
        var i = 0
        func byte() throws -> UInt8 {
            guard i < blob.count else { throw bad }
            defer { i += 1 }
            return blob[i]
        }
        func read() throws -> UInt64 {
            var v: UInt64 = 0, shift: UInt64 = 0
            while true {
                let b = try byte()
                v |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return v }
                shift += 7
                guard shift < 64 else { throw bad }
            }
        }
        func series() throws -> Series {
            guard let n = Int(exactly: try read()), n <= blob.count else { throw bad }
            var times = [Int](), values = [Int]()
            times.reserveCapacity(n); values.reserveCapacity(n)
            var last = 0
            for _ in 0..<n { last &+= unzigzag(try read()); times.append(last) }
            last = 0
            for _ in 0..<n { last &+= unzigzag(try read()); values.append(last) }
            return Series(times: times, values: values)
        }
        guard blob.count >= 3, Array(blob[0..<3]) == magic else { throw bad }
        i = 3
        let channels = try read()
        var pressures: [PressureSeries] = []
        for _ in 0..<channels {
            guard let c = Channel(rawValue: try byte()) else { throw bad }
            if let path = c.keyPath {
                profile[keyPath: path] = try series()
            } else {
                guard let gas = Int(exactly: try read()) else { throw bad }
                pressures.append(PressureSeries(gasNumber: gas, series: try series()))
            }
        }
        profile.pressures = pressures + profile.pressures
    }

    private static let bad = DiveError("store.profile-blob", "a stored profile is damaged", at: SourceLocation())

    /// Differences wrap around (and are added back the same way): two samples as far apart as
    /// integers go (a reader's placeholder, a hostile file) are stored exactly, never overflow.
    private static func append(_ s: Series, to out: inout [UInt8]) {
        varint(UInt64(s.count), to: &out)
        var last = 0
        for t in s.times { varint(zigzag(t &- last), to: &out); last = t }
        last = 0
        for v in s.values { varint(zigzag(v &- last), to: &out); last = v }
    }

    private static func zigzag(_ v: Int) -> UInt64 { UInt64(bitPattern: Int64((v << 1) ^ (v >> 63))) }
    private static func unzigzag(_ u: UInt64) -> Int { Int(Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))) }

    private static func varint(_ v: UInt64, to out: inout [UInt8]) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }
}
