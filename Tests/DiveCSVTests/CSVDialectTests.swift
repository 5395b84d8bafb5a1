import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

@Suite struct CSVDialectTests {
    func sniff(_ text: String) throws -> CSVDialect {
        let path = try CSVFixture.file(text)
        return CSVDialect.sniff(try CSVTokenizer(path: path, displayName: "input.csv"))
    }

    func dialect(_ delimiter: Character, decimalComma: Bool = false, preamble: (records: Int, lines: Int) = (0, 0),
                 header: Bool = true, fields: Int) -> CSVDialect {
        CSVDialect(delimiter: delimiter.asciiValue!, decimalMark: decimalComma ? UInt8(ascii: ",") : UInt8(ascii: "."),
                   encoding: .utf8, preambleRecords: preamble.records, preambleLines: preamble.lines,
                   hasHeader: header, fieldCount: fields)
    }

    @Test func commaWithQuotedSemicolonsAndTabs() throws {
        let text = "site,gas,notes\n\"Blue Hole; Dahab\",Air,\"a\tb\"\nThistlegorm,EAN32,\"wreck; deep\"\n"
        #expect(try sniff(text) == dialect(",", fields: 3))
    }

    @Test func semicolonWithDecimalCommas() throws {
        let text = "Zeit;Tiefe;Temperatur\n0;0,0;24,5\n10;1,2;24,5\n20;3,4;24\n30;5,0;23,5\n"
        let d = try sniff(text)
        #expect(d == dialect(";", decimalComma: true, fields: 3))
        #expect(d.description == "semicolon-separated, decimal comma, UTF-8, header, 3 fields")
    }

    @Test func commaAndSemicolonBothConsistentGoesToSemicolon() throws {
        // Split on commas every line has four fields too; the semicolon wins the tie.
        #expect(try sniff("1,5;2,5;3,5\n1,0;2,0;3,0\n") == dialect(";", decimalComma: true, header: false, fields: 3))
    }

    @Test func tabWithDecimalCommasAndTextWithCommas() throws {
        let text = "Zeit\tTiefe\tNotiz\n0\t0,5\tab, cd\n10\t2,5\tx\n20\t4,25\ty, z, w\n"
        #expect(try sniff(text) == dialect("\t", decimalComma: true, fields: 3))
    }

    @Test func pipe() throws {
        #expect(try sniff("time|depth|temp\n0|0.0|24\n10|1.5|24\n") == dialect("|", fields: 3))
    }

    @Test func commentBlockBeforeTheHeader() throws {
        let text = "# exported by DiveMate, version 2\n// device: Perdix\n\ntime,depth\n0,0\n10,1.5\n20,3.1\n"
        #expect(try sniff(text) == dialect(",", preamble: (3, 3), fields: 2))
    }

    @Test func keyValueSummaryAboveTheSampleTable() throws {
        let colon = "Diver: Ann\nDate: 2024-03-02\nSite: Blue Hole, Dahab\n\ntime,depth,temp\n0,0,24\n10,5.2,23\n20,9.8,22\n"
        #expect(try sniff(colon) == dialect(",", preamble: (4, 4), fields: 3))
        let comma = "Dive,42\nDate,2024-03-02\nComputer,Perdix\ntime,depth,temp,ppo2\n0,0,24,0.21\n10,5.2,23,0.32\n20,9.8,22,0.41\n"
        #expect(try sniff(comma) == dialect(",", preamble: (3, 3), fields: 4))
    }

    @Test func summaryHeaderAndRowAboveTheSampleTable() throws {
        // Shearwater Cloud's shape: a summary header and its row, then the samples.
        let text = "Dive Number,Max Depth,Max Time\n742,95.8,2703\nTime (sec),Depth\n0,3.6\n10,9.1\n20,13.1\n30,15.2\n"
        #expect(try sniff(text) == dialect(",", preamble: (2, 2), fields: 2))
    }

