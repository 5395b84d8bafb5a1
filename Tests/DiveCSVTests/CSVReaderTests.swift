import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Reads every dive of a CSV file.
func readCSV(_ path: String, _ options: CSVReadOptions = CSVReadOptions()) throws -> (dives: [Dive], findings: [Finding], reader: CSVDiveReader) {
    let reader = try CSVDiveReader(path: path, options: options)
    var dives: [Dive] = []
    var findings: [Finding] = []
    while let d = try reader.next() { dives.append(d); findings += reader.takeFindings() }
    findings += reader.takeFindings()
    return (dives, findings, reader)
}

/// One corpus file and what a person reads off it by hand (`docs/csv-formats.md` §9 shows the
/// arithmetic): the number of dives and, for the first, its start, greatest depth (m),
/// duration (s) and the conversion it needed.
struct HandRead: Sendable, CustomStringConvertible {
    var file: String
    var options: CSVReadOptions = CSVReadOptions()
    var preset: String?
    var dives: Int
    var start: String
    var maxDepth: Double
    var duration: Int
    /// The check of the conversion the file needed, on its first dive.
    var conversion: @Sendable (Dive) -> Bool
    var description: String { file }
}

let apdStart = DiveDateTime.parse("2011-06-14T11:20:36")!.0

let handRead: [HandRead] = [
    // Seconds and metres as written; no date: the start is given.
    HandRead(file: "apd-logviewer__Test.csv", options: CSVReadOptions(startedAt: apdStart), preset: "apd-logviewer",
             dives: 1, start: "2011-06-14T11:20:36", maxDepth: 20.0, duration: 1460,
             conversion: { $0.recordings.first?.profile?.depth?.times.last == 1_460_000 }),
    HandRead(file: "apd-logviewer__TestComma.csv", options: CSVReadOptions(startedAt: apdStart), preset: "apd-logviewer",
             dives: 1, start: "2011-06-14T11:20:36", maxDepth: 20.0, duration: 1460,
             conversion: { $0.recordings.first?.profile?.depth?.values.max() == 2000 }),
    // M/D/YY, given; `45:00` is minutes and seconds.
    HandRead(file: "manual-spreadsheet__test41.csv", options: CSVReadOptions(dateOrder: .mdy),
             dives: 4, start: "2013-10-01T10:34:00", maxDepth: 18, duration: 2700,
             conversion: { $0.notes == "nice dive" && $0.avgDepth == 16 }),
    HandRead(file: "manual-spreadsheet__test41.tsv", options: CSVReadOptions(dateOrder: .mdy),
             dives: 4, start: "2013-10-01T10:34:00", maxDepth: 18, duration: 2700,
             conversion: { $0.avgDepth == 16 }),
    // Code 8 is depth in half metres (71 → 35.5 m), code 39 temperature in fifths of a °C. The
    // profile lasts to its last reading, code 37's remaining time (NDL) at 3683 s (`3683,37,…`).
    HandRead(file: "poseidon-mkvi__Poseidon_MkVILog.csv", options: CSVReadOptions(startedAt: apdStart), preset: "poseidon-mkvi",
             dives: 1, start: "2011-06-14T11:20:36", maxDepth: 35.5, duration: 3683,
             conversion: { $0.recordings.first?.profile?.temperature?.values.min() == 2340 }),
    // Absolute pressure in mbar → depth: (6441 − 1013.25) mbar × 100 / (1020 × 9.80665) = 54.26 m;
    // temperature in kelvin (287 K = 13.85 °C).
    HandRead(file: "reefnet-sensus__TestSensusSingle.csv", preset: "reefnet-sensus",
             dives: 1, start: "2011-03-27T11:25:29", maxDepth: 54.26, duration: 6970,
             conversion: { $0.recordings.first?.profile?.temperature?.values.first == 1385 }),
    // Time is row × the preamble's `Log interval: 5 s` (207 rows: 0 … 1030 s).
    HandRead(file: "seabear__TestDiveSeabearH3_0002SBDT.CSV", preset: "seabear",
             dives: 1, start: "2012-10-01T06:22:30", maxDepth: 69.9, duration: 1030,
             conversion: { $0.recordings.first?.profile?.depth?.times.dropFirst().first == 5000 && $0.number == 2 }),
    HandRead(file: "seabear__TestDiveSeabearH3_0004SBDT.CSV", preset: "seabear",
             dives: 1, start: "2012-10-01T07:07:26", maxDepth: 70.1, duration: 983,
             conversion: { $0.recordings.first?.profile?.depth?.times.dropFirst().first == 1000 }),
    HandRead(file: "seabear__TestDiveSeabearHUDC.csv", preset: "seabear",
             dives: 1, start: "2014-07-10T08:46:10", maxDepth: 40.0, duration: 452,
             conversion: { $0.recordings.first?.profile?.pressures.first?.series.values.first == 1990 && $0.recordings.first?.surfacePressure == 0.9665 }),
    HandRead(file: "seabear__TestDiveSeabearT1_0002SBDT.CSV", preset: "seabear",
             dives: 1, start: "2012-10-01T06:22:30", maxDepth: 69.9, duration: 1030,
             conversion: { $0.recordings.first?.profile?.depth?.values.max() == 6990 }),
    HandRead(file: "seabear__TestDiveSeabearT1_0004SBDT.CSV", preset: "seabear",
             dives: 1, start: "2012-10-01T07:07:26", maxDepth: 70.1, duration: 983,
             conversion: { $0.recordings.first?.profile?.depth?.values.max() == 7010 }),
    // Imperial: 95.8 ft = 29.19984 m, 67 °F = 19.44 °C; `2/18/2026 7:37:41 PM` is month-first, 12-hour.
    HandRead(file: "shearwater-cloud__Petrel_3_742_Sample.csv", preset: "shearwater-cloud",
             dives: 1, start: "2026-02-18T19:37:41", maxDepth: 29.19984, duration: 2703,
             conversion: { $0.bottomTemperature == 19.44 && $0.number == 742 && $0.recordings.first?.device?.serial == "B2458E7C" }),
    // `sample time (min)` holds minutes and seconds: `22:00` is 1320 s; 20 ft written as 6.096 m (cm in the profile).
    HandRead(file: "subsurface__dive_computer_profiles.csv", preset: "subsurface-profile",
             dives: 41, start: "2024-09-21T09:12:49", maxDepth: 6.1, duration: 1320,
             conversion: { $0.recordings.first?.profile?.depth?.times == [0, 40_000, 1_280_000, 1_320_000] }),
    // `duration [min]` holds minutes and seconds too: `25:20` is 1520 s.
    HandRead(file: "subsurface__subsurface-dive_list.csv", preset: "subsurface-dive-list",
             dives: 24, start: "2018-05-22T14:23:43", maxDepth: 82.87, duration: 1520,
             conversion: { $0.bottomTemperature == 23.333 && $0.cylinders.first?.volume == 11.094 }),
]

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct CSVCorpusDiveTests {
    @Test(arguments: handRead)
    func eachCorpusFileReadsAsReadByHand(_ expected: HandRead) throws {
        let (dives, findings, reader) = try readCSV(Paths.corpus + "/csv/" + expected.file, expected.options)
        #expect(reader.layout.preset?.id == expected.preset)
        #expect(dives.count == expected.dives)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == expected.start)
        #expect(abs((d.maxDepth ?? -1) - expected.maxDepth) < 0.005, "max depth \(d.maxDepth ?? -1)")
        #expect(d.submergedTime == expected.duration)
        #expect(expected.conversion(d), "conversion of \(expected.file)")
        #expect(!findings.contains { $0.code == "csv.time-backwards" && expected.preset != "poseidon-mkvi" })
    }

    /// Every corpus CSV has a dive list in it; a file that records no date names the flag.
    @Test func aProfileWithoutADateNamesStartedAt() throws {
        #expect {
            _ = try readCSV(Paths.corpus + "/csv/apd-logviewer__Test.csv")
        } throws: { ($0 as? DiveError)?.code == "csv.no-start" && ($0 as? DiveError)?.message.contains("--started-at") == true }
    }

    /// Text in a number column is one finding per column and text, with row and column.
    @Test func textInANumberColumnIsReportedOnce() throws {
        let (_, findings, _) = try readCSV(Paths.corpus + "/csv/shearwater-cloud__Petrel_3_742_Sample.csv")
        let bad = findings.filter { $0.code == "csv.bad-value" }
        let tank1 = bad.filter { $0.location.field == "Tank 1 pressure (PSI)" }
        #expect(tank1.count == 1)
        #expect(tank1.first?.message.hasPrefix("\"AI is off\" is not a pressure") == true)
        #expect(tank1.first?.location.row == 2) // the sample header is row 1
        #expect(tank1.first?.location.line == 4)
        var strict = CSVReadOptions()
        strict.strict = true
        #expect(throws: DiveError.self) { _ = try readCSV(Paths.corpus + "/csv/shearwater-cloud__Petrel_3_742_Sample.csv", strict) }
    }
}

