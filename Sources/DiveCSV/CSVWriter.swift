import DiveCore

/// Unit systems for tabular output. The model is metric; conversion happens here, at the edge.
public enum UnitSystem: String, Sendable, CaseIterable {
    /// Metres, °C, bar, kg, litres.
    case metric
    /// Feet, °F, psi, lb (cylinder sizes stay in litres: cubic feet need a working pressure).
    case imperial
}

/// RFC 4180 row assembly into a byte buffer that is flushed to a ``ByteSink`` in large
/// chunks: fields are quoted only when they hold a comma, a quote, CR or LF (or start or end
/// with a space), quotes are doubled, records end in CRLF, text is UTF-8.
struct CSVBuffer {
    var bytes: [UInt8] = []
    let sink: ByteSink
    private var firstField = true

    init(sink: ByteSink) {
        self.sink = sink
        bytes.reserveCapacity(1 << 16)
    }

    mutating func field(_ text: String?) {
        if !firstField { bytes.append(UInt8(ascii: ",")) }
        firstField = false
        guard let text, !text.isEmpty else { return }
        let utf8 = text.utf8
        let needsQuotes = utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || utf8.first == 0x20 || utf8.last == 0x20
        if !needsQuotes { bytes.append(contentsOf: utf8); return }
        bytes.append(UInt8(ascii: "\""))
        for b in utf8 {
            if b == UInt8(ascii: "\"") { bytes.append(b) }
            bytes.append(b)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends bytes that are already a field (or several, with their commas).
    mutating func raw(_ encoded: [UInt8]) {
        if !firstField { bytes.append(UInt8(ascii: ",")) }
        firstField = false
        bytes.append(contentsOf: encoded)
    }

    /// Appends an empty field.
    mutating func empty() {
        if !firstField { bytes.append(UInt8(ascii: ",")) }
        firstField = false
    }

    /// Appends `value / 10^places` as a plain decimal, exactly, without trailing zeros.
    mutating func scaled(_ value: Int, places: Int) {
        if !firstField { bytes.append(UInt8(ascii: ",")) }
        firstField = false
        var v = value
        if v < 0 { bytes.append(UInt8(ascii: "-")); v = -v }
        var divisor = 1
        for _ in 0..<places { divisor *= 10 }
        appendDigits(v / divisor)
        var fraction = v % divisor
        guard fraction != 0 else { return }
        var digits = places
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        bytes.append(UInt8(ascii: "."))
        var scale = 1
        for _ in 1..<max(digits, 1) { scale *= 10 }
        while scale > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / scale % 10))
            scale /= 10
        }
    }

    private mutating func appendDigits(_ v: Int) {
        if v >= 10 { appendDigits(v / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(v % 10))
    }

    /// The bytes of one field, escaped, without a separator.
    static func encode(_ text: String?) -> [UInt8] {
        let sink = MemorySink()
        var buffer = CSVBuffer(sink: sink)
        buffer.field(text)
        return buffer.bytes
    }

    mutating func endRecord() throws {
        bytes.append(0x0D)
        bytes.append(0x0A)
        firstField = true
        if bytes.count >= 1 << 16 { try flush() }
    }

    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// Number formatting for CSV cells: plain decimal, no exponent, no trailing `.0`.
enum CSVNumber {
    static func format(_ v: Double) -> String { DecimalNumber(v)?.description ?? "" }

    /// `v` rounded to `places` decimals, halves away from zero.
    static func format(_ v: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return format((v * scale).rounded(.toNearestOrAwayFromZero) / scale)
    }
}

/// Unit conversion for display.
struct Units {
    let system: UnitSystem

    var depthSuffix: String { system == .metric ? "m" : "ft" }
    var temperatureSuffix: String { system == .metric ? "c" : "f" }
    var pressureSuffix: String { system == .metric ? "bar" : "psi" }
    var weightSuffix: String { system == .metric ? "kg" : "lb" }

    func depth(_ metres: Double?) -> String? {
        guard let metres else { return nil }
        return system == .metric ? CSVNumber.format(metres) : CSVNumber.format(metres / 0.3048, places: 2)
    }

    func temperature(_ celsius: Double?) -> String? {
        guard let celsius else { return nil }
        return system == .metric ? CSVNumber.format(celsius) : CSVNumber.format(celsius * 9 / 5 + 32, places: 2)
    }

    func pressure(_ bar: Double?) -> String? {
        guard let bar else { return nil }
        return system == .metric ? CSVNumber.format(bar) : CSVNumber.format(bar * 14.503773773, places: 1)
    }

    func weight(_ kg: Double?) -> String? {
        guard let kg else { return nil }
        return system == .metric ? CSVNumber.format(kg) : CSVNumber.format(kg / 0.45359237, places: 2)
    }

    /// An integer-scaled channel value (`scale` = 10^-places of the canonical unit).
    func scaled(_ value: Int, places: Int) -> Double {
        // One correctly rounded division: 264 / 100 is 2.64, where two divisions by 10 are not.
        var divisor = 1.0
        for _ in 0..<places { divisor *= 10 }
        return Double(value) / divisor
    }
}

extension DiveDateTime {
    var csvDate: String { date.description }
    var csvTime: String? { time?.description }
    var csvOffset: String? { offset.map { $0 == .utc ? "+00:00" : $0.description } }
}

/// `h:mm:ss`.
func clock(_ seconds: Int) -> String {
    let h = seconds / 3600, m = (seconds % 3600) / 60, s = seconds % 60
    return "\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)"
}
