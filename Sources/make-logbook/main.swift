// make-logbook: writes a large synthetic UDDF 3.2.2 logbook for benchmarks.
//
//   make-logbook --dives N --interval SECONDS --duration MINUTES [--out PATH] [--seed N]
//
// The output is streamed through a 1 MiB buffer with POSIX write(2); nothing but the
// buffer is held in memory, so any size can be written. Everything comes from a fixed-seed
// SplitMix64 generator: the same arguments always give the same bytes (no clock, no
// system randomness). Numbers in waypoints are formatted by hand into the buffer.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Output

/// A byte buffer flushed to a file descriptor with write(2).
struct Output {
    let fd: Int32
    let capacity: Int
    let base: UnsafeMutablePointer<UInt8>
    var pos = 0
    var total = 0

    init(fd: Int32, capacity: Int = 1 << 20) {
        self.fd = fd
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    mutating func flush() {
        var off = 0
        while off < pos {
            let r = write(fd, base + off, pos - off)
            if r < 0 {
                if errno == EINTR { continue }
                fail("write failed: \(String(cString: strerror(errno)))")
            }
            off += r
        }
        total += pos
        pos = 0
    }

    /// Makes room for `n` more bytes; the unchecked writers below rely on it.
    @inline(__always) mutating func reserve(_ n: Int) {
        if pos + n > capacity { flush() }
    }

    @inline(__always) mutating func raw(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        (base + pos).update(from: s.utf8Start, count: n)
        pos += n
    }

    @inline(__always) mutating func byte(_ b: UInt8) {
        base[pos] = b
        pos += 1
    }

    /// A static string of any length (header and footer text).
    mutating func put(_ s: StaticString) {
        reserve(s.utf8CodeUnitCount)
        raw(s)
    }

    /// A dynamic ASCII string (names; never in the per-sample path).
    mutating func put(_ s: String) {
        for b in s.utf8 {
            reserve(1)
            byte(b)
        }
    }

    /// A non-negative integer, unchecked (reserve first).
    @inline(__always) mutating func uint(_ value: Int) {
        var digits = 1
        var t = value
        while t >= 10 { t /= 10; digits += 1 }
        var p = base + pos + digits - 1
        var n = value
        repeat {
            p.pointee = UInt8(truncatingIfNeeded: 48 + n % 10)
            n /= 10
            p -= 1
        } while n > 0
        pos += digits
    }

    @inline(__always) mutating func int(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")); uint(-value) } else { uint(value) }
    }

    /// An integer with exactly `width` digits, zero-padded.
    @inline(__always) mutating func padded(_ value: Int, width: Int) {
        var n = value
        var p = base + pos + width - 1
        for _ in 0..<width {
            p.pointee = UInt8(truncatingIfNeeded: 48 + n % 10)
            n /= 10
            p -= 1
        }
        pos += width
    }

    /// `value / 10^decimals` written with exactly `decimals` decimals, unchecked.
    @inline(__always) mutating func fixed(_ value: Int, decimals: Int) {
        var v = value
        if v < 0 { byte(UInt8(ascii: "-")); v = -v }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        uint(v / scale)
        byte(UInt8(ascii: "."))
        padded(v % scale, width: decimals)
    }
}

func fail(_ message: String) -> Never {
    let bytes = Array("make-logbook: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

// MARK: - Random numbers

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and good enough for synthetic data.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    @inline(__always) mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    @inline(__always) mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in [lo, hi).
    @inline(__always) mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * unit()
    }

    /// Uniform integer in lo...hi.
    mutating func int(_ lo: Int, _ hi: Int) -> Int {
        lo + Int(next() % UInt64(hi - lo + 1))
    }
}

// MARK: - Calendar

/// The civil date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
func civil(fromDays z0: Int) -> (year: Int, month: Int, day: Int) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
}

/// 2020-01-01 as days since 1970-01-01.
let firstDay = 18262

// MARK: - Arguments

struct Options {
    var dives = 0
    var interval = 0
    var duration = 0
    var out: String?
    var seed: UInt64 = 0x756D_696C_6F67 // "umilog"
}

let usage = """
usage: make-logbook --dives N --interval SECONDS --duration MINUTES [--out PATH] [--seed N]

Writes a synthetic UDDF 3.2.2 logbook: N dives of about MINUTES minutes each (+/- 1/12),
one waypoint every SECONDS seconds, to PATH (default: standard output). The output is
deterministic: the same arguments (and seed) give the same bytes.

"""

