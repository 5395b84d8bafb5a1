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

    /// Apnealizer's freediving profile (§10.8): `Time,Depth,Pulse,Temp,Speed`, rows `1,0.76,0,28.9,-0.66`
    /// … `10,6.76,0,29,-0.5` (CRLF). No date: without a start it fails as APD's files do.
    @Test func theApnealizerProfile() throws {
        let file = Self.path("apnealizer__valid_depth_data_trimmed.csv")
        let error = try #require(throws: DiveError.self) { _ = try readCSV(file) }
        #expect(error.code == "csv.no-start")
        #expect(error.message == "the profile records no date; give its start with --started-at 2024-05-01T10:12")
        let start = DiveDateTime.parse("2025-01-15T10:00:00")!.0
        let (dives, findings, reader) = try readCSV(file, CSVReadOptions(startedAt: start))
        #expect(reader.layout.kind == .profile)
        #expect(reader.layout.column(.sampleTime)?.name == "Time")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt == start)
        let profile = try #require(d.recordings.first?.profile)
        // Seconds 1 … 10; depths in cm as written in m; 28.9 °C for rows 1–4, 29 after.
        #expect(profile.depth?.times == (1...10).map { $0 * 1000 })
        #expect(profile.depth?.values == [76, 122, 258, 325, 314, 368, 500, 631, 627, 676])
        #expect(profile.temperature?.values == [2890, 2890, 2890, 2890, 2900, 2900, 2900, 2900, 2900, 2900])
        #expect(d.maxDepth == 6.76)
        #expect(d.submergedTime == 10)
        #expect(d.bottomTemperature == 28.9)
        #expect(findings.map(\.description) == [
            "\(file): resolved[csv.time-counts-seconds]: the column \"Time\" holds no time of day but plain numbers that increase (1, 2, 3 … in the first 10 rows, starting again only as a new profile would), beside a depth and no date: read as seconds into the dive, one row per sample",
            "\(file): dropped[csv.column-not-carried]: the column \"Pulse\" has no place in a dive log's model; not read",
            "\(file): dropped[csv.column-not-carried]: the column \"Speed\" has no place in a dive log's model; not read",
            "\(file): resolved[csv.unit-assumed]: the column \"Depth\" states no unit; read as m (the metric default)",
            "\(file): resolved[csv.unit-assumed]: the column \"Temp\" states no unit; read as c (the metric default)",
            // Pulse is 0 on all ten rows; Speed (-0.66 …) is not.
            "\(file): absent[csv.column-zero]: the column \"Pulse\" is 0 on every row, as a sensor that is not fitted writes it: it records no reading",
        ])
    }

    /// The hand-kept Google Sheets list (§10.20): `dive` of whole numbers numbers the dives, a bare `average`
    /// after `depth` is the average depth, `time` in whole numbers is minutes. Rows read off
    /// the file: `268,2018-03-20,"Tioman, Malaysia",North Point,18.9,12.5,51` …
    /// `273,2018-03-22,…,Sepoi Island,18.9,14,48,` (a trailing comma) … `276,2018-03-23,…,
    /// Chebeh Island,23.5,14.6,49`.
    @Test func theGoogleSheetsList() throws {
        let file = Self.path("google-sheets__dives.csv")
        let (dives, findings, reader) = try readCSV(file)
        #expect(dives.map(\.number) == Array(268...276))
        #expect(dives.map { $0.startedAt?.description } == ["2018-03-20", "2018-03-20", "2018-03-21", "2018-03-21", "2018-03-21", "2018-03-22", "2018-03-22", "2018-03-22", "2018-03-23"])
        #expect(dives.map(\.maxDepth) == [18.9, 11.9, 24.4, 22.9, 29.3, 18.9, 15.5, 13.7, 23.5])
        #expect(dives.map(\.avgDepth) == [12.5, 6.4, 14.3, 12.2, 18.6, 14, 12.2, 10.1, 14.6])
        #expect(dives.map { ($0.submergedTime ?? 0) / 60 } == [51, 49, 50, 53, 35, 48, 48, 45, 49])
        #expect(dives.map { $0.siteUUIDs.first.flatMap { reader.header.site($0) }?.name } == ["North Point", "ABC Bay", "Lobster Point", "North Point", "MV Sipidan", "Sepoi Island", "Labas Island", "Soyak Island", "Chebeh Island"])
        #expect(findings.map(\.code) == ["csv.column-by-neighbour", "csv.column-by-values", "csv.time-is-duration", "csv.unit-assumed", "csv.unit-assumed"])
        #expect(findings[2].message == "the column \"time\" holds no time of day but whole numbers (51, 49, 50 … in the first 9 rows), in a list of dives with a date and no length: read as each dive's length in minutes")
    }

    /// The input of padi_log_importer (§10.7): `08/03/2024` read day-first as that layout is
    /// documented; `Enriched_32` is EAN32; the template's note is no note. Rows 2 and 3 read
    /// off the file: `Egypt - North Safari - 1,Gota Abu Ramada,08/03/2024,50,12,Air,21,79,Your
    /// notes go here` and `…- 2,Famous East,08/03/2024,49,26,Enriched_32,32,68,"Saw Dolphines, turtles"`.
    @Test func thePadiImporterInput() throws {
        let file = Self.path("padi-importer-input__dives.csv")
        let (dives, findings, reader) = try readCSV(file)
        #expect(reader.layout.preset?.id == "padi-log-importer")
        #expect(reader.layout.dateOrder == .dmy)
        #expect(dives.map { $0.startedAt?.description } == ["2024-03-08", "2024-03-08"])
        #expect(dives.map(\.maxDepth) == [12, 26])
        #expect(dives.map(\.submergedTime) == [50 * 60, 49 * 60])
        #expect(dives.map { $0.siteUUIDs.first.flatMap { reader.header.site($0) }?.name } == ["Gota Abu Ramada", "Famous East"])
        #expect(dives.map(\.notes) == [nil, "Saw Dolphines, turtles"])
        let gases = dives.map { $0.cylinders.map { "\($0.gasName ?? "-") \($0.oxygen ?? -1) \($0.helium ?? -1) \($0.gasLabel ?? "-")" } }
        #expect(gases == [["Air 21.0 0.0 Air"], ["EAN32 32.0 0.0 EAN32"]])
        #expect(findings.map(\.description) == [
            "\(file): dropped[csv.column-not-carried]: the column \"title\" has no place in a dive log's model; not read",
            "\(file): resolved[csv.date-order-documented]: every date could be day-first or month-first (08/03/2024 is 2024-03-08 or 2024-08-03); read as DD/MM/YYYY, the order the padi_log_importer input is documented to use (docs/csv-formats.md §10.7); --date-order mdy reads them the other way",
            "\(file): resolved[csv.unit-assumed]: the column \"bottom_time\" states no unit; its plain numbers are read as minutes, how logbooks state a dive's length",
            "\(file): resolved[csv.unit-assumed]: the column \"max_depth\" states no unit; read as m (the metric default)",
            "\(file):2: absent[csv.placeholder]: \"Your notes go here\" is the placeholder text of the padi_log_importer input (PADI logbook)'s template, not a value; the cell is read as empty (here and wherever the column says the same)",
            "\(file): resolved[csv.nitrogen-balance]: the column \"nitrogen\" gives each gas's nitrogen, the balance of its oxygen and helium (100 % less both); it agrees with them, which carry it",
            "\(file):3: resolved[csv.gas-enriched-air]: \"Enriched_32\" names enriched air (nitrox) with 32 % oxygen: read as EAN32",
        ])
        #expect(findings.first { $0.code == "csv.date-order-documented" }?.location.field == "date")
        // The flag still decides: month-first, and nothing to say about the order.
        let (mdy, said, _) = try readCSV(file, CSVReadOptions(dateOrder: .mdy))
        #expect(mdy.first?.startedAt?.description == "2024-08-03")
        #expect(!said.contains { $0.code == "csv.date-order-documented" })
    }
}

