import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 9: a spreadsheet's flattening of an XML dive log, one row per element and
/// its columns named after the XML's paths, is refused saying what it is (docs/csv-formats.md
/// §10.15).
@Suite struct CSVFlattenedXMLTests {
    /// Headers as Excel's XML table, LibreOffice and others write them: full paths with
    /// attributes and `#agg`, qualified names, dotted paths.
    @Test(arguments: [
        (["/uddf/profiledata/repetitiongroup/dive/samples/waypoint/divetime", "/uddf/profiledata/repetitiongroup/dive/samples/waypoint/depth", "#agg"], "uddf", "UDDF"),
        (["ns1:divetime", "ns1:depth", "ns1:temperature", "@id"], nil, "UDDF"),
        (["dive.samples.waypoint.divetime", "dive.samples.waypoint.depth", "Notes"], "dive", "UDDF"),
        (["/divelog/dives/dive/@number", "/divelog/dives/dive/@date", "/divelog/dives/dive/divecomputer/sample/@depth"], "divelog", "Subsurface XML"),
        (["/dives/dive/maxDepth", "/dives/dive/date"], "dives", "MacDive XML"),
        (["/logbook/entry/when", "/logbook/entry/deep"], "logbook", nil),
    ] as [([String], String?, String?)])
    func flattenedHeaders(header: [String], root: String?, format: String?) throws {
        let flat = try #require(CSVFlattenedXML.recognise(header: header))
        #expect(flat.root == root)
        #expect(flat.format == format)
    }

    /// Ordinary headers, even with a slash, a dot or a colon in them, and paths with different
    /// roots, are not.
    @Test(arguments: [
        ["Date", "Time", "Max. Depth", "Duration"],
        ["sac (l/min)", "Date/Time", "Depth/m"],
        ["#Nr", "Date", "Time"],
        ["GF.Low", "GF.High", "Date"],
        ["/uddf/dive/depth", "/divelog/dive/depth"],
        ["@id", "#agg"],
        ["/uddf/dive/depth", "Date", "Time", "Depth"],
    ])
    func notFlattened(header: [String]) {
        #expect(CSVFlattenedXML.recognise(header: header) == nil)
    }

    /// The sample: Excel's XML table of a UDDF file's two dives. Nothing is read; the error
    /// names UDDF and what to do, at the header's line; validate says the same.
    @Test func theSampleIsRefusedAsAFlattenedUDDF() throws {
        let path = Paths.samples + "/csv/uddf-flattened-by-spreadsheet.csv"
        let error = try #require(throws: DiveError.self) { _ = try readCSV(path) }
        #expect(error.code == "csv.flattened-xml")
        let message = "this is a spreadsheet's flattening of a UDDF file: 9 of its 9 columns are named after the XML's paths (\"/uddf/@version\", \"/uddf/generator/name\" …), one row per element of the XML, not one per dive; export the UDDF file itself and read that"
        #expect(error.description == "\(path):1: error[csv.flattened-xml]: \(message)")
        let report = try checkCSVStructure(path: path, displayName: "flat.csv")
        #expect(!report.isValid)
        #expect(report.diagnostics.filter { $0.code == "csv.flattened-xml" }.map(\.message) == [message])
    }

    /// A format umilog does not read is named so, and a root it does not know is named as the
    /// root.
    @Test func theMessageNamesWhatTheXMLIs() throws {
        let macdive = try #require(CSVFlattenedXML.recognise(header: ["/dives/dive/maxDepth", "/dives/dive/date"]))
        #expect(macdive.message.hasSuffix("export the MacDive XML file itself and read that"))
        let other = try #require(CSVFlattenedXML.recognise(header: ["/logbook/entry/when", "/logbook/entry/deep"]))
        #expect(other.message.hasPrefix("this is a spreadsheet's flattening of an XML file (root element <logbook>): 2 of its 2 columns"))
        #expect(other.message.hasSuffix("read the XML file itself, or export a CSV of one row per dive"))
    }
}
