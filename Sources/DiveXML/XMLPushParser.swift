internal import CLibXML2
import DiveCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives SAX events from an ``XMLPushParser``. Names are libxml2's interned local names
/// (NUL-terminated UTF-8); the same name always arrives at the same address within a parse.
///
/// A class rather than a protocol so that the parser calls it through a guaranteed reference
/// and a vtable: no existential, no reference counting per event.
open class XMLEventHandler {
    /// Makes a handler that ignores every event; a subclass overrides the ones it needs.
    public init() {}
    /// Called at each start tag with the element's local name and attributes.
    open func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {}
    /// Called at each end tag with the element's local name (an empty element gets one too).
    open func endElement(_ localName: UnsafePointer<UInt8>) {}
    /// Called with a run of character data; one text node may arrive in several runs.
    open func characters(_ bytes: UnsafeBufferPointer<UInt8>) {}
}

/// The attributes of one start tag, as libxml2's SAX2 hands them over: five pointers per
/// attribute (local name, prefix, URI, value start, value end).
public struct XMLAttributes {
    package let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    package let count: Int
    /// One bit per attribute (the first 64) that a lookup has matched: what the handler read,
    /// so that it can account for the rest (``UDDFState`` reports every attribute it did not).
    package let readMask: UnsafeMutablePointer<UInt64>?

    package init(base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int, readMask: UnsafeMutablePointer<UInt64>? = nil) {
        self.base = base
        self.count = count
        self.readMask = readMask
        readMask?.pointee = 0
    }

    @inline(__always) private func markRead(_ i: Int) {
        if i < 64 { readMask?.pointee |= 1 << UInt64(i) }
    }

    /// True when a lookup has matched the attribute at `index`.
    package func wasRead(_ index: Int) -> Bool {
        guard let readMask else { return true }
        return index >= 64 || readMask.pointee & (1 << UInt64(index)) != 0
    }

    /// The local name of the attribute at `index` (NUL-terminated, libxml2's).
    package func localNamePointer(_ index: Int) -> UnsafePointer<UInt8>? {
        base?[index * 5]
    }

    /// The namespace URI of the attribute at `index`, if it has one.
    package func namespaceURI(_ index: Int) -> UnsafePointer<UInt8>? {
        base?[index * 5 + 2]
    }

    /// The value of the attribute at `index`, trimmed.
    package func value(at index: Int) -> String {
        guard let base, let start = base[index * 5 + 3], let end = base[index * 5 + 4] else { return "" }
        return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self).trimmingWhitespace()
    }

    /// The raw bytes of the attribute whose local name matches `name` case-insensitively,
    /// with surrounding whitespace stripped; valid only during the callback.
    package func rawValue(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard let base else { return nil }
        for i in 0..<count {
            guard let local = base[i * 5], asciiCaseInsensitiveEquals(local, name) else { continue }
            markRead(i)
            guard let start = base[i * 5 + 3], let end = base[i * 5 + 4] else { return UnsafeBufferPointer(start: nil, count: 0) }
            return trimmed(UnsafeBufferPointer(start: start, count: end - start))
        }
        return nil
    }

    /// The value of the attribute whose local name matches `name` case-insensitively
    /// (UDDF 2.x spells them `ID` and `REF`), with surrounding whitespace stripped.
    package func value(_ name: StaticString) -> String? {
        guard let base else { return nil }
        for i in 0..<count {
            guard let local = base[i * 5], asciiCaseInsensitiveEquals(local, name) else { continue }
            markRead(i)
            guard let start = base[i * 5 + 3], let end = base[i * 5 + 4] else { return "" }
            let buffer = UnsafeBufferPointer(start: start, count: end - start)
            return String(decoding: buffer, as: UTF8.self).trimmingWhitespace()
        }
        return nil
    }
}

