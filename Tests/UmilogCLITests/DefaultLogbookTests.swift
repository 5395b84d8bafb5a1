import Foundation
import Testing
import DiveStore
import TestSupport

/// `--db` is optional everywhere: `UMILOG_DB`, else `logbook.sqlite` in umilog's XDG data
/// directory, made when the logbook is first created; `--db` naming a folder is a clear error.
@Suite struct DefaultLogbookTests {
    @Test func theDefaultPathFollowsTheEnvironment() {
        #expect(DefaultLogbook.path(environment: ["UMILOG_DB": "/x/l.sqlite", "HOME": "/h"]) == "/x/l.sqlite")
        #expect(DefaultLogbook.path(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/umilog/logbook.sqlite")
        // A relative XDG_DATA_HOME is ignored, as the base directory specification asks.
        #expect(DefaultLogbook.path(environment: ["XDG_DATA_HOME": "d", "HOME": "/h"]) == "/h/.local/share/umilog/logbook.sqlite")
        #expect(DefaultLogbook.path(environment: ["UMILOG_DB": "", "HOME": "/h"]) == "/h/.local/share/umilog/logbook.sqlite")
        #expect(DefaultLogbook.path(environment: [:]) == nil)
        #expect(DefaultLogbook.isDataDirectoryDefault("/d/umilog/logbook.sqlite", environment: ["XDG_DATA_HOME": "/d"]))
        #expect(!DefaultLogbook.isDataDirectoryDefault("/d/umilog/logbook.sqlite", environment: ["XDG_DATA_HOME": "/d", "UMILOG_DB": "/d/umilog/logbook.sqlite"]))
    }

    @Test func importAndStatsWithoutDbUseTheXDGLogbook() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let env: [String: String?] = ["XDG_DATA_HOME": dir + "/data", "UMILOG_DB": nil]
        let imported = try umilog(["import", "Samples/logbook.uddf"], environment: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/data/umilog/logbook.sqlite"))
        let stats = try umilog(["stats", "--json"], environment: env)
        #expect(stats.status == 0)
        #expect(stats.stdout.contains("\"dives\":5") || stats.stdout.contains("\"dives\": 5"), "\(stats.stdout)")
    }

    @Test func umilogDBNamesTheLogbook() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/mine.sqlite"
        let env: [String: String?] = ["UMILOG_DB": db, "XDG_DATA_HOME": dir + "/unused"]
        #expect(try umilog(["import", "Samples/logbook.uddf"], environment: env).status == 0)
        #expect(FileManager.default.fileExists(atPath: db))
        #expect(!FileManager.default.fileExists(atPath: dir + "/unused"))
        let check = try umilog(["db", "check"], environment: env)
        #expect(check.status == 0 && check.stderr.contains("integrity and foreign keys ok"))
        // A named logbook that does not exist is not made by a command that only reads.
        let missing = try umilog(["stats"], environment: ["UMILOG_DB": dir + "/none.sqlite"])
        #expect(missing.status == 1 && missing.stderr.contains("error[store.not-found]"))
    }

    @Test func aDbThatIsAFolderIsAClearError() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for command in [["stats"], ["import", "Samples/logbook.uddf"], ["export", "--to", "csv"]] {
            let r = try umilog(command + ["--db", dir])
            #expect(r.status == 1)
            #expect(r.stderr.contains("error[store.is-a-directory]: \(dir) is a folder, not a logbook file; name the file, as in --db \(dir)/logbook.sqlite"), "\(r.stderr)")
        }
    }

    /// A dry run changes nothing, so it leaves no logbook behind where there was none, and
    /// still plans against an empty one.
    @Test func aDryRunMakesNoLogbook() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try umilog(["import", "Samples/logbook.uddf", "--db", dir + "/new.sqlite", "--dry-run"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("dry run, nothing changed: 1 file, 1 read (5 dives would be added)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
