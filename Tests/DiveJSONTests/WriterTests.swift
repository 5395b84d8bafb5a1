import Testing
@testable import DiveJSON
import DiveCore

typealias Bytes = MemorySink

@Suite struct EmitterTests {
    @Test func layoutIsTheReferenceCorpusLayout() throws {
        let sink = Bytes()
        var e = JSONEmitter(sink: sink)
        e.beginObject()
        e.key("a"); e.string("x\"y\\\n\u{1}é")
        e.key("b"); e.beginArray(); e.endArray()
        e.key("c"); e.integers([0, -5, 12])
        e.key("d"); e.number(12); e.key("e"); e.number(2.70000029); e.key("f"); e.number(0.00001)
        e.key("g"); e.beginObject(); e.endObject()
        e.endObject()
        try e.finish()
        #expect(sink.text == """
            {
              "a": "x\\"y\\\\\\n\\u0001é",
              "b": [],
              "c": [
                0,
                -5,
                12
              ],
              "d": 12.0,
              "e": 2.70000029,
              "f": 1e-05,
              "g": {}
            }

            """)
    }
}

@Suite struct DiveJSONWriterTests {
    @Test func formatAndVersionComeFirstAndNothingIsNull() throws {
        let sink = Bytes()
        let w = DiveJSONWriter(sink: sink, generator: Generator(name: "umilog", version: "0.1.0"), exportedAt: "2026-11-22T10:00:00+00:00")
        var header = LogbookHeader()
        header.sourceFormat = "uddf"
        var dive = Dive(uuid: "u1", startedAt: DiveDateTime.parse("2024-01-02T09:00:00")!.0)
        dive.maxDepth = 12.5
        try w.write(dive, header: header)
        try w.write(Dive(uuid: "u2", startedAt: nil), header: header)
        try w.finish(header: header)
        #expect(sink.text.hasPrefix("{\n  \"format\": \"divejson\",\n  \"version\": \"1.0\",\n  \"exported_at\": \"2026-11-22T10:00:00+00:00\","))
        #expect(!sink.text.contains("null"))
        #expect(sink.text.contains("\"started_at\": \"2024-01-02T09:00:00\","))
        // The dive with no start is not in `dives` but under the umilog extension (UndatedDiveTests).
        #expect(sink.text.contains("\"umilog\": {\n      \"undated_dives\": [\n        {\n          \"uuid\": \"u2\"\n        }\n      ]"))
        #expect(sink.text.components(separatedBy: "\"uuid\": \"u2\"").count == 2)
        #expect(w.takeFindings().map(\.code) == ["json.dive-without-start"])
    }
}
