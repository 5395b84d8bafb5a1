import DiveCore

/// Writes one row per sample instant (`--to csv-profile`): every channel of the primary
/// recording merged onto one time axis, a cell left empty where a channel has no reading at
/// that instant (nothing is interpolated). Events at an instant are listed in `events`.
///
/// Pressure columns come last, one per cylinder of the dive (`pressure_N` is the dive's Nth
/// cylinder, as in the summary's cylinder lists). How many there are is known only at the
/// end, so rows go to a body sink and the caller writes ``headerRow()`` in front of them,
/// padding shorter rows with ``CSVRowPadder`` when ``needsPadding`` says so.
///
/// Values follow the summary's precision rule (``CSVSummaryWriter``, ``Units``): a channel
/// holds centimetres, hundredths of a °C and tenths of a bar, so a metric cell is always an
/// exact short decimal and is written as it is (`5.12` m, `24.15` °C, `199.8` bar); converted
/// to feet, °F or psi it is rounded to a whole unit (`16.7979` ft is `17`). ppO₂ (0.01 bar),
/// CNS (0.1 %), GF, NDL, TTS and times are written as the channel holds them.
public final class CSVProfileWriter {
    private var out: CSVBuffer
    private let units: Units
    private var widths: Set<Int> = []

    /// Makes a writer of profile rows to `body` in these units; the header row, whose width depends on the widest dive, is written at the end.
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
        let sink = MemorySink()
        var row = CSVBuffer(sink: sink)
        for c in Self.fixedColumns(units.system) { row.field(c) }
        for n in 0..<pressureColumns { row.field("pressure_\(n + 1)_\(units.pressureSuffix)") }
        try? row.endRecord()
        try? row.flush()
        return sink.bytes
    }

    /// How a channel's integer-scaled values print.
    enum Kind {
        /// Centimetres (depth, ceiling).
        case length
        /// Hundredths of a °C.
        case temperature
        /// Tenths of a bar.
        case pressure
        /// A plain value with this many decimals in its scale (NDL: 0, ppO₂: 2, CNS: 1).
        case fixed(Int)
    }

    private func append(_ value: Int, _ kind: Kind) {
        switch (kind, units.system) {
        case (.length, .metric): out.scaled(value, places: 2)
        case (.temperature, .metric): out.scaled(value, places: 2)
        case (.pressure, .metric): out.scaled(value, places: 1)
        case (.fixed(let places), _): out.scaled(value, places: places)
        case (.length, .imperial): out.field(units.depth(units.scaled(value, places: 2)))
        case (.temperature, .imperial): out.field(units.temperature(units.scaled(value, places: 2)))
        case (.pressure, .imperial): out.field(units.pressure(units.scaled(value, places: 1)))
        }
    }

    /// Writes the rows of one dive.
    public func write(_ dive: Dive, header: LogbookHeader) throws {
        guard let profile = dive.profile else { return }
        let width = profile.pressures.isEmpty ? 0 : max(dive.cylinders.count, (profile.pressures.map(\.gasNumber).max() ?? -1) + 1)
        widths.insert(width)
        // Each channel, the cell it lands in, and how its value prints.
        var channels: [(series: Series, cell: Int, kind: Kind)] = []
        func add(_ s: Series?, _ cell: Int, _ kind: Kind) { if let s { channels.append((s, cell, kind)) } }
        add(profile.depth, 0, .length)
        add(profile.temperature, 1, .temperature)
        add(profile.ndl, 2, .fixed(0))
        add(profile.tts, 3, .fixed(0))
        add(profile.ceiling, 4, .length)
        add(profile.ppo2, 5, .fixed(2))
        add(profile.cns, 6, .fixed(1))
        add(profile.gradientFactor, 7, .fixed(0))
        let eventsCell = 8
        for p in profile.pressures { add(p.series, 9 + p.gasNumber, .pressure) }
        // Cells of the current row: which channel fills each (-1: empty).
        let cellCount = 9 + width
        var filled = [Int](repeating: -1, count: cellCount)
        var values = [Int](repeating: 0, count: cellCount)
        var cursors = [Int](repeating: 0, count: channels.count)
        let events = profile.events.sorted { $0.time < $1.time }
        var eventCursor = 0
        // The fields every row of this dive repeats, escaped once.
        let start = dive.startedAt
        let lead = [dive.number.map(String.init), start?.csvDate, start?.csvTime, start?.csvOffset]
            .map { CSVBuffer.encode($0) }
        let prefix = Array(lead.joined(separator: [UInt8(ascii: ",")]))
        let id = CSVBuffer.encode(dive.uuid)
        while true {
            var t = Int.max
            for i in channels.indices where cursors[i] < channels[i].series.count { t = min(t, channels[i].series.times[cursors[i]]) }
            if eventCursor < events.count { t = min(t, events[eventCursor].time) }
            if t == Int.max { break }
            for i in filled.indices { filled[i] = -1 }
            for i in channels.indices where cursors[i] < channels[i].series.count && channels[i].series.times[cursors[i]] == t {
                filled[channels[i].cell] = i
                values[channels[i].cell] = channels[i].series.values[cursors[i]]
                cursors[i] += 1
            }
            var labels: [String] = []
            while eventCursor < events.count && events[eventCursor].time == t {
                labels.append(Self.describe(events[eventCursor], cylinders: dive.cylinders))
                eventCursor += 1
            }
            out.raw(prefix)
            out.scaled(t, places: 3)
            for cell in 0..<cellCount {
                if cell == eventsCell {
                    if labels.isEmpty { out.empty() } else { out.field(labels.joined(separator: "; ")) }
                    out.raw(id)
                    continue
                }
                let channel = filled[cell]
                if channel < 0 { out.empty() } else { append(values[cell], channels[channel].kind) }
            }
            try out.endRecord()
        }
    }

    /// Flushes the body. Call ``headerRow()`` afterwards for the header.
    public func finish() throws { try out.flush() }

    static func describe(_ e: Event, cylinders: [Cylinder]) -> String {
        var s = e.type?.rawValue ?? ""
        // Gas numbers are labels, not positions (a document may number its cylinders from 1).
        if e.type == .gasSwitch, let g = e.gasNumber, let k = cylinders.firstIndex(where: { $0.gasNumber == g }) ?? (g < cylinders.count && !cylinders.contains { $0.gasNumber != nil } ? g : nil) {
            let c = cylinders[k]
            s += " " + (c.gasLabel ?? c.gasName ?? "cylinder \(k + 1)")
        }
        if let label = e.label { s += s.isEmpty ? label : " (\(label))" }
        return s
    }
}

/// Pads CSV records to a fixed number of fields by appending empty fields, reading the
/// records in chunks of any size (quote-aware, CRLF-terminated as this module writes them).
public struct CSVRowPadder {
    private let fields: Int
    private let sink: ByteSink
    private var inQuotes = false
    private var count = 1
    private var pending: [UInt8] = []

    /// Makes a padder writing records of `fields` fields to `sink`.
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
