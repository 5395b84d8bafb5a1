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
        #expect(decided.stdout.contains("date order: dmy (given by --date-order)\n"))
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

    /// One sniffer decides for every command whether a file is a CSV dive table, whatever its
    /// name ends with (§10.16): a `.txt` tab table under a short preamble is read by all four,
    /// a `.txt` of prose refused by all four as no dive log (before, `csv inspect` read it,
    /// `validate` passed it and `import` skipped it).
    @Test func everyCommandAgreesOnATextFile() throws {
        let dir = try Paths.temporaryDirectory()
        let table = "Samples/csv/tab-table-with-preamble.txt"
        let inspected = try umilog(["csv", "inspect", table])
        #expect(inspected.status == 0)
        #expect(inspected.stdout.contains("dialect:    tab-separated, decimal point, UTF-8, 3 preamble lines, header, 5 fields"))
        #expect(inspected.stdout.contains("  2021-07-06T15:30:00, max 12.6 m, 38:00"))
        let converted = try umilog(["convert", table, "--to", "json", "-q"])
        #expect(converted.status == 0)
        #expect(converted.stdout.contains("\"started_at\": \"2021-07-05T09:10:00\""))
        let validated = try umilog(["validate", table])
        #expect(validated.status == 0)
        let imported = try umilog(["import", table, "--db", dir + "/log.db"])
        #expect(imported.status == 0)
        #expect(imported.stdout.contains("\(table): csv, 3 dives, 3 imported"))

        let prose = "Samples/csv/trip-notes-prose.txt"
        // Its sentences hold commas, so the sniffer sees a table of three columns, none a dive log's.
        let refusal = "\(prose):1: error[format.not-a-dive-log]: the file is a table, but none of its columns is one a dive log has (\"We dived the Blue Hole on the fourth\", \"about 18 m\", \"and the Canyon the next day.\")"
        let notInspected = try umilog(["csv", "inspect", prose])
        #expect(notInspected.status == 1)
        #expect(notInspected.stderr.hasPrefix(refusal))
        #expect(notInspected.stdout.isEmpty)
        let notConverted = try umilog(["convert", prose, "--to", "json", "-o", dir + "/prose.json"])
        #expect(notConverted.status == 1)
        #expect(notConverted.stderr.contains(refusal))
        #expect(!FileManager.default.fileExists(atPath: dir + "/prose.json"))
        let notValidated = try umilog(["validate", prose])
        #expect(notValidated.status == 2)
        #expect((notValidated.stdout + notValidated.stderr).contains(refusal))
        let notImported = try umilog(["import", prose, "--db", dir + "/log.db"])
        #expect(notImported.stdout.contains("\(prose): skipped: the file is a table, but none of its columns is one a dive log has"))
        #expect((notImported.stdout + notImported.stderr).contains("1 not dive logs"))
    }

    /// A dive log of another format is named by `csv inspect`, which reads CSV only.
    @Test func csvInspectNamesAnotherFormat() throws {
        let dir = try Paths.temporaryDirectory()
        let uddf = dir + "/log.uddf"
        try "<?xml version=\"1.0\"?>\n<uddf version=\"3.2.2\"><generator><name>x</name></generator></uddf>\n".write(toFile: uddf, atomically: true, encoding: .utf8)
        let r = try umilog(["csv", "inspect", uddf])
        #expect(r.status == 1)
        #expect(r.stderr == "\(uddf):1: error[format.not-csv]: the file is UDDF, not a CSV table; umilog inspect shows it, and umilog convert reads it\n")
    }
}
