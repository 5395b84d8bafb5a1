import Foundation
import Testing
import TestSupport

/// Writes a file of `size` bytes or so: `head`, then `body` repeated, then `tail`, streamed
/// to disk (never held whole in memory).
func writeRepeated(_ path: String, head: String, body: String, times: Int, tail: String) throws {
    FileManager.default.createFile(atPath: path, contents: nil)
    let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? h.close() }
    try h.write(contentsOf: Data(head.utf8))
    let block = Data(String(repeating: body, count: 256).utf8)
    for _ in 0..<(times / 256) { try h.write(contentsOf: block) }
    try h.write(contentsOf: Data(String(repeating: body, count: times % 256).utf8))
    try h.write(contentsOf: Data(tail.utf8))
}

let uddfHead = """
    <?xml version="1.0" encoding="UTF-8"?>
    <uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2"><generator><name>t</name></generator>
    <profiledata><repetitiongroup id="rg">
    """
let uddfTail = "</repetitiongroup></profiledata></uddf>\n"

/// Hostile XML, each given as a file made on the fly: a located error or a finding, a clear
/// exit status, never a trap, in bounded memory and time (issue 15).
@Suite(.serialized) struct HostileXMLTests {
    /// Peak memory any run may take, whatever the input.
    static let memoryBoundKB = 256 * 1024

    func umilogRun(_ arguments: [String]) throws -> MeasuredRun {
        try runMeasured(Paths.umilog, arguments)
    }

    @Test("a 32 MB text node is reported, not held: bounded memory, no slower than a normal file of its size")
    func aHugeTextNode() throws {
        let dir = try Paths.temporaryDirectory()
        let hostile = dir + "/note.uddf", normal = dir + "/normal.uddf"
        let sentence = "lorem ipsum dolor sit amet, consectetur adipiscing elit. "
        try writeRepeated(hostile, head: uddfHead + "<dive id=\"d\"><informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive><informationafterdive><greatestdepth>10</greatestdepth><notes><para>",
                          body: sentence, times: 32 << 20 / sentence.utf8.count, tail: "</para></notes></informationafterdive></dive>" + uddfTail)
        let dive = "<dive><informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive><samples>"
            + (0..<200).map { "<waypoint><divetime>\($0 * 10)</divetime><depth>\(Double($0 % 30) + 0.5)</depth></waypoint>" }.joined()
            + "</samples></dive>"
        try writeRepeated(normal, head: uddfHead, body: dive, times: 32 << 20 / dive.utf8.count, tail: uddfTail)

        let out = dir + "/out.csv"
        let reference = try umilogRun(["convert", normal, "--to", "csv", "-o", out, "-q"])
        #expect(reference.status == 0)
        let run = try umilogRun(["convert", hostile, "--to", "csv", "-o", out])
        #expect(run.signal == nil)
        #expect(run.status == 0)
        #expect(run.stderr.contains("dropped[uddf.text-too-long]: dive/0/informationafterdive/notes/para:"))
        #expect(run.peakKB < Self.memoryBoundKB, "peak \(run.peakKB) KB")
        #expect(run.seconds <= 2 * reference.seconds + 0.5, "\(run.seconds) s against \(reference.seconds) s for a normal file")

        let check = try umilogRun(["validate", hostile])
        #expect(check.signal == nil)
        #expect(check.status == 1)
        #expect(check.stderr.isEmpty || !check.stderr.contains("crashed"))
        #expect(check.peakKB < Self.memoryBoundKB, "validate peak \(check.peakKB) KB")
        #expect(check.seconds <= 2 * reference.seconds + 0.5)
    }

    @Test("100,000-deep nesting is xml.too-deep at its line, in convert and validate")
    func deepNesting() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/deep.uddf"
        try writeRepeated(path, head: uddfHead, body: "<a>", times: 100_000, tail: String(repeating: "</a>", count: 100_000) + uddfTail)
        for arguments in [["convert", path, "--to", "csv", "-o", dir + "/out.csv"], ["validate", path]] {
            let run = try umilogRun(arguments)
            #expect(run.signal == nil)
            #expect(run.status == 1)
            #expect((run.stdout + run.stderr).contains("error[xml.too-deep]"), "\(run.stderr.prefix(300))")
            #expect(run.peakKB < Self.memoryBoundKB)
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
    }

