import DiveCore

/// Writes XML text in the layout of the DiveJSON corpus's UDDF files — two-space indentation,
/// `<empty />` elements, attributes in double quotes — into a byte buffer that its owner
/// flushes to a ``ByteSink``. Text is escaped; characters XML 1.0 cannot hold are left out
/// and counted, so the caller can report them.
struct XMLEmitter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Characters dropped because XML 1.0 has no spelling for them.
    private(set) var droppedCharacters = 0

    init(depth: Int = 0) {
        self.depth = depth
        bytes.reserveCapacity(1 << 16)
    }

    private mutating func indent() {
        for _ in 0..<depth { bytes.append(0x20); bytes.append(0x20) }
    }

    /// Attribute values are escaped unless `verbatim` (the writer's own references, which may
    /// hold its placeholder bytes).
    private mutating func appendTag(_ name: String, _ attributes: [(String, String)], verbatim: Bool = false) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: name.utf8)
        for (k, v) in attributes {
            bytes.append(0x20)
            bytes.append(contentsOf: k.utf8)
            bytes.append(contentsOf: "=\"".utf8)
            if verbatim { bytes.append(contentsOf: v.utf8) } else { escape(v, attribute: true) }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// `<name a="v">` on its own line; children follow, indented.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        indent()
        appendTag(name, attributes)
        bytes.append(contentsOf: ">\n".utf8)
        depth += 1
    }

    /// `</name>` on its own line.
    mutating func close(_ name: String) {
        depth -= 1
        indent()
        bytes.append(contentsOf: "</".utf8)
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: ">\n".utf8)
    }

    /// `<name>text</name>`, or `<name />` for empty text.
    mutating func element(_ name: String, _ text: String, _ attributes: [(String, String)] = [], verbatim: Bool = false) {
        indent()
        appendTag(name, attributes, verbatim: verbatim)
        if text.isEmpty {
            bytes.append(contentsOf: " />\n".utf8)
            return
        }
        bytes.append(UInt8(ascii: ">"))
        escape(text, attribute: false)
        bytes.append(contentsOf: "</".utf8)
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: ">\n".utf8)
    }

    /// `<name a="v" />`.
    mutating func empty(_ name: String, _ attributes: [(String, String)], verbatim: Bool = false) {
        indent()
        appendTag(name, attributes, verbatim: verbatim)
        bytes.append(contentsOf: " />\n".utf8)
    }

    /// Bytes written as they are (a declaration, spooled content).
    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    private mutating func escape(_ s: String, attribute: Bool) {
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": bytes.append(contentsOf: "&amp;".utf8)
            case "<": bytes.append(contentsOf: "&lt;".utf8)
            case ">": bytes.append(contentsOf: "&gt;".utf8)
            case "\"" where attribute: bytes.append(contentsOf: "&quot;".utf8)
            case "\n" where attribute: bytes.append(contentsOf: "&#10;".utf8)
            case "\r": bytes.append(contentsOf: "&#13;".utf8)
            case "\t", "\n": bytes.append(UInt8(scalar.value))
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF {
                    droppedCharacters += 1
                } else {
                    bytes.append(contentsOf: String(scalar).utf8)
                }
            }
        }
    }

    /// Hands the buffered bytes to `sink` and empties the buffer.
    mutating func flush(to sink: ByteSink) throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }
}
