import DiveCore
import DiveXML

/// Streams a UDCF file (Universal Dive Computer Format, `<profile udcf="1">`: the XML interchange
/// format of Diving Log, divelogs.de, MacDive and the Diveboard plugin before UDDF) over libxml2's
/// SAX2 push parser, one dive held at a time.
///
/// Every writer spells UDCF its own way, and the reader takes them all by rule, not by writer:
/// tag names in any case (`<PROFILE>`, `<profile>`, `<REPGROUP>` beside `<t>`); a date as
/// `<date><year>…` or as `2006-04-02` text; samples as `<d>` depths at a `<delta>` interval or
/// as `<t>`/`<d>` pairs. The file is read in libxml2's lenient mode: a writer that never closes
/// an element (the Diveboard plugin's `<device>`) is read past, and each place read past is an
/// `xml.recovered` finding; a well-formed file gets none.
///
/// Values come out in the model's units, read by `docs/udcf-mapping.md`, in the units the file's
/// `<units>` names (metric, imperial or SI); a file that names none is read by the magnitude
/// rule the mapping states, and said so (`udcf.units-absent`). What the model has no member for
/// is reported as a ``Finding`` (`udcf.*`) or, by the shared accountant, as `udcf.not-carried`.
public final class UDCFReader: XMLDiveReader {
    /// Opens the UDCF file at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: UDCFState(file: name), lenient: true)
    }
}

/// The identity namespace and the sniff of UDCF.
public enum UDCF {
    /// `uuid5(NAMESPACE_URL, "https://umilog.example/ns/udcf")`: frozen (DiveJSON names no
    /// namespace for this format; changing it would renumber every dive read from one).
    public static let namespace = "eb545e19-f51c-50f1-9164-341236c363a3"

    /// A `<profile>` root (any case) that states a UDCF version (`udcf="1"`, `UDCF='1'`), or one
    /// whose text holds a `<repgroup>` or `<dive>` of UDCF's (a writer that drops the attribute).
    public static func sniff(_ input: SniffInput) -> SniffConfidence {
        guard input.root == "profile" else { return .none }
        if input.xmlRootTag?.lowercased().contains("udcf") ?? false { return .certain }
        return containsFolded(input.text, "<repgroup") || containsFolded(input.text, "<dive>") ? .likely : .none
    }

    /// True when `text` holds `needle` (lowercase ASCII), its letters in any case.
    private static func containsFolded(_ text: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard n.count <= text.count else { return false }
        var i = 0
        while i + n.count <= text.count {
            var k = 0
            while k < n.count, (text[i + k] >= 0x41 && text[i + k] <= 0x5A ? text[i + k] | 0x20 : text[i + k]) == n[k] { k += 1 }
            if k == n.count { return true }
            i += 1
        }
        return false
    }
}

/// UDCF's element names, lowercased, as the reader codes them (DiveXML's ``NameTable``): 0 a
/// name the reader does not take.
enum UDCFTag: UInt8, CaseIterable {
    case other = 0
    case profile, units, device, vendor, model, version, addinfo, serialid, repgroup
    case dive, place, date, year, month, day, time, hour, minute, second
    case duration, surfaceinterval, temperature, density, altitude
    case gases, mix, mixname, tank, tankvolume, pstart, pend, o2, n2, he
    case samples, delta, t, d, `switch`, alarm

    private static let codes: [String: UInt8] = {
        var out: [String: UInt8] = [:]
        for tag in allCases where tag != .other { out[String(describing: tag)] = tag.rawValue }
        return out
    }()

    /// The code of a lowercased name.
    static func code(_ name: String) -> UInt8 { codes[name] ?? 0 }
}

/// One text-valued element as read: its trimmed text, its line and its path from the dive's
/// element (`gases/mix/0/o2`) for findings.
struct UDCFValue {
    var text: String
    var line: Int
    var path: String
}

/// A `<mix>` as read.
struct UDCFMixDraft {
    var line: Int
    /// Its path below the dive's element (`GASES/MIX/0`).
    var path: String
    var fields: [UDCFTag: UDCFValue] = [:]
}

