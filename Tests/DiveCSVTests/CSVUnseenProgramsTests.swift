import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18: CSVs of programs umilog had never seen, read by rules (`docs/csv-formats.md` §10),
/// each pinned with values read off the corpus file by hand (`awk -F, 'NR==N'` on the file, the
/// header being line 1; the reader numbers rows the same way).
@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct CSVUnseenProgramsTests {
    static func path(_ file: String) -> String { Paths.corpus + "/csv/" + file }

    /// A spreadsheet kept in Darwin Core terms (§10.2): 35 rows, 3 dated to a month only.
    @Test func theDarwinCoreSpreadsheet() throws {
        let (dives, findings, reader) = try readCSV(Self.path("manual-spreadsheet-es__logbook_data.csv"))
        #expect(reader.layout.kind == .summary)
        #expect(reader.layout.dateOrder == .ymd)
        // 35 rows, less rows 2, 11 and 12 (`2011-08`, `2012-05`, `2012-06`).
        #expect(dives.count == 32)
        let partial = findings.filter { $0.code == "csv.date-partial" }
        #expect(partial.map(\.location.row) == [2, 11, 12])
        #expect(partial.allSatisfy { $0.lostDives == 1 && $0.kind == .dropped && $0.location.field == "eventDate" })
        #expect(partial.first?.description == "\(Self.path("manual-spreadsheet-es__logbook_data.csv")):2: dropped[csv.date-partial]: row 2's date \"2011-08\" names a month but no day; a dive is placed on a day, and any day of August 2011 would be one the file does not name, so the dive is left out (write its day to keep it)")
        #expect(findings.reduce(0) { $0 + $1.lostDives } == 3)
        // Row 6: `2011-10-22,14:04,La Piedra del Hombre,La Herradura (Granada),36.725076,-3.736712,13.4,36,,,,,22,Buena,6,…`
        let d = dives[3]
        #expect(d.startedAt?.description == "2011-10-22T14:04:00")
        #expect(d.maxDepth == 13.4)
        #expect(d.submergedTime == 36 * 60)
        #expect(d.bottomTemperature == 22)
        #expect(d.weight == 6)
        let site = try #require(d.siteUUIDs.first.flatMap { reader.header.site($0) })
        #expect(site.name == "La Piedra del Hombre")
        #expect(site.location?.name == "La Herradura (Granada)")
        #expect(site.position == Position(latitude: 36.725076, longitude: -3.736712))
        // `Open Water Diver,shoreDive,driftDive`: a course's name and a kind of dive are tags as
        // written, `shoreDive` the entry (§10.4), each column said once.
        #expect(d.tags == ["Open Water Diver", "driftDive"])
        #expect(d.entryType == .shore)
        #expect(d.type == nil)
        #expect(dives[31].tags == ["FunDive", "caveDive"] && dives[31].entryType == .boat)
        let kinds = findings.filter { $0.code.hasPrefix("csv.dive-type") }
        #expect(kinds.map { "\($0.code) \($0.location.field ?? "")" } == [
            "csv.dive-type-tag diveType_1", "csv.dive-type-entry diveType_2", "csv.dive-type-tag diveType_3",
        ])
        #expect(kinds.allSatisfy { $0.kind == .resolved })
        // `Buena` and `Regular` grade the visibility: said once each, where first written (rows 5
        // and 9), not read as a distance nor reported as a bad value.
        #expect(dives.allSatisfy { $0.visibility == nil })
        let grades = findings.filter { $0.code == "csv.visibility-word" }
        #expect(grades.map(\.location.row) == [5, 9])
        #expect(grades.map(\.message) == ["Buena", "Regular"].map { word in
            "\"\(word)\" grades the visibility in words (\(word == "Buena" ? "good" : "fair")); the model holds visibility as a distance, so the grade is not read (here and wherever the column says the same)"
        })
        #expect(grades.allSatisfy { $0.kind == .dropped && $0.location.field == "visibility" })
        #expect(!findings.contains { $0.code == "csv.bad-value" })
        // Row 3 (`2011-10-21,,…`): a date with no time is a date-only start.
        #expect(dives[0].startedAt?.description == "2011-10-21")
        #expect(dives[0].maxDepth == nil && dives[0].submergedTime == nil)
        // Its site, `"""frente al centro scubasur"""` in the file, is named without the quotes
        // typed around it; said once for the column (rows 3 and 4 write the same).
        #expect(dives[0].siteUUIDs.first.flatMap { reader.header.site($0) }?.name == "frente al centro scubasur")
        let quoted = findings.filter { $0.code == "csv.name-quoted" }
        #expect(quoted.map(\.description) == [
            "\(Self.path("manual-spreadsheet-es__logbook_data.csv")):3: resolved[csv.name-quoted]: the name \"frente al centro scubasur\" is written inside quotes of its own (a spreadsheet saves a cell typed with quotes as \"\"\"…\"\"\"); read as frente al centro scubasur",
        ])
        #expect(quoted.first?.location.field == "locationID")
    }
}
