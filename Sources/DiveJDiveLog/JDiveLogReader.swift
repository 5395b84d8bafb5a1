import DiveCore
import DiveXML

/// Streams a JDiveLog 2.x logbook (`.jlb`: a `<JDiveLog>` root, the program's settings, the
/// `<Masterdata>` of dive sites, then one `<JDive>` per dive) over libxml2's SAX2 push parser,
/// one dive held at a time.
///
/// Values come out in the model's units, read by `docs/jdivelog-mapping.md`: each dive's
/// `<UNITS>` (`metric` or `si`) decides its temperatures, pressures, times and tank volumes;
/// a dive without it is read by the magnitude rule of ``JDiveLogUnits`` and says so. What the
/// model has no member for is kept under the `umilog` extension or reported as a ``Finding``
/// (`jdivelog.*`, and `jdivelog.not-carried` from the shared accountant).
public final class JDiveLogReader: XMLDiveReader {
    /// Opens the JDiveLog file at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: JDiveLogState(file: name))
    }
}

/// The identity namespace of JDiveLog's logbook.
public enum JDiveLog {
    /// `uuid5(NAMESPACE_URL, "https://umilog.example/ns/jdivelog")`: frozen (DiveJSON names no
    /// namespace for this format; changing it would renumber every dive read from one).
    public static let namespace = "d8ae0279-7396-5583-ba0f-2402f2379218"
}

/// Leaf values of one record (a dive, a tank, a mix, a site), by their path below it.
typealias JFields = XMLFields<String>

/// One child of `<SAMPLES>`, in document order: the profile is the order of these.
enum JSampleItem {
    case delta(XMLTextValue)
    case depth(XMLTextValue)
    case temperature(XMLTextValue)
    case gasSwitch(XMLTextValue)
    case alarm(XMLTextValue)
}

/// A `<JDive>` as read, until it closes.
struct JDiveDraft: XMLDiveDraft {
    var index: Int
    var line: Int
    var values = JFields(line: 0)
    var tanks: [JFields] = []
    var mixes: [JFields] = []
    var samples: [JSampleItem] = []
    var depthCount = 0
    var samplesOverLimit = 0

    subscript(_ path: String) -> XMLTextValue? { values[path] }
}

/// The SAX state machine: the open elements' names and the one dive being read.
final class JDiveLogState: XMLEventHandler, XMLDraftState {
    let file: String
    unowned(unsafe) var parser: XMLPushParser?
    var header = LogbookHeader()
    @exclusivity(unchecked) var findings: [Finding] = []
    var ready: [Dive] = []
    var readyHead = 0
    var samplesPerDive = InputLimits.samplesPerDive

    let accountant: XMLAccountant
    let accounts: Unmanaged<XMLAccountant>

    /// The open elements' names, as the file spells them.
    private var stack: [String] = []
    var text: [UInt8] = []
    var capturing = false
    var textTooLong = false
    private var sawRoot = false

    var draft: JDiveDraft?
    var diveCount = 0
    /// `<Masterdata><DiveSites><DiveSite>` as read, by their `<privateId>`.
    var siteFields: [JFields] = []
    var siteUUIDs: [String: String] = [:]
    var personUUIDs: [String: String] = [:]
    /// The cylinder of each `<DIVE><GASES><MIX>` of the dive being built.
    var mixCylinders: [Int] = []
    /// The program's settings blocks met, for one finding at the end.
    var settings: [(name: String, line: Int)] = []
    var habits = FindingTally()

    /// The root's children that hold the program's settings, not the logbook's.
    static let settingsBlocks: Set<String> = [
        "ExportSettings", "StatisticSettings", "SlideshowSettings", "ProfileSettings",
        "ComputerSettings", "ComputerDriver", "ComputerDownloadInterval",
    ]
    /// Leaf paths below `<JDive>` the reader reads.
    static let diveLeaves: Set<String> = [
        "DiveNum", "UNITS", "DATE/YEAR", "DATE/MONTH", "DATE/DAY", "TIME/HOUR", "TIME/MINUTE", "PLACE", "Country",
        "diveSiteId", "amv", "Depth", "Average_Depth", "Duration", "Visibility", "TEMPERATURE",
        "surfaceTemperature", "Buddy", "DiveType", "DiveActivity", "Comment",
        "Equipment/Weight", "Equipment/Suit", "Equipment/Gloves", "Equipment/Comment", "Equipment/Visibility",
        "DIVE/DATE/YEAR", "DIVE/DATE/MONTH", "DIVE/DATE/DAY", "DIVE/TIME/HOUR", "DIVE/TIME/MINUTE",
        "DIVE/SURFACEINTERVAL", "DIVE/TEMPERATURE", "DIVE/surfaceTemperature", "DIVE/DENSITY", "DIVE/ALTITUDE",
        "DIVE/DELTAMODE",
    ]
    /// Leaf paths below `<Equipment><Tanks><Tank>` and below a `<MIX>`.
    static let tankLeaves: Set<String> = ["Name", "Volume", "WorkingPressure", "Weight", "Type"]
    static let mixLeaves: Set<String> = ["MIXNAME", "TANK/TANKVOLUME", "TANK/PSTART", "TANK/PEND", "O2", "N2", "HE"]
    /// Leaf names below `<DiveSite>`.
    static let siteLeaves: Set<String> = [
        "privateId", "publicId", "ownerId", "publish", "published", "spot", "city", "state", "country", "longitude",
        "latitude", "minDepth", "avgDepth", "maxDepth", "waters", "timezone", "description", "directions", "altitude",
        "warnings", "privateRemarks", "siteType", "mainDiveActivity", "evaluation",
    ]