    @Test func summaryPaddedToTheTableWidth() throws {
        let text = "Diver,Ann,,,\nSite,Blue Hole,,,\n,,,,\nTime,Depth,Temp,NDL,PPO2\n0,0,24,99,0.21\n10,5.2,23,99,0.32\n"
        #expect(try sniff(text) == dialect(",", preamble: (3, 3), fields: 5))
    }

    @Test func headerlessNumericFile() throws {
        let text = "0,0.0,24\n10,1.5,24\n20,3.0,23\n30,4.5,23\n"
        #expect(try sniff(text) == dialect(",", header: false, fields: 3))
        // Text columns vote neither way; the number columns say there is no header.
        let sensus = "1,SU-10000,2011,3,27,0,1214\n1,SU-10000,2011,3,27,10,1507\n1,SU-10000,2011,3,27,20,1808\n"
        #expect(try sniff(sensus) == dialect(",", header: false, fields: 7))
    }

    @Test func hashHeaderAboveAHeaderlessTable() throws {
        let text = "#Nr,date,time,maxdepth\n1,10/1/13,10:34,18\n2,10/1/13,12:13,16.2\n"
        #expect(try sniff(text) == dialect(",", fields: 4))
    }

    @Test func headerWithATrailingDelimiter() throws {
        let text = "number,date,depth,\n1,2024-01-02,12.5\n2,2024-01-03,18\n"
        #expect(try sniff(text) == dialect(",", fields: 3))
    }

    @Test func rowsThatStopEarlyStillFitTheHeader() throws {
        let text = "/* written by a computer\n */\n//DIVE NR: 2\n\nDepth;NDT;TTS\n1.0;0;0\n2.5;\n4.0;\n5.5;\n7.0;99;0\n"
        #expect(try sniff(text) == dialect(";", preamble: (4, 4), fields: 3))
    }

    @Test func datesAndTimesUnderAHeader() throws {
        let text = "date,time,duration\n2024-09-21,09:12:49,0:40\n2024-09-22,11:23:18,51:00\n"
        #expect(try sniff(text).hasHeader)
    }

    @Test func oneColumnAndNothing() throws {
        #expect(try sniff("depth\n1.5\n2.5\n") == dialect(",", fields: 1))
        #expect(try sniff("") == CSVDialect(hasHeader: false, fieldCount: 0))
        #expect(try sniff("# nothing but a comment\n\n") == CSVDialect(preambleRecords: 2, preambleLines: 2, hasHeader: false))
    }

    @Test func aCutOffLastLineIsNotCounted() {
        let sample = Array("a;b\n1;2\n3;\"x".utf8)
        let d = sample.withUnsafeBytes { CSVDialect.sniff(sample: $0, isWholeInput: false) }
        #expect(d == dialect(";", fields: 2))
    }

    @Test(arguments: [
        ("12", CSVValueShape.integer), ("-3", .integer), ("0023469553", .integer), ("1e-3", .integer),
        ("12.5", .decimalPoint), (".5", .decimalPoint), ("12,5", .decimalComma), (" 4 ", .integer),
        ("2024-09-21", .dateTime), ("10/1/13", .dateTime), ("0:40", .dateTime), ("2/18/2026 7:37:41 PM", .dateTime),
        ("2024-09-21T09:12:49Z", .dateTime), ("12.10.2024", .dateTime),
        ("AI is off", .text), ("N/A", .text), ("12.", .text), ("-", .text), ("True", .text), ("", .empty), ("  ", .empty),
    ])
    func valueShapes(value: String, shape: CSVValueShape) {
        let bytes = Array(value.utf8)
        #expect(bytes.withUnsafeBytes(CSVValueShape.of) == shape)
        // The structure check's one-pass test agrees.
        for mark in [UInt8(ascii: "."), UInt8(ascii: ",")] {
            let fast = bytes.withUnsafeBytes { CSVValueShape.isNumber($0, decimalMark: mark) }
            #expect(fast == (shape == .empty ? nil : shape.isNumber(decimalMark: mark)))
        }
    }
}
