/// A JSON value carried through untouched: a producer's `extensions` content, which a
/// reader keeps and re-emits without understanding it (DiveJSON §5.5). Objects keep their
/// member order and numbers their exact text.
public indirect enum ExtensionValue: Sendable, Hashable {
    case object([(String, ExtensionValue)])
    case array([ExtensionValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    public static func == (a: ExtensionValue, b: ExtensionValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let x), .array(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .object(let m): h.combine(0); for (k, v) in m { h.combine(k); h.combine(v) }
        case .array(let a): h.combine(1); h.combine(a)
        case .string(let s): h.combine(2); h.combine(s)
        case .number(let n): h.combine(3); h.combine(n)
        case .bool(let b): h.combine(4); h.combine(b)
        case .null: h.combine(5)
        }
    }
}
