import DiveCore

/// The parts of a cell that describes a whole cylinder: `EAN32 12L 200->70bar`,
/// `Air 11.1l 210-50 bar`, `Nitrox 32% 15 l 200 > 60 bar`.
public struct CSVCylinderCell: Sendable, Hashable {
    /// What is left once the size and the pressures are taken out (`EAN32`), trimmed; `nil`
    /// when nothing is.
    public var gas: String?
    /// The size as written (`12L`), with its unit.
    public var size: CSVWrittenQuantity?
    /// The start and end pressures as written (`200->70bar`), each with the unit written after
    /// it or, failing that, the other's; `nil` units when neither states one.
    public var pressures: Pressures?

    /// The two pressures of a cylinder cell and their units.
    public struct Pressures: Sendable, Hashable {
        /// The start pressure, in `startUnit`.
        public var start: Double
        /// The end pressure, in `endUnit`.
        public var end: Double
        /// The start pressure's unit: written after it or, failing that, after the end pressure; `nil` when neither states one.
        public var startUnit: CSVUnit?
        /// The end pressure's unit: written after it or, failing that, after the start pressure; `nil` when neither states one.
        public var endUnit: CSVUnit?
        /// The pressures' text as written (`200->70bar`).
        public var text: String
    }
}

/// A position as degrees, minutes and seconds with hemispheres, read by ``CSVValues/position(_:)``.
public struct CSVPosition: Sendable, Hashable {
    /// Degrees north; negative is south.
    public var latitude: Double
    /// Degrees east; negative is west.
    public var longitude: Double
}

