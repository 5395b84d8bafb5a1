import DiveCore
import DiveXML

/// Streams libdivecomputer's XML dump — what its example tools (`universal`, `dctool … -f xml`)
/// write: one `<dive>` after another with no root of their own (or, from dctool, inside
/// `<device>`) — over libxml2's SAX2 push parser, one dive held at a time. The parser opens a
/// root of its own around the file (``XMLPushParser/fragmentRoot``), so the siblings parse as
/// one document.
///
/// Values come out in the model's units, read by `docs/libdc-xml-mapping.md`. The dump never
/// says its units: libdivecomputer's are metric, and dctool can write imperial; each dive is
/// read by the magnitude rule of ``LibdcUnits``, and the file says so once.
public final class LibdcXMLReader: XMLDiveReader {
    /// Opens the dump at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: LibdcXMLState(file: name), fragmentRoot: LibdcXML.fragmentRoot)
    }
}

/// The identity namespace and the sniff of libdivecomputer's XML dump.
public enum LibdcXML {
    /// `uuid5(NAMESPACE_URL, "https://umilog.example/ns/libdc-xml")`: frozen.
    public static let namespace = "ec4d7519-3930-5655-99af-da6d42a114ec"
    /// The root the parser opens around the dump's sibling elements.
    static let fragmentRoot = "umilog-libdc-dump"

    /// A `<dive>` (or dctool's `<device>`) that holds a `<fingerprint>` and a `<divetime>`.
    public static func sniff(_ input: SniffInput) -> SniffConfidence {
        guard input.root == "dive" || input.root == "device" else { return .none }
        return input.contains("<fingerprint>") && input.contains("<divetime>") ? .likely : .none
    }
}

/// One text-valued element as read: its trimmed text, the attributes the reader reads, its line.
struct LValue: XMLTextValued {
    var text: String
    var line: Int
    var type: String? = nil
    var tank: String? = nil
    init(text: String, line: Int) {
        self.text = text
        self.line = line
    }
}

/// A `<sample>` as read.
struct LSample {
    var line: Int
    var values: [(name: String, value: LValue)] = []
}

/// A `<dive>` as read, until it closes.
struct LDiveDraft: XMLDiveDraft {
    var index: Int
    var line: Int
    var values: [String: LValue] = [:]
    var temperatures: [LValue] = []
    var gasmixes: [[String: LValue]] = []
    var tanks: [[String: LValue]] = []
    var samples: [LSample] = []
    var samplesOverLimit = 0
}

/// The SAX state machine: the open elements' names and the one dive being read.
final class LibdcXMLState: XMLEventHandler, XMLDraftState {
    let file: String
    unowned(unsafe) var parser: XMLPushParser?
    var header = LogbookHeader()
    @exclusivity(unchecked) var findings: [Finding] = []
    var ready: [Dive] = []
    var readyHead = 0
    var samplesPerDive = InputLimits.samplesPerDive

    let accountant: XMLAccountant
    let accounts: Unmanaged<XMLAccountant>

    private var stack: [String] = []
    var text: [UInt8] = []
    var capturing = false
    var textTooLong = false
    /// The depth of `<dive>` (2 in a bare dump, 3 inside dctool's `<device>`).
    private var diveDepth = 0
    private var pendingAttributes: (type: String?, tank: String?, time: String?, flags: String?, value: String?, depth: String?) = (nil, nil, nil, nil, nil, nil)

    var draft: LDiveDraft?
    var diveCount = 0
    var fingerprints: Set<String> = []
    var habits = FindingTally()
    /// The units the dives were read in, for one finding at the end.
    var unitsSeen: [LibdcUnits: (count: Int, reason: String, path: String)] = [:]

    static let diveLeaves: Set<String> = ["number", "size", "fingerprint", "datetime", "divetime", "maxdepth", "divemode", "salinity", "atmospheric"]
    static let gasLeaves: Set<String> = ["he", "o2", "n2"]
    static let tankLeaves: Set<String> = ["gasmix", "type", "volume", "workpressure", "beginpressure", "endpressure"]
    /// A sample's children the model carries; `bearing`, `heartbeat`, `rbt`, `setpoint` and
    /// `vendor` are left to the accountant (`libdc-xml.not-carried`, once a dive each).
    static let sampleLeaves: Set<String> = ["time", "depth", "temperature", "pressure", "event", "deco", "ppo2", "cns", "gasmix"]

