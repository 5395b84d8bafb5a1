import Foundation
import Testing
import TestSupport

/// One shell example of README.md: a fenced block of shell commands, with what it prints when
/// it shows that (a ```console block of `$ command` lines, each followed by its output).
struct ReadmeExample: Sendable {
    struct Command: Sendable, Equatable {
        var text: String
        /// The lines the README shows it printing (standard output and standard error as one
        /// terminal shows them); nil for an `sh` block, which shows commands only.
        var output: [String]?
    }

    /// README.md's line of the opening fence.
    var line: Int
    var commands: [Command]
    /// `<!-- exit: 2 0 1 -->` above the block: each command's exit status in order; 0 for
    /// every command without it.
    var exits: [Int32]?
    /// `<!-- not run: REASON -->` above the block: an example no test can run as shown.
    var notRun: String?
    /// `<!-- needs: TOOL… -->` above the block: programs that must be on `PATH` (otherwise the
    /// block is skipped, as the tests that need them are).
    var needs: [String]
    /// The block reads the shared corpus beside the checkout (`../shared/`).
    var usesShared: Bool { commands.contains { $0.text.contains("../shared/") } }
}

/// Reads README.md's shell examples and decides whether what a command printed is what the
/// README shows.
enum ReadmeExamples {
    /// The shell examples of a Markdown text (fences of `sh`, `console`, or no language whose
    /// first line is a `$ ` command; Swift and the rest are compiled elsewhere or are not
    /// commands), and the marker comments that no block follows.
    static func parse(_ markdown: String) -> (examples: [ReadmeExample], strayMarkers: [Int]) {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [ReadmeExample] = []
        var markers: [(line: Int, text: String)] = []
        var stray: [Int] = []
        var i = 0
        while i < lines.count {
            let trimmed = lines[i].trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<!--"), trimmed.hasSuffix("-->"),
               ["not run:", "exit:", "needs:"].contains(where: { comment(trimmed).hasPrefix($0) }) {
                markers.append((i + 1, comment(trimmed)))
                i += 1
                continue
            }
            guard trimmed.hasPrefix("```") else {
                stray += markers.map(\.line)
                markers = []
                i += 1
                continue
            }
            let indent = lines[i].prefix { $0 == " " }.count
            let language = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            var body: [String] = []
            var j = i + 1
            while j < lines.count, lines[j].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(String(lines[j].dropFirst(min(indent, lines[j].prefix { $0 == " " }.count))))
                j += 1
            }
            let isConsole = language == "console" || (language.isEmpty && body.first?.hasPrefix("$ ") == true)
            if isConsole || language == "sh" {
                var example = ReadmeExample(line: i + 1, commands: isConsole ? consoleCommands(body) : shCommands(body), needs: [])
                for marker in markers {
                    let value = marker.text.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
                    if marker.text.hasPrefix("not run:") { example.notRun = value }
                    if marker.text.hasPrefix("exit:") { example.exits = value.split(separator: " ").map { Int32($0) ?? -1 } }
                    if marker.text.hasPrefix("needs:") { example.needs = value.split(separator: " ").map(String.init) }
                }
                examples.append(example)
            } else {
                stray += markers.map(\.line)
            }
            markers = []
            i = j + 1
        }
        return (examples, stray + markers.map(\.line))
    }

    /// The text inside `<!-- … -->`.
    private static func comment(_ line: String) -> String {
        String(line.dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces)
    }

    /// `$ command` lines, each owning the lines below it up to the next one.
    private static func consoleCommands(_ body: [String]) -> [ReadmeExample.Command] {
        var commands: [ReadmeExample.Command] = []
        for line in body {
            if line.hasPrefix("$ ") {
                commands.append(.init(text: String(line.dropFirst(2)), output: []))
            } else if !commands.isEmpty {
                commands[commands.count - 1].output!.append(line)
            }
        }
        return commands
    }

    /// Every line that is not blank or a comment is a command.
    private static func shCommands(_ body: [String]) -> [ReadmeExample.Command] {
        body.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { .init(text: $0, output: nil) }
    }

    /// Whether the printed lines are the ones shown. The README abbreviates in two ways, and
    /// only these: a line that is `…` alone stands for any number of lines (a long run of
    /// findings cut to the ones the text is about), and a line ending in `…` for a line that
    /// begins with what comes before the `…` (a CSV row cut at the margin). umilog's own
    /// `  … and 2 more dropped[…]` lines are neither, and must match as they are.
    static func matches(shown: [String], printed: [String]) -> Bool {
        func match(_ s: Int, _ p: Int) -> Bool {
            if s == shown.count { return p == printed.count }
            let line = shown[s]
            if line.trimmingCharacters(in: .whitespaces) == "…" {
                return (p...printed.count).contains { match(s + 1, $0) }
            }
            guard p < printed.count else { return false }
            let same = line.hasSuffix("…") ? printed[p].hasPrefix(String(line.dropLast())) : printed[p] == line
            return same && match(s + 1, p + 1)
        }
        return match(0, 0)
    }
}

