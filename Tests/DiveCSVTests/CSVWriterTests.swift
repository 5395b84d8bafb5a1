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

    @Test func imperialConversions() {
        let u = Units(system: .imperial)
        #expect(u.depth(30) == "98.43")
        #expect(u.temperature(24) == "75.2")
        #expect(u.pressure(200) == "2900.8")
        #expect(u.weight(6) == "13.23")
        #expect(Units(system: .metric).depth(2.64) == "2.64")
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
