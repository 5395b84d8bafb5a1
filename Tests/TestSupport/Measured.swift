import Foundation
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

/// Runs `executable` with `arguments` and measures it: `wait4`
/// gives this one child's peak RSS (not the largest of every child the test process had).
public func runMeasured(_ executable: String, _ arguments: [String], directory: String = Paths.root) throws -> MeasuredRun {
    let dir = try Paths.temporaryDirectory()
    let outPath = dir + "/stdout", errPath = dir + "/stderr"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let cwd = FileManager.default.currentDirectoryPath
    FileManager.default.changeCurrentDirectoryPath(directory)
    defer { FileManager.default.changeCurrentDirectoryPath(cwd) }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let start = Date()
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard rc == 0 else { throw CocoaError(.executableLoad) }
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

@_silgen_name("pipe2") private func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// A pipe whose two ends are close-on-exec from the moment they exist (`pipe2`). Tests run in
/// parallel: a child another test spawns between `pipe` and `fcntl` would inherit an end, and
/// a reader would then wait for it, or a writer never meet SIGPIPE.
public func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard systemPipe2(&ends, O_CLOEXEC) == 0 else { throw CocoaError(.fileWriteUnknown) }
    return (ends[0], ends[1])
}
