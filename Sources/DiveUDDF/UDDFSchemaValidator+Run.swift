internal import CLibXML2
import DiveCore
import DiveXML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file's validation: a SAX2 push parser with the schema validator plugged into its
/// event stream (`xmlSchemaSAXPlug`), fed from a file descriptor in chunks. Owns the parser
/// context, the plug and the SAX handler block the plug calls through, and frees them in
/// `deinit`; borrows the validation context from its ``UDDFSchemaValidator``, which outlives it.
///
/// Beside the parse it keeps the element path (a stack of libxml2's interned names and
/// sibling counters, turned into a `String` only for a diagnostic) and the ids the file
/// defines, for the `xs:ID`/`xs:IDREF` rules the streaming validator does not check.
final class SchemaRun {
    let displayName: String
    private let input: InputFile
    private let context: OpaquePointer
    private let report: (Diagnostic) -> Void
    private var parser: xmlParserCtxtPtr?
    private var plug: OpaquePointer?
    /// Our handlers, and the two slots `xmlSchemaSAXPlug` rewrites and `xmlSchemaSAXUnplug`
    /// restores: they must not move while the plug is in, so they live on the heap.
    private let handlers: UnsafeMutablePointer<xmlSAXHandler>
    private let handlerSlot: UnsafeMutablePointer<UnsafeMutablePointer<xmlSAXHandler>?>
    private let userDataSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private var buffer: [UInt8]
    /// A fatal problem (not well-formed, a DOCTYPE) stopped the parse.
    private var stopped = false
    /// True while the final, empty chunk is being parsed.
    private var terminating = false

    /// Open elements' local names (interned by libxml2, so the same name is the same
    /// pointer) and their 1-based index among same-named siblings.
    @exclusivity(unchecked) private var names: [UnsafePointer<UInt8>] = []
    @exclusivity(unchecked) private var indices: [Int32] = []
    /// Same-named sibling counts for the children of every open element, deepest last.
    @exclusivity(unchecked) private var counters: [SiblingCounter] = []
    /// An element has ended but stays on the path until the next event: libxml2 calls our
    /// end handler before the validator's, whose errors (a missing child) are about it.
    @exclusivity(unchecked) private var pendingPop = false
    /// Bytes of text since the last start or end tag.
    @exclusivity(unchecked) private var textRun = 0

    private var sawRoot = false
    /// The root's namespace: `nil` none, else its URI.
    private var rootNamespace: String?
    /// The root is UDDF 3.2's `<uddf>`, so the schema applies and ids are tracked.
    private var schemaApplies = false
    /// libxml2's interned pointer for the UDDF namespace URI, once seen.
    @exclusivity(unchecked) private var uddfURI: UnsafePointer<UInt8>?

    /// Every id defined so far, with the line that defined it.
    private var ids: [String: Int] = [:]
    /// References to ids not (yet) defined, by value.
    private var unresolved: [String: UnresolvedReference] = [:]
    private var unresolvedOrder = 0
    /// The bytes of the last reference that resolved (a `tankpressure/@ref` repeats on
    /// every waypoint), to skip building a String for it again.
    @exclusivity(unchecked) private var lastResolved: [UInt8] = []
    /// Inside an element whose text is an `xs:IDREF` (`<setdcgasdata>`).
    @exclusivity(unchecked) private var capturingReference = false
    private var referenceText: [UInt8] = []

    struct SiblingCounter {
        var depth: Int32
        var count: Int32
        var name: UnsafePointer<UInt8>
    }

    struct UnresolvedReference {
        var line: Int
        var path: String
        var count: Int
        var order: Int
    }

    init(path: String, displayName: String, context: OpaquePointer, report: @escaping (Diagnostic) -> Void) throws {
        self.displayName = displayName
        self.context = context
        self.report = report
        input = try InputFile(path: path, displayName: displayName)
        handlers = .allocate(capacity: 1)
        handlers.initialize(to: xmlSAXHandler())
        handlerSlot = .allocate(capacity: 1)
        handlerSlot.initialize(to: nil)
        userDataSlot = .allocate(capacity: 1)
        userDataSlot.initialize(to: nil)
        buffer = [UInt8](repeating: 0, count: XMLPushParser.chunkSize)
    }

