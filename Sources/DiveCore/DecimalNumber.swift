/// An exact decimal number read from source text: `significand × 10^exponent`. Equality is
/// by value (`21.0 == 21`); the representation keeps the source's scale for its text.
///
/// Unit conversions run on this type rather than on `Double`, so that `2.6 m × 100` is exactly
/// `260 cm` and `297.15 K − 273.15` is exactly `24 °C` (DiveJSON's converting rules: arithmetic
/// on decimal values parsed from the source text, rounding half away from zero).
public struct DecimalNumber: Sendable, Hashable, CustomStringConvertible {
    /// The digits of the number, signed.
    public var significand: Int64
    /// The power of ten the significand is scaled by.
    public var exponent: Int

    /// Largest exponent magnitude accepted; anything past it is not a representable reading.
    static let exponentLimit = 300

    /// Creates `significand × 10^exponent`.
    public init(significand: Int64, exponent: Int = 0) {
        self.significand = significand
        self.exponent = exponent
    }

    /// The decimal a finite `Double` reads as — its shortest round-tripping text, exactly —
    /// without trailing zeros (`12.0` → `12`, `1e-05` → `0.00001`); `nil` for NaN or infinity.
    public init?(_ value: Double) {
        guard value.isFinite, let d = DecimalNumber(value.description) else { return nil }
        self = d.normalized()
    }

    /// Creates the exact decimal value of an integer.
    public init(_ value: Int) { self.init(significand: Int64(value), exponent: 0) }

