import ArgumentParser
import DiveKit

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check dive-log files: DiveJSON against its schema and the spec's rules.",
        discussion: "Exit status: 0 every file valid, 1 a file has problems, 2 a file could not be read or bad usage."
    )

    @Argument(help: "Files to check.")
    var files: [String]

    func run() throws {
        var invalid = 0, unchecked = 0, problems = 0
        for file in files {
            let result = DiveKit.validate(path: file)
            if let error = result.error {
                printError(error.description)
                unchecked += 1
                continue
            }
            for issue in result.issues { print(issue.description) }
            problems += result.issues.count
            if !result.issues.isEmpty { invalid += 1 }
        }
        printError("umilog: \(files.count - invalid - unchecked) of \(files.count) file\(files.count == 1 ? "" : "s") valid; \(problems) problem\(problems == 1 ? "" : "s")\(unchecked > 0 ? "; \(unchecked) not checked" : "")")
        if unchecked > 0 { throw ExitCode(2) }
        if invalid > 0 { throw ExitCode(1) }
    }
}
