import DiveCore

/// Constants of the Divesoft Freedom/Liberty `.dlf` log (docs/divesoft-mapping.md).
public enum Divesoft {
    /// `uuid5(NAMESPACE_URL, "https://umilog.example/ns/divesoft_dlf")`: frozen.
    public static let namespace = Identity.uuid5(namespace: Identity.urlNamespace, name: "https://umilog.example/ns/divesoft_dlf")
    /// Seconds from the Unix epoch to the log's, 2000-01-01T00:00:00.
    static let epochOffset = 946_684_800
    static let recordSize = 16
    /// Header version 1 opens with `DivE` and is 32 bytes; version 2 with `DiVE` and 64.
    static func headerSize(_ b: some Collection<UInt8>) -> Int? {
        if b.starts(with: Array("DivE".utf8)) { return 32 }
        if b.starts(with: Array("DiVE".utf8)) { return 64 }
        return nil
    }
    /// True when the bytes open with a Divesoft header's magic (`DivE` or `DiVE`).
    public static func sniff(_ bytes: some Collection<UInt8>) -> Bool { headerSize(bytes) != nil }

    /// CRC-16 as the header's checksum is computed: reflected, polynomial 0xA001, start 0xFFFF.
    static func crc16(_ bytes: UnsafeRawBufferPointer) -> UInt16 {
        var c: UInt16 = 0xFFFF
        for b in bytes {
            c ^= UInt16(b)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xA001 : c >> 1 }
        }
        return c
    }

    /// Event numbers as libdivecomputer names them, for the findings about those not carried.
    static let eventNames: [Int: String] = [
        0: "dummy", 1: "manual setpoint", 2: "automatic setpoint", 3: "open circuit", 4: "closed circuit", 5: "mix changed",
        6: "start", 7: "too fast", 8: "above ceiling", 9: "toxic", 10: "hypoxic", 11: "critical", 12: "sensor disabled",
        13: "sensor enabled", 14: "O2 backup", 15: "peer down", 16: "HS down", 17: "inconsistent", 18: "key down",
        19: "SCR", 20: "above stop", 21: "safety stop missed", 22: "fatal", 23: "diluent", 24: "mode change",
        25: "solenoid", 26: "bookmark", 27: "GF switch", 28: "peer up", 29: "HS up", 30: "CNS", 31: "battery low",
        32: "ppO2 lost", 33: "sensor value bad", 34: "safety stop end", 35: "deco stop end", 36: "deep stop end",
        37: "no-deco end", 38: "depth reached", 39: "time elapsed", 40: "stack usage", 41: "gas switch info",
        42: "pressure sensor warning", 43: "pressure sensor failure", 44: "check O2 sensors", 45: "switch to computed SCR",
        46: "gas lost", 47: "airbreak", 48: "airbreak end", 49: "airbreak missed", 50: "BO RMT expiration",
        51: "BO RMT expired", 52: "sensor excluded", 53: "pre-breathe skipped", 54: "BOCCR RMT expired",
        55: "waypoint", 56: "turnaround", 57: "solenoid failure", 58: "side-mount cylinder pressure difference",
        59: "bailout MOD exceeded",
    ]
    static let recordTypes = [0: "point", 1: "manipulation", 2: "automatic", 3: "diver error", 4: "internal error",
                              5: "activity", 6: "configuration", 7: "measurement", 8: "state", 9: "info"]
}

/// A gas the log names: its fractions and what the loop uses it as.
struct DivesoftMix: Equatable {
    enum Use { case openCircuit, oxygen, diluent }
    var oxygen: Int, helium: Int, use: Use
}

/// Reads a Divesoft Freedom/Liberty `.dlf` log: a 32-byte (version 1) or 64-byte (version 2)
/// header, then 16-byte records, one dive per file. The file is mapped and read twice, front
/// to back: the first pass gathers the settings (gases, tanks, deco model, GPS), the second
/// the profile. Every header field and every record is carried or counted into a finding
/// (`divesoft.not-carried`, located by byte offset); a header whose checksum fails, or a last
/// record cut short, is an error naming the byte.
public final class DivesoftReader: DiveSource {
    /// The source format and its header version (1 or 2); a Divesoft file holds no records beyond its dive.
    public private(set) var header = LogbookHeader()
    let displayName: String
    let file: MappedFile
    let headerSize: Int
    var findings: [Finding] = []
    var done = false
    /// What was met and not carried, by what it is: count and first byte offset.
    var notCarried: [(what: String, count: Int, offset: Int)] = []
    var notCarriedIndex: [String: Int] = [:]

