import ArgumentParser
import DiveKit

/// `umilog csv …`: commands about CSV files.
struct CSV: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "csv",
        abstract: "Show how umilog reads a CSV file.",
        subcommands: [Inspect.self]
    )

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a CSV file's dialect, encoding, preset, column → field/unit mapping, date order and first dives as read.",
            discussion: "Exit status: 0 the file reads, 1 it does not (the reason is printed), 2 bad usage."
        )

        @Argument(help: "The CSV file.", completion: .file())
        var file: String

        @Option(help: ArgumentHelp("Save the mapping as understood (edit it, then pass it to --mapping).", valueName: "FILE.json"), completion: .file())
        var writeMapping: String?

        @Option(help: "How many dives to show.")
        var dives = 3

        @OptionGroup(title: "CSV input")
        var csv: CSVInputOptions

        @Flag(name: .shortAndLong, help: "Print no findings, only errors.") var quiet = false
        @Flag(name: .shortAndLong, help: "Print every finding instead of the first 20.") var verbose = false
        @Flag(help: "Print the result as one JSON object (shape in the README).") var json = false

        func run() throws {
            let inspection: CSVInspection
            do {
                inspection = try inspectCSV(path: file, options: try csv.readOptions(), dives: dives)
            } catch let e as DiveError {
                printError(e.description)
                throw ExitCode(1)
            }
            if json {
                printLine(ResultJSON.csvInspection(inspection), colour: false)
            } else {
                printText(inspection.text)
            }
            if !quiet && !json { for f in inspection.findings.prefix(verbose ? Int.max : 20) { printError(f.description) } }
            if let path = writeMapping {
                do {
                    try writeText(inspection.mapping.json + "\n", to: path)
                } catch {
                    printError("umilog: cannot write \(path): \(error)")
                    throw ExitCode(1)
                }
            }
            if inspection.error != nil { throw ExitCode(1) }
        }
    }
}
