import DiveCore
import DiveCSV
import DiveKit
import Foundation
import GRDB

/// What to do with a dive that is the same dive as one already in the logbook, from another
/// source (another computer, another program's export).
public enum DuplicatePolicy: String, Sendable, CaseIterable {
    /// Leave the logbook's dive as it is.
    case skip
    /// Add the new source's recordings, tanks and gases, and what the logbook's dive lacks, to it.
    case merge
    /// Import it as a dive of its own.
    case keep
}

/// How close two dives from different sources must be to be the same dive.
public struct DuplicateTolerance: Sendable, Hashable {
    /// Start times (wall clock) at most this far apart, seconds: two computers' clocks drift.
    public var start = 15 * 60
    /// Durations within this many seconds, or this fraction of the longer.
    public var durationSeconds = 180
    /// Or durations within this fraction of the longer.
    public var durationFraction = 0.2
    /// Maximum depths within this many metres, or this fraction of the deeper.
    public var depthMetres = 1.5
    /// Or maximum depths within this fraction of the deeper.
    public var depthFraction = 0.1
    /// The tolerances `umilog import` uses: 15 minutes, 180 s or 20 %, 1.5 m or 10 %.
    public init() {}
}

/// How ``LogbookStore/importLogbooks(_:options:)`` imports.
public struct ImportOptions: Sendable {
    /// What to do with a dive another source already brought (`--on-duplicate`).
    public var onDuplicate: DuplicatePolicy = .skip
    /// Import every file in a transaction that is rolled back: the report is the plan.
    public var dryRun = false
    /// What a CSV input does not say (date order, a profile's start, column meanings).
    public var csv = CSVReadOptions()
    /// How close two dives from different sources must be to be the same dive.
    public var tolerance = DuplicateTolerance()
    /// Reports how far the import has got (bytes read, dives), for a progress line.
    public var progress: JobProgress?
    /// Options with the command line's defaults: duplicates skipped, dives written, CSV options defaulted.
    public init(onDuplicate: DuplicatePolicy = .skip, dryRun: Bool = false, csv: CSVReadOptions = CSVReadOptions()) {
        self.onDuplicate = onDuplicate; self.dryRun = dryRun; self.csv = csv
    }
}

/// What happened (or, in a dry run, would happen) to one dive of a file.
public enum DiveOutcome: Sendable, Hashable {
    /// A new dive in the logbook.
    case inserted
    /// The file's dive is already in the logbook (the same file, or the same dive by id).
    case alreadyImported(existing: String)
    /// The same dive as `existing`, from another source: skipped, merged into it, or kept apart.
    case duplicate(existing: String, label: String, policy: DuplicatePolicy)
}

/// One dive of a file and what the import did (or, in a dry run, would do) with it.
public struct DivePlan: Sendable, Hashable {
    /// The dive's id: the file's, or one of its own when that id is another dive's.
    public var diveID: String
    /// When it started, as DiveJSON writes it (`2024-03-02T09:15:00+02:00`), when known.
    public var start: String?
    /// Its place among the file's dives, from 0.
    public var index: Int
    /// What became of it.
    public var outcome: DiveOutcome
}

/// One input file's result.
public struct FileImport: Sendable {
    /// What became of the file as a whole.
    public enum Status: Sendable {
        /// Read and imported (or planned): its dives' outcomes are in ``dives``.
        case imported
        /// Not a dive log umilog recognises.
        case skipped(DiveError)
        /// A dive log in a format umilog does not read yet.
        case unsupported(format: String, DiveError)
        /// The file could not be imported; nothing of it was.
        case failed(DiveError)
    }
    /// The file as it was named (found in a directory walk: with the directory's path).
    public var path: String
    /// The format it was read as; `nil` when it was not read.
    public var format: FileFormat?
    /// Imported, skipped, unsupported or failed.
    public var status: Status
    /// Its dives' outcomes, in file order (empty unless imported).
    public var dives: [DivePlan] = []
    /// What the reader and the logbook could not carry of it, located.
    public var findings: [Finding] = []
}

