import Foundation
import Testing
@testable import DiveKit
import TestSupport

/// The lines `xmllint --stream --noout --schema schemas/uddf_3.2.2.xsd` gives for the
/// schema samples of `Samples/invalid/` (the duplicate id's from `xmllint --noout --schema`,
/// which checks ids; the unresolved reference's read off the file, as xmllint does not check
/// references), and the dive's first line for the model checks.
let invalidSampleLines: [String: Int] = [
    "uddf.schema.attribute-missing": 11,
    "uddf.schema.element-missing": 73,
    "uddf.schema.element-unexpected": 53,
    "uddf.schema.id-duplicate": 32,
    "uddf.schema.idref-unresolved": 34,
    "uddf.schema.root-undeclared": 3,
    "uddf.schema.value-invalid": 52,
    "dive.depth-out-of-range": 32,
    "dive.gas-over-100": 32,
    "xml.doctype": 2,
    "xml.malformed": 57,
    "xml.truncated": 2028,
    "format.unknown": 1,
    "format.unknown-xml": 1,
]

@Suite struct ValidateTests {
    /// The sample has no errors; its warnings are what it records that umilog has no place
    /// for: the owner's address (lines 15–18), the sites' `<environment>` (line 36 on) and the
    /// country of each site's address (line 40 on), read off the file by hand.
    @Test func theSampleLogbookHasNoErrorsAndWarnsOfWhatItCannotCarry() {
        let report = validate(paths: [Paths.samples + "/logbook.uddf"])
        #expect(report.files.count == 1)
        #expect(report.count(.error) == 0)
        #expect(report.diagnostics.map(\.code) == Array(repeating: "uddf.not-carried", count: 3))
        #expect(report.diagnostics.map { $0.location.path ?? "" } == ["diver/owner/address", "divesite/site/environment", "divesite/site/geography/address/country"])
        #expect(report.diagnostics.map { $0.location.line ?? 0 } == [16, 36, 40])
        #expect(report.exitCode == 0)
    }

    /// Every file of `Samples/invalid/` is named after the code it must produce.
    @Test(arguments: try FileManager.default.contentsOfDirectory(atPath: Paths.samples + "/invalid").sorted())
    func eachInvalidSampleGivesTheCodeItIsNamedAfter(_ name: String) throws {
        let code = String(name[..<name.lastIndex(of: ".")!])
        let report = validate(paths: ["Samples/invalid/" + name].map { Paths.root + "/" + $0 })
        let found = report.diagnostics.filter { $0.code == code } + report.failures.filter { $0.code == code }.map {
            Diagnostic(.error, $0.code, $0.message, at: $0.location)
        }
        // One each; the deep sample says it of the dive's greatest depth and of its samples.
        #expect(found.count == (code == "dive.depth-out-of-range" ? 2 : 1), "\(report.diagnostics.map(\.description)) \(report.failures)")
        #expect(found.allSatisfy { $0.location.line == invalidSampleLines[code] })
        if code.hasPrefix("format.") {
            #expect(report.exitCode == 2)
        } else if code == "dive.depth-out-of-range" {
            // Implausible, not invalid: a warning does not fail by default.
            #expect(found.first?.severity == .warning)
            #expect(report.exitCode == 0)
            #expect(validate(paths: report.files.map(\.path), options: ValidateOptions(failOn: .warning)).exitCode == 1)
        } else {
            #expect(found.first?.severity == .error)
            #expect(report.exitCode == 1)
        }
    }

