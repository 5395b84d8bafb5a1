import DiveArchive
import DiveCSV
import DiveJSON
import DiveUDDF
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `convert` runs.
public struct ConvertOptions: Sendable {
    /// The output format.
    public var to: FileFormat
    /// Force the input format instead of sniffing it.
    public var from: FileFormat?
    /// A file, `-` or `nil` for standard output, or a directory (a path ending in `/`, made
    /// when missing) for one output per input. A directory named without the `/` is an error
    /// (`io.output-is-directory`); a symbolic link is followed; a device or FIFO is written
    /// directly (see `AtomicFile`).
    public var output: String?
    /// Metric or imperial units for the formats that choose (CSV).
    public var units: UnitSystem
    /// The `exported_at` of DiveJSON output; `nil` for now (see ``exportTimestamp()``).
    public var exportedAt: String?
    /// How UDDF output spells a dive logged with a date and no time.
    public var dateOnlyStart: DateOnlyStart
    /// What a CSV input does not say (date order, a profile's start, column meanings).
    public var csv = CSVReadOptions()
    /// Reports how far the job has got (bytes read, dives), for a progress line.
    public var progress: JobProgress?

    /// Makes options for converting to `to`; the rest as `convert`'s defaults (sniffed input, standard output, metric, now).
    public init(to: FileFormat, from: FileFormat? = nil, output: String? = nil, units: UnitSystem = .metric, exportedAt: String? = nil,
                dateOnlyStart: DateOnlyStart = .bare) {
        self.to = to; self.from = from; self.output = output; self.units = units; self.exportedAt = exportedAt
        self.dateOnlyStart = dateOnlyStart
    }
}

/// What happened to one input.
public struct InputReport: Sendable {
    /// The input as the user named it.
    public var path: String
    /// The format the input was read as; `nil` when it could not be told.
    public var format: FileFormat?
    /// Dives read from the input.
    public var dives = 0
    /// What reading and writing the input found, in order.
    public var findings: [Finding] = []
    /// The fatal error that stopped this input, if any.
    public var error: DiveError?
    /// Where its dives were written.
    public var output: String?
    /// Dives of this input its findings say were not carried at all.
    public var lostDives: Int { findings.reduce(0) { $0 + $1.lostDives } }

    /// Makes an empty report for the input at `path`.
    public init(path: String) { self.path = path }
}

/// What `convert` did, input by input.
public struct ConversionReport: Sendable {
    /// One report per input, in the order read.
    public var inputs: [InputReport] = []
    /// Files a directory walk passed over: not dive logs umilog reads (named, with why).
    public var skipped: [SkippedFile] = []
    /// How many files were to be read: those named, and the dive logs under the directories named.
    public var inputCount = 0
    /// Files written (not standard output).
    public var outputs: [String] = []
    /// True when any input failed.
    /// An input could not be read, or a dive was lost: the run is not a success.
    public var failed: Bool { inputs.contains { $0.error != nil || $0.lostDives > 0 } }
    /// Dives the findings say were not carried at all.
    public var lostDives: Int { inputs.reduce(0) { $0 + $1.lostDives } }
}

