import DiveCore
import DiveJSON

// How the Suunto app JSON reader accounts for every member it meets, by mechanism: each object
// is walked through a ``JSONMembers``, whose `take` marks a member as read; when the walk of an
// object is done, every member nobody took that holds something (not `null`, not an empty
// string, array or object) is tallied at its path with its array indices folded (`Samples[]`),
// so that a member a new firmware invents is reported the first time a file carries it, and a
// member on 8,000 samples is one finding rather than 8,000.

/// Where a JSON object is, spelled out only when a finding or the accounting needs it: a
/// prefix already written and up to four steps below it (a member's name, an array index).
/// A sample's path (`$.DeviceLog.Samples[12]`) and its pattern (`$.DeviceLog.Samples[]`) are
/// then two steps' worth of storage, not two strings per sample.
struct JSONPath {
    enum Step {
        case member(String)
        case index(Int)
    }
    private var prefixPath: String
    private var prefixPattern: String
    private var s0: Step?, s1: Step?, s2: Step?, s3: Step?

    init(_ root: String) {
        prefixPath = root
        prefixPattern = root
    }

    /// The path of the member `name` below this one.
    func member(_ name: String) -> JSONPath { appending(.member(name)) }
    /// The path of element `i` of the array here.
    func index(_ i: Int) -> JSONPath { appending(.index(i)) }

    private func appending(_ step: Step) -> JSONPath {
        var p = self
        if p.s0 == nil { p.s0 = step } else if p.s1 == nil { p.s1 = step } else if p.s2 == nil { p.s2 = step } else if p.s3 == nil { p.s3 = step } else {
            // Deeper than four steps: what is there is written out.
            p = JSONPath(path: path, pattern: pattern)
            p.s0 = step
        }
        return p
    }

    private init(path: String, pattern: String) {
        prefixPath = path
        prefixPattern = pattern
    }

    /// E.g. `$.DeviceLog.Samples[12]`.
    var path: String { render(folded: false) }
    /// The path with array indices folded, e.g. `$.DeviceLog.Samples[]`: what a tally counts by.
    var pattern: String { render(folded: true) }

    private func render(folded: Bool) -> String {
        var out = folded ? prefixPattern : prefixPath
        func add(_ step: Step?) {
            switch step {
            case .member(let name)?: out += "." + name
            case .index(let i)?: out += folded ? "[]" : "[\(i)]"
            case nil: break
            }
        }
        add(s0); add(s1); add(s2); add(s3)
        return out
    }
}

/// One JSON object as the reader walks it.
struct JSONMembers {
    let node: JSONNode
    /// Where the object is.
    let at: JSONPath
    let members: [JSONNode.Member]
    /// Per member: bit 0 taken, bit 1 walked (taken to be walked as an object or array of its
    /// own, whose members account for themselves).
    private var marks: [UInt8]
    /// How many members are taken.
    private var takenCount = 0

    init(_ node: JSONNode, at: JSONPath) {
        self.node = node
        self.at = at
        members = node.members
        marks = [UInt8](repeating: 0, count: members.count)
    }

    /// The object's own path, e.g. `$.DeviceLog.Samples[12]`.
    var path: String { at.path }
    /// The path with array indices folded, e.g. `$.DeviceLog.Samples[]`: what a tally counts by.
    var pattern: String { at.pattern }

    /// The index of the first member called `name` (a repeated name is reported on its own).
    private func index(_ name: String) -> Int? {
        for i in members.indices where members[i].name == name { return i }
        return nil
    }

    private mutating func mark(_ i: Int, _ bits: UInt8) {
        if marks[i] & 1 == 0 { takenCount += 1 }
        marks[i] |= bits
    }

    /// The member `name`, marked as read (carried, or spoken for by a finding of its own).
    mutating func take(_ name: String) -> JSONNode.Member? {
        guard let i = index(name) else { return nil }
        mark(i, 1)
        return members[i]
    }

    /// The member `name`, marked as read for a walk of its own value (an object, an array of
    /// objects): its members are accounted for there.
    mutating func walk(_ name: String) -> JSONNode.Member? {
        guard let i = index(name) else { return nil }
        mark(i, 3)
        return members[i]
    }

    /// True when member `i` was read whole (carried, or spoken for by a finding), not walked.
    func isTakenWhole(_ i: Int) -> Bool { marks[i] == 1 }

    /// The member `name`, not marked: a reader that may still leave it to the tally.
    func peek(_ name: String) -> JSONNode.Member? { index(name).map { members[$0] } }

    /// Marks every member as read: a finding of the reader's own speaks for the whole object.
    mutating func takeAll() {
        for i in marks.indices { marks[i] = 1 }
        takenCount = marks.count
    }

    /// True when a member other than `except` that holds something was taken or walked.
    func tookSomething(except: String) -> Bool {
        for (i, m) in members.enumerated() where marks[i] != 0 && m.name != except && m.value.holdsSomething { return true }
        return false
    }

    /// The path of the member `name` below this object.
    func path(_ name: String) -> String { at.member(name).path }
    func pattern(_ name: String) -> String { at.member(name).pattern }

    /// True when member `i` is left to the tally: nobody took it, it holds something, and it
    /// is not a repeat of a name whose first occurrence was read or is empty (a repeated
    /// name's later occurrences are the duplicate finding's).
    private func isUntaken(_ i: Int) -> Bool {
        guard marks[i] == 0, members[i].value.holdsSomething else { return false }
        if let f = index(members[i].name), f != i, marks[f] != 0 || !members[f].value.holdsSomething { return false }
        return true
    }

    /// True when some member is left to the tally; no work when every member was taken.
    var hasUntaken: Bool {
        takenCount < members.count && members.indices.contains(where: isUntaken)
    }

    /// The members nobody took that hold something, each once; empty, and no work, when every
    /// member was taken.
    var untaken: [JSONNode.Member] {
        guard takenCount < members.count else { return [] }
        var out: [JSONNode.Member] = []
        for i in members.indices where isUntaken(i) { out.append(members[i]) }
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

    /// The value as compact JSON text for a message, cut at about `limit` characters. A
    /// `kelvin` value (a member the Suunto app names `…Temperature`, in SI) has each number's
    /// reading in °C beside it: `{"Max": 296 K (22.85 °C), …}`.
    func excerpt(limit: Int = 60, kelvin: Bool = false) -> String {
        var out = ""
        render(into: &out, limit: limit, kelvin: kelvin)
        return out.count > limit ? String(out.prefix(limit - 1)) + "…" : out
    }

    private func render(into out: inout String, limit: Int, kelvin: Bool) {
        guard out.count <= limit else { return }
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            out += n
            if kelvin, let celsius = SuuntoJSONReader.celsius(kelvin: n) { out += " K (\(celsius) °C)" }
        case .string(let s): out += "\"" + (s.count > limit ? String(s.prefix(limit)) : s) + "\""
        case .array(let elements):
            out += "["
            for (i, e) in elements.enumerated() {
                if out.count > limit { break }
                if i > 0 { out += ", " }
                e.render(into: &out, limit: limit, kelvin: kelvin)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if out.count > limit { break }
                if i > 0 { out += ", " }
                out += "\"\(m.name)\": "
                m.value.render(into: &out, limit: limit, kelvin: kelvin)
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
                                 column: m.column, example: m.value.excerpt(kelvin: SuuntoJSONReader.isKelvin(m.name)), count: 1))
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
