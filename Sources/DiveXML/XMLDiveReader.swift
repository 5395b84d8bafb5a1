import DiveCore

/// The SAX state of one XML format's reader: it builds dives from the events its parser feeds it
/// and queues each finished one in ``ready`` for ``XMLDiveReader`` to hand out.
package protocol XMLDiveState: XMLEventHandler, XMLAccountingState {
    /// The parser feeding this state (owned by the reader, which outlives every callback).
    var parser: XMLPushParser? { get set }
    var accountant: XMLAccountant { get }
    /// What the file says outside its dives, as read so far.
    var header: LogbookHeader { get }
    /// Dives finished and not yet handed out, from `readyHead` on.
    var ready: [Dive] { get set }
    var readyHead: Int { get set }
    /// ``InputLimits/samplesPerDive``, lowered by tests.
    var samplesPerDive: Int { get set }
    /// Called once the parser has seen the whole input: throws what stopped the parse, and
    /// reports what was read outside dives.
    func finishDocument() throws
}

/// A streaming reader of one XML format, over the shared libxml2 push parser: it never builds
/// a DOM; memory holds the logbook header and the dive being read, whatever the file's size.
/// Each format's reader is this class with its own ``XMLDiveState``.
open class XMLDiveReader: DiveSource {
    /// The file name used in diagnostics.
    public let displayName: String
    let state: any XMLDiveState
    let parser: XMLPushParser
    private var done = false

    /// Opens the file at `path` (`-` for standard input) for `state` to read.
    /// - Parameters:
    ///   - displayName: the name diagnostics use (the reader's state was made with it).
    ///   - lenient: read past what is not well-formed (see ``XMLPushParser/lenient``).
    ///   - checksDeclaredEncoding: believe the declaration's encoding only where the bytes can be
    ///     in it (see ``XMLPushParser/checksDeclaredEncoding``).
    ///   - acceptedDoctypeRoot: the root a DOCTYPE without internal subset may name (see
    ///     ``XMLPushParser/acceptedDoctypeRoot``).
    ///   - fragmentRoot: the root to open around a file of sibling elements (see
    ///     ``XMLPushParser/fragmentRoot``).
    package init(path: String, displayName: String, state: any XMLDiveState, lenient: Bool = false,
                 checksDeclaredEncoding: Bool = false, acceptedDoctypeRoot: String? = nil, fragmentRoot: String? = nil) throws {
        self.displayName = displayName
        self.state = state
        parser = try XMLPushParser(path: path, displayName: displayName, handler: state, lenient: lenient,
                                   checksDeclaredEncoding: checksDeclaredEncoding, acceptedDoctypeRoot: acceptedDoctypeRoot,
                                   fragmentRoot: fragmentRoot)
        state.parser = parser
        state.accountant.parser = parser
        // libxml2 tokenises on the other core while the state builds dives here.
        parser.parsesAhead = true
    }

    /// The name diagnostics use for `path` when the caller gives none.
    package static func name(_ path: String, _ displayName: String?) -> String {
        displayName ?? (path == "-" ? "<stdin>" : path)
    }

    /// What the file says outside its dives, as read so far.
    public var header: LogbookHeader { state.header }

    /// The next dive in document order, or `nil` at the end of the file.
    public func next() throws -> Dive? {
        while state.readyHead >= state.ready.count {
            state.ready.removeAll(keepingCapacity: true)
            state.readyHead = 0
            if done { return nil }
            if try !parser.step() {
                done = true
                try state.finishDocument()
            }
        }
        let dive = state.ready[state.readyHead]
        state.readyHead += 1
        return dive
    }

    /// Findings reported since the last call: the state's, and in a lenient parse what libxml2
    /// read past (`xml.recovered`, one finding per problem, the first
    /// ``XMLPushParser/recoveredLimit`` of them, then one counting the rest).
    public func takeFindings() -> [Finding] {
        defer { state.findings.removeAll(keepingCapacity: true) }
        guard parser.lenient else { return state.findings }
        return recoveredFindings() + state.findings
    }

    private var recoveredReported = 0

    private func recoveredFindings() -> [Finding] {
        var out = parser.takeRecovered().map { problem in
            Finding(.resolved, "xml.recovered",
                    "\(problem.message); read past it as libxml2 recovers, so what this spot held may be missing or incomplete",
                    at: problem.location)
        }
        recoveredReported += out.count
        if done, parser.recoveredCount > recoveredReported {
            out.append(Finding(.resolved, "xml.recovered",
                               "\(parser.recoveredCount - recoveredReported) more places where the XML is not well-formed were read past",
                               at: SourceLocation(file: displayName)))
            recoveredReported = parser.recoveredCount
        }
        return out
    }

    /// Whether libxml2 tokenises the file on a thread of its own while the dives are built on
    /// the caller's (the default): set before the first dive is read. One thread gives the same
    /// dives, findings and errors, only slower.
    package var parsesAhead: Bool {
        get { parser.parsesAhead }
        set { parser.parsesAhead = newValue }
    }

    /// Bytes of input consumed so far.
    public var bytesRead: Int { parser.bytesRead }

    /// The most samples one dive keeps (``InputLimits/samplesPerDive``); tests lower it.
    package var samplesPerDive: Int {
        get { state.samplesPerDive }
        set { state.samplesPerDive = newValue }
    }

    /// When set before reading, the reader records the path of every element it carried or
    /// covered by a finding of its own (``accounting``), so that a test can check that every
    /// element with content is accounted for.
    public var recordsAccounting: Bool {
        get { state.accountant.recordAccounting }
        set { state.accountant.recordAccounting = newValue }
    }

    /// What the reader accounted for so far (recorded only with ``recordsAccounting``).
    public var accounting: XMLAccounting { state.accountant.accounting }
}