    deinit {
        // Unplugging resets the validation context for the next file.
        if let plug { xmlSchemaSAXUnplug(plug) }
        xmlSchemaSetValidStructuredErrors(context, nil, nil)
        if let parser {
            // A document libxml2 made to hold a DTD's declarations is the caller's to free.
            if let doc = parser.pointee.myDoc { xmlFreeDoc(doc) }
            xmlFreeParserCtxt(parser)
        }
        handlers.deinitialize(count: 1)
        handlers.deallocate()
        handlerSlot.deallocate()
        userDataSlot.deallocate()
    }

    /// Parses and validates the whole file, reporting as it goes.
    func parse() throws {
        try start()
        while !stopped {
            let n = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
            terminating = n == 0
            let status = buffer.withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(n, 1)) {
                    xmlParseChunk(parser, $0, Int32(n), n == 0 ? 1 : 0)
                }
            }
            if status != 0 && !stopped {
                // An error libxml2 did not route to our handler: still not well-formed.
                stopped = true
                report(Diagnostic(.error, "xml.malformed", "the file is not well-formed XML", at: location(column: true)))
            }
            if n == 0 { break }
        }
        if !stopped { reportUnresolved() }
    }

    private func start() throws {
        let me = Unmanaged.passUnretained(self).toOpaque()
        xmlSchemaSetValidStructuredErrors(context, { ctx, error in
            guard let ctx, let error else { return }
            Unmanaged<SchemaRun>.fromOpaque(ctx).takeUnretainedValue().validityError(error.pointee)
        }, me)

        handlers.pointee.initialized = umilog_sax2_magic()
        handlers.pointee.startElementNs = { ctx, localName, _, uri, _, _, nbAttributes, _, attributes in
            guard let ctx, let localName else { return }
            Unmanaged<SchemaRun>.fromOpaque(ctx)._withUnsafeGuaranteedRef {
                $0.startElement(localName, uri, attributes, Int(nbAttributes))
            }
        }
        handlers.pointee.endElementNs = { ctx, _, _, _ in
            guard let ctx else { return }
            Unmanaged<SchemaRun>.fromOpaque(ctx)._withUnsafeGuaranteedRef { $0.endElement() }
        }
        handlers.pointee.characters = { ctx, bytes, length in
            guard let ctx else { return }
            Unmanaged<SchemaRun>.fromOpaque(ctx)._withUnsafeGuaranteedRef { $0.characters(bytes, Int(length)) }
        }
        // The plug hands CDATA only to a `cdataBlock`; it is text like any other here.
        handlers.pointee.cdataBlock = handlers.pointee.characters
        handlers.pointee.internalSubset = { ctx, _, _, _ in
            guard let ctx else { return }
            Unmanaged<SchemaRun>.fromOpaque(ctx).takeUnretainedValue().refuseDoctype()
        }
        handlerSlot.pointee = handlers
        // Unretained: this object owns the parser, so it outlives every callback.
        userDataSlot.pointee = me
        guard let plug = xmlSchemaSAXPlug(context, handlerSlot, userDataSlot) else {
            throw DiveError("uddf.schema.init", "cannot plug the schema validator into the XML parser", at: SourceLocation(file: displayName))
        }
        self.plug = plug
        // The plug now stands in the slots: the parser calls it, and it calls our handlers.
        guard let parser = xmlCreatePushParserCtxt(handlerSlot.pointee, userDataSlot.pointee, nil, 0, displayName) else {
            throw DiveError("xml.init", "cannot start the XML parser", at: SourceLocation(file: displayName))
        }
        self.parser = parser
        xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue))
        // Well-formedness errors: the parser's user data is the plug, so the handler finds
        // this run through the parser context the error names.
        parser.pointee._private = me
        parser.pointee.sax.pointee.serror = { _, error in
            guard let error, let raw = error.pointee.ctxt else { return }
            let parser = raw.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let me = parser.pointee._private else { return }
            Unmanaged<SchemaRun>.fromOpaque(me).takeUnretainedValue().parseError(error.pointee)
        }
    }

    // MARK: Events

    private func startElement(_ localName: UnsafePointer<UInt8>, _ uri: UnsafePointer<UInt8>?,
                              _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ count: Int) {
        guard !stopped else { return }
        if pendingPop { popElement(); pendingPop = false }
        textRun = 0
        if names.count >= InputLimits.xmlDepth {
            stop(with: XMLProblem.tooDeep(at: location(column: true)))
            return
        }
        let depth = Int32(names.count)
        var index: Int32 = 1
        var i = counters.count - 1
        var found = false
        while i >= 0 && counters[i].depth == depth {
            if counters[i].name == localName {
                counters[i].count += 1
                index = counters[i].count
                found = true
                break
            }
            i -= 1
        }
        if !found { counters.append(SiblingCounter(depth: depth, count: 1, name: localName)) }
        names.append(localName)
        indices.append(index)

        if !sawRoot {
            sawRoot = true
            rootNamespace = uri.map { String(cString: $0) }
            if rootNamespace == UDDFSchemaValidator.namespace {
                uddfURI = uri
                schemaApplies = isName(localName, "uddf")
            }
        }
        guard schemaApplies, let uri, uri == uddfURI || isUDDFNamespace(uri) else { return }
        if let attributes {
            for a in 0..<count {
                // Five pointers per attribute: local name, prefix, URI, value start, value end.
                guard let local = attributes[a * 5], attributes[a * 5 + 2] == nil,
                      let start = attributes[a * 5 + 3], let end = attributes[a * 5 + 4] else { continue }
                let value = trimmed(UnsafeBufferPointer(start: start, count: end - start))
                if isName(local, "id") {
                    defineID(value)
                } else if isName(local, "ref") || isName(local, "deviceref") || isName(local, "tankref")
                            || isName(local, "divesite") || isName(local, "buddy") {
                    refer(to: value)
                }
            }
        }
        if isName(localName, "setdcgasdata") {
            capturingReference = true
            referenceText.removeAll(keepingCapacity: true)
        }
    }

    private func endElement() {
        guard !stopped else { return }
        textRun = 0
        if pendingPop { popElement() }
        if capturingReference {
            capturingReference = false
            referenceText.withUnsafeBufferPointer { refer(to: trimmed($0)) }
        }
        pendingPop = true
    }

    private func characters(_ bytes: UnsafePointer<UInt8>?, _ length: Int) {
        guard !stopped else { return }
        if pendingPop { popElement(); pendingPop = false }
        // libxml2's schema validator gathers a text node whole to check its value: refuse one
        // past the limit before it grows (the reader reports it as not carried).
        textRun += length
        if textRun > InputLimits.textBytes {
            stop(with: DiveError("xml.text-too-long", "an element holds more than \(InputLimits.textBytes / 1024) KiB of text, more than any dive log value; the file is not validated past it", at: location(column: true)))
            return
        }
        if capturingReference, let bytes { referenceText.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length)) }
    }

    private func popElement() {
        guard !names.isEmpty else { return }
        let depth = Int32(names.count - 1)
        while let last = counters.last, last.depth > depth { counters.removeLast() }
        names.removeLast()
        indices.removeLast()
    }

    // MARK: Ids

    private func defineID(_ value: UnsafeBufferPointer<UInt8>) {
        guard value.count > 0 else { return }
        let id = String(decoding: value, as: UTF8.self)
        if let first = ids[id] {
            report(Diagnostic(.error, "uddf.schema.id-duplicate",
                              "the id \"\(id)\" is already used on line \(first); an id names one element only",
                              at: location()))
        } else {
            ids[id] = line
            unresolved.removeValue(forKey: id)
        }
    }

    private func refer(to value: UnsafeBufferPointer<UInt8>) {
        guard value.count > 0 else { return }
        if value.elementsEqual(lastResolved) { return }
        let ref = String(decoding: value, as: UTF8.self)
        if ids[ref] != nil {
            lastResolved.removeAll(keepingCapacity: true)
            lastResolved.append(contentsOf: value)
            return
        }
        if unresolved[ref] != nil {
            unresolved[ref]!.count += 1
        } else {
            unresolved[ref] = UnresolvedReference(line: line, path: elementPath(), count: 1, order: unresolvedOrder)
            unresolvedOrder += 1
        }
    }

    private func reportUnresolved() {
        for (ref, use) in unresolved.sorted(by: { $0.value.order < $1.value.order }) {
            let uses = use.count > 1 ? " (and \(use.count - 1) more reference\(use.count == 2 ? "" : "s") to it)" : ""
            report(Diagnostic(.error, "uddf.schema.idref-unresolved",
                              "the reference \"\(ref)\" names an id that no element of the file has\(uses)",
                              at: SourceLocation(file: displayName, line: use.line, path: use.path)))
        }
    }

    // MARK: Errors

    private func validityError(_ e: xmlError) {
        guard !stopped else { return }
        let message = e.message.map { String(cString: $0) } ?? ""
        let explained = SchemaMessage.explain(code: Int(e.code), message: message, rootNamespace: rootNamespace)
        let severity: Diagnostic.Severity = e.level.rawValue >= XML_ERR_ERROR.rawValue ? .error : .warning
        report(Diagnostic(severity, explained.code, explained.message, at: location()))
    }

    private func parseError(_ e: xmlError) {
        guard !stopped, e.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let open = names.count - (pendingPop ? 1 : 0)
        let error = XMLProblem.parseError(e, file: displayName, terminating: terminating, openElements: names[..<max(open, 0)])
        stop(with: error)
    }

    private func refuseDoctype() {
        stop(with: XMLProblem.doctype(at: location(column: true)))
        // Halted at once here (no char-data buffer in hand at this callback), before any
        // declaration of the internal subset is parsed or stored.
        if let parser { xmlStopParser(parser) }
    }

    /// Reports `error` and ends the parse once libxml2 returns from the chunk it is in. It is
    /// not halted from inside a callback: libxml2 goes on reading the chunk's buffer after the
    /// callback returns, and halting frees that buffer (a crash, found on a 300 MB note).
    /// Events still coming from the chunk are ignored.
    private func stop(with error: DiveError) {
        guard !stopped else { return }
        stopped = true
        report(Diagnostic(.error, error.code, error.message, at: error.location))
    }

    // MARK: Locations

    private var line: Int { parser.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) } ?? 0 }

    /// Where the parser is: the line (libxml2 gives no column for schema errors beyond the
    /// end of the tag just read, so none is claimed) and the element path.
    private func location(column: Bool = false) -> SourceLocation {
        let col = column ? parser.map { Int(xmlSAX2GetColumnNumber(UnsafeMutableRawPointer($0))) } : nil
        return SourceLocation(file: displayName, line: line, column: col, path: names.isEmpty ? nil : elementPath())
    }

    /// `/uddf/profiledata/repetitiongroup/dive/samples/waypoint[3]`: an index only where
    /// the element is not the first of its name among its siblings.
    private func elementPath() -> String {
        var s = ""
        for k in names.indices {
            s += "/"
            s += String(cString: names[k])
            if indices[k] > 1 { s += "[\(indices[k])]" }
        }
        return s
    }

    private func isUDDFNamespace(_ uri: UnsafePointer<UInt8>) -> Bool {
        let match = UDDFSchemaValidator.namespace.utf8.withContiguousStorageIfAvailable { ns in
            var i = 0
            while i < ns.count { if uri[i] != ns[i] { return false }; i += 1 }
            return uri[i] == 0
        } ?? false
        if match { uddfURI = uri }
        return match
    }
}

/// True when the NUL-terminated `p` is exactly `name`.
private func isName(_ p: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
    let n = name.utf8Start
    var i = 0
    while i < name.utf8CodeUnitCount {
        if p[i] != n[i] { return false }
        i += 1
    }
    return p[i] == 0
}
