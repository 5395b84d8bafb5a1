/// What a zip file's first bytes say about its first entry, for a format's sniffer: a zip
/// file opens with that entry's local header, its name right after the 30 bytes of the header,
/// and its (usually deflated) data after that.
public struct ZipPeek: Sendable, Hashable {
    /// The first entry's name.
    public var name: String
    /// The first bytes the entry inflates to, as far as `head` holds its data (at most the
    /// `limit` asked for); empty when it is encrypted or compressed by a method umilog does
    /// not read. Only a sniff: the reader checks the whole entry.
    public var prefix: [UInt8]

    /// The first entry of the zip file whose first bytes are `head`, with up to `limit` of its
    /// inflated bytes; `nil` when `head` does not open with a local file header. Never throws
    /// and never reads past `head`.
    public static func firstEntry(_ head: [UInt8], limit: Int = 4096) -> ZipPeek? {
        guard head.count >= 30, head.starts(with: ZipArchive.localHeaderMagic) else { return nil }
        let flags = head.u16(6), method = head.u16(8)
        let nameLength = Int(head.u16(26)), extraLength = Int(head.u16(28))
        guard 30 + nameLength <= head.count else { return nil }
        let name = ZipArchive.decodeName(Array(head[30..<(30 + nameLength)]), utf8Flag: flags & 0x0800 != 0)
        let start = 30 + nameLength + extraLength
        guard flags & 1 == 0, start < head.count else { return ZipPeek(name: name, prefix: []) }
        // Without a data descriptor (flag bit 3) the local header states the compressed size.
        var end = head.count
        let stated = Int(head.u32(18))
        if flags & 0x08 == 0, stated != 0xFFFF_FFFF { end = min(end, start + stated) }
        let data = head[start..<end]
        switch method {
        case 0:
            return ZipPeek(name: name, prefix: Array(data.prefix(limit)))
        case 8:
            return ZipPeek(name: name, prefix: inflatedPrefix(data, limit: limit))
        default:
            return ZipPeek(name: name, prefix: [])
        }
    }

    /// Up to `limit` bytes inflated from the start of a raw deflate stream, whatever follows:
    /// as far as the stream goes, when `head` cuts it (small chunks keep all but the last).
    private static func inflatedPrefix(_ compressed: ArraySlice<UInt8>, limit: Int) -> [UInt8] {
        MemoryInflater.inflate(compressed, limit: limit, bufferSize: 256).bytes
    }
}
