import DiveCore
import DiveXML

/// Streams a MacDive XML logbook (`<dives>` root, `<units>`, `<schema>` 2.x, one `<dive>` after
/// another) over libxml2's SAX2 push parser, one dive held at a time.
///
/// Values come out in the model's units, read by `docs/macdive-mapping.md`: the file's
/// `<units>Metric|Imperial</units>` decides every depth, temperature, pressure, weight and tank
/// size (a file without it is read by the magnitude rule of ``MacDiveUnits``, and says so).
/// MacDive writes 0 for a number the diver never set; such zeros are counted and reported, not
/// carried. What the model has no member for is kept under the `umilog` extension or reported
/// as a ``Finding`` (`macdive.*`, and `macdive.not-carried` from the shared accountant).
public final class MacDiveReader: XMLDiveReader {
    /// Opens the MacDive XML file at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        // MacDive declares `<!DOCTYPE dives SYSTEM "http://www.mac-dive.com/macdive_logbook.dtd">`:
        // read past (the DTD is never fetched); one with an internal subset still refuses.
        try super.init(path: path, displayName: name, state: MacDiveState(file: name), acceptedDoctypeRoot: "dives")
    }
}

/// The identity namespace and the sniff of MacDive's XML export.
public enum MacDive {
    /// `uuid5(NAMESPACE_URL, "https://umilog.example/ns/macdive")`: frozen (DiveJSON names no
    /// namespace for this format; changing it would renumber every dive read from one).
    public static let namespace = "5b274bc7-4f6f-5553-a684-89e36c7e0b7e"

    /// A `<dives>` root that names MacDive's DTD or holds a `<schema>`: MacDive's export. The
    /// root alone is not enough (other logbooks' roots are `<dives>` too).
    public static func sniff(_ input: SniffInput) -> SniffConfidence {
        guard input.root == "dives" else { return .none }
        return input.contains("macdive_logbook.dtd") || input.contains("<schema>") ? .likely : .none
    }
}

/// The element names the reader knows, lowercased to a code by DiveXML's ``NameTable``. A
/// case's name is MacDive's spelling (`maxDepth`); finding paths use it.
enum MacDiveName: UInt8, CaseIterable {
    case other = 0
    // Structure.
    case dives, dive, site, tags, tag, types, type, buddies, buddy, gear, item, gases, gas, samples, sample
    // The file's.
    case units, schema
    // A dive's (schema 2.x, and the older spellings Subsurface's MacDive.xslt reads).
    case date, identifier, diveNumber, rating, repetitiveDive, diver, computer, serial, maxDepth, averageDepth
    case avgDepth, avergeDepth, cns, decoModel, duration, gasModel, surfaceInterval, sampleInterval, tempAir
    case tempHigh, tempLow, visibility, weight, notes, diveMaster, diveOperator, skipper, boat, weather, current
    case surfaceConditions, entryType, o2Percent, siteLat, siteLon
    // A site's (and, in the older spelling, a dive's own country and location).
    case country, location, name, bodyOfWater, waterType, difficulty, altitude, lat, lon
    // A gear item's, beside type, name and serial.
    case manufacturer
    // A gas's, beside duration.
    case pressureStart, pressureEnd, oxygen, helium, double, tankSize, workingPressure, supplyType, tankName
    // A sample's.
    case time, depth, pressure, temperature, ppo2, ndt, alarm

    /// MacDive's spelling.
    var spelling: String { String(describing: self) }

    private static let codes: [String: UInt8] = {
        var out: [String: UInt8] = [:]
        for c in allCases where c != .other { out[c.spelling.lowercased()] = c.rawValue }
        return out
    }()

    /// The code of a lowercased name (0 for one the reader does not take).
    static func code(_ name: String) -> UInt8 { codes[name] ?? 0 }

    /// A `<dive>`'s children whose text the reader reads.
    static let diveValues: Set<MacDiveName> = [
        .date, .identifier, .diveNumber, .rating, .repetitiveDive, .diver, .computer, .serial, .maxDepth, .averageDepth,
        .avgDepth, .avergeDepth, .cns, .decoModel, .duration, .gasModel, .surfaceInterval, .sampleInterval, .tempAir,
        .tempHigh, .tempLow, .visibility, .weight, .notes, .diveMaster, .diveOperator, .skipper, .boat, .weather, .current,
        .surfaceConditions, .entryType, .o2Percent, .siteLat, .siteLon, .country, .location, .site,
    ]
    static let siteValues: Set<MacDiveName> = [.country, .location, .name, .bodyOfWater, .waterType, .difficulty, .altitude, .lat, .lon]
    static let itemValues: Set<MacDiveName> = [.type, .manufacturer, .name, .serial]
    static let sampleValues: Set<MacDiveName> = [.time, .depth, .pressure, .temperature, .ppo2, .ndt, .alarm]
    static let gasValues: Set<MacDiveName> = [
        .pressureStart, .pressureEnd, .oxygen, .helium, .double, .tankSize, .workingPressure, .supplyType, .duration, .tankName,
    ]
}

