/// One quantity of a cell that writes it in two units, as written (`31 ft` of `9.3 m / 31 ft`).
public struct CSVWrittenQuantity: Sendable, Hashable {
    /// The number as written, in ``unit``.
    public var value: Double
    /// The unit written after the number.
    public var unit: CSVUnit
    /// The text it was read from, trimmed.
    public var text: String
    /// One unit of its last digit (`0.1` for `9.3`, `1` for `31`): how finely it was rounded.
    public var step: Double
}

extension CSVValues {
    /// The two quantities of a cell that writes one value in two units of one dimension:
    /// `9.3 m / 31 ft`, `22 C (72 F)`, `200 bar | 2900 psi`. Each part must state its unit,
    /// the units must differ and measure a length, temperature, pressure, volume or weight;
    /// else `nil` (`30/70` is no such cell).
    public static func twoUnits(_ text: Substring, decimalMark: UInt8 = UInt8(ascii: ".")) -> (CSVWrittenQuantity, CSVWrittenQuantity)? {
        var s = text
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        let first: Substring, second: Substring
        if let bar = s.firstIndex(of: "|") {
            first = s[..<bar]; second = s[s.index(after: bar)...]
        } else if s.last == ")", let open = s.firstIndex(of: "(") {
            first = s[..<open]; second = s[s.index(after: open)..<s.index(before: s.endIndex)]
        } else if let slash = s.firstIndex(of: "/") {
            first = s[..<slash]; second = s[s.index(after: slash)...]
        } else {
            return nil
        }
        guard let a = written(first, decimalMark), let b = written(second, decimalMark),
              a.unit != b.unit, a.unit.dimension == b.unit.dimension,
              [.length, .temperature, .pressure, .volume, .mass].contains(a.unit.dimension) else { return nil }
        return (a, b)
    }

    /// One part of a two-unit cell: a number with its unit.
    private static func written(_ part: Substring, _ mark: UInt8) -> CSVWrittenQuantity? {
        var p = part
        while p.first == " " { p.removeFirst() }
        while p.last == " " { p.removeLast() }
        guard !p.contains("/"), !p.contains("("), let q = quantity(p, decimalMark: mark), let unit = q.unit else { return nil }
        // The digits after the decimal mark give the rounding.
        var decimals = 0, afterMark = false
        for b in p.utf8 {
            if b == mark { afterMark = true } else if b &- 0x30 < 10 { if afterMark { decimals += 1 } } else if b != UInt8(ascii: "-") && b != UInt8(ascii: "+") { break }
        }
        var step = 1.0
        for _ in 0..<decimals { step /= 10 }
        return CSVWrittenQuantity(value: q.value, unit: unit, text: String(p), step: step)
    }
}
