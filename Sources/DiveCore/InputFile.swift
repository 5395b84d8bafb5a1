#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file — or standard input, named `-` — read in chunks. The model itself does no I/O; this
/// is the one primitive every reader shares, so that opening, retrying a read a signal
/// interrupted, and naming the file in an error are written once. Closes what it opened in
/// `deinit`.
public final class InputFile {
    /// The descriptor being read.
    public let descriptor: Int32
    /// The file as the user named it, for errors.
    public let displayName: String
    private let owned: Bool
    /// The job's progress meter when the file was opened (see ``ProgressMeter/measuring(_:_:)``).
    private let meter = ProgressMeter.current

    /// Opens `path` for reading (`-` reads standard input).
    public init(path: String, displayName: String) throws {
        self.displayName = displayName
        if path == "-" {
            descriptor = 0
            owned = false
        } else {
            descriptor = open(path, O_RDONLY)
            owned = true
            guard descriptor >= 0 else {
                throw DiveError("io.open", "cannot open the file: \(String(cString: strerror(errno)))", at: SourceLocation(file: displayName))
            }
        }
    }

    deinit { if owned { close(descriptor) } }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = try Self.read(descriptor, into: buffer, file: displayName)
        meter?.read(n)
        return n
    }

    /// Reads up to `buffer.count` bytes from `descriptor`, retrying when a signal interrupts
    /// the call; 0 at the end. Throws `io.read` naming `file`.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, file: String) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #else
            let n = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw DiveError("io.read", "cannot read the file: \(String(cString: strerror(errno)))", at: SourceLocation(file: file))
        }
    }

    /// Fills `buffer` as far as the input goes (a short read is not the end of a file);
    /// returns how many bytes it holds.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Streams what is left to read from `fd` to `target` in 64 KiB chunks, each through
    /// `transform` when one is given.
    public static func copy(_ fd: Int32, file: String, to target: ByteSink,
                            through transform: ((UnsafeRawBufferPointer) throws -> Void)? = nil) throws {
        // 1 MiB a read: a spool is copied whole (804 MB for the benchmark's UDDF logbook).
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try read(fd, into: $0, file: file) }
            if n == 0 { return }
            try buffer.withUnsafeBytes { raw in
                let chunk = UnsafeRawBufferPointer(rebasing: raw[0..<n])
                if let transform { try transform(chunk) } else { try target.write(chunk) }
            }
        }
    }

    /// The whole content of `path`.
    public static func contents(of path: String, displayName: String) throws -> [UInt8] {
        let file = try InputFile(path: path, displayName: displayName)
        var out: [UInt8] = []
        // One allocation for a regular file (its size is known), growth only for a stream.
        var status = stat()
        if fstat(file.descriptor, &status) == 0, status.st_size > 0 { out.reserveCapacity(Int(status.st_size)) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
            if n == 0 { return out }
            out.append(contentsOf: buffer[0..<n])
        }
    }
}
