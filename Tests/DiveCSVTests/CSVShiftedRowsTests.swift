import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 6: rows a writer left an empty cell out of (docs/csv-formats.md §10.19).
@Suite struct CSVShiftedRowsTests {
    /// The sample: row 3 lacks its gas cell, so `25,7 m` stands under "Gas". It is read under
    /// "Max depth", said; the other rows are read as they stand. Values read off the file.
    @Test func aRowWithACellLeftOutIsReadByItsValuesShapes() throws {
        let (dives, findings, reader) = try readCSV(Paths.samples + "/csv/shifted-rows.csv")
        #expect(reader.layout.dialect.delimiter == UInt8(ascii: ";"))
        #expect(reader.layout.dialect.decimalMark == UInt8(ascii: ","))
        #expect(reader.layout.dateOrderEvidence == "04.07.2021 is written with dots, day-first by convention")
        #expect(dives.map(\.maxDepth) == [18.4, 25.7, 22, 12.5, 16.1, 9.8, 14])
        #expect(dives.map(\.submergedTime) == [2700, 3060, 2280, 3720, 3300, 4200, 3480])
        #expect(dives.map { $0.cylinders.first?.gasName } == ["EAN32", nil, "Air", "EAN36", "EAN32", "Air", "EAN32"])
        #expect(dives[1].startedAt?.description == "2021-07-05")
        let shifted = findings.filter { $0.code == "csv.row-shifted" }
        #expect(shifted.count == 1)
        #expect(shifted.first?.kind == .resolved)
        #expect(shifted.first?.location.row == 3)
        #expect(shifted.first?.message == "row 3 has 5 cells where the header has 6, and its values fit their columns only with an empty cell after \"Site\" (5 more of them fit so than with the cells missing at its end): \"25,7 m\" is read under \"Max depth\", not under \"Gas\"")
        #expect(!findings.contains { $0.code == "csv.bad-value" })
    }

    /// A row that only stops early (its last cells empty and left out) is no shifted row.
    @Test func aRowThatStopsEarlyIsReadAsItStands() throws {
        let (dives, findings, _) = try readCSVText("Date,Site,Max depth,Duration,Buddy\n2021-07-04,Dahab,18.4,45,Ana\n2021-07-05,Blue Hole,25.7,51\n")
        #expect(dives.map(\.maxDepth) == [18.4, 25.7])
        #expect(!findings.contains { $0.code == "csv.row-shifted" })
    }

    /// How a value fits a column: what it holds, plainly something else, or either.
    @Test func valuesFitTheirColumns() {
        let comma = UInt8(ascii: ",")
        #expect(CSVColumnMeaning(.gas).fit("25,7 m", decimalMark: comma) == -1)
        #expect(CSVColumnMeaning(.gas).fit("EAN32", decimalMark: comma) == 1)
        #expect(CSVColumnMeaning(.maxDepth).fit("25,7 m", decimalMark: comma) == 1)
        #expect(CSVColumnMeaning(.maxDepth).fit("51 min", decimalMark: comma) == -1)
        #expect(CSVColumnMeaning(.duration).fit("51 min", decimalMark: comma) == 1)
        #expect(CSVColumnMeaning(.date).fit("Ana", decimalMark: comma) == -1)
        #expect(CSVColumnMeaning(.buddy).fit("Ana", decimalMark: comma) == 0)
        #expect(CSVColumnMeaning(.site).fit("12,5 m", decimalMark: comma) == -1)
    }

    /// The sniffer reads a file with a row a cell short as the table it is, not as the
    /// two-column table its decimal commas would make of it.
    @Test func aRowACellShortKeepsTheDelimiter() {
        let text = Array(try! String(contentsOfFile: Paths.samples + "/csv/shifted-rows.csv", encoding: .utf8).utf8)
        let dialect = text.withUnsafeBytes { CSVDialect.sniff(sample: $0, isWholeInput: true) }
        #expect(dialect.delimiter == UInt8(ascii: ";"))
        #expect(dialect.fieldCount == 6)
        #expect(dialect.hasHeader)
    }
}
