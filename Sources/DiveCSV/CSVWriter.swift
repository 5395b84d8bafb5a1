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
}

/// Unit conversion and precision for display. A measured value is written at its column's
/// precision, or at the source's own precision when that is finer and the value is already an
/// exact short decimal there (``HumanNumbers/reading(_:places:)``; `schemas/csv-columns.md`,
/// "Precision"): a value whose shortest decimal text has at most two fraction digits (`26.34` m
/// read from UDDF, `8.32` °C) is written as it is; one with more (`45.17175` m from feet,
/// `23.888889` °C from °F, `236.0390625` bar from 1/128 bar) is a computed one and is rounded —
/// metres, °C, litres and kg to 0.1, bar to 1. In imperial output the same rule applies after
/// conversion, feet, °F, psi and pounds to 1; a conversion that lands on a short decimal but for
/// floating-point error (`45.2628` m is `148.50000000000003` ft, `-23.3` °C `-9.940000000000005`
/// °F) is that decimal (`148.5`, `-9.94`). Halves round away from zero; no trailing zeros, never
/// `-0`, `.` as the decimal point.
struct Units {
    let system: UnitSystem

    var depthSuffix: String { system == .metric ? "m" : "ft" }
    var temperatureSuffix: String { system == .metric ? "c" : "f" }
    var pressureSuffix: String { system == .metric ? "bar" : "psi" }
    var weightSuffix: String { system == .metric ? "kg" : "lb" }

    /// A depth or distance (depths, ceiling, visibility): metres to 0.1, feet to 1.
    func depth(_ metres: Double?) -> String? {
        guard let metres else { return nil }
        return system == .metric ? HumanNumbers.reading(metres, places: 1) : Self.converted(metres / 0.3048)
    }

    /// °C to 0.1, °F to 1.
    func temperature(_ celsius: Double?) -> String? {
        guard let celsius else { return nil }
        return system == .metric ? HumanNumbers.reading(celsius, places: 1) : Self.converted(celsius * 9 / 5 + 32)
    }

    /// Bar to 1, psi to 1.
    func pressure(_ bar: Double?) -> String? {
        guard let bar else { return nil }
        return system == .metric ? HumanNumbers.reading(bar, places: 0) : Self.converted(bar * 14.503773773)
    }

    /// Kilograms to 0.1, pounds to 1.
    func weight(_ kg: Double?) -> String? {
        guard let kg else { return nil }
        return system == .metric ? HumanNumbers.reading(kg, places: 1) : Self.converted(kg / 0.45359237)
    }

    /// A value converted to an imperial unit, whose column's precision is a whole unit: the
    /// short decimal it is (at most two fraction digits, to within the conversion's
    /// floating-point error), else rounded.
    static func converted(_ v: Double) -> String {
        let short = (v * 100).rounded(.toNearestOrAwayFromZero) / 100
        if abs(v - short) <= 1e-9 * max(1, abs(v)) { return HumanNumbers.reading(short, places: 0) }
        return HumanNumbers.rounded(v, places: 0)
    }

    /// A cylinder's water capacity, litres to 0.1 in both systems.
    func volume(_ litres: Double?) -> String? {
        litres.map { HumanNumbers.reading($0, places: 1) }
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
