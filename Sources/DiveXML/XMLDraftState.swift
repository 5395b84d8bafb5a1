import DiveCore

/// A value read from one element's text: the text without the white space around it, and the
/// element's line. ``XMLTextValue`` is the plain one; a reader whose values also carry an
/// attribute or two declares its own.
package protocol XMLTextValued {
    var text: String { get }
    var line: Int { get }
    init(text: String, line: Int)
}

/// One text-valued element as read: its trimmed text and line.
package struct XMLTextValue: XMLTextValued, Sendable {
    package var text: String
    package var line: Int
    package init(text: String, line: Int) {
        self.text = text
        self.line = line
    }
}

/// The leaf values of one record (a dive, a tank, a site…) by their key (the element's name, or
/// its path below the record), and the line the record opens on.
package struct XMLFields<Key: Hashable> {
    package var fields: [Key: XMLTextValue] = [:]
    package var line: Int
    package init(line: Int) { self.line = line }
    package subscript(_ key: Key) -> XMLTextValue? { fields[key] }
}

/// A dive as a reader holds it until its element closes.
package protocol XMLDiveDraft {
    /// The dive's place in the file, from 0: its findings' paths are `dive/<index>/…`.
    var index: Int { get }
}

/// The state of a reader that captures each element's text itself and builds one dive at a time
/// from a ``Draft``: the SAX plumbing such readers share (capturing an element's text, keeping a
/// record's values, finishing a dive, the end of the parse) is implemented once below. Findings
/// are coded with the accountant's format (`<format>.<code>`).
package protocol XMLDraftState: XMLDiveState {
    associatedtype Draft: XMLDiveDraft
    /// The file name diagnostics use.
    var file: String { get }
    var text: [UInt8] { get set }
    /// Whether the innermost open element's text is being captured (no child has opened yet).
    var capturing: Bool { get set }
    /// Whether the innermost element's text passed ``InputLimits/textBytes``.
    var textTooLong: Bool { get set }
    /// The dive being read, between its start and end tags.
    var draft: Draft? { get set }
    /// The dives finished so far.
    var diveCount: Int { get set }
    /// Builds the dive `draft` holds; `path` is its findings' path (`dive/<index>`).
    func buildDive(_ draft: Draft, path: String) -> Dive
}

extension XMLDraftState {
    /// The parser's line.
    package var line: Int { parser?.line ?? 0 }

    /// Records a finding coded `<format>.<code>`.
    package func report(_ kind: FindingKind, _ code: String, _ message: String, path: String?, line: Int?) {
        findings.append(Finding(kind, "\(accountant.format).\(code)", message, at: SourceLocation(file: file, line: line, path: path)))
    }

    /// An element opens: its parent's accounting is told, and its own text is captured afresh.
    package func beginElementText() {
        pushMarks(parentCapturing: capturing)
        capturing = true
        textTooLong = false
        if text.count > 4096 { text = [] } else { text.removeAll(keepingCapacity: true) }
    }

    /// Text inside the innermost element: captured while it has no child, else only accounted.
    package func captureText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard capturing else { noteTrailingText(bytes); return }
        if appendXMLText(bytes, to: &text, tooLong: &textTooLong) { noteTooLong() }
    }

    /// An element closes: `leaf` reads its text when it had no child and the text was held;
    /// then its accounting closes.
    package func endElementText(_ leaf: () -> Void) {
        let own = capturing
        if own && !textTooLong { leaf() }
        popMarks(ownTextCaptured: own)
        capturing = false
    }

    /// The element's text without the white space around it, made a `String` only for a value
    /// kept; `nil` when blank.
    package func trimmedText() -> XMLTextValue? { trimmedText(as: XMLTextValue.self) }

    /// ``trimmedText()`` as a reader's own value type.
    package func trimmedText<V: XMLTextValued>(as _: V.Type) -> V? {
        let s = text.withUnsafeBufferPointer { String(decoding: trimmed($0), as: UTF8.self) }
        return s.isEmpty ? nil : V(text: s, line: line)
    }

    /// Keeps a value of a record's under `key` (shown as the element's name); a second element
    /// of one key in one record is reported (`<format>.element-repeated`), the first kept.
    /// `record` names the record in the message.
    package func keep<Key: Hashable, V: XMLTextValued>(_ value: V, _ key: Key, in values: inout [Key: V], path: String,
                                                       record: String = "record") {
        guard let first = values[key] else { values[key] = value; return }
        report(.dropped, "element-repeated",
               "a second <\(key)> (\"\(value.text)\") in one \(record); the first (\"\(first.text)\", line \(first.line)) is kept",
               path: "\(path)/\(key)", line: value.line)
    }

    /// The dive element closed: what was not carried in it is reported under `dive/<index>/`,
    /// and its dive is built and queued.
    package func finishDive() {
        guard let d = draft else { return }
        draft = nil
        let path = "dive/\(d.index)"
        reportLongTexts(prefix: path + "/")
        reportDrops(dive: true, prefix: path + "/")
        accountant.inRecord = false
        diveCount += 1
        ready.append(buildDive(d, path: path))
    }

    /// The start of ``XMLDiveState/finishDocument()``: throws what stopped the parse, and
    /// `<format>.empty` when no element was met (`sawRoot` false).
    package func finishParse(sawRoot: Bool = true) throws {
        if let error = parser?.error { throw error }
        guard sawRoot else {
            throw DiveError("\(accountant.format).empty", "the file holds no XML element", at: SourceLocation(file: file))
        }
    }
}
