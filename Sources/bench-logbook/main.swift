// bench-logbook: the logbook at scale (issue 21, point 4). Not part of the test run.
//
//   bench-logbook [--db PATH] [--dives N] [--runs N] [--umilog PATH] [--json PATH]
//
// Makes (once) a logbook of N dives (default 20,000) with profiles in a seeded catalog logbook,
// then times the repository queries the app runs, an export of one site's dives and the app's
// one-dive wizard save, each `--runs` times (default 100, after 3 runs not counted), and prints
// p50/p95 as a Markdown table and as JSON. `scripts/bench-logbook.sh` builds it (release) and
// runs it; Benchmarks.md ("The logbook at 20,000 dives") says what the figures mean.
//
// The logbook is generated from a fixed-seed SplitMix64 generator (no clock, no system
// randomness), so the same --dives give the same dives. They are saved in batches of 1,000
// through LogbookStore.save — the path the app's wizard takes — rather than by writing UDDF
// with make-logbook and importing it: make-logbook's dives are at its own 20 sites and see no
// species, and these are spread over the catalog's sites (a quarter at log sites matched to a
// catalog site, as imported logs bring) with sightings of catalog species.

import DiveCore
import DiveKit
import DiveStore
import Foundation
import GRDB

// MARK: - Options

struct Options {
    var db = "bench-data/logbook-20000.sqlite"
    var dives = 20_000
    var runs = 100
    var umilog: String?
    var json: String?

