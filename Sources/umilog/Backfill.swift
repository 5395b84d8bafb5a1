import ArgumentParser
import DiveKit
import DiveStore

struct Backfill: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give past dives their place: match them to sites, mark sites visited, resolve species, renumber.",
        discussion: """
            Each dive is matched to a catalog or user site by its position (within --radius) and \
            its site's name or aliases — never when two candidates remain. Dives with a position \
            and no site near it become `unmatched` (umilog sites create-from-gps makes sites of \
            them); dives with neither are `pending` (umilog sites pending lists them). Every change \
            is printed; running it again changes nothing.
            """
    )
    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }
    @Option(parsing: .unconditional, help: "How far a site may lie from a dive's position, in metres.") var radius: Double = 200
    func validate() throws { try checkRadius(radius) }
    @Flag(help: "Number the dives in the order they were dived when numbers are missing or clash.") var renumber = false
    @Flag(help: "Print the changes and make none.") var dryRun = false
    @Flag(name: .shortAndLong, help: "Print only the summary, not each change.") var quiet = false
    @Flag(help: "Print the result as one JSON object (shape in the README).") var json = false

    func run() throws {
        let report = try open(db, create: false).backfill(BackfillOptions(radius: radius, renumber: renumber, dryRun: dryRun))
        if json { printLine(StoreJSON.backfillReport(report), colour: false); return }
        if !quiet {
            for c in report.changes { printLine(c.description) }
            for c in report.ambiguous { printLine("note: " + c.description) }
        }
        let codes = ["site-matched", "status", "visited", "species-resolved", "renumbered"]
        var summary = codes.compactMap { code in report.count(code) > 0 ? "\(report.count(code)) \(code)" : nil }
        if !report.ambiguous.isEmpty { summary.append("\(report.ambiguous.count) left unmatched between two or more sites") }
        printError((dryRun ? "dry run, nothing changed: " : "") + (summary.isEmpty ? "nothing to change" : summary.joined(separator: ", ")))
    }
}

struct Sites: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The dives backfill could not place, and sites made from their positions.",
        subcommands: [Pending.self, CreateFromGPS.self, SitesNear.self, SitesSearch.self]
    )

    struct Pending: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the dives with no site: unmatched (a position, no site near) and pending (neither).")
        @OptionGroup var logbook: LogbookOption
        var db: String { logbook.path }
        @Flag(name: .shortAndLong, help: "Print the list only, not how many dives it holds.") var quiet = false
        @Flag(help: "Print the result as one JSON object (shape in the README).") var json = false

        func run() throws {
            let dives = try open(db, create: false).pendingDives()
            if json { printLine(StoreJSON.pending(dives), colour: false); return }
            for d in dives {
                let position = d.latitude.map { String(format: "%.5f, %.5f", $0, d.longitude!) } ?? "no position"
                printLine("\(d.status)\t\(d.number.map(String.init) ?? "-")\t\(d.date ?? "-")\t\(d.siteName ?? "-")\t\(position)\t\(d.id)")
            }
            if !quiet { printError("\(dives.count) dive\(dives.count == 1 ? "" : "s") without a site") }
        }
    }

    struct CreateFromGPS: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create-from-gps", abstract: "Make a site for each group of unmatched dives (positions within --radius), named after their log site or position.")
        @OptionGroup var logbook: LogbookOption
        var db: String { logbook.path }
        @Option(parsing: .unconditional, help: "Dives this close (metres) share one new site.") var radius: Double = 200
        func validate() throws { try checkRadius(radius) }
        @Flag(help: "Print the sites it would make and make none.") var dryRun = false
        @Flag(name: .shortAndLong, help: "Print only the summary, not each site.") var quiet = false
        @Flag(help: "Print the result as one JSON object (shape in the README).") var json = false

        func run() throws {
            let report = try open(db, create: false).createSitesFromGPS(radius: radius, dryRun: dryRun)
            if json { printLine(StoreJSON.backfillReport(report), colour: false); return }
            if !quiet { for c in report.changes { printLine(c.description) } }
            printError((dryRun ? "dry run, nothing changed: " : "") + "\(report.count("site-created")) site\(report.count("site-created") == 1 ? "" : "s") created")
        }
    }
}

/// `--radius` is a distance: a positive number of metres (bad usage, exit 2, otherwise).
func checkRadius(_ radius: Double) throws {
    guard radius > 0, radius.isFinite else {
        throw ValidationError("--radius must be a positive number of metres, not \(radius.formatted())")
    }
}

private extension Double {
    func formatted() -> String { self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : "\(self)" }
}
