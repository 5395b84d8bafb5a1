/// A dive's maximum and mean depth as a log states them, judged by one rule for every reader:
/// 0 or less is a writer's placeholder for a depth it did not have (not recorded), a depth past
/// the deepest sea is dropped, and a mean deeper than the maximum, which no dive can have, is
/// dropped. Each judgement comes with a finding the reader locates and prefixes with its
/// format (`zero-max-depth` → `ssrf.zero-max-depth`).
public struct SummaryDepths: Sendable {
    /// The maximum depth, metres; `nil` when the log states none or the rule dropped it.
    public private(set) var max: Double?
    /// The mean depth, metres; `nil` when the log states none or the rule dropped it.
    public private(set) var mean: Double?
    /// Which of the two figures a finding is about, so a reader locates it without reading
    /// its message.
    public enum Member: Sendable { case max, mean }
    /// What the rule judged, in order: the figure, the finding's kind, its code without the format's prefix and its message.
    public private(set) var findings: [(member: Member, kind: FindingKind, code: String, message: String)] = []

    /// - Parameters:
    ///   - maxName, meanName: how the source names the two (`greatest depth`, `the mean depth`).
    public init(max: DecimalNumber?, mean: DecimalNumber?, maxName: String, meanName: String) {
        if let v = max {
            if v.isZero || v.isNegative {
                findings.append((.max, .absent, "zero-max-depth", "\(maxName) is \(v) m, a placeholder for a depth the writer did not have; read as not recorded"))
            } else if !InputLimits.Range.depthMetres.contains(v) {
                findings.append((.max, .dropped, "value-out-of-range", "\(maxName) \(v) m is deeper than any sea; not carried"))
            } else {
                self.max = v.doubleValue
            }
        }
        if let v = mean {
            if v.isZero || v.isNegative {
                findings.append((.mean, .absent, "zero-average-depth", "\(meanName) is \(v) m, a placeholder; read as not recorded"))
            } else if !InputLimits.Range.depthMetres.contains(v) {
                findings.append((.mean, .dropped, "value-out-of-range", "\(meanName) \(v) m is deeper than any sea; not carried"))
            } else if let m = self.max, m < v.doubleValue {
                findings.append((.mean, .dropped, "avg-depth-exceeds-max", "\(meanName) \(v) m is deeper than \(maxName) \(m) m, which no dive can be; not carried"))
            } else {
                self.mean = v.doubleValue
            }
        }
    }
}
