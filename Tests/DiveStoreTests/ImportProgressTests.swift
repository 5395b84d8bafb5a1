import DiveKit
@testable import DiveStore
import Foundation
import Testing
import TestSupport

/// What a progress callback hears, collected (the callback is `@Sendable`).
private final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [ProgressSnapshot] = []
    var snapshots: [ProgressSnapshot] { lock.withLock { list } }
    var progress: JobProgress { JobProgress(interval: 0) { s in self.lock.withLock { self.list.append(s) } } }
}

@Suite struct ImportProgressTests {
    @Test("import reports bytes rising to the files' total and every dive read")
    func importProgress() throws {
        let log = try TemporaryLogbook()
        let files = [Paths.samples + "/logbook.uddf", Paths.samples + "/pair/computer-b.csv"]
        let total = try files.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as! Int) }
        let heard = Heard()
        var options = ImportOptions()
        options.progress = heard.progress
        let report = log.store.importLogbooks(files, options: options)
        let snapshots = heard.snapshots
        let last = try #require(snapshots.last)
        #expect(last.finished && last.bytesTotal == total && last.bytesRead == total)
        #expect(last.filesDone == 2 && last.filesTotal == 2)
        #expect(last.dives == report.files.reduce(0) { $0 + $1.dives.count })
        #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $0.bytesRead <= $1.bytesRead && $0.dives <= $1.dives })
    }

    @Test("export from a logbook reports its dives of the known total")
    func exportProgress() throws {
        let log = try TemporaryLogbook()
        #expect(log.store.importLogbooks([Paths.samples + "/logbook.uddf"]).inserted == 5)
        let source = try LogbookExport(store: log.store)
        let heard = Heard()
        var options = ConvertOptions(to: .csv)
        options.progress = heard.progress
        _ = DiveKit.convert(source: source, name: log.path, divesTotal: source.count, options: options, standardOutput: MemorySink())
        #expect(heard.snapshots.map(\.dives) == [1, 2, 3, 4, 5, 5])
        #expect(heard.snapshots.allSatisfy { $0.divesTotal == 5 })
        #expect(heard.snapshots.last?.finished == true)
    }
}
