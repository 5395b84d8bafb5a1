import DiveCore

/// An export umilog recognises from its header (or, for a headerless export, from the shape
/// of its rows), with what its columns mean where the dictionary would not know, the units
/// it writes, and its habits. `docs/csv-formats.md` gives the source of every fact.
public struct CSVPreset: Sendable, Hashable {
    /// A stable id: `subsurface-dive-list`, `shearwater-cloud` …
    public let id: String
    /// What a person calls it: `Subsurface dive list`.
    public let title: String
    /// Summary or profile, when the export is always one of them.
    let kind: CSVLayout.Kind?
    /// Meanings by lowercased header name, over the dictionary's.
    let names: [String: CSVColumnMeaning]
    /// Meanings by position, for a headerless export.
    let positions: [CSVColumnMeaning?]
    /// Units the export writes where its headers say none.
    let defaultUnits: [CSVUnit.Dimension: CSVUnit]
    /// Rows under the header that are not data.
    let skipRows: Int
    /// For an export of `time,code,value` rows (Poseidon MkVI): what each code's value is, as
    /// a channel and the factor to its unit.
    let codes: [Int: PresetCode]
    /// Sample times from this many seconds up are a documented mistake of the export and stand
    /// for the time before them.
    let timeLimit: Int?
    /// The day/month order the layout is documented to write, for dates that cannot decide it
    /// themselves, and where that is documented (said in the finding that applies it).
    let dateOrder: DocumentedDateOrder?
    /// Texts the layout's template puts in a cell for the user to replace, by the field of
    /// their column (folded): no value.
    let placeholders: [CSVField: Set<String>]
    /// How the device the export comes from always runs (a rebreather's controller), where
    /// that is documented.
    let mode: RecordingMode?

    init(_ id: String, _ title: String, kind: CSVLayout.Kind? = nil, names: [String: CSVColumnMeaning] = [:],
         positions: [CSVColumnMeaning?] = [], defaultUnits: [CSVUnit.Dimension: CSVUnit] = [:], skipRows: Int = 0,
         codes: [Int: PresetCode] = [:], timeLimit: Int? = nil, dateOrder: DocumentedDateOrder? = nil,
         placeholders: [CSVField: Set<String>] = [:], mode: RecordingMode? = nil) {
        self.id = id; self.title = title; self.kind = kind; self.names = names; self.positions = positions
        self.defaultUnits = defaultUnits; self.skipRows = skipRows; self.codes = codes
        self.timeLimit = timeLimit; self.dateOrder = dateOrder; self.placeholders = placeholders; self.mode = mode
    }


    /// What column `name` (or, headerless, position `index`) holds in this export.
    func meaning(name: String, index: Int?) -> CSVColumnMeaning? {
        if let m = names[name.lowercased()] { return m }
        if let index, index < positions.count { return positions[index] }
        return nil
    }

    /// Every preset, for `umilog csv inspect --presets` and the docs.
    public static let all: [CSVPreset] = [
        subsurfaceDiveList, subsurfaceProfile, shearwaterCloud, apdLogViewer, apdLogViewerHeaderless, seabear, reefnetSensus,
        poseidonMkVI, padiLogImporter, umilogSummary, umilogProfile,
    ]

