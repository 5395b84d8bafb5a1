import Foundation
import Testing
import DiveCore
@testable import DiveCSV

typealias Collect = MemorySink

@Suite struct CSVWriterTests {
    @Test(arguments: [
        ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""),
        (" padded", "\" padded\""), ("Kaukajärvi", "Kaukajärvi"), ("", ""),
    ])
    func quotesOnlyWhatRFC4180Requires(field: String, expected: String) throws {
        let sink = Collect()
        var buffer = CSVBuffer(sink: sink)
        buffer.field(field)
        buffer.field("x")
        try buffer.endRecord()
        try buffer.flush()
        #expect(sink.text == expected + ",x\r\n")
    }

    @Test(arguments: [(12.0, "12"), (45.91, "45.91"), (-0.5, "-0.5"), (0.00001, "0.00001"), (2.70000029, "2.70000029")])
    func numbersArePlainDecimals(value: Double, expected: String) {
        #expect(CSVNumber.format(value) == expected)
    }

    /// Imperial values are converted, then the same rule applies: a long fraction is rounded
    /// to a whole foot, °F, psi or pound; a conversion that lands on a short decimal stays.
    @Test func imperialConversions() {
        let u = Units(system: .imperial)
        #expect(u.depth(30) == "98")  // 98.425…
        #expect(u.depth(45.17175) == "148")  // 148.203…
        #expect(u.depth(30.48) == "100")  // 100 ft, exactly
        #expect(u.temperature(24) == "75.2")  // exactly 75.2 °F: a short decimal, kept
        #expect(u.temperature(21.11111111111111) == "70")  // 70 °F read, 21.1… °C held
        #expect(u.temperature(-23.3) == "-9.94")  // exactly -9.94
        #expect(u.temperature(-23.456) == "-10")  // -10.2208
        #expect(u.temperature(-17.8) == "-0.04" && u.temperature(-17.79) == "0")  // -0.022 °F: never -0
        #expect(u.pressure(200) == "2901")  // 2900.75…
        #expect(u.pressure(206.8427187) == "3000")
        #expect(u.weight(6) == "13")  // 13.227…
        #expect(u.weight(4.535923700000001) == "10")
        #expect(u.volume(11.1) == "11.1")  // litres in both systems
    }

    /// Metric: metres, °C, litres, kg to 0.1, bar to 1, unless the value is an exact decimal
    /// of at most two fraction digits, which is the source's own reading.
    @Test(arguments: [
        (45.17175, "45.2"), (26.34, "26.34"), (30.48, "30.48"), (18.288, "18.3"), (29.96, "29.96"),
        (29.999, "30"), (0.04, "0.04"), (0.001, "0"), (12, "12"), (10.05, "10.05"), (10.051, "10.1"),
    ])
    func depths(metres: Double, expected: String) {
        #expect(Units(system: .metric).depth(metres) == expected)
    }

    @Test(arguments: [
        (12.5914631, "12.6"), (23.888889, "23.9"), (8.32, "8.32"), (-1.25, "-1.25"), (-1.256, "-1.3"),
        (-0.04, "-0.04"), (-0.0412, "0"), (-0.0, "0"), (21.11111111111111, "21.1"), (-12.222222222222221, "-12.2"),
    ])
    func temperatures(celsius: Double, expected: String) {
        #expect(Units(system: .metric).temperature(celsius) == expected)
    }

    @Test(arguments: [(236.0390625, "236"), (199.8, "199.8"), (200.55, "200.55"), (206.8427187, "207"), (68.9475729, "69"), (0.499, "0")])
    func pressures(bar: Double, expected: String) {
        #expect(Units(system: .metric).pressure(bar) == expected)
    }

    @Test func volumesAndWeights() {
        let u = Units(system: .metric)
        #expect(u.volume(10.736487521536459) == "10.7" && u.volume(11.1) == "11.1" && u.volume(0.25) == "0.25")
        #expect(u.weight(4.535923700000001) == "4.5" && u.weight(6) == "6" && u.weight(2.25) == "2.25" && u.weight(2.255) == "2.3")
    }

    /// The summary row as written: converted values rounded, recorded ones as recorded; a
    /// computed gas percentage to a tenth. Positions are written as recorded.
    @Test func theSummaryRowWritesEachColumnAtItsPrecision() throws {
        let sink = Collect()
        let writer = CSVSummaryWriter(sink: sink)
        var dive = Dive(uuid: "u", startedAt: DiveDateTime(date: LocalDate(year: 2024, month: 1, day: 2)!))
        dive.maxDepth = 45.17175; dive.avgDepth = 26.34; dive.bottomTemperature = -1.8666667; dive.airTemperature = 8.32
        dive.visibility = 4.572; dive.weight = 4.535923700000001
        var c = Cylinder()
        c.volume = 11.09868; c.startPressure = 236.0390625; c.endPressure = 49.5; c.oxygen = 32.000000000000004
        var d = Cylinder()
        d.oxygen = 20.9999999; d.helium = 35.123; d.volume = 7; d.startPressure = 200; d.endPressure = 100.004
        dive.cylinders = [c, d]
        dive.entryPosition = Position(latitude: 27.7342166, longitude: -34.25671)
        try writer.write(dive, header: LogbookHeader())
        try writer.finish()
        let row = sink.text.components(separatedBy: "\r\n")[1]
        #expect(row == ",2024-01-02,,,,45.2,26.34,-1.9,8.32,,,27.7342166,-34.25671,,EAN32; Tx21/35.1,11.1; 7,236; 200,49.5; 100,4.6,4.5,,,,,,,u")
    }

    /// A profile's channels are at most two decimals in metric, so written as held; in
    /// imperial each cell is converted and rounded.
    @Test func profileCellsFollowTheRule() throws {
        var dive = Dive(uuid: "u", startedAt: nil)
        var p = Profile()
        p.depth = Series(times: [0], values: [4517])
        p.temperature = Series(times: [0], values: [-187])
        p.pressures = [PressureSeries(gasNumber: 0, series: Series(times: [0], values: [2360]))]
        dive.recordings = [Recording(profile: p)]
        dive.cylinders = [Cylinder()]
        func row(_ units: UnitSystem) throws -> String {
            let body = Collect()
            let writer = CSVProfileWriter(body: body, units: units)
            try writer.write(dive, header: LogbookHeader())
            try writer.finish()
            return body.text
        }
        #expect(try row(.metric) == ",,,,0,45.17,-1.87,,,,,,,,u,236\r\n")
        #expect(try row(.imperial) == ",,,,0,148,29,,,,,,,,u,3423\r\n")  // 148.195… ft, 28.634 °F, 3422.89… psi
    }

    @Test func absentValuesAreEmptyCellsNotZero() throws {
        let sink = Collect()
        let writer = CSVSummaryWriter(sink: sink)
        let start = DiveDateTime(date: LocalDate(year: 2024, month: 1, day: 2)!)
        try writer.write(Dive(uuid: "u", startedAt: start), header: LogbookHeader())
        try writer.finish()
        let row = sink.text.components(separatedBy: "\r\n")[1]
        #expect(row == ",2024-01-02" + String(repeating: ",", count: 25) + "u")
        #expect(CSVSummaryWriter.columns(.metric).count == 27)
    }

    @Test func profileRowsMergeChannelsWithoutInventingReadings() throws {
        let body = Collect()
        let writer = CSVProfileWriter(body: body)
        var dive = Dive(uuid: "u", startedAt: nil)
        var p = Profile()
        p.depth = Series(times: [0, 10_000], values: [0, 512])
        p.temperature = Series(times: [5_000], values: [2415])
        p.events = [Event(time: 10_000, type: .bookmark)]
        p.duration = 10_000
        dive.recordings = [Recording(profile: p)]
        try writer.write(dive, header: LogbookHeader())
        try writer.finish()
        let rows = body.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows == [",,,,0,0,,,,,,,,,u", ",,,,5,,24.15,,,,,,,,u", ",,,,10,5.12,,,,,,,,bookmark,u"])
        #expect(writer.pressureColumns == 0)
    }

    @Test func shorterRowsArePaddedToTheHeader() throws {
        let out = Collect()
        var padder = CSVRowPadder(fields: 4, sink: out)
        let input = Array("a,b\r\n\"x,\ny\",2,3,4\r\n1\r\n".utf8)
        try input.withUnsafeBytes { try padder.feed($0) }
        try padder.flush()
        #expect(out.text == "a,b,,\r\n\"x,\ny\",2,3,4\r\n1,,,\r\n")
    }
}
