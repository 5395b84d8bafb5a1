import DiveCore
import DiveJSON

/// Reads the JSON file the Suunto app (and SuuntoLink) hands a diver for one activity: an
/// object whose one member `DeviceLog` holds a `Header` and the `Samples`, in the three header
/// shapes DiveJSON's `docs/suunto-json-mapping.md` describes (a D5's gas block with or
/// without pressures, an Ocean's with no `Header.Diving` at all).
///
/// The file is parsed whole with umilog's own JSON parser (one activity is at most a few MB)
/// and yields at most one dive. Values come out in the model's units from the export's SI:
/// Pascal to bar, cubic metres to litres, 0–1 fractions to percent, Kelvin to °C, radians to
/// degrees. Every member of the file is carried or reported: what this reader decides not to
/// carry is a `suunto-json.*` finding of its own, and every member it never reads is tallied
/// by mechanism and reported as `suunto-json.not-carried`, once per path (array indices
/// folded), never once per sample. Input that is not this format, or not JSON, is a thrown
/// ``DiveError`` with its line and column.
public final class SuuntoJSONReader: DiveSource {
    /// The name diagnostics use.
    public let displayName: String
    /// The file's provenance: the format and the device that wrote it (`Header.Device`).
    public private(set) var header = LogbookHeader()
    private var dive: Dive?
    private var findings: [Finding] = []

    var tally = FindingTally()
    var uncarried = UncarriedTally()
    /// Tests: the folded paths of the members read and carried (or spoken for) whole.
    let recordsAccounting: Bool
    private(set) var accounted: Set<String> = []

    /// Opens and reads the Suunto app JSON file at `path` (`-` for standard input).
    /// - Parameter displayName: the name diagnostics use; defaults to `path`.
    public convenience init(path: String, displayName: String? = nil) throws {
        try self.init(path: path, displayName: displayName, recordingAccounting: false)
    }

    init(path: String, displayName: String? = nil, recordingAccounting: Bool) throws {
        let name = displayName ?? path
        self.displayName = name
        recordsAccounting = recordingAccounting
        let (document, duplicates) = try JSONParser.parse(file: path, displayName: name)
        try read(document, duplicates: duplicates)
    }

    /// Reads a document already parsed.
    public init(document: JSONNode, duplicates: [DuplicateMember] = [], displayName name: String) throws {
        displayName = name
        recordsAccounting = false
        try read(document, duplicates: duplicates)
    }

    /// The file's one dive, once; `nil` after it, or when the activity is not a dive.
    public func next() throws -> Dive? {
        defer { dive = nil }
        return dive
    }

    /// The findings of the whole file, in the file's order (reported with its one dive).
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    // MARK: Reporting

    /// Reports one finding at `path`.
    func report(_ kind: FindingKind, _ code: String, _ message: String, path: String, line: Int?, column: Int?, losing lost: Int = 0) {
        findings.append(Finding(kind, "suunto-json.\(code)", message, at: SourceLocation(file: displayName, line: line, column: column, path: path)).losing(lost))
    }

    /// Counts a finding that may recur on every sample: one finding per `code` and folded path
    /// (and `variant`, where the message names a value), located at its first occurrence.
    func count(_ kind: FindingKind, _ code: String, _ message: @autoclosure () -> String, pattern: String,
               path: @autoclosure () -> String, line: Int, column: Int, variant: String = "") {
        let key = code + "\u{0}" + pattern + "\u{0}" + variant
        // A repeat only counts: its message, code and location are never built.
        guard tally.count(key) == 0 else {
            tally.add(key, kind, code, at: SourceLocation()) { _ in "" }
            return
        }
        let text = message()
        tally.add(key, kind, "suunto-json.\(code)", at: SourceLocation(file: displayName, line: line, column: column, path: path())) { n in
            n == 1 ? text : "\(text) (\(n) of them; the first is here)"
        }
    }

    /// Closes the walk of an object: what nobody took is tallied as not carried.
    func finish(_ object: JSONMembers) {
        uncarried.add(object)
        if recordsAccounting {
            for (i, m) in object.members.enumerated() where object.isTakenWhole(i) {
                accounted.insert(object.pattern(m.name))
            }
        }
    }

    // MARK: Typed members

    /// The member `name` as an object to walk (marked read); a finding when it is something else.
    func object(_ o: inout JSONMembers, _ name: String) -> JSONMembers? {
        guard let m = o.walk(name) else { return nil }
        if case .null = m.value.value { return nil }
        guard m.value.isObject else {
            wrongType(o, m, "an object")
            return nil
        }
        return JSONMembers(m.value, at: o.at.member(name))
    }

    /// The member `name` as an array of values (marked read); a finding when it is something else.
    func array(_ o: inout JSONMembers, _ name: String) -> (elements: [JSONNode], member: JSONNode.Member)? {
        guard let m = o.walk(name) else { return nil }
        switch m.value.value {
        case .null: return nil
        case .array(let elements): return (elements, m)
        default:
            wrongType(o, m, "an array")
            return nil
        }
    }

