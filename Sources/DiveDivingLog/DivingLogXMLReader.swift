import DiveCore
import DiveXML

/// Streams Diving Log's XML export (`<Divinglog DBVersion="…">`, Diving Log 5 and 6) over
/// libxml2's SAX2 push parser, one dive held at a time.
///
/// The export writes a `<Dive>` as the database's `Logbook` row: one element per column, named
/// as the column (`<Divedate>`, `<PresS>`…), the site, city and country as `Name` attributes, and
/// the profile decoded into `<P Time="…">` samples. Each `<Dive>` is read into the same record the
/// database reader makes, and built by the same rules (`docs/divinglog-mapping.md`): what a dive
/// holds is carried or reported, the element the record did not carry as `divinglog.not-carried`
/// once per element over the file, a sample's child no rule reads by the shared accountant.
public final class DivingLogXMLReader: XMLDiveReader {
    // Attribute names are looked up in lowercase: DiveXML's lookup folds the file's names only.

    /// Opens the Diving Log XML export at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: DivingLogXMLState(file: name, dialect: .divingLog))
    }
}

/// Streams one dive of divelogs.de's `.DLD` export: the export is a zip of one ISO-8859-1 XML
/// document per dive (`1.xml`: `<DIVELOGSDATA>`), each read by this reader through the zip layer
/// (`Sources/DiveKit/ArchiveSource.swift`). Its elements are Diving Log's columns under
/// divelogs.de's names (`MAXDEPTH`, `CYLINDERSTARTPRESSURE`, `PARTNER`…): each is read into the
/// same record under the column's name and built by the same rules (`docs/divinglog-mapping.md`),
/// the samples `<SAMPLE><DEPTH>` every `SAMPLEINTERVAL` seconds from 0.
public final class DivelogsDataReader: XMLDiveReader {
    /// Opens the `<DIVELOGSDATA>` document at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: DivingLogXMLState(file: name, dialect: .divelogsData))
    }
}

/// Streams the dive Subsurface uploads to divelogs.de (a `.divelogs` file: `<dive ignore-root="yes">`),
/// written by Subsurface's `xslt/divelogs-export.xslt`: the root is the one dive, its children
/// divelogs.de's fields (`maxdepth`, `duration`, `tanks/tank`…), the samples `<SAMPLE>` a depth
/// (or `<d>` depth and `<t>` temperature) every `samplerate` seconds. Each field is read into the
/// same record under Diving Log's column and built by the same rules (`docs/divinglog-mapping.md`).
public final class DivelogsUploadReader: XMLDiveReader {
    /// Opens the `.divelogs` document at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public init(path: String, displayName: String? = nil) throws {
        let name = Self.name(path, displayName)
        try super.init(path: path, displayName: name, state: DivingLogXMLState(file: name, dialect: .divelogsUpload))
    }
}

/// The three XML spellings of a Diving Log record: Diving Log's export (a `<Logbook>` of `<Dive>`
/// elements, each column under its own name, samples `<P Time="…">`), divelogs.de's
/// `<DIVELOGSDATA>` (the root is the one dive, columns under divelogs.de's names, samples
/// `<SAMPLE>` at `SAMPLEINTERVAL`) and Subsurface's upload to divelogs.de (`<dive ignore-root>`:
/// the root is the one dive, lowercase field names, `<tanks>` of `<tank>`, samples `<SAMPLE>` at
/// `samplerate`).
enum DivingLogXMLDialect {
    case divingLog, divelogsData, divelogsUpload

    var format: String {
        switch self {
        case .divingLog: "divinglog"
        case .divelogsData: "divelogs-dld"
        case .divelogsUpload: "divelogs-de"
        }
    }

    /// The root element the dialect's file opens with.
    var root: DivingLogTag {
        switch self {
        case .divingLog: .divinglog
        case .divelogsData: .divelogsdata
        case .divelogsUpload: .dive
        }
    }

