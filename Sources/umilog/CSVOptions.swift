import ArgumentParser
import DiveKit

/// How a CSV input is read where the file does not say: shared by every command that reads one.
struct CSVInputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The day/month order of a CSV's dates when every date could be either (10/1/13).", valueName: "dmy|mdy"))
    var dateOrder: DateOrder?

    @Option(help: ArgumentHelp("The start of a CSV profile that records no date (ISO 8601, e.g. 2024-05-01T10:12).", valueName: "DATETIME"))
    var startedAt: String?

    @Option(name: .customLong("map"), help: ArgumentHelp("What a CSV column holds, over what umilog understood (repeatable): 'Tiefe [m]=max_depth:m', '3=sample_depth:ft'.", valueName: "COLUMN=FIELD[:UNIT]"))
    var maps: [String] = []

    @Option(help: ArgumentHelp("A saved CSV mapping (JSON, as `umilog csv inspect --write-mapping` writes it).", valueName: "FILE.json"), completion: .file())
    var mapping: String?

    @Flag(help: "Stop a CSV at its first bad value instead of reporting it and reading the rest.")
    var strict = false

    /// The reader's options; a bad `--map`, `--started-at` or mapping file is a usage error.
    func readOptions() throws -> CSVReadOptions {
        do {
            return try CSVReadOptions.from(dateOrder: dateOrder, startedAt: startedAt, maps: maps, mappingFile: mapping, strict: strict)
        } catch let e as DiveError {
            throw ValidationError(e.location.file == nil ? e.message : e.description)
        }
    }
}

/// Only the two orders a day and a month can be in: a year first is never ambiguous.
extension DateOrder: ExpressibleByArgument {
    public init?(argument: String) {
        guard let order = DateOrder(rawValue: argument), order != .ymd else { return nil }
        self = order
    }
    public static var allValueStrings: [String] { ["dmy", "mdy"] }
}
