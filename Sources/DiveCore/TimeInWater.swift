/// A dive's time in the water and its mean depth, derived from its depth samples where the
/// source states no figure for the dive itself (DiveJSON `docs/converting.md`, *A dive's time
/// in the water*).
///
/// With the depth samples in time order, the interval from each sample to the next counts as
/// in the water when that sample is strictly deeper than 1.2 m (the documented default
/// dive-start depth of Suunto and Garmin). The time is the sum of the counted intervals in
/// whole seconds, halves away from zero; the mean depth is the time-weighted mean of each
/// counted interval's two ends, to two decimals.
public enum TimeInWater {
    /// The depth below which a sample counts as in the water, in metres.
    public static let threshold = 1.2

    /// The derived figures, or `nil` when no interval counts (no depth samples, or no sample
    /// deeper than the threshold that another sample follows).
    /// - Parameters:
    ///   - times: milliseconds, ascending.
    ///   - depths: metres at the source's own precision, one per time.
    public static func derive(times: [Int], depths: [Double]) -> (seconds: Int, meanDepth: Double)? {
        guard times.count == depths.count, times.count >= 2 else { return nil }
        var total = 0
        var area = 0.0
        for i in 0..<(times.count - 1) where depths[i] > threshold {
            let length = times[i + 1] - times[i]
            guard length > 0 else { continue }
            total += length
            area += Double(length) * (depths[i] + depths[i + 1]) / 2
        }
        guard total > 0 else { return nil }
        let seconds = Int((Double(total) / 1000).rounded(.toNearestOrAwayFromZero))
        let mean = (area / Double(total) * 100).rounded(.toNearestOrAwayFromZero) / 100
        return (seconds, mean)
    }
}

/// Which of a dive's satellite fixes are its entry and its exit (DiveJSON
/// `docs/converting.md`, *Where a fix belongs*): the deepest sample splits the dive, and on
/// each side the fix nearest it is taken — or, where the format states each fix's horizontal
/// error, the candidate nearest the split whose error is at most 10 m among the fixes at most
/// 40 s from the nearest one.
public enum FixChoice {
    /// One fix: its time on the profile's axis (ms), where it is, and its stated error (m).
    public struct Fix: Sendable, Hashable {
        /// Milliseconds on the profile's time axis.
        public var time: Int
        /// Where the fix puts the diver.
        public var position: Position
        /// The fix's horizontal error as the format states it, metres; `nil` when it states none.
        public var error: Double?
        /// Makes a fix at this time and place, with its stated error when known.
        public init(time: Int, position: Position, error: Double? = nil) {
            self.time = time; self.position = position; self.error = error
        }
    }

    /// The fix taken on one side, and whether the rule passed over the nearest one for it
    /// (a `resolved` finding).
    public struct Choice: Sendable, Hashable {
        /// The fix taken.
        public var fix: Fix
        /// True when the rule took this fix over one nearer the split.
        public var passedOverNearest: Bool
    }

    /// Milliseconds either side of the nearest fix within which a better one is looked for (40 s).
    public static let window = 40_000
    /// The largest horizontal error, metres, a fix may state to be preferred over the nearest one.
    public static let errorBound = 10.0

    /// Where a dive splits into its descent and its last ascent: the time of its deepest depth
    /// sample (the first of equal maxima); `nil` without depth samples.
    public static func split(_ depth: Series?) -> Int? {
        guard let depth, let top = depth.values.max(), let i = depth.values.firstIndex(of: top) else { return nil }
        return depth.times[i]
    }

    /// The entry and the exit fix; both `nil` without a split (no depth sample).
    public static func choose(_ fixes: [Fix], split: Int?) -> (entry: Choice?, exit: Choice?) {
        guard let split else { return (nil, nil) }
        let before = fixes.filter { $0.time < split }.sorted { $0.time > $1.time }   // nearest first
        let after = fixes.filter { $0.time > split }.sorted { $0.time < $1.time }
        return (pick(before), pick(after))
    }

    /// `side` is ordered nearest the split first.
    private static func pick(_ side: [Fix]) -> Choice? {
        guard let nearest = side.first else { return nil }
        guard side.contains(where: { $0.error != nil }) else { return Choice(fix: nearest, passedOverNearest: false) }
        for f in side where abs(f.time - nearest.time) <= window {
            if let e = f.error, e <= errorBound {
                return Choice(fix: f, passedOverNearest: f != nearest)
            }
        }
        return Choice(fix: nearest, passedOverNearest: false)
    }
}
