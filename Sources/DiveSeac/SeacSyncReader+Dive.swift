import DiveCore
internal import GRDB

/// One `headers_dive` row and its `dive_data` rows as a dive.
extension SeacSyncReader {
    func dive(from row: Row, rowid: Int64) throws -> Dive {
        // One walk over the row: every non-empty cell by its lowercased column name; what the
        // dive does not consume is counted as not carried at the end.
        var cells: [String: (name: String, cell: SeacCell)] = [:]
        var order: [String] = []
        for (column, value) in row where column != "umilog_rowid" {
            guard let cell = SeacCell(value) else { continue }
            let key = column.lowercased()
            if cells[key] == nil { order.append(key) }
            cells[key] = (column, cell)
        }
        var consumed: Set<String> = []
        func take(_ key: String) -> SeacCell? {
            consumed.insert(key)
            return cells[key]?.cell
        }
        func path(_ key: String) -> String { "headers_dive.\(cells[key]?.name ?? key)" }

        let id = take("dive_id")
        let uuid = id.map { Identity.uuid(kind: "dive", sourceID: $0.text, namespace: SeacSync.namespace) }
            ?? Identity.uuid5(namespace: SeacSync.namespace, name: "dive:#\(index)")
        var dive = Dive(uuid: uuid, startedAt: nil)
        dive.provenance = Provenance(format: "seac-sync", file: displayName, sourceID: id?.text, index: index, line: nil, positionalIdentity: id == nil)
        var rec = Recording()
        var device = Device()
        device.brand = "Seac"
        if let v = take("device_sn") { device.serial = String(v.text.prefix(64)) }
        if let v = take("firmware_version") { device.firmware = String(v.text.prefix(64)) }
        let counter = take("dive_number")
        if let v = counter {
            if let n = v.int, n >= 1, n < 1_000_000_000 { device.diveNumber = n } else {
                outOfRange.count("headers_dive", cells["dive_number"]!.name, v, row: rowid, why: "the computer's dive counter")
            }
        }
        rec.device = device

        readStart(take("date"), take("time"), take("timezone"), into: &dive, row: rowid, path: path)
        if let v = take("created_at") {
            if let t = SeacSync.createdAt(v.text) { dive.createdAt = t } else {
                report(.dropped, "created-at-invalid", "created_at \"\(v.text)\" is not a day, a time and UTC; not carried", path: path("created_at"), row: rowid)
            }
        }
        let depths = SummaryDepths(max: take("max_depth")?.int.map { DecimalNumber($0).shifted(by: -2) },
                                   mean: take("average_depth")?.int.map { DecimalNumber($0).shifted(by: -2) },
                                   maxName: "max_depth", meanName: "average_depth")
        dive.maxDepth = depths.max
        dive.avgDepth = depths.mean
        for f in depths.findings { report(f.kind, f.code, f.message, path: path(f.member == .max ? "max_depth" : "average_depth"), row: rowid) }
        for key in ["max_depth", "average_depth"] where cells[key] != nil && cells[key]?.cell.int == nil {
            outOfRange.count("headers_dive", cells[key]!.name, cells[key]!.cell, row: rowid, why: "a depth in cm")
        }
        if let v = take("min_temperature") {
            if let c = v.int, (-500...5000).contains(c) { dive.bottomTemperature = DecimalNumber(c).shifted(by: -2).doubleValue } else {
                outOfRange.count("headers_dive", cells["min_temperature"]!.name, v, row: rowid, why: "the coldest water in 1/100 °C")
            }
        }
        if let v = take("dive_type") {
            switch v.int {
            case 1: rec.mode = .openCircuit; dive.type = .openCircuit
            case 2: rec.mode = .gauge
            case 3: rec.mode = .freedive; dive.type = .freedive
            default:
                report(.dropped, "dive-type-unknown", "dive_type \(v.text) is none of 1 (open circuit), 2 (gauge) or 3 (freedive); not carried", path: path("dive_type"), row: rowid)
            }
        }
        if let v = take("comment") { dive.notes = v.text }

        var samplesRead: Int?
        if hasSamples, let diveID = id?.int {
            samplesRead = try readSamples(diveID: diveID, counter: counter?.int, into: &dive, recording: &rec)
        }
        // The dive's length in seconds by the file's other readings, to read total_dive_time by:
        // the profile's last sample, else the computer's clock from start to end (date_end and
        // time_end, still reported as not carried: the model has no end).
        var reference: (seconds: Int, said: String)?
        if let end = rec.profile.map({ $0.duration / 1000 }) {
            reference = (end, "the profile's last sample at \(end) s agrees")
        } else if let date = cells["date"]?.cell.text, let time = cells["time"]?.cell.text,
                  let endDate = cells["date_end"]?.cell.text, let endTime = cells["time_end"]?.cell.text,
                  let start = SeacSync.utcSeconds(date: date, time: time), let end = SeacSync.utcSeconds(date: endDate, time: endTime), end > start {
            reference = (end - start, "the clock from time to time_end, \(end - start) s, agrees")
        }
        readDiveTime(take("total_dive_time"), reference: reference, into: &dive, row: rowid, path: path("total_dive_time"))
        if let v = take("sample_number"), let read = samplesRead, v.int != read {
            report(.dropped, "sample-count-differs", "sample_number says \(v.text) samples and dive_data holds \(read) for the dive; the rows are read",
                   path: path("sample_number"), row: rowid)
        }
        for key in order where !consumed.contains(key) {
            notCarried.count("headers_dive", cells[key]!.name, cells[key]!.cell, row: rowid, why: SeacSync.meaning(SeacSync.diveTable, key))
        }
        if rec.hasContent { dive.recordings = [rec] }
        return dive
    }

