import Foundation
import Testing
import TestSupport

/// Output to a pipe streams: `convert --to csv` writes its rows as it reads, so the first row
/// arrives while most of the input is still unread, and a reader that stops (`| head`) ends
/// the run by SIGPIPE instead of letting it read the rest.
@Suite(.serialized) struct StreamingTests {
    @Test func aPipeGetsTheFirstRowEarlyAndHeadEndsTheRun() throws {
        let work = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        // 800 dives: about 200 KB of rows, more than a pipe holds, so the writer must wait
        // for its reader before it can finish.
        let input = try makeLogbook(dives: 800, in: work)
        let size = fileSize(input)
        let pipe = try closeOnExecPipe()
        let process = try Child(["convert", input, "--to", "csv", "-q"], environment: [:], standardOutput: pipe.write)
        close(pipe.write)
        var got: [UInt8] = []
        var byte: UInt8 = 0
        while !got.contains(0x0A), read(pipe.read, &byte, 1) == 1 { got.append(byte) }
        #expect(String(decoding: got, as: UTF8.self).hasPrefix("dive_number,"))
        // What the process has read so far (rchar counts every byte read()): less than the input.
        let io = (try? String(contentsOfFile: "/proc/\(process.pid)/io", encoding: .utf8)) ?? ""
        let read = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
        #expect(read != nil && read! < size, "read \(read.map(String.init) ?? "?") of \(size) bytes when the first row came")
        close(pipe.read)
        #expect(process.wait() == .signaled(SIGPIPE))
    }
}