    /// Opens the `.dlf` file at `path`; `displayName` names it in findings and errors (`path` when `nil`).
    public convenience init(path: String, displayName: String? = nil) throws {
        let name = displayName ?? path
        try self.init(file: MappedFile(path: path, displayName: name), displayName: name)
    }

    init(file: MappedFile, displayName: String) throws {
        self.file = file
        self.displayName = displayName
        let b = file.bytes
        guard let size = Divesoft.headerSize(b.prefix(4)) else {
            throw DiveError("divesoft.not-dlf", "the file does not open with DivE or DiVE: it is not a Divesoft log", at: SourceLocation(file: displayName, path: "byte 0"))
        }
        guard b.count >= size else {
            throw DiveError("divesoft.truncated-header", "the file is \(b.count) bytes long, shorter than its \(size)-byte header: it is cut short", at: SourceLocation(file: displayName, path: "byte \(b.count)"))
        }
        headerSize = size
        let stated = UInt16(b[4]) | UInt16(b[5]) << 8
        let computed = Divesoft.crc16(UnsafeRawBufferPointer(rebasing: b[6..<size]))
        guard stated == computed else {
            throw DiveError("divesoft.header-checksum", "the header's checksum (byte 4) is \(hex(stated)) but its bytes give \(hex(computed)): the header is damaged", at: SourceLocation(file: displayName, path: "byte 4"))
        }
        let rest = (b.count - size) % Divesoft.recordSize
        if rest != 0 {
            let at = b.count - rest
            throw DiveError("divesoft.truncated-record", "the last record, at byte \(at), is \(rest) bytes long, not 16: the file is cut short", at: SourceLocation(file: displayName, path: "byte \(at)"))
        }
        header.sourceFormat = "divesoft_dlf"
        header.sourceVersionKey = "header_version"
        header.sourceVersion = size == 32 ? "1" : "2"
    }

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// The file's one dive; `nil` on the second call.
    public func next() throws -> Dive? {
        guard !done else { return nil }
        done = true
        let dive = try build()
        for e in notCarried {
            let times = e.count == 1 ? "" : "\(e.count) × "
            findings.append(Finding(.dropped, "divesoft.not-carried", "\(times)\(e.what) (the first at byte \(e.offset)); not carried",
                                    at: SourceLocation(file: displayName, path: "byte \(e.offset)")))
        }
        return dive
    }

    // MARK: - Bytes

    func u8(_ o: Int) -> Int { Int(file.bytes[o]) }
    func u16(_ o: Int) -> Int { Int(file.bytes[o]) | Int(file.bytes[o + 1]) << 8 }
    func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
    func s32(_ o: Int) -> Int { Int(Int32(truncatingIfNeeded: u32(o))) }
    func hex(_ v: some BinaryInteger) -> String { "0x" + String(v, radix: 16) }

    /// Counts `what`, met at byte `offset`, into one not-carried finding.
    func drop(_ what: String, at offset: Int) {
        if let i = notCarriedIndex[what] { notCarried[i].count += 1; return }
        notCarriedIndex[what] = notCarried.count
        notCarried.append((what, 1, offset))
    }

    func report(_ kind: FindingKind, _ code: String, _ message: String, at offset: Int) {
        findings.append(Finding(kind, "divesoft.\(code)", message, at: SourceLocation(file: displayName, path: "byte \(offset)")))
    }

    /// The records' byte offsets, the all-0xFF ones (empty slots) counted and skipped.
    func records(_ body: (Int, _ type: Int, _ time: Int, _ id: Int) throws -> Void, countEmpty: Bool = false) rethrows {
        var o = headerSize
        let end = file.bytes.count
        while o + Divesoft.recordSize <= end {
            if file.bytes[o..<(o + Divesoft.recordSize)].allSatisfy({ $0 == 0xFF }) {
                if countEmpty { drop("empty record (all bytes 0xFF), a slot the computer left unwritten", at: o) }
            } else {
                let flags = u32(o)
                try body(o, flags & 0xF, (flags >> 4) & 0x1FFFF, (flags >> 21) & 0x3FF)
            }
            o += Divesoft.recordSize
        }
    }
}
