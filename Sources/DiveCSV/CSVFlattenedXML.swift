import DiveCore

/// A table a spreadsheet made from an XML dive log: one row per element, its columns named
/// after the XML paths they came from (Excel's XML table of a UDDF file heads its columns
/// `/uddf/profiledata/repetitiongroup/dive/samples/waypoint/depth`, `ns1:divetime`, `@id`,
/// `#agg`; other programs write dotted paths, `dive.samples.waypoint.depth`).
///
/// **Rule** (docs/csv-formats.md §10.15). A header is such a table's when more than half of its
/// names, and at least two, are XML paths or qualified names — a `/`-separated path of XML
/// names (`/uddf/…/depth`, `waypoint/depth`, an attribute `…/@id` last), a dotted path of three
/// XML names or more, a qualified name `prefix:name`, an attribute `@name`, or Excel's `#agg`
/// and `#text` — and the paths that name a root (a path from `/`, or three names or more)
/// share that root, or, with no such path, the qualified names share their prefix. Such rows
/// are elements, not dives: a dive's depth, its samples and its cylinders stand in rows of
/// their own, joined by the XML's nesting that the flattening lost, so the file is refused
/// (`csv.flattened-xml`) with the XML format its root or element names say, and the advice to
/// read that file itself.
public struct CSVFlattenedXML: Sendable, Hashable {
    /// The root element the paths share (its local name), when they name one.
    public var root: String?
    /// The dive-log format the root or the element names say, for people ("UDDF").
    public var format: String?
    /// Whether umilog reads that format.
    public var formatIsRead: Bool
    /// The header names that are XML paths, and how many names the header has.
    public var pathNames: [String]
    /// How many names the header has.
    public var columnCount: Int

    /// The table a header makes, when it is a flattened XML log's; else `nil`.
    public static func recognise(header: [String]) -> CSVFlattenedXML? {
        let names = header.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        guard names.count >= 2 else { return nil }
        var paths: [String] = [], roots: [String] = [], prefixes: [String] = [], elements: Set<String> = []
        for name in names {
            guard let shape = PathShape(name) else { continue }
            paths.append(name)
            if let r = shape.root { roots.append(r) }
            if let p = shape.prefix { prefixes.append(p) }
            elements.formUnion(shape.elements)
        }
        guard paths.count >= 2, paths.count * 2 > names.count else { return nil }
        let root: String?
        if let first = roots.first {
            guard roots.allSatisfy({ $0 == first }) else { return nil }
            root = first
        } else if let first = prefixes.first {
            guard prefixes.count >= 2, prefixes.allSatisfy({ $0 == first }) else { return nil }
            root = nil
        } else {
            // Attributes and `#agg` alone name no XML file.
            return nil
        }
        let known = knownFormat(root: root, elements: elements)
        return CSVFlattenedXML(root: root, format: known?.name, formatIsRead: known?.isRead ?? false,
                               pathNames: paths, columnCount: names.count)
    }

    /// The sentence `csv.flattened-xml` says.
    public var message: String {
        let what: String
        if let format { what = "a \(format) file" } else if let root { what = "an XML file (root element <\(root)>)" } else { what = "an XML file" }
        let shown = pathNames.prefix(2).map { "\"\($0)\"" }.joined(separator: ", ")
        var out = "this is a spreadsheet's flattening of \(what): \(pathNames.count) of its \(columnCount) columns are named after the XML's paths (\(shown)\(pathNames.count > 2 ? " …" : "")), one row per element of the XML, not one per dive; "
        if format != nil {
            out += formatIsRead ? "export the \(format!) file itself and read that" : "export the \(format!) file itself (umilog recognises it but does not read it yet), or a CSV of one row per dive"
        } else {
            out += "read the XML file itself, or export a CSV of one row per dive"
        }
        return out
    }

    /// Dive-log XML by its root element, and what a root-less header's element names say.
    static func knownFormat(root: String?, elements: Set<String>) -> (name: String, isRead: Bool)? {
        switch root?.lowercased() {
        case "uddf"?: return ("UDDF", true)
        case "divelog"?: return ("Subsurface XML", true)
        case "divinglog"?: return ("Diving Log XML", false)
        case "jdivelog"?: return ("JDiveLog", false)
        case "dives"?: return ("MacDive XML", true)
        default: break
        }
        let lower = Set(elements.map { $0.lowercased() })
        if !lower.isDisjoint(with: ["waypoint", "profiledata", "repetitiongroup", "informationbeforedive", "informationafterdive", "divetime"]) {
            return ("UDDF", true)
        }
        if lower.contains("divecomputer") && lower.contains("sample") { return ("Subsurface XML", true) }
        return nil
    }

    /// One header name read as an XML path.
    struct PathShape {
        var root: String?
        var prefix: String?
        var elements: [String]

        init?(_ name: String) {
            if name == "#agg" || name == "#text" {
                elements = []
                return
            }
            if name.hasPrefix("@") {
                guard Self.isName(name.dropFirst()) else { return nil }
                elements = []
                return
            }
            if name.contains("/") {
                let absolute = name.hasPrefix("/")
                let steps = name.split(separator: "/", omittingEmptySubsequences: false).drop { $0.isEmpty && absolute }
                guard !steps.isEmpty else { return nil }
                var names: [Substring] = []
                for (k, step) in steps.enumerated() {
                    let isLast = k == steps.count - 1
                    if isLast, step.hasPrefix("@") || step == "#agg" || step == "#text" {
                        if step.hasPrefix("@") { guard Self.isName(step.dropFirst()) else { return nil } }
                        continue
                    }
                    guard let local = Self.qualifiedLocal(step) else { return nil }
                    if let p = Self.prefix(of: step), prefix == nil { prefix = p }
                    names.append(local)
                }
                guard absolute || steps.count >= 2 else { return nil }
                elements = names.map(String.init)
                if absolute || names.count >= 3 { root = elements.first }
                return
            }
            let dots = name.split(separator: ".", omittingEmptySubsequences: false)
            if dots.count >= 3 {
                guard dots.allSatisfy({ Self.qualifiedLocal($0) != nil }) else { return nil }
                elements = dots.compactMap { Self.qualifiedLocal($0) }.map(String.init)
                root = elements.first
                return
            }
            if let p = Self.prefix(of: Substring(name)), let local = Self.qualifiedLocal(Substring(name)) {
                prefix = p
                elements = [String(local)]
                return
            }
            return nil
        }

        /// The local name of `name` or `prefix:name` (each an XML name), else `nil`.
        static func qualifiedLocal(_ s: Substring) -> Substring? {
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy({ isName($0) }) else { return nil }
            return parts.last
        }

        static func prefix(of s: Substring) -> String? {
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            return parts.count == 2 && isName(parts[0]) && isName(parts[1]) ? String(parts[0]) : nil
        }

        /// An XML name without a colon: a letter or `_`, then letters, digits, `_`, `-`, `.`.
        static func isName(_ s: Substring) -> Bool {
            guard let first = s.first, first.isLetter || first == "_" else { return false }
            return s.dropFirst().allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
        }
    }
}
