/// The text encoding a CSV file was read in. Whatever it is, the tokenizer sees UTF-8: a
/// byte-order mark is dropped, UTF-16 is transcoded as it streams, and bytes that are not
/// UTF-8 are read as Windows-1252.
public enum CSVEncoding: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// UTF-8 without a byte-order mark (plain ASCII is reported as this).
    case utf8 = "UTF-8"
    /// UTF-8 that starts with the byte-order mark `EF BB BF` (Excel's "CSV UTF-8").
    case utf8BOM = "UTF-8 with BOM"
    /// UTF-16, little-endian, announced by the byte-order mark `FF FE`.
    case utf16LE = "UTF-16LE"
    /// UTF-16, big-endian, announced by the byte-order mark `FE FF`.
    case utf16BE = "UTF-16BE"
    /// Bytes that are not UTF-8, read as Windows-1252 (Latin-1 with the 0x80–0x9F block
    /// holding `€`, `‚`, `„`, `…`, `‘`, `’`, `“`, `”`, `–`, `—`, `™`…).
    case windows1252 = "Windows-1252"

    /// The encoding's usual name (`UTF-8`, `UTF-16LE`, `Windows-1252`…).
    public var description: String { rawValue }

    /// UTF-16 without a byte-order mark, told by its zero bytes: text in any Latin script is
    /// mostly characters under U+0100, whose high byte is 0. `.utf16LE` when 90 % of the odd
    /// bytes of the first 512 are 0 and no even one is (`.utf16BE` the other way round); `nil`
    /// for anything else, and for fewer than four bytes.
    public static func unmarkedUTF16(_ bytes: some Collection<UInt8>) -> CSVEncoding? {
        var zeros = (even: 0, odd: 0), count = 0
        for (k, b) in bytes.prefix(512).enumerated() {
            count += 1
            if b == 0 { if k % 2 == 0 { zeros.even += 1 } else { zeros.odd += 1 } }
        }
        let pairs = count / 2
        guard pairs >= 2 else { return nil }
        if zeros.even == 0 && zeros.odd * 10 >= pairs * 9 { return .utf16LE }
        if zeros.odd == 0 && zeros.even * 10 >= pairs * 9 { return .utf16BE }
        return nil
    }
}

/// Byte-level text helpers: byte-order marks, UTF-8 validation, and transcoding UTF-16 and
/// Windows-1252 into UTF-8, each one chunk at a time so a file of any size streams.
enum CSVText {
    /// The encoding announced by a byte-order mark at the start of `bytes`, and the mark's
    /// length; `nil` without one.
    static func byteOrderMark(_ bytes: UnsafeRawBufferPointer) -> (CSVEncoding, Int)? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8BOM, 3) }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LE, 2) }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BE, 2) }
        return nil
    }

    /// How a run of bytes validates as UTF-8.
    enum UTF8Validity: Equatable, Sendable {
        /// Every byte belongs to a complete, well-formed sequence.
        case valid
        /// Well-formed up to the last `count` bytes, which begin a sequence the run cuts off.
        case incomplete(count: Int)
        /// The byte at `offset` does not start (or continue) a well-formed sequence.
        case invalid(offset: Int)
    }

    /// Validates `bytes` as UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
    /// ASCII runs are checked eight bytes at a time.
    static func validateUTF8(_ bytes: UnsafeRawBufferPointer) -> UTF8Validity {
        let n = bytes.count
        guard n > 0, let base = bytes.baseAddress else { return .valid }
        let p = base.assumingMemoryBound(to: UInt8.self)
        var i = 0
        while i < n {
            // Fast path: eight ASCII bytes at a time.
            while i + 8 <= n, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            guard i < n else { break }
            let b0 = p[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF   // the range of the second byte
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return .invalid(offset: i)
            }
            for k in 1..<length {
                guard i + k < n else { return .incomplete(count: n - i) }
                let b = p[i + k]
                let ok = k == 1 ? (b >= low && b <= high) : (b & 0xC0 == 0x80)
                if !ok { return .invalid(offset: i) }
            }
            i += length
        }
        return .valid
    }

    /// The Unicode scalars of Windows-1252's 0x80–0x9F block; the five bytes the code page
    /// leaves undefined map to the C1 controls of the same value, as Windows does.
    static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// Writes `scalar` as UTF-8 at `out`, returning the bytes written (1–4).
    @inline(__always)
    static func encodeUTF8(_ scalar: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            out[0] = UInt8(scalar); return 1
        case 0x80..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6); out[1] = UInt8(0x80 | scalar & 0x3F); return 2
        case 0x800..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12); out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F); return 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18); out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F); out[3] = UInt8(0x80 | scalar & 0x3F); return 4
        }
    }

    /// Transcodes Windows-1252 bytes to UTF-8 at `out` (room for 3 bytes per input byte),
    /// returning the bytes written.
    static func transcodeWindows1252(_ input: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = 0
        for b in input {
            if b < 0x80 {
                out[o] = b; o += 1
            } else if b < 0xA0 {
                o += encodeUTF8(UInt32(windows1252High[Int(b) - 0x80]), to: out + o)
            } else {
                o += encodeUTF8(UInt32(b), to: out + o)
            }
        }
        return o
    }

    /// Streaming UTF-16 to UTF-8: feed chunks of any size and parity; a byte or a high
    /// surrogate left over at the end of one chunk joins the next. Unpaired surrogates
    /// become U+FFFD.
    struct UTF16Transcoder {
        let bigEndian: Bool
        private var oddByte: UInt8?
        private var highSurrogate: UInt32?
        /// Unpaired surrogates replaced by U+FFFD so far.
        private(set) var replacements = 0

        init(bigEndian: Bool) { self.bigEndian = bigEndian }

        /// The most bytes ``transcode(_:to:isLast:)`` writes for `count` input bytes.
        static func maximumOutput(forInput count: Int) -> Int { (count + 2) / 2 * 3 + 8 }

        /// Transcodes `input`, returning the UTF-8 bytes written at `out`. With `isLast`, a
        /// dangling byte or surrogate is flushed as U+FFFD.
        mutating func transcode(_ input: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>, isLast: Bool) -> Int {
            var o = 0
            var i = 0
            let n = input.count
            @inline(__always) func unit(_ a: UInt8, _ b: UInt8) -> UInt32 {
                bigEndian ? UInt32(a) << 8 | UInt32(b) : UInt32(b) << 8 | UInt32(a)
            }
            @inline(__always) func emit(_ u: UInt32) {
                if let high = highSurrogate {
                    highSurrogate = nil
                    if (0xDC00...0xDFFF).contains(u) {
                        o += CSVText.encodeUTF8(0x10000 + (high - 0xD800) << 10 + (u - 0xDC00), to: out + o)
                        return
                    }
                    o += CSVText.encodeUTF8(0xFFFD, to: out + o); replacements += 1
                }
                switch u {
                case 0xD800...0xDBFF: highSurrogate = u
                case 0xDC00...0xDFFF: o += CSVText.encodeUTF8(0xFFFD, to: out + o); replacements += 1
                default: o += CSVText.encodeUTF8(u, to: out + o)
                }
            }
            if let first = oddByte, n > 0 {
                oddByte = nil
                emit(unit(first, input[0]))
                i = 1
            }
            while i + 1 < n {
                emit(unit(input[i], input[i + 1]))
                i += 2
            }
            if i < n { oddByte = input[i] }
            if isLast {
                if highSurrogate != nil || oddByte != nil {
                    o += CSVText.encodeUTF8(0xFFFD, to: out + o); replacements += 1
                }
                highSurrogate = nil; oddByte = nil
            }
            return o
        }
    }
}
