import DiveCore
import DiveJSON
import DiveUDDF

/// How `umilog validate` prints diagnostics.
public enum ValidationOutputFormat: String, Sendable, CaseIterable {
    /// `file:line:col: severity[code]: path: message`, like a compiler.
    case text
    /// JSON Lines: one object per diagnostic.
    case json
    /// GitHub Actions workflow commands (`::error file=…::message`), shown as annotations.
    case github
    /// One SARIF 2.1.0 log, for code-scanning tools.
    case sarif
}

/// The output lines for one diagnostic in a line-oriented format (`text`, `json`, `github`);
/// `nil` for `sarif`, which is one document (``renderSARIF(_:)``).
public func renderDiagnostic(_ d: Diagnostic, as format: ValidationOutputFormat) -> String? {
    switch format {
    case .text: return d.description
    case .json: return renderJSONLine(d)
    case .github: return renderGitHubAnnotation(d)
    case .sarif: return nil
    }
}

/// One JSON object on one line, every key present (`null` when unknown):
/// `{"file":…,"line":…,"column":…,"path":…,"severity":…,"code":…,"message":…}`.
public func renderJSONLine(_ d: Diagnostic) -> String {
    var s = "{\"file\":" + jsonValue(d.location.file)
    s += ",\"line\":" + (d.location.line.map(String.init) ?? "null")
    s += ",\"column\":" + (d.location.column.map(String.init) ?? "null")
    s += ",\"path\":" + jsonValue(d.location.path ?? d.location.field)
    s += ",\"severity\":" + jsonString(d.severity.rawValue)
    s += ",\"code\":" + jsonString(d.code)
    s += ",\"message\":" + jsonString(d.message)
    return s + "}"
}

/// A GitHub Actions workflow command that annotates the file:
/// `::error file=F,line=L,col=C,title=CODE::path: message` (`notice` for a note). Property
/// values escape `%`, CR, LF, `:` and `,`; the message escapes `%`, CR and LF.
public func renderGitHubAnnotation(_ d: Diagnostic) -> String {
    let level: String
    switch d.severity {
    case .error: level = "error"
    case .warning: level = "warning"
    case .note: level = "notice"
    }
    var s = "::\(level) file=\(githubProperty(d.location.file ?? "-"))"
    if let line = d.location.line {
        s += ",line=\(line)"
        if let column = d.location.column { s += ",col=\(column)" }
    }
    s += ",title=\(githubProperty(d.code))::"
    return s + githubMessage(d.location.path.map { "\($0): \(d.message)" } ?? d.message)
}

/// The report as one SARIF 2.1.0 log: one run of the tool `umilog`, a rule for each code
/// met (with a one-line description), a result for each diagnostic. A result's region is
/// given only where the line is known; its artifact URI is the path as given, with the
/// characters a URI may not hold percent-encoded.
public func renderSARIF(_ report: ValidationReport) -> String {
    var rules: [String] = []
    var ruleIndex: [String: Int] = [:]
    let diagnostics = report.diagnostics
    for d in diagnostics where ruleIndex[d.code] == nil {
        ruleIndex[d.code] = rules.count
        rules.append(d.code)
    }
    let sink = MemorySink()
    var out = JSONEmitter(sink: sink)
    func member(_ name: String, _ value: String) { out.key(name); out.string(value) }
    out.beginObject()
    member("$schema", "https://json.schemastore.org/sarif-2.1.0.json")
    member("version", "2.1.0")
    out.key("runs"); out.beginArray(); out.beginObject()
    out.key("tool"); out.beginObject()
    out.key("driver"); out.beginObject()
    member("name", umilogGenerator.name)
    member("version", umilogGenerator.version ?? "")
    member("semanticVersion", umilogGenerator.version ?? "")
    out.key("rules"); out.beginArray()
    for code in rules {
        out.beginObject()
        member("id", code)
        out.key("shortDescription"); out.beginObject(); member("text", ruleDescription(code)); out.endObject()
        out.endObject()
    }
    out.endArray()
    out.endObject()  // driver
    out.endObject()  // tool
    out.key("results"); out.beginArray()
    for d in diagnostics {
        out.beginObject()
        member("ruleId", d.code)
        out.key("ruleIndex"); out.integer(ruleIndex[d.code]!)
        member("level", d.severity.rawValue)
        out.key("message"); out.beginObject()
        member("text", d.location.path.map { "\($0): \(d.message)" } ?? d.message)
        out.endObject()
        out.key("locations"); out.beginArray(); out.beginObject()
        out.key("physicalLocation"); out.beginObject()
        out.key("artifactLocation"); out.beginObject(); member("uri", uriReference(d.location.file ?? "-")); out.endObject()
        if let line = d.location.line {
            out.key("region"); out.beginObject()
            out.key("startLine"); out.integer(line)
            if let column = d.location.column { out.key("startColumn"); out.integer(column) }
            out.endObject()
        }
        out.endObject()  // physicalLocation
        if let path = d.location.path {
            out.key("logicalLocations"); out.beginArray()
            out.beginObject(); member("fullyQualifiedName", path); out.endObject()
            out.endArray()
        }
        out.endObject(); out.endArray()  // locations
        out.endObject()
    }
    out.endArray()  // results
    out.endObject(); out.endArray()  // runs
    out.endObject()
    try? out.finish()  // a MemorySink does not fail
    return String(decoding: sink.bytes.dropLast(), as: UTF8.self)
}