/// The result of an import: every file, and the totals a summary gives.
public struct ImportReport: Sendable {
    /// Every file, in the order it was imported (directories walked in name order).
    public var files: [FileImport] = []
    /// True when nothing was written (``ImportOptions/dryRun``).
    public var dryRun = false

    /// Dives added to the logbook as new dives (a duplicate kept apart counts among ``duplicates``).
    public var inserted: Int { count { if case .inserted = $0 { true } else { false } } }
    /// Dives the logbook had already: the same file, or the same dive by id.
    public var alreadyImported: Int { count { if case .alreadyImported = $0 { true } else { false } } }
    /// Dives found to be a dive the logbook has from another source, whatever the policy did.
    public var duplicates: Int { count { if case .duplicate = $0 { true } else { false } } }
    /// Duplicates merged into the logbook's dive.
    public var merged: Int { count { if case .duplicate(_, _, .merge) = $0 { true } else { false } } }
    /// The files that could not be imported (nothing of each was).
    public var failed: [FileImport] { files.filter { if case .failed = $0.status { true } else { false } } }
    /// The files that are not dive logs umilog recognises.
    public var skipped: [FileImport] { files.filter { if case .skipped = $0.status { true } else { false } } }
    /// The dive logs in formats umilog recognises but does not read yet.
    public var unsupported: [FileImport] { files.filter { if case .unsupported = $0.status { true } else { false } } }
    /// 1 when a file failed, else 0.
    /// 1 when a file failed or a finding says a dive was not carried at all.
    public var exitCode: Int32 { failed.isEmpty && lostDives == 0 ? 0 : 1 }
    /// Dives the files' findings say were not carried at all.
    public var lostDives: Int { files.reduce(0) { $0 + $1.findings.reduce(0) { $0 + $1.lostDives } } }

    private func count(_ match: (DiveOutcome) -> Bool) -> Int {
        files.reduce(0) { $0 + $1.dives.count { match($0.outcome) } }
    }
}

extension LogbookStore {
    /// Imports dive logs — files, and directories walked recursively — each file in one
    /// transaction: all of its dives or none. Importing a file again adds nothing; a dive that
    /// another source already brought is handled by `options.onDuplicate`. With
    /// `options.dryRun`, every file is imported in a transaction that is rolled back, so the
    /// plan is exactly what an import would do.
    public func importLogbooks(_ inputs: [String], options: ImportOptions = ImportOptions()) -> ImportReport {
        var report = ImportReport()
        report.dryRun = options.dryRun
        var files: [String] = []
        for input in inputs {
            if isDirectory(input) { files += walk(input) } else { files.append(input) }
        }
        let meter = ProgressMeter.make(options.progress, files: files)
        defer { meter?.finish() }
        /// One file, with what it reads counted.
        func importOne(_ file: String, within db: Database?) -> FileImport {
            meter?.beginFile(file)
            defer { meter?.endFile() }
            return ProgressMeter.measuring(meter) { importFile(file, options: options, within: db) }
        }
        if options.dryRun {
            // One transaction around every file (each in a savepoint), rolled back at the end:
            // the plan for a file sees what the files before it would have added.
            do {
                try pool.writeWithoutTransaction { db in
                    try db.inTransaction {
                        for file in files { report.files.append(importOne(file, within: db)) }
                        return .rollback
                    }
                }
            } catch {
                report.files.append(FileImport(path: self.path, format: nil, status: .failed(DiveError("store.write", "the dry run could not run: \(error)", at: SourceLocation(file: self.path)))))
            }
        } else {
            for file in files { report.files.append(importOne(file, within: nil)) }
        }
        return report
    }

