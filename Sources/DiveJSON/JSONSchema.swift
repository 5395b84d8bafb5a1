import DiveCore

/// One place a document fails its schema.
public struct SchemaViolation: Sendable, Hashable {
    /// The failing keyword, e.g. `required`, `maxLength`, `additionalProperties`.
    public var keyword: String
    /// JSON path of the failing value (for `required`, of the object missing the member).
    public var path: String
    /// The 1-based line of the failing value (of the member, for a member not allowed).
    public var line: Int
    /// The 1-based column of the failing value (of the member, for a member not allowed).
    public var column: Int
    /// A sentence saying what fails.
    public var message: String
}

/// Evaluates a JSON Schema (draft 2020-12, the keywords DiveJSON's schema uses: `type`,
/// `properties`, `additionalProperties`, `required`, `items`, `enum`, `const`, `pattern`,
/// `format`, string length in code points, numeric bounds, `uniqueItems`, `minItems`,
/// `contains`/`minContains`/`maxContains`, `anyOf`, `allOf`, `not`, `if`/`then`/`else`,
/// `dependentRequired`, `minProperties`, `propertyNames`, local `$ref`) against parsed JSON.
public final class JSONSchema {
    private let root: JSONNode
    private var regexes: [String: Regex<AnyRegexOutput>] = [:]
    /// Where the evaluation is in the instance.
    private var path = JSONPath()

    /// Makes an evaluator of this schema document.
    public init(_ schema: JSONNode) { root = schema }

    /// Every violation in `instance`; empty when it conforms.
    public func validate(_ instance: JSONNode) -> [SchemaViolation] {
        var out: [SchemaViolation] = []
        path = JSONPath()
        evaluate(root, instance, into: &out)
        return out
    }

    /// Every violation in `instance` of the schema `ref` names (`#/$defs/dive`), `instance`
    /// standing at `components` of its document: one dive of a document checked on its own.
    func validate(_ instance: JSONNode, ref: String, at components: [JSONPath.Component]) -> [SchemaViolation] {
        var out: [SchemaViolation] = []
        path = JSONPath()
        for c in components { path.push(c) }
        if let schema = resolve(ref) { evaluate(schema, instance, into: &out) }
        return out
    }

    /// True when `instance` conforms to `schema` (used inside `anyOf`, `not`, `if`).
    private func conforms(_ schema: JSONNode, _ instance: JSONNode) -> Bool {
        var scratch: [SchemaViolation] = []
        evaluate(schema, instance, into: &scratch)
        return scratch.isEmpty
    }

    /// Resolved `$ref`s, by reference: each is looked up in the schema once.
    private var resolved: [String: JSONNode] = [:]

    private func resolve(_ ref: String) -> JSONNode? {
        if let node = resolved[ref] { return node }
        guard ref.hasPrefix("#/") else { return nil }
        var node: JSONNode? = root
        for part in ref.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        resolved[ref] = node
        return node
    }

    private func fail(_ out: inout [SchemaViolation], _ keyword: String, _ instance: JSONNode, _ message: String) {
        out.append(SchemaViolation(keyword: keyword, path: path.text, line: instance.line, column: instance.column, message: message))
    }

