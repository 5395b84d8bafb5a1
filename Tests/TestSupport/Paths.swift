import Foundation

/// Where the test inputs are: the repository's own `Samples/`, and the shared reference
/// corpus beside the checkout (`../shared`), which CI provides and a bare clone may lack.
public enum Paths {
    /// The package root.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static let samples = root + "/Samples"
    public static let shared = URL(fileURLWithPath: root + "/../shared").standardizedFileURL.path
    public static let corpus = shared + "/corpus"
    public static let fixtures = shared + "/reference/divejson/fixtures"

    /// True when the shared corpus is present; tests that need it are skipped otherwise.
    public static let sharedAvailable = FileManager.default.fileExists(atPath: corpus + "/uddf")

    /// True when mdb-tools' `mdb-json` is on `PATH` (the SmartTRAK reader needs it; the test
    /// command installs it): tests that read the corpus's `.slg` are skipped otherwise.
    public static let mdbToolsAvailable = onPath("mdb-json")

    /// True when librsvg's `rsvg-convert` is on `PATH` (`umilog plot` renders PNGs through it;
    /// the test command installs it): tests that render are skipped otherwise.
    public static let rsvgConvertAvailable = onPath("rsvg-convert")

    /// True when an executable named `tool` is in a directory of `PATH`.
    public static func onPath(_ tool: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    /// Every UDDF file of the shared corpus and the DiveJSON reader fixtures, relative to `shared`.
    public static var sharedUDDF: [String] {
        guard sharedAvailable else { return [] }
        var out: [String] = []
        for dir in ["corpus/uddf", "reference/divejson/fixtures/uddf"] {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: shared + "/" + dir)) ?? []
            out += files.filter { $0.hasSuffix(".uddf") }.sorted().map { "\(dir)/\($0)" }
        }
        return out
    }

    /// The built `umilog` executable beside the test bundle.
    public static var umilog: String {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("umilog").path,
            Bundle.main.bundleURL.appendingPathComponent("umilog").path,
            root + "/.build/debug/umilog",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }

    /// A fresh empty directory for one test, inside one directory for the whole test run
    /// that is removed when the process exits.
    public static func temporaryDirectory() throws -> String {
        let path = testRunDirectory + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static let testRunDirectory: String = {
        atexit { try? FileManager.default.removeItem(atPath: Paths.runDirectoryName) }
        return runDirectoryName
    }()

    fileprivate static var runDirectoryName: String { NSTemporaryDirectory() + "umilog-tests-\(getpid())" }
}

/// A synthetic UDDF logbook made by the `make-logbook` built beside the tests: `dives` dives of
/// `duration` minutes sampled every `interval` seconds (about 63 kB a dive at the defaults),
/// written to `logbook.uddf` in `directory`.
public func makeLogbook(dives: Int, interval: Int = 10, duration: Int = 50, in directory: String) throws -> String {
    let path = directory + "/logbook.uddf"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Paths.umilog).deletingLastPathComponent().appendingPathComponent("make-logbook")
    process.arguments = ["--dives", "\(dives)", "--interval", "\(interval)", "--duration", "\(duration)", "--out", path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "make-logbook exited with status \(process.terminationStatus)"])
    }
    return path
}