    func wrongType(_ o: JSONMembers, _ m: JSONNode.Member, _ expected: String) {
        count(.dropped, "wrong-type", "\"\(m.name)\" should be \(expected) but is \(m.value.typeNameWithArticle); not read",
              pattern: o.pattern(m.name), path: o.path(m.name), line: m.line, column: m.column, variant: m.value.typeName)
    }

    /// The member `name` as an exact decimal; `nil` when absent or `null`, a finding when it is
    /// not a number or too large to carry.
    func number(_ o: inout JSONMembers, _ name: String) -> (value: DecimalNumber, member: JSONNode.Member)? {
        guard let m = o.take(name) else { return nil }
        switch m.value.value {
        case .null: return nil
        case .number(let text):
            guard let d = DecimalNumber(text) else {
                count(.dropped, "value-out-of-range", "\"\(name)\" is \(text), beyond any reading a number can carry; not carried",
                      pattern: o.pattern(name), path: o.path(name), line: m.line, column: m.column)
                return nil
            }
            return (d, m)
        default:
            wrongType(o, m, "a number")
            return nil
        }
    }

    /// The member `name` as a whole number; a finding when it is a fraction or too large.
    func integer(_ o: inout JSONMembers, _ name: String, in range: ClosedRange<Int>) -> (value: Int, member: JSONNode.Member)? {
        guard let (d, m) = number(&o, name) else { return nil }
        guard d.normalized().exponent >= 0, let i = d.roundedInteger(), range.contains(i) else {
            count(.dropped, "value-out-of-range", "\"\(name)\" is \(d), not a whole number from \(range.lowerBound) to \(range.upperBound); not carried",
                  pattern: o.pattern(name), path: o.path(name), line: m.line, column: m.column)
            return nil
        }
        return (i, m)
    }

    /// The member `name` as trimmed text; `nil` when absent, `null` or blank.
    func string(_ o: inout JSONMembers, _ name: String) -> (value: String, member: JSONNode.Member)? {
        guard let m = o.take(name) else { return nil }
        switch m.value.value {
        case .null: return nil
        case .string(let s):
            let t = s.trimmingWhitespace()
            return t.isEmpty ? nil : (t, m)
        default:
            wrongType(o, m, "a string")
            return nil
        }
    }

    func bool(_ o: inout JSONMembers, _ name: String) -> (value: Bool, member: JSONNode.Member)? {
        guard let m = o.take(name) else { return nil }
        switch m.value.value {
        case .null: return nil
        case .bool(let b): return (b, m)
        default:
            wrongType(o, m, "true or false")
            return nil
        }
    }

    /// Text for a member whose schema caps its length (§6.4b): longer is not carried.
    func capped(_ value: (value: String, member: JSONNode.Member)?, _ o: JSONMembers, limit: Int, what: String) -> String? {
        guard let (text, m) = value else { return nil }
        guard text.count <= limit else {
            report(.dropped, "text-too-long", "\"\(m.name)\" holds \(text.count) characters, more than a \(what) holds (\(limit)); not carried",
                   path: o.path(m.name), line: m.line, column: m.column)
            return nil
        }
        return text
    }

    // MARK: The document

