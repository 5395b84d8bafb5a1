#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiveCore

/// Splits CSV text into records and fields, streaming: the file is read in chunks of
/// ``chunkSize`` bytes and never held whole, so memory stays flat whatever its size (it
/// grows only to hold the longest record, which ``CSVLimits`` bounds: a field, a record or a
/// field count past its limit stops the read with a located error as soon as it is seen).
///
/// Quoting follows RFC 4180 — a field that starts with `"` runs to the next lone `"`, `""`
/// inside it is one quote, and it may hold delimiters and line breaks — and lines may end in
/// CRLF, LF or CR. What RFC 4180 forbids is read the way spreadsheets read it and reported as
/// an ``Issue``: a quote inside an unquoted field is a literal character, text after a closing
/// quote joins the field, and a quote still open at the end of the file takes the rest of it.
///
/// The text reaches the tokenizer as UTF-8 whatever the file's encoding (see
/// ``CSVEncoding``). A record is read with ``next()``; its fields are then read as bytes
/// (``withFieldBytes(_:_:)``), which costs nothing, or as strings (``string(at:)``,
/// ``fields()``), which are built on request:
///
/// ```swift
/// let tokenizer = try CSVTokenizer(path: "profile.csv", displayName: "profile.csv")
/// tokenizer.delimiter = CSVDialect.sniff(tokenizer).delimiter
/// while try tokenizer.next() {
///     print(tokenizer.row, tokenizer.line, tokenizer.fields())
/// }
/// ```
public final class CSVTokenizer {
    /// How many bytes are read from the file at a time.
    public static let chunkSize = 256 * 1024
    /// How much decoded text is available to ``withSample(_:)`` before the first record is read.
    public static let sampleSize = 64 * 1024
    /// The most issues of one record kept in ``issues`` besides an unterminated quote: a line
    /// of stray quotes would otherwise cost memory and time for each.
    static let issuesPerRecord = 16

    /// Something RFC 4180 does not allow, found in the current record and read anyway.
    public struct Issue: Sendable, Hashable {
        /// What was found.
        public enum Kind: Sendable, Hashable {
            /// A `"` inside a field that does not start with one; read as a literal quote.
            case strayQuote
            /// Text after the closing quote of a quoted field (`"12"5`); read as part of the field.
            case textAfterClosingQuote
            /// A quoted field still open at the end of the file; it took the rest of the file.
            case unterminatedQuote
        }
        /// What was found.
        public var kind: Kind
        /// The field it is in, 0-based.
        public var field: Int
        /// Where: the stray quote, the first character after the closing quote, or the
        /// opening quote that is never closed. 1-based.
        public var line: Int
        /// 1-based, in characters.
        public var column: Int
    }

    /// The name used in errors (the path as the user gave it).
    public let displayName: String

    /// The byte between fields: `,` unless set (usually from ``CSVDialect/sniff(_:)``).
    /// Setting it applies to the records read after.
    public var delimiter: UInt8 {
        didSet {
            state.pointee.delimiter = delimiter
            buildTables()
        }
    }

    /// The file's encoding as far as it has been read: a file found not to be UTF-8 part-way
    /// through turns to ``CSVEncoding/windows1252`` from there (see ``windows1252Offset``).
    public var encoding: CSVEncoding { state.pointee.encoding }

    /// Where the first byte read as Windows-1252 is, as an offset in the decoded text; `nil`
    /// while the file is UTF-8. ``recordOffsets`` and ``lineAndColumn(ofOffset:)`` place it.
    public var windows1252Offset: Int? { state.pointee.windows1252Offset }

    /// True when the file is UTF-16 without a byte-order mark, told by its zero bytes (see
    /// ``CSVEncoding/unmarkedUTF16(_:)``).
    public internal(set) var isUnmarkedUTF16 = false

    /// How many unpaired surrogates (and a last odd byte) of a UTF-16 file have been read as
    /// U+FFFD so far.
    public var utf16Replacements: Int {
        if case .utf16(let transcoder) = decoding { return transcoder.replacements }
        return 0
    }

