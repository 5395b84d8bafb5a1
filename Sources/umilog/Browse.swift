import ArgumentParser
import DiveCore
import DiveKit
import DiveStore

/// `umilog dives`: the logbook's dives in the order they were dived (the app's History screen).
struct Dives: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the logbook's dives in the order they were dived.",
        discussion: "One line a dive: number, date and time, site, maximum depth, duration, water temperature. --site takes every dive at a site whose name (or an alias) holds every word given; --since and --until take days (YYYY-MM-DD)."
    )
    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }
    @Option(help: "Only the dives at a site whose name or an alias holds every word of this.") var site: String?
    @Option(help: ArgumentHelp("Only the dives on or after this day.", valueName: "YYYY-MM-DD")) var since: String?
    @Option(help: ArgumentHelp("Only the dives on or before this day.", valueName: "YYYY-MM-DD")) var until: String?
    @Option(help: "At most this many dives.") var limit: Int?
    @Flag(help: "Print the dives as one JSON object.") var json = false
    @Flag(name: .shortAndLong, help: "Print the dives only, not their count.") var quiet = false

    func validate() throws {
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, day(value) == nil { throw ValidationError("\(name) \(value) is not a day (YYYY-MM-DD)") }
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let items = try open(db, create: false).dives(DiveListQuery(site: site, since: since.flatMap(day), until: until.flatMap(day), limit: limit))
        if json { printLine(BrowseJSON.dives(items), colour: false); return }
        for line in diveListLines(items) { printLine(line) }
        if !quiet { printError("\(items.count) dive\(items.count == 1 ? "" : "s")") }
    }
}

/// The list as text, one aligned line a dive.
func diveListLines(_ items: [DiveListItem]) -> [String] {
    let rows: [[String]] = items.map { d in
        [d.number.map { "#\($0)" } ?? "#–", [d.date ?? "undated", d.startTime.map { String($0.prefix(5)) }].compactMap { $0 }.joined(separator: " "),
         d.siteName ?? "–", d.maxDepth.map { "\(HumanNumbers.metres($0)) m" } ?? "–", d.bottomTime.map(HumanNumbers.duration) ?? "–",
         d.waterTemperature.map { "\(HumanNumbers.celsius($0)) °C" } ?? ""]
    }
    let widths = (0..<6).map { c in rows.map { $0[c].count }.max() ?? 0 }
    return rows.map { r in
        r.enumerated().map { c, v in c == 5 ? v : v + String(repeating: " ", count: widths[c] - v.count) }.joined(separator: "  ").trimmingWhitespace()
    }
}

func day(_ text: String) -> LocalDate? {
    guard let (d, notes) = DiveDateTime.parse(text), notes.dateOnly, d.time == nil else { return nil }
    return d.date
}

/// `umilog show N`: one dive in full (the app's Dive detail screen).
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print one dive of the logbook in full: site, depth and time, gases, computer, people, species, notes and a profile sparkline.",
        discussion: "N is the dive's number in the logbook. With --json, the dive as a DiveJSON document (the export's shape)."
    )
    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }
    @Argument(help: "The dive's number.") var number: Int
    @Flag(help: "Print the dive as a DiveJSON document.") var json = false

    func run() throws {
        let store = try open(db, create: false)
        if json {
            let source = try LogbookExport(store: store, scope: ExportScope(diveNumber: number))
            guard source.count > 0 else { return try noDive(store) }
            let report = DiveKit.convert(source: source, name: db, options: ConvertOptions(to: .json), standardOutput: FileSink(fd: 1, path: "-"))
            for input in report.inputs { if let e = input.error { printError(e.description) } }
            if report.failed { throw ExitCode(1) }
            return
        }
        let (dives, header) = try store.dives(numbered: number)
        guard !dives.isEmpty else { return try noDive(store) }
        for (i, d) in dives.enumerated() {
            if i > 0 { printLine("") }
            for line in renderDive(d, header: header) { printLine(line) }
        }
    }

    private func noDive(_ store: LogbookStore) throws {
        let numbers = try store.dives().compactMap(\.number)
        let range = numbers.isEmpty ? "it holds no numbered dive" : "its dives are numbered \(numbers.min()!)–\(numbers.max()!)"
        printError("\(db): error[store.no-such-dive]: the logbook has no dive \(number); \(range) (umilog dives lists them)")
        throw ExitCode(1)
    }
}