    /// Imports one file in a transaction of its own, or in a savepoint of `outer`.
    func importFile(_ path: String, options: ImportOptions, within outer: Database?) -> FileImport {
        var result = FileImport(path: path, format: nil, status: .imported)
        let format: FileFormat
        do {
            switch try classifyFile(path, csv: options.csv) {
            case .readable(let f): format = f
            case .unsupported(let name, let e): result.status = .unsupported(format: name, e); return result
            case .notADiveLog(let e): result.status = .skipped(e); return result
            }
        } catch let e as DiveError {
            result.status = .failed(e)
            return result
        } catch {
            result.status = .failed(DiveError("io.read", "\(error)", at: SourceLocation(file: path)))
            return result
        }
        result.format = format
        do {
            // The dives are read on another core from now on, while the file is hashed here: a
            // file whose bytes the logbook has already is not read further (dropping the reader
            // stops it), and a new one's first dives are ready when its transaction starts.
            let reader = ReadAhead(try openReader(path: path, format: format, displayName: path, csv: options.csv))
            // Hashing reads the file once more: progress counts the reading of its dives.
            let digest = try ProgressMeter.measuring(nil) { try fileDigest(path) }
            func work(_ db: Database) throws {
                var run = FileRun(db: db, path: path, reader: reader, format: format, digest: digest, options: options, limits: limits)
                do {
                    try run.run()
                    result.dives = run.plans
                    result.findings = run.findings
                } catch {
                    result.findings = run.findings
                    throw error
                }
            }
            if let outer {
                try outer.inSavepoint { try work(outer); return .commit }
            } else {
                try pool.writeWithoutTransaction { db in try db.inTransaction { try work(db); return .commit } }
            }
        } catch let e as DiveError where e.code == "format.not-a-dive-log" {
            result.status = .skipped(e)
            result.dives = []
        } catch let e as DiveError {
            result.status = .failed(e)
            result.dives = []
        } catch let e as DatabaseError where e.resultCode == .SQLITE_TOOBIG {
            // A row larger than the writer takes, though each of its values fits.
            result.status = .failed(DiveError("store.value-too-long", "a row of the file is larger than the \(limits.valueBytes) bytes the logbook takes in one row; nothing of the file was imported", at: SourceLocation(file: path)))
            result.dives = []
        } catch let e as DatabaseError {
            result.status = .failed(DiveError("store.write", "the logbook refused the file's dives: \(e.message ?? e.description); nothing of the file was imported", at: SourceLocation(file: path)))
            result.dives = []
        } catch {
            result.status = .failed(DiveError("io.read", "\(error)", at: SourceLocation(file: path)))
            result.dives = []
        }
        return result
    }

    private func fileDigest(_ path: String) throws -> (sha256: String, size: Int) {
        let file = try InputFile(path: path, displayName: path)
        var hash = SHA256()
        var size = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = try file.read(into: buffer)
            if n == 0 { break }
            size += n
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return (hash.finish(), size)
    }
}

/// One file's import inside its transaction.
struct FileRun {
    let db: Database
    let path: String
    /// The file's dives, read ahead on another thread.
    let reader: any DiveSource
    let format: FileFormat
    let digest: (sha256: String, size: Int)
    let options: ImportOptions
    let limits: StoreLimits
    var plans: [DivePlan] = []
    var findings: [Finding] = []
    /// The file's own row in `source_file`, once a dive is recorded as coming from it.
    private var ownSourceID: Int64?
    /// The logbook's dives the file's dives went to so far: none is another's duplicate.
    private var placed: Set<String> = []
    /// Where the dive being placed is in the file, for an error that stops the file there.
    private var current: SourceLocation?

    init(db: Database, path: String, reader: any DiveSource, format: FileFormat, digest: (sha256: String, size: Int), options: ImportOptions, limits: StoreLimits = .standard) {
        self.db = db; self.path = path; self.reader = reader; self.format = format; self.digest = digest; self.options = options; self.limits = limits
    }

    /// Imports the file; a value too large for the logbook is an error at the dive that holds it.
    mutating func run() throws {
        do {
            try runFile()
        } catch let e as ValueTooLarge {
            throw e.located(current ?? SourceLocation(file: path))
        }
    }

