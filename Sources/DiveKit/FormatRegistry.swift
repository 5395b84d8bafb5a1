import DiveCSV
import DiveDL7
import DiveDivesoft
import DiveDivingLog
import DiveFIT
import DiveJDiveLog
import DiveDataTrak
import DiveSmartTrak
import DiveJSON
import DiveLibdcXML
import DiveMacDive
import DiveSSRF
import DiveSeac
import DiveShearwater
import DiveSuunto
import DiveUDCF
import DiveUDDF

// The one table of formats. Adding a format is its module plus one line in `FormatRegistry.all`:
// the sniffer, `openReader`, `convert`'s writers, `--from`/`--to` and their help, `inspect`,
// `validate`'s and `import`'s directory walks, and the "recognised but not read" listing all
// come from it.

/// A dive-log format umilog knows by name: a registry entry's `--from`/`--to` value.
public struct FileFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The format's registry id (`uddf`, `csv-profile`).
    public let rawValue: String

    /// The format of this name, when the registry has one that umilog reads or writes. DiveJSON's
    /// spelling of a format id (`suunto_json`, the name of its pair directory) names it too.
    public init?(rawValue: String) {
        let name = rawValue.lowercased()
        guard let entry = FormatRegistry.entry(named: name) ?? FormatRegistry.entry(named: String(name.map { $0 == "_" ? "-" : $0 })),
              entry.isReadOrWritten else { return nil }
        self.rawValue = entry.format.rawValue
    }

    init(id: String) { rawValue = id }

    /// Formats other code names: the three umilog's own features are built on.
    public static let uddf = FileFormat(id: "uddf")
    /// CSV, one row per dive.
    public static let csv = FileFormat(id: "csv")
    /// CSV, one row per profile sample.
    public static let csvProfile = FileFormat(id: "csv-profile")
    /// DiveJSON.
    public static let json = FileFormat(id: "json")

    /// The registry id.
    public var description: String { rawValue }
    /// Orders formats by registry id.
    public static func < (a: FileFormat, b: FileFormat) -> Bool { a.rawValue < b.rawValue }

    /// The registry's entry for this format.
    public var entry: FormatEntry { FormatRegistry.entry(named: rawValue)! }

    /// Every format umilog reads or writes, in registry order.
    public static var allCases: [FileFormat] { FormatRegistry.all.filter(\.isReadOrWritten).map(\.format) }
    /// The formats umilog reads.
    public static var readable: [FileFormat] { FormatRegistry.all.filter { $0.open != nil }.map(\.format) }
    /// The formats umilog writes.
    public static var writable: [FileFormat] { FormatRegistry.all.filter { $0.writer != nil }.map(\.format) }
}

/// What a reader may need beside the file.
public struct ReadOptions: Sendable {
    /// What a CSV input does not say (date order, a profile's start, column meanings).
    public var csv = CSVReadOptions()
    /// Makes read options with these CSV choices.
    public init(csv: CSVReadOptions = CSVReadOptions()) { self.csv = csv }
}

/// What a writer may need beside the dives.
public struct WriteOptions: Sendable {
    /// Metric or imperial units for the formats that choose (CSV).
    public var units: UnitSystem = .metric
    /// The export instant written into the document.
    public var exportedAt: String
    /// How UDDF output spells a dive logged with a date and no time.
    public var dateOnlyStart: DateOnlyStart = .bare
    /// Makes write options with this export instant, these units and this spelling of date-only starts.
    public init(units: UnitSystem = .metric, exportedAt: String, dateOnlyStart: DateOnlyStart = .bare) {
        self.units = units; self.exportedAt = exportedAt; self.dateOnlyStart = dateOnlyStart
    }
}

/// One format in the registry.
public struct FormatEntry: Sendable {
    /// The `--from`/`--to` value, and the source format recorded with imported files.
    public let format: FileFormat
    /// The format's name for people ("Subsurface XML").
    public let name: String
    /// The file name ending its output gets (`uddf`, `profile.csv`); `nil` when not written.
    public let fileExtension: String?
    /// How sure the format is that a file is in it, from the file's first bytes.
    public let sniff: @Sendable (SniffInput) -> SniffConfidence
    /// Opens a streaming reader: path, the name diagnostics use, options. `nil`: recognised,
    /// not read yet.
    public let open: (@Sendable (String, String, ReadOptions) throws -> any DiveSource)?
    /// Makes a writer over the sink dives are written (or spooled) to. `nil`: not written.
    public let writer: (@Sendable (ByteSink, WriteOptions) -> any DiveWriter)?
    /// What `validate` checks beyond reading every dive and the model checks (a schema).
    let validate: (@Sendable (FileChecker, String, String) throws -> [Diagnostic])?