/// `umilog: 3 files checked, 1 invalid; 2 errors, 1 warning` — files failing at the
/// report's threshold count as invalid; skipped files and inputs not checked follow.
public func validationSummary(_ report: ValidationReport) -> String {
    func n(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
    var s = "umilog: \(n(report.files.count, "file")) checked, \(report.failingFiles) invalid; "
    let counts = [(report.count(.error), "error"), (report.count(.warning), "warning"), (report.count(.note), "note")]
        .filter { $0.0 > 0 }.map { n($0.0, $0.1) }
    s += counts.isEmpty ? "no problems" : counts.joined(separator: ", ")
    if !report.skipped.isEmpty { s += "; \(report.skipped.count) skipped (not dive logs)" }
    if !report.failures.isEmpty { s += "; \(report.failures.count) not checked" }
    return s
}

/// The one-line description of a code for a rule list: the validators' own, else one
/// from the code's family.
public func ruleDescription(_ code: String) -> String {
    if let known = UDDFSchemaValidator.rules[code] ?? ModelChecker.rules[code] { return known }
    if code.hasPrefix("csv.") { return "The CSV file's structure (\(code.dropFirst(4)))" }
    if code.hasPrefix("divejson.schema.") { return "The DiveJSON 1.0 schema's \(code.dropFirst(16)) constraint" }
    if code.hasPrefix("divejson.") { return "A rule of the DiveJSON 1.0 specification (\(code.dropFirst(9)))" }
    if code.hasPrefix("uddf.") { return "A UDDF value the reader had to interpret, or could not carry (\(code.dropFirst(5)))" }
    if code.hasPrefix("json.") { return "The file is not valid JSON" }
    return code
}

// MARK: Escaping

/// A JSON string literal.
func jsonString(_ s: String) -> String {
    var bytes: [UInt8] = []
    JSONEmitter.appendQuoted(s, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

private func jsonValue(_ s: String?) -> String { s.map(jsonString) ?? "null" }

/// `%`, CR and LF escaped, as a workflow command's message needs.
func githubMessage(_ s: String) -> String { githubEscaped(s, property: false) }

/// A workflow command's property value: the message's escapes, and `:` and `,`.
func githubProperty(_ s: String) -> String { githubEscaped(s, property: true) }

private func githubEscaped(_ s: String, property: Bool) -> String {
    var out = ""
    for c in s.unicodeScalars {
        switch c {
        case "%": out += "%25"
        case "\r": out += "%0D"
        case "\n": out += "%0A"
        case ":" where property: out += "%3A"
        case "," where property: out += "%2C"
        default: out.unicodeScalars.append(c)
        }
    }
    return out
}

/// A file path as a URI reference: unreserved characters and `/` kept, every other byte
/// of its UTF-8 percent-encoded (`Petrel 3.uddf` → `Petrel%203.uddf`).
func uriReference(_ path: String) -> String {
    var out = ""
    for b in path.utf8 {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            out.unicodeScalars.append(Unicode.Scalar(b))
        default:
            let hex = String(b, radix: 16, uppercase: true)
            out += "%" + (hex.count == 1 ? "0" : "") + hex
        }
    }
    return out
}