    static let subsurfaceDiveList = CSVPreset("subsurface-dive-list", "Subsurface dive list", kind: .summary)
    static let subsurfaceProfile = CSVPreset("subsurface-profile", "Subsurface dive computer profile", kind: .profile)
    static let shearwaterCloud = CSVPreset("shearwater-cloud", "Shearwater Cloud", kind: .profile, names: [
        "depth": CSVColumnMeaning(.sampleDepth),
        "time (sec)": CSVColumnMeaning(.sampleTime, unit: .seconds),
        "water temp": CSVColumnMeaning(.sampleTemperature),
        "time to surface (min)": CSVColumnMeaning(.tts, unit: .minutes),
        "current ndl": CSVColumnMeaning(.ndl, unit: .minutes),
        "average ppo2": CSVColumnMeaning(.ppo2, unit: .bar),
        "tank 1 pressure (psi)": CSVColumnMeaning(.samplePressure, unit: .psi, index: 1),
        "tank 2 pressure (psi)": CSVColumnMeaning(.samplePressure, unit: .psi, index: 2),
        "tank 3 pressure (psi)": CSVColumnMeaning(.samplePressure, unit: .psi, index: 3),
        "tank 4 pressure (psi)": CSVColumnMeaning(.samplePressure, unit: .psi, index: 4),
        "max depth": CSVColumnMeaning(.maxDepth),
        "max time": CSVColumnMeaning(.duration, unit: .seconds),
        "start date": CSVColumnMeaning(.dateTime),
        "dive number": CSVColumnMeaning(.diveNumber),
        "product": CSVColumnMeaning(.computer),
        "computer serial number": CSVColumnMeaning(.serial),
        "gf minimum": CSVColumnMeaning(.gfLow),
        "gf maximum": CSVColumnMeaning(.gfHigh),
        "start surface pressure": CSVColumnMeaning(.surfacePressure, unit: .millibar),
    ])
    static let apdLogViewer = CSVPreset("apd-logviewer", "APD LogViewer", kind: .profile, names: apdNames)
    private static let apdNames: [String: CSVColumnMeaning] = [
        "dive time (s)": CSVColumnMeaning(.sampleTime, unit: .seconds),
        "depth (m)": CSVColumnMeaning(.sampleDepth, unit: .metres),
    ]
    /// The header APD LogViewer writes over its CSV (`docs/csv-formats.md` §4); its `.apd`
    /// files hold the same columns with no header, at the places Subsurface documents.
    static let apdHeader = [
        "Dive Time (s)", "Depth (m)", "PPO2 - Setpoint (Bar)", "PPO2 - C1 Cell 1 (Bar)", "PPO2 - C1 Cell 2 (Bar)",
        "PPO2 - C1 Cell 3 (Bar)", "PPO2 - C1 Measured (Bar)", "PPO2 - C2 Cell 1 (Bar)", "PPO2 - C2 Cell 2 (Bar)",
        "PPO2 - C2 Cell 3 (Bar)", "PPO2 - C2 Measured (Bar)", "C1 Battery 1 (Volts)", "C1 Battery 2 (Volts)",
        "C2 Battery 1 (Volts)", "C2 Battery 2 (Volts)", "Ambient Temp. (Celsius)", "OTU Exposure (%)",
        "CNS Exposure (%)", "Deco Ceiling (m)", "Gradient Factor",
    ]
    static let apdLogViewerHeaderless = CSVPreset("apd-logviewer-headerless", "APD LogViewer (.apd, no header)", kind: .profile,
                                                  positions: apdHeader.map { apdNames[$0.lowercased()] ?? CSVColumnDictionary.meaning(ofHeader: $0) })

