import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct ValidateCLITests {
    @Test func aValidFileExitsZeroWithTheSummaryOnStandardError() throws {
        let r = try umilog(["validate", "Samples/logbook.uddf"])
        #expect(r.status == 0)
        // Warnings do not fail a file: what the sample records that umilog does not carry.
        #expect(r.stdout == sampleNotCarried.map { "Samples/logbook.uddf:\($0.0): warning[uddf.not-carried]: \($0.1)\n" }.joined())
        #expect(r.stderr == "umilog: 1 file checked, 0 invalid; 3 warnings\n")
    }

    @Test func problemsExitOneAndPrintLikeACompiler() throws {
        let r = try umilog(["validate", "Samples/invalid/uddf.schema.value-invalid.uddf"])
        #expect(r.status == 1)
        #expect(r.stdout == """
            Samples/invalid/uddf.schema.value-invalid.uddf:52: error[uddf.schema.value-invalid]: /uddf/profiledata/repetitiongroup/dive/samples/waypoint[2]/depth: <depth> holds "18,4", which is not a valid xs:float
            Samples/invalid/uddf.schema.value-invalid.uddf:52: warning[uddf.not-a-number]: dive/0: <depth> holds "18,4", which is not a number; not carried

            """)
        #expect(r.stderr == "umilog: 1 file checked, 1 invalid; 1 error, 1 warning\n")
    }

    @Test func failOnWarningMakesAWarningFail() throws {
        let file = "Samples/invalid/dive.depth-out-of-range.uddf"
        let lenient = try umilog(["validate", file])
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("warning[dive.depth-out-of-range]"))
        #expect(lenient.stderr == "umilog: 1 file checked, 0 invalid; 2 warnings\n")
        let strict = try umilog(["validate", file, "--fail-on", "warning"])
        #expect(strict.status == 1)
        #expect(strict.stderr == "umilog: 1 file checked, 1 invalid; 2 warnings\n")
    }

    @Test func unreadableInputsAndFilesThatAreNotDiveLogsExitTwo() throws {
        let missing = try umilog(["validate", "Samples/logbook.uddf", "/nonexistent.uddf"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent.uddf: error[io.open]: cannot open the file: No such file or directory\n"))
        let other = try umilog(["validate", "Samples/invalid/format.unknown-xml.xml"])
        #expect(other.status == 2)
        #expect(other.stderr.hasPrefix("Samples/invalid/format.unknown-xml.xml:1: error[format.unknown-xml]: the file is XML with root element <pocketnotes>"))
    }

    @Test("only the commands that take --from name it when a file is not recognised")
    func fromHintOnlyWhereTheOptionExists() throws {
        let file = "Samples/invalid/format.unknown.txt"
        let hint = "; name its format with --from uddf|json|csv|ssrf|suunto-xml|suunto-dm3|fit|suunto-json|shearwater-xml|shearwater-db|macdive|udcf|dl7|divinglog|divinglog-db|divelogs-dld|seac-sync|jdivelog|libdc-xml|divesoft-dlf|uwatec-datatrak|smarttrak|divelogs-de|zip"
        for command in [["convert", file, "--to", "csv"], ["inspect", file]] {
            let r = try umilog(command)
            #expect(r.status == 1 && r.stderr.contains("(UDDF, DiveJSON, CSV, Subsurface XML, Suunto DM4/DM5 XML, Suunto DM3 .SDE, Garmin FIT, Suunto app DeviceLog JSON, Shearwater XML, Shearwater Cloud database, MacDive XML, UDCF, DAN DL7 (ZXL/ZXU), Diving Log XML, Diving Log database, divelogs.de DLD XML, Seac Sync database, JDiveLog, libdivecomputer XML dump, Divesoft Freedom/Liberty (.dlf), Uwatec DataTrak (.log), SmartTRAK (.slg), divelogs.de upload XML or a zip archive of these)\(hint)\n"), "\(command)")
        }
        let db = NSTemporaryDirectory() + "umilog-hint-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        #expect(try umilog(["db", "init", "--db", db]).status == 0)
        for command in [["validate", file], ["import", file, "--db", db]] {
            let r = try umilog(command)
            let all = r.stdout + r.stderr
            #expect(all.contains("(UDDF, DiveJSON, CSV, Subsurface XML, Suunto DM4/DM5 XML, Suunto DM3 .SDE, Garmin FIT, Suunto app DeviceLog JSON, Shearwater XML, Shearwater Cloud database, MacDive XML, UDCF, DAN DL7 (ZXL/ZXU), Diving Log XML, Diving Log database, divelogs.de DLD XML, Seac Sync database, JDiveLog, libdivecomputer XML dump, Divesoft Freedom/Liberty (.dlf), Uwatec DataTrak (.log), SmartTRAK (.slg), divelogs.de upload XML or a zip archive of these)") && !all.contains("--from"), "\(command)")
        }
    }

    @Test func badUsageExitsTwo() throws {
        #expect(try umilog(["validate"]).status == 2)
        #expect(try umilog(["validate", "Samples/logbook.uddf", "--format", "yaml"]).status == 2)
        #expect(try umilog(["validate", "Samples/logbook.uddf", "--fail-on", "note"]).status == 2)
    }

    @Test func aDirectoryIsWalkedAndWhatIsNotADiveLogIsSkipped() throws {
        let r = try umilog(["validate", "Samples/invalid"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("Samples/invalid/format.unknown.txt: skipped: the file is not a dive log umilog recognises (UDDF, DiveJSON, CSV, Subsurface XML, Suunto DM4/DM5 XML, Suunto DM3 .SDE, Garmin FIT, Suunto app DeviceLog JSON, Shearwater XML, Shearwater Cloud database, MacDive XML, UDCF, DAN DL7 (ZXL/ZXU), Diving Log XML, Diving Log database, divelogs.de DLD XML, Seac Sync database, JDiveLog, libdivecomputer XML dump, Divesoft Freedom/Liberty (.dlf), Uwatec DataTrak (.log), SmartTRAK (.slg), divelogs.de upload XML or a zip archive of these)\n"))
        #expect(r.stderr.hasSuffix("; 2 skipped (not dive logs)\n"))
        #expect(r.stderr.contains("umilog: 12 files checked, 11 invalid;"))
    }

    @Test func standardInputIsNamedStdin() throws {
        let xml = try String(contentsOfFile: Paths.samples + "/invalid/uddf.schema.attribute-missing.uddf", encoding: .utf8)
        let r = try umilog(["validate", "-"], stdin: xml)
        #expect(r.status == 1)
        #expect(r.stdout == "<stdin>:11: error[uddf.schema.attribute-missing]: /uddf/diver/owner: <owner> lacks its required attribute id\n")
    }

    @Test func jsonGithubAndSarifGoToStandardOutput() throws {
        let file = "Samples/invalid/uddf.schema.idref-unresolved.uddf"
        let json = try umilog(["validate", file, "--format", "json"])
        #expect(json.status == 1)
        let objects = try json.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["code"] as? String } == ["uddf.link-unresolved", "uddf.schema.idref-unresolved"])
        #expect(objects.last?["line"] as? Int == 34)
        #expect(objects.last?["path"] as? String == "/uddf/profiledata/repetitiongroup/dive/informationbeforedive/link")

        let github = try umilog(["validate", file, "--format", "github"])
        #expect(github.status == 1)
        #expect(github.stdout.split(separator: "\n").last == "::error file=Samples/invalid/uddf.schema.idref-unresolved.uddf,line=34,title=uddf.schema.idref-unresolved::/uddf/profiledata/repetitiongroup/dive/informationbeforedive/link: the reference \"site-jackfish-alley\" names an id that no element of the file has")

        let sarif = try umilog(["validate", file, "--format", "sarif"])
        #expect(sarif.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["uddf.link-unresolved", "uddf.schema.idref-unresolved"])
        #expect(sarif.stderr == "umilog: 1 file checked, 1 invalid; 1 error, 1 warning\n")
    }
}
