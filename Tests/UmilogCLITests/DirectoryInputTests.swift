import Foundation
import Testing
import TestSupport

/// `convert` and `inspect` take directories as `import` and `validate` do: the dive logs under
/// one, walked in name order, what is not a dive log named as skipped.
@Suite struct DirectoryInputTests {
    @Test func convertADirectory() throws {
        // Samples/dl7 holds three DL7 files, one dive each (imperial-lf.zxu, metric-crlf.zxl, no-units-cr.zxu).
        let r = try umilog(["convert", "Samples/dl7", "--to", "csv", "-q"])
        #expect(r.status == 0)
        #expect(r.stdout.split(whereSeparator: \.isNewline).count == 4)  // the header and three dives
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.samples + "/logbook.uddf", toPath: dir + "/in/logbook.uddf")
        try Data("a note, not a dive log\n".utf8).write(to: URL(fileURLWithPath: dir + "/in/notes.md"))
        let out = try umilog(["convert", dir + "/in", "--to", "json", "-o", dir + "/out/"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("\(dir)/in/notes.md: skipped: "))
        #expect(out.stderr.contains("umilog: 5 dives from 1 of 1 file → \(dir)/out/logbook.divejson"))
        #expect(FileManager.default.fileExists(atPath: dir + "/out/logbook.divejson"))
        try FileManager.default.removeItem(atPath: dir + "/in/logbook.uddf")
        let none = try umilog(["convert", dir + "/in", "--to", "csv"])
        #expect(none.status == 1 && none.stderr.contains("error[convert.no-dive-logs]: the directory holds no dive log umilog reads (1 file passed over)"))
    }

    @Test func inspectADirectory() throws {
        let r = try umilog(["inspect", "Samples/dl7"])
        #expect(r.status == 0)
        #expect(r.stdout.components(separatedBy: "file:       Samples/dl7/").count == 4)
        #expect(r.stdout.contains("\n\nfile:       Samples/dl7/metric-crlf.zxl\n"))
        let json = try umilog(["inspect", "Samples/dl7", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["files"] as? [Any])?.count == 3)
        #expect((object["skipped"] as? [Any])?.isEmpty == true && (object["errors"] as? [Any])?.isEmpty == true)
    }
}
