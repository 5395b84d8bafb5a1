import DiveCore
import DiveXML

/// Streams a Subsurface XML file (`.ssrf`, `.xml`; save formats 1 to 3) one dive at a time over
/// libxml2's SAX2 push parser. It never builds a DOM: memory holds the logbook header and the
/// dive being read, whatever the file's size.
///
/// Values come out in the canonical model's units, read by DiveJSON's `docs/ssrf-mapping.md`:
/// every measurement states its unit, and a unit the table does not carry is refused and
/// reported rather than converted. What the model has no member for is carried under the
/// record's `extensions.umilog` (`docs/umilog-extension.md`) or reported as a ``Finding``.
public final class SSRFReader: XMLDiveReader {
    /// Opens the Subsurface XML file at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: SSRFState(file: name))
    }
}

/// The SAX state machine: a stack of open tags, the dive being read, and the logbook header
/// built so far.
final class SSRFState: XMLEventHandler, XMLDiveState {
    let file: String
    /// The parser feeding this state; it is owned by the same reader and outlives every callback.
    unowned(unsafe) var parser: XMLPushParser?
    var header = LogbookHeader()
    @exclusivity(unchecked) var findings: [Finding] = []
    var ready: [Dive] = []
    var readyHead = 0

    @exclusivity(unchecked) private var tags = NameTable { (SSRFTag.byName[$0] ?? .other).rawValue }
    @exclusivity(unchecked) var sampleAttributes = NameTable { SampleAttribute.named($0).code }
    @exclusivity(unchecked) private(set) var stack: [SSRFTag] = []
    @exclusivity(unchecked) private(set) var text: [UInt8] = []
    @exclusivity(unchecked) private var capturing = false
    /// The element being read holds more text than ``InputLimits/textBytes``.
    @exclusivity(unchecked) private var textTooLong = false
    private var sawRoot = false
    /// The root is format 1's `<dives>`.
    var formatOne = false
    var sawProgram = false
    /// The tag stack's depth of an open `<settings>`, what it holds, and where it began.
    var settingsOpen: Int?
    var settingsChildren: [(name: String, count: Int)] = []
    var settingsLine = 0

    /// What became of each open element (SSRFReader+Accounting.swift).
    let accountant: XMLAccountant
    /// The same object, for the per-event calls (``XMLAccountingState``).
    let accounts: Unmanaged<XMLAccountant>
    /// ``InputLimits/samplesPerDive``, lowered by tests.
    var samplesPerDive = InputLimits.samplesPerDive

    // Header records.
    var siteIndex = 0
    var site: SiteDraft?
    /// uuid of each carried site by its `@uuid`, stripped.
    var siteUUIDs: [String: String] = [:]
    /// `@uuid`s of sites read and not carried (a nameless site).
    var droppedSiteIDs: Set<String> = []
    /// uuid of each site made from a dive's own `<location>`, by name and position.
    var locationSites: [String: String] = [:]
    /// uuid of each person by case-folded name.
    var personUUIDs: [String: String] = [:]
    /// The `<trip>` being read, as its `umilog` entry's members.
    var trip: [ExtensionValue.Member]?
    var tripLine = 0
    /// Dives read inside the open `<trip>`.
    var tripDives = 0

    // The dive being read.
    var diveIndex = 0
    @exclusivity(unchecked) var dive: DiveDraft?
    @exclusivity(unchecked) var inDive = false
    @exclusivity(unchecked) var dc = DCDraft(index: 0, line: 0)
    @exclusivity(unchecked) var inDC = false
    /// Samples the dive being read holds, over all its computers.
    @exclusivity(unchecked) var diveSamples = 0
    /// The tag stack's depth of the `<dive>` being read.
    var diveDepth = 0
    var event: EventDraft?
    /// Per `<cylinder>` of the dive being built: true when it states no `@o2` (air, for
    /// matching a gas switch by its mix).
    var cylinderOxygenAbsent: [Bool] = []

    init(file: String) {
        self.file = file
        accountant = XMLAccountant(file: file, format: "ssrf", identityAttribute: nil)
        accounts = Unmanaged.passUnretained(accountant)
    }

    var line: Int { parser?.line ?? 0 }

    func report(_ kind: FindingKind, _ code: String, _ message: String, path: String?, line: Int? = nil) {
        findings.append(Finding(kind, code, message, at: SourceLocation(file: file, line: line ?? self.line, path: path)))
    }

    @inline(__always) func parent(_ n: Int = 1) -> SSRFTag {
        let i = stack.count - 1 - n
        return i >= 0 ? stack[i] : .other
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        pushMarks(parentCapturing: capturing)
        let tag = SSRFTag(rawValue: tags.code(localName)) ?? .other
        stack.append(tag)
        capturing = true
        textTooLong = false
        if text.count > 4096 { text = [] } else { text.removeAll(keepingCapacity: true) }
        if inDC && tag == .sample {
            readSample(attributes)
        } else {
            startElementBody(tag, localName, attributes)
        }
        noteUnreadAttributes(attributes)
    }

