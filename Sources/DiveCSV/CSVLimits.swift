/// The most the CSV reader takes from one file, so that a hostile or broken file costs
/// bounded memory and time. Each limit, when passed, is a located error (the file is not read)
/// or a `dropped` finding that keeps the rest of the file; none is near what a real export
/// holds.
public enum CSVLimits {
    /// The longest field, quotes included: 1 MiB. A note longer than a book is no value a dive
    /// log holds; it is almost always a quote that is never closed. Longer is
    /// `csv.field-too-long` (an error, at the field's first character), found without holding
    /// more than the limit.
    public static let fieldBytes = 1 << 20

    /// The longest record (one row, line breaks inside quotes included): 16 MiB, sixteen of the
    /// longest fields. Longer is `csv.record-too-long` (an error, at the record's first line).
    public static let recordBytes = 16 << 20

    /// The most fields in one record: 4,096. The widest real export has under 200 columns
    /// (Shearwater Cloud's); a header of a million columns would otherwise cost hundreds of
    /// megabytes in column meanings and findings. More is `csv.too-many-columns` (an error, at
    /// the first field past the limit), found as the record is read.
    public static let columns = 4096

    /// The most readings one dive holds: 1,000,000 (16 MB in memory), where an event counts one
    /// reading per 16 bytes of its text. A 10-hour dive sampled every second in 20 channels is
    /// 720,000. The rows of a dive past it are `csv.too-many-readings` (one `dropped` finding
    /// at the first row not read); the file's other dives are read.
    public static let readingsPerDive = 1_000_000

    /// The most dives one file holds: 100,000, more than any diver logs in a lifetime. The
    /// reader keeps a few hundred bytes per dive (its identity, the sites and people it names);
    /// more is `csv.too-many-dives` (an error at the first row past it): split the file.
    public static let dives = 100_000

    /// The most items one cell lists (cylinders `12; 7`, buddies `Ann, Bo`, tags): 256, more
    /// than a dive has. The rest of a longer list is `csv.list-too-long` (`dropped`, at its row
    /// and column); the first 256 are read.
    public static let listItems = 256

    /// What the sites, people, trips and suits a file's dives name may take: 16 MiB, each
    /// counted as its name and ``namedRecordOverhead`` (what a record costs besides), some
    /// 100,000 records where a logbook has hundreds. Their records are kept for the whole file;
    /// a name past the limit is `csv.too-many-names` (`dropped`, at its row), not carried.
    public static let namedRecordBytes = 16 << 20
    /// What one named record costs besides its name, for ``namedRecordBytes``: 150 bytes.
    public static let namedRecordOverhead = 150

    /// The most findings of one code a file reports in full: 100. The rest are counted and
    /// reported in one finding of the same code at the end of the file, so that a value wrong
    /// on every row of a large file costs no memory.
    public static let findingsPerCode = 100

    /// The longest cell read as a whole profile (a JSON array, §10.14): 512 KiB, a two-hour dive
    /// sampled every second as `{"time":…,"depth":…,"temp":…}` objects. It is parsed whole, so
    /// what it costs is bounded here; a longer cell is `csv.profile-cell-too-long` (`dropped`, at
    /// its row and column) and the rest of the dive is read.
    public static let profileCellBytes = 512 << 10
    /// The most of a value a message quotes: 60 characters, then `…`.
    public static let quotedValueCharacters = 60

