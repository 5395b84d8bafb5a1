import DiveCSV
import Dispatch
import DiveJSON
import DiveUDDF
#if canImport(Glibc)
import Glibc
#endif

/// How ``validate(paths:options:onFile:)`` checks files.
public struct ValidateOptions: Sendable {
    /// The least severity that makes a file fail (`--fail-on`): `error` unless set.
    public var failOn: Diagnostic.Severity
    /// Reports how far the job has got (bytes read, files), for a progress line.
    public var progress: JobProgress?

    /// Options failing on `failOn` and above.
    public init(failOn: Diagnostic.Severity = .error) { self.failOn = failOn }
}

/// What validating one file found.
public struct FileValidation: Sendable {
    /// The file as the user named it (or as a directory walk reached it).
    public var path: String
    /// The format sniffed from its bytes.
    public var format: FileFormat
    /// Every problem found, by line.
    public var diagnostics: [Diagnostic] = []

    /// How many diagnostics have exactly `severity`.
    public func count(_ severity: Diagnostic.Severity) -> Int { diagnostics.count { $0.severity == severity } }

    /// True when a diagnostic is at or above `threshold`.
    public func fails(at threshold: Diagnostic.Severity) -> Bool { diagnostics.contains { $0.severity >= threshold } }
}

/// A file a directory walk passed over because it is not a dive log umilog checks.
public struct SkippedFile: Sendable {
    /// The file as the walk reached it.
    public var path: String
    /// Why: `format.unknown`, `format.unknown-xml`, `format.unknown-json` or
    /// `format.unsupported-input`.
    public var reason: DiveError
}

/// What validating a set of files and directories found.
public struct ValidationReport: Sendable {
    /// The options the files were checked with (`failOn` decides what fails).
    public var options: ValidateOptions
    /// Every file checked, in order.
    public var files: [FileValidation] = []
    /// Files a directory walk passed over.
    public var skipped: [SkippedFile] = []
    /// Inputs that could not be checked: unreadable, or named explicitly and not a dive log.
    public var failures: [DiveError] = []

    /// An empty report for `options`.
    public init(options: ValidateOptions) { self.options = options }

    /// Every diagnostic of every file, in order.
    public var diagnostics: [Diagnostic] { files.flatMap(\.diagnostics) }
    /// Files with a diagnostic at or above the threshold.
    public var failingFiles: Int { files.count { $0.fails(at: options.failOn) } }
    /// How many diagnostics have exactly `severity`, over all files.
    public func count(_ severity: Diagnostic.Severity) -> Int { files.reduce(0) { $0 + $1.count(severity) } }

    /// `2` an input could not be checked, `1` a file has a diagnostic at or above the
    /// threshold, `0` otherwise.
    public var exitCode: Int32 { !failures.isEmpty ? 2 : (failingFiles > 0 ? 1 : 0) }
}

/// Validates dive-log files and directories (walked recursively in name order, hidden
/// entries skipped). Each file's format is sniffed from its bytes:
///
/// - UDDF: the UDDF 3.2.2 XML Schema (`UDDFSchemaValidator`, streaming) and, at the
///   same time on a second thread, the streaming reader, whose findings become warnings and
///   notes, with the `ModelChecker` over every dive;
/// - DiveJSON: the DiveJSON 1.0 schema and the spec's §3 rules (every issue an error),
///   then the model checks on a document without errors;
/// - CSV: DiveCSV's `checkCSVStructure(path:displayName:)`, then a read of its dives whose
///   findings become diagnostics (a lost dive, or a file that cannot be read, an error).
///
/// A file of another kind met in a directory is skipped (listed in `skipped`), and so is
/// JSON that does not name itself DiveJSON; named explicitly, a file that is not a dive log
/// is a failure, as is an input that cannot be read. `-` is standard input.
/// - Parameters:
///   - paths: files and directories to check (directories walked recursively).
///   - options: the least severity that fails a file.
///   - onFile: called with each file's result as soon as it is checked, so that a
///     caller can print as it goes.
public func validate(paths: [String], options: ValidateOptions = ValidateOptions(),
                     onFile: (FileValidation) -> Void = { _ in }) -> ValidationReport {
    var report = ValidationReport(options: options)
    let checker = FileChecker(options: options)
    /// Checks one input, recording its result or why it could not be checked.
    func run(_ name: String, _ body: () throws -> FileValidation) {
        do {
            let result = try body()
            report.files.append(result)
            onFile(result)
        } catch let e as DiveError {
            report.failures.append(e)
        } catch {
            report.failures.append(DiveError("io.read", "\(error)", at: SourceLocation(file: name)))
        }
    }
    // Directories are walked first, so that progress knows every file's size.
    let inputs = paths.map { input in (input, input == "-" || !isDirectory(input) ? nil : walk(input)) }
    let meter = ProgressMeter.make(options.progress, files: inputs.flatMap { $0.1 ?? [$0.0] })
    defer { meter?.finish() }
    /// Runs `body` for `file` with what it reads counted.
    func measured(_ file: String, _ body: () -> Void) {
        meter?.beginFile(file)
        ProgressMeter.measuring(meter, body)
        meter?.endFile()
    }
    for (input, walked) in inputs {
        guard let walked else {
            measured(input) {
                run(input) {
                    try withInputFile(input) { file in
                        let name = input == "-" ? "<stdin>" : input
                        return try checker.check(path: file, displayName: name, format: detectFormat(path: file, displayName: name))
                    }
                }
            }
            continue
        }
        for file in walked {
            measured(file) {
                let format: FileFormat
                do {
                    switch try classifyFile(file) {
                    case .readable(let f): format = f
                    case .unsupported(_, let e), .notADiveLog(let e):
                        report.skipped.append(SkippedFile(path: file, reason: e))
                        return
                    }
                } catch {
                    run(file) { throw error }
                    return
                }
                run(file) { try checker.check(path: file, displayName: file, format: format) }
            }
        }
    }
    return report
}


