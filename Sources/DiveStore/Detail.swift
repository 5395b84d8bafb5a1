import DiveCore
import DiveJSON

/// A record's `detail` column: the DiveJSON object of the record with the members its columns
/// hold left out (the caller clears them in the model first), `nil` when nothing is left.
/// Reading it back puts the record's identifying members in again, reads it with the DiveJSON
/// reader, and the caller sets the column-held members.
enum Detail {
    /// Members a record's columns always hold, whatever the record type.
    private static let identifying: Set<String> = ["uuid", "name", "started_at", "species_uuid", "person_uuid"]

    static func text(_ node: JSONNode) -> String? {
        let rest = node.removing(identifying)
        return rest.members.isEmpty ? nil : rest.compactText
    }

    /// The detail of the dive itself (its lists are stored in tables of their own).
    static func text(ofDive dive: Dive) throws -> String? {
        text(try DiveJSONFragment.node(of: dive))
    }

    /// The detail of element 0 of the dive's list `list` (`cylinders`, `recordings`, …).
    static func text(of list: String, in dive: Dive) throws -> String? {
        guard let node = try DiveJSONFragment.node(of: dive)[list]?.elements.first else { return nil }
        return text(node)
    }

    /// The detail of element 0 of the header's collection `list` (`sites`, `trips`, …).
    static func text(of list: String, in header: LogbookHeader) throws -> String? {
        guard let node = try DiveJSONFragment.node(of: header)[list]?.elements.first else { return nil }
        return text(node)
    }

    static func node(_ detail: String?, with members: [String: JSONNode]) throws -> JSONNode {
        var node = try detail.map(JSONNode.parse) ?? JSONNode(.object([]))
        for (name, value) in members.sorted(by: { $0.key < $1.key }) { node = node.setting(name, value) }
        return node
    }

    /// The dive a detail describes, with `uuid` and a placeholder start (the caller sets it).
    static func dive(_ detail: String?, uuid: String, findings: inout [Finding]) throws -> Dive {
        let node = try node(detail, with: ["uuid": JSONNode(.string(uuid)), "started_at": JSONNode(.string("2000-01-01"))])
        return try DiveJSONFragment.dive(from: node, findings: &findings)
    }

    /// A dive holding element 0 of `list` read from `detail` plus `members`.
    static func dive(list: String, _ detail: String?, with members: [String: JSONNode], findings: inout [Finding]) throws -> Dive {
        let element = try node(detail, with: members)
        let node = JSONNode.object([
            ("uuid", JSONNode(.string("00000000-0000-0000-0000-000000000000"))),
            ("started_at", JSONNode(.string("2000-01-01"))),
            (list, JSONNode(.array([element]))),
        ])
        return try DiveJSONFragment.dive(from: node, findings: &findings)
    }

    /// A header holding element 0 of `list` read from `detail` plus `members`.
    static func header(list: String, _ detail: String?, with members: [String: JSONNode], findings: inout [Finding]) throws -> LogbookHeader {
        let element = try node(detail, with: members)
        return try DiveJSONFragment.header(from: JSONNode.object([(list, JSONNode(.array([element])))]), findings: &findings)
    }
}
