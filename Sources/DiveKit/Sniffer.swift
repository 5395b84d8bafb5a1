import DiveCore
import DiveCSV

/// What the first bytes of a file say it is.
public enum SniffResult: Sendable, Hashable {
    /// A dive-log format umilog knows.
    case format(FileFormat)
    /// XML whose root element is not one umilog reads (the root's name).
    case otherXML(root: String)
    /// Not a dive log umilog recognises.
    case unknown
}

/// Decides a file's format from its bytes, never from its name.
public enum Sniffer {
    /// Dive-log XML formats umilog recognises but does not read yet, by lowercased root
    /// element (each seen in a real export). A root several formats share (`<dive>`: Suunto
    /// DM4/DM5 and libdivecomputer dumps) names none of them.
    public static let knownXMLLogbooks: [String: String] = [
        "divelog": "Subsurface XML", "divinglog": "Diving Log XML", "profile": "UDCF",
    ]

    /// How much of a file the sniffer looks at.
    public static let headSize = 64 * 1024

    /// Sniffs the first bytes of a file (``headSize`` of them, or the whole file when
    /// `isWholeInput`, which lets a short CSV's last line count).
    public static func sniff(_ bytes: [UInt8], isWholeInput: Bool = true) -> SniffResult {
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            // UTF-16: look at every other byte.
            let ascii = stride(from: 2, to: bytes.count - 1, by: 2).map { bytes.starts(with: [0xFF, 0xFE]) ? bytes[$0] : bytes[$0 + 1] }
            return sniff(ascii, isWholeInput: isWholeInput)
        }
        if let utf16 = CSVEncoding.unmarkedUTF16(bytes) {
            // UTF-16 without a byte-order mark: the CSV reader tells it by its zero bytes, so a
            // table in it is CSV (every other byte is its text).
            let ascii = stride(from: 0, to: bytes.count - 1, by: 2).map { utf16 == .utf16LE ? bytes[$0] : bytes[$0 + 1] }
            if case .format(.csv) = sniff(ascii, isWholeInput: isWholeInput) { return .format(.csv) }
        }
        func skipSpace() { while i < bytes.count, isSpace(bytes[i]) { i += 1 } }
        skipSpace()
        guard i < bytes.count else { return .unknown }
        if bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[") { return .format(.json) }
        if bytes[i] == UInt8(ascii: "<") {
            // Skip the declaration, processing instructions, comments and a DOCTYPE to the root.
            while i < bytes.count {
                skipSpace()
                guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "<") else { break }
                if bytes[i + 1] == UInt8(ascii: "?") {
                    guard let end = find([UInt8(ascii: "?"), UInt8(ascii: ">")], in: bytes, from: i) else { return .unknown }
                    i = end + 2
                } else if bytes[i + 1] == UInt8(ascii: "!") {
                    if bytes[i...].starts(with: Array("<!--".utf8)) {
                        guard let end = find(Array("-->".utf8), in: bytes, from: i) else { return .unknown }
                        i = end + 3
                    } else if bytes[i...].starts(with: Array("<!DOCTYPE".utf8)) {
                        // The declaration names the root: a UDDF file with a DOCTYPE is still
                        // UDDF, and its reader refuses the DOCTYPE with a located error.
                        var j = i + 9
                        while j < bytes.count, isSpace(bytes[j]) { j += 1 }
                        var k = j
                        while k < bytes.count, !(isSpace(bytes[k]) || bytes[k] == UInt8(ascii: ">") || bytes[k] == UInt8(ascii: "[")) { k += 1 }
                        let root = String(decoding: bytes[j..<k], as: UTF8.self)
                        if root.lowercased() == "uddf" { return .format(.uddf) }
                        return root.isEmpty ? .unknown : .otherXML(root: root)
                    } else {
                        guard let end = find([UInt8(ascii: ">")], in: bytes, from: i) else { return .unknown }
                        i = end + 1
                    }
                } else {
                    var j = i + 1
                    while j < bytes.count, !(isSpace(bytes[j]) || bytes[j] == UInt8(ascii: ">") || bytes[j] == UInt8(ascii: "/")) { j += 1 }
                    var name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
                    if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
                    if name.lowercased() == "uddf" { return .format(.uddf) }
                    return name.isEmpty ? .unknown : .otherXML(root: name)
                }
            }
            return .unknown
        }
        return looksLikeCSV(Array(bytes[i...]), isWholeInput: isWholeInput) ? .format(.csv) : .unknown
    }

    /// The first ``headSize`` bytes of the file at `path` (fewer when it is shorter).
    public static func head(path: String, displayName: String) throws -> [UInt8] {
        let file = try InputFile(path: path, displayName: displayName)
        var buffer = [UInt8](repeating: 0, count: headSize)
        let n = try buffer.withUnsafeMutableBytes { try file.readFully(into: $0) }
        return Array(buffer.prefix(n))
    }

    /// The name of the dive-log format a file is in when umilog recognises it but does not
    /// read it yet, from rules of each format's structure: the XML roots of
    /// ``knownXMLLogbooks``; `<dive>`, the root Suunto DM4/DM5 and libdivecomputer's dumps
    /// share; Subsurface's first XML (`<dives>` with `<program name='subsurface'>`); the
    /// Suunto app's JSON (a `DeviceLog` object first); DAN's DL7 text (`FSH|` segments, as
    /// Suunto Dive Manager's and Diving Log's ZXL/ZXU files are). `nil` for anything else.
    public static func unreadLogbook(_ head: [UInt8]) -> String? {
        var i = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < head.count, isSpace(head[i]) { i += 1 }
        let rest = Array(head[i...])
        if rest.starts(with: Array("FSH|".utf8)) { return "DAN DL7 (ZXL/ZXU)" }
        if rest.first == UInt8(ascii: "{") {
            var j = 1
            while j < rest.count, isSpace(rest[j]) { j += 1 }
            return rest[j...].starts(with: Array("\"DeviceLog\"".utf8)) ? "Suunto app DeviceLog JSON" : nil
        }
        guard case .otherXML(let root) = sniff(head, isWholeInput: head.count < headSize) else { return nil }
        if let known = knownXMLLogbooks[root.lowercased()] { return known }
        switch root.lowercased() {
        case "dive": return "dive computer XML (Suunto DM4/DM5 or a libdivecomputer dump)"
        case "dives": return find(Array("<program name='subsurface'".utf8), in: head, from: 0) != nil
            || find(Array("<program name=\"subsurface\"".utf8), in: head, from: 0) != nil ? "Subsurface XML (version 1)" : nil
        default: return nil
        }
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
    static func looksLikeCSV(_ bytes: [UInt8], isWholeInput: Bool) -> Bool {
        guard !bytes.contains(0) else { return false }
        let (dialect, isOneTable) = bytes.withUnsafeBytes { CSVDialect.sniffTable(sample: $0, isWholeInput: isWholeInput) }
        return dialect.fieldCount >= 2 && isOneTable
    }
}

/// XML and JSON white space (space, tab, LF, CR).
@inline(__always) private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
