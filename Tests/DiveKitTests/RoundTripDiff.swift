import DiveCore
import DiveJSON

/// Where two logbooks differ, as DiveJSON paths (`dive/3/cylinders/0/role`): each is written
/// as a DiveJSON document (the model follows DiveJSON member for member, so the document is
/// the model spelled out) and the two trees are compared. Objects compare member by member in
/// any order, numbers by value, arrays of records by `uuid` (else by position). Dives are
/// named by their index in `indexOf` (their place in the input), not in the document.
func logbookDifferences(_ a: Logbook, _ b: Logbook, diveIndex indexOf: [String: Int]) throws -> [String] {
    let (x, y) = (try document(a), try document(b))
    var out: [String] = []
    for name in Set(x.members.map(\.name)).union(y.members.map(\.name)).sorted()
    where !["exported_at", "generator", "format", "version"].contains(name) {
        if name == "extensions" {
            // The provenance block describes the file that was read (its format, version and
            // writer), which the round trip changes by design.
            let provenance: Set<String> = ["divejson/converted_from", "divejson/uddf_version", "divejson/source_generator", "umilog/source_generator"]
            var d: [String] = []
            diff(x[name], y[name], name, into: &d)
            out += d.filter { p in !provenance.contains { p == "extensions/" + $0 || p.hasPrefix("extensions/\($0)/") } }
            continue
        }
        if name == "dives" {
            let bx = Dictionary(x[name]?.elements.map { ($0["uuid"]?.string ?? "", $0) } ?? [], uniquingKeysWith: { a, _ in a })
            let by = Dictionary(y[name]?.elements.map { ($0["uuid"]?.string ?? "", $0) } ?? [], uniquingKeysWith: { a, _ in a })
            for uuid in Set(bx.keys).union(by.keys) {
                diff(bx[uuid], by[uuid], "dive/\(indexOf[uuid].map(String.init) ?? uuid)", into: &out)
            }
        } else {
            diff(x[name], y[name], name, into: &out)
        }
    }
    return out.sorted()
}

private func document(_ logbook: Logbook) throws -> JSONNode {
    let sink = MemorySink()
    let writer = DiveJSONWriter(sink: sink, generator: Generator(name: "test"), exportedAt: "2000-01-01T00:00:00Z")
    for d in logbook.dives { try writer.write(d, header: logbook.header) }
    try writer.finish(header: logbook.header)
    return try sink.bytes.withUnsafeBytes { bytes in
        var parser = JSONParser(bytes: bytes, file: "-")
        return try parser.parseDocument()
    }
}

private func diff(_ a: JSONNode?, _ b: JSONNode?, _ path: String, into out: inout [String]) {
    guard let a, let b else {
        // A list or an object on one side only differs element by element and member by
        // member, so that a finding about one element speaks for it.
        let present = a ?? b
        if let present, case .array = present.value {
            // An empty list written out is presentation (`SourceLayout`), not data.
            diffLists(a?.elements ?? [], b?.elements ?? [], path, into: &out)
        } else if let present, case .object(let members) = present.value {
            for m in members { diff(a?[m.name], b?[m.name], path + "/" + m.name, into: &out) }
        } else if present != nil {
            out.append(path)
        }
        return
    }
    switch (a.value, b.value) {
    case (.object(let ma), .object(let mb)):
        let names = Set(ma.map(\.name)).union(mb.map(\.name))
        for n in names.sorted() { diff(a[n], b[n], path + "/" + n, into: &out) }
    case (.array(let ea), .array(let eb)):
        diffLists(ea, eb, path, into: &out)
    case (.number(let na), .number(let nb)):
        if Double(na) != Double(nb) { out.append(path) }
    default:
        if a.value != b.value { out.append(path) }
    }
}

private func diffLists(_ ea: [JSONNode], _ eb: [JSONNode], _ path: String, into out: inout [String]) {
        let keyed = !(ea.isEmpty && eb.isEmpty) && ea.allSatisfy { $0["uuid"]?.string != nil } && eb.allSatisfy { $0["uuid"]?.string != nil }
        if keyed {
            let byUUID = Dictionary(eb.map { ($0["uuid"]!.string!, $0) }, uniquingKeysWith: { a, _ in a })
            for (i, e) in ea.enumerated() { diff(e, byUUID[e["uuid"]!.string!], "\(path)/\(i)", into: &out) }
            let known = Set(ea.map { $0["uuid"]!.string! })
            for e in eb where !known.contains(e["uuid"]!.string!) { out.append("\(path)/+\(e["uuid"]!.string!)") }
        } else {
            for i in 0..<max(ea.count, eb.count) {
                diff(i < ea.count ? ea[i] : nil, i < eb.count ? eb[i] : nil, "\(path)/\(i)", into: &out)
            }
        }
}


/// What `docs/uddf-writing.md` documents a written file to *gain*, which is not reported
/// ("what is gained is not reported, which is the same rule read the other way"):
/// - a recording's device that folds into no gear item is written as a `<divecomputer>` of its
///   own, which reads back as a computer in the diver's kit (`gear/+<uuid>`), linked from the
///   dive (`dive/N/gear_uuids/K`);
/// - a linked computer no recording answers to comes back as a recording the document never
///   had (`dive/N/recordings/K`, K past the original's recordings).
func isDocumentedGain(_ path: String, original: Logbook, back: Logbook, diveIndex: [String: Int]) -> Bool {
    let parts = path.split(separator: "/").map(String.init)
    let devices = original.dives.flatMap(\.recordings).compactMap(\.device)
    func returned(_ uuid: String) -> Bool {
        guard let item = back.header.gear.first(where: { $0.uuid == uuid }),
              !original.header.gear.contains(where: { $0.uuid == uuid }) else { return false }
        return item.type == .computer && devices.contains { $0.name == item.name }
    }
    if parts.count == 2, parts[0] == "gear", parts[1].hasPrefix("+") { return returned(String(parts[1].dropFirst())) }
    guard parts.count >= 4, parts[0] == "dive", let n = Int(parts[1]), let k = Int(parts[3]),
          let dive = original.dives.indices.contains(n) ? original.dives[n] : nil,
          let again = back.dives.first(where: { $0.uuid == dive.uuid }) else { return false }
    switch parts[2] {
    case "gear_uuids":
        return k < again.gearUUIDs.count && !dive.gearUUIDs.contains(again.gearUUIDs[k]) && returned(again.gearUUIDs[k])
    case "recordings":
        let computers = Set(original.header.gear.filter { $0.type == .computer }.map(\.uuid))
        return k >= dive.recordings.count && dive.gearUUIDs.contains { computers.contains($0) }
    default:
        return false
    }
}

/// Whether finding `f` speaks for a difference at `path`: it is about that record or one of
/// its ancestors. A `*-member-not-carried` finding lists the members it is about, so it speaks
/// only for those.
func covers(_ f: Finding, _ path: String) -> Bool {
    let at = f.location.path ?? ""
    if path == at { return true }
    guard path.hasPrefix(at + "/") else { return false }
    guard f.code.hasSuffix("-member-not-carried") else { return true }
    let member = path.dropFirst(at.count + 1).prefix { $0 != "/" }
    return f.message.split(whereSeparator: { ", .".contains($0) }).contains(member)
}