@Suite struct CSVReaderTests {
    /// A spreadsheet whose every date could be day-first or month-first is refused with the
    /// flag to use; with the flag it imports.
    @Test("values past the table's last column are reported, not dropped silently; a trailing delimiter is nothing")
    func valuesPastTheLastColumn() throws {
        let rows = (1...10).map { "2024-01-\(String(format: "%02d", $0)),1\($0)" }
        let text = (["date,max depth (m)"] + rows + ["2024-01-11,14,surprise", "2024-01-12,15,", "2024-01-13,16,again"]).joined(separator: "\n") + "\n"
        let (dives, findings, _) = try readCSVText(text)
        #expect(dives.count == 13)
        let ragged = findings.filter { $0.code == "csv.ragged-row" }
        #expect(ragged.count == 1)
        #expect(ragged.first?.location.row == 12 && ragged.first?.location.line == 12)
    }

    @Test("a date with both numbers over 12 is a bad value of its row, not a reason to doubt the column's order")
    func impossibleDateIsABadValue() throws {
        let (dives, findings, _) = try readCSVText("date,max depth (m)\n2024-01-05,12\n31/31/2024,14\n2024-01-07,16\n")
        #expect(dives.compactMap(\.startedAt).map(\.description) == ["2024-01-05", "2024-01-07"])
        #expect(findings.map(\.code) == ["csv.bad-value", "csv.row-without-start"])
        #expect(findings.first?.message.contains("31/31/2024") == true)
    }

