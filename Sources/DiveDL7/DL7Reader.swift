import DiveCore

/// Streams a DAN DL7 export (`.zxu`: profiles; `.zxl`: profiles, the diver and dive details):
/// HL7-style text, one segment a line, fields split at the separator `FSH` declares.
///
/// The file is mapped and walked byte by byte, line by line (CR, LF or CRLF; the spec says CR,
/// writers use all three), each line at most ``DL7/lineBytes``; the pages behind are handed
/// back, and one dive is held at a time (its `ZDH`, profile rows, `ZDT` and the `ZDD`/`ZSR`
/// after it). Units are the ones `ZRH` declares; where it declares none, the rules of
/// `docs/dl7-mapping.md` decide and say so. Every segment and every field met is carried or
/// reported (`dl7.not-carried`, `dl7.segment-not-carried`, `dl7.vendor-block-not-carried`, …),
/// located by line, column and a path `dive/N/ZDH/6`.
public final class DL7Reader: DiveSource {
    /// The file as diagnostics name it.
    public let displayName: String
    public internal(set) var header = LogbookHeader()
    let file: MappedFile
    var segment: DL7Segment
    private var pos = 0
    var lineNumber = 0
    var findings: [Finding] = []
    /// Findings that recur through the file, counted, located at their first occurrence.
    var tally = FindingTally()
    /// Findings that recur through one dive's profile rows.
    var rowTally = FindingTally()

    var separator = UInt8(ascii: "|")
    var componentSeparator = UInt8(ascii: "^")
    var units = DL7Units()
    var sawFileHeader = false
    var sawRecordHeader = false
    /// The recording device `ZRH` names, shared by every dive.
    var device = Device()
    /// The dive being read, until the next `ZDH` or the end of the file closes it.
    var draft: DL7Draft?
    /// The segment id of a `{…}` block being read (`ZDP`, `ZAR`), with where it began.
    var block: (id: String, line: Int, bytes: Int, head: [UInt8])?
    /// The name of an open block DL7 does not define, read on as a vendor block.
    var unknownBlockName: String?
    var divesRead = 0
    private var ready: Dive?
    private var finished = false

    /// The most samples one dive keeps (``InputLimits/samplesPerDive``); tests lower it.
    package var samplesPerDive = InputLimits.samplesPerDive

    /// Every field carried (or read for a rule), as `SEG/position`, for a test to check that
    /// nothing is lost silently: a few dozen keys whatever the file's size.
    public var accounting: Set<String> {
        var out = taken
        for k in 0..<64 where profileTaken & (1 << UInt64(k)) != 0 { out.insert("ZDP/\(k)") }
        return out
    }
    var taken: Set<String> = []
    /// The profile-row positions read, as bits: rows are the hot path, no text is built there.
    var profileTaken: UInt64 = 0