    init(_ id: String, _ name: String, ext: String? = nil, sniff: @escaping @Sendable (SniffInput) -> SniffConfidence,
         open: (@Sendable (String, String, ReadOptions) throws -> any DiveSource)? = nil,
         writer: (@Sendable (ByteSink, WriteOptions) -> any DiveWriter)? = nil,
         validate: (@Sendable (FileChecker, String, String) throws -> [Diagnostic])? = nil) {
        format = FileFormat(id: id)
        self.name = name
        fileExtension = ext
        self.sniff = sniff
        self.open = open
        self.writer = writer
        self.validate = validate
    }

    /// umilog reads or writes it (otherwise it is only recognised, and named).
    public var isReadOrWritten: Bool { open != nil || writer != nil }
}

/// The formats umilog knows: what it reads, what it writes, and what it recognises but does not
/// read yet (named, so a diver learns what the file is).
public enum FormatRegistry {
    /// Every entry, in registry order: the formats umilog reads or writes, then those it only recognises.
    public static let all: [FormatEntry] = [
        FormatEntry("uddf", "UDDF", ext: "uddf", sniff: { $0.root == "uddf" ? .certain : .none },
                    open: { path, name, _ in try UDDFReader(path: path, displayName: name) },
                    writer: { sink, o in UDDFDocumentWriter(body: sink, options: o) },
                    validate: { v, path, name in try v.checkUDDF(path: path, displayName: name) }),
        FormatEntry("json", "DiveJSON", ext: "divejson", sniff: { $0.isJSON ? (Sniffer.declaresDiveJSON($0.text) ? .certain : .weak) : .none },
                    open: { path, name, _ in try DiveJSONReader(path: path, displayName: name) },
                    writer: { sink, o in DiveJSONDocumentWriter(sink: sink, options: o) },
                    validate: { v, path, name in try v.checkDiveJSON(path: path, displayName: name) }),
        FormatEntry("csv", "CSV", ext: "csv", sniff: { Sniffer.looksLikeCSV($0) ? .weak : .none },
                    open: { try CSVDiveReader(path: $0, displayName: $1, options: $2.csv) },
                    writer: { sink, o in CSVSummaryWriter(sink: sink, units: o.units) },
                    validate: { v, path, name in try v.checkCSV(path: path, displayName: name) }),
        FormatEntry("csv-profile", "CSV profile", ext: "profile.csv", sniff: { _ in .none },
                    open: { try CSVDiveReader(path: $0, displayName: $1, options: $2.csv) },
                    writer: { sink, o in CSVProfileDocumentWriter(body: sink, units: o.units) },
                    validate: { v, path, name in try v.checkCSV(path: path, displayName: name) }),
        FormatEntry("ssrf", "Subsurface XML", ext: "ssrf", sniff: SSRF.sniff,
                    open: { path, name, _ in try SSRFReader(path: path, displayName: name) },
                    writer: { sink, _ in SSRFWriter(body: sink, generator: umilogGenerator) }),
        FormatEntry("suunto-xml", "Suunto DM4/DM5 XML", sniff: { $0.root == "dive" && $0.contains("Suunto.Diving.Dal") ? .likely : .none },
                    open: { path, name, _ in try SuuntoXMLReader(path: path, displayName: name) }),
        FormatEntry("suunto-dm3", "Suunto DM3 .SDE", sniff: { SuuntoDM3.sniff($0.bytes) ? .certain : .none },
                    open: { path, name, _ in try SuuntoDM3Reader(path: path, displayName: name) }),
        FormatEntry("fit", "Garmin FIT", ext: "fit", sniff: { FIT.sniff($0.bytes) ? .certain : .none },
                    open: { path, name, _ in try FITReader(path: path, displayName: name) }),
        FormatEntry("suunto-json", "Suunto app DeviceLog JSON", sniff: { $0.isJSON && Sniffer.opensWithKey("DeviceLog", $0.text) ? .certain : .none },
                    open: { path, name, _ in try SuuntoJSONReader(path: path, displayName: name) }),
        FormatEntry("shearwater-xml", "Shearwater XML", sniff: ShearwaterXML.sniff, open: { path, name, _ in try ShearwaterXMLReader(path: path, displayName: name) }),
        FormatEntry("shearwater-db", "Shearwater Cloud database", sniff: ShearwaterDB.sniff, open: { path, name, _ in try ShearwaterDBReader(path: path, displayName: name) }),
        FormatEntry("macdive", "MacDive XML", sniff: MacDive.sniff, open: { path, name, _ in try MacDiveReader(path: path, displayName: name) }),
        FormatEntry("udcf", "UDCF", sniff: UDCF.sniff, open: { path, name, _ in try UDCFReader(path: path, displayName: name) }),
        FormatEntry("dl7", "DAN DL7 (ZXL/ZXU)", sniff: { DL7.sniff($0.bytes) ? .certain : .none },
                    open: { path, name, _ in try DL7Reader(path: path, displayName: name) }),
        FormatEntry("divinglog", "Diving Log XML", sniff: DivingLog.sniffXML, open: { path, name, _ in try DivingLogXMLReader(path: path, displayName: name) }),
        FormatEntry("divinglog-db", "Diving Log database", sniff: DivingLog.sniffDatabase, open: { path, name, _ in try DivingLogDBReader(path: path, displayName: name) }),
        FormatEntry("divelogs-dld", "divelogs.de DLD XML", sniff: DivingLog.sniffDivelogsData, open: { path, name, _ in try DivelogsDataReader(path: path, displayName: name) }),
        FormatEntry("seac-sync", "Seac Sync database", sniff: SeacSync.sniff, open: { path, name, _ in try SeacSyncReader(path: path, displayName: name) }),
        FormatEntry("jdivelog", "JDiveLog", sniff: { $0.root == "jdivelog" ? .certain : .none },
                    open: { path, name, _ in try JDiveLogReader(path: path, displayName: name) }),
        FormatEntry("libdc-xml", "libdivecomputer XML dump", sniff: LibdcXML.sniff,
                    open: { path, name, _ in try LibdcXMLReader(path: path, displayName: name) }),
        FormatEntry("divesoft-dlf", "Divesoft Freedom/Liberty (.dlf)", sniff: { Divesoft.sniff($0.bytes) ? .certain : .none },
                    open: { path, name, _ in try DivesoftReader(path: path, displayName: name) }),
        FormatEntry("uwatec-datatrak", "Uwatec DataTrak (.log)", sniff: { sniffDataTrak($0.bytes) ? .likely : .none },
                    open: { path, name, _ in try DataTrakReader(path: path, displayName: name) }),
        FormatEntry("smarttrak", "SmartTRAK (.slg)", sniff: { sniffJetDatabase($0.bytes) ? .likely : .none },
                    open: { path, name, _ in try SmartTrakReader(path: path, displayName: name) }),
        FormatEntry("divelogs-de", "divelogs.de upload XML", sniff: { $0.root == "dive" && ($0.xmlRootTag?.contains("ignore-root") ?? false) ? .likely : .none },
                    open: { path, name, _ in try DivelogsUploadReader(path: path, displayName: name) }),
        FormatEntry("zip", "a zip archive of these", sniff: sniffZipOfDiveLogs,
                    open: { path, name, options in try ArchiveDiveSource(path: path, displayName: name, options: options) }),
        // Recognised, not read yet.
        FormatEntry("dive-xml", "dive computer XML (root <dive>)", sniff: { $0.root == "dive" ? .weak : .none }),
        // Binary logbooks named by their first bytes.
        FormatEntry("sqlite", "an SQLite database of another program",
                    sniff: { $0.bytes.starts(with: Array("SQLite format 3\0".utf8)) ? .certain : .none }),
    ]