    private func read(_ document: JSONNode, duplicates: [DuplicateMember]) throws {
        let name = displayName
        func fail(_ code: String, _ message: String, _ node: JSONNode) -> DiveError {
            DiveError("suunto-json.\(code)", message, at: SourceLocation(file: name, line: node.line, column: node.column))
        }
        guard document.isObject else {
            throw fail("not-device-log", "the file is JSON but not a Suunto app export: it holds \(document.typeNameWithArticle), not an object whose member is \"DeviceLog\"", document)
        }
        var root = JSONMembers(document, at: JSONPath("$"))
        guard let logMember = root.walk("DeviceLog") else {
            throw fail("not-device-log", "the file is JSON but not a Suunto app export: it has no \"DeviceLog\" member", document)
        }
        guard logMember.value.isObject else {
            throw fail("wrong-shape", "\"DeviceLog\" should be an object holding the activity's \"Header\" and \"Samples\" but is \(logMember.value.typeNameWithArticle); nothing can be read", logMember.value)
        }
        var log = JSONMembers(logMember.value, at: root.at.member("DeviceLog"))
        guard let headMember = log.walk("Header") else {
            throw fail("no-header", "the DeviceLog has no \"Header\", which holds when the activity started; nothing can be read", logMember.value)
        }
        guard headMember.value.isObject else {
            throw fail("wrong-shape", "\"Header\" should be an object but is \(headMember.value.typeNameWithArticle); nothing can be read", headMember.value)
        }
        var head = JSONMembers(headMember.value, at: log.at.member("Header"))
        var samples: [JSONNode] = []
        if let m = log.walk("Samples") {
            switch m.value.value {
            case .array(let elements): samples = elements
            case .null: break
            default:
                throw fail("wrong-shape", "\"Samples\" should be an array of samples but is \(m.value.typeNameWithArticle); the file is not a Suunto app export this reader can read", m.value)
            }
        }
        header.sourceFormat = "suunto_json"
        for d in duplicates {
            report(.dropped, "duplicate-member", "\"\(d.name)\" appears twice in one object (first on line \(d.firstLine)); the first is read",
                   path: d.path, line: d.line, column: d.column)
        }

        // One file, one activity, and not every activity is a dive.
        if let (type, m) = integer(&head, "ActivityType", in: Int.min...Int.max), type != SuuntoJSON.diveActivityType {
            readDevice(&head, &log, cover: true)
            report(.dropped, "not-a-dive",
                   "the activity is of type \(type), not a dive (\(SuuntoJSON.diveActivityType)); it is skipped, and nothing in it is carried",
                   path: head.path("ActivityType"), line: m.line, column: m.column)
            root.takeAll()
            log.takeAll()
            head.takeAll()
        } else {
            let device = readDevice(&head, &log, cover: false)
            dive = buildDive(&head, &log, headNode: headMember.value, device: device, samples: samples)
        }
        finish(head)
        finish(log)
        finish(root)

        var out = findings
        out += tally.findings()
        out += uncarried.findings(file: name, code: "suunto-json.not-carried")
        tally.removeAll()
        // In the order of the file, as a compiler lists its diagnostics.
        findings = out.enumerated().sorted { a, b in
            let (la, lb) = (a.element.location.line ?? 0, b.element.location.line ?? 0)
            if la != lb { return la < lb }
            let (ca, cb) = (a.element.location.column ?? 0, b.element.location.column ?? 0)
            return ca != cb ? ca < cb : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: Provenance and device

    /// The device block, `Header.Device` first and the outer `DeviceLog.Device` as the
    /// fallback: the source generator and the recording's device. `cover`: read for the
    /// provenance only, everything else spoken for by a finding of the caller's.
    @discardableResult
    private func readDevice(_ head: inout JSONMembers, _ log: inout JSONMembers, cover: Bool) -> Device {
        typealias Text = (value: String, member: JSONNode.Member, object: JSONMembers)
        func block(_ d: inout JSONMembers) -> (name: Text?, serial: Text?, software: Text?) {
            let name = string(&d, "Name").map { ($0.value, $0.member, d) }
            let serial = string(&d, "SerialNumber").map { ($0.value, $0.member, d) }
            var software: Text?
            if var info = object(&d, "Info") {
                software = string(&info, "SW").map { ($0.value, $0.member, info) }
                if cover { info.takeAll() }
                finish(info)
            }
            if cover { d.takeAll() }
            finish(d)
            return (name, serial, software)
        }
        var inner: (name: Text?, serial: Text?, software: Text?) = (nil, nil, nil)
        if var d = object(&head, "Device") { inner = block(&d) }
        var outer: (name: Text?, serial: Text?, software: Text?) = (nil, nil, nil)
        if var d = object(&log, "Device") { outer = block(&d) }
        func pick(_ a: Text?, _ b: Text?) -> Text? {
            guard let a else { return b }
            if let b, b.value != a.value {
                report(.dropped, "device-blocks-differ",
                       "the DeviceLog's own \"Device\" says \"\(b.value)\" where the Header's says \"\(a.value)\"; the Header's is read",
                       path: b.object.path(b.member.name), line: b.member.line, column: b.member.column)
            }
            return a
        }
        let name = pick(inner.name, outer.name)
        let serial = pick(inner.serial, outer.serial)
        let software = pick(inner.software, outer.software)
        if let name {
            header.sourceGenerator = Generator(name: name.value, version: software?.value)
        }
        var device = Device()
        device.brand = "Suunto"
        device.name = capped(name.map { ($0.value, $0.member) }, name?.object ?? head, limit: 64, what: "device name")
        device.serial = capped(serial.map { ($0.value, $0.member) }, serial?.object ?? head, limit: 64, what: "device serial")
        device.firmware = capped(software.map { ($0.value, $0.member) }, software?.object ?? head, limit: 32, what: "firmware version")
        return device
    }
}

/// The identity namespace and the constants of the Suunto app's JSON export.
public enum SuuntoJSON {
    /// `uuid5(NAMESPACE_URL, "https://divejson.org/ns/suunto_json")`: frozen (the mapping's
    /// *Identity*).
    public static let namespace = "1766426d-4c62-54a6-bc80-264daeab1494"
    /// `Header.ActivityType` of a dive, on every export in hand.
    public static let diveActivityType = 51
}
