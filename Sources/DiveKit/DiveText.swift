import DiveCore

/// One dive in full as `umilog show` prints it (the app's Dive detail screen, headless): when
/// and where, depth and time, water, gases, computer, people, species, tags, notes, and a text
/// profile sparkline. Numbers as `HumanNumbers` gives them; a value the dive does not record
/// is left out, never shown as 0.
public func renderDive(_ d: Dive, header: LogbookHeader, sparklineWidth: Int = 60) -> [String] {
    var lines: [String] = []
    let when = d.startedAt.map { s in s.date.description + (s.time.map { " " + String($0.description.prefix(8)) } ?? "") + (s.offset.map { " " + $0.description } ?? "") }
    lines.append("Dive \(d.number.map(String.init) ?? "(no number)") — \(when ?? "no date")")
    func row(_ label: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        lines.append((label + ":").padding(13) + value)
    }
    let sites = d.siteUUIDs.compactMap { id in header.sites.first { $0.uuid == id } }
    row("site", sites.map { s in s.name + (s.location.map { " (\($0.name))" } ?? "") }.joined(separator: "; "))
    if let s = sites.first, let p = s.position ?? s.location?.position {
        row("position", "\(HumanNumbers.rounded(p.latitude, places: 5)), \(HumanNumbers.rounded(p.longitude, places: 5))")
    }
    var depth: [String] = []
    if let m = d.maxDepth { depth.append("max \(HumanNumbers.metres(m)) m") }
    if let a = d.avgDepth { depth.append("average \(HumanNumbers.metres(a)) m") }
    row("depth", depth.joined(separator: ", "))
    row("duration", d.submergedTime.map(HumanNumbers.duration))
    var water: [String] = []
    if let t = d.bottomTemperature { water.append("\(HumanNumbers.celsius(t)) °C at depth") }
    if let w = d.waterType { water.append(w.rawValue) }
    if let v = d.visibility { water.append("visibility \(HumanNumbers.metres(v)) m") }
    row("water", water.joined(separator: ", "))
    row("air", d.airTemperature.map { "\(HumanNumbers.celsius($0)) °C" })
    row("weight", d.weight.map { "\(HumanNumbers.rounded($0, places: 1)) kg" })
    for (i, c) in d.cylinders.enumerated() {
        var parts: [String] = [c.gasLabel ?? "gas not recorded"]
        if let v = c.volume { parts.append("\(HumanNumbers.rounded(v, places: 1)) l") }
        switch (c.startPressure, c.endPressure) {
        case let (s?, e?): parts.append("\(HumanNumbers.bar(s)) → \(HumanNumbers.bar(e)) bar")
        case let (s?, nil): parts.append("from \(HumanNumbers.bar(s)) bar")
        case let (nil, e?): parts.append("to \(HumanNumbers.bar(e)) bar")
        default: break
        }
        // Numbered by place (a source's own gas numbers may start at 0).
        let text = "\(i + 1): " + parts.joined(separator: ", ")
        if i == 0 { row("gases", text) } else { lines.append(String(repeating: " ", count: 13) + text) }
    }
    for r in d.recordings {
        guard let device = r.device, let name = device.displayName ?? device.serial.map({ "serial \($0)" }) else { continue }
        row("computer", name + (device.serial.map { name.contains($0) ? "" : ", serial \($0)" } ?? ""))
    }
    let people = d.people.compactMap { ref in header.people.first { $0.uuid == ref.personUUID }.map { p in p.name + (ref.role.map { $0 == .buddy ? "" : " (\($0.rawValue))" } ?? "") } }
    row("people", people.joined(separator: ", "))
    let species = d.sightings.compactMap { s in
        header.species.first { $0.uuid == s.speciesUUID }.map { sp in
            (sp.commonName ?? sp.scientificName ?? "?") + (sp.commonName != nil && sp.scientificName != nil ? " (\(sp.scientificName!))" : "") + (s.count.map { " ×\($0)" } ?? "")
        }
    }
    row("species", species.joined(separator: ", "))
    row("tags", d.tags.joined(separator: ", "))
    if let profile = d.profile, let line = sparkline(profile, width: sparklineWidth) { row("profile", line) }
    if let notes = d.notes {
        lines.append("notes:")
        lines += notes.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
    }
    return lines
}

/// The depth profile as one line of block characters, one per time slice (its deepest sample),
/// deeper taller, with the depth range and duration: `▁▃▆██▇▆▅▃▂▁ 0–26.3 m over 83 min`. Nil
/// without depth samples.
public func sparkline(_ p: Profile, width: Int = 60) -> String? {
    guard let depth = p.depth, !depth.isEmpty, width > 0 else { return nil }
    let start = depth.times.first!, end = max(depth.times.last!, start + 1)
    var columns = [Int?](repeating: nil, count: width)
    for (t, v) in zip(depth.times, depth.values) {
        let c = min(width - 1, (t - start) * width / (end - start + 1))
        columns[c] = max(columns[c] ?? v, v)
    }
    // A slice with no sample shows its neighbour's depth (the profile is continuous).
    var last = 0
    for i in columns.indices { if let v = columns[i] { last = v } else { columns[i] = last } }
    let deepest = max(1, depth.maxValue ?? 1)
    let blocks = Array("▁▂▃▄▅▆▇█")
    let line = String(columns.map { v in blocks[min(7, max(0, (v ?? 0) * 8 / (deepest + 1)))] })
    let minutes = (end - start) / 60_000
    return "\(line) 0–\(HumanNumbers.metres(Double(deepest) / 100)) m over \(minutes) min"
}

private extension String {
    func padding(_ n: Int) -> String { count >= n ? self + " " : self + String(repeating: " ", count: n - count) }
}
