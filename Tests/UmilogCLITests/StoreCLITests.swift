import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct StoreCLITests {
    /// init → import (dry run, then for real, then a failing file) → stats → export with a date
    /// range → backfill twice: the commands' contract (exit codes, --to twice, summaries).
    @Test func theLogbookCommands() throws {
        let dir = try Paths.temporaryDirectory()
        let db = dir + "/logbook.sqlite"
        #expect(try umilog(["db", "init", "--db", db, "--seed"]).stdout.contains("239 sites"))
        // A dry run prints a line per file; -v adds each dive's plan.
        let summary = try umilog(["import", "Samples/pair", "--db", db, "--dry-run", "--on-duplicate", "merge"])
        #expect(summary.status == 0)
        #expect(summary.stdout.contains("Samples/pair/computer-b.csv: csv, 4 dives, 0 would be imported, 4 duplicates would be merged\n"), "\(summary.stdout)")
        #expect(!summary.stdout.contains("duplicate of #1"))
        let plan = try umilog(["import", "Samples/pair", "--db", db, "--dry-run", "--on-duplicate", "merge", "-v"])
        #expect(plan.status == 0)
        #expect(plan.stdout.contains("duplicate of #1 (2024-03-02 09:15:00): would be merged"))
        #expect(plan.stderr.contains("dry run, nothing changed"))
        #expect(try umilog(["stats", "--db", db]).stdout.contains("dives:          0"))
        let real = try umilog(["import", "Samples/pair", "--db", db, "--on-duplicate", "merge", "-q"])
        #expect(real.status == 0)
        #expect(real.stderr.contains("5 dives added, 4 duplicates (4 merged)"))
        // A file that is not what it says fails alone: exit 1, the others stay imported.
        let broken = dir + "/broken.uddf"
        try "<uddf version=\"3.2.2\"><profiledata><repetitiongroup><dive>".write(toFile: broken, atomically: true, encoding: .utf8)
        let failed = try umilog(["import", broken, "--db", db])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("broken.uddf:"))
        #expect(try umilog(["stats", "--db", db]).stdout.contains("dives:          5"))
        // --to twice: a format and the last day.
        let march = try umilog(["export", "--db", db, "--to", "csv", "--from", "2024-03-01", "--to", "2024-03-31", "-q"])
        #expect(march.status == 0)
        #expect(march.stdout.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("1,") || $0.hasPrefix("2,") || $0.hasPrefix("3,") }.count == 3, "\(march.stdout)")
        #expect(!march.stdout.contains("2024-08-10"))
        #expect(try umilog(["export", "--db", db, "--to", "yesterday"]).status == 2)
        let backfill = try umilog(["backfill", "--db", db])
        #expect(backfill.status == 0)
        #expect(try umilog(["backfill", "--db", db]).stderr.contains("nothing to change"))
        #expect(try umilog(["db", "check", "--db", db]).status == 0)
    }
}
