#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a long job (convert, validate, import, export, inspect) has got, as a progress
/// line shows it.
public struct ProgressSnapshot: Sendable, Hashable {
    /// Bytes of the inputs read so far, and in all (`nil` when not known: standard input).
    public var bytesRead = 0
    /// Bytes of the inputs in all; `nil` when not known (standard input).
    public var bytesTotal: Int?
    /// Dives read so far, and in all when the job knows it beforehand (an export).
    public var dives = 0
    /// Dives in all; `nil` when the job does not know it beforehand.
    public var divesTotal: Int?
    /// Files finished, of how many.
    public var filesDone = 0
    /// Files the job reads in all.
    public var filesTotal = 0
    /// The file being read.
    public var file = ""
    /// Seconds since the job started.
    public var elapsed = 0.0
    /// True for the last report, made when the job is done.
    public var finished = false

    /// Makes a snapshot of a job that has read nothing yet.
    public init() {}
}

/// A progress callback for a long job's options. `report` is called when the job starts, then
/// at most once every `interval` seconds while it runs, and once more when it is done (with
/// ``ProgressSnapshot/finished`` set); one call at a time, on the job's thread or on the
/// thread reading its input ahead (``ReadAhead``).
public struct JobProgress: Sendable {
    /// Least seconds between two reports while the job runs.
    public var interval: Double
    /// Called with each snapshot, one call at a time.
    public var report: @Sendable (ProgressSnapshot) -> Void
    /// Makes a callback reporting at most every `interval` seconds.
    public init(interval: Double = 0.1, report: @escaping @Sendable (ProgressSnapshot) -> Void) {
        self.interval = interval; self.report = report
    }
}

/// Counts what a job reads for its ``JobProgress``. The job makes one (only when it was given a
/// callback, so nothing is counted otherwise) and runs its reading inside ``measuring(_:_:)``:
/// every ``InputFile`` and ``MappedFile`` opened there adds what it reads, without a reader
/// knowing about progress at all. A reader reading ahead on a thread of its own (``ReadAhead``)
/// counts into the same meter: every count is taken under the meter's lock.
public final class ProgressMeter: @unchecked Sendable {
    /// The meter of the job reading on this thread, if any.
    @TaskLocal public static var current: ProgressMeter?

    private let progress: JobProgress
    private var snapshot = ProgressSnapshot()
    private let start: Double
    private var last: Double
    /// Bytes of the files finished, the size of the one being read, and how far into it.
    private var done = 0
    private var fileSize: Int?
    private var streamed = 0
    private var position = 0
    private let lock = Lock()

    /// Runs `body` holding the meter's lock.
    private func locked(_ body: () -> Void) {
        lock.withLock(body)
    }

    /// A meter for `progress`, or nil when there is none to report to.
    public static func make(_ progress: JobProgress?, files: [String], divesTotal: Int? = nil) -> ProgressMeter? {
        guard let progress else { return nil }
        let sizes = files.map(Self.size(of:))
        return ProgressMeter(progress, bytesTotal: sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + $1! }, files: files.count, divesTotal: divesTotal)
    }

    /// Makes a meter reporting to `progress`, for a job reading `files` files of `bytesTotal` bytes in all (`nil` when not known) and, when it knows it beforehand, `divesTotal` dives.
    /// ``make(_:files:divesTotal:)`` works out the byte total from the files' sizes.
    public init(_ progress: JobProgress, bytesTotal: Int?, files: Int, divesTotal: Int? = nil) {
        self.progress = progress
        start = Self.now()
        // The first report is made at once, so that a line is drawn even for a short job.
        last = -.infinity
        snapshot.bytesTotal = bytesTotal
        snapshot.filesTotal = files
        snapshot.divesTotal = divesTotal
    }

    /// Runs `body` with `meter` counting what is read (nothing counted when it is nil: a
    /// second read of a file, to hash it).
    public static func measuring<T>(_ meter: ProgressMeter?, _ body: () throws -> T) rethrows -> T {
        try $current.withValue(meter, operation: body)
    }

    /// A file starts: `path` (its size is looked up; standard input has none).
    public func beginFile(_ path: String) {
        locked {
            fileSize = Self.size(of: path)
            streamed = 0
            position = 0
            snapshot.file = path
            tick()
        }
    }

    /// The file is done: all of it counts as read.
    public func endFile() {
        locked {
            done += fileSize ?? max(streamed, position)
            fileSize = nil
            streamed = 0
            position = 0
            snapshot.filesDone += 1
            update()
            tick()
        }
    }

    /// `n` more dives were read.
    public func dive(_ n: Int = 1) {
        locked {
            snapshot.dives += n
            tick()
        }
    }

    /// `n` more bytes were read from a file (``InputFile``).
    public func read(_ n: Int) {
        locked {
            streamed += n
            if streamed > position { position = streamed; update(); tick() }
        }
    }

    /// A reader walking a mapped file got to `offset` (``MappedFile``).
    public func reached(_ offset: Int) {
        locked {
            if offset > position { position = offset; update(); tick() }
        }
    }

    /// The job is done: the last report.
    public func finish() {
        locked {
            snapshot.finished = true
            snapshot.elapsed = Self.now() - start
            progress.report(snapshot)
        }
    }

    private func update() {
        // A reader that reads a file twice does not take the count past the file's size, and
        // the count never goes back.
        let here = done + min(position, fileSize ?? position)
        if here > snapshot.bytesRead { snapshot.bytesRead = here }
    }

    private func tick() {
        let now = Self.now()
        guard now - last >= progress.interval else { return }
        last = now
        snapshot.elapsed = now - start
        progress.report(snapshot)
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// A regular file's size; nil for standard input, a pipe or what cannot be looked at.
    public static func size(of path: String) -> Int? {
        guard path != "-" else { return nil }
        var s = stat()
        guard stat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(s.st_size)
    }
}
