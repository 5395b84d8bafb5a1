import DiveCore

/// The identity namespace, the limits and the sniff of DAN's DL7 text (`.zxu`, `.zxl`).
public enum DL7 {
    /// `uuid5(NAMESPACE_URL, "https://divejson.org/ns/dl7")`: frozen, like every format's
    /// (DiveJSON `converting.md`, *Identity*).
    public static let namespace = "57e21eed-f1b0-594f-a9fd-d0d6c209f9bf"

    /// The longest line (segment) read: 64 KiB, the spec's bound on one field (*Data types*:
    /// "to a maximum length of 64K"). A longer line is `dl7.line-too-long` at its line and the
    /// column where it passes the bound, so a file with no line ends costs bounded memory.
    public static let lineBytes = 1 << 16

    /// How sure the sniffer is that text is DL7: after an optional UTF-8 byte-order mark and
    /// blank lines, `FSH` followed by a field separator (a punctuation byte, `|` in every file
    /// met) and the encoding characters up to the next separator.
    public static func sniff(_ text: [UInt8]) -> Bool {
        var i = 0
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < text.count, text[i] == 0x0D || text[i] == 0x0A || text[i] == 0x20 { i += 1 }
        guard text.count >= i + 5, text[i] == UInt8(ascii: "F"), text[i + 1] == UInt8(ascii: "S"), text[i + 2] == UInt8(ascii: "H") else { return false }
        return isSeparator(text[i + 3])
    }

    /// A byte that can be a field separator: printable ASCII punctuation.
    static func isSeparator(_ b: UInt8) -> Bool {
        b > 0x20 && b < 0x7F && !(b >= 0x30 && b <= 0x39) && !((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
    }
}