/// Converts `inputs` as `options` says, writing each output through a temporary file that
/// gets the output's name only when everything that goes into it was read without error
/// (`AtomicFile`: unnamed until then, so not even a killed run leaves one behind).
///
/// - Parameters:
///   - given: the files to read (`-`: standard input), each in the format its bytes say.
///   - options: the output format and where it goes, and how inputs are read.
///   - standardOutput: where `-o -` (or no `-o`) writes.
public func convert(inputs given: [String], options: ConvertOptions, standardOutput: ByteSink) -> ConversionReport {
    var report = ConversionReport()
    // A directory stands for the dive logs under it, walked as validate and import walk it:
    // what is not a dive log umilog reads is passed over and listed in `skipped`.
    var inputs: [String] = []
    for input in given {
        guard input != "-", isDirectory(input) else { inputs.append(input); continue }
        let (logs, skipped) = diveLogs(under: input, csv: options.csv)
        report.skipped += skipped
        if logs.isEmpty {
            var r = InputReport(path: input)
            r.error = DiveError("convert.no-dive-logs", "the directory holds no dive log umilog reads (\(skipped.count) file\(skipped.count == 1 ? "" : "s") passed over)", at: SourceLocation(file: input))
            report.inputs.append(r)
            return report
        }
        inputs += logs
    }
    report.inputCount = inputs.count
    let meter = ProgressMeter.make(options.progress, files: inputs)
    defer { meter?.finish() }
    let directoryMode = options.output?.hasSuffix("/") ?? false
    if directoryMode, let dir = options.output, !isDirectory(dir) {
        if mkdir(dir, 0o755) != 0 && errno != EEXIST {
            var r = InputReport(path: dir)
            r.error = DiveError("io.create", "cannot create the output directory: \(String(cString: strerror(errno)))", at: SourceLocation(file: dir))
            report.inputs.append(r)
            return report
        }
    }
    if directoryMode {
        var used: [String: String] = [:]
        for input in inputs {
            var r = InputReport(path: input)
            let name = outputName(for: input, format: options.to)
            let destination = joinPath(options.output!, name)
            if let other = used[destination] {
                r.error = DiveError("convert.output-collision", "its output \(destination) would overwrite the one written for \(other); convert them into separate directories", at: SourceLocation(file: input))
                report.inputs.append(r)
                continue
            }
            used[destination] = input
            do {
                let output = try OutputBuilder(options, destination: destination, standardOutput: standardOutput)
                read(input, options: options, into: output, report: &r, meter: meter)
                if r.error == nil {
                    try output.commit(standardOutput: standardOutput)
                    r.findings += output.headerFindings.map { $0.locatedIn(input) }
                    r.output = destination
                    report.outputs.append(destination)
                }
            } catch let e as DiveError {
                r.error = e
            } catch {
                r.error = DiveError("io.write", "\(error)", at: SourceLocation(file: destination))
            }
            report.inputs.append(r)
        }
        return report
    }
    let destination = options.output == "-" ? nil : options.output
    do {
        let output = try OutputBuilder(options, destination: destination, standardOutput: standardOutput)
        for input in inputs {
            var r = InputReport(path: input)
            read(input, options: options, into: output, report: &r, meter: meter)
            r.output = destination ?? "-"
            report.inputs.append(r)
            if r.error != nil { return report }
        }
        try output.commit(standardOutput: standardOutput)
        if let last = report.inputs.indices.last {
            report.inputs[last].findings += output.headerFindings.map { $0.locatedIn(report.inputs[last].path) }
        }
        if let destination { report.outputs.append(destination) }
    } catch let e as DiveError {
        var r = InputReport(path: destination ?? "-")
        r.error = e
        report.inputs.append(r)
    } catch {
        var r = InputReport(path: destination ?? "-")
        r.error = DiveError("io.write", "\(error)", at: SourceLocation(file: destination ?? "-"))
        report.inputs.append(r)
    }
    return report
}

/// Writes every dive `source` hands out (a logbook database's, say) as `options.to`, exactly as
/// ``convert(inputs:options:standardOutput:)`` writes a file's: to `options.output` through a
/// temporary file that gets its name when complete, or to standard output. `name` stands for
/// the source in the report; `divesTotal`, when known, how many dives it holds (for progress).
public func convert(source: any DiveSource, name: String, divesTotal: Int? = nil, options: ConvertOptions, standardOutput: ByteSink) -> ConversionReport {
    var report = ConversionReport()
    var r = InputReport(path: name)
    let meter = options.progress.map { ProgressMeter($0, bytesTotal: nil, files: 1, divesTotal: divesTotal) }
    defer { meter?.finish() }
    let destination = options.output == "-" ? nil : options.output
    do {
        let output = try OutputBuilder(options, destination: destination, standardOutput: standardOutput)
        do {
            while let dive = try source.next() {
                try output.write(dive, header: source.header)
                r.dives += 1
                meter?.dive()
                r.findings += source.takeFindings()
                r.findings += output.takeFindings().map { $0.locatedIn(name) }
            }
        } catch {
            r.findings += source.takeFindings()
            throw error
        }
        r.findings += source.takeFindings()
        output.merge(source.header)
        try output.commit(standardOutput: standardOutput)
        r.findings += output.headerFindings.map { $0.locatedIn(name) }
        r.output = destination ?? "-"
        if let destination { report.outputs.append(destination) }
    } catch let e as DiveError {
        r.error = e
    } catch {
        r.error = DiveError("io.write", "\(error)", at: SourceLocation(file: destination ?? "-"))
    }
    report.inputs.append(r)
    return report
}

