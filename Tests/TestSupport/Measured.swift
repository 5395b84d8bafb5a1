import Foundation
import CTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What one run of a command cost: its exit status (or the signal that ended it), its peak
/// resident memory and its wall time, with what it wrote to standard error.
public struct MeasuredRun: Sendable {
    public var status: Int32
    /// The signal that killed it, if one did (a trap is SIGILL or SIGTRAP, a crash SIGSEGV).
    public var signal: Int32?
    public var peakKB: Int
    public var seconds: Double
    public var stdout: String
    public var stderr: String
}

/// Runs `executable` with `arguments` and measures it: `wait4` gives this one child's peak RSS.
///
/// The command is not spawned by the test process itself. `posix_spawn` starts a child that
/// shares the parent's memory until it executes (vfork), and Linux counts that memory's high
/// water mark in the child's peak: every child spawned directly reported the test process's own
/// peak (a few hundred MB once the suites had run) rather than its own. So a shell, a small
/// process, starts the command in the background, says its pid and exits; the command, orphaned,
/// becomes the test process's child (the test process is a child subreaper), and `wait4` on it
/// gives its own peak.
public func runMeasured(_ executable: String, _ arguments: [String], directory: String = Paths.root) throws -> MeasuredRun {
    guard subreaper else { throw CocoaError(.featureUnsupported) }
    let dir = try Paths.temporaryDirectory()
    let outPath = dir + "/stdout", errPath = dir + "/stderr"
    let pidPipe = try closeOnExecPipe()
    defer { close(pidPipe.read) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, pidPipe.write, 3)
    let cwd = FileManager.default.currentDirectoryPath
    FileManager.default.changeCurrentDirectoryPath(directory)
    defer { FileManager.default.changeCurrentDirectoryPath(cwd) }
    // The command runs with fd 3 closed; the shell writes its pid to fd 3 and exits.
    let script = "\"$0\" \"$@\" 3>&- </dev/null & echo $! >&3"
    let argv: [UnsafeMutablePointer<CChar>?] = (["/bin/sh", "-c", script, executable] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var shell: pid_t = 0
    let start = Date()
    let rc = posix_spawn(&shell, "/bin/sh", &actions, nil, argv, environ)
    close(pidPipe.write)
    guard rc == 0 else { throw CocoaError(.executableLoad) }
    var said: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
        let n = read(pidPipe.read, &buffer, buffer.count)
        if n > 0 { said += buffer[0..<n]; continue }
        if n < 0 && errno == EINTR { continue }
        break
    }
    var shellStatus: Int32 = 0
    while waitpid(shell, &shellStatus, 0) < 0 && errno == EINTR {}
    guard let pid = pid_t(String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw CocoaError(.executableLoad)
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let seconds = Date().timeIntervalSince(start)
    let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    let signaled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
    return MeasuredRun(status: signaled ? -1 : (status >> 8) & 0xff, signal: signaled ? status & 0x7f : nil,
                       peakKB: Int(usage.ru_maxrss), seconds: seconds, stdout: stdout, stderr: stderr)
}

/// The test process, made a child subreaper once (see ``runMeasured(_:_:directory:)``).
private let subreaper: Bool = umilog_become_subreaper() == 0

@_silgen_name("pipe2") private func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// A pipe whose two ends are close-on-exec from the moment they exist (`pipe2`). Tests run in
/// parallel: a child another test spawns between `pipe` and `fcntl` would inherit an end, and
/// a reader would then wait for it, or a writer never meet SIGPIPE.
public func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard systemPipe2(&ends, O_CLOEXEC) == 0 else { throw CocoaError(.fileWriteUnknown) }
    return (ends[0], ends[1])
}
