import DiveCore
internal import DiveSQLite

/// The identity namespace and the sniffs of Diving Log's files: its XML export
/// (`<Divinglog DBVersion="…">`) and its native database (an SQLite file, whatever its name).
public enum DivingLog {
    /// `uuid5(NAMESPACE_URL, "https://umilog.example/ns/divinglog")`: frozen (DiveJSON names no
    /// namespace for this format; changing it would renumber every dive read from one without a
    /// `UUID` of its own).
    public static let namespace = "9685a5e3-29c1-5827-bc08-e62c7da8fc7b"

    /// The XML export: its root element is `<Divinglog>`.
    public static func sniffXML(_ input: SniffInput) -> SniffConfidence {
        input.root == "divinglog" ? .certain : .none
    }

    /// divelogs.de's per-dive XML (the documents of a `.DLD` zip): its root is `<DIVELOGSDATA>`.
    public static func sniffDivelogsData(_ input: SniffInput) -> SniffConfidence {
        input.root == "divelogsdata" ? .certain : .none
    }

    /// The native database: SQLite's magic, and the CREATE TABLE text of Diving Log's `Logbook`
    /// and `DBInfo` tables in the file's first bytes (SQLite keeps its schema as SQL text in its
    /// first pages). The reader confirms the tables through SQLite.
    public static func sniffDatabase(_ input: SniffInput) -> SniffConfidence {
        SQLiteLogbookFile.sniff(input.bytes, containing: ["TABLE Logbook(", "'Divedate'", "TABLE DBInfo("]) ? .certain : .none
    }
}

/// One value of a dive as read: the column (or element) name as written, its trimmed text, and
/// where it is (`dive/0/Depth` and its line in the XML; `Logbook.Depth` and the row in the database).
struct DivingLogValue: Sendable {
    var name: String
    var text: String
    var location: SourceLocation
}

/// One dive as either file holds it: the `Logbook` row's columns (the XML export writes the same
/// columns as elements of the same names), by lowercased name, and its samples.
struct DivingLogRecord {
    /// The dive's place among the file's dives.
    var index: Int
    /// Where the dive is (its `<Dive>` or its `Logbook` row).
    var location: SourceLocation
    var values: [String: DivingLogValue] = [:]
    /// The cylinders beside the dive's own (the database's `Tank` rows), each its columns.
    var extraTanks: [[String: DivingLogValue]] = []
    var samples: [DivingLogSample] = []
    /// Samples past ``InputLimits/samplesPerDive``: counted, not held.
    var samplesOverLimit = 0

    init(index: Int, location: SourceLocation) { self.index = index; self.location = location }

    /// Takes the value of `key` (lowercased) out of the record: what is left when the dive is
    /// built is what it did not carry.
    mutating func take(_ key: String) -> DivingLogValue? { values.removeValue(forKey: key) }
}

/// One profile sample, in the file's units (metres, °C, bar), from either spelling: the XML's
/// `<P Time="…">` with its children, or the database's fixed-width `Profile…` strings.
struct DivingLogSample: Sendable {
    /// Seconds from the dive's start.
    var time: Int
    var depth: Double?
    var temperature: Double?
    /// Tank pressures by the tank's number (0 the dive's own tank, 1… the `Tank` rows) in the
    /// database, by transmitter (`Press1` → 0) in the XML.
    var pressures: [(tank: Int, bar: Double)] = []
    /// The tank breathed from (the database's `Profile2`).
    var tank: Int?
    /// The warning flags: in deco, RBT warning, ascent warning, deco stop ignored, workload.
    var inDeco = false
    var rbtWarning = false
    var ascentWarning = false
    var decoStopIgnored = false
    var workWarning = false
    /// The flags' text as written when it is none of these (the XML's `<Warning>`).
    var otherWarning: String?
    /// Remaining bottom time, minutes.
    var rbt: Int?
    var heartRate: Int?
    /// NDL when not in deco, TTS in deco (the database's `Profile4`), minutes.
    var ndlOrTTS: Int?
    var stopTime: Int?
    var stopDepth: Int?
    /// ppO₂ of up to three cells, bar; OTU; CNS percent; setpoint, bar (`Profile5`).
    var cells: [Double] = []
    var otu: Double?
    var cns: Double?
    var setpoint: Double?
    /// Where the sample is, for findings.
    var location: SourceLocation

    init(time: Int, location: SourceLocation) { self.time = time; self.location = location }
}
