import DiveCore

/// One problem with a DiveJSON document.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// A stable code: `divejson.schema.<keyword>` for the schema's, `divejson.<rule>` for the
    /// spec's rules the schema cannot express.
    public var code: String
    /// The sentence a diver reads.
    public var message: String
    /// Where in the document the problem is.
    public var location: SourceLocation

    /// The issue as its ``diagnostic`` prints: `file:line:col: error[code]: path: message`.
    public var description: String { diagnostic.description }

    /// The issue as a validation diagnostic (every schema or rule violation is an error).
    public var diagnostic: Diagnostic { Diagnostic(.error, code, message, at: location) }
}

/// Validates DiveJSON 1.0 documents: the official JSON Schema, and every rule of the spec's
/// §3 that the schema cannot express — uuid uniqueness and referential closure, cross-member
/// arithmetic, profile series integrity in every recording, recording content, the offset on
/// `exported_at`, the order of `format` and `version`, `gf_low ≤ gf_high` — plus repeated
/// JSON member names and lists whose entries repeat once trimmed and case-folded.
public final class DiveJSONValidator {
    private let schema: JSONSchema

    /// A validator with the embedded official schema.
    public init() throws {
        schema = JSONSchema(try Self.schemaDocument.get())
    }

    /// The embedded schema, parsed once for the validators and the writer's member order.
    static let schemaDocument: Result<JSONNode, any Error> = Result {
        var text = schemaText
        return try text.withUTF8 { raw in
            var p = JSONParser(bytes: UnsafeRawBufferPointer(raw), file: "divejson.schema.json")
            return try p.parseDocument()
        }
    }

    /// Validates the file at `path`. A file that is not JSON at all throws.
    public func validate(path: String, displayName: String? = nil) throws -> [ValidationIssue] {
        let name = displayName ?? path
        let parsed = try JSONParser.parse(file: path, displayName: name)
        return validate(parsed.document, duplicates: parsed.duplicates, file: name)
    }

    /// Validates a parsed document.
    public func validate(_ document: JSONNode, duplicates: [DuplicateMember] = [], file: String? = nil) -> [ValidationIssue] {
        var rules = Rules(file: file)
        report(duplicates, into: &rules)
        report(schema.validate(document), into: &rules)
        rules.check(document)
        return sorted(rules.issues)
    }

    /// Validates the file at `path` a dive at a time, in flat memory: everything but `dives`
    /// is parsed first (its records, which the dives refer to), then each dive is parsed,
    /// checked against the schema's `dive` and the §3 rules, and let go, the file's pages
    /// released behind it. It finds what ``validate(_:duplicates:file:)`` finds on the whole
    /// document. A file that is not JSON at all throws.
    public func validateStreaming(path: String, displayName: String? = nil) throws -> [ValidationIssue] {
        let name = displayName ?? path
        let file = try MappedFile(path: path, displayName: name)
        var parser = JSONParser(bytes: file.bytes, file: name)
        let (document, marks) = try parser.parseDocument(deferring: "dives", release: file.release(before:))
        var rules = Rules(file: name)
        report(parser.duplicates, into: &rules)
        report(schema.validate(document), into: &rules)
        guard !marks.isEmpty else {
            rules.check(document)
            return sorted(rules.issues)
        }
        file.startOver()
        rules.checkRecords(document)
        for (k, mark) in marks.enumerated() {
            var diveParser = JSONParser(bytes: file.bytes, file: name, at: mark, path: [.member("dives"), .index(k)])
            let dive = try diveParser.parseValue(endingAt: mark.end)
            file.release(before: mark.end)
            report(diveParser.duplicates, into: &rules)
            report(schema.validate(dive, ref: "#/$defs/dive", at: [.member("dives"), .index(k)]), into: &rules)
            rules.checkDive(dive, index: k)
        }
        return sorted(rules.issues)
    }

    private func report(_ duplicates: [DuplicateMember], into rules: inout Rules) {
        for d in duplicates {
            rules.issue("divejson.duplicate-member", "\"\(d.name)\" appears twice in one object (first on line \(d.firstLine)); JSON readers disagree on which one counts", path: d.path + "." + d.name, line: d.line, column: d.column)
        }
    }

    private func report(_ violations: [SchemaViolation], into rules: inout Rules) {
        for v in violations {
            rules.issue("divejson.schema.\(kebab(v.keyword))", v.message, path: v.path, line: v.line, column: v.column)
        }
    }

    private func sorted(_ issues: [ValidationIssue]) -> [ValidationIssue] {
        issues.sorted { ($0.location.line ?? 0, $0.location.column ?? 0) < ($1.location.line ?? 0, $1.location.column ?? 0) }
    }

