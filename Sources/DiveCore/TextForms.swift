/// The forms of text DiveJSON constrains (`format: email`, `format: uri`). Readers check a
/// source string with these before carrying it, and the validator checks documents with the
/// same ones, so a converter never writes what its own validator would refuse.
public enum TextForms {
    /// `local@domain`: one `@`, text on both sides, no white space.
    public static func isEmailAddress(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !s.contains(where: \.isWhitespace)
    }

    /// An absolute URI: a scheme (a letter, then letters, digits, `+`, `-` or `.`), a colon,
    /// and something after it; no white space. `www.example.com` is not one.
    public static func isAbsoluteURI(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon != s.startIndex, s.index(after: colon) != s.endIndex,
              !s.contains(where: \.isWhitespace) else { return false }
        let scheme = s[..<colon]
        return scheme.first!.isLetter && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}

extension String {
    /// The string as two names are compared: without surrounding whitespace, lowercased.
    public var folded: String { trimmingWhitespace().lowercased() }

    /// The string without leading and trailing whitespace as XML and CSV mean it (space,
    /// tab, CR, LF).
    public func trimmingWhitespace() -> String {
        let u = utf8
        guard let first = u.firstIndex(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else { return "" }
        let last = u.lastIndex(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) })!
        if first == u.startIndex && last == u.index(before: u.endIndex) { return self }
        return String(self[first...last])
    }
}