func parseOptions(_ args: [String]) -> Options {
    func usageError(_ message: String) -> Never {
        let bytes = Array("make-logbook: \(message)\n\(usage)".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(2)
    }
    var o = Options()
    var i = 0
    func value(_ name: String) -> String {
        i += 1
        guard i < args.count else { usageError("\(name) needs a value") }
        return args[i]
    }
    func positive(_ name: String) -> Int {
        let v = value(name)
        guard let n = Int(v), n > 0 else { usageError("\(name) must be a positive whole number, not \"\(v)\"") }
        return n
    }
    while i < args.count {
        switch args[i] {
        case "--dives": o.dives = positive("--dives")
        case "--interval": o.interval = positive("--interval")
        case "--duration": o.duration = positive("--duration")
        case "--out", "-o": o.out = value("--out")
        case "--seed":
            let v = value("--seed")
            guard let s = UInt64(v) else { usageError("--seed must be a whole number, not \"\(v)\"") }
            o.seed = s
        case "-h", "--help":
            let bytes = Array(usage.utf8)
            _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            exit(0)
        default: usageError("unknown argument \"\(args[i])\"")
        }
        i += 1
    }
    if o.dives == 0 { usageError("--dives is required") }
    if o.interval == 0 { usageError("--interval is required") }
    if o.duration == 0 { usageError("--duration is required") }
    return o
}

// MARK: - Header

let siteNames = [
    "Coral Garden", "Blue Hole", "Manta Point", "Turtle Reef", "Shark Ridge",
    "Anchor Wreck", "Canyon Wall", "Eel Garden", "Lighthouse Reef", "Seagrass Bay",
    "North Pinnacle", "Cathedral Cave", "Drift Channel", "Sunken Barge", "Staghorn Flats",
    "Nudibranch Alley", "Gorgonian Wall", "Sandy Slope", "Jetty Point", "Outer Bommie",
]
let siteRegions = ["Umi Bay", "Kaigan Islands", "Sango Atoll", "Nami Coast"]

func writeHeader(_ o: inout Output, rng: inout SplitMix64) {
    o.put("""
    <?xml version="1.0" encoding="UTF-8"?>
    <uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2">
    <generator>
      <name>umilog make-logbook</name>
      <type>logbook</type>
      <version>1</version>
    </generator>
    <diver>
      <owner id="owner">
        <personal>
          <firstname>Umi</firstname>
          <lastname>Benchmark</lastname>
        </personal>
      </owner>
    </diver>
    <divesite>

    """)
    for (i, name) in siteNames.enumerated() {
        let region = siteRegions[i % siteRegions.count]
        // Micro-degrees around 7.3 N 134.4 E, within about 40 km.
        let lat = 7_300_000 + rng.int(-350_000, 350_000)
        let lon = 134_400_000 + rng.int(-350_000, 350_000)
        o.put("  <site id=\"site-")
        o.put(String(i + 1))
        o.put("\">\n    <name>")
        o.put(name)
        o.put("</name>\n    <geography>\n      <location>")
        o.put(region)
        o.put("</location>\n      <latitude>")
        o.reserve(32)
        o.fixed(lat, decimals: 6)
        o.put("</latitude>\n      <longitude>")
        o.reserve(32)
        o.fixed(lon, decimals: 6)
        o.put("</longitude>\n    </geography>\n  </site>\n")
    }
    o.put("""
    </divesite>
    <gasdefinitions>
      <mix id="air">
        <name>Air</name>
        <o2>0.21</o2>
        <n2>0.79</n2>
        <he>0.0</he>
      </mix>
      <mix id="ean32">
        <name>EAN32</name>
        <o2>0.32</o2>
        <n2>0.68</n2>
        <he>0.0</he>
      </mix>
    </gasdefinitions>
    <profiledata>

    """)
}

// MARK: - Dives

/// Everything that decides one dive, drawn from the main generator before it is written.
struct DivePlan {
    var number: Int
    var day: Int
    var startMinute: Int          // minutes after local midnight
    var samples: Int              // waypoints, at 0, interval, ..., (samples-1)*interval
    var interval: Int
    var site: Int
    var nitrox: Bool
    var bottom: Double            // deepest planned depth, m
    var surfaceTemp: Double       // K
    var beginPa: Int
    var endPa: Int                // target; the written end is computed exactly
    var noiseSeed: UInt64

    /// Phase boundaries in seconds: descent, bottom, ascent to the stop, stop, surfacing.
    var tDescent = 0.0, tBottomEnd = 0.0, tAscentEnd = 0.0, tStopEnd = 0.0, tEnd = 0.0
    var bottomEndDepth = 0.0

    mutating func layOut() {
        let total = Double((samples - 1) * interval)
        bottomEndDepth = bottom * 0.8
        let stopDepth = 5.0
        var descent = bottom / 0.3                                  // 18 m/min
        var ascent = max(0, bottomEndDepth - stopDepth) / 0.15       // 9 m/min
        var stop = 180.0
        var surfacing = stopDepth / 0.1
        let fixed = descent + ascent + stop + surfacing
        if fixed > 0.7 * total {
            // Short dives: everything but the bottom shrinks to fit 70 % of the dive.
            let k = 0.7 * total / fixed
            descent *= k; ascent *= k; stop *= k; surfacing *= k
        }
        tEnd = total
        tDescent = descent
        tStopEnd = total - surfacing
        tAscentEnd = tStopEnd - stop
        tBottomEnd = tAscentEnd - ascent
    }

    /// The depth (m) at second `t`, with noise from `rng`.
    @inline(__always) func depth(at t: Double, rng: inout SplitMix64) -> Double {
        let noise = rng.uniform(-1, 1)
        var d: Double
        if t <= 0 || t >= tEnd {
            return 0
        } else if t < tDescent {
            d = bottom * t / tDescent + 0.1 * noise
        } else if t < tBottomEnd {
            // A square-ish bottom drifting up to 80 % of the deepest depth, with a slow swell.
            let f = (t - tDescent) / max(1, tBottomEnd - tDescent)
            d = bottom + (bottomEndDepth - bottom) * f + 0.35 * noise + 0.4 * sin(t * 0.026)
        } else if t < tAscentEnd {
            let f = (t - tBottomEnd) / max(1, tAscentEnd - tBottomEnd)
            d = bottomEndDepth + (5 - bottomEndDepth) * f + 0.1 * noise
        } else if t < tStopEnd {
            d = 5 + 0.15 * noise
        } else {
            d = 5 * (tEnd - t) / max(1, tEnd - tStopEnd) + 0.05 * noise
        }
        return d < 0 ? 0 : d
    }
}

/// Walks the dive's samples: (index, seconds, depth in cm, temperature in centi-kelvin).
@inline(__always)
func forEachSample(_ p: DivePlan, _ body: (Int, Int, Int, Int) -> Void) {
    var rng = SplitMix64(seed: p.noiseSeed)
    let surface = p.surfaceTemp
    for k in 0..<p.samples {
        let seconds = k * p.interval
        let d = p.depth(at: Double(seconds), rng: &rng)
        let cm = Int((d * 100).rounded())
        // Warm water over a thermocline: about 0.25 K colder per metre down to 20 m.
        let kelvin = surface - 0.25 * min(d, 20) + 0.04 * rng.uniform(-1, 1)
        body(k, seconds, cm, Int((kelvin * 100).rounded()))
    }
}

/// Pressure consumption: a fixed amount of pascal per (second x bar ambient).
@inline(__always) func ambient(_ cm: Int) -> Double { 1 + Double(cm) / 1000 }

func writeDive(_ o: inout Output, _ p: DivePlan) {
    // Pass 1: how much gas the profile breathes, so that the pressures end where planned.
    var breathed = 0.0
    forEachSample(p) { k, _, cm, _ in
        if k > 0 { breathed += ambient(cm) * Double(p.interval) }
    }
    let begin = Double(p.beginPa)
    let rate = breathed > 0 ? (begin - Double(p.endPa)) / breathed : 0
    let end = Int((begin - rate * breathed).rounded())
    let mixID: StaticString = p.nitrox ? "ean32" : "air"

    o.put("    <dive id=\"dive-")
    o.reserve(256)
    o.uint(p.number)
    o.raw("\">\n      <informationbeforedive>\n        <link ref=\"site-")
    o.uint(p.site + 1)
    o.raw("\"/>\n        <divenumber>")
    o.uint(p.number)
    o.raw("</divenumber>\n        <datetime>")
    let (y, m, d) = civil(fromDays: firstDay + p.day)
    o.padded(y, width: 4); o.byte(UInt8(ascii: "-"))
    o.padded(m, width: 2); o.byte(UInt8(ascii: "-"))
    o.padded(d, width: 2); o.byte(UInt8(ascii: "T"))
    o.padded(p.startMinute / 60, width: 2); o.byte(UInt8(ascii: ":"))
    o.padded(p.startMinute % 60, width: 2)
    o.raw(":00+01:00</datetime>\n      </informationbeforedive>\n      <tankdata>\n        <link ref=\"")
    o.raw(mixID)
    o.raw("\"/>\n        <tankvolume>0.012</tankvolume>\n        <tankpressurebegin>")
    o.uint(p.beginPa)
    o.raw("</tankpressurebegin>\n        <tankpressureend>")
    o.uint(end)
    o.raw("</tankpressureend>\n      </tankdata>\n      <samples>\n")

    // Pass 2: the waypoints.
    var acc = 0.0
    var maxCm = 0, sumCm = 0, minTemp = Int.max
    forEachSample(p) { k, seconds, cm, temp in
        if k > 0 { acc += ambient(cm) * Double(p.interval) }
        let pressure = Int((begin - rate * acc).rounded())
        if cm > maxCm { maxCm = cm }
        sumCm += cm
        if temp < minTemp { minTemp = temp }
        o.reserve(512)
        o.raw("        <waypoint>\n          <depth>")
        o.fixed(cm, decimals: 2)
        o.raw("</depth>\n          <divetime>")
        o.uint(seconds)
        o.raw("</divetime>\n          <tankpressure ref=\"")
        o.raw(mixID)
        o.raw("\">")
        o.uint(pressure)
        o.raw("</tankpressure>\n          <temperature>")
        o.fixed(temp, decimals: 2)
        o.raw("</temperature>\n        </waypoint>\n")
    }

    o.reserve(512)
    o.raw("      </samples>\n      <informationafterdive>\n        <greatestdepth>")
    o.fixed(maxCm, decimals: 2)
    o.raw("</greatestdepth>\n        <averagedepth>")
    o.fixed((sumCm + p.samples / 2) / p.samples, decimals: 2)
    o.raw("</averagedepth>\n        <diveduration>")
    o.uint((p.samples - 1) * p.interval)
    o.raw("</diveduration>\n        <lowesttemperature>")
    o.fixed(minTemp, decimals: 2)
    o.raw("</lowesttemperature>\n      </informationafterdive>\n    </dive>\n")
}

// MARK: - Main

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))

