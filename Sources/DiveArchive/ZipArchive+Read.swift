import DiveCore
internal import Foundation
internal import ZIPFoundation

extension ZipArchive {
    /// How many bytes a chunk handed to ``read(_:chunk:)`` holds at most.
    public static let chunkSize = 64 * 1024

    /// Streams `entry`'s inflated bytes to `chunk`, at most ``chunkSize`` at a time, never
    /// holding more than one chunk. Throws `zip.*` errors (the entry named) for data that lies
    /// outside the file, an unsupported method or encryption, more bytes than the directory
    /// declared (`zip.bomb`), fewer, or a CRC-32 that does not match (`zip.corrupt`); an error
    /// `chunk` throws ends the reading and is rethrown as it is.
    public func read(_ entry: ZipEntry, chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        let name = displayName
        if entry.isEncrypted { throw ArchiveProblem.unsupported(name, entry.name, "encryption") }
        guard let header = try bytes.bytes(at: entry.localHeaderOffset, count: 30) else {
            throw ArchiveProblem.truncated(name, entry.name, "the file ends inside the entry's local header")
        }
        guard header.u32(0) == 0x0403_4B50 else {
            throw ArchiveProblem.corrupt(name, entry.name, "the entry's local header is not where the directory says")
        }
        let dataStart = entry.localHeaderOffset + 30 + Int64(header.u16(26)) + Int64(header.u16(28))
        guard dataStart + entry.compressedSize <= bytes.size else {
            throw ArchiveProblem.truncated(name, entry.name, "the entry's \(entry.compressedSize) compressed bytes run past the end of the file")
        }
        var produced: Int64 = 0
        var passedThrough: Error?
        let declared = entry.uncompressedSize
        func deliver(_ data: Data) throws {
            guard !data.isEmpty else { return }
            produced += Int64(data.count)
            if produced > declared { throw ArchiveProblem.inflatesPastDeclared(name, entry.name, declared: declared) }
            do { try data.withUnsafeBytes { try chunk($0) } } catch {
                passedThrough = error
                throw error
            }
        }
        let crc: UInt32
        switch entry.method {
        case 0:
            crc = try copyStored(entry, from: dataStart, deliver: deliver)
        case 8:
            do {
                crc = try inflate(entry, from: dataStart, deliver: deliver)
            } catch {
                // What `chunk` threw, or this layer's own error, as it is; anything else is
                // zlib's verdict on the data.
                if let passedThrough { throw passedThrough }
                if error is DiveError { throw error }
                throw ArchiveProblem.corrupt(name, entry.name, "its deflate data is invalid")
            }
        default:
            throw ArchiveProblem.unsupported(name, entry.name, "compression method \(entry.method) (\(Self.methodName(entry.method)))")
        }
        if produced < declared {
            throw ArchiveProblem.corrupt(name, entry.name, "the entry inflates to \(produced) bytes where the directory declares \(declared)")
        }
        if crc != entry.crc32 {
            throw ArchiveProblem.corrupt(name, entry.name, "the entry's bytes do not match the checksum (CRC-32) the directory records")
        }
    }

    /// A stored entry, copied chunk by chunk; its CRC-32.
    private func copyStored(_ entry: ZipEntry, from start: Int64, deliver: (Data) throws -> Void) throws -> UInt32 {
        var crc: UInt32 = 0
        var at = start
        let end = start + entry.compressedSize
        var buffer = Data(count: Self.chunkSize)
        while at < end {
            let want = Int(min(Int64(Self.chunkSize), end - at))
            let n = try buffer.withUnsafeMutableBytes { try bytes.read(at: at, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want])) }
            guard n == want else { throw ArchiveProblem.truncated(displayName, entry.name, "the file ends inside the entry's data") }
            let piece = buffer.prefix(n)
            crc = piece.crc32(checksum: crc)
            try deliver(piece)
            at += Int64(n)
        }
        return crc
    }

    /// A deflated entry, inflated by ZIPFoundation from a provider that never reads past the
    /// entry's compressed bytes; its CRC-32.
    private func inflate(_ entry: ZipEntry, from start: Int64, deliver: (Data) throws -> Void) throws -> UInt32 {
        let name = displayName
        let bytes = self.bytes
        var at = start
        let end = start + entry.compressedSize
        func provider(_: Int64, _ size: Int) throws -> Data {
            guard at < end else {
                throw ArchiveProblem.corrupt(name, entry.name, "its deflate stream does not end within the entry's \(entry.compressedSize) compressed bytes")
            }
            let want = Int(min(Int64(size), end - at))
            var data = Data(count: Self.providerChunk(requested: size, available: want))
            let n = try data.withUnsafeMutableBytes { try bytes.read(at: at, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want])) }
            guard n == want else { throw ArchiveProblem.truncated(name, entry.name, "the file ends inside the entry's data") }
            at += Int64(n)
            return data
        }
        return try Data.decompress(size: entry.compressedSize, bufferSize: Self.chunkSize, skipCRC32: false,
                                   provider: provider, consumer: deliver)
    }

    /// How many bytes a chunk handed to ZIPFoundation's inflater holds. On Linux it tells zlib
    /// every chunk is as long as it asked for, so a short last chunk is zero-padded to that
    /// length (zlib stops at the stream's end; zeros past a stream that has not ended are
    /// invalid data or run into the bound above). Apple's inflater takes the chunk as it is.
    static func providerChunk(requested: Int, available: Int) -> Int {
        #if canImport(Darwin)
        return available
        #else
        return max(requested, available)
        #endif
    }

    static func methodName(_ method: UInt16) -> String {
        switch method {
        case 1...7: return "an obsolete method"
        case 9: return "Deflate64"
        case 12: return "bzip2"
        case 14: return "LZMA"
        case 93: return "Zstandard"
        case 95: return "XZ"
        case 99: return "AES encryption"
        default: return "unknown"
        }
    }
}
