import DiveCore

/// One line of a DL7 file split at its field separator, as byte ranges into the mapped file:
/// position 0 is the segment id (empty on a profile row, which begins with the separator),
/// 1… the fields after it. Nothing is copied until a value is kept.
struct DL7Segment {
    var bytes: UnsafeRawBufferPointer
    var line = 0
    var lineStart = 0
    var starts: [Int] = []
    var ends: [Int] = []

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Splits the line `start..<end` at `separator`.
    mutating func split(line number: Int, start: Int, end: Int, separator: UInt8) {
        line = number
        lineStart = start
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        var s = start
        var i = start
        while i < end {
            if bytes[i] == separator {
                starts.append(s); ends.append(i)
                s = i + 1
            }
            i += 1
        }
        starts.append(s); ends.append(end)
    }

    /// How many positions the line has (the id counts as one).
    var count: Int { starts.count }

    /// The 1-based column where position `k` starts (the line's end for a missing one).
    func column(_ k: Int) -> Int {
        guard k < count else { return (ends.last ?? lineStart) - lineStart + 1 }
        return starts[k] - lineStart + 1
    }

    /// The bytes of position `k` without surrounding spaces; empty when missing. HL7's `""`
    /// (present but null) reads as empty too.
    func raw(_ k: Int) -> UnsafeRawBufferPointer {
        guard k < count else { return UnsafeRawBufferPointer(rebasing: bytes[0..<0]) }
        var s = starts[k], e = ends[k]
        while s < e, bytes[s] == 0x20 || bytes[s] == 0x09 { s += 1 }
        while e > s, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
        if e - s == 2, bytes[s] == 0x22, bytes[s + 1] == 0x22 { e = s }
        return UnsafeRawBufferPointer(rebasing: bytes[s..<e])
    }

    /// True when position `k` holds nothing.
    func isEmpty(_ k: Int) -> Bool { raw(k).isEmpty }

    /// True when position `k` holds more than separators (`^^^^^` is an empty name).
    func hasContent(_ k: Int, separators: [UInt8]) -> Bool {
        raw(k).contains { $0 != 0x20 && $0 != 0x09 && !separators.contains($0) }
    }

    /// True when position `k` is exactly `text` (ASCII, case-insensitive).
    func equals(_ k: Int, _ text: String) -> Bool {
        let r = raw(k)
        guard r.count == text.utf8.count else { return false }
        return zip(r, text.utf8).allSatisfy { ($0 | 0x20) == ($1 | 0x20) }
    }

    /// Position `k` as text, `nil` when empty: UTF-8 when it is, else ISO-8859-1 (DL7 text is
    /// ASCII by the spec; older Windows writers' accented names are Latin-1).
    func text(_ k: Int) -> String? {
        let r = raw(k)
        guard !r.isEmpty else { return nil }
        return Self.string(r)
    }

    static func string(_ r: UnsafeRawBufferPointer) -> String {
        if let s = String(validating: r, as: UTF8.self) { return s }
        return String(r.map { Character(Unicode.Scalar($0)) })
    }

    /// Position `k`'s components, split at `separator` (`^`), each as text or `nil`.
    func components(_ k: Int, separator: UInt8) -> [String?] {
        let r = raw(k)
        guard !r.isEmpty else { return [] }
        var out: [String?] = []
        var s = 0
        for i in 0...r.count where i == r.count || r[i] == separator {
            let part = UnsafeRawBufferPointer(rebasing: r[s..<i])
            let trimmed = Self.string(part).trimmingWhitespace()
            out.append(trimmed.isEmpty ? nil : trimmed)
            s = i + 1
        }
        return out
    }

    /// Position `k` as a decimal number; `nil` when empty or not a number.
    func decimal(_ k: Int) -> DecimalNumber? {
        let r = raw(k)
        guard !r.isEmpty else { return nil }
        return DecimalNumber(bytes: r)
    }
}
