import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 10: a whole profile as a JSON array in one cell of a dive's row (§10.14).
@Suite struct CSVProfileCellTests {
    /// `Samples/csv/profile-in-a-cell.csv`: objects, pairs, depths an interval apart, a cell cut
    /// short, keys with units.
    @Test func theSampleReads() throws {
        let file = Paths.samples + "/csv/profile-in-a-cell.csv"
        let (dives, findings, reader) = try readCSV(file)
        #expect(reader.layout.kind == .summary)
        #expect(reader.layout.column(.profile)?.name == "Profile")
        #expect(dives.count == 5)
        func profile(_ k: Int) -> Profile? { dives[k].recordings.first?.profile }
        // Row 2: `{"time":0,"depth":0},{"time":10,"depth":3.2,"temp":24},{"time":20,"depth":5.5,"temp":23.5,"hr":80},{"time":30,"depth":0}`.
        #expect(profile(0)?.depth == Series(times: [0, 10_000, 20_000, 30_000], values: [0, 320, 550, 0]))
        #expect(profile(0)?.temperature == Series(times: [10_000, 20_000], values: [2400, 2350]))
        #expect(dives[0].maxDepth == 5.5 && dives[0].submergedTime == 30 && dives[0].bottomTemperature == 23.5)
        // Row 3: `[[0,0],[10,3.2],[20,6.1],[30,0]]`, seconds and metres.
        #expect(profile(1)?.depth == Series(times: [0, 10_000, 20_000, 30_000], values: [0, 320, 610, 0]))
        #expect(dives[1].maxDepth == 6.1 && dives[1].submergedTime == 30)
        // Row 4: `[0,1.2,3.4,1.0,0]` with `Sample Interval` 20: 0, 20 … 80 s.
        #expect(profile(2)?.depth == Series(times: [0, 20_000, 40_000, 60_000, 80_000], values: [0, 120, 340, 100, 0]))
        #expect(dives[2].maxDepth == 3.4 && dives[2].submergedTime == 80)
        // Row 5: the cell is cut short: no profile, the row's own 12 m still read.
        #expect(profile(3) == nil && dives[3].maxDepth == 12)
        // Row 6: `depth_ft` 33 ft = 10.0584 m (1006 cm); `"pressure":"200 bar"`; 5,000,000 ft is no depth.
        #expect(profile(4)?.depth == Series(times: [0, 60_000], values: [0, 1006]))
        #expect(profile(4)?.pressures == [PressureSeries(gasNumber: 0, series: Series(times: [60_000], values: [2000]))])
        #expect(dives[4].maxDepth == 10.06)
        #expect(findings.map(\.description) == [
            "\(file): resolved[csv.unit-assumed]: the column \"Max Depth\" states no unit; read as m (the metric default)",
            "\(file): resolved[csv.profile-cell]: the column \"Profile\" holds each dive's profile as a JSON array (\"[{\"time\":0,\"depth\":0},{\"time\":10,\"depth\":3.2,\"temp\":24},{\"t…\"): its samples are read into the dive's profile",
            "\(file): resolved[csv.unit-assumed]: the column \"Profile (depth)\" states no unit; read as m (the metric default)",
            "\(file): resolved[csv.unit-assumed]: the column \"Profile (temp)\" states no unit; read as c (the metric default)",
            "\(file): resolved[csv.unit-assumed]: the column \"Sample Interval\" states no unit; its plain numbers are read as seconds, how a sample interval is stated",
            "\(file):5: dropped[csv.profile-cell-invalid]: the profile in column \"Profile\" is no JSON (the JSON text ends where a value should be; the file looks truncated at character 42 of the cell); not read (the dive's other columns are)",
            "\(file):6: dropped[csv.value-out-of-range]: \"5000000\" in column \"Profile (depth_ft)\" is 1524000 m, outside what a depth or distance can be (-100 to 11000 m); left out",
            "\(file): dropped[csv.profile-key-not-carried]: 1 reading of the key \"hr\" in the profiles of column \"Profile\" (a key umilog does not know): not read",
        ])
    }

    /// A plain number in a `samples` column counts the samples; umilog's own summary says the same
    /// by its preset, as before.
    @Test func aCountOfSamplesIsNoProfile() throws {
        let (dives, findings, _) = try readCSVText("Date,Max Depth (m),Samples\n2024-05-01,12,240\n")
        #expect(dives.first?.recordings.isEmpty == true)
        #expect(findings.map(\.message).contains("the column \"Samples\" holds how many samples each dive has (\"240\" …), not the samples; not read"))
        #expect(CSVPreset.umilogSummary.meaning(name: "samples", index: nil) == CSVColumnMeaning(.ignored))
    }

    /// A cell that is JSON but no array, depths with no interval, items that are no samples.
    @Test func whatACellCannotGive() throws {
        let text = """
        date,profile
        2024-05-01,"{""depth"":3}"
        2024-05-02,"[0,3,0]"
        2024-05-03,"[[0,0],[10,5,1],true,[20,0]]"

        """
        let (dives, findings, _) = try readCSVText(text)
        #expect(dives.count == 3)
        #expect(dives[0].recordings.isEmpty && dives[1].recordings.first?.profile?.depth == nil)
        #expect(dives[2].recordings.first?.profile?.depth == Series(times: [0, 20_000], values: [0, 0]))
        #expect(findings.filter { $0.kind == .dropped }.map { "\($0.location.row ?? 0) \($0.code): \($0.message)" } == [
            "2 csv.profile-cell-invalid: the profile in column \"profile\" holds an object, not an array of samples; not read (the dive's other columns are)",
            "3 csv.profile-cell-no-time: 3 samples of the profile in column \"profile\" give no time, and the row no sample interval (a column such as `sample interval`) to place them; not read",
            "4 csv.profile-cell-unread: 2 items of the profile in column \"profile\" are no sample umilog reads (a sample is an object, a [seconds, metres] pair or a depth; a value a number or a text); not read",
        ])
    }

    /// A cell past ``CSVLimits/profileCellBytes`` is not parsed; the dive still reads.
    @Test func aCellTooLongIsNotParsed() throws {
        let cell = "[" + Array(repeating: "[0,1]", count: 120_000).joined(separator: ",") + "]"
        let (dives, findings, _) = try readCSVText("date,max depth,profile\n2024-05-01,9,\"\(cell)\"\n")
        #expect(dives.first?.maxDepth == 9 && dives.first?.recordings.isEmpty == true)
        #expect(findings.contains { $0.code == "csv.profile-cell-too-long" && $0.location.row == 2 && $0.location.field == "profile" })
    }
}
