import DiveCore

/// Writes JSON text in one fixed layout — two-space indentation, `": "` between a name and
/// its value, non-ASCII text as UTF-8, a final newline — the layout of the DiveJSON
/// reference corpus, so that documents compare byte for byte. Streams into a ``ByteSink``.
package struct JSONEmitter {
    private var bytes: [UInt8] = []
    private let sink: ByteSink
    /// Per open container: has it written a member yet?
    private var nonEmpty: [Bool] = []
    private var pendingKey = false

    // A record's source layout being followed (see ``beginRecord(_:)``), with one frame per
    // container opened inside the record. All of it is idle when no layout is set.
    private var layout: SourceLayout?
    private struct Frame {
        /// The container's path component: its member name or array index; `nil` for the record.
        var component: String?
        var isArray: Bool
        /// Elements written so far (arrays).
        var count = 0
        /// Where each member's text starts in `bytes`, and its name (objects).
        var starts: [Int] = []
        var names: [String] = []
    }
    private var frames: [Frame] = []
    private var lastKey = ""

    package init(sink: ByteSink) {
        self.sink = sink
        bytes.reserveCapacity(1 << 16)
    }

    private mutating func newline() {
        let n = 1 + 2 * nonEmpty.count
        if n <= Self.indentation.count {
            // One copy of a ready-made run: a sample array writes one line per value.
            Self.indentation.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n])) }
        } else {
            bytes.append(0x0A)
            bytes.append(contentsOf: repeatElement(0x20, count: 2 * nonEmpty.count))
        }
    }

    /// A line feed and the spaces of 63 levels of nesting, for ``newline()`` to take from.
    private static let indentation: [UInt8] = [0x0A] + [UInt8](repeating: 0x20, count: 126)

    /// Starts a value: the separator and indentation an array element needs.
    private mutating func beginValue() {
        if pendingKey { pendingKey = false; return }
        if layout != nil, !frames.isEmpty, frames[frames.count - 1].isArray { frames[frames.count - 1].count += 1 }
        guard let last = nonEmpty.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        nonEmpty[nonEmpty.count - 1] = true
        newline()
    }

    /// Writes a member name; the next value call writes its value.
    package mutating func key(_ name: String) {
        if nonEmpty.last == true { bytes.append(UInt8(ascii: ",")) }
        nonEmpty[nonEmpty.count - 1] = true
        newline()
        if layout != nil {
            frames[frames.count - 1].starts.append(bytes.count)
            frames[frames.count - 1].names.append(name)
            lastKey = name
        }
        Self.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(0x20)
        pendingKey = true
    }

    package mutating func beginObject() { open(UInt8(ascii: "{"), isArray: false) }
    package mutating func endObject() {
        if layout != nil, let order = layout!.memberOrders[path()] { reorder(frames[frames.count - 1], order) }
        close(UInt8(ascii: "}"))
    }
    package mutating func beginArray() { open(UInt8(ascii: "["), isArray: true) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ c: UInt8, isArray: Bool) {
        if layout != nil {
            let component = pendingKey ? lastKey : String(frames.last?.count ?? 0)
            beginValue()
            frames.append(Frame(component: component, isArray: isArray))
        } else {
            beginValue()
        }
        bytes.append(c)
        nonEmpty.append(false)
    }

    // MARK: Source layout

    /// Follows `layout` for the object just opened and everything written inside it, until
    /// ``endRecord()``: members of an object come in the order the layout recorded for it
    /// (members it does not name follow, in the order written), and a number is spelled as
    /// the layout recorded it when that text still reads as the value written.
    mutating func beginRecord(_ layout: SourceLayout) {
        guard !layout.isEmpty else { return }
        self.layout = layout
        frames = [Frame(component: nil, isArray: false)]
    }

    /// Stops following the record's layout; call it just before the record's object closes.
    mutating func endRecord() {
        guard let layout else { return }
        if let order = layout.memberOrders[""] { reorder(frames[0], order) }
        self.layout = nil
        frames = []
    }

    /// The path of the innermost open container, relative to the record.
    private func path() -> String {
        var path = ""
        for f in frames {
            guard let c = f.component else { continue }
            if !path.isEmpty { path += "/" }
            path += c
        }
        return path
    }

    /// The path of member `name` of the innermost open object.
    private func path(of name: String) -> String {
        let base = path()
        return base.isEmpty ? name : base + "/" + name
    }

    /// The text the layout recorded for the member value about to be written, if any.
    private func recordedText() -> String? {
        guard let layout, pendingKey else { return nil }
        return layout.texts[path(of: lastKey)]
    }

    /// True when the source wrote the (now empty) list member `name` out as `[]`.
    func keepsEmptyList(_ name: String) -> Bool {
        guard let layout else { return false }
        return layout.emptyArrays.contains(path(of: name))
    }

    /// A date or date-time, as the source spelled it when that text means the same.
    mutating func dateTime(_ v: DiveDateTime) {
        if let text = recordedText(), DiveDateTime.parse(text)?.0 == v { string(text); return }
        string(v.description)
    }

    /// Rewrites the open object's members (already in `bytes`) into `order`.
    private mutating func reorder(_ frame: Frame, _ order: [String]) {
        let n = frame.starts.count
        guard n > 1 else { return }
        let separator = Array(bytes[(frame.starts[1] - 2 - 2 * nonEmpty.count)..<frame.starts[1]])
        var segments: [(rank: Int, bytes: ArraySlice<UInt8>)] = []
        for i in 0..<n {
            let end = i + 1 < n ? frame.starts[i + 1] - separator.count : bytes.count
            let rank = order.firstIndex(of: frame.names[i]) ?? order.count + i
            segments.append((rank, bytes[frame.starts[i]..<end]))
        }
        segments.sort { $0.rank < $1.rank }
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count - frame.starts[0])
        for (i, s) in segments.enumerated() {
            if i > 0 { text.append(contentsOf: separator) }
            text.append(contentsOf: s.bytes)
        }
        bytes.replaceSubrange(frame.starts[0]..<bytes.count, with: text)
    }

    private mutating func close(_ c: UInt8) {
        if layout != nil { frames.removeLast() }
        let had = nonEmpty.removeLast()
        if had { newline() }
        bytes.append(c)
    }

    package mutating func string(_ s: String) { beginValue(); Self.appendQuoted(s, to: &bytes) }

    /// Appends `s` as a JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else as UTF-8.
    package static func appendQuoted(_ s: String, to bytes: inout [UInt8]) {
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
                let hex: StaticString = "0123456789abcdef"
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex.utf8Start[Int(b >> 4)]); bytes.append(hex.utf8Start[Int(b & 0x0F)])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func integer(_ v: Int) {
        if let text = recordedText(), Double(text) == Double(v) { raw(text); return }
        beginValue(); appendDigits(v)
    }

    /// A measurement, spelled as the shortest text that reads back to the same double, with
    /// `.0` on an integral value (`12.0`, `45.91`, `1e-05`).
    mutating func number(_ v: Double) {
        if let text = recordedText(), Double(text) == v { raw(text); return }
        beginValue()
        bytes.append(contentsOf: v.description.utf8)
    }

    /// Writes a value's literal text as it is (a number as read, `null` inside extensions).
    mutating func raw(_ text: String) { beginValue(); bytes.append(contentsOf: text.utf8) }

    mutating func bool(_ v: Bool) { beginValue(); bytes.append(contentsOf: (v ? "true" : "false").utf8) }

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
        if v < 10 { bytes.append(UInt8(ascii: "0") + UInt8(v)); return }
        // The digits, last first, into 20 bytes on the stack (UInt.max has 20), then one append.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var v = v
            var i = 20
            repeat {
                i -= 1
                digits[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            } while v > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i..<20]))
        }
    }

    /// Writes what is buffered to the sink.
    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Ends the document with a newline and flushes.
    package mutating func finish() throws {
        bytes.append(0x0A)
        try flush()
    }

    /// Flushes when the buffer is large.
    mutating func flushIfLarge() throws { if layout == nil, bytes.count >= 1 << 16 { try flush() } }
}