    /// Parses decimal text such as `-12.50`, `1.999E+07` or `.6`, ignoring surrounding
    /// whitespace. Returns `nil` for anything else, including `NaN`, `Infinity` and numbers
    /// too large to carry (`1e999`).
    public init?(_ text: String) {
        var text = text
        let parsed: DecimalNumber? = text.withUTF8 { DecimalNumber(bytes: UnsafeRawBufferPointer($0)) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Parses decimal text from raw UTF-8 bytes (see ``init(_:)-(String)``), without allocating.
    public init?(bytes: UnsafeRawBufferPointer) {
        var i = 0
        var end = bytes.count
        while i < end, Self.isSpace(bytes[i]) { i += 1 }
        while end > i, Self.isSpace(bytes[end - 1]) { end -= 1 }
        guard i < end else { return nil }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var significand: Int64 = 0
        var exponent = 0
        var digits = 0
        var sawDigit = false
        var sawPoint = false
        var roundUp = false
        var dropped = false
        while i < end {
            let b = bytes[i]
            if b >= 0x30 && b <= 0x39 {
                sawDigit = true
                let d = Int64(b - 0x30)
                if significand == 0 && d == 0 {
                    // Leading zeros carry no digits, only position.
                    if sawPoint { exponent -= 1 }
                } else if digits < 18 {
                    significand = significand * 10 + d
                    digits += 1
                    if sawPoint { exponent -= 1 }
                } else {
                    // Beyond 18 significant digits: round half away on the first dropped digit.
                    if !dropped { roundUp = d >= 5; dropped = true }
                    if !sawPoint { exponent += 1 }
                }
            } else if b == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }
        if i < end {
            guard bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") else { return nil }
            i += 1
            var expNegative = false
            if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            var expDigits = 0
            while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                if e < 100_000 { e = e * 10 + Int(bytes[i] - 0x30) }
                expDigits += 1
                i += 1
            }
            guard expDigits > 0, i == end else { return nil }
            exponent += expNegative ? -e : e
        }
        if roundUp { significand += 1 }
        if significand == 0 { exponent = 0 }
        guard significand == 0 || abs(exponent + digits) <= Self.exponentLimit else { return nil }
        self.init(significand: negative ? -significand : significand, exponent: exponent)
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// True when the value is exactly zero.
    public var isZero: Bool { significand == 0 }
    /// True when the value is below zero.
    public var isNegative: Bool { significand < 0 }

    /// The value multiplied by `10^power`, exactly.
    public func shifted(by power: Int) -> DecimalNumber {
        DecimalNumber(significand: significand, exponent: exponent + power)
    }

    /// The exact sum of two decimals, or `nil` if it cannot be held in 18 digits.
    public func adding(_ other: DecimalNumber) -> DecimalNumber? {
        let e = Swift.min(exponent, other.exponent)
        guard let a = Self.scale(significand, by: exponent - e),
              let b = Self.scale(other.significand, by: other.exponent - e) else { return nil }
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { return nil }
        return DecimalNumber(significand: sum, exponent: e).normalized()
    }

    /// The exact difference of two decimals.
    public func subtracting(_ other: DecimalNumber) -> DecimalNumber? {
        adding(DecimalNumber(significand: -other.significand, exponent: other.exponent))
    }

    static func scale(_ value: Int64, by power: Int) -> Int64? {
        var v = value
        for _ in 0..<max(power, 0) {
            let (m, o) = v.multipliedReportingOverflow(by: 10)
            if o { return nil }
            v = m
        }
        return v
    }

    /// The same value with trailing zeros of the significand folded into the exponent.
    public func normalized() -> DecimalNumber {
        guard significand != 0 else { return DecimalNumber(significand: 0, exponent: 0) }
        var s = significand, e = exponent
        while s % 10 == 0 { s /= 10; e += 1 }
        return DecimalNumber(significand: s, exponent: e)
    }

    /// The number `text` as an integer when it is one — JSON Schema's sense, so `5520.0` and
    /// `5.52e3` are `5520` — else `nil`.
    public static func exactInteger(_ text: String) -> Int? {
        if let i = Int(text) { return i }
        guard let d = DecimalNumber(text), d.normalized().exponent >= 0 else { return nil }
        return d.roundedInteger()
    }

    /// The value rounded to an integer, halves away from zero; `nil` when it does not fit.
    public func roundedInteger() -> Int? {
        if exponent >= 0 {
            guard let v = Self.scale(significand, by: exponent) else { return nil }
            return Int(exactly: v)
        }
        let drop = -exponent
        if drop > 19 { return 0 }
        var divisor: Int64 = 1
        for _ in 0..<drop {
            let (m, o) = divisor.multipliedReportingOverflow(by: 10)
            if o { return 0 }
            divisor = m
        }
        let q = significand / divisor
        let r = significand % divisor
        let twice = abs(r) > (Int64.max / 2) ? Int64.max : abs(r) * 2
        if twice >= divisor { return Int(q + (significand < 0 ? -1 : 1)) }
        return Int(q)
    }

    /// The value multiplied by `10^power` and rounded to an integer, halves away from zero.
    public func scaledInteger(_ power: Int) -> Int? { shifted(by: power).roundedInteger() }

    /// The value rounded to `places` decimal places, halves away from zero.
    public func rounded(places: Int) -> DecimalNumber? {
        guard exponent < -places else { return self }
        guard let i = shifted(by: places).roundedInteger() else { return nil }
        return DecimalNumber(significand: Int64(i), exponent: -places)
    }

    /// The nearest `Double` (correctly rounded from the decimal text).
    public var doubleValue: Double { Double(description) ?? .nan }

    /// Plain decimal text, e.g. `199.9`, `-0.05`, `1200`.
    public var description: String {
        var bytes: [UInt8] = []
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the plain decimal text (``description``) as UTF-8, without building a `String`:
    /// writers call this once per sample value.
    public func appendText(to bytes: inout [UInt8]) {
        if significand == 0 { bytes.append(UInt8(ascii: "0")); return }
        if significand < 0 { bytes.append(UInt8(ascii: "-")) }
        // The significand's digits, most significant first.
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            var m = significand.magnitude
            repeat {
                d[19 - count] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
                count += 1
            } while m > 0
            let first = 20 - count
            if exponent >= 0 {
                bytes.append(contentsOf: d[first...])
                for _ in 0..<exponent { bytes.append(UInt8(ascii: "0")) }
                return
            }
            let point = count + exponent
            if point > 0 {
                bytes.append(contentsOf: d[first..<(first + point)])
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: d[(first + point)...])
            } else {
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "."))
                for _ in 0..<(-point) { bytes.append(UInt8(ascii: "0")) }
                bytes.append(contentsOf: d[first...])
            }
        }
    }
}

extension DecimalNumber {
    /// Equal values are equal whatever their spelling: `21`, `21.0` and `2.1e1` are one number.
    public static func == (a: DecimalNumber, b: DecimalNumber) -> Bool {
        let (x, y) = (a.normalized(), b.normalized())
        return x.significand == y.significand && x.exponent == y.exponent
    }

    /// Hashes the normalised value, so equal numbers of any spelling hash alike.
    public func hash(into hasher: inout Hasher) {
        let n = normalized()
        hasher.combine(n.significand)
        hasher.combine(n.exponent)
    }
}

extension DecimalNumber: Comparable {
    /// Compares significands brought to one exponent (no sum, no normalising: this runs
    /// for every sample a reader checks); past 18 digits, as doubles.
    public static func < (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool {
        if lhs.exponent == rhs.exponent { return lhs.significand < rhs.significand }
        let e = Swift.min(lhs.exponent, rhs.exponent)
        if let a = scale(lhs.significand, by: lhs.exponent - e), let b = scale(rhs.significand, by: rhs.exponent - e) { return a < b }
        return lhs.doubleValue < rhs.doubleValue
    }
}
