internal import Foundation
internal import ZIPFoundation

/// A raw deflate stream held in memory, inflated through the inflater the zip layer streams
/// with (ZIPFoundation's): a gzip member's data (``Gzip``) and the start of a zip's first entry
/// for a sniffer (``ZipPeek``). The two differ only in what they ask for and in what they make
/// of the way it ended.
enum MemoryInflater {
    /// How the inflating ended.
    enum End: Equatable {
        /// The stream ended.
        case complete
        /// The output would pass the limit: the bytes are the first `limit`.
        case pastLimit
        /// The input ended before the stream did.
        case inputEnded
        /// The stream is damaged.
        case damaged
    }

    private struct InputEnded: Error {}
    private struct PastLimit: Error {}

    /// At most `limit` bytes inflated from the stream at the start of `input`, and how the
    /// inflating ended (what follows the stream is never read).
    /// - Parameter bufferSize: the inflater's chunk. ZIPFoundation drops the output of a chunk
    ///   whose inflating fails, so a small one keeps more of a stream that is cut short.
    static func inflate(_ input: ArraySlice<UInt8>, limit: Int, bufferSize: Int) -> (bytes: [UInt8], end: End) {
        var at = input.startIndex
        var output: [UInt8] = []
        func provider(_: Int64, _ size: Int) throws -> Data {
            guard at < input.endIndex else { throw InputEnded() }
            let want = min(size, input.endIndex - at)
            // As ZipArchive's provider: ZIPFoundation on Linux hands zlib the length it asked for.
            var data = Data(count: ZipArchive.providerChunk(requested: size, available: want))
            data.replaceSubrange(0..<want, with: input[at..<(at + want)])
            at += want
            return data
        }
        func consumer(_ data: Data) throws {
            let room = limit - output.count
            output.append(contentsOf: data.prefix(room))
            if data.count > room { throw PastLimit() }
        }
        do {
            _ = try Data.decompress(size: Int64(input.count), bufferSize: bufferSize, skipCRC32: true,
                                    provider: provider, consumer: consumer)
            return (output, .complete)
        } catch is PastLimit {
            return (output, .pastLimit)
        } catch is InputEnded {
            return (output, .inputEnded)
        } catch {
            return (output, .damaged)
        }
    }
}