    private mutating func runFile() throws {
        // The same bytes imported before: their dives are all in the logbook already, and the
        // file need not be read again.
        if let known = try Int64.fetchOne(db, sql: """
            SELECT id FROM source_file WHERE sha256 = ?
              AND (records IS NULL OR records <= (SELECT count(*) FROM dive_source WHERE source_file_id = source_file.id))
            """, arguments: [digest.sha256]) {
            plans = try Row.fetchAll(db, sql: """
                SELECT s.record_index, s.dive_id, d.date, d.start_time, d.utc_offset FROM dive_source s JOIN dive d ON d.id = s.dive_id
                WHERE s.source_file_id = ? ORDER BY s.record_index
                """, arguments: [known]).map { r in
                let id: String = r["dive_id"]
                return DivePlan(diveID: id, start: RowReader.start(date: r["date"], time: r["start_time"], offset: r["utc_offset"])?.description,
                                index: r["record_index"], outcome: .alreadyImported(existing: id))
            }
            ProgressMeter.current?.dive(plans.count)
            return
        }
        var index = 0
        var writer: RowWriter?
        while let dive = try reader.next() {
            findings += reader.takeFindings()
            // Moved out and back, so that its sets and lists are not copied for every dive.
            var w = try writer ?? newWriter(reader.header)
            writer = nil
            w.header = reader.header
            current = SourceLocation(file: path, line: dive.provenance?.line, path: dive.sourcePath(else: index))
            plans.append(try place(dive, index: index, writer: &w))
            ProgressMeter.current?.dive()
            writer = w
            index += 1
        }
        current = nil
        findings += reader.takeFindings()
        var w = try writer ?? newWriter(reader.header)
        w.header = reader.header
        try w.allRecords()
        findings += w.findings
        // A file with no dives is recorded all the same: importing it again reads nothing.
        if index == 0 { _ = try ownSource(reader.header) }
        if let ownSourceID {
            try db.write("UPDATE source_file SET records = ? WHERE id = ?", [index, ownSourceID])
        }
    }

    /// `text`, or nil (reported) when it is longer than a column takes.
    private mutating func fitting(_ text: String?, _ what: String) -> String? {
        guard let text, text.utf8.count > limits.textBytes else { return text }
        findings.append(Finding(.dropped, "store.value-too-long", "\(what): \(text.utf8.count) bytes of text, more than the \(limits.textBytes) the logbook keeps in one text; left out",
                                at: SourceLocation(file: path, path: "generator")))
        return nil
    }

    /// The writer of the file's rows, with the files a umilog export lists restored.
    private mutating func newWriter(_ header: LogbookHeader) throws -> RowWriter {
        var writer = RowWriter(db: db, header: header, file: path, textBytes: limits.textBytes)
        writer.restoredFiles = try restoreSourceFiles(header)
        return writer
    }

    /// The file's row in `source_file` (the same bytes are the same file, whatever its name),
    /// added the first time one of its dives is recorded as coming from it.
    private mutating func ownSource(_ header: LogbookHeader) throws -> Int64 {
        if let ownSourceID { return ownSourceID }
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM source_file WHERE sha256 = ?", arguments: [digest.sha256]) {
            ownSourceID = id
            return id
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        try db.write("INSERT INTO source_file (sha256, name, format, generator, generator_version, size) VALUES (?, ?, ?, ?, ?, ?)",
                     [digest.sha256, name, header.sourceFormat ?? format.rawValue, fitting(header.sourceGenerator?.name, "the generator's name"),
                      fitting(header.sourceGenerator?.version, "the generator's version"), digest.size])
        ownSourceID = db.lastInsertedRowID
        return db.lastInsertedRowID
    }

    /// The files a umilog export lists as its dives' sources (``LogbookState``), added to the
    /// logbook where it lacks them (with how many records each holds, so that a file whose
    /// records the logbook does not all get is read when it is imported): their ids by digest.
    private mutating func restoreSourceFiles(_ header: LogbookHeader) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for (k, v) in (LogbookState.members(of: header.extensions)["source_files"]?.elements ?? []).enumerated() {
            let at = SourceLocation(file: path, path: "extensions/umilog/source_files/\(k)")
            guard let f = LogbookState.SourceFile(v) else {
                findings.append(Finding(.dropped, "store.state-unresolved", "source file \(k + 1) of the document's umilog entry lacks its digest, name, format or size; left out", at: at))
                continue
            }
            guard f.sha256 != digest.sha256 else {
                findings.append(Finding(.dropped, "store.state-unresolved", "source file \(k + 1) of the document's umilog entry is the document itself; left out", at: at))
                continue
            }
            try db.write("INSERT OR IGNORE INTO source_file (sha256, name, format, generator, generator_version, size, records) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [f.sha256, f.name, f.format, f.generator, f.generatorVersion, f.size, f.records])
            ids[f.sha256] = try Int64.fetchOne(db, sql: "SELECT id FROM source_file WHERE sha256 = ?", arguments: [f.sha256])
        }
        return ids
    }

