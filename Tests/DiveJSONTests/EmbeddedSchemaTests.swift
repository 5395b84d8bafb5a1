import Foundation
import Testing
@testable import DiveJSON
import TestSupport

@Suite struct EmbeddedSchemaTests {
    @Test func theEmbeddedSchemaIsSchemasFileByteForByte() throws {
        let file = try String(contentsOfFile: Paths.root + "/schemas/divejson-1.0.schema.json", encoding: .utf8)
        #expect(DiveJSONValidator.schemaText + "\n" == file, "regenerate with scripts/embed-schema.sh")
    }
}
