import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// What each CSV file of the shared corpus is, read off the files by hand (`cat -A`,
/// `grep -n`, counting fields of the header line), not printed by this code.
struct CSVCorpusExpectation: Sendable, CustomStringConvertible {
    var file: String
    var delimiter: Character
    /// Lines above the table (comment blocks, blank lines, a summary block).
    var preambleLines: Int
    var hasHeader: Bool
    var fieldCount: Int
    /// Rows under the header, blank lines not counted.
    var dataRows: Int
    var description: String { file }
}

let csvCorpus: [CSVCorpusExpectation] = [
    .init(file: "apd-logviewer__Test.csv", delimiter: "\t", preambleLines: 0, hasHeader: true, fieldCount: 20, dataRows: 26),
    .init(file: "apd-logviewer__TestComma.csv", delimiter: ",", preambleLines: 0, hasHeader: true, fieldCount: 20, dataRows: 26),
    // CRLF line ends, none after the last row.
    .init(file: "apnealizer__valid_depth_data_trimmed.csv", delimiter: ",", preambleLines: 0, hasHeader: true, fieldCount: 5, dataRows: 10),
    // `"Tioman, Malaysia"` quotes a comma; one row ends with a stray comma (8 fields, not 7).
    .init(file: "google-sheets__dives.csv", delimiter: ",", preambleLines: 0, hasHeader: true, fieldCount: 7, dataRows: 9),
    // Rows end with an empty field (`,` before the line end) when `diveType_3` is empty.
    .init(file: "manual-spreadsheet-es__logbook_data.csv", delimiter: ",", preambleLines: 0, hasHeader: true, fieldCount: 18, dataRows: 35),
    // `#Nr,date,…` is the header, not a comment; one note spans three lines.
    .init(file: "manual-spreadsheet__test41.csv", delimiter: ",", preambleLines: 0, hasHeader: true, fieldCount: 9, dataRows: 4),
    .init(file: "manual-spreadsheet__test41.tsv", delimiter: "\t", preambleLines: 0, hasHeader: true, fieldCount: 8, dataRows: 4),
    // CRLF line ends, none after the last row.
    .init(file: "padi-importer-input__dives.csv", delimiter: ",", preambleLines: 0, hasHeader: true, fieldCount: 9, dataRows: 2),
    .init(file: "poseidon-mkvi__Poseidon_MkVILog.csv", delimiter: ",", preambleLines: 0, hasHeader: false, fieldCount: 3, dataRows: 14151),
    .init(file: "reefnet-sensus__TestSensusSingle.csv", delimiter: ",", preambleLines: 0, hasHeader: false, fieldCount: 13, dataRows: 698),
    // A /* */ block and // lines, the header on line 19, two code rows, then sparse rows (`2.5;`).
    .init(file: "seabear__TestDiveSeabearH3_0002SBDT.CSV", delimiter: ";", preambleLines: 18, hasHeader: true, fieldCount: 5, dataRows: 209),
    .init(file: "seabear__TestDiveSeabearH3_0004SBDT.CSV", delimiter: ";", preambleLines: 17, hasHeader: true, fieldCount: 2, dataRows: 986),
    // A leading blank line and a comment closed by `*\`.
    .init(file: "seabear__TestDiveSeabearHUDC.csv", delimiter: ";", preambleLines: 15, hasHeader: true, fieldCount: 7, dataRows: 105),
    .init(file: "seabear__TestDiveSeabearT1_0002SBDT.CSV", delimiter: ";", preambleLines: 18, hasHeader: true, fieldCount: 5, dataRows: 209),
    .init(file: "seabear__TestDiveSeabearT1_0004SBDT.CSV", delimiter: ";", preambleLines: 17, hasHeader: true, fieldCount: 2, dataRows: 986),
    // A summary header and its row (30 fields) above the samples' header (29).
    .init(file: "shearwater-cloud__Petrel_3_742_Sample.csv", delimiter: ",", preambleLines: 2, hasHeader: true, fieldCount: 29, dataRows: 277),
    .init(file: "subsurface__dive_computer_profiles.csv", delimiter: ",", preambleLines: 0, hasHeader: true, fieldCount: 8, dataRows: 7105),
    // Every line ends with a comma: 51 fields in the header, the last name empty.
    .init(file: "subsurface__subsurface-dive_list.csv", delimiter: ",", preambleLines: 0, hasHeader: true, fieldCount: 50, dataRows: 24),
]

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct CSVCorpusTests {
    static var directory: String { Paths.corpus + "/csv" }

    @Test func everyCorpusFileHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory).filter { !$0.hasPrefix(".") }
        #expect(Set(files) == Set(csvCorpus.map(\.file)))
    }

    @Test(arguments: csvCorpus)
    func structureAndDialect(_ e: CSVCorpusExpectation) throws {
        let report = try checkCSVStructure(path: Self.directory + "/" + e.file, displayName: e.file)
        let errors = report.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.description))")
        #expect(report.dialect.delimiter == e.delimiter.asciiValue)
        #expect(report.dialect.decimalMark == UInt8(ascii: "."))
        #expect(report.dialect.encoding == .utf8)
        #expect(report.dialect.preambleLines == e.preambleLines)
        #expect(report.dialect.hasHeader == e.hasHeader)
        #expect(report.dialect.fieldCount == e.fieldCount)
        #expect(report.dataRows == e.dataRows)
        if e.hasHeader { #expect(report.columns.count >= e.fieldCount) }
    }

    @Test func seabearSparseRowsAreOneWarning() throws {
        let file = "seabear__TestDiveSeabearH3_0002SBDT.CSV"
        let report = try checkCSVStructure(path: Self.directory + "/" + file, displayName: file)
        #expect(report.diagnostics.map(\.description) == [
            "\(file):24: warning[csv.short-row]: row 6 and 171 more rows end early, after a delimiter (row 6 has 2 of 5 fields); their missing fields are read as empty",
        ])
        #expect(report.columns == ["Depth", "NDT", "TTS", "Ceiling", "Temperature"])
    }

    @Test func shearwaterSampleColumns() throws {
        let file = "shearwater-cloud__Petrel_3_742_Sample.csv"
        let report = try checkCSVStructure(path: Self.directory + "/" + file, displayName: file)
        #expect(report.columns.first == "Time (sec)")
        #expect(report.columns.last == "CO2mbar")
        #expect(report.dialect.preambleRecords == 2)
        #expect(report.dialect.headerRecord == 3)
    }
}