    @Test func ambiguousDatesAreRefusedUntilTheOrderIsGiven() throws {
        let path = Paths.samples + "/csv/ambiguous-dates.csv"
        let error = try #require(throws: DiveError.self) { _ = try readCSV(path) }
        #expect(error.code == "csv.date-order-ambiguous")
        #expect(error.message.contains("--date-order"))
        let dmy = try readCSV(path, CSVReadOptions(dateOrder: .dmy)).dives
        let mdy = try readCSV(path, CSVReadOptions(dateOrder: .mdy)).dives
        #expect(dmy.map { $0.startedAt?.description } == ["2023-04-03T09:10:00", "2023-04-03T13:45:00", "2023-06-05T10:02:00"])
        #expect(mdy.first?.startedAt?.description == "2023-03-04T09:10:00")
        // Units from the headers: 60 ft, 75 °F, minutes.
        #expect(dmy.first?.maxDepth == 18.288)
        #expect(dmy.first?.bottomTemperature == 23.888889)
        #expect(dmy.first?.submergedTime == 2520)
    }

    /// One day over 12 anywhere in the column decides it.
    @Test func oneUnambiguousDateDecidesTheColumn() throws {
        let path = try Paths.temporaryDirectory() + "/dates.csv"
        try "Date,Max Depth\n03/04/2023,10\n25/04/2023,12\n".write(toFile: path, atomically: true, encoding: .utf8)
        let (dives, _, reader) = try readCSV(path)
        #expect(reader.layout.dateOrder == .dmy)
        #expect(dives.first?.startedAt?.description == "2023-04-03")
    }