/// `umilog species search|popular`: the species catalog and what the logbook saw.
struct Species: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find species by name, and the species the logbook's dives saw most.",
        subcommands: [Search.self, Popular.self]
    )

    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Species whose scientific or common name holds every word given (prefixes too), best first.")
        @OptionGroup var logbook: LogbookOption
        var db: String { logbook.path }
        @Argument(help: "Words of the name.") var text: [String]
        @Option(help: "At most this many species.") var limit: Int = 20
        @Flag(help: "Print the species as one JSON object.") var json = false
        @Flag(name: .shortAndLong, help: "Print the species only, not their count.") var quiet = false

        func validate() throws {
            if limit < 1 { throw ValidationError("--limit must be at least 1") }
            if text.joined().allSatisfy({ !$0.isLetter && !$0.isNumber }) { throw ValidationError("give words of the name to search for") }
        }

        func run() throws {
            let found = try open(db, create: false).searchSpecies(text.joined(separator: " "), limit: limit)
            if json { printLine(BrowseJSON.species(found), colour: false); return }
            for s in found { printLine(speciesLine(s.scientificName, s.commonName, s.sightings)) }
            if !quiet { printError("\(found.count) species") }
        }
    }

    struct Popular: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The species the logbook's dives saw most, optionally in one catalog region.")
        @OptionGroup var logbook: LogbookOption
        var db: String { logbook.path }
        @Option(help: "At most this many species.") var limit: Int = 12
        @Option(help: "Only dives at sites of this catalog region (its id).") var region: String?
        @Flag(help: "Print the species as one JSON object.") var json = false
        @Flag(name: .shortAndLong, help: "Print the species only, not their count.") var quiet = false

        func validate() throws { if limit < 1 { throw ValidationError("--limit must be at least 1") } }

        func run() throws {
            let found = try open(db, create: false).popular(limit: limit, region: region)
            if json { printLine(BrowseJSON.popular(found), colour: false); return }
            for s in found { printLine(speciesLine(s.scientificName, s.commonName, s.sightings)) }
            if !quiet { printError("\(found.count) species") }
        }
    }
}

func speciesLine(_ scientific: String?, _ common: String?, _ sightings: Int) -> String {
    let name = [common, scientific.map { common == nil ? $0 : "(\($0))" }].compactMap { $0 }.joined(separator: " ")
    return "\(name.isEmpty ? "?" : name) — \(sightings) sighting\(sightings == 1 ? "" : "s")"
}

/// `umilog sites near LAT LON` (the Map screen) and `umilog sites search TEXT`.
struct SitesNear: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "near", abstract: "The sites within --radius metres of a position, nearest first.")
    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }
    /// LAT LON: read as plain words so that a negative one (south, west) is a number, not an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The position: latitude and longitude in degrees (south and west negative).", valueName: "LAT LON"))
    var position: [String] = []
    var latitude: Double { Double(position[0])! }
    var longitude: Double { Double(position[1])! }
    @Option(parsing: .unconditional, help: "How far, in metres.") var radius: Double = 5000
    @Option(help: "At most this many sites.") var limit: Int = 50
    @Flag(help: "Print the sites as one JSON object.") var json = false
    @Flag(name: .shortAndLong, help: "Print the sites only, not their count.") var quiet = false

    func validate() throws {
        guard position.count == 2, position.allSatisfy({ Double($0)?.isFinite == true }) else {
            throw ValidationError("give the position as two numbers, latitude and longitude in degrees (got \(position.isEmpty ? "none" : position.joined(separator: " ")))")
        }
        try checkRadius(radius)
        guard (-90...90).contains(latitude) else { throw ValidationError("the latitude must be between -90 and 90 degrees, not \(latitude)") }
        guard (-180...180).contains(longitude) else { throw ValidationError("the longitude must be between -180 and 180 degrees, not \(longitude)") }
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let found = try open(db, create: false).sitesNear(latitude: latitude, longitude: longitude, radius: radius, limit: limit)
        if json { printLine(BrowseJSON.sites(found.map(\.site), distances: found.map(\.distance)), colour: false); return }
        for f in found {
            let d = f.distance < 1000 ? "\(Int(f.distance.rounded())) m" : "\(HumanNumbers.rounded(f.distance / 1000, places: 1)) km"
            printLine("\(f.site.name) — \(d) (\(HumanNumbers.rounded(f.site.latitude!, places: 5)), \(HumanNumbers.rounded(f.site.longitude!, places: 5)))")
        }
        if !quiet { printError("\(found.count) site\(found.count == 1 ? "" : "s") within \(HumanNumbers.rounded(radius, places: 0)) m") }
    }
}

struct SitesSearch: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Sites whose name or an alias holds every word given (prefixes too), best first.")
    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }
    @Argument(help: "Words of the name.") var text: [String]
    @Option(help: "At most this many sites.") var limit: Int = 20
    @Flag(help: "Print the sites as one JSON object.") var json = false
    @Flag(name: .shortAndLong, help: "Print the sites only, not their count.") var quiet = false

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
        if text.joined().allSatisfy({ !$0.isLetter && !$0.isNumber }) { throw ValidationError("give words of the name to search for") }
    }

    func run() throws {
        let found = try open(db, create: false).searchSites(text.joined(separator: " "), limit: limit)
        if json { printLine(BrowseJSON.sites(found), colour: false); return }
        for s in found {
            let position = s.latitude.map { lat in " (\(HumanNumbers.rounded(lat, places: 5)), \(HumanNumbers.rounded(s.longitude!, places: 5)))" } ?? ""
            printLine("\(s.name)\(position) — \(s.kind)")
        }
        if !quiet { printError("\(found.count) site\(found.count == 1 ? "" : "s")") }
    }
}
