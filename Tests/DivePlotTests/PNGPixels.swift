import Foundation
import ZIPFoundation

/// The pixels of an 8-bit RGB or RGBA PNG (what rsvg-convert writes), decoded just far enough
/// to look at them: the IDAT chunks inflated (ZIPFoundation's inflater, past the zlib
/// header) and each row's filter undone.
struct PNGPixels: CustomStringConvertible {
    let width: Int
    let height: Int
    let channels: Int
    private let data: [UInt8]

    enum Problem: Error { case notPNG, unsupported(String), damaged }

    init(_ png: [UInt8]) throws {
        guard png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Problem.notPNG }
        func u32(_ i: Int) -> Int { Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3]) }
        var at = 8
        var w = 0, h = 0, ch = 0
        var compressed: [UInt8] = []
        while at + 8 <= png.count {
            let length = u32(at)
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = Array(png[(at + 8)..<(at + 8 + length)])
            if type == "IHDR" {
                w = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
                h = Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
                guard body[8] == 8, body[12] == 0 else { throw Problem.unsupported("bit depth \(body[8]), interlace \(body[12])") }
                switch body[9] {
                case 2: ch = 3
                case 6: ch = 4
                default: throw Problem.unsupported("colour type \(body[9])")
                }
            }
            if type == "IDAT" { compressed += body }
            at += 12 + length
        }
        width = w; height = h; channels = ch
        // zlib: a 2-byte header, then raw deflate.
        var inflated = Data()
        var read = 2
        _ = try Data.decompress(size: Int64(compressed.count - 2), bufferSize: 1 << 16, skipCRC32: true, provider: { _, size in
            let n = min(size, compressed.count - read)
            defer { read += n }
            return Data(compressed[read..<(read + n)])
        }, consumer: { inflated.append($0) })
        let raw = [UInt8](inflated)
        let stride = w * ch
        guard raw.count >= h * (stride + 1) else { throw Problem.damaged }
        var out = [UInt8](repeating: 0, count: h * stride)
        for y in 0..<h {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let v = Int(raw[y * (stride + 1) + 1 + x])
                let a = x >= ch ? Int(out[y * stride + x - ch]) : 0
                let b = y > 0 ? Int(out[(y - 1) * stride + x]) : 0
                let c = x >= ch && y > 0 ? Int(out[(y - 1) * stride + x - ch]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw Problem.damaged
                }
                out[y * stride + x] = UInt8((v + predicted) & 0xFF)
            }
        }
        data = out
    }

    var description: String { "PNG \(width)×\(height)" }

    /// Red, green, blue at a pixel.
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * width + x) * channels
        return (Int(data[i]), Int(data[i + 1]), Int(data[i + 2]))
    }

    /// True when the pixel is white (the drawing's background), give or take antialiasing.
    func isBackground(_ x: Int, _ y: Int) -> Bool {
        let (r, g, b) = rgb(x, y)
        return r > 245 && g > 245 && b > 245
    }
}
