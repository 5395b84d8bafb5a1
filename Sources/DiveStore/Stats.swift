import DiveCore
import DiveJSON
import GRDB

/// What `umilog stats` reports of a logbook.
public struct LogbookStats: Sendable, Hashable {
    /// The dive that holds a record (the deepest, the longest).
    public struct Extreme: Sendable, Hashable {
        /// Its id.
        public var diveID: String
        /// Its number, when it has one.
        public var number: Int?
        /// The day it was dived (`YYYY-MM-DD`), when known.
        public var date: String?
        /// Metres for the deepest, seconds for the longest.
        public var value: Double
    }
    /// One calendar year's dives.
    public struct Year: Sendable, Hashable {
        /// The year.
        public var year: Int
        /// How many dives it holds.
        public var dives: Int
        /// Their durations summed, seconds.
        public var bottomTime: Int
        /// The deepest of them, metres; `nil` when none records its depth.
        public var deepest: Double?
    }
    /// How many dives the logbook holds.
    public var dives = 0
    /// Seconds, over the dives that record their duration.
    public var bottomTime = 0
    /// The deepest dive (``Extreme/value`` in metres).
    public var deepest: Extreme?
    /// The longest dive (``Extreme/value`` in seconds).
    public var longest: Extreme?
    /// Distinct places dived: a log site matched to a catalog site counts as that site.
    public var sitesVisited = 0
    /// Distinct species the dives' sightings name.
    public var speciesSeen = 0
    /// Dives with no date, left out of ``years``.
    public var undated = 0
    /// The dated dives by year, oldest first.
    public var years: [Year] = []

    /// The figures as a JSON object (`--json`).
    public var json: String {
        func extreme(_ e: Extreme?) -> JSONNode {
            guard let e else { return JSONNode(.null) }
            var m: [(String, JSONNode)] = [("dive_id", JSONNode(.string(e.diveID)))]
            if let n = e.number { m.append(("number", JSONNode(.number(String(n))))) }
            if let d = e.date { m.append(("date", JSONNode(.string(d)))) }
            m.append(("value", JSONNode(.number(DecimalNumber(e.value)?.description ?? String(e.value)))))
            return JSONNode.object(m)
        }
        func int(_ v: Int) -> JSONNode { JSONNode(.number(String(v))) }
        return JSONNode.object([
            ("dives", int(dives)), ("bottom_time_s", int(bottomTime)),
            ("deepest_m", extreme(deepest)), ("longest_s", extreme(longest)),
            ("sites_visited", int(sitesVisited)), ("species_seen", int(speciesSeen)), ("undated_dives", int(undated)),
            ("years", JSONNode(.array(years.map { y in
                JSONNode.object([("year", int(y.year)), ("dives", int(y.dives)), ("bottom_time_s", int(y.bottomTime)),
                                 ("deepest_m", y.deepest.map { JSONNode(.number(DecimalNumber($0)?.description ?? String($0))) } ?? JSONNode(.null))])
            }))),
        ]).compactText
    }
}

extension LogbookStore {
    /// Sums the logbook up, as `umilog stats` prints it; throws `store.database` when it cannot be read.
    public func stats() throws -> LogbookStats {
        try read { db in
            var s = LogbookStats()
            s.dives = try Int.fetchOne(db, sql: "SELECT count(*) FROM dive") ?? 0
            s.bottomTime = try Int.fetchOne(db, sql: "SELECT coalesce(sum(bottom_time), 0) FROM dive") ?? 0
            func extreme(_ column: String) throws -> LogbookStats.Extreme? {
                guard let r = try Row.fetchOne(db, sql: "SELECT id, number, date, \(column) AS v FROM dive WHERE \(column) IS NOT NULL ORDER BY \(column) DESC, start_key LIMIT 1") else { return nil }
                return .init(diveID: r["id"], number: r["number"], date: r["date"], value: r["v"])
            }
            s.deepest = try extreme("max_depth")
            s.longest = try extreme("bottom_time")
            s.sitesVisited = try Int.fetchOne(db, sql: """
                SELECT count(DISTINCT coalesce(s.canonical_site_id, s.id)) FROM dive d JOIN site s ON s.id = d.site_id
                """) ?? 0
            s.speciesSeen = try Int.fetchOne(db, sql: "SELECT count(DISTINCT species_id) FROM sighting") ?? 0
            s.undated = try Int.fetchOne(db, sql: "SELECT count(*) FROM dive WHERE date IS NULL") ?? 0
            s.years = try Row.fetchAll(db, sql: """
                SELECT CAST(substr(date, 1, 4) AS INTEGER) AS year, count(*) AS dives, coalesce(sum(bottom_time), 0) AS t, max(max_depth) AS deepest
                FROM dive WHERE date IS NOT NULL GROUP BY year ORDER BY year
                """).map { .init(year: $0["year"], dives: $0["dives"], bottomTime: $0["t"], deepest: $0["deepest"]) }
            return s
        }
    }
}
