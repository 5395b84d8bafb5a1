import Foundation
import Testing
import TestSupport

/// `umilog --generate-completion-script` (swift-argument-parser's) writes a script for each
/// shell the README names, and bash's completes umilog's own commands and options.
@Suite struct CompletionScriptTests {
    /// The subcommands `umilog --help` lists: lines `  NAME   description` under SUBCOMMANDS.
    func subcommands() throws -> [String] {
        let help = try umilog(["--help"]).stdout
        let section = (help.components(separatedBy: "SUBCOMMANDS:\n").last ?? "").components(separatedBy: "\n\n")[0]
        return section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
    }

    /// Runs bash's completion function as bash-completion does for `umilog WORDS…`, the
    /// last word being completed, and returns what it offers.
    func complete(_ script: String, _ words: [String]) throws -> [String] {
        let line = (["umilog"] + words).joined(separator: " ")
        let quoted = (["umilog"] + words).map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source "$1"
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); COMP_LINE='\(line)'; COMP_POINT=\(line.utf8.count)
            _umilog umilog '\(words.last ?? "")' '\(words.dropLast().last ?? "umilog")'
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let dir = try Paths.temporaryDirectory()
        try script.write(toFile: dir + "/umilog.bash", atomically: true, encoding: .utf8)
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        bash.arguments = ["bash", "-c", program, "complete", dir + "/umilog.bash"]
        bash.currentDirectoryURL = URL(fileURLWithPath: Paths.root)
        let out = Pipe()
        bash.standardOutput = out
        try bash.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesTheSubcommandsAndTheirOptions() throws {
        let r = try umilog(["--generate-completion-script", "bash"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout.contains("complete -o filenames -F _umilog umilog"))
        let names = try subcommands()
        #expect(names.count >= 15 && ["dives", "show", "plot", "convert", "import", "sites"].allSatisfy(names.contains), "\(names)")
        // An empty word: every subcommand the help lists (and help, and the top-level flags).
        let offered = try complete(r.stdout, [""])
        #expect(Set(names).isSubset(of: offered), "missing: \(Set(names).subtracting(offered).sorted())")
        #expect(try complete(r.stdout, ["d"]) == ["db", "dives"])
        let plot = try complete(r.stdout, ["plot", "--d"])
        #expect(plot.contains("--dive") && plot.contains("--db"), "\(plot)")
        #expect(try complete(r.stdout, ["convert", "x", "--to", ""]).sorted() == ["csv", "csv-profile", "json", "ssrf", "uddf"])
        #expect(try complete(r.stdout, ["convert", "x", "--from", "suunto-"]).sorted() == ["suunto-dm3", "suunto-json", "suunto-xml"])
        // Paths complete as paths: inputs, --db, -o (run in the repository root).
        #expect(try complete(r.stdout, ["import", "Samp"]) == ["Samples"])
        #expect(try complete(r.stdout, ["dives", "--db", "Samples/logbook."]).sorted() == ["Samples/logbook.ssrf", "Samples/logbook.uddf"])
        #expect(try complete(r.stdout, ["convert", "Samples/logbook.uddf", "--to", "csv", "-o", "READ"]) == ["README.md"])
    }

    @Test func zshAndFishScriptsAreWritten() throws {
        let zsh = try umilog(["--generate-completion-script", "zsh"])
        #expect(zsh.status == 0 && zsh.stdout.hasPrefix("#compdef umilog\n"))
        let fish = try umilog(["--generate-completion-script", "fish"])
        #expect(fish.status == 0 && fish.stdout.contains("complete -c 'umilog'"))
        for name in try subcommands() {
            #expect(zsh.stdout.contains("'\(name):") && fish.stdout.contains(name), "\(name)")
        }
        #expect(try umilog(["--generate-completion-script", "tcsh"]).status == 2)
    }
}
