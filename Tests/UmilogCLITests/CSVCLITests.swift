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
}
