import DiveCore
import DiveXML

/// Streams a Shearwater Desktop / Shearwater Cloud XML export (`<dive version="3"><diveLog>…`,
/// one dive per document) over libxml2's SAX2 push parser.
///
/// Values come out in the model's units, read by `docs/shearwater-mapping.md`: depths in metres
/// (feet where `<imperialUnits>` says so), temperatures in °C (°F likewise), tank pressures from
/// psi, gas fractions as percentages, times from milliseconds. What the model has no member for
/// is reported as a ``Finding`` (`shearwater-xml.*`) or, by the shared accountant, as
/// `shearwater-xml.not-carried`.
///
/// The exporter declares `encoding="utf-16"` over single-byte text; the declaration is believed
/// only where the bytes can be in it (``XMLPushParser/checksDeclaredEncoding``), and reported
/// where they cannot.
public final class ShearwaterXMLReader: XMLDiveReader {
    /// Opens the Shearwater XML file at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: ShearwaterXMLState(file: name), checksDeclaredEncoding: true)
    }
}

/// The identity namespace and the sniff of Shearwater's XML export.
public enum ShearwaterXML {
    /// `uuid5(NAMESPACE_URL, "https://umilog.example/ns/shearwater_xml")`: frozen (DiveJSON names
    /// no namespace for this format; changing it would renumber every dive read from one).
    public static let namespace = "43c122b8-a7d6-55a9-afd5-b10a1d8a8e82"

    /// A `<dive>` root with a `<diveLog>` inside: Shearwater's export, and no other `<dive>` format's.
    public static func sniff(_ input: SniffInput) -> SniffConfidence {
        input.root == "dive" && input.contains("<diveLog") ? .likely : .none
    }
}

/// Where the XML spelling's values are, and how its messages name them.
struct ShearwaterXMLSpelling: ShearwaterSpelling {
    let file: String
    var logLine: Int
    var format: String { "shearwater-xml" }
    static let logPath = "dive/diveLog"
    static let recordPath = "dive/diveLog/diveLogRecords/diveLogRecord"

    func named(_ name: String, record: Bool) -> String { "<\(name)>" }
    func location(of value: ShearwaterValue) -> SourceLocation {
        SourceLocation(file: file, line: value.line, path: "\(Self.logPath)/\(value.name)")
    }
    func location(record index: Int, _ value: ShearwaterValue) -> SourceLocation {
        SourceLocation(file: file, line: value.line, path: "\(Self.recordPath)/\(index)/\(value.name)")
    }
    func location(record index: Int, line: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, path: "\(Self.recordPath)/\(index)")
    }
    var logLocation: SourceLocation { SourceLocation(file: file, line: logLine, path: Self.logPath) }
}

/// Element names as the XML reader codes them (DiveXML's ``NameTable``, lowercased names to a
/// byte): 0 a name the reader does not take, then the document's structure, then the log's
/// values and the records' (``keys`` holds their lowercased names, by code).
enum ShearwaterTag {
    static let other: UInt8 = 0, dive: UInt8 = 1, diveLog: UInt8 = 2, diveLogRecords: UInt8 = 3, diveLogRecord: UInt8 = 4
    static let firstValue: UInt8 = 5
    /// The lowercased names of the value codes from ``firstValue``: the log's, then the records'.
    static let keys: [String] = ShearwaterLogDraft.scalarNames.sorted() + ShearwaterLogDraft.recordNames.sorted()
    static let firstRecordValue = firstValue + UInt8(ShearwaterLogDraft.scalarNames.count)
    private static let codes: [String: UInt8] = {
        var out: [String: UInt8] = ["dive": dive, "divelog": diveLog, "divelogrecords": diveLogRecords, "divelogrecord": diveLogRecord]
        for (i, key) in keys.enumerated() { out[key] = firstValue + UInt8(i) }
        return out
    }()

