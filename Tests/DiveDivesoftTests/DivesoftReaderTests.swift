import Foundation
import Testing
import DiveCore
@testable import DiveDivesoft
import TestSupport

/// A version 1 log made here: a 32-byte header (checksum filled in) and the given records.
func madeLog(depthCM: Int = 1234, records: [[UInt8]]) -> [UInt8] {
    var h = [UInt8](repeating: 0, count: 32)
    h[0...3] = Array("DivE".utf8)[...]
    // 2021-01-01T10:00:00 is 662 810 400 s after 2000-01-01; duration 600 s, mode 1 (open circuit).
    for (i, b) in withUnsafeBytes(of: UInt32(662_810_400).littleEndian, Array.init).enumerated() { h[8 + i] = b }
    for (i, b) in withUnsafeBytes(of: UInt32(600 | 1 << 27).littleEndian, Array.init).enumerated() { h[12 + i] = b }
    h[20] = UInt8(depthCM & 0xFF); h[21] = UInt8(depthCM >> 8)
    h[24] = 0x10; h[25] = 0x27 // 10000 × 10 Pa
    let crc = h[6...].withUnsafeBytes { Divesoft.crc16($0) }
    h[4] = UInt8(crc & 0xFF); h[5] = UInt8(crc >> 8)
    return h + records.joined()
}

/// A point record at `second` with `depth` centimetres.
func point(_ second: Int, depth: Int) -> [UInt8] {
    let flags = UInt32(second << 4)
    var r = withUnsafeBytes(of: flags.littleEndian, Array.init) + [UInt8(depth & 0xFF), UInt8(depth >> 8)]
    r += [UInt8](repeating: 0, count: 10)
    return r
}

func readMade(_ bytes: [UInt8]) throws -> (Dive?, [Finding]) {
    let path = try Paths.temporaryDirectory() + "/made.dlf"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let (book, findings) = try DivesoftReader(path: path, displayName: "made.dlf").readAll()
    return (book.dives.first, findings)
}

@Suite struct DivesoftMadeTests {
    @Test func pointRecordsAreTheProfile() throws {
        let (dive, findings) = try readMade(madeLog(records: [point(0, depth: 100), point(10, depth: 1234), point(9, depth: 500), point(20, depth: 0)]))
        let d = try #require(dive)
        #expect(d.startedAt?.description == "2021-01-01T10:00:00")
        #expect(d.submergedTime == 600)
        #expect(d.maxDepth == 12.34)
        #expect(d.type == .openCircuit)
        #expect(d.recordings.first?.surfacePressure == 1)
        #expect(d.profile?.depth?.times == [0, 10_000, 20_000])
        #expect(d.profile?.depth?.values == [100, 1234, 0])
        #expect(findings.contains { $0.code == "divesoft.time-backwards" && $0.location.path == "byte 64" })
        #expect(findings.contains { $0.code == "divesoft.offset-absent" })
    }

    /// Version 2's header as libdivecomputer reads it: the start in UTC with its offset, the
    /// average depth, the serial at bytes 52–63.
    @Test func versionTwoHeader() throws {
        var h = [UInt8](repeating: 0, count: 64)
        h[0...3] = Array("DiVE".utf8)[...]
        func put(_ v: Int, _ at: Int, _ n: Int) { for i in 0..<n { h[at + i] = UInt8((v >> (8 * i)) & 0xFF) } }
        put(662_810_400, 8, 4); put(1200, 12, 4); h[18] = 2; put(215, 24, 2); put(3050, 28, 2); put(10_130, 32, 2)
        put(1500, 38, 2); put(120, 40, 2)
        h[52...63] = Array("ABCD12345678".utf8)[...]
        let crc = h[6...].withUnsafeBytes { Divesoft.crc16($0) }
        put(Int(crc), 4, 2)
        let (dive, _) = try readMade(h + point(0, depth: 0))
        let d = try #require(dive)
        #expect(d.startedAt?.description == "2021-01-01T12:00:00+02:00")
        #expect(d.submergedTime == 1200 && d.maxDepth == 30.5 && d.avgDepth == 15 && d.bottomTemperature == 21.5)
        #expect(d.type == .closedCircuit)
        #expect(d.recordings.first?.device?.serial == "ABCD-12345678")
    }

