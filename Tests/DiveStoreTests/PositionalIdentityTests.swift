import Foundation
import Testing
@testable import DiveStore
import DiveKit
import TestSupport

/// A Subsurface dive has no id: its uuid stands for its place in the file, so the first dive of
/// every Subsurface file has the same one. Importing several such files loses none of them.
@Suite struct PositionalIdentityTests {
    /// `Samples/logbook.ssrf` with its dives moved `days` days on: other dives, in the same places.
    func shifted(by days: Int, into dir: String) throws -> String {
        var text = try String(contentsOfFile: Paths.samples + "/logbook.ssrf", encoding: .utf8)
        for (from, to) in [("2024-06-08", "2024-06-\(8 + days)"), ("2024-07-21", "2024-07-\(21 + days)")] {
            text = text.replacingOccurrences(of: from, with: to)
        }
        let path = dir + "/shifted-\(days).ssrf"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func twoSubsurfaceFilesWithOtherDivesInTheSamePlacesKeepEveryDive() throws {
        let log = try TemporaryLogbook()
        let first = log.store.importLogbooks([Paths.samples + "/logbook.ssrf"])
        #expect(first.inserted == 3)
        let second = log.store.importLogbooks([try shifted(by: 2, into: log.directory)])
        // The same three uuids, three other dives: all three are added, none "already imported".
        #expect(second.inserted == 3 && second.alreadyImported == 0 && second.duplicates == 0)
        #expect(try log.count("dive") == 6)
        // Each file again: its own dives, by the file's record, and nothing added.
        let again = log.store.importLogbooks([Paths.samples + "/logbook.ssrf", try shifted(by: 2, into: log.directory)])
        #expect(again.inserted == 0 && again.alreadyImported == 6)
        #expect(try log.count("dive") == 6)
    }

    @Test func theSameDivesInAnotherSubsurfaceFileAreDuplicatesByContent() throws {
        let log = try TemporaryLogbook()
        _ = log.store.importLogbooks([Paths.samples + "/logbook.ssrf"])
        // The same logbook saved again with one byte more: other bytes, the same dives.
        let copy = log.directory + "/resaved.ssrf"
        try (try String(contentsOfFile: Paths.samples + "/logbook.ssrf", encoding: .utf8) + "\n").write(toFile: copy, atomically: true, encoding: .utf8)
        let report = log.store.importLogbooks([copy])
        #expect(report.inserted == 0 && report.duplicates == 3)
        #expect(try log.count("dive") == 3)
    }
}