    @Test func aDirectoryIsWalkedInOrderSkippingHiddenEntriesAndOtherFiles() throws {
        let dir = try Paths.temporaryDirectory()
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/b-trip", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/.git", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Paths.samples + "/logbook.uddf", toPath: dir + "/a.uddf")
        try fm.copyItem(atPath: Paths.samples + "/invalid/uddf.schema.value-invalid.uddf", toPath: dir + "/b-trip/day1.uddf")
        try fm.copyItem(atPath: Paths.samples + "/invalid/uddf.schema.value-invalid.uddf", toPath: dir + "/.hidden.uddf")
        try fm.copyItem(atPath: Paths.samples + "/invalid/uddf.schema.value-invalid.uddf", toPath: dir + "/.git/c.uddf")
        try "Notes from the trip.\n".write(toFile: dir + "/c-notes.txt", atomically: true, encoding: .utf8)
        try #"{"name": "dive-site-app", "version": "1.0.0"}"#.write(toFile: dir + "/d-package.json", atomically: true, encoding: .utf8)
        let report = validate(paths: [dir + "/"])
        #expect(report.files.map(\.path) == [dir + "/a.uddf", dir + "/b-trip/day1.uddf"])
        #expect(report.skipped.map(\.path) == [dir + "/c-notes.txt", dir + "/d-package.json"])
        #expect(report.skipped.map(\.reason.code) == ["format.unknown", "format.unknown-json"])
        #expect(report.failures.isEmpty)
        #expect(report.failingFiles == 1)
        #expect(report.exitCode == 1)
    }

    @Test func aFileNamedExplicitlyThatIsNotADiveLogOrCannotBeReadFails() throws {
        let report = validate(paths: [Paths.samples + "/logbook.uddf", Paths.samples + "/expected/logbook.inspect.txt", "/nonexistent.uddf"])
        #expect(report.files.count == 1)
        #expect(report.failures.map(\.code) == ["format.unknown", "io.open"])
        #expect(report.failures.first?.message == "the file is not a dive log umilog recognises (UDDF, DiveJSON, CSV, Subsurface XML, Suunto DM4/DM5 XML, Suunto DM3 .SDE, Garmin FIT, Suunto app DeviceLog JSON, Shearwater XML, Shearwater Cloud database, MacDive XML, UDCF, DAN DL7 (ZXL/ZXU), Diving Log XML, Diving Log database, divelogs.de DLD XML, Seac Sync database, JDiveLog, libdivecomputer XML dump, Divesoft Freedom/Liberty (.dlf), Uwatec DataTrak (.log), SmartTRAK (.slg), divelogs.de upload XML or a zip archive of these)")
        #expect(report.exitCode == 2)
    }

    @Test func readerFindingsBecomeWarningsAndNotes() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/litres.uddf"
        let xml = try String(contentsOfFile: Paths.samples + "/logbook.uddf", encoding: .utf8)
        // A 12-litre tank written in litres (a known writer habit) instead of cubic metres.
        try xml.replacingOccurrences(of: "<tankvolume>0.012</tankvolume>", with: "<tankvolume>12</tankvolume>")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let report = validate(paths: [path])
        let habit = report.diagnostics.filter { $0.code == "uddf.tankvolume-litres" }
        #expect(!habit.isEmpty)
        #expect(habit.allSatisfy { $0.severity == .warning && $0.location.path?.hasPrefix("dive/") == true })
        #expect(report.exitCode == 0)
        #expect(Diagnostic(Finding(.absent, "uddf.time-without-seconds", "m", at: SourceLocation())).severity == .note)
        #expect(Diagnostic(Finding(.dropped, "uddf.lead-negative", "m", at: SourceLocation())).severity == .warning)
    }

    /// Our own CSV is clean, and reads back: the one thing a read says is that its `samples`
    /// column (how many samples each dive's profile has) is no value of a dive.
    @Test func ourOwnCSVIsStructurallyClean() {
        let report = validate(paths: [Paths.samples + "/expected/logbook.csv"])
        #expect(report.diagnostics.map { "\($0.code) \($0.location.field ?? "")" } == ["csv.column-not-carried samples"])
        #expect(report.exitCode == 0)
    }

    /// A CSV is read as convert and import read it: a row that would lose its dive, or a table
    /// that cannot be read without a flag, is an error (exit 1), not a clean structure.
    @Test func aCSVThatLosesADiveIsInvalid() throws {
        let dir = try Paths.temporaryDirectory()
        try "Date,Max depth (m)\n2021-07-04,18\n,20\n".write(toFile: dir + "/lost.csv", atomically: true, encoding: .utf8)
        let lost = validate(paths: [dir + "/lost.csv"])
        #expect(lost.diagnostics.map(\.code) == ["csv.row-without-start"])
        #expect(lost.diagnostics.first?.severity == .error)
        #expect(lost.diagnostics.first?.location.line == 3)
        #expect(lost.exitCode == 1)
        let ambiguous = validate(paths: [Paths.samples + "/csv/ambiguous-dates.csv"])
        #expect(ambiguous.diagnostics.map(\.code) == ["csv.date-order-ambiguous"])
        #expect(ambiguous.exitCode == 1)
    }

    @Test func aRaggedCSVRowIsAnErrorAtItsRow() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/ragged.csv"
        // Twenty dives, the third missing its duration.
        var text = "date,depth_m,duration_min\r\n"
        for day in 1...20 { text += day == 3 ? "2024-03-03,21.0\r\n" : "2024-03-\(day < 10 ? "0" : "")\(day),18.5,45\r\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let report = validate(paths: [path])
        let ragged = try #require(report.diagnostics.first { $0.code == "csv.ragged-row" })
        #expect(ragged.severity == .error)
        #expect(ragged.location.line == 4)
        #expect(report.exitCode == 1)
    }

    @Test func aModelErrorNamesTheRecord() throws {
        let report = validate(paths: [Paths.samples + "/invalid/dive.gas-over-100.uddf"])
        #expect(report.diagnostics.map(\.code) == ["dive.gas-over-100"])
        #expect(report.diagnostics.first?.location.path == "dive/0/cylinders/0")
    }

    @Test func theSummaryCountsFilesAndSeverities() {
        var report = ValidationReport(options: ValidateOptions())
        #expect(validationSummary(report) == "umilog: 0 files checked, 0 invalid; no problems")
        let at = SourceLocation(file: "a.uddf", line: 3)
        report.files = [
            FileValidation(path: "a.uddf", format: .uddf, diagnostics: [
                Diagnostic(.error, "x", "m", at: at), Diagnostic(.error, "x", "m", at: at), Diagnostic(.warning, "y", "m", at: at),
            ]),
            FileValidation(path: "b.uddf", format: .uddf, diagnostics: [Diagnostic(.note, "z", "m", at: at)]),
            FileValidation(path: "c.uddf", format: .uddf),
        ]
        #expect(validationSummary(report) == "umilog: 3 files checked, 1 invalid; 2 errors, 1 warning, 1 note")
        report.skipped = [SkippedFile(path: "n.txt", reason: DiveError("format.unknown", "m", at: SourceLocation()))]
        report.failures = [DiveError("io.open", "m", at: SourceLocation())]
        #expect(validationSummary(report) == "umilog: 3 files checked, 1 invalid; 2 errors, 1 warning, 1 note; 1 skipped (not dive logs); 1 not checked")
        #expect(report.exitCode == 2)
    }
}

