import Foundation
import Testing
import TestSupport

/// A run killed at any moment leaves nothing: `convert` and `export` are SIGKILLed at random
/// moments spread over a run (measured first), and after each kill the destination is absent,
/// the previous file or the complete new one, and neither its directory nor TMPDIR (a private
/// one per test) nor /tmp holds a temporary. SIGINT, SIGTERM and SIGPIPE end a run the same
/// way, with the named fallback (`UMILOG_NAMED_TEMPORARIES`) too, and a killed fallback run's
/// temporary is removed by the next run.
///
/// The normal run kills `convert` 20 times and `export` 5 times (`UMILOG_KILLS` sets both) on
/// a logbook of `UMILOG_KILL_DIVES` (150) dives; `scripts/kill-test.sh` runs 20 kills each on a
/// bigger one.
@Suite(.serialized) struct KilledRunTests {
    static let kills = ProcessInfo.processInfo.environment["UMILOG_KILLS"].flatMap(Int.init) ?? 5
    /// A convert is killed at 20 random moments (issue 20: "killed at 20 random moments leaves no file behind").
    static let convertKills = ProcessInfo.processInfo.environment["UMILOG_KILLS"].flatMap(Int.init) ?? 20
    static let dives = ProcessInfo.processInfo.environment["UMILOG_KILL_DIVES"].flatMap(Int.init) ?? 150

    @Test func convertKilledAtRandomMomentsLeavesNothing() throws {
        let work = try Paths.temporaryDirectory()
        let input = try makeLogbook(dives: Self.dives, in: work)
        let stats = try killAtRandomMoments(work: work, name: "out.csv", kills: Self.convertKills) { ["convert", input, "--to", "csv", "-o", $0, "-q"] }
        print("KilledRunTests: convert \(Self.dives) dives (\(fileSize(input) / 1_000_000) MB): \(stats)")
    }

    @Test func exportKilledAtRandomMomentsLeavesNothing() throws {
        let work = try Paths.temporaryDirectory()
        let input = try makeLogbook(dives: max(Self.dives / 2, 10), in: work)
        let db = work + "/logbook.sqlite"
        let imported = try runUmilog(["import", "--db", db, input, "-q"], environment: [:])
        try #require(imported == .exited(0))
        let stats = try killAtRandomMoments(work: work, name: "out.json", kills: Self.kills) { ["export", "--db", db, "--to", "json", "-o", $0, "-q"] }
        print("KilledRunTests: export \(max(Self.dives / 2, 10)) dives to DiveJSON: \(stats)")
    }

    /// SIGINT and SIGTERM, sent while the output is being written (an unnamed file open in the
    /// destination's directory, or the fallback's named temporary there): the process ends by
    /// the signal, the previous file is untouched and no temporary is left.
    @Test(arguments: [(SIGINT, false), (SIGTERM, false), (SIGINT, true), (SIGTERM, true)])
    func aSignalEndsTheRunAndLeavesNothing(signal: Int32, named: Bool) throws {
        let work = try Paths.temporaryDirectory()
        let input = try makeLogbook(dives: Self.dives, in: work)
        let (dir, tmp) = (work + "/out", work + "/tmp")
        try makeDirectories(dir, tmp)
        try "previous\n".write(toFile: dir + "/out.csv", atomically: false, encoding: .utf8)
        let process = try Child(["convert", input, "--to", "csv", "-o", dir + "/out.csv", "-q"],
                                environment: ["TMPDIR": tmp] .merging(named ? ["UMILOG_NAMED_TEMPORARIES": "1"] : [:]) { $1 })
        let pid = process.pid
        let writing = waitUntil(process) {
            named ? (try? listing(dir))?.contains { $0.hasPrefix(".out.csv.umilog-\(pid)-") } == true
                  : !unnamedFiles(of: pid, in: dir).isEmpty
        }
        try #require(writing, "the run was caught writing its output")
        kill(pid, signal)
        #expect(process.wait() == .signaled(signal), "ended by the signal")
        #expect(try String(contentsOfFile: dir + "/out.csv", encoding: .utf8) == "previous\n")
        #expect(try listing(dir) == ["out.csv"])
        #expect(try listing(tmp) == [])
        #expect(leftoversInTmp(of: pid) == [])
    }

    /// A signal the run was started with ignored (`nohup`, a background job) stays ignored.
    @Test func anIgnoredSignalStaysIgnored() throws {
        let work = try Paths.temporaryDirectory()
        let input = try makeLogbook(dives: Self.dives, in: work)
        let dir = work + "/out"
        try makeDirectories(dir)
        let process = try Child(["-c", "trap '' INT; exec \"$0\" \"$@\"", Paths.umilog, "convert", input, "--to", "csv", "-o", dir + "/out.csv", "-q"],
                                environment: [:], executable: "/bin/sh")
        let writing = waitUntil(process) { !unnamedFiles(of: process.pid, in: dir).isEmpty }
        try #require(writing)
        kill(process.pid, SIGINT)
        #expect(process.wait() == .exited(0))
        #expect(try listing(dir) == ["out.csv"])
    }

