import Foundation
import Testing
import DiveCore
@testable import DiveJSON
import TestSupport

/// A dive with no start has no place in DiveJSON's `dives` (`started_at` is required). The
/// writer carries it under the document's `extensions.umilog.undated_dives`, and the reader
/// hands it back as a dive, so that a backup loses nothing.
@Suite struct UndatedDiveTests {
    /// The header of a backup: another producer's entry, and umilog's own with a member of its own.
    static func backupHeader() -> LogbookHeader {
        var header = LogbookHeader()
        header.extensions = .object([
            .init("other", .object([.init("x", .number("1"))])),
            .init("umilog", .object([.init("source_files", .array([.string("f")]))])),
        ])
        return header
    }

    static func write(_ dives: [Dive], header: LogbookHeader) throws -> (text: String, findings: [Finding]) {
        let sink = MemorySink()
        let w = DiveJSONWriter(sink: sink, generator: Generator(name: "t"), exportedAt: "2026-01-01T00:00:00Z")
        var findings: [Finding] = []
        for d in dives {
            try w.write(d, header: header)
            findings += w.takeFindings()
        }
        try w.finish(header: header)
        return (sink.text, findings + w.takeFindings())
    }

    static var dives: [Dive] {
        var dated = Dive(uuid: "0198a6f0-0000-7000-8000-000000000001", startedAt: DiveDateTime.parse("2024-01-02T09:00:00")!.0)
        dated.maxDepth = 12.5
        var undated = Dive(uuid: "0198a6f0-0000-7000-8000-000000000002", startedAt: nil)
        undated.provenance = Provenance(format: "uddf", file: "log.uddf", index: 1, line: 7)
        undated.maxDepth = 9
        undated.notes = "logged by hand, no date"
        return [undated, dated]
    }

    @Test("a dive with no start is written last in extensions.umilog, after that entry's own members, and said so (resolved): no dive is lost")
    func anUndatedDiveGoesUnderTheExtension() throws {
        let (text, findings) = try Self.write(Self.dives, header: Self.backupHeader())
        #expect(text == """
            {
              "format": "divejson",
              "version": "1.0",
              "exported_at": "2026-01-01T00:00:00Z",
              "generator": {
                "name": "t"
              },
              "dives": [
                {
                  "uuid": "0198a6f0-0000-7000-8000-000000000001",
                  "started_at": "2024-01-02T09:00:00",
                  "max_depth": 12.5
                }
              ],
              "extensions": {
                "other": {
                  "x": 1
                },
                "umilog": {
                  "source_files": [
                    "f"
                  ],
                  "undated_dives": [
                    {
                      "uuid": "0198a6f0-0000-7000-8000-000000000002",
                      "notes": "logged by hand, no date",
                      "max_depth": 9.0
                    }
                  ]
                }
              }
            }

            """)
        #expect(findings.map(\.description) == [
            "log.uddf:7: resolved[json.dive-without-start]: dive/1: the dive has no start date, which a dive in DiveJSON's dives requires; written under extensions.umilog.undated_dives[0] instead, where umilog reads it back as a dive (other DiveJSON readers ignore it)",
        ])
        #expect(findings.allSatisfy { $0.lostDives == 0 })
    }

    @Test("the reader hands the undated dives out after the dives, takes them out of the header's extensions, and writing them again gives the same document; it validates")
    func theReaderRestoresThem() throws {
        let (text, _) = try Self.write(Self.dives, header: Self.backupHeader())
        let path = try Paths.temporaryDirectory() + "/backup.divejson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try DiveJSONValidator().validate(path: path).isEmpty)
        let reader = try DiveJSONReader(path: path, displayName: "backup.divejson")
        var read: [Dive] = []
        while let d = try reader.next() { read.append(d) }
        #expect(reader.takeFindings().isEmpty)
        #expect(read.map(\.uuid) == ["0198a6f0-0000-7000-8000-000000000001", "0198a6f0-0000-7000-8000-000000000002"])
        #expect(read[1].startedAt == nil)
        #expect(read[1].maxDepth == 9)
        #expect(read[1].notes == "logged by hand, no date")
        #expect(read[1].provenance?.index == 1)
        #expect(read[1].provenance?.line == 24)
        #expect(reader.header.extensions == Self.backupHeader().extensions)
        // Written again, the same text: no dive doubled in the extension, none lost.
        let (again, findings) = try Self.write(read, header: reader.header)
        #expect(again == text)
        #expect(findings.map(\.code) == ["json.dive-without-start"])
    }

    @Test("with no extensions to add to, the writer makes the umilog entry; when converting, its divejson block comes first")
    func theEntryIsMadeWhenThereIsNone() throws {
        let undated = Dive(uuid: "0198a6f0-0000-7000-8000-000000000002", startedAt: nil)
        let (plain, _) = try Self.write([undated], header: LogbookHeader())
        #expect(plain.hasSuffix("""
              "extensions": {
                "umilog": {
                  "undated_dives": [
                    {
                      "uuid": "0198a6f0-0000-7000-8000-000000000002"
                    }
                  ]
                }
              }
            }

            """))
        #expect(!plain.contains("\"dives\""))
        var converted = LogbookHeader()
        converted.sourceFormat = "uddf"
        converted.sourceGenerator = Generator(name: "Writer")
        let (text, _) = try Self.write([undated], header: converted)
        #expect(text.hasSuffix("""
              "extensions": {
                "divejson": {
                  "converted_from": "uddf",
                  "source_generator": {
                    "name": "Writer"
                  }
                },
                "umilog": {
                  "undated_dives": [
                    {
                      "uuid": "0198a6f0-0000-7000-8000-000000000002"
                    }
                  ]
                }
              }
            }

            """))
    }

    @Test("where the document's umilog entry is not an object there is no place for them: they are lost, and said so")
    func noPlaceLosesThem() throws {
        var header = LogbookHeader()
        header.extensions = .object([.init("umilog", .string("v1"))])
        let (text, findings) = try Self.write(Self.dives, header: header)
        #expect(!text.contains("0198a6f0-0000-7000-8000-000000000002"))
        #expect(text.contains("\"umilog\": \"v1\""))
        let lost = try #require(findings.last)
        #expect(lost.description == "<input>: dropped[json.undated-dives-not-carried]: extensions: the document's extensions.umilog is not an object, so the dive with no start date cannot be written under extensions.umilog.undated_dives; not carried")
        #expect(lost.lostDives == 1)
    }
}