    private func kebab(_ s: String) -> String {
        var out = ""
        for c in s {
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
        return out
    }
}

/// The §3 rules, walked over the parsed document.
struct Rules {
    let file: String?
    var issues: [ValidationIssue] = []

    mutating func issue(_ code: String, _ message: String, path: String, line: Int, column: Int) {
        issues.append(ValidationIssue(code: code, message: message, location: SourceLocation(file: file, line: line, column: column, path: path)))
    }

    mutating func issue(_ code: String, _ message: String, path: String, at node: JSONNode) {
        issue(code, message, path: path, line: node.line, column: node.column)
    }

    /// Which collection each kind of reference names.
    /// Exactly the schema's `*_uuid` and `*_uuids` members (a test holds the two together).
    static let referenceTargets: [String: String] = [
        "site_uuids": "sites", "gear_uuids": "gear", "species_uuid": "species",
        "trip_uuid": "trips", "course_uuid": "courses", "contact_uuid": "contacts", "person_uuid": "people",
        "gear_uuid": "gear", "accommodation_uuid": "contacts", "instructor_uuid": "people",
        "gear_service_schedule_uuid": "gear_service_schedules",
    ]

    /// Every uuid met so far, with the path of the record that has it; and each collection's.
    var records: [String: (collection: String, path: String)] = [:]
    var collections: [String: Set<String>] = [:]

    /// The whole document: everything but its dives (``checkRecords(_:)``), then each dive
    /// (``checkDive(_:index:)``) — in that order, as the streamed check takes them too, so the
    /// two find the same issues.
    mutating func check(_ doc: JSONNode) {
        checkRecords(doc)
        for (i, dive) in indexed(doc["dives"]) { checkDive(dive, index: i) }
    }

    /// Everything but the dives: member order, `exported_at`'s offset, every record's uuid, the
    /// trips', courses' and sites' own rules, and the rules that hold wherever their objects are.
    mutating func checkRecords(_ doc: JSONNode) {
        // Member order (§4): format first, version second.
        let names = doc.members.map(\.name)
        if names.first != "format" || (names.count > 1 && names[1] != "version") {
            issue("divejson.member-order", "\"format\" must be the document's first member and \"version\" its second", path: "$", at: doc)
        }
        // exported_at carries an offset (§5.2).
        if let e = doc["exported_at"], let text = e.string, let (v, _) = DiveDateTime.parse(text), v.offset == nil {
            issue("divejson.exported-at-offset", "exported_at \"\(text)\" has no UTC offset; the writer knows its own and must state it", path: "$.exported_at", at: e)
        }
        // Identity: every uuid unique, every reference resolving into its collection.
        if let d = doc["diver"] { collect(d, "$.diver", collection: "diver") }
        for m in doc.members where m.name != "dives" && m.value.elements.contains(where: \.isObject) {
            for (i, r) in m.value.elements.enumerated() { collect(r, "$.\(m.name)[\(i)]", collection: m.name) }
        }
        for (i, trip) in indexed(doc["trips"]) {
            for (j, part) in indexed(trip["parts"]) {
                dates(part, "$.trips[\(i)].parts[\(j)]")
            }
            people(trip, "$.trips[\(i)]")
        }
        for (i, course) in indexed(doc["courses"]) {
            dates(course, "$.courses[\(i)]")
        }
        // Sites: depth range in order; another name that repeats the site's own name.
        for (i, site) in indexed(doc["sites"]) {
            let path = "$.sites[\(i)]"
            if let from = site["depth_from"]?.numberText.flatMap(Double.init), let to = site["depth_to"]?.numberText.flatMap(Double.init), from > to {
                issue("divejson.site-depths-reversed", "depth_from \(from) m is deeper than depth_to \(to) m", path: path + ".depth_from", at: site["depth_from"]!)
            }
            if let name = site["name"]?.string {
                let folded = name.trimmingCharacters().uppercased().lowercased()
                for (k, other) in indexed(site["other_names"]) where other.string.map({ $0.trimmingCharacters().uppercased().lowercased() }) == folded {
                    issue("divejson.repeated-after-folding", "the other name \"\(other.string!)\" is the site's own name once trimmed and case-folded", path: "\(path).other_names[\(k)]", at: other)
                }
            }
        }
        // Rules that hold wherever their objects are, in one walk over the document (its dives
        // are walked with each dive).
        Self.walk(doc, "$", skippingTop: "dives") { node, path in self.everywhere(node, path) }
    }

