import DiveKit
import DiveStore
import Foundation
import GRDB
import Testing
import TestSupport

// The examples of the DocC articles (Sources/DiveKit/DiveKit.docc), verbatim: each compiles
// here, and the tests below run it. `articlesMatchTheseExamples` fails when an article's code
// and this file's differ.

// Reading.md
/// The deepest dive of a dive log in any format umilog reads, and what its reader reported.
func deepestDive(in path: String) throws -> (metres: Double?, findings: [Finding]) {
    let file = try DiveKit.open(path: path)
    var deepest: Double?
    var findings: [Finding] = []
    while let dive = try file.next() {
        if let depth = dive.maxDepth, depth > deepest ?? -1 { deepest = depth }
        findings += file.takeFindings()
    }
    findings += file.takeFindings()
    return (deepest, findings)
}

// Reading.md
/// The dives of a table whose dates are written day first.
func readDayFirstTable(_ path: String) throws -> [Dive] {
    let file = try DiveKit.open(path: path, csv: CSVReadOptions(dateOrder: .dmy))
    var dives: [Dive] = []
    while let dive = try file.next() { dives.append(dive) }
    return dives
}

// Converting.md
/// Converts dive logs into one UDDF file; true when every dive of every input was written.
func convertToUDDF(_ inputs: [String], output: String) -> (written: Bool, problems: [String]) {
    let options = ConvertOptions(to: .uddf, output: output)
    let report = convert(inputs: inputs, options: options, standardOutput: FileSink(fd: 1, path: "-"))
    var problems: [String] = []
    for input in report.inputs {
        if let error = input.error { problems.append(error.description) }
        problems += renderFindings(input.findings)
    }
    return (!report.failed, problems)
}

// Converting.md
/// A dive log, whatever its format, as a DiveJSON document in memory.
func diveJSON(of path: String) throws -> [UInt8] {
    let file = try DiveKit.open(path: path)
    let memory = MemorySink()
    let report = convert(source: file, name: path, options: ConvertOptions(to: .json, exportedAt: "2025-01-01T00:00:00Z"),
                         standardOutput: memory)
    if let error = report.inputs.first?.error { throw error }
    return memory.bytes
}

// Validating.md
/// The diagnostics of dive logs as text lines, and the exit code `umilog validate` gives them.
func validationLines(_ paths: [String]) -> (lines: [String], exitCode: Int32) {
    let report = validate(paths: paths, options: ValidateOptions(failOn: .error))
    var lines = report.diagnostics.compactMap { renderDiagnostic($0, as: .text) }
    lines += report.failures.map(\.description)
    lines.append(validationSummary(report))
    return (lines, report.exitCode)
}

// Importing.md
/// Imports dive logs into the logbook at `logbook`, merging the dives another source
/// already brought; the number of dives added, and the errors of the files that failed.
func importFiles(_ paths: [String], into logbook: String) throws -> (added: Int, errors: [DiveError]) {
    let store = try LogbookStore(path: logbook)
    let report = store.importLogbooks(paths, options: ImportOptions(onDuplicate: .merge))
    let errors = report.failed.compactMap { file -> DiveError? in
        if case .failed(let error) = file.status { return error }
        return nil
    }
    return (report.inserted, errors)
}

// Importing.md
/// Saves one dive at a catalog site, with one sighting, as the app's wizard does.
func saveWizardDive(to store: LogbookStore, site: String, species: String) throws -> SaveReport {
    var dive = Dive(uuid: "7d1c5b0e-9a52-4c1e-8f35-0b6f2e4a9d17",
                    startedAt: DiveDateTime(date: LocalDate(year: 2025, month: 5, day: 1)!, time: TimeOfDay(hour: 9, minute: 30)))
    dive.siteUUIDs = [site]
    dive.maxDepth = 18.5
    dive.submergedTime = 47 * 60
    dive.sightings = [Sighting(speciesUUID: species, count: 2)]
    return try store.save([dive])
}

// Backfilling.md
/// Places the logbook's dives (within 300 m of a site), makes sites where dives cluster away
/// from any, and lists the dives still without a place.
func placeDives(in store: LogbookStore) throws -> (changes: [String], stillPending: [PendingDive]) {
    let report = try store.backfill(BackfillOptions(radius: 300))
    let created = try store.createSitesFromGPS(radius: 300)
    let changes = (report.changes + created.changes).map(\.description)
    return (changes, try store.pendingDives().filter { $0.status == "pending" })
}

