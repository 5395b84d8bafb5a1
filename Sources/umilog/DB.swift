import Foundation
import ArgumentParser
import DiveKit
import DiveStore

/// `umilog db …`: the logbook database itself.
struct DB: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Create and check a logbook database (SQLite).",
        subcommands: [Init.self, Check.self, Schema.self]
    )

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a logbook database, or bring an existing one up to date.",
            discussion: "With --seed, the bundled catalog is loaded: regions, areas and dive sites with coordinates, and species with common and scientific names and WoRMS AphiaIDs. Seeding again changes nothing."
        )
        @OptionGroup var logbook: LogbookOption
        var db: String { logbook.path }
        @Flag(help: "Load the bundled catalog of sites and species.") var seed = false
        @Flag(name: .shortAndLong, help: "Print nothing but errors.") var quiet = false

        func run() throws {
            let store = try open(db)
            let migrations = try store.appliedMigrations()
            if !quiet { printLine("\(db): logbook ready (schema \(migrations.joined(separator: ", ")))") }
            if seed {
                let r = try store.seedCatalog()
                if !quiet { printLine("catalog: \(r.regions) regions, \(r.areas) areas, \(r.sites) sites, \(r.species) species (\(r.added) rows added)") }
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run SQLite's integrity and foreign-key checks on a logbook.")
        @OptionGroup var logbook: LogbookOption
        var db: String { logbook.path }
        @Flag(name: .shortAndLong, help: "Print only the problems, not the summary.") var quiet = false
        @Flag(help: "Print the result as one JSON object (shape in the README).") var json = false

        func run() throws {
            let store = try open(db, create: false)
            let problems = try store.check()
            if json {
                printLine(StoreJSON.check(logbook: db, problems: problems), colour: false)
                if !problems.isEmpty { throw ExitCode(1) }
                return
            }
            for p in problems { printLine("\(db): \(p)") }
            if !quiet || !problems.isEmpty { printError(problems.isEmpty ? "\(db): integrity and foreign keys ok" : "\(db): \(problems.count) problem\(problems.count == 1 ? "" : "s")") }
            if !problems.isEmpty { throw ExitCode(1) }
        }
    }

    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the logbook schema as SQL (what schemas/logbook.sql holds).")
        @Option(help: "The logbook database file (a temporary one when omitted).", completion: .file()) var db: String?

        func run() throws {
            if let db {
                printText(try open(db, create: false).schemaDump())
            } else {
                printText(try LogbookStore.schemaSQL())
            }
        }
    }
}

/// Opens a logbook (an error is the file's: `Umilog.main` prints it located, exit 1). The
/// default logbook's XDG directory is made when the logbook is first created.
func open(_ path: String, create: Bool = true) throws -> LogbookStore {
    if create, DefaultLogbook.isDataDirectoryDefault(path), let dir = DefaultLogbook.dataDirectory() {
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    return try LogbookStore(path: path, create: create)
}

/// `--db`, optional everywhere: the logbook `UMILOG_DB` names when it is omitted, else
/// `logbook.sqlite` in umilog's XDG data directory (`~/.local/share/umilog`).
struct LogbookOption: ParsableArguments {
    @Option(help: ArgumentHelp("The logbook database file (default: $UMILOG_DB, else $XDG_DATA_HOME/umilog/logbook.sqlite, ~/.local/share/umilog/logbook.sqlite).", valueName: "db"), completion: .file())
    var db: String?

    /// The logbook named, or the default one (with no `HOME` either, `logbook.sqlite` here).
    var path: String { db ?? DefaultLogbook.path() ?? "logbook.sqlite" }
}