    /// SIGPIPE: standard output closed under a run whose output is spooled in TMPDIR.
    @Test func aClosedPipeEndsTheRunAndLeavesNothing() throws {
        let work = try Paths.temporaryDirectory()
        let input = try makeLogbook(dives: Self.dives, in: work)
        let tmp = work + "/tmp"
        try makeDirectories(tmp)
        // Close-on-exec from the start (pipe2, not pipe then fcntl): a child another test
        // spawns in between would otherwise inherit the read end, and this run would block
        // writing to a pipe nobody reads instead of meeting SIGPIPE.
        let pipe = try closeOnExecPipe()
        let ends = [pipe.read, pipe.write]
        let process = try Child(["convert", input, "--to", "csv-profile", "-q"], environment: ["TMPDIR": tmp], standardOutput: ends[1])
        close(ends[0])
        close(ends[1])
        #expect(process.wait() == .signaled(SIGPIPE))
        #expect(try listing(tmp) == [])
        #expect(leftoversInTmp(of: process.pid) == [])
    }

    /// Standard input spooled, and a profile spooled before its header: the spools in TMPDIR
    /// have no name, so a SIGKILL while they are written leaves nothing there.
    @Test(arguments: [["-", "--to", "csv"], ["INPUT", "--to", "csv-profile"], ["INPUT", "--to", "uddf"]])
    func aKillWhileSpoolingLeavesNothingInTMPDIR(arguments: [String]) throws {
        let work = try Paths.temporaryDirectory()
        let input = try makeLogbook(dives: Self.dives, in: work)
        let (dir, tmp) = (work + "/out", work + "/tmp")
        try makeDirectories(dir, tmp)
        let process = try Child(["convert"] + arguments.map { $0 == "INPUT" ? input : $0 } + ["-o", dir + "/out", "-q"],
                                environment: ["TMPDIR": tmp], standardInput: input)
        let spooling = waitUntil(process) { !unnamedFiles(of: process.pid, in: tmp).isEmpty }
        try #require(spooling, "the run was caught spooling")
        kill(process.pid, SIGKILL)
        process.wait()
        #expect(try listing(dir) == [])
        #expect(try listing(tmp) == [])
        #expect(leftoversInTmp(of: process.pid) == [])
    }

    /// Where there is no O_TMPFILE a SIGKILL leaves the named temporary (nothing can remove it
    /// then); the next run that writes into the directory removes it.
    @Test func aKilledFallbackRunsTemporaryIsRemovedByTheNextRun() throws {
        let work = try Paths.temporaryDirectory()
        let input = try makeLogbook(dives: Self.dives, in: work)
        let dir = work + "/out"
        try makeDirectories(dir)
        let process = try Child(["convert", input, "--to", "csv", "-o", dir + "/out.csv", "-q"], environment: ["UMILOG_NAMED_TEMPORARIES": "1"])
        let pid = process.pid
        let writing = waitUntil(process) { (try? listing(dir))?.isEmpty == false }
        try #require(writing)
        kill(pid, SIGKILL)
        process.wait()
        let left = try listing(dir)
        #expect(left.count == 1 && left[0].hasPrefix(".out.csv.umilog-\(pid)-"), "\(left)")
        let next = try runUmilog(["convert", Paths.samples + "/logbook.uddf", "--to", "json", "-o", dir + "/other.json", "-q"], environment: [:])
        #expect(next == .exited(0))
        #expect(try listing(dir) == ["other.json"])
    }

    /// `-o /dev/stdout` writes standard output (a pipe here) and leaves the link alone.
    @Test func devStdoutIsStandardOutput() throws {
        let r = try umilog(["convert", "Samples/logbook.uddf", "--to", "csv", "-o", "/dev/stdout", "-q"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("dive_number,date,time,"))
        #expect(r.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 6)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "/dev/stdout")) != nil, "still a link")
    }

    @Test func aDirectoryWithoutTheSlashIsBadUsage() throws {
        let dir = try Paths.temporaryDirectory()
        let convert = try umilog(["convert", "Samples/logbook.uddf", "--to", "csv", "-o", dir])
        #expect(convert.status == 2)
        #expect(convert.stderr.contains("Error: -o \(dir) is a directory: end it with / to write one file per input into it, or name a file"))
        for output in [dir, dir + "/"] {
            let export = try umilog(["export", "--db", dir + "/none.sqlite", "--to", "csv", "-o", output])
            #expect(export.status == 2)
            #expect(export.stderr.contains("Error: -o \(output) is a directory: name the file to write"))
        }
        #expect(try listing(dir) == [])
    }
}

// MARK: Killing runs

/// What the kills found.
struct KillStats: CustomStringConvertible {
    var runTime = 0.0
    var kills = 0
    /// Kills that landed while the output was being written (an unnamed file open).
    var whileWriting = 0
    /// Runs that had finished before their kill.
    var finished = 0
    var leftovers: [String] = []

