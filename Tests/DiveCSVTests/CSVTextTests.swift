import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

@Suite struct CSVTextTests {
    /// The records and encoding of a file holding `bytes`.
    func read(_ bytes: [UInt8], delimiter: Character = ",") throws -> ([[String]], CSVEncoding, CSVTokenizer) {
        let path = try CSVFixture.file(bytes)
        let tokenizer = try CSVTokenizer(path: path, displayName: "input.csv", delimiter: delimiter.asciiValue!)
        let records = try CSVFixture.records(tokenizer).map(\.fields)
        return (records, tokenizer.encoding, tokenizer)
    }

    static func utf16(_ text: String, bigEndian: Bool, bom: Bool = true) -> [UInt8] {
        var out: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let hi = UInt8(unit >> 8), lo = UInt8(unit & 0xFF)
            out += bigEndian ? [hi, lo] : [lo, hi]
        }
        return out
    }

    @Test func utf8WithAndWithoutBOM() throws {
        let text = "site,temp\nKaukajärvi,4 °C\n"
        let (plain, plainEncoding, _) = try read(Array(text.utf8))
        let (marked, markedEncoding, _) = try read([0xEF, 0xBB, 0xBF] + Array(text.utf8))
        #expect(plain == [["site", "temp"], ["Kaukajärvi", "4 °C"]])
        #expect(marked == plain)
        #expect(plainEncoding == .utf8)
        #expect(markedEncoding == .utf8BOM)
    }

    @Test(arguments: [false, true])
    func utf16WithBOM(bigEndian: Bool) throws {
        let text = "Tiefe;Temperatur\r\n12,5;4 °C\r\n\"Fisch 🐠\";Ø\r\n"
        let (records, encoding, _) = try read(Self.utf16(text, bigEndian: bigEndian), delimiter: ";")
        #expect(records == [["Tiefe", "Temperatur"], ["12,5", "4 °C"], ["Fisch 🐠", "Ø"]])
        #expect(encoding == (bigEndian ? .utf16BE : .utf16LE))
    }

    @Test func utf16SurrogatePairSplitAcrossChunks() throws {
        // The BOM and 131,070 ASCII units, then 🐠: its high surrogate ends the first
        // 256 KiB chunk, its low surrogate starts the second.
        let filler = String(repeating: "a", count: CSVTokenizer.chunkSize / 2 - 2)
        let bytes = Self.utf16(filler + "🐠,b\n", bigEndian: false)
        let (records, encoding, _) = try read(bytes)
        #expect(encoding == .utf16LE)
        #expect(records.count == 1)
        #expect(records.first?.first?.hasSuffix("a🐠") == true)
        #expect(records.first?.last == "b")
    }

    @Test func unpairedSurrogatesBecomeReplacementCharacters() {
        var transcoder = CSVText.UTF16Transcoder(bigEndian: false)
        let input: [UInt8] = [0x41, 0x00, 0x00, 0xD8, 0x42, 0x00, 0x00, 0xDC, 0x43]
        var out = [UInt8](repeating: 0, count: 64)
        let n = input.withUnsafeBytes { raw in
            out.withUnsafeMutableBufferPointer { transcoder.transcode(raw, to: $0.baseAddress!, isLast: true) }
        }
        #expect(String(decoding: out[..<n], as: UTF8.self) == "A\u{FFFD}B\u{FFFD}\u{FFFD}")
        #expect(transcoder.replacements == 3)
    }

    @Test func windows1252WhenTheBytesAreNotUTF8() throws {
        // "Wassertemp. °C" with 0xB0, a price with 0x80, quotes with 0x93/0x94, "ä" as 0xE4.
        let bytes: [UInt8] = Array("Wassertemp. ".utf8) + [0xB0] + Array("C;Preis\n4;12 ".utf8) + [0x80]
            + Array("\n".utf8) + [0x93] + Array("Blaues Loch".utf8) + [0x94] + Array(";M".utf8) + [0xE4] + Array("rz\n".utf8)
        let (records, encoding, tokenizer) = try read(bytes, delimiter: ";")
        #expect(encoding == .windows1252)
        #expect(tokenizer.windows1252Offset == 12)   // after "Wassertemp. "
        #expect(records == [["Wassertemp. °C", "Preis"], ["4", "12 €"], ["“Blaues Loch”", "März"]])
    }

    @Test func windows1252FoundPastTheFirstChunkKeepsWhatWasRead() throws {
        let head = Array("a,b\n".utf8) + Array(repeating: Array("1,é\n".utf8), count: 70_000).flatMap { $0 }
        let bytes = head + [0xB0] + Array(",x\n".utf8)
        #expect(head.count > CSVTokenizer.chunkSize)
        let (records, encoding, tokenizer) = try read(bytes)
        #expect(encoding == .windows1252)
        #expect(tokenizer.windows1252Offset != nil)
        #expect(records[1] == ["1", "é"])
        #expect(records.last == ["°", "x"])
        #expect(records.count == 70_002)
    }

    @Test(arguments: [
        ([0x41, 0xC3, 0xA9], CSVText.UTF8Validity.valid),
        ([0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x90, 0xA0], .valid),
        ([0x41, 0xE2, 0x82], .incomplete(count: 2)),
        ([0xC0, 0x80], .invalid(offset: 0)),          // overlong
        ([0x41, 0xED, 0xA0, 0x80], .invalid(offset: 1)), // a surrogate
        ([0xF4, 0x90, 0x80, 0x80], .invalid(offset: 0)), // above U+10FFFF
        ([0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0xB0], .invalid(offset: 9)),
    ] as [([UInt8], CSVText.UTF8Validity)])
    func utf8Validation(bytes: [UInt8], expected: CSVText.UTF8Validity) {
        #expect(bytes.withUnsafeBytes(CSVText.validateUTF8) == expected)
    }

    @Test func everyWindows1252ByteHasAScalar() {
        let bytes = (0x80...0xFF).map(UInt8.init)
        var out = [UInt8](repeating: 0, count: 3 * bytes.count)
        let n = bytes.withUnsafeBytes { raw in out.withUnsafeMutableBufferPointer { CSVText.transcodeWindows1252(raw, to: $0.baseAddress!) } }
        let text = String(decoding: out[..<n], as: UTF8.self)
        #expect(text.unicodeScalars.count == 128)
        #expect(text.hasPrefix("€\u{81}‚ƒ„…†‡ˆ‰Š‹Œ\u{8D}Ž\u{8F}\u{90}‘’“”•–—˜™š›œ\u{9D}žŸ\u{A0}¡"))
        #expect(text.hasSuffix("°±²³´µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ"))
    }
}