    /// The sources a umilog export gives the dive, with the logbook ids of their files;
    /// those naming no file the document lists are reported and left out.
    private mutating func sources(in state: [String: ExtensionValue], of dive: Dive, writer: RowWriter) -> [(file: Int64, record: LogbookState.DiveSourceRecord)] {
        var out: [(Int64, LogbookState.DiveSourceRecord)] = []
        for v in state["sources"]?.elements ?? [] {
            guard let s = LogbookState.DiveSourceRecord(v), let file = writer.restoredFiles[s.sha256] else {
                unresolved(dive, "a source of the dive names no file the document lists; left out")
                continue
            }
            out.append((file, s))
        }
        return out
    }

    private mutating func unresolved(_ dive: Dive, _ message: String, code: String = "store.state-unresolved") {
        findings.append(Finding(.dropped, code, message, at: SourceLocation(file: path, line: dive.provenance?.line, path: dive.sourcePath(else: 0) + "/extensions/umilog")))
    }

    private func restore(_ sources: [(file: Int64, record: LogbookState.DiveSourceRecord)], to id: String) throws {
        for (file, s) in sources {
            try db.write("INSERT OR IGNORE INTO dive_source (dive_id, source_file_id, record_index, record_id, line, source_uuid) VALUES (?, ?, ?, ?, ?, ?)",
                         [id, file, s.index, s.recordID, s.line, s.sourceUUID])
        }
    }

    /// Places the dive, and restores what a umilog export says of it.
    ///
    /// A dive that carries its own sources (`umilog.sources` naming files the document lists)
    /// is restored with exactly those, and this file is not recorded as a source of it: the
    /// file gets its own `source_file` row only for the dives that carry none. A source is
    /// restored only with what it brought: the sources of a dive that was inserted or merged,
    /// never those of a dive left as the logbook had it (importing their file later brings what
    /// they hold).
    private mutating func place(_ original: Dive, index: Int, writer: inout RowWriter) throws -> DivePlan {
        var dive = original
        let state = LogbookState.take(&dive.extensions, of: .dive)
        let sources = sources(in: state, of: dive, writer: writer)
        let plan: DivePlan
        if sources.isEmpty {
            let source = try ownSource(writer.header)
            plan = try decide(dive, index: index, source: source, files: [], writer: &writer)
            try restoreStatus(state, of: dive, plan: plan)
        } else if let here = try known(sources) {
            plan = try placeKnown(dive, in: here.dive, missing: here.missing, index: index, writer: &writer)
            try keepStatus(state, of: dive, in: here.dive)
        } else {
            plan = try decide(dive, index: index, source: nil, files: sources.map(\.file), writer: &writer)
            switch plan.outcome {
            case .inserted, .duplicate(_, _, .keep), .duplicate(_, _, .merge): try restore(sources, to: plan.logbookDive)
            case .alreadyImported, .duplicate(_, _, .skip): break
            }
            try restoreStatus(state, of: dive, plan: plan)
        }
        placed.insert(plan.logbookDive)
        return plan
    }

    /// The logbook's dive one of `sources` already came to (the dive is here, whole or in
    /// part), and the sources it lacks; nil when it has none of them.
    private func known(_ sources: [(file: Int64, record: LogbookState.DiveSourceRecord)]) throws
        -> (dive: String, missing: [(file: Int64, record: LogbookState.DiveSourceRecord)])? {
        var here: String?
        var missing: [(file: Int64, record: LogbookState.DiveSourceRecord)] = []
        for s in sources {
            if let d = try String.fetchOne(db, sql: "SELECT dive_id FROM dive_source WHERE source_file_id = ? AND record_index = ?", arguments: [s.file, s.record.index]) {
                here = here ?? d
            } else {
                missing.append(s)
            }
        }
        return here.map { ($0, missing) }
    }

