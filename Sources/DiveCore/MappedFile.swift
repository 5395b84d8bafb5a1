#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole input as one byte buffer, for a reader that must see its text at once but walks it
/// front to back: a regular file is mapped, and the pages a reader is done with are handed
/// back (``release(before:)``), so that reading a 500 MB file does not hold 500 MB. Standard
/// input, a pipe or an empty file is read into memory instead.
///
/// A mapped file must not shrink while it is read: the process would stop on SIGBUS (a
/// reader checks that what it parses again ends where its first scan ended, which catches
/// a file rewritten in place at the same size).
public final class MappedFile {
    /// The file's contents, mapped or copied; valid while the object lives.
    public let bytes: UnsafeRawBufferPointer
    private let mapping: UnsafeMutableRawPointer?
    /// The copy of an input that could not be mapped.
    private let copy: UnsafeMutableRawBufferPointer?
    private var released = 0
    /// The job's progress meter when the file was opened: told how far the reader got.
    private let meter = ProgressMeter.current
    private static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Opens the file at `path` (`-` for standard input) and maps it, or reads it into memory when it cannot be mapped; `displayName` names it in errors.
    /// Throws a ``DiveError`` (`io.open`, `io.read`) when the file cannot be opened or read.
    public init(path: String, displayName: String) throws {
        let file = try InputFile(path: path, displayName: displayName)
        var status = stat()
        if path != "-", fstat(file.descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0,
           let base = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, file.descriptor, 0), base != MAP_FAILED {
            mapping = base
            copy = nil
            bytes = UnsafeRawBufferPointer(start: base, count: Int(status.st_size))
            _ = madvise(base, Int(status.st_size), MADV_SEQUENTIAL)
        } else {
            mapping = nil
            let content = try InputFile.contents(of: path, displayName: displayName)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: content.count, alignment: 8)
            buffer.copyBytes(from: content)
            copy = buffer
            bytes = UnsafeRawBufferPointer(buffer)
        }
    }

    /// Hands back the pages wholly before `offset`: the reader will not look at them again
    /// (if it does, they are read from the file once more).
    public func release(before offset: Int) {
        meter?.reached(offset)
        guard let mapping else { return }
        let end = offset / Self.page * Self.page
        guard end > released else { return }
        _ = madvise(mapping + released, end - released, MADV_DONTNEED)
        released = end
    }

    /// For a reader about to read the text again from the start: what it releases from now on
    /// counts from there.
    public func startOver() { released = 0 }

    deinit {
        if let mapping { munmap(mapping, bytes.count) }
        copy?.deallocate()
    }
}
