import DiveCore
import GRDB

/// Finding the logbook's dive that a newly read dive is, from another source: starts within
/// the tolerance (wall clock; two computers' clocks differ by minutes), durations and maximum
/// depths alike. A dive's own file never holds its duplicate, nor does the document it is read
/// from.
enum Duplicates {
    struct Match { var id: String; var label: String }

    /// The logbook's dive that `dive` is, if any: never one that came from `files` (the files the
    /// dive came from) nor one of `placed` (the dives the document being read went to so far).
    static func find(_ dive: Dive, files: [Int64], placed: Set<String>, tolerance t: DuplicateTolerance, db: Database) throws -> Match? {
        guard let start = dive.startedAt else { return nil }
        let key = start.wallClockSeconds
        // A day alone says too little: a dive logged with its date only is the same as one of
        // that day whose depth and duration both agree.
        let dateOnly = start.time == nil
        // Every candidate's key lies within the tolerance or on the dive's day (a date-only dive's
        // key is its midnight): a range the start index answers, so the lookup is not a scan.
        let day = start.date.daysSinceEpoch * 86400
        let rows = try Row.fetchAll(db, sql: """
            SELECT id, number, date, start_time, start_key, max_depth, bottom_time FROM dive
            WHERE start_key BETWEEN ? AND ?
              AND ((start_key BETWEEN ? AND ? AND start_time IS NOT NULL) OR ((? OR start_time IS NULL) AND date = ?))
              AND id NOT IN (SELECT dive_id FROM dive_source WHERE source_file_id IN (SELECT value FROM json_each(?)))
            ORDER BY abs(start_key - ?)
            """, arguments: [min(key - t.start, day), max(key + t.start, day + 86399),
                             key - t.start, key + t.start, dateOnly, start.date.description,
                             "[" + files.map(String.init).joined(separator: ",") + "]", key])
        for row in rows where !placed.contains(row["id"]) {
            let depth: Double? = row["max_depth"], duration: Int? = row["bottom_time"]
            let startTime: String? = row["start_time"]
            var agreed = 0
            if let a = dive.maxDepth, let b = depth {
                guard abs(a - b) <= max(t.depthMetres, t.depthFraction * max(a, b)) else { continue }
                agreed += 1
            }
            if let a = dive.submergedTime, let b = duration {
                guard abs(Double(a) - Double(b)) <= max(Double(t.durationSeconds), t.durationFraction * Double(max(a, b))) else { continue }
                agreed += 1
            }
            guard agreed >= ((dateOnly || startTime == nil) ? 2 : 1) else { continue }
            return Match(id: row["id"], label: label(row))
        }
        return nil
    }

    /// How a plan names the logbook's dive: its number and start (`#4 (2024-08-10 11:20:00)`),
    /// from a row with `number`, `date` and `start_time`.
    static func label(_ row: Row) -> String {
        let when = [row["date"] as String?, row["start_time"] as String?].compactMap { $0 }.joined(separator: " ")
        return (row["number"] as Int?).map { "#\($0) (\(when))" } ?? when
    }
}
