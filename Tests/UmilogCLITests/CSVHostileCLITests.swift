import Foundation
import Testing
import TestSupport

/// Hostile CSV, each made on the fly: a located error (exit 1) or a finding (exit 0), never a
/// trap, in bounded memory and time (issue 15).
@Suite(.serialized) struct CSVHostileCLITests {
    /// Peak memory any run may take, whatever the input.
    static let memoryBoundKB = 256 * 1024

    /// A profile CSV of about `bytes` bytes, dives of an hour sampled every 5 s: what reading
    /// a normal file costs.
    func writeNormalCSV(_ path: String, bytes: Int) throws {
        FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        var written = 0, dive = 0
        var text = "Dive Number,Date,Time (s),Depth (m),Temperature (°C)\n"
        while written < bytes {
            dive += 1
            for s in 0..<720 { text += "\(dive),2024-05-01,\(s * 5),\(Double(s % 300) / 10),\(20 + s % 3)\n" }
            written += text.utf8.count
            try file.write(contentsOf: Data(text.utf8))
            text = ""
        }
    }

    /// A quoted note of 1 GiB is refused at its opening quote once 1 MiB of it is read: flat
    /// memory, and no slower than reading a normal file of 1 MB (so no slower than one of
    /// 1 GB). The note's first 64 MiB are text, the rest a hole in the file, which reads as NUL
    /// bytes and costs no disk: a reader that went on would read it all.
    @Test func aOneGigabyteField() throws {
        let dir = try Paths.temporaryDirectory()
        let hostile = dir + "/field.csv", normal = dir + "/normal.csv"
        defer { try? FileManager.default.removeItem(atPath: hostile) }
        try writeRepeated(hostile, head: "Date,Max Depth (m),Notes\n2024-05-01,12,\"", body: String(repeating: "x", count: 4096),
                          times: 1 << 14, tail: "")
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: hostile))
        try file.seek(toOffset: 1 << 30)
        try file.write(contentsOf: Data("\"\n".utf8))
        try file.close()
        try writeNormalCSV(normal, bytes: 1 << 20)
        let reference = try runMeasured(Paths.umilog, ["convert", normal, "--to", "json", "-o", dir + "/normal.json", "-q"])
        #expect(reference.status == 0)

        let run = try runMeasured(Paths.umilog, ["convert", hostile, "--to", "json", "-o", dir + "/out.json"])
        #expect(run.signal == nil)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("\(hostile):2:15: error[csv.field-too-long]: the quoted field opened here runs past 1 MiB, longer than any value of a dive log (is its quote ever closed?); the file is not read\n"), "\(run.stderr)")
        #expect(run.peakKB < Self.memoryBoundKB, "peak \(run.peakKB) KB")
        #expect(run.seconds <= 2 * reference.seconds, "\(run.seconds) s against \(reference.seconds) s for a normal file of 1 MB")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.json"))
    }

    /// A header of a million columns (6 MB; 790 MB of memory before) is refused at its 4097th
    /// field, in flat memory, no slower than reading a normal file of 1 MB (so no slower than
    /// one of its size).
    @Test func aMillionColumns() throws {
        let dir = try Paths.temporaryDirectory()
        let hostile = dir + "/columns.csv", normal = dir + "/normal.csv"
        try writeRepeated(hostile, head: "Date", body: ",Depth", times: 1_000_000, tail: "\n2024-05-01,12\n")
        try writeNormalCSV(normal, bytes: 1 << 20)
        let reference = try runMeasured(Paths.umilog, ["convert", normal, "--to", "json", "-o", dir + "/normal.json", "-q"])
        #expect(reference.status == 0)

        for arguments in [["convert", hostile, "--to", "json", "-o", dir + "/out.json"], ["validate", hostile]] {
            let run = try runMeasured(Paths.umilog, arguments)
            #expect(run.signal == nil)
            #expect(run.status == 1)
            // `Date` and 4095 `,Depth`: field 4097 starts at column 4 + 4095 × 6 + 2.
            #expect((run.stdout + run.stderr).contains("\(hostile):1:24576: error[csv.too-many-columns]: the record starting on line 1 has more than 4096 fields (field 4097 starts here); no dive log has so many columns, so the file is not read"),
                    "\(run.stderr.prefix(400))")
            #expect(run.peakKB < Self.memoryBoundKB, "peak \(run.peakKB) KB")
            #expect(run.seconds <= 2 * reference.seconds, "\(run.seconds) s against \(reference.seconds) s for a normal file of 1 MB")
        }
    }

    /// Numbers that are no reading never reach a writer or the logbook: the DiveJSON output is
    /// JSON (no `inf`), UDDF holds no `inf` or `nan`, `stats` sees only the dive that has a
    /// depth, and each is a finding at its line.
    @Test func numbersThatAreNoReadingStayOut() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/numbers.csv"
        try """
            Date,Max Depth (m),Duration (s)
            2024-05-01,1e999,99999999999999999999
            2024-05-02,NaN,-1e300
            2024-05-03,-0,1e-400
            2024-05-04,18.5,2700

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let json = try umilog(["convert", path, "--to", "json", "--all-findings"])
        #expect(json.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((document?["dives"] as? [Any])?.count == 4)
        #expect(!json.stdout.contains(": inf") && !json.stdout.contains(": nan") && !json.stdout.contains(": -0"))
        let said: [String] = json.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix(path) && $0.contains("out-of-range") }
        #expect(said == [
            #"\#(path):2: dropped[csv.value-out-of-range]: "1e999" in column "Max Depth (m)" is too large for any number (it reads as infinity); left out"#,
            #"\#(path):2: dropped[csv.value-out-of-range]: "99999999999999999999" in column "Duration (s)" is 1e+20 s, outside what a duration can be (0 to 864000 s); left out"#,
            #"\#(path):3: dropped[csv.value-out-of-range]: "-1e300" in column "Duration (s)" is -1e+300 s, outside what a duration can be (0 to 864000 s); left out"#,
        ])
        #expect(json.stderr.contains(#"\#(path):3: dropped[csv.bad-value]: "NaN" is not a depth; left out"#))
        #expect(json.stderr.contains(#"\#(path):4: resolved[csv.number-underflow]: "1e-400" in column "Duration (s)" is closer to 0 than any number a computer holds apart from 0; read as 0"#))

        let uddf = try umilog(["convert", path, "--to", "uddf", "-q"])
        #expect(uddf.status == 0)
        #expect(!uddf.stdout.contains(">inf<") && !uddf.stdout.contains(">nan<") && !uddf.stdout.contains(">-0<"))

        let db = dir + "/logbook.sqlite"
        #expect(try umilog(["import", path, "--db", db, "-q"]).status == 0)
        let stats = try umilog(["stats", "--db", db])
        #expect(stats.status == 0)
        #expect(stats.stdout.contains("deepest:        18.5 m (2024-05-04)"), "\(stats.stdout)")
        #expect(!stats.stdout.contains("inf"))
    }

    /// `convert` says, where it happens, that a spreadsheet is read as Windows-1252.
    @Test func theWindows1252FallbackIsSaid() throws {
        let r = try umilog(["convert", "Samples/csv/spreadsheet-windows-1252.csv", "--to", "json"])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("Samples/csv/spreadsheet-windows-1252.csv:1:33: resolved[csv.encoding-fallback]: the file is not UTF-8 from here on; read as Windows-1252, the encoding of spreadsheets saved on Windows\n"), "\(r.stderr)")
        #expect(r.stdout.contains("Toilets on the wreck €"))
    }

    /// A CSV whose quoted note spans many lines, each a `;`-separated "table" of its own, longer
    /// than the sniffer's 64 KiB look-ahead: `import` read it as not a dive log, skipped it and
    /// exited 0. It is a CSV of two dives.
    @Test func aNoteOfManyLinesIsImported() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/notes.csv"
        let note = (0..<5_000).map { "stop \($0); 3 m; 3 min" }.joined(separator: "\n")
        try "Date,Max Depth (m),Notes\n2024-05-01,12,\"\(note)\"\n2024-05-02,14,short\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try umilog(["import", path, "--db", dir + "/logbook.sqlite"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("\(path): csv, 2 dives, 2 imported\n"), "\(r.stdout)")
        #expect(r.stderr.contains("1 file, 1 read (2 dives added), 0 unsupported, 0 not dive logs, 0 failed"), "\(r.stderr)")
    }

    /// Encodings: bytes that are not UTF-8 are read as Windows-1252 and said; UTF-16 is read
    /// with or without a byte-order mark; a NUL byte makes the file no text umilog sniffs as
    /// CSV (exit 1, `--from csv` reads it).
    @Test(arguments: [
        ("invalid-utf8", [0xFF, 0xFE, 0x80], 0, ":2:16: resolved[csv.encoding-fallback]"),
        ("nul", [0x00], 1, ":1: error[format.unknown]"),
        ("utf16le-bom", [], 0, "umilog: 1 dive from 1 of 1 file"),
        ("utf16be", [], 0, ":1: resolved[csv.encoding-utf16-unmarked]"),
    ] as [(String, [UInt8], Int32, String)])
    func encodings(_ name: String, _ inNote: [UInt8], _ status: Int32, _ said: String) throws {
        let path = try Paths.temporaryDirectory() + "/\(name).csv"
        var bytes = Array("Date,Max Depth (m),Notes\n2024-05-01,12,o".utf8) + inNote + Array("k\n".utf8)
        if name.hasPrefix("utf16") {
            let units = Array(String(decoding: bytes, as: UTF8.self).utf16)
            bytes = name == "utf16le-bom" ? [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } : units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let r = try runMeasured(Paths.umilog, ["convert", path, "--to", "json"])
        #expect(r.signal == nil)
        #expect(r.status == status)
        #expect(r.stderr.contains(said), "\(r.stderr)")
        if name == "nul" {
            let forced = try runMeasured(Paths.umilog, ["convert", path, "--from", "csv", "--to", "json"])
            #expect(forced.status == 0)
            #expect(forced.stdout.contains(#""notes": "o\u0000k""#))
        }
    }
}