    /// The code of a lowercased name.
    static func code(_ name: String) -> UInt8 { codes[name] ?? other }
    /// The lowercased name of a value code.
    static func key(_ code: UInt8) -> String { keys[Int(code - firstValue)] }
    static func isLogValue(_ code: UInt8) -> Bool { code >= firstValue && code < firstRecordValue }
    static func isRecordValue(_ code: UInt8) -> Bool { code >= firstRecordValue }
}

/// The SAX state machine: a stack of open elements' codes and the one log being read.
final class ShearwaterXMLState: XMLEventHandler, XMLDiveState {
    let file: String
    unowned(unsafe) var parser: XMLPushParser?
    var header = LogbookHeader()
    @exclusivity(unchecked) var findings: [Finding] = []
    var ready: [Dive] = []
    var readyHead = 0
    var samplesPerDive = InputLimits.samplesPerDive

    let accountant: XMLAccountant
    let accounts: Unmanaged<XMLAccountant>

    /// The open elements, by ``ShearwaterTag`` code: a name is resolved once per distinct name
    /// (libxml2 interns them), never made a `String` or lowercased per element.
    private var stack: [UInt8] = []
    @exclusivity(unchecked) private var tags = NameTable { ShearwaterTag.code($0) }
    /// The names of the values kept, as written, by libxml2's interned name: made once per name.
    private var written: [UInt: String] = [:]
    private(set) var text: [UInt8] = []
    private var capturing = false
    private var textTooLong = false
    private var sawRoot = false
    private var sawLog = false
    private var diveLine = 0
    private var logLine = 0

    private var log = ShearwaterLogDraft()
    /// Records past ``samplesPerDive``: counted, not held.
    private var recordsOverLimit = 0

    init(file: String) {
        self.file = file
        accountant = XMLAccountant(file: file, format: "shearwater-xml", identityAttribute: nil)
        accounts = Unmanaged.passUnretained(accountant)
    }

    var line: Int { parser?.line ?? 0 }

    func report(_ kind: FindingKind, _ code: String, _ message: String, at location: SourceLocation) {
        findings.append(Finding(kind, "shearwater-xml.\(code)", message, at: location))
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        pushMarks(parentCapturing: capturing)
        let tag = tags.code(localName)
        stack.append(tag)
        capturing = true
        textTooLong = false
        if text.count > 4096 { text = [] } else { text.removeAll(keepingCapacity: true) }
        if !sawRoot {
            sawRoot = true
            guard tag == ShearwaterTag.dive else {
                parser?.stop(with: DiveError("shearwater-xml.not-shearwater-xml",
                    "the file is XML but not a Shearwater XML export: its root element is <\(String(cString: localName))>, not <dive>",
                    at: parser?.location() ?? SourceLocation(file: file)))
                return
            }
            header.sourceFormat = "shearwater_xml"
            header.sourceVersion = attributes.value("version")
            diveLine = line
            accountant.inRecord = true
            accountant.recordDepth = 1
            markCarried()
        } else if stack.count == 2 && tag == ShearwaterTag.diveLog {
            sawLog = true
            logLine = line
        } else if stack.count == 4 && tag == ShearwaterTag.diveLogRecord && stack[2] == ShearwaterTag.diveLogRecords {
            if log.records.count < samplesPerDive {
                log.records.append(ShearwaterRecord(line: line))
            } else {
                recordsOverLimit += 1
            }
        }
        noteUnreadAttributes(attributes)
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard capturing else { noteTrailingText(bytes); return }
        if appendXMLText(bytes, to: &text, tooLong: &textTooLong) { noteTooLong() }
    }

    override func endElement(_ localName: UnsafePointer<UInt8>) {
        let own = capturing
        if own { endLeaf(localName) }
        popMarks(ownTextCaptured: own)
        stack.removeLast()
        capturing = false
    }

