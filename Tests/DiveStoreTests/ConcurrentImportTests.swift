import DiveCore
@testable import DiveStore
import Foundation
import GRDB
import Testing
import TestSupport

/// `umilog` processes on one logbook at once, and killed mid-import: the logbook stays whole,
/// every file is in it wholly or not at all, and a rerun converges on the uninterrupted result.
/// These run the built binary (as the CLI tests do) and read the logbook with the store.
@Suite(.serialized) struct ConcurrentImportTests {
    /// The batch the tests import, in the order `umilog import` takes it: the samples, the
    /// pair (a copy of the sample logbook and a CSV of four of its dives), and the shared
    /// corpus's UDDF files when present.
    static let batch: [String] = {
        var files = ["logbook.uddf", "rebreather.uddf", "pair/computer-a.uddf", "pair/computer-b.csv"].map { Paths.samples + "/" + $0 }
        if Paths.sharedAvailable {
            let dir = Paths.corpus + "/uddf"
            files += ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".uddf") }.sorted().map { dir + "/" + $0 }
        }
        return files
    }()

    /// The logbook after each prefix of a batch, imported file by file in this process.
    struct Reference: Sendable {
        /// `states[k]`: every table (and the samples' bytes) after the first `k` files.
        var states: [[String: [String]]] = []
        /// The dives after the first `k` files.
        var dives: [Set<String>] = []
        /// How long importing the files took, seconds.
        var duration: TimeInterval = 0

        init(_ files: [String]) throws {
            let log = try TemporaryLogbook()
            try record(log)
            for file in files {
                let started = Date()
                let report = log.store.importLogbooks([file])
                duration += Date().timeIntervalSince(started)
                try #require(report.exitCode == 0, "\(file): \(report.failed.map(\.status))")
                try record(log)
            }
        }

        private mutating func record(_ log: TemporaryLogbook) throws {
            states.append(try ConcurrentImportTests.state(of: log))
            dives.append(Set(try log.store.read { db in try String.fetchAll(db, sql: "SELECT id FROM dive") }))
        }
    }

    /// Every table as ``TemporaryLogbook/tables(except:)`` gives it, plus each recording's
    /// samples byte for byte (the table dump gives a blob's size only).
    static func state(of log: TemporaryLogbook, except skipped: Set<String> = []) throws -> [String: [String]] {
        var state = try log.tables(except: skipped)
        state["recording samples"] = try log.store.read { db in
            try String.fetchAll(db, sql: "SELECT dive_id || ' ' || position || ' ' || coalesce(hex(samples), 'NULL') FROM recording").sorted()
        }
        return state
    }

    static let reference = Result { try Reference(batch) }

    /// A `umilog` process, its standard error in a file (many at once must not fill pipes).
    final class Umilog {
        let process = Process()
        let errorPath: String

        init(_ arguments: [String], in dir: String) throws {
            process.executableURL = URL(fileURLWithPath: Paths.umilog)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: Paths.root)
            errorPath = dir + "/stderr-\(UUID().uuidString)"
            _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            defer { try? errors.close() }
            process.standardError = errors
            try process.run()
        }

        /// Waits for it: its exit status (-1 when a signal ended it) and standard error.
        func wait() -> (status: Int32, stderr: String) {
            process.waitUntilExit()
            let text = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            return (process.terminationReason == .exit ? process.terminationStatus : -1, text)
        }

        /// SIGKILL; true when it was still running (the kill cut it short).
        func kill() -> Bool {
            let running = process.isRunning
            Foundation.kill(process.processIdentifier, SIGKILL)
            return running && wait().status == -1
        }
    }

    /// Runs `umilog` to its end, its standard output captured.
    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.umilog)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Paths.root)
        let out = Pipe(), err = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, o, String(decoding: e, as: UTF8.self))
    }

    @Test("16 imports started at once on a logbook that does not exist yet all succeed, and it holds every dive once (3 rounds)")
    func creationRace() throws {
        let dir = try Paths.temporaryDirectory()
        for round in 0..<3 {
            let db = dir + "/race-\(round).sqlite"
            let runs = try (0..<16).map { _ in try Umilog(["import", "Samples/logbook.uddf", "--db", db, "-q"], in: dir) }
            for r in runs.map({ $0.wait() }) {
                #expect(r.status == 0, "round \(round): \(r.stderr)")
            }
            let log = try TemporaryLogbook(opening: db)
            #expect(try log.store.check().isEmpty)
            #expect(try log.store.appliedMigrations() == Schema.migrations.map(\.id).sorted())
            let (dives, distinct, sources, files) = try log.store.read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM dive"), try Int.fetchOne(db, sql: "SELECT count(DISTINCT id) FROM dive"),
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM dive_source"), try Int.fetchOne(db, sql: "SELECT count(*) FROM source_file"))
            }
            #expect(dives == 5 && distinct == 5 && sources == 5 && files == 1, "round \(round)")
        }
    }

    @Test("a logbook whose creating process was killed mid-transaction (a hot rollback journal) opens: rolled back, then created")
    func hotJournal() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/hot.sqlite"
        // A transaction that has spilled to the file, copied with its journal while still open:
        // what SIGKILL leaves of a process switching a new logbook to WAL or writing it.
        let source = try DatabaseQueue(path: dir + "/live.sqlite")
        try source.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = 2; BEGIN IMMEDIATE; CREATE TABLE junk (x TEXT)")
            for _ in 0..<200 { try db.execute(sql: "INSERT INTO junk VALUES (?)", arguments: [String(repeating: "x", count: 1000)]) }
            try FileManager.default.copyItem(atPath: dir + "/live.sqlite", toPath: path)
            try FileManager.default.copyItem(atPath: dir + "/live.sqlite-journal", toPath: path + "-journal")
            try db.execute(sql: "ROLLBACK")
        }
        let store = try LogbookStore(path: path)
        #expect(try store.appliedMigrations() == Schema.migrations.map(\.id).sorted())
        #expect(try store.check().isEmpty)
        #expect(store.importLogbooks([Paths.samples + "/logbook.uddf"]).inserted == 5)
    }

    @Test("import killed with SIGKILL at random moments: the logbook is whole, holds whole files only, and a rerun gives the uninterrupted logbook")
    func killedImport() throws {
        let reference = try Self.reference.get()
        let dir = try Paths.temporaryDirectory()
        // Four kills, the k-th at a random moment in the k-th quarter of what an uninterrupted
        // import takes (the binary's start, and the batch as this process imported it), each
        // on a logbook of its own, then the import run again to its end.
        let duration = 0.05 + reference.duration
        var hits: [Int] = []
        for k in 0..<4 {
            let db = dir + "/killed-\(k).sqlite"
            let run = try Umilog(["import"] + Self.batch + ["--db", db, "-q"], in: dir)
            usleep(UInt32(duration * (Double(k) + Double.random(in: 0..<1)) / 4 * 1_000_000))
            let cut = run.kill()
            if FileManager.default.fileExists(atPath: db) {
                let log = try TemporaryLogbook(opening: db)
                #expect(try log.store.check().isEmpty)
                // Whole files only: the state after some number of the batch's files.
                let state = try Self.state(of: log)
                let files = reference.states.firstIndex(of: state)
                #expect(files != nil, "kill \(k) left a state no prefix of the batch gives")
                if cut, let files { hits.append(files) }
            }
            let rerun = try Umilog(["import"] + Self.batch + ["--db", db, "-q"], in: dir).wait()
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let log = try TemporaryLogbook(opening: db)
            #expect(try log.store.check().isEmpty)
            #expect(try Self.state(of: log) == reference.states.last, "kill \(k): the rerun differs from the uninterrupted import")
        }
        print("killed import: \(hits.count) of 4 kills cut a run short, after files \(hits) of \(Self.batch.count)")
    }

    @Test("two imports at once of overlapping batches end with every dive once, the same logbook as one import gives")
    func overlappingImports() throws {
        // Without the pair: which of two copies of one dive is read first would decide which
        // is kept, and so the logbook would depend on the order.
        let files = Self.batch.filter { !$0.contains("/pair/") }
        let dir = try Paths.temporaryDirectory()
        let db = dir + "/both.sqlite"
        let third = max(1, files.count / 3)
        let a = try Umilog(["import"] + files.prefix(files.count - third) + ["--db", db, "-q"], in: dir)
        let b = try Umilog(["import"] + files.suffix(files.count - third).reversed() + ["--db", db, "-q"], in: dir)
        let (ra, rb) = (a.wait(), b.wait())
        #expect(ra.status == 0, "\(ra.stderr)")
        #expect(rb.status == 0, "\(rb.stderr)")
        let log = try TemporaryLogbook(opening: db)
        #expect(try log.store.check().isEmpty)
        let expected = try TemporaryLogbook()
        #expect(expected.store.importLogbooks(files).exitCode == 0)
        #expect(try log.count("dive") == expected.count("dive"))
        // Every dive once: the same dives, by when they started and how deep they went. Which
        // file's copy of a dive two files share is kept (and so its rows and provenance)
        // depends on which import reached it first, so those are not compared here; the
        // killed-import tests compare them for one import at a time.
        let dives = "SELECT ifnull(start_key, '') || '|' || ifnull(max_depth, '') FROM dive ORDER BY 1"
        #expect(try log.store.read { try String.fetchAll($0, sql: dives) } == expected.store.read { try String.fetchAll($0, sql: dives) })
    }

    @Test("stats and export during an import see the logbook before or after some file, never part of one")
    func readersDuringImport() throws {
        let reference = try Self.reference.get()
        let dir = try Paths.temporaryDirectory()
        let db = dir + "/read.sqlite"
        #expect(try Self.run(["db", "init", "--db", db]).status == 0)
        let counts = Set(reference.dives.map(\.count))
        let importing = try Umilog(["import"] + Self.batch + ["--db", db, "-q"], in: dir)
        var seen: [Int] = []
        var last = false
        while !last {
            last = !importing.process.isRunning
            let stats = try Self.run(["stats", "--db", db, "--json"])
            #expect(stats.status == 0, "\(stats.stderr)")
            let figures = try JSONSerialization.jsonObject(with: stats.stdout) as? [String: Any]
            let dives = try #require(figures?["dives"] as? Int)
            #expect(counts.contains(dives), "stats saw \(dives) dives")
            let export = try Self.run(["export", "--db", db, "--to", "json", "-q"])
            #expect(export.status == 0, "\(export.stderr)")
            let document = try JSONSerialization.jsonObject(with: export.stdout) as? [String: Any]
            let ids = Set((document?["dives"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String })
            #expect(reference.dives.contains(ids), "export saw \(ids.count) dives that no prefix of the batch gives")
            seen.append(dives)
        }
        #expect(importing.wait().status == 0)
        #expect(seen.last == reference.dives.last?.count)
        print("readers during import: stats saw \(seen)")
    }
}
