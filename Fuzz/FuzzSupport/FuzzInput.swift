import DiveCore
import DiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer's driver (in `libclang_rt.fuzzer`, which `-sanitize=fuzzer` links): SwiftPM names
/// an executable's entry point itself, so a target calls the driver from its own `main`
/// instead of letting libFuzzer supply one.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The one input function of this process (a C callback cannot capture context).
nonisolated(unsafe) private var target: ((UnsafePointer<UInt8>, Int) -> Void)?

/// What every fuzz target does with one input: write it to a file on a memory filesystem (the
/// readers take paths, as the CLI does), then run it through what a user's command would run.
public enum FuzzInput {
    /// A sink that keeps nothing: the writers run, their bytes are dropped.
    final class Discard: ByteSink {
        func write(_ bytes: UnsafeRawBufferPointer) throws {}
    }

    /// The file one process reuses for every input, on `/dev/shm` when there is one.
    static func path(suffix: String) -> String {
        let dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        return "\(dir)/umilog-fuzz-\(getpid()).\(suffix)"
    }

    /// Runs libFuzzer with the process's arguments, calling `body` with each input; exits
    /// with the driver's status.
    public static func drive(_ body: @escaping (UnsafePointer<UInt8>, Int) -> Void) -> Never {
        target = body
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }

    /// Writes `size` bytes at `data` to the process's input file and returns its path.
    public static func write(_ data: UnsafePointer<UInt8>, _ size: Int, suffix: String) -> String {
        let p = path(suffix: suffix)
        let fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "fuzz: cannot write \(p)")
        var done = 0
        while done < size {
            let n = Glibc.write(fd, data + done, size - done)
            precondition(n > 0, "fuzz: short write to \(p)")
            done += n
        }
        close(fd)
        return p
    }

    /// Converts the file the way `umilog convert FILE --from FORMAT --to OUT` would, to every
    /// format the registry writes, and validates it the way `umilog validate FILE` would. None
    /// may trap, whatever the bytes.
    public static func run(_ data: UnsafePointer<UInt8>, _ size: Int, format: FileFormat, suffix: String) {
        let path = write(data, size, suffix: suffix)
        for to in FileFormat.writable {
            _ = convert(inputs: [path], options: ConvertOptions(to: to, from: format, exportedAt: "2000-01-01T00:00:00Z"), standardOutput: Discard())
        }
        _ = validate(paths: [path])
    }
}

/// libFuzzer's per-input entry point (its driver references it by name).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if let data {
        target?(data, size)
    } else {
        let empty: [UInt8] = [0]
        empty.withUnsafeBufferPointer { target?($0.baseAddress!, 0) }
    }
    return 0
}
