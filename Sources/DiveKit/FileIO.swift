import DiveCSV
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes to a file descriptor (standard output is `FileSink(fd: 1, path: "-")`).
public final class FileSink: ByteSink {
    /// The file descriptor written to; the sink does not close it.
    public let fd: Int32
    /// The path errors name (`-` for standard output).
    public let path: String

    /// Makes a sink writing to `fd`, named `path` in errors.
    public init(fd: Int32, path: String) { self.fd = fd; self.path = path }

    /// Writes every byte, retrying after an interruption; throws `io.write` when the descriptor refuses them.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw DiveError("io.write", "cannot write: \(String(cString: strerror(errno)))", at: SourceLocation(file: path))
            }
            offset += n
        }
    }
}

/// An output file that appears whole or not at all. What it writes to depends on the
/// destination:
///
/// - a regular file, or a name that does not exist yet: an unnamed file in the destination's
///   directory (Linux's `O_TMPFILE`), which ``commit()`` links under the destination's name
///   (through a hidden name renamed over it when the destination exists). A process killed
///   at any moment leaves nothing: the kernel frees an unnamed file with its last descriptor.
///   Where `O_TMPFILE` is not available, a hidden `.NAME.umilog-PID-XXXXXX` beside the
///   destination, renamed into place; the signal handlers
///   (``removeTemporariesOnSignals()``) remove it, and the next run that writes into the
///   directory removes one a killed run left.
/// - a symbolic link: followed; what it points to is written as above, beside it.
/// - a character or block device or a FIFO (`/dev/null`, a named pipe), or an open descriptor
///   (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`): written directly, never replaced by a
///   regular file.
/// - a directory or a socket: an error.
///
/// Without a destination it is a scratch file in `TMPDIR` (a spool), unnamed or unlinked as
/// soon as it is made. Dropped without a commit, nothing of it is left.
final class AtomicFile {
    /// How the file is being written.
    enum Kind: Equatable {
        /// An unnamed file (`O_TMPFILE`) that gets its name at ``AtomicFile/commit()``.
        case unnamed
        /// A hidden temporary beside the destination, renamed into place at commit.
        case named
        /// A device, a FIFO or an open descriptor, written directly.
        case direct
        /// A scratch file in `TMPDIR`, with no name (or, where it must be read by name and
        /// `/proc` is missing, a registered hidden one).
        case spool
    }

    /// The destination as given (empty for a spool).
    let destination: String
    /// The file that is written or replaced: the destination with symbolic links followed.
    let target: String
    let kind: Kind
    let sink: FileSink
    /// A path that reads what has been written (`/proc/self/fd/N` for an unnamed file).
    let readPath: String
    /// The name the file has while it is written, removed unless it is committed.
    private var temporaryName: String?
    private var cleanupSlot: Int?
    private var committed = false

    /// Whether unnamed files are used where the system has them: on Linux with `/proc`, unless
    /// `UMILOG_NAMED_TEMPORARIES` is set (to exercise the fallback).
    static let unnamedByDefault: Bool = {
        #if os(Linux)
        return getenv("UMILOG_NAMED_TEMPORARIES") == nil && procFDAvailable
        #else
        return false
        #endif
    }()

    /// Whether `/proc/self/fd/N` names this process's open files.
    static let procFDAvailable = access("/proc/self/fd", X_OK) == 0