/// Reads one input into `output`, recording what happened in `report`.
private func read(_ input: String, options: ConvertOptions, into output: OutputBuilder, report: inout InputReport, meter: ProgressMeter?) {
    meter?.beginFile(input)
    defer { meter?.endFile() }
    do {
        try ProgressMeter.measuring(meter) { try withInputFile(input) { path in
            let format = try options.from ?? detectFormat(path: path, displayName: input, csv: options.csv)
            report.format = format
            do {
                // Read on one core while the writer writes on the other.
                let reader = ReadAhead(try openReader(path: path, format: format, displayName: input == "-" ? "<stdin>" : input, csv: options.csv))
                // What the reader found before an error stops it is reported beside the error.
                defer { report.findings += reader.takeFindings() }
                while var dive = try reader.next() {
                    // Two inputs can give one output a dive id twice: a file that records no id
                    // for its dive (FIT, Suunto's and Shearwater's exports) has an identity that is
                    // only its place in the file, the same for every such file.
                    if !output.claim(dive.uuid) {
                        let id = dive.uuid
                        dive.uuid = Identity.uuid5(namespace: id, name: "input:\(input)#\(report.dives)")
                        output.claim(dive.uuid)
                        report.findings.append(Finding(.resolved, "convert.id-collision",
                            "the dive's id \(id) is that of a dive an earlier input gave this output" +
                            (dive.provenance?.positionalIdentity == true ? " (here it only says where the dive lies in its file)" : "") +
                            "; it is written under an id of its own, \(dive.uuid)",
                            at: SourceLocation(file: input, line: dive.provenance?.line, path: dive.sourcePath(else: report.dives))))
                    }
                    try output.write(dive, header: reader.header)
                    report.dives += 1
                    meter?.dive()
                    report.findings += reader.takeFindings()
                    report.findings += output.takeFindings().map { $0.locatedIn(input) }
                }
                output.merge(reader.header)
            } catch let e as DiveError where options.from != nil && report.dives == 0 {
                throw explainingForcedFormat(e, path: path, displayName: input, forced: format)
            }
        } }
    } catch let e as DiveError {
        report.error = e
    } catch {
        report.error = DiveError("io.read", "\(error)", at: SourceLocation(file: input))
    }
}

/// The format of the file at `path`, from its bytes, whatever its name ends with: the one
/// decision `convert`, `import`, `validate`, `inspect` and `csv inspect` ask. A table is CSV
/// only when it is a dive table (`requireDiveTable(path:displayName:csv:)`), read with the
/// CSV options the command was given.
public func detectFormat(path: String, displayName: String? = nil, csv: CSVReadOptions = CSVReadOptions()) throws -> FileFormat {
    let name = displayName ?? path
    return try detectFormat(path: path, head: Sniffer.head(path: path, displayName: name), displayName: name, csv: csv)
}

/// ``detectFormat(path:displayName:csv:)`` for a file whose first bytes were read already.
func detectFormat(path: String, head: [UInt8], displayName name: String, csv: CSVReadOptions) throws -> FileFormat {
    let format: FileFormat
    do {
        format = try detectFormat(head: head, displayName: name)
    } catch let e as DiveError where e.code == "format.unknown-zip" {
        // A zip is read like a folder: any entry that is a dive log makes it one.
        guard ArchiveDiveSource.holdsDiveLog(path: path, displayName: name, csv: csv) else { throw e }
        return .zip
    }
    if format == .csv { try requireDiveTable(path: path, displayName: name, csv: csv) }
    return format
}

/// Throws `format.not-a-dive-log` when a file the sniffer reads as a table has no column a dive
/// log has — no date, time, depth or duration the dictionary, a preset or the user's mapping
/// names (a manifest, a price list, prose whose sentences hold commas). A table the reader
/// cannot even lay out is left to the reader, which says why; a spreadsheet's flattening of an
/// XML log is one, refused by the reader as such (§10.15).
func requireDiveTable(path: String, displayName name: String, csv: CSVReadOptions) throws {
    guard let reader = try? CSVDiveReader(path: path, displayName: name, options: csv, readingDateOrder: false),
          reader.layout.understandsNothing, reader.problem?.code != "csv.flattened-xml" else { return }
    let columns = reader.layout.columns.prefix(3).map { "\"\($0.name)\"" }.joined(separator: ", ")
    throw DiveError("format.not-a-dive-log", "the file is a table, but none of its columns is one a dive log has (\(columns)\(reader.layout.columns.count > 3 ? " …" : "")); if it is one, name them with --map 'COLUMN=FIELD'",
                    at: SourceLocation(file: name, line: 1))
}

