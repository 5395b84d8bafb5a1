import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

@Suite struct CSVStructureTests {
    /// The report on a file holding `bytes`, named `input.csv` in its diagnostics.
    func check(_ bytes: [UInt8]) throws -> CSVStructureReport {
        try checkCSVStructure(path: CSVFixture.file(bytes), displayName: "input.csv")
    }

    func check(_ text: String) throws -> CSVStructureReport { try check(Array(text.utf8)) }

    func messages(_ text: String) throws -> [String] { try check(text).diagnostics.map(\.description) }

    @Test func aWellFormedFileHasNoDiagnostics() throws {
        let report = try check("time,depth,temp\r\n0,0,24\r\n10,5.2,23\r\n20,\"9.8\",22\r\n")
        #expect(report.diagnostics.isEmpty)
        #expect(report.isValid)
        #expect(report.columns == ["time", "depth", "temp"])
        #expect(report.dataRows == 3)
        #expect(report.dialect == CSVDialect(fieldCount: 3))
    }

    @Test func raggedRows() throws {
        #expect(try messages("time,depth,temp\n0,0,24\n10,5.2\n20,9.8,22,extra\n30,1,2,,\n") == [
            "input.csv:3: error[csv.ragged-row]: row 3 has 2 fields where the header has 3",
            "input.csv:4: error[csv.ragged-row]: row 4 has 4 fields where the header has 3",
        ])
        // Rows count from the header; lines count from the top of the file.
        #expect(try messages("# exported by DiveMate\n# version 2\ntime;depth\n0;0\n10\n") == [
            "input.csv:5: error[csv.ragged-row]: row 3 has 1 field where the header has 2",
        ])
        #expect(try messages("0,1,2\n0,1,2\n0,1,2\n0,1\n0,1,2\n") == [
            "input.csv:4: error[csv.ragged-row]: row 4 has 2 fields where the table has 3",
        ])
        let report = try check("time,depth,temp\n0,0,24\n10,5.2\n")
        #expect(report.diagnostics.first?.location == SourceLocation(file: "input.csv", line: 3, row: 3))
        #expect(!report.isValid)
    }

    @Test func raggedRowsPastAHundredAreCounted() throws {
        var text = "a,b,c\n"
        for k in 0..<2000 { text += k % 13 == 0 && k < 1950 ? "1,2\n" : "1,2,3\n" }
        let report = try check(text)
        #expect(report.diagnostics.count == 101)
        #expect(report.diagnostics.last?.description == "input.csv: note[csv.more]: 50 more csv.ragged-row diagnostics are not listed")
    }

    @Test func unterminatedQuote() throws {
        #expect(try messages("time,depth,notes\n0,0,ok\n10,5.2,\"never closed\n20,9.8,x\n") == [
            "input.csv:3:8: error[csv.unterminated-quote]: row 3: a quote opened here is never closed; the rest of the file was read as one field",
        ])
    }

    @Test func strayQuotes() throws {
        #expect(try messages("site,depth\nBlue \"Hole\",30\n\"Reef\"x,12\n") == [
            "input.csv:2:6: warning[csv.stray-quote]: row 2: a quote inside an unquoted field; read as a literal \"",
            "input.csv:2:11: warning[csv.stray-quote]: row 2: a quote inside an unquoted field; read as a literal \"",
            "input.csv:3:7: warning[csv.stray-quote]: row 3: text follows the closing quote of a quoted field; read as part of the field",
        ])
        let report = try check("site,depth\nBlue \"Hole\",30\n")
        #expect(report.isValid)
        #expect(report.diagnostics.first?.location.field == "site")
    }

    @Test(arguments: [[], [0x0A, 0x0A], [0xEF, 0xBB, 0xBF], Array("# nothing here\n\n".utf8)] as [[UInt8]])
    func empty(bytes: [UInt8]) throws {
        #expect(try check(bytes).diagnostics.map(\.description) == ["input.csv: error[csv.empty]: the file holds no rows"])
    }

    @Test func aHeaderAloneIsNotEmpty() throws {
        let report = try check("time,depth\n")
        #expect(report.diagnostics.isEmpty)
        #expect(report.dataRows == 0)
    }

    @Test func windows1252Fallback() throws {
        // "März" with ä as the single byte 0xE4, "°" as 0xB0.
        let bytes = Array("site;temp\nM".utf8) + [0xE4] + Array("rz;24\nx;4 ".utf8) + [0xB0] + Array("C\n".utf8)
        let report = try check(bytes)
        #expect(report.diagnostics.map(\.description) == [
            "input.csv:2:2: note[csv.encoding-fallback]: the file is not UTF-8 from here on; read as Windows-1252",
        ])
        #expect(report.dialect.encoding == .windows1252)
        #expect(report.dialect.delimiter == UInt8(ascii: ";"))
    }

    @Test func windows1252FallbackFarIntoTheFile() throws {
        var text = "site,temp\n"
        for _ in 0..<30_000 { text += "Dahab,24\n" }
        let bytes = Array(text.utf8) + Array("M".utf8) + [0xE4] + Array("rz,4\n".utf8)
        let report = try check(bytes)
        #expect(report.diagnostics.map(\.description) == [
            "input.csv:30002:2: note[csv.encoding-fallback]: the file is not UTF-8 from here on; read as Windows-1252",
        ])
        #expect(report.dataRows == 30_001)
    }

    @Test func typeMismatchInANumericColumn() throws {
        var text = "time,pressure,gas\n"
        for k in 0..<19 { text += "\(k * 10),\(200 - k),Air\n" }
        text += "190,AI is off,EAN32\n"
        #expect(try messages(text) == [
            "input.csv:21: warning[csv.type-mismatch]: row 21: \"AI is off\" is not a number, unlike 95 % of the values in column \"pressure\"",
        ])
        let location = try check(text).diagnostics.first?.location
        #expect(location == SourceLocation(file: "input.csv", line: 21, row: 21, field: "pressure"))
    }

    @Test func typeMismatchWithADecimalComma() throws {
        var text = "Zeit;Tiefe\n"
        for k in 0..<20 { text += "\(k * 10);\(k),5\n" }
        text += "200;12.5\n"
        #expect(try messages(text) == [
            "input.csv:22: warning[csv.type-mismatch]: row 22: \"12.5\" is not a number, unlike 95 % of the values in column \"Tiefe\", written with a decimal comma",
        ])
    }

    @Test func aColumnOfWordsIsNotAMismatch() throws {
        var text = "time,status\n"
        for k in 0..<20 { text += "\(k),\(k == 3 ? "12" : "AI is off")\n" }
        #expect(try messages(text) == [])
    }

    @Test func manyMismatchesAreSummed() throws {
        var text = "time,depth\n"
        for k in 0..<300 { text += "\(k),\(k % 20 == 0 ? "n/a" : "12.5")\n" }
        let diagnostics = try check(text).diagnostics
        #expect(diagnostics.count == 10)
        #expect(diagnostics.last?.description
            == "input.csv:182: warning[csv.type-mismatch]: row 182: \"n/a\" is not a number, unlike 95 % of the values in column \"depth\"; 5 more values in the column are not numbers either")
    }

    @Test func rowsThatEndEarlyAreOneWarning() throws {
        let text = "//DIVE NR: 2\n\nDepth;NDT;TTS\n1.0;0;0\n2.5;\n4.0;\n5.5;\n7.0;99;0\n"
        let report = try check(text)
        #expect(report.diagnostics.map(\.description) == [
            "input.csv:5: warning[csv.short-row]: row 3 and 2 more rows end early, after a delimiter (row 3 has 2 of 3 fields); their missing fields are read as empty",
        ])
        #expect(report.isValid)
        #expect(report.dialect == CSVDialect(delimiter: UInt8(ascii: ";"), preambleRecords: 2, preambleLines: 2, fieldCount: 3))
    }

    @Test func trailingDelimitersAreNotColumns() throws {
        let report = try check("number,date,depth,\n1,2024-01-02,12.5,\n2,2024-01-03,18\n")
        #expect(report.diagnostics.isEmpty)
        #expect(report.columns == ["number", "date", "depth", ""])
        #expect(report.dialect.fieldCount == 3)
    }

    @Test func quotedLineBreaksKeepLinesAndRowsApart() throws {
        let text = "n,notes,depth\n1,\"a\nb\nc\",12\n2,x\n3,y,14\n"
        #expect(try messages(text) == ["input.csv:5: error[csv.ragged-row]: row 3 has 2 fields where the header has 3"])
    }

    @Test func crOnlyUTF16File() throws {
        let bytes = CSVTextTests.utf16("Zeit\tTiefe\r0\t1,5\r10\t2,5\r20\tx\r", bigEndian: true)
        let report = try check(bytes)
        #expect(report.dialect == CSVDialect(delimiter: 0x09, decimalMark: UInt8(ascii: ","), encoding: .utf16BE, fieldCount: 2))
        #expect(report.dataRows == 3)
        #expect(report.diagnostics.isEmpty)
    }
}