    init(file: String) {
        self.file = file
        accountant = XMLAccountant(file: file, format: "libdc-xml", identityAttribute: nil)
        accounts = Unmanaged.passUnretained(accountant)
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        beginElementText()
        let name = String(cString: localName)
        stack.append(name)
        let depth = stack.count
        if depth == 1 {
            header.sourceFormat = "libdc-xml"
            markCarried()
        } else if name == "dive", draft == nil, depth == 2 || (depth == 3 && stack[1] == "device") {
            diveDepth = depth
            draft = LDiveDraft(index: diveCount, line: line)
            accountant.inRecord = true
            accountant.recordDepth = depth
        } else if depth == 2 && name == "device" {
            markCarried()
        } else if draft != nil, depth == diveDepth + 1 {
            switch name {
            case "gasmix": draft!.gasmixes.append([:])
            case "tank": draft!.tanks.append([:])
            case "sample":
                if draft!.samples.count < samplesPerDive { draft!.samples.append(LSample(line: line)) } else { draft!.samplesOverLimit += 1 }
            default: break
            }
        }
        // Attributes of the elements read: read here, so that the accountant sees them read.
        if draft != nil, depth == diveDepth + 1, name == "temperature" || name == "salinity" {
            pendingAttributes = (attributes.value("type"), nil, nil, nil, nil, nil)
        } else if draft != nil, depth == diveDepth + 2, stack[diveDepth] == "sample" {
            switch name {
            case "pressure": pendingAttributes = (nil, attributes.value("tank"), nil, nil, nil, nil)
            case "event": pendingAttributes = (attributes.value("type"), nil, attributes.value("time"), attributes.value("flags"), attributes.value("value"), nil)
            case "deco": pendingAttributes = (nil, nil, attributes.value("time"), nil, nil, attributes.value("depth"))
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
        stack.removeLast()
        if draft != nil, stack.count == diveDepth - 1 { finishDive() }
    }

    private func endLeaf() {
        guard draft != nil else { return }
        let depth = stack.count
        let name = stack[depth - 1]
        let attrs = pendingAttributes
        pendingAttributes = (nil, nil, nil, nil, nil, nil)
        if depth == diveDepth + 1 {
            if Self.diveLeaves.contains(name) {
                markCarried()
                guard var v = trimmedText(as: LValue.self) else { return }
                v.type = attrs.type
                keep(v, name, in: &draft!.values, path: "dive/\(draft!.index)", record: "dive")
            } else if name == "temperature" {
                markCarried()
                if var v = trimmedText(as: LValue.self) { v.type = attrs.type; draft!.temperatures.append(v) }
            }
        } else if depth == diveDepth + 2 {
            let parent = stack[diveDepth]
            switch parent {
            case "gasmix" where Self.gasLeaves.contains(name) && !draft!.gasmixes.isEmpty:
                markCarried()
                if let v = trimmedText(as: LValue.self) { draft!.gasmixes[draft!.gasmixes.count - 1][name] = v }
            case "tank" where Self.tankLeaves.contains(name) && !draft!.tanks.isEmpty:
                markCarried()
                if let v = trimmedText(as: LValue.self) { draft!.tanks[draft!.tanks.count - 1][name] = v }
            case "sample" where Self.sampleLeaves.contains(name):
                markCarried()
                guard draft!.samplesOverLimit == 0, !draft!.samples.isEmpty else { return }
                var v = trimmedText(as: LValue.self) ?? LValue(text: "", line: line)
                v.type = attrs.type
                v.tank = attrs.tank
                if name == "event" {
                    v.type = attrs.type
                    v.tank = [attrs.time, attrs.flags, attrs.value].map { $0 ?? "" }.joined(separator: ",")
                } else if name == "deco" {
                    v.type = attrs.time
                    v.tank = attrs.depth
                }
                draft!.samples[draft!.samples.count - 1].values.append((name, v))
            default: break
            }
        }
    }

    // MARK: The end of the document

    func finishDocument() throws {
        try finishParse()
        if diveCount == 0 {
            report(.absent, "no-dives", "the dump holds no <dive>", path: nil, line: nil)
        }
        for (units, seen) in unitsSeen.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            report(.resolved, "units-by-magnitude",
                   "the dump does not say its units (libdivecomputer's are metric; dctool can write imperial): \(seen.count == diveCount ? "every dive" : "\(seen.count) dives") read as \(units.rawValue), \(seen.reason)",
                   path: seen.path, line: nil)
        }
        findings += habits.findings()
        habits.removeAll()
        reportLongTexts(prefix: "")
        reportDrops(dive: false, prefix: "")
    }
}