extension CSVValues {
    /// A gas cell that also gives its cylinder's size (a number with a unit of volume) or its
    /// start and end pressures (two numbers joined by `->`, `→`, `=>`, `>` or `to`, or by `-`
    /// when a pressure unit is written with them); `nil` when it gives neither, then the cell
    /// is a gas's name.
    public static func cylinderCell(_ text: String) -> CSVCylinderCell? {
        var rest = text
        var cell = CSVCylinderCell()
        let number = #"(\d+(?:[.,]\d+)?)"#
        // Pressures first: `200-50 bar` holds no size.
        if let pressure = try? Regex(#"(^|\s)"# + number + #"\s*(bar|psi)?\s*(->|=>|→|>|–|—|-|to)\s*"# + number + #"\s*(bar|psi)?(?=\s|$)"#).ignoresCase(),
           let m = rest.firstMatch(of: pressure),
           let a = m.output[2].substring.flatMap(decimal), let b = m.output[5].substring.flatMap(decimal) {
            let u1 = m.output[3].substring.flatMap { CSVUnit(spelling: String($0)) }
            let u2 = m.output[6].substring.flatMap { CSVUnit(spelling: String($0)) }
            let arrow = m.output[4].substring.map(String.init) ?? ""
            if u1 != nil || u2 != nil || !["-", "–", "—"].contains(arrow) {
                let written = String(rest[m.range]).trimmingWhitespace()
                cell.pressures = .init(start: a, end: b, startUnit: u1 ?? u2, endUnit: u2 ?? u1, text: written)
                rest.replaceSubrange(m.range, with: " ")
            }
        }
        if let volume = try? Regex(#"(^|\s)"# + number + #"\s*(l|ltr|liters?|litres?|cuft|cu ft|cf|ft3)(?=\s|$)"#).ignoresCase(),
           let m = rest.firstMatch(of: volume),
           let v = m.output[2].substring.flatMap(decimal),
           let u = m.output[3].substring.flatMap({ CSVUnit(spelling: String($0)) }) {
            cell.size = CSVWrittenQuantity(value: v, unit: u, text: String(rest[m.range]).trimmingWhitespace(), step: 1)
            rest.replaceSubrange(m.range, with: " ")
        }
        guard cell.size != nil || cell.pressures != nil else { return nil }
        let gas = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        cell.gas = gas.isEmpty ? nil : gas
        return cell
    }

    /// `12`, `11.1`, `11,1`.
    private static func decimal(_ s: Substring) -> Double? {
        Double(String(s.map { $0 == "," ? "." : $0 }))
    }

    /// A latitude and a longitude in one cell, written with hemispheres or marks of degrees
    /// and minutes: `N 27°44.052' E 34°15.402'`, `27°44'03"N 34°15'24"E`, `S 8.5 E 115.3`.
    /// A hemisphere letter before or after a coordinate, a `°` after degrees, `'` after
    /// minutes and `"` after seconds separate the two; S and W are negative. Hemispheres say
    /// which is the latitude; without them the first is. `nil` for anything else (a minute or
    /// second of 60 or more, minutes after degrees with a fraction, two latitudes), and for
    /// plain numbers, which ``number(_:decimalMark:)`` reads. Not range-checked.
    public static func position(_ text: Substring) -> CSVPosition? {
        struct Coordinate { var parts: [Double] = []; var hemisphere: Character?; var fractional = false }
        var coordinates: [Coordinate] = []
        var current = Coordinate()
        var marked = false
        func close() {
            if !current.parts.isEmpty || current.hemisphere != nil { coordinates.append(current) }
            current = Coordinate()
        }
        var i = text.startIndex
        while i < text.endIndex {
            let ch = text[i]
            switch ch {
            case " ", "\t":
                i = text.index(after: i)
            case ",", ";":
                if !current.parts.isEmpty { close() }
                i = text.index(after: i)
            case "N", "S", "E", "W", "n", "s", "e", "w":
                let h = Character(ch.uppercased())
                marked = true
                if current.parts.isEmpty {
                    guard current.hemisphere == nil else { return nil }
                    current.hemisphere = h
                } else if current.hemisphere == nil {
                    current.hemisphere = h
                    close()
                } else {
                    close()
                    current.hemisphere = h
                }
                i = text.index(after: i)
            case "0"..."9", ".", "-", "+":
                var end = i
                while end < text.endIndex, "0123456789.-+".contains(text[end]) { end = text.index(after: end) }
                guard let v = Double(text[i..<end]) else { return nil }
                var mark: Character?
                if end < text.endIndex, "°º'′\"″".contains(text[end]) {
                    mark = text[end]
                    end = text.index(after: end)
                    // `''` written for seconds.
                    if mark == "'", end < text.endIndex, text[end] == "'" { mark = "\""; end = text.index(after: end) }
                    marked = true
                }
                switch mark {
                case "°", "º":
                    if !current.parts.isEmpty { close() }
                case "'", "′":
                    guard current.parts.count == 1 else { return nil }
                case "\"", "″":
                    guard current.parts.count == 2 else { return nil }
                default:
                    guard current.parts.count < 3 else { return nil }
                }
                // A part with a fraction is the last of its coordinate.
                guard !current.fractional else { return nil }
                current.fractional = v != v.rounded(.towardZero)
                current.parts.append(v)
                i = end
            default:
                return nil
            }
        }
        close()
        guard marked, coordinates.count == 2 else { return nil }
        var values: [(value: Double, hemisphere: Character?)] = []
        for c in coordinates {
            guard let degrees = c.parts.first else { return nil }
            let minutes = c.parts.count > 1 ? c.parts[1] : 0, seconds = c.parts.count > 2 ? c.parts[2] : 0
            guard minutes >= 0, minutes < 60, seconds >= 0, seconds < 60 else { return nil }
            if c.hemisphere != nil && degrees < 0 { return nil }
            var v = abs(degrees) + minutes / 60 + seconds / 3600
            if degrees < 0 || c.hemisphere == "S" || c.hemisphere == "W" { v = -v }
            values.append((v, c.hemisphere))
        }
        func isLatitude(_ h: Character?) -> Bool? { h.map { $0 == "N" || $0 == "S" } }
        switch (isLatitude(values[0].hemisphere), isLatitude(values[1].hemisphere)) {
        case (.some(true), .some(true)), (.some(false), .some(false)): return nil
        case (.some(false), _), (_, .some(true)): return CSVPosition(latitude: values[1].value, longitude: values[0].value)
        default: return CSVPosition(latitude: values[0].value, longitude: values[1].value)
        }
    }
}
