import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 3: a cell that writes one value in two units (`docs/csv-formats.md` §10.9).
@Suite struct CSVTwoUnitCellTests {
    /// `Samples/csv/two-units.csv`: depths and temperatures each written twice, `/`, `(…)` and `|`.
    @Test func theColumnsUnitOrTheFirstIsReadAndTheOtherChecked() throws {
        let file = Paths.samples + "/csv/two-units.csv"
        let (dives, findings, _) = try readCSV(file)
        #expect(dives.count == 3)
        // Row 2: `9.3 m / 31 ft` (30.5 ft), `6.1 m / 20 ft` under a header in ft, `22 C (72 F)`, `28 C | 82 F`.
        #expect(dives[0].maxDepth == 9.3)
        #expect(dives[0].avgDepth == 6.096)
        #expect(dives[0].bottomTemperature == 22 && dives[0].airTemperature == 28)
        // Row 3: `12.0 m / 45 ft` disagree (45 ft is 13.7 m); `24 C / 75 F` agree (75.2 °F).
        #expect(dives[1].maxDepth == 12 && dives[1].bottomTemperature == 24)
        // Row 4: `40 ft / 12.2 m`: the first, 12.192 m, agrees with 12.2 m within its rounding.
        #expect(dives[2].maxDepth == 12.192)
        #expect(findings.map(\.description) == [
            "\(file): resolved[csv.two-units]: the column \"Max Depth\" writes values in two units (\"9.3 m / 31 ft\" …): m, the first written, is read, and ft checked against it",
            "\(file): resolved[csv.two-units]: the column \"Avg Depth (ft)\" writes values in two units (\"6.1 m / 20 ft\" …): ft, the column's unit, is read, and m checked against it",
            "\(file): resolved[csv.two-units]: the column \"Water Temp\" writes values in two units (\"22 C (72 F)\" …): c, the first written, is read, and f checked against it",
            "\(file): resolved[csv.two-units]: the column \"Air Temp\" writes values in two units (\"28 C | 82 F\" …): c, the first written, is read, and f checked against it",
            "\(file):3: resolved[csv.two-units-disagree]: \"12.0 m / 45 ft\" gives 12.0 m and 45 ft, which is 13.716 m against 12 m: they differ by more than their rounding; 12.0 m, the first written, is read",
        ])
        #expect(findings.last?.location.field == "Max Depth")
    }

    @Test func aPairIsTwoUnitsOfOneDimension() throws {
        let (a, b) = try #require(CSVValues.twoUnits("9.3 m / 31 ft"))
        #expect(a == CSVWrittenQuantity(value: 9.3, unit: .metres, text: "9.3 m", step: 0.1))
        #expect(b == CSVWrittenQuantity(value: 31, unit: .feet, text: "31 ft", step: 1))
        #expect(CSVValues.twoUnits("200 bar | 2900 psi")?.1.unit == .psi)
        #expect(CSVValues.twoUnits("22,5 C (72,5 F)", decimalMark: UInt8(ascii: ","))?.1.step == 0.1)
        // A gradient factor pair, one unit twice, two dimensions, durations, a part with no unit.
        for text in ["30/70", "12 m / 12 m", "12 m / 12 bar", "45 min / 1 h", "12 / 39 ft", "12 m / about 39 ft"] {
            #expect(CSVValues.twoUnits(Substring(text)) == nil, "\(text)")
        }
        #expect(CSVValues.quantity("22 C (72 F)")! == (22, .celsius))
    }
}