    /// Opens the DL7 file at `path` (`-` for standard input).
    public init(path: String, displayName: String? = nil) throws {
        let name = displayName ?? (path == "-" ? "<stdin>" : path)
        self.displayName = name
        file = try MappedFile(path: path, displayName: name)
        segment = DL7Segment(bytes: file.bytes)
        header.sourceFormat = "dl7"
        if file.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { pos = 3 }
        try readFileHeader()
    }

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll(keepingCapacity: true) }
        return findings
    }

    /// The next dive, in the file's order.
    public func next() throws -> Dive? {
        while ready == nil && !finished {
            guard let line = try nextLine() else {
                endOfFile()
                break
            }
            try read(line)
        }
        defer { ready = nil }
        return ready
    }

    // MARK: Lines

    /// The next line's bytes (without its end), or `nil` at the end of the file.
    func nextLine() throws -> (start: Int, end: Int)? {
        let b = file.bytes
        let n = b.count
        guard pos < n else { return nil }
        lineNumber += 1
        let start = pos
        var i = pos
        while i < n {
            let c = b[i]
            if c == 0x0D || c == 0x0A { break }
            i += 1
            if i - start > DL7.lineBytes {
                throw DiveError("dl7.line-too-long",
                                "line \(lineNumber) runs past \(DL7.lineBytes / 1024) KiB without ending, longer than any DL7 segment can be; the file is damaged or not DL7",
                                at: SourceLocation(file: displayName, line: lineNumber, column: DL7.lineBytes + 1))
            }
        }
        let end = i
        if i < n { i += (b[i] == 0x0D && i + 1 < n && b[i + 1] == 0x0A) ? 2 : 1 }
        pos = i
        file.release(before: start)
        return (start, end)
    }

    /// The first segment must be `FSH`: it declares the separators everything after is split
    /// with. Blank lines before it are skipped.
    private func readFileHeader() throws {
        while let line = try nextLine() {
            if isBlank(line) { continue }
            let b = file.bytes
            guard line.end - line.start >= 4, b[line.start] == UInt8(ascii: "F"), b[line.start + 1] == UInt8(ascii: "S"),
                  b[line.start + 2] == UInt8(ascii: "H"), DL7.isSeparator(b[line.start + 3]) else {
                throw DiveError("dl7.no-file-header",
                                "the file does not begin with DL7's FSH segment (\"FSH|^~<>{}|…\"), which declares how its fields are separated; it is not a DL7 export",
                                at: SourceLocation(file: displayName, line: lineNumber, column: 1))
            }
            readFSH(line)
            return
        }
        throw DiveError("dl7.no-file-header", "the file is empty; a DL7 export begins with an FSH segment",
                        at: SourceLocation(file: displayName, line: max(lineNumber, 1), column: 1))
    }

    func isBlank(_ line: (start: Int, end: Int)) -> Bool {
        let b = file.bytes
        var i = line.start
        while i < line.end {
            if b[i] != 0x20 && b[i] != 0x09 { return false }
            i += 1
        }
        return true
    }

    /// The segment id at the line's start: three letters or digits, followed by the separator,
    /// `{`, `}` or the line's end.
    func segmentID(_ line: (start: Int, end: Int)) -> String? {
        let b = file.bytes
        guard line.end - line.start >= 3 else { return nil }
        for k in 0..<3 {
            let c = b[line.start + k] | 0x20
            guard (c >= 0x61 && c <= 0x7A) || (b[line.start + k] >= 0x30 && b[line.start + k] <= 0x39) else { return nil }
        }
        if line.end - line.start > 3 {
            let next = b[line.start + 3]
            guard next == separator || next == UInt8(ascii: "{") || next == UInt8(ascii: "}") else { return nil }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: b[line.start..<(line.start + 3)]), as: UTF8.self).uppercased()
    }

    // MARK: Segments

    /// Reads one line: a block's content, a profile row or a segment.
    private func read(_ line: (start: Int, end: Int)) throws {
        let b = file.bytes
        if let open = block, open.id == "ZAR" {
            continueVendorBlock(line)
            return
        }
        if isBlank(line) { return }
        if let open = block, open.id == "ZDP" {
            if b[line.start] == separator {
                segment.split(line: lineNumber, start: line.start, end: line.end, separator: separator)
                readProfileRow()
                return
            }
            let end = line.end - line.start >= 4 && b[line.start] == UInt8(ascii: "Z") && b[line.start + 1] == UInt8(ascii: "D")
                && b[line.start + 2] == UInt8(ascii: "P") && b[line.start + 3] == UInt8(ascii: "}")
            block = nil
            if end { return }
            report(.resolved, "profile-not-closed",
                   "the profile opened by ZDP{ at line \(open.line) ends without ZDP}; it is taken to end before this line",
                   line: lineNumber, column: 1, path: draftPath)
        }
        guard let id = segmentID(line) else {
            if b[line.start] == separator {
                tally.add("row-outside", .dropped, "dl7.row-outside-profile", at: location(column: 1, path: nil)) { n in
                    n == 1 ? "a profile row stands outside any ZDP{ … ZDP} block; not carried"
                        : "\(n) profile rows stand outside any ZDP{ … ZDP} block; not carried (the first is here)"
                }
            } else {
                let text = DL7Segment.string(UnsafeRawBufferPointer(rebasing: b[line.start..<min(line.end, line.start + 40)]))
                tally.add("not-a-segment", .dropped, "dl7.not-a-segment", at: location(column: 1, path: nil)) { n in
                    n == 1 ? "the line \"\(text)\" is no DL7 segment (a three-letter id and fields); not read"
                        : "\(n) lines are no DL7 segment (a three-letter id and fields); not read (the first, \"\(text)\", is here)"
                }
            }
            return
        }
        if line.end - line.start >= 4, b[line.start + 3] == UInt8(ascii: "{") {
            switch id {
            case "ZDP": openProfile(line)
            case "ZAR": openVendorBlock(line)
            default:
                report(.dropped, "block-not-carried", "a \(id){ … } block is no block DL7 defines; its content is not carried",
                       line: lineNumber, column: 1, path: id)
                // Read on as a vendor block would be, to its closing brace (named as written).
                block = ("ZAR", lineNumber, 0, [])
                unknownBlockName = id
                continueVendorBlock((line.start + 4, line.end), reporting: false)
            }
            return
        }
        segment.split(line: lineNumber, start: line.start, end: line.end, separator: separator)
        switch id {
        case "FSH":
            report(.resolved, "file-header-repeated", "a second FSH segment: another export joined to this one; its separators are read from here on",
                   line: lineNumber, column: 1, path: "FSH")
            readFSH(line)
        case "ZRH": readZRH()
        case "ZPD": readZPD()
        case "ZPA": readZPA()
        case "ZDH":
            closeDive()
            openDive()
        case "ZDT": readZDT()
        case "ZDD": readZDD()
        case "ZSR": readZSR()
        default:
            tally.add("segment:" + id, .dropped, "dl7.segment-not-carried", at: location(column: 1, path: id)) { n in
                n == 1 ? "the \(id) segment is none DL7 defines; not carried" : "\(n) \(id) segments, none DL7 defines; not carried (the first is here)"
            }
        }
    }

    /// The end of the file: the last dive closes, an open block is said.
    private func endOfFile() {
        if let open = block {
            let name = unknownBlockName ?? open.id
            report(.resolved, "block-not-closed", "the \(name){ block opened at line \(open.line) is not closed before the file ends",
                   line: open.line, column: 1, path: name)
            if open.id == "ZAR" { finishVendorBlock(reporting: unknownBlockName == nil) }
            block = nil
        }
        closeDive()
        finished = true
        if divesRead == 0 {
            report(.absent, "no-dives", "the file holds no ZDH segment: it describes no dive", line: lineNumber, column: nil, path: nil)
        }
        findings += tally.findings()
        tally.removeAll()
    }

    /// Hands a finished dive to `next()`.
    func emit(_ dive: Dive) { ready = dive }

    // MARK: Findings

    var draftPath: String? { draft.map { "dive/\($0.index)" } }

    func location(column: Int?, path: String?) -> SourceLocation {
        SourceLocation(file: displayName, line: segment.line == lineNumber ? segment.line : lineNumber, column: column, path: path)
    }

    func report(_ kind: FindingKind, _ code: String, _ message: String, line: Int?, column: Int?, path: String?, losing lost: Int = 0) {
        findings.append(Finding(kind, "dl7.\(code)", message, at: SourceLocation(file: displayName, line: line, column: column, path: path)).losing(lost))
    }

    /// A finding about position `k` of the current segment, at its column.
    func report(_ kind: FindingKind, _ code: String, _ message: String, field k: Int, path: String) {
        report(kind, code, message, line: segment.line, column: segment.column(k), path: "\(path)/\(k)")
    }

    /// Marks position `k` of segment `id` as read, for the accounting test.
    func take(_ id: String, _ k: Int) {
        taken.insert("\(id)/\(k)")
    }

    /// Reports every non-empty position of the current segment not in `read`, by its name in
    /// `names` (the spec's, position 1 first), counted over the file per segment and position.
    func reportRest(_ id: String, read: Set<Int>, names: [String], path: String) {
        for k in 1..<max(segment.count, 1) where !read.contains(k) {
            guard segment.hasContent(k, separators: [componentSeparator, UInt8(ascii: "~"), UInt8(ascii: "&")]) else { continue }
            let name = k <= names.count ? names[k - 1] : "field \(k)"
            let value = segment.text(k).map { String($0.prefix(40)) } ?? ""
            let key = "\(id)/\(k)"
            let column = segment.column(k)
            let at = SourceLocation(file: displayName, line: segment.line, column: column, path: path.isEmpty ? key : "\(path)/\(key)")
            tally.add(key, .dropped, "dl7.not-carried", at: at) { n in
                n == 1 ? "\(id) field \(k) (\(name)) \"\(value)\" has no place in umilog's model; not carried"
                    : "\(id) field \(k) (\(name)) has no place in umilog's model; not carried (\(n) segments; the first, \"\(value)\", is here)"
            }
        }
        for k in read { take(id, k) }
    }
}
