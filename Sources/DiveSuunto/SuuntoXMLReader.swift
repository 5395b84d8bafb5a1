import DiveCore
import DiveXML

/// Streams a Suunto Dive Manager 4/5 XML export (one `<Dive>` per document, in the
/// `Suunto.Diving.Dal` datacontract namespace) over libxml2's SAX2 push parser.
///
/// Values come out in the canonical model's units, read by DiveJSON's
/// `docs/suunto-xml-mapping.md`: cylinder and sample pressures in millibar, the surface
/// pressure in Pascal, depths in metres, temperatures in °C, gases in percent. `i:nil="true"`
/// is the format's absence. What the model has no member for is reported as a ``Finding``
/// (`suunto-xml.*`) or, by the shared accountant, as `suunto-xml.not-carried`.
public final class SuuntoXMLReader: XMLDiveReader {
    /// Opens the Suunto XML file at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: SuuntoXMLState(file: name))
    }
}

/// The identity namespace and the sniff of Suunto's DM4/DM5 XML.
public enum SuuntoXML {
    /// `uuid5(NAMESPACE_URL, "https://divejson.org/ns/suunto_xml")`: frozen (the mapping's
    /// *Identity*).
    public static let namespace = "cefc9278-1124-5d83-8af6-7f386f03a061"
    /// The datacontract namespace the root `<Dive>` declares.
    public static let dataContract = "Suunto.Diving.Dal"
}

/// One text-valued element as read: its trimmed text (`nil` when `i:nil` or empty) and line.
struct SuuntoValue {
    var text: String?
    var line: Int
}

/// A `<DiveMixture>` as read.
struct MixtureDraft {
    var fields: [String: SuuntoValue] = [:]
    var gasChanges: [SuuntoValue] = []
    var line: Int
}

/// A `<Dive.Sample>` as read.
struct SampleDraft {
    var fields: [String: SuuntoValue] = [:]
    var line: Int
}

/// The SAX state machine: a stack of open element names and the one dive being read.
final class SuuntoXMLState: XMLEventHandler, XMLDiveState {
    let file: String
    unowned(unsafe) var parser: XMLPushParser?
    var header = LogbookHeader()
    @exclusivity(unchecked) var findings: [Finding] = []
    var ready: [Dive] = []
    var readyHead = 0
    var samplesPerDive = InputLimits.samplesPerDive

    let accountant: XMLAccountant
    let accounts: Unmanaged<XMLAccountant>

    private(set) var stack: [String] = []
    /// Per open element: it carries `i:nil="true"`.
    private var nilStack: [Bool] = []
    private(set) var text: [UInt8] = []
    private var capturing = false
    private var textTooLong = false
    private var sawRoot = false
    var diveLine = 0

    // The dive being read.
    var scalars: [String: SuuntoValue] = [:]
    var mixtures: [MixtureDraft] = []
    var samples: [SampleDraft] = []
    var samplesOverLimit = 0

    /// The `<Dive>` children read into the model (or refused with a finding of their own).
    static let diveScalars: Set<String> = [
        "StartTime", "Duration", "Note", "MaxDepth", "AvgDepth", "BottomTemperature", "CnsStart", "CnsEnd",
        "OtuStart", "OtuEnd", "SurfacePressure", "Mode", "PersonalMode", "Source", "SerialNumber", "Software",
        "DiveNumberInSerie", "Visibility", "Weather", "Weight",
    ]
    static let mixtureScalars: Set<String> = ["Size", "StartPressure", "EndPressure", "Oxygen", "Helium", "PO2", "TransmitterId"]
    static let sampleScalars: Set<String> = ["Time", "Depth", "Ceiling", "Temperature", "Pressure"]

    init(file: String) {
        self.file = file
        accountant = XMLAccountant(file: file, format: "suunto-xml", identityAttribute: nil)
        accounts = Unmanaged.passUnretained(accountant)
    }

    var line: Int { parser?.line ?? 0 }

    func report(_ kind: FindingKind, _ code: String, _ message: String, path: String?, line: Int? = nil, losing lost: Int = 0) {
        findings.append(Finding(kind, "suunto-xml.\(code)", message, at: SourceLocation(file: file, line: line ?? self.line, path: path)).losing(lost))
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        pushMarks(parentCapturing: capturing)
        let name = String(cString: localName)
        let isNil = attributes.value("nil").map { $0.lowercased() == "true" } ?? false
        stack.append(name)
        nilStack.append(isNil)
        capturing = true
        textTooLong = false
        if text.count > 4096 { text = [] } else { text.removeAll(keepingCapacity: true) }
        if !sawRoot {
            sawRoot = true
            guard name.lowercased() == "dive" else {
                parser?.stop(with: DiveError("suunto-xml.not-suunto-xml",
                    "the file is XML but not Suunto DM4/DM5 XML: its root element is <\(name)>, not <Dive>",
                    at: parser?.location() ?? SourceLocation(file: file)))
                return
            }
            header.sourceFormat = "suunto_xml"
            diveLine = line
            accountant.inRecord = true
            accountant.recordDepth = 1
            markCarried()
        } else if stack.count == 3 && stack[1] == "DiveMixtures" && name == "DiveMixture" {
            mixtures.append(MixtureDraft(line: line))
        } else if stack.count == 3 && stack[1] == "DiveSamples" && name == "Dive.Sample" {
            samples.append(SampleDraft(line: line))
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
        stack.removeLast()
        nilStack.removeLast()
        capturing = false
    }

    /// An element with no child closes: its text is a value, if it is one this reader reads.
    private func endLeaf() {
        let name = stack[stack.count - 1]
        let depth = stack.count
        let value = SuuntoValue(text: currentText(), line: line)
        if depth == 2 && Self.diveScalars.contains(name) {
            scalars[name] = value
            markCarried()
        } else if depth == 4 && stack[1] == "DiveMixtures" && stack[2] == "DiveMixture" && Self.mixtureScalars.contains(name),
                  !mixtures.isEmpty {
            mixtures[mixtures.count - 1].fields[name] = value
            markCarried()
        } else if depth == 6 && stack[3] == "DiveGasChanges" && stack[4] == "DiveGasChange" && name == "GasChangeTime",
                  !mixtures.isEmpty {
            mixtures[mixtures.count - 1].gasChanges.append(value)
            markCarried()
        } else if depth == 4 && stack[1] == "DiveSamples" && stack[2] == "Dive.Sample" && Self.sampleScalars.contains(name),
                  !samples.isEmpty {
            samples[samples.count - 1].fields[name] = value
            markCarried()
        }
    }

    /// The captured text, trimmed; `nil` when the element is `i:nil`, empty or too long.
    private func currentText() -> String? {
        if textTooLong || nilStack.last == true { return nil }
        let s = String(decoding: text, as: UTF8.self).trimmingWhitespace()
        return s.isEmpty ? nil : s
    }

    // MARK: End of document

    func finishDocument() throws {
        if let error = parser?.error { throw error }
        guard sawRoot else {
            throw DiveError("suunto-xml.empty", "the file holds no XML element", at: SourceLocation(file: file))
        }
        reportLongTexts(prefix: "Dive/")
        reportDrops(dive: true, prefix: "Dive/")
        accountant.inRecord = false
        if let dive = buildDive() { ready.append(dive) }
        reportDrops(dive: false, prefix: "")
    }
}
