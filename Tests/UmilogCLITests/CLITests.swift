import Foundation
import Testing
import TestSupport

/// Runs the built `umilog` binary.
/// `environment` is laid over this process's (a nil value removes the variable).
func umilog(_ arguments: [String], stdin: String? = nil, environment: [String: String?] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Paths.umilog)
    process.arguments = arguments
    if !environment.isEmpty {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
    }
    process.currentDirectoryURL = URL(fileURLWithPath: Paths.root)
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    if let stdin {
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
    } else {
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// What the sample logbook records that umilog's model has no place for, read off
/// `Samples/logbook.uddf` by hand: the owner's postal address (lines 15–18), each of the four
/// sites' `<environment>` (lines 36, 51, 66, 81) and the country of each site's address.
let sampleNotCarried = [
    ("16", "diver/owner/address: 2 elements have no place in umilog's model and are not carried: <city>Trieste</city>, <country>Italy</country>"),
    ("36", "divesite/site/environment: <environment>ocean-sea</environment> (the first of 4) has no place in umilog's model; not carried"),
    ("40", "divesite/site/geography/address/country: <country>Egypt</country> (the first of 4) has no place in umilog's model; not carried"),
]

@Suite(.serialized) struct CLITests {
    @Test func convertWritesTheGoldenCSVToStandardOutput() throws {
        let r = try umilog(["convert", "Samples/logbook.uddf", "--to", "csv"])
        #expect(r.status == 0)
        #expect(r.stdout == (try String(contentsOfFile: Paths.samples + "/expected/logbook.csv", encoding: .utf8)))
        let findings = sampleNotCarried.map { "Samples/logbook.uddf:\($0.0): dropped[uddf.not-carried]: \($0.1)\n" }.joined()
        let table = "Samples/logbook.uddf: dropped[csv.not-carried]: the summary table has no column for profiles (--to csv-profile writes the samples): 4 dives hold some\n"
        #expect(r.stderr == findings + table + "umilog: 5 dives from 1 of 1 file → standard output; 4 findings (4 dropped)\n")
    }

    @Test func convertReadsStandardInput() throws {
        let xml = try String(contentsOfFile: Paths.samples + "/logbook.uddf", encoding: .utf8)
        let r = try umilog(["convert", "-", "--to", "csv-profile", "-q"], stdin: xml)
        #expect(r.status == 0)
        #expect(r.stdout == (try String(contentsOfFile: Paths.samples + "/expected/logbook.profile.csv", encoding: .utf8)))
    }

    @Test func aDoctypeIsALocatedErrorAndExitOne() throws {
        let dir = try Paths.temporaryDirectory()
        let r = try umilog(["convert", "Samples/invalid/xml.doctype.uddf", "--to", "csv", "-o", dir + "/out.csv"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Samples/invalid/xml.doctype.uddf:2:"))
        #expect(r.stderr.contains(": error[xml.doctype]: the file declares a document type (<!DOCTYPE>)"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
    }

    @Test func aTruncatedFileNamesTheUnclosedElement() throws {
        let r = try umilog(["convert", "Samples/invalid/xml.truncated.uddf", "--to", "csv", "-o", "-"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("error[xml.truncated]: the file ends before the XML is complete: <depth>"))
    }

    @Test func badUsageExitsTwo() throws {
        #expect(try umilog(["convert", "Samples/logbook.uddf", "--to", "yaml"]).status == 2)
        #expect(try umilog(["convert", "Samples/logbook.uddf"]).status == 2)
        #expect(try umilog(["frobnicate"]).status == 2)
    }

    @Test func helpExitsZero() throws {
        let r = try umilog(["convert", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--to <format>"))
        // --to lists what umilog writes, --from what it reads.
        #expect(r.stdout.contains("(values: uddf, json, csv, csv-profile, ssrf)"))
        #expect(r.stdout.contains("(Garmin FIT)"))
    }

    /// A format umilog reads and does not write is bad usage for --to, not a failed input.
    @Test func toAFormatNotWrittenIsBadUsage() throws {
        let r = try umilog(["convert", "Samples/logbook.uddf", "--to", "fit", "-o", "/dev/null"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("The value 'fit' is invalid for '--to <format>'. Please provide one of 'uddf', 'json', 'csv', 'csv-profile' or 'ssrf'."))
    }

    @Test func inspectPrintsTheSummary() throws {
        let r = try umilog(["inspect", "Samples/logbook.uddf"])
        #expect(r.status == 0)
        #expect(r.stdout == (try String(contentsOfFile: Paths.samples + "/expected/logbook.inspect.txt", encoding: .utf8)))
    }
}

@Suite(.serialized, .enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct ConformCLITests {
    @Test func theUDDFPartOfTheCorpusPasses() throws {
        let r = try umilog(["conform", Paths.fixtures, "--only", "uddf", "--strict"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("invalid: 105/105 passed"))
        #expect(r.stdout.contains("uddf: 13/13 passed"))
        #expect(r.stdout.contains("valid: 4/4 passed"))
    }

    /// The pair directory is DiveJSON's `suunto_xml`; `--only` takes umilog's `suunto-xml`.
    @Test func theSuuntoXMLPairsPass() throws {
        let r = try umilog(["conform", Paths.fixtures, "--only", "suunto-xml", "--strict"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("suunto_xml: 5/5 passed"))
    }

    /// Issue 17's bar: every reader pair directory of DiveJSON's fixtures passes, strictly.
    @Test func theWholeFixtureTreePassesStrictly() throws {
        let r = try umilog(["conform", Paths.fixtures, "--strict"])
        #expect(r.status == 0)
        for line in ["fit: 4/4 passed", "ssrf: 6/6 passed", "suunto_json: 12/12 passed", "suunto_xml: 5/5 passed", "uddf: 13/13 passed"] {
            #expect(r.stdout.contains(line + "\n"), "\(line)")
        }
        #expect(!r.stderr.contains("conform.shape"))
    }

    /// A pair directory for a format umilog recognises but does not read is a shape error (cases
    /// that never ran), exit 2.
    @Test func pairsOfAFormatNotReadAreAShapeErrorAndExitTwo() throws {
        let dir = try Paths.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/sqlite", withIntermediateDirectories: true)
        try Data("<dive/>".utf8).write(to: URL(fileURLWithPath: dir + "/sqlite/a.xml"))
        let r = try umilog(["conform", dir])
        #expect(r.status == 2)
        #expect(r.stderr.contains("error[conform.shape]: sqlite/: reader pairs for the format \"sqlite\", which umilog does not read"))
    }

    @Test func aFailingCaseExitsOne() throws {
        let dir = try Paths.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/invalid", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.fixtures + "/valid/minimal.divejson", toPath: dir + "/invalid/not-really.divejson")
        let r = try umilog(["conform", dir])
        #expect(r.status == 1)
        #expect(r.stdout.contains("FAIL invalid/not-really.divejson: accepted, but it is invalid"))
    }

    @Test func validateExitsOneWithLocatedIssues() throws {
        let r = try umilog(["validate", Paths.fixtures + "/invalid/oxygen-helium-sum.divejson"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("error[divejson.gas-over-100]"))
        #expect(try umilog(["validate", Paths.fixtures + "/valid/technical-dive.divejson"]).status == 0)
        #expect(try umilog(["validate", "/nonexistent.divejson"]).status == 2)
    }
}

@Suite struct ExportFindingLocationTests {
    /// A writer's finding about a dive of the logbook names the logbook and the logbook's dive:
    /// its number, date and the first eight characters of its id (it named "store", line 0,
    /// dive 0 for every dive, then the dive's place in the export).
    @Test func anExportsFindingsNameTheLogbookAndEachDive() throws {
        let dir = try Paths.temporaryDirectory()
        let db = dir + "/log.sqlite"
        #expect(try umilog(["db", "init", "--db", db]).status == 0)
        #expect(try umilog(["import", Paths.samples + "/logbook.uddf", "--db", db, "-q"]).status == 0)
        let r = try umilog(["export", "--db", db, "--to", "ssrf", "-o", dir + "/out.ssrf"])
        #expect(r.status == 0)
        // Dives 1, 3 and 5 of the sample have a UTC offset, which Subsurface XML cannot hold.
        let ids = try umilog(["dives", "--db", db, "--json"]).stdout
        for (n, date) in [(1, "2024-03-02"), (3, "2024-03-03"), (5, "2024-08-10")] {
            let id = try #require(ids.split(separator: "{").first { $0.contains("\"number\":\(n),") }?.split(separator: "\"", omittingEmptySubsequences: false)[3])
            #expect(r.stderr.contains("\(db): dropped[ssrf.utc-offset-dropped]: dive #\(n) \(date) \(id.prefix(8)): "), "\(r.stderr)")
        }
        #expect(!r.stderr.contains("store:"))
    }
}

/// A measured run's peak memory is the command's own, not the test process's: a child the test
/// process spawned directly reported the test process's high-water mark (Linux counts the memory
/// a vfork child shares before it executes).
@Suite struct MeasuredRunTests {
    @Test func aCommandsPeakIsItsOwnWhateverTheTestProcessHolds() throws {
        let ballast = UnsafeMutableRawBufferPointer.allocate(byteCount: 96 << 20, alignment: 4096)
        defer { ballast.deallocate() }
        ballast.initializeMemory(as: UInt8.self, repeating: 1)
        let r = try runMeasured("/bin/sh", ["-c", "exit 3"])
        #expect(r.status == 3)
        #expect(r.peakKB < 32 << 10, "\(r.peakKB) KB for a shell that exits at once")
        #expect(ballast.load(fromByteOffset: 50 << 20, as: UInt8.self) == 1)
    }
}

/// A run that loses a dive never exits 0: a dive UDDF cannot carry (no start) is a finding that
/// loses it, the other dives are written, and the exit status is 1. DiveJSON carries such a dive
/// under its umilog extension: nothing is lost, and the run succeeds.
@Suite struct LostDiveTests {
    static func twoDives(in dir: String) throws -> String {
        let uddf = dir + "/two.uddf"
        try """
            <uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2">
            <profiledata><repetitiongroup id="g">
            <dive id="a"><informationbeforedive><datetime>2024-05-01T10:00:00</datetime></informationbeforedive>
            <informationafterdive><greatestdepth>12</greatestdepth></informationafterdive></dive>
            <dive id="b"><informationafterdive><greatestdepth>9</greatestdepth></informationafterdive></dive>
            </repetitiongroup></profiledata></uddf>
            """.write(toFile: uddf, atomically: true, encoding: .utf8)
        return uddf
    }

    @Test func aDiveTheOutputCannotCarryFailsTheRunAndTheRestIsWritten() throws {
        let dir = try Paths.temporaryDirectory()
        let uddf = try Self.twoDives(in: dir)
        let r = try umilog(["convert", uddf, "--to", "uddf", "-o", dir + "/out.uddf"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("dropped[uddf.dive-without-start]"))
        #expect(r.stderr.hasSuffix("; 1 dive not carried\n"))
        let out = try String(contentsOfFile: dir + "/out.uddf", encoding: .utf8)
        #expect(out.contains("2024-05-01T10:00:00"))
    }

    @Test func aDiveWithNoStartGoesUnderTheUmilogExtensionOfDiveJSON() throws {
        let dir = try Paths.temporaryDirectory()
        let uddf = try Self.twoDives(in: dir)
        let out = dir + "/out.divejson"
        let r = try umilog(["convert", uddf, "--to", "json", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(uddf):5: resolved[json.dive-without-start]: dive/1: the dive has no start date, which a dive in DiveJSON's dives requires; written under extensions.umilog.undated_dives[0] instead"))
        #expect(!r.stderr.contains("not carried"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let dives = try #require(document["dives"] as? [[String: Any]])
        #expect(dives.map { $0["started_at"] as? String } == ["2024-05-01T10:00:00"])
        let extensions = try #require(document["extensions"] as? [String: Any])
        let undated = try #require((extensions["umilog"] as? [String: Any])?["undated_dives"] as? [[String: Any]])
        #expect(undated.count == 1)
        #expect(undated.first?["started_at"] == nil)
        #expect(undated.first?["max_depth"] as? Double == 9)
        // The document is valid DiveJSON, and converting it back gives both dives.
        #expect(try umilog(["validate", out]).status == 0)
        let csv = try umilog(["convert", out, "--to", "csv", "-o", "-"])
        #expect(csv.status == 0)
        #expect(csv.stdout.split(whereSeparator: \.isNewline).count == 3, "\(csv.stdout)")
    }
}

/// An element that records no dive is no dive: the empty `<dive>` some writers put before the
/// real one is reported and written nowhere, and the run succeeds.
@Suite struct EmptyDiveCLITests {
    @Test func anEmptyLeadingDiveIsReportedAndNotWritten() throws {
        let dir = try Paths.temporaryDirectory()
        let uddf = dir + "/previous.uddf"
        try """
            <uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2">
            <profiledata><repetitiongroup id="g">
            <dive id="p"><informationbeforedive><surfaceintervalbeforedive><infinity/></surfaceintervalbeforedive></informationbeforedive></dive>
            <dive id="a"><informationbeforedive><datetime>2024-05-01T10:00:00</datetime></informationbeforedive>
            <informationafterdive><greatestdepth>12</greatestdepth></informationafterdive></dive>
            </repetitiongroup></profiledata></uddf>
            """.write(toFile: uddf, atomically: true, encoding: .utf8)
        let r = try umilog(["convert", uddf, "--to", "csv", "-o", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(uddf):3: absent[uddf.empty-dive]: dive/0: the <dive> records nothing but the surface interval before it"))
        let rows = r.stdout.split(whereSeparator: \.isNewline)
        #expect(rows.count == 2, "\(r.stdout)")
        #expect(rows.last?.contains("2024-05-01") == true)
        #expect(r.stderr.hasSuffix("umilog: 1 dive from 1 of 1 file → standard output; 1 finding (1 absent)\n"), "\(r.stderr)")
    }
}
