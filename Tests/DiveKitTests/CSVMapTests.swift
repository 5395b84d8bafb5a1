import DiveCore
import DiveCSV
import DiveKit
import Foundation
import Testing
import TestSupport

@Suite struct CSVMapTests {
    @Test("a --map names a column however it is spaced, and a unit that measures something else is refused")
    func maps() throws {
        let options = try CSVReadOptions.from(dateOrder: nil, startedAt: nil, maps: [" Foo =date", "Bar = max_depth:ft"], mappingFile: nil, strict: false)
        let path = try Paths.temporaryDirectory() + "/mapped.csv"
        try "Foo,Bar\n2024-01-02,60\n".write(toFile: path, atomically: true, encoding: .utf8)
        let (book, _) = try CSVDiveReader(path: path, options: options).readAll()
        #expect(book.dives.first?.maxDepth == 18.288)
        let error = try #require(throws: DiveError.self) {
            _ = try CSVReadOptions.from(dateOrder: nil, startedAt: nil, maps: ["Bar=max_depth:bar"], mappingFile: nil, strict: false)
        }
        #expect(error.message.contains("bar does not measure what max_depth holds"))
    }
}

@Suite struct CSVLostDiveTests {
    @Test("a CSV row left out is a dive not carried: convert writes the others and fails; a file read to no dive is an error")
    func convertNeverSucceedsWhileLosingDives() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/rows.csv"
        try "Date,Max Depth [m]\n2024-02-01,10\n32.01.2024,12\n2024-02-03,14\n".write(toFile: path, atomically: true, encoding: .utf8)
        let report = convert(inputs: [path], options: ConvertOptions(to: .csv, output: dir + "/out.csv"), standardOutput: MemorySink())
        #expect(report.inputs.first?.dives == 2)
        #expect(report.lostDives == 1)
        #expect(report.failed)
        let none = dir + "/none.csv"
        try "Date,Max Depth [m]\n32.01.2024,12\n".write(toFile: none, atomically: true, encoding: .utf8)
        let nothing = convert(inputs: [none], options: ConvertOptions(to: .csv, output: dir + "/none-out.csv"), standardOutput: MemorySink())
        #expect(nothing.inputs.first?.error?.code == "csv.no-dives")
        #expect(nothing.inputs.first?.findings.map(\.code) == ["csv.bad-value", "csv.row-without-start"])
        #expect(nothing.failed)
    }
}
