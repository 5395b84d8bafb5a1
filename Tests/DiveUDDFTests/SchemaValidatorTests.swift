import Foundation
import Testing
import DiveCore
@testable import DiveUDDF
import TestSupport

/// A UDDF document valid against the schema around `body` (what follows the dive's
/// `<informationbeforedive>`, from line 7), with `header` on line 4.
func schemaUDDF(header: String = "", dive body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2">
    <generator><name>Test</name></generator>
    \(header)
    <profiledata><repetitiongroup id="rg"><dive id="d1">
    <informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive>
    \(body)
    <informationafterdive><greatestdepth>1</greatestdepth><diveduration>60</diveduration></informationafterdive>
    </dive></repetitiongroup></profiledata>
    </uddf>
    """
}

/// Validates `xml` written to a temporary file named `name`.
func validateUDDF(_ xml: String, name: String = "test.uddf") throws -> [Diagnostic] {
    let dir = try Paths.temporaryDirectory()
    let path = dir + "/" + name
    try xml.write(toFile: path, atomically: true, encoding: .utf8)
    return try UDDFSchemaValidator().validate(path: path, displayName: name)
}

@Suite struct EmbeddedXSDTests {
    @Test func theEmbeddedXSDIsSchemasFileByteForByte() throws {
        let file = try Data(contentsOf: URL(fileURLWithPath: Paths.root + "/schemas/uddf_3.2.2.xsd"))
        #expect(Array(UDDFSchemaValidator.xsdText.utf8) == Array(file), "regenerate with scripts/embed-schema.sh")
    }
}

@Suite struct SchemaValidatorTests {
    @Test func theSampleLogbookIsValid() throws {
        #expect(try UDDFSchemaValidator().validate(path: Paths.samples + "/logbook.uddf") == [])
    }

    @Test func aDiagnosticCarriesTheLineAndTheElementPath() throws {
        let diagnostics = try validateUDDF(schemaUDDF(dive: """
            <samples>
            <waypoint><depth>1</depth><divetime>0</divetime></waypoint>
            <waypoint><depth>2</depth><divetime>10</divetime></waypoint>
            <waypoint><depth>3,5</depth><divetime>20</divetime></waypoint>
            </samples>
            """))
        #expect(diagnostics.map(\.description) == [
            "test.uddf:10: error[uddf.schema.value-invalid]: /uddf/profiledata/repetitiongroup/dive/samples/waypoint[3]/depth: <depth> holds \"3,5\", which is not a valid xs:float",
        ])
    }

    @Test func aMissingChildIsReportedOnTheElementThatEnds() throws {
        // libxml2 calls the validator's end handler after ours: the path must still name
        // <tankdata>, not its parent.
        let diagnostics = try validateUDDF(schemaUDDF(dive: "<tankdata>\n</tankdata>\n<samples><waypoint><depth>1</depth><divetime>0</divetime></waypoint></samples>"))
        #expect(diagnostics.map(\.code) == ["uddf.schema.element-missing"])
        #expect(diagnostics.first?.location.path == "/uddf/profiledata/repetitiongroup/dive/tankdata")
        #expect(diagnostics.first?.location.line == 8)
        #expect(diagnostics.first?.message == "<tankdata> ends without a child it requires; expected one of <link>, <tankvolume>, <tankpressurebegin>")
    }

    @Test func textInAnElementOnlyElementNamesThatElement() throws {
        let diagnostics = try validateUDDF(schemaUDDF(dive: "<samples><waypoint><depth>1</depth>oops<divetime>0</divetime></waypoint></samples>"))
        #expect(diagnostics.map(\.code) == ["uddf.schema.content-unexpected"])
        #expect(diagnostics.first?.location.path == "/uddf/profiledata/repetitiongroup/dive/samples/waypoint")
        #expect(diagnostics.first?.message == "<waypoint> holds text, but it may hold only elements")
    }

    @Test func idsAreUniqueAndReferencesResolveWhereverTheyAre() throws {
        // A forward reference (the mix is defined after nothing refers to it yet) resolves;
        // "nitrox" is never defined: one diagnostic at its first use, counting the others.
        let diagnostics = try validateUDDF(schemaUDDF(header: """
            <gasdefinitions><mix id="air"><name>Air</name><o2>0.21</o2></mix><mix id="air"><name>Air</name><o2>0.21</o2></mix></gasdefinitions>
            """, dive: """
            <samples>
            <waypoint><depth>1</depth><divetime>0</divetime><tankpressure ref="air">20000000</tankpressure></waypoint>
            <waypoint><depth>1</depth><divetime>10</divetime><tankpressure ref="nitrox">19000000</tankpressure></waypoint>
            <waypoint><depth>1</depth><divetime>20</divetime><tankpressure ref="nitrox">18000000</tankpressure></waypoint>
            </samples>
            """))
        #expect(diagnostics.map(\.description) == [
            "test.uddf:4: error[uddf.schema.id-duplicate]: /uddf/gasdefinitions/mix[2]: the id \"air\" is already used on line 4; an id names one element only",
            "test.uddf:9: error[uddf.schema.idref-unresolved]: /uddf/profiledata/repetitiongroup/dive/samples/waypoint[2]/tankpressure: the reference \"nitrox\" names an id that no element of the file has (and 1 more reference to it)",
        ])
    }

    @Test func aReferenceBeforeItsIdResolves() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2">
            <generator><name>Test</name></generator>
            <profiledata><repetitiongroup id="rg"><dive id="d1">
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime><tripmembership ref="trip-1"/></informationbeforedive>
            <samples><waypoint><depth>1</depth><divetime>0</divetime></waypoint></samples>
            <informationafterdive><greatestdepth>1</greatestdepth><diveduration>60</diveduration></informationafterdive>
            </dive></repetitiongroup></profiledata>
            <divetrip><trip id="trip-1"><name>Red Sea</name><trippart><name>Hurghada</name><dateoftrip startdate="2024-01-01T00:00:00" enddate="2024-01-07T00:00:00"/></trippart></trip></divetrip>
            </uddf>
            """
        #expect(try validateUDDF(xml) == [])
    }

    @Test func oneValidatorChecksFileAfterFileFromAFreshStart() throws {
        let dir = try Paths.temporaryDirectory()
        let a = dir + "/a.uddf", b = dir + "/b.uddf"
        try schemaUDDF(header: "<gasdefinitions><mix id=\"air\"><name>Air</name><o2>0.21</o2></mix></gasdefinitions>", dive: "<samples><waypoint><depth>1,5</depth><divetime>0</divetime></waypoint></samples>")
            .write(toFile: a, atomically: true, encoding: .utf8)
        try schemaUDDF(header: "<gasdefinitions><mix id=\"air\"><name>Air</name><o2>0.21</o2></mix></gasdefinitions>", dive: "<samples><waypoint><depth>1</depth><divetime>0</divetime></waypoint></samples>")
            .write(toFile: b, atomically: true, encoding: .utf8)
        let validator = try UDDFSchemaValidator()
        #expect(try validator.validate(path: a).map(\.code) == ["uddf.schema.value-invalid"])
        // The id "air" of the first file is forgotten: no duplicate here.
        #expect(try validator.validate(path: b) == [])
        #expect(try validator.validate(path: a).count == 1)
    }

    @Test func aDoctypeIsRefusedBeforeAnythingElse() throws {
        let diagnostics = try UDDFSchemaValidator().validate(path: Paths.samples + "/invalid/xml.doctype.uddf", displayName: "xml.doctype.uddf")
        #expect(diagnostics.map(\.description) == [
            "xml.doctype.uddf:2:16: error[xml.doctype]: the file declares a document type (<!DOCTYPE>); dive logs never need one, and it is refused so that no entity is expanded and nothing is fetched",
        ])
    }

    @Test func notWellFormedAndTruncatedFilesGetOneErrorEach() throws {
        let validator = try UDDFSchemaValidator()
        let malformed = try validator.validate(path: Paths.samples + "/invalid/xml.malformed.uddf", displayName: "m.uddf")
        #expect(malformed.map(\.description) == [
            "m.uddf:57:32: error[xml.malformed]: the file is not well-formed XML: Opening and ending tag mismatch: depth line 57 and dpeth",
        ])
        let truncated = try validator.validate(path: Paths.samples + "/invalid/xml.truncated.uddf", displayName: "t.uddf")
        #expect(truncated.map(\.description) == [
            "t.uddf:2028:20: error[xml.truncated]: the file ends before the XML is complete: <depth> (inside 6 more open elements) is never closed; the file looks truncated",
        ])
        #expect(try validateUDDF("").map(\.code) == ["xml.malformed"])
    }

    @Test func anUnreadableFileThrows() throws {
        #expect(throws: DiveError.self) { try UDDFSchemaValidator().validate(path: "/nonexistent.uddf") }
    }

    /// libxml2's own text in, our sentence out.
    @Test(arguments: [
        (1871, "Element '{http://www.streit.cc/uddf/3.2/}equipment': This element is not expected. Expected is ( {http://www.streit.cc/uddf/3.2/}personal ).\n",
         "uddf.schema.element-unexpected", "<equipment> is not expected here; expected <personal>"),
        (1871, "Element '{http://www.streit.cc/uddf/3.2/}equipmentused': This element is not expected.",
         "uddf.schema.element-unexpected", "<equipmentused> is not expected here"),
        (1871, "Element '{http://www.streit.cc/uddf/3.2/}decomodel': Missing child element(s). Expected is one of ( {http://www.streit.cc/uddf/3.2/}rgbm, {http://www.streit.cc/uddf/3.2/}vpm ).",
         "uddf.schema.element-missing", "<decomodel> ends without a child it requires; expected one of <rgbm>, <vpm>"),
        (1868, "Element '{http://www.streit.cc/uddf/3.2/}owner': The attribute 'id' is required but missing.",
         "uddf.schema.attribute-missing", "<owner> lacks its required attribute id"),
        (1866, "Element '{http://www.streit.cc/uddf/3.2/}mix', attribute 'bogus': The attribute 'bogus' is not allowed.",
         "uddf.schema.attribute-unexpected", "<mix> may not carry the attribute bogus"),
        (1827, "Element '{http://www.streit.cc/uddf/3.2/}depth', attribute 'unit': The attribute 'unit' is not allowed.",
         "uddf.schema.attribute-unexpected", "<depth> may not carry the attribute unit"),
        (1824, "Element '{http://www.streit.cc/uddf/3.2/}mix', attribute 'id': 'CC1:21/00' is not a valid value of the atomic type 'xs:ID'.",
         "uddf.schema.value-invalid", "the attribute id of <mix> holds \"CC1:21/00\", which is not a valid xs:ID (an id is an XML name: a letter or _ first, no spaces or colons)"),
        (1824, "Element '{http://www.streit.cc/uddf/3.2/}visibility': '' is not a valid value of the atomic type 'xs:float'.",
         "uddf.schema.value-invalid", "<visibility> holds \"\", which is not a valid xs:float (an empty element records nothing; leave it out)"),
        (1824, "Element '{http://www.streit.cc/uddf/3.2/}ratingvalue': '' is not a valid value of the atomic type '{http://www.streit.cc/uddf/3.2/}ratingvalueType'.",
         "uddf.schema.value-invalid", "<ratingvalue> holds \"\", which is not a valid ratingvalueType (an empty element records nothing; leave it out)"),
        (1840, "Element '{http://www.streit.cc/uddf/3.2/}apparatus': [facet 'enumeration'] The value 'submarine' is not an element of the set {'open-scuba', 'rebreather'}.",
         "uddf.schema.value-invalid", "<apparatus> holds \"submarine\", which is not one of 'open-scuba', 'rebreather'"),
        (1834, "Element '{http://www.streit.cc/uddf/3.2/}ratingvalue': [facet 'maxInclusive'] The value '11' is greater than the maximum value allowed ('10').",
         "uddf.schema.value-invalid", "<ratingvalue> holds \"11\", which is greater than the maximum value allowed ('10')"),
        (1843, "Element '{http://www.streit.cc/uddf/3.2/}waypoint': Character content other than whitespace is not allowed because the content type is 'element-only'.",
         "uddf.schema.content-unexpected", "<waypoint> holds text, but it may hold only elements"),
        (1845, "Element 'uddf': No matching global declaration available for the validation root.",
         "uddf.schema.root-undeclared", "the root <uddf> has no namespace (UDDF 3.2 needs xmlns=\"http://www.streit.cc/uddf/3.2/\"), so the UDDF 3.2.2 schema cannot check the file"),
        (1879, "Element '{urn:x}thing': Something new.",
         "uddf.schema.invalid", "<{urn:x}thing>: something new"),
    ])
    func libxml2MessagesBecomeSentences(_ error: Int, _ raw: String, _ code: String, _ message: String) {
        let explained = SchemaMessage.explain(code: error, message: raw, rootNamespace: nil)
        #expect(explained.code == code)
        #expect(explained.message == message)
    }
}

