internal import CZlib

/// Inflates a gzip member (RFC 1952) through zlib: the header is stepped over by its flags and
/// the deflate stream inflated raw, so the trailer's CRC is not checked (Submersion's reader
/// notes Shearwater Cloud exports whose trailers are zeroed). One owner of the zlib stream, ended
/// before returning.
enum Gzip {
    enum Failure: Error, Equatable {
        /// Not a gzip member: the message says what is wrong.
        case notGzip(String)
        /// zlib refused the deflate stream.
        case corrupt(String)
        /// The output would pass `limit` bytes.
        case tooLarge(limit: Int)
    }

    /// The inflated bytes of the gzip member at the start of `bytes`, at most `limit` of them.
    static func inflate(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
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
        return try inflateRaw(Array(bytes[start...]), limit: limit)
    }

    private static func inflateRaw(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard umilog_inflate_init_raw(&stream) == Z_OK else { throw .corrupt("zlib could not start") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        let count = input.count
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { inp in
            stream.next_in = inp.baseAddress
            stream.avail_in = uInt(count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: out[0..<(out.count - Int(stream.avail_out))])
                }
            } while status == Z_OK && output.count <= limit && (stream.avail_in > 0 || stream.avail_out == 0)
            stream.next_in = nil
        }
        if output.count > limit { throw .tooLarge(limit: limit) }
        switch status {
        case Z_STREAM_END: return output
        case Z_OK, Z_BUF_ERROR: throw .corrupt("the compressed data ends before its stream does")
        default: throw .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
        }
    }
}
