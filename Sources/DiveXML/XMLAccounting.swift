import DiveCore

/// What the reader did with one open element. Every element with content (non-blank text of
/// its own, or attributes) is either carried — a handler read its text or its attributes —
/// or covered by a finding a handler made for its whole subtree; everything else is reported
/// as `<format>.not-carried` when it closes. The rule is the mechanism, not a list of names, so an
/// element a new writer invents is reported the first time a file carries it.
@frozen package struct ElementMarks: OptionSet {
    package let rawValue: UInt8
    @inlinable package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Non-blank characters appeared directly inside the element.
    package static let hasText = ElementMarks(rawValue: 1)
    /// A handler read the element's text.
    package static let carried = ElementMarks(rawValue: 2)
    /// The element has a child element.
    package static let hasChild = ElementMarks(rawValue: 4)
    /// A finding of its own speaks for the element and everything inside it.
    package static let covered = ElementMarks(rawValue: 8)
    /// A handler read one of the element's attributes.
    package static let readAttribute = ElementMarks(rawValue: 16)
}

/// The marks of the open elements: a stack on a buffer of its own, so that marking the
/// innermost element (once per element read) costs no copy-on-write check.
package struct MarkStack {
    package init() {}
    @usableFromInline var base = UnsafeMutablePointer<ElementMarks>.allocate(capacity: 64)
    @usableFromInline var capacity = 64
    package private(set) var count = 0

    @inlinable @inline(__always) package var isEmpty: Bool { count == 0 }

    /// The innermost element's marks.
    @inlinable @inline(__always) package var top: ElementMarks {
        get { base[count - 1] }
        nonmutating set { base[count - 1] = newValue }
    }

    @inline(__always) package mutating func push(_ m: ElementMarks) {
        if count == capacity {
            let grown = UnsafeMutablePointer<ElementMarks>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: m)
        count += 1
    }

    @inline(__always) package mutating func pop() -> ElementMarks {
        count -= 1
        return base[count]
    }

    /// Frees the buffer; called once by the owner's `deinit`.
    package func free() { base.deallocate() }
}

/// Elements and attributes not carried, counted by path: one finding per path per dive (per
/// file outside dives), never one per sample.
package struct DropTally {
    package struct Entry {
        package var path: String
        package var count: Int
        package var line: Int
        package var example: String
    }
    package init() {}
    package private(set) var entries: [Entry] = []
    private var index: [Int: Int] = [:]

    package var isEmpty: Bool { entries.isEmpty }

    /// Counts one more element at the path `key` names; `describe` builds the entry the first time.
    package mutating func add(_ key: Int, _ describe: () -> Entry) {
        if let i = index[key] { entries[i].count += 1; return }
        index[key] = entries.count
        entries.append(describe())
    }

    package mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        index.removeAll(keepingCapacity: true)
    }
}

/// What an accounting run saw, for tests: the element paths (names from the root's child down,
/// joined by `/`, attributes as `@name`) that were carried or covered by a finding of their own.
public struct XMLAccounting: Sendable {
    public package(set) var accounted: Set<String> = []
    package init() {}
}

