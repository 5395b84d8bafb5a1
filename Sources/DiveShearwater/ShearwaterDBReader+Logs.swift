import DiveCore
internal import Foundation
internal import GRDB
import DiveArchive

/// The computer's log of a dive: `log_data`'s compressed PNF log, or the `dive_logs` and
/// `dive_log_records` rows.
extension ShearwaterDBReader {
    /// The most bytes a decompressed log may take: 64 MiB, far past a day's samples (32 bytes each).
    static let logBytesLimit = 64 << 20

    /// Reads the dive's `log_data` row. Returns whether a log was decoded, and its units.
    func readLogData(diveID: String, into dive: inout Dive, recording rec: inout Recording) throws -> (Bool, ShearwaterUnits?) {
        let rows = try file.read(table: "log_data") { db in
            try Row.fetchAll(db, sql: "SELECT rowid, * FROM log_data WHERE log_id = ? ORDER BY rowid", arguments: [diveID])
        }
        guard let row = rows.first else {
            report(.absent, "log-absent", "no log_data row has log_id \(diveID): the dive has no computer log", path: "dive_details.DiveId", row: lastRowid)
            return (false, nil)
        }
        let rowid: Int64 = row["rowid"] ?? 0
        for extra in rows.dropFirst() {
            let r: Int64 = extra["rowid"] ?? 0
            report(.dropped, "log-repeated", "a second log_data row for dive \(diveID); the first is read and this one is not carried", path: "log_data", row: r)
            columns.account(shearwaterCells(extra, rowid: r), table: "log_data", rowid: r, consumed: ["log_id"])
        }
        var consumed: Set<String> = ["log_id"]
        let ordered = shearwaterCells(row, rowid: rowid)
        let cells = shearwaterValues(ordered)
        // The file name Shearwater gives the log opens with the computer's product name:
        // `Petrel 3[DEAD0810]#1 2026-1-1 12-0-0.swlogzp` (its serial, number and date are the row's own).
        if let v = cells["file_name"], let bracket = v.text.firstIndex(of: "[") {
            let model = String(v.text[..<bracket]).trimmingWhitespace()
            if !model.isEmpty, model.count <= 64 {
                var device = rec.device ?? Device()
                device.model = model
                rec.device = device
                consumed.insert("file_name")
            }
        }
        defer { columns.account(ordered, table: "log_data", rowid: rowid, consumed: consumed) }
        guard let format = cells["format"]?.text, format.lowercased() == "sw-pnf" else {
            report(.dropped, "log-format-unknown",
                   "log_data.format is \(cells["format"].map { "\"\($0.text)\"" } ?? "absent"), not sw-pnf, the one log format this reader decodes; the log is not carried",
                   path: "log_data.format", row: rowid)
            return (false, nil)
        }
        consumed.insert("format")
        guard let blob: Data = row["data_bytes_1"], !blob.isEmpty else {
            report(.absent, "log-absent", "log_data.data_bytes_1 is empty: the dive has no computer log", path: "log_data.data_bytes_1", row: rowid)
            return (false, nil)
        }
        consumed.insert("data_bytes_1")
        let log: PetrelNativeLog
        do {
            log = try decodePNF([UInt8](blob), row: rowid)
        } catch {
            report(.dropped, "log-unreadable", "log_data.data_bytes_1 cannot be read as a Shearwater log: \(error.message); the dive keeps dive_details's values only",
                   path: "log_data.data_bytes_1", row: rowid)
            return (false, nil)
        }
        let units: ShearwaterUnits = log.imperial ? .imperial : .metric
        apply(log, row: rowid, units: units, into: &dive, recording: &rec)
        return (true, units)
    }

    /// A `data_bytes_1` cell: four bytes stating the log's length (little-endian), then the log
    /// gzip-compressed (Submersion's reader; the decompressed bytes are a PNF log).
    private func decodePNF(_ bytes: [UInt8], row: Int64) throws(PetrelNativeLog.Failure) -> PetrelNativeLog {
        guard bytes.count > 4 else { throw PetrelNativeLog.Failure(message: "it is \(bytes.count) bytes, too short to hold a log") }
        let stated = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        let inflated: [UInt8]
        do {
            inflated = try Gzip.inflate(Array(bytes[4...]), limit: Self.logBytesLimit)
        } catch {
            switch error {
            case .notGzip(let why): throw PetrelNativeLog.Failure(message: "past its length it is not gzip data: \(why)")
            case .corrupt(let why): throw PetrelNativeLog.Failure(message: "its gzip data is damaged (\(why))")
            case .tooLarge(let limit): throw PetrelNativeLog.Failure(message: "it inflates past \(limit >> 20) MiB, more than any dive's log")
            }
        }
        if stated != inflated.count {
            report(.resolved, "log-length-differs", "the log's stated length is \(stated) bytes and it inflates to \(inflated.count); what it inflates to is read",
                   path: "log_data.data_bytes_1", row: row)
        }
        return try PetrelNativeLog(inflated, sampleLimit: samplesPerDive)
    }

    /// The decoded log into the dive: its settings and samples as the shared reading takes them.
    private func apply(_ log: PetrelNativeLog, row: Int64, units: ShearwaterUnits, into dive: inout Dive, recording rec: inout Recording) {
        let spelling = ShearwaterPNFSpelling(file: displayName, row: Int(row))
        var reading = ShearwaterLogReading(spelling: spelling)
        reading.samplesPerDive = samplesPerDive
        var draft = ShearwaterLogDraft()
        let line = Int(row)
        // The log's numbers go to the shared reading as decoded numbers, never as text parsed back.
        func set(_ key: String, _ name: String, _ number: DecimalNumber?) {
            guard let number else { return }
            draft.scalars[key] = ShearwaterValue(name: name, number: number, line: line)
        }
        set("imperialunits", "imperialUnits", DecimalNumber(log.imperial ? 1 : 0))
        set("decomodel", "decoModel", log.decoModel.map(DecimalNumber.init))
        set("gfmin", "gfMin", log.gfLow.map(DecimalNumber.init))
        set("gfmax", "gfMax", log.gfHigh.map(DecimalNumber.init))
        set("vpmbconservatism", "vpmbConservatism", log.conservatism.map(DecimalNumber.init))
        set("startsurfacepressure", "startSurfacePressure", log.surfacePressure.map(DecimalNumber.init))
        set("maxdepth", "maxDepth", log.maxDepth.map { DecimalNumber(significand: Int64($0), exponent: -1) })
        set("maxtime", "maxTime", log.diveTime.map(DecimalNumber.init))
        // The computer's clock, counted from 1970 as if it were UTC: its wall clock (libdivecomputer),
        // so the instant is read at UTC and the offset, which the log does not state, is dropped.
        if let ticks = log.startTicks, var start = DiveDateTime(unixSeconds: Int(ticks), offset: .utc) {
            start.offset = nil
            draft.start = start
            draft.scalars["startdate"] = ShearwaterValue(name: "startDate", text: start.description, line: line)
        }
        let hpccr = log.aiMode == 4
        draft.records.reserveCapacity(log.samples.count + log.freediveSamples.count)
        for (i, s) in log.samples.enumerated() {
            var r = ShearwaterRecord(line: line)
            r.set(.time, DecimalNumber((i + 1) * log.interval))
            r.set(.depth, DecimalNumber(significand: Int64(s.depth), exponent: -1))
            r.set(.temperature, DecimalNumber(PetrelNativeLog.temperature(s.rawTemperature)))
            r.set(.tts, DecimalNumber(s.tts))
            if s.stopDepth == 0 { r.set(.ndl, DecimalNumber(s.ndlOrStopTime)) }
            r.set(.circuit, text: s.isOpenCircuit ? "OC/BO" : s.isSemiClosed ? "SC/BO" : "CC/BO")
            // libdivecomputer reads the ppO2 byte on a rebreather's samples only.
            if !s.isOpenCircuit { r.set(.ppo2, DecimalNumber(significand: Int64(s.ppo2), exponent: -2)) }
            r.set(.o2, DecimalNumber(significand: Int64(s.o2), exponent: -2))
            r.set(.he, DecimalNumber(significand: Int64(s.he), exponent: -2))
            r.set(.cns, DecimalNumber(s.cns))
            if !hpccr {
                for t in 0..<4 {
                    guard let raw = s.tank(t) else { continue }
                    let field = RecordField.tanks[t][0]
                    if let state = Self.tankState(raw) { r.set(field, text: state) } else { r.set(field, DecimalNumber(Int(raw & 0x0FFF) * 2)) }
                }
            }
            draft.records.append(r)
        }
        // The transmitters' names: D… holds diluent, O… oxygen (libdivecomputer).
        for (tank, name) in log.tankNames.enumerated() {
            if name?.first == "D" { reading.tankRoles[tank] = .diluent } else if name?.first == "O" { reading.tankRoles[tank] = .oxygen }
        }
        let freedive = !log.freediveSamples.isEmpty
        if freedive {
            appendFreedive(log, to: &draft, row: row, reading: &reading)
        }
        reading.readSummary(draft, units: units, into: &dive, recording: &rec)
        reading.readRecords(draft, units: units, into: &dive, recording: &rec)
        if freedive { rec.mode = .freedive }
        if !log.bookmarks.isEmpty, rec.profile != nil {
            for b in log.bookmarks { rec.profile?.events.append(Event(time: b * log.interval, type: .bookmark)) }
            rec.profile?.events.sort { $0.time < $1.time }
        }
        for (tank, cylinder) in reading.tankCylinders { tankCylinders[tank] = cylinder }
        findings += reading.findings
        if hpccr, !log.samples.isEmpty {
            report(.dropped, "log-hp-ccr-pressures", "the log is a high-pressure CCR's, whose diluent and oxygen pressures this reader does not decode; not carried",
                   path: ShearwaterPNFSpelling.path, row: row)
        }
        if !log.samples.isEmpty {
            report(.dropped, "log-sample-fields-not-carried",
                   "the log's samples also hold the next stop's depth and time, the setpoint, the oxygen cells' millivolts, the gas time remaining and the transmitters' battery states, which the model has no member for; not carried",
                   path: ShearwaterPNFSpelling.path, row: row)
        }
        if !log.undecoded.isEmpty {
            let list = log.undecoded.sorted { $0.key < $1.key }.map { "0x\(String($0.key, radix: 16, uppercase: true)) ×\($0.value)" }.joined(separator: ", ")
            report(.dropped, "log-records-not-decoded",
                   "the log holds records of types this reader does not decode (\(list)): settings, events and statistics the model has no member for; not carried",
                   path: ShearwaterPNFSpelling.path, row: row)
        }
        if log.samplesOverLimit > 0 {
            report(.dropped, "samples-over-limit", "the log holds \(log.samplesOverLimit) samples past the \(samplesPerDive) a dive keeps; they are not carried",
                   path: ShearwaterPNFSpelling.path, row: row)
        }
    }

    /// Freedive samples carry the absolute pressure: the depth is the pressure above the surface's
    /// over the log's own water density (libdivecomputer's formula), so it is inferred, and said so.
    private func appendFreedive(_ log: PetrelNativeLog, to draft: inout ShearwaterLogDraft, row: Int64, reading: inout ShearwaterLogReading) {
        let base = draft.records.count
        guard let density = log.density, density > 0, let surface = log.surfacePressure, surface > 0 else {
            reading.report(.dropped, "freedive-depth-unknown",
                           "the log's \(log.freediveSamples.count) freedive samples record absolute pressures, and the log states no water density or surface pressure to turn them into depths; their depths are not carried",
                           at: ShearwaterPNFSpelling(file: displayName, row: Int(row)).logLocation)
            for (i, f) in log.freediveSamples.enumerated() {
                var r = ShearwaterRecord(line: Int(row))
                r.set(.time, DecimalNumber((base + i + 1) * log.interval))
                r.set(.temperature, DecimalNumber(significand: Int64(f.temperature), exponent: -1))
                draft.records.append(r)
            }
            return
        }
        for (i, f) in log.freediveSamples.enumerated() {
            var r = ShearwaterRecord(line: Int(row))
            let metres = Double(f.pressure - surface) * 100 / (Double(density) * 9.80665)
            r.set(.time, DecimalNumber((base + i + 1) * log.interval))
            r.set(.depth, DecimalNumber(significand: Int64((max(metres, 0) * 100).rounded(.toNearestOrAwayFromZero)), exponent: -2))
            r.set(.temperature, DecimalNumber(significand: Int64(f.temperature), exponent: -1))
            draft.records.append(r)
        }
        reading.report(.inferred, "freedive-depth-from-pressure",
                       "the log's \(log.freediveSamples.count) freedive samples record absolute pressures; their depths are computed over the log's surface pressure (\(surface) mbar) and water density (\(density) kg/m³)",
                       at: ShearwaterPNFSpelling(file: displayName, row: Int(row)).logLocation)
    }

    /// A transmitter field's state as the XML export spells it; `nil` for a reading (psi, in
    /// 2 psi steps in the low 12 bits).
    static func tankState(_ raw: UInt16) -> String? {
        switch raw {
        case 0xFFFF: return "AI is off"
        case 0xFFFE: return "No comms for 90 seconds"
        case 0xFFFD: return "No comms for 30 seconds"
        case 0xFFFC: return "Transmitter not paired"
        case 0xFFF0...: return "state 0x\(String(raw, radix: 16, uppercase: true))"
        default: return nil
        }
    }

    /// The `dive_logs` and `dive_log_records` columns read: the shared reading's, and the keys.
    static let logColumnsRead = ShearwaterLogDraft.scalarNames.union(["diveid"])
    static let recordColumnsRead = ShearwaterLogDraft.recordNames.union(["id", "divelogid"])

    /// Reads the dive's `dive_logs` row, and its `dive_log_records` rows when `samples` (no
    /// `log_data` log was decoded). Returns the units the row states.
    func readDiveLogs(diveID: String, samples: Bool, into dive: inout Dive, recording rec: inout Recording) throws -> ShearwaterUnits? {
        guard let row = try file.read(table: "dive_logs", { db in
            try Row.fetchOne(db, sql: "SELECT rowid, * FROM dive_logs WHERE diveId = ? ORDER BY rowid LIMIT 1", arguments: [diveID])
        }) else { return nil }
        let rowid: Int64 = row["rowid"] ?? 0
        var draft = ShearwaterLogDraft()
        let cells = shearwaterCells(row, rowid: rowid)
        draft.scalars = shearwaterValues(cells)
        columns.account(cells, table: "dive_logs", rowid: rowid, consumed: Self.logColumnsRead)
        var recordCount = 0
        if tables.contains("dive_log_records") {
            let limit = samplesPerDive
            recordCount = try file.read(table: "dive_log_records") { db in
                let cursor = try Row.fetchCursor(db, sql: "SELECT rowid, * FROM dive_log_records WHERE diveLogId = ? ORDER BY rowid", arguments: [diveID])
                var n = 0
                var keys: [String]?
                while let r = try cursor.next() {
                    n += 1
                    guard samples, n <= limit else { continue }
                    let rid: Int64 = r["rowid"] ?? 0
                    if keys == nil { keys = columnKeys(r) }
                    let cells = shearwaterCells(r, rowid: rid, keys: keys)
                    draft.records.append(ShearwaterRecord(fields: shearwaterValues(cells), line: Int(rid)))
                    columns.account(cells, table: "dive_log_records", rowid: rid, consumed: Self.recordColumnsRead)
                }
                return n
            }
        }
        var reading = ShearwaterLogReading(spelling: ShearwaterTableSpelling(file: displayName, logRow: Int(rowid)))
        reading.samplesPerDive = samplesPerDive
        reading.readsMaxTime = false
        let units = reading.units(draft)
        reading.readSummary(draft, units: units, into: &dive, recording: &rec)
        if samples {
            if recordCount > samplesPerDive {
                reading.report(.dropped, "samples-over-limit", "the dive has \(recordCount) dive_log_records rows, more than the \(samplesPerDive) a dive keeps; the rest are not carried",
                               at: SourceLocation(file: displayName, path: "dive_log_records", row: Int(rowid)))
            }
            // currentTime is milliseconds where the XML export writes these rows; a dive whose
            // records end within ten times its duration in seconds counts seconds instead.
            var scale = 1.0
            if let duration = dive.submergedTime, let last = draft.records.lazy.compactMap({ $0[.time].flatMap { Double($0.text) } }).max(),
               last > 0, last < Double(duration) * 10 {
                scale = 1000
                reading.report(.resolved, "record-time-in-seconds",
                               "the dive's dive_log_records end at currentTime \(Int(last)) for a dive of \(duration) s: their times are read as seconds",
                               at: SourceLocation(file: displayName, path: "dive_log_records.currentTime", row: Int(rowid)))
            }
            reading.readRecords(draft, units: units, msPerTimeUnit: scale, into: &dive, recording: &rec)
            for (tank, cylinder) in reading.tankCylinders { tankCylinders[tank] = cylinder }
        } else if recordCount > 0 {
            reading.report(.dropped, "records-not-read",
                           "the dive's \(recordCount) dive_log_records rows repeat what its log_data log holds, which is read instead; not carried",
                           at: SourceLocation(file: displayName, path: "dive_log_records", row: nil))
        }
        findings += reading.findings
        return units
    }
}
