import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 5: text tables whatever their name, Windows-1252 notes with line breaks, and
/// preambles of `Key: value` lines in German, Italian and French, including a duration label
/// whose value is a time of day (docs/csv-formats.md §10.16).
@Suite struct CSVTextTablesTests {
    /// The labels of such preambles, as the dictionary knows them.
    @Test(arguments: [
        ("Datum", CSVField.date), ("Uhrzeit", .time), ("Tauchzeit", .duration), ("Dauer", .duration), ("Max. Tiefe", .maxDepth),
        ("Wassertemperatur", .waterTemperature), ("Data", .date), ("Ora", .time), ("Durata", .duration),
        ("Profondità massima", .maxDepth), ("Date", .date), ("Heure", .time), ("Durée", .duration),
        ("Profondeur max", .maxDepth), ("Temps (s)", .sampleTime), ("Tempo (s)", .sampleTime), ("Tiempo (s)", .sampleTime),
    ])
    func preambleLabels(label: String, field: CSVField) {
        #expect(CSVColumnDictionary.meaning(ofHeader: label)?.field == field)
    }

    /// A profile of `n` samples a minute apart, 0 … 12.5 m, after `preamble` (semicolons,
    /// decimal commas, as these locales write).
    static func profile(_ preamble: String, header: String, samples n: Int = 12) -> String {
        preamble + "\n\n" + header + "\n" + (0..<n).map { "\($0 * 60);\(min($0, 12)),5" }.joined(separator: "\n") + "\n"
    }

    /// Bare `Key: value` lines above the table are read (before, a line of one field was passed
    /// over unsaid): the start, the length and the greatest depth, in each language.
    @Test(arguments: [
        ("Datum: 04.07.2021\nUhrzeit: 11:45\nTauchzeit: 47 min\nMax. Tiefe: 18,4 m", "Zeit (s);Tiefe (m)", "2021-07-04T11:45:00"),
        ("Data: 24/07/2021\nOra: 11:45\nDurata: 47 min\nProfondità massima: 18,4 m", "Tempo (s);Profondità (m)", "2021-07-24T11:45:00"),
        ("Date: 24/07/2021\nHeure: 11:45\nDurée: 47 min\nProfondeur max: 18,4 m", "Temps (s);Profondeur (m)", "2021-07-24T11:45:00"),
    ])
    func preamblesInThreeLanguages(preamble: String, header: String, start: String) throws {
        let (dives, findings, reader) = try readCSVText(Self.profile(preamble, header: header))
        #expect(reader.layout.kind == .profile)
        #expect(reader.layout.metadata.map(\.meaning.field) == [.date, .time, .duration, .maxDepth])
        #expect(dives.count == 1)
        #expect(dives.first?.startedAt?.description == start)
        #expect(dives.first?.submergedTime == 47 * 60)
        #expect(dives.first?.maxDepth == 18.4)
        #expect(dives.first?.recordings.first?.profile?.sampleCount == 12)
        // `47 min` states its unit: nothing is assumed.
        #expect(!findings.contains { $0.code == "csv.unit-assumed" || $0.code == "csv.label-shape" })
    }

    /// A line above the table that is no `Key: value` is said, not passed over.
    @Test func aBareLineAboveTheTableIsSaid() throws {
        let (_, findings, _) = try readCSVText(Self.profile("Tauchgang 12\nDatum: 2021-07-04\nUhrzeit: 11:45", header: "Zeit (s);Tiefe (m)"))
        #expect(findings.filter { $0.code == "csv.preamble-not-carried" }.map(\.message) == ["the line \"Tauchgang 12\" above the table is not read"])
    }