/// `bytes` without leading and trailing XML whitespace (space, tab, CR, LF).
package func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    guard var start = bytes.baseAddress else { return bytes }
    var end = start + bytes.count
    func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    while start < end, space(start.pointee) { start += 1 }
    while end > start, space((end - 1).pointee) { end -= 1 }
    return UnsafeBufferPointer(start: start, count: end - start)
}

/// Compares a NUL-terminated byte string with an ASCII name, ignoring case.
package func asciiCaseInsensitiveEquals(_ p: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
    let n = name.utf8Start
    var i = 0
    while i < name.utf8CodeUnitCount {
        let a = p[i]
        if a == 0 { return false }
        let lower = (a >= 0x41 && a <= 0x5A) ? a | 0x20 : a
        if lower != n[i] { return false }
        i += 1
    }
    return p[i] == 0
}

/// One libxml2 push parser, fed in chunks so that memory stays flat whatever the input's size
/// (libxml2 refuses a single in-memory input over 10 MB, and a DOM would grow with the file):
/// from a file descriptor (``step()``), or by its owner chunk by chunk (``feed(_:)`` and
/// ``finish()``, for bytes that come from elsewhere, such as a zip entry being inflated).
/// Owns its parser context and frees it in `deinit`.
///
/// A `<!DOCTYPE>` stops the parse before any entity can be declared or expanded; network
/// access is disabled.
package final class XMLPushParser {
    private var context: xmlParserCtxtPtr?
    /// The file read by ``step()``; `nil` for a parser its owner feeds.
    let input: InputFile?
    let displayName: String
    /// The encoding the input is read in when it declares none (``init(displayName:handler:lenient:encoding:)``).
    private let encoding: String?
    /// The chunk read by ``step()``, made at the first one.
    private var buffer: [UInt8]
    var finished = false
    /// The owner of this parser; it outlives it. Held unmanaged and called through a
    /// guaranteed reference, so that a SAX event costs no reference counting (an `unowned`
    /// existential was retained and released on every callback: 30 % of a conversion).
    let handler: Unmanaged<XMLEventHandler>

    /// The first fatal error the parse met, if any.
    package internal(set) var error: DiveError? { didSet { failed = error != nil } }
    /// `error != nil`, as a flag the SAX callbacks test per event (reading the optional error
    /// itself copies it: 8 % of a conversion).
    @exclusivity(unchecked) package private(set) var failed = false
    /// True while the final, empty chunk is being parsed.
    private var terminating = false
    /// Names of the elements open at this point (interned by libxml2, so stable).
    @exclusivity(unchecked) var openElements: [UnsafePointer<UInt8>] = []
    /// Bytes consumed so far.
    package internal(set) var bytesRead: Int = 0
    /// Which attributes of the current start tag the handler read (see ``XMLAttributes/readMask``).
    let attributeMask = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)

    package static let chunkSize = 256 * 1024

    /// Parse on a thread of its own (set before the first ``step()``): libxml2 tokenises the
    /// file one chunk ahead of the handler, on the other core, and the handler gets the same
    /// events, positions and errors, chunk by chunk, as it would in one thread
    /// (XMLPushParser+Ahead.swift). Only for a parser that reads a file (``step()``).
    package var parsesAhead = false
    /// The thread parsing ahead and what it hands over, once started.
    var ahead: XMLParseAhead?
    /// The position of the event being replayed, or after the last chunk replayed.
    var replayedLine = 0, replayedColumn = 0
    /// A start tag's attributes as ``XMLAttributes`` reads them, rebuilt for each replayed tag.
    var replayedAttributes = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 0)
    var replayedAttributesCapacity = 0

    /// Reads past what is not well-formed (libxml2's recovery) instead of refusing the file:
    /// for writers whose XML is known to be broken. What was recovered from is in
    /// ``recovered``, for the reader to report; a DOCTYPE and too deep a nesting still refuse.
    package let lenient: Bool
    /// The problems a lenient parse read past, first ``recoveredLimit`` of them, in order.
    package internal(set) var recovered: [DiveError] = []
    /// How many problems a lenient parse read past in all.
    package internal(set) var recoveredCount = 0
    package static let recoveredLimit = 20

    func noteRecovered(_ problem: DiveError) {
        recoveredCount += 1
        if recovered.count < Self.recoveredLimit { recovered.append(problem) }
    }

    /// Takes the recovered problems noted so far (``lenient`` parses only).
    package func takeRecovered() -> [DiveError] {
        defer { recovered.removeAll() }
        return recovered
    }

    /// Whether the encoding an XML declaration names is checked against the bytes before it is
    /// believed: a writer that declares `encoding="utf-16"` over single-byte text (Shearwater's
    /// XML export does) makes libxml2 refuse a file that is plain UTF-8.
    package let checksDeclaredEncoding: Bool
    /// The encoding the declaration named and the bytes contradicted, when ``checksDeclaredEncoding``
    /// set it aside and the text was read as UTF-8 (for the reader to report).
    package internal(set) var ignoredEncoding: String?

    /// The root element a `<!DOCTYPE>` may name and be read past, when it has no internal
    /// subset (MacDive's `<!DOCTYPE dives SYSTEM "http://www.mac-dive.com/macdive_logbook.dtd">`):
    /// such a declaration only names a DTD, which is never fetched, and declares no entity. Any
    /// other DOCTYPE still refuses. `nil` for formats that never carry one.
    package let acceptedDoctypeRoot: String?

    /// The name of a root element the parser opens around the input and closes at its end, for
    /// a writer whose file is a run of sibling elements with no root of its own (libdivecomputer's
    /// universal dump: one `<dive>` after another). Opened after a byte-order mark and an XML
    /// declaration, on the input's first line (so lines stay the file's; columns on that line
    /// count the name). The handler sees it as the root. `nil` for well-formed documents.
    package let fragmentRoot: String?

    /// Opens `path` (or standard input for `-`) for parsing.
    /// - Parameters:
    ///   - checksDeclaredEncoding: see ``checksDeclaredEncoding``.
    ///   - acceptedDoctypeRoot: see ``acceptedDoctypeRoot``.
    ///   - fragmentRoot: see ``fragmentRoot``.
    package init(path: String, displayName: String, handler: XMLEventHandler, lenient: Bool = false,
                 checksDeclaredEncoding: Bool = false, acceptedDoctypeRoot: String? = nil, fragmentRoot: String? = nil) throws {
        self.fragmentRoot = fragmentRoot
        self.handler = Unmanaged.passUnretained(handler)
        self.lenient = lenient
        self.acceptedDoctypeRoot = acceptedDoctypeRoot
        self.displayName = displayName
        self.checksDeclaredEncoding = checksDeclaredEncoding
        encoding = nil
        input = try InputFile(path: path, displayName: displayName)
        buffer = []
    }

    /// A parser of `other`'s input, as `other` was made to parse it, that hands its events to
    /// `handler`: the one that parses on its own thread for a parser that ``parsesAhead``.
    init(parsingFor other: XMLPushParser, handler: XMLEventHandler) {
        fragmentRoot = other.fragmentRoot
        self.handler = Unmanaged.passUnretained(handler)
        lenient = other.lenient
        acceptedDoctypeRoot = other.acceptedDoctypeRoot
        displayName = other.displayName
        checksDeclaredEncoding = other.checksDeclaredEncoding
        encoding = other.encoding
        input = other.input
        buffer = []
    }

    /// A parser its owner feeds with ``feed(_:)`` and ends with ``finish()``.
    /// - Parameters:
    ///   - displayName: the name diagnostics use.
    ///   - encoding: the encoding to read the bytes in (a name libxml2 knows, such as
    ///     `ISO-8859-15`), for an input that declares none and is known not to be UTF-8. Only
    ///     for such an input: the caller decides it by a rule of its format (see
    ///     ``XMLEncoding``); an input that declares its encoding is read in that one.
    package init(displayName: String, handler: XMLEventHandler, lenient: Bool = false, encoding: String? = nil) {
        self.handler = Unmanaged.passUnretained(handler)
        self.lenient = lenient
        self.displayName = displayName
        self.encoding = encoding
        checksDeclaredEncoding = false
        acceptedDoctypeRoot = nil
        fragmentRoot = nil
        input = nil
        buffer = []
    }

    deinit {
        stopParsingAhead()
        replayedAttributes.deallocate()
        if let context {
            // A document libxml2 made to hold a DTD's declarations is the caller's to free.
            if let doc = context.pointee.myDoc { xmlFreeDoc(doc) }
            xmlFreeParserCtxt(context)
        }
        attributeMask.deallocate()
    }

    /// The names of the elements open at this point, outermost first (for a finding's path).
    package func openElementNames(from depth: Int = 0) -> [String] {
        openElements.dropFirst(depth).map { String(cString: $0) }
    }

    /// A hash of the open elements' names from `depth` on (libxml2 interns names, so equal
    /// paths hash equal within a parse), to count repeats of one path without building it.
    package func openElementsKey(from depth: Int) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var i = depth
        while i < openElements.count {
            h = (h ^ UInt64(UInt(bitPattern: openElements[i]))) &* 0x100_0000_01b3
            i += 1
        }
        return Int(truncatingIfNeeded: h)
    }

    /// The line the parser is at, 1-based.
    package var line: Int {
        if ahead != nil { return replayedLine }
        return context.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) } ?? 0
    }
    /// The column the parser is at, 1-based.
    package var column: Int {
        if ahead != nil { return replayedColumn }
        return context.map { Int(xmlSAX2GetColumnNumber(UnsafeMutableRawPointer($0))) } ?? 0
    }

    /// The current location for a diagnostic.
    package func location(path: String? = nil) -> SourceLocation {
        SourceLocation(file: displayName, line: line, column: column, path: path)
    }

    /// Stops the parse with `error` (a semantic refusal found by the handler) once libxml2
    /// returns from the chunk it is parsing: halting it from inside a callback frees the buffer
    /// libxml2 goes on reading. Events still coming from that chunk are not passed on.
    package func stop(with error: DiveError) {
        if self.error == nil { self.error = error }
    }

    /// Reads and parses the next chunk of the file. Returns `false` once the whole input has
    /// been parsed.
    package func step() throws -> Bool {
        guard !finished else { return false }
        if parsesAhead { return try stepAhead() }
        guard let input else { preconditionFailure("step() reads a file; a parser made without one is fed") }
        // Made at the first step: a parser that parses ahead never reads into its own.
        if buffer.isEmpty { buffer = [UInt8](repeating: 0, count: Self.chunkSize) }
        let n = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
        bytesRead += n
        try buffer.withUnsafeBytes { try parse(UnsafeRawBufferPointer(rebasing: $0[0..<n]), terminate: n == 0) }
        return !finished
    }

    /// Parses the next chunk of an input its owner feeds (any length; it is not kept).
    package func feed(_ chunk: UnsafeRawBufferPointer) throws {
        guard !finished, chunk.count > 0 else { return }
        bytesRead += chunk.count
        try parse(chunk, terminate: false)
    }

    /// Ends an input its owner feeds: what is still open is an error now (`xml.truncated`).
    package func finish() throws {
        guard !finished else { return }
        try parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
    }

    private func parse(_ chunk: UnsafeRawBufferPointer, terminate: Bool) throws {
        var chunk = chunk
        if context == nil {
            if checksDeclaredEncoding {
                ignoredEncoding = Self.contradictedEncoding(UnsafeBufferPointer(start: chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), count: chunk.count))
            }
            try createContext()
            if let root = fragmentRoot {
                let head = Self.prologueLength(UnsafeBufferPointer(start: chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), count: chunk.count))
                if head > 0 { try push(UnsafeRawBufferPointer(rebasing: chunk[0..<head]), terminate: false) }
                try Array("<\(root)>".utf8).withUnsafeBytes { try push($0, terminate: false) }
                chunk = UnsafeRawBufferPointer(rebasing: chunk[head...])
            }
        }
        if terminate, let root = fragmentRoot {
            try Array("</\(root)>".utf8).withUnsafeBytes { try push($0, terminate: false) }
        }
        try push(chunk, terminate: terminate)
    }

    /// The length of a byte-order mark and an XML declaration at the start of `head`.
    static func prologueLength(_ head: UnsafeBufferPointer<UInt8>) -> Int {
        var i = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard head[i...].starts(with: "<?xml".utf8) else { return i }
        i += 5
        while i + 1 < head.count, !(head[i] == UInt8(ascii: "?") && head[i + 1] == UInt8(ascii: ">")) { i += 1 }
        return min(i + 2, head.count)
    }

    private func push(_ chunk: UnsafeRawBufferPointer, terminate: Bool) throws {
        terminating = terminate
        // libxml2 takes at most Int32.max bytes a call; the chunks here are far smaller.
        let status = xmlParseChunk(context, chunk.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(chunk.count), terminate ? 1 : 0)
        if let error { finished = true; throw error }
        if status != 0 && !lenient {
            finished = true
            throw DiveError("xml.malformed", "the file is not well-formed XML", at: location())
        }
        if terminate { finished = true }
    }

    private func createContext() throws {
        LibXML2.initialized
        var sax = xmlSAXHandler()
        sax.initialized = umilog_sax2_magic()
        sax.startElementNs = { ctx, localName, _, _, _, _, nbAttributes, _, attributes in
            guard let ctx, let localName else { return }
            // Guaranteed (not retained) references: one SAX event costs no reference counting.
            Unmanaged<XMLPushParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                guard !parser.failed else { return }
                parser.openElements.append(localName)
                if parser.openElements.count > InputLimits.xmlDepth {
                    parser.stop(with: XMLProblem.tooDeep(at: parser.location()))
                    return
                }
                parser.handler._withUnsafeGuaranteedRef {
                    $0.startElement(localName, XMLAttributes(base: attributes, count: Int(nbAttributes), readMask: parser.attributeMask))
                }
            }
        }
        sax.endElementNs = { ctx, localName, _, _ in
            guard let ctx, let localName else { return }
            Unmanaged<XMLPushParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                guard !parser.failed else { return }
                parser.handler._withUnsafeGuaranteedRef { $0.endElement(localName) }
                if !parser.openElements.isEmpty { parser.openElements.removeLast() }
            }
        }
        sax.characters = { ctx, bytes, length in
            guard let ctx, let bytes else { return }
            Unmanaged<XMLPushParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                guard !parser.failed else { return }
                parser.handler._withUnsafeGuaranteedRef { $0.characters(UnsafeBufferPointer(start: bytes, count: Int(length))) }
            }
        }
        sax.cdataBlock = sax.characters
        sax.internalSubset = { ctx, name, _, _ in
            guard let ctx else { return }
            let parser = Unmanaged<XMLPushParser>.fromOpaque(ctx).takeUnretainedValue()
            // libxml2 calls this after the DOCTYPE's name and external id, the blanks after
            // them skipped: an internal subset would start here with `[`.
            if let root = parser.acceptedDoctypeRoot, let name, String(cString: name) == root,
               let cur = parser.context?.pointee.input?.pointee.cur, cur.pointee != UInt8(ascii: "[") {
                return
            }
            parser.stop(with: XMLProblem.doctype(at: parser.location()))
            // Halted at once here (libxml2 has no char-data buffer in hand at this callback),
            // before any declaration of the internal subset is parsed or stored.
            if let context = parser.context { xmlStopParser(context) }
        }
        sax.serror = { ctx, error in
            guard let ctx, let error else { return }
            let parser = Unmanaged<XMLPushParser>.fromOpaque(ctx).takeUnretainedValue()
            guard !parser.failed else { return }
            let e = error.pointee
            guard e.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let problem = XMLProblem.parseError(e, file: parser.displayName, terminating: parser.terminating,
                                                openElements: parser.openElements[...])
            if parser.lenient {
                parser.noteRecovered(problem)
            } else {
                parser.error = problem
            }
        }
        // Unretained: this object owns the context, so it outlives every callback.
        let userData = Unmanaged.passUnretained(self).toOpaque()
        context = withUnsafeMutablePointer(to: &sax) { saxPointer in
            xmlCreatePushParserCtxt(saxPointer, userData, nil, 0, displayName)
        }
        guard let context else {
            throw DiveError("xml.init", "cannot start the XML parser", at: SourceLocation(file: displayName))
        }
        if let encoding {
            guard let handler = xmlFindCharEncodingHandler(encoding), xmlSwitchToEncoding(context, handler) == 0 else {
                throw DiveError("xml.encoding-unsupported", "the XML parser cannot read the encoding \(encoding)", at: SourceLocation(file: displayName))
            }
        }
        // NOENT: without it libxml2's SAX2 hands an attribute's `&amp;` over as `&#38;`. Safe
        // here: a DOCTYPE is refused before any entity can be declared, so only XML's five
        // predefined entities and character references are ever replaced.
        var options = XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOENT.rawValue
        if lenient { options |= XML_PARSE_RECOVER.rawValue }
        // The declaration's encoding is set aside: libxml2 then reads the bytes as what they
        // start with, UTF-8 for text that opens `<?xml` in ASCII.
        if ignoredEncoding != nil { options |= XML_PARSE_IGNORE_ENC.rawValue }
        xmlCtxtUseOptions(context, Int32(options))
    }

    /// The encoding the XML declaration at the start of `head` names, when the bytes cannot be in
    /// it: a multi-byte encoding (UTF-16, UTF-32, UCS-2, UCS-4) declared in a declaration that is
    /// itself written one byte per character (`<?xml` in ASCII, so no byte-order mark), over bytes
    /// with no NUL (every ASCII character of a UTF-16 or UTF-32 text has one). `nil` when the
    /// declaration names no such encoding, or the bytes could be in it.
    package static func contradictedEncoding(_ head: UnsafeBufferPointer<UInt8>) -> String? {
        guard head.starts(with: "<?xml".utf8), !head.contains(0) else { return nil }
        // The declaration ends at the first `?>`.
        var end = 5
        while end + 1 < head.count, !(head[end] == UInt8(ascii: "?") && head[end + 1] == UInt8(ascii: ">")) { end += 1 }
        guard end + 1 < head.count else { return nil }
        let declaration = Array(head[0..<end])
        let key = Array("encoding".utf8)
        guard var i = declaration.indices.first(where: { declaration[$0...].starts(with: key) }) else { return nil }
        i += key.count
        func skipSpace() { while i < declaration.count, [0x20, 0x09, 0x0A, 0x0D].contains(declaration[i]) { i += 1 } }
        skipSpace()
        guard i < declaration.count, declaration[i] == UInt8(ascii: "=") else { return nil }
        i += 1
        skipSpace()
        guard i < declaration.count, declaration[i] == UInt8(ascii: "\"") || declaration[i] == UInt8(ascii: "'") else { return nil }
        let quote = declaration[i]
        i += 1
        let start = i
        while i < declaration.count, declaration[i] != quote { i += 1 }
        guard i < declaration.count else { return nil }
        let name = String(decoding: declaration[start..<i], as: UTF8.self)
        let folded = name.lowercased().filter { $0 != "-" && $0 != "_" }
        let multiByte = ["utf16", "utf32", "ucs2", "ucs4", "unicode"].contains { folded.hasPrefix($0) }
        return multiByte ? name : nil
    }
}
