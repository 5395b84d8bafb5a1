import DiveCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of an archive, read at any offset: a file (read with `pread`, never loaded
/// whole) or bytes already in memory. Closes the file it opened in `deinit`.
final class ArchiveBytes {
    private enum Storage {
        case file(descriptor: Int32)
        case memory([UInt8])
    }

    private let storage: Storage
    /// The name errors use.
    let displayName: String
    /// Bytes in the archive.
    let size: Int64

    init(path: String, displayName: String) throws {
        self.displayName = displayName
        let input = open(path, O_RDONLY)
        guard input >= 0 else {
            throw DiveError("io.open", "cannot open the file: \(String(cString: strerror(errno)))", at: SourceLocation(file: displayName))
        }
        var status = stat()
        guard fstat(input, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(input)
            throw DiveError("zip.not-a-file",
                            "a zip archive is read from its end, so it must be a regular file (not a pipe or standard input)",
                            at: SourceLocation(file: displayName))
        }
        storage = .file(descriptor: input)
        size = Int64(status.st_size)
    }

    init(bytes: [UInt8], displayName: String) {
        self.displayName = displayName
        storage = .memory(bytes)
        size = Int64(bytes.count)
    }

    deinit {
        if case .file(let descriptor) = storage { close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the archive.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset >= 0, offset < size, buffer.count > 0 else { return 0 }
        let count = Int(min(Int64(buffer.count), size - offset))
        switch storage {
        case .memory(let bytes):
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[Int(offset)..<(Int(offset) + count)]))
            }
            return count
        case .file(let descriptor):
            var filled = 0
            while filled < count {
                let n = pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
                if n > 0 { filled += n; continue }
                if n == 0 { break }
                if errno == EINTR { continue }
                throw DiveError("io.read", "cannot read the file: \(String(cString: strerror(errno)))", at: SourceLocation(file: displayName))
            }
            return filled
        }
    }

    /// Exactly `count` bytes at `offset`, or `nil` when the archive ends first.
    func bytes(at offset: Int64, count: Int) throws -> [UInt8]? {
        guard count >= 0 else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        let n = try out.withUnsafeMutableBytes { try read(at: offset, into: $0) }
        return n == count ? out : nil
    }
}

/// Little-endian fields of a zip record.
extension Array where Element == UInt8 {
    @inline(__always) func u16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    @inline(__always) func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    @inline(__always) func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
}
