import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct CSVCLITests {
    /// `csv inspect` says what it understood; an undecided date order is exit 1 naming the flag,
    /// and with the flag the dives are shown; the saved mapping reads the file again.
    @Test func csvInspectShowsTheMappingAndTheDateOrder() throws {
        let undecided = try umilog(["csv", "inspect", "Samples/csv/ambiguous-dates.csv"])
        #expect(undecided.status == 1)
        #expect(undecided.stdout.contains("date order: undecided (give --date-order dmy|mdy)"))
        #expect(undecided.stdout.contains("\"Max Depth (ft)\"   → max_depth:ft"))
        let mapping = try Paths.temporaryDirectory() + "/mapping.json"
        let decided = try umilog(["csv", "inspect", "Samples/csv/ambiguous-dates.csv", "--date-order", "dmy", "--write-mapping", mapping])
        #expect(decided.status == 0)
        #expect(decided.stdout.contains("  #1, 2023-04-03T09:10:00, max 18.288 m, 42:00"))
        let converted = try umilog(["convert", "Samples/csv/ambiguous-dates.csv", "--mapping", mapping, "--to", "json", "-q"])
        #expect(converted.status == 0)
        #expect(converted.stdout.contains("\"started_at\": \"2023-06-05T10:02:00\""))
    }

    /// A table it cannot read: `csv inspect` exits 1 and lists the columns by position with
    /// their values' shapes and a --map line to start from; that line, run, reads the file
    /// (issue 18, habit 1).
    @Test func csvInspectProposesAMapForATableItCannotRead() throws {
        let r = try umilog(["csv", "inspect", "Samples/csv/headerless-dive-list.csv"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("columns by position, as their first 3 rows show them:\n    1  whole numbers 1–3, rising by 1\n    2  dates (\"2021-07-04\" …)\n"))
        let line = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("start from: ") })
        #expect(line == "start from: umilog csv inspect Samples/csv/headerless-dive-list.csv --map '1=dive_number' --map '2=date' --map '3=time' --map '4=max_depth:m' --map '5=duration:min' --map '6=water_temp:c'")
        #expect(r.stdout.contains("error[csv.no-header]"))
        let arguments = ["csv", "inspect", "Samples/csv/headerless-dive-list.csv"] + line.split(separator: " ").dropFirst(6).map { $0.replacingOccurrences(of: "'", with: "") }
        let read = try umilog(arguments)
        #expect(read.status == 0)
        #expect(read.stdout.contains("  #1, 2021-07-04T11:45:00, max 18.2 m, 45:00, 24 °C"))
        // A table with a header and no rows reads no dive: exit 1, not 0.
        let empty = try Paths.temporaryDirectory() + "/empty.csv"
        try "Date,Max Depth (m)\n".write(toFile: empty, atomically: true, encoding: .utf8)
        #expect(try umilog(["csv", "inspect", empty]).status == 1)
    }

    /// Converting a spreadsheet with ambiguous dates fails (exit 1) with the flag named; a
    /// malformed --map is bad usage (exit 2).
    @Test func convertRefusesAmbiguousDatesAndBadMaps() throws {
        let r = try umilog(["convert", "Samples/csv/ambiguous-dates.csv", "--to", "csv"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("error[csv.date-order-ambiguous]"))
        #expect(r.stderr.contains("--date-order"))
        let bad = try umilog(["convert", "Samples/csv/ambiguous-dates.csv", "--to", "csv", "--map", "Date=when"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("is not FIELD[#CYLINDER][:UNIT]"))
    }

    /// Only dmy and mdy are orders a user can give; inspect takes the CSV options its
    /// messages name; csv inspect reads standard input whole.
    @Test func csvOptionsEverywhere() throws {
        let ymd = try umilog(["convert", "Samples/csv/ambiguous-dates.csv", "--to", "csv", "--date-order", "ymd"])
        #expect(ymd.status == 2)
        #expect(ymd.stderr.contains("Please provide one of 'dmy' and 'mdy'"))
        let inspected = try umilog(["inspect", "Samples/csv/ambiguous-dates.csv", "--date-order", "dmy"])
        #expect(inspected.status == 0)
        #expect(inspected.stdout.contains("dives:      3"))
        let text = try String(contentsOfFile: "Samples/csv/ambiguous-dates.csv", encoding: .utf8)
        let piped = try umilog(["csv", "inspect", "-", "--date-order", "dmy"], stdin: text)
        #expect(piped.status == 0)
        #expect(piped.stdout.contains("  #1, 2023-04-03T09:10:00, max 18.288 m, 42:00"))
    }

    /// A spreadsheet's flattening of a UDDF file (§10.15) is refused by every command with the
    /// same code, exit 1, and nothing written.
    @Test func aFlattenedXMLLogIsRefusedEverywhere() throws {
        let file = "Samples/csv/uddf-flattened-by-spreadsheet.csv"
        let dir = try Paths.temporaryDirectory()
        let inspected = try umilog(["csv", "inspect", file])
        #expect(inspected.status == 1)
        #expect(inspected.stdout.contains("error:      \(file):1: error[csv.flattened-xml]: this is a spreadsheet's flattening of a UDDF file"))
        let converted = try umilog(["convert", file, "--to", "uddf", "-o", dir + "/out.uddf"])
        #expect(converted.status == 1)
        #expect(converted.stderr.contains("error[csv.flattened-xml]"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.uddf"))
        let validated = try umilog(["validate", file])
        #expect(validated.status == 1)
        #expect(validated.stdout.contains("error[csv.flattened-xml]") || validated.stderr.contains("error[csv.flattened-xml]"))
        let imported = try umilog(["import", file, "--db", dir + "/log.db"])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("error[csv.flattened-xml]"))
    }
}
