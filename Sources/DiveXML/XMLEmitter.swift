import DiveCore

/// Writes XML text in the layout of the DiveJSON corpus's UDDF files — two-space indentation,
/// `<empty />` elements, attributes in double quotes — into a byte buffer that its owner
/// flushes to a ``ByteSink``. Text is escaped; characters XML 1.0 cannot hold are left out
/// and counted, so the caller can report them.
package struct XMLEmitter {
    package private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Characters dropped because XML 1.0 has no spelling for them.
    package private(set) var droppedCharacters = 0

    package init(depth: Int = 0) {
        self.depth = depth
        bytes.reserveCapacity(1 << 16)
    }

    /// Appends a string's UTF-8 in one copy (the generic `append(contentsOf: s.utf8)` walks
    /// it element by element).
    @inline(__always) private mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func indent() {
        for _ in 0..<depth { bytes.append(0x20); bytes.append(0x20) }
    }

    /// Attribute values are escaped unless `verbatim` (the writer's own references, which may
    /// hold its placeholder bytes).
    private mutating func appendTag(_ name: String, _ attributes: [(String, String)], verbatim: Bool = false) {
        bytes.append(UInt8(ascii: "<"))
        append(name)
        for (k, v) in attributes {
            bytes.append(0x20)
            append(k)
            append("=\"")
            if verbatim { append(v) } else { escape(v, attribute: true) }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// `<name a="v">` on its own line; children follow, indented.
    package mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        indent()
        appendTag(name, attributes)
        append(">\n")
        depth += 1
    }

    /// `</name>` on its own line.
    package mutating func close(_ name: String) {
        depth -= 1
        indent()
        append("</")
        append(name)
        append(">\n")
    }

    /// `<name>text</name>`, or `<name />` for empty text.
    package mutating func element(_ name: String, _ text: String, _ attributes: [(String, String)] = [], verbatim: Bool = false) {
        indent()
        appendTag(name, attributes, verbatim: verbatim)
        if text.isEmpty {
            append(" />\n")
            return
        }
        bytes.append(UInt8(ascii: ">"))
        escape(text, attribute: false)
        append("</")
        append(name)
        append(">\n")
    }

    /// `<name a="v" />`.
    package mutating func empty(_ name: String, _ attributes: [(String, String)], verbatim: Bool = false) {
        indent()
        appendTag(name, attributes, verbatim: verbatim)
        append(" />\n")
    }

    /// Bytes written as they are (a declaration, spooled content).
    package mutating func raw(_ text: String) { append(text) }

    /// `<name>value</name>` for a decimal, in plain text without trailing zeros (`0.012`,
    /// `22000000`), written straight into the buffer: the writer's per-sample path.
    package mutating func element(_ name: String, _ value: DecimalNumber, _ attributes: [(String, String)] = [], verbatim: Bool = false) {
        indent()
        appendTag(name, attributes, verbatim: verbatim)
        bytes.append(UInt8(ascii: ">"))
        value.normalized().appendText(to: &bytes)
        append("</")
        append(name)
        append(">\n")
    }

    /// Escapes byte by byte: the five markup characters, line ends in attributes, and the
    /// characters XML 1.0 cannot hold (C0 controls but tab and line ends, U+FFFE, U+FFFF),
    /// which are left out and counted. Every other byte, multi-byte UTF-8 included, is copied.
    private mutating func escape(_ s: String, attribute: Bool) {
        var s = s
        s.withUTF8 { u in
            var i = 0
            while i < u.count {
                let b = u[i]
                i += 1
                switch b {
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "<"): append("&lt;")
                case UInt8(ascii: ">"): append("&gt;")
                case UInt8(ascii: "\"") where attribute: append("&quot;")
                case 0x0A where attribute: append("&#10;")
                case 0x0D: append("&#13;")
                case 0x09, 0x0A: bytes.append(b)
                case 0..<0x20: droppedCharacters += 1
                case 0xEF where i + 1 < u.count && u[i] == 0xBF && (u[i + 1] == 0xBE || u[i + 1] == 0xBF):
                    droppedCharacters += 1
                    i += 2
                default: bytes.append(b)
                }
            }
        }
    }

    /// Hands the buffered bytes to `sink` and empties the buffer.
    package mutating func flush(to sink: ByteSink) throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }
}
