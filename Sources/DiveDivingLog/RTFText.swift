/// The plain text of an RTF document, as Diving Log's notes editor stores a dive's comments
/// (`{\rtf1\ansi\ansicpg1252…}`): the text runs of the body; `\par` and `\line` a new line,
/// `\tab` a tab; `\'hh` a byte of the document's code page (Windows-1252, the only one Diving
/// Log writes, read as such); `\uN` a Unicode character, its one fallback character skipped;
/// the font and colour tables, the style sheet, `\info` and every `{\*…}` destination skipped.
enum RTFText {
    static func plainText(_ rtf: String) -> String {
        let b = Array(rtf.utf8)
        var out: [UInt8] = []
        var i = 0
        /// Depths at which a skipped destination began; text is kept while it is empty.
        var depth = 0
        var skipFrom: Int?
        var skipNext = 0
        func emit(_ bytes: [UInt8]) {
            guard skipFrom == nil else { return }
            if skipNext > 0 { skipNext -= 1; return }
            out += bytes
        }
        while i < b.count {
            let c = b[i]
            switch c {
            case UInt8(ascii: "{"):
                depth += 1
                i += 1
                // A destination this reader skips: `{\*`, `{\fonttbl`, `{\colortbl`, `{\stylesheet`, `{\info`.
                if skipFrom == nil, i < b.count, b[i] == UInt8(ascii: "\\") {
                    let word = controlWord(b, i + 1).word
                    if word == "*" || ["fonttbl", "colortbl", "stylesheet", "info", "pict", "header", "footer"].contains(word) { skipFrom = depth }
                }
            case UInt8(ascii: "}"):
                if let s = skipFrom, s == depth { skipFrom = nil }
                depth -= 1
                i += 1
            case UInt8(ascii: "\\"):
                guard i + 1 < b.count else { i += 1; continue }
                let n = b[i + 1]
                if n == UInt8(ascii: "\\") || n == UInt8(ascii: "{") || n == UInt8(ascii: "}") { emit([n]); i += 2; continue }
                if n == UInt8(ascii: "'") && i + 3 < b.count, let v = UInt8(String(decoding: b[(i + 2)...(i + 3)], as: UTF8.self), radix: 16) {
                    emit(Array(String(cp1252(v)).utf8))
                    i += 4
                    continue
                }
                if n == 0x0A || n == 0x0D { emit([0x0A]); i += 2; continue }
                let (word, param, end) = controlWord(b, i + 1)
                i = end
                switch word {
                case "par", "line": emit([0x0A])
                case "tab": emit([0x09])
                case "u":
                    if let p = param, let scalar = Unicode.Scalar(UInt32(p < 0 ? p + 65536 : p)) { emit(Array(String(Character(scalar)).utf8)) }
                    if skipFrom == nil { skipNext = 1 }
                case "*": skipFrom = skipFrom ?? depth
                default: break
                }
            case 0x0A, 0x0D:
                i += 1
            default:
                emit([c])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The control word starting at `start` (after its backslash): its letters, its numeric
    /// parameter, and the index after it (and after the one space that ends it).
    private static func controlWord(_ b: [UInt8], _ start: Int) -> (word: String, param: Int?, end: Int) {
        var i = start
        guard i < b.count else { return ("", nil, i) }
        func letter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        guard letter(b[i]) else { return (String(UnicodeScalar(b[i])), nil, i + 1) }
        while i < b.count, letter(b[i]) { i += 1 }
        let word = String(decoding: b[start..<i], as: UTF8.self)
        let p0 = i
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }
        let param = i > p0 ? Int(String(decoding: b[p0..<i], as: UTF8.self)) : nil
        if i < b.count, b[i] == 0x20 { i += 1 }
        return (word, param, i)
    }

    /// A Windows-1252 byte as a character (0x80–0x9F differ from Latin-1).
    static func cp1252(_ v: UInt8) -> Character {
        let high: [UInt32] = [0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
                              0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178]
        let code = v >= 0x80 && v < 0xA0 ? high[Int(v - 0x80)] : UInt32(v)
        return Character(Unicode.Scalar(code) ?? "?")
    }
}