    @Test("entities are never expanded or fetched: billion laughs, an external entity and an external DTD are refused")
    func entitiesAreRefused() throws {
        let dir = try Paths.temporaryDirectory()
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE uddf [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
             <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>
            <uddf version="3.2.2"><generator><name>&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;</name></generator></uddf>
            """
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE uddf [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <uddf version="3.2.2"><generator><name>&x;</name></generator></uddf>
            """
        let dtd = """
            <?xml version="1.0"?>
            <!DOCTYPE uddf SYSTEM "http://127.0.0.1:9/uddf.dtd">
            <uddf version="3.2.2"><generator><name>t</name></generator></uddf>
            """
        for (name, text) in [("laughs", laughs), ("external", external), ("dtd", dtd)] {
            let path = dir + "/\(name).uddf"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            for arguments in [["convert", path, "--to", "json", "-o", dir + "/out.json"], ["validate", path]] {
                let run = try umilogRun(arguments)
                #expect(run.signal == nil)
                #expect(run.status == 1, "\(name)")
                #expect((run.stdout + run.stderr).contains("error[xml.doctype]"), "\(name): \(run.stderr)")
                #expect(!(run.stdout + run.stderr).contains("root:"), "\(name) expanded an entity")
                #expect(run.peakKB < Self.memoryBoundKB)
            }
        }
    }

    @Test("invalid UTF-8, a NUL byte and UTF-16 are each a located error or read, never a trap")
    func encodings() throws {
        let dir = try Paths.temporaryDirectory()
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<uddf version=\"3.2.2\"><generator><name>NAME</name></generator></uddf>\n"
        var invalid = Array(text.utf8); invalid.replaceSubrange(invalid.firstRange(of: Array("NAME".utf8))!, with: [0x4E, 0xC3, 0x28, 0x45])
        var nul = Array(text.utf8); nul.replaceSubrange(nul.firstRange(of: Array("NAME".utf8))!, with: [0x4E, 0x00, 0x45])
        let utf16 = [UInt8](Data(text.replacingOccurrences(of: "UTF-8", with: "UTF-16").utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }))
        for (name, bytes, readable) in [("invalid-utf8", invalid, false), ("nul", nul, false), ("utf16-no-bom", utf16, true), ("utf16", [0xFF, 0xFE] + utf16, true)] {
            let path = dir + "/\(name).uddf"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let run = try umilogRun(["convert", path, "--to", "json", "-o", dir + "/out.json"])
            #expect(run.signal == nil, "\(name)")
            if readable {
                #expect(run.status == 0, "\(name): \(run.stderr)")
            } else {
                #expect(run.status == 1, "\(name): \(run.stderr)")
                #expect(run.stderr.contains("\(path):") && run.stderr.contains("error["), "\(name): \(run.stderr)")
            }
        }
    }

    @Test("the sample logbook cut at 40 places: each a located error or a read, never a trap")
    func truncations() throws {
        let dir = try Paths.temporaryDirectory()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.samples + "/logbook.uddf")))
        let close = Array("</uddf>".utf8)
        let rootEnd = try #require(bytes.indices.last { bytes[$0...].starts(with: close) }) + close.count
        var generator = SystemRandomNumberGenerator()
        let offsets = (0..<40).map { _ in Int.random(in: 1..<bytes.count, using: &generator) }
        for offset in offsets {
            let path = dir + "/cut-\(offset).uddf"
            try Data(bytes[0..<offset]).write(to: URL(fileURLWithPath: path))
            let run = try umilogRun(["convert", path, "--to", "csv", "-o", dir + "/out.csv", "-q"])
            #expect(run.signal == nil, "cut at \(offset)")
            if offset >= rootEnd {
                // Only the final line break was cut: the document is whole.
                #expect(run.status == 0, "cut at \(offset): \(run.stderr)")
            } else {
                // Cut inside the XML declaration, a file is no longer recognisable as XML at all.
                #expect(run.status == 1 || run.status == 2, "cut at \(offset): \(run.stderr)")
                #expect(["error[xml.truncated]", "error[xml.malformed]", "error[uddf.empty]", "error[format."].contains { run.stderr.contains($0) },
                        "cut at \(offset): \(run.stderr)")
            }
        }
    }

    @Test("1e999, NaN, -0 and 1e16 in UDDF numbers: findings, valid JSON, nothing impossible stored")
    func impossibleNumbers() throws {
        let dir = try Paths.temporaryDirectory()
        let path = dir + "/numbers.uddf"
        try (uddfHead + """
            <dive id="d"><informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive>
            <samples>
            <waypoint><divetime>0</divetime><depth>-0</depth></waypoint>
            <waypoint><divetime>10</divetime><depth>1e999</depth></waypoint>
            <waypoint><divetime>20</divetime><depth>NaN</depth></waypoint>
            <waypoint><divetime>30</divetime><depth>1e16</depth></waypoint>
            <waypoint><divetime>40</divetime><depth>0</depth></waypoint>
            <waypoint><divetime>50</divetime><depth>12</depth></waypoint>
            <waypoint><divetime>1e9</divetime><depth>12</depth></waypoint>
            </samples>
            <informationafterdive><greatestdepth>1e16</greatestdepth><diveduration>1e12</diveduration></informationafterdive></dive>
            """ + uddfTail).write(toFile: path, atomically: true, encoding: .utf8)
        let out = dir + "/out.json"
        let run = try umilogRun(["convert", path, "--to", "json", "-o", out, "--all-findings"])
        #expect(run.signal == nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("dropped[uddf.not-a-number]"))
        #expect(run.stderr.contains("dropped[uddf.value-out-of-range]: dive/0: 2 samples are beyond what a dive can record"))
        #expect(run.stderr.contains("greatest depth 1e16 m") || run.stderr.contains("greatest depth 10000000000000000 m"))
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
        let dive = try #require((document?["dives"] as? [[String: Any]])?.first)
        #expect(dive["max_depth"] == nil)
        #expect(dive["submerged_time"] == nil)
        let profile = try #require(((dive["recordings"] as? [[String: Any]])?.first)?["profile"] as? [String: Any])
        // -0 is 0; the depths that are no depth are gone: 0 m at 0 s, 0 m at 40 s, 12 m at 50 s.
        #expect((profile["depth"] as? [String: Any])?["values"] as? [Int] == [0, 0, 1200])
        #expect((profile["depth"] as? [String: Any])?["times"] as? [Int] == [0, 40000, 50000])
        let check = try umilogRun(["validate", out])
        #expect(check.status == 0, "\(check.stderr)")
    }
}