/// A `<gear><item>` or a `<gases><gas>` as read.
typealias MacDiveFields = XMLFields<MacDiveName>

/// A `<sample>` as read, in the file's units: numbers parsed from the bytes as they close.
struct MacDiveSample {
    var line: Int
    var time: Double?
    var depth: Double?
    var pressure: Double?
    var temperature: Double?
    var ppo2: Double?
    var ndt: Double?
    var alarm: String?
}

/// A `<dive>` as read, until it closes.
struct MacDiveDraft: XMLDiveDraft {
    var index: Int
    var line: Int
    var values: [MacDiveName: XMLTextValue] = [:]
    var site: [MacDiveName: XMLTextValue] = [:]
    var siteLine = 0
    var tags: [String] = []
    var types: [String] = []
    var buddies: [String] = []
    var gear: [MacDiveFields] = []
    var gases: [MacDiveFields] = []
    var samples: [MacDiveSample] = []
    var samplesOverLimit = 0
    /// Sample texts that are no number, counted per element.
    var sampleProblems = FindingTally()

    subscript(_ name: MacDiveName) -> XMLTextValue? { values[name] }
}

/// The SAX state machine: the open elements' codes and the one dive being read.
final class MacDiveState: XMLEventHandler, XMLDraftState {
    let file: String
    unowned(unsafe) var parser: XMLPushParser?
    var header = LogbookHeader()
    @exclusivity(unchecked) var findings: [Finding] = []
    var ready: [Dive] = []
    var readyHead = 0
    var samplesPerDive = InputLimits.samplesPerDive

    let accountant: XMLAccountant
    let accounts: Unmanaged<XMLAccountant>

    private var stack: [MacDiveName] = []
    @exclusivity(unchecked) private var names = NameTable { MacDiveName.code($0) }
    var text: [UInt8] = []
    var capturing = false
    var textTooLong = false
    private var sawRoot = false

    /// What `<units>` declared (`nil` before it, or when it names no system: then `unitsText`).
    var declaredUnits: MacDiveUnits?
    var unitsText: XMLTextValue?
    var draft: MacDiveDraft?
    var diveCount = 0

    // Across dives: the records dives share, by their key, and the ids met.
    var identifiers: Set<String> = []
    var siteUUIDs: [String: String] = [:]
    var personUUIDs: [String: String] = [:]
    var gearUUIDs: [String: String] = [:]
    var contactUUIDs: [String: String] = [:]
    /// Habits of many dives (MacDive's zeros, a manual entry's missing computer), one finding
    /// each for the file, at its first dive.
    var habits = FindingTally()
    var offsetReported = false