    /// The sample: `Dauer: 12:07`, no other time of day, and samples that last 45 min 30 s:
    /// 12:07 is when the dive started.
    @Test func aDurationLabelHoldingTheStartTime() throws {
        let path = Paths.samples + "/csv/preamble-dauer-as-clock.csv"
        let (dives, findings, _) = try readCSV(path)
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2021-07-04T12:07:00")
        // The last sample, 2730 s (26 × 105 s), is the dive's length.
        #expect(d.submergedTime == 2730)
        #expect(d.maxDepth == 18.4)
        #expect(d.bottomTemperature == 21)
        #expect(d.recordings.first?.profile?.sampleCount == 27)
        let shape = findings.filter { $0.code == "csv.label-shape" }
        #expect(shape.map(\.description) == [
            "\(path): resolved[csv.label-shape]: \"Dauer: 12:07\" is written as a time of day and the file gives no other; as a duration it would be 12 min 7 s (or 12 h 7 min in hours and minutes), but the profile's samples last 45 min 30 s: read as the dive's start time, 12:07, not as a duration",
        ])
        #expect(shape.first?.location.field == "Dauer")
    }

    /// The other outcomes: a second duration below it makes it the start; samples that agree,
    /// in minutes and seconds or in hours and minutes, keep it a duration; with nothing to check
    /// against it stays a duration; another time of day leaves it alone, unsaid.
    @Test func theOtherShapesOfADurationLabel() throws {
        let header = "Tempo (s);Profondità (m)"
        let followed = try readCSVText(Self.profile("Data: 24/07/2021\nDurata: 12:07\nTempo di immersione: 47 min", header: header))
        #expect(followed.dives.first?.startedAt?.description == "2021-07-24T12:07:00")
        #expect(followed.dives.first?.submergedTime == 47 * 60)
        #expect(followed.findings.filter { $0.code == "csv.label-shape" }.map(\.message) == [
            "\"Durata: 12:07\" is written as a time of day and the file gives no other, while \"Tempo di immersione: 47 min\" below it gives the dive's length: read as the dive's start time, 12:07, not as a duration",
        ])
        // 12 samples a minute apart: 11 min.
        let agreeing = try readCSVText(Self.profile("Datum: 2021-07-04\nDauer: 11:30", header: "Zeit (s);Tiefe (m)"))
        #expect(agreeing.dives.first?.startedAt?.description == "2021-07-04")
        #expect(agreeing.dives.first?.submergedTime == 690)
        #expect(agreeing.findings.filter { $0.code == "csv.label-shape" }.map(\.message) == [
            "\"Dauer: 11:30\" could be a time of day, as the file gives no other, but the profile's samples last 11 min too: read as the dive's length, 11 min 30 s, as its label says",
        ])
        let hoursMinutes = try readCSVText(Self.profile("Datum: 2021-07-04\nDauer: 0:45", header: "Zeit (s);Tiefe (m)", samples: 46))
        #expect(hoursMinutes.dives.first?.submergedTime == 45 * 60)
        #expect(hoursMinutes.findings.filter { $0.code == "csv.label-shape" }.map(\.message) == [
            "\"Dauer: 0:45\" could be a time of day, as the file gives no other, but the profile's samples last 45 min: read as the dive's length in hours and minutes, 45 min, not 45 s",
        ])
        let unchecked = try readCSVText("Dauer: 12:07\n\nDate;Max Depth (m)\n2021-07-04;18\n2021-07-05;20\n")
        #expect(unchecked.dives.map(\.submergedTime) == [727, 727])
        #expect(unchecked.findings.filter { $0.code == "csv.label-shape" }.map(\.message) == [
            "\"Dauer: 12:07\" could be a time of day, as the file gives no other, but nothing in it tells the dive's length otherwise: read as its label says, a duration of 12 min 7 s",
        ])
        let timed = try readCSVText(Self.profile("Datum: 2021-07-04\nUhrzeit: 09:00\nDauer: 12:07", header: "Zeit (s);Tiefe (m)"))
        #expect(timed.dives.first?.startedAt?.description == "2021-07-04T09:00:00")
        #expect(timed.dives.first?.submergedTime == 727)
        #expect(!timed.findings.contains { $0.code == "csv.label-shape" })
    }

    /// Windows-1252 notes with bare LFs inside quoted fields of CRLF records: each record stays
    /// whole, the notes keep their line breaks, and the fall back is said where it happens.
    @Test func windows1252NotesWithLineBreaks() throws {
        let path = Paths.samples + "/csv/notes-windows-1252-crlf.csv"
        let (dives, findings, reader) = try readCSV(path)
        #expect(reader.layout.dialect.encoding == .windows1252)
        #expect(dives.map { $0.startedAt?.description ?? "" } == ["2021-07-04T11:45:00", "2021-07-05T09:10:00", "2021-07-06T10:00:00"])
        #expect(dives.map(\.notes) == ["Sicht gut\nWasser 21 °C\nSchöner Tauchgang", "Strömung\nkalt", "ruhig"])
        #expect(dives.map(\.maxDepth) == [18.4, 22, 12.5])
        #expect(dives.map(\.submergedTime) == [47 * 60, 51 * 60, 38 * 60])
        // Line 3 is the note's second line; `°` is its 11th character.
        #expect(findings.filter { $0.code == "csv.encoding-fallback" }.map(\.description) == [
            "\(path):3:11: resolved[csv.encoding-fallback]: the file is not UTF-8 from here on; read as Windows-1252, the encoding of spreadsheets saved on Windows",
        ])
        let report = try checkCSVStructure(path: path, displayName: "notes.csv")
        #expect(report.dataRows == 3)
        #expect(report.diagnostics.map(\.code) == ["csv.encoding-fallback"])
    }
}