    /// What a value of each quantity can be, in the model's units. A number outside (or not
    /// finite: `1e999` reads as infinity) is no reading of that quantity: it is reported as
    /// `csv.value-out-of-range` (`dropped`, at its row and column) and never stored, so
    /// nothing downstream does arithmetic on it. The bounds are physical, not plausible: how
    /// likely a value is, is `umilog validate`'s business.
    public enum Range {
        /// Metres (depth, ceiling, visibility): above the surface by 100 m at most (a computer
        /// carried on a mountain road), below it by 11 km at most (the deepest sea).
        public static let length: ClosedRange<Double> = -100...11_000
        /// °C: nothing is colder than absolute zero; 1,000 °C melts any instrument.
        public static let temperature: ClosedRange<Double> = -273.15...1_000
        /// Bar (cylinder, ambient, surface, ppO₂): −1 bar is a vacuum against a gauge;
        /// 10,000 bar is ten times the pressure at the bottom of the deepest sea.
        public static let pressure: ClosedRange<Double> = -1...10_000
        /// Seconds (a dive's duration, NDL, TTS): 10 days.
        public static let duration: ClosedRange<Double> = 0...864_000
        /// Seconds into the dive of a sample: 10 days either side of its start.
        public static let sampleTime: ClosedRange<Double> = -864_000...864_000
        /// Litres of water capacity: a storage bank, not a cylinder, holds 10,000.
        public static let volume: ClosedRange<Double> = 0...10_000
        /// Kilograms of weight: a ton.
        public static let mass: ClosedRange<Double> = 0...1_000
        /// Percent (oxygen, helium, CNS, a gradient factor).
        public static let ratio: ClosedRange<Double> = 0...1_000
        /// Degrees of latitude.
        public static let latitude: ClosedRange<Double> = -90...90
        /// Degrees of longitude.
        public static let longitude: ClosedRange<Double> = -180...180
        /// A whole number (a dive number, a rating, a gradient factor, a part of a date): under a
        /// thousand million either way.
        public static let integer: ClosedRange<Double> = -999_999_999...999_999_999
    }
}

/// What a number in a cell measures, with the range ``CSVLimits/Range`` gives it and the words
/// a finding uses for it.
enum CSVQuantity: Sendable {
    case length, temperature, pressure, duration, sampleTime, volume, mass, ratio, latitude, longitude, integer

    /// The quantity a unit of `dimension` measures.
    init(_ dimension: CSVUnit.Dimension) {
        switch dimension {
        case .length: self = .length
        case .temperature: self = .temperature
        case .pressure: self = .pressure
        case .time: self = .duration
        case .volume: self = .volume
        case .mass: self = .mass
        case .ratio: self = .ratio
        }
    }

    var range: ClosedRange<Double> {
        switch self {
        case .length: return CSVLimits.Range.length
        case .temperature: return CSVLimits.Range.temperature
        case .pressure: return CSVLimits.Range.pressure
        case .duration: return CSVLimits.Range.duration
        case .sampleTime: return CSVLimits.Range.sampleTime
        case .volume: return CSVLimits.Range.volume
        case .mass: return CSVLimits.Range.mass
        case .ratio: return CSVLimits.Range.ratio
        case .latitude: return CSVLimits.Range.latitude
        case .longitude: return CSVLimits.Range.longitude
        case .integer: return CSVLimits.Range.integer
        }
    }

    /// `a depth or distance`, `a temperature` …
    var noun: String {
        switch self {
        case .length: return "a depth or distance"
        case .temperature: return "a temperature"
        case .pressure: return "a pressure"
        case .duration: return "a duration"
        case .sampleTime: return "a time into the dive"
        case .volume: return "a cylinder's capacity"
        case .mass: return "a weight"
        case .ratio: return "a percentage"
        case .latitude: return "a latitude"
        case .longitude: return "a longitude"
        case .integer: return "a whole number of a dive log"
        }
    }

    /// The model's unit, as a finding writes it after a number.
    var unit: String {
        switch self {
        case .length: return " m"
        case .temperature: return " °C"
        case .pressure: return " bar"
        case .duration, .sampleTime: return " s"
        case .volume: return " l"
        case .mass: return " kg"
        case .ratio: return " %"
        case .latitude, .longitude: return "°"
        case .integer: return ""
        }
    }

    /// `12`, `-273.15`, `1e+300`, `inf`.
    static func format(_ v: Double) -> String {
        if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }
}
