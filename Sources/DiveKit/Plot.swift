import DivePlot
#if canImport(Glibc)
import Glibc
#endif

/// Which dive of a file to plot was not said, or not one the file has: bad usage (the caller
/// names its option).
public enum PlotChoiceError: Error, Equatable {
    /// The file holds `count` dives (more than one), and none was chosen.
    case diveRequired(count: Int)
    /// Dive `position` was chosen from a file of `count` dives.
    case outOfRange(position: Int, count: Int)
}

/// Draws one dive of the dive log at `path` (any format umilog reads, `-` for standard input)
/// as an SVG profile (see `ProfilePlot`).
///
/// - Parameters:
///   - path: the dive log to read (`-`: standard input).
///   - forced: the format to read it as; `nil` for the format its bytes say.
///   - position: the dive's 1-based place in the file; `nil` for a file of one dive.
///   - csv: what a CSV input does not say (date order, a profile's start, column meanings).
///   - plot: the drawing's size.
/// - Throws: ``PlotChoiceError`` for a missing or out-of-range `position`; a `DiveError`
///   for a file that cannot be read, holds no dive (`plot.no-dives`) or whose dive has no
///   profile (`plot.no-profile`).
public func plotDive(path: String, format forced: FileFormat? = nil, position: Int?, csv: CSVReadOptions = CSVReadOptions(),
                     plot: ProfilePlot = ProfilePlot()) throws -> [UInt8] {
    try withInputFile(path) { file in
        let name = path == "-" ? "<stdin>" : path
        let format = try forced ?? detectFormat(path: file, displayName: name, csv: csv)
        let reader = try openReader(path: file, format: format, displayName: name, csv: csv)
        var count = 0
        var chosen: Dive?
        while let dive = try reader.next() {
            count += 1
            _ = reader.takeFindings()
            if count == position || (position == nil && count == 1) { chosen = dive }
        }
        guard count > 0 else { throw DiveError("plot.no-dives", "the file holds no dive to plot", at: SourceLocation(file: name)) }
        if position == nil && count > 1 { throw PlotChoiceError.diveRequired(count: count) }
        guard let chosen else { throw PlotChoiceError.outOfRange(position: position ?? 0, count: count) }
        let index = (position ?? 1) - 1
        return try plot.svg(of: chosen, sites: reader.header.sites, number: index + 1,
                            location: SourceLocation(file: name, path: chosen.sourcePath(else: index)))
    }
}

/// Draws the dive a logbook holds under `number`, read through `source` (a logbook export
/// scoped to that number).
///
/// - Throws: a `DiveError` located at `name`: `plot.no-such-dive` when no dive has the
///   number, `plot.ambiguous-dive` when several have it, `plot.no-profile`.
public func plotDive(source: any DiveSource, name: String, number: Int, plot: ProfilePlot = ProfilePlot()) throws -> [UInt8] {
    var dives: [Dive] = []
    while let dive = try source.next() { dives.append(dive) }
    let location = SourceLocation(file: name, path: "dive \(number)")
    guard let dive = dives.first else { throw DiveError("plot.no-such-dive", "the logbook has no dive numbered \(number)", at: location) }
    guard dives.count == 1 else {
        let starts = dives.map { $0.startedAt.map { "\($0.date) \($0.time.map { String($0.description.prefix(5)) } ?? "")" } ?? "undated" }
        throw DiveError("plot.ambiguous-dive", "\(dives.count) dives are numbered \(number) (\(starts.joined(separator: ", "))); `umilog backfill --renumber` numbers them apart", at: location)
    }
    return try plot.svg(of: dive, sites: source.header.sites, location: location)
}

/// Writes a plot's SVG to `output` (standard output when `nil` or `-`) whole or not at all,
/// or, with `png`, the PNG `rsvg-convert` (librsvg) renders of it.
///
/// - Parameters:
///   - svg: the drawing, as `ProfilePlot` makes it (``plotDive(path:format:position:csv:plot:)``).
///   - output: the file to write; `nil` or `-` for standard output.
///   - png: true to write the PNG `rsvg-convert` renders instead of the SVG.
///   - searchPath: where `rsvg-convert` is looked for (`PATH` when `nil`).
/// - Throws: `plot.no-renderer` when `rsvg-convert` is not there, `plot.render-failed` when it
///   fails; `io.*` when the output cannot be written.
public func writePlot(_ svg: [UInt8], to output: String?, png: Bool, searchPath: String? = nil) throws {
    let destination = output == "-" ? nil : output
    let name = destination ?? "-"
    guard png else {
        if let destination {
            let file = try AtomicFile(destination: destination)
            try svg.withUnsafeBytes { try file.sink.write($0) }
            try file.commit()
        } else {
            try svg.withUnsafeBytes { try FileSink(fd: 1, path: "-").write($0) }
        }
        return
    }
    let path = searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    let candidates: [String] = path.split(separator: ":").map { "\($0)/rsvg-convert" }
    guard let renderer = candidates.first(where: { access($0, X_OK) == 0 }) else {
        throw DiveError("plot.no-renderer", "a PNG is rendered by rsvg-convert, which is not on PATH; install it (Debian, Ubuntu: apt-get install librsvg2-bin) or write the SVG", at: SourceLocation(file: name))
    }
    // The SVG and the renderer's messages go through scratch files with no name; the PNG
    // straight into the output, which gets its name only when the renderer succeeded.
    let input = try AtomicFile(destination: nil)
    try svg.withUnsafeBytes { try input.sink.write($0) }
    lseek(input.sink.fd, 0, SEEK_SET)
    let messages = try AtomicFile(destination: nil)
    let file = try destination.map { try AtomicFile(destination: $0) }
    let status = try runChild(renderer, ["-f", "png"], stdin: input.sink.fd, stdout: file?.sink.fd ?? 1, stderr: messages.sink.fd, name: name)
    guard status == 0 else {
        var said = [UInt8](repeating: 0, count: 2048)
        let n = pread(messages.sink.fd, &said, said.count, 0)
        let text = String(decoding: said.prefix(max(n, 0)), as: UTF8.self).trimmingWhitespace()
        throw DiveError("plot.render-failed", "rsvg-convert failed (exit status \(status))\(text.isEmpty ? "" : ": \(text)")", at: SourceLocation(file: name))
    }
    try file?.commit()
}

/// Runs `executable` with the given standard descriptors (`posix_spawn`) and waits for it:
/// its exit status, or 128 + the signal that ended it.
private func runChild(_ executable: String, _ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32, name: String) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 onto 0, 1, 2 clears close-on-exec there; a descriptor already in place is kept as it is.
    for (fd, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] where fd != target {
        posix_spawn_file_actions_adddup2(&actions, fd, target)
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard rc == 0 else {
        throw DiveError("plot.render-failed", "cannot run \(executable): \(String(cString: strerror(rc)))", at: SourceLocation(file: name))
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS, WTERMSIG by hand (the macros are not imported).
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}
