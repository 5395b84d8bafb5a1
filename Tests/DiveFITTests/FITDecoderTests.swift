import Foundation
import Testing
import DiveCore
@testable import DiveFIT
import TestSupport

// MARK: - Building FIT files by hand

/// A FIT file made of `records`: a 14-byte header (with its CRC unless `headerCRC` is false),
/// the records, and the file CRC (`fileCRC` overrides it).
func fitFile(_ records: [UInt8], headerCRC: Bool = true, fileCRC: UInt16? = nil) -> [UInt8] {
    let size = UInt32(records.count)
    var out: [UInt8] = [14, 0x20, 0x08, 0x08,
                        UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24),
                        0x2E, 0x46, 0x49, 0x54]
    let hc = headerCRC ? FITCRC.compute(out) : 0
    out += [UInt8(hc & 0xFF), UInt8(hc >> 8)]
    out += records
    let c = fileCRC ?? FITCRC.compute(out)
    out += [UInt8(c & 0xFF), UInt8(c >> 8)]
    return out
}

/// A definition record: local type, global number, fields (number, size, base type).
func definition(local: UInt8, global: UInt16, bigEndian: Bool = false, _ fields: [(UInt8, UInt8, UInt8)],
                        developer: [(UInt8, UInt8, UInt8)]? = nil) -> [UInt8] {
    var out: [UInt8] = [0x40 | (developer != nil ? 0x20 : 0) | local, 0, bigEndian ? 1 : 0]
    out += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
    out.append(UInt8(fields.count))
    for f in fields { out += [f.0, f.1, f.2] }
    if let developer {
        out.append(UInt8(developer.count))
        for f in developer { out += [f.0, f.1, f.2] }
    }
    return out
}

func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }

private func decodeAll(_ bytes: [UInt8]) throws -> [FITMessage] {
    let decoder = FITDecoder(bytes: bytes)
    var out: [FITMessage] = []
    while let m = try decoder.next() { out.append(m) }
    return out
}