    /// A German spreadsheet in Windows-1252 with decimal commas and dotted dates; the fall
    /// back to Windows-1252 is said where the first byte that is not UTF-8 is (the `°` of
    /// `[°C]`, byte 0xB0).
    @Test func aEuropeanSpreadsheetReads() throws {
        let path = Paths.samples + "/csv/spreadsheet-windows-1252.csv"
        let (dives, findings, reader) = try readCSV(path)
        #expect(reader.layout.dialect.decimalMark == UInt8(ascii: ","))
        #expect(dives.map(\.maxDepth) == [28.3, 22.0])
        #expect(dives.first?.startedAt?.description == "2024-03-02")
        #expect(dives.last?.notes == "Toilets on the wreck €")
        #expect(findings.map(\.description) == [
            "\(path):1:33: resolved[csv.encoding-fallback]: the file is not UTF-8 from here on; read as Windows-1252, the encoding of spreadsheets saved on Windows",
            // Both dates could be either; the dots decide (§10.11).
            "\(path): resolved[csv.date-order-dotted]: every date could be day-first or month-first (02.03.2024 is 2024-03-02 or 2024-02-03); dates written with dots are day-first by the convention of the countries that write them so (German, Dutch, most of Europe), so they are read day-first; --date-order mdy reads them the other way",
        ])
    }

    /// `--map` wins over the dictionary.
    @Test func aMappingOverridesTheDictionary() throws {
        let path = try Paths.temporaryDirectory() + "/map.csv"
        try "Datum,Tiefe,Zeug\n2024-05-01,18,7\n".write(toFile: path, atomically: true, encoding: .utf8)
        let plain = try readCSV(path)
        #expect(plain.dives.first?.maxDepth == 18)
        #expect(plain.findings.contains { $0.code == "csv.column-unknown" && $0.location.field == "Zeug" })
        let mapped = try readCSV(path, CSVReadOptions(columns: ["tiefe": CSVColumnMeaning(.maxDepth, unit: .feet), "zeug": CSVColumnMeaning(.weight, unit: .kilograms)]))
        #expect(mapped.dives.first?.maxDepth == 5.4864)
        #expect(mapped.dives.first?.weight == 7)
    }
}

@Suite struct CSVBadRowTests {
    /// A row whose date cannot be read leaves out that dive only; `--strict` stops there.
    @Test func aRowWithoutADateIsLeftOutAndReported() throws {
        let path = try Paths.temporaryDirectory() + "/rows.csv"
        try "Date;Depth [m]\n01.02.2024;12\n32.01.2024;14\n03.02.2024;16\n".write(toFile: path, atomically: true, encoding: .utf8)
        let (dives, findings, _) = try readCSV(path)
        #expect(dives.map(\.maxDepth) == [12, 16])
        let left = try #require(findings.first { $0.code == "csv.row-without-start" })
        #expect(left.location.row == 3)
        #expect(left.location.line == 3)
        #expect(findings.contains { $0.code == "csv.bad-value" && $0.location.field == "Date" && $0.message.hasPrefix("\"32.01.2024\" is not a date") })
        #expect { _ = try readCSV(path, CSVReadOptions(strict: true)) } throws: { ($0 as? DiveError)?.location.row == 3 }
    }

    /// A row that looks like a dive and gives none is a lost dive, which makes the run no
    /// success (`Finding.lostDives`), even past the listing limit of its code.
    @Test func aRowLeftOutIsALostDiveEvenPastTheListingLimit() throws {
        // 1 dated row, then 150 rows with a date that is none (day 32): 150 dives left out.
        let rows = ["2024-02-01,10"] + (1...150).map { "32.01.2024,\($0 % 40)" }
        let (dives, findings, reader) = try readCSVText((["Date,Max Depth [m]"] + rows).joined(separator: "\n") + "\n")
        #expect(dives.count == 1)
        let left = findings.filter { $0.code == "csv.row-without-start" }
        // 100 listed, one losing 1 each, and one that counts the other 50 and the 50 dives they lose.
        #expect(left.count == CSVLimits.findingsPerCode + 1)
        #expect(left.prefix(CSVLimits.findingsPerCode).allSatisfy { $0.lostDives == 1 && $0.location.row != nil })
        #expect(left.last?.lostDives == 50)
        #expect(left.last?.message == "50 more findings of this code are not listed (a file lists the first 100 of each); they leave out 50 dives")
        #expect(findings.reduce(0) { $0 + $1.lostDives } == 150)
        #expect(reader.divesLost == 150)
        // A validation of the file says so as errors.
        #expect(left.map(Diagnostic.init).allSatisfy { $0.severity == .error })
    }