/// What `xmllint --stream --noout --schema schemas/uddf_3.2.2.xsd FILE` (libxml2 2.9.14)
/// says of the shared corpus, copied from its output: a line, the element it names, and the
/// code that kind of message gets. The duplicate ids are from `xmllint --noout --schema`
/// (the tree mode, which checks them; the streaming mode does not).
struct SchemaPin: Sendable, CustomStringConvertible {
    var file: String
    var line: Int
    var element: String
    var code: String
    var description: String { "\(file):\(line)" }
}

let schemaPins: [SchemaPin] = [
    .init(file: "corpus/uddf/divelogs-de__divelogs.uddf", line: 2, element: "uddf", code: "uddf.schema.root-undeclared"),
    .init(file: "corpus/uddf/divinglog__TestDiveDivingLog5.08.uddf", line: 1, element: "uddf", code: "uddf.schema.root-undeclared"),
    .init(file: "corpus/uddf/kenozooid__ostc-dump-26.uddf", line: 798, element: "equipmentused", code: "uddf.schema.element-unexpected"),
    .init(file: "corpus/uddf/shearwater-cloud-desktop__dive31.uddf", line: 27, element: "owner", code: "uddf.schema.attribute-missing"),
    .init(file: "corpus/uddf/shearwater-cloud-desktop__dive31.uddf", line: 28, element: "equipment", code: "uddf.schema.element-unexpected"),
    .init(file: "corpus/uddf/shearwater-cloud-desktop__dive31.uddf", line: 89, element: "gradientfactorhigh", code: "uddf.schema.element-unexpected"),
    .init(file: "corpus/uddf/shearwater-cloud-desktop__dive31.uddf", line: 92, element: "decomodel", code: "uddf.schema.element-missing"),
    .init(file: "corpus/uddf/subsurface__2024-06-27_Dive1.uddf", line: 21, element: "divecomputer", code: "uddf.schema.value-invalid"),
    .init(file: "corpus/uddf/subsurface__2024-06-27_Dive1.uddf", line: 56, element: "dive", code: "uddf.schema.id-duplicate"),
    .init(file: "corpus/uddf/subsurface__2024-06-27_Dive1.uddf", line: 471, element: "visibility", code: "uddf.schema.value-invalid"),
    .init(file: "corpus/uddf/subsurface__2024-06-27_Dive1.uddf", line: 476, element: "divetrip", code: "uddf.schema.element-missing"),
    .init(file: "corpus/uddf/subsurface__lagraule-subsurface.uddf", line: 68, element: "dive", code: "uddf.schema.id-duplicate"),
    .init(file: "corpus/uddf/subsurface__lagraule-subsurface.uddf", line: 84, element: "tankdata", code: "uddf.schema.element-missing"),
    .init(file: "corpus/uddf/subsurface__lagraule-subsurface.uddf", line: 2250, element: "ratingvalue", code: "uddf.schema.value-invalid"),
    .init(file: "corpus/uddf/subsurface__subsurface.uddf", line: 43, element: "notes", code: "uddf.schema.element-unexpected"),
    .init(file: "corpus/uddf/subsurface__subsurface.uddf", line: 309, element: "tankdata", code: "uddf.schema.element-missing"),
    .init(file: "corpus/uddf/subsurface__test40.uddf", line: 29, element: "mix", code: "uddf.schema.value-invalid"),
    .init(file: "corpus/uddf/subsurface__test40.uddf", line: 10170, element: "divetrip", code: "uddf.schema.element-missing"),
]

