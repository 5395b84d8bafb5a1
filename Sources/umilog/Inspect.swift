import ArgumentParser
import DiveKit

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a dive-log file: writer, dives, dates, deepest, longest, samples, findings."
    )

    @Argument(help: "The file to inspect (- for standard input).")
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
}
