import DiveCore

/// What a Poseidon MkVI log keeps beside its CSV: a file of the same base name with the
/// extension `.txt` whose first line starts with `MkVI_Config`, of `key : value` lines that give
/// the dive's start, the rig's serial number and the diluent (`docs/csv-formats.md` §1).
struct CSVCompanion: Sendable {
    /// The companion as the user would name it (beside the CSV's name).
    var fileName: String
    /// `Dive started at : 2011-06-14 11:20:36`, a wall-clock time with no offset.
    var start: DiveDateTime?
    /// `Rig Serial number : 0567`.
    var serial: String?
    /// `Helium percentage` and `Nitrogen percentage`: the diluent's mix, its oxygen the rest.
    var diluentHelium: Double?
    var diluentNitrogen: Double?
    /// `Starting O2 Pressure(Bar)` and `Starting Dil Pressure(Bar)`.
    var oxygenStartPressure: Double?
    var diluentStartPressure: Double?
    /// The keys of the lines not read, in their order.
    var notRead: [String] = []

    /// The diluent's oxygen, percent: what its helium and nitrogen leave.
    var diluentOxygen: Double? {
        guard let he = diluentHelium, let n2 = diluentNitrogen, he + n2 <= 100 else { return nil }
        return 100 - he - n2
    }

    /// The most of a companion read: 64 KiB, thirty times Subsurface's sample; a larger file is
    /// no MkVI configuration.
    static let limit = 64 << 10

    /// The companion of the CSV at `path` (shown as `displayName`): `nil` when there is none, or
    /// the file there is not one (said in `notOne`).
    static func find(besideCSV path: String, displayName: String) -> (companion: CSVCompanion?, notOne: String?) {
        func swapExtension(_ p: String, _ ext: String) -> String {
            let slash = p.lastIndex(where: { $0 == "/" || $0 == "\\" })
            let nameStart = slash.map { p.index(after: $0) } ?? p.startIndex
            guard let dot = p[nameStart...].lastIndex(of: "."), dot > nameStart else { return p + ext }
            return String(p[..<dot]) + ext
        }
        for ext in [".txt", ".TXT"] {
            let candidate = swapExtension(path, ext)
            guard candidate != path, let bytes = try? read(candidate) else { continue }
            let shown = swapExtension(displayName, ext)
            guard let companion = parse(bytes, fileName: shown) else {
                return (nil, shown)
            }
            return (companion, nil)
        }
        return (nil, nil)
    }

    /// Up to ``limit`` bytes of the file at `path`; `nil` when it cannot be read or is larger.
    private static func read(_ path: String) throws -> [UInt8]? {
        let file = try InputFile(path: path, displayName: path)
        var buffer = [UInt8](repeating: 0, count: limit + 1)
        let n = try buffer.withUnsafeMutableBytes { try file.readFully(into: $0) }
        return n > limit ? nil : Array(buffer[..<n])
    }

    /// The companion's lines: `nil` unless the first starts with `MkVI_Config`.
    static func parse(_ bytes: [UInt8], fileName: String) -> CSVCompanion? {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        guard let first = lines.first, first.hasPrefix("MkVI_Config") else { return nil }
        var c = CSVCompanion(fileName: fileName)
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon]).trimmingWhitespace()
            let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            guard !key.isEmpty else { continue }
            switch key.lowercased() {
            case "dive started at": c.start = startTime(value)
            case "rig serial number": c.serial = value.isEmpty ? nil : value
            case "helium percentage": c.diluentHelium = percent(value)
            case "nitrogen percentage": c.diluentNitrogen = percent(value)
            case "starting o2 pressure(bar)": c.oxygenStartPressure = pressure(value)
            case "starting dil pressure(bar)": c.diluentStartPressure = pressure(value)
            default: c.notRead.append(key)
            }
        }
        return c
    }

    /// `2011-06-14 11:20:36`: year, month, day, hour, minute, second, as Subsurface reads it.
    static func startTime(_ value: String) -> DiveDateTime? {
        let parts = value.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0) }
        guard parts.count == 6, parts.allSatisfy({ $0 != nil }) else { return nil }
        let p = parts.map { $0! }
        guard (1900...2100).contains(p[0]), let date = LocalDate(year: p[0], month: p[1], day: p[2]),
              let time = TimeOfDay(hour: p[3], minute: p[4], second: p[5]) else { return nil }
        return DiveDateTime(date: date, time: time)
    }

    private static func percent(_ value: String) -> Double? {
        guard let v = CSVValues.number(Substring(value)), CSVLimits.Range.ratio.contains(v), v <= 100 else { return nil }
        return v
    }

    private static func pressure(_ value: String) -> Double? {
        guard let v = CSVValues.number(Substring(value)), v >= 0, CSVLimits.Range.pressure.contains(v) else { return nil }
        return v
    }

    /// What was read, as a finding says it.
    var summary: String {
        var read: [String] = []
        if let start { read.append("the start, \(start)") }
        if let serial { read.append("the rig's serial number, \(serial)") }
        if let o2 = diluentOxygen { read.append("the diluent, \(CSVQuantity.format(o2)) % oxygen and \(CSVQuantity.format(diluentHelium ?? 0)) % helium") }
        if let p = oxygenStartPressure { read.append("the oxygen cylinder's start pressure, \(CSVQuantity.format(p)) bar") }
        if let p = diluentStartPressure { read.append("the diluent cylinder's start pressure, \(CSVQuantity.format(p)) bar") }
        return read.isEmpty ? "nothing umilog reads" : read.joined(separator: "; ")
    }
}