    /// A preset for a table with no header whose columns' shapes are a documented layout, and
    /// the evidence, as a finding says it (§10.18). APD LogViewer's `.apd` files: 19 or 20
    /// columns of numbers (Subsurface's DC1 preset reaches column 19), the first whole seconds
    /// that rise from 0 or one interval, the second a depth, the 16th a water temperature.
    static func recogniseHeaderless(shapes: [CSVColumnShape], dialect: CSVDialect) -> (CSVPreset, String)? {
        let numeric: Set<CSVColumnShape.Kind> = [.number, .wholeNumber, .flag]
        if (19...20).contains(shapes.count), dialect.delimiter == 0x09 || dialect.delimiter == UInt8(ascii: ","),
           shapes.allSatisfy({ numeric.contains($0.kind) }),
           shapes[0].kind == .wholeNumber, shapes[0].rising, let t = shapes[0].range, t.lowerBound >= 0, t.lowerBound <= 60,
           let d = shapes[1].range, d.lowerBound >= 0, d.upperBound <= 350,
           let w = shapes[15].range, w.lowerBound >= -2, w.upperBound <= 40 {
            return (apdLogViewerHeaderless, "its \(shapes.count) columns of numbers — whole seconds rising from \(CSVQuantity.format(t.lowerBound)) first, a depth (\(shapes[1].description)) second, a water temperature (\(shapes[15].description)) 16th — are the layout of APD LogViewer's .apd files as Subsurface documents it (docs/csv-formats.md §4)")
        }
        return nil
    }
    static let seabear = CSVPreset("seabear", "Seabear H3 / T1 / HUDC", kind: .profile, names: [
        "time": CSVColumnMeaning(.sampleTime, unit: .seconds),
        "depth": CSVColumnMeaning(.sampleDepth, unit: .metres),
        "ndt": CSVColumnMeaning(.ndl, unit: .minutes),
        "tts": CSVColumnMeaning(.tts, unit: .minutes),
        "ceiling": CSVColumnMeaning(.ceiling, unit: .metres),
        "temperature": CSVColumnMeaning(.sampleTemperature, unit: .celsius),
        "tank pressure": CSVColumnMeaning(.samplePressure, unit: .bar, index: 1),
    ], skipRows: 2)
    static let reefnetSensus = CSVPreset("reefnet-sensus", "ReefNet Sensus", kind: .profile, positions: [
        CSVColumnMeaning(.diveNumber), CSVColumnMeaning(.computer), CSVColumnMeaning(.serial),
        CSVColumnMeaning(.year), CSVColumnMeaning(.month), CSVColumnMeaning(.day),
        CSVColumnMeaning(.hour), CSVColumnMeaning(.minute), CSVColumnMeaning(.second),
        CSVColumnMeaning(.sampleTime, unit: .seconds), CSVColumnMeaning(.sampleAmbientPressure, unit: .millibar),
        CSVColumnMeaning(.sampleTemperature, unit: .kelvin), CSVColumnMeaning(.ignored),
    ])
    /// Headerless `time,code,value` rows; the codes and scales Subsurface documents
    /// (`docs/csv-formats.md` §1). The start, the rig's serial and the diluent are in a
    /// companion `.txt` (``CSVCompanion``), not in the CSV.
    static let poseidonMkVI = CSVPreset("poseidon-mkvi", "Poseidon MkVI Discovery", kind: .profile, positions: [
        CSVColumnMeaning(.sampleTime, unit: .seconds), CSVColumnMeaning(.ignored), CSVColumnMeaning(.ignored),
    ], codes: [
        0: PresetCode(event: nil, "mouthpiece position unknown", byValue: [
            0: "mouthpiece position OC", 1: "mouthpiece position CC", 2: "mouthpiece position unknown", 3: "mouthpiece position not connected",
        ]),
        3: PresetCode(event: nil, "power off"),
        4: PresetCode(.extra(name: "battery_charge", unit: "%"), factor: 1),
        6: PresetCode(CSVColumnMeaning(.sensorPPO2, unit: .bar, index: 1), factor: 0.01),
        7: PresetCode(CSVColumnMeaning(.sensorPPO2, unit: .bar, index: 2), factor: 0.01),
        8: PresetCode(CSVColumnMeaning(.sampleDepth, unit: .metres), factor: 0.5),
        9: PresetCode(notCarried: "the greatest depth so far in half metres, which follows from the depth"),
        10: PresetCode(notCarried: "the ascent or descent rate, which follows from the depth"),
        11: PresetCode(event: .ascentRate, nil),
        13: PresetCode(CSVColumnMeaning(.samplePressure, unit: .bar, index: 1), factor: 1),
        14: PresetCode(CSVColumnMeaning(.samplePressure, unit: .bar, index: 2), factor: 1),
        16: PresetCode(notCarried: "\"remaining dive time #1?\" in Subsurface's comments, with no scale"),
        17: PresetCode(notCarried: "\"related to O2 injection\" in Subsurface's comments, with no scale"),
        20: PresetCode(CSVColumnMeaning(.setpoint, unit: .bar), factor: 0.01),
        22: PresetCode(event: nil, "O2 calibration end", byValue: [2: "O2 calibration failed"]),
        25: PresetCode(CSVColumnMeaning(.ceiling, unit: .metres), factor: 1),
        31: PresetCode(event: nil, "O2 calibration start"),
        37: PresetCode(CSVColumnMeaning(.ndl, unit: .minutes), factor: 1),
        39: PresetCode(CSVColumnMeaning(.sampleTemperature, unit: .celsius), factor: 0.2),
        85: PresetCode(notCarried: "the diluent's helium at a gas change, which names no cylinder the model could switch to"),
        86: PresetCode(notCarried: "the diluent's oxygen at a gas change, which names no cylinder the model could switch to"),
        239: PresetCode(notCarried: "\"maybe PO2 at sensor validation?\" in Subsurface's comments, with no scale"),
        240: PresetCode(notCarried: "\"maybe PO2 at sensor validation?\" in Subsurface's comments, with no scale"),
        247: PresetCode(notCarried: "\"maybe PO2 Cell 1 during pressure test\" in Subsurface's comments, with no scale"),
        248: PresetCode(notCarried: "\"maybe PO2 Cell 2 during pressure test\" in Subsurface's comments, with no scale"),
        250: PresetCode(notCarried: "\"PO2 Cell 1\" in Subsurface's comments, beside code 6's cell average; Subsurface does not read it"),
        251: PresetCode(notCarried: "\"PO2 Cell 2\" in Subsurface's comments, beside code 7's cell average; Subsurface does not read it"),
    ], timeLimit: 49151, mode: .closedCircuit)
    /// The input of needsomesl33p/padi_log_importer, which posts each row to PADI's online
    /// logbook: the nine columns its script reads, dates day-first (`docs/csv-formats.md` §10.7).
    static let padiLogImporter = CSVPreset("padi-log-importer", "padi_log_importer input (PADI logbook)", kind: .summary, names: [
        // PADI's dive title ("Egypt - North Safari - 1"): the model has no dive title.
        "title": CSVColumnMeaning(.ignored),
    ], dateOrder: DocumentedDateOrder(.dmy, "DD/MM/YYYY, the order the padi_log_importer input is documented to use (docs/csv-formats.md §10.7)"),
    placeholders: [.notes: ["your notes go here"]])
    /// umilog's own summary: its `samples` column counts a dive's samples (CSVSummaryWriter).
    static let umilogSummary = CSVPreset("umilog-csv", "umilog csv", kind: .summary, names: ["samples": CSVColumnMeaning(.ignored)])
    static let umilogProfile = CSVPreset("umilog-csv-profile", "umilog csv-profile", kind: .profile)