/// Checks one file of a known format; keeps the validators, each compiled once, for the
/// next file.
final class FileChecker {
    let options: ValidateOptions
    private var schema: UDDFSchemaValidator?
    private var json: DiveJSONValidator?

    init(options: ValidateOptions) { self.options = options }

    /// Throws a ``DiveError`` only when the file cannot be checked at all (`io.*`, or a
    /// validator that cannot start); everything wrong with its content is a diagnostic.
    func check(path: String, displayName: String, format: FileFormat) throws -> FileValidation {
        var result = FileValidation(path: displayName, format: format)
        do {
            if let check = format.entry.validate {
                result.diagnostics = try check(self, path, displayName)
            } else if let open = format.entry.open {
                result.diagnostics = try readerDiagnostics(try open(path, displayName, ReadOptions()), file: displayName)
            }
        } catch let e as DiveError where !e.code.hasPrefix("io.") {
            // What stops a validator part-way is a problem with the content, like any other.
            result.diagnostics.append(Diagnostic(.error, e.code, e.message, at: e.location))
        }
        // By line, what concerns no line (a count of what was left out) last; a stable sort
        // keeps each pass's own order within a line.
        result.diagnostics = result.diagnostics.enumerated()
            .sorted { a, b in
                let (la, lb) = (a.element.location.line ?? .max, b.element.location.line ?? .max)
                return la != lb ? la < lb : a.offset < b.offset
            }
            .map(\.element)
        return result
    }

    /// The schema on one thread, the reader and model checks on another: each pass
    /// streams the file, so the two together take about as long as the slower one.
    func checkUDDF(path: String, displayName: String) throws -> [Diagnostic] {
        let schema = try self.schema ?? UDDFSchemaValidator()
        self.schema = schema
        let passes = Passes(schema: schema)
        DispatchQueue.concurrentPerform(iterations: 2) { pass in
            if pass == 0 {
                do { passes.schemaDiagnostics = try passes.schema.validate(path: path, displayName: displayName) } catch {
                    passes.schemaError = error
                }
            } else {
                do { passes.readerDiagnostics = try uddfReaderDiagnostics(path: path, displayName: displayName) } catch {
                    passes.readerError = error
                }
            }
        }
        if let e = passes.schemaError ?? passes.readerError { throw e }
        // A file that is not well-formed stops both passes at the same place: say it once.
        let stopped = passes.schemaDiagnostics.contains { $0.code.hasPrefix("xml.") }
        return passes.schemaDiagnostics + passes.readerDiagnostics.filter { !(stopped && $0.code.hasPrefix("xml.")) }
    }

