import DiveCore

/// Thinning a channel for drawing: a profile can hold a few hundred thousand samples and a
/// plot a thousand pixels across, so each pixel column keeps its lowest and its highest
/// reading (in time order) — at most two points a column, and every peak and trough the
/// eye could see stays where it was.
public enum Decimation {
    /// The indices of `series` to draw over `columns` pixel columns spanning `start…end`
    /// (milliseconds): per column the lowest and highest value, in time order, and the first
    /// and last sample of the channel so the line spans it. Increasing.
    public static func indices(_ series: Series, start: Int, end: Int, columns: Int) -> [Int] {
        let n = series.count
        guard n > 2, columns > 0 else { return Array(0..<n) }
        let span = max(end - start, 1)
        var out: [Int] = [0]
        out.reserveCapacity(min(n, 2 * columns + 2))
        var column = -1
        var low = 0, high = 0
        func flush() {
            guard column >= 0 else { return }
            for i in low == high ? [low] : [min(low, high), max(low, high)] where i != out.last! { out.append(i) }
        }
        series.values.withUnsafeBufferPointer { values in
            series.times.withUnsafeBufferPointer { times in
                for i in 0..<n {
                    let t = min(max(times[i], start), end)
                    let c = min((t - start) * columns / span, columns - 1)
                    if c != column {
                        flush()
                        column = c
                        low = i; high = i
                    } else {
                        if values[i] < values[low] { low = i }
                        if values[i] > values[high] { high = i }
                    }
                }
            }
        }
        flush()
        if out.last != n - 1 { out.append(n - 1) }
        return out
    }

    /// The channel's value at `time`, linearly between the samples either side; the first or
    /// last value outside them; `nil` for an empty channel.
    public static func value(of series: Series, at time: Int) -> Double? {
        guard let first = series.times.first else { return nil }
        if time <= first { return Double(series.values[0]) }
        if time >= series.times[series.count - 1] { return Double(series.values[series.count - 1]) }
        // The first sample after `time`.
        var lo = 0, hi = series.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if series.times[mid] <= time { lo = mid + 1 } else { hi = mid }
        }
        let t0 = series.times[lo - 1], t1 = series.times[lo]
        let v0 = Double(series.values[lo - 1]), v1 = Double(series.values[lo])
        return t1 == t0 ? v1 : v0 + (v1 - v0) * Double(time - t0) / Double(t1 - t0)
    }
}
