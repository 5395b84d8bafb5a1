import DiveCore

/// Writes one row per sample instant (`--to csv-profile`): every channel of the primary
/// recording merged onto one time axis, a cell left empty where a channel has no reading at
/// that instant (nothing is interpolated). Events at an instant are listed in `events`.
///
/// Pressure columns come last, one per cylinder of the dive (`pressure_N` is the dive's Nth
/// cylinder, as in the summary's cylinder lists). How many there are is known only at the
/// end, so rows go to a body sink and the caller writes ``headerRow()`` in front of them,
/// padding shorter rows with ``CSVRowPadder`` when ``needsPadding`` says so.
public final class CSVProfileWriter {
    private var out: CSVBuffer
    private let units: Units
    private var widths: Set<Int> = []

    public init(body: ByteSink, units: UnitSystem = .metric) {
        out = CSVBuffer(sink: body)
        self.units = Units(system: units)
    }

    /// The columns before the pressure columns.
    public static func fixedColumns(_ system: UnitSystem) -> [String] {
        let u = Units(system: system)
        return ["dive_number", "date", "time", "utc_offset", "elapsed_s", "depth_\(u.depthSuffix)",
                "temperature_\(u.temperatureSuffix)", "ndl_s", "tts_s", "ceiling_\(u.depthSuffix)",
                "ppo2_bar", "cns_pct", "gf_pct", "events", "dive_id"]
    }

    /// The number of pressure columns: the most cylinders any written dive has.
    public var pressureColumns: Int { widths.max() ?? 0 }

    /// True when some rows have fewer pressure columns than the header.
    public var needsPadding: Bool { widths.count > 1 }

    /// The total number of fields per row.
    public var fieldCount: Int { Self.fixedColumns(units.system).count + pressureColumns }

    /// The header row for what has been written, CRLF-terminated.
    public func headerRow() -> [UInt8] {
        let sink = CollectingSink()
        var row = CSVBuffer(sink: sink)
        for c in Self.fixedColumns(units.system) { row.field(c) }
        for n in 0..<pressureColumns { row.field("pressure_\(n + 1)_\(units.pressureSuffix)") }
        try? row.endRecord()
        try? row.flush()
        return sink.bytes
    }

    /// Writes the rows of one dive.
    public func write(_ dive: Dive, header: LogbookHeader) throws {
        guard let profile = dive.profile else { return }
        let width = profile.pressures.isEmpty ? 0 : max(dive.cylinders.count, (profile.pressures.map(\.gasNumber).max() ?? -1) + 1)
        widths.insert(width)
        // Each channel, the cell it lands in, and how its value prints.
        var channels: [(series: Series, cell: Int, text: (Int) -> String?)] = []
        let u = units
        func add(_ s: Series?, _ cell: Int, _ f: @escaping (Int) -> String?) { if let s { channels.append((s, cell, f)) } }
        add(profile.depth, 0) { u.depth(u.scaled($0, places: 2)) }
        add(profile.temperature, 1) { u.temperature(u.scaled($0, places: 2)) }
        add(profile.ndl, 2) { String($0) }
        add(profile.tts, 3) { String($0) }
        add(profile.ceiling, 4) { u.depth(u.scaled($0, places: 2)) }
        add(profile.ppo2, 5) { CSVNumber.format(u.scaled($0, places: 2)) }
        add(profile.cns, 6) { CSVNumber.format(u.scaled($0, places: 1)) }
        add(profile.gradientFactor, 7) { String($0) }
        let eventsCell = 8
        for p in profile.pressures { add(p.series, 9 + p.gasNumber) { u.pressure(u.scaled($0, places: 1)) } }
        var cells = [String?](repeating: nil, count: 9 + width)
        var cursors = [Int](repeating: 0, count: channels.count)
        let events = profile.events.sorted { $0.time < $1.time }
        var eventCursor = 0
        let start = dive.startedAt
        let number = dive.number.map(String.init)
        while true {
            var t = Int.max
            for (i, c) in channels.enumerated() where cursors[i] < c.series.count { t = min(t, c.series.times[cursors[i]]) }
            if eventCursor < events.count { t = min(t, events[eventCursor].time) }
            if t == Int.max { break }
            for i in cells.indices { cells[i] = nil }
            for (i, c) in channels.enumerated() where cursors[i] < c.series.count && c.series.times[cursors[i]] == t {
                cells[c.cell] = c.text(c.series.values[cursors[i]])
                cursors[i] += 1
            }
            var labels: [String] = []
            while eventCursor < events.count && events[eventCursor].time == t {
                labels.append(Self.describe(events[eventCursor], cylinders: dive.cylinders))
                eventCursor += 1
            }
            if !labels.isEmpty { cells[eventsCell] = labels.joined(separator: "; ") }
            out.field(number)
            out.field(start?.csvDate)
            out.field(start?.csvTime)
            out.field(start?.csvOffset)
            out.field(CSVNumber.format(Double(t) / 1000))
            for c in cells[0...eventsCell] { out.field(c) }
            out.field(dive.uuid)
            for c in cells[(eventsCell + 1)...] { out.field(c) }
            try out.endRecord()
        }
    }

    /// Flushes the body. Call ``headerRow()`` afterwards for the header.
    public func finish() throws { try out.flush() }

    static func describe(_ e: Event, cylinders: [Cylinder]) -> String {
        var s = e.type?.rawValue ?? ""
        if e.type == .gasSwitch, let g = e.gasNumber, g < cylinders.count {
            let c = cylinders[g]
            s += " " + (c.gasLabel ?? c.gasName ?? "cylinder \(g + 1)")
        }
        if let label = e.label { s += s.isEmpty ? label : " (\(label))" }
        return s
    }
}

/// A sink that keeps what it is given in memory.
final class CollectingSink: ByteSink {
    var bytes: [UInt8] = []
    func write(_ b: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: b) }
}

/// Pads CSV records to a fixed number of fields by appending empty fields, reading the
/// records in chunks of any size (quote-aware, CRLF-terminated as this module writes them).
public struct CSVRowPadder {
    private let fields: Int
    private let sink: ByteSink
    private var inQuotes = false
    private var count = 1
    private var pending: [UInt8] = []

    public init(fields: Int, sink: ByteSink) {
        self.fields = fields
        self.sink = sink
        pending.reserveCapacity(1 << 16)
    }

    /// Feeds the next chunk of records.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
        for b in chunk {
            if b == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if !inQuotes && b == UInt8(ascii: ",") {
                count += 1
            } else if !inQuotes && b == 0x0D {
                if count < fields { pending.append(contentsOf: repeatElement(UInt8(ascii: ","), count: fields - count)) }
                count = 1
            }
            pending.append(b)
            if pending.count >= 1 << 16 { try flush() }
        }
    }

    /// Writes what is buffered.
    public mutating func flush() throws {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBytes { try sink.write($0) }
        pending.removeAll(keepingCapacity: true)
    }
}
