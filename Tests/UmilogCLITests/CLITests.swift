import Foundation
import Testing
import TestSupport

/// Runs the built `umilog` binary.
func umilog(_ arguments: [String], stdin: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Paths.umilog)
    process.arguments = arguments
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

@Suite(.serialized) struct CLITests {
    @Test func convertWritesTheGoldenCSVToStandardOutput() throws {
        let r = try umilog(["convert", "Samples/logbook.uddf", "--to", "csv"])
        #expect(r.status == 0)
        #expect(r.stdout == (try String(contentsOfFile: Paths.samples + "/expected/logbook.csv", encoding: .utf8)))
        #expect(r.stderr == "umilog: 5 dives from 1 of 1 file → standard output; no findings\n")
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
        #expect(r.stdout.contains("--to <to>"))
    }

    @Test func inspectPrintsTheSummary() throws {
        let r = try umilog(["inspect", "Samples/logbook.uddf"])
        #expect(r.status == 0)
        #expect(r.stdout == (try String(contentsOfFile: Paths.samples + "/expected/logbook.inspect.txt", encoding: .utf8)))
    }
}
