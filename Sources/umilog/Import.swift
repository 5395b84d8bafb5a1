import Foundation
import ArgumentParser
import DiveKit
import DiveStore

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import dive logs into a logbook database: files, and directories recursively, in any format umilog reads.",
        discussion: """
            Each file is imported in one transaction: all of its dives, or none. Importing the same \
            file again adds nothing. A dive that is already in the logbook from another source (its \
            start within 15 minutes, similar duration and depth) is a duplicate: --on-duplicate \
            skip leaves the logbook's dive as it is, merge adds the new source's recording, tanks \
            and gases to it, keep imports it as a dive of its own.

            Exit status: 0 every dive log imported, 1 a file failed (nothing of it was imported; \
            the others were), 2 bad usage.
            """
    )

    @Argument(help: "Files or directories to import.", completion: .file()) var paths: [String]
    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }
    @Option(help: "What to do with a dive the logbook already has from another source: skip, merge or keep.") var onDuplicate: DuplicatePolicy = .skip
    @Flag(help: "Change nothing: print what the import would do (with -v, dive by dive).") var dryRun = false
    @Flag(name: .shortAndLong, help: "Print only the summary and failures: no line per file, no progress.") var quiet = false
    @Flag(name: .shortAndLong, help: "Also print each dive's plan — inserted, already imported, duplicate of #n — and the findings.") var verbose = false
    @Flag(help: "Print the result as one JSON object (shape in the README).") var json = false
    @OptionGroup(title: "CSV input") var csv: CSVInputOptions

    func run() throws {
        var options = ImportOptions(onDuplicate: onDuplicate, dryRun: dryRun, csv: try csv.readOptions())
        options.progress = Output.progress(quiet: quiet)
        let report: ImportReport
        if dryRun && !FileManager.default.fileExists(atPath: db) {
            // A dry run changes nothing, so it makes no logbook either: the plan against an
            // empty one is worked out in a scratch directory, removed afterwards.
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("umilog-dry-run-\(getpid())").path
            try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            report = try open(scratch + "/logbook.sqlite").importLogbooks(paths, options: options)
        } else {
            report = try open(db).importLogbooks(paths, options: options)
        }
        if json {
            printLine(StoreJSON.importReport(report), colour: false)
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
            return
        }
        if !quiet { for line in renderImport(report, verbose: verbose) { printLine(line) } }
        for file in report.failed { if case .failed(let e) = file.status { printError(e.description) } }
        printError(importSummary(report))
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}

extension DuplicatePolicy: ExpressibleByArgument {}
