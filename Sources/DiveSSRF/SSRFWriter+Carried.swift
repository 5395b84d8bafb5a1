import DiveCore

/// What a record read from Subsurface XML carries under `extensions.umilog` (DiveJSON's
/// `docs/umilog-extension.md`, "From Subsurface XML"), taken member by member as the writer
/// spells each back; whatever is left is reported as not carried.
struct CarriedMembers {
    /// The `umilog` members not yet written.
    private(set) var members: [ExtensionValue.Member] = []
    /// Extension members outside `umilog`, which the writer never spells.
    private var others: [String] = []

    init(_ e: ExtensionValue?) {
        guard let e else { return }
        guard case .object(let top) = e else { others = ["extensions"]; return }
        for m in top {
            if m.name == "umilog", case .object(let inner) = m.value { members += inner } else { others.append(m.name) }
        }
    }

    func peek(_ name: String) -> ExtensionValue? { members.first { $0.name == name }?.value }

    /// Takes the member when `read` accepts its value; leaves it (to be reported) otherwise.
    mutating func take<T>(_ name: String, _ read: (ExtensionValue) -> T?) -> T? {
        guard let i = members.firstIndex(where: { $0.name == name }), let v = read(members[i].value) else { return nil }
        members.remove(at: i)
        return v
    }

    /// Puts back a member the writer wrote only in part.
    mutating func put(_ name: String, _ value: ExtensionValue) { members.append(.init(name, value)) }

    mutating func string(_ name: String) -> String? { take(name) { $0.carriedString } }
    mutating func decimal(_ name: String) -> DecimalNumber? { take(name) { $0.carriedDecimal } }
    mutating func integer(_ name: String) -> Int? { take(name) { $0.carriedInteger } }

    /// The members left, for a `dropped` finding: `extensions (umilog.a, b)`; `nil` when none.
    var leftover: String? {
        let names = members.map { "umilog." + $0.name } + others
        return names.isEmpty ? nil : "extensions (\(names.joined(separator: ", ")))"
    }
}

extension ExtensionValue {
    var carriedString: String? { if case .string(let s) = self { return s }; return nil }
    var carriedDecimal: DecimalNumber? { if case .number(let s) = self { return DecimalNumber(s) }; return nil }
    var carriedInteger: Int? { carriedDecimal.flatMap { DecimalNumber.exactInteger($0.normalized().description) } }
    var carriedArray: [ExtensionValue]? { if case .array(let a) = self { return a }; return nil }
    func carriedMember(_ name: String) -> ExtensionValue? {
        if case .object(let m) = self { return m.first { $0.name == name }?.value }
        return nil
    }
}
