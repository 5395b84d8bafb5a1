import DiveCore

/// What the reader did with one open element. Every element with content (non-blank text of
/// its own, or attributes) is either carried — a handler read its text or its attributes —
/// or covered by a finding a handler made for its whole subtree; everything else is reported
/// as `uddf.not-carried` when it closes. The rule is the mechanism, not a list of names, so an
/// element a new writer invents is reported the first time a file carries it.
struct ElementMarks: OptionSet {
    let rawValue: UInt8
    /// Non-blank characters appeared directly inside the element.
    static let hasText = ElementMarks(rawValue: 1)
    /// A handler read the element's text.
    static let carried = ElementMarks(rawValue: 2)
    /// The element has a child element.
    static let hasChild = ElementMarks(rawValue: 4)
    /// A finding of its own speaks for the element and everything inside it.
    static let covered = ElementMarks(rawValue: 8)
    /// A handler read one of the element's attributes.
    static let readAttribute = ElementMarks(rawValue: 16)
}

/// The marks of the open elements: a stack on a buffer of its own, so that marking the
/// innermost element (once per element read) costs no copy-on-write check.
struct MarkStack {
    private var base = UnsafeMutablePointer<ElementMarks>.allocate(capacity: 64)
    private var capacity = 64
    private(set) var count = 0

    @inline(__always) var isEmpty: Bool { count == 0 }

    /// The innermost element's marks.
    @inline(__always) var top: ElementMarks {
        get { base[count - 1] }
        nonmutating set { base[count - 1] = newValue }
    }

    @inline(__always) mutating func push(_ m: ElementMarks) {
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

    @inline(__always) mutating func pop() -> ElementMarks {
        count -= 1
        return base[count]
    }

    /// Frees the buffer; called once by the owner's `deinit`.
    func free() { base.deallocate() }
}

/// Elements and attributes not carried, counted by path: one finding per path per dive (per
/// file outside dives), never one per sample.
struct DropTally {
    struct Entry {
        var path: String
        var count: Int
        var line: Int
        var example: String
    }
    private(set) var entries: [Entry] = []
    private var index: [Int: Int] = [:]

    var isEmpty: Bool { entries.isEmpty }

    /// Counts one more element at the path `key` names; `describe` builds the entry the first time.
    mutating func add(_ key: Int, _ describe: () -> Entry) {
        if let i = index[key] { entries[i].count += 1; return }
        index[key] = entries.count
        entries.append(describe())
    }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        index.removeAll(keepingCapacity: true)
    }
}

/// What an accounting run saw, for tests: the element paths (names from the root's child down,
/// joined by `/`) that were carried or covered by a finding of their own.
public struct UDDFAccounting: Sendable {
    public internal(set) var accounted: Set<String> = []
}

extension UDDFState {
    /// The XML Schema instance namespace: `xsi:schemaLocation` and its kind are hints to a
    /// validator about the document, not values the document records.
    private static let schemaInstance = "http://www.w3.org/2001/XMLSchema-instance"

    /// Marks the element being closed (or the innermost open one) as carried.
    @inline(__always) func markCarried() {
        if !marks.isEmpty { marks.top.insert(.carried) }
    }

    /// Marks the innermost open element, and so everything inside it, as spoken for by a
    /// finding the caller makes.
    func coverCurrent() {
        if !marks.isEmpty { marks.top.insert(.covered) }
    }

    /// Opens the accounting of an element: its parent now has a child (and has text if what
    /// it captured before this child is not blank); the child inherits cover. Called before
    /// the captured text is cleared for the child.
    @inline(__always) func pushMarks(parentCapturing: Bool) {
        var m: ElementMarks = []
        if !marks.isEmpty {
            var parent = marks.top
            parent.insert(.hasChild)
            if parentCapturing && !parent.contains(.hasText) && !Self.isBlank(text) { parent.insert(.hasText) }
            if parent.contains(.covered) { m.insert(.covered) }
            marks.top = parent
        }
        marks.push(m)
    }

