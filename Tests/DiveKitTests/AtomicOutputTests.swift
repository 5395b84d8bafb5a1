import Foundation
import Testing
@testable import DiveKit
import TestSupport

/// Where `convert`'s output goes for each kind of destination, and that nothing named is left
/// beside it: the unnamed temporary (O_TMPFILE) on this machine, the named fallback, the stale
/// temporaries a killed run left, spools, and destinations that are not regular files.
@Suite struct AtomicOutputTests {
    static let sample = Paths.samples + "/logbook.uddf"

    /// The CSV the sample converts to, from standard output.
    static let expected: String = {
        let out = Capture()
        _ = convert(inputs: [sample], options: ConvertOptions(to: .csv), standardOutput: out)
        return out.text
    }()

    func convertSample(to output: String, format: FileFormat = .csv) -> ConversionReport {
        convert(inputs: [Self.sample], options: ConvertOptions(to: format, output: output), standardOutput: Capture())
    }

    func status(_ path: String, follow: Bool = false) -> stat? {
        var st = stat()
        return (follow ? stat(path, &st) : lstat(path, &st)) == 0 ? st : nil
    }

    func listing(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    }

    // MARK: The unnamed temporary

    @Test func theUnnamedTemporaryIsWhatThisMachineUses() throws {
        #if os(Linux)
        #expect(AtomicFile.unnamedByDefault, "O_TMPFILE and /proc/self/fd are available here")
        let dir = try Paths.temporaryDirectory()
        let file = try AtomicFile(destination: dir + "/out.csv")
        #expect(file.kind == .unnamed)
        try Array("dive\n".utf8).withUnsafeBytes { try file.sink.write($0) }
        // While it is written the file has no name: the directory is empty, and the kernel
        // shows the descriptor as an unlinked file.
        #expect(try listing(dir) == [])
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(file.sink.fd)")
        #expect(link.hasSuffix("(deleted)"), "\(link)")
        #expect(SignalCleanup.registered.allSatisfy { !$0.hasPrefix(dir) }, "nothing for a handler to remove")
        try file.commit()
        #expect(try listing(dir) == ["out.csv"])
        #expect(try contents(dir + "/out.csv") == "dive\n")
        #else
        #expect(!AtomicFile.unnamedByDefault)
        #endif
    }

    @Test func aDroppedUnnamedFileLeavesNothing() throws {
        let dir = try Paths.temporaryDirectory()
        do {
            let file = try AtomicFile(destination: dir + "/out.csv")
            try Array("half".utf8).withUnsafeBytes { try file.sink.write($0) }
        }
        #expect(try listing(dir) == [])
    }

    // MARK: Regular files

    @Test func aNewFileAppearsWhole() throws {
        let dir = try Paths.temporaryDirectory()
        let report = convertSample(to: dir + "/out.csv")
        #expect(!report.failed)
        #expect(try contents(dir + "/out.csv") == Self.expected)
        #expect(try listing(dir) == ["out.csv"])
        #expect(status(dir + "/out.csv").map { $0.st_mode & 0o777 } == 0o644)
    }

