import DiveCore
internal import Foundation

/// A tool run as a child (`posix_spawn`): its standard input `/dev/null`, its standard output
/// read in chunks as it comes, its standard error read alongside (one `poll` over both pipes, so
/// a child with much to say never blocks on a full pipe) and its first 4 KiB kept. Reaped with
/// `waitpid` as soon as its output ends — no polling of a run loop; one dropped before then is
/// sent SIGTERM and reaped.
final class ChildProcess {
    private var pid: pid_t = 0
    private var out: Int32 = -1
    private var err: Int32 = -1
    private var reaped = false
    /// The exit status once the output has ended (a signal's number + 128 when killed by one).
    private(set) var status: Int32 = 0
    /// What the child wrote to standard error (its first 4 KiB).
    private(set) var errors: [UInt8] = []

    /// Starts `executable` with `arguments`, the environment ours with `LC_NUMERIC=C` (numbers
    /// as JSON writes them whatever the user's locale) and no `LC_ALL`.
    init(_ executable: String, _ arguments: [String]) throws {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw ChildError.start(errno) }
        guard pipe(&errPipe) == 0 else {
            let e = errno
            close(outPipe[0]); close(outPipe[1])
            throw ChildError.start(e)
        }
        // Our ends stay ours: no other child (nor this one, past its dup2s) inherits them.
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        var env = ProcessInfo.processInfo.environment
        env["LC_NUMERIC"] = "C"
        env.removeValue(forKey: "LC_ALL")
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(outPipe[1]); close(errPipe[1])
        guard rc == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw ChildError.start(rc)
        }
        out = outPipe[0]
        err = errPipe[0]
    }

    deinit {
        if !reaped { kill(pid, SIGTERM) }
        if out >= 0 { close(out) }
        if err >= 0 { close(err) }
        if !reaped { var s: Int32 = 0; while waitpid(pid, &s, 0) < 0 && errno == EINTR {} }
    }

    /// The next chunk of standard output, or nil once it has ended (the child then reaped).
    func read() -> [UInt8]? {
        guard out >= 0 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            var fds = [pollfd(fd: out, events: Int16(POLLIN), revents: 0)]
            if err >= 0 { fds.append(pollfd(fd: err, events: Int16(POLLIN), revents: 0)) }
            let n = poll(&fds, nfds_t(fds.count), -1)
            if n < 0 { if errno == EINTR { continue } else { break } }
            if fds.count > 1, fds[1].revents != 0 { drainErrors(once: true) }
            if fds[0].revents != 0 {
                let got = chunk.withUnsafeMutableBytes { Foundation.read(out, $0.baseAddress, $0.count) }
                if got > 0 { return Array(chunk[0..<got]) }
                if got < 0 && errno == EINTR { continue }
                break  // end of output (or an error reading it)
            }
        }
        close(out)
        out = -1
        drainErrors(once: false)
        reap()
        return nil
    }

    /// Reads standard error: one chunk, or (`once` false) to its end.
    private func drainErrors(once: Bool) {
        guard err >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        repeat {
            let got = chunk.withUnsafeMutableBytes { Foundation.read(err, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { close(err); err = -1; return }
            if errors.count < 4096 { errors += chunk[0..<min(got, 4096 - errors.count)] }
        } while !once
    }

    private func reap() {
        var s: Int32 = 0
        while waitpid(pid, &s, 0) < 0 && errno == EINTR {}
        reaped = true
        // WIFEXITED / WEXITSTATUS, WTERMSIG by hand (the macros are not imported).
        status = s & 0x7F == 0 ? (s >> 8) & 0xFF : 128 + (s & 0x7F)
    }

    /// Runs the child to its end: all it printed.
    func readAll() -> [UInt8] {
        var all: [UInt8] = []
        while let chunk = read() { all += chunk }
        return all
    }
}

enum ChildError: Error, CustomStringConvertible {
    case start(Int32)
    var description: String {
        switch self { case .start(let e): return String(cString: strerror(e)) }
    }
}