    /// The current record's number, 1-based, counting every record from the start of the file
    /// (blank lines and any preamble included). 0 before the first ``next()``.
    public var row: Int { state.pointee.row }
    /// The line the current record starts on, 1-based. A quoted field holding line breaks
    /// makes a record span several lines, so ``row`` and ``line`` differ.
    public var line: Int { state.pointee.line }
    /// What RFC 4180 does not allow in the current record, in the order it was found: the first
    /// 16 stray quotes and texts after a closing quote, and a quote never closed.
    public private(set) var issues: [Issue] = []
    /// The number of fields in the current record (1 for a blank line).
    public var fieldCount: Int { state.pointee.count }
    /// True when ``issues`` is not empty (cheaper to ask on every record).
    public var hasIssues: Bool { state.pointee.hasIssues }

    // MARK: Input (managed in CSVTokenizer+Input.swift)

    enum Source {
        case file(InputFile)
        case memory([UInt8])
    }
    enum Decoding {
        /// UTF-8 checked as it is read; the first invalid byte turns it to `windows1252`.
        case utf8
        case windows1252
        case utf16(CSVText.UTF16Transcoder)
        /// Text that is already UTF-8 (a sample handed to the sniffer): no checks.
        case decoded
    }
    var source: Source
    var memoryOffset = 0
    var decoding: Decoding = .utf8
    /// Raw bytes to transcode.
    let scratch: UnsafeMutableRawPointer

    struct Span {
        var start: Int
        var end: Int
        var flags: UInt8
    }
    static let quoted: UInt8 = 1, escaped: UInt8 = 2, irregular: UInt8 = 4

    /// The buffer and the scanner's position. It lives behind a pointer because every access
    /// to a class's stored `var` is checked for exclusivity at run time, which would cost more
    /// than the scan itself.
    struct State {
        /// Decoded text; bytes before `base` have been dropped.
        var storage: UnsafeMutableRawPointer
        var capacity: Int
        /// The offset in the decoded text of `storage[0]`.
        var base = 0
        /// Decoded bytes available in `storage`.
        var end = 0
        /// Bytes after `end` that start a UTF-8 sequence the last read cut off.
        var pending = 0
        /// True once the whole input has been decoded into `storage`.
        var exhausted = false
        /// The next byte to read, in `storage`.
        var pos = 0
        /// The line `pos` is on, and the decoded offset where that line starts.
        var cursorLine = 1
        var lineStart = 0
        /// The last record ended at a CR: an LF right after it belongs to the same line break.
        var skipLF = false
        /// A copy of ``CSVTokenizer/delimiter``, and whether ``CSVTokenizer/issues`` holds any.
        var delimiter: UInt8
        var hasIssues = false
        /// See ``CSVTokenizer/encoding`` and ``CSVTokenizer/windows1252Offset``.
        var encoding = CSVEncoding.utf8
        var windows1252Offset: Int?
        /// The current record's first byte, in `storage`, and the decoded offset just past it
        /// (its line break included).
        var recordStart = 0
        var recordEndOffset = 0
        var row = 0
        var line = 0
        /// The current record's fields, relative to `recordStart`.
        var spans: UnsafeMutablePointer<Span>
        var spanCapacity: Int
        /// The fields counted in the current record; only the first `fieldCountLimit` are kept.
        var count = 0
        /// ``CSVLimits/columns`` (lowered by tests, lifted for the sniffer's sample).
        var fieldCountLimit: Int
        /// ``CSVLimits/fieldBytes`` and ``CSVLimits/recordBytes`` (lowered by tests).
        var fieldSizeLimit = CSVLimits.fieldBytes
        var recordSizeLimit = CSVLimits.recordBytes
        /// The decoded offset of the first field past `fieldCountLimit` in the current record.
        var firstFieldPastLimit = 0