private func expectError(_ code: String, at offset: Int, _ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    do {
        _ = try decodeAll(bytes)
        Issue.record("no error, expected \(code)", sourceLocation: sourceLocation)
    } catch let error as DiveError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.location.path == "byte \(offset)", "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}

// MARK: - Hand-built files

@Suite struct FITDecoderBytesTests {
    @Test func littleEndianFieldsAndTypes() throws {
        // file_id: type (enum) 4, manufacturer (uint16) 1, serial (uint32z) 0x01020304,
        // a sint16 -2, a float32 1.5, a string "Dive", a uint8 array [1, 0xFF, 3].
        var r = definition(local: 0, global: 0, [(0, 1, 0x00), (1, 2, 0x84), (3, 4, 0x8C), (10, 2, 0x83),
                                                 (11, 4, 0x88), (12, 6, 0x07), (13, 3, 0x02)])
        r += [0x00, 4, 1, 0, 4, 3, 2, 1, 0xFE, 0xFF]
        r += Array(withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian) { $0 })
        r += Array("Dive".utf8) + [0, 0]
        r += [1, 0xFF, 3]
        let messages = try decodeAll(fitFile(r))
        #expect(messages.count == 1)
        let m = try #require(messages.first)
        #expect(m.globalNumber == 0 && m.localType == 0 && m.index == 0)
        #expect(m.offset == 14 + 6 + 7 * 3)
        #expect(m.value(0) == .uint(4))
        #expect(m.field(0)?.baseType == .enumeration)
        #expect(m.value(1) == .uint(1))
        #expect(m.value(3) == .uint(0x0102_0304))
        #expect(m.value(10) == .sint(-2))
        #expect(m.value(11) == .float(1.5))
        #expect(m.value(12) == .string("Dive"))
        #expect(m.field(13)?.values == [.uint(1), nil, .uint(3)])
        #expect(m.field(13)?.isArray == true)
    }

    @Test func invalidSentinelsAreNil() throws {
        var r = definition(local: 0, global: 20, [(1, 1, 0x00), (2, 1, 0x01), (3, 1, 0x02), (4, 2, 0x83), (5, 2, 0x84),
                                                  (6, 4, 0x85), (7, 4, 0x86), (8, 1, 0x07), (9, 4, 0x88), (10, 8, 0x89),
                                                  (11, 1, 0x0A), (12, 2, 0x8B), (13, 4, 0x8C), (14, 2, 0x0D),
                                                  (15, 8, 0x8E), (16, 8, 0x8F), (17, 8, 0x90)])
        r += [0x00, 0xFF, 0x7F, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0x00,
              0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0xFF, count: 8)
        r += [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF]
        r += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F] + [UInt8](repeating: 0xFF, count: 8) + [UInt8](repeating: 0, count: 8)
        let m = try #require(try decodeAll(fitFile(r)).first)
        #expect(m.fields.count == 17)
        for f in m.fields {
            #expect(f.values.allSatisfy { $0 == nil }, "field \(f.number) \(String(describing: f.baseType)): \(f.values)")
            #expect(f.value == nil)
        }
        // One step from each sentinel is a value.
        var v = definition(local: 0, global: 20, [(1, 1, 0x02), (2, 1, 0x0A), (3, 2, 0x83)])
        v += [0x00, 0xFE, 0x01, 0xFF, 0xFF]
        let w = try #require(try decodeAll(fitFile(v)).first)
        #expect(w.value(1) == .uint(254))
        #expect(w.value(2) == .uint(1))
        #expect(w.value(3) == .sint(-1))
    }

    @Test func bigEndianDefinition() throws {
        var r = definition(local: 3, global: 0x0102, bigEndian: true, [(1, 2, 0x84), (2, 4, 0x85), (3, 8, 0x89)])
        r += [0x03, 0x12, 0x34, 0xFF, 0xFF, 0xFF, 0xFE]
        r += Array(withUnsafeBytes(of: Double(-2.25).bitPattern.bigEndian) { $0 })
        let m = try #require(try decodeAll(fitFile(r)).first)
        #expect(m.globalNumber == 0x0102)
        #expect(m.localType == 3)
        #expect(m.value(1) == .uint(0x1234))
        #expect(m.value(2) == .sint(-2))
        #expect(m.value(3) == .float(-2.25))
        #expect(m.field(1)?.bigEndian == true)
    }

    @Test func developerFieldsAreKeptRaw() throws {
        // record with heart rate (field 3, uint8) and two developer fields: (number 0, 2 bytes,
        // developer 0) and (number 7, 1 byte, developer 1). Field number 3 is reused by a
        // developer field numbering to show they are never read as normal fields.
        var r = definition(local: 1, global: 20, [(3, 1, 0x02)], developer: [(0, 2, 0), (3, 1, 1)])
        r += [0x01, 90, 0xAB, 0xCD, 0x42]
        let m = try #require(try decodeAll(fitFile(r)).first)
        #expect(m.fields.count == 1)
        #expect(m.value(3) == .uint(90))
        #expect(m.developerFields == [FITDeveloperField(number: 0, developerIndex: 0, bytes: [0xAB, 0xCD]),
                                      FITDeveloperField(number: 3, developerIndex: 1, bytes: [0x42])])
    }

    @Test func compressedTimestampRollsOver() throws {
        // A full timestamp 1000 (1000 & 31 = 8), then compressed offsets 20 (→ 1012),
        // 3 (rolls over: → 1027), 3 again (→ 1027, no change) and 2 (→ 1058).
        var r = definition(local: 0, global: 20, [(253, 4, 0x86), (3, 1, 0x02)])
        r += [0x00] + le32(1000) + [70]
        r += definition(local: 1, global: 20, [(3, 1, 0x02)])
        for (offset, hr) in [(UInt8(20), UInt8(71)), (3, 72), (3, 73), (2, 74)] {
            r += [0x80 | 1 << 5 | offset, hr]
        }
        let messages = try decodeAll(fitFile(r))
        #expect(messages.map(\.timestamp) == [1000, 1012, 1027, 1027, 1058])
        #expect(messages.map(\.hasCompressedTimestamp) == [false, true, true, true, true])
        #expect(messages.map(\.localType) == [0, 1, 1, 1, 1])
        #expect(messages.map { $0.value(3) } == [.uint(70), .uint(71), .uint(72), .uint(73), .uint(74)])
        #expect(messages.map(\.index) == [0, 1, 2, 3, 4])
    }

    @Test func compressedTimestampWithoutFullTimestampIsNil() throws {
        var r = definition(local: 2, global: 20, [(3, 1, 0x02)])
        r += [0x80 | 2 << 5 | 5, 60]
        let m = try #require(try decodeAll(fitFile(r)).first)
        #expect(m.timestamp == nil)
        #expect(m.hasCompressedTimestamp)
    }

    @Test func twelveByteHeaderAndChainedFiles() throws {
        let first = definition(local: 0, global: 0, [(0, 1, 0x00)]) + [0x00, 4]
        let size = UInt32(first.count)
        var a: [UInt8] = [12, 0x10, 0x64, 0x00] + le32(size) + [0x2E, 0x46, 0x49, 0x54]
        a += first
        let c = FITCRC.compute(a)
        a += [UInt8(c & 0xFF), UInt8(c >> 8)]
        let b = fitFile(definition(local: 0, global: 20, [(3, 1, 0x02)]) + [0x00, 55], headerCRC: false)
        let decoder = FITDecoder(bytes: a + b)
        let m1 = try #require(try decoder.next())
        #expect(decoder.header?.headerSize == 12 && decoder.header?.profileVersion == 100 && decoder.header?.protocolVersion == 0x10)
        #expect(m1.globalNumber == 0 && m1.fileIndex == 0)
        let m2 = try #require(try decoder.next())
        #expect(m2.globalNumber == 20 && m2.fileIndex == 1 && m2.index == 1 && m2.offset == a.count + 14 + 9)
        #expect(decoder.header?.offset == a.count && decoder.header?.headerCRC == 0)
        #expect(try decoder.next() == nil)
        #expect(decoder.fileCount == 2)
    }

    @Test func definitionsDoNotCarryIntoAChainedFile() {
        let a = fitFile(definition(local: 0, global: 0, [(0, 1, 0x00)]) + [0x00, 4])
        let b = fitFile([0x00, 4])
        expectError("fit.bad-definition", at: a.count + 14, a + b)
    }

    @Test func badFileCRC() {
        let records = definition(local: 0, global: 0, [(0, 1, 0x00)]) + [0x00, 4]
        let good = fitFile(records)
        let stored = UInt16(good[good.count - 2]) | UInt16(good[good.count - 1]) << 8
        expectError("fit.crc", at: 14 + records.count, fitFile(records, fileCRC: stored ^ 0x0101))
        // A flipped data byte is caught too.
        var flipped = good
        flipped[14 + records.count - 1] = 5
        expectError("fit.crc", at: 14 + records.count, flipped)
    }

    @Test func badHeaderCRC() {
        var bytes = fitFile(definition(local: 0, global: 0, [(0, 1, 0x00)]) + [0x00, 4])
        bytes[12] ^= 0xFF
        expectError("fit.crc", at: 12, bytes)
    }

    @Test func truncatedFile() {
        let bytes = fitFile(definition(local: 0, global: 20, [(3, 1, 0x02), (4, 2, 0x84)]) + [0x00, 1, 2, 3, 0x00, 4, 5, 6])
        let messageStart = 14 + 6 + 6
        // Cut inside the second data message, before the CRC, and inside the header.
        expectError("fit.truncated", at: messageStart + 4, Array(bytes[0..<(messageStart + 6)]))
        expectError("fit.truncated", at: bytes.count - 2, Array(bytes[0..<(bytes.count - 1)]))
        expectError("fit.truncated", at: 0, Array(bytes[0..<10]))
        expectError("fit.truncated", at: 0, [])
    }

    @Test func dataMessageBeforeDefinition() {
        expectError("fit.bad-definition", at: 14, fitFile([0x00, 4]))
        // Local type 5 is undefined though type 0 is.
        let r = definition(local: 0, global: 0, [(0, 1, 0x00)]) + [0x05, 4]
        expectError("fit.bad-definition", at: 14 + 9, fitFile(r))
    }

    @Test func messageLargerThanTheData() {
        // The definition says 4 bytes of fields; the header's data size ends after 2.
        let r = definition(local: 0, global: 20, [(253, 4, 0x86)]) + [0x00, 1, 2, 3, 4]
        var bytes = fitFile(r)
        // Shrink the data size by 3 and recompute both CRCs over the shortened data.
        let records = Array(bytes[14..<(bytes.count - 5)])
        bytes = fitFile(records)
        expectError("fit.bad-definition", at: 14 + 9, bytes + [0, 0, 0])
    }

    @Test func notAFITFile() {
        var bytes = fitFile([])
        bytes[9] = 0x58
        expectError("fit.header", at: 0, bytes)
    }

    @Test func crcOfKnownBytes() {
        // The CRC of a file's bytes followed by that CRC (little-endian) is 0.
        let bytes = fitFile(definition(local: 0, global: 0, [(0, 1, 0x00)]) + [0x00, 4])
        #expect(FITCRC.compute(bytes) == 0)
        #expect(FITCRC.compute([UInt8]()) == 0)
    }
}

