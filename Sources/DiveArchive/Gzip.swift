internal import Foundation
internal import ZIPFoundation

/// Inflates a gzip member (RFC 1952) held in memory, through the same inflater the zip layer
/// uses: the header is stepped over by its flags and the deflate stream inflated raw, so the
/// trailer's CRC is not checked (Shearwater Cloud exports with zeroed trailers exist).
public enum Gzip {
    public enum Failure: Error, Equatable {
        /// Not a gzip member: the message says what is wrong.
        case notGzip(String)
        /// The deflate stream is damaged or ends early.
        case corrupt(String)
        /// The output would pass `limit` bytes.
        case tooLarge(limit: Int)
    }

    /// The inflated bytes of the gzip member at the start of `bytes`, at most `limit` of them.
    public static func inflate(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B else { throw .notGzip("it does not open with gzip's magic bytes") }
        guard bytes[2] == 8 else { throw .notGzip("its compression method is \(bytes[2]), not deflate") }
        let flags = bytes[3]
        var start = 10
        if flags & 0x04 != 0 {
            guard start + 2 <= bytes.count else { throw .notGzip("its header is cut short") }
            start += 2 + (Int(bytes[start]) | Int(bytes[start + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            while start < bytes.count, bytes[start] != 0 { start += 1 }
            start += 1
        }
        if flags & 0x02 != 0 { start += 2 }
        guard start < bytes.count else { throw .notGzip("its header is cut short") }
        return try inflateRaw(bytes[start...], limit: limit)
    }

    private struct StreamEnded: Error {}
    private struct PastLimit: Error {}

    private static func inflateRaw(_ input: ArraySlice<UInt8>, limit: Int) throws(Failure) -> [UInt8] {
        var at = input.startIndex
        var output: [UInt8] = []
        func provider(_: Int64, _ size: Int) throws -> Data {
            guard at < input.endIndex else { throw StreamEnded() }
            let want = min(size, input.endIndex - at)
            var data = Data(input[at..<(at + want)])
            // As ZipArchive's provider: ZIPFoundation on Linux hands zlib the length it asked for.
            let padded = ZipArchive.providerChunk(requested: size, available: want)
            if padded > want { data.append(Data(count: padded - want)) }
            at += want
            return data
        }
        func consumer(_ data: Data) throws {
            guard output.count + data.count <= limit else { throw PastLimit() }
            output.append(contentsOf: data)
        }
        do {
            _ = try Data.decompress(size: Int64(input.count), bufferSize: ZipArchive.chunkSize, skipCRC32: true,
                                    provider: provider, consumer: consumer)
        } catch is PastLimit {
            throw .tooLarge(limit: limit)
        } catch is StreamEnded {
            throw .corrupt("the compressed data ends before its stream does")
        } catch {
            throw .corrupt("the deflate stream is damaged")
        }
        return output
    }
}