        @inline(__always)
        mutating func appendField(_ start: Int, _ end: Int, _ flags: UInt8) {
            if count >= spanCapacity {
                guard spanCapacity < fieldCountLimit else {
                    // Past the limit: counted, not kept (``next()`` refuses the record).
                    if count == fieldCountLimit { firstFieldPastLimit = base + start }
                    count += 1
                    return
                }
                let capacity = Swift.min(spanCapacity * 2, fieldCountLimit)
                let grown = UnsafeMutablePointer<Span>.allocate(capacity: capacity)
                grown.moveInitialize(from: spans, count: count)
                spans.deallocate()
                spans = grown
                spanCapacity = capacity
            }
            spans[count] = Span(start: start - recordStart, end: end - recordStart, flags: flags)
            count += 1
        }
    }
    let state: UnsafeMutablePointer<State>
    /// Per byte: non-zero for what ends an unquoted run (delimiter, quote, CR, LF).
    private let unquotedStops: UnsafeMutablePointer<UInt8>
    /// Per byte: non-zero for what ends a quoted run (quote, CR, LF).
    private let quotedStops: UnsafeMutablePointer<UInt8>
    /// Unescaped bytes of the field last read through ``withFieldBytes(_:_:)``.
    private var unescaped: [UInt8] = []
    /// ``CSVLimits/recordBytes``, lowered by tests.
    var recordSizeLimit: Int {
        get { state.pointee.recordSizeLimit }
        set { state.pointee.recordSizeLimit = newValue }
    }
    /// ``CSVLimits/fieldBytes``, lowered by tests.
    var fieldSizeLimit: Int {
        get { state.pointee.fieldSizeLimit }
        set { state.pointee.fieldSizeLimit = newValue }
    }
    /// ``CSVLimits/columns``, lowered by tests.
    var fieldCountLimit: Int {
        get { state.pointee.fieldCountLimit }
        set { state.pointee.fieldCountLimit = newValue }
    }

    private static let quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// Opens `path` (`-` for standard input) and reads its first ``sampleSize`` bytes, so the
    /// encoding is known and ``withSample(_:)`` can serve the dialect sniffer.
    public convenience init(path: String, displayName: String, delimiter: UInt8 = UInt8(ascii: ",")) throws {
        self.init(source: .file(try InputFile(path: path, displayName: displayName)), displayName: displayName, delimiter: delimiter, decoded: false)
        try start()
    }

    /// Tokenizes bytes held in memory, detecting their encoding as for a file.
    public convenience init(bytes: [UInt8], displayName: String = "<input>", delimiter: UInt8 = UInt8(ascii: ",")) {
        self.init(source: .memory(bytes), displayName: displayName, delimiter: delimiter, decoded: false)
        startInMemory()
    }

    /// Tokenizes text that is already UTF-8, as is (the sniffer's sample). The sample is at
    /// most ``sampleSize`` bytes, so its records may have any number of fields: the sniffer
    /// sees a header too wide to read as it is, and the reader refuses it.
    convenience init(decoded bytes: UnsafeRawBufferPointer, delimiter: UInt8) {
        self.init(source: .memory(Array(bytes)), displayName: "<sample>", delimiter: delimiter, decoded: true)
        state.pointee.fieldCountLimit = .max
        startInMemory()
    }

    /// Sets up the buffers; ``start()`` then reads the first bytes.
    private init(source: Source, displayName: String, delimiter: UInt8, decoded: Bool) {
        self.source = source
        self.displayName = displayName
        self.delimiter = delimiter
        // Text already decoded is copied in whole (`start()` grows the buffer to fit).
        let capacity = decoded ? 4096 : Self.chunkSize * 4
        state = .allocate(capacity: 1)
        state.initialize(to: State(storage: .allocate(byteCount: capacity, alignment: 16), capacity: capacity,
                                   delimiter: delimiter, spans: .allocate(capacity: 64), spanCapacity: 64,
                                   fieldCountLimit: CSVLimits.columns))
        scratch = .allocate(byteCount: decoded ? 16 : Self.chunkSize + 16, alignment: 16)
        unquotedStops = .allocate(capacity: 256)
        quotedStops = .allocate(capacity: 256)
        buildTables()
        if decoded { decoding = .decoded }
    }