// MARK: - The shared corpus

/// What an independent decoder (a 40-line Python script written for this test, walking the
/// definitions and message sizes only) counts in each FIT file of the shared corpus: data
/// messages per global number, and the first `file_id` message's type, manufacturer and product.
struct FITCorpusExpectation: Sendable, CustomStringConvertible {
    var file: String
    var counts: [UInt16: Int]
    var manufacturer: UInt64
    var product: UInt64
    var description: String { file }
}

private let corpusExpectations: [FITCorpusExpectation] = [
    .init(file: "corpus/fit/garmin-connect-manual__TestDive.fit",
          counts: [0: 1, 18: 1, 19: 1, 23: 1, 34: 1, 49: 1, 258: 1, 259: 2, 268: 2], manufacturer: 1, product: 65534),
    .init(file: "corpus/fit/garmin-descent-g1__18478819822_ACTIVITY.fit",
          counts: [0: 1, 2: 1, 3: 1, 7: 1, 12: 1, 13: 1, 18: 1, 19: 7, 20: 6287, 21: 29, 22: 89, 23: 8, 34: 1, 49: 1,
                   79: 1, 104: 21, 140: 1, 141: 1, 160: 2621, 216: 8, 258: 1, 262: 4, 268: 8, 288: 1, 325: 137,
                   326: 135, 327: 2, 329: 8], manufacturer: 1, product: 4132),
    .init(file: "corpus/fit/garmin-descent-mk1__2018-04-11-10-56-59.fit",
          counts: [0: 1, 2: 1, 3: 1, 7: 1, 12: 1, 13: 1, 18: 1, 19: 1, 20: 4601, 21: 33, 22: 757, 23: 3, 34: 1, 49: 1,
                   79: 1, 104: 17, 140: 1, 141: 1, 216: 2, 233: 5115, 258: 1, 259: 6, 268: 2], manufacturer: 1, product: 2604),
    .init(file: "corpus/fit/garmin-descent-mk1__garmin_2023-10-21-12-13-38.fit",
          counts: [0: 1, 2: 1, 3: 1, 7: 1, 12: 1, 13: 1, 18: 1, 19: 1, 20: 6275, 21: 35, 22: 13, 23: 6, 34: 1, 49: 1,
                   79: 1, 104: 21, 140: 1, 141: 1, 216: 2, 233: 6346, 258: 1, 259: 4, 268: 2], manufacturer: 1, product: 2859),
    .init(file: "corpus/fit/garmin-descent-mk3i__005_oc-trimix-two-deco-gases.fit",
          counts: [0: 1, 2: 1, 3: 1, 7: 1, 12: 1, 13: 1, 18: 1, 19: 1, 20: 3921, 21: 34, 22: 8, 23: 7, 34: 1, 49: 1,
                   79: 1, 104: 13, 140: 1, 141: 1, 147: 1, 162: 1, 233: 4475, 258: 1, 259: 3, 268: 2, 288: 3, 323: 1,
                   326: 20, 327: 13, 394: 1, 499: 1], manufacturer: 1, product: 4223),
    .init(file: "corpus/fit/suunto-ocean__FreeDiving_2024-10-16T16_33_30.fit",
          counts: [0: 1, 18: 1, 20: 2915, 21: 2, 23: 5, 34: 1, 206: 3, 207: 1], manufacturer: 23, product: 62),
    .init(file: "reference/divejson/fixtures/fit/ocean-poor-first-fix.fit",
          counts: [0: 1, 18: 1, 20: 4406, 21: 2, 23: 2, 34: 1, 206: 5, 207: 1, 258: 1, 259: 1], manufacturer: 23, product: 62),
    .init(file: "reference/divejson/fixtures/fit/suunto-d5.fit",
          counts: [0: 1, 18: 1, 20: 200, 21: 2, 34: 1, 206: 5, 207: 1, 259: 1], manufacturer: 23, product: 39),
    .init(file: "reference/divejson/fixtures/fit/suunto-ocean-2026.fit",
          counts: [0: 1, 18: 1, 20: 3467, 21: 2, 23: 2, 34: 1, 206: 4, 207: 1, 258: 1, 259: 1], manufacturer: 23, product: 62),
    .init(file: "reference/divejson/fixtures/fit/suunto-ocean.fit",
          counts: [0: 1, 18: 1, 20: 4295, 21: 2, 23: 2, 34: 1, 206: 5, 207: 1, 258: 1, 259: 2], manufacturer: 23, product: 62),
]

