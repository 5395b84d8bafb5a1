import DiveCore

/// One entry of a zip archive's central directory.
public struct ZipEntry: Sendable, Hashable {
    /// The entry's name as stored (`0.xml`, `dives/2.xml`); read as UTF-8, or byte for byte as
    /// Latin-1 where it is not.
    public let name: String
    /// Its place in the central directory, from 0.
    public let index: Int
    /// The compression method: 0 stored, 8 deflated (the two umilog reads).
    public let method: UInt16
    /// The general-purpose flags (bit 0: encrypted).
    let flags: UInt16
    /// The CRC-32 the directory records for the inflated bytes.
    public let crc32: UInt32
    /// Bytes stored in the archive.
    public let compressedSize: Int64
    /// Bytes the directory says the entry inflates to (checked while inflating).
    public let uncompressedSize: Int64
    /// Where its local header starts.
    let localHeaderOffset: Int64

    /// A directory entry (its name ends in `/`), which holds no bytes.
    public var isDirectory: Bool { name.hasSuffix("/") }
    /// True when the entry is encrypted, which umilog does not read.
    public var isEncrypted: Bool { flags & 1 != 0 }
}

/// A zip archive opened for reading: its central directory, walked and checked against
/// ``ArchiveLimits`` when it is opened, and each entry streamed out in chunks on request.
///
/// Reading never trusts the directory: an entry's data must lie inside the file, the bytes it
/// inflates to are counted against the size the directory declares (more is `zip.bomb`, fewer
/// or a wrong CRC-32 is `zip.corrupt`), and a deflate stream that does not end within the
/// entry's compressed bytes is `zip.corrupt`. Every problem is a thrown ``DiveError`` with a
/// stable `zip.*` code; nothing traps, and nothing loops.
///
/// ZIPFoundation inflates (`Data.decompress`, over zlib); the directory walk is this type's own,
/// because ZIPFoundation 0.9.20's `Archive` neither exposes where an entry's data starts nor
/// bounds its inflater by the entry's compressed size: on Linux `Archive.extract` reads on past
/// the entry until the deflate stream ends, and spins forever when the file ends first (a
/// crafted entry ending in an open stored block does it), and its entry iterator stops
/// silently at a directory record it cannot read.
public final class ZipArchive {
    /// The archive as diagnostics name it.
    public let displayName: String
    /// The limits it was opened with.
    public let limits: ArchiveLimits
    /// The central directory's entries, in its order.
    public let entries: [ZipEntry]
    let bytes: ArchiveBytes

    /// Opens the zip archive at `path` (a regular file) and reads its central directory.
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public convenience init(path: String, displayName: String? = nil, limits: ArchiveLimits = .standard) throws {
        try self.init(bytes: ArchiveBytes(path: path, displayName: displayName ?? path), limits: limits)
    }

    /// Opens a zip archive held in memory.
    public convenience init(bytes: [UInt8], displayName: String, limits: ArchiveLimits = .standard) throws {
        try self.init(bytes: ArchiveBytes(bytes: bytes, displayName: displayName), limits: limits)
    }

    init(bytes: ArchiveBytes, limits: ArchiveLimits) throws {
        self.bytes = bytes
        self.limits = limits
        displayName = bytes.displayName
        entries = try Self.readDirectory(bytes, limits: limits)
    }

    /// The local file header's signature, which also opens every zip file: `PK\3\4`.
    public static let localHeaderMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    // MARK: The central directory

    private struct Directory {
        var entryCount: UInt64
        var offset: Int64
        var size: Int64
        /// Where the end-of-directory record (the ZIP64 one, when present) starts.
        var end: Int64
    }

