import DiveCore
import DiveXML

/// What every entry of one archive shares: the header its dives' sites and people go to (one
/// record per distinct name, whichever entry names it first), and the count of dives so far.
final class SuuntoDM3Logbook {
    let archive: String
    var header = LogbookHeader()
    var siteUUIDs: [String: String] = [:]
    var personUUIDs: [String: String] = [:]
    var divesRead = 0

    init(archive: String) {
        self.archive = archive
        header.sourceFormat = "suunto_dm3"
    }
}

/// One element's text as read: trimmed, `nil` when empty; and its line.
struct DM3Value {
    var text: String?
    var line: Int
}

/// A `<SAMPLE>` or `<GASCHANGE>` as read.
struct DM3Group {
    var fields: [String: DM3Value] = [:]
    var line: Int
}

/// The SAX state of one entry: a stack of open element names and the `<MSG>` being read.
final class SuuntoDM3State: XMLEventHandler, XMLDiveState {
    let file: String
    /// The entry's name in the archive, for identities.
    let entry: String
    let logbook: SuuntoDM3Logbook
    unowned(unsafe) var parser: XMLPushParser?
    var header: LogbookHeader { logbook.header }
    @exclusivity(unchecked) var findings: [Finding] = []
    var ready: [Dive] = []
    var readyHead = 0
    var samplesPerDive = InputLimits.samplesPerDive

    let accountant: XMLAccountant
    let accounts: Unmanaged<XMLAccountant>

    private(set) var stack: [String] = []
    private(set) var text: [UInt8] = []
    private var capturing = false
    private var textTooLong = false
    private var sawRoot = false

    // The dive being read.
    /// Its place among the entry's `<MSG>`, from 0.
    var messageIndex = -1
    var messageLine = 0
    var scalars: [String: DM3Value] = [:]
    var gasChanges: [DM3Group] = []
    var samples: [DM3Group] = []

    /// The `<MSG>` children the builder reads (or refuses with a finding of its own). The gas
    /// slots (`O2PCT`, `O2PCT_2`…`O2PCT_8`, `HEPCT_0`…`HEPCT_7`, `MIXTYPE_0`…`MIXTYPE_7`) are
    /// matched by ``isGasSlotField(_:)``.
    static let messageScalars: Set<String> = [
        "WRISTOPID", "SAMPLECNT", "DATE", "TIME", "MAXDEPTH", "MEANDEPTH", "SAMPLEINTERVAL", "LOGTITLE", "LOGNOTES",
        "LOCATION", "SITE", "WEATHER", "AIRTEMP", "WATERTEMPMAXDEPTH", "PARTNER", "DIVEMASTER", "BOATNAME",
        "CYLINDERDESCRIPTION", "CYLINDERSIZE", "CYLINDERUNITS", "CYLINDERWORKPRESSURE", "CYLINDERSTARTPRESSURE",
        "CYLINDERENDPRESSURE", "DIVENUMBER", "DCDIVENUMBER", "DEVICEMODEL", "DIVETIMESEC", "PMODE", "WEIGTH", "WEIGHT",
        "HPTRANSMITTER", "SURFACETIME", "NOPROFILE",
    ]
    static let sampleFields: Set<String> = ["SAMPLETIME", "DEPTH", "PRESSURE", "TEMPERATURE", "BOOKMARK"]
    static let gasChangeFields: Set<String> = ["MIXTIME", "MIXVALUE", "MIXHEVALUE"]