/// Accounts for every element and attribute a streaming XML reader meets, by mechanism: the
/// reader marks what it read (``markCarried()``, and attribute lookups mark themselves through
/// ``XMLAttributes``) or what a finding of its own speaks for (``coverCurrent()``); whatever
/// has content and was neither is tallied, and reported as `<format>.not-carried` once per
/// path per record (a dive) or per file. Every XML reader drives one of these from its SAX
/// events, so an element a writer invents is reported the first time a file carries it.
package final class XMLAccountant {
    /// The parser whose open elements name the paths; it outlives this object.
    package unowned(unsafe) var parser: XMLPushParser?
    /// The file name findings carry.
    let file: String
    /// The prefix of the codes reported (`uddf` → `uddf.not-carried`).
    package let format: String
    /// An attribute that names its element for references and carries no value (`id`).
    let identityAttribute: StaticString?

    @exclusivity(unchecked) @usableFromInline package var marks = MarkStack()
    /// Attributes no handler read, by the depth of their element.
    @exclusivity(unchecked) var unreadAttributes: [(depth: Int, attributes: [(name: String, value: String)])] = []
    /// True while a record (a dive) is being read, and the depth of its element: what is not
    /// carried inside it is reported with the record, at paths below its element.
    @exclusivity(unchecked) package var inRecord = false
    package var recordDepth = 0
    /// Not carried inside the record being read, and outside records.
    package var recordDrops = DropTally()
    package var fileDrops = DropTally()
    /// Elements whose text was too long, by path.
    var longTexts = DropTally()
    /// Whether to record every accounted path (tests ask for it).
    @exclusivity(unchecked) package var recordAccounting = false
    package private(set) var accounting = XMLAccounting()
    private var accountedKeys: Set<Int> = []

    /// The XML Schema instance namespace: `xsi:schemaLocation` and its kind are hints to a
    /// validator about the document, not values the document records.
    private static let schemaInstance = "http://www.w3.org/2001/XMLSchema-instance"

    package init(file: String, format: String, identityAttribute: StaticString? = "id") {
        self.file = file
        self.format = format
        self.identityAttribute = identityAttribute
    }

    deinit { marks.free() }

    private var line: Int { parser?.line ?? 0 }

    /// Marks the element being closed (or the innermost open one) as carried.
    @inline(__always) package func markCarried() {
        if !marks.isEmpty { marks.top.insert(.carried) }
    }

    /// Marks the innermost open element, and so everything inside it, as spoken for by a
    /// finding the caller makes.
    package func coverCurrent() {
        if !marks.isEmpty { marks.top.insert(.covered) }
    }

    /// True when the innermost open element has had a child element.
    package var currentHasChild: Bool { !marks.isEmpty && marks.top.contains(.hasChild) }

    /// True when the innermost open element is not yet known to hold text of its own (what it
    /// captured before a child opens is then worth looking at).
    package var parentTextUnknown: Bool { !marks.isEmpty && !marks.top.contains(.hasText) }

    /// Opens the accounting of an element: its parent now has a child (and has text if what
    /// it captured before this child is not blank: `parentHasText`); the child inherits cover.
    @inline(__always) package func push(parentHasText: Bool) {
        var m: ElementMarks = []
        if !marks.isEmpty {
            var parent = marks.top
            parent.insert(.hasChild)
            if parentHasText { parent.insert(.hasText) }
            if parent.contains(.covered) { m.insert(.covered) }
            marks.top = parent
        }
        marks.push(m)
    }

    /// Notes non-blank text the innermost element holds that the reader is not capturing
    /// (after one of its children closed, or in an element whose text it never reads).
    @inlinable @inline(__always) package func noteUncapturedText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !marks.isEmpty, !marks.top.contains(.hasText) else { return }
        for b in bytes where !(b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D) {
            marks.top.insert(.hasText)
            return
        }
    }

    @inline(__always) package static func isBlank<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        !bytes.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    }

    /// Remembers the attributes of the element just opened that no handler read (call after
    /// the handler saw the start tag). The identity attribute and `xsi:` attributes carry no
    /// value of the logbook's.
    package func noteUnreadAttributes(_ attributes: XMLAttributes) {
        guard attributes.count > 0 else { return }
        var unread: [(name: String, value: String)] = []
        for i in 0..<attributes.count {
            // Bytes first: this runs for every start tag with attributes (every sample), and a
            // String is built only for what is recorded or reported.
            guard let local = attributes.localNamePointer(i) else { continue }
            if let identityAttribute, asciiCaseInsensitiveEquals(local, identityAttribute) { continue }
            if attributes.wasRead(i) {
                marks.top.insert(.readAttribute)
                if recordAccounting { recordAccountedAttribute(String(cString: local)) }
                continue
            }
            if let uri = attributes.namespaceURI(i), String(cString: uri) == Self.schemaInstance { continue }
            unread.append((String(cString: local), attributes.value(at: i)))
        }
        if !unread.isEmpty { unreadAttributes.append((depth: marks.count, attributes: unread)) }
    }

    private func recordAccountedAttribute(_ name: String) {
        guard let parser else { return }
        accounting.accounted.insert((parser.openElementNames(from: 1) + ["@" + name]).joined(separator: "/"))
    }

    /// Closes the accounting of the innermost element: tallies it (or its unread attributes)
    /// unless it was carried or covered. `ownText` gives the text the reader captured for it
    /// when it captured all of it (`nil` otherwise); it is asked for only when the element
    /// may be reported, so that the common case copies nothing.
    @inline(__always) package func pop(ownText: () -> [UInt8]?) {
        guard !marks.isEmpty else { return }
        let depth = marks.count
        var m = marks.pop()
        let pending = !unreadAttributes.isEmpty && unreadAttributes[unreadAttributes.count - 1].depth == depth
        // The common case: read, or a container whose children speak for themselves.
        if !pending && !recordAccounting && (m.contains(.carried) || m.contains(.covered) || m.contains(.hasChild) && !m.contains(.hasText)) {
            return
        }
        let text = ownText()
        if let text, !m.contains(.hasText), !Self.isBlank(text) { m.insert(.hasText) }
        if !m.contains(.hasText) && !pending && !recordAccounting { return }
        close(m, pending: pending, text: text ?? [])
    }

    private func close(_ m: ElementMarks, pending: Bool, text: [UInt8]) {
        var attributes: [(name: String, value: String)] = []
        if pending { attributes = unreadAttributes.removeLast().attributes }
        if m.contains(.covered) {
            if recordAccounting { recordAccounted() }
            return
        }
        let textLost = m.contains(.hasText) && !m.contains(.carried)
        // An element of attributes only is carried when a handler read one of them.
        let read = m.contains(.carried) || m.contains(.readAttribute)
        if textLost || (!attributes.isEmpty && !m.contains(.hasChild) && !read) {
            tallyDrop(attributes: attributes, text: textLost ? text : nil)
        } else {
            if recordAccounting, m.contains(.hasText) || (read && !m.contains(.hasChild)) { recordAccounted() }
            for a in attributes { tallyDrop(attribute: a) }
        }
    }

    private func recordAccounted() {
        guard let parser else { return }
        let key = parser.openElementsKey(from: 1)
        if accountedKeys.insert(key).inserted {
            accounting.accounted.insert(parser.openElementNames(from: 1).joined(separator: "/"))
        }
    }

    /// The key that counts repeats of the innermost open element's path (and attribute), and
    /// whether it lies inside a record (its path then starts below the record's element).
    private func dropPath(extra: String? = nil) -> (key: Int, inRecord: Bool) {
        guard let parser else { return (0, false) }
        let inRecordNow = inRecord && recordDepth > 0
        var key = parser.openElementsKey(from: inRecordNow ? recordDepth : 1)
        if let extra { key = key &* 31 &+ extra.hashValue }
        return (key, inRecordNow)
    }

    private func tallyDrop(attributes: [(name: String, value: String)], text: [UInt8]?) {
        guard let parser else { return }
        let (key, inRecordNow) = dropPath()
        let line = self.line
        let from = inRecordNow ? recordDepth : 1
        let describe = { () -> DropTally.Entry in
            let names = parser.openElementNames(from: from)
            let element = names.last ?? ""
            var shown = "<\(element)"
            for a in attributes { shown += " \(a.name)=\"\(a.value)\"" }
            shown += text.map { ">\(Self.example($0))</\(element)>" } ?? "/>"
            return DropTally.Entry(path: names.joined(separator: "/"), count: 1, line: line, example: shown)
        }
        if inRecordNow { recordDrops.add(key, describe) } else { fileDrops.add(key, describe) }
    }

    private func tallyDrop(attribute: (name: String, value: String)) {
        guard let parser else { return }
        let (key, inRecordNow) = dropPath(extra: attribute.name)
        let line = self.line
        let from = inRecordNow ? recordDepth : 1
        let describe = { () -> DropTally.Entry in
            let names = parser.openElementNames(from: from)
            return DropTally.Entry(path: names.joined(separator: "/") + "/@" + attribute.name, count: 1, line: line,
                                   example: "\(attribute.name)=\"\(attribute.value)\" on <\(names.last ?? "")>")
        }
        if inRecordNow { recordDrops.add(key, describe) } else { fileDrops.add(key, describe) }
    }

    /// Counts the element being read as one whose text passed ``InputLimits/textBytes``; it is
    /// reported with its record (or the file), and counts as spoken for.
    package func noteTooLong() {
        guard let parser else { return }
        let inRecordNow = inRecord && recordDepth > 0
        let key = parser.openElementsKey(from: inRecordNow ? recordDepth : 1)
        let line = self.line
        let from = inRecordNow ? recordDepth : 1
        longTexts.add(key) {
            DropTally.Entry(path: parser.openElementNames(from: from).joined(separator: "/"), count: 1, line: line, example: "")
        }
        coverCurrent()
    }

    /// The findings for the elements whose text was too long to read, under `prefix`.
    package func takeLongTexts(prefix: String) -> [Finding] {
        defer { longTexts.removeAll() }
        return longTexts.entries.map { e in
            let more = e.count > 1 ? " (\(e.count) such elements)" : ""
            return Finding(.dropped, "\(format).text-too-long",
                           "the element's text is longer than \(InputLimits.textBytes / 1024) KiB\(more), more than any dive log value; not carried, and not held in memory",
                           at: SourceLocation(file: file, line: e.line, path: prefix + e.path))
        }
    }

    /// A captured text for a finding's example, shortened.
    private static func example(_ text: [UInt8]) -> String {
        let s = String(decoding: text.prefix(80), as: UTF8.self).trimmingWhitespace()
        return s.isEmpty ? "…" : s
    }

    /// The findings for what was not carried inside the record just read (`record: true`) or
    /// outside records, under `prefix` (`dive/N/` for a dive). Siblings are one finding at
    /// their parent's path, naming each (a manufacturer's address is one finding, not five);
    /// an element alone under its parent is a finding at its own path.
    package func takeDrops(record: Bool, prefix: String) -> [Finding] {
        let entries = record ? recordDrops.entries : fileDrops.entries
        if record { recordDrops.removeAll() } else { fileDrops.removeAll() }
        var groups: [(parent: String, entries: [DropTally.Entry])] = []
        var groupIndex: [String: Int] = [:]
        for e in entries {
            let parent = e.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if let g = groupIndex[parent] { groups[g].entries.append(e) } else {
                groupIndex[parent] = groups.count
                groups.append((parent, [e]))
            }
        }
        func shown(_ e: DropTally.Entry, limit: Int) -> String {
            let example = e.example.count > limit ? String(e.example.prefix(limit - 1)) + "…" : e.example
            return e.count > 1 ? "\(example) (the first of \(e.count))" : example
        }
        let code = "\(format).not-carried"
        return groups.map { g in
            if g.entries.count == 1, let e = g.entries.first {
                return Finding(.dropped, code, "\(shown(e, limit: 160)) has no place in umilog's model; not carried",
                               at: SourceLocation(file: file, line: e.line, path: prefix + e.path))
            }
            let list = g.entries.map { shown($0, limit: 60) }.joined(separator: ", ")
            return Finding(.dropped, code, "\(g.entries.count) elements have no place in umilog's model and are not carried: \(list)",
                           at: SourceLocation(file: file, line: g.entries[0].line, path: prefix + g.parent))
        }
    }
}