    /// A file whose every row is left out is read to no dive: an error, with each row's
    /// finding still there; a table with no rows at all loses nothing and stays a read.
    @Test func aFileReadToNoDiveIsAnError() throws {
        let path = try Paths.temporaryDirectory() + "/none.csv"
        try "Date;Depth [m]\n32.01.2024;12\n33.01.2024;14\n".write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try CSVDiveReader(path: path)
        let error = try #require(throws: DiveError.self) { while try reader.next() != nil {} }
        #expect(error.description == "\(path): error[csv.no-dives]: no row of the file gave a dive: 2 rows were left out, each said in its finding")
        let findings = reader.takeFindings()
        #expect(findings.filter { $0.code == "csv.row-without-start" }.map(\.location.row) == [2, 3])
        #expect(findings.reduce(0) { $0 + $1.lostDives } == 2)
        #expect(try readCSVText("Date,Depth\n").dives.isEmpty)
    }

    /// A table with no date column says so by its columns; what it understood stays available.
    @Test func aTableWithNoDateColumnNamesItsColumns() throws {
        let path = try Paths.temporaryDirectory() + "/nodate.csv"
        try "a,b,c\n1,2,3\n".write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try CSVDiveReader(path: path)
        #expect(reader.layout.columns.map(\.name) == ["a", "b", "c"])
        #expect { _ = try reader.next() } throws: {
            ($0 as? DiveError)?.code == "csv.no-date-column" && ($0 as? DiveError)?.message.contains("\"a\", \"b\", \"c\"") == true
        }
        #expect(reader.takeFindings().filter { $0.code == "csv.column-unknown" }.count == 3)
    }
}

/// Writes `text` to a temporary CSV and reads it.
func readCSVText(_ text: String, _ options: CSVReadOptions = CSVReadOptions()) throws -> (dives: [Dive], findings: [Finding], reader: CSVDiveReader) {
    let path = try Paths.temporaryDirectory() + "/t.csv"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return try readCSV(path, options)
}

@Suite struct CSVReaderRuleTests {
    /// The date order's evidence, as csv inspect shows it: a date that can only be read one way.
    @Test func theDateOrderSaysWhatDecidedIt() throws {
        let (_, _, reader) = try readCSVText("Date,Max depth (m)\n03/04/2023,18\n13/04/2023,20\n")
        #expect(reader.layout.dateOrder == .dmy)
        #expect(reader.layout.dateOrderEvidence == "13/04/2023 can only be day-first")
        let (_, _, mdy) = try readCSVText("Date,Max depth (m)\n03/04/2023,18\n04/13/2023,20\n")
        #expect(mdy.layout.dateOrderEvidence == "04/13/2023 can only be month-first")
    }

    /// A column that states no unit is read in one unit, decided by its first value.
    @Test func aColumnNeverMixesUnits() throws {
        let (dives, findings, _) = try readCSVText("Date,Start Pressure,Water Temp\n2024-01-01,3000,50\n2024-01-02,1200,46\n2024-01-03,390,44\n")
        #expect(dives.map { $0.cylinders.first?.startPressure } == [206.842719, 82.737087, 26.889553])
        #expect(dives.map(\.bottomTemperature) == [10, 7.777778, 6.666667])
        #expect(findings.filter { $0.code == "csv.unit-assumed" }.count == 2)
    }