// README.md, "Using the library"
/// Reads a dive log in any format, converts it to UDDF, imports it into a logbook, and saves
/// a dive made in memory as the app's wizard does.
func logbookTour(log path: String, uddf: String, logbook: String) throws -> SaveReport {
    // Open: the format comes from the file's bytes; dives come one at a time.
    let file = try DiveKit.open(path: path)
    print("\(path): \(file.format.entry.name)")
    while let dive = try file.next() {
        print(dive.number ?? 0, dive.startedAt?.description ?? "no date", dive.maxDepth ?? 0)
        for finding in file.takeFindings() { print(finding) }
    }

    // Convert: the output gets its name only when every dive was written.
    let converted = convert(inputs: [path], options: ConvertOptions(to: .uddf, output: uddf),
                            standardOutput: FileSink(fd: 1, path: "-"))
    for input in converted.inputs { if let error = input.error { throw error } }

    // Import: all of the file's dives or none; importing it again adds nothing.
    let store = try LogbookStore(path: logbook)
    _ = try store.seedCatalog()
    let imported = store.importLogbooks([path])
    print("\(imported.inserted) dives added, \(imported.alreadyImported) already there")

    // The wizard save: a dive, its sightings and its site's list state, in one transaction.
    // Catalog ids never change: this is the seed catalog's green sea turtle.
    let turtle = "a04c663f-6f16-58ae-bb22-9df9bba074a0"
    var dive = Dive(uuid: "0e5f3c52-4b8a-4d8e-9a0c-3f1f6b7d2a11",
                    startedAt: DiveDateTime(date: LocalDate(year: 2025, month: 5, day: 1)!, time: TimeOfDay(hour: 9, minute: 30)))
    dive.siteUUIDs = try store.searchSites("Shark Observatory").prefix(1).map(\.id)
    dive.maxDepth = 18.5
    dive.sightings = [Sighting(speciesUUID: turtle, count: 2)]
    return try store.save([dive])
}

