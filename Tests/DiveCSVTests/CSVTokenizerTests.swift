import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Small CSV inputs written to temporary files, and what the tokenizer makes of them.
enum CSVFixture {
    /// Writes `bytes` to a fresh temporary file and returns its path.
    static func file(_ bytes: [UInt8], name: String = "input.csv") throws -> String {
        let path = try Paths.temporaryDirectory() + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return path
    }

    static func file(_ text: String, name: String = "input.csv") throws -> String {
        try file(Array(text.utf8), name: name)
    }

    /// One record as read: its number, first line, fields and issues.
    struct Record: Equatable, CustomStringConvertible {
        var row: Int
        var line: Int
        var fields: [String]
        var issues: [CSVTokenizer.Issue] = []
        var description: String { "#\(row)@\(line) \(fields)\(issues.isEmpty ? "" : " \(issues)")" }
    }

    /// Every record of `tokenizer`.
    static func records(_ tokenizer: CSVTokenizer) throws -> [Record] {
        var out: [Record] = []
        while try tokenizer.next() {
            out.append(Record(row: tokenizer.row, line: tokenizer.line, fields: tokenizer.fields(), issues: tokenizer.issues))
        }
        return out
    }

    /// Every record of a file holding `text`.
    static func records(_ text: String, delimiter: Character = ",") throws -> [Record] {
        let path = try file(text)
        return try records(CSVTokenizer(path: path, displayName: "input.csv", delimiter: delimiter.asciiValue!))
    }

    /// A plain RFC 4180 reading of a whole buffer, to compare the streaming tokenizer with.
    static func reference(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ",")) -> [[String]] {
        var records: [[String]] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var i = 0
        var inQuotes = false
        func endField() { fields.append(String(decoding: field, as: UTF8.self)); field = [] }
        while i < bytes.count {
            let b = bytes[i]
            if inQuotes {
                if b == 0x22 {
                    if i + 1 < bytes.count && bytes[i + 1] == 0x22 { field.append(0x22); i += 2; continue }
                    inQuotes = false
                } else {
                    field.append(b)
                }
                i += 1
                continue
            }
            switch b {
            case 0x22 where field.isEmpty: inQuotes = true
            case delimiter: endField()
            case 0x0D, 0x0A:
                endField(); records.append(fields); fields = []
                if b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
            default: field.append(b)
            }
            i += 1
        }
        if !field.isEmpty || !fields.isEmpty || inQuotes { endField(); records.append(fields) }
        return records
    }
}

@Suite struct CSVTokenizerTests {
    typealias R = CSVFixture.Record

