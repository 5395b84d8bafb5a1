import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 7 and "a profile whose time goes back is a new dive or an error": how a
/// profile table is split into dives (docs/csv-formats.md §10.17).
@Suite struct CSVProfileSplitTests {
    /// The sample: three dives, the second with no dive number on any row, told apart by the
    /// date and start every row repeats; its last sample written three times is one sample,
    /// not a new dive. Values read off the file by hand.
    @Test func aDiveWithNoNumberIsToldByItsDateAndStart() throws {
        let (dives, findings, _) = try readCSV(Paths.samples + "/csv/profiles-numbered-now-and-then.csv")
        #expect(dives.map { $0.startedAt?.description } == ["2021-07-04T11:45:00", "2021-07-04T14:30:00", "2021-07-05T09:00:00"])
        #expect(dives.map(\.number) == [1, nil, 3])
        #expect(dives.map { $0.recordings.first?.profile?.depth?.times } == [[0, 10_000, 20_000], [0, 10_000, 20_000], [0, 10_000]])
        #expect(dives.map(\.maxDepth) == [8.1, 6.5, 3.1])
        // The repeated end: two readings at 20 s left out, said once, no dive lost.
        #expect(findings.map(\.code).contains("csv.time-repeated"))
        #expect(!findings.map(\.code).contains("csv.time-restarts"))
        #expect(findings.allSatisfy { $0.lostDives == 0 })
    }

    /// A start column that changes on every row is each sample's wall clock: no key, so the
    /// rows stay one dive.
    @Test func aWallClockIsNoKey() throws {
        let text = "Date,Time,Sample time (s),Sample depth (m)\n2021-07-04,11:45:00,0,0\n2021-07-04,11:45:10,10,4\n2021-07-04,11:45:20,20,6\n"
        let (dives, _, reader) = try readCSVText(text)
        #expect(reader.layout.keyColumns == [0])
        #expect(dives.count == 1)
        #expect(dives.first?.recordings.first?.profile?.depth?.times == [0, 10_000, 20_000])
    }

    /// A sample time that goes back, with no column to tell the dives, starts another dive:
    /// said once for the file with how often, never as a warning per row.
    @Test func aTimeThatGoesBackStartsAnotherDive() throws {
        var text = "Date,Sample time (s),Sample depth (m)\n"
        for dive in 0..<3 { for s in 0..<200 { text += "2021-07-04,\(dive * 5 + s * 10),\(Double(s % 40) / 2)\n" } }
        let (dives, findings, _) = try readCSVText(text)
        #expect(dives.count == 3)
        #expect(dives.map { $0.recordings.first?.profile?.depth?.times.first } == [0, 5000, 10_000])
        let restarts = findings.filter { $0.code == "csv.time-restarts" }
        #expect(restarts.count == 1)
        #expect(restarts.first?.kind == .resolved)
        #expect(restarts.first?.message == "the sample time goes back at row 202 (5 s after 1990 s), and at 1 more row; its \"Date\" stayed the same or blank, so each such row is read as the first of another dive")
        #expect(restarts.first?.location.row == 202)
        #expect(findings.count(where: { $0.code == "csv.time-backwards" }) == 0)
    }

    /// One start, given with --started-at, is one dive's: the next dive of the file, which
    /// records no date, is left out and counted as lost.
    @Test func aGivenStartPlacesOneDive() throws {
        let start = DiveDateTime.parse("2024-05-01T10:00")!.0
        let (dives, findings, reader) = try readCSVText("Time,Depth\n0,0\n10,5\n20,8\n0,0\n10,3\n20,4\n", CSVReadOptions(startedAt: start))
        #expect(dives.count == 1)
        #expect(dives.first?.startedAt == start)
        let lost = try #require(findings.first { $0.code == "csv.dive-without-start" })
        #expect(lost.lostDives == 1)
        #expect(lost.location.row == 5)
        #expect(reader.divesLost == 1)
    }

    /// Numbers that rise and fall like a list's values, not restart like profiles, keep a
    /// `Time` column a time of day.
    @Test func risingAndFallingIsNoProfile() throws {
        for text in ["Time,Depth\n45,10\n51,12\n38,9\n60,14\n", "Time,Depth\n0,0\n10,3\n20,5\n15,4\n25,6\n"] {
            let path = try Paths.temporaryDirectory() + "/t.csv"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(try CSVDiveReader(path: path).layout.kind == .summary, "\(text)")
        }
    }
}