@Suite struct DocumentationExampleTests {
    @Test("every swift block of the DocC articles is, imports aside, code of this file")
    func articlesMatchTheseExamples() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        var blocks = 0
        for article in ["Reading", "Converting", "Validating", "Importing", "Backfilling"] {
            let text = try String(contentsOfFile: Paths.root + "/Sources/DiveKit/DiveKit.docc/\(article).md", encoding: .utf8)
            let parts = text.components(separatedBy: "```swift\n").dropFirst()
            #expect(!parts.isEmpty, "\(article).md has no example")
            for part in parts {
                let code = part.components(separatedBy: "```")[0].split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("import ") }.joined(separator: "\n").trimmingCharacters(in: .newlines)
                #expect(source.contains(code), "an example of \(article).md is not in this file as it is written there")
                blocks += 1
            }
        }
        #expect(blocks == 8)
        // README.md's example, the block of its "Using the library" section that defines a function.
        let readme = try String(contentsOfFile: Paths.root + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Using the library\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        let examples = section.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }.filter { $0.contains("func ") }
        #expect(examples.count == 1)
        for example in examples {
            let code = example.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }
                .joined(separator: "\n").trimmingCharacters(in: .newlines)
            #expect(source.contains(code), "README.md's example is not in this file as it is written there")
        }
    }

    @Test("README: the tour opens, converts, imports and saves; the dive is at its catalog site, the site visited")
    func readmeTour() throws {
        let dir = try Paths.temporaryDirectory()
        let report = try logbookTour(log: Paths.samples + "/logbook.uddf", uddf: dir + "/copy.uddf", logbook: dir + "/logbook.sqlite")
        #expect(report.saved == ["0e5f3c52-4b8a-4d8e-9a0c-3f1f6b7d2a11"])
        #expect(report.placed.contains { $0.code == "visited" })
        #expect(try DiveKit.open(path: dir + "/copy.uddf").readAll().0.dives.count == 5)
        let store = try LogbookStore(path: dir + "/logbook.sqlite")
        #expect(try store.stats().dives == 6)
        #expect(try store.stats().speciesSeen >= 1)
        let again = try logbookTour(log: Paths.samples + "/logbook.uddf", uddf: dir + "/copy.uddf", logbook: dir + "/logbook.sqlite")
        #expect(again.alreadySaved == ["0e5f3c52-4b8a-4d8e-9a0c-3f1f6b7d2a11"])
        #expect(try store.stats().dives == 6)
    }

    @Test("Reading: the deepest dive of a UDDF file and of a day-first table")
    func reading() throws {
        let (metres, findings) = try deepestDive(in: Paths.samples + "/logbook.uddf")
        #expect(metres == 28.3)
        #expect(findings.allSatisfy { $0.location.file == Paths.samples + "/logbook.uddf" })
        #expect(try readDayFirstTable(Paths.samples + "/csv/ambiguous-dates.csv").first?.startedAt?.date.description == "2023-04-03")
        #expect(throws: DiveError.self) { try deepestDive(in: Paths.samples + "/invalid/format.unknown.txt") }
    }

    @Test("Converting: inputs to one UDDF file, and an opened file to DiveJSON in memory")
    func converting() throws {
        let out = try Paths.temporaryDirectory() + "/all.uddf"
        let (written, problems) = convertToUDDF([Paths.samples + "/dive.fit", Paths.samples + "/logbook.uddf"], output: out)
        #expect(written, "\(problems)")
        #expect(try DiveKit.open(path: out).readAll().0.dives.count == 6)
        let json = String(decoding: try diveJSON(of: Paths.samples + "/dive.fit"), as: UTF8.self)
        #expect(json.hasPrefix("{"))
        #expect(json.contains("\"format\": \"divejson\"") || json.contains("\"format\":\"divejson\""))
    }

    @Test("Validating: a clean file passes, an invalid one fails with its located diagnostic")
    func validating() {
        let clean = validationLines([Paths.samples + "/logbook.uddf"])
        #expect(clean.exitCode == 0, "\(clean.lines)")
        #expect(clean.lines.contains { $0.contains("warning[uddf.not-carried]") })
        let invalid = validationLines([Paths.samples + "/invalid/dive.gas-over-100.uddf"])
        #expect(invalid.exitCode == 1)
        #expect(invalid.lines.contains { $0.hasPrefix(Paths.samples + "/invalid/dive.gas-over-100.uddf:") && $0.contains("[dive.gas-over-100]") })
    }

    @Test("Importing and the wizard save: files into a logbook, then a dive from memory, saved once")
    func importingAndSaving() throws {
        let dir = try Paths.temporaryDirectory()
        let (added, errors) = try importFiles([Paths.samples + "/pair"], into: dir + "/logbook.sqlite")
        #expect(added == 5)
        #expect(errors.isEmpty)
        let store = try LogbookStore(path: dir + "/logbook.sqlite")
        _ = try store.seedCatalog()
        let (site, turtle) = try #require(try catalogSiteAndSpecies(in: dir + "/logbook.sqlite"))
        let first = try saveWizardDive(to: store, site: site, species: turtle)
        #expect(first.saved == ["7d1c5b0e-9a52-4c1e-8f35-0b6f2e4a9d17"])
        let again = try saveWizardDive(to: store, site: site, species: turtle)
        #expect(again.saved.isEmpty && again.alreadySaved == ["7d1c5b0e-9a52-4c1e-8f35-0b6f2e4a9d17"])
        #expect(try store.stats().dives == 6)
    }

    @Test("Backfilling: the pair's dives placed, none left pending twice")
    func backfilling() throws {
        let dir = try Paths.temporaryDirectory()
        let store = try LogbookStore(path: dir + "/logbook.sqlite")
        _ = try store.seedCatalog()
        _ = store.importLogbooks([Paths.samples + "/logbook.uddf"])
        let (changes, _) = try placeDives(in: store)
        #expect(changes.contains { $0.hasPrefix("visited: ") })
        #expect(try placeDives(in: store).changes.isEmpty)
    }

    /// A catalog site's id and a catalog species' id, straight from the logbook file.
    private func catalogSiteAndSpecies(in path: String) throws -> (String, String)? {
        try DatabaseQueue(path: path).read { db in
            guard let site = try String.fetchOne(db, sql: "SELECT id FROM site WHERE kind = 'catalog' ORDER BY rowid LIMIT 1"),
                  let species = try String.fetchOne(db, sql: "SELECT id FROM species WHERE kind = 'catalog' ORDER BY rowid LIMIT 1") else { return nil }
            return (site, species)
        }
    }
}