    /// Subsurface's divelogs.de upload fields (`xslt/divelogs-export.xslt`) as Diving Log's
    /// columns; a name not listed keeps its own, and is reported if no rule takes it.
    /// `visibility` is Subsurface's 1–5 star rating, not Diving Log's list: its own key.
    static let uploadColumns: [String: String] = [
        "date": "divedate", "time": "entrytime", "dc_model": "computer", "duration": "divetimesec",
        "divesite": "place", "location": "city", "visibility": "visibility-stars", "weights": "weight",
        "notes": "comments", "lng": "lon", "maxdepth": "depth", "meandepth": "depthavg",
        "depthtemp": "watertemp", "samplerate": "profileint",
    ]

    /// The upload's `<tank>` fields as the columns of a Diving Log tank.
    static let uploadTankColumns: [String: String] = [
        "tank": "tanktype", "vol": "tanksize", "start_pressure": "press", "end_pressure": "prese", "wp": "presw",
    ]

    /// divelogs.de's names for Diving Log's columns (Subsurface's `xslt/divelogs.xslt` reads them
    /// so); a name not listed keeps its own, and is reported if no rule takes it.
    static let divelogsColumns: [String: String] = [
        "divelogsdivenumber": "number", "divelogsid": "uuid", "date": "divedate", "time": "entrytime",
        "divetimesec": "divetimesec", "maxdepth": "depth", "meandepth": "depthavg", "location": "city",
        "site": "place", "airtemp": "airtemp", "watertempmaxdepth": "watertemp", "partner": "buddy",
        "boatname": "boat", "cylinderdescription": "tanktype", "cylindersize": "tanksize",
        "cylinderstartpressure": "press", "cylinderendpressure": "prese", "workingpressure": "presw",
        "o2pct": "o2", "hepct": "he", "weight": "weight", "lognotes": "comments", "lat": "lat", "lng": "lon",
        "sampleinterval": "profileint", "weather": "weather", "watervizibility": "visibility", "dbltank": "dbltank",
    ]
}

/// The element names the XML reader tells apart, lowercased (DiveXML's ``NameTable``): 0 any other.
enum DivingLogTag: UInt8, CaseIterable {
    case other = 0
    case divinglog, header, appname, appversion, exportdate, logbook, dive
    case profile, p, depth, temp, warning, press1, press2, press3, rbt, heartrate
    case place, lat, lon, country, city, buddy
    case divelogsdata, sample
    case tanks, tank, sampledata, d, t

    private static let codes: [String: UInt8] = {
        var out: [String: UInt8] = [:]
        for tag in allCases where tag != .other { out[String(describing: tag)] = tag.rawValue }
        return out
    }()

    static func code(_ name: String) -> UInt8 { codes[name.lowercased()] ?? 0 }
}

final class DivingLogXMLState: XMLEventHandler, XMLDiveState {
    let file: String
    unowned(unsafe) var parser: XMLPushParser?
    var header: LogbookHeader { builder.header }
    var findings: [Finding] {
        get { builder.findings }
        set { builder.findings = newValue }
    }
    var ready: [Dive] = []
    var readyHead = 0
    var samplesPerDive = InputLimits.samplesPerDive

    let accountant: XMLAccountant
    let accounts: Unmanaged<XMLAccountant>
    let builder: DivingLogBuilder

    private var stack: [UInt8] = []
    @exclusivity(unchecked) private var tags = NameTable { DivingLogTag.code($0) }
    private(set) var text: [UInt8] = []
    private var capturing = false
    private var textTooLong = false
    private var sawRoot = false
    private var rootLine = 0
    private var generatorName: String?
    private var generatorVersion: String?

    private var record: DivingLogRecord?
    private var diveDepth = 0
    private var sample: DivingLogSample?
    /// The upload's `<tank>` being read, and its depth in the element stack.
    private var tank: [String: DivingLogValue]?
    private var tankDepth = 0
    private var divesRead = 0
    let dialect: DivingLogXMLDialect