    /// `O2PCT`, `O2PCT_n`, `HEPCT_n`, `MIXTYPE_n` with one digit.
    static func isGasSlotField(_ name: String) -> Bool {
        if name == "O2PCT" { return true }
        for prefix in ["O2PCT_", "HEPCT_", "MIXTYPE_"] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            return rest.count == 1 && rest.first!.isASCII && rest.first!.isNumber
        }
        return false
    }

    init(file: String, entry: String, logbook: SuuntoDM3Logbook) {
        self.file = file
        self.entry = entry
        self.logbook = logbook
        accountant = XMLAccountant(file: file, format: "suunto-dm3", identityAttribute: nil)
        accounts = Unmanaged.passUnretained(accountant)
    }

    var line: Int { parser?.line ?? 0 }

    /// The path of the `<MSG>` being read: `MSG`, or `MSG[2]` for an entry's second.
    var messagePath: String { messageIndex == 0 ? "MSG" : "MSG[\(messageIndex + 1)]" }

    func report(_ kind: FindingKind, _ code: String, _ message: String, path: String?, line: Int? = nil, losing lost: Int = 0) {
        findings.append(Finding(kind, "suunto-dm3.\(code)", message, at: SourceLocation(file: file, line: line ?? self.line, path: path)).losing(lost))
    }

    /// Findings that may recur on every sample, counted: one per code and element per dive,
    /// located at the first, its message given the count (reported when the `<MSG>` closes).
    var tally = FindingTally()

    /// Counts a finding about element `name` that may recur on every sample: the message and
    /// the path are built for the first occurrence only.
    func count(_ kind: FindingKind, _ code: String, _ name: String, _ message: @autoclosure () -> String,
               path: @autoclosure () -> String, line: Int) {
        let key = code + "\u{0}" + name
        guard tally.count(key) == 0 else {
            tally.add(key, kind, code, at: SourceLocation()) { _ in "" }
            return
        }
        let text = message()
        tally.add(key, kind, "suunto-dm3.\(code)", at: SourceLocation(file: file, line: line, path: path())) { n in
            n == 1 ? text : "\(text) (\(n) of them; the first is here)"
        }
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        pushMarks(parentCapturing: capturing)
        let name = String(cString: localName)
        stack.append(name)
        capturing = true
        textTooLong = false
        if text.count > 4096 { text = [] } else { text.removeAll(keepingCapacity: true) }
        if !sawRoot {
            sawRoot = true
            guard name == "SUUNTO" else {
                parser?.stop(with: DiveError("suunto-dm3.not-dm3",
                    "the entry is XML but not a Suunto Dive Manager export: its root element is <\(name)>, not <SUUNTO>",
                    at: parser?.location() ?? SourceLocation(file: file)))
                return
            }
            markCarried()
        } else if stack.count == 2 && name == "MSG" {
            messageIndex += 1
            messageLine = line
            scalars = [:]
            gasChanges = []
            samples = []
            accountant.inRecord = true
            accountant.recordDepth = 2
        } else if stack.count == 3 && stack[1] == "MSG" && name == "SAMPLE" {
            samples.append(DM3Group(line: line))
        } else if stack.count == 3 && stack[1] == "MSG" && name == "GASCHANGE" {
            gasChanges.append(DM3Group(line: line))
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
        if stack.count == 2 && stack[1] == "MSG" { endMessage() }
        stack.removeLast()
        capturing = false
    }

    /// An element with no child closes: its text is a value, if it is one this reader reads.
    /// A second element of one name in one `<MSG>`, `<SAMPLE>` or `<GASCHANGE>` is not read
    /// (the first one is), so the accountant reports it.
    private func endLeaf() {
        let depth = stack.count
        let name = stack[depth - 1]
        if depth == 3 && stack[1] == "HEADER" && name == "MSGNAME" {
            if let t = currentText() {
                logbook.header.sourceVersion = t
                markCarried()
            }
        } else if depth == 3 && stack[1] == "MSG" && (Self.messageScalars.contains(name) || Self.isGasSlotField(name)),
                  scalars[name] == nil {
            scalars[name] = DM3Value(text: currentText(), line: line)
            markCarried()
        } else if depth == 4 && stack[1] == "MSG" && stack[2] == "SAMPLE" && Self.sampleFields.contains(name),
                  !samples.isEmpty, samples[samples.count - 1].fields[name] == nil {
            samples[samples.count - 1].fields[name] = DM3Value(text: currentText(), line: line)
            markCarried()
        } else if depth == 4 && stack[1] == "MSG" && stack[2] == "GASCHANGE" && Self.gasChangeFields.contains(name),
                  !gasChanges.isEmpty, gasChanges[gasChanges.count - 1].fields[name] == nil {
            gasChanges[gasChanges.count - 1].fields[name] = DM3Value(text: currentText(), line: line)
            markCarried()
        }
    }

    /// The captured text, trimmed; `nil` when empty or too long.
    private func currentText() -> String? {
        if textTooLong { return nil }
        let s = String(decoding: text, as: UTF8.self).trimmingWhitespace()
        return s.isEmpty ? nil : s
    }

    /// A `<MSG>` closed: its dive is built, and what it did not carry reported with it.
    private func endMessage() {
        let prefix = messagePath + "/"
        reportLongTexts(prefix: prefix)
        reportDrops(dive: true, prefix: prefix)
        accountant.inRecord = false
        if let dive = buildDive() { ready.append(dive) }
        findings += tally.findings()
        tally.removeAll()
        logbook.divesRead += 1
    }

    // MARK: End of document

    func finishDocument() throws {
        if let error = parser?.error { throw error }
        guard sawRoot else {
            throw DiveError("suunto-dm3.empty", "the entry holds no XML element", at: SourceLocation(file: file))
        }
        if messageIndex < 0 {
            report(.absent, "no-message", "the entry's <SUUNTO> holds no <MSG>, so no dive", path: "", line: 1)
        }
        reportDrops(dive: false, prefix: "")
    }
}