    /// Evaluates `schema` against `x`, which sits at `path`, and its members and elements
    /// below it.
    private func evaluate(_ schema: JSONNode, _ x: JSONNode, into out: inout [SchemaViolation]) {
        if case .bool(let b) = schema.value {
            if !b { fail(&out, "false", x, "no value is allowed here") }
            return
        }
        for m in schema.members {
            let s = m.value
            switch m.name {
            case "$ref":
                if let ref = s.string, let target = resolve(ref) { evaluate(target, x, into: &out) }
            case "type":
                // One type (every sample of a profile is checked against one) needs no list.
                if let t = s.string, Self.isType(x, t) { continue }
                let types = s.string.map { [$0] } ?? s.elements.compactMap(\.string)
                if !types.contains(where: { Self.isType(x, $0) }) {
                    let what = x.numberText.map { "the number \($0), beyond what any reader can hold" } ?? x.typeName
                    fail(&out, "type", x, "should be \(types.joined(separator: " or ")), is \(what)")
                }
            case "enum":
                if !s.elements.contains(where: { Self.equal($0, x) }) {
                    let allowed = s.elements.map { $0.string.map { "\"\($0)\"" } ?? $0.numberText ?? $0.typeName }.joined(separator: ", ")
                    fail(&out, "enum", x, "\(Self.show(x)) is not one of \(allowed)")
                }
            case "const":
                if !Self.equal(s, x) { fail(&out, "const", x, "should be \(Self.show(s)), is \(Self.show(x))") }
            case "properties":
                guard x.isObject else { continue }
                for p in s.members {
                    if let member = x.members.first(where: { $0.name == p.name }) {
                        path.push(.member(p.name))
                        evaluate(p.value, member.value, into: &out)
                        path.pop()
                    }
                }
            case "additionalProperties":
                guard x.isObject else { continue }
                let declared = Set(schema["properties"]?.members.map(\.name) ?? [])
                for member in x.members where !declared.contains(member.name) {
                    path.push(.member(member.name))
                    if case .bool(false) = s.value {
                        out.append(SchemaViolation(keyword: "additionalProperties", path: path.text, line: member.line, column: member.column,
                                                   message: "\"\(member.name)\" is not a member this object may have"))
                    } else {
                        evaluate(s, member.value, into: &out)
                    }
                    path.pop()
                }
            case "required":
                guard x.isObject else { continue }
                let names = Set(x.members.map(\.name))
                for r in s.elements.compactMap(\.string) where !names.contains(r) {
                    fail(&out, "required", x, "the required member \"\(r)\" is missing")
                }
            case "dependentRequired":
                guard x.isObject else { continue }
                let names = Set(x.members.map(\.name))
                for dep in s.members where names.contains(dep.name) {
                    for r in dep.value.elements.compactMap(\.string) where !names.contains(r) {
                        fail(&out, "dependentRequired", x, "\"\(dep.name)\" needs \"\(r)\" beside it")
                    }
                }
            case "minProperties":
                if x.isObject, let n = s.integer, x.members.count < n {
                    fail(&out, "minProperties", x, "needs at least \(n) member\(n == 1 ? "" : "s")")
                }
            case "propertyNames":
                for member in x.members {
                    let name = JSONNode(value: .string(member.name), line: member.line, column: member.column)
                    if !conforms(s, name) {
                        path.push(.member(member.name))
                        out.append(SchemaViolation(keyword: "propertyNames", path: path.text, line: member.line, column: member.column,
                                                   message: "\"\(member.name)\" is not an allowed member name"))
                        path.pop()
                    }
                }
            case "items":
                for (i, e) in x.elements.enumerated() {
                    path.push(.index(i))
                    evaluate(s, e, into: &out)
                    path.pop()
                }
            case "minItems":
                if case .array(let a) = x.value, let n = s.integer, a.count < n {
                    fail(&out, "minItems", x, "needs at least \(n) element\(n == 1 ? "" : "s")")
                }
            case "uniqueItems":
                guard case .bool(true) = s.value, case .array(let a) = x.value else { continue }
                outer: for i in a.indices {
                    for j in a.indices where j > i && Self.equal(a[i], a[j]) {
                        path.push(.index(j))
                        fail(&out, "uniqueItems", a[j], "repeats element \(i)")
                        path.pop()
                        break outer
                    }
                }
            case "contains":
                guard case .array(let a) = x.value else { continue }
                let count = a.filter { conforms(s, $0) }.count
                let minimum = schema["minContains"]?.integer ?? 1
                let maximum = schema["maxContains"]?.integer
                if count < minimum { fail(&out, "contains", x, "needs at least \(minimum) matching element\(minimum == 1 ? "" : "s")") }
                if let maximum, count > maximum { fail(&out, "maxContains", x, "holds \(count) matching elements, at most \(maximum) allowed") }
            case "minLength", "maxLength":
                guard let str = x.string, let n = s.integer else { continue }
                let length = str.unicodeScalars.count
                if m.name == "minLength" && length < n { fail(&out, "minLength", x, n == 1 ? "should not be empty" : "should be at least \(n) characters, is \(length)") }
                if m.name == "maxLength" && length > n { fail(&out, "maxLength", x, "should be at most \(n) characters, is \(length)") }
            case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
                guard let xt = x.numberText, let bt = s.numberText else { continue }
                // Whole numbers (a profile's times and values) compare without a decimal parse.
                let (v, bound): (Double, Double)
                if let xi = Int(xt), let bi = Int(bt) { (v, bound) = (Double(xi), Double(bi)) } else {
                    guard let xd = Double(xt), let bd = Double(bt) else { continue }
                    (v, bound) = (xd, bd)
                }
                let ok: Bool
                switch m.name {
                case "minimum": ok = v >= bound
                case "maximum": ok = v <= bound
                case "exclusiveMinimum": ok = v > bound
                default: ok = v < bound
                }
                if !ok {
                    let relation = ["minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"][m.name]!
                    fail(&out, m.name, x, "should be \(relation) \(s.numberText!), is \(x.numberText!)")
                }
            case "pattern":
                guard let str = x.string, let p = s.string, let regex = regex(p) else { continue }
                if (try? regex.firstMatch(in: str)) == nil { fail(&out, "pattern", x, "\"\(str)\" does not have the required form") }
            case "format":
                guard let str = x.string, let f = s.string, !Self.matchesFormat(str, f) else { continue }
                fail(&out, "format", x, "\"\(str)\" is not a valid \(f)")
            case "anyOf":
                if !s.elements.contains(where: { conforms($0, x) }) {
                    fail(&out, "anyOf", x, "matches none of the allowed shapes")
                }
            case "allOf":
                for sub in s.elements { evaluate(sub, x, into: &out) }
            case "not":
                if conforms(s, x) { fail(&out, "not", x, "has a shape that is not allowed here") }
            case "if":
                if conforms(s, x) {
                    if let then = schema["then"] { evaluate(then, x, into: &out) }
                } else if let otherwise = schema["else"] {
                    evaluate(otherwise, x, into: &out)
                }
            default:
                continue
            }
        }
    }