    @Test func anExistingFileIsReplacedAtomicallyKeepingItsPermissions() throws {
        let dir = try Paths.temporaryDirectory()
        let target = dir + "/out.csv"
        try "previous".write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o600)
        let before = try #require(status(target))
        // A reader holding the old file keeps reading the old file: it was replaced, not rewritten.
        let old = open(target, O_RDONLY)
        defer { close(old) }
        #expect(!convertSample(to: target).failed)
        #expect(try contents(target) == Self.expected)
        let after = try #require(status(target))
        #expect(after.st_ino != before.st_ino)
        #expect(after.st_mode & 0o777 == 0o600)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(old, &buffer, 16) == 8)
        #expect(try listing(dir) == ["out.csv"])
    }

    @Test func aFailedConversionLeavesTheExistingFileAndNoTemporary() throws {
        let dir = try Paths.temporaryDirectory()
        let target = dir + "/out.json"
        try "previous".write(toFile: target, atomically: false, encoding: .utf8)
        let report = convert(inputs: [Self.sample, Paths.samples + "/invalid/xml.truncated.uddf"],
                             options: ConvertOptions(to: .json, output: target), standardOutput: Capture())
        #expect(report.failed)
        #expect(try contents(target) == "previous")
        #expect(try listing(dir) == ["out.json"])
    }

    // MARK: Symbolic links

    @Test func aSymbolicLinkIsFollowedAndStaysALink() throws {
        let dir = try Paths.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: false)
        try "previous".write(toFile: dir + "/real/target.csv", atomically: false, encoding: .utf8)
        #expect(symlink("real/target.csv", dir + "/link.csv") == 0)
        #expect(!convertSample(to: dir + "/link.csv").failed)
        #expect(status(dir + "/link.csv").map { $0.st_mode & S_IFMT } == S_IFLNK, "the link is not replaced")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.csv") == "real/target.csv")
        #expect(try contents(dir + "/real/target.csv") == Self.expected, "what it points to is written")
        #expect(try listing(dir) == ["link.csv", "real"])
        #expect(try listing(dir + "/real") == ["target.csv"])
    }

    @Test func aDanglingSymbolicLinkGetsItsTargetWritten() throws {
        let dir = try Paths.temporaryDirectory()
        #expect(symlink(dir + "/missing.csv", dir + "/link.csv") == 0)
        #expect(!convertSample(to: dir + "/link.csv").failed)
        #expect(status(dir + "/link.csv").map { $0.st_mode & S_IFMT } == S_IFLNK)
        #expect(try contents(dir + "/missing.csv") == Self.expected)
        #expect(try listing(dir) == ["link.csv", "missing.csv"])
    }

    @Test func aSymbolicLinkLoopIsAnError() throws {
        let dir = try Paths.temporaryDirectory()
        #expect(symlink("b", dir + "/a") == 0)
        #expect(symlink("a", dir + "/b") == 0)
        let report = convertSample(to: dir + "/a")
        #expect(report.inputs.last?.error?.code == "io.create")
        #expect(try listing(dir) == ["a", "b"])
    }

    // MARK: What is not a regular file

    @Test func devNullIsWrittenAndStaysADevice() throws {
        let before = try #require(status("/dev/null"))
        #expect(before.st_mode & S_IFMT == S_IFCHR)
        for format in [FileFormat.csv, .csvProfile, .json, .uddf] {
            let report = convertSample(to: "/dev/null", format: format)
            #expect(!report.failed, "\(format)")
            #expect(report.outputs == ["/dev/null"])
        }
        let after = try #require(status("/dev/null"))
        #expect(after.st_mode & S_IFMT == S_IFCHR, "still a character device")
        #expect(after.st_rdev == before.st_rdev && after.st_ino == before.st_ino)
        #expect(try listing("/dev").filter { $0.contains(".umilog-") } == [])
    }

    @Test func aSymbolicLinkToDevNullWritesTheDevice() throws {
        let dir = try Paths.temporaryDirectory()
        #expect(symlink("/dev/null", dir + "/sink") == 0)
        #expect(!convertSample(to: dir + "/sink").failed)
        #expect(status(dir + "/sink").map { $0.st_mode & S_IFMT } == S_IFLNK)
        #expect(status("/dev/null").map { $0.st_mode & S_IFMT } == S_IFCHR)
        #expect(try listing(dir) == ["sink"])
    }

    @Test(arguments: [FileFormat.csv, .uddf])
    func aFIFOIsWrittenToItsReader(format: FileFormat) throws {
        let dir = try Paths.temporaryDirectory()
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = FIFOReader(fifo)
        let report = convertSample(to: fifo, format: format)
        let received = reader.wait()
        #expect(!report.failed)
        if format == .csv {
            #expect(String(decoding: received, as: UTF8.self) == Self.expected)
        } else {
            #expect(String(decoding: received, as: UTF8.self).hasPrefix("<?xml"))
            #expect(received.count > 10_000)
        }
        #expect(status(fifo).map { $0.st_mode & S_IFMT } == S_IFIFO, "still a FIFO")
        #expect(try listing(dir) == ["pipe"])
    }

    @Test func anOpenDescriptorIsWrittenAsItIs() throws {
        #if os(Linux)
        // A pipe (its /proc link reads `pipe:[…]`, no path): the sample fits in its buffer.
        let pipe = try closeOnExecPipe()
        let ends = [pipe.read, pipe.write]
        defer { close(ends[0]) }
        #expect(!convertSample(to: "/proc/self/fd/\(ends[1])").failed)
        close(ends[1])
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = read(ends[0], &buffer, buffer.count), n > 0 { received += buffer[0..<n] }
        #expect(String(decoding: received, as: UTF8.self) == Self.expected)
        // A regular file open on a descriptor is written in place, not replaced beside /dev/fd.
        let dir = try Paths.temporaryDirectory()
        try String(repeating: "previous ", count: 1000).write(toFile: dir + "/held.csv", atomically: false, encoding: .utf8)
        let fd = open(dir + "/held.csv", O_WRONLY)
        defer { close(fd) }
        let before = try #require(status(dir + "/held.csv"))
        #expect(!convertSample(to: "/dev/fd/\(fd)").failed)
        #expect(try contents(dir + "/held.csv") == Self.expected)
        #expect(status(dir + "/held.csv")?.st_ino == before.st_ino)
        #expect(status("/dev/fd").map { $0.st_mode & S_IFMT } == S_IFLNK)
        #expect(try listing(dir) == ["held.csv"])
        #endif
    }

    @Test func aSocketIsRefused() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/sock"
        let fd = try bindUnixSocket(path)
        defer { close(fd) }
        let report = convertSample(to: path)
        let error = try #require(report.inputs.last?.error)
        #expect(error.code == "io.create")
        #expect(error.description.contains("socket"))
        #expect(status(path).map { $0.st_mode & S_IFMT } == S_IFSOCK)
        #expect(try listing(dir) == ["sock"])
    }

    @Test func aDirectoryWithoutTheSlashIsAnError() throws {
        let dir = try Paths.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        let report = convertSample(to: dir + "/out")
        let error = try #require(report.inputs.last?.error)
        #expect(error.code == "io.output-is-directory")
        #expect(error.description == "\(dir)/out: error[io.output-is-directory]: the output is a directory; name a file to write")
        #expect(try listing(dir + "/out") == [])
        // With the slash it is the directory one file per input goes to.
        #expect(convertSample(to: dir + "/out/").outputs == [dir + "/out/logbook.csv"])
    }

    // MARK: The named fallback

    @Test func theNamedFallbackIsRegisteredAndRemoved() throws {
        let dir = try Paths.temporaryDirectory()
        do {
            let file = try AtomicFile(destination: dir + "/out.csv", allowUnnamed: false)
            #expect(file.kind == .named)
            let names = try listing(dir)
            #expect(names.count == 1)
            let name = try #require(names.first)
            #expect(name.hasPrefix(".out.csv.umilog-\(getpid())-"))
            #expect(TemporaryName.creator(of: name) == getpid())
            #expect(SignalCleanup.registered.contains(dir + "/" + name), "a signal handler would remove it")
            try Array("dive\n".utf8).withUnsafeBytes { try file.sink.write($0) }
            try file.commit()
            #expect(!SignalCleanup.registered.contains(dir + "/" + name))
            #expect(try listing(dir) == ["out.csv"])
        }
        do {
            let file = try AtomicFile(destination: dir + "/out.csv", allowUnnamed: false)
            try Array("half".utf8).withUnsafeBytes { try file.sink.write($0) }
            #expect(try listing(dir).count == 2)
        }
        #expect(try listing(dir) == ["out.csv"])
        #expect(try contents(dir + "/out.csv") == "dive\n")
    }

    @Test func staleTemporariesOfDeadRunsAreSweptAndOthersKept() throws {
        let dir = try Paths.temporaryDirectory()
        let dead = try deadPID()
        let stale = [".out.csv.umilog-\(dead)-abcDE1", ".other.json.umilog-\(dead)-ZZZZZZ", ".umilog-spool.umilog-\(dead)-q1w2e3"]
        // pid 1 is alive; a file of its that is two days old is left by a pid that was reused.
        let old = ".old.csv.umilog-1-aaaaaa"
        let kept = [".out.csv.umilog-1-abcDE1", ".out.csv.umilog-\(getpid())-abcDE1", ".out.csv.umilog-\(dead)-abcDE", ".out.csv.umilog-\(dead)-abcDE12",
                    ".out.csv.umilog-x\(dead)-abcDE1", "out.csv.umilog-\(dead)-abcDE1", ".out.csv.tmp", "out.csv"]
        for name in stale + kept + [old] { try "x".write(toFile: dir + "/" + name, atomically: false, encoding: .utf8) }
        var times = [timeval(tv_sec: time(nil) - 2 * 86_400, tv_usec: 0), timeval(tv_sec: time(nil) - 2 * 86_400, tv_usec: 0)]
        #expect(utimes(dir + "/" + old, &times) == 0)
        // A directory with a stale name is not a file umilog made.
        try FileManager.default.createDirectory(atPath: dir + "/.d.umilog-\(dead)-abcdef", withIntermediateDirectories: false)
        #expect(StaleTemporaries.sweep(dir, force: true).sorted() == (stale + [old]).sorted())
        #expect(try listing(dir) == (kept + [".d.umilog-\(dead)-abcdef"]).sorted())
    }

    @Test func writingIntoADirectorySweepsIt() throws {
        let dir = try Paths.temporaryDirectory()
        let leftover = ".out.csv.umilog-\(try deadPID())-Abc123"
        try "half".write(toFile: dir + "/" + leftover, atomically: false, encoding: .utf8)
        #expect(!convertSample(to: dir + "/out.csv").failed)
        #expect(try listing(dir) == ["out.csv"])
    }

    @Test func temporaryNamesAreOursOnlyInTheirShape() {
        #expect(TemporaryName.creator(of: ".a.umilog-42-abcdef") == 42)
        #expect(TemporaryName.creator(of: ".a.b.umilog-42-ABC123") == 42)
        #expect(TemporaryName.creator(of: "..umilog-42-abcdef") == 42)
        for name in ["a.umilog-42-abcdef", ".a.umilog-42-abcde", ".a.umilog-42-abcdefg", ".a.umilog-42abcdef", ".a.umilog--abcdef",
                     ".a.umilog-0-abcdef", ".a.umilog-4-2-abcde", ".a.umilog-42-abc.ef", ".aumilog-42-abcdef", ".umilog-42-abcdef"] {
            #expect(TemporaryName.creator(of: name) == nil, "\(name)")
        }
        let made = TemporaryName.make(directory: "/x", base: "out.csv")
        #expect(made.hasPrefix("/x/.out.csv.umilog-\(getpid())-"))
        #expect(TemporaryName.creator(of: String(made.dropFirst(3))) == getpid())
    }

    @Test func aLongNameStillGetsATemporary() throws {
        let dir = try Paths.temporaryDirectory()
        let name = String(repeating: "é", count: 120) + ".csv"  // 244 bytes
        for allowUnnamed in [true, false] {
            let file = try AtomicFile(destination: dir + "/" + name, allowUnnamed: allowUnnamed)
            try file.commit()
        }
        #expect(try listing(dir) == [name])
    }

    // MARK: Spools

    @Test(arguments: [true, false])
    func aSpoolHasNoName(allowUnnamed: Bool) throws {
        let spool = try AtomicFile(destination: nil, readableByPath: true, allowUnnamed: allowUnnamed)
        #expect(spool.kind == .spool)
        try Array("spooled".utf8).withUnsafeBytes { try spool.sink.write($0) }
        #if os(Linux)
        #expect(spool.readPath == "/proc/self/fd/\(spool.sink.fd)")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: spool.readPath)
        #expect(link.hasSuffix("(deleted)"), "\(link): nothing named survives a SIGKILL")
        #endif
        #expect(try String(contentsOfFile: spool.readPath, encoding: .utf8) == "spooled")
        let out = Capture()
        try spool.copy(to: out)
        #expect(out.text == "spooled")
    }
}

/// Reads everything a FIFO receives, on a thread of its own (opening a FIFO blocks until the
/// other end opens).
final class FIFOReader: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ path: String) {
        let thread = Thread { [self] in
            let fd = open(path, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while fd >= 0 {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                bytes += buffer[0..<n]
            }
            close(fd)
            done.signal()
        }
        thread.start()
    }

    func wait() -> [UInt8] {
        done.wait()
        return bytes
    }
}

/// A pid no process has: one that just exited and was reaped.
func deadPID() throws -> pid_t {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", "exit 0"]
    try p.run()
    p.waitUntilExit()
    #expect(kill(p.processIdentifier, 0) != 0)
    return p.processIdentifier
}

/// A Unix socket bound at `path`.
func bindUnixSocket(_ path: String) throws -> Int32 {
    #if canImport(Glibc)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    try #require(bound == 0)
    return fd
}
