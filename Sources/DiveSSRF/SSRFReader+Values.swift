import DiveCore
import DiveXML

/// What reading one `.ssrf` value gave: the number in the unit the table expects, a unit the
/// table does not carry (refused, never converted), or text that is not a value at all.
enum SSRFValue<T> {
    case value(T)
    /// The unit as written (`"ft"`; `""` when the number stands alone where a unit belongs).
    case unit(String)
    case invalid
}

/// The spellings `.ssrf` writes its values in, read from the attribute's bytes (a sample's
/// attributes are read for every sample, so nothing here builds a String unless a value is
/// refused). Every measurement carries its unit, and only the units of DiveJSON's
/// `docs/ssrf-mapping.md` table are read: `m`, `C`, `bar`, `l`, `%`, `kg`, `g/l`, `l/min`,
/// and the clock `M:SS min`. Imperial spellings are refused, never converted.
enum SSRFValues {
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// `'12.34 m'` as 12.34 when `unit` is `m`: a decimal, optional white space, and the
    /// unit exactly. An empty `unit` reads a bare number (`@otu`, `@number`).
    static func measure(_ bytes: UnsafeBufferPointer<UInt8>, unit: StaticString) -> SSRFValue<DecimalNumber> {
        let b = trimmed(bytes)
        let n = b.count
        var i = 0
        if i < n, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
        let digitsStart = i
        while i < n, isDigit(b[i]) || b[i] == UInt8(ascii: ".") { i += 1 }
        guard i > digitsStart, let base = b.baseAddress else { return .invalid }
        guard let number = DecimalNumber(bytes: UnsafeRawBufferPointer(start: base, count: i)) else { return .invalid }
        var j = i
        while j < n, isSpace(b[j]) { j += 1 }
        let rest = UnsafeBufferPointer(start: base + j, count: n - j)
        if equals(rest, unit) { return .value(number) }
        // A letter straight after the digits with no unit expected is no number at all.
        return .unit(String(decoding: rest, as: UTF8.self))
    }

    /// `'66:50 min'` as 4010 seconds: Subsurface's clock, `seconds / 60` and two digits of
    /// `seconds % 60`, then ` min`. A bare `'66 min'` is not read (a factor-of-60 guess).
    /// Subsurface prints the clock unsigned, so a negative time comes as 2³² plus it
    /// (−10 s is `'71582788:06 min'`): a total past 2³¹ s is read back as negative.
    static func clock(_ bytes: UnsafeBufferPointer<UInt8>) -> SSRFValue<Int> {
        let b = trimmed(bytes)
        let n = b.count
        var i = 0
        var minutes = 0
        while i < n, isDigit(b[i]) {
            guard minutes < 100_000_000 else { return .invalid }
            minutes = minutes * 10 + Int(b[i] - 0x30)
            i += 1
        }
        guard i > 0, i + 3 <= n, b[i] == UInt8(ascii: ":"), isDigit(b[i + 1]), isDigit(b[i + 2]) else {
            // A number with a unit other than the clock's (`'4010 s'`) names its unit.
            if case .unit(let u) = measure(bytes, unit: "min"), !u.isEmpty, u != "min" { return .unit(u) }
            return .invalid
        }
        let seconds = Int(b[i + 1] - 0x30) * 10 + Int(b[i + 2] - 0x30)
        guard seconds < 60 else { return .invalid }
        var j = i + 3
        while j < n, isSpace(b[j]) { j += 1 }
        let rest = UnsafeBufferPointer(start: b.baseAddress.map { $0 + j }, count: n - j)
        guard equals(rest, "min") else {
            if j < n, isDigit(b[j]) || b[j] == UInt8(ascii: ":") { return .invalid }
            return .unit(String(decoding: rest, as: UTF8.self))
        }
        let total = minutes * 60 + seconds
        return .value(total > 1 << 31 ? total - (1 << 32) : total)
    }

    /// A whole number with no unit (`@heartbeat`, `@bearing`, `@cylinder`, a star rating).
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let b = trimmed(bytes)
        var i = 0, negative = false
        if i < b.count, b[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if i < b.count, b[i] == UInt8(ascii: "+") { i += 1 }
        guard i < b.count else { return nil }
        var v = 0
        while i < b.count {
            guard isDigit(b[i]), v < 1_000_000_000_000 else { return nil }
            v = v * 10 + Int(b[i] - 0x30)
            i += 1
        }
        return negative ? -v : v
    }

    static func integer(_ s: String) -> Int? {
        var s = s
        return s.withUTF8 { integer($0) }
    }

    static func measure(_ s: String, unit: StaticString) -> SSRFValue<DecimalNumber> {
        var s = s
        return s.withUTF8 { measure($0, unit: unit) }
    }

    static func clock(_ s: String) -> SSRFValue<Int> {
        var s = s
        return s.withUTF8 { clock($0) }
    }

    @inline(__always) static func equals(_ b: UnsafeBufferPointer<UInt8>, _ s: StaticString) -> Bool {
        guard b.count == s.utf8CodeUnitCount else { return false }
        let p = s.utf8Start
        for k in 0..<b.count where b[k] != p[k] { return false }
        return true
    }

    /// A date as Subsurface writes it, `YYYY-MM-DD`, read leniently as its parser does
    /// (`2014-4-1`, month and day unpadded).
    static func date(_ text: String) -> LocalDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.utf8.allSatisfy(isDigit) }),
              parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        return LocalDate(year: y, month: m, day: d)
    }

    /// A time of day `hh:mm:ss`, or `hh:mm` (then `secondsMissing`).
    static func timeOfDay(_ text: String) -> (TimeOfDay, secondsMissing: Bool)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.utf8.allSatisfy(isDigit) }) else { return nil }
        let ints = parts.map { Int($0)! }
        guard let t = TimeOfDay(hour: ints[0], minute: ints[1], second: parts.count == 3 ? ints[2] : 0) else { return nil }
        return (t, parts.count == 2)
    }

    /// A `@gps` pair: two decimals separated by white space, latitude first, as written.
    static func gps(_ text: String) -> (DecimalNumber, DecimalNumber)? {
        let halves = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard halves.count == 2,
              halves.allSatisfy({ h in h.utf8.allSatisfy { isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") } }),
              let lat = DecimalNumber(String(halves[0])), let lon = DecimalNumber(String(halves[1])) else { return nil }
        return (lat, lon)
    }
}

extension DecimalNumber {
    /// The exact decimal as an extension number (`12.5`, `3`).
    var extensionNumber: ExtensionValue { .number(normalized().description) }
}