/// One child of `<samples>` as read, in document order: the order is the format's meaning (a
/// `<d>` is at the `<t>` before it, or at its place times `<delta>`; a `<switch>` or an `<alarm>`
/// is at the depth it stands beside).
struct UDCFSampleItem {
    var tag: UDCFTag
    var value: UDCFValue
}

/// A `<dive>` as read.
struct UDCFDiveDraft {
    var index: Int
    var line: Int
    var scalars: [UDCFTag: UDCFValue] = [:]
    var mixes: [UDCFMixDraft] = []
    var items: [UDCFSampleItem] = []
    /// `<d>` past ``InputLimits/samplesPerDive``: counted, not held.
    var depthsOverLimit = 0
    var depthCount = 0
}

/// What the file says outside its dives: units, the device, the serial number.
struct UDCFFileValues {
    var units: UDCFValue?
    var vendor: UDCFValue?
    var model: UDCFValue?
    var version: UDCFValue?
    var serial: UDCFValue?
}

/// The SAX state machine: a stack of open elements' codes and the one dive being read.
final class UDCFState: XMLEventHandler, XMLDiveState {
    let file: String
    unowned(unsafe) var parser: XMLPushParser?
    var header = LogbookHeader()
    @exclusivity(unchecked) var findings: [Finding] = []
    var ready: [Dive] = []
    var readyHead = 0
    var samplesPerDive = InputLimits.samplesPerDive

    let accountant: XMLAccountant
    let accounts: Unmanaged<XMLAccountant>

    /// The open elements, by ``UDCFTag`` raw value; a name is resolved once per distinct name.
    private var stack: [UInt8] = []
    /// Per open element inside a dive: its path below the dive's element, for findings.
    private var pathStack: [String] = []
    @exclusivity(unchecked) private var tags = NameTable { UDCFTag.code($0) }
    private(set) var text: [UInt8] = []
    private var capturing = false
    private var textTooLong = false
    private var sawRoot = false
    var rootLine = 0

    var fileValues = UDCFFileValues()
    /// The dive being read, and the depth of its element in ``stack``.
    private var draft: UDCFDiveDraft?
    private var diveDepth = 0
    private(set) var divesRead = 0
    /// Sites by name, one per distinct `<place>` in the file.
    var siteUUIDs: [String: String] = [:]
    /// File-wide findings said once: the keys said so far.
    var saidOnce: Set<String> = []

    init(file: String) {
        self.file = file
        accountant = XMLAccountant(file: file, format: "udcf", identityAttribute: nil)
        accounts = Unmanaged.passUnretained(accountant)
    }

    var line: Int { parser?.line ?? 0 }

    func report(_ kind: FindingKind, _ code: String, _ message: String, line: Int?, path: String?, losing lost: Int = 0) {
        findings.append(Finding(kind, "udcf.\(code)", message, at: SourceLocation(file: file, line: line, path: path)).losing(lost))
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        pushMarks(parentCapturing: capturing)
        let code = tags.code(localName)
        let parent = stack.last.flatMap { UDCFTag(rawValue: $0) } ?? .other
        stack.append(code)
        capturing = true
        textTooLong = false
        if text.count > 4096 { text = [] } else { text.removeAll(keepingCapacity: true) }
        let tag = UDCFTag(rawValue: code) ?? .other
        if !sawRoot {
            sawRoot = true
            guard tag == .profile else {
                parser?.stop(with: DiveError("udcf.not-udcf",
                    "the file is XML but not UDCF: its root element is <\(String(cString: localName))>, not <profile>",
                    at: parser?.location() ?? SourceLocation(file: file)))
                return
            }
            rootLine = line
            header.sourceFormat = "udcf"
            header.sourceVersion = attributes.value("udcf")
            markCarried()
        } else if tag == .dive && draft == nil {
            draft = UDCFDiveDraft(index: divesRead, line: line)
            diveDepth = stack.count
            pathStack = []
            accountant.inRecord = true
            accountant.recordDepth = stack.count
        } else if draft != nil {
            var path = (pathStack.last.map { $0 + "/" } ?? "") + String(cString: localName)
            if tag == .mix && parent == .gases {
                path += "/\(draft!.mixes.count)"
                draft!.mixes.append(UDCFMixDraft(line: line, path: path))
            }
            pathStack.append(path)
        }
        noteUnreadAttributes(attributes)
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard capturing else { noteTrailingText(bytes); return }
        if appendXMLText(bytes, to: &text, tooLong: &textTooLong) { noteTooLong() }
    }

