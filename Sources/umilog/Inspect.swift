import ArgumentParser
import DiveKit

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a dive-log file: writer, dives, dates, deepest, longest, samples, findings."
    )

    @Argument(help: "The file to inspect (- for standard input).", completion: .file())
    var file: String

    @Option(help: ArgumentHelp("Input format, instead of sniffing it: \(FormatRegistry.list(FileFormat.readable)).", valueName: "format"))
    var from: ReadFormat?

    @Flag(name: .shortAndLong, help: "Also list the findings.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Draw no progress line.")
    var quiet = false

    @Flag(help: "Print the result as one JSON object (shape in the README).") var json = false

    @OptionGroup(title: "CSV input")
    var csv: CSVInputOptions

    func run() throws {
        if file != "-", isDirectory(file) { return try runDirectory() }
        let s: InspectSummary
        do {
            s = try DiveKit.inspect(path: file, format: from?.format, csv: csv.readOptions(), progress: Output.progress(quiet: quiet))
        } catch let e as DiveError {
            printError(describeWithFromHint(e))
            throw ExitCode(1)
        }
        if json { printLine(ResultJSON.inspect(s), colour: false); return }
        printLine(renderInspect(s))
        if verbose {
            for line in renderFindings(s.findings, perCode: Int.max) { printLine(line) }
        }
    }

    /// A directory: each dive log under it summarised in walk order (a blank line between),
    /// what is not one named as skipped; with --json one object, `{"files": [inspect],
    /// "skipped": [{"path", "code", "message"}], "errors": [error]}`.
    private func runDirectory() throws {
        let (logs, skipped) = diveLogs(under: file, csv: try csv.readOptions())
        var summaries: [InspectSummary] = []
        var errors: [DiveError] = []
        for log in logs {
            do {
                summaries.append(try DiveKit.inspect(path: log, format: from?.format, csv: csv.readOptions(), progress: Output.progress(quiet: quiet)))
            } catch let e as DiveError {
                errors.append(e)
            }
        }
        if json {
            printLine(ResultJSON.directory(summaries, skipped: skipped, errors: errors), colour: false)
        } else {
            for (i, s) in summaries.enumerated() {
                if i > 0 { printLine("") }
                printLine(renderInspect(s))
                if verbose { for line in renderFindings(s.findings, perCode: Int.max) { printLine(line) } }
            }
            if !quiet { for sk in skipped { printError("\(sk.path): skipped: \(sk.reason.message)") } }
            for e in errors { printError(describeWithFromHint(e)) }
        }
        if logs.isEmpty {
            printError("\(file): error[inspect.no-dive-logs]: the directory holds no dive log umilog reads (\(skipped.count) file\(skipped.count == 1 ? "" : "s") passed over)")
            throw ExitCode(1)
        }
        if !errors.isEmpty { throw ExitCode(1) }
    }
}
