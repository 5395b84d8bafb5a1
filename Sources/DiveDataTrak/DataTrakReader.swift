import DiveCore

/// Reads Uwatec DataTrak's logbook (`.log`, also written by WLog): a 12-byte header (`A1 00`,
/// the dive count little-endian at bytes 6–7), then one record per dive, each opening `A0 00`,
/// its fields little-endian and its strings a length byte and Latin-1 text, its profile the
/// Aladin's own bytes. By `docs/datatrak-mapping.md`.
///
/// The file is read once into memory, never more than ``maxBytes`` (a DataTrak logbook of
/// thousands of dives is some hundreds of kilobytes); every length a record states is checked
/// against what is left before it is read, and one dive is built at a time. A record cut short
/// or a length running past the end is a `datatrak.truncated` error at its byte offset.
public final class DataTrakReader: DiveSource {
    /// The namespace of the ids this reader mints: uuid5(NAMESPACE_URL, "https://umilog.example/ns/uwatec-datatrak"), frozen.
    public static let namespace = "61ce2898-29ee-5c2e-a1ca-541e054ebc20"
    /// The largest file read.
    public static let maxBytes = 16 << 20

    /// The file as findings and errors name it.
    public let displayName: String
    public internal(set) var header = LogbookHeader()
    /// The most samples one dive keeps (``InputLimits/samplesPerDive``); tests lower it.
    package var samplesPerDive = InputLimits.samplesPerDive

    let bytes: [UInt8]
    /// How many dives the header says the file holds.
    public let declaredDives: Int
    var offset = 12
    var index = 0
    var findings: [Finding] = []
    var tally = DataTrakTally()
    var siteUUIDs: [String: String] = [:]
    var personUUIDs: [String: String] = [:]
    private var done = false

    /// Opens the DataTrak logbook at `path` and reads its header.
    public init(path: String, displayName: String? = nil) throws {
        let name = displayName ?? (path == "-" ? "<stdin>" : path)
        self.displayName = name
        let input = try InputFile(path: path, displayName: name)
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
            if n == 0 { break }
            guard data.count + n <= Self.maxBytes else {
                throw DiveError("datatrak.too-large", "the file is larger than \(Self.maxBytes >> 20) MiB; no DataTrak logbook is, it is not read",
                                at: SourceLocation(file: name, path: "byte \(Self.maxBytes)"))
            }
            data += chunk[0..<n]
        }
        bytes = data
        guard data.count >= 12, data[0] == 0xA1, data[1] == 0x00 else {
            throw DiveError("datatrak.not-datatrak", "the file does not open with DataTrak's header (A1 00 and 10 more bytes); it is not a DataTrak logbook",
                            at: SourceLocation(file: name, path: "byte 0"))
        }
        declaredDives = Int(data[6]) | Int(data[7]) << 8
        guard declaredDives > 0 else {
            throw DiveError("datatrak.no-dives", "the header says the logbook holds no dives (bytes 6–7 are 0)", at: SourceLocation(file: name, path: "byte 6"))
        }
        header.sourceFormat = "uwatec_datatrak"
        let rest = data[2..<6].map { hex($0) } + data[8..<12].map { hex($0) }
        findings.append(Finding(.dropped, "datatrak.header-unknown",
                                "the header's bytes 2–5 and 8–11 (\(rest.joined(separator: " "))) have no meaning known from public sources; not carried",
                                at: SourceLocation(file: name, path: "byte 2")))
    }

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// The next record as a dive, or `nil` once the header's count is read.
    public func next() throws -> Dive? {
        guard !done else { return nil }
        guard index < declaredDives else {
            done = true
            if offset < bytes.count {
                findings.append(Finding(.dropped, "datatrak.trailing-bytes",
                                        "\(bytes.count - offset) bytes follow the header's \(declaredDives) dives; not read",
                                        at: SourceLocation(file: displayName, path: "byte \(offset)")))
            }
            findings += tally.findings(file: displayName)
            return nil
        }
        guard offset < bytes.count else {
            throw DiveError("datatrak.truncated", "the header says the logbook holds \(declaredDives) dives, but the file ends after \(index)",
                            at: SourceLocation(file: displayName, path: "byte \(offset)"))
        }
        defer { index += 1 }
        return try readDive()
    }

    // MARK: Reading bytes

    /// The location of byte `at` in dive `index + 1`'s record.
    func location(_ at: Int, _ field: String? = nil) -> SourceLocation {
        SourceLocation(file: displayName, path: "byte \(at)" + (field.map { " (dive \(index + 1), \($0))" } ?? " (dive \(index + 1))"))
    }

    /// `n` bytes at the cursor, which moves past them; a record running past the end is an error.
    func take(_ n: Int, _ field: String) throws -> ArraySlice<UInt8> {
        guard n >= 0, n <= bytes.count - offset else {
            throw DiveError("datatrak.truncated",
                            "dive \(index + 1)'s \(field) needs \(n) bytes at byte \(offset), but the file ends \(bytes.count - offset) bytes later; the record is cut short",
                            at: location(offset, field))
        }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }

    func u8(_ field: String) throws -> Int { Int(try take(1, field).first!) }

    func u16(_ field: String) throws -> Int {
        let b = try take(2, field)
        return Int(b[b.startIndex]) | Int(b[b.startIndex + 1]) << 8
    }

    func u32(_ field: String) throws -> Int {
        let b = try take(4, field)
        return (0..<4).reduce(0) { $0 | Int(b[b.startIndex + $1]) << (8 * $1) }
    }

    /// A length byte and that many bytes of text, Latin-1 with DOS code page 850's letters at
    /// 0x80–0xAD as Subsurface reads them; nil when empty.
    func string(_ field: String) throws -> String? {
        let n = try u8(field)
        let b = try take(n, field)
        let text = String(String.UnicodeScalarView(b.map { Unicode.Scalar(DataTrakText.latin1($0)) }))
        let trimmed = text.trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A finding at byte `at` of the current dive.
    func report(_ kind: FindingKind, _ code: String, _ message: String, at: Int, field: String) {
        findings.append(Finding(kind, "datatrak.\(code)", message, at: location(at, field)))
    }
}