var fd: Int32 = 1
if let path = options.out, path != "-" {
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if fd < 0 { fail("cannot open \(path): \(String(cString: strerror(errno)))") }
}

func generate(_ options: Options, fd: Int32) -> Int {
    var out = Output(fd: fd)
    var rng = SplitMix64(seed: options.seed)
    writeHeader(&out, rng: &rng)

    let durationS = options.duration * 60
    let spreadS = max(1, durationS / 12)
    var day = 0
    var minute = 8 * 60 + rng.int(0, 15)
    var divesToday = 0
    var groupOpen = false
    for n in 1...options.dives {
        var p = DivePlan(
            number: n, day: 0, startMinute: 0, samples: 0, interval: options.interval,
            site: 0, nitrox: false, bottom: 0, surfaceTemp: 0, beginPa: 0, endPa: 0, noiseSeed: 0)
        let seconds = max(2 * options.interval, durationS + rng.int(-spreadS, spreadS))
        p.samples = seconds / options.interval + 1
        // Up to three dives a day, about three hours apart (longer dives: one hour of surface
        // interval), the first at about 08:00 local time.
        let gap = max(180, (seconds + 59) / 60 + 60)
        if divesToday == 3 || minute + (seconds + 59) / 60 >= 22 * 60 {
            day += 1
            minute = 8 * 60 + rng.int(0, 15)
            divesToday = 0
        }
        if divesToday == 0 {
            if groupOpen { out.put("  </repetitiongroup>\n") }
            out.put("  <repetitiongroup id=\"day-")
            out.reserve(24)
            out.uint(day + 1)
            out.raw("\">\n")
            groupOpen = true
        }
        p.day = day
        p.startMinute = minute
        minute += gap + rng.int(-10, 10)
        divesToday += 1

        p.site = rng.int(0, siteNames.count - 1)
        p.nitrox = rng.unit() < 0.3
        p.bottom = p.nitrox ? rng.uniform(12, 28) : rng.uniform(12, 32)
        p.surfaceTemp = rng.uniform(297.0, 302.5)
        p.beginPa = 20_000_000 + rng.int(0, 200) * 10_000
        p.endPa = 4_000_000 + rng.int(0, 400) * 10_000
        p.noiseSeed = rng.next()
        p.layOut()
        writeDive(&out, p)
    }
    if groupOpen { out.put("  </repetitiongroup>\n") }
    out.put("</profiledata>\n</uddf>\n")
    out.flush()
    return out.total
}

_ = generate(options, fd: fd)
if fd != 1, close(fd) != 0 { fail("close failed: \(String(cString: strerror(errno)))") }