    /// `date` and `time` (the computer's UTC clock, `d/m/yy` and `hh:mm:ss`) and `timezone` (an
    /// index into the computer's zones): the start as the diver's wall clock with its offset.
    private func readStart(_ date: SeacCell?, _ time: SeacCell?, _ zone: SeacCell?, into dive: inout Dive, row: Int64, path: (String) -> String) {
        guard let date, let time else {
            report(.absent, "start-absent", "the dive's row records no \(date == nil ? "date" : "time"); it has no start", path: path(date == nil ? "date" : "time"), row: row)
            return
        }
        guard let utc = SeacSync.utcSeconds(date: date.text, time: time.text) else {
            report(.dropped, "start-invalid", "date \"\(date.text)\" and time \"\(time.text)\" are not a day (d/m/yy) and a time (hh:mm:ss); the dive has no start",
                   path: path("date"), row: row)
            return
        }
        if let i = zone?.int, SeacSync.zoneMinutes.indices.contains(i) {
            dive.startedAt = DiveDateTime(unixSeconds: utc, offset: .minutes(SeacSync.zoneMinutes[i]))
        } else {
            // The clock is UTC whatever the zone: the instant stands, the diver's wall clock is unknown.
            dive.startedAt = DiveDateTime(unixSeconds: utc, offset: .utc)
            let said = zone.map { "timezone \($0.text) is no index of the computer's zones (0 to \(SeacSync.zoneMinutes.count - 1))" } ?? "the row records no timezone"
            report(.resolved, "zone-unknown", "\(said); the start is given in UTC, as the computer's clock keeps it", path: path("timezone"), row: row)
        }
    }

    /// `total_dive_time`: the dive's length. The files met hold 256 times the seconds of the
    /// profile (196101 for 766 s); Subsurface reads it as seconds. Whichever reading `reference`
    /// (the profile's end, else the clock's) agrees with is taken; with neither, a figure of ten
    /// hours or more is taken for no dive's seconds and is divided by 256. A reading not in seconds, or unchecked,
    /// is said.
    private func readDiveTime(_ v: SeacCell?, reference: (seconds: Int, said: String)?, into dive: inout Dive, row: Int64, path: String) {
        guard let v else { return }
        guard let raw = v.int, raw > 0 else {
            outOfRange.count("headers_dive", "total_dive_time", v, row: row, why: "the dive's length")
            return
        }
        let scaled = (raw + 128) / 256
        let seconds: Int
        var scaledRule: String?
        if let reference {
            let tolerance = max(60, reference.seconds / 20)
            if abs(raw - reference.seconds) <= tolerance {
                seconds = raw
            } else if abs(scaled - reference.seconds) <= tolerance {
                seconds = scaled
                scaledRule = reference.said
            } else {
                report(.dropped, "dive-time-differs",
                       "total_dive_time \(raw) is \(reference.seconds) s neither as seconds nor as 256ths of a second (\(scaled) s), as the profile or the clock say the dive lasted; not carried",
                       path: path, row: row)
                return
            }
        } else if raw >= 36_000 {
            seconds = scaled
            scaledRule = "ten hours or more is taken for no dive's length; neither a profile nor an end time checks it"
        } else {
            seconds = raw
            report(.resolved, "dive-time-unchecked", "total_dive_time \(raw) is read as seconds; neither a profile nor an end time checks it", path: path, row: row)
        }
        if let scaledRule {
            report(.resolved, "dive-time-scaled", "total_dive_time \(raw) is not seconds: read as 256ths of a second, \(seconds) s (\(scaledRule))", path: path, row: row)
        }
        guard InputLimits.Range.diveSeconds.contains(DecimalNumber(seconds)) else {
            outOfRange.count("headers_dive", "total_dive_time", v, row: row, why: "the dive's length")
            return
        }
        dive.submergedTime = seconds
    }
}
