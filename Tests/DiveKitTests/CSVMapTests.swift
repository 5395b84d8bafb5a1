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
