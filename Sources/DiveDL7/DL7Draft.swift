import DiveCore

/// One dive as its segments arrive: `ZDH`'s values, the profile rows with their times still
/// as written (the unit of a row's time is decided once the whole profile and `ZDT` are in),
/// `ZDT`'s, and `ZDD`/`ZSR`'s.
struct DL7Draft {
    let index: Int
    let line: Int
    var exportSequence: String?
    var internalSequence: String?
    var start: DL7Timestamp?
    var startOK = true
    var interval: DL7Interval = .other
    var intervalText: String?
    var airTemperature: Double?
    var tankVolume: Double?
    var altitude: Int?
    var diluent: (oxygen: Double, helium: Double)?
    var recordType: String?

    /// Profile rows: their time as written, and the line, in the file's order.
    var rowTimes: [DecimalNumber] = []
    var rowLines: [Int] = []
    /// Readings by row index, already in the model's scaled units.
    var depth: [(row: Int, value: Int)] = []
    var ceiling: [(row: Int, value: Int)] = []
    var temperature: [(row: Int, value: Int)] = []
    var ppo2: [(row: Int, value: Int)] = []
    var cns: [(row: Int, value: Int)] = []
    var mainPressure: [(row: Int, value: Int)] = []
    var diluentPressure: [(row: Int, value: Int)] = []
    /// Gas codes by row, each the index of its mix in `mixes`.
    var gases: [(row: Int, mix: Int)] = []
    var mixes: [(oxygen: Double, helium: Double)] = []
    /// Ascent-rate and decompression violations by row.
    var violations: [(row: Int, type: EventType)] = []
    var profileLine: Int?
    var samplesDropped = 0

    var maxDepth: DecimalNumber?
    var end: DL7Timestamp?
    var minWaterTemperature: Double?
    var trailerLine: Int?

    var type: DiveType?
    var entry: EntryType?

    init(index: Int, line: Int) { self.index = index; self.line = line }
}