    /// The table's structure, then, when it has no error, a read of its dives as `convert`
    /// and `import` read them: a dive it would lose, a date order it cannot decide, columns
    /// it cannot name are errors here as they fail there. What both passes say of one line
    /// is said once.
    /// The two passes stream the file at once, on two cores.
    func checkCSV(path: String, displayName: String) throws -> [Diagnostic] {
        let passes = CSVPasses()
        DispatchQueue.concurrentPerform(iterations: 2) { pass in
            do {
                if pass == 0 {
                    passes.structure = try checkCSVStructure(path: path, displayName: displayName).diagnostics
                } else {
                    passes.read = try readerDiagnostics(CSVDiveReader(path: path, displayName: displayName), file: displayName)
                }
            } catch {
                if pass == 0 { passes.structureError = error } else { passes.readError = error }
            }
        }
        if let e = passes.structureError { throw e }
        let structure = passes.structure
        guard !structure.contains(where: { $0.severity == .error }) else { return structure }
        if let e = passes.readError { throw e }
        let said = Set(structure.map { "\($0.code)|\($0.location.line ?? 0)" })
        return structure + passes.read.filter { !said.contains("\($0.code)|\($0.location.line ?? 0)") }
    }

    /// The schema and the §3 rules a dive at a time on one thread, the reader and the model
    /// checks on another: each pass streams the file in flat memory, so the two together take
    /// about as long as the slower one. The model checks count only for a document without
    /// errors (they read what a valid document says).
    func checkDiveJSON(path: String, displayName: String) throws -> [Diagnostic] {
        let json = try self.json ?? DiveJSONValidator()
        self.json = json
        let passes = JSONPasses(validator: json)
        DispatchQueue.concurrentPerform(iterations: 2) { pass in
            if pass == 0 {
                do { passes.issues = try passes.validator.validateStreaming(path: path, displayName: displayName) } catch { passes.error = error }
            } else if let reader = try? DiveJSONReader(path: path, displayName: displayName) {
                var checker = ModelChecker(file: displayName, style: .json)
                var model: [Diagnostic] = []
                while let dive = try? reader.next() { model += checker.check(dive, header: reader.header) }
                model += checker.finish(header: reader.header)
                passes.model = model
            }
        }
        if let e = passes.error { throw e }
        return passes.issues.isEmpty ? passes.model : passes.issues.map(\.diagnostic)
    }
}

/// What the two passes over a DiveJSON document found, each written by its own pass only.
private final class JSONPasses: @unchecked Sendable {
    /// Used by the first pass only.
    let validator: DiveJSONValidator
    init(validator: DiveJSONValidator) { self.validator = validator }
    var issues: [ValidationIssue] = []
    var error: (any Error)?
    var model: [Diagnostic] = []
}

/// The two passes' results, each written by its own thread only, and read after both end.
/// What the two passes over a CSV found, each written by its own pass only.
private final class CSVPasses: @unchecked Sendable {
    var structure: [Diagnostic] = []
    var structureError: (any Error)?
    var read: [Diagnostic] = []
    var readError: (any Error)?
}

private final class Passes: @unchecked Sendable {
    let schema: UDDFSchemaValidator
    var schemaDiagnostics: [Diagnostic] = []
    var schemaError: (any Error)?
    var readerDiagnostics: [Diagnostic] = []
    var readerError: (any Error)?
    init(schema: UDDFSchemaValidator) { self.schema = schema }
}

/// The streaming reader's findings and the model checks over its
/// dives. A file the reader cannot read past a point gives its error as a diagnostic;
/// only a file that cannot be opened or read throws.
func uddfReaderDiagnostics(path: String, displayName: String) throws -> [Diagnostic] {
    try readerDiagnostics(try UDDFReader(path: path, displayName: displayName), file: displayName)
}

/// What reading a whole file with `reader` finds, and the model checks of every dive it reads:
/// well-formedness and the model, for a format with no schema of its own.
func readerDiagnostics(_ reader: any DiveSource, file displayName: String) throws -> [Diagnostic] {
    var checker = ModelChecker(file: displayName)
    var out: [Diagnostic] = []
    do {
        while let dive = try reader.next() {
            out += reader.takeFindings().map(Diagnostic.init)
            out += checker.check(dive, header: reader.header)
        }
        out += reader.takeFindings().map(Diagnostic.init)
        out += checker.finish(header: reader.header)
    } catch let e as DiveError where !e.code.hasPrefix("io.") {
        out += reader.takeFindings().map(Diagnostic.init)
        out.append(Diagnostic(.error, e.code, e.message, at: e.location))
    }
    return out
}

/// The regular files under `directory`, depth first in name order, without hidden
/// entries; symbolic links to directories are not followed.
public func walk(_ directory: String) -> [String] {
    var out: [String] = []
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    for name in listDirectory(directory).sorted() where !name.hasPrefix(".") {
        let path = base + "/" + name
        var st = stat()
        guard lstat(path, &st) == 0 else { continue }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: out += walk(path)
        case S_IFREG: out.append(path)
        case S_IFLNK: if !isDirectory(path) { out.append(path) }
        default: break
        }
    }
    return out
}