    @Test func quotedFieldsHoldDelimitersQuotesAndLineBreaks() throws {
        let records = try CSVFixture.records("""
            #Nr,buddy,notes\n1,"Dirk, Linus","- sharks\n- stone fish ""fred""\n- turtle"\n2,Tomaz,""\n
            """)
        #expect(records == [
            R(row: 1, line: 1, fields: ["#Nr", "buddy", "notes"]),
            R(row: 2, line: 2, fields: ["1", "Dirk, Linus", "- sharks\n- stone fish \"fred\"\n- turtle"]),
            R(row: 3, line: 5, fields: ["2", "Tomaz", ""]),
        ])
    }

    @Test(arguments: [("LF", "\n"), ("CRLF", "\r\n"), ("CR", "\r")])
    func everyLineEnding(name: String, eol: String) throws {
        let text = "a,b" + eol + "1,\"x" + eol + "y\"" + eol + eol + "2,z" + eol
        let records = try CSVFixture.records(text)
        #expect(records == [
            R(row: 1, line: 1, fields: ["a", "b"]),
            R(row: 2, line: 2, fields: ["1", "x" + eol + "y"]),
            R(row: 3, line: 4, fields: [""]),
            R(row: 4, line: 5, fields: ["2", "z"]),
        ], "\(name)")
    }

    @Test func lastRecordWithoutLineBreakAndTrailingDelimiter() throws {
        #expect(try CSVFixture.records("a;b;\r\n1;2;", delimiter: ";") == [
            R(row: 1, line: 1, fields: ["a", "b", ""]),
            R(row: 2, line: 2, fields: ["1", "2", ""]),
        ])
        #expect(try CSVFixture.records("") == [])
        #expect(try CSVFixture.records("\n") == [R(row: 1, line: 1, fields: [""])])
    }

    @Test(arguments: ["\t", "|", ";"])
    func configurableDelimiter(delimiter: String) throws {
        let d = delimiter
        let records = try CSVFixture.records("depth\(d)\"a\(d)b\"\(d)c,d\n", delimiter: Character(d))
        #expect(records == [R(row: 1, line: 1, fields: ["depth", "a\(d)b", "c,d"])])
    }

    @Test func strayQuoteIsKeptAndReported() throws {
        let records = try CSVFixture.records("site,depth\nBlue \"Hole\",30\n\"Reef\"x,12\n")
        #expect(records.map(\.fields) == [["site", "depth"], ["Blue \"Hole\"", "30"], ["Reefx", "12"]])
        #expect(records[1].issues == [
            .init(kind: .strayQuote, field: 0, line: 2, column: 6),
            .init(kind: .strayQuote, field: 0, line: 2, column: 11),
        ])
        #expect(records[2].issues == [.init(kind: .textAfterClosingQuote, field: 0, line: 3, column: 7)])
    }

    @Test func unterminatedQuoteTakesTheRestAndSaysWhereItOpened() throws {
        let records = try CSVFixture.records("a,b\n1,2\n3,\"never\nclosed,4\n5,6\n")
        #expect(records.count == 3)
        #expect(records[2].row == 3 && records[2].line == 3)
        #expect(records[2].fields == ["3", "never\nclosed,4\n5,6\n"])
        #expect(records[2].issues == [.init(kind: .unterminatedQuote, field: 1, line: 3, column: 3)])
    }

    @Test func fieldBytesWithoutStrings() throws {
        let tokenizer = CSVTokenizer(bytes: Array("\"x\"\"y\",\"\", ,\"q\"\n".utf8))
        #expect(try tokenizer.next())
        #expect(tokenizer.fieldCount == 4)
        #expect(tokenizer.withFieldBytes(0) { Array($0) } == Array("x\"y".utf8))
        #expect(tokenizer.isEmptyField(1) && !tokenizer.isEmptyField(2) && !tokenizer.isEmptyField(3))
        #expect(tokenizer.withFieldBytes(3) { Array($0) } == [UInt8(ascii: "q")])
        #expect(!tokenizer.isBlank)
        #expect(try !tokenizer.next())
    }

    /// Records cross the 256 KiB chunk boundaries at every kind of place; the streaming
    /// tokenizer must read the same records as a whole-buffer reading.
    @Test func streamingMatchesAWholeBufferReading() throws {
        var generator = SplitMix(seed: 42)
        var text: [UInt8] = []
        let pieces = ["12.5", "", "\"a,b\"", "\"line\nbreak\"", "\"say \"\"hi\"\"\"", "Kaukajärvi", "\"\r\n\"", "x"]
        let eols: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D]]
        while text.count < 3 * CSVTokenizer.chunkSize {
            for k in 0..<5 {
                if k > 0 { text.append(UInt8(ascii: ",")) }
                text += Array(pieces[Int(generator.next() % UInt64(pieces.count))].utf8)
            }
            text += eols[Int(generator.next() % 3)]
        }
        let expected = CSVFixture.reference(text)
        let fromMemory = try CSVFixture.records(CSVTokenizer(bytes: text)).map(\.fields)
        #expect(fromMemory.count == expected.count)
        #expect(fromMemory == expected)
        let path = try CSVFixture.file(text)
        let fromFile = try CSVFixture.records(CSVTokenizer(path: path, displayName: "big.csv"))
        #expect(fromFile.map(\.fields) == expected)
        #expect(fromFile.allSatisfy { $0.issues.isEmpty })
    }

    /// A delimiter that is the last byte of a chunk, and a quoted field opening on the first
    /// byte of the next: the word-at-a-time scan must hand the new field to the quote logic.
    @Test func aQuotedFieldRightAfterAChunkBoundary() throws {
        let line = Array("aaa,bbb\n".utf8)
        var text: [UInt8] = []
        while text.count + line.count <= CSVTokenizer.chunkSize - 8 { text += line }
        text += Array(repeating: UInt8(ascii: "a"), count: CSVTokenizer.chunkSize - text.count - 1) + [UInt8(ascii: ",")]
        #expect(text.count == CSVTokenizer.chunkSize)
        text += Array("\"x,y\",z\n".utf8)
        let path = try CSVFixture.file(text)
        for tokenizer in [CSVTokenizer(bytes: text), try CSVTokenizer(path: path, displayName: "edge.csv")] {
            let records = try CSVFixture.records(tokenizer)
            #expect(records.last?.fields.suffix(2) == ["x,y", "z"])
            #expect(records.allSatisfy { $0.issues.isEmpty })
        }
    }

    @Test func crlfAndUTF8SplitAcrossAChunkBoundary() throws {
        // A CR as the last byte of the first chunk, its LF the first of the second.
        var text = Array(repeating: UInt8(ascii: "a"), count: CSVTokenizer.chunkSize - 1) + [0x0D, 0x0A] + Array("b\n".utf8)
        var records = try CSVFixture.records(CSVTokenizer(bytes: text))
        #expect(records.map(\.line) == [1, 2])
        #expect(records.map { $0.fields[0].count } == [CSVTokenizer.chunkSize - 1, 1])
        // "é" (C3 A9) cut in two by the boundary stays UTF-8.
        text = Array(repeating: UInt8(ascii: "a"), count: CSVTokenizer.chunkSize - 1) + Array("é,°\n".utf8)
        let tokenizer = CSVTokenizer(bytes: text)
        records = try CSVFixture.records(tokenizer)
        #expect(records.first?.fields.first?.hasSuffix("aé") == true)
        #expect(records.first?.fields.last == "°")
        #expect(tokenizer.encoding == .utf8)
    }

    @Test func aRecordLongerThanAChunkIsReadWhole() throws {
        // Two chunks and a bit: longer than a chunk, within CSVLimits.fieldBytes (four).
        let long = String(repeating: "x", count: CSVTokenizer.chunkSize + 17)
        let records = try CSVFixture.records("a,b\n1,\"\(long)\n\(long)\"\n2,3\n")
        #expect(records.map(\.row) == [1, 2, 3])
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(records[1].fields[1].utf8.count == 2 * long.utf8.count + 1)
    }

    @Test func aQuoteNeverClosedInAHugeFileStopsTheRead() throws {
        let body = String(repeating: "12.5,13.0\n", count: 300_000)
        let path = try CSVFixture.file("a,b\n1,\"oops\n" + body)
        let tokenizer = try CSVTokenizer(path: path, displayName: "huge.csv")
        tokenizer.recordSizeLimit = 1 << 20
        #expect(try tokenizer.next())
        do {
            _ = try tokenizer.next()
            Issue.record("expected csv.record-too-long")
        } catch let error as DiveError {
            #expect(error.description == "huge.csv:2: error[csv.record-too-long]: the record starting on line 2 runs past 1 MiB without ending; the quote opened on line 2 is probably never closed")
        }
    }

    @Test func missingFileIsAnIOError() {
        #expect(throws: DiveError.self) { try CSVTokenizer(path: "/nonexistent/x.csv", displayName: "x.csv") }
        do {
            _ = try CSVTokenizer(path: "/nonexistent/x.csv", displayName: "x.csv")
        } catch let error as DiveError {
            #expect(error.description == "x.csv: error[io.open]: cannot open the file: No such file or directory")
        } catch {}
    }
}

/// A small deterministic random generator, so generated inputs are the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
