/// Renders findings for a terminal: grouped by code so one habit of a whole file does not
/// bury the rest, the first few of each in full and a count of the others.
public func renderFindings(_ findings: [Finding], perCode limit: Int = 3) -> [String] {
    var order: [String] = []
    var groups: [String: [Finding]] = [:]
    for f in findings {
        if groups[f.code] == nil { order.append(f.code) }
        groups[f.code, default: []].append(f)
    }
    var lines: [String] = []
    for code in order {
        let group = groups[code]!
        for f in group.prefix(limit) { lines.append(f.description) }
        if group.count > limit {
            lines.append("  … and \(group.count - limit) more \(group[0].kind.rawValue)[\(code)]")
        }
    }
    return lines
}

/// `3 findings (1 resolved, 2 dropped)`, in the kinds' fixed order.
public func summarizeFindings(_ findings: [Finding]) -> String {
    guard !findings.isEmpty else { return "no findings" }
    let counts = Dictionary(grouping: findings, by: \.kind).mapValues(\.count)
    let parts = FindingKind.allCases.compactMap { k in counts[k].map { "\($0) \(k.rawValue)" } }
    return "\(findings.count) finding\(findings.count == 1 ? "" : "s") (\(parts.joined(separator: ", ")))"
}