/// Every `.fit` file of the shared corpus and the DiveJSON fixtures, relative to `shared`.
private var sharedFIT: [String] {
    guard Paths.sharedAvailable else { return [] }
    var out: [String] = []
    for dir in ["corpus/fit", "reference/divejson/fixtures/fit"] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Paths.shared + "/" + dir)) ?? []
        out += files.filter { $0.hasSuffix(".fit") }.sorted().map { "\(dir)/\($0)" }
    }
    return out
}

@Suite(.enabled(if: Paths.sharedAvailable, "the shared corpus (../shared) is absent"))
struct FITCorpusTests {
    @Test(arguments: sharedFIT)
    func decodesWithoutError(file: String) throws {
        let decoder = try FITDecoder(path: Paths.shared + "/" + file, displayName: file)
        var count = 0
        var lastIndex = -1
        var lastOffset = 0
        while let m = try decoder.next() {
            #expect(m.index == lastIndex + 1)
            #expect(m.offset > lastOffset)
            lastIndex = m.index
            lastOffset = m.offset
            count += 1
        }
        #expect(count > 0)
        #expect(decoder.fileCount >= 1)
    }

    @Test func everyCorpusFileHasAnExpectation() {
        #expect(Set(sharedFIT) == Set(corpusExpectations.map(\.file)))
    }