    private func startElementBody(_ tag: SSRFTag, _ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        if !sawRoot {
            sawRoot = true
            switch tag {
            case .divelog:
                header.sourceFormat = "ssrf"
                header.sourceVersion = attributes.value("version").flatMap { $0.isEmpty ? nil : $0 }
                if let program = attributes.value("program"), !program.isEmpty { header.sourceGenerator = Generator(name: program) }
            case .dives:
                header.sourceFormat = "ssrf"
                formatOne = true
            default:
                let name = String(cString: localName)
                parser?.stop(with: DiveError("ssrf.not-ssrf",
                    "the file is XML but not Subsurface XML: its root element is <\(name)>, not <divelog> (or format 1's <dives>)",
                    at: parser?.location() ?? SourceLocation(file: file)))
            }
            return
        }
        if accountant.marks.top.contains(.covered) {
            // Inside a subtree a finding already speaks for: every attribute is spoken for too.
            markAllRead(attributes)
            if let open = settingsOpen, stack.count == open + 1 {
                let name = String(cString: localName)
                if let k = settingsChildren.firstIndex(where: { $0.name == name }) { settingsChildren[k].count += 1 } else {
                    settingsChildren.append((name, 1))
                }
            }
            return
        }
        if inDive { startInDive(tag, attributes); return }
        let p = parent()
        switch tag {
        case .program where p == .dives && stack.count == 2:
            sawProgram = true
            header.sourceVersion = attributes.value("version").flatMap { $0.isEmpty ? nil : $0 }
            if let name = attributes.value("name"), !name.isEmpty { header.sourceGenerator = Generator(name: name) }
        case .settings where stack.count == 2:
            // Reported when it closes, if it held anything; everything in it is spoken for.
            settingsOpen = stack.count
            settingsChildren = []
            settingsLine = line
            coverCurrent()
        case .filterpresets where p == .dives:
            report(.dropped, "ssrf.filterpresets-not-carried",
                   "<filterpresets> holds Subsurface's saved dive-list filters, a setting of the program rather than a record of dives; not carried",
                   path: "dives/filterpresets")
            coverCurrent()
            markAllRead(attributes)
        case .site where p == .divesites:
            site = SiteDraft(id: attributes.value("uuid"), index: siteIndex, line: line)
            siteIndex += 1
            site?.name = attributes.value("name")
            site?.gps = attributes.value("gps")
            site?.description = attributes.value("description")
        case .geo where p == .site && site != nil:
            let category = attributes.value("cat").flatMap(SSRFValues.integer)
            _ = attributes.value("origin")   // typed, geocoded…: not consulted (the mapping's rule)
            if let value = attributes.value("value"), !value.isEmpty { site?.geo.append((category, value)) }
        case .trip where p == .dives:
            var members: [ExtensionValue.Member] = []
            for name in ["date", "time", "location"] as [StaticString] {
                if let v = attributes.value(name), !v.isEmpty { members.append(.init(name.description, .string(v))) }
            }
            trip = members
            tripLine = line
            tripDives = 0
        case .dive where p == .dives || p == .trip:
            startDive(attributes)
        default: break
        }
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard capturing else { noteTrailingText(bytes); return }
        if appendXMLText(bytes, to: &text, tooLong: &textTooLong) { noteTooLong() }
    }

    override func endElement(_ localName: UnsafePointer<UInt8>) {
        // Still capturing at its end: no child came, so the captured text is all its own.
        let own = capturing
        endElementBody()
        popMarks(ownTextCaptured: own)
    }

    private func endElementBody() {
        guard let tag = stack.last else { return }
        defer { stack.removeLast(); capturing = false }
        if tag == .sample && inDC { return }
        if tag == .settings && settingsOpen == stack.count {
            settingsOpen = nil
            reportSettings()
        }
        if accountant.marks.top.contains(.covered) { return }
        if inDive { endInDive(tag); return }
        let p = parent()
        switch tag {
        case .notes where p == .site: site?.notes = string()
        case .notes where p == .trip:
            if let s = string() { trip?.append(.init("notes", .string(s))) }
        case .site where p == .divesites:
            if let draft = site { finishSite(draft) }
            site = nil
        case .trip where p == .dives:
            if tripDives == 0, let t = trip, !t.isEmpty {
                report(.dropped, "ssrf.trip-without-dives",
                       "a <trip> holds no dive, and a trip is carried on the dives it holds; its \(t.map(\.name).joined(separator: ", ")) are not carried",
                       path: "dives/trip", line: tripLine)
            }
            trip = nil
        default: break
        }
    }

    // MARK: Text

    /// The captured text, trimmed; `nil` when empty (an empty element records nothing).
    func string() -> String? {
        markCarried()
        if textTooLong { return nil }
        let s = String(decoding: text, as: UTF8.self).trimmingWhitespace()
        return s.isEmpty ? nil : s
    }

    /// Marks every attribute of the start tag being read as read: a finding of the reader's
    /// own speaks for them.
    func markAllRead(_ attributes: XMLAttributes) {
        attributes.readMask?.pointee = ~0
    }

    // MARK: End of document

    func finishDocument() throws {
        if let error = parser?.error { throw error }
        guard sawRoot else {
            throw DiveError("ssrf.empty", "the file holds no XML element", at: SourceLocation(file: file))
        }
        if formatOne && !sawProgram {
            report(.absent, "ssrf.version-absent",
                   "the root <dives> has no <program> naming the writer and the save format's version; read as Subsurface's format 1",
                   path: nil, line: 1)
        }
        reportLongTexts(prefix: "")
        reportDrops(dive: false, prefix: "")
    }

    private func reportSettings() {
        guard !settingsChildren.isEmpty else { return }
        let held = settingsChildren.map { "\($0.count) <\($0.name)>" }.joined(separator: ", ")
        report(.dropped, "ssrf.settings-not-carried",
               "<settings> holds \(held): Subsurface's own program state (download fingerprints, computer nicknames, the auto-group switch), not a record of dives; not carried",
               path: "settings", line: settingsLine)
    }
}
