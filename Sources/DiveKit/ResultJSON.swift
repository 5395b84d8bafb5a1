import DiveCore
import DiveCSV
import DiveJSON

/// The `--json` shapes of the commands that print a result (documented in the README, kept by
/// snapshot tests): one JSON object per run, SI units with the unit in the member's name,
/// unknown values `null`.
public enum ResultJSON {
    static func string(_ s: String?) -> JSONNode { s.map { JSONNode(.string($0)) } ?? JSONNode(.null) }
    static func number(_ v: Double?) -> JSONNode { v.map { JSONNode(.number(DecimalNumber($0)?.description ?? String($0))) } ?? JSONNode(.null) }
    static func int(_ v: Int?) -> JSONNode { v.map { JSONNode(.number(String($0))) } ?? JSONNode(.null) }
    static func bool(_ v: Bool) -> JSONNode { JSONNode(.bool(v)) }
    static func array(_ items: [JSONNode]) -> JSONNode { JSONNode(.array(items)) }

    /// A finding: `{"file", "line", "column", "path", "kind", "code", "message", "lost_dives"}`.
    public static func finding(_ f: Finding) -> JSONNode {
        JSONNode.object([
            ("file", string(f.location.file)), ("line", int(f.location.line)), ("column", int(f.location.column)),
            ("path", string(f.location.path ?? f.location.field)), ("kind", string(f.kind.rawValue)), ("code", string(f.code)),
            ("message", string(f.message)), ("lost_dives", int(f.lostDives)),
        ])
    }

    /// An error: `{"file", "line", "column", "path", "code", "message"}`.
    public static func error(_ e: DiveError) -> JSONNode {
        JSONNode.object([
            ("file", string(e.location.file)), ("line", int(e.location.line)), ("column", int(e.location.column)),
            ("path", string(e.location.path ?? e.location.field)), ("code", string(e.code)), ("message", string(e.message)),
        ])
    }

    static func start(_ d: DiveDateTime?) -> JSONNode { string(d?.description) }

    /// `umilog inspect --json`: `{"file", "format", "format_name", "format_version", "generator",
    /// "dives", "undated_dives", "first_start", "last_start", "deepest": {"max_depth_m", "dive",
    /// "start"}|null, "longest": {"duration_s", "dive", "start"}|null, "samples", "findings": [finding]}`.
    public static func inspect(_ s: InspectSummary) -> String {
        JSONNode.object([
            ("file", string(s.path)), ("format", string(s.format.rawValue)), ("format_name", string(s.format.entry.name)),
            ("format_version", string(s.formatVersion)), ("generator", string(s.generator.map { [$0.name, $0.version].compactMap { $0 }.joined(separator: " ") })),
            ("dives", int(s.dives)), ("undated_dives", int(s.dateless)), ("first_start", start(s.firstStart)), ("last_start", start(s.lastStart)),
            ("deepest", s.deepest.map { JSONNode.object([("max_depth_m", number($0.depth)), ("dive", int($0.dive)), ("start", start($0.start))]) } ?? JSONNode(.null)),
            ("longest", s.longest.map { JSONNode.object([("duration_s", int($0.seconds)), ("dive", int($0.dive)), ("start", start($0.start))]) } ?? JSONNode(.null)),
            ("samples", int(s.samples)), ("findings", array(s.findings.map(finding))),
        ]).compactText
    }

    /// `umilog csv inspect --json`: `{"file", "dialect", "preset", "table": "summary"|"profile",
    /// "sample_interval_s", "date_order", "date_order_evidence", "columns": [{"index", "name",
    /// "meaning", "source"}], "metadata": [{"label", "value", "meaning"}], "dives": [{"number",
    /// "start", "max_depth_m", "duration_s", "samples"}], "findings": [finding], "error": error|null}`.
    public static func csvInspection(_ c: CSVInspection) -> String {
        let layout = c.layout
        return JSONNode.object([
            ("file", string(c.file)), ("dialect", string(layout.dialect.description)), ("preset", string(layout.preset?.id)),
            ("table", string(layout.kind == .summary ? "summary" : "profile")), ("sample_interval_s", number(layout.sampleInterval)),
            ("date_order", string(layout.dateOrder?.rawValue)), ("date_order_evidence", string(layout.dateOrderEvidence)),
            ("columns", array(layout.columns.map { col in
                JSONNode.object([("index", int(col.index + 1)), ("name", string(col.name)),
                                 ("meaning", string(col.meaning.map { m -> String in m.field == .ignored ? "not carried" : "\(m)" })),
                                 ("source", string(col.meaning == nil ? nil : col.source.rawValue))])
            })),
            ("metadata", array(layout.metadata.map { m in JSONNode.object([("label", string(m.label)), ("value", string(m.value)), ("meaning", string("\(m.meaning)"))]) })),
            ("dives", array(c.dives.map { d in
                JSONNode.object([("number", int(d.number)), ("start", start(d.startedAt)), ("max_depth_m", number(d.maxDepth)),
                                 ("duration_s", int(d.submergedTime)), ("samples", int(d.recordings.first?.profile?.sampleCount))])
            })),
            ("findings", array(c.findings.map(finding))), ("error", c.error.map(error) ?? JSONNode(.null)),
        ]).compactText
    }

    /// `umilog inspect DIR --json`: `{"files": [inspect object], "skipped": [{"path", "code",
    /// "message"}], "errors": [error]}`.
    public static func directory(_ summaries: [InspectSummary], skipped: [SkippedFile], errors: [DiveError]) -> String {
        let files = summaries.map { s in (try? JSONNode.parse(inspect(s))) ?? JSONNode(.null) }
        return JSONNode.object([
            ("files", array(files)),
            ("skipped", array(skipped.map { JSONNode.object([("path", string($0.path)), ("code", string($0.reason.code)), ("message", string($0.reason.message))]) })),
            ("errors", array(errors.map(error))),
        ]).compactText
    }
}
