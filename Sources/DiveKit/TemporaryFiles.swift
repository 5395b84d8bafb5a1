#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(Synchronization)
import Synchronization
#endif

// What umilog does so that a run killed at any moment leaves no file behind. Output is
// written to an unnamed file (Linux's O_TMPFILE) that gets a name only when it is complete;
// where that is not available, or for the instant between giving the finished file a hidden
// name and renaming it over the destination, a temporary has a name of the one shape below,
// which the signal handlers remove and the next run sweeps away when its writer is dead.

/// The names umilog gives the temporaries that must have one: `.NAME.umilog-PID-XXXXXX`
/// beside the file NAME they become (the pid of the process that made it, six random letters
/// or digits).
enum TemporaryName {
    static let marker = ".umilog-"

    /// A fresh name for a temporary of `base` in `directory`.
    static func make(directory: String, base: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        let random = String(decoding: (0..<6).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
        return "\(directory == "/" ? "" : directory)/.\(base)\(marker)\(getpid())-\(random)"
    }

    /// The pid that made the temporary called `name` (a file name, no directory), or `nil`
    /// when `name` is not one of umilog's temporaries.
    static func creator(of name: String) -> pid_t? {
        let bytes = Array(name.utf8)
        let marker = Array(Self.marker.utf8)
        guard bytes.first == UInt8(ascii: "."), bytes.count > marker.count + 9 else { return nil }
        // The tail is `.umilog-` digits `-` six letters or digits.
        let suffix = bytes.suffix(7)
        guard suffix.first == UInt8(ascii: "-"),
              suffix.dropFirst().allSatisfy({ isAlphanumeric($0) }) else { return nil }
        var start = bytes.count - 7
        while start > 0, bytes[start - 1] >= UInt8(ascii: "0"), bytes[start - 1] <= UInt8(ascii: "9") { start -= 1 }
        let digits = bytes[start..<(bytes.count - 7)]
        guard !digits.isEmpty, digits.count <= 10, start >= marker.count + 1,
              Array(bytes[(start - marker.count)..<start]) == marker,
              let pid = pid_t(String(decoding: digits, as: UTF8.self)), pid > 0 else { return nil }
        return pid
    }

    private static func isAlphanumeric(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z"))
    }
}

/// Removes the temporaries a killed run left in a directory, once per directory per process.
enum StaleTemporaries {
    /// A temporary whose writer is alive is left alone unless it is older than this: its pid
    /// then belongs to another process (the machine restarted since).
    static let maximumAge = 24 * 60 * 60

    private static let lock = Lock()
    nonisolated(unsafe) private static var swept: Set<String> = []

    /// Removes from `directory` every regular file named like one of umilog's temporaries
    /// whose creating process is gone (or that is older than ``maximumAge``); returns the
    /// names removed. Runs once per directory in a process unless `force`.
    @discardableResult
    static func sweep(_ directory: String, force: Bool = false) -> [String] {
        let first = lock.withLock { swept.insert(directory).inserted }
        guard first || force else { return [] }
        var removed: [String] = []
        let now = time(nil)
        for name in listDirectory(directory) {
            guard let pid = TemporaryName.creator(of: name), pid != getpid() else { continue }
            let path = (directory == "/" ? "" : directory) + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            let dead = kill(pid, 0) != 0 && errno == ESRCH
            #if canImport(Glibc)
            let modified = st.st_mtim.tv_sec
            #else
            let modified = st.st_mtimespec.tv_sec
            #endif
            let old = now - modified > maximumAge
            if (dead || old) && unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }
}

/// Paths removed if a signal ends the process: fixed slots in memory allocated once, so that
/// the handler only reads memory and calls `unlink`, both safe in a signal handler (no
/// allocation, no lock, no Swift runtime call but the already-initialised globals' check).
enum SignalCleanup {
    static let slots = 32
    static let slotSize = Int(PATH_MAX)
    nonisolated(unsafe) static let paths: UnsafeMutablePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: slots * slotSize)
        p.initialize(repeating: 0, count: slots * slotSize)
        return p
    }()
    /// 1 for a slot whose path is to be removed.
    nonisolated(unsafe) static let live: UnsafeMutablePointer<Int32> = {
        let p = UnsafeMutablePointer<Int32>.allocate(capacity: slots)
        p.initialize(repeating: 0, count: slots)
        return p
    }()
    /// 1 while a progress line is drawn on standard error (a terminal): a signal clears it
    /// before the process ends, so the shell's prompt does not land on a half line.
    nonisolated(unsafe) static let progressShown: UnsafeMutablePointer<Int32> = {
        let p = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        p.initialize(to: 0)
        return p
    }()
    private static let lock = Lock()