    /// Offsets in every spelling tables use, after ISO and non-ISO dates alike; the day/month
    /// order comes from every row, not the first.
    @Test func offsetsAreRead() throws {
        let (dives, _, _) = try readCSVText("Date,Max Depth [m]\n2024-05-01T10:12:30-0530,10\n2024-05-02T09:00:00-05:00,11\n2024-05-03 10:12:30 +02,12\n03.05.2024 10:12 UTC+1,13\n")
        #expect(dives.map { $0.startedAt?.description } == ["2024-05-01T10:12:30-05:30", "2024-05-02T09:00:00-05:00",
                                                            "2024-05-03T10:12:30+02:00", "2024-05-03T10:12:00+01:00"])
    }

    /// `Date,Time,Depth,Duration` is a list of dives: plain `Depth` is each one's greatest.
    @Test func aPlainSummaryIsNotTakenForAProfile() throws {
        let (dives, _, reader) = try readCSVText("Date,Time,Depth,Duration\n2024-05-01,10:00,18,45\n2024-05-01,14:00,12,50\n")
        #expect(reader.layout.kind == .summary)
        #expect(dives.map(\.maxDepth) == [18, 12])
        #expect(dives.map(\.submergedTime) == [2700, 3000])
    }

    /// Two dives of one day in a list of dates only are two dives, with two identities.
    @Test func twoDivesOfOneDayKeepTheirOwnIdentity() throws {
        let text = "Date,Max Depth [m]\n2024-05-01,10\n2024-05-01,12\n"
        let first = try readCSVText(text).dives.map(\.uuid)
        #expect(Set(first).count == 2)
        #expect(try readCSVText(text).dives.map(\.uuid) == first)
    }

    /// A `Time` column of plain numbers that only increase, beside a depth and no date, is a
    /// profile's seconds; a time of day, a number that goes back, a date or a single row is not.
    @Test func aTimeColumnThatCountsIsAProfile() throws {
        let start = DiveDateTime.parse("2024-05-01T10:00")!.0
        let (dives, findings, reader) = try readCSVText("Time,Depth\n0,0\n,1\n2,3\n4,0\n", CSVReadOptions(startedAt: start))
        #expect(reader.layout.kind == .profile)
        #expect(dives.first?.recordings.first?.profile?.depth?.times == [0, 2000, 4000])
        #expect(findings.first?.code == "csv.time-counts-seconds")
        #expect(findings.first?.message.contains("(0, 2, 4 … in the first 3 rows, starting again only as a new profile would)") == true)
        for text in ["Time,Depth\n10:00,5\n11:00,7\n", "Time,Depth\n5,10\n3,12\n", "Time,Depth\n5,10\n"] {
            let path = try Paths.temporaryDirectory() + "/t.csv"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let reader = try CSVDiveReader(path: path)
            #expect(reader.layout.kind == .summary, "\(text)")
            #expect(throws: DiveError.self) { _ = try reader.next() }
        }
        let dated = try readCSVText("Date,Time,Depth\n2024-05-01,1,10\n2024-05-02,2,12\n")
        #expect(dated.reader.layout.kind == .summary)
        #expect(dated.dives.map(\.maxDepth) == [10, 12])
    }

    /// A dive-type cell names the apparatus, else the entry, else a kind of dive kept as a tag.
    @Test func aDiveTypeIsTheApparatusTheEntryOrATag() throws {
        let (dives, findings, _) = try readCSVText("Date,Dive Type,Type 2\n2024-01-01,CCR,Boat dive\n2024-01-02,Night dive,beach\n2024-01-03,Apnea,Piscina\n")
        #expect(dives.map(\.type) == [.closedCircuit, nil, .freedive])
        #expect(dives.map(\.entryType) == [.boat, .shore, .pool])
        #expect(dives.map(\.tags) == [[], ["Night dive"], []])
        #expect(findings.map(\.code) == ["csv.dive-type-entry", "csv.dive-type-tag"])
    }

    /// Quotes typed around a whole name are not part of it; quotes inside a name or a note are.
    @Test func quotesAroundAWholeNameAreNotTheName() throws {
        let (dives, findings, reader) = try readCSVText("Date,Site,Buddy,Notes\n2024-01-01,\"\"\"Blue Hole\"\"\",\"“Ana”, Bo\",\"\"\"wow\"\"\"\n2024-01-02,\"The \"\"Canyon\"\"\",\"\"\"\"\"\",\n")
        let sites = dives.compactMap { $0.siteUUIDs.first.flatMap { reader.header.site($0) }?.name }
        #expect(sites == ["Blue Hole", "The \"Canyon\""])
        #expect(reader.header.people.map(\.name) == ["Ana", "Bo", "\"\""])
        #expect(dives.first?.notes == "\"wow\"")
        #expect(findings.filter { $0.code == "csv.name-quoted" }.map(\.location.field) == ["Site", "Buddy"])
    }

    /// A comment line with a comma in it is a comment, not a summary block.
    @Test func aCommentWithACommaStaysAComment() throws {
        let (dives, _, reader) = try readCSVText("# Copyright 2024, Example Dive Club\n# Start Date: 2024-05-01 10:00\nTime (s),Depth (m)\n0,0\n60,10\n120,0\n")
        #expect(reader.layout.kind == .profile)
        #expect(dives.first?.startedAt?.description == "2024-05-01T10:00:00")
    }

    /// A profile whose rows carry their own wall-clock time is one dive; a sample time that
    /// starts again starts the next.
    @Test func wallClockTimesDoNotSplitADive() throws {
        let (dives, _, _) = try readCSVText("Date,Time,Sample Time (s),Depth (m)\n2024-05-01,10:00:00,0,0\n2024-05-01,10:00:10,10,5\n2024-05-01,10:00:20,20,0\n2024-05-01,11:00:00,0,0\n2024-05-01,11:00:10,10,7\n")
        #expect(dives.count == 2)
        #expect(dives.map(\.maxDepth) == [5, 7])
        #expect(dives.map { $0.startedAt?.description } == ["2024-05-01T10:00:00", "2024-05-01T11:00:00"])
    }

    /// A profile's readings in a summary, and a mapping that names no column, are said.
    @Test func whatCannotBeReadIsSaid() throws {
        let (dives, findings, _) = try readCSVText("Date,Max Depth [m],NDL,GF,Computer\n2024-05-01,10,20,30/70,Perdix\n2024-05-02,12,20,30/70,\n",
                                                   CSVReadOptions(columns: ["tiefe": CSVColumnMeaning(.maxDepth)]))
        #expect(findings.contains { $0.code == "csv.column-not-carried" && $0.location.field == "NDL" })
        #expect(findings.contains { $0.code == "csv.map-unused" && $0.message.contains("\"tiefe\"") })
        let deco = try #require(dives.first?.recordings.first?.decoModel)
        #expect(deco.gfLow == 30 && deco.gfHigh == 70)
        // Settings with no computer to keep them on are said, not dropped quietly.
        #expect(dives.last?.recordings.isEmpty == true)
        #expect(findings.contains { $0.code == "csv.settings-not-carried" && $0.location.row == 3 })
    }
}

