import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 8: a profile that records no date, in a file whose name carries one
/// (docs/csv-formats.md §10.12).
@Suite struct CSVStartFromFileNameTests {
    @Test(arguments: [
        ("exports/dive_20210704_1145.txt", "2021-07-04T11:45:00", "20210704_1145"),
        ("log_2011-06-16_export.csv", "2011-06-16", "2011-06-16"),
        ("x_2011_06_16_12-30-05.csv", "2011-06-16T12:30:05", "2011_06_16_12-30-05"),
        ("a 2011.06.16T093005.csv", "2011-06-16T09:30:05", "2011.06.16T093005"),
        ("20210704.csv", "2021-07-04", "20210704"),
        ("dive_20210704_001.csv", "2021-07-04", "20210704"),
        ("dive_20210704_2561.csv", "2021-07-04", "20210704"),
        ("C:\\logs\\d_20210704-1145.csv", "2021-07-04T11:45:00", "20210704-1145"),
        ("20210704_dive_2021-07-04.csv", "2021-07-04", "20210704"),
    ])
    func aDateInTheName(path: String, start: String, text: String) {
        let found = CSVValues.startInFileName(path)
        #expect(found?.start.description == start)
        #expect(found?.text == text)
    }

    /// No date, two different ones, a date that does not exist or is out of range, digits that
    /// run on, a six-digit date (whose century and order the name does not say), the
    /// corpus's names, a date only in a folder's name.
    @Test(arguments: [
        "Poseidon_MkVILog.csv", "apd-logviewer__Test.csv", "seabear__TestDiveSeabearH3_0002SBDT.CSV",
        "apnealizer__valid_depth_data_trimmed.csv", "dive_20210704_20210705.csv", "dive_20211304.csv",
        "serial_123456789.csv", "dive_18500101.csv", "210704_1145.apd", "2021-7-4.csv", "2021-06_16.csv",
        "2021-07-04/profile.csv",
    ])
    func noDateInTheName(path: String) {
        #expect(CSVValues.startInFileName(path) == nil)
    }

    /// The sample: a profile with no date, named with its day and time.
    @Test func theSampleTakesItsStartFromItsName() throws {
        let path = Paths.samples + "/csv/freedive_2011-06-16_09-30.csv"
        let (dives, findings, reader) = try readCSV(path)
        #expect(reader.layout.kind == .profile)
        #expect(dives.map { $0.startedAt?.description ?? "" } == ["2011-06-16T09:30:00"])
        #expect(dives.first?.maxDepth == 5.0)
        let named = findings.filter { $0.code == "csv.start-from-file-name" }
        #expect(named.map(\.description) == [
            "\(path):2: inferred[csv.start-from-file-name]: the profile records no date; its start, 2011-06-16T09:30:00, is taken from the file's name (\"2011-06-16_09-30\" in \"freedive_2011-06-16_09-30.csv\"), as programs name the exports of a dive; --started-at gives another",
        ])
        #expect(named.first?.kind == .inferred)
        // --started-at still wins, and nothing is inferred.
        let given = try readCSV(path, CSVReadOptions(startedAt: DiveDateTime.parse("2011-06-17T08:00")!.0))
        #expect(given.dives.map { $0.startedAt?.description ?? "" } == ["2011-06-17T08:00:00"])
        #expect(!given.findings.contains { $0.code == "csv.start-from-file-name" })
    }

    /// A name without a date fails as before, naming the flag.
    @Test func aNameWithoutADateStillNeedsTheFlag() throws {
        let path = try Paths.temporaryDirectory() + "/freedive.csv"
        try String(contentsOfFile: Paths.samples + "/csv/freedive_2011-06-16_09-30.csv", encoding: .utf8).write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: DiveError.self) { _ = try readCSV(path) }
        #expect(error.code == "csv.no-start")
        #expect(error.message == "the profile records no date; give its start with --started-at 2024-05-01T10:12")
    }

    /// The name places a profile only: a row of a dive list without a date is still left out.
    @Test func aDiveListRowIsNotPlacedByTheName() throws {
        let path = try Paths.temporaryDirectory() + "/dives_20210704.csv"
        try "Date,Max Depth [m]\n2024-01-01,10\n,12\n".write(toFile: path, atomically: true, encoding: .utf8)
        let (dives, findings, _) = try readCSV(path)
        #expect(dives.count == 1)
        #expect(findings.map(\.code) == ["csv.row-without-start"])
    }
}