/// Every shell example of README.md runs from the repository root as shown: exits as the
/// README says, and prints what it shows.
@Suite struct ReadmeExampleTests {
    /// A scratch repository root for one example: a copy of `Samples/`, `../shared` beside it
    /// (a link to the corpus, when there is one), and its own home.
    struct Scratch {
        let root: String, repo: String, home: String
        init() throws {
            root = try Paths.temporaryDirectory()
            repo = root + "/repo"
            home = root + "/home"
            let fm = FileManager.default
            try fm.createDirectory(atPath: repo, withIntermediateDirectories: true)
            try fm.createDirectory(atPath: home, withIntermediateDirectories: true)
            try fm.copyItem(atPath: Paths.samples, toPath: repo + "/Samples")
            if Paths.sharedAvailable { try fm.createSymbolicLink(atPath: root + "/shared", withDestinationPath: Paths.shared) }
        }

        /// The files the example left in the repository root (the copy of Samples aside).
        func created() throws -> [String] {
            let all = FileManager.default.enumerator(atPath: repo)?.compactMap { $0 as? String } ?? []
            return all.filter { $0 != "Samples" && !$0.hasPrefix("Samples/") }.sorted()
        }
    }

    /// Runs one command line with `/bin/sh` in the scratch root: `umilog` (and `swift run
    /// umilog`) is the built binary, found first on `PATH`; standard output and standard
    /// error share one pipe, as a terminal shows them, one whole line at a time.
    func run(_ command: String, in scratch: Scratch) throws -> (status: Int32, output: String) {
        let bin = URL(fileURLWithPath: Paths.umilog).deletingLastPathComponent().path
        return try shell(command.replacingOccurrences(of: "swift run umilog", with: "umilog"), in: scratch.repo, environment: [
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            // The default logbook and the completion scripts go to a home of the example's own.
            "HOME": scratch.home, "XDG_DATA_HOME": scratch.home + "/.local/share", "UMILOG_DB": nil,
            "SOURCE_DATE_EPOCH": nil,
        ])
    }

