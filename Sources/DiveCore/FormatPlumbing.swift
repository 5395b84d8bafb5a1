/// How a format tells its files from their first bytes (each format module supplies its rule
/// to DiveKit's format registry), and how it writes them.

/// How sure a format is that a file's first bytes are in it. The most confident format wins;
/// of equals, the one listed first.
public enum SniffConfidence: Int, Sendable, Comparable {
    case none = 0
    /// Could be (any table is CSV, any JSON object may be DiveJSON).
    case weak
    /// The structure says so (a root element several formats share, and a child only this one writes).
    case likely
    /// Only this format looks like this (its own root element, its magic bytes).
    case certain

    /// Orders confidences from weakest to surest.
    public static func < (a: SniffConfidence, b: SniffConfidence) -> Bool { a.rawValue < b.rawValue }
}

/// What a format's sniffer looks at: a file's first bytes, and what they say as XML or JSON.
public struct SniffInput: Sendable {
    /// Makes a sniffer's input from a file's first bytes and what they say as XML or JSON.
    public init(bytes: [UInt8], text: [UInt8], isWholeInput: Bool, xmlRoot: String?, xmlRootTag: String?, isJSON: Bool) {
        self.bytes = bytes; self.text = text; self.isWholeInput = isWholeInput
        self.xmlRoot = xmlRoot; self.xmlRootTag = xmlRootTag; self.isJSON = isJSON
    }

    /// The first bytes (at most 64 KiB), as in the file.
    public let bytes: [UInt8]
    /// The bytes as single-byte text: a UTF-16 file's every other byte, without a byte-order mark.
    public let text: [UInt8]
    /// `bytes` is the whole file.
    public let isWholeInput: Bool
    /// The root element's local name, as written, when the text is XML.
    public let xmlRoot: String?
    /// The root element's start tag, as written (attributes included), when the text is XML.
    public let xmlRootTag: String?
    /// The text starts with `{` or `[` (after white space).
    public let isJSON: Bool

    /// True when `needle` occurs in the text.
    public func contains(_ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard let first = n.first, n.count <= text.count else { return false }
        var i = 0
        while i + n.count <= text.count {
            if text[i] == first && text[i..<(i + n.count)].elementsEqual(n) { return true }
            i += 1
        }
        return false
    }

    /// The XML root's local name, lowercased.
    public var root: String? { xmlRoot?.lowercased() }
}

/// A writer of one format: dives in, a document out.
///
/// A writer that ``spoolsBody`` writes its dives to a spool (its end decides what comes first:
/// the records they reference, a table's widest header); ``finish(header:to:replayingBody:)``
/// then writes the whole document to `target`, the spooled dives handed over by
/// `replayingBody`. One that does not writes straight to its output and `finish` ends it there.
public protocol DiveWriter: AnyObject {
    /// True when the writer spools its dives and writes the document at ``finish(header:to:replayingBody:)``; false when it writes straight to its output.
    var spoolsBody: Bool { get }
    /// Writes one dive; `header` holds the records it references.
    func write(_ dive: Dive, header: LogbookHeader) throws
    /// What the format could not carry, since the last call.
    func takeFindings() -> [Finding]
    /// Completes the document. `replayingBody` must feed every spooled chunk to the consumer
    /// it is given, in order.
    func finish(header: LogbookHeader, to target: ByteSink,
                replayingBody: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws
}
