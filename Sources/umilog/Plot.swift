import ArgumentParser
import DiveKit
import DiveStore

struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a dive's profile as SVG (or PNG): depth, temperature, tank pressure, ceiling, NDL and events.",
        discussion: """
            The dive is the Nth of FILE (any format umilog reads; --dive may be left out when \
            the file holds one dive), or, without FILE, the logbook's dive numbered N (--db, \
            or the default logbook). Depth runs downward in metres against time in minutes; \
            temperature (°C), each tank's pressure (bar) and a recorded NDL (min) are thin \
            lines with their own scales at the right; the area above a recorded decompression \
            ceiling is shaded red; gas switches, bookmarks, alarms and stops are marked.

            The SVG goes to -o PATH (whole or not at all) or standard output. --png, or an \
            -o name ending .png, writes the PNG rsvg-convert (librsvg) renders of it.

            Exit status: 0 written, 1 the input could not be read, its dive has no profile, \
            the logbook has no dive (or several) with the number, or the output could not be \
            written, 2 bad usage (no --dive for a file of several \
            dives, or one it does not have).
            """
    )

    @Argument(help: "The dive log (- for standard input); without it, the logbook.", completion: .file())
    var file: String?

    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }

    @Option(help: ArgumentHelp("The dive: its place in FILE (1 is the first), or its number in the logbook.", valueName: "N"))
    var dive: Int?

    @Option(name: .shortAndLong, help: "The output file (standard output when omitted or -).", completion: .file())
    var output: String?

    @Flag(help: "Write a PNG rendered by rsvg-convert instead of the SVG (also when -o ends in .png).")
    var png = false

    @Option(help: ArgumentHelp("Input format, instead of sniffing it: \(FormatRegistry.list(FileFormat.readable)).", valueName: "format"))
    var from: ReadFormat?

    @OptionGroup(title: "CSV input")
    var csv: CSVInputOptions

    func validate() throws {
        if file != nil, logbook.db != nil { throw ValidationError("plot FILE or --db PATH, not both") }
        if file == nil, dive == nil { throw ValidationError("name the logbook's dive to plot with --dive N") }
        if file != nil, let dive, dive < 1 { throw ValidationError("--dive \(dive): dives in a file are counted from 1") }
        if let output, output != "-", output.hasSuffix("/") || isDirectory(output) {
            throw ValidationError("-o \(output) is a directory: name the file to write")
        }
    }

    func run() throws {
        let svg: [UInt8]
        if let file {
            do {
                svg = try DiveKit.plotDive(path: file, format: from?.format, position: dive, csv: csv.readOptions())
            } catch let e as PlotChoiceError {
                let name = file == "-" ? "<stdin>" : file
                switch e {
                case .diveRequired(let count):
                    printError("Error: \(name) holds \(count) dives: name the one to plot with --dive 1…\(count)")
                case .outOfRange(let position, let count):
                    printError("Error: --dive \(position): \(name) holds \(count) dive\(count == 1 ? "" : "s")")
                }
                throw ExitCode(2)
            } catch let e as DiveError {
                printError(describeWithFromHint(e))
                throw ExitCode(1)
            }
        } else {
            let store = try open(db, create: false)
            let number = dive!
            svg = try DiveKit.plotDive(source: LogbookExport(store: store, scope: ExportScope(diveNumber: number)), name: db, number: number)
        }
        let asPNG = png || (output?.lowercased().hasSuffix(".png") ?? false)
        try DiveKit.writePlot(svg, to: output, png: asPNG)
    }
}