    @Test(arguments: corpusExpectations)
    func countsMatchAnIndependentDecoder(expected: FITCorpusExpectation) throws {
        let decoder = try FITDecoder(path: Paths.shared + "/" + expected.file, displayName: expected.file)
        var counts: [UInt16: Int] = [:]
        var first: FITMessage?
        var timestamps = 0
        var lastTimestamp: UInt32 = 0
        var decreasing = 0
        var developerMessages = 0
        while let m = try decoder.next() {
            counts[m.globalNumber, default: 0] += 1
            if !m.developerFields.isEmpty { developerMessages += 1 }
            if m.globalNumber == 0, first == nil { first = m }
            if m.globalNumber == 20, let t = m.timestamp {
                timestamps += 1
                if t < lastTimestamp { decreasing += 1 }
                lastTimestamp = t
            }
        }
        #expect(counts == expected.counts)
        let fileID = try #require(first)
        #expect(fileID.value(0) == .uint(4), "file_id.type is activity")
        #expect(fileID.value(1)?.uintValue == expected.manufacturer)
        #expect(fileID.value(2)?.uintValue == expected.product)
        // Every record has a time (full or compressed), and record times never go back.
        #expect(timestamps == expected.counts[20] ?? 0)
        #expect(decreasing == 0)
        // The Suunto files (big-endian definitions) carry developer data in one message
        // each (the same Python script counts them); the Garmin files carry none.
        let suunto = expected.manufacturer == 23
        #expect(developerMessages == (suunto ? 1 : 0))
    }
}