    /// Creates the file for `destination`, or a spool in `TMPDIR` when it is `nil`.
    ///
    /// - Parameters:
    ///   - readableByPath: for a spool that is read back by ``readPath`` (standard input handed
    ///     to a reader that opens a path).
    ///   - allowUnnamed: whether to use `O_TMPFILE` where it is supported.
    init(destination: String?, readableByPath: Bool = false, allowUnnamed: Bool = AtomicFile.unnamedByDefault) throws {
        guard let destination else {
            self.destination = ""
            target = ""
            kind = .spool
            let directory = temporaryDirectory()
            if allowUnnamed, let fd = try Self.openUnnamed(in: directory, mode: 0o600, for: directory) {
                sink = FileSink(fd: fd, path: directory)
                readPath = "/proc/self/fd/\(fd)"
                return
            }
            let keepName = readableByPath && !Self.procFDAvailable
            if keepName { StaleTemporaries.sweep(directory) }
            let (fd, name, slot) = try Self.createNamed(in: directory, base: "umilog-spool", mode: 0o600, for: directory)
            sink = FileSink(fd: fd, path: directory)
            if keepName {
                temporaryName = name
                cleanupSlot = slot
                readPath = name
            } else {
                unlink(name)
                SignalCleanup.unregister(slot)
                readPath = Self.procFDAvailable ? "/proc/self/fd/\(fd)" : name
            }
            return
        }
        self.destination = destination
        let location = SourceLocation(file: destination)
        guard !destination.isEmpty else { throw DiveError("io.create", "the output's name is empty", at: location) }
        guard !destination.hasSuffix("/") else { throw Self.isADirectory(destination) }
        target = try resolveSymbolicLinks(destination)
        // `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`: a descriptor already open, whatever
        // it is, is written as it is (a regular file behind it cannot be replaced beside it).
        let descriptor = isInProc(target)
        var status = stat()
        let exists = stat(target, &status) == 0
        guard exists || errno == ENOENT else {
            throw DiveError("io.create", "cannot write the output: \(String(cString: strerror(errno)))", at: location)
        }
        if exists {
            switch status.st_mode & S_IFMT {
            case S_IFREG where !descriptor: break
            case S_IFDIR: throw Self.isADirectory(destination)
            case S_IFSOCK: throw DiveError("io.create", "the output is a socket, which cannot be written as a file", at: location)
            default:
                // A device or a FIFO: written as it is, never replaced by a regular file.
                let truncate = (status.st_mode & S_IFMT) == S_IFREG ? O_TRUNC : 0
                let fd = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY | truncate)
                guard fd >= 0 else {
                    throw DiveError("io.create", "cannot open the output: \(String(cString: strerror(errno)))", at: location)
                }
                kind = .direct
                sink = FileSink(fd: fd, path: destination)
                readPath = target
                return
            }
        }
        let (directory, base) = splitPath(target)
        StaleTemporaries.sweep(directory)
        // A replaced file keeps its permissions (and owner, where that is allowed).
        let mode = exists ? mode_t(status.st_mode & 0o777) : 0o644
        if allowUnnamed, let fd = try Self.openUnnamed(in: directory, mode: mode, for: destination) {
            kind = .unnamed
            sink = FileSink(fd: fd, path: destination)
            readPath = "/proc/self/fd/\(fd)"
        } else {
            let (fd, name, slot) = try Self.createNamed(in: directory, base: base, mode: mode, for: destination)
            kind = .named
            sink = FileSink(fd: fd, path: destination)
            temporaryName = name
            cleanupSlot = slot
            readPath = name
        }
        if exists { _ = fchown(sink.fd, status.st_uid, status.st_gid) }
        fchmod(sink.fd, mode)
    }

    deinit {
        close(sink.fd)
        if !committed, let temporaryName { unlink(temporaryName) }
        SignalCleanup.unregister(cleanupSlot)
    }

    /// Puts the finished file in place: links the unnamed file under the destination's name,
    /// or renames the named temporary over it. A direct output is already in place.
    func commit() throws {
        guard !committed else { return }
        let location = SourceLocation(file: destination)
        switch kind {
        case .direct, .spool:
            committed = true
            return
        case .unnamed, .named:
            break
        }
        guard fsync(sink.fd) == 0 || errno == EINVAL else {
            throw DiveError("io.write", "cannot write: \(String(cString: strerror(errno)))", at: location)
        }
        // What the destination was when writing started is what it still must be.
        var status = stat()
        if lstat(target, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            throw DiveError("io.rename", "the output is no longer a regular file; nothing written", at: location)
        }
        if kind == .named, let temporaryName {
            guard rename(temporaryName, target) == 0 else {
                throw DiveError("io.rename", "cannot move the output into place: \(String(cString: strerror(errno)))", at: location)
            }
            SignalCleanup.unregister(cleanupSlot)
            cleanupSlot = nil
            committed = true
            return
        }
        #if os(Linux)
        let unnamed = "/proc/self/fd/\(sink.fd)"
        if linkat(AT_FDCWD, unnamed, AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0 {
            committed = true
            return
        }
        guard errno == EEXIST else {
            throw DiveError("io.rename", "cannot move the output into place: \(String(cString: strerror(errno)))", at: location)
        }
        // The destination exists: a link cannot replace it, a rename can, atomically. The
        // hidden name exists only between these two calls, and the handlers know it.
        let (directory, base) = splitPath(target)
        while true {
            let hidden = TemporaryName.make(directory: directory, base: shortened(base))
            let slot = SignalCleanup.register(hidden)
            defer { SignalCleanup.unregister(slot) }
            if linkat(AT_FDCWD, unnamed, AT_FDCWD, hidden, AT_SYMLINK_FOLLOW) != 0 {
                if errno == EEXIST { continue }
                throw DiveError("io.rename", "cannot move the output into place: \(String(cString: strerror(errno)))", at: location)
            }
            guard rename(hidden, target) == 0 else {
                let error = errno
                unlink(hidden)
                throw DiveError("io.rename", "cannot move the output into place: \(String(cString: strerror(error)))", at: location)
            }
            committed = true
            return
        }
        #endif
    }

    /// Streams the file's content so far to `sink`, from the start.
    func copy(to target: ByteSink, through transform: ((UnsafeRawBufferPointer) throws -> Void)? = nil) throws {
        lseek(sink.fd, 0, SEEK_SET)
        try InputFile.copy(sink.fd, file: readPath, to: target, through: transform)
    }

    /// Opens an unnamed file in `directory`; `nil` where the system or the file system has none.
    private static func openUnnamed(in directory: String, mode: mode_t, for name: String) throws -> Int32? {
        #if os(Linux)
        let fd = open(directory, __O_TMPFILE | O_DIRECTORY | O_RDWR | O_CLOEXEC, mode)
        if fd >= 0 { return fd }
        // No O_TMPFILE in this kernel (EISDIR) or this file system (EOPNOTSUPP), or a flag
        // combination refused (EINVAL): the named fallback.
        if errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL { return nil }
        throw DiveError("io.create", "cannot create a file in \(directory): \(String(cString: strerror(errno)))", at: SourceLocation(file: name))
        #else
        return nil
        #endif
    }

    /// Creates a hidden temporary in `directory`, registered with the signal handlers before
    /// it exists.
    private static func createNamed(in directory: String, base: String, mode: mode_t, for name: String) throws -> (Int32, String, Int?) {
        while true {
            let path = TemporaryName.make(directory: directory, base: shortened(base))
            let slot = SignalCleanup.register(path)
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd >= 0 { return (fd, path, slot) }
            let error = errno
            SignalCleanup.unregister(slot)
            if error == EEXIST { continue }
            throw DiveError("io.create", "cannot create a file in \(directory): \(String(cString: strerror(error)))", at: SourceLocation(file: name))
        }
    }

    private static func isADirectory(_ destination: String) -> DiveError {
        DiveError("io.output-is-directory", "the output is a directory; name a file to write", at: SourceLocation(file: destination))
    }
}