    /// What printed output holds that the README cannot show, made what it shows. Two rules:
    /// - the example's home is a new directory each run, printed as `~` (a message naming the
    ///   default logbook names it under the home);
    /// - a CSV row ends in CR LF (RFC 4180, as umilog writes it), which a terminal shows as a
    ///   line break like any other (`head -2 logbook.csv`).
    /// Nothing else is normalised: no example prints a time, a duration or an `exported_at`.
    func normalised(_ printed: String, _ scratch: Scratch) -> [String] {
        var lines = printed.replacingOccurrences(of: scratch.home, with: "~").replacingOccurrences(of: "\r\n", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    @Test func everyShellExampleRunsAsShown() throws {
        let readme = try String(contentsOfFile: Paths.root + "/README.md", encoding: .utf8)
        let (examples, stray) = ReadmeExamples.parse(readme)
        #expect(stray.isEmpty, "README.md lines \(stray): a <!-- not run/exit/needs --> marker must sit right above the block it is about")
        var ran = 0, commands = 0, notRun: [String] = [], skipped: [String] = [], created: Set<String> = []
        for example in examples {
            let at = "README.md:\(example.line)"
            if let reason = example.notRun { notRun.append("\(at) (\(reason))"); continue }
            if example.usesShared && !Paths.sharedAvailable { skipped.append("\(at): needs ../shared"); continue }
            if let tool = example.needs.first(where: { !Paths.onPath($0) }) { skipped.append("\(at): needs \(tool) on PATH"); continue }
            let exits = example.exits ?? Array(repeating: 0, count: example.commands.count)
            guard exits.count == example.commands.count else {
                Issue.record("\(at): <!-- exit: --> gives \(exits.count) statuses for \(example.commands.count) commands")
                continue
            }
            let scratch = try Scratch()
            for (command, exit) in zip(example.commands, exits) {
                let r = try run(command.text, in: scratch)
                #expect(r.status == exit, "\(at): `\(command.text)` exited \(r.status), the README implies \(exit); it printed:\n\(r.output)")
                if let shown = command.output {
                    let printed = normalised(r.output, scratch)
                    #expect(ReadmeExamples.matches(shown: shown, printed: printed),
                            "\(at): `\(command.text)` printed\n\(printed.joined(separator: "\n"))\nwhere the README shows\n\(shown.joined(separator: "\n"))")
                }
                commands += 1
            }
            created.formUnion(try scratch.created())
            ran += 1
        }
        print("README examples: \(ran) run (\(commands) commands), \(notRun.count) marked not run, \(skipped.count) skipped")
        for line in notRun { print("  not run: \(line)") }
        for line in skipped { print("  skipped: \(line)") }
        #expect(ran + notRun.count + skipped.count == examples.count)
        #expect(ran >= 10, "the README's examples were not found: \(examples.count) blocks")
        try expectIgnored(created.sorted())
    }

    /// `.gitignore` holds every file the examples leave in the repository root.
    func expectIgnored(_ files: [String]) throws {
        #expect(!files.isEmpty, "the examples wrote no file, so this checks nothing")
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", Paths.root, "check-ignore", "--no-index", "--"] + files
        let out = Pipe()
        git.standardOutput = out
        git.standardError = FileHandle.nullDevice
        try git.run()
        let ignored = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        git.waitUntilExit()
        // 0: some are ignored, 1: none; anything else is git failing (no git, no work tree).
        try #require(git.terminationStatus <= 1, "git check-ignore failed (status \(git.terminationStatus))")
        #expect(Set(ignored) == Set(files), "the README's examples create files .gitignore does not hold: \(Set(files).subtracting(ignored).sorted())")
    }

    @Test func theMarkersAndTheBlocksAreReadAsWritten() {
        let markdown = """
            Text.

            <!-- not run: the test command itself -->
            ```sh
            # a comment
            scripts/test.sh
            ```

            <!-- exit: 2 0 -->
            <!-- needs: rsvg-convert -->
            ```console
            $ umilog plot x
            Error: one
              indented
            $ umilog plot x --dive 1
            ```

              ```
              $ umilog dives
              #1  a
              ```

            ```swift
            print("not a shell example")
            ```

            <!-- exit: 1 -->
            A marker with no block under it.
            """
        let (examples, stray) = ReadmeExamples.parse(markdown)
        #expect(examples.count == 3)
        #expect(examples[0].notRun == "the test command itself" && examples[0].commands == [.init(text: "scripts/test.sh", output: nil)])
        #expect(examples[1].line == 11 && examples[1].exits == [2, 0] && examples[1].needs == ["rsvg-convert"] && examples[1].notRun == nil)
        #expect(examples[1].commands == [.init(text: "umilog plot x", output: ["Error: one", "  indented"]),
                                         .init(text: "umilog plot x --dive 1", output: [])])
        #expect(examples[2].commands == [.init(text: "umilog dives", output: ["#1  a"])] && examples[2].exits == nil)
        #expect(stray == [27])
    }

    @Test func onlyTheREADMEsTwoAbbreviationsMatchMore() {
        let printed = ["a", "  … and 2 more dropped[x]", "b", "c,d,\"long note\""]
        #expect(ReadmeExamples.matches(shown: printed, printed: printed))
        #expect(ReadmeExamples.matches(shown: ["…", "b", "c,d,\"long …"], printed: printed))
        #expect(ReadmeExamples.matches(shown: ["a", "…", "…", "c,d,\"long note\"", "…"], printed: printed))
        #expect(!ReadmeExamples.matches(shown: ["a", "b", "c,d,\"long note\""], printed: printed), "a line left out without …")
        #expect(!ReadmeExamples.matches(shown: ["a", "  … and 3 more dropped[x]", "…"], printed: printed), "umilog's own … line is compared")
        #expect(!ReadmeExamples.matches(shown: ["…", "c,d,\"short …"], printed: printed))
        #expect(!ReadmeExamples.matches(shown: printed + ["e"], printed: printed))
        #expect(ReadmeExamples.matches(shown: [], printed: []) && !ReadmeExamples.matches(shown: [], printed: ["x"]))
    }
}
