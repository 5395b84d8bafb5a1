import DiveCore
import DiveJSON

// How the Suunto app JSON reader accounts for every member it meets, by mechanism: each object
// is walked through a ``JSONMembers``, whose `take` marks a member as read; when the walk of an
// object is done, every member nobody took that holds something (not `null`, not an empty
// string, array or object) is tallied at its path with its array indices folded (`Samples[]`),
// so that a member a new firmware invents is reported the first time a file carries it, and a
// member on 8,000 samples is one finding rather than 8,000.

/// One JSON object as the reader walks it.
struct JSONMembers {
    let node: JSONNode
    /// The object's own path, e.g. `$.DeviceLog.Samples[12]`.
    let path: String
    /// The path with array indices folded, e.g. `$.DeviceLog.Samples[]`: what a tally counts by.
    let pattern: String
    let members: [JSONNode.Member]
    private var taken: [Bool]
    /// Taken to be walked as an object or array of its own, whose members account for themselves.
    private var walked: [Bool]

    init(_ node: JSONNode, path: String, pattern: String) {
        self.node = node
        self.path = path
        self.pattern = pattern
        members = node.members
        taken = [Bool](repeating: false, count: members.count)
        walked = taken
    }

    /// The index of the first member called `name` (a repeated name is reported on its own).
    private func index(_ name: String) -> Int? {
        for i in members.indices where members[i].name == name { return i }
        return nil
    }

    /// The member `name`, marked as read (carried, or spoken for by a finding of its own).
    mutating func take(_ name: String) -> JSONNode.Member? {
        guard let i = index(name) else { return nil }
        taken[i] = true
        return members[i]
    }

    /// The member `name`, marked as read for a walk of its own value (an object, an array of
    /// objects): its members are accounted for there.
    mutating func walk(_ name: String) -> JSONNode.Member? {
        guard let i = index(name) else { return nil }
        taken[i] = true
        walked[i] = true
        return members[i]
    }

    /// True when member `i` was read whole (carried, or spoken for by a finding), not walked.
    func isTakenWhole(_ i: Int) -> Bool { taken[i] && !walked[i] }

    /// The member `name`, not marked: a reader that may still leave it to the tally.
    func peek(_ name: String) -> JSONNode.Member? { index(name).map { members[$0] } }

    /// Marks every member as read: a finding of the reader's own speaks for the whole object.
    mutating func takeAll() {
        for i in taken.indices {
            taken[i] = true
            walked[i] = false
        }
    }

    /// True when a member other than `except` that holds something was taken or walked.
    func tookSomething(except: String) -> Bool {
        for (i, m) in members.enumerated() where taken[i] && m.name != except && m.value.holdsSomething { return true }
        return false
    }

    /// The path of the member `name` below this object.
    func path(_ name: String) -> String { path + "." + name }
    func pattern(_ name: String) -> String { pattern + "." + name }

    /// The members nobody took that hold something, each once (a repeated name's later
    /// occurrences are the duplicate finding's).
    var untaken: [JSONNode.Member] {
        var out: [JSONNode.Member] = []
        var first: [String: Int] = [:]
        for (i, m) in members.enumerated() {
            if first[m.name] == nil { first[m.name] = i }
            guard !taken[i], m.value.holdsSomething else { continue }
            if let f = first[m.name], f != i, taken[f] || !members[f].value.holdsSomething { continue }
            out.append(m)
        }
        return out
    }
}

extension JSONNode {
    /// True unless the value records nothing: `null`, a blank string, or an array or object
    /// holding only such values. An empty value is absent, not a value lost.
    var holdsSomething: Bool {
        switch value {
        case .null: return false
        case .string(let s): return !s.trimmingWhitespace().isEmpty
        case .number, .bool: return true
        case .array(let elements): return elements.contains { $0.holdsSomething }
        case .object(let members): return members.contains { $0.value.holdsSomething }
        }
    }

    /// The value as compact JSON text for a message, cut at about `limit` characters.
    func excerpt(limit: Int = 60) -> String {
        var out = ""
        render(into: &out, limit: limit)
        return out.count > limit ? String(out.prefix(limit - 1)) + "…" : out
    }

    private func render(into out: inout String, limit: Int) {
        guard out.count <= limit else { return }
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): out += "\"" + (s.count > limit ? String(s.prefix(limit)) : s) + "\""
        case .array(let elements):
            out += "["
            for (i, e) in elements.enumerated() {
                if out.count > limit { break }
                if i > 0 { out += ", " }
                e.render(into: &out, limit: limit)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if out.count > limit { break }
                if i > 0 { out += ", " }
                out += "\"\(m.name)\": "
                m.value.render(into: &out, limit: limit)
            }
            out += "}"
        }
    }
}

/// Members nobody read, by their folded path: the raw material of `suunto-json.not-carried`.
struct UncarriedTally {
    struct Entry {
        /// The folded path of the object holding the member, and the member's name.
        var parentPattern: String
        var name: String
        /// The first occurrence: the holding object's path, the member's line and column and value.
        var parentPath: String
        var line: Int
        var column: Int
        var example: String
        var count: Int
    }

    private(set) var entries: [Entry] = []
    private var index: [String: Int] = [:]
    /// The most members one finding names.
    static let namesListed = 40

    /// Tallies the members of `object` nobody took.
    mutating func add(_ object: JSONMembers) {
        for m in object.untaken {
            let key = object.pattern + "\u{0}" + m.name
            if let i = index[key] { entries[i].count += 1; continue }
            index[key] = entries.count
            entries.append(Entry(parentPattern: object.pattern, name: m.name, parentPath: object.path, line: m.line,
                                 column: m.column, example: m.value.excerpt(), count: 1))
        }
    }

    /// One finding per holding object's folded path: siblings are named together (a header's
    /// fitness block is one finding, not twenty), a member alone at its own path.
    func findings(file: String, code: String) -> [Finding] {
        var groups: [(pattern: String, entries: [Entry])] = []
        var groupIndex: [String: Int] = [:]
        for e in entries {
            if let g = groupIndex[e.parentPattern] { groups[g].entries.append(e) } else {
                groupIndex[e.parentPattern] = groups.count
                groups.append((e.parentPattern, [e]))
            }
        }
        func shown(_ e: Entry) -> String {
            let value = "\"\(e.name)\": \(e.example)"
            return e.count > 1 ? "\(value) (the first of \(e.count))" : value
        }
        return groups.map { g in
            let first = g.entries[0]
            if g.entries.count == 1 {
                return Finding(.dropped, code, "\(shown(first)) has no place in umilog's model; not carried",
                               at: SourceLocation(file: file, line: first.line, column: first.column, path: first.parentPath + "." + first.name))
            }
            // A message stays a sentence: past a screenful of names, the rest are counted.
            let named = g.entries.prefix(Self.namesListed).map(shown).joined(separator: ", ")
            let more = g.entries.count - Self.namesListed
            let list = more > 0 ? "\(named) and \(more) more" : named
            return Finding(.dropped, code, "\(g.entries.count) members have no place in umilog's model and are not carried: \(list)",
                           at: SourceLocation(file: file, line: first.line, column: first.column, path: first.parentPath))
        }
    }
}
