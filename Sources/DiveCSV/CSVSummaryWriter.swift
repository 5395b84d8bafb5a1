import DiveCore

/// Writes one row per dive (`--to csv`). The columns are fixed and documented in
/// `schemas/csv-columns.md`; a dive with several cylinders lists each cylinder's value in
/// the cylinder columns, in cylinder order, separated by `; `.
///
/// Each measured value is written at its column's precision — metres, °C, litres and kg to
/// 0.1, bar to 1, percentages of a gas to 0.1 (feet, °F, psi and pounds to 1 with `--units
/// imperial`) — or as the source recorded it when it is an exact decimal of at most two
/// fraction digits (`26.34` m, `8.32` °C): `45.17175` m converted from feet is `45.2`, a
/// `26.34` m read from UDDF stays `26.34` (see ``Units``). Positions are written as recorded.
public final class CSVSummaryWriter {
    private var out: CSVBuffer
    private let units: Units
    private var wroteHeader = false
    /// The header's records by uuid, extended as the header grows: a scan per dive made a
    /// 20,000-dive logbook with as many sites take 26 s.
    private var sites = RecordIndex(), people = RecordIndex(), trips = RecordIndex()
    /// What a dive held that the table has no column for, counted per kind over the output:
    /// one finding each at the end (a summary table drops by design; it says what).
    private var notCarried: [(what: String, dives: Int)] = []
    private var findings: [Finding] = []

    /// The column names for a unit system, in order.
    public static func columns(_ system: UnitSystem) -> [String] {
        let u = Units(system: system)
        return [
            "dive_number", "date", "time", "utc_offset", "duration",
            "max_depth_\(u.depthSuffix)", "avg_depth_\(u.depthSuffix)",
            "water_temp_min_\(u.temperatureSuffix)", "air_temp_\(u.temperatureSuffix)",
            "site", "location", "latitude", "longitude", "trip",
            "gas", "cylinder_size_l", "start_pressure_\(u.pressureSuffix)", "end_pressure_\(u.pressureSuffix)",
            "visibility_\(u.depthSuffix)", "weight_\(u.weightSuffix)", "rating", "dive_type", "buddies",
            "dive_computer", "samples", "notes", "dive_id",
        ]
    }

    /// Makes a writer of one row per dive to `sink` in these units.
    public init(sink: ByteSink, units: UnitSystem = .metric) {
        out = CSVBuffer(sink: sink)
        self.units = Units(system: units)
    }

    /// Writes the header row (done automatically before the first dive).
    public func writeHeader() throws {
        guard !wroteHeader else { return }
        wroteHeader = true
        for c in Self.columns(units.system) { out.field(c) }
        try out.endRecord()
    }

    /// Writes one dive's row, resolving its references against `header`.
    public func write(_ dive: Dive, header: LogbookHeader) throws {
        try writeHeader()
        let site = dive.siteUUIDs.first.flatMap { sites.find($0, in: header.sites, \.uuid) }
        out.field(dive.number.map(String.init))
        out.field(dive.startedAt?.csvDate)
        out.field(dive.startedAt?.csvTime)
        out.field(dive.startedAt?.csvOffset)
        out.field(dive.submergedTime.map(clock))
        out.field(units.depth(dive.maxDepth))
        out.field(units.depth(dive.avgDepth))
        out.field(units.temperature(dive.bottomTemperature))
        out.field(units.temperature(dive.airTemperature))
        out.field(site?.name)
        out.field(site?.location?.name)
        // The site's position, else where the dive began (a computer's GPS fix).
        let position = site?.position ?? dive.entryPosition
        out.field(position.map { CSVNumber.format($0.latitude) })
        out.field(position.map { CSVNumber.format($0.longitude) })
        out.field(dive.tripUUID.flatMap { trips.find($0, in: header.trips, \.uuid)?.name })
        out.field(list(dive.cylinders) { $0.gasLabel ?? $0.gasName })
        out.field(list(dive.cylinders) { units.volume($0.volume) })
        out.field(list(dive.cylinders) { units.pressure($0.startPressure) })
        out.field(list(dive.cylinders) { units.pressure($0.endPressure) })
        out.field(units.depth(dive.visibility))
        out.field(units.weight(dive.weight))
        out.field(dive.rating.map(String.init))
        out.field(dive.type?.rawValue)
        let buddies = dive.people.compactMap { people.find($0.personUUID, in: header.people, \.uuid)?.name }
        out.field(buddies.isEmpty ? nil : buddies.joined(separator: "; "))
        out.field(dive.recordings.first?.device?.displayName)
        out.field(dive.profile.map { String($0.sampleCount) })
        out.field(dive.notes)
        out.field(dive.uuid)
        try out.endRecord()
        account(dive, positionWritten: position != nil && position == dive.entryPosition)
    }

