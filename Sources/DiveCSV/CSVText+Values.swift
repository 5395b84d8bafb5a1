/// What a field's bytes look like, decided without building a `String`: the dialect sniffer
/// and the structure check classify every value this way.
enum CSVValueShape: UInt8, Sendable, Hashable {
    /// Nothing but spaces.
    case empty
    /// Digits with an optional sign (`12`, `-3`, `0023469553`), and an optional exponent.
    case integer
    /// A number with a decimal point (`12.5`, `.5`, `1e-3` is an ``integer`` with exponent).
    case decimalPoint
    /// A number with a decimal comma (`12,5`).
    case decimalComma
    /// Digits joined by date and time separators (`2024-09-21`, `10/1/13`, `0:40`,
    /// `2/18/2026 7:37:41 PM`, `12.10.2024`).
    case dateTime
    /// A number with a decimal point or comma and a unit after it (`18.4 m`, `25,7m`,
    /// `22,5 °C`): a value, whose mark counts toward the file's decimal mark.
    case quantityPoint
    case quantityComma
    /// Anything else.
    case text

    /// A number or a date: what the rows under a header usually hold.
    var isValueLike: Bool { self != .text && self != .empty }

    /// True when this is a number written with `decimalMark` (`.` or `,`); integers are
    /// numbers under either mark.
    func isNumber(decimalMark: UInt8) -> Bool {
        switch self {
        case .integer: return true
        case .decimalPoint: return decimalMark == UInt8(ascii: ".")
        case .decimalComma: return decimalMark == UInt8(ascii: ",")
        default: return false
        }
    }

    /// Classifies `bytes` (a field's value, quotes already removed). Leading and trailing
    /// spaces are ignored.
    static func of(_ bytes: UnsafeRawBufferPointer) -> CSVValueShape {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        guard start < end else { return .empty }
        if let number = number(bytes, start, end) { return number }
        if isDateTime(bytes, start, end) { return .dateTime }
        return quantity(bytes, start, end) ?? .text
    }

    /// A decimal number followed by a unit: up to one space, then one to five letters, `°`
    /// or `%` (`18,4 m`, `22.5°C`, `45,5 min`).
    private static func quantity(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> CSVValueShape? {
        var cut = end
        while cut > start, !isDigit(b[cut - 1]) { cut -= 1 }
        guard cut > start, cut < end, end - cut <= 7 else { return nil }
        var unit = cut
        if b[unit] == 0x20 { unit += 1 }
        guard unit < end else { return nil }
        for i in unit..<end {
            let c = b[i] | 0x20
            // Letters, `%`, and the bytes of `°` (C2 B0) and of `℃`-like signs.
            guard (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || b[i] == UInt8(ascii: "%") || b[i] >= 0x80 else { return nil }
        }
        switch number(b, start, cut) {
        case .decimalPoint?: return .quantityPoint
        case .decimalComma?: return .quantityComma
        default: return nil
        }
    }

    private static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// Whether `bytes` is a number written with `decimalMark` — the test ``of(_:)`` and
    /// ``isNumber(decimalMark:)`` make together, on the bytes between leading and trailing
    /// spaces; `nil` when it is only spaces.
    @inline(__always)
    static func isNumber(_ bytes: UnsafeRawBufferPointer, decimalMark: UInt8) -> Bool? {
        var start = 0, end = bytes.count
        while start < end && bytes[start] == 0x20 { start += 1 }
        guard start < end else { return nil }
        while bytes[end - 1] == 0x20 { end -= 1 }
        return number(bytes, start, end)?.isNumber(decimalMark: decimalMark) ?? false
    }

    /// `[+-]? digits* ([.,] digits*)? ([eE] [+-]? digits+)?` with at least one mantissa digit.
    @inline(__always)
    private static func number(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> CSVValueShape? {
        var i = start
        if b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
        var digits = 0
        while i < end, isDigit(b[i]) { i += 1; digits += 1 }
        var shape = CSVValueShape.integer
        if i < end, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            shape = b[i] == UInt8(ascii: ".") ? .decimalPoint : .decimalComma
            i += 1
            var fraction = 0
            while i < end, isDigit(b[i]) { i += 1; fraction += 1 }
            // "12," and "12." are not numbers a writer means; ",5" and ".5" are.
            if fraction == 0 { return nil }
            digits += fraction
        }
        guard digits > 0 else { return nil }
        if i < end, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < end, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
            var exponent = 0
            while i < end, isDigit(b[i]) { i += 1; exponent += 1 }
            if exponent == 0 { return nil }
        }
        return i == end ? shape : nil
    }

    /// Digits and `- / : . ,` separators, `T` or a space between date and time, an optional
    /// `Z`, and an optional `AM`/`PM`; at least one separator, a digit first and a digit last.
    private static func isDateTime(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        var end = end
        if end - start > 2 {
            let a = b[end - 2] | 0x20, m = b[end - 1] | 0x20
            if (a == UInt8(ascii: "a") || a == UInt8(ascii: "p")) && m == UInt8(ascii: "m") {
                end -= 2
                while end > start, b[end - 1] == 0x20 { end -= 1 }
            }
        }
        var digits = 0, separators = 0
        for i in start..<end {
            let c = b[i]
            if isDigit(c) { digits += 1; continue }
            switch c {
            case UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: ","):
                separators += 1
            case UInt8(ascii: " "), UInt8(ascii: "T"):
                guard i > start, isDigit(b[i - 1]) else { return false }
            case UInt8(ascii: "Z") where i == end - 1:
                break
            case UInt8(ascii: "+") where i > start:
                separators += 1
            default:
                return false
            }
        }
        let last = b[end - 1]
        return digits > 0 && separators > 0 && isDigit(b[start]) && (isDigit(last) || last == UInt8(ascii: "Z"))
    }
}
