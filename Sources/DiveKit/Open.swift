import DiveCSV

/// A dive-log file opened for reading, whatever its format: the format its bytes say it is
/// (or the one asked for), and that format's streaming reader, which it hands dives out of.
///
/// It is a `DiveSource`: read it with ``next()`` until `nil`, taking the
/// findings as you go, or give it to ``convert(source:name:divesTotal:options:standardOutput:)``.
public final class DiveLogFile: DiveSource {
    /// The file as it was named (`-` for standard input).
    public let path: String
    /// The format the file is read as.
    public let format: FileFormat
    /// The format's reader.
    private let reader: any DiveSource
    /// Standard input's copy, kept while the reader reads it.
    private let spool: AtomicFile?

    init(path: String, format: FileFormat, reader: any DiveSource, spool: AtomicFile?) {
        self.path = path; self.format = format; self.reader = reader; self.spool = spool
    }

    /// What the file said outside its dives, as read so far.
    public var header: LogbookHeader { reader.header }

    /// The next dive, or `nil` at the end of the file; throws a located `DiveError` where
    /// the file cannot be read.
    public func next() throws -> Dive? { try reader.next() }

    /// Findings reported since the last call (what the reader could not carry, and where).
    public func takeFindings() -> [Finding] { reader.takeFindings() }
}

/// Opens the dive log at `path` in whatever format it is in — every format of
/// ``FormatRegistry`` that umilog reads, zip archives of them included — deciding the format
/// from the file's bytes, never its name, as `umilog convert` and `inspect` do; `-` is
/// standard input. Called from another module as `DiveKit.open(path:)`.
///
/// - Parameters:
///   - path: the file, or `-` for standard input.
///   - format: read the file as this format instead of sniffing it (`--from`).
///   - csv: what a CSV file does not say (date order, column meanings); the defaults suit a
///     table whose header names its columns.
/// - Throws: the located `DiveError` the command line prints: `format.unknown`,
///   `format.unknown-xml`, `format.unknown-zip`, `format.unsupported-input` (a format umilog
///   recognises but does not read, named), `format.not-a-dive-log`, `format.empty`, `io.open`,
///   or the reader's own error at the first bytes it cannot read.
public func open(path: String, format: FileFormat? = nil, csv: CSVReadOptions = CSVReadOptions()) throws -> DiveLogFile {
    let forced = format
    let spool = path == "-" ? try spoolStandardInput() : nil
    let file = spool?.readPath ?? path
    let format = try forced ?? detectFormat(path: file, displayName: path, csv: csv)
    do {
        let reader = try openReader(path: file, format: format, displayName: path == "-" ? "<stdin>" : path, csv: csv)
        return DiveLogFile(path: path, format: format, reader: reader, spool: spool)
    } catch let e as DiveError where forced != nil {
        throw explainingForcedFormat(e, path: file, displayName: path, forced: format)
    }
}