    /// Notes non-blank text the innermost element holds after one of its children closed
    /// (mixed content); text before its first child is in the captured text.
    @inline(__always) func noteTrailingText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !marks.isEmpty, !marks.top.contains(.hasText), !Self.isBlank(bytes) else { return }
        marks.top.insert(.hasText)
    }

    @inline(__always) static func isBlank<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        !bytes.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    }

    /// Remembers the attributes of the element just opened that no handler read. `id` names
    /// the element for references and carries no value of its own; `xsi:` attributes are
    /// hints to a validator.
    func noteUnreadAttributes(_ attributes: XMLAttributes) {
        guard attributes.count > 0 else { return }
        var unread: [(name: String, value: String)] = []
        for i in 0..<attributes.count {
            // Bytes first: this runs for every start tag with attributes (every sample's
            // tank pressure), and a String is built only for what is recorded or reported.
            guard let local = attributes.localNamePointer(i), !asciiCaseInsensitiveEquals(local, "id") else { continue }
            if attributes.wasRead(i) {
                marks.top.insert(.readAttribute)
                if recordAccounting { recordAccountedAttribute(String(cString: local)) }
                continue
            }
            if let uri = attributes.namespaceURI(i), String(cString: uri) == Self.schemaInstance { continue }
            unread.append((String(cString: local), attributes.value(at: i)))
        }
        if !unread.isEmpty { unreadAttributes.append((depth: stack.count, attributes: unread)) }
    }

    private func recordAccountedAttribute(_ name: String) {
        guard let parser else { return }
        accounting.accounted.insert((parser.openElementNames(from: 1) + ["@" + name]).joined(separator: "/"))
    }

    /// Closes the accounting of the innermost element: reports it (or its unread attributes)
    /// unless it was carried or covered, and records what was accounted when asked to.
    @inline(__always) func popMarks(ownTextCaptured: Bool) {
        guard !marks.isEmpty else { return }
        let depth = marks.count
        var m = marks.pop()
        let pending = !unreadAttributes.isEmpty && unreadAttributes[unreadAttributes.count - 1].depth == depth
        // The common case: read, or a container whose children speak for themselves.
        if !pending && !recordAccounting && (m.contains(.carried) || m.contains(.covered) || m.contains(.hasChild) && !m.contains(.hasText)) {
            return
        }
        if ownTextCaptured && !m.contains(.hasText) && !Self.isBlank(text) { m.insert(.hasText) }
        if !m.contains(.hasText) && !pending && !recordAccounting { return }
        closeMarks(m, pending: pending)
    }

    private func closeMarks(_ m: ElementMarks, pending: Bool) {
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
            tallyDrop(attributes: attributes, text: textLost)
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
    /// whether it lies inside a dive (its path then starts below the `<dive>`).
    private func dropPath(extra: String? = nil) -> (key: Int, inDive: Bool) {
        guard let parser else { return (0, false) }
        let inDiveNow = inDive && diveDepth > 0
        var key = parser.openElementsKey(from: inDiveNow ? diveDepth : 1)
        if let extra { key = key &* 31 &+ extra.hashValue }
        return (key, inDiveNow)
    }

    private func tallyDrop(attributes: [(name: String, value: String)], text: Bool) {
        guard let parser else { return }
        let (key, inDiveNow) = dropPath()
        let line = self.line
        let describe = { () -> DropTally.Entry in
            let names = parser.openElementNames(from: inDiveNow ? self.diveDepth : 1)
            let element = names.last ?? ""
            var shown = "<\(element)"
            for a in attributes { shown += " \(a.name)=\"\(a.value)\"" }
            shown += text ? ">\(self.textExample())</\(element)>" : "/>"
            return DropTally.Entry(path: names.joined(separator: "/"), count: 1, line: line, example: shown)
        }
        if inDiveNow { diveDrops.add(key, describe) } else { fileDrops.add(key, describe) }
    }

    private func tallyDrop(attribute: (name: String, value: String)) {
        guard let parser else { return }
        let (key, inDiveNow) = dropPath(extra: attribute.name)
        let line = self.line
        let describe = { () -> DropTally.Entry in
            let names = parser.openElementNames(from: inDiveNow ? self.diveDepth : 1)
            return DropTally.Entry(path: names.joined(separator: "/") + "/@" + attribute.name, count: 1, line: line,
                                   example: "\(attribute.name)=\"\(attribute.value)\" on <\(names.last ?? "")>")
        }
        if inDiveNow { diveDrops.add(key, describe) } else { fileDrops.add(key, describe) }
    }

    /// Counts the element being read as one whose text passed ``InputLimits/textBytes``; it is
    /// reported when its dive (or the file) ends, and counts as spoken for.
    func noteTooLong() {
        guard let parser else { return }
        let inDiveNow = inDive && diveDepth > 0
        let key = parser.openElementsKey(from: inDiveNow ? diveDepth : 1)
        let line = self.line
        longTexts.add(key) {
            DropTally.Entry(path: parser.openElementNames(from: inDiveNow ? self.diveDepth : 1).joined(separator: "/"),
                            count: 1, line: line, example: "")
        }
        coverCurrent()
    }

    /// Reports the elements whose text was too long to read.
    func reportLongTexts(prefix: String) {
        for e in longTexts.entries {
            let more = e.count > 1 ? " (\(e.count) such elements)" : ""
            report(.dropped, "uddf.text-too-long", "the element's text is longer than \(InputLimits.textBytes / 1024) KiB\(more), more than any dive log value; not carried, and not held in memory", path: prefix + e.path, line: e.line)
        }
        longTexts.removeAll()
    }

    /// The captured text for a finding's example (the element's own text, when the reader
    /// captures it), shortened.
    private func textExample() -> String {
        let s = String(decoding: text.prefix(80), as: UTF8.self).trimmingWhitespace()
        return s.isEmpty ? "…" : s
    }

    /// Reports what `tally` counted, under `prefix` (`dive/N/` inside a dive). Siblings are
    /// one finding at their parent's path, naming each (a manufacturer's address is one
    /// finding, not five); an element alone under its parent is a finding at its own path.
    func reportDrops(_ tally: inout DropTally, prefix: String) {
        var groups: [(parent: String, entries: [DropTally.Entry])] = []
        var groupIndex: [String: Int] = [:]
        for e in tally.entries {
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
        for g in groups {
            if g.entries.count == 1, let e = g.entries.first {
                report(.dropped, "uddf.not-carried", "\(shown(e, limit: 160)) has no place in umilog's model; not carried", path: prefix + e.path, line: e.line)
            } else {
                let list = g.entries.map { shown($0, limit: 60) }.joined(separator: ", ")
                report(.dropped, "uddf.not-carried", "\(g.entries.count) elements have no place in umilog's model and are not carried: \(list)", path: prefix + g.parent, line: g.entries[0].line)
            }
        }
        tally.removeAll()
    }
}