    deinit {
        state.pointee.storage.deallocate()
        state.pointee.spans.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
        scratch.deallocate()
        unquotedStops.deallocate()
        quotedStops.deallocate()
    }

    private func buildTables() {
        unquotedStops.initialize(repeating: 0, count: 256)
        quotedStops.initialize(repeating: 0, count: 256)
        for b in [delimiter, Self.quote, Self.cr, Self.lf] { unquotedStops[Int(b)] = 1 }
        for b in [Self.quote, Self.cr, Self.lf] { quotedStops[Int(b)] = 1 }
    }

    // MARK: Reading records

    /// Reads the next record. Returns `false` at the end of the input.
    ///
    /// Throws `io.read` when the file cannot be read, and past a limit of ``CSVLimits``:
    /// `csv.field-too-long` for a field over ``CSVLimits/fieldBytes``, `csv.record-too-long` for
    /// a record over ``CSVLimits/recordBytes``, `csv.too-many-columns` for a record of more than
    /// ``CSVLimits/columns`` fields. Each is thrown as soon as the text read shows it, so no
    /// more than the limit is ever held.
    public func next() throws -> Bool {
        guard try scanRecord() else { return false }
        let st = state
        if st.pointee.count > st.pointee.fieldCountLimit { throw tooManyFields() }
        // A field can only be too long in a record that is.
        let fieldSizeLimit = st.pointee.fieldSizeLimit
        if st.pointee.recordEndOffset - (st.pointee.base + st.pointee.recordStart) > fieldSizeLimit {
            for k in 0..<st.pointee.count {
                let span = st.pointee.spans[k]
                if span.end - span.start > fieldSizeLimit { throw fieldTooLong(startingAt: span.start + st.pointee.recordStart, quoted: span.flags & Self.quoted != 0) }
            }
        }
        return true
    }