    /// An element with no child closes: its text is a value, if it is one this reader reads.
    private func endLeaf(_ localName: UnsafePointer<UInt8>) {
        guard stack.count >= 3, stack[1] == ShearwaterTag.diveLog, !textTooLong else { return }
        let tag = stack[stack.count - 1]
        if stack.count == 3 && ShearwaterTag.isLogValue(tag) {
            markCarried()
            if let value = trimmedText() { log.scalars[ShearwaterTag.key(tag)] = ShearwaterValue(name: writtenName(localName), text: value, line: line) }
        } else if stack.count == 5 && stack[2] == ShearwaterTag.diveLogRecords && stack[3] == ShearwaterTag.diveLogRecord
                    && ShearwaterTag.isRecordValue(tag) {
            // A record past the limit is counted and reported, so its fields are spoken for.
            markCarried()
            if recordsOverLimit == 0, !log.records.isEmpty, let value = trimmedText() {
                log.records[log.records.count - 1].fields[ShearwaterTag.key(tag)] = ShearwaterValue(name: writtenName(localName), text: value, line: line)
            }
        }
    }

    /// The element's text without the whitespace around it, made a `String` only for a value
    /// kept; `nil` when empty.
    private func trimmedText() -> String? {
        func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = text.firstIndex(where: { !space($0) }), let last = text.lastIndex(where: { !space($0) }) else { return nil }
        return String(decoding: text[first...last], as: UTF8.self)
    }

    /// An element's name as written: made once per name libxml2 interned.
    private func writtenName(_ localName: UnsafePointer<UInt8>) -> String {
        let key = UInt(bitPattern: localName)
        if let name = written[key] { return name }
        let name = String(cString: localName)
        written[key] = name
        return name
    }

    // MARK: End of document

    func finishDocument() throws {
        if let error = parser?.error { throw error }
        guard sawRoot else {
            throw DiveError("shearwater-xml.empty", "the file holds no XML element", at: SourceLocation(file: file))
        }
        guard sawLog else {
            throw DiveError("shearwater-xml.no-dive-log", "the <dive> holds no <diveLog>, the one element a Shearwater export's dive is in",
                            at: SourceLocation(file: file, line: diveLine))
        }
        if let declared = parser?.ignoredEncoding {
            report(.resolved, "encoding-declaration-ignored",
                   "the XML declaration says encoding=\"\(declared)\", but the file opens in single bytes with no byte-order mark and holds no NUL byte, which \(declared) text always would: read as UTF-8",
                   at: SourceLocation(file: file, line: 1))
        }
        reportLongTexts(prefix: "dive/")
        reportDrops(dive: true, prefix: "dive/")
        accountant.inRecord = false
        ready.append(buildDive())
        reportDrops(dive: false, prefix: "")
    }

    private func buildDive() -> Dive {
        var dive = Dive(uuid: Identity.uuid5(namespace: ShearwaterXML.namespace, name: "dive:#0"), startedAt: nil)
        dive.provenance = Provenance(format: "shearwater-xml", file: file, index: 0, line: diveLine, positionalIdentity: true)
        report(.absent, "id-absent", "a Shearwater export records no id for its dive; its identity is positional",
               at: SourceLocation(file: file, line: diveLine, path: "dive"))
        let spelling = ShearwaterXMLSpelling(file: file, logLine: logLine)
        var reading = ShearwaterLogReading(spelling: spelling)
        reading.samplesPerDive = samplesPerDive
        if recordsOverLimit > 0 {
            reading.report(.dropped, "samples-over-limit",
                           "the log holds \(recordsOverLimit) records past the \(samplesPerDive) a dive keeps; they are not carried",
                           at: spelling.logLocation)
        }
        var rec = Recording()
        let units = reading.units(log)
        reading.readSummary(log, units: units, into: &dive, recording: &rec)
        if dive.startedAt == nil, log["startdate"] == nil {
            reading.report(.absent, "start-absent", "the log records no <startDate>", at: spelling.logLocation)
        }
        reading.readRecords(log, units: units, into: &dive, recording: &rec)
        findings += reading.findings
        dive.recordings = [rec]
        return dive
    }
}