    private static func readDirectory(_ bytes: ArchiveBytes, limits: ArchiveLimits) throws -> [ZipEntry] {
        let name = bytes.displayName
        let directory = try findDirectory(bytes)
        if directory.entryCount > UInt64(limits.maxEntries) {
            throw ArchiveProblem.tooManyEntries(name, directory.entryCount, limit: limits.maxEntries)
        }
        guard directory.offset >= 0, directory.size >= 0, directory.offset <= directory.end,
              directory.size <= directory.end - directory.offset else {
            throw ArchiveProblem.corrupt(name, nil, "its central directory lies outside the file (offset \(directory.offset), \(directory.size) bytes)")
        }
        let directoryEnd = directory.offset + directory.size
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(directory.entryCount))
        var at = directory.offset
        var total: Int64 = 0
        for index in 0..<Int(directory.entryCount) {
            guard at + 46 <= directoryEnd, let fixed = try bytes.bytes(at: at, count: 46) else {
                throw ArchiveProblem.corrupt(name, nil, "the central directory ends after \(index) of the \(directory.entryCount) entries it declares")
            }
            guard fixed.u32(0) == 0x0201_4B50 else {
                throw ArchiveProblem.corrupt(name, nil, "central directory record \(index + 1) does not start with its signature")
            }
            let nameLength = Int(fixed.u16(28)), extraLength = Int(fixed.u16(30)), commentLength = Int(fixed.u16(32))
            let variable = nameLength + extraLength
            guard at + 46 + Int64(variable + commentLength) <= directoryEnd,
                  let tail = try bytes.bytes(at: at + 46, count: variable) else {
                throw ArchiveProblem.corrupt(name, nil, "central directory record \(index + 1) runs past the end of the directory")
            }
            let entryName = decodeName(Array(tail[0..<nameLength]), utf8Flag: fixed.u16(8) & 0x0800 != 0)
            var compressed = UInt64(fixed.u32(20)), inflated = UInt64(fixed.u32(24)), offset = UInt64(fixed.u32(42))
            if compressed == 0xFFFF_FFFF || inflated == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
                // ZIP64: the extended information extra field holds, in this order, each of the
                // three that is saturated in the fixed record.
                guard let zip64 = zip64Field(Array(tail[nameLength...])) else {
                    throw ArchiveProblem.corrupt(name, entryName, "its directory record saturates a size and has no ZIP64 field")
                }
                var k = 0
                func next() -> UInt64? {
                    guard k + 8 <= zip64.count else { return nil }
                    defer { k += 8 }
                    return zip64.u64(k)
                }
                if inflated == 0xFFFF_FFFF { guard let v = next() else { throw ArchiveProblem.corrupt(name, entryName, "its ZIP64 field is cut short") }; inflated = v }
                if compressed == 0xFFFF_FFFF { guard let v = next() else { throw ArchiveProblem.corrupt(name, entryName, "its ZIP64 field is cut short") }; compressed = v }
                if offset == 0xFFFF_FFFF { guard let v = next() else { throw ArchiveProblem.corrupt(name, entryName, "its ZIP64 field is cut short") }; offset = v }
            }
            guard compressed <= UInt64(bytes.size), offset <= UInt64(bytes.size) else {
                throw ArchiveProblem.corrupt(name, entryName, "its directory record places \(compressed) bytes at offset \(offset), outside the \(bytes.size)-byte file")
            }
            let entry = ZipEntry(name: entryName, index: index, method: fixed.u16(10), flags: fixed.u16(8), crc32: fixed.u32(16),
                                 compressedSize: Int64(compressed), uncompressedSize: Int64(min(inflated, UInt64(Int64.max))),
                                 localHeaderOffset: Int64(offset))
            try check(entry, limits: limits, archive: name)
            total += entry.uncompressedSize
            if total > limits.maxTotalBytes { throw ArchiveProblem.totalTooLarge(name, total, limit: limits.maxTotalBytes) }
            entries.append(entry)
            at += 46 + Int64(variable + commentLength)
        }
        return entries
    }

    /// The limits one entry's declared sizes must meet, checked before anything is inflated.
    private static func check(_ entry: ZipEntry, limits: ArchiveLimits, archive: String) throws {
        if entry.uncompressedSize > limits.maxEntryBytes {
            throw ArchiveProblem.entryTooLarge(archive, entry.name, entry.uncompressedSize, limit: limits.maxEntryBytes)
        }
        if entry.uncompressedSize > limits.ratioExemptBytes,
           entry.uncompressedSize / max(entry.compressedSize, 1) > limits.maxRatio {
            throw ArchiveProblem.ratio(archive, entry.name, compressed: entry.compressedSize, inflated: entry.uncompressedSize, limit: limits.maxRatio)
        }
    }

    /// The end-of-central-directory record, searched from the end of the file (a comment of up
    /// to 64 KiB may follow it), and the ZIP64 one it points to when its fields are saturated.
    private static func findDirectory(_ bytes: ArchiveBytes) throws -> Directory {
        let name = bytes.displayName
        let tailLength = Int(min(bytes.size, 22 + 65_535))
        guard tailLength >= 22, let tail = try bytes.bytes(at: bytes.size - Int64(tailLength), count: tailLength) else {
            throw try startsLikeZip(bytes) ? ArchiveProblem.truncated(name, nil, "it holds no end-of-directory record") : ArchiveProblem.notAZip(name)
        }
        var i = tailLength - 22
        var found: Int?
        while i >= 0 {
            if tail[i] == 0x50 && tail[i + 1] == 0x4B && tail[i + 2] == 0x05 && tail[i + 3] == 0x06,
               i + 22 + Int(tail.u16(i + 20)) <= tailLength {
                found = i
                break
            }
            i -= 1
        }
        guard let e = found else {
            throw try startsLikeZip(bytes)
                ? ArchiveProblem.truncated(name, nil, "the file ends before the archive's central directory")
                : ArchiveProblem.notAZip(name)
        }
        let eocdOffset = bytes.size - Int64(tailLength) + Int64(e)
        if tail.u16(e + 4) != 0 || tail.u16(e + 6) != 0 || tail.u16(e + 8) != tail.u16(e + 10) {
            throw ArchiveProblem.unsupported(name, nil, "several disks (a spanned or split archive)")
        }
        var directory = Directory(entryCount: UInt64(tail.u16(e + 10)), offset: Int64(tail.u32(e + 16)), size: Int64(tail.u32(e + 12)), end: eocdOffset)
        let saturated = tail.u16(e + 10) == 0xFFFF || tail.u32(e + 12) == 0xFFFF_FFFF || tail.u32(e + 16) == 0xFFFF_FFFF
        // The ZIP64 locator, 20 bytes before the record, points to the ZIP64 record.
        if eocdOffset >= 20, let locator = try bytes.bytes(at: eocdOffset - 20, count: 20), locator.u32(0) == 0x0706_4B50 {
            let recordOffset = locator.u64(8)
            guard recordOffset < UInt64(eocdOffset), let record = try bytes.bytes(at: Int64(recordOffset), count: 56),
                  record.u32(0) == 0x0606_4B50 else {
                throw ArchiveProblem.corrupt(name, nil, "its ZIP64 end-of-directory record is missing where its locator points")
            }
            if record.u32(16) != 0 || record.u32(20) != 0 || record.u64(24) != record.u64(32) {
                throw ArchiveProblem.unsupported(name, nil, "several disks (a spanned or split archive)")
            }
            guard record.u64(40) <= UInt64(bytes.size), record.u64(48) <= UInt64(bytes.size) else {
                throw ArchiveProblem.corrupt(name, nil, "its ZIP64 directory lies outside the file")
            }
            directory = Directory(entryCount: record.u64(32), offset: Int64(record.u64(48)), size: Int64(record.u64(40)), end: Int64(recordOffset))
        } else if saturated {
            throw ArchiveProblem.corrupt(name, nil, "its end-of-directory record is saturated and no ZIP64 record follows it")
        }
        return directory
    }

    private static func startsLikeZip(_ bytes: ArchiveBytes) throws -> Bool {
        try bytes.bytes(at: 0, count: 4) == localHeaderMagic
    }

    /// The data of the ZIP64 extended-information extra field (id 1) in `extra`, if any.
    private static func zip64Field(_ extra: [UInt8]) -> [UInt8]? {
        var i = 0
        while i + 4 <= extra.count {
            let id = extra.u16(i), length = Int(extra.u16(i + 2))
            guard i + 4 + length <= extra.count else { return nil }
            if id == 1 { return Array(extra[(i + 4)..<(i + 4 + length)]) }
            i += 4 + length
        }
        return nil
    }

    /// An entry name: UTF-8 when flagged so or when it is valid UTF-8, else byte for byte as Latin-1.
    static func decodeName(_ raw: [UInt8], utf8Flag: Bool) -> String {
        if let s = String(validating: raw, as: UTF8.self) { return s }
        if utf8Flag { return String(decoding: raw, as: UTF8.self) }
        return String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
    }
}