    @Test func aRecordCutShortIsAnError() throws {
        var bytes = madeLog(records: [point(0, depth: 100), point(10, depth: 200)])
        bytes.removeLast(5)
        #expect {
            try readMade(bytes)
        } throws: { e in
            let e = e as? DiveError
            return e?.code == "divesoft.truncated-record" && e?.location.path == "byte 48"
                && e?.message == "the last record, at byte 48, is 11 bytes long, not 16: the file is cut short"
        }
    }

    @Test func aDamagedHeaderIsAnError() throws {
        var bytes = madeLog(records: [point(0, depth: 100)])
        bytes[20] ^= 1
        #expect(throws: DiveError.self) { try readMade(bytes) }
        #expect {
            try readMade(bytes)
        } throws: { ($0 as? DiveError)?.code == "divesoft.header-checksum" }
    }
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct DivesoftCorpusTests {
    /// Read off the file by hand (python3, struct.unpack '<I'/'<H' at the offsets of
    /// docs/divesoft-mapping.md): bytes 8–11 are 0x28573f2c = 676 806 444 s after 2000-01-01 =
    /// 2021-06-12 09:47:24; the word at 12 is 0xd3fe11f2, whose low 17 bits are 4594 s and bits
    /// 27–29 mode 2 (CCR); bytes 20–21 0x0b6a = 2922 cm; bytes 24–25 0x25ca = 9674 × 10 Pa; bytes
    /// 26–27 the diluent 21/0. Of the 2490 records, 1518 are point records; 44 of them carry a time
    /// 1 or 2 s before the record ahead of them, leaving 1474 depths; 77 AI pressure records
    /// at other seconds give 1523 distinct instants. The six AI configuration records (bytes
    /// 128–223) name 21/0, 50/0, 100/0, 30/34 and, numbered 0 and 1 after 3 (pre-release
    /// firmware), the loop's 100/0 oxygen and 21/0 diluent; the GPS record at byte 112 gives
    /// 49.792736 N 15.577312 E.
    @Test func theLibertyDive() throws {
        let path = Paths.corpus + "/other/divesoft__Liberty_CCR_header_v1_00000011.dlf"
        let (book, findings) = try DivesoftReader(path: path, displayName: "liberty.dlf").readAll()
        #expect(book.dives.count == 1)
        let d = try #require(book.dives.first)
        #expect(d.startedAt?.description == "2021-06-12T09:47:24")
        #expect(d.maxDepth == 29.22)
        #expect(d.submergedTime == 4594)
        #expect(d.type == .closedCircuit)
        #expect(d.cylinders.map { "\($0.gasLabel ?? "?") \($0.role?.rawValue ?? "-")" }
                == ["Air -", "EAN50 -", "O2 -", "Tx30/34 -", "O2 oxygen", "Air diluent"])
        #expect(d.entryPosition == Position(latitude: 49.792736, longitude: 15.577312))
        #expect(d.recordings.first?.device?.serial == "7026-00000661")
        #expect(d.recordings.first?.device?.firmware == "2.14.0.6955")
        #expect(d.profile?.depth?.count == 1474)
        #expect(d.profile?.sampleCount == 1523)
        // The first AI pressure record (byte 224) gives transmitters 0 and 1 as 0x2d and 0x3e × 2 bar.
        #expect(d.cylinders[4].startPressure == 90 && d.cylinders[5].startPressure == 124)
        #expect(findings.contains { $0.code == "divesoft.gas-id-renumbered" })
        #expect(findings.contains { $0.code == "divesoft.not-carried" && $0.location.path == "byte 22" && $0.message.contains("0x47") })
        #expect(findings.allSatisfy { $0.location.path?.hasPrefix("byte ") == true })
    }
}
