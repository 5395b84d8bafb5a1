/// A short account of one dive-log file.
public struct InspectSummary: Sendable {
    /// The file as the user named it.
    public var path: String
    /// The format the file was read as.
    public var format: FileFormat
    /// The format's own version, when the file states one (UDDF's `@version`).
    public var formatVersion: String?
    /// The program that wrote the file, when the file says.
    public var generator: Generator?
    /// Dives in the file.
    public var dives = 0
    /// The earliest dive start, by wall clock; `nil` when no dive has a start.
    public var firstStart: DiveDateTime?
    /// The latest dive start, by wall clock; `nil` when no dive has a start.
    public var lastStart: DiveDateTime?
    /// The deepest dive: its maximum depth in metres, its number and its start; `nil` when no dive records a maximum depth.
    public var deepest: (depth: Double, dive: Int?, start: DiveDateTime?)?
    /// The longest dive: its submerged time in seconds, its number and its start; `nil` when no dive records one.
    public var longest: (seconds: Int, dive: Int?, start: DiveDateTime?)?
    /// Sample instants over every dive's primary profile.
    public var samples = 0
    /// Dives with no start date.
    public var dateless = 0
    /// What reading the file found.
    public var findings: [Finding] = []
}

/// Reads `path` through its streaming reader and summarises it; `progress` hears how far it
/// has got.
public func inspect(path: String, format forced: FileFormat? = nil, csv: CSVReadOptions = CSVReadOptions(),
                    progress: JobProgress? = nil) throws -> InspectSummary {
    let meter = ProgressMeter.make(progress, files: [path])
    meter?.beginFile(path)
    defer { meter?.endFile(); meter?.finish() }
    return try ProgressMeter.measuring(meter) { try withInputFile(path) { file in
        let format = try forced ?? detectFormat(path: file, displayName: path, csv: csv)
        let reader = try openReader(path: file, format: format, displayName: path == "-" ? "<stdin>" : path, csv: csv)
        var s = InspectSummary(path: path, format: format)
        while let dive = try reader.next() {
            s.dives += 1
            meter?.dive()
            s.findings += reader.takeFindings()
            if let start = dive.startedAt {
                if s.firstStart.map({ start.wallClockSeconds < $0.wallClockSeconds }) ?? true { s.firstStart = start }
                if s.lastStart.map({ start.wallClockSeconds > $0.wallClockSeconds }) ?? true { s.lastStart = start }
            } else {
                s.dateless += 1
            }
            if let d = dive.maxDepth, d > (s.deepest?.depth ?? -1) { s.deepest = (d, dive.number, dive.startedAt) }
            if let t = dive.submergedTime, t > (s.longest?.seconds ?? -1) { s.longest = (t, dive.number, dive.startedAt) }
            s.samples += dive.profile?.sampleCount ?? 0
        }
        s.findings += reader.takeFindings()
        s.formatVersion = reader.header.sourceVersion
        s.generator = reader.header.sourceGenerator
        return s
    } }
}

/// The text `umilog inspect` prints.
public func renderInspect(_ s: InspectSummary) -> String {
    func when(_ t: DiveDateTime?) -> String { t.map { $0.time == nil ? $0.date.description : "\($0.date) \($0.time!.description.prefix(5))" } ?? "?" }
    func which(_ number: Int?, _ start: DiveDateTime?) -> String {
        var parts: [String] = []
        if let number { parts.append("dive \(number)") }
        if let start { parts.append(when(start)) }
        return parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))"
    }
    var lines: [String] = []
    lines.append("file:       \(s.path == "-" ? "<stdin>" : s.path)")
    let formatName = s.format.entry.name
    lines.append("format:     \(formatName)\(s.formatVersion.map { " \($0)" } ?? "")")
    let generator = s.generator.map { "\($0.name)\($0.version.map { " \($0)" } ?? "")" } ?? "(not stated)"
    lines.append("generator:  \(generator)")
    lines.append("dives:      \(s.dives)\(s.dateless > 0 ? " (\(s.dateless) without a start date)" : "")")
    if let first = s.firstStart, let last = s.lastStart {
        lines.append("dates:      \(first.date) – \(last.date)")
    }
    if let d = s.deepest {
        lines.append("deepest:    \(HumanNumbers.metres(d.depth)) m\(which(d.dive, d.start))")
    }
    if let l = s.longest {
        lines.append("longest:    \(l.seconds / 60) min \(l.seconds % 60) s\(which(l.dive, l.start))")
    }
    lines.append("samples:    \(s.samples)")
    lines.append("findings:   \(summarizeFindings(s.findings))")
    return lines.joined(separator: "\n")
}

