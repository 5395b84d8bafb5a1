/// What umilog adds to its lines on a terminal: the progress line of a long job and the
/// colour of a severity. Plain text functions, so they are tested without a terminal.
public enum TerminalText {
    /// Whether `NO_COLOR` (its value, nil when unset) allows colour: set and not empty
    /// forbids it (https://no-color.org).
    public static func colourAllowed(noColor: String?) -> Bool { noColor?.isEmpty ?? true }

    /// `line` with its first severity or finding kind — `error[code]`, `warning[code]`,
    /// `note[code]` or `absent[…]`/`inferred[…]`/`resolved[…]`/`dropped[…]` at the start of
    /// the line or after `: ` — coloured: errors red, warnings yellow, notes and finding kinds
    /// cyan. A line without one is returned as it is.
    public static func paint(_ line: String) -> String {
        let colours: [(word: String, sgr: String)] = [
            ("error", "1;31"), ("warning", "33"), ("note", "36"),
            ("absent", "36"), ("inferred", "36"), ("resolved", "36"), ("dropped", "36"),
        ]
        var best: (range: Range<String.Index>, sgr: String)?
        for (word, sgr) in colours {
            var from = line.startIndex
            while let r = line.range(of: word + "[", range: from..<line.endIndex) {
                from = r.upperBound
                let before = line[line.startIndex..<r.lowerBound]
                guard before.isEmpty || before.hasSuffix(": ") || before.hasSuffix("more "),
                      let close = line[r.upperBound...].firstIndex(of: "]") else { continue }
                if best.map({ r.lowerBound < $0.range.lowerBound }) ?? true { best = (r.lowerBound..<line.index(after: close), sgr) }
                break
            }
        }
        guard let best else { return line }
        return line[..<best.range.lowerBound] + "\u{1B}[\(best.sgr)m" + line[best.range] + "\u{1B}[0m" + line[best.range.upperBound...]
    }

    /// The progress line: `3/12 files, 41.2 of 120.5 MB, 310 dives, 8.3 MB/s, ETA 0:09, name`,
    /// each part only when it is known, cut to `width` columns so that it never wraps.
    public static func progressLine(_ p: ProgressSnapshot, width: Int) -> String {
        var parts: [String] = []
        if p.filesTotal > 1 { parts.append("\(min(p.filesDone + 1, p.filesTotal))/\(p.filesTotal) files") }
        if let total = p.bytesTotal, total > 0 {
            parts.append("\(megabytes(p.bytesRead)) of \(megabytes(total)) MB")
        } else if p.bytesRead > 0 {
            parts.append("\(megabytes(p.bytesRead)) MB")
        }
        if let total = p.divesTotal {
            parts.append("\(p.dives) of \(total) dives")
        } else if p.dives > 0 {
            parts.append("\(p.dives) dive\(p.dives == 1 ? "" : "s")")
        }
        if p.elapsed > 0 {
            // The rate and what is left by bytes while they are being read; by dives when the
            // total is not known, or once every byte is read and a reader that scanned the
            // whole file first is handing out its dives.
            if let total = p.bytesTotal, total > 0, p.bytesRead > 0, p.bytesRead < total {
                let rate = Double(p.bytesRead) / p.elapsed
                parts.append("\(megabytes(Int(rate))) MB/s")
                parts.append("ETA \(clock(Double(total - p.bytesRead) / rate))")
            } else if p.dives > 0 {
                let rate = Double(p.dives) / p.elapsed
                parts.append("\(Int(rate.rounded())) dives/s")
                if let total = p.divesTotal { parts.append("ETA \(clock(Double(max(0, total - p.dives)) / rate))") }
            }
        }
        if !p.file.isEmpty, let name = p.file.split(separator: "/").last { parts.append(String(name)) }
        let line = parts.joined(separator: ", ")
        return line.count < width ? line : String(line.prefix(max(0, width - 2))) + "…"
    }

    /// Bytes as megabytes with one decimal.
    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Seconds as `m:ss`, or `h:mm:ss` from an hour.
    private static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let s = Int(seconds.rounded(.up))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(s / 3600):\(two(s % 3600 / 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }
}
