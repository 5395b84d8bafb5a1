import DiveCSV
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes to a file descriptor (standard output is `FileSink(fd: 1, path: "-")`).
public final class FileSink: ByteSink {
    public let fd: Int32
    public let path: String

    public init(fd: Int32, path: String) { self.fd = fd; self.path = path }

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

/// A file written under a temporary name beside its destination and renamed into place
/// on ``commit()``, so a failure never leaves a half-written file. Dropped without a
/// commit, the temporary file is removed.
final class AtomicFile {
    let destination: String
    let temporaryPath: String
    let sink: FileSink
    private var committed = false

    /// Creates the temporary file for `destination` (`nil` for a scratch file in TMPDIR).
    init(destination: String?) throws {
        let directory: String
        let base: String
        if let destination {
            self.destination = destination
            if let slash = destination.lastIndex(of: "/") {
                directory = String(destination[..<slash]).isEmpty ? "/" : String(destination[..<slash])
                base = String(destination[destination.index(after: slash)...])
            } else {
                directory = "."
                base = destination
            }
        } else {
            self.destination = ""
            directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            base = "umilog"
        }
        var template = Array("\(directory)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw DiveError("io.create", "cannot create a file in \(directory): \(String(cString: strerror(errno)))",
                            at: SourceLocation(file: destination ?? directory))
        }
        temporaryPath = String(cString: template)
        sink = FileSink(fd: fd, path: destination ?? temporaryPath)
        if destination != nil { fchmod(fd, 0o644) }
    }

    deinit {
        close(sink.fd)
        if !committed { unlink(temporaryPath) }
    }

    /// Moves the finished file into place.
    func commit() throws {
        guard fsync(sink.fd) == 0 || errno == EINVAL else {
            throw DiveError("io.write", "cannot write: \(String(cString: strerror(errno)))", at: SourceLocation(file: destination))
        }
        guard rename(temporaryPath, destination) == 0 else {
            throw DiveError("io.rename", "cannot move the output into place: \(String(cString: strerror(errno)))", at: SourceLocation(file: destination))
        }
        committed = true
    }

    /// Streams the file's content so far to `sink`, from the start.
    func copy(to target: ByteSink, through transform: ((UnsafeRawBufferPointer) throws -> Void)? = nil) throws {
        lseek(sink.fd, 0, SEEK_SET)
        try InputFile.copy(sink.fd, file: temporaryPath, to: target, through: transform)
    }
}

/// True when `path` names an existing directory.
public func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

/// Writes `text` to `path` through a temporary file renamed into place.
public func writeText(_ text: String, to path: String) throws {
    let file = try AtomicFile(destination: path)
    try Array(text.utf8).withUnsafeBytes { try file.sink.write($0) }
    try file.commit()
}