/// The padi_log_importer layout (§10.7), beyond its corpus file.
@Suite struct CSVPadiLayoutTests {
    static let header = "title,location,date,bottom_time,max_depth,gas_mixture,oxygen,nitrogen,notes\n"

    @Test func datesThatSayTheOtherOrderAreNotThatLayout() throws {
        let error = try #require(throws: DiveError.self) { _ = try readCSVText(Self.header + "A,B,03/25/2024,40,18,Air,21,79,x\n") }
        #expect(error.code == "csv.date-order-conflict")
        #expect(error.message == "03/25/2024 is month-first, but the dates of the padi_log_importer input (PADI logbook) are DD/MM/YYYY, the order the padi_log_importer input is documented to use (docs/csv-formats.md §10.7); fix the file, or say which with --date-order dmy|mdy")
        // Dates that decide the documented order themselves need no finding.
        let (dives, findings, _) = try readCSVText(Self.header + "A,B,25/03/2024,40,18,Air,21,79,x\n")
        #expect(dives.first?.startedAt?.description == "2024-03-25")
        #expect(!findings.contains { $0.code == "csv.date-order-documented" })
    }

    @Test func aGasNameAndItsFractionsAreCheckedAgainstEachOther() throws {
        let (dives, findings, _) = try readCSVText(Self.header + """
            A,B,25/03/2024,40,18,Enriched_32,30,70,x
            A,B,26/03/2024,40,18,Trimix,21,44,x
            A,B,27/03/2024,40,18,Enriched Air 36%,36,70,x
            A,B,28/03/2024,40,18,,,79,x

            """)
        // A name's 32 % against a recorded 30 %: the recorded one is kept, and said.
        #expect(dives[0].cylinders.first?.oxygen == 30 && dives[0].cylinders.first?.gasName == "EAN32")
        // Oxygen and nitrogen leave 35 % helium, which the row does not record.
        #expect(dives[1].cylinders.first?.helium == 35)
        // `Enriched Air 36%` states its mix as DiveCore reads names (a percentage); 36 + 0 + 70
        // is no gas: its nitrogen is left out.
        #expect(dives[2].cylinders.first?.oxygen == 36 && dives[2].cylinders.first?.helium == 0)
        #expect(dives[3].cylinders.isEmpty)
        #expect(findings.filter { $0.location.row != nil }.map { "\($0.location.row!) \($0.kind.rawValue)[\($0.code)]" } == [
            "2 resolved[csv.gas-enriched-air]", "2 resolved[csv.gas-disagrees]", "3 inferred[csv.helium-from-nitrogen]",
            "4 dropped[csv.gas-fractions-disagree]", "5 dropped[csv.nitrogen-unchecked]",
        ])
        #expect(findings.first { $0.code == "csv.gas-disagrees" }?.message == "the gas is named EAN32, 32 % oxygen, but its oxygen is recorded as 30 %; the recorded 30 % is read")
        #expect(findings.first { $0.code == "csv.gas-fractions-disagree" }?.message == "the gas's oxygen (36 %), helium (0 %) and nitrogen (70 %) add up to 106 %, not 100 %; the nitrogen is not read")
    }
}