/// The directory a temporary for the destination file `path` goes in, and the file's name.
func splitPath(_ path: String) -> (directory: String, base: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
}

/// `base` cut so that a temporary's name made from it stays within a file name's 255 bytes.
private func shortened(_ base: String) -> String {
    var out = ""
    var bytes = 0
    for c in base {
        bytes += c.utf8.count
        if bytes > 200 { break }
        out.append(c)
    }
    return out
}

/// Whether `path` is in `/proc` once the links in its directory are followed (`/dev/fd/3` is
/// `/proc/self/fd/3`).
func isInProc(_ path: String) -> Bool {
    #if os(Linux)
    guard let real = realpath(splitPath(path).directory, nil) else { return false }
    defer { free(real) }
    let directory = String(cString: real)
    return directory == "/proc" || directory.hasPrefix("/proc/")
    #else
    return false
    #endif
}

/// `TMPDIR`, or `/tmp`.
func temporaryDirectory() -> String {
    var directory = getenv("TMPDIR").map { String(cString: $0) } ?? ""
    while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
    return directory.isEmpty ? "/tmp" : directory
}

/// `path` with symbolic links followed to what the last one points to, which need not exist
/// (a link to a file yet to be written). A relative link is read from the link's directory.
/// Resolution stops at a path in `/proc` (`/dev/stdout` → `/proc/self/fd/1`): what the links
/// there show (`pipe:[…]`) are not paths.
func resolveSymbolicLinks(_ path: String) throws -> String {
    var current = path
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    for _ in 0..<40 {
        if isInProc(current) { return current }
        let n = readlink(current, &buffer, Int(PATH_MAX))
        if n < 0 {
            // Not a link (EINVAL), or nothing there yet (ENOENT): the path itself.
            if errno == EINVAL || errno == ENOENT || errno == ENOTDIR { return current }
            throw DiveError("io.create", "cannot read the output's link: \(String(cString: strerror(errno)))", at: SourceLocation(file: path))
        }
        let link = buffer.withUnsafeBufferPointer { b in
            String(decoding: UnsafeRawBufferPointer(start: b.baseAddress, count: n), as: UTF8.self)
        }
        current = link.hasPrefix("/") ? link : splitPath(current).directory + "/" + link
    }
    throw DiveError("io.create", "the output is a symbolic link in a loop: \(String(cString: strerror(ELOOP)))", at: SourceLocation(file: path))
}

/// True when `path` names an existing directory.
public func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

/// Writes `text` to `path` as `AtomicFile` does: whole or not at all.
public func writeText(_ text: String, to path: String) throws {
    let file = try AtomicFile(destination: path)
    try Array(text.utf8).withUnsafeBytes { try file.sink.write($0) }
    try file.commit()
}
