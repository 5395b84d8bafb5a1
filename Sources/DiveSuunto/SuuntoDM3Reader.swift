import DiveArchive
import DiveCore
import DiveXML

/// Streams a Suunto Dive Manager 3 export (`.SDE`): a zip archive of XML entries (`0.xml`,
/// `1.xml`…), each a `<SUUNTO>` document whose `<MSG>` is one dive, written in ISO-8859-15
/// (declared or not) with decimal commas, `dd.mm.yyyy` dates and SI units (metres, °C,
/// millibar, kilograms).
///
/// The archive is opened through ``DiveArchive/ZipArchive`` and its limits; each entry is
/// inflated twice, chunk by chunk and never held whole: once to check it (the zip's sizes and
/// checksum, and whether it is UTF-8), then into the shared push parser, so that a damaged
/// archive is a `zip.*` error before any of its XML is read. Diagnostics name an entry as a
/// linker names an archive member, `export.SDE(0.xml):12`, with the entry's own line.
///
/// Values are read by `docs/suunto-dm3-mapping.md`; what the model has no member for is a
/// ``Finding`` (`suunto-dm3.*`) or, by the shared accountant, `suunto-dm3.not-carried`.
public final class SuuntoDM3Reader: DiveSource {
    /// The archive as diagnostics name it.
    public let displayName: String
    private let archive: ZipArchive
    private let logbook: SuuntoDM3Logbook
    /// How many entries the archive holds (directories aside).
    private var entryCount: Int { archive.entries.lazy.filter { !$0.isDirectory }.count }
    /// The entries still to read, in the archive's order.
    private var pending: [ZipEntry]
    private var ready: [Dive] = []
    private var readyHead = 0
    private var findings: [Finding] = []

    /// Opens the `.SDE` archive at `path` and reads its central directory.
    /// - Parameters:
    ///   - displayName: the name diagnostics use; defaults to `path`.
    ///   - limits: what the archive may cost (``ArchiveLimits/standard``).
    public init(path: String, displayName: String? = nil, limits: ArchiveLimits = .standard) throws {
        let name = displayName ?? (path == "-" ? "<stdin>" : path)
        self.displayName = name
        archive = try ZipArchive(path: path, displayName: name, limits: limits)
        logbook = SuuntoDM3Logbook(archive: name)
        pending = []
        for entry in archive.entries where !entry.isDirectory {
            if entry.name.lowercased().hasSuffix(".xml") {
                pending.append(entry)
            } else {
                findings.append(Finding(.dropped, "suunto-dm3.entry-not-read",
                                        "the archive's entry \(entry.name) is not an XML document, which is all a Dive Manager export holds; not read",
                                        at: SourceLocation(file: name, path: entry.name)))
            }
        }
        guard !pending.isEmpty else {
            throw DiveError("suunto-dm3.no-dives",
                            "the zip archive holds no XML entry, where a Suunto Dive Manager export holds one per dive",
                            at: SourceLocation(file: name))
        }
        pending.reverse()
    }

    /// What the archive says outside its dives, as read so far: the sites and people its
    /// dives name.
    public var header: LogbookHeader { logbook.header }

    /// The most samples one dive keeps (``InputLimits/samplesPerDive``); tests lower it.
    package var samplesPerDive = InputLimits.samplesPerDive

    /// When set before reading, every element path carried or covered by a finding of its own
    /// is recorded (``accounting``), for a test to check that nothing is lost silently.
    public var recordsAccounting = false
    /// What the reader accounted for so far, over every entry (paths from `<SUUNTO>`'s child).
    public private(set) var accounting = XMLAccounting()

    /// The next dive, in the archive's order of entries and each entry's order of `<MSG>`.
    public func next() throws -> Dive? {
        while readyHead >= ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
            guard let entry = pending.popLast() else { return nil }
            do {
                try read(entry)
            } catch let e as DiveError where entryCount > 1 {
                // One damaged entry of several: its dives are lost (the run does not succeed),
                // the other entries' are read.
                findings.append(Finding(.dropped, e.code, e.message + "; this entry's dives are not carried, the archive's other entries are read",
                                        at: e.location).losing(1))
            }
        }
        defer { readyHead += 1 }
        return ready[readyHead]
    }

    /// Findings reported since the last call: the archive's, then each entry's as it is read.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll(keepingCapacity: true) }
        return findings
    }

    /// The name diagnostics give an entry: the archive's, with the entry's in parentheses.
    static func entryName(_ archive: String, _ entry: String) -> String { "\(archive)(\(entry))" }

    /// Reads one entry: checks it whole, then parses it.
    private func read(_ entry: ZipEntry) throws {
        let file = Self.entryName(displayName, entry.name)
        // Pass 1: the zip layer's checks, and what the encoding rule needs.
        var utf8 = XMLEncoding.UTF8Check()
        var head: [UInt8] = []
        try archive.read(entry) { chunk in
            utf8.feed(chunk)
            if head.count < 1024 { head.append(contentsOf: chunk.prefix(1024 - head.count)) }
        }
        // The encoding rule: a declared encoding is libxml2's to read; an undeclared entry that
        // is UTF-8 (XML's default, and plain ASCII) is read as UTF-8; one that is not is
        // Dive Manager's ISO-8859-15.
        var encoding: String?
        if XMLEncoding.declared(in: head) == nil && !utf8.isCompleteAndValid {
            encoding = SuuntoDM3.encoding
            findings.append(Finding(.resolved, "suunto-dm3.encoding-latin9",
                                    "the entry declares no encoding and is not UTF-8 (byte \(utf8.validBytes + 1) is not); read as ISO-8859-15, the encoding Dive Manager writes",
                                    at: SourceLocation(file: file, line: 1)))
        }
        // Pass 2: the XML, chunk by chunk.
        let state = SuuntoDM3State(file: file, entry: entry.name, logbook: logbook)
        state.samplesPerDive = samplesPerDive
        state.accountant.recordAccounting = recordsAccounting
        let parser = XMLPushParser(displayName: file, handler: state, encoding: encoding)
        state.parser = parser
        state.accountant.parser = parser
        try archive.read(entry) { try parser.feed($0) }
        try parser.finish()
        try state.finishDocument()
        findings += state.findings
        ready += state.ready
        if recordsAccounting { accounting.accounted.formUnion(state.accountant.accounting.accounted) }
    }
}

/// The identity namespace, the encoding and the sniff of Suunto Dive Manager 3's `.SDE`.
public enum SuuntoDM3 {
    /// `uuid5(NAMESPACE_URL, "https://divejson.org/ns/suunto_dm3")`: frozen, like every
    /// format's (DiveJSON `converting.md`, *Identity*).
    public static let namespace = "73711185-8c2b-5cc9-8998-8192ead0b103"
    /// What Dive Manager writes, with or without declaring it.
    public static let encoding = "ISO-8859-15"

    /// How sure the sniffer is that a file is a DM3 export, from its first bytes: a zip whose
    /// first entry is named `*.xml` and inflates to a document whose root is `<SUUNTO>` is
    /// certain. Another zip is not (divelogs.de's `.DLD` is a zip of one `1.xml` too, with root
    /// `<DIVELOGSDATA>`).
    public static func sniff(_ bytes: [UInt8]) -> Bool {
        guard let peek = ZipPeek.firstEntry(bytes, limit: 2048), peek.name.lowercased().hasSuffix(".xml") else { return false }
        // The root as every sniffer reads it: past a declaration, comments and a DOCTYPE, its
        // namespace prefix dropped.
        let bom = peek.prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return SniffInput.xmlRoot(peek.prefix, from: bom).name == "SUUNTO"
    }
}