    init(file: String) {
        self.file = file
        accountant = XMLAccountant(file: file, format: "jdivelog", identityAttribute: nil)
        accounts = Unmanaged.passUnretained(accountant)
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        beginElementText()
        let name = String(cString: localName)
        stack.append(name)
        if !sawRoot {
            sawRoot = true
            guard name == "JDiveLog" else {
                parser?.stop(with: DiveError("jdivelog.not-jdivelog",
                    "the file is XML but not a JDiveLog logbook: its root element is <\(name)>, not <JDiveLog>",
                    at: parser?.location() ?? SourceLocation(file: file)))
                return
            }
            header.sourceFormat = "jdivelog"
            markCarried()
        } else if stack.count == 2 {
            if name == "JDive" {
                draft = JDiveDraft(index: diveCount, line: line)
                draft!.values.line = line
                accountant.inRecord = true
                accountant.recordDepth = 2
            } else if Self.settingsBlocks.contains(name) {
                settings.append((name, line))
                coverCurrent()
            }
        } else if stack.count == 4, stack[1] == "Masterdata", stack[2] == "DiveSites", name == "DiveSite" {
            siteFields.append(JFields(line: line))
        } else if draft != nil {
            let rel = stack[2...].joined(separator: "/")
            switch rel {
            case "Equipment/Tanks/Tank": draft!.tanks.append(JFields(line: line))
            case "DIVE/GASES/MIX": draft!.mixes.append(JFields(line: line))
            default: break
            }
        }
        noteUnreadAttributes(attributes)
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        captureText(bytes)
    }

    override func endElement(_ localName: UnsafePointer<UInt8>) {
        endElementText { endLeaf() }
        let closed = stack.removeLast()
        if closed == "JDive" && stack.count == 1 { finishDive() }
    }

    /// An element with no child closes: its text is a value, if it is one this reader reads.
    private func endLeaf() {
        if stack.count == 2, stack[1] == "Version" {
            markCarried()
            header.sourceVersion = trimmedText()?.text
            return
        }
        if stack.count == 5, stack[1] == "Masterdata", stack[3] == "DiveSite", Self.siteLeaves.contains(stack[4]), !siteFields.isEmpty {
            markCarried()
            if let v = trimmedText() { keep(v, stack[4], in: &siteFields[siteFields.count - 1].fields, path: "Masterdata/DiveSites/DiveSite/\(siteFields.count - 1)") }
            return
        }
        guard draft != nil, stack.count >= 3, stack[1] == "JDive" else { return }
        let rel = stack[2...].joined(separator: "/")
        let path = "dive/\(draft!.index)"
        if Self.diveLeaves.contains(rel) {
            markCarried()
            if let v = trimmedText() { keep(v, rel, in: &draft!.values.fields, path: path) }
        } else if rel.hasPrefix("Equipment/Tanks/Tank/"), !draft!.tanks.isEmpty {
            let sub = String(rel.dropFirst("Equipment/Tanks/Tank/".count))
            let inner = sub.hasPrefix("MIX/") ? String(sub.dropFirst(4)) : nil
            guard Self.tankLeaves.contains(sub) || inner.map(Self.mixLeaves.contains) == true else { return }
            markCarried()
            let k = draft!.tanks.count - 1
            if let v = trimmedText() { keep(v, sub, in: &draft!.tanks[k].fields, path: "\(path)/Equipment/Tanks/Tank/\(k)") }
        } else if rel.hasPrefix("DIVE/GASES/MIX/"), !draft!.mixes.isEmpty {
            let sub = String(rel.dropFirst("DIVE/GASES/MIX/".count))
            guard Self.mixLeaves.contains(sub) else { return }
            markCarried()
            let k = draft!.mixes.count - 1
            if let v = trimmedText() { keep(v, sub, in: &draft!.mixes[k].fields, path: "\(path)/DIVE/GASES/MIX/\(k)") }
        } else if stack.count == 5, stack[2] == "DIVE", stack[3] == "SAMPLES" {
            let item: (XMLTextValue) -> JSampleItem
            switch stack[4] {
            case "DELTA": item = JSampleItem.delta
            case "D": item = JSampleItem.depth
            case "TEMPERATURE": item = JSampleItem.temperature
            case "SWITCH": item = JSampleItem.gasSwitch
            case "ALARM": item = JSampleItem.alarm
            default: return
            }
            markCarried()
            if stack[4] == "D" {
                draft!.depthCount += 1
                if draft!.depthCount > samplesPerDive { draft!.samplesOverLimit += 1; return }
            } else if draft!.samplesOverLimit > 0 {
                return
            }
            draft!.samples.append(item(trimmedText() ?? XMLTextValue(text: "", line: line)))
        }
    }

    // MARK: The end of the document

    func finishDocument() throws {
        try finishParse(sawRoot: sawRoot)
        if !settings.isEmpty {
            let names = settings.map { "<\($0.name)>" }.joined(separator: ", ")
            report(.dropped, "settings-not-carried",
                   "\(names) hold JDiveLog's own settings (HTML export, statistics, slideshow, profile colours, the download driver and its port), not the logbook's; not carried",
                   path: settings[0].name, line: settings[0].line)
        }
        if diveCount == 0 {
            report(.absent, "no-dives", "the logbook holds no <JDive>", path: "JDiveLog", line: nil)
        }
        // Sites no dive named are the logbook's too.
        for (k, s) in siteFields.enumerated() where siteUUIDs[s["privateId"]?.text ?? "#\(k)"] == nil {
            _ = site(k)
        }
        findings += habits.findings()
        habits.removeAll()
        reportLongTexts(prefix: "")
        reportDrops(dive: false, prefix: "")
    }
}