func hex(_ b: UInt8) -> String { b < 16 ? "0\(String(b, radix: 16, uppercase: true))" : String(b, radix: 16, uppercase: true) }

/// DataTrak's text bytes: Subsurface takes 0x80–0xAD for DOS code page 850 and maps them to
/// Latin-1 (its `to_8859` table), the rest as Latin-1.
enum DataTrakText {
    private static let cp850: [UInt8] = [
        0xC7, 0xFC, 0xE9, 0xE2, 0xE4, 0xE0, 0xE5, 0xE7, 0xEA, 0xEB, 0xE8, 0xEF, 0xEE, 0xEC, 0xC4, 0xC5,
        0xC9, 0xE6, 0xC6, 0xF4, 0xF6, 0xF2, 0xFB, 0xF9, 0xFF, 0xD6, 0xDC, 0xF8, 0xA3, 0xD8, 0xD7, 0x66,
        0xE1, 0xED, 0xF3, 0xFA, 0xF1, 0xD1, 0xAA, 0xBA, 0xBF, 0xAE, 0xAC, 0xBD, 0xBC, 0xA1,
    ]

    static func latin1(_ b: UInt8) -> UInt8 { (0x80...0xAD).contains(b) ? cp850[Int(b) - 0x80] : b }
}

/// Fields not carried, counted over the file: one finding per field naming what it holds, how
/// many dives held a value in it and the first (its byte offset and value) — never one per dive.
struct DataTrakTally {
    private struct Entry { var code: String; var kind: FindingKind; var what: String; var at: Int; var dive: Int; var example: String; var count: Int; var unit: String }
    private var entries: [Entry] = []
    private var keys: [String: Int] = [:]

    /// Counts one `unit` ("dive", or "sample" for what each sample holds) holding the field.
    mutating func count(_ kind: FindingKind, _ code: String, _ what: String, example: String, at: Int, dive: Int, unit: String = "dive") {
        let key = "\(code)|\(what)"
        if let i = keys[key] { entries[i].count += 1; return }
        keys[key] = entries.count
        entries.append(Entry(code: code, kind: kind, what: what, at: at, dive: dive, example: example, count: 1, unit: unit))
    }

    func findings(file: String) -> [Finding] {
        entries.map { e in
            let dives = e.count == 1 ? "\(e.unit == "dive" ? "dive \(e.dive)" : "one \(e.unit), of dive \(e.dive),") holds"
                : "\(e.count) \(e.unit)s hold it, the first (\(e.unit == "dive" ? "" : "of ")dive \(e.dive))"
            return Finding(e.kind, "datatrak.\(e.code)", "\(e.what); \(dives) \(e.example)",
                           at: SourceLocation(file: file, path: "byte \(e.at) (dive \(e.dive))"))
        }
    }
}