    var description: String {
        "run \(String(format: "%.2f", runTime)) s; \(kills) kills, \(whileWriting) while the output was written, \(finished) after the run ended; left: \(leftovers.isEmpty ? "nothing" : leftovers.joined(separator: ", "))"
    }
}

/// Runs `arguments(destination)` once to time it, then `kills` times killed with SIGKILL at a
/// random moment in the i-th of `kills` equal slices of that time, half of them over a previous
/// file. Checks after each kill what is left, and returns the counts.
func killAtRandomMoments(work: String, name: String, kills: Int, arguments: (String) -> [String]) throws -> KillStats {
    let (dir, tmp) = (work + "/out", work + "/tmp")
    try makeDirectories(dir, tmp)
    let destination = dir + "/" + name
    let environment = ["TMPDIR": tmp, "SOURCE_DATE_EPOCH": "1700000000"]
    var stats = KillStats(kills: kills)
    let started = Date()
    let full = try runUmilog(arguments(destination), environment: environment)
    stats.runTime = Date().timeIntervalSince(started)
    try #require(full == .exited(0))
    let complete = try Data(contentsOf: URL(fileURLWithPath: destination))
    let previous = Data("previous\n".utf8)
    for i in 0..<kills {
        let before: Data? = i % 2 == 0 ? nil : previous
        if let before { try before.write(to: URL(fileURLWithPath: destination)) } else { unlink(destination) }
        let delay = stats.runTime * (Double(i) + Double.random(in: 0..<1)) / Double(kills)
        let process = try Child(arguments(destination), environment: environment)
        let pid = process.pid
        usleep(useconds_t(delay * 1_000_000))
        let writing = !unnamedFiles(of: pid, in: dir).isEmpty
        kill(pid, SIGKILL)
        let end = process.wait()
        if end == .exited(0) { stats.finished += 1 } else if writing { stats.whileWriting += 1 }
        #expect(end == .signaled(SIGKILL) || end == .exited(0))
        let after = try? Data(contentsOf: URL(fileURLWithPath: destination))
        #expect(after == before || after == complete, "kill \(i) at \(delay) s: the destination is the previous file or the complete new one")
        if end == .exited(0) { #expect(after == complete) }
        let left = try listing(dir).filter { $0 != name } + listing(tmp).map { "TMPDIR/" + $0 } + leftoversInTmp(of: pid)
        #expect(left == [], "kill \(i) at \(delay) s")
        stats.leftovers += left
    }
    return stats
}

/// A `umilog` process started with `posix_spawn`: with every signal unblocked and at its
/// default action, whatever the test thread that starts it blocks (a Foundation `Process`
/// inherits the thread's mask, and a test thread blocks SIGINT and SIGTERM).
final class Child {
    let pid: pid_t
    private var waitStatus: Int32?

    /// How it ended.
    enum End: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// Starts `umilog arguments` with `environment` added to the test's;
    /// standard input from the file `standardInput` (or /dev/null), standard output to the
    /// descriptor `standardOutput` (or /dev/null), standard error to /dev/null.
    init(_ arguments: [String], environment: [String: String], standardInput: String? = nil, standardOutput: Int32? = nil,
         executable: String = Paths.umilog) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput ?? "/dev/null", O_RDONLY, 0)
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + env).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, env)
        try #require(result == 0, "posix_spawn: \(String(cString: strerror(result)))")
        self.pid = pid
    }

    /// Whether it has not ended yet.
    var isRunning: Bool {
        guard waitStatus == nil else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { waitStatus = status }
        return waitStatus == nil
    }

    /// Waits for it to end; after `timeout` seconds kills it (a test must not hang), which the
    /// caller sees as `.signaled(SIGKILL)`.
    @discardableResult
    func wait(timeout: Double = 120) -> End {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() > deadline {
                Issue.record("umilog \(pid) still running after \(timeout) s: killed")
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                waitStatus = status
                break
            }
            usleep(1_000)
        }
        let status = waitStatus!
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }
}

/// Runs `umilog arguments` to the end.
func runUmilog(_ arguments: [String], environment: [String: String]) throws -> Child.End {
    try Child(arguments, environment: environment).wait()
}

/// Polls `condition` every 2 ms while `process` runs (at most 60 s); whether it held.
func waitUntil(_ process: Child, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return false
}

/// The unnamed files (O_TMPFILE, or unlinked) process `pid` has open in `directory`, as the
/// kernel names them: `DIR/#INODE (deleted)`.
func unnamedFiles(of pid: pid_t, in directory: String) -> [String] {
    let real = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
        .filter { $0.hasPrefix(real + "/") && $0.hasSuffix(" (deleted)") }
}

/// What process `pid` left in /tmp under a temporary's name.
func leftoversInTmp(of pid: pid_t) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.contains(".umilog-\(pid)-") }.map { "/tmp/" + $0 }
}

func makeDirectories(_ paths: String...) throws {
    for path in paths { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
}

func listing(_ directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}
