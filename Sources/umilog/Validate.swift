import ArgumentParser
import DiveKit

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check dive logs: UDDF against the UDDF 3.2.2 schema and the model's rules, DiveJSON against its schema and the spec's rules, CSV for structure and then by reading it, Subsurface XML and every other format umilog reads (FIT, Suunto, Shearwater, MacDive, Diving Log, UDCF, DL7 …) by reading every dive: the reader's findings and the model's rules.",
        discussion: """
            Directories are checked recursively (hidden entries and files that are not dive logs \
            are skipped and listed); `-` reads standard input. Diagnostics go to standard output, \
            the summary and anything that could not be checked to standard error.

            Exit status: 0 nothing at or above the --fail-on severity, 1 something is, \
            2 an input could not be read or is not a dive log, or bad usage.
            """
    )

    @Argument(help: "Files or directories to check.", completion: .file())
    var paths: [String]

    @Option(help: "text, json (JSON Lines), github (workflow annotations) or sarif (SARIF 2.1.0).")
    var format: ValidationOutputFormat = .text

    @Option(help: "The least severity that fails: error or warning.")
    var failOn: FailOn = .error

    @Flag(name: .shortAndLong, help: "Print the diagnostics and failures only: no summary, no skipped files, no progress.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print a line per file checked, with its counts, on standard error.")
    var verbose = false

    enum FailOn: String, ExpressibleByArgument, CaseIterable {
        case error, warning
        var severity: Diagnostic.Severity { self == .error ? .error : .warning }
    }

    func run() throws {
        var options = ValidateOptions(failOn: failOn.severity)
        options.progress = Output.progress(quiet: quiet)
        let report = DiveKit.validate(paths: paths, options: options) { file in
            for d in file.diagnostics {
                if let line = renderDiagnostic(d, as: format) { printLine(line, colour: format == .text) }
            }
            if verbose {
                let counts = Diagnostic.Severity.allCases.reversed().map { "\(file.count($0)) \($0.rawValue)\(file.count($0) == 1 ? "" : "s")" }
                printError("\(file.path): \(file.format.rawValue), \(counts.joined(separator: ", "))")
            }
        }
        if format == .sarif { printLine(renderSARIF(report), colour: false) }
        if !quiet {
            for skipped in report.skipped { printError("\(skipped.path): skipped: \(skipped.reason.message)") }
        }
        for failure in report.failures { printError(failure.description) }
        if !quiet { printError(validationSummary(report)) }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}

extension ValidationOutputFormat: ExpressibleByArgument {}