/// The format of a file whose first bytes (at most ``Sniffer/headSize``) are `head`; a dive
/// log in a format umilog recognises but does not read is `format.unsupported-input`, naming it.
func detectFormat(head: [UInt8], displayName name: String) throws -> FileFormat {
    switch Sniffer.sniff(head, isWholeInput: head.count < Sniffer.headSize) {
    case .format(let f): return f
    case .unread(let format, let root):
        // A name that is already a noun phrase ("an SQLite database of …") is said as it is.
        let named = format.hasPrefix("a ") || format.hasPrefix("an ") ? format : "a \(format) logbook"
        let what = named + (root.map { " (root element <\($0)>)" } ?? "")
        throw DiveError("format.unsupported-input", "the file is \(what), which umilog does not read yet", at: SourceLocation(file: name, line: 1))
    case .otherXML(let root):
        throw DiveError("format.unknown-xml", "the file is XML with root element <\(root)>, which is not a dive-log format umilog reads (it reads \(readableNames))", at: SourceLocation(file: name, line: 1))
    case .unknown:
        if head.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw DiveError("format.empty", head.isEmpty ? "the file is empty" : "the file holds only white space", at: SourceLocation(file: name))
        }
        if let zip = ZipPeek.firstEntry(head, limit: 2048) {
            throw DiveError("format.unknown-zip", "the file is a zip archive \(zipContent(zip)), which is not a dive-log export umilog reads (it reads \(readableNames))",
                            at: SourceLocation(file: name))
        }
        throw DiveError("format.unknown", "the file is not a dive log umilog recognises (\(readableNames))", at: SourceLocation(file: name, line: 1))
    }
}

/// What a zip archive's first entry is, for the message that refuses it.
private func zipContent(_ zip: ZipPeek) -> String {
    var what = "whose first entry is \(zip.name)"
    let text = Sniffer.sniffInput(zip.prefix, isWholeInput: false)
    if let root = text.xmlRoot { what += ", XML with root element <\(root)>" }
    return what
}

/// The formats umilog reads, by name, for messages ("UDDF, DiveJSON, CSV or Subsurface XML").
var readableNames: String {
    var names: [String] = []
    for f in FileFormat.readable where !names.contains(f.entry.name) && f != .csvProfile { names.append(f.entry.name) }
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
}

/// What a file met in a directory is to umilog.
public enum FileKind: Sendable {
    /// A dive log umilog reads.
    case readable(FileFormat)
    /// A dive log in a format umilog recognises but does not read yet, by name.
    case unsupported(format: String, DiveError)
    /// Not a dive log umilog recognises (JSON that is not DiveJSON, other XML, prose…).
    case notADiveLog(DiveError)
}

/// The files under `directory` that are dive logs umilog reads, in walk order, and those
/// passed over with why; a file that cannot be classified (unreadable) is kept, so that
/// reading it reports why.
public func diveLogs(under directory: String, csv: CSVReadOptions = CSVReadOptions()) -> (logs: [String], skipped: [SkippedFile]) {
    var logs: [String] = [], skipped: [SkippedFile] = []
    for file in walk(directory) {
        switch try? classifyFile(file, csv: csv) {
        case .readable?, nil: logs.append(file)
        case .unsupported(_, let e)?, .notADiveLog(let e)?: skipped.append(SkippedFile(path: file, reason: e))
        }
    }
    return (logs, skipped)
}

/// Classifies a file from its first bytes, as `validate` and `import` walk directories: only an
/// unreadable file throws.
public func classifyFile(_ path: String, csv: CSVReadOptions = CSVReadOptions()) throws -> FileKind {
    let head = try Sniffer.head(path: path, displayName: path)
    do {
        let format = try detectFormat(path: path, head: head, displayName: path, csv: csv)
        if format == .json && !Sniffer.declaresDiveJSON(head) {
            return .notADiveLog(DiveError("format.unknown-json", "the file is JSON but not a DiveJSON document (it does not begin with \"format\": \"divejson\")",
                                          at: SourceLocation(file: path, line: 1)))
        }
        return .readable(format)
    } catch let e as DiveError where e.code == "format.unsupported-input" {
        if case .unread(let name, _) = Sniffer.sniff(head, isWholeInput: head.count < Sniffer.headSize) { return .unsupported(format: name, e) }
        return .unsupported(format: "dive-log", e)
    } catch let e as DiveError where e.code.hasPrefix("format.") {
        return .notADiveLog(e)
    }
}

/// `e`, an error reading a file in a format forced with `--from`, saying which format the
/// file's bytes say it is when that is another.
func explainingForcedFormat(_ e: DiveError, path: String, displayName: String, forced format: FileFormat) -> DiveError {
    var e = e
    if let head = try? Sniffer.head(path: path, displayName: displayName),
       case .format(let sniffed) = Sniffer.sniff(head, isWholeInput: head.count < Sniffer.headSize), sniffed != format {
        e.message += "; the file looks like \(sniffed.entry.name) (--from \(sniffed.rawValue), or leave --from out)"
    }
    return e
}