    /// Registers `path` for removal on a signal; `nil` when it is too long or every slot is
    /// taken (the path is then only removed by the next run's sweep).
    static func register(_ path: String) -> Int? {
        let bytes = Array(path.utf8)
        guard bytes.count < slotSize, !bytes.contains(0) else { return nil }
        return lock.withLock {
            guard let slot = (0..<slots).first(where: { live[$0] == 0 }) else { return nil }
            let target = paths + slot * slotSize
            bytes.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { _ = memcpy(target, $0.baseAddress!, b.count) }
            }
            target[bytes.count] = 0
            fence()
            live[slot] = 1
            fence()
            return slot
        }
    }

    /// Forgets a registered path (it has been removed, or renamed into place).
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        lock.withLock {
            live[slot] = 0
            fence()
        }
    }

    /// The paths registered now (for tests).
    static var registered: [String] {
        lock.withLock { (0..<slots).filter { live[$0] != 0 }.map { String(cString: paths + $0 * slotSize) } }
    }

    @inline(__always) private static func fence() {
        #if canImport(Synchronization)
        if #available(macOS 15.0, *) { atomicMemoryFence(ordering: .sequentiallyConsistent) }
        #endif
    }
}

/// The handler: removes every registered temporary, then lets the signal do what it does by
/// default (end the process) by raising it again with the default action.
private func removeTemporariesAndReraise(_ signal: Int32) {
    if SignalCleanup.progressShown.pointee != 0 {
        // "\r" and erase-line: write(2) is async-signal-safe.
        let clear: (UInt8, UInt8, UInt8, UInt8) = (13, 27, 91, 75)
        withUnsafeBytes(of: clear) { _ = write(2, $0.baseAddress, 4) }
    }
    let paths = SignalCleanup.paths, live = SignalCleanup.live
    var slot = 0
    while slot < SignalCleanup.slots {
        if live[slot] != 0 { unlink(paths + slot * SignalCleanup.slotSize) }
        slot += 1
    }
    #if canImport(Glibc)
    _ = Glibc.signal(signal, SIG_DFL)
    #else
    _ = Darwin.signal(signal, SIG_DFL)
    #endif
    // Blocked while this handler runs, the signal is delivered as it returns.
    raise(signal)
}

/// Says whether a progress line is drawn on standard error, for the signal handlers to clear
/// it (``removeTemporariesOnSignals()``).
public func setProgressLineShown(_ shown: Bool) {
    _ = SignalCleanup.progressShown
    SignalCleanup.progressShown.pointee = shown ? 1 : 0
}

/// Makes SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the temporary files an unfinished output
/// still has before they end the process (which then ends as the signal's default action
/// ends it, so with a non-zero status). A signal the process was started with ignored stays
/// ignored. For an executable to call once at its start; a library never installs handlers.
public func removeTemporariesOnSignals() {
    // The slots exist before any handler can read them.
    _ = SignalCleanup.paths
    _ = SignalCleanup.live
    _ = SignalCleanup.progressShown
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
        #if canImport(Glibc)
        let previous = Glibc.signal(sig, removeTemporariesAndReraise)
        #else
        let previous = Darwin.signal(sig, removeTemporariesAndReraise)
        #endif
        if let previous, unsafeBitCast(previous, to: Int.self) == 1 {  // SIG_IGN
            _ = signal(sig, SIG_IGN)
        }
    }
}