    init(_ arguments: [String]) {
        var it = arguments.makeIterator()
        func value(_ flag: String) -> String {
            guard let v = it.next() else { fail("\(flag) needs a value") }
            return v
        }
        while let a = it.next() {
            switch a {
            case "--db": db = value(a)
            case "--dives": dives = Int(value(a)) ?? 0
            case "--runs": runs = Int(value(a)) ?? 0
            case "--umilog": umilog = value(a)
            case "--json": json = value(a)
            case "-h", "--help":
                print("usage: bench-logbook [--db PATH] [--dives N] [--runs N] [--umilog PATH] [--json PATH]")
                exit(0)
            default: fail("unknown argument \(a)")
            }
        }
        if dives < 1 || runs < 1 { fail("--dives and --runs take a positive number") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-logbook: \(message)\n".utf8))
    exit(2)
}

func note(_ message: String) {
    FileHandle.standardError.write(Data("bench-logbook: \(message)\n".utf8))
}

// MARK: - Generator

/// SplitMix64: small, fast, and the same sequence everywhere.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
}

/// Picks index k of n with weight 1/(k+1)^s (a few busy, many quiet).
struct Zipf {
    let cumulative: [Double]
    init(n: Int, s: Double) {
        var c: [Double] = [], total = 0.0
        for k in 0..<n { total += 1 / pow(Double(k + 1), s); c.append(total) }
        cumulative = c.map { $0 / total }
    }
    func pick(_ rng: inout SplitMix64) -> Int {
        let u = rng.unit()
        var lo = 0, hi = cumulative.count - 1
        while lo < hi { let mid = (lo + hi) / 2; if cumulative[mid] < u { lo = mid + 1 } else { hi = mid } }
        return lo
    }
}

struct CatalogSite { var id: String; var name: String; var lat: Double; var lon: Double }

/// The catalog's sites (in a fixed shuffled order: the busiest first) and species.
func catalog(_ path: String, rng: inout SplitMix64) throws -> (sites: [CatalogSite], species: [String]) {
    let q = try DatabaseQueue(path: path)
    return try q.read { db in
        var sites = try Row.fetchAll(db, sql: "SELECT id, name, lat, lon FROM site WHERE kind = 'catalog' AND lat IS NOT NULL ORDER BY id").map {
            CatalogSite(id: $0["id"], name: $0["name"], lat: $0["lat"], lon: $0["lon"])
        }
        for i in stride(from: sites.count - 1, to: 0, by: -1) { sites.swapAt(i, rng.int(0...i)) }
        var species = try String.fetchAll(db, sql: "SELECT id FROM species WHERE kind = 'catalog' ORDER BY id")
        for i in stride(from: species.count - 1, to: 0, by: -1) { species.swapAt(i, rng.int(0...i)) }
        return (sites, species)
    }
}

func uuid(_ kind: UInt64, _ n: Int) -> String {
    let hex = String(UInt64(n), radix: 16)
    return String(format: "%08llx-0000-4000-8000-", kind) + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
}

/// A dive of ~50 minutes sampled every 10 s: descent, a bottom that drifts up, ascent, a stop.
func profile(maxDepth: Double, minutes: Int, rng: inout SplitMix64) -> (Profile, start: Double, end: Double) {
    var p = Profile()
    var depth = Series(), temperature = Series(), pressure = Series()
    let total = minutes * 60, stop = 180, ascent = Int(maxDepth / 9 * 60), descent = Int(maxDepth / 18 * 60)
    var bar = 200.0 + Double(rng.int(0...20))
    let start = bar
    for t in stride(from: 0, through: total, by: 10) {
        var d: Double
        if t < descent { d = maxDepth * Double(t) / Double(descent) }
        else if t < total - ascent - stop { d = maxDepth * (1 - 0.2 * Double(t - descent) / Double(max(1, total - ascent - stop - descent))) }
        else if t < total - stop { d = max(5, maxDepth * 0.8 * Double(total - stop - t) / Double(ascent)) }
        else { d = t == total ? 0 : 5 }
        d = max(0, d + (rng.unit() - 0.5) * 0.4)
        depth.append(t * 1000, Int(d * 100))
        temperature.append(t * 1000, Int((26 - d * 0.1) * 100))
        bar -= (1 + d / 10) * 10 / 60 * 1.2
        pressure.append(t * 1000, Int(bar * 10))
    }
    p.duration = total
    p.depth = depth
    p.temperature = temperature
    p.pressures = [PressureSeries(gasNumber: 1, series: pressure)]
    return (p, start, bar)
}

/// Writes the logbook: the catalog, then `count` dives in batches through `save`.
func generate(_ options: Options) throws {
    let partial = options.db + ".partial"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
    let began = Date()
    let store = try LogbookStore(path: partial)
    _ = try store.seedCatalog()
    var rng = SplitMix64(state: 20_000)
    let (sites, species) = try catalog(partial, rng: &rng)
    let siteZipf = Zipf(n: sites.count, s: 0.8), speciesZipf = Zipf(n: species.count, s: 0.7)
    // A thousand log sites, as imported logs bring: each a catalog site's name at a position
    // within 100 m of it, which backfill matches to that site.
    var header = LogbookHeader()
    var logSiteOf: [[String]] = Array(repeating: [], count: sites.count)
    for k in 0..<1_000 {
        let i = siteZipf.pick(&rng), c = sites[i]
        var s = Site(uuid: uuid(0x5100_0000, k), name: c.name)
        s.position = Position(latitude: c.lat + (rng.unit() - 0.5) * 0.0012, longitude: c.lon + (rng.unit() - 0.5) * 0.0012)
        header.sites.append(s)
        logSiteOf[i].append(s.uuid)
    }
    let first = LocalDate(year: 1998, month: 1, day: 1)!.daysSinceEpoch
    var batch: [Dive] = []
    for n in 0..<options.dives {
        // Two dives a day (09:00, 14:00) on about two days of three.
        let day = first + n / 2 + n / 4
        var d = Dive(uuid: uuid(0xD1, n), startedAt: DiveDateTime(date: LocalDate(daysSinceEpoch: day)!,
                                                                  time: TimeOfDay(hour: n % 2 == 0 ? 9 : 14, minute: rng.int(0...59))))
        d.number = n + 1
        let i = siteZipf.pick(&rng)
        d.siteUUIDs = [rng.unit() < 0.25 && !logSiteOf[i].isEmpty ? logSiteOf[i][rng.int(0...logSiteOf[i].count - 1)] : sites[i].id]
        let maxDepth = 10 + rng.unit() * 25, minutes = rng.int(40...65)
        let (p, start, end) = profile(maxDepth: maxDepth, minutes: minutes, rng: &rng)
        var recording = Recording(profile: p)
        var device = Device(); device.brand = "Bench"; device.model = "Gen"; device.serial = "B-1"
        recording.device = device
        d.recordings = [recording]
        d.maxDepth = Double(p.depth!.maxValue!) / 100
        d.submergedTime = minutes * 60
        d.bottomTemperature = 26 - maxDepth * 0.1
        var cylinder = Cylinder()
        cylinder.volume = 12; cylinder.startPressure = start; cylinder.endPressure = end; cylinder.oxygen = 21; cylinder.gasNumber = 1
        d.cylinders = [cylinder]
        var seen = Set<Int>()
        for _ in 0..<rng.int(0...5) where seen.insert(speciesZipf.pick(&rng)).inserted {}
        d.sightings = seen.sorted().map { Sighting(speciesUUID: species[$0], count: rng.int(1...6)) }
        batch.append(d)
        if batch.count == 1_000 || n == options.dives - 1 {
            let report = try store.save(batch, header: header)
            if !report.findings.isEmpty { fail("the generated dives gave findings: \(report.findings.prefix(3))") }
            batch.removeAll(keepingCapacity: true)
            note("generated \(n + 1) dives (\(String(format: "%.1f", Date().timeIntervalSince(began))) s)")
        }
    }
    try DatabaseQueue(path: partial).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
    try FileManager.default.moveItem(atPath: partial, toPath: options.db)
    note("wrote \(options.db): \(options.dives) dives in \(String(format: "%.1f", Date().timeIntervalSince(began))) s")
}

// MARK: - Measuring

struct Measure {
    var name: String
    var detail: String
    var times: [Double] // seconds, in run order
    var budget: Double
    var sorted: [Double] { times.sorted() }
    /// The nearest-rank percentile.
    func percentile(_ p: Double) -> Double { let s = sorted; return s[max(0, Int((p / 100 * Double(s.count)).rounded(.up)) - 1)] }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Runs `body` 3 times uncounted, then `runs` times timed.
func measure(_ name: String, _ detail: String, budget: Double, runs: Int, _ body: (Int) throws -> Void) rethrows -> Measure {
    for k in 0..<3 { try body(-1 - k) }
    var times: [Double] = []
    for k in 0..<runs {
        let t0 = now()
        try body(k)
        times.append(Double(now() - t0) / 1e9)
    }
    return Measure(name: name, detail: detail, times: times, budget: budget)
}

// MARK: - Main

let options = Options(Array(CommandLine.arguments.dropFirst()))
if !FileManager.default.fileExists(atPath: options.db) {
    note("generating \(options.dives) dives into \(options.db)")
    try generate(options)
}
let store = try LogbookStore(path: options.db, create: false)
let facts = try DatabaseQueue(path: options.db, configuration: { var c = Configuration(); c.readonly = true; return c }()).read { db in
    (dives: try Int.fetchOne(db, sql: "SELECT count(*) FROM dive") ?? 0,
     sightings: try Int.fetchOne(db, sql: "SELECT count(*) FROM sighting") ?? 0,
     sites: try Int.fetchOne(db, sql: "SELECT count(*) FROM site") ?? 0,
     samples: try Int.fetchOne(db, sql: "SELECT sum(sample_count) FROM recording") ?? 0,
     busiest: try Row.fetchOne(db, sql: """
        SELECT c.name, c.lat, c.lon, count(*) AS n FROM dive d JOIN site s ON s.id = d.site_id JOIN site c ON c.id = coalesce(s.canonical_site_id, s.id)
        GROUP BY c.id ORDER BY n DESC LIMIT 1
        """)!,
     median: try Row.fetchOne(db, sql: """
        SELECT name, n FROM (SELECT c.name, count(*) AS n FROM dive d JOIN site s ON s.id = d.site_id JOIN site c ON c.id = coalesce(s.canonical_site_id, s.id)
        GROUP BY c.id) ORDER BY n LIMIT 1 OFFSET (SELECT count(DISTINCT coalesce(s.canonical_site_id, s.id)) FROM dive d JOIN site s ON s.id = d.site_id) / 2
        """)!)
}
let bytes = (try? FileManager.default.attributesOfItem(atPath: options.db)[.size] as? Int) ?? 0
let busyName: String = facts.busiest["name"], busyLat: Double = facts.busiest["lat"], busyLon: Double = facts.busiest["lon"]
let medianName: String = facts.median["name"]
note("\(options.db): \(facts.dives) dives, \(facts.sightings) sightings, \(facts.sites) sites, \(facts.samples) samples, \(bytes / 1_000_000) MB; busiest site \(busyName) (\(facts.busiest["n"] as Int) dives), median \(medianName) (\(facts.median["n"] as Int))")

let runs = options.runs
var results: [Measure] = []
// Searches cycle through a few texts so that no run repeats the last one.
let siteTexts = ["reef", "blue", "wreck", "point", "shark"]
let speciesTexts = ["fish", "ray", "shark", "turtle", "goby"]
let box = (minLat: busyLat - 1, maxLat: busyLat + 1, minLon: busyLon - 1, maxLon: busyLon + 1)
let scratch = (options.db as NSString).deletingLastPathComponent.isEmpty ? "." : (options.db as NSString).deletingLastPathComponent

var count = 0
results.append(try measure("stats()", "\(facts.dives) dives", budget: 0.1, runs: runs) { _ in count = try store.stats().dives })
results.append(try measure("fetchInBounds", "±1° around \(busyName)", budget: 0.1, runs: runs) { _ in
    count = try store.fetchInBounds(minLat: box.minLat, maxLat: box.maxLat, minLon: box.minLon, maxLon: box.maxLon).count
})
results.append(try measure("sitesNear", "50 km of \(busyName)", budget: 0.1, runs: runs) { _ in
    count = try store.sitesNear(latitude: busyLat, longitude: busyLon, radius: 50_000).count
})
results.append(try measure("searchSites", siteTexts.joined(separator: ", "), budget: 0.1, runs: runs) { k in
    count = try store.searchSites(siteTexts[(k + 10) % siteTexts.count]).count
})
results.append(try measure("searchSpecies", speciesTexts.joined(separator: ", "), budget: 0.1, runs: runs) { k in
    count = try store.searchSpecies(speciesTexts[(k + 10) % speciesTexts.count]).count
})
results.append(try measure("popular()", "all dives", budget: 0.1, runs: runs) { _ in count = try store.popular().count })
results.append(try measure("popular(region:)", "red-sea", budget: 0.1, runs: runs) { _ in count = try store.popular(region: "red-sea").count })
results.append(try measure("dives(site:)", "\(busyName)", budget: 0.1, runs: runs) { _ in count = try store.dives(DiveListQuery(site: busyName)).count })
results.append(try measure("dives()", "every dive, the History list", budget: 0.1, runs: runs) { _ in count = try store.dives().count })

/// One site's dives to a file as `export --site` writes them (in-process).
@MainActor func export(_ site: String, to format: FileFormat) throws -> Int {
    let source = try LogbookExport(store: store, scope: ExportScope(site: site), logbookState: format == .json)
    let out = "\(scratch)/export-site.\(format.rawValue)"
    let report = DiveKit.convert(source: source, name: options.db, divesTotal: source.count,
                                 options: ConvertOptions(to: format, output: out), standardOutput: FileSink(fd: 1, path: "-"))
    if report.failed { fail("export failed: \(report.inputs.compactMap(\.error))") }
    return source.count
}
for (label, site) in [("busiest", busyName), ("median", medianName)] {
    var exported = 0
    for format in [FileFormat.csv, .json] {
        results.append(try measure("export --site --to \(format.rawValue)", "\(label) site, \(try export(site, to: format)) dives", budget: 1, runs: runs) { _ in
            exported = try export(site, to: format)
        })
    }
    _ = exported
}
if let umilog = options.umilog {
    results.append(try measure("umilog export --site --to csv", "the CLI process, busiest site", budget: 1, runs: runs) { _ in
        let p = Process()
        p.executableURL = URL(fileURLWithPath: umilog)
        p.arguments = ["export", "--db", options.db, "--site", busyName, "--to", "csv", "-o", "\(scratch)/export-cli.csv", "-q"]
        try p.run()
        p.waitUntilExit()
        if p.terminationStatus != 0 { fail("umilog export exited \(p.terminationStatus)") }
    })
}

// The wizard's save: one new dive at the busiest site with two sightings, each run a new id.
let saveSite = try DatabaseQueue(path: options.db).read { db in
    (site: try String.fetchOne(db, sql: "SELECT id FROM site WHERE name = ? AND kind = 'catalog'", arguments: [busyName])!,
     species: try String.fetchAll(db, sql: "SELECT id FROM species WHERE kind = 'catalog' ORDER BY id LIMIT 2"),
     next: (try Int.fetchOne(db, sql: "SELECT max(number) FROM dive") ?? 0) + 1)
}
var saveNumber = saveSite.next
var savedIDs: [String] = []
results.append(try measure("save (wizard)", "1 dive, 2 sightings, list state", budget: 0.1, runs: runs) { _ in
    savedIDs.append(UUID().uuidString.lowercased())
    var d = Dive(uuid: savedIDs.last!, startedAt: DiveDateTime(date: LocalDate(year: 2026, month: 11, day: 25)!, time: TimeOfDay(hour: 10, minute: 0)))
    d.number = saveNumber; saveNumber += 1
    d.siteUUIDs = [saveSite.site]
    d.maxDepth = 18.4; d.submergedTime = 2_880
    d.sightings = [Sighting(speciesUUID: saveSite.species[0], count: 2), Sighting(speciesUUID: saveSite.species[1])]
    let report = try store.save([d])
    if report.saved.count != 1 { fail("the save did not add the dive") }
})
_ = count
// The saved dives are removed again (their sightings with them), so that every run measures
// the same logbook.
try DatabaseQueue(path: options.db).write { db in
    try db.execute(sql: "DELETE FROM dive WHERE id IN (SELECT value FROM json_each(?))", arguments: ["[" + savedIDs.map { "\"\($0)\"" }.joined(separator: ",") + "]"])
}

// MARK: - Output

func ms(_ s: Double) -> String { String(format: "%.2f", s * 1000) }
var table = "| operation | what | p50 ms | p95 ms | max ms | budget ms | p95 within |\n| --- | --- | ---: | ---: | ---: | ---: | --- |\n"
for m in results {
    table += "| \(m.name) | \(m.detail) | \(ms(m.percentile(50))) | \(ms(m.percentile(95))) | \(ms(m.sorted.last!)) | \(Int(m.budget * 1000)) | \(m.percentile(95) < m.budget ? "yes" : "**no**") |\n"
}
print(table, terminator: "")
let json = "{\"logbook\":{\"path\":\"\(options.db)\",\"bytes\":\(bytes),\"dives\":\(facts.dives),\"sightings\":\(facts.sightings),\"sites\":\(facts.sites),\"samples\":\(facts.samples)},\"runs\":\(runs),\"cores\":\(ProcessInfo.processInfo.activeProcessorCount),\"results\":["
    + results.map { m in
        "{\"operation\":\"\(m.name)\",\"what\":\"\(m.detail.replacingOccurrences(of: "\"", with: "\\\""))\",\"p50_ms\":\(ms(m.percentile(50))),\"p95_ms\":\(ms(m.percentile(95))),\"max_ms\":\(ms(m.sorted.last!)),\"budget_ms\":\(Int(m.budget * 1000))}"
    }.joined(separator: ",") + "]}"
print(json)
if let path = options.json { try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: path)) }

