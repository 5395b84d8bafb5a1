import ArgumentParser
import DiveKit
#if canImport(Glibc)
import Glibc
#endif

/// An error as a command that takes `--from` prints it: a file the sniffer does not
/// recognise gets the option that names its format.
func describeWithFromHint(_ e: DiveError) -> String {
    e.code == "format.unknown" ? e.description + "; name its format with --from \(FileFormat.readable.filter { $0 != .csvProfile }.map(\.rawValue).joined(separator: "|"))" : e.description
}

@main
struct Umilog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "umilog",
        abstract: "Read, convert and check dive logs: UDDF, DiveJSON, CSV and Subsurface XML in and out; Garmin FIT, Suunto, Shearwater, MacDive, Diving Log, UDCF, DAN DL7, JDiveLog, Seac Sync, Divesoft, Uwatec DataTrak, SmartTRAK and libdivecomputer exports in, and zip archives of them.",
        version: "0.1.0",
        subcommands: [Convert.self, Inspect.self, Validate.self, Conform.self, CSV.self, DB.self, Import.self, Export.self, Stats.self, Dives.self, Show.self, Species.self, Backfill.self, Sites.self, Plot.self]
    )

    /// Exit codes: 0 success, 1 an input failed, 2 bad usage.
    static func main() {
        // SIGINT, SIGTERM, SIGHUP and SIGPIPE remove an unfinished output's temporary first.
        removeTemporariesOnSignals()
        if let message = unknownHelpTopic(Array(CommandLine.arguments.dropFirst())) {
            printError(message)
            Glibc.exit(2)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Glibc.exit(exit.rawValue)
        } catch let e as DiveError {
            // An input or a logbook that cannot be read: located, exit 1 (not bad usage).
            printError(e.description)
            Glibc.exit(1)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                printLine(fullMessage(for: error), colour: false)
                Glibc.exit(0)
            }
            printError(fullMessage(for: error))
            Glibc.exit(2)
        }
    }
}

/// `umilog help X Y`: the error for a command X (or X's subcommand Y) that does not exist —
/// bad usage, exit 2, as an unknown command is everywhere else — or nil.
func unknownHelpTopic(_ arguments: [String]) -> String? {
    guard arguments.first == "help" else { return nil }
    var command: ParsableCommand.Type = Umilog.self
    var path = ["umilog"]
    for name in arguments.dropFirst() where !name.hasPrefix("-") {
        let subcommands = command.configuration.subcommands
        guard let next = subcommands.first(where: { $0._commandName == name }) else {
            let names = subcommands.map { $0._commandName }
            if names.isEmpty { return "Error: \(path.joined(separator: " ")) has no subcommands, so no \"\(name)\"" }
            return "Error: \(path.joined(separator: " ")) has no command \"\(name)\"; its commands are \(names.joined(separator: ", "))"
        }
        command = next
        path.append(name)
    }
    return nil
}

extension FileFormat: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// A `--to` value: a format umilog writes. `--to fit` is bad usage (exit 2), not a failed input.
struct WrittenFormat: ExpressibleByArgument {
    let format: FileFormat
    init?(argument: String) {
        guard let f = FileFormat(rawValue: argument), f.entry.writer != nil else { return nil }
        format = f
    }
    static var allValueStrings: [String] { FileFormat.writable.map(\.rawValue) }
    /// Shell completion offers the names (only an enum gets that by default).
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// A `--from` value: a format umilog reads.
struct ReadFormat: ExpressibleByArgument {
    let format: FileFormat
    init?(argument: String) {
        guard let f = FileFormat(rawValue: argument), f.entry.open != nil else { return nil }
        format = f
    }
    static var allValueStrings: [String] { FileFormat.readable.map(\.rawValue) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// The formats' names and what each is, from the registry, for help texts.
enum FormatHelp {
    static func describe(_ formats: [FileFormat]) -> String {
        let items = formats.map { "\($0.rawValue) (\($0.entry.name))" }
        return items.dropLast().joined(separator: ", ") + " or " + (items.last ?? "")
    }
    static var written: String { describe(FileFormat.writable) }
    static var read: String { describe(FileFormat.readable) }
}
extension UnitSystem: ExpressibleByArgument {}
extension DateOnlyStart: ExpressibleByArgument {}
