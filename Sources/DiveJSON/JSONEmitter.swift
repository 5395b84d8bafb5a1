import DiveCore

/// Writes JSON text in one fixed layout — two-space indentation, `": "` between a name and
/// its value, non-ASCII text as UTF-8, a final newline — the layout of the DiveJSON
/// reference corpus, so that documents compare byte for byte. Streams into a ``ByteSink``.
struct JSONEmitter {
    private var bytes: [UInt8] = []
    private let sink: ByteSink
    /// Per open container: has it written a member yet?
    private var nonEmpty: [Bool] = []
    private var pendingKey = false

    init(sink: ByteSink) {
        self.sink = sink
        bytes.reserveCapacity(1 << 16)
    }

    private mutating func newline() {
        bytes.append(0x0A)
        for _ in 0..<nonEmpty.count { bytes.append(0x20); bytes.append(0x20) }
    }

    /// Starts a value: the separator and indentation an array element needs.
    private mutating func beginValue() {
        if pendingKey { pendingKey = false; return }
        guard let last = nonEmpty.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        nonEmpty[nonEmpty.count - 1] = true
        newline()
    }

    /// Writes a member name; the next value call writes its value.
    mutating func key(_ name: String) {
        if nonEmpty.last == true { bytes.append(UInt8(ascii: ",")) }
        nonEmpty[nonEmpty.count - 1] = true
        newline()
        string(name, asKey: true)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(0x20)
        pendingKey = true
    }

    mutating func beginObject() { beginValue(); bytes.append(UInt8(ascii: "{")); nonEmpty.append(false) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { beginValue(); bytes.append(UInt8(ascii: "[")); nonEmpty.append(false) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func close(_ c: UInt8) {
        let had = nonEmpty.removeLast()
        if had { newline() }
        bytes.append(c)
    }

    mutating func string(_ s: String) { beginValue(); string(s, asKey: false) }

    private mutating func string(_ s: String, asKey: Bool) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "f"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(b >> 4)]); bytes.append(hex[Int(b & 0x0F)])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func integer(_ v: Int) { beginValue(); bytes.append(contentsOf: Array(String(v).utf8)) }

    /// A measurement, spelled as the shortest text that reads back to the same double, with
    /// `.0` on an integral value (`12.0`, `45.91`, `1e-05`).
    mutating func number(_ v: Double) {
        beginValue()
        bytes.append(contentsOf: Array(v.description.utf8))
    }

    /// Writes a value's literal text as it is (a number as read, `null` inside extensions).
    mutating func raw(_ text: String) { beginValue(); bytes.append(contentsOf: Array(text.utf8)) }

    mutating func bool(_ v: Bool) { beginValue(); bytes.append(contentsOf: Array((v ? "true" : "false").utf8)) }

    /// Writes an array of integers (a profile channel) without a temporary per element.
    mutating func integers(_ values: [Int]) {
        beginArray()
        for v in values {
            if nonEmpty[nonEmpty.count - 1] { bytes.append(UInt8(ascii: ",")) }
            nonEmpty[nonEmpty.count - 1] = true
            newline()
            appendDigits(v)
        }
        endArray()
    }

    private mutating func appendDigits(_ v: Int) {
        if v < 0 { bytes.append(UInt8(ascii: "-")); appendMagnitude(UInt(bitPattern: 0 &- v)) } else { appendMagnitude(UInt(v)) }
    }

    private mutating func appendMagnitude(_ v: UInt) {
        if v >= 10 { appendMagnitude(v / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(v % 10))
    }

    /// Writes what is buffered to the sink.
    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Ends the document with a newline and flushes.
    mutating func finish() throws {
        bytes.append(0x0A)
        try flush()
    }

    /// Flushes when the buffer is large.
    mutating func flushIfLarge() throws { if bytes.count >= 1 << 16 { try flush() } }
}
