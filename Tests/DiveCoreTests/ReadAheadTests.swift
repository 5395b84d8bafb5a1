import Testing
@testable import DiveCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread, as a number.
private func threadID() -> UInt {
    #if canImport(Glibc)
    return UInt(pthread_self())
    #else
    return UInt(bitPattern: pthread_self())
    #endif
}

/// A source of `count` dives that names a site in its header before each dive, reports a
/// finding with each, and can fail after a number of dives. It counts, under a lock, how many
/// dives it has handed out, and on which threads it was read.
private final class ScriptedSource: DiveSource, @unchecked Sendable {
    private(set) var header = LogbookHeader()
    private var findings: [Finding] = []
    private let count: Int
    private let failAfter: Int?
    private var produced = 0
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var _handedOut = 0
    private(set) var threads: Set<UInt> = []

    init(count: Int, failAfter: Int? = nil) {
        self.count = count; self.failAfter = failAfter
        pthread_mutex_init(lock, nil)
    }
    deinit { pthread_mutex_destroy(lock); lock.deallocate() }

    var handedOut: Int {
        pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
        return _handedOut
    }

    func next() throws -> Dive? {
        threads.insert(threadID())
        if let failAfter, produced == failAfter {
            findings.append(Finding(.dropped, "test.before-error", "said before the error", at: SourceLocation(file: "f")))
            throw DiveError("test.broken", "dive \(produced) is broken", at: SourceLocation(file: "f", line: produced + 1))
        }
        guard produced < count else {
            findings.append(Finding(.dropped, "test.at-end", "said at the end", at: SourceLocation(file: "f")))
            return nil
        }
        header.sites.append(Site(uuid: "site\(produced)", name: "Site \(produced)"))
        findings.append(Finding(.dropped, "test.dive", "dive \(produced)", at: SourceLocation(file: "f", line: produced + 1)))
        let dive = Dive(uuid: "dive\(produced)", startedAt: nil)
        produced += 1
        pthread_mutex_lock(lock); _handedOut += 1; pthread_mutex_unlock(lock)
        return dive
    }

    func takeFindings() -> [Finding] {
        defer { findings = [] }
        return findings
    }
}

/// What a caller sees of a source: each dive with the findings and header sites at that
/// point, the findings at the end, and the error, if any.
private func observe(_ source: any DiveSource) -> (dives: [String], findings: [[String]], sites: [Int], end: [String], error: String?) {
    var dives: [String] = [], findings: [[String]] = [], sites: [Int] = []
    var error: String?
    do {
        while let dive = try source.next() {
            dives.append(dive.uuid)
            findings.append(source.takeFindings().map(\.code))
            sites.append(source.header.sites.count)
        }
    } catch let e as DiveError {
        error = e.description
    } catch {
        Issue.record("unexpected \(error)")
    }
    return (dives, findings, sites, source.takeFindings().map(\.code), error)
}

@Suite struct ReadAheadTests {
    @Test(arguments: [0, 1, 7, 100])
    func aCallerSeesWhatTheSourceWouldHaveSaid(count: Int) {
        let direct = observe(ScriptedSource(count: count))
        // One dive ahead (what convert and import use) and three.
        for depth in [1, 3] {
            let ahead = observe(ReadAhead(ScriptedSource(count: count), depth: depth))
            #expect(ahead.dives == direct.dives)
            #expect(ahead.findings == direct.findings)
            #expect(ahead.sites == direct.sites)
            #expect(ahead.end == direct.end)
            #expect(ahead.error == nil)
            #expect(ahead.dives.count == count)
        }
    }

    @Test(arguments: [0, 1, 5])
    func anErrorComesAfterTheDivesBeforeItWithItsFindings(failAfter: Int) {
        let direct = observe(ScriptedSource(count: 10, failAfter: failAfter))
        let ahead = observe(ReadAhead(ScriptedSource(count: 10, failAfter: failAfter), depth: 2))
        #expect(ahead.dives == direct.dives)
        #expect(ahead.dives.count == failAfter)
        #expect(ahead.findings == direct.findings)
        #expect(ahead.end == ["test.before-error"])
        #expect(ahead.error == "f:\(failAfter + 1): error[test.broken]: dive \(failAfter) is broken")
        #expect(ahead.error == direct.error)
    }

    @Test(arguments: [1, 4])
    func theSourceIsReadOnAnotherThreadAtMostDepthDivesAhead(depth: Int) {
        let source = ScriptedSource(count: 50)
        let reader = depth == 1 ? ReadAhead(source) : ReadAhead(source, depth: depth)
        var seen = 0
        while let _ = try? reader.next() {
            seen += 1
            // The reading thread may be one dive further on than the queue holds: the dive
            // it has read and waits to put.
            #expect(source.handedOut <= seen + depth + 1)
        }
        #expect(seen == 50)
        #expect(!source.threads.isEmpty)
        #expect(!source.threads.contains(threadID()))
    }

    @Test func droppingTheReaderEarlyStopsTheReadingThread() {
        let source = ScriptedSource(count: 1_000_000)
        do {
            let reader = ReadAhead(source, depth: 2)
            for _ in 0..<3 { _ = try? reader.next() }
        }
        // The reader's deinit waited for the thread, which stopped at the dive it was reading.
        let stoppedAt = source.handedOut
        #expect(stoppedAt <= 3 + 2 + 1)
        #expect(source.handedOut == stoppedAt)
    }

    @Test func aMeterOnTheCallersThreadCountsTheReadingThreadsBytes() throws {
        let path = "/tmp/umilog-readahead-\(getpid()).bin"
        let bytes = [UInt8](repeating: 0x41, count: 300_000)
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
        defer { unlink(path) }
        final class Reports: @unchecked Sendable { var last = ProgressSnapshot() }
        let reports = Reports()
        let meter = ProgressMeter(JobProgress(interval: 0) { reports.last = $0 }, bytesTotal: nil, files: 1)
        /// Opens the file on its first call, on whichever thread reads it, and reads it whole.
        final class FileSource: DiveSource {
            let path: String
            var header = LogbookHeader()
            var read = false
            init(path: String) { self.path = path }
            func next() throws -> Dive? {
                guard !read else { return nil }
                read = true
                let file = try InputFile(path: path, displayName: path)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 8)
                defer { buffer.deallocate() }
                while try file.read(into: buffer) > 0 {}
                return Dive(uuid: "d", startedAt: nil)
            }
            func takeFindings() -> [Finding] { [] }
        }
        try ProgressMeter.measuring(meter) {
            meter.beginFile("-")
            let reader = ReadAhead(FileSource(path: path))
            while try reader.next() != nil { meter.dive() }
            meter.endFile()
        }
        meter.finish()
        #expect(reports.last.bytesRead == bytes.count)
        #expect(reports.last.dives == 1)
    }
}
