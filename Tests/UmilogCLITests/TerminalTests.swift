import Foundation
import Testing
import TestSupport

/// Runs `command` with /bin/sh in `directory`; its standard output and error, together.
/// `environment` is laid over this process's (a nil value removes the variable).
func shell(_ command: String, in directory: String = Paths.root, environment: [String: String?] = [:]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Runs umilog with `arguments` on a pseudo-terminal (util-linux's `script`, which Debian
/// always has): what the terminal shows, its CR LF line ends made LF.
private func onTerminal(_ arguments: [String], environment: String = "") throws -> (status: Int32, output: String) {
    let command = ([Paths.umilog] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let r = try shell("script -qec \"\(environment) \(command)\" /dev/null")
    return (r.status, r.output.replacingOccurrences(of: "\r\n", with: "\n"))
}

/// A CSV of 336 dives with neither site nor position: backfill has a line to print for each.
private func manyDives(in dir: String) throws -> String {
    var csv = "Dive #,Date,Time,Max depth (m),Duration (min)\n"
    for i in 0..<336 { csv += "\(i + 1),2023-\(String(format: "%02d", 1 + i / 28))-\(String(format: "%02d", 1 + i % 28)),\(8 + i % 10):00,\(10 + i % 20),\(30 + i % 15)\n" }
    let path = dir + "/many.csv"
    try csv.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite(.serialized) struct TerminalTests {
    /// `> f 2>&1` gives every line whole: the file's lines are exactly the lines of standard
    /// output and of standard error (as a run with two pipes gives them), none cut in two.
    @Test("both streams into one file never split a line: backfill --dry-run, import -v with a failing file")
    func oneFile() throws {
        let dir = try Paths.temporaryDirectory()
        let db = dir + "/log.db"
        let csv = try manyDives(in: dir)
        let broken = dir + "/broken.uddf"
        try "<uddf version=\"3.2.2\"><profiledata><repetitiongroup><dive>".write(toFile: broken, atomically: true, encoding: .utf8)
        for arguments in [["import", "--dry-run", "-v", csv, broken, Paths.samples + "/logbook.uddf", "--db", db], ["backfill", "--dry-run", "--db", db]] {
            if arguments[0] == "backfill" { #expect(try umilog(["import", csv, "--db", db, "-q"]).status == 0) }
            let piped = try umilog(arguments)
            let together = try shell(([Paths.umilog] + arguments).map { "'\($0)'" }.joined(separator: " ") + " > '\(dir)/f' 2>&1; cat '\(dir)/f'")
            let lines = together.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let expected = (piped.stdout + piped.stderr).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
            #expect(lines.filter { !$0.isEmpty }.sorted() == expected.sorted(), "\(arguments)")
            #expect(together.output.utf8.count == piped.stdout.utf8.count + piped.stderr.utf8.count)
        }
        // The backfill run prints enough to have filled a buffered standard output three times.
        #expect(try umilog(["backfill", "--dry-run", "--db", db]).stdout.utf8.count > 3 * 4096)
    }

    @Test("-q prints only the summary; -v adds each dive's plan to import's line per file")
    func quietAndVerbose() throws {
        let dir = try Paths.temporaryDirectory()
        let db = dir + "/log.db"
        let file = Paths.samples + "/logbook.uddf"
        let quiet = try umilog(["import", file, "--db", db, "--dry-run", "-q"])
        #expect(quiet.stdout == "")
        #expect(quiet.stderr.hasPrefix("dry run, nothing changed: 1 file, 1 read"))
        let normal = try umilog(["import", file, "--db", db, "--dry-run"])
        let fileLines = normal.stdout.split(separator: "\n")
        #expect(fileLines.count == 1 && fileLines[0].hasPrefix("\(file): uddf, "), "\(normal.stdout)")
        let verbose = try umilog(["import", file, "--db", db, "--dry-run", "-v"])
        #expect(verbose.stdout.hasPrefix(normal.stdout))
        #expect(verbose.stdout.contains("\n  dive 1 "))
        #expect(verbose.stdout.contains(": insert\n"))
        let backfillDB = dir + "/b.db"
        #expect(try umilog(["import", try manyDives(in: dir), "--db", backfillDB, "-q"]).status == 0)
        let backfill = try umilog(["backfill", "--dry-run", "--db", backfillDB, "-q"])
        #expect(backfill.stdout == "")
        #expect(backfill.stderr == "dry run, nothing changed: 336 status\n")
        let validate = try umilog(["validate", file, "-q"])
        #expect(validate.status == 0 && validate.stderr == "")
        let perFile = try umilog(["validate", file, "-v"])
        #expect(perFile.stderr.hasPrefix("\(file): uddf, 0 errors, "), "\(perFile.stderr)")
    }

    @Test("no progress line and no colour when standard error is a pipe")
    func notATerminal() throws {
        let r = try umilog(["convert", Paths.samples + "/logbook.uddf", "--to", "csv", "-o", "/dev/null"])
        #expect(r.status == 0)
        #expect(!r.stderr.contains("\r") && !r.stderr.contains("\u{1B}"))
        let invalid = try umilog(["validate", Paths.samples + "/invalid/dive.gas-over-100.uddf"])
        #expect(invalid.stdout.contains(" error[") && !invalid.stdout.contains("\u{1B}"))
    }

    @Test("on a terminal a progress line is drawn in place and cleared; the summary after it is whole")
    func progressOnTerminal() throws {
        let dir = try Paths.temporaryDirectory()
        let input = Paths.samples + "/logbook.uddf"
        let piped = try umilog(["convert", input, "--to", "csv", "-o", dir + "/a.csv"])
        let tty = try onTerminal(["convert", input, "--to", "csv", "-o", dir + "/b.csv"])
        #expect(tty.status == 0)
        #expect(tty.output.contains("\r0.0 of 0.1 MB, logbook.uddf\u{1B}[K"), "\(tty.output.debugDescription)")
        #expect(tty.output.contains("\u{1B}[K\r\u{1B}[K"), "cleared at the end: \(tty.output.debugDescription)")
        let last = try #require(tty.output.split(separator: "\n").last)
        let shown = last.components(separatedBy: "\r\u{1B}[K").last ?? ""
        let summary = try #require(piped.stderr.split(separator: "\n").last)
        #expect(shown == summary.replacingOccurrences(of: "/a.csv", with: "/b.csv"))
        #expect(shown.hasPrefix("umilog: 5 dives from 1 of 1 file → "))
        let quiet = try onTerminal(["convert", input, "--to", "csv", "-o", dir + "/c.csv", "-q"])
        #expect(quiet.status == 0 && quiet.output == "")
        // A result written to the terminal itself is not drawn over.
        let toTerminal = try onTerminal(["convert", input, "--to", "csv"])
        #expect(toTerminal.output.hasPrefix("dive_number,") && !toTerminal.output.contains("\u{1B}[K"))
    }

    @Test("on a terminal severities are coloured, unless NO_COLOR is set and not empty (with -q, no progress line either: no escape at all)")
    func colour() throws {
        let invalid = Paths.samples + "/invalid/dive.gas-over-100.uddf"
        let coloured = try onTerminal(["validate", invalid, "-q"])
        #expect(coloured.output.contains(": \u{1B}[1;31merror["), "\(coloured.output.debugDescription)")
        let empty = try onTerminal(["validate", invalid, "-q"], environment: "NO_COLOR=")
        #expect(empty.output.contains("\u{1B}[1;31merror["))
        let plain = try onTerminal(["validate", invalid, "-q"], environment: "NO_COLOR=1")
        #expect(plain.output.contains(": error[") && !plain.output.contains("\u{1B}"), "\(plain.output.debugDescription)")
        // Machine-readable output is never painted.
        let json = try onTerminal(["validate", invalid, "-q", "--format", "json"])
        #expect(json.output.contains("\"error\"") && !json.output.contains("\u{1B}"))
    }
}

/// Interrupted on a terminal while its progress line is drawn, a run clears the line before it
/// ends, so the shell's prompt does not land on half a progress line.
@Suite struct InterruptedProgressTests {
    @Test func sigintClearsTheProgressLine() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try makeLogbook(dives: 800, in: dir)
        let command = "timeout -s INT 1 '\(Paths.umilog)' convert '\(input)' --to csv -o '\(dir)/out.csv'"
        let r = try shell("script -qec \"\(command)\" /dev/null")
        let drawn = try #require(r.output.range(of: " MB", options: .backwards), "no progress line drawn: \(r.output.suffix(200))")
        let cleared = try #require(r.output.range(of: "\r\u{1B}[K", options: .backwards))
        #expect(cleared.lowerBound > drawn.lowerBound, "the last progress line is left on the terminal: \(r.output.suffix(200).debugDescription)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv") || r.status == 0)
    }
}