    override func endElement(_ localName: UnsafePointer<UInt8>) {
        let own = capturing
        if own { endLeaf() }
        popMarks(ownTextCaptured: own)
        if draft != nil && stack.count == diveDepth {
            finishDive()
        } else if draft != nil && !pathStack.isEmpty {
            pathStack.removeLast()
        }
        stack.removeLast()
        capturing = false
    }

    /// An element with no child closes: its text is a value, if it is one this reader reads.
    private func endLeaf() {
        guard stack.count >= 2, !textTooLong else { return }
        let tag = UDCFTag(rawValue: stack[stack.count - 1]) ?? .other
        let parent = UDCFTag(rawValue: stack[stack.count - 2]) ?? .other
        let grandparent = stack.count >= 3 ? UDCFTag(rawValue: stack[stack.count - 3]) ?? .other : .other
        guard let value = trimmedText() else { return }
        guard draft != nil else {
            switch (parent, tag) {
            case (_, .units): fileValues.units = value
            case (.device, .vendor): fileValues.vendor = value
            case (.device, .model): fileValues.model = value
            case (.device, .version): fileValues.version = value
            case (.addinfo, .serialid): fileValues.serial = value
            default: return
            }
            markCarried()
            return
        }
        switch (grandparent, parent, tag) {
        case (_, .dive, .place), (_, .dive, .date), (_, .dive, .time), (_, .dive, .duration), (_, .dive, .surfaceinterval),
             (_, .dive, .temperature), (_, .dive, .density), (_, .dive, .altitude),
             (.dive, .date, .year), (.dive, .date, .month), (.dive, .date, .day),
             (.dive, .time, .hour), (.dive, .time, .minute), (.dive, .time, .second):
            draft!.scalars[tag] = value
        case (.gases, .mix, .mixname), (.gases, .mix, .o2), (.gases, .mix, .n2), (.gases, .mix, .he),
             (.mix, .tank, .tankvolume), (.mix, .tank, .pstart), (.mix, .tank, .pend):
            guard !draft!.mixes.isEmpty else { return }
            draft!.mixes[draft!.mixes.count - 1].fields[tag] = value
        case (_, .samples, .delta):
            draft!.scalars[.delta] = value
        case (_, .samples, .t), (_, .samples, .switch), (_, .samples, .alarm):
            if draft!.depthsOverLimit == 0 { draft!.items.append(UDCFSampleItem(tag: tag, value: value)) }
        case (_, .samples, .d):
            draft!.depthCount += 1
            if draft!.depthCount > samplesPerDive {
                draft!.depthsOverLimit += 1
            } else {
                draft!.items.append(UDCFSampleItem(tag: tag, value: value))
            }
        default:
            return
        }
        markCarried()
    }

    /// The element's text without the whitespace around it, with its line and path; `nil` when
    /// blank (Diving Log writes `<PSTART>` with nothing in it for a pressure not logged).
    private func trimmedText() -> UDCFValue? {
        func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = text.firstIndex(where: { !space($0) }), let last = text.lastIndex(where: { !space($0) }) else { return nil }
        return UDCFValue(text: String(decoding: text[first...last], as: UTF8.self), line: line, path: pathStack.last ?? "")
    }

    private func finishDive() {
        guard let d = draft else { return }
        let prefix = "dive/\(d.index)/"
        reportLongTexts(prefix: prefix)
        reportDrops(dive: true, prefix: prefix)
        accountant.inRecord = false
        draft = nil
        divesRead += 1
        if let dive = buildDive(d) { ready.append(dive) }
    }

    // MARK: End of document

    func finishDocument() throws {
        if let error = parser?.error { throw error }
        guard sawRoot else {
            throw DiveError("udcf.empty", "the file holds no XML element", at: SourceLocation(file: file))
        }
        // A dive the file never closed (it ends inside it) is read as far as it goes.
        if draft != nil { finishDive() }
        if divesRead == 0 {
            report(.absent, "no-dives", "the file holds no <dive>", line: rootLine, path: "profile")
        }
        reportLongTexts(prefix: "")
        reportDrops(dive: false, prefix: "")
    }
}
