import DiveCore
internal import GRDB

/// A dive's `dive_data` rows as its profile, gases and gradient factors.
extension SeacSyncReader {
    /// Reads the rows of `dive_data` whose `dive_id` is `diveID`, in `runtime_s` order, one at a
    /// time; returns how many rows there were.
    func readSamples(diveID: Int, counter: Int?, into dive: inout Dive, recording rec: inout Recording) throws -> Int {
        var draft = SeacProfileDraft()
        let table = SeacSync.sampleTable
        var rows = 0
        try file.read(table: table) { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM dive_data WHERE dive_id = ? ORDER BY runtime_s, data_id", arguments: [diveID])
            var keys: [String]?
            while let row = try cursor.next() {
                rows += 1
                let names = keys ?? row.columnNames.map { $0.lowercased() }
                keys = names
                guard draft.kept < samplesPerDive else { draft.overLimit += 1; continue }
                sample(row, keys: names, counter: counter, into: &draft)
            }
        }
        if draft.overLimit > 0 {
            report(.dropped, "samples-truncated", "dive_id \(diveID) has more than \(samplesPerDive) samples; the last \(draft.overLimit) are not read",
                   path: "\(table).dive_id", row: nil)
        }
        if let same = draft.sameTime {
            report(.dropped, "sample-duplicate-time",
                   "\(same.count) row\(same.count == 1 ? "" : "s") of dive_id \(diveID), the first row \(same.first), repeat an earlier row's runtime_s; the earlier row (by data_id) of each instant is kept",
                   path: "\(table).runtime_s", row: same.first)
        }
        if let n = draft.timeless {
            report(.dropped, "sample-time-absent", "\(n.count) row\(n.count == 1 ? "" : "s") of the dive, the first row \(n.first), have no runtime_s; not read",
                   path: "\(table).runtime_s", row: n.first)
        }
        if draft.gases.isEmpty, rows > 0 {
            report(.absent, "gas-absent", "no sample of dive_id \(diveID) records active_O2_fr: its gas is not known", path: "\(table).active_O2_fr", row: nil)
        }
        dive.cylinders = draft.gases.enumerated().map { i, o2 in
            var c = Cylinder()
            c.oxygen = Double(o2)
            if draft.gases.count > 1 { c.gasNumber = i }
            return c
        }
        if let low = draft.gfLow, let high = draft.gfHigh {
            var model = DecoModel()
            model.algorithm = "buhlmann"
            model.gfLow = low
            model.gfHigh = high
            rec.decoModel = model
        }
        let ch = draft.profile
        if !ch.isEmpty {
            var p = Profile()
            p.depth = ch.depth.isEmpty ? nil : ch.depth
            p.temperature = ch.temperature.isEmpty ? nil : ch.temperature
            p.ndl = ch.ndl.isEmpty ? nil : ch.ndl
            p.cns = ch.cns.isEmpty ? nil : ch.cns
            p.events = ch.events
            p.duration = draft.lastTime.map { $0 * 1000 } ?? 0
            rec.profile = p
        }
        return rows
    }

    /// One row: each cell by its column, carried or counted.
    private func sample(_ row: Row, keys: [String], counter: Int?, into d: inout SeacProfileDraft) {
        let table = SeacSync.sampleTable
        var cells: [(key: String, name: String, cell: SeacCell)] = []
        var rowID: Int64 = 0
        var t: Int?
        for (i, (column, value)) in row.enumerated() {
            guard let cell = SeacCell(value) else { continue }
            switch keys[i] {
            case "data_id": rowID = Int64(cell.int ?? 0)
            case "runtime_s": t = cell.int
            default: cells.append((keys[i], column, cell))
            }
        }
        guard let t, t >= 0, t <= 864_000 else {
            d.timeless = d.timeless.map { ($0.count + 1, $0.first) } ?? (1, rowID)
            return
        }
        if let last = d.lastTime, last == t {
            d.sameTime = d.sameTime.map { ($0.count + 1, $0.first) } ?? (1, rowID)
            return
        }
        d.lastTime = t
        d.kept += 1
        let ms = t * 1000
        let stopDepth = cells.first { $0.key == "first_stop_depth_cm" }?.cell.int ?? 0
        func outside(_ c: (key: String, name: String, cell: SeacCell), _ what: String) {
            outOfRange.count(table, c.name, c.cell, row: rowID, why: what)
        }
        for c in cells {
            let v = c.cell.int
            switch c.key {
            case "dive_id":
                break // the dive's key, which selected the row
            case "dive_number" where v == counter:
                break // the dive's counter again
            case "depth_cm":
                if let v, (-10_000...1_100_000).contains(v) { d.profile.depth.append(ms, v) } else { outside(c, "a depth in cm") }
            case "temperature_mcx10":
                if let v, (-500...5000).contains(v) { d.profile.temperature.append(ms, v) } else { outside(c, "a water temperature in 1/100 °C") }
            case "active_o2_fr":
                guard let v, (1...100).contains(v) else { outside(c, "the breathed gas's oxygen in percent"); continue }
                if d.lastO2 != v {
                    let index = d.gases.firstIndex(of: v) ?? { d.gases.append(v); return d.gases.count - 1 }()
                    if d.lastO2 != nil { d.profile.events.append(Event(time: ms, type: .gasSwitch, gasNumber: index)) }
                    d.lastO2 = v
                }
            case "ndl_tts_s" where stopDepth == 0:
                if let v, (0...864_000).contains(v) { d.profile.ndl.append(ms, v) } else { outside(c, "a no-decompression time in seconds") }
            case "cns":
                if let v, (0...1000).contains(v) { d.profile.cns.append(ms, v * 10) } else { outside(c, "a CNS percentage") }
            case "first_stop_depth_cm" where v == 0, "first_stop_time_s" where v == 0:
                break // no stop shown
            case "gf_l" where d.gfLow == nil || d.gfLow == v:
                if let v, (1...100).contains(v) { d.gfLow = v } else { outside(c, "a low gradient factor in percent") }
            case "gf_h" where d.gfHigh == nil || d.gfHigh == v:
                if let v, (1...100).contains(v) { d.gfHigh = v } else { outside(c, "a high gradient factor in percent") }
            default:
                notCarried.count(table, c.name, c.cell, row: rowID, why: SeacSync.meaning(table, c.key))
            }
        }
    }
}

/// A dive's samples as they are read.
struct SeacProfileDraft {
    var profile = SeacChannels()
    /// Oxygen percentages in the order the dive first breathed them; the last sample's.
    var gases: [Int] = []
    var lastO2: Int?
    var gfLow: Int?
    var gfHigh: Int?
    var lastTime: Int?
    var kept = 0
    var overLimit = 0
    var sameTime: (count: Int, first: Int64)?
    var timeless: (count: Int, first: Int64)?
}

/// The channels a Seac sample fills, in the model's integer scales.
struct SeacChannels {
    var depth = Series()
    var temperature = Series()
    var ndl = Series()
    var cns = Series()
    var events: [Event] = []

    var isEmpty: Bool { depth.isEmpty && temperature.isEmpty && ndl.isEmpty && cns.isEmpty && events.isEmpty }
}
