import DiveCore

/// How DM3 writes numbers and dates: the decimal mark of the Windows locale it ran in (a
/// comma, `24,69`, or a point), no thousands separator, no exponent; dates `dd.mm.yyyy` and
/// times `hh:mm:ss`.
extension SuuntoDM3State {
    /// The exact decimal a DM3 number spells: an optional `-`, digits, and at most one
    /// decimal comma or point followed by digits; `nil` for other text.
    static func decimal(_ text: String) -> DecimalNumber? {
        var bytes = Array(text.utf8)
        var i = bytes.first == UInt8(ascii: "-") ? 1 : 0
        let digitsStart = i
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        guard i > digitsStart else { return nil }
        if i < bytes.count {
            guard bytes[i] == UInt8(ascii: ",") || bytes[i] == UInt8(ascii: ".") else { return nil }
            bytes[i] = UInt8(ascii: ".")
            i += 1
            let fraction = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            guard i > fraction, i == bytes.count else { return nil }
        }
        return bytes.withUnsafeBytes { DecimalNumber(bytes: $0) }
    }

    /// The decimal in a field, or a `not-a-number` finding; `nil` when the field is absent or
    /// empty. `path` is built only for the finding.
    func decimal(_ value: DM3Value?, _ name: String, path: @autoclosure () -> String) -> DecimalNumber? {
        guard let value, let text = value.text else { return nil }
        guard let d = Self.decimal(text) else {
            count(.dropped, "not-a-number", name, "<\(name)> holds \"\(text)\", which is not a number; not carried", path: path(), line: value.line)
            return nil
        }
        return d
    }

    /// A field's number as a `Double`.
    func number(_ value: DM3Value?, _ name: String, path: @autoclosure () -> String) -> Double? {
        decimal(value, name, path: path())?.doubleValue
    }

    /// A whole number in a field, or a finding.
    func integer(_ value: DM3Value?, _ name: String, path: @autoclosure () -> String) -> Int? {
        guard let d = decimal(value, name, path: path()) else { return nil }
        guard d.normalized().exponent >= 0, let i = d.roundedInteger(), abs(i) < 1_000_000_000 else {
            report(.dropped, "not-a-whole-number", "<\(name)> holds \(d), which is not a whole number; not carried", path: path(), line: value!.line)
            return nil
        }
        return i
    }

    /// `dd.mm.yyyy` (one-digit day and month allowed).
    static func date(_ text: String) -> LocalDate? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...2).contains(parts[0].count), (1...2).contains(parts[1].count), parts[2].count == 4,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let d = Int(parts[0]), let m = Int(parts[1]), let y = Int(parts[2]) else { return nil }
        return LocalDate(year: y, month: m, day: d)
    }

    /// `hh:mm:ss` or `hh:mm`; the second element says the seconds were missing.
    static func time(_ text: String) -> (TimeOfDay, secondsMissing: Bool)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        let s = parts.count == 3 ? Int(parts[2]) ?? -1 : 0
        guard let t = TimeOfDay(hour: h, minute: m, second: s) else { return nil }
        return (t, parts.count == 2)
    }
}
