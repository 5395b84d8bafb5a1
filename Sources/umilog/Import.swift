import ArgumentParser
import DiveKit
import DiveStore
#if canImport(Glibc)
import Glibc
#endif

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

    @Argument(help: "Files or directories to import.") var paths: [String]
    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }
    @Option(help: "What to do with a dive the logbook already has from another source: skip, merge or keep.") var onDuplicate: DuplicatePolicy = .skip
    @Flag(help: "Print the plan — insert, already imported, duplicate of #n, error — and change nothing.") var dryRun = false
    @Flag(name: .shortAndLong, help: "Print only the summary and failures.") var quiet = false
    @OptionGroup(title: "CSV input") var csv: CSVInputOptions

    func run() throws {
        let options = ImportOptions(onDuplicate: onDuplicate, dryRun: dryRun, csv: try csv.readOptions())
        let store = try open(db)
        let bar = isatty(2) == 1 && !quiet
        let report = store.importLogbooks(paths, options: options) { done, total, file in
            guard bar, total > 1 else { return }
            let width = 30
            let filled = total == 0 ? width : done * width / total
            let name = file.split(separator: "/").last.map(String.init) ?? ""
            let line = "\r[\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(done)/\(total) \(name.prefix(40))"
            FileHandleStderr.write(line + "\u{1B}[K")
            if done == total { FileHandleStderr.write("\r\u{1B}[K") }
        }
        for line in renderImport(report, verbose: !quiet) { print(line) }
        fflush(nil)
        for file in report.failed { if case .failed(let e) = file.status { printError(e.description) } }
        printError(importSummary(report))
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}

enum FileHandleStderr {
    static func write(_ s: String) {
        let bytes = Array(s.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

extension DuplicatePolicy: ExpressibleByArgument {}