/// Runs `body` with a path to read `input` from; standard input (`-`) is spooled to a
/// temporary file first (one with no name) so that its format can be sniffed.
func withInputFile<T>(_ input: String, _ body: (String) throws -> T) throws -> T {
    guard input == "-" else { return try body(input) }
    let spool = try spoolStandardInput()
    return try body(spool.readPath)
}

/// Standard input, copied to a temporary file with no name that is read back by its
/// ``AtomicFile/readPath`` while the returned file lives.
func spoolStandardInput() throws -> AtomicFile {
    let spool = try AtomicFile(destination: nil, readableByPath: true)
    try InputFile.copy(0, file: "<stdin>", to: spool.sink)
    return spool
}

func outputName(for input: String, format: FileFormat) -> String {
    var base = input == "-" ? "stdin" : String(input.split(separator: "/").last ?? "output")
    if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = String(base[..<dot]) }
    let ext = format.entry.fileExtension ?? format.rawValue
    return "\(base).\(ext)"
}

func joinPath(_ dir: String, _ name: String) -> String {
    dir.hasSuffix("/") ? dir + name : dir + "/" + name
}

/// One output being built: the writer for its format and the temporary file(s) behind it.
final class OutputBuilder {
    private let destination: String?
    /// The file the body is written to; nil when it streams straight to standard output.
    private let body: AtomicFile?
    /// For the formats written through a spool (their end decides their start): the output
    /// file, created up front so that an unwritable destination fails before any reading.
    private var final: AtomicFile?
    private let writer: any DiveWriter
    /// What the writer reported while writing the end of the document (header records).
    private(set) var headerFindings: [Finding] = []
    /// The header of every input so far, merged, for formats that write it at the end.
    private(set) var header = LogbookHeader()

    /// - Parameter standardOutput: where a format that writes as it reads (CSV) streams when
    ///   there is no destination: a pipe gets its first row before the input is read whole,
    ///   and a reader that closes it early (`| head`) ends the run.
    init(_ options: ConvertOptions, destination: String?, standardOutput: ByteSink) throws {
        guard let make = options.to.entry.writer else {
            throw DiveError("format.not-written", "umilog does not write \(options.to.entry.name)", at: SourceLocation(file: destination ?? "-"))
        }
        self.destination = destination
        let writeOptions = WriteOptions(units: options.units, exportedAt: options.exportedAt ?? exportTimestamp(), dateOnlyStart: options.dateOnlyStart)
        // Which kind of writer this is decides the files behind it, so ask a throwaway first.
        let spools = make(DiscardSink(), writeOptions).spoolsBody
        if spools {
            body = try AtomicFile(destination: nil)
            final = try destination.map { try AtomicFile(destination: $0) }
            writer = make(body!.sink, writeOptions)
        } else if let destination {
            body = try AtomicFile(destination: destination)
            writer = make(body!.sink, writeOptions)
        } else {
            body = nil
            writer = make(standardOutput, writeOptions)
        }
    }

    func write(_ dive: Dive, header: LogbookHeader) throws { try writer.write(dive, header: header) }

    /// The dive ids written so far: one output never holds one twice.
    private var ids = Set<String>()
    /// Takes `id` for a dive of this output; false when a dive of it already has it.
    @discardableResult func claim(_ id: String) -> Bool { ids.insert(id).inserted }

    /// Findings the writer reported since the last call (what the format could not carry).
    func takeFindings() -> [Finding] { writer.takeFindings() }

    /// Adds what one input's header holds to the merged header (records by uuid, once).
    func merge(_ h: LogbookHeader) { header.merge(h) }

    /// Finishes the output and moves it into place (or onto standard output).
    func commit(standardOutput: ByteSink) throws {
        if writer.spoolsBody, let body {
            let target: ByteSink = final?.sink ?? standardOutput
            try writer.finish(header: header, to: target) { consume in
                try withoutActuallyEscaping(consume) { try body.copy(to: target, through: $0) }
            }
            headerFindings = writer.takeFindings()
            try final?.commit()
            return
        }
        guard let body else {
            try writer.finish(header: header, to: standardOutput) { _ in }
            headerFindings = writer.takeFindings()
            return
        }
        try writer.finish(header: header, to: body.sink) { _ in }
        headerFindings = writer.takeFindings()
        try body.commit()
    }
}

/// A sink that keeps nothing.
final class DiscardSink: ByteSink {
    func write(_ bytes: UnsafeRawBufferPointer) throws {}
}

extension Finding {
    /// The finding with `file` as its file when it names none (a writer's finding about the
    /// record it could not carry is about the input that record came from).
    func locatedIn(_ file: String) -> Finding {
        guard location.file == nil else { return self }
        var f = self
        f.location.file = file == "-" ? "<stdin>" : file
        return f
    }
}