@Suite struct SnifferTests {
    /// JSON is DiveJSON by its opening member, not by the word appearing somewhere.
    @Test func diveJSONIsDeclaredByItsFormatMember() {
        #expect(Sniffer.declaresDiveJSON(Array("{\n  \"format\" :\t\"divejson\",".utf8)))
        #expect(!Sniffer.declaresDiveJSON(Array("{\"title\": \"DiveJSON 1.0\", \"$id\": \"https://divejson.org/schema\"}".utf8)))
        #expect(!Sniffer.declaresDiveJSON(Array("{\"format\": \"subsurface\", \"note\": \"divejson\"}".utf8)))
    }

    /// A CSV is recognised the way the CSV reader reads one: after a preamble, with CR line
    /// ends; prose with a table in it is not one.
    @Test func csvByItsTable() {
        #expect(Sniffer.sniff(Array("# Seabear export\r# unit: m\rtime;depth\r0;0,0\r10;1,5\r20;3,1\r".utf8)) == .format(.csv))
        #expect(Sniffer.sniff(Array("# Notes\n\nSome prose, with a comma.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nMore prose here.\nAnd more.\nAnd more again.\n".utf8)) == .unknown)
    }

    /// A directory walk checks dive logs and skips the rest: the DiveJSON schema is JSON but
    /// not a document (nor is the CSV mapping schema), the XSD is another XML, the Markdown is
    /// prose, and so is the logbook's SQL schema.
    @Test func aDirectoryWalkSkipsWhatIsNotADiveLog() {
        let report = validate(paths: [Paths.root + "/schemas"])
        #expect(report.files.isEmpty, "\(report.files.map(\.path))")
        #expect(report.skipped.count == 6)
        #expect(report.skipped.contains { $0.path.hasSuffix("logbook.sql") })
        #expect(report.skipped.contains { $0.path.hasSuffix("divejson-1.0.schema.json") && $0.reason.code == "format.unknown-json" })
        #expect(report.exitCode == 0)
    }
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct ValidateCorpusTests {
    /// Every CSV of the corpus is recognised as one in a directory walk, preamble or not.
    @Test func everyCorpusCSVIsChecked() {
        let report = validate(paths: [Paths.corpus + "/csv"])
        #expect(report.skipped.isEmpty, "\(report.skipped.map(\.path))")
        // corpus/csv holds 18 files (`ls | wc -l`); the ones issue 18 made readable (Darwin Core, padi_log_importer, Apnealizer) are tables all the same.
        #expect(report.files.count == 18)
        #expect(report.files.allSatisfy { $0.format == .csv })
    }

    @Test func diveJSONIssuesAreErrorsAndValidDocumentsPass() {
        let invalid = validate(paths: [Paths.fixtures + "/invalid/oxygen-helium-sum.divejson"])
        #expect(invalid.diagnostics.map(\.code) == ["divejson.gas-over-100"])
        #expect(invalid.diagnostics.first?.severity == .error)
        #expect(invalid.exitCode == 1)
        let valid = validate(paths: [Paths.fixtures + "/valid"])
        #expect(valid.files.count == 4)
        #expect(valid.count(.error) == 0)
        #expect(valid.exitCode == 0)
    }

    @Test func theCorpusFilesXmllintRejectsFail() {
        let report = validate(paths: [Paths.corpus + "/uddf"])
        #expect(report.files.count == 14)
        // kenozooid__logbook.uddf is the one file xmllint accepts.
        #expect(report.files.filter { !$0.fails(at: .error) }.map { String($0.path.split(separator: "/").last!) } == ["kenozooid__logbook.uddf"])
        #expect(report.exitCode == 1)
    }
}