    /// The preset the file is, from its header, preamble and first row.
    static func recognise(header: [String]?, preamble: [[String]], firstRow: [String]?, width: Int) -> CSVPreset? {
        let names = Set((header ?? []).map { $0.folded })
        let preambleText = preamble.joined().joined(separator: " ").lowercased()
        if names.isSuperset(of: ["dive_number", "date", "time", "duration", "dive_id"]) { return umilogSummary }
        if names.isSuperset(of: ["dive_number", "elapsed_s", "dive_id"]) { return umilogProfile }
        if names.contains("dive number"), names.contains("sac [l/min]") || names.contains("sac [cuft/min]") || names.contains("cylinder size (1) [l]") || names.contains("cylinder size (1) [cuft]") { return subsurfaceDiveList }
        if names.contains("dive number"), names.contains(where: { $0.hasPrefix("sample time") }) { return subsurfaceProfile }
        if names.contains("time (sec)"), names.contains("depth"), preambleText.contains("imperial units") || names.contains("fraction o2") { return shearwaterCloud }
        if names.contains("dive time (s)"), names.contains(where: { $0.hasPrefix("ppo2 - c1") }) { return apdLogViewer }
        if preambleText.contains("seabear") { return seabear }
        // The nine keys padi_log_importer's script reads from every row (insert_padi_log.py).
        if names.isSuperset(of: ["title", "location", "date", "bottom_time", "max_depth", "gas_mixture", "oxygen", "nitrogen", "notes"]) {
            return padiLogImporter
        }
        // Three whole numbers a row, the second a small code, no header: Poseidon's raw log.
        if header == nil, width == 3, let r = firstRow, r.count == 3, r.allSatisfy({ Int($0.trimmingWhitespace()) != nil }),
           let code = Int(r[1]), (0...255).contains(code) {
            return poseidonMkVI
        }
        if header == nil, let r = firstRow, r.count >= 12,
           let y = Int(r[3]), (1990...2100).contains(y), let mo = Int(r[4]), (1...12).contains(mo), let d = Int(r[5]), (1...31).contains(d),
           r[1].uppercased().hasPrefix("SU-") || r[1].uppercased().hasPrefix("SENSUS") {
            return reefnetSensus
        }
        return nil
    }
}

/// The date order a layout is documented to write, and the documentation, as a finding says it.
struct DocumentedDateOrder: Sendable, Hashable {
    var order: DateOrder
    var source: String
    init(_ order: DateOrder, _ source: String) { self.order = order; self.source = source }
}

/// One code of a `time,code,value` export: what its value is, and the factor that turns the
/// value into its unit.
struct PresetCode: Sendable, Hashable {
    enum Target: Sendable, Hashable {
        /// A reading of a channel the reader fills as a column's.
        case reading(CSVColumnMeaning)
        /// A reading of a channel the model has no member for, carried under the profile's
        /// `umilog` channels (`docs/umilog-extension.md`) with its name and unit.
        case extra(name: String, unit: String)
        /// Something that happened: its type, its label, and the label some values give instead.
        case event(EventType?, String?, byValue: [Int: String])
        /// Documented, and not carried: what it is, as a finding says it.
        case notCarried(String)
    }
    var target: Target
    var factor: Double
    init(_ meaning: CSVColumnMeaning, factor: Double) { target = .reading(meaning); self.factor = factor }
    init(_ target: Target, factor: Double) { self.target = target; self.factor = factor }
    init(event type: EventType?, _ label: String?, byValue: [Int: String] = [:]) { target = .event(type, label, byValue: byValue); factor = 1 }
    init(notCarried what: String) { target = .notCarried(what); factor = 1 }
}
