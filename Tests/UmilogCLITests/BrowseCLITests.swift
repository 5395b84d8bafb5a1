import Foundation
import Testing
import TestSupport

/// The logbook to look at from the shell: `dives`, `show`, `species`, `sites near|search`,
/// their text and their `--json` shapes (README "Browsing the logbook"), on the sample logbook.
@Suite(.serialized) struct BrowseCLITests {
    static func logbook() throws -> String {
        let dir = try Paths.temporaryDirectory()
        let db = dir + "/l.sqlite"
        #expect(try umilog(["db", "init", "--db", db, "--seed"]).status == 0)
        #expect(try umilog(["import", "Samples/logbook.uddf", "--db", db]).status == 0)
        return db
    }

    @Test func divesListsOneAlignedLineADive() throws {
        let db = try Self.logbook()
        let r = try umilog(["dives", "--db", db, "--site", "ras"])
        #expect(r.status == 0)
        #expect(r.stdout == """
            #1  2024-03-02 09:15  Shark Reef, Ras Mohammed  28.3 m  44 min 40 s  24 °C
            #3  2024-03-03 10:30  Ras Umm Sid               21.3 m  47 min

            """)
        #expect(r.stderr == "2 dives\n")
        let json = try umilog(["dives", "--db", db, "--since", "2024-08-01", "--json"])
        #expect(json.stdout.hasPrefix("{\"dives\":[{\"id\":"))
        #expect(json.stdout.contains("\"number\":4,\"date\":\"2024-08-10\",\"time\":\"11:20:00\",\"utc_offset\":null,\"site\":\"Kaukajärvi, Hervannan uimaranta\",\"max_depth_m\":14,\"bottom_time_s\":1775,\"water_temperature_c\":8.1,\"status\":\"new\"}"))
        let bad = try umilog(["dives", "--db", db, "--since", "yesterday"])
        #expect(bad.status == 2 && bad.stderr.contains("--since yesterday is not a day (YYYY-MM-DD)"))
    }

    @Test func showPrintsOneDiveInFull() throws {
        let db = try Self.logbook()
        let r = try umilog(["show", "1", "--db", db])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Dive 1 — 2024-03-02 09:15:00 +02:00")
        // Read off Samples/logbook.uddf's first dive (lines 114–1861).
        #expect(lines.contains("site:        Shark Reef, Ras Mohammed (Ras Mohammed National Park, South Sinai)"))
        #expect(lines.contains("position:    27.7342, 34.2567"))
        #expect(lines.contains("depth:       max 28.3 m, average 16.8 m"))
        #expect(lines.contains("duration:    44 min 40 s"))
        #expect(lines.contains("gases:       1: Air, 12 l, 200 → 70 bar"))
        #expect(lines.contains("             2: EAN50, 7 l, 200 → 150 bar"))
        #expect(lines.contains("people:      Leila Haddad"))
        #expect(lines.contains { $0.hasPrefix("profile:     ") && $0.contains(" 0–28.3 m over ") })
        #expect(lines.contains("  Switched to EAN50 at the 6 m stop."))
        let json = try umilog(["show", "1", "--db", db, "--json"])
        #expect(json.status == 0 && json.stdout.contains("\"format\": \"divejson\"") && json.stdout.contains("\"number\": 1"))
        let missing = try umilog(["show", "42", "--db", db])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("error[store.no-such-dive]: the logbook has no dive 42; its dives are numbered 1–5 (umilog dives lists them)"))
    }

    @Test func speciesAndSites() throws {
        let db = try Self.logbook()
        let species = try umilog(["species", "search", "amphiprion", "ocel", "--db", db])
        #expect(species.stdout.contains("(Amphiprion ocellaris) — 0 sightings\n"))
        let sj = try umilog(["species", "search", "amphiprion ocel", "--db", db, "--json"])
        #expect(sj.stdout.contains("\"scientific_name\":\"Amphiprion ocellaris\"") && sj.stdout.contains("\"kind\":\"catalog\",\"sightings\":0"))
        let near = try umilog(["sites", "near", "27.7342", "34.2567", "--radius", "7000", "--db", db, "--json"])
        #expect(near.status == 0)
        #expect(near.stdout.contains("{\"id\":"))
        #expect(near.stdout.contains("\"name\":\"Jackfish Alley\",\"latitude\":27.7861,\"longitude\":34.2789,\"kind\":\"log\",\"distance_m\":"))
        // South and west are negative numbers, not options.
        let south = try umilog(["sites", "near", "-8.4", "115.6", "--radius", "30000", "--db", db])
        #expect(south.status == 0, "\(south.stderr)")
        let search = try umilog(["sites", "search", "jackfish", "--db", db])
        // The log's site and the catalog's of the same name (backfill has not matched them yet).
        #expect(search.stdout.contains("Jackfish Alley (27.7861, 34.2789) — log\n") && search.stdout.contains("— catalog\n"))
        for (args, message) in [(["sites", "near", "-8.4"], "give the position as two numbers"), (["sites", "near", "95", "1"], "the latitude must be between -90 and 90 degrees"),
                                (["sites", "near", "1", "1", "--radius", "-5"], "--radius must be a positive number of metres, not -5")] {
            let r = try umilog(args + ["--db", db])
            #expect(r.status == 2 && r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }

    /// The dive numbers of a CSV export's rows (a row begins with its number and its date).
    static func numbers(_ csv: String) -> [String] {
        csv.split(whereSeparator: \.isNewline).compactMap { line in line.contains(",2024-") ? line.split(separator: ",").first.map(String.init) : nil }
    }

    @Test func exportSiteWordsAndSinceUntil() throws {
        let db = try Self.logbook()
        let r = try umilog(["export", "--db", db, "--to", "csv", "--site", "mohammed ras", "-q"])
        #expect(r.status == 0 && Self.numbers(r.stdout) == ["1"])
        let range = try umilog(["export", "--db", db, "--to", "csv", "--since", "2024-03-03", "--until", "2024-08-10", "-q"])
        #expect(Self.numbers(range.stdout) == ["3", "4", "5"])
        let older = try umilog(["export", "--db", db, "--to", "csv", "--from", "2024-03-03", "--to", "2024-03-03"])
        #expect(older.status == 0 && Self.numbers(older.stdout) == ["3"])
        #expect(older.stderr.contains("umilog: note: the date range is --since DAY --until DAY now; --from and a second --to keep working"))
        let both = try umilog(["export", "--db", db, "--to", "csv", "--since", "2024-03-03", "--from", "2024-03-03"])
        #expect(both.status == 2)
    }
}
