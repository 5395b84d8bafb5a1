import ArgumentParser
import DiveKit

struct Conform: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a DiveJSON conformance corpus (valid/, invalid/, reader pairs, write/ pairs).",
        discussion: "Exit status: 0 every case passed, 1 a case failed, 2 the corpus's shape is wrong (pairs for a format umilog does not read) or bad usage."
    )

    @Argument(help: "The corpus directory (e.g. fixtures/).", completion: .directory)
    var directory: String

    @Flag(help: "Also validate every document a reader pair produces.")
    var strict = false

    @Option(help: "Run only this format's pair directories (valid/ and invalid/ always run).")
    var only: FileFormat?

    @Flag(name: .shortAndLong, help: "Print only the failures, not each section's count or the summary.") var quiet = false

    func run() throws {
        guard isDirectory(directory) else {
            printError("\(directory): error[conform.not-a-directory]: not a directory")
            throw ExitCode(2)
        }
        let report = DiveKit.conform(directory: directory, strict: strict, only: only)
        if !quiet {
            for section in report.sections { printLine("\(section.name): \(section.passed)/\(section.total) passed") }
        }
        for failure in report.failures { printLine("FAIL \(failure.file): \(failure.reason)") }
        for shape in report.shapeErrors { printError("error[conform.shape]: \(shape)") }
        let passed = report.sections.reduce(0) { $0 + $1.passed }
        let total = report.sections.reduce(0) { $0 + $1.total }
        if !quiet || report.exitCode != 0 { printError("umilog: \(passed) of \(total) cases passed\(report.failures.isEmpty ? "" : "; \(report.failures.count) failed")\(report.shapeErrors.isEmpty ? "" : "; corpus shape: \(report.shapeErrors.count) problem\(report.shapeErrors.count == 1 ? "" : "s")")") }
        throw ExitCode(report.exitCode)
    }
}
