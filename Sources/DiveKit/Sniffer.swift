import DiveCore
import DiveCSV

/// What the first bytes of a file say it is.
public enum SniffResult: Sendable, Hashable {
    /// A dive-log format umilog reads.
    case format(FileFormat)
    /// A dive-log format umilog recognises but does not read yet (the registry's name for it).
    case unread(name: String, root: String?)
    /// XML whose root element is not one umilog knows (the root's name).
    case otherXML(root: String)
    /// Not a dive log umilog recognises.
    case unknown
}

/// Decides a file's format from its bytes, never from its name, by asking every format in
/// ``FormatRegistry`` how sure it is.
public enum Sniffer {
    /// How much of a file the sniffer looks at.
    public static let headSize = 64 * 1024

    /// Sniffs the first bytes of a file (``headSize`` of them, or the whole file when
    /// `isWholeInput`, which lets a short CSV's last line count).
    public static func sniff(_ bytes: [UInt8], isWholeInput: Bool = true) -> SniffResult {
        let input = sniffInput(bytes, isWholeInput: isWholeInput)
        if let entry = FormatRegistry.sniff(input) {
            return entry.open != nil ? .format(entry.format) : .unread(name: entry.name, root: input.xmlRoot)
        }
        if let root = input.xmlRoot { return .otherXML(root: root) }
        return .unknown
    }

    /// What the registry's sniffers look at, from a file's first bytes.
    public static func sniffInput(_ bytes: [UInt8], isWholeInput: Bool) -> SniffInput {
        let text = singleByteText(bytes)
        var i = 0
        while i < text.count, isSpace(text[i]) { i += 1 }
        let isJSON = i < text.count && (text[i] == UInt8(ascii: "{") || text[i] == UInt8(ascii: "["))
        let (root, tag) = i < text.count && text[i] == UInt8(ascii: "<") ? xmlRoot(text, from: i) : (nil, nil)
        return SniffInput(bytes: bytes, text: text, isWholeInput: isWholeInput, xmlRoot: root, xmlRootTag: tag, isJSON: isJSON)
    }

    /// The bytes as single-byte text: without a UTF-8 byte-order mark, and a UTF-16 file's
    /// every other byte (with a byte-order mark, or without one when the CSV reader would read
    /// it as UTF-16 by its zero bytes).
    static func singleByteText(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes.starts(with: [0xFF, 0xFE])
            return stride(from: 2, to: bytes.count - 1, by: 2).map { little ? bytes[$0] : bytes[$0 + 1] }
        }
        if let utf16 = CSVEncoding.unmarkedUTF16(bytes) {
            return stride(from: 0, to: bytes.count - 1, by: 2).map { utf16 == .utf16LE ? bytes[$0] : bytes[$0 + 1] }
        }
        return bytes
    }

    /// The root element's local name and start tag (DiveCore's ``SniffInput/xmlRoot(_:from:)``,
    /// the one scan every format module reaches).
    static func xmlRoot(_ bytes: [UInt8], from start: Int) -> (String?, String?) {
        let r = SniffInput.xmlRoot(bytes, from: start)
        return (r.name, r.tag)
    }

    /// The first ``headSize`` bytes of the file at `path` (fewer when it is shorter).
    public static func head(path: String, displayName: String) throws -> [UInt8] {
        let file = try InputFile(path: path, displayName: displayName)
        var buffer = [UInt8](repeating: 0, count: headSize)
        let n = try buffer.withUnsafeMutableBytes { try file.readFully(into: $0) }
        return Array(buffer.prefix(n))
    }

    /// True when a JSON object's first key is `key` (white space allowed).
    public static func opensWithKey(_ key: String, _ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return false }
        i += 1
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        return bytes[i...].starts(with: Array("\"\(key)\"".utf8))
    }

    /// True when JSON text declares itself DiveJSON the way a document opens:
    /// `"format"`, a colon, `"divejson"` (white space allowed between).
    public static func declaresDiveJSON(_ bytes: [UInt8]) -> Bool {
        let key = Array("\"format\"".utf8), value = Array("\"divejson\"".utf8)
        func skipSpace(_ i: inout Int) { while i < bytes.count, isSpace(bytes[i]) { i += 1 } }
        var from = 0
        while let at = find(key, in: bytes, from: from) {
            var i = at + key.count
            skipSpace(&i)
            if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
                i += 1
                skipSpace(&i)
                if bytes[i...].starts(with: value) { return true }
            }
            from = at + 1
        }
        return false
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        guard needle.count <= hay.count else { return nil }
        var i = from
        while i + needle.count <= hay.count {
            if hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// Text (no NUL bytes) that DiveCSV's dialect sniffer reads as one table at least two
    /// fields wide, after any preamble — the judgement the CSV reader makes, line ends
    /// included. Prose with a table in it (a Markdown document) is not one.
    static func looksLikeCSV(_ input: SniffInput) -> Bool {
        var i = 0
        while i < input.text.count, isSpace(input.text[i]) { i += 1 }
        guard i < input.text.count, !input.isJSON, input.xmlRoot == nil, input.text[i] != UInt8(ascii: "<") else { return false }
        return looksLikeCSV(Array(input.text[i...]), isWholeInput: input.isWholeInput)
    }

    static func looksLikeCSV(_ bytes: [UInt8], isWholeInput: Bool) -> Bool {
        guard !bytes.contains(0) else { return false }
        let (dialect, isOneTable) = bytes.withUnsafeBytes { CSVDialect.sniffTable(sample: $0, isWholeInput: isWholeInput) }
        return dialect.fieldCount >= 2 && isOneTable
    }
}

/// XML and JSON white space (space, tab, LF, CR).
@inline(__always) private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
