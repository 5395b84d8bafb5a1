import Foundation
import Testing
import DiveCore
@testable import DiveArchive
import TestSupport
import ZIPFoundation

/// A zip archive built in memory by ZIPFoundation: each entry's name, bytes and method.
func makeZip(_ entries: [(String, [UInt8], CompressionMethod)]) throws -> [UInt8] {
    let archive = try Archive(data: Data(), accessMode: .create)
    for (name, bytes, method) in entries {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count),
                             modificationDate: Date(timeIntervalSince1970: 1_300_000_000), compressionMethod: method,
                             provider: { position, size in Data(bytes[Int(position)..<(Int(position) + size)]) })
    }
    return [UInt8](try #require(archive.data))
}

/// A one-entry archive of `count` bytes of `fill`, generated chunk by chunk as ZIPFoundation
/// deflates them (never held: the tests share one process, whose peak memory the CLI tests'
/// children inherit in their measurement).
func makeFilledZip(_ name: String, count: Int, fill: UInt8) throws -> [UInt8] {
    let archive = try Archive(data: Data(), accessMode: .create)
    try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(count),
                         modificationDate: Date(timeIntervalSince1970: 1_300_000_000), compressionMethod: .deflate,
                         provider: { _, size in Data(repeating: fill, count: size) })
    return [UInt8](try #require(archive.data))
}

/// The error `body` throws, as a ``DiveError``.
func zipError(_ body: () throws -> Void) -> DiveError? {
    do { try body() } catch let e as DiveError { return e } catch { Issue.record("not a DiveError: \(error)") }
    return nil
}

/// Every byte of `entry`, and the largest chunk it came in.
func readAll(_ archive: ZipArchive, _ entry: ZipEntry) throws -> (bytes: [UInt8], largestChunk: Int) {
    var out: [UInt8] = []
    var largest = 0
    try archive.read(entry) { chunk in
        out.append(contentsOf: chunk)
        largest = max(largest, chunk.count)
    }
    return (out, largest)
}