    /// Reads the next record into `state`, whatever its size; `false` at the end of the input.
    private func scanRecord() throws -> Bool {
        let st = state
        st.pointee.count = 0
        if st.pointee.hasIssues {
            issues.removeAll(keepingCapacity: true)
            st.pointee.hasIssues = false
        }
        // Find where the record starts: past the LF of a CRLF, with input to read.
        while true {
            if st.pointee.pos == st.pointee.end {
                st.pointee.pos -= compact(keepFrom: st.pointee.pos)
                guard try fill() else { return false }
                continue
            }
            if st.pointee.skipLF {
                st.pointee.skipLF = false
                if st.pointee.storage.load(fromByteOffset: st.pointee.pos, as: UInt8.self) == Self.lf {
                    st.pointee.pos += 1
                    st.pointee.lineStart = st.pointee.base + st.pointee.pos
                    continue
                }
            }
            break
        }
        st.pointee.recordStart = st.pointee.pos
        st.pointee.row += 1
        st.pointee.line = st.pointee.cursorLine

        let delimiter = st.pointee.delimiter
        let delimiterPattern = UInt64(delimiter) &* 0x0101_0101_0101_0101
        let unquotedStops = self.unquotedStops, quotedStops = self.quotedStops
        var i = st.pointee.pos
        var fieldStart = i
        var flags: UInt8 = 0
        var mode = Mode.fieldStart
        var quoteOffset = 0, quoteLine = 0, quoteLineStart = 0
        var lineNumber = st.pointee.cursorLine

        scan: while true {
            let p = st.pointee.storage.assumingMemoryBound(to: UInt8.self)
            let limit = st.pointee.end
            switch mode {
            case .fieldStart:
                guard i < limit else { break }
                fieldStart = i
                flags = 0
                if p[i] == Self.quote {
                    quoteOffset = st.pointee.base + i; quoteLine = lineNumber; quoteLineStart = st.pointee.lineStart
                    i += 1
                    mode = .quoted
                } else {
                    mode = .unquoted
                }
                continue scan
            case .unquoted:
                // The hot loop: unquoted fields one after another, eight bytes at a time. A
                // word's stops (delimiters, quotes, line breaks) are found at once as a bit
                // mask, then taken in order.
                while i + 8 <= limit {
                    var stops = Self.stopMask(UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)),
                                              delimiter: delimiterPattern)
                    while stops != 0 {
                        let j = i + stops.trailingZeroBitCount >> 3
                        stops &= stops &- 1
                        let b = p[j]
                        if b == delimiter {
                            st.pointee.appendField(fieldStart, j, flags)
                            fieldStart = j + 1
                            flags = 0
                            // A field that may open with a quote, or starts past the buffer's
                            // end (a quote there is only seen after the refill), is begun anew.
                            if j + 1 == limit || p[j + 1] == Self.quote {
                                i = j + 1
                                mode = .fieldStart
                                continue scan
                            }
                        } else if b == Self.quote {
                            addIssue(.strayQuote, at: st.pointee.base + j, line: lineNumber, lineStart: st.pointee.lineStart)
                        } else {
                            st.pointee.appendField(fieldStart, j, flags)
                            endRecord(lineBreak: b, at: j, line: lineNumber)
                            return true
                        }
                    }
                    i += 8
                }
                while true {
                    while i < limit && unquotedStops[Int(p[i])] == 0 { i += 1 }
                    guard i < limit else { break }
                    let b = p[i]
                    if b == delimiter {
                        st.pointee.appendField(fieldStart, i, flags)
                        i += 1
                        if i < limit && p[i] != Self.quote {
                            fieldStart = i
                            flags = 0
                            continue
                        }
                        mode = .fieldStart
                        continue scan
                    }
                    if b == Self.quote {
                        addIssue(.strayQuote, at: st.pointee.base + i, line: lineNumber, lineStart: st.pointee.lineStart)
                        i += 1
                        continue
                    }
                    st.pointee.appendField(fieldStart, i, flags)
                    endRecord(lineBreak: b, at: i, line: lineNumber)
                    return true
                }
            case .quoted:
                while i < limit && quotedStops[Int(p[i])] == 0 { i += 1 }
                guard i < limit else { break }
                let b = p[i]
                if b == Self.quote {
                    i += 1
                    mode = .closingQuote
                    continue scan
                }
                if b == Self.cr || p[i - 1] != Self.cr { lineNumber += 1 }
                st.pointee.lineStart = st.pointee.base + i + 1
                i += 1
                continue scan
            case .closingQuote:
                guard i < limit else { break }
                let b = p[i]
                if b == Self.quote {
                    flags |= Self.escaped
                    i += 1
                    mode = .quoted
                    continue scan
                }
                flags |= Self.quoted
                if b == delimiter {
                    st.pointee.appendField(fieldStart, i, flags)
                    i += 1
                    mode = .fieldStart
                    continue scan
                }
                if b == Self.cr || b == Self.lf {
                    st.pointee.appendField(fieldStart, i, flags)
                    endRecord(lineBreak: b, at: i, line: lineNumber)
                    return true
                }
                addIssue(.textAfterClosingQuote, at: st.pointee.base + i, line: lineNumber, lineStart: st.pointee.lineStart)
                flags |= Self.irregular
                mode = .unquoted
                continue scan
            }

            // The record runs past the text read so far: before reading more, it must be within
            // the limits.
            let shift = compact(keepFrom: st.pointee.recordStart)
            i -= shift; fieldStart -= shift; st.pointee.recordStart -= shift
            if st.pointee.end - st.pointee.recordStart > recordSizeLimit {
                throw DiveError("csv.record-too-long",
                                "the record starting on line \(line) runs past \(Self.size(recordSizeLimit)) without ending"
                                + (mode == .quoted ? "; the quote opened on line \(quoteLine) is probably never closed" : ""),
                                at: SourceLocation(file: displayName, line: line))
            }
            if mode != .fieldStart, i - fieldStart > fieldSizeLimit {
                throw fieldTooLong(startingAt: fieldStart, quoted: p[fieldStart] == Self.quote)
            }
            if st.pointee.count > st.pointee.fieldCountLimit { throw tooManyFields() }
            if try fill() { continue scan }