/// A streaming reader's state that feeds an ``XMLAccountant`` from its SAX events, over its
/// own captured text. The extension below implements the calls once, for every reader. The
/// UDDF and Subsurface readers, which read logbooks of hundreds of megabytes, declare their own
/// copies (`UDDFReader+Accounting.swift`): written in the reader's module they compile to
/// direct calls, where these are called through witness tables per element (7 % of a UDDF
/// conversion, measured).
package protocol XMLAccountingState: AnyObject {
    /// The reader's accountant, through a guaranteed reference (no retain per call).
    var accounts: Unmanaged<XMLAccountant> { get }
    var findings: [Finding] { get set }
    /// The text captured for the element being read.
    var text: [UInt8] { get }
    func markCarried()
    func coverCurrent()
    func pushMarks(parentCapturing: Bool)
    func noteTrailingText(_ bytes: UnsafeBufferPointer<UInt8>)
    func noteUnreadAttributes(_ attributes: XMLAttributes)
    func popMarks(ownTextCaptured: Bool)
    func noteTooLong()
}

extension XMLAccountingState {
    /// The element being read is carried.
    package func markCarried() { accounts._withUnsafeGuaranteedRef { $0.markCarried() } }
    /// The element being read and everything in it are carried.
    package func coverCurrent() { accounts._withUnsafeGuaranteedRef { $0.coverCurrent() } }
    /// An element opens; its parent's text so far counts as the parent's own when it captured any.
    package func pushMarks(parentCapturing: Bool) {
        let hasText = parentCapturing && accounts._withUnsafeGuaranteedRef { $0.parentTextUnknown } && !isBlankXML(text)
        accounts._withUnsafeGuaranteedRef { $0.push(parentHasText: hasText) }
    }
    /// Text the reader does not capture (between child elements).
    package func noteTrailingText(_ bytes: UnsafeBufferPointer<UInt8>) {
        accounts._withUnsafeGuaranteedRef { $0.noteUncapturedText(bytes) }
    }
    /// The attributes the reader did not read.
    package func noteUnreadAttributes(_ attributes: XMLAttributes) {
        accounts._withUnsafeGuaranteedRef { $0.noteUnreadAttributes(attributes) }
    }
    /// An element closes; its own text is what it captured, if it captured.
    package func popMarks(ownTextCaptured: Bool) {
        accounts._withUnsafeGuaranteedRef { $0.pop(ownText: { ownTextCaptured ? self.text : nil }) }
    }
    /// The element's text passed ``InputLimits/textBytes`` and is not held.
    package func noteTooLong() { accounts._withUnsafeGuaranteedRef { $0.noteTooLong() } }
}

/// Appends `bytes` to an element's captured `text` up to ``InputLimits/textBytes``; past it the
/// text is not held and `tooLong` is set. True the moment the text becomes too long (the reader
/// then reports it once).
@inlinable @inline(__always)
package func appendXMLText(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], tooLong: inout Bool) -> Bool {
    if text.count + bytes.count <= InputLimits.textBytes {
        text.append(contentsOf: bytes)
        return false
    }
    if tooLong { return false }
    tooLong = true
    return true
}

extension XMLAccountingState {
    /// True when the innermost open element has had a child element.
    package var hasChildElement: Bool { accounts._withUnsafeGuaranteedRef { $0.currentHasChild } }

    package func reportLongTexts(prefix: String) {
        findings += accounts._withUnsafeGuaranteedRef { $0.takeLongTexts(prefix: prefix) }
    }

    /// Reports what was not carried in the record just read (`dive: true`) or outside records.
    package func reportDrops(dive: Bool, prefix: String) {
        findings += accounts._withUnsafeGuaranteedRef { $0.takeDrops(record: dive, prefix: prefix) }
    }
}

/// Whether bytes are XML white space only.
@inlinable @inline(__always) package func isBlankXML(_ bytes: [UInt8]) -> Bool {
    !bytes.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
}