    init(file: String) {
        self.file = file
        accountant = XMLAccountant(file: file, format: "macdive", identityAttribute: nil)
        accounts = Unmanaged.passUnretained(accountant)
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        beginElementText()
        let tag = MacDiveName(rawValue: names.code(localName)) ?? .other
        stack.append(tag)
        if !sawRoot {
            sawRoot = true
            guard tag == .dives else {
                parser?.stop(with: DiveError("macdive.not-macdive",
                    "the file is XML but not a MacDive logbook: its root element is <\(String(cString: localName))>, not <dives>",
                    at: parser?.location() ?? SourceLocation(file: file)))
                return
            }
            header.sourceFormat = "macdive"
            markCarried()
        } else if stack.count == 2 && tag == .dive {
            draft = MacDiveDraft(index: diveCount, line: line)
            accountant.inRecord = true
            accountant.recordDepth = 2
        } else if stack.count == 3, stack[1] == .dive, tag == .site {
            draft?.siteLine = line
        } else if stack.count == 4, stack[1] == .dive, draft != nil {
            switch (stack[2], tag) {
            case (.gear, .item): draft!.gear.append(MacDiveFields(line: line))
            case (.gases, .gas): draft!.gases.append(MacDiveFields(line: line))
            case (.samples, .sample):
                if draft!.samples.count < samplesPerDive {
                    draft!.samples.append(MacDiveSample(line: line))
                } else {
                    draft!.samplesOverLimit += 1
                }
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
        if closed == .dive && stack.count == 1 { finishDive() }
    }

    /// An element with no child closes: its text is a value, if it is one this reader reads.
    private func endLeaf() {
        let tag = stack[stack.count - 1]
        switch stack.count {
        case 2:
            guard tag == .units || tag == .schema else { return }
            markCarried()
            guard let value = trimmedText() else { return }
            if tag == .schema { header.sourceVersion = value.text } else { readUnits(value) }
        case 3:
            guard stack[1] == .dive, draft != nil, MacDiveName.diveValues.contains(tag) else { return }
            markCarried()
            if let value = trimmedText() { keep(value, tag, in: &draft!.values, path: "dive/\(draft!.index)") }
        case 4:
            guard stack[1] == .dive, draft != nil else { return }
            switch (stack[2], tag) {
            case (.site, _) where MacDiveName.siteValues.contains(tag):
                markCarried()
                if let value = trimmedText() { keep(value, tag, in: &draft!.site, path: "dive/\(draft!.index)/site") }
            case (.tags, .tag), (.types, .type), (.buddies, .buddy):
                markCarried()
                guard let value = trimmedText() else { return }
                switch tag {
                case .tag: draft!.tags.append(value.text)
                case .type: draft!.types.append(value.text)
                default: draft!.buddies.append(value.text)
                }
            default: break
            }
        case 5:
            guard stack[1] == .dive, draft != nil else { return }
            switch (stack[2], stack[3]) {
            case (.gear, .item) where MacDiveName.itemValues.contains(tag):
                markCarried()
                if let value = trimmedText(), !draft!.gear.isEmpty {
                    let k = draft!.gear.count - 1
                    keep(value, tag, in: &draft!.gear[k].fields, path: "dive/\(draft!.index)/gear/item/\(k)")
                }
            case (.gases, .gas) where MacDiveName.gasValues.contains(tag):
                markCarried()
                if let value = trimmedText(), !draft!.gases.isEmpty {
                    let k = draft!.gases.count - 1
                    keep(value, tag, in: &draft!.gases[k].fields, path: "dive/\(draft!.index)/gases/gas/\(k)")
                }
            case (.samples, .sample):
                // A sample past the limit is counted and reported, so its values are spoken for.
                guard MacDiveName.sampleValues.contains(tag) else { return }
                markCarried()
                if draft!.samplesOverLimit == 0 { readSampleValue(tag) }
            default: break
            }
        default:
            break
        }
    }

    /// A `<sample>` child's number, parsed from the captured bytes; text that is no number is
    /// counted for the dive's findings.
    private func readSampleValue(_ tag: MacDiveName) {
        guard !draft!.samples.isEmpty else { return }
        let k = draft!.samples.count - 1
        if tag == .alarm {
            draft!.samples[k].alarm = trimmedText()?.text
            return
        }
        let parsed: Double?? = text.withUnsafeBufferPointer { raw in
            let bytes = trimmed(raw)
            if bytes.isEmpty { return .some(nil) }
            guard let n = DecimalNumber(bytes: UnsafeRawBufferPointer(bytes)) else { return nil }
            return .some(n.doubleValue)
        }
        guard let value = parsed else {
            let shown = trimmedText()?.text ?? ""
            let path = "dive/\(draft!.index)/samples/sample/\(k)/\(tag.spelling)"
            draft!.sampleProblems.add("nan|\(tag.rawValue)", .dropped, "macdive.not-a-number",
                                      at: SourceLocation(file: file, line: line, path: path)) { n in
                "<\(tag.spelling)> holds \"\(shown)\", not a number\(n > 1 ? " (and \(n - 1) more samples like it)" : ""); not carried"
            }
            return
        }
        switch tag {
        case .time: draft!.samples[k].time = value
        case .depth: draft!.samples[k].depth = value
        case .pressure: draft!.samples[k].pressure = value
        case .temperature: draft!.samples[k].temperature = value
        case .ppo2: draft!.samples[k].ppo2 = value
        case .ndt: draft!.samples[k].ndt = value
        default: break
        }
    }

    private func readUnits(_ value: XMLTextValue) {
        switch value.text.folded {
        case "metric": declaredUnits = .metric
        case "imperial": declaredUnits = .imperial
        default:
            declaredUnits = nil
            unitsText = value
        }
        if diveCount > 0 || draft != nil {
            report(.resolved, "units-after-dives",
                   "<units> comes after the file's first dive; the dives before it were read by the magnitude rule, those after it in \(value.text)",
                   path: "units", line: value.line)
        }
    }

    // MARK: The end of the document

    func finishDocument() throws {
        try finishParse(sawRoot: sawRoot)
        if header.sourceVersion == nil {
            report(.absent, "schema-absent", "the logbook has no <schema>: read as MacDive's schema 2", path: "dives", line: nil)
        } else if let v = header.sourceVersion, !v.hasPrefix("2.") {
            report(.resolved, "schema-unknown",
                   "<schema> is \(v), not a 2.x schema this reader was written from; its dives are read as 2.x", path: "schema", line: nil)
        }
        if diveCount == 0 {
            report(.absent, "no-dives", "the logbook holds no <dive>", path: "dives", line: nil)
        }
        findings += habits.findings()
        habits.removeAll()
        reportLongTexts(prefix: "")
        reportDrops(dive: false, prefix: "")
    }
}