    /// The status a umilog export gives the dive: set on a dive it made (inserted, or kept
    /// apart), else reported where the logbook's dive has another.
    private mutating func restoreStatus(_ state: [String: ExtensionValue], of dive: Dive, plan: DivePlan) throws {
        switch plan.outcome {
        case .inserted, .duplicate(_, _, .keep):
            guard let status = state["status"]?.string else { return }
            if LogbookState.statuses.contains(status) {
                try db.write("UPDATE dive SET status = ? WHERE id = ?", [status, dive.uuid])
            } else {
                unresolved(dive, "the status \"\(status)\" is not new, matched, unmatched or pending; left out")
            }
        case .alreadyImported(let existing), .duplicate(let existing, _, _):
            try keepStatus(state, of: dive, in: existing)
        }
    }

    /// Reports a status the export gives a dive the logbook already has with another.
    private mutating func keepStatus(_ state: [String: ExtensionValue], of dive: Dive, in id: String) throws {
        let status = state["status"]?.string ?? "new"
        guard !state.isEmpty, let current = try String.fetchOne(db, sql: "SELECT status FROM dive WHERE id = ?", arguments: [id]), current != status else { return }
        unresolved(dive, "the dive is \(status) in the file, \(current) in the logbook; the logbook's is kept (umilog backfill decides it again)", code: "store.state-kept")
    }

    /// A dive of a umilog export some of whose sources the logbook's dive `id` already has:
    /// already imported when it has them all, else a duplicate whose other sources' recordings
    /// `merge` adds.
    private mutating func placeKnown(_ dive: Dive, in id: String, missing: [(file: Int64, record: LogbookState.DiveSourceRecord)],
                                     index: Int, writer: inout RowWriter) throws -> DivePlan {
        var plan = DivePlan(diveID: dive.uuid, start: dive.startedAt?.description, index: index, outcome: .alreadyImported(existing: id))
        if !missing.isEmpty {
            let label = try Row.fetchOne(db, sql: "SELECT number, date, start_time FROM dive WHERE id = ?", arguments: [id]).map(Duplicates.label) ?? id
            plan.outcome = .duplicate(existing: id, label: label, policy: options.onDuplicate)
            if options.onDuplicate == .merge {
                // Only the recordings of the sources the logbook's dive lacks.
                let files = Set(try missing.map { m in try String.fetchOne(db, sql: "SELECT sha256 FROM source_file WHERE id = ?", arguments: [m.file]) })
                var part = dive
                part.recordings = dive.recordings.filter { r in
                    LogbookState.members(of: r.extensions)["source_file"]?.string.map { files.contains($0) } ?? false
                }
                let resolved = try writer.resolveReferences(part)
                try Merge(db: db).merge(resolved, into: id, source: nil, writer: &writer)
                try restore(missing, to: id)
            }
        }
        return plan
    }

