import Foundation
import Testing
import TestSupport

/// Misuse is bad usage (exit 2) with a sentence that says what is wrong.
@Suite struct MisuseTests {
    @Test func helpForACommandThatDoesNotExistExitsTwo() throws {
        let r = try umilog(["help", "nosuch"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("umilog has no command \"nosuch\"; its commands are convert, inspect"))
        #expect(r.stdout.isEmpty)
        let sub = try umilog(["help", "db", "nosuch"])
        #expect(sub.status == 2 && sub.stderr.contains("umilog db has no command \"nosuch\"; its commands are init, check, schema"))
        let ok = try umilog(["help", "db", "check"])
        #expect(ok.status == 0 && ok.stdout.contains("USAGE: umilog db check"))
    }

    @Test(arguments: [["backfill", "--radius", "-5"], ["sites", "create-from-gps", "--radius", "-5"], ["backfill", "--radius", "0"]])
    func aRadiusMustBePositive(arguments: [String]) throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try umilog(arguments + ["--db", dir + "/l.sqlite", "--dry-run"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--radius must be a positive number of metres, not \(arguments.last!)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/l.sqlite"))
    }
}
