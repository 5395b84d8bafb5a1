import Foundation
import Testing
@testable import DiveKit
import TestSupport
import ZIPFoundation

/// A zip of `entries` (deflated), written to a file in a fresh directory (also used by OpenTests).
func zipFile(_ entries: [(String, [UInt8])]) throws -> String {
    let archive = try Archive(data: Data(), accessMode: .create)
    for (name, bytes) in entries {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count),
                             modificationDate: Date(timeIntervalSince1970: 1_300_000_000), compressionMethod: .deflate,
                             provider: { position, size in Data(bytes[Int(position)..<(Int(position) + size)]) })
    }
    let path = try Paths.temporaryDirectory() + "/export.zip"
    try #require(archive.data).write(to: URL(fileURLWithPath: path))
    return path
}

private func bytes(_ sample: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.samples + "/" + sample)))
}

/// A zip whose entries are dive logs (Garmin Connect's export of an activity is a zip holding
/// its .fit) is read entry by entry, each as its own bytes say.
@Suite struct ArchiveSourceTests {
    @Test func aZipOfDiveLogsIsReadEntryByEntry() throws {
        let fit = try bytes("dive.fit")
        let path = try zipFile([("1234_ACTIVITY.fit", fit), ("readme.txt", Array("hello".utf8)),
                                ("copy.fit", fit), ("log.xml", try bytes("shearwater.xml"))])
        #expect(try detectFormat(path: path) == .zip)
        let out = MemorySink()
        let report = convert(inputs: [path], options: ConvertOptions(to: .json), standardOutput: out)
        #expect(!report.failed)
        #expect(report.inputs.first?.dives == 3)
        let findings = report.inputs.flatMap(\.findings)
        let skipped = try #require(findings.first { $0.code == "zip.entry-not-read" })
        #expect(skipped.location.file == path + "(readme.txt)")
        #expect(findings.contains { $0.location.file == path + "(1234_ACTIVITY.fit)" && $0.code.hasPrefix("fit.") })
        // Two entries holding the same file are two dives with two ids: a FIT file records no
        // id, so the entry's name is part of it.
        let doc = try #require(JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any])
        let ids = (doc["dives"] as? [[String: Any]])?.compactMap { $0["uuid"] as? String } ?? []
        #expect(ids.count == 3 && Set(ids).count == 3)
        #expect(!findings.contains { $0.code == "convert.id-collision" })
    }

    /// A zip is read like a folder (issue 19): a first entry that is no dive log does not hide
    /// the dive log after it; the entry not read is said, with its name.
    @Test func aZipIsReadLikeAFolderWhateverItsFirstEntry() throws {
        let path = try zipFile([("notes.txt", Array("hello".utf8)), ("dive.fit", try bytes("dive.fit"))])
        #expect(try detectFormat(path: path) == .zip)
        guard case .readable(.zip) = try classifyFile(path) else {
            Issue.record("not classified as a zip of dive logs")
            return
        }
        let out = MemorySink()
        let report = convert(inputs: [path], options: ConvertOptions(to: .json), standardOutput: out)
        #expect(report.inputs.first?.dives == 1)
        let skipped = report.inputs.flatMap(\.findings).filter { $0.code == "zip.entry-not-read" }
        #expect(skipped.map(\.location.file) == ["\(path)(notes.txt)"])
        // A zip of no dive log at all is still named as a zip, with its first entry.
        let none = try zipFile([("notes.txt", Array("hello".utf8)), ("photo.jpg", [0xFF, 0xD8, 0xFF])])
        #expect(throws: DiveError.self) { _ = try detectFormat(path: none) }
        guard case .notADiveLog(let e) = try classifyFile(none) else {
            Issue.record("a zip of no dive log is not listed as not a dive log")
            return
        }
        #expect(e.code == "format.unknown-zip")
        #expect(e.message.hasPrefix("the file is a zip archive whose first entry is notes.txt"))
    }
}