    private static let byName: [String: Int] = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.format.rawValue, $0) })

    /// The entry of this `--from`/`--to` name.
    public static func entry(named name: String) -> FormatEntry? { byName[name].map { all[$0] } }

    /// The entry whose sniffer is most confident about `input` (the first listed of equals).
    public static func sniff(_ input: SniffInput) -> FormatEntry? {
        var best: (entry: FormatEntry, confidence: SniffConfidence)?
        for entry in all {
            let c = entry.sniff(input)
            if c > (best?.confidence ?? .none) { best = (entry, c) }
        }
        return best?.entry
    }

    /// `names` as a list for help and messages: "csv, csv-profile, json or uddf".
    public static func list(_ formats: [FileFormat]) -> String {
        let names = formats.map(\.rawValue)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

// MARK: Writers as the registry makes them

/// UDDF through its spool.
final class UDDFDocumentWriter: DiveWriter {
    let writer: UDDFWriter
    init(body: ByteSink, options: WriteOptions) {
        writer = UDDFWriter(body: body, generator: umilogGenerator, exportedAt: options.exportedAt)
        writer.dateOnlyStart = options.dateOnlyStart
    }
    var spoolsBody: Bool { true }
    func write(_ dive: Dive, header: LogbookHeader) throws { try writer.write(dive, header: header) }
    func takeFindings() -> [Finding] { writer.takeFindings() }
    func finish(header: LogbookHeader, to target: ByteSink, replayingBody: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try writer.finish(header: header, to: target, replayingBody: replayingBody)
    }
}

/// DiveJSON, straight to its sink.
final class DiveJSONDocumentWriter: DiveWriter {
    let writer: DiveJSONWriter
    init(sink: ByteSink, options: WriteOptions) {
        writer = DiveJSONWriter(sink: sink, generator: umilogGenerator, exportedAt: options.exportedAt)
    }
    var spoolsBody: Bool { false }
    func write(_ dive: Dive, header: LogbookHeader) throws { try writer.write(dive, header: header) }
    func takeFindings() -> [Finding] { writer.takeFindings() }
    func finish(header: LogbookHeader, to target: ByteSink, replayingBody: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try writer.finish(header: header)
    }
}

extension CSVSummaryWriter: DiveWriter {
    /// False: the summary table writes each dive's row as it comes.
    public var spoolsBody: Bool { false }
    /// Ends the table: writes the header row if no dive did, and flushes; nothing was spooled, so `replayingBody` is not called.
    public func finish(header: LogbookHeader, to target: ByteSink, replayingBody: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try finish()
    }
}

/// A profile table: its header row depends on the widest dive, so rows are spooled and the
/// header written first at the end, short rows padded to its width.
final class CSVProfileDocumentWriter: DiveWriter {
    let writer: CSVProfileWriter
    init(body: ByteSink, units: UnitSystem) { writer = CSVProfileWriter(body: body, units: units) }
    var spoolsBody: Bool { true }
    func write(_ dive: Dive, header: LogbookHeader) throws { try writer.write(dive, header: header) }
    func takeFindings() -> [Finding] { [] }
    func finish(header: LogbookHeader, to target: ByteSink, replayingBody: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try writer.finish()
        try writer.headerRow().withUnsafeBytes { try target.write($0) }
        if writer.needsPadding {
            var padder = CSVRowPadder(fields: writer.fieldCount, sink: target)
            try replayingBody { try padder.feed($0) }
            try padder.flush()
        } else {
            try replayingBody { try target.write($0) }
        }
    }
}

/// Uwatec DataTrak's logbook: `A1 00`, then (little-endian at bytes 6–7) how many dives it holds,
/// as Subsurface's `datatrak.cpp` checks it [V subsurface/subsurface core/datatrak.cpp].
func sniffDataTrak(_ b: [UInt8]) -> Bool {
    guard b.count >= 8, b[0] == 0xA1, b[1] == 0x00 else { return false }
    return Int(b[6]) | Int(b[7]) << 8 > 0
}

/// A Microsoft Jet or ACE database (Access `.mdb`/`.accdb`, SmartTRAK's `.slg`): its format name
/// at byte 4.
func sniffJetDatabase(_ b: [UInt8]) -> Bool {
    guard b.count >= 19 else { return false }
    let name = b[4..<19]
    return name.elementsEqual("Standard Jet DB".utf8) || name.elementsEqual("Standard ACE DB".utf8)
}
