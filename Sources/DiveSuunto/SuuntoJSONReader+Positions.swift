import DiveCore

/// Entry and exit positions, by `converting.md`'s *Where a fix belongs* (DiveCore's
/// ``FixChoice``): the deepest sample splits the fixes; on each side the fix nearest it is
/// taken, or the nearest within 40 s of it whose stated error (`EHPE`) is at most 10 m.
extension SuuntoJSONReader {
    func positions(_ streams: SampleStreams, depth: Series?) -> (entry: Position?, exit: Position?) {
        guard let firstFix = streams.fixes.first else { return (nil, nil) }
        guard let split = FixChoice.split(depth) else {
            report(.dropped, "positions-without-depth",
                   "\(streams.fixes.count) position\(streams.fixes.count == 1 ? "" : "s") and no depth reading to tell the descent from the surfacing; neither an entry nor an exit is carried",
                   path: firstFix.at.path, line: firstFix.line, column: firstFix.column)
            return (nil, nil)
        }
        // In the source's order of time and sample; a route origin states no error.
        let fixes = streams.timeOrdered(streams.fixes)
        let choices = fixes.map { f in
            FixChoice.Fix(time: f.t, position: f.position, error: f.isOrigin ? nil : streams.errors[f.t])
        }
        // Of fixes at one instant, the later in the file is the nearer the split before it and
        // the farther after it: each side is chosen from the order that says so (the rule's
        // sort keeps the order it is given among equal times).
        let entry = FixChoice.choose(choices.reversed(), split: split).entry
        let exit = FixChoice.choose(choices, split: split).exit
        /// The source fix a choice took: the first on its side, in that side's order, equal to it.
        func source(_ choice: FixChoice.Choice?, before: Bool) -> Int? {
            guard let choice else { return nil }
            let side = before ? Array(choices.indices.reversed()) : Array(choices.indices)
            guard let i = side.first(where: { choices[$0] == choice.fix && (before ? choices[$0].time < split : choices[$0].time > split) }) else { return nil }
            if choice.passedOverNearest {
                let f = fixes[i]
                report(.resolved, "fix-vouched",
                       "the fix taken is not the one nearest the deepest sample: that one's stated error is above 10 m or unstated, and this one, within 40 s of it, states 10 m or less",
                       path: f.at.path, line: f.line, column: f.column)
            }
            return i
        }
        let taken = [source(entry, before: true), source(exit, before: false)].compactMap { $0 }
        let rest = fixes.indices.filter { !taken.contains($0) }
        if let i = rest.first {
            let f = fixes[i]
            report(.dropped, "track-not-carried",
                   "\(rest.count) position\(rest.count == 1 ? " is" : "s are") the rest of the route besides the entry and the exit, which a dive carries alone; not carried",
                   path: f.at.path, line: f.line, column: f.column)
        }
        return (entry?.fix.position, exit?.fix.position)
    }
}
