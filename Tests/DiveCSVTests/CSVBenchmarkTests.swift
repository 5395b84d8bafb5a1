#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import DiveCSV

/// Times reading a large CSV file three ways — a plain byte scan counting line feeds with the
/// same chunked reads, the tokenizer alone, and the whole structure check — and prints the
/// figures with the process's peak memory after each. Runs only when `UMILOG_BENCH_CSV`
/// names a file:
///
/// ```sh
/// UMILOG_BENCH_CSV=/tmp/profile-100mb.csv swift test -c release --build-path .build-csv \
///     --filter CSVBenchmarkTests
/// ```
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["UMILOG_BENCH_CSV"] != nil,
                             "set UMILOG_BENCH_CSV to a large CSV file to time the tokenizer"))
struct CSVBenchmarkTests {
    static let path = ProcessInfo.processInfo.environment["UMILOG_BENCH_CSV"] ?? ""

    /// The process's peak resident memory so far, in KiB (`VmHWM`), or 0 where unknown.
    static func peakKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }

    static func report(_ name: String, bytes: Int, _ duration: Duration, _ detail: String) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        let rate = Double(bytes) / seconds / 1_048_576
        print("bench \(name): \(String(format: "%.3f", seconds)) s, \(String(format: "%.0f", rate)) MiB/s, "
              + "\(detail), peak RSS \(peakKiB()) KiB")
    }

    /// Counts line feeds, reading the file in chunks of ``CSVTokenizer/chunkSize``.
    static func byteScan() throws -> (bytes: Int, lines: Int) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: CSVTokenizer.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var bytes = 0, lines = 0
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n <= 0 { break }
            bytes += n
            for b in UnsafeRawBufferPointer(rebasing: buffer[0..<n]) where b == 0x0A { lines += 1 }
        }
        return (bytes, lines)
    }

    @Test func timings() throws {
        let clock = ContinuousClock()
        // Warm the page cache so every reading starts alike.
        _ = try byteScanOnce()

        var scanned = (bytes: 0, lines: 0)
        let scan = try clock.measure { scanned = try Self.byteScan() }
        Self.report("byte scan", bytes: scanned.bytes, scan, "\(scanned.lines) lines")

        var records = 0, fields = 0
        let tokenize = try clock.measure {
            let tokenizer = try CSVTokenizer(path: Self.path, displayName: Self.path)
            tokenizer.delimiter = CSVDialect.sniff(tokenizer).delimiter
            while try tokenizer.next() { records += 1; fields += tokenizer.fieldCount }
        }
        Self.report("tokenizer", bytes: scanned.bytes, tokenize, "\(records) records, \(fields) fields")

        var report: CSVStructureReport?
        let check = try clock.measure { report = try checkCSVStructure(path: Self.path, displayName: Self.path) }
        Self.report("structure check", bytes: scanned.bytes, check,
                    "\(report?.dataRows ?? 0) rows, \(report?.diagnostics.count ?? 0) diagnostics")
        #expect(records > 0)
    }

    private func byteScanOnce() throws -> Int { try Self.byteScan().lines }
}
