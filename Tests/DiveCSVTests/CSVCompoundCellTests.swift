import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 10: a cylinder and a position each in one cell (§10.10). The JSON-array
/// profile in one cell is `CSVProfileCellTests` (§10.14).
@Suite struct CSVCompoundCellTests {
    /// `Samples/csv/compound-cells.csv`.
    @Test func aCylinderAndAPositionInOneCellEach() throws {
        let file = Paths.samples + "/csv/compound-cells.csv"
        let (dives, findings, _) = try readCSV(file)
        #expect(dives.count == 5)
        let cylinders = dives.map { $0.cylinders.map { "\($0.gasName ?? "-") \($0.oxygen ?? -1) \($0.volume ?? -1) \($0.startPressure ?? -1) \($0.endPressure ?? -1)" } }
        #expect(cylinders == [
            ["EAN32 32.0 12.0 200.0 70.0"],               // EAN32 12L 200->70bar
            ["Air 21.0 11.1 210.0 50.0"],                 // Air 11.1l 210-50 bar
            ["Nitrox 32% 32.0 15.0 200.0 60.0"],          // Nitrox 32% 15 l 200 > 60 bar
            ["EAN32 32.0 12.0 -1.0 -1.0"],                // EAN32 12L 200-> : the pressures are not read
            ["Air 21.0 -1.0 206.842719 34.473786"],       // Air 12 cuft 3000 to 500 psi
        ])
        func near(_ p: Position?, _ la: Double, _ lo: Double) -> Bool {
            guard let p else { return false }
            return abs(p.latitude - la) < 1e-9 && abs(p.longitude - lo) < 1e-9
        }
        // N 27°44.052' E 34°15.402'; 27.7342, 34.2567; 27°44'03"S 34°15'24"W; N 95°00' (no
        // latitude); 27.5 N 34.2 E.
        #expect(near(dives[0].entryPosition, 27.7342, 34.2567))
        #expect(dives[1].entryPosition == Position(latitude: 27.7342, longitude: 34.2567))
        #expect(near(dives[2].entryPosition, -(27 + 44.0 / 60 + 3.0 / 3600), -(34 + 15.0 / 60 + 24.0 / 3600)))
        #expect(dives[3].entryPosition == nil)
        #expect(dives[4].entryPosition == Position(latitude: 27.5, longitude: 34.2))
        #expect(findings.map(\.description) == [
            "\(file): resolved[csv.cylinder-cell]: the column \"Gas\" describes each cylinder in one cell (\"EAN32 12L 200->70bar\" …): its gas, size and start and end pressures are read from it",
            "\(file): resolved[csv.position-degrees]: the column \"GPS\" writes positions with hemispheres or in degrees and minutes (\"N 27°44.052' E 34°15.402'\" …): read as decimal degrees, south and west negative",
            "\(file): resolved[csv.position-pair]: the column \"GPS\" gives a latitude and a longitude in one cell (\"27.7342, 34.2567\" …): the first is read as the latitude, the second as the longitude, in decimal degrees",
            "\(file):5: dropped[csv.cylinder-part-unread]: in the cylinder \"EAN32 12L 200->\", \"200->\" is no gas, size or start and end pressures umilog reads; it is left out, the rest is read",
            "\(file):5: dropped[csv.value-out-of-range]: \"N 95°00' E 34°00'\" in column \"GPS\" is 95°, outside what a latitude can be (-90 to 90°); left out",
            "\(file): dropped[csv.cylinder-size-gas-volume]: the column \"Gas\" gives cylinder sizes as gas volume; without each cylinder's working pressure their water capacity is not known; not read",
        ])
    }

    @Test func aCylinderCellNeedsASizeOrPressures() throws {
        let cell = try #require(CSVValues.cylinderCell("Trimix 21/35 12l 220 to 40 bar"))
        #expect(cell.gas == "Trimix 21/35" && cell.size?.value == 12 && cell.size?.unit == .litres)
        #expect(cell.pressures == .init(start: 220, end: 40, startUnit: .bar, endUnit: .bar, text: "220 to 40 bar"))
        #expect(CSVValues.cylinderCell("12l 200bar->70")?.pressures?.endUnit == .bar)
        #expect(CSVValues.cylinderCell("EAN32 200->70")?.pressures?.startUnit == nil)
        // A gas name, or a dash between numbers with no pressure unit (`Tx 18-45`), is no cylinder.
        for text in ["EAN32", "Air", "Tx 18-45", "Trimix 18/45", "Air 200-50"] {
            #expect(CSVValues.cylinderCell(text) == nil, "\(text)")
        }
    }

    @Test func aPositionWithHemispheresOrMinutes() throws {
        #expect(CSVValues.position("E 34.2 N 27.5") == CSVPosition(latitude: 27.5, longitude: 34.2))
        #expect(CSVValues.position("27.5° -34.2°") == CSVPosition(latitude: 27.5, longitude: -34.2))
        #expect(CSVValues.position("S 8°30' W 115°15'") == CSVPosition(latitude: -8.5, longitude: -115.25))
        // Plain numbers (read elsewhere), two latitudes, 60 minutes, minutes after a fraction,
        // a sign with a hemisphere, a third coordinate, another word.
        for text in ["27.5 34.2", "N 27.5 S 34.2", "27°60' 34°00'", "27.5°30' 34°", "S -27 E 3", "N 1 E 2 N 3", "N 27.5 E 34.2 approx"] {
            #expect(CSVValues.position(Substring(text)) == nil, "\(text)")
        }
        let (dives, findings, _) = try readCSVText("Date,Coordinates\n2024-01-01,N 27.5 X 34.2\n")
        #expect(dives.first?.entryPosition == nil)
        #expect(findings.map(\.code) == ["csv.bad-value"])
    }
}