    /// One dive, `$.dives[index]`: its uuid among the document's, its own rules, and the
    /// rules that hold wherever their objects are. The records it refers to are known by then.
    mutating func checkDive(_ dive: JSONNode, index: Int) {
        let path = "$.dives[\(index)]"
        collect(dive, path, collection: "dives")
        checkDive(dive, path)
        Self.walk(dive, path, skippingTop: nil) { node, path in self.everywhere(node, path) }
    }

    private mutating func collect(_ node: JSONNode, _ path: String, collection: String) {
        if let u = node["uuid"], let s = u.string {
            if let first = records[s] {
                issue("divejson.duplicate-uuid", "uuid \(s) is already used by \(first.path)", path: path + ".uuid", at: u)
            } else {
                records[s] = (collection, path)
                collections[collection, default: []].insert(s)
            }
        }
    }

    /// The rules of an object wherever it is (outside `extensions`).
    private mutating func everywhere(_ node: JSONNode, _ path: String) {
        // Stored files, wherever they are, count as records too.
        if path.hasSuffix("_file") || path.contains("source_files[") { collect(node, path, collection: "files") }
        // References resolve into their collections.
        for m in node.members {
            guard let target = Rules.referenceTargets[m.name] else { continue }
            var refs: [(JSONNode, String)] = []
            if m.value.string != nil {
                refs = [(m.value, "\(path).\(m.name)")]
            } else {
                for (k, e) in m.value.elements.enumerated() { refs.append((e, "\(path).\(m.name)[\(k)]")) }
            }
            for (ref, refPath) in refs {
                guard let s = ref.string else { continue }
                if collections[target]?.contains(s) != true {
                    issue("divejson.dangling-reference", "\(s) names no record in \"\(target)\"; a document's references resolve inside it", path: refPath, at: ref)
                }
            }
        }
        // Bounding boxes: south ≤ north.
        if let box = node["bbox"], let s = box["south"]?.numberText.flatMap(Double.init), let n = box["north"]?.numberText.flatMap(Double.init), s > n {
            issue("divejson.bbox-south-north", "the bounding box's south edge \(s) lies north of its north edge \(n)", path: path + ".bbox", at: box)
        }
        // One entity once (§3 rule 7): an external id by registry and identifier, whatever
        // else its object carries.
        if let ids = node["external_ids"] {
            var seen: [String: Int] = [:]
            for (k, e) in ids.elements.enumerated() {
                guard let registry = e["registry"]?.string, let identifier = e["identifier"]?.string else { continue }
                let key = registry + "\u{0}" + identifier
                if let first = seen[key] {
                    issue("divejson.external-id-repeated", "\(registry) \(identifier) is already entry \(first)", path: "\(path).external_ids[\(k)]", at: e)
                } else { seen[key] = k }
            }
        }
        // Lists whose entries must differ once trimmed and case-folded (§3 rule 8).
        for m in node.members where m.name == "tags" || m.name == "other_names" {
            var seen: [String: Int] = [:]
            for (k, e) in m.value.elements.enumerated() {
                guard let s = e.string else { continue }
                let folded = s.trimmingCharacters().uppercased().lowercased()
                if let first = seen[folded], m.value.elements[first].string != s {
                    issue("divejson.repeated-after-folding", "\"\(s)\" repeats entry \(first) once trimmed and case-folded", path: "\(path).\(m.name)[\(k)]", at: e)
                } else if seen[folded] == nil { seen[folded] = k }
            }
        }
    }

    private mutating func checkDive(_ dive: JSONNode, _ path: String) {
        if let avg = dive["avg_depth"]?.numberText.flatMap(Double.init), let max = dive["max_depth"]?.numberText.flatMap(Double.init), avg > max {
            issue("divejson.avg-depth-exceeds-max", "average depth \(avg) m is deeper than the maximum depth \(max) m", path: path + ".avg_depth", at: dive["avg_depth"]!)
        }
        for (i, c) in indexed(dive["cylinders"]) {
            let cpath = "\(path).cylinders[\(i)]"
            if let o2 = c["oxygen"]?.numberText.flatMap(Double.init), let he = c["helium"]?.numberText.flatMap(Double.init), o2 + he > 100 {
                issue("divejson.gas-over-100", "oxygen \(o2) % and helium \(he) % add up to more than 100 %", path: cpath, at: c)
            }
            if let start = c["start_pressure"]?.numberText.flatMap(Double.init), let end = c["end_pressure"]?.numberText.flatMap(Double.init), end > start {
                issue("divejson.pressure-order", "end pressure \(end) bar is above the start pressure \(start) bar", path: cpath + ".end_pressure", at: c["end_pressure"]!)
            }
        }
        onceEach(dive, "cylinders", key: "gear_uuid", path, code: "divejson.vessel-repeated") { "cylinder \($1) already is vessel \($0); one vessel is one cylinder of a dive" }
        onceEach(dive, "sightings", key: "species_uuid", path, code: "divejson.sighting-repeated") { "species \($0) is already sighted in entry \($1); a dive sights a species once" }
        people(dive, path)
        for (i, r) in indexed(dive["recordings"]) {
            let rpath = "\(path).recordings[\(i)]"
            let content = ["device", "profile", "source_files", "surface_pressure", "cns_start", "cns_end", "otu_start", "otu_end"]
            if !r.members.contains(where: { content.contains($0.name) }) {
                issue("divejson.recording-without-content", "a recording carries no device, profile, source file or readout", path: rpath, at: r)
            }
            if let m = r["deco_model"], let low = m["gf_low"]?.numberText.flatMap(Double.init), let high = m["gf_high"]?.numberText.flatMap(Double.init), low > high {
                issue("divejson.gf-order", "gf_low \(low) is above gf_high \(high)", path: rpath + ".deco_model", at: m)
            }
            if let p = r["profile"] { checkProfile(p, rpath + ".profile") }
        }
    }