            // End of input: the last record ends without a line break.
            switch mode {
            case .fieldStart:
                st.pointee.appendField(i, i, 0)   // after a trailing delimiter
            case .unquoted:
                st.pointee.appendField(fieldStart, i, flags)
            case .closingQuote:
                st.pointee.appendField(fieldStart, i, flags | Self.quoted)
            case .quoted:
                addIssue(.unterminatedQuote, at: quoteOffset, line: quoteLine, lineStart: quoteLineStart)
                st.pointee.appendField(fieldStart, i, flags | Self.quoted | Self.irregular)
            }
            st.pointee.pos = i
            st.pointee.cursorLine = lineNumber
            st.pointee.recordEndOffset = st.pointee.base + i
            return true
        }
    }

    private enum Mode { case fieldStart, unquoted, quoted, closingQuote }

    // MARK: Limits

    /// `csv.field-too-long` for the field starting at `start` (in `storage`, in the current record).
    private func fieldTooLong(startingAt start: Int, quoted: Bool) -> DiveError {
        let place = self.place(ofOffset: state.pointee.base + start)
        let what = quoted ? "the quoted field opened here" : "the field starting here"
        return DiveError("csv.field-too-long",
                         "\(what) runs past \(Self.size(fieldSizeLimit)), longer than any value of a dive log"
                         + (quoted ? " (is its quote ever closed?)" : "") + "; the file is not read",
                         at: SourceLocation(file: displayName, line: place.line, column: place.column))
    }

    /// `csv.too-many-columns` at the first field past the limit in the current record.
    private func tooManyFields() -> DiveError {
        let limit = state.pointee.fieldCountLimit
        let place = self.place(ofOffset: state.pointee.firstFieldPastLimit)
        return DiveError("csv.too-many-columns",
                         "the record starting on line \(line) has more than \(limit) fields (field \(limit + 1) starts here); no dive log has so many columns, so the file is not read",
                         at: SourceLocation(file: displayName, line: place.line, column: place.column))
    }

    /// `1 MiB`, `64 KiB`, `100 bytes`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// The high bit of each byte of `word` that is the delimiter (repeated in every byte of
    /// `delimiter`), a quote, CR or LF.
    @inline(__always)
    private static func stopMask(_ word: UInt64, delimiter: UInt64) -> UInt64 {
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 {
            let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            return ~(((x & low) &+ low) | x | low)
        }
        return zeroBytes(word ^ delimiter) | zeroBytes(word ^ 0x2222_2222_2222_2222)
            | zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D) | zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
    }

    @inline(__always)
    private func endRecord(lineBreak: UInt8, at i: Int, line lineNumber: Int) {
        let st = state
        st.pointee.skipLF = lineBreak == Self.cr
        st.pointee.cursorLine = lineNumber + 1
        st.pointee.lineStart = st.pointee.base + i + 1
        st.pointee.pos = i + 1
        st.pointee.recordEndOffset = st.pointee.base + i + 1
    }

    // Out of line: its access to `issues` (checked for exclusivity) stays off the scan's path.
    @inline(never)
    private func addIssue(_ kind: Issue.Kind, at offset: Int, line: Int, lineStart: Int) {
        state.pointee.hasIssues = true
        // Each issue's column is counted from its line's start: a line of stray quotes would
        // cost time and memory for each.
        guard kind == .unterminatedQuote || issues.count < Self.issuesPerRecord else { return }
        issues.append(Issue(kind: kind, field: state.pointee.count, line: line, column: column(of: offset, lineStart: lineStart)))
    }

    /// The 1-based character column of decoded `offset` on the line starting at `lineStart`
    /// (both still in the buffer).
    private func column(of offset: Int, lineStart: Int) -> Int {
        let st = state.pointee
        var column = 1
        var k = lineStart - st.base
        while k < offset - st.base {
            if st.storage.load(fromByteOffset: k, as: UInt8.self) & 0xC0 != 0x80 { column += 1 }
            k += 1
        }
        return column
    }

    // MARK: The current record

    /// True when the current record is an empty line (one unquoted empty field).
    public var isBlank: Bool {
        let st = state.pointee
        return st.count == 1 && st.spans[0].start == st.spans[0].end && st.spans[0].flags == 0
    }

    /// True when field `index` of the current record is empty (`""` included).
    @inline(__always)
    public func isEmptyField(_ index: Int) -> Bool {
        let s = state.pointee.spans[index]
        return s.end - s.start == (s.flags & Self.quoted != 0 && s.flags & Self.irregular == 0 ? 2 : 0)
    }

    /// The decoded offsets of the current record: its first byte, and just past its line break.
    public var recordOffsets: Range<Int> { (state.pointee.base + state.pointee.recordStart)..<state.pointee.recordEndOffset }

    /// The line and column of decoded `offset` when it lies in the current record.
    public func lineAndColumn(ofOffset offset: Int) -> (line: Int, column: Int)? {
        guard recordOffsets.contains(offset) else { return nil }
        return place(ofOffset: offset)
    }

    /// The line and column of decoded `offset`, in the current record as far as it has been
    /// read (between its start and the end of the text in the buffer).
    private func place(ofOffset offset: Int) -> (line: Int, column: Int) {
        let st = state.pointee
        var lineNumber = st.line
        var start = st.base + st.recordStart
        var k = st.recordStart
        while k < offset - st.base {
            let b = st.storage.load(fromByteOffset: k, as: UInt8.self)
            if b == Self.cr || (b == Self.lf && (k == 0 || st.storage.load(fromByteOffset: k - 1, as: UInt8.self) != Self.cr)) {
                lineNumber += 1
            }
            if b == Self.cr || b == Self.lf { start = st.base + k + 1 }
            k += 1
        }
        return (lineNumber, column(of: offset, lineStart: start))
    }

    /// Calls `body` with the value of field `index` of the current record as UTF-8 bytes:
    /// without its quotes, `""` read as `"`. The bytes are valid only inside `body`.
    @inline(__always)
    public func withFieldBytes<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let st = state
        precondition(index >= 0 && index < st.pointee.count, "field \(index) of a record of \(st.pointee.count)")
        let s = st.pointee.spans[index]
        let raw = UnsafeRawBufferPointer(start: st.pointee.storage + st.pointee.recordStart + s.start, count: s.end - s.start)
        switch s.flags {
        case 0:
            return try body(raw)
        case Self.quoted:
            return try body(UnsafeRawBufferPointer(rebasing: raw[1..<raw.count - 1]))
        default:
            return try withUnescaped(raw, body)
        }
    }

    private func withUnescaped<R>(_ raw: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        unescaped.removeAll(keepingCapacity: true)
        Self.unescape(raw, into: &unescaped)
        return try unescaped.withUnsafeBytes(body)
    }

    /// The value of a quoted or irregular field: `""` is `"` inside quotes, and whatever follows
    /// the closing quote (or precedes an opening one that is not first) is kept as it stands.
    static func unescape(_ raw: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        var i = 0
        var inQuotes = false
        if raw.first == quote { inQuotes = true; i = 1 }
        while i < raw.count {
            let b = raw[i]
            if inQuotes && b == quote {
                if i + 1 < raw.count && raw[i + 1] == quote {
                    out.append(quote); i += 2; continue
                }
                inQuotes = false; i += 1; continue
            }
            out.append(b); i += 1
        }
    }

    /// Field `index` of the current record as a string.
    public func string(at index: Int) -> String {
        withFieldBytes(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Every field of the current record as strings.
    public func fields() -> [String] {
        (0..<fieldCount).map(string(at:))
    }
}
