import DiveCore

/// One record of the model as the DiveJSON object DiveJSON would write for it, and back: the
/// lossless form a store keeps for the members it has no column for. The object is exactly
/// what ``DiveJSONWriter`` writes and ``DiveJSONReader`` reads, so nothing the model carries
/// is left out and no second spelling of it exists.
public enum DiveJSONFragment {
    private static let placeholderStart = DiveDateTime(date: LocalDate(year: 2000, month: 1, day: 1)!)
    private static let generator = Generator(name: "umilog")

    /// The object DiveJSON writes for `dive` (its start, when it has none, is a placeholder
    /// the caller drops: a DiveJSON dive needs one).
    public static func node(of dive: Dive) throws -> JSONNode {
        var d = dive
        if d.startedAt == nil { d.startedAt = placeholderStart }
        let doc = try document { w in try w.write(d, header: LogbookHeader()) ; try w.finish(header: LogbookHeader()) }
        guard let node = doc["dives"]?.elements.first else { throw DiveError("store.fragment", "the dive could not be written as DiveJSON", at: SourceLocation()) }
        return node
    }

    /// The document members DiveJSON writes for `header` (its collections, its extensions),
    /// without `format`, `version`, `exported_at`, `generator` and `dives`.
    public static func node(of header: LogbookHeader) throws -> JSONNode {
        var h = header
        h.sourceFormat = nil
        let doc = try document { w in try w.finish(header: h) }
        let skip: Set<String> = ["format", "version", "exported_at", "generator", "dives"]
        return JSONNode(.object(doc.members.filter { !skip.contains($0.name) }))
    }

    /// The dive a DiveJSON dive object describes; `findings` collects what the reader reports.
    public static func dive(from node: JSONNode, findings: inout [Finding]) throws -> Dive {
        let reader = try DiveJSONReader(document: wrap(["dives": JSONNode(.array([node]))]), duplicates: [], displayName: "store")
        guard var dive = try reader.next() else {
            findings += reader.takeFindings()
            throw DiveError("store.fragment", "a stored dive could not be read back", at: SourceLocation())
        }
        findings += reader.takeFindings()
        // A fragment is no file: a writer's finding about the dive names its place in the export,
        // not "store", line 0, dive 0 for every dive.
        dive.provenance = nil
        return dive
    }

    /// The header a set of document members describes (see ``node(of:)-(LogbookHeader)``).
    public static func header(from node: JSONNode, findings: inout [Finding]) throws -> LogbookHeader {
        let reader = try DiveJSONReader(document: wrap(Dictionary(node.members.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }), order: node.members.map(\.name)),
                                        duplicates: [], displayName: "store")
        findings += reader.takeFindings()
        var header = reader.header
        header.layout = SourceLayout()
        header.sourceFormat = nil
        return header
    }

    private static func document(_ body: (DiveJSONWriter) throws -> Void) throws -> JSONNode {
        let sink = MemorySink()
        let writer = DiveJSONWriter(sink: sink, generator: generator, exportedAt: "2000-01-01T00:00:00Z")
        try body(writer)
        return try sink.bytes.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw, file: "store")
            return try parser.parseDocument()
        }
    }

    private static func wrap(_ members: [String: JSONNode], order: [String]? = nil) -> JSONNode {
        var list = [JSONNode.Member(name: "format", line: 0, column: 0, value: JSONNode(.string("divejson"))),
                    JSONNode.Member(name: "version", line: 0, column: 0, value: JSONNode(.string("1.0")))]
        for name in order ?? members.keys.sorted() { if let v = members[name] { list.append(.init(name: name, line: 0, column: 0, value: v)) } }
        return JSONNode(.object(list))
    }
}

extension JSONNode {
    /// A node built in code (line and column 0).
    public init(_ value: Value) {
        self.init(value: value, line: 0, column: 0)
    }

    /// The node as compact JSON text, members in order, numbers as written.
    public var compactText: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func append(to out: inout [UInt8]) {
        switch value {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (k, m) in members.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                JSONEmitter.appendQuoted(m.name, to: &out)
                out.append(UInt8(ascii: ":"))
                m.value.append(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (k, e) in elements.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                e.append(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let s): JSONEmitter.appendQuoted(s, to: &out)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }

    /// Parses JSON text.
    public static func parse(_ text: String) throws -> JSONNode {
        var text = text
        return try text.withUTF8 { buffer in
            var parser = JSONParser(bytes: UnsafeRawBufferPointer(buffer), file: "store")
            return try parser.parseDocument()
        }
    }

    /// An object of `members`, in order.
    public static func object(_ members: [(String, JSONNode)]) -> JSONNode {
        JSONNode(.object(members.map { Member(name: $0.0, line: 0, column: 0, value: $0.1) }))
    }

    /// The object without the members named in `names`.
    public func removing(_ names: Set<String>) -> JSONNode {
        guard case .object(let members) = value else { return self }
        return JSONNode(.object(members.filter { !names.contains($0.name) }))
    }

    /// The object with `member` set (replaced where it stands, else added at the end).
    public func setting(_ name: String, _ member: JSONNode) -> JSONNode {
        var members = self.members
        if let k = members.firstIndex(where: { $0.name == name }) { members[k].value = member } else {
            members.append(Member(name: name, line: 0, column: 0, value: member))
        }
        return JSONNode(.object(members))
    }
}
