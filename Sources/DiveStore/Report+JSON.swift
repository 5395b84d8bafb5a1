import DiveCore
import DiveJSON
import DiveKit

/// The `--json` shapes of the logbook commands that print a result (documented in the README,
/// kept by snapshot tests): one JSON object per run.
public enum StoreJSON {
    static func string(_ s: String?) -> JSONNode { s.map { JSONNode(.string($0)) } ?? JSONNode(.null) }
    static func number(_ v: Double?) -> JSONNode { v.map { JSONNode(.number(DecimalNumber($0)?.description ?? String($0))) } ?? JSONNode(.null) }
    static func int(_ v: Int?) -> JSONNode { v.map { JSONNode(.number(String($0))) } ?? JSONNode(.null) }

    /// `umilog import --json`: `{"dry_run", "files": [{"path", "format", "status": "imported"|
    /// "skipped"|"unsupported"|"failed", "error": error|null, "dives": [{"id", "start", "index",
    /// "outcome": "inserted"|"already_imported"|"duplicate", "existing", "policy"}], "findings":
    /// [finding]}], "inserted", "already_imported", "duplicates", "merged", "failed_files",
    /// "lost_dives"}`.
    public static func importReport(_ r: ImportReport) -> String {
        JSONNode.object([
            ("dry_run", JSONNode(.bool(r.dryRun))),
            ("files", JSONNode(.array(r.files.map { f in
                let (status, error): (String, DiveError?) = {
                    switch f.status {
                    case .imported: return ("imported", nil)
                    case .skipped(let e): return ("skipped", e)
                    case .unsupported(_, let e): return ("unsupported", e)
                    case .failed(let e): return ("failed", e)
                    }
                }()
                return JSONNode.object([
                    ("path", string(f.path)), ("format", string(f.format?.rawValue)), ("status", string(status)),
                    ("error", error.map(ResultJSON.error) ?? JSONNode(.null)),
                    ("dives", JSONNode(.array(f.dives.map { d in
                        let (outcome, existing, policy): (String, String?, String?) = {
                            switch d.outcome {
                            case .inserted: return ("inserted", nil, nil)
                            case .alreadyImported(let e): return ("already_imported", e, nil)
                            case .duplicate(let e, _, let p): return ("duplicate", e, p.rawValue)
                            }
                        }()
                        return JSONNode.object([("id", string(d.diveID)), ("start", string(d.start)), ("index", int(d.index)),
                                                ("outcome", string(outcome)), ("existing", string(existing)), ("policy", string(policy))])
                    }))),
                    ("findings", JSONNode(.array(f.findings.map(ResultJSON.finding)))),
                ])
            }))),
            ("inserted", int(r.inserted)), ("already_imported", int(r.alreadyImported)), ("duplicates", int(r.duplicates)),
            ("merged", int(r.merged)), ("failed_files", int(r.failed.count)), ("lost_dives", int(r.lostDives)),
        ]).compactText
    }

    /// `umilog backfill --json` and `sites create-from-gps --json`: `{"dry_run", "changes":
    /// [{"code", "message"}], "ambiguous": [{"code", "message"}]}`.
    public static func backfillReport(_ r: BackfillReport) -> String {
        func changes(_ list: [BackfillChange]) -> JSONNode {
            JSONNode(.array(list.map { JSONNode.object([("code", string($0.code)), ("message", string($0.message))]) }))
        }
        return JSONNode.object([("dry_run", JSONNode(.bool(r.dryRun))), ("changes", changes(r.changes)), ("ambiguous", changes(r.ambiguous))]).compactText
    }

    /// `umilog sites pending --json`: `{"dives": [{"id", "number", "date", "site", "latitude",
    /// "longitude", "status"}]}`.
    public static func pending(_ dives: [PendingDive]) -> String {
        JSONNode.object([("dives", JSONNode(.array(dives.map { d in
            JSONNode.object([("id", string(d.id)), ("number", int(d.number)), ("date", string(d.date)), ("site", string(d.siteName)),
                             ("latitude", number(d.latitude)), ("longitude", number(d.longitude)), ("status", string(d.status))])
        })))]).compactText
    }

    /// `umilog db check --json`: `{"logbook", "ok", "problems": [text]}`.
    public static func check(logbook: String, problems: [String]) -> String {
        JSONNode.object([("logbook", string(logbook)), ("ok", JSONNode(.bool(problems.isEmpty))),
                         ("problems", JSONNode(.array(problems.map { JSONNode(.string($0)) })))]).compactText
    }
}