@Suite("CSV plain-number fast path")
struct CSVPlainNumberTests {
    private func plain(_ text: String, mark: UInt8 = UInt8(ascii: ".")) -> Double? {
        var text = text
        return text.withUTF8 { CSVValues.plainNumber(UnsafeRawBufferPointer($0), decimalMark: mark) }
    }

    @Test("reads every plain decimal exactly as strtod does")
    func agreesWithStrtod() {
        // A fixed pseudo-random walk over signs, lengths and decimal places up to 15 digits.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        for _ in 0..<200_000 {
            let digits = Int(next() % 15) + 1
            var text = String(next() % 10_000_000_000_000_000)
            text = String(text.suffix(digits))
            let places = Int(next() % UInt64(text.count + 1))
            if places > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -places)) }
            if next() % 3 == 0 { text = "-" + text }
            let fast = plain(text)
            #expect(fast?.bitPattern == Double(text)?.bitPattern, "\(text)")
            if fast?.bitPattern != Double(text)?.bitPattern { return }
        }
    }

    @Test("leaves to the text path what is not a plain decimal")
    func declines() {
        for text in ["1e5", "28.0 ℃", "3,5", "", "  ", "-", ".", "1234567890123456", "1.2.3", "nan", "0x1A"] {
            #expect(plain(text) == nil, "\(text)")
        }
        #expect(plain("3,5", mark: UInt8(ascii: ",")) == 3.5)
        #expect(plain("3.5", mark: UInt8(ascii: ",")) == nil)
        #expect(plain(" 12.25\t") == 12.25)
        #expect(plain("+7") == 7)
        #expect(plain("-0")?.sign == .minus)
    }
}

@Suite struct CSVRefusalTests {
    @Test("a quote never closed stops the file at its place, instead of swallowing the rest into a note")
    func unclosedQuote() throws {
        let error = try #require(throws: DiveError.self) {
            _ = try readCSVText("Date,Depth,Notes\n2024-01-01,18,\"fine\"\n2024-01-02,20,\"oops\n2024-01-03,22,x\n")
        }
        #expect(error.code == "csv.unterminated-quote")
        #expect(error.location.line == 3 && error.location.column == 15)
    }

    @Test("a file with no table is an error; a header with no rows is no dives, said")
    func emptyTables() throws {
        #expect(try #require(throws: DiveError.self) { _ = try readCSVText("# only a comment\n") }.code == "csv.empty")
        let headerOnly = try readCSVText("Date,Depth\n")
        #expect(headerOnly.dives.isEmpty)
        #expect(headerOnly.findings.map(\.code).contains("csv.no-rows"))
    }
}