    private mutating func people(_ host: JSONNode, _ path: String) {
        onceEach(host, "people", key: "person_uuid", path, code: "divejson.person-referenced-twice") { "person \($0) is already named in entry \($1)" }
    }

    /// One entity once (§3 rule 7): reports an entry of `host[list]` whose `key` repeats an
    /// earlier entry's, however the two objects otherwise differ.
    private mutating func onceEach(_ host: JSONNode, _ list: String, key: String, _ path: String, code: String, message: (String, Int) -> String) {
        var seen: [String: Int] = [:]
        for (i, entry) in indexed(host[list]) {
            guard let node = entry[key], let value = node.string else { continue }
            if let first = seen[value] {
                issue(code, message(value, first), path: "\(path).\(list)[\(i)].\(key)", at: node)
            } else { seen[value] = i }
        }
    }

    private mutating func dates(_ node: JSONNode, _ path: String) {
        if let s = node["starts_on"]?.string, let e = node["ends_on"]?.string, e < s {
            issue("divejson.dates-reversed", "ends_on \(e) is before starts_on \(s)", path: path + ".ends_on", at: node["ends_on"]!)
        }
    }

    private mutating func checkProfile(_ p: JSONNode, _ path: String) {
        var latest = -1
        var channels: [(String, JSONNode)] = []
        for m in p.members where m.value.isObject && m.value["times"] != nil { channels.append(("\(path).\(m.name)", m.value)) }
        for (i, s) in indexed(p["pressures"]) { channels.append(("\(path).pressures[\(i)]", s)) }
        for (cpath, s) in channels {
            let times = s["times"]?.elements ?? []
            let values = s["values"]?.elements ?? []
            if times.count != values.count {
                issue("divejson.series-length", "\(times.count) times but \(values.count) values", path: cpath, at: s)
            }
            var previous = Int.min
            for (k, t) in times.enumerated() {
                guard let v = t.integer else { continue }
                if v <= previous {
                    issue("divejson.series-order", "sample times must increase strictly: \(v) ms follows \(previous) ms", path: "\(cpath).times[\(k)]", at: t)
                    break
                }
                previous = v
                latest = max(latest, v)
            }
        }
        if let d = p["duration"], let duration = d.integer, duration < latest {
            issue("divejson.profile-duration", "duration \(duration) ms is shorter than the latest sample, at \(latest) ms", path: path + ".duration", at: d)
        }
    }

    private func indexed(_ node: JSONNode?) -> [(Int, JSONNode)] {
        (node?.elements ?? []).enumerated().map { ($0.offset, $0.element) }
    }

    /// Visits every object of the document (outside `extensions`) with its path.
    private static func walk(_ node: JSONNode, _ path: String, skippingTop skipped: String? = nil, _ visit: (JSONNode, String) -> Void) {
        switch node.value {
        case .object(let members):
            visit(node, path)
            // Only containers hold objects: a scalar member's path is never built.
            for m in members where m.name != "extensions" && m.name != skipped && (m.value.isObject || !m.value.elements.isEmpty) {
                Self.walk(m.value, path + "." + m.name, visit)
            }
        case .array(let elements):
            // Only containers hold objects: a channel's thousands of numbers are skipped.
            for (i, e) in elements.enumerated() where e.isObject || !e.elements.isEmpty {
                Self.walk(e, "\(path)[\(i)]", visit)
            }
        default:
            break
        }
    }
}

extension String {
    /// Without leading and trailing white space.
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