/// Offsets of the first central-directory record and the first local header's fields.
enum Layout {
    static func centralDirectory(_ zip: [UInt8]) -> Int {
        let sig: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        return (0...(zip.count - 4)).first { Array(zip[$0..<($0 + 4)]) == sig }!
    }
    static func put32(_ zip: inout [UInt8], _ at: Int, _ v: UInt32) {
        for k in 0..<4 { zip[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    }
    static func le(_ v: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    /// A one-entry archive written byte by byte, its sizes as given, CRC 0, and a comment
    /// of `comment` bytes after the directory.
    static func single(name: String, data: [UInt8], method: Int, inflated: Int, comment: Int = 0) -> [UInt8] {
        let n = Array(name.utf8)
        let local = [0x50, 0x4B, 0x03, 0x04] + le(20, 2) + le(0, 2) + le(method, 2) + le(0, 4) + le(0, 4)
            + le(data.count, 4) + le(inflated, 4) + le(n.count, 2) + le(0, 2) + n
        let central = [0x50, 0x4B, 0x01, 0x02] + le(20, 2) + le(20, 2) + le(0, 2) + le(method, 2) + le(0, 4) + le(0, 4)
            + le(data.count, 4) + le(inflated, 4) + le(n.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) + n
        let end = [0x50, 0x4B, 0x05, 0x06] + le(0, 2) + le(0, 2) + le(1, 2) + le(1, 2) + le(central.count, 4)
            + le(local.count + data.count, 4) + le(comment, 2) + [UInt8](repeating: 0x41, count: comment)
        return local + data + central + end
    }
}

@Suite struct ZipArchiveTests {
    let text = Array(String(repeating: "<SAMPLE><DEPTH>12,3</DEPTH></SAMPLE>\n", count: 5000).utf8)

    @Test func listsEntriesAndStreamsThemInChunks() throws {
        let zip = try makeZip([("0.xml", text, .deflate), ("notes/1.txt", Array("stored".utf8), .none), ("empty.xml", [], .deflate)])
        let archive = try ZipArchive(bytes: zip, displayName: "t.zip")
        #expect(archive.entries.map(\.name) == ["0.xml", "notes/1.txt", "empty.xml"])
        #expect(archive.entries[0].uncompressedSize == Int64(text.count))
        #expect(archive.entries[0].method == 8 && archive.entries[1].method == 0)
        let (bytes, largest) = try readAll(archive, archive.entries[0])
        #expect(bytes == text)
        #expect(largest <= ZipArchive.chunkSize && text.count > ZipArchive.chunkSize)
        #expect(try readAll(archive, archive.entries[1]).bytes == Array("stored".utf8))
        #expect(try readAll(archive, archive.entries[2]).bytes == [])
    }

    @Test func opensAFileByPath() throws {
        let dir = try Paths.temporaryDirectory()
        let zip = try makeZip([("0.xml", text, .deflate)])
        try Data(zip).write(to: URL(fileURLWithPath: dir + "/a.zip"))
        let archive = try ZipArchive(path: dir + "/a.zip")
        #expect(try readAll(archive, archive.entries[0]).bytes == text)
        let e = zipError { _ = try ZipArchive(path: dir + "/missing.zip") }
        #expect(e?.code == "io.open")
    }

    /// 8 MiB of one byte deflates about 1000:1: past the ratio, refused when the archive is
    /// opened, before a byte is inflated.
    @Test func aDeflateBombIsRefusedBeforeItIsInflated() throws {
        let zip = try makeFilledZip("0.xml", count: 8 << 20, fill: 0x20)
        #expect(zip.count < 16 << 10)
        let e = zipError { _ = try ZipArchive(bytes: zip, displayName: "bomb.zip") }
        #expect(e?.code == "zip.bomb")
        #expect(e?.location.path == "0.xml")
        #expect(e?.description.hasPrefix("bomb.zip: error[zip.bomb]: 0.xml: the entry's ") == true)
        #expect(e?.message.contains("inflate to 8388608") == true)
    }

    @Test func anEntryOrAnArchivePastTheSizeLimitsIsRefused() throws {
        let zip = try makeZip([("a.xml", text, .deflate), ("b.xml", text, .deflate)])
        var limits = ArchiveLimits.standard
        limits.maxEntryBytes = 100_000
        let e = zipError { _ = try ZipArchive(bytes: zip, displayName: "big.zip", limits: limits) }
        #expect(e?.code == "zip.too-large")
        #expect(e?.location.path == "a.xml")
        limits = .standard
        limits.maxTotalBytes = Int64(text.count) + 1
        let total = zipError { _ = try ZipArchive(bytes: zip, displayName: "big.zip", limits: limits) }
        #expect(total?.code == "zip.too-large")
        #expect(total?.message.contains("in all") == true)
        limits = .standard
        limits.maxEntries = 1
        let many = zipError { _ = try ZipArchive(bytes: zip, displayName: "big.zip", limits: limits) }
        #expect(many?.code == "zip.too-many-entries")
        #expect(many?.message == "the zip archive lists 2 entries, more than the 1 umilog reads from one archive; it is refused before any is read")
    }

    /// A directory that understates an entry's size (here 1 MiB of spaces said to be 1000
    /// bytes, which passes every declared-size check) is caught while inflating: reading stops
    /// at the declared size.
    @Test func aDirectoryThatUnderstatesASizeStopsTheReading() throws {
        var zip = try makeFilledZip("0.xml", count: 1 << 20, fill: 0x20)
        let cd = Layout.centralDirectory(zip)
        Layout.put32(&zip, cd + 24, 1000)
        let archive = try ZipArchive(bytes: zip, displayName: "liar.zip")
        var seen = 0
        let e = zipError { try archive.read(archive.entries[0]) { seen += $0.count } }
        #expect(e?.code == "zip.bomb")
        #expect(e?.message.contains("more than the 1000 bytes the archive's directory declares") == true)
        #expect(seen <= 1000)
    }

    @Test func aDirectoryThatOverstatesASizeOrAWrongChecksumIsCorrupt() throws {
        var zip = try makeZip([("0.xml", text, .deflate)])
        let cd = Layout.centralDirectory(zip)
        Layout.put32(&zip, cd + 24, UInt32(text.count + 10))
        var archive = try ZipArchive(bytes: zip, displayName: "c.zip")
        var e = zipError { _ = try readAll(archive, archive.entries[0]) }
        #expect(e?.code == "zip.corrupt")
        #expect(e?.message == "the zip archive is damaged: the entry inflates to \(text.count) bytes where the directory declares \(text.count + 10)")
        zip = try makeZip([("0.xml", text, .deflate)])
        zip[cd + 16] ^= 0xFF
        archive = try ZipArchive(bytes: zip, displayName: "c.zip")
        e = zipError { _ = try readAll(archive, archive.entries[0]) }
        #expect(e?.code == "zip.corrupt")
        #expect(e?.message.contains("CRC-32") == true)
    }

    /// Cut anywhere, an archive is an error with a `zip.*` code, never a trap or a hang.
    @Test func aTruncatedArchiveIsALocatedError() throws {
        let zip = try makeZip([("0.xml", text, .deflate), ("1.xml", text, .deflate)])
        let half = zipError { _ = try ZipArchive(bytes: Array(zip.prefix(zip.count / 2)), displayName: "cut.zip") }
        #expect(half?.code == "zip.truncated")
        #expect(half?.description == "cut.zip: error[zip.truncated]: the zip archive ends too early: the file ends before the archive's central directory; the file looks truncated")
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let cut = Int.random(in: 0..<zip.count, using: &rng)
            let e = zipError {
                let archive = try ZipArchive(bytes: Array(zip.prefix(cut)), displayName: "cut.zip")
                for entry in archive.entries { _ = try readAll(archive, entry) }
            }
            #expect(e?.code.hasPrefix("zip.") == true, "cut at \(cut): \(String(describing: e))")
        }
        let notZip = zipError { _ = try ZipArchive(bytes: Array("hello, this is not a zip archive at all".utf8), displayName: "t.txt") }
        #expect(notZip?.code == "zip.corrupt")
        #expect(notZip?.message == "the file is not a zip archive: it has no end-of-directory record")
    }

    /// A deflate stream that never ends inside its entry (it stops on an open stored block,
    /// which would swallow whatever follows) is `zip.corrupt`, promptly: ZIPFoundation's own
    /// `Archive.extract` spins forever on such an entry on Linux.
    @Test(.timeLimit(.minutes(1))) func aDeflateStreamThatDoesNotEndIsCorrupt() throws {
        // A stored block "hello", not final, then a stored block of 65,535 bytes that never come.
        let stream: [UInt8] = [0x00, 0x05, 0x00, 0xFA, 0xFF] + Array("hello".utf8) + [0x00, 0xFF, 0xFF, 0x00, 0x00]
        let zip = Layout.single(name: "0.xml", data: stream, method: 8, inflated: 100_000)
        let archive = try ZipArchive(bytes: zip, displayName: "open.zip")
        let e = zipError { _ = try readAll(archive, archive.entries[0]) }
        #expect(e?.code == "zip.corrupt")
        #expect(e?.message == "the zip archive is damaged: its deflate stream does not end within the entry's 15 compressed bytes")
        // And the rest of the file is not read as the entry's data.
        let withTail = Layout.single(name: "0.xml", data: stream, method: 8, inflated: 100_000, comment: 60_000)
        let e2 = zipError { let a = try ZipArchive(bytes: withTail, displayName: "open.zip"); _ = try readAll(a, a.entries[0]) }
        #expect(e2?.code == "zip.corrupt")
    }

    @Test func unsupportedMethodsAndEncryptionAreNamed() throws {
        var zip = try makeZip([("0.xml", text, .deflate)])
        let cd = Layout.centralDirectory(zip)
        zip[cd + 10] = 14
        zip[8] = 14
        var archive = try ZipArchive(bytes: zip, displayName: "m.zip")
        var e = zipError { _ = try readAll(archive, archive.entries[0]) }
        #expect(e?.code == "zip.unsupported")
        #expect(e?.message == "the zip archive uses compression method 14 (LZMA), which umilog does not read")
        zip = try makeZip([("0.xml", text, .deflate)])
        zip[cd + 8] |= 1
        archive = try ZipArchive(bytes: zip, displayName: "m.zip")
        e = zipError { _ = try readAll(archive, archive.entries[0]) }
        #expect(e?.message == "the zip archive uses encryption, which umilog does not read")
    }

    /// Gzip and a zip peek inflate through one in-memory inflater and differ at the limit: a
    /// gzip member past it is refused, a peek keeps the first `limit` bytes.
    @Test func gzipAndAPeekDifferOnlyAtTheLimit() throws {
        let zip = try makeZip([("0.xml", text, .deflate)])
        let archive = try ZipArchive(bytes: zip, displayName: "m.zip")
        let entry = archive.entries[0]
        let dataStart = 30 + Int(zip.u16(26)) + Int(zip.u16(28))
        let deflated = Array(zip[dataStart..<(dataStart + Int(entry.compressedSize))])
        // A gzip member: the 10-byte header, the stream, a zeroed trailer (not checked).
        let gzip = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + deflated + [UInt8](repeating: 0, count: 8)
        #expect(try Gzip.inflate(gzip, limit: text.count) == text)
        #expect(throws: Gzip.Failure.tooLarge(limit: text.count - 1)) { try Gzip.inflate(gzip, limit: text.count - 1) }
        // A cut stream is refused; which way depends on the platform: on Linux the inflater is
        // handed a zero-padded last chunk, whose zeros inflate as data past the limit.
        let cut = Array(gzip.prefix(10 + deflated.count / 2))
        #expect(throws: Gzip.Failure.self) { try Gzip.inflate(cut, limit: text.count) }
        var damaged = gzip
        damaged[10] = 0xFF   // a reserved block type
        #expect(throws: Gzip.Failure.corrupt("the deflate stream is damaged")) { try Gzip.inflate(damaged, limit: text.count) }
        #expect(ZipPeek.firstEntry(zip, limit: 1000)?.prefix == Array(text.prefix(1000)))
        #expect(ZipPeek.firstEntry(zip, limit: text.count + 10)?.prefix == text)
    }

    @Test func aPeekReadsTheFirstEntrysNameAndStart() throws {
        let zip = try makeZip([("0.xml", text, .deflate)])
        let peek = try #require(ZipPeek.firstEntry(Array(zip.prefix(200)), limit: 64))
        #expect(peek.name == "0.xml")
        #expect(peek.prefix == Array(text.prefix(peek.prefix.count)))
        #expect(!peek.prefix.isEmpty)
        #expect(ZipPeek.firstEntry(Array(zip.prefix(20))) == nil)
        #expect(ZipPeek.firstEntry(Array("<?xml version='1.0'?><a/>".utf8)) == nil)
        let stored = try makeZip([("x.txt", Array("plain".utf8), .none)])
        #expect(ZipPeek.firstEntry(stored)?.prefix == Array("plain".utf8))
    }
}
