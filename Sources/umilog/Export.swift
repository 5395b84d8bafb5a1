import ArgumentParser
import DiveCore
import DiveKit
import DiveStore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export dives from a logbook database as UDDF, CSV, DiveJSON or Subsurface XML.",
        discussion: """
            Every dive, or those a scope picks: --dive N, --site WORDS (every word a word of \
            the site's name or an alias), --since DAY, --until DAY. (The older spelling of the \
            range, --from DAY and a second --to DAY, keeps working, with a note.) Output goes to -o PATH through an unnamed temporary file \
            that gets its name only when it is complete (a symbolic link is followed, a device \
            or FIFO written directly), or to standard output.

            A DiveJSON export is a backup: beside the dives and their records it carries, under \
            the extension key "umilog", where each dive came from, what backfill decided and \
            the site lists, and importing it into a logbook restores them.

            Exit status: 0 written, 1 the logbook could not be read or the output written, 2 bad usage.
            """
    )

    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }
    @Option(name: .customLong("to"), help: ArgumentHelp("The output format — \(FormatRegistry.list(FileFormat.writable)) — and, given again, the last day of a date range.", valueName: "FORMAT|DATE"), completion: .list(FileFormat.writable.map(\.rawValue)))
    var to: [String] = []
    @Option(name: .shortAndLong, help: "The output file (standard output when omitted or -).", completion: .file()) var output: String?
    @Option(help: "Only the dives with this number.") var dive: Int?
    @Option(help: "Only the dives at a site whose name or an alias holds every word of this (case, accents and punctuation do not matter).") var site: String?
    @Option(help: ArgumentHelp("Only the dives on or after this day.", valueName: "YYYY-MM-DD")) var since: String?
    @Option(help: ArgumentHelp("Only the dives on or before this day.", valueName: "YYYY-MM-DD")) var until: String?
    @Option(help: ArgumentHelp("The older spelling of --since.", visibility: .hidden)) var from: String?
    @Option(help: "Units of CSV output: metric or imperial.") var units: UnitSystem = .metric
    @Flag(name: .shortAndLong, help: "Print no findings and no progress line, only errors.") var quiet = false
    @Flag(name: .shortAndLong, help: "Print every finding instead of the first three of each kind.") var verbose = false

    private var parsed: (format: FileFormat, through: LocalDate?) {
        get throws {
            var format: FileFormat?
            var through: LocalDate?
            for value in to {
                if let f = FileFormat(rawValue: value), f.entry.writer != nil {
                    guard format == nil else { throw ValidationError("--to names two formats (\(format!.rawValue), \(value))") }
                    format = f
                } else if let d = Self.day(value) {
                    guard through == nil else { throw ValidationError("--to names two last days") }
                    through = d
                } else {
                    throw ValidationError("--to \(value) is neither a format (\(FileFormat.writable.map(\.rawValue).joined(separator: ", "))) nor a day (YYYY-MM-DD)")
                }
            }
            guard let format else { throw ValidationError("name the output format with --to \(FileFormat.writable.map(\.rawValue).joined(separator: "|"))") }
            return (format, through)
        }
    }

    private var scopeText: String {
        [dive.map { "--dive \($0)" }, site.map { "--site \"\($0)\"" }, since.map { "--since \($0)" }, from.map { "--from \($0)" },
         until.map { "--until \($0)" }, (try? parsed.through)?.flatMap { $0 }.map { "--to \($0)" }].compactMap { $0 }.joined(separator: " ")
    }

    /// The first and last day: --since/--until, or the older --from and a second --to.
    private var range: (from: LocalDate?, through: LocalDate?) {
        get throws { (since.flatMap(Self.day) ?? from.flatMap(Self.day), try until.flatMap(Self.day) ?? parsed.through) }
    }

    static func day(_ text: String) -> LocalDate? {
        guard let (d, notes) = DiveDateTime.parse(text), notes.dateOnly, d.time == nil else { return nil }
        return d.date
    }

    func validate() throws {
        _ = try parsed
        for (name, value) in [("--since", since), ("--until", until), ("--from", from)] {
            if let value, Self.day(value) == nil { throw ValidationError("\(name) \(value) is not a day (YYYY-MM-DD)") }
        }
        if since != nil && from != nil { throw ValidationError("--since and --from both give the first day: give it once, with --since") }
        if until != nil, try parsed.through != nil { throw ValidationError("--until and a second --to both give the last day: give it once, with --until") }
        if let output, output != "-", output.hasSuffix("/") || isDirectory(output) {
            throw ValidationError("-o \(output) is a directory: name the file to write")
        }
    }

    func run() throws {
        let (format, olderThrough) = try parsed
        if !quiet, from != nil || olderThrough != nil {
            printError("umilog: note: the date range is --since DAY --until DAY now; --from and a second --to keep working")
        }
        let store = try open(db, create: false)
        let (first, last) = try range
        let scope = ExportScope(diveNumber: dive, site: site, from: first, through: last)
        // A DiveJSON export carries the logbook's own state too, so that importing it restores it.
        let source = try LogbookExport(store: store, scope: scope, logbookState: format == .json)
        if source.count == 0 && !scope.isAll {
            printError("\(db): no dive matches \(scopeText); nothing written")
            throw ExitCode(1)
        }
        var options = ConvertOptions(to: format, output: output, units: units)
        options.progress = Output.progress(quiet: quiet, resultToStandardOutput: output == nil || output == "-")
        let report = DiveKit.convert(source: source, name: db, divesTotal: source.count, options: options, standardOutput: FileSink(fd: 1, path: "-"))
        let findings = report.inputs.flatMap(\.findings)
        for input in report.inputs { if let e = input.error { printError(e.description) } }
        if !quiet { for line in renderFindings(findings, perCode: verbose ? Int.max : 3) { printError(line) } }
        let dives = report.inputs.reduce(0) { $0 + $1.dives }
        if !quiet || report.failed {
            printError("umilog: \(dives) dive\(dives == 1 ? "" : "s") from \(db) → \(report.outputs.first ?? (report.failed ? "nothing written" : "standard output")); \(summarizeFindings(findings))")
        }
        if report.failed { throw ExitCode(1) }
    }
}