    private func regex(_ pattern: String) -> Regex<AnyRegexOutput>? {
        if let r = regexes[pattern] { return r }
        guard let r = try? Regex(pattern) else { return nil }
        regexes[pattern] = r
        return r
    }

    static func isType(_ x: JSONNode, _ type: String) -> Bool {
        switch (type, x.value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null):
            return true
        case ("number", .number(let text)):
            // `1e999` is JSON's grammar but no number a reader can hold.
            return Double(text)?.isFinite == true
        case ("integer", .number):
            return x.integer != nil
        default:
            return false
        }
    }

    /// JSON equality: numbers by value, objects regardless of member order.
    public static func equal(_ a: JSONNode, _ b: JSONNode) -> Bool {
        switch (a.value, b.value) {
        case (.number(let x), .number(let y)):
            if let dx = DecimalNumber(x), let dy = DecimalNumber(y) { return dx.normalized() == dy.normalized() }
            return Double(x) == Double(y)
        case (.string(let x), .string(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { m in y.contains { $0.name == m.name && equal($0.value, m.value) } }
        default: return false
        }
    }

    static func show(_ x: JSONNode) -> String {
        switch x.value {
        case .string(let s): return "\"\(s)\""
        case .number(let n): return n
        case .bool(let b): return String(b)
        case .null: return "null"
        default: return "an \(x.typeName)"
        }
    }

    /// The formats the DiveJSON schema names: `date`, `date-time` (RFC 3339, with an offset),
    /// `uuid`, `email`, `uri`.
    static func matchesFormat(_ s: String, _ format: String) -> Bool {
        switch format {
        case "date":
            return s.utf8.count == 10 && DiveDateTime.parse(s).map { $0.1.dateOnly && !$0.1.offsetOnDateDropped } == true
        case "date-time":
            guard let (v, notes) = DiveDateTime.parse(s) else { return false }
            return v.offset != nil && !notes.secondsMissing && !notes.dateOnly && (s.contains("T") || s.contains("t"))
        case "uuid":
            return Identity.isCanonicalUUID(Array(s.utf8))
        case "email":
            return TextForms.isEmailAddress(s)
        case "uri":
            return TextForms.isAbsoluteURI(s)
        default:
            return true
        }
    }
}