    init(file: String, dialect: DivingLogXMLDialect) {
        self.file = file
        self.dialect = dialect
        accountant = XMLAccountant(file: file, format: dialect.format)
        accounts = Unmanaged.passUnretained(accountant)
        builder = DivingLogBuilder(file: file, format: dialect.format, program: dialect == .divingLog ? "Diving Log" : dialect == .divelogsData ? "divelogs.de" : "Subsurface's divelogs.de upload")
    }

    /// The element whose children are a dive's columns.
    private var diveTag: DivingLogTag { dialect == .divelogsData ? .divelogsdata : .dive }

    private var line: Int { parser?.line ?? 0 }

    private func at(_ name: String) -> SourceLocation {
        SourceLocation(file: file, line: line, path: "dive/\(record?.index ?? 0)/\(name)")
    }

    // MARK: SAX events

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        pushMarks(parentCapturing: capturing)
        let code = tags.code(localName)
        let parent = stack.last.flatMap { DivingLogTag(rawValue: $0) } ?? .other
        stack.append(code)
        capturing = true
        textTooLong = false
        if text.count > 4096 { text = [] } else { text.removeAll(keepingCapacity: true) }
        let tag = DivingLogTag(rawValue: code) ?? .other
        if !sawRoot {
            sawRoot = true
            guard tag == dialect.root else {
                let expected = switch dialect {
                case .divingLog: "a Diving Log export"
                case .divelogsData: "divelogs.de's <DIVELOGSDATA>"
                case .divelogsUpload: "Subsurface's divelogs.de upload (<dive ignore-root=\"yes\">)"
                }
                parser?.stop(with: DiveError("\(dialect.format).not-\(dialect.format)",
                    "the file is XML but not \(expected): its root element is <\(String(cString: localName))>",
                    at: parser?.location() ?? SourceLocation(file: file)))
                return
            }
            rootLine = line
            switch dialect {
            case .divingLog:
                builder.header.sourceFormat = "divinglog"
                builder.header.sourceVersion = attributes.value("dbversion")
            case .divelogsData:
                builder.header.sourceFormat = "divelogs_dld"
                startRecord()
            case .divelogsUpload:
                builder.header.sourceFormat = "divelogs_de"
                // `ignore-root` tells Subsurface's next step (its XML-to-JSON stylesheet) to
                // leave the root out of the JSON it uploads: no value of the dive.
                _ = attributes.value("ignore-root")
                startRecord()
            }
        } else if dialect == .divelogsUpload && record != nil && (tag == .tanks || tag == .sampledata) && parent == .dive {
            // `type="array"`: the same JSON step's mark for a list; no value of the dive.
            _ = attributes.value("type")
        } else if dialect == .divelogsUpload && record != nil && tag == .tank && parent == .tanks {
            let index = record!.extraTanks.count
            tank = ["tankid": DivingLogValue(name: "tank", text: "\(index)", location: at("tanks/tank/\(index)"))]
            tankDepth = stack.count
        } else if dialect == .divelogsUpload && record != nil && tag == .sample && parent == .sampledata {
            sample = DivingLogSample(time: record!.samples.count + record!.samplesOverLimit, location: at("sampledata/SAMPLE/\(record!.samples.count + record!.samplesOverLimit)"))
        } else if tag == .dive && parent == .logbook && record == nil && dialect == .divingLog {
            var r = DivingLogRecord(index: divesRead, location: SourceLocation(file: file, line: line, path: "dive/\(divesRead)"))
            for (name, key) in [("UUID", "uuid"), ("Updated", "updated")] {
                let value = name == "UUID" ? attributes.value("uuid") : attributes.value("updated")
                if let value, !value.isEmpty {
                    r.values[key] = DivingLogValue(name: "<Dive \(name)>", text: value, location: SourceLocation(file: file, line: line, path: "dive/\(divesRead)/@\(name)"))
                }
            }
            record = r
            diveDepth = stack.count
            accountant.inRecord = true
            accountant.recordDepth = stack.count
        } else if record != nil && parent == .dive && dialect == .divingLog {
            // Country, City, Place and Buddy carry their value in attributes.
            switch tag {
            case .country, .city, .place:
                let key = String(describing: tag)
                if let name = attributes.value("name"), !name.isEmpty { record!.values[key] = DivingLogValue(name: "<\(key.capitalized)> Name", text: name, location: at(key.capitalized)) }
                if let id = attributes.value("id"), !id.isEmpty { record!.values[key + "id"] = DivingLogValue(name: "<\(key.capitalized)> ID", text: id, location: at(key.capitalized)) }
            case .buddy:
                if let names = attributes.value("names"), !names.isEmpty { record!.values["buddy"] = DivingLogValue(name: "<Buddy> Names", text: names, location: at("Buddy")) }
                if let ids = attributes.value("ids"), !ids.isEmpty { record!.values["buddyids"] = DivingLogValue(name: "<Buddy> IDs", text: ids, location: at("Buddy")) }
            default: break
            }
        } else if record != nil && tag == .sample && parent == .divelogsdata {
            // At its place; `SAMPLEINTERVAL` makes it seconds when the dive is done.
            sample = DivingLogSample(time: record!.samples.count + record!.samplesOverLimit, location: at("SAMPLE/\(record!.samples.count + record!.samplesOverLimit)"))
        } else if record != nil && tag == .p && parent == .profile {
            let location = at("Profile/P/\(record!.samples.count + record!.samplesOverLimit)")
            if let t = attributes.value("time"), let seconds = Int(t), seconds >= 0 {
                sample = DivingLogSample(time: seconds, location: location)
            } else {
                builder.report(.dropped, "sample-without-time", "a <P> has no Time in whole seconds (\(attributes.value("time") ?? "none")); its values are not carried", at: location)
                coverCurrent()
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
        let tag = stack.last.flatMap { DivingLogTag(rawValue: $0) } ?? .other
        popMarks(ownTextCaptured: own)
        if record != nil && stack.count == diveDepth {
            finishDive()
        } else if tag == .tank && stack.count == tankDepth, let t = tank {
            record!.extraTanks.append(t)
            tank = nil
        } else if tag == .p || tag == .sample, let s = sample {
            if record!.samples.count < samplesPerDive { record!.samples.append(s) } else { record!.samplesOverLimit += 1 }
            sample = nil
        }
        stack.removeLast()
        capturing = false
    }

    private func trimmed() -> String? {
        func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = text.firstIndex(where: { !space($0) }), let last = text.lastIndex(where: { !space($0) }) else { return nil }
        return String(decoding: text[first...last], as: UTF8.self)
    }

    /// An element with no child closes: its text is a value of the header, of the dive, or of a sample.
    private func endLeaf(_ localName: UnsafePointer<UInt8>) {
        guard stack.count >= 2, !textTooLong else { return }
        let tag = DivingLogTag(rawValue: stack[stack.count - 1]) ?? .other
        let parent = DivingLogTag(rawValue: stack[stack.count - 2]) ?? .other
        guard let value = trimmed() else { return }
        if record == nil {
            switch (parent, tag) {
            case (.header, .appname): generatorName = value
            case (.header, .appversion): generatorVersion = value
            case (.header, .exportdate): builder.header.exportedAt = value
            default: return
            }
            markCarried()
            return
        }
        if parent == diveTag {
            let name = String(cString: localName)
            var key = name.lowercased(), text = value
            if dialect == .divelogsUpload { key = DivingLogXMLDialect.uploadColumns[key] ?? key }
            if dialect == .divelogsData {
                key = DivingLogXMLDialect.divelogsColumns[key] ?? key
                // `17.05.2011`: day, month, year.
                let parts = value.split(separator: ".")
                if key == "divedate", parts.count == 3, parts[2].count == 4 { text = "\(parts[2])-\(parts[1])-\(parts[0])" }
            }
            record!.values[key] = DivingLogValue(name: name, text: text, location: at(name))
            markCarried()
            return
        }
        if parent == .place && (tag == .lat || tag == .lon) {
            let name = tag == .lat ? "Lat" : "Lon"
            record!.values[name.lowercased()] = DivingLogValue(name: "<Place> \(name)", text: value, location: at("Place/\(name)"))
            markCarried()
            return
        }
        if tank != nil && stack.count == tankDepth + 1 {
            let name = String(cString: localName)
            let key = DivingLogXMLDialect.uploadTankColumns[name.lowercased()] ?? name.lowercased()
            if key == "o2" && value == "21" {
                builder.tally("o2-default", .inferred, "o2-default", at: at("tanks/tank/o2")) { n in
                    "O2 21 written without a decimal\(n > 1 ? " (\(n) tanks)" : "") is the stylesheet's stand-in for a cylinder Subsurface records no mix for, which Subsurface means as air; read as 21 %"
                }
            }
            tank![key] = DivingLogValue(name: "<tank> \(name)", text: value, location: at("tanks/tank/\(name)"))
            markCarried()
            return
        }
        let bareSample = dialect == .divelogsUpload && tag == .sample && parent == .sampledata
        guard parent == .p || parent == .sample || bareSample, sample != nil else { return }
        let number = Double(value)
        guard let x = number, x.isFinite else {
            builder.tally("sample-nan:\(tag)", .dropped, "not-a-number", at: at("Profile/P/\(String(cString: localName))")) { n in
                "\(n == 1 ? "a sample's" : "\(n) samples'") <\(String(describing: tag))> is not a number (the first \"\(value)\"); not carried"
            }
            markCarried()
            return
        }
        switch tag {
        case .sample where dialect == .divelogsUpload, .d where dialect == .divelogsUpload: sample!.depth = x
        case .t where dialect == .divelogsUpload: sample!.temperature = x
        case .depth: sample!.depth = x
        case .temp: sample!.temperature = x
        case .press1: sample!.pressures.append((0, x))
        case .press2: sample!.pressures.append((1, x))
        case .press3: sample!.pressures.append((2, x))
        case .rbt: sample!.rbt = Int(x)
        case .heartrate: sample!.heartRate = Int(x)
        case .warning:
            let flags = Array(value.utf8)
            if flags.count == 5, flags.allSatisfy({ $0 == 0x30 || $0 == 0x31 }) {
                sample!.inDeco = flags[0] == 0x31
                sample!.rbtWarning = flags[1] == 0x31
                sample!.ascentWarning = flags[2] == 0x31
                sample!.decoStopIgnored = flags[3] == 0x31
                sample!.workWarning = flags[4] == 0x31
            } else {
                sample!.otherWarning = value
            }
        default: return
        }
        markCarried()
    }

    /// divelogs.de's root is its one dive.
    private func startRecord() {
        record = DivingLogRecord(index: divesRead, location: SourceLocation(file: file, line: line, path: dialect == .divelogsData ? "DIVELOGSDATA" : "dive"))
        diveDepth = stack.count
        accountant.inRecord = true
        accountant.recordDepth = stack.count
    }

    private func finishDive() {
        guard var r = record else { return }
        if dialect == .divelogsUpload { uploadHabits(&r) }
        if dialect != .divingLog, !r.samples.isEmpty {
            if let v = r.values["profileint"], let interval = Int(v.text), interval > 0 {
                for i in r.samples.indices { r.samples[i].time *= interval }
            } else {
                let interval = dialect == .divelogsData ? "SAMPLEINTERVAL" : "samplerate"
                builder.report(.dropped, "profile-without-interval", "the dive's \(r.samples.count) <SAMPLE> have no \(interval) to place them at; not carried", at: r.location)
                r.samples = []
            }
        }
        let prefix = "dive/\(r.index)/"
        reportLongTexts(prefix: prefix)
        reportDrops(dive: true, prefix: prefix)
        accountant.inRecord = false
        record = nil
        divesRead += 1
        if let dive = builder.buildDive(r, source: dialect.format) { ready.append(dive) }
    }

    /// What Subsurface's stylesheet does to a dive before it writes it: a manually added dive's
    /// profile is its points filled in every 60 s, a Suunto EON Steel's thinned to samples 10 s
    /// apart at a `samplerate` of the duration over their count — neither is the computer's
    /// spacing, so neither profile is carried; any other is placed every `samplerate` s from 0.
    private func uploadHabits(_ r: inout DivingLogRecord) {
        let model = r.values["computer"]
        if let model, model.text == "manually added dive" {
            _ = r.take("computer")
            builder.report(.absent, "manual-dive", "dc_model \"manually added dive\" is Subsurface's mark of a dive entered by hand: no dive computer", at: model.location)
        }
        guard !r.samples.isEmpty else { return }
        if let model, model.text == "manually added dive" || model.text == "Suunto EON Steel" {
            let why = model.text == "Suunto EON Steel"
                ? "for a Suunto EON Steel the stylesheet keeps only samples 10 s apart and writes samplerate as the duration over their count"
                : "for a dive entered by hand the stylesheet fills in a depth every 60 s between the diver's points"
            builder.report(.dropped, "profile-resampled", "\(why), so the \(r.samples.count) <SAMPLE> are not at the times they were recorded; not carried",
                           at: r.location, losing: r.samples.count)
            r.samples = []
            _ = r.take("profileint")
            return
        }
        builder.tally("samples-from-zero", .inferred, "samples-from-zero", at: r.location) { _ in
            "the stylesheet writes the samples' spacing (samplerate: the second sample's time less the first's), not the first sample's time; they are placed every samplerate seconds from 0, as divelogs.de's own export places its samples"
        }
    }

    func finishDocument() throws {
        if let error = parser?.error { throw error }
        guard sawRoot else {
            throw DiveError("divinglog.empty", "the file holds no XML element", at: SourceLocation(file: file))
        }
        if let generatorName {
            var g = Generator(name: generatorName, version: generatorVersion)
            g.type = "logbook"
            builder.header.sourceGenerator = g
        }
        if dialect == .divelogsUpload {
            builder.report(.resolved, "units-metric",
                           "Subsurface's divelogs.de export writes its own XML's values with the unit word cut off, and Subsurface's XML keeps m, °C, bar, litres, kg and min:sec; read so (duration and samplerate the stylesheet turns to seconds)",
                           at: SourceLocation(file: file, line: rootLine, path: "dive"))
        } else if dialect == .divelogsData {
            builder.report(.inferred, "units-metric",
                           "divelogs.de's export states no units; read as metric (m, °C, bar, litres, kg), as Subsurface's reader of it does; DIVETIMESEC, SURFACETIME and SAMPLEINTERVAL are seconds by their names",
                           at: SourceLocation(file: file, line: rootLine, path: "DIVELOGSDATA"))
        } else if divesRead == 0 {
            builder.report(.absent, "no-dives", "the file holds no <Dive>", at: SourceLocation(file: file, line: rootLine, path: "Divinglog"))
        } else {
            builder.report(.inferred, "units-metric",
                           "Diving Log's export states no units; read in the metric units Diving Log keeps its logbook in (m, °C, bar, litres, kg; Divetime in minutes, sample Time in seconds); a value outside what those units allow is reported, not converted",
                           at: SourceLocation(file: file, line: rootLine, path: "Divinglog"))
        }
        findings += builder.finish()
        reportLongTexts(prefix: "")
        reportDrops(dive: false, prefix: "")
    }
}
