import ArgumentParser
import DiveKit

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert dive logs to another format.",
        discussion: """
        The input format is sniffed from the bytes (--from forces it). Several inputs go to one \
        output, or to one file each with -o DIR/. Output is written to an unnamed temporary \
        file that gets its name only when it is complete, so neither a failure nor a killed \
        run leaves a half-written file or a temporary. A symbolic link is followed; a device \
        or FIFO (-o /dev/null) is written directly.

        Exit status: 0 converted, 1 an input could not be read, 2 bad usage.
        """
    )

    @Argument(help: "Input files (- for standard input).", completion: .file())
    var inputs: [String]

    @Option(help: ArgumentHelp("Output format: \(FormatHelp.written).", valueName: "format"))
    var to: WrittenFormat

    @Option(help: ArgumentHelp("Input format, instead of sniffing it: \(FormatHelp.read).", valueName: "format"))
    var from: ReadFormat?

    @Option(name: [.short, .customLong("output")], help: "Output file, - for standard output (the default), or a directory ending in / for one file per input.", completion: .file())
    var output: String?

    @Option(help: "Units for tabular output: metric or imperial.")
    var units: UnitSystem = .metric

    @Option(help: ArgumentHelp("How UDDF output writes a dive logged with a date and no time: bare (the date alone, as UDDF's documentation allows; strict XSD validators refuse it) or midnight (00:00, reported per dive).", valueName: "bare|midnight"))
    var dateOnlyStart: DateOnlyStart = .bare

    @OptionGroup(title: "CSV input")
    var csv: CSVInputOptions

    @Flag(name: .shortAndLong, help: "Print no findings and no progress line, only errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print a line per input (its format, dives and findings counted), and every finding.")
    var verbose = false

    @Flag(help: "Print every finding instead of the first three of each kind.")
    var allFindings = false

    func validate() throws {
        if let output, output != "-", !output.hasSuffix("/"), isDirectory(output) {
            throw ValidationError("-o \(output) is a directory: end it with / to write one file per input into it, or name a file")
        }
    }

    func run() throws {
        var options = ConvertOptions(to: to.format, from: from?.format, output: output, units: units, dateOnlyStart: dateOnlyStart)
        options.csv = try csv.readOptions()
        options.progress = Output.progress(quiet: quiet, resultToStandardOutput: output == nil || output == "-")
        let report = DiveKit.convert(inputs: inputs, options: options, standardOutput: FileSink(fd: 1, path: "-"))
        if !quiet { for skipped in report.skipped { printError("\(skipped.path): skipped: \(skipped.reason.message)") } }
        var findings: [Finding] = []
        for input in report.inputs {
            findings += input.findings
            if let error = input.error { printError(describeWithFromHint(error)) }
        }
        if verbose && !quiet {
            for input in report.inputs where input.error == nil {
                printError("\(input.path): \(input.format?.rawValue ?? "?"), \(input.dives) dive\(input.dives == 1 ? "" : "s"); \(summarizeFindings(input.findings))")
            }
        }
        if !quiet {
            for line in renderFindings(findings, perCode: allFindings || verbose ? Int.max : 3) { printError(line) }
        }
        let dives = report.inputs.filter { $0.error == nil }.reduce(0) { $0 + $1.dives }
        let failed = report.inputs.filter { $0.error != nil }.count
        if !quiet || failed > 0 {
            let target = report.outputs.isEmpty ? (output == nil || output == "-" ? "standard output" : "nothing written") : report.outputs.joined(separator: ", ")
            var line = "umilog: \(dives) dive\(dives == 1 ? "" : "s") from \(report.inputs.count - failed) of \(max(report.inputCount, report.inputs.count)) file\(max(report.inputCount, report.inputs.count) == 1 ? "" : "s") → \(failed > 0 && report.outputs.isEmpty ? "nothing written" : target); \(summarizeFindings(findings))"
            if failed > 0 { line += "; \(failed) failed" }
            if report.lostDives > 0 { line += "; \(report.lostDives) dive\(report.lostDives == 1 ? "" : "s") not carried" }
            printError(line)
        }
        if report.failed { throw ExitCode(1) }
    }
}
