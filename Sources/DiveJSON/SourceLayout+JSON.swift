import DiveCore

/// The shape of DiveJSON 1.0 as the writer lays it out: per object, its members in schema
/// order; per member, what kind of value it holds. Built once from the embedded schema, so
/// the order the writer follows and the order a reader compares against are one table.
final class SchemaShape: Sendable {
    indirect enum Kind: Sendable {
        case object(SchemaShape)
        case array(Kind)
        case number
        case integer
        /// A date or date-time text.
        case dateTime
        /// Strings, booleans, enums, opaque `extensions`: nothing to lay out.
        case other
    }

    let members: [(name: String, kind: Kind)]
    private let rank: [String: Int]

    private init(members: [(name: String, kind: Kind)]) {
        self.members = members
        var rank: [String: Int] = [:]
        for (i, m) in members.enumerated() { rank[m.name] = i }
        self.rank = rank
    }

    func kind(of name: String) -> Kind? { rank[name].map { members[$0].kind } }
    func rank(of name: String) -> Int? { rank[name] }

    /// The document root.
    static let root: SchemaShape = {
        // The embedded schema is valid JSON (EmbeddedSchemaTests parse it).
        let schema = try! DiveJSONValidator.schemaDocument.get()
        let defs = schema["$defs"]?.members ?? []
        var built: [String: SchemaShape] = [:]
        func definition(_ name: String) -> JSONNode? { defs.first { $0.name == name }?.value }
        func kind(_ node: JSONNode) -> Kind {
            if let alternatives = node["anyOf"]?.elements, let first = alternatives.first { return kind(first) }
            if let ref = node["$ref"]?.string {
                let name = String(ref.split(separator: "/").last ?? "")
                if name == "extensions" { return .other }
                if ["date", "date_time", "offset_date_time"].contains(name) { return .dateTime }
                guard let target = definition(name) else { return .other }
                if target["properties"] != nil { return .object(shape(name, target)) }
                return kind(target)
            }
            switch node["type"]?.string {
            case "number": return .number
            case "integer": return .integer
            case "array": return node["items"].map { .array(kind($0)) } ?? .other
            default: return .other
            }
        }
        func shape(_ name: String, _ node: JSONNode) -> SchemaShape {
            if let done = built[name] { return done }
            let s = SchemaShape(members: (node["properties"]?.members ?? []).map { ($0.name, kind($0.value)) })
            built[name] = s
            return s
        }
        return shape("", schema)
    }()
}

extension SourceLayout {
    /// Records how `node` (an object of `shape`, at `path` relative to its record) and
    /// everything inside it deviates from the writer's layout: member orders other than the
    /// schema's, numbers spelled otherwise than the writer spells them. `extensions` are
    /// carried verbatim and profile channels are plain integers, so neither is looked into.
    mutating func collect(_ node: JSONNode, _ shape: SchemaShape, path: String) {
        let members = node.members
        var last = -1
        var inOrder = true
        for m in members {
            guard let r = shape.rank(of: m.name) else { continue }
            if r < last { inOrder = false }
            last = r
        }
        if !inOrder { memberOrders[path] = members.map(\.name) }
        for m in members {
            guard let kind = shape.kind(of: m.name) else { continue }
            collect(m.value, kind, path: path.isEmpty ? m.name : path + "/" + m.name)
        }
    }

    mutating func collect(_ node: JSONNode, _ kind: SchemaShape.Kind, path: String) {
        switch kind {
        case .object(let shape):
            if node.isObject { collect(node, shape, path: path) }
        case .array(let element):
            if case .array(let elements) = node.value, elements.isEmpty { emptyArrays.insert(path) }
            switch element {
            case .object, .number, .array:
                for (i, e) in node.elements.enumerated() { collect(e, element, path: path + "/" + String(i)) }
            case .integer, .dateTime, .other: break
            }
        case .number:
            if let text = node.numberText, let v = Double(text), v.isFinite, v.description != text { texts[path] = text }
        case .integer:
            if let text = node.numberText, Int(text).map(String.init) != text { texts[path] = text }
        case .dateTime:
            if let text = node.string, let (v, _) = DiveDateTime.parse(text), v.description != text { texts[path] = text }
        case .other: break
        }
    }
}
