import DiveJSON
import DiveUDDF
import DiveXML
#if canImport(Glibc)
import Glibc
#endif

/// One case of a conformance corpus that did not pass.
public struct ConformFailure: Sendable {
    /// The case, relative to the corpus (`invalid/tag-empty.divejson`, `uddf/gear.uddf`).
    public var file: String
    /// Why the case failed: the error, or the problems found, as text.
    public var reason: String
}

/// What walking a conformance corpus found, section by section.
public struct ConformReport: Sendable {
    /// One part of the corpus (`valid`, `invalid`, `write/uddf`, a pair directory) and how many of its cases passed.
    public struct Section: Sendable {
        /// The section's name: its directory, or `write/` and the format written.
        public var name: String
        /// Cases that passed.
        public var passed = 0
        /// Cases in the section.
        public var total = 0
    }
    /// The sections walked, in order.
    public var sections: [Section] = []
    /// Every case that did not pass.
    public var failures: [ConformFailure] = []
    /// Problems with the corpus's shape: pair directories for formats umilog does not read.
    public var shapeErrors: [String] = []

    /// 2 the corpus's shape is wrong, 1 a case failed, 0 all passed.
    public var exitCode: Int32 { !shapeErrors.isEmpty ? 2 : (failures.isEmpty ? 0 : 1) }
}

/// Walks a DiveJSON conformance corpus (`fixtures/README.md`'s contract): every document of
/// `valid/` validates, every one of `invalid/` is rejected, every reader pair
/// (`<format>/X.<ext>` beside `X.divejson`) converts to its expected document, compared as
/// JSON values without `exported_at` and `generator`, and without what umilog adds under its
/// own producer key (`extensions.umilog`, DiveJSON §5.5: values the source recorded that the
/// core has no member for, which a pair does not fix). A pair directory for a format umilog
/// does not read is a shape error. `strict` also validates every document a pair produces.
public func conform(directory: String, strict: Bool = false, only: FileFormat? = nil) -> ConformReport {
    var report = ConformReport()
    let validator = try? DiveJSONValidator()
    let entries = listDirectory(directory).sorted()
    for entry in entries where isDirectory(directory + "/" + entry) {
        switch entry {
        case "valid", "invalid":
            var section = ConformReport.Section(name: entry)
            for file in listDirectory(directory + "/" + entry).sorted() where file.hasSuffix(".divejson") {
                section.total += 1
                let path = "\(directory)/\(entry)/\(file)"
                let issues: [ValidationIssue]
                do { issues = try validator?.validate(path: path) ?? [] } catch {
                    if entry == "invalid" { section.passed += 1 } else {
                        report.failures.append(ConformFailure(file: "\(entry)/\(file)", reason: "\(error)"))
                    }
                    continue
                }
                if (entry == "valid") == issues.isEmpty {
                    section.passed += 1
                } else if entry == "valid" {
                    report.failures.append(ConformFailure(file: "valid/\(file)", reason: issues.map(\.description).joined(separator: "\n    ")))
                } else {
                    report.failures.append(ConformFailure(file: "invalid/\(file)", reason: "accepted, but it is invalid"))
                }
            }
            report.sections.append(section)
        case "write":
            for format in listDirectory(directory + "/write").sorted() where isDirectory("\(directory)/write/\(format)") {
                if let only, only.rawValue != format { continue }
                let dir = "\(directory)/write/\(format)"
                let inputs = listDirectory(dir).filter { $0.hasSuffix(".divejson") }.sorted()
                var section = ConformReport.Section(name: "write/\(format)")
                section.total = inputs.count
                guard format == FileFormat.uddf.rawValue else {
                    report.shapeErrors.append("write/\(format)/: writer pairs for the format \"\(format)\", which umilog does not write")
                    report.sections.append(section)
                    continue
                }
                for input in inputs {
                    let stem = String(input.dropLast(".divejson".count))
                    let name = "write/\(format)/\(input)"
                    let sink = MemorySink()
                    let result = convert(inputs: ["\(dir)/\(input)"], options: ConvertOptions(to: .uddf), standardOutput: sink)
                    if let error = result.inputs.first?.error {
                        report.failures.append(ConformFailure(file: name, reason: error.description))
                        continue
                    }
                    do {
                        let expectedPath = "\(dir)/\(stem).\(format)"
                        let produced = try CanonicalXML.of(sink.bytes, name: "produced", ignoring: ["generator"])
                        let expected = try CanonicalXML.of(try InputFile.contents(of: expectedPath, displayName: expectedPath), name: expectedPath, ignoring: ["generator"])
                        if produced == expected {
                            section.passed += 1
                        } else {
                            report.failures.append(ConformFailure(file: name, reason: "differs from \(stem).\(format) as canonical XML: \(firstDifference(produced, expected))"))
                        }
                    } catch {
                        report.failures.append(ConformFailure(file: name, reason: "\(error)"))
                    }
                }
                report.sections.append(section)
            }
        default:
            // A pair directory is named by DiveJSON's format id (`suunto_xml`), umilog's by a hyphen.
            let format = FileFormat(rawValue: entry) ?? FileFormat(rawValue: String(entry.map { $0 == "_" ? "-" : $0 }))
            if let only, only.rawValue != (format?.rawValue ?? entry) { continue }
            guard let format, format.entry.open != nil else {
                report.shapeErrors.append("\(entry)/: reader pairs for the format \"\(entry)\", which umilog does not read")
                continue
            }
            var section = ConformReport.Section(name: entry)
            for file in listDirectory(directory + "/" + entry).sorted() where !file.hasSuffix(".divejson") {
                section.total += 1
                let stem = file.split(separator: ".").dropLast().joined(separator: ".")
                let expectedPath = "\(directory)/\(entry)/\(stem).divejson"
                let sink = MemorySink()
                let options = ConvertOptions(to: .json, from: format, exportedAt: "1970-01-01T00:00:00+00:00")
                let result = convert(inputs: ["\(directory)/\(entry)/\(file)"], options: options, standardOutput: sink)
                if let error = result.inputs.first?.error {
                    report.failures.append(ConformFailure(file: "\(entry)/\(file)", reason: error.description))
                    continue
                }
                do {
                    let produced = try parseJSON(sink.bytes, file: "produced")
                    let core = withoutProducerEntry(produced, key: "umilog")
                    let expected = try JSONParser.parse(file: expectedPath, displayName: expectedPath).document
                    if let difference = firstDifference(core, expected, path: "$", ignoring: ["exported_at", "generator"]) {
                        report.failures.append(ConformFailure(file: "\(entry)/\(file)", reason: "differs from \(stem).divejson at \(difference)"))
                        continue
                    }
                    if strict, let validator {
                        let issues = validator.validate(produced, file: "produced from \(entry)/\(file)")
                        if !issues.isEmpty {
                            report.failures.append(ConformFailure(file: "\(entry)/\(file)", reason: "the produced document does not validate: \(issues[0])"))
                            continue
                        }
                    }
                    section.passed += 1
                } catch {
                    report.failures.append(ConformFailure(file: "\(entry)/\(file)", reason: "\(error)"))
                }
            }
            report.sections.append(section)
        }
    }
    return report
}