    /// Counts what `dive` holds that the row has no column for.
    private func account(_ dive: Dive, positionWritten: Bool) {
        let held: [(String, Bool)] = [
            ("profiles (--to csv-profile writes the samples)", dive.profile != nil),
            ("entry positions", dive.entryPosition != nil && !positionWritten),
            ("exit positions", dive.exitPosition != nil),
            ("recording modes (open circuit, rebreather, freedive…)", dive.recordings.contains { $0.mode != nil }),
            ("decompression models and gradient factors", dive.recordings.contains { $0.decoModel != nil }),
            ("dive computers' own dive numbers, serials and firmware", dive.recordings.contains {
                $0.device?.diveNumber != nil || $0.device?.serial != nil || $0.device?.firmware != nil }),
            ("CNS and OTU readings", dive.recordings.contains { $0.cnsStart != nil || $0.cnsEnd != nil || $0.otuStart != nil || $0.otuEnd != nil }),
            ("more than one recording (only the first's computer is named)", dive.recordings.count > 1),
            ("tags", !dive.tags.isEmpty),
            ("sightings", !dive.sightings.isEmpty),
            ("conditions (water type, current, waves, weather, entry, boat, altitude)", dive.waterType != nil || dive.current != nil
                || dive.waves != nil || dive.weather != nil || dive.entryType != nil || dive.boatName != nil || dive.altitude != nil),
            ("gear", !dive.gearUUIDs.isEmpty),
        ]
        for (what, has) in held where has {
            if let i = notCarried.firstIndex(where: { $0.what == what }) { notCarried[i].dives += 1 } else { notCarried.append((what, 1)) }
        }
    }

    /// What the table could not carry, once the output is complete.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// Flushes what is buffered.
    public func finish() throws {
        try writeHeader()
        try out.flush()
        for n in notCarried {
            findings.append(Finding(.dropped, "csv.not-carried", "the summary table has no column for \(n.what): \(n.dives) dive\(n.dives == 1 ? " holds" : "s hold") some",
                                    at: SourceLocation(file: nil)))
        }
    }

    private func list(_ cylinders: [Cylinder], _ value: (Cylinder) -> String?) -> String? {
        let values = cylinders.map(value)
        guard values.contains(where: { $0 != nil }) else { return nil }
        return values.map { $0 ?? "" }.joined(separator: "; ")
    }
}

/// Positions of a header's records by uuid. Headers only grow while a file is read, so the
/// index is extended by what was appended; another header (the next input's) rebuilds it.
struct RecordIndex {
    private var positions: [String: Int] = [:]
    private var count = 0
    private var first: String?

    /// The record of `uuid` in `records` (the first, as `LogbookHeader`'s lookups give).
    mutating func find<R>(_ uuid: String, in records: [R], _ key: KeyPath<R, String>) -> R? {
        if records.count < count || (count > 0 && records[0][keyPath: key] != first) {
            positions.removeAll(keepingCapacity: true)
            count = 0
        }
        while count < records.count {
            let id = records[count][keyPath: key]
            if positions[id] == nil { positions[id] = count }
            count += 1
        }
        first = records.first?[keyPath: key]
        return positions[uuid].map { records[$0] }
    }
}