    /// Where the dive goes: inserted, known already, or a duplicate handled by the policy. It is
    /// recorded as record `index` of `source`, this file (nil for a dive restored from its own
    /// sources, `files`: no dive that came from them is its duplicate).
    private mutating func decide(_ dive: Dive, index: Int, source: Int64?, files: [Int64], writer: inout RowWriter) throws -> DivePlan {
        var dive = dive
        var plan = DivePlan(diveID: dive.uuid, start: dive.startedAt?.description, index: index, outcome: .inserted)
        if let source, let existing = try String.fetchOne(db, sql: "SELECT dive_id FROM dive_source WHERE source_file_id = ? AND record_index = ?", arguments: [source, index]) {
            plan.outcome = .alreadyImported(existing: existing)
            return plan
        }
        // A uuid that only says where the dive lies in its file (Subsurface's dives, UDDF's
        // without an id) is no identity beyond the file: the first dive of another file has it
        // too. Such a dive is never known by it; where the logbook has a dive of that uuid, it
        // gets one of this file's own (the file's digest and the dive's place), and whether it
        // is a dive the logbook has is for the duplicate check below, by content.
        if dive.provenance?.positionalIdentity == true {
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM dive WHERE id = ?)", arguments: [dive.uuid]) == true {
                dive.uuid = Identity.uuid5(namespace: dive.uuid, name: "file:\(digest.sha256)")
                plan.diveID = dive.uuid
            }
        } else if let existing = try Self.logbookDive(knownAs: dive.uuid, in: db) {
            // An id names one dive; the logbook's dive of that id starting at another time is
            // not it (two files converted one by one from a format that records no id share
            // their first dive's). This one gets an id of its own and goes on to the duplicate
            // check by content. (An id the logbook keeps as a source of one of its dives is
            // that dive's, whatever its time: the import that recorded it decided so.)
            if existing == dive.uuid, let other = try collision(dive, with: existing) {
                let id = dive.uuid
                dive.uuid = Identity.uuid5(namespace: id, name: "file:\(digest.sha256)#\(index)")
                plan.diveID = dive.uuid
                findings.append(Finding(.resolved, "store.id-collision",
                    "the dive's id \(id) is that of the logbook's dive \(other), which starts at another time; it is imported under an id of its own",
                    at: current ?? SourceLocation(file: path)))
            } else {
                try recordSource(dive: existing, source: source, index: index, from: dive)
                plan.outcome = .alreadyImported(existing: existing)
                return plan
            }
        }
        if let match = try Duplicates.find(dive, files: files + (source.map { [$0] } ?? []), placed: placed, tolerance: options.tolerance, db: db) {
            plan.outcome = .duplicate(existing: match.id, label: match.label, policy: options.onDuplicate)
            switch options.onDuplicate {
            case .skip:
                try recordSource(dive: match.id, source: source, index: index, from: dive)
                return plan
            case .merge:
                let resolved = try writer.resolveReferences(dive)
                try Merge(db: db).merge(resolved, into: match.id, source: source, writer: &writer)
                try recordSource(dive: match.id, source: source, index: index, from: dive)
                return plan
            case .keep:
                break
            }
        }
        let resolved = try writer.resolveReferences(dive)
        try writer.insert(resolved, source: source)
        try recordSource(dive: dive.uuid, source: source, index: index, from: dive)
        return plan
    }

    /// The logbook's dive a dive of id `uuid` is: the dive of that id, or the one that id is
    /// kept for as a source (an import recorded it so).
    static func logbookDive(knownAs uuid: String, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: """
            SELECT id FROM dive WHERE id = ? UNION ALL SELECT dive_id FROM dive_source WHERE source_uuid = ? LIMIT 1
            """, arguments: [uuid, uuid])
    }

    /// The logbook's dive `existing` as a plan names it, when `dive` has its id but starts more
    /// than the duplicate tolerance away from it (both with a time of day): not the same dive.
    private func collision(_ dive: Dive, with existing: String) throws -> String? {
        guard let start = dive.startedAt, start.time != nil,
              let row = try Row.fetchOne(db, sql: "SELECT number, date, start_time, start_key FROM dive WHERE id = ?", arguments: [existing]),
              let key: Int = row["start_key"], (row["start_time"] as String?) != nil,
              abs(key - start.wallClockSeconds) > options.tolerance.start else { return nil }
        return Duplicates.label(row)
    }

    /// Records record `index` of `source` as a source of the logbook's dive (nothing when
    /// `source` is nil: a dive restored from its own sources).
    /// A uuid that only says where the dive lies in its file is kept as no source's identity:
    /// another file's dive at that place has it too, and a backup restoring it would take that
    /// dive for this one.
    private func recordSource(dive: String, source: Int64?, index: Int, from d: Dive) throws {
        guard let source else { return }
        let identity = d.uuid == dive || d.provenance?.positionalIdentity == true ? nil : d.uuid
        try db.write("INSERT INTO dive_source (dive_id, source_file_id, record_index, record_id, line, source_uuid) VALUES (?, ?, ?, ?, ?, ?)",
                     [dive, source, index, d.provenance?.sourceID, d.provenance?.line, identity])
    }
}

extension DivePlan {
    /// The logbook's dive this dive went to: itself when inserted or kept apart, else the dive
    /// it is.
    var logbookDive: String {
        switch outcome {
        case .inserted, .duplicate(_, _, .keep): diveID
        case .alreadyImported(let existing), .duplicate(let existing, _, _): existing
        }
    }
}