/// Where two canonical XML texts part: a little of each from the first differing byte.
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
    var i = 0
    while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
    let from = max(0, i - 40)
    func excerpt(_ x: [UInt8]) -> String { String(decoding: x[min(from, x.count)..<min(i + 60, x.count)], as: UTF8.self) }
    return "produced …\(excerpt(a))… where expected …\(excerpt(b))…"
}

/// `node` with the entry `key` taken out of every `extensions` object (and an `extensions`
/// left empty by that taken out too): what a document says under one producer's key.
public func withoutProducerEntry(_ node: JSONNode, key: String) -> JSONNode {
    var out = node
    switch node.value {
    case .object(let members):
        var kept: [JSONNode.Member] = []
        for var m in members {
            m.value = withoutProducerEntry(m.value, key: key)
            if m.name == "extensions", case .object(let entries) = m.value.value {
                let rest = entries.filter { $0.name != key }
                if rest.isEmpty { continue }
                m.value.value = .object(rest)
            }
            kept.append(m)
        }
        out.value = .object(kept)
    case .array(let elements):
        out.value = .array(elements.map { withoutProducerEntry($0, key: key) })
    default:
        break
    }
    return out
}

/// The first place two JSON values differ (numbers by value, members in any order).
func firstDifference(_ a: JSONNode, _ b: JSONNode, path: String, ignoring: Set<String> = []) -> String? {
    switch (a.value, b.value) {
    case (.object(let x), .object(let y)):
        let xs = Dictionary(x.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let ys = Dictionary(y.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        for name in Set(xs.keys).union(ys.keys).sorted() where !ignoring.contains(name) {
            guard let l = xs[name] else { return "\(path).\(name) (missing from the produced document)" }
            guard let r = ys[name] else { return "\(path).\(name) (not in the expected document)" }
            if let d = firstDifference(l, r, path: "\(path).\(name)") { return d }
        }
        return nil
    case (.array(let x), .array(let y)):
        guard x.count == y.count else { return "\(path) (\(x.count) elements, expected \(y.count))" }
        for (i, (l, r)) in zip(x, y).enumerated() {
            if let d = firstDifference(l, r, path: "\(path)[\(i)]") { return d }
        }
        return nil
    default:
        return JSONSchema.equal(a, b) ? nil : path
    }
}

func parseJSON(_ bytes: [UInt8], file: String) throws -> JSONNode {
    try bytes.withUnsafeBytes { raw in
        var p = JSONParser(bytes: raw, file: file)
        return try p.parseDocument()
    }
}

func listDirectory(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
