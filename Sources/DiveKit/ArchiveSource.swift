import DiveArchive
import DiveCore

/// A zip archive of dive logs — Garmin Connect's export of an activity (a zip holding its
/// `.fit`), a zipped Shearwater or Subsurface export — read entry by entry: each entry is the
/// format its own bytes say (the registry's sniff), streamed out of the archive through the zip
/// layer and its limits into an unnamed temporary, and read by that format's reader. Findings
/// name the entry as `archive.zip(entry)`. An entry that is not a dive log is reported and
/// skipped; a dive whose id only says where it lies in its file (FIT, Suunto and Shearwater
/// exports) gets the entry's name in its id, so two entries' first dives are two dives
/// (DiveJSON's fit-mapping.md, *Identity*).
final class ArchiveDiveSource: DiveSource {
    private(set) var header = LogbookHeader()
    private let archive: ZipArchive
    private let displayName: String
    private let options: ReadOptions
    /// The entries still to read, last first.
    private var pending: [ZipEntry]
    private var current: (reader: any DiveSource, entry: ZipEntry, spool: AtomicFile)?
    private var findings: [Finding] = []

    /// The most bytes of an entry its sniff reads.
    static let sniffBytes = 64 * 1024

    init(path: String, displayName: String, options: ReadOptions) throws {
        archive = try ZipArchive(path: path, displayName: displayName)
        self.displayName = displayName
        self.options = options
        pending = archive.entries.filter { !$0.isDirectory }.reversed()
    }

    func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    func next() throws -> Dive? {
        while true {
            if let c = current {
                if var dive = try c.reader.next() {
                    findings += c.reader.takeFindings()
                    header.merge(c.reader.header)
                    if dive.provenance?.positionalIdentity == true {
                        dive.uuid = Identity.uuid5(namespace: dive.uuid, name: "member:\(c.entry.name)")
                    }
                    return dive
                }
                findings += c.reader.takeFindings()
                header.merge(c.reader.header)
                current = nil
            }
            guard let entry = pending.popLast() else { return nil }
            try open(entry)
        }
    }

    /// The name findings give an entry: the archive's, with the entry's in parentheses.
    private func name(_ entry: ZipEntry) -> String { "\(displayName)(\(entry.name))" }

    /// Sniffs `entry` and, when it is a dive log umilog reads, spools it and opens its reader.
    private func open(_ entry: ZipEntry) throws {
        switch try Self.classify(entry, in: archive, displayName: name(entry), csv: options.csv) {
        case .notRead(let what):
            findings.append(Finding(.dropped, "zip.entry-not-read", "the entry is \(what); not read", at: SourceLocation(file: name(entry))))
        case .readable(let format, let spool):
            let reader = try openReader(path: spool.readPath, format: format, displayName: name(entry), csv: options.csv)
            current = (reader, entry, spool)
        }
    }

    /// What an entry is: a dive log umilog reads, spooled to a temporary to be read by path, or
    /// why it is not read. A table is a dive log only when it is a dive table, as a file is.
    enum EntryKind {
        case readable(FileFormat, AtomicFile)
        case notRead(String)
    }

    static func classify(_ entry: ZipEntry, in archive: ZipArchive, displayName: String, csv: CSVReadOptions) throws -> EntryKind {
        struct Enough: Error {}
        var head: [UInt8] = []
        do {
            try archive.read(entry) { chunk in
                head.append(contentsOf: chunk.prefix(sniffBytes - head.count))
                if head.count >= sniffBytes { throw Enough() }
            }
        } catch is Enough {}
        let sniffed = Sniffer.sniff(head, isWholeInput: head.count < sniffBytes)
        guard case .format(let format) = sniffed, format.entry.open != nil, format != .zip else {
            switch sniffed {
            case .format(let f) where f == .zip: return .notRead("a zip archive inside the archive (not opened)")
            case .unread(let n, _): return .notRead("a \(n) logbook, which umilog does not read yet")
            case .otherXML(let root): return .notRead("XML with root element <\(root)>, not a dive log umilog reads")
            default: return .notRead("not a dive log umilog recognises")
            }
        }
        let spool = try AtomicFile(destination: nil, readableByPath: true)
        try archive.read(entry) { try spool.sink.write($0) }
        if format == .csv {
            do { try requireDiveTable(path: spool.readPath, displayName: displayName, csv: csv) } catch let e as DiveError {
                return .notRead("a table none of whose columns is one a dive log has (\(e.message))")
            }
        }
        return .readable(format, spool)
    }

    /// Whether the zip at `path` holds a dive log umilog reads among its entries (any of them:
    /// an archive is read like a folder, entry by entry), looking at each entry's first bytes.
    static func holdsDiveLog(path: String, displayName: String, csv: CSVReadOptions) -> Bool {
        guard let archive = try? ZipArchive(path: path, displayName: displayName) else { return false }
        for entry in archive.entries where !entry.isDirectory {
            if case .readable? = try? classify(entry, in: archive, displayName: "\(displayName)(\(entry.name))", csv: csv) { return true }
        }
        return false
    }
}

extension FileFormat {
    /// A zip archive holding dive logs (read entry by entry).
    public static let zip = FileFormat(rawValue: "zip")!
}

/// The zip entry of the registry, from the first bytes alone: likely when the archive's first
/// entry is, by its own first bytes, a dive log umilog reads (a Garmin Connect export's `.fit`).
/// Any other zip is looked into by path (``ArchiveDiveSource/holdsDiveLog(path:displayName:csv:)``):
/// a zip holding a dive log anywhere is read like a folder; one holding none is named
/// `format.unknown-zip`, with what its first entry is.
func sniffZipOfDiveLogs(_ input: SniffInput) -> SniffConfidence {
    // A zip inside is not looked into (a zip can hold itself: the sniff would never end).
    guard let first = ZipPeek.firstEntry(input.bytes, limit: 4096), !first.prefix.isEmpty,
          !first.prefix.starts(with: ZipArchive.localHeaderMagic),
          case .format(let f) = Sniffer.sniff(first.prefix, isWholeInput: false), f != .zip, f.entry.open != nil else { return .none }
    return .likely
}
