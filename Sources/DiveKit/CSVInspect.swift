/// What `umilog csv inspect` shows of a CSV file: how it is written, which export it is, what
/// every column was understood to hold, the date order, and the first dives as read.
public struct CSVInspection: Sendable {
    /// The file as the user named it.
    public var file: String
    /// How the file is written (dialect, export preset, table kind) and what each column was understood to hold.
    public var layout: CSVLayout
    /// The first dives, as the reader made them.
    public var dives: [Dive]
    /// Findings while reading those dives.
    public var findings: [Finding]
    /// Why the dives could not be read, if they could not (an undecided date order …).
    public var error: DiveError?
    /// For a table that cannot be read: what each column's values look like, by position.
    public var shapes: [CSVColumnShape] = []

    /// The mapping this file was read with, to save and edit (`--write-mapping`).
    public var mapping: CSVMapping {
        CSVMapping(columns: layout.columns.compactMap { c in c.meaning.map { (c.name, $0) } }, dateOrder: layout.dateOrder)
    }

    /// The report as text, one fact a line.
    public var text: String {
        var out = "file:       \(file)\n"
        out += "dialect:    \(layout.dialect)\n"
        out += "preset:     \(layout.preset.map { "\($0.title) (\($0.id))" } ?? "none: columns from the dictionary")\n"
        out += "table:      \(layout.kind == .summary ? "summary, one row per dive" : "profile, one row per sample")\n"
        if let i = layout.sampleInterval { out += "interval:   \(DecimalNumber(i).map { "\($0)" } ?? "\(i)") s between samples\n" }
        let order: String
        if let d = layout.dateOrder { order = d.rawValue + (layout.dateOrderEvidence.map { " (\($0))" } ?? "") } else if error?.code.hasPrefix("csv.date-order") == true { order = "undecided (give --date-order dmy|mdy)" } else { order = "no dates in the file" }
        out += "date order: \(order)\n"
        if !layout.defaultUnits.isEmpty {
            out += "units:      \(layout.defaultUnits.values.map(\.rawValue).sorted().joined(separator: ", ")) where a column states none\n"
        }
        out += "columns:\n"
        let width = layout.columns.map { $0.name.count }.max() ?? 0
        for c in layout.columns {
            let name = "\"\(c.name)\"" + String(repeating: " ", count: max(0, width - c.name.count))
            var meaning = c.meaning.map { $0.field == .ignored ? "not carried" : $0.description } ?? "not understood"
            if let log = layout.eventLog {
                // An event log's channel, value and unit columns (§10.13).
                if c.index == log.channel { meaning = "the channel of each row (event log)" }
                if c.index == log.value { meaning = "the value of each row's channel (event log)" }
                if c.index == log.unit { meaning = "the unit of each row's value (event log)" }
            }
            out += "  \(String(c.index + 1).leftPadded(3))  \(name)  → \(meaning)\(c.source == .none || c.meaning == nil ? "" : "  (\(c.source.rawValue))")\n"
        }
        if !layout.metadata.isEmpty {
            out += "above the table:\n"
            for m in layout.metadata { out += "  \(m.label): \(m.value) → \(m.meaning)\n" }
        }
        out += dives.isEmpty ? "dives:      none read\n" : "first dives as read:\n"
        for d in dives {
            var parts = ["\(d.startedAt?.description ?? "no start")"]
            if let n = d.number { parts.insert("#\(n)", at: 0) }
            if let m = d.maxDepth { parts.append("max \(DecimalNumber(m).map { "\($0)" } ?? "\(m)") m") }
            if let s = d.submergedTime { parts.append("\(s / 60):\(String(s % 60).leftPadded(2, with: "0"))") }
            if let t = d.bottomTemperature { parts.append("\(DecimalNumber(t).map { "\($0)" } ?? "\(t)") °C") }
            if !d.cylinders.isEmpty { parts.append("\(d.cylinders.count) cylinder\(d.cylinders.count == 1 ? "" : "s")") }
            if let p = d.recordings.first?.profile { parts.append("\(p.sampleCount) samples") }
            out += "  " + parts.joined(separator: ", ") + "\n"
        }
        if !shapes.isEmpty {
            // A table it cannot read: each column by position, its values, and a line to start from.
            out += "columns by position, as their first \(shapes.map(\.count).max() ?? 0) rows show them:\n"
            for (i, s) in shapes.enumerated() {
                let c = layout.columns[i]
                let name = c.name == String(i + 1) ? "" : "  \"\(c.name)\""
                out += "  \(String(i + 1).leftPadded(3))  \(s.description)\(name)\n"
            }
            let understood = Set(layout.columns.filter { $0.meaning != nil }.map(\.index))
            let proposal = CSVColumnShape.proposal(shapes, understood: understood)
            if !proposal.isEmpty {
                out += "start from: umilog csv inspect \(file.shellQuoted) \(CSVColumnShape.mapLine(proposal))\n"
                out += "            (what the values look like, not what the file says: check each before you import)\n"
            }
        }
        if let error { out += "error:      \(error)\n" }
        return out
    }
}

/// Reads `path` as CSV far enough to say how it is understood, and its first `rows` dives.
///
/// Whether the file is a CSV table at all is decided by the sniffer that decides it for
/// `convert`, `import` and `validate` (``detectFormat(path:displayName:csv:)``), whatever its name
/// ends with: a `.txt` that is a table is read, prose is refused with the same error as there,
/// and a dive log of another format is named (`format.not-csv`).
public func inspectCSV(path: String, displayName: String? = nil, options: CSVReadOptions = CSVReadOptions(), dives count: Int = 3) throws -> CSVInspection {
    // Standard input is spooled first: the reader reads the file twice (the date order).
    try withInputFile(path) { file in
        let name = displayName ?? (path == "-" ? "<stdin>" : path)
        let format = try detectFormat(path: file, displayName: name, csv: options)
        guard format == .csv || format == .csvProfile else {
            throw DiveError("format.not-csv", "the file is \(format.entry.name), not a CSV table; umilog inspect shows it, and umilog convert reads it",
                            at: SourceLocation(file: name, line: 1))
        }
        let reader = try CSVDiveReader(path: file, displayName: name, options: options)
        var dives: [Dive] = []
        var error: DiveError?
        do {
            while dives.count < count, let d = try reader.next() { dives.append(d) }
        } catch let e as DiveError {
            error = e
        }
        // A file read to no dive cannot be read, whatever the reason.
        if error == nil, dives.isEmpty {
            error = DiveError("csv.no-dives", "the file gives no dive", at: SourceLocation(file: name))
        }
        var inspection = CSVInspection(file: name, layout: reader.layout, dives: dives, findings: reader.takeFindings(), error: error)
        if error != nil { inspection.shapes = (try? reader.columnShapes()) ?? [] }
        return inspection
    }
}

extension String {
    /// The string as a shell word: quoted when it holds anything but letters, digits and `/._-`.
    fileprivate var shellQuoted: String {
        allSatisfy({ $0.isLetter || $0.isNumber || "/._-".contains($0) }) ? self : "'" + replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    fileprivate func leftPadded(_ n: Int, with c: Character = " ") -> String {
        count >= n ? self : String(repeating: c, count: n - count) + self
    }
}
