/// Inflates a gzip member (RFC 1952) held in memory, through the same inflater the zip layer
/// uses: the header is stepped over by its flags and the deflate stream inflated raw, so the
/// trailer's CRC is not checked (Shearwater Cloud exports with zeroed trailers exist).
public enum Gzip {
    /// Why a gzip member could not be inflated.
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

    private static func inflateRaw(_ input: ArraySlice<UInt8>, limit: Int) throws(Failure) -> [UInt8] {
        let (bytes, end) = MemoryInflater.inflate(input, limit: limit, bufferSize: ZipArchive.chunkSize)
        switch end {
        case .complete: return bytes
        case .pastLimit: throw .tooLarge(limit: limit)
        case .inputEnded: throw .corrupt("the compressed data ends before its stream does")
        case .damaged: throw .corrupt("the deflate stream is damaged")
        }
    }
}
