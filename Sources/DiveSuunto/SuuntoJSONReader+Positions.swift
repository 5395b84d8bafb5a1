import DiveCore

/// Entry and exit positions, by `converting.md`'s *Where a fix belongs*: the deepest sample
/// splits the fixes; on each side the fix nearest it is taken, or the nearest within 40 s of
/// it whose stated error (`EHPE`) is at most 10 m.
extension SuuntoJSONReader {
    static let fixWindow = 40_000
    static let fixBound = 10.0

    func positions(_ streams: SampleStreams, depth: Series?) -> (entry: Position?, exit: Position?) {
        guard let firstFix = streams.fixes.first else { return (nil, nil) }
        guard let depth, let deepest = depth.values.max(), let i = depth.values.firstIndex(of: deepest) else {
            report(.dropped, "positions-without-depth",
                   "\(streams.fixes.count) position\(streams.fixes.count == 1 ? "" : "s") and no depth reading to tell the descent from the surfacing; neither an entry nor an exit is carried",
                   path: firstFix.path, line: firstFix.line, column: firstFix.column)
            return (nil, nil)
        }
        let split = depth.times[i]
        let fixes = streams.fixes.sorted { $0.t != $1.t ? $0.t < $1.t : $0.k < $1.k }
        func error(_ f: SourceFix) -> Double? { f.isOrigin ? nil : streams.errors[f.t] }
        /// `side` is ordered nearest the split first.
        func choose(_ side: [SourceFix]) -> SourceFix? {
            guard let nearest = side.first else { return nil }
            let window = side.prefix { abs($0.t - nearest.t) <= Self.fixWindow }
            guard let vouched = window.first(where: { error($0).map { $0 <= Self.fixBound } ?? false }) else { return nearest }
            if vouched.t != nearest.t || vouched.k != nearest.k {
                report(.resolved, "fix-vouched",
                       "the fix taken is not the one nearest the deepest sample: that one's stated error is above 10 m or unstated, and this one, within 40 s of it, states 10 m or less",
                       path: vouched.path, line: vouched.line, column: vouched.column)
            }
            return vouched
        }
        let entry = choose(fixes.filter { $0.t < split }.reversed())
        let exit = choose(fixes.filter { $0.t > split })
        let rest = fixes.filter { f in ![entry, exit].contains { $0.map { $0.t == f.t && $0.k == f.k } ?? false } }
        if let f = rest.first {
            report(.dropped, "track-not-carried",
                   "\(rest.count) position\(rest.count == 1 ? " is" : "s are") the rest of the route besides the entry and the exit, which a dive carries alone; not carried",
                   path: f.path, line: f.line, column: f.column)
        }
        return (entry?.position, exit?.position)
    }
}
