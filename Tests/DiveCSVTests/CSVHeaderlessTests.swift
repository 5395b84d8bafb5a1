import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 1: a table with no header row (docs/csv-formats.md §10.18).
@Suite struct CSVHeaderlessTests {
    static let diveList = Paths.samples + "/csv/headerless-dive-list.csv"
    static let apd = Paths.samples + "/csv/rebreather_no-header.apd"

    /// Bare values that are no documented layout are not guessed: the read fails with a
    /// --map line made from the columns' shapes, and the same line reads the file.
    @Test func aDiveListWithNoHeaderAsksForItsColumns() throws {
        let reader = try CSVDiveReader(path: Self.diveList)
        let error = try #require(throws: DiveError.self) { _ = try reader.next() }
        #expect(error.code == "csv.no-header")
        #expect(error.message.contains("1 whole numbers 1–3, rising by 1; 2 dates (\"2021-07-04\" …); 3 clock times (\"11:45\" …); 4 numbers 12.5–22; 5 whole numbers 38–51; 6 whole numbers 23–24"))
        #expect(error.message.contains("perhaps --map '1=dive_number' --map '2=date' --map '3=time' --map '4=max_depth:m' --map '5=duration:min' --map '6=water_temp:c'"))
        #expect(!reader.layout.understandsNothing)

        var columns: [String: CSVColumnMeaning] = [:]
        for (c, m) in reader.layout.proposal { columns[String(c + 1)] = m }
        let (dives, findings, _) = try readCSV(Self.diveList, CSVReadOptions(columns: columns))
        // Read off the file by hand: 1,2021-07-04,11:45,18.2,45,24 …
        #expect(dives.map(\.number) == [1, 2, 3])
        #expect(dives.map { $0.startedAt?.description } == ["2021-07-04T11:45:00", "2021-07-05T09:10:00", "2021-07-05T14:02:00"])
        #expect(dives.map(\.maxDepth) == [18.2, 22, 12.5])
        #expect(dives.map(\.submergedTime) == [2700, 3060, 2280])
        #expect(dives.map(\.bottomTemperature) == [24, 23, 24])
        #expect(findings.isEmpty)
    }

    /// A profile's bare values propose a sample time, a depth and a temperature.
    @Test func aProfileWithNoHeaderProposesItsChannels() throws {
        let (_, _, reader) = try readCSVTextKeepingReader("0\t0.0\t24.1\n10\t2.3\t24.0\n20\t5.1\t23.8\n30\t7.9\t23.5\n")
        #expect(reader.problem?.code == "csv.no-header")
        #expect(CSVColumnShape.mapLine(reader.layout.proposal) == "--map '1=sample_time:s' --map '2=sample_depth:m' --map '3=sample_temp:c'")
    }

    /// Values that have no dive's shape (no date, no rising time) are not a dive log.
    @Test func barePricesAreNoDiveLog() throws {
        let (_, _, reader) = try readCSVTextKeepingReader("apples,1.20,3\npears,2.10,5\nplums,0.80,2\n")
        #expect(reader.layout.understandsNothing)
    }

    /// APD LogViewer's `.apd`: 20 columns of numbers with no header, read by the documented
    /// places once their shapes match, said as a finding.
    @Test func anAPDFileIsRecognisedByItsShapes() throws {
        let start = DiveDateTime.parse("2021-07-04T10:00")!.0
        let (dives, findings, reader) = try readCSV(Self.apd, CSVReadOptions(startedAt: start))
        #expect(reader.layout.preset?.id == "apd-logviewer-headerless")
        let said = try #require(findings.first { $0.code == "csv.layout-by-shape" })
        #expect(said.kind == .resolved)
        #expect(said.message.contains("whole seconds rising from 0 first, a depth (numbers 0–12.4) second, a water temperature (whole numbers 17–19) 16th"))
        let profile = try #require(dives.first?.recordings.first?.profile)
        // Read off the file: 0 … 360 s a minute apart, 0 → 12.4 → 0 m, 19 → 17 → 18 °C.
        #expect(profile.depth?.times == [0, 60_000, 120_000, 180_000, 240_000, 300_000, 360_000])
        #expect(profile.depth?.values == [0, 450, 980, 1240, 800, 310, 0])
        #expect(profile.temperature?.values == [1900, 1900, 1800, 1700, 1700, 1800, 1800])
        #expect(dives.first?.maxDepth == 12.4)
        // Nineteen columns of text are no such file.
        let (_, _, other) = try readCSVTextKeepingReader(String(repeating: "a\t", count: 19) + "b\n" + String(repeating: "c\t", count: 19) + "d\n")
        #expect(other.layout.preset == nil)
    }

    /// Shapes: flags, serial numbers, dates with times, constant texts.
    @Test func valueShapes() {
        let mark = UInt8(ascii: ".")
        #expect(CSVColumnShape.shape(["0", "1", "1"], decimalMark: mark).kind == .flag)
        #expect(CSVColumnShape.shape(["12345678", "12345678"], decimalMark: mark).kind == .serial)
        #expect(CSVColumnShape.shape(["SU-1234", "SU-1234"], decimalMark: mark).kind == .serial)
        #expect(CSVColumnShape.shape(["2021-07-04 11:45", "2021-07-05 09:10"], decimalMark: mark).kind == .dateTime)
        #expect(CSVColumnShape.shape(["4. Juli 2021"], decimalMark: mark).kind == .date)
        #expect(CSVColumnShape.shape(["Dahab", "Blue Hole"], decimalMark: mark).kind == .text)
        let rising = CSVColumnShape.shape(["0", "2.5", "5"], decimalMark: mark)
        #expect(rising.kind == .number && rising.rising && !rising.risingByOne)
        #expect(rising.description == "numbers 0–5, rising")
    }
}

/// Reads `text` as a CSV file, keeping the reader when its first dive fails.
func readCSVTextKeepingReader(_ text: String) throws -> ([Dive], [Finding], CSVDiveReader) {
    let path = try Paths.temporaryDirectory() + "/t.csv"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let reader = try CSVDiveReader(path: path)
    var dives: [Dive] = []
    while let d = try? reader.next() { dives.append(d) }
    return (dives, reader.takeFindings(), reader)
}