/// Schema errors per file as `xmllint --stream` counts them (its "Schemas validity error"
/// lines); the id rules it does not check are left out of ours for the comparison.
let xmllintErrorCounts: [(file: String, errors: Int)] = [
    ("corpus/uddf/divelogs-de__divelogs.uddf", 1),
    ("corpus/uddf/divinglog__TestDiveDivingLog5.08.uddf", 1),
    ("corpus/uddf/kenozooid__logbook.uddf", 0),
    ("corpus/uddf/kenozooid__ostc-dump-26.uddf", 1),
    ("corpus/uddf/shearwater-cloud-desktop__005_oc-trimix-two-deco-gases--perdix2.uddf", 113),
    ("corpus/uddf/shearwater-cloud-desktop__Peregrine_TX_93CBB2BB_140_2025-03-21.uddf", 59),
    ("corpus/uddf/shearwater-cloud-desktop__Petrel_3699F336_98.1_2026-1-6_15-57-9.uddf", 26),
    ("corpus/uddf/shearwater-cloud-desktop__dive31.uddf", 43),
    ("corpus/uddf/shearwater-cloud-desktop__issue_71_perdix_single_tank.uddf", 17),
    ("corpus/uddf/subsurface__2024-06-27_Dive1.uddf", 5),
    ("corpus/uddf/subsurface__lagraule-subsurface.uddf", 5),
    ("corpus/uddf/subsurface__subsurface.uddf", 116),
    ("corpus/uddf/subsurface__suit.uddf", 7),
    ("corpus/uddf/subsurface__test40.uddf", 7),
    ("reference/divejson/fixtures/uddf/conditions.uddf", 0),
    ("reference/divejson/fixtures/uddf/gear.uddf", 0),
    ("reference/divejson/fixtures/uddf/opendiving.uddf", 0),
    ("reference/divejson/fixtures/uddf/shearwater-cloud.uddf", 12),
    ("reference/divejson/fixtures/uddf/subsurface.uddf", 11),
]

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct SchemaCorpusTests {
    @Test(arguments: schemaPins)
    func reportsWhatXmllintReports(_ pin: SchemaPin) throws {
        let diagnostics = try UDDFSchemaValidator().validate(path: Paths.shared + "/" + pin.file, displayName: pin.file)
        let atLine = diagnostics.filter { $0.location.line == pin.line && $0.code == pin.code }
        #expect(atLine.count == 1, "\(diagnostics.map(\.description).joined(separator: "\n"))")
        #expect(atLine.first?.location.path?.split(separator: "/").last?.split(separator: "[").first.map(String.init) == pin.element)
        #expect(atLine.first?.severity == .error)
        #expect(atLine.first?.location.file == pin.file)
    }

    @Test(arguments: xmllintErrorCounts.map { "\($0.file)|\($0.errors)" })
    func countsAsManySchemaErrorsAsXmllint(_ entry: String) throws {
        let parts = entry.split(separator: "|")
        let file = String(parts[0]), expected = Int(parts[1])!
        let diagnostics = try UDDFSchemaValidator().validate(path: Paths.shared + "/" + file, displayName: file)
        let schemaOnly = diagnostics.filter { !["uddf.schema.id-duplicate", "uddf.schema.idref-unresolved"].contains($0.code) }
        #expect(schemaOnly.count == expected)
        #expect(schemaOnly.allSatisfy { $0.code.hasPrefix("uddf.schema.") && $0.location.line != nil && $0.location.path != nil })
    }
}
