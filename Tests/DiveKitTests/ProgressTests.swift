import Foundation
import Testing
@testable import DiveKit
import TestSupport

/// What a job's progress callback hears, collected (the callback is `@Sendable`).
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [ProgressSnapshot] = []
    var snapshots: [ProgressSnapshot] { lock.withLock { list } }
    /// A callback reporting every change (no interval), into this.
    var progress: JobProgress { JobProgress(interval: 0) { s in self.lock.withLock { self.list.append(s) } } }
}

@Suite struct ProgressTests {
    /// Bytes only ever go up, the last report is the only finished one, and it has all of them.
    func checkMonotonic(_ heard: [ProgressSnapshot], total: Int) throws {
        let last = try #require(heard.last)
        #expect(last.finished)
        #expect(heard.dropLast().allSatisfy { !$0.finished })
        #expect(zip(heard, heard.dropFirst()).allSatisfy { $0.bytesRead <= $1.bytesRead && $0.dives <= $1.dives })
        #expect(last.bytesTotal == total)
        #expect(last.bytesRead == total)
    }

    @Test("convert reports a big file's bytes as it streams them, rising to its size, and its dives")
    func convertStreams() throws {
        let file = Paths.samples + "/logbook.uddf"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(size > 1 << 16)  // more than one of the XML reader's chunks
        let heard = Heard()
        var options = ConvertOptions(to: .csv, output: "/dev/null")
        options.progress = heard.progress
        let report = convert(inputs: [file], options: options, standardOutput: MemorySink())
        let snapshots = heard.snapshots
        try checkMonotonic(snapshots, total: size)
        // A part-way report, not only the first and the last.
        #expect(snapshots.contains { $0.bytesRead > 0 && $0.bytesRead < size }, "\(snapshots.map(\.bytesRead))")
        #expect(snapshots.last?.dives == report.inputs[0].dives)
        #expect(snapshots.last?.filesDone == 1)
    }

    @Test("a reader of a mapped file (DiveJSON) reports how far it got")
    func mappedFile() throws {
        let dir = try Paths.temporaryDirectory()
        let json = dir + "/log.json"
        var options = ConvertOptions(to: .json, output: json)
        options.exportedAt = "2024-01-01T00:00:00Z"
        #expect(!convert(inputs: [Paths.samples + "/logbook.uddf"], options: options, standardOutput: MemorySink()).failed)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: json)[.size] as? Int)
        let heard = Heard()
        var back = ConvertOptions(to: .csv, output: "/dev/null")
        back.progress = heard.progress
        _ = convert(inputs: [json], options: back, standardOutput: MemorySink())
        try checkMonotonic(heard.snapshots, total: size)
    }

    @Test("validate over a directory counts every file walked, skipped ones too")
    func validateDirectory() throws {
        let dir = Paths.samples + "/pair"
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        let total = try files.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: dir + "/" + $1)[.size] as! Int) }
        let heard = Heard()
        var options = ValidateOptions()
        options.progress = heard.progress
        _ = validate(paths: [dir], options: options)
        try checkMonotonic(heard.snapshots, total: total)
        #expect(heard.snapshots.last?.filesTotal == files.count)
        #expect(heard.snapshots.last?.filesDone == files.count)
    }

    @Test("no callback, nothing counted: a reader opened outside a job has no meter")
    func noMeter() {
        #expect(ProgressMeter.current == nil)
        #expect(ProgressMeter.make(nil, files: [Paths.samples + "/logbook.uddf"]) == nil)
    }

    @Test("standard input has no size: the total is unknown, the line says only what was read")
    func unknownTotal() {
        var s = ProgressSnapshot()
        s.bytesRead = 2_500_000
        s.dives = 12
        s.elapsed = 2
        #expect(TerminalText.progressLine(s, width: 80) == "2.5 MB, 12 dives, 6 dives/s")
    }

    @Test("the progress line: files, bytes of the total, dives, rate, ETA, the file's name; cut to the width")
    func progressLine() {
        var s = ProgressSnapshot()
        s.filesDone = 2; s.filesTotal = 12
        s.bytesRead = 41_200_000; s.bytesTotal = 120_500_000
        s.dives = 310
        s.elapsed = 5
        s.file = "logs/2024/trip.uddf"
        // 8.24 MB/s; 79.3 MB left take 9.6 s.
        #expect(TerminalText.progressLine(s, width: 200) == "3/12 files, 41.2 of 120.5 MB, 310 dives, 8.2 MB/s, ETA 0:10, trip.uddf")
        let cut = TerminalText.progressLine(s, width: 30)
        #expect(cut.count == 29 && cut.hasSuffix("…"))
        // Every byte read, dives still coming (a reader that scanned the file first): no ETA.
        s.bytesRead = 120_500_000
        #expect(TerminalText.progressLine(s, width: 200) == "3/12 files, 120.5 of 120.5 MB, 310 dives, 62 dives/s, trip.uddf")
        var export = ProgressSnapshot()
        export.dives = 50; export.divesTotal = 200; export.elapsed = 2; export.filesTotal = 1
        #expect(TerminalText.progressLine(export, width: 80) == "50 of 200 dives, 25 dives/s, ETA 0:06")
    }

    @Test("a severity is coloured where a located line names it, nowhere else")
    func paint() {
        #expect(TerminalText.paint("a.uddf:3:7: error[uddf.schema]: bad") == "a.uddf:3:7: \u{1B}[1;31merror[uddf.schema]\u{1B}[0m: bad")
        #expect(TerminalText.paint("a.csv:2: warning[csv.x]: the error[y] in a message") == "a.csv:2: \u{1B}[33mwarning[csv.x]\u{1B}[0m: the error[y] in a message")
        #expect(TerminalText.paint("a.fit: dropped[fit.field]: x") == "a.fit: \u{1B}[36mdropped[fit.field]\u{1B}[0m: x")
        #expect(TerminalText.paint("  … and 4 more resolved[csv.unit]") == "  … and 4 more \u{1B}[36mresolved[csv.unit]\u{1B}[0m")
        #expect(TerminalText.paint("error[conform.shape]: x") == "\u{1B}[1;31merror[conform.shape]\u{1B}[0m: x")
        #expect(TerminalText.paint("status: dive 3 2024-01-01: pending") == "status: dive 3 2024-01-01: pending")
        #expect(TerminalText.paint("my-error[x] and no colon") == "my-error[x] and no colon")
    }

    @Test("NO_COLOR set and not empty forbids colour; unset or empty allows it")
    func noColor() {
        #expect(TerminalText.colourAllowed(noColor: nil))
        #expect(TerminalText.colourAllowed(noColor: ""))
        #expect(!TerminalText.colourAllowed(noColor: "1"))
        #expect(!TerminalText.colourAllowed(noColor: "0"))
    }
}
