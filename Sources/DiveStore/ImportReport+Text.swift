import DiveCore
import DiveKit

/// The lines `umilog import` prints: one per file — its format, dives read, how many were
/// (or, in a dry run, would be) imported, already in the logbook, duplicates, its findings
/// counted — and, `verbose`, what happened to each dive and the findings themselves. A file
/// that failed is left to the caller, which prints its located error once, on standard error.
public func renderImport(_ report: ImportReport, verbose: Bool) -> [String] {
    var out: [String] = []
    let verb = report.dryRun ? "would be " : ""
    for file in report.files {
        switch file.status {
        case .skipped(let e):
            out.append("\(file.path): skipped: \(e.message)")
        case .unsupported(let format, _):
            out.append("\(file.path): unsupported: a \(format) logbook, which umilog does not read yet")
        case .failed:
            continue // printed with its location on standard error
        case .imported:
            let n = file.dives.count { if case .inserted = $0.outcome { true } else { false } }
            var line = "\(file.path): \(file.format?.rawValue ?? "?"), \(file.dives.count) dive\(file.dives.count == 1 ? "" : "s"), \(n) \(verb)imported"
            let already = file.dives.count { if case .alreadyImported = $0.outcome { true } else { false } }
            if already > 0 { line += ", \(already) already in the logbook" }
            for policy in DuplicatePolicy.allCases {
                let d = file.dives.count { if case .duplicate(_, _, policy) = $0.outcome { true } else { false } }
                if d > 0 { line += ", \(d) duplicate\(d == 1 ? "" : "s") \(verb)\(policy == .skip ? "skipped" : policy == .merge ? "merged" : "kept")" }
            }
            if !file.findings.isEmpty { line += "; \(summarizeFindings(file.findings))" }
            out.append(line)
            guard verbose else { continue }
            for d in file.dives {
                let what: String
                switch d.outcome {
                case .inserted: what = report.dryRun ? "insert" : "inserted"
                case .alreadyImported: what = "already in the logbook"
                case .duplicate(_, let label, let policy):
                    switch policy {
                    case .skip: what = "duplicate of \(label): \(verb)skipped"
                    case .merge: what = "duplicate of \(label): \(verb)merged"
                    case .keep: what = "duplicate of \(label): \(verb)kept as a dive of its own"
                    }
                }
                out.append("  dive \(d.index + 1) \(d.start ?? "(no start)"): \(what)")
            }
        }
        // As convert prints them: the first three of each kind, then how many more.
        if verbose { out += renderFindings(file.findings).map { "  " + $0 } }
    }
    return out
}

/// `12 files: 3 imported (41 dives, 2 duplicates skipped), 1 unsupported, 2 skipped, 0 failed`.
public func importSummary(_ r: ImportReport) -> String {
    let read = r.files.count { if case .imported = $0.status { true } else { false } }
    var parts = ["\(r.files.count) file\(r.files.count == 1 ? "" : "s")"]
    var dives = "\(r.inserted) dive\(r.inserted == 1 ? "" : "s") \(r.dryRun ? "would be " : "")added"
    if r.alreadyImported > 0 { dives += ", \(r.alreadyImported) already in the logbook" }
    if r.duplicates > 0 { dives += ", \(r.duplicates) duplicate\(r.duplicates == 1 ? "" : "s")" + (r.merged > 0 ? " (\(r.merged) merged)" : "") }
    parts.append("\(read) read (\(dives))")
    parts.append("\(r.unsupported.count) unsupported")
    parts.append("\(r.skipped.count) not dive logs")
    parts.append("\(r.failed.count) failed")
    return (r.dryRun ? "dry run, nothing changed: " : "") + parts.joined(separator: ", ")
}
