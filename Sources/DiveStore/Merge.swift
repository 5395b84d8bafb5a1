import DiveCore
import GRDB

/// Merging a dive from another source into the logbook's dive: its recordings are added
/// beside the logbook's (each keeps its own profile), its tanks and gases are matched to the
/// dive's or added — never lost — and what the logbook's dive does not record it takes from
/// the new one. What both record is left as the logbook has it.
struct Merge {
    let db: Database

    /// Merges `dive` into the logbook's dive `id`; its recordings are attributed to `source`
    /// unless a umilog export names their file (nil: to no file).
    func merge(_ dive: Dive, into id: String, source: Int64?, writer: inout RowWriter) throws {
        // Tanks: the same gas in a tank of the same size (or one whose size is not recorded)
        // is the same tank; a tank whose gas one source did not record is the one in its place,
        // else the first that fits. Start pressures more than 10 bar apart are two tanks.
        let existing = try Row.fetchAll(db, sql: "SELECT position, volume, oxygen, helium, gas_number, start_pressure FROM cylinder WHERE dive_id = ? ORDER BY position", arguments: [id])
        var used = Set<Int>()
        var numbers = Set(existing.compactMap { $0["gas_number"] as Int? })
        var nextPosition = (existing.map { $0["position"] as Int }.max() ?? -1) + 1
        var gasMap: [Int: Int] = [:]
        /// A gas number the dive's tanks do not use yet: `wanted` when free, else the one after
        /// the highest (or, when that is the highest an integer can be, the lowest free one).
        func fresh(_ wanted: Int) -> Int {
            var n = wanted
            if numbers.contains(n) {
                if let top = numbers.max(), top < Int.max { n = top + 1 } else {
                    n = 0
                    while numbers.contains(n) { n += 1 }
                }
            }
            numbers.insert(n)
            return n
        }
        for (k, c) in dive.cylinders.enumerated() {
            func compatible(_ row: Row) -> Bool {
                let p: Int = row["position"], volume: Double? = row["volume"]
                guard !used.contains(p), volume == nil || c.volume == nil || volume == c.volume else { return false }
                guard let a = row["start_pressure"] as Double?, let b = c.startPressure else { return true }
                return abs(a - b) <= 10
            }
            func sameGas(_ row: Row) -> Bool {
                let o2: Double? = row["oxygen"], he: Double? = row["helium"]
                return o2 == c.oxygen && (he ?? 0) == (c.helium ?? 0)
            }
            func unknownGas(_ row: Row) -> Bool { c.oxygen == nil || (row["oxygen"] as Double?) == nil }
            let match = existing.first { compatible($0) && c.oxygen != nil && sameGas($0) }
                ?? existing.first { compatible($0) && unknownGas($0) && ($0["position"] as Int) == k }
                ?? existing.first { compatible($0) && unknownGas($0) }
            if let row = match {
                let p: Int = row["position"]
                used.insert(p)
                var number: Int? = row["gas_number"]
                if let from = c.gasNumber {
                    if number == nil { number = fresh(from) }
                    gasMap[from] = number
                }
                try db.write("""
                    UPDATE cylinder SET volume = coalesce(volume, ?), start_pressure = coalesce(start_pressure, ?), end_pressure = coalesce(end_pressure, ?),
                      oxygen = coalesce(oxygen, ?), helium = coalesce(helium, ?), ppo2_limit = coalesce(ppo2_limit, ?), gas_number = ?,
                      role = coalesce(role, ?), usage = coalesce(usage, ?), gear_id = coalesce(gear_id, ?), gas_name = coalesce(gas_name, ?)
                    WHERE dive_id = ? AND position = ?
                    """, [c.volume, c.startPressure, c.endPressure, c.oxygen, c.oxygen == nil ? nil : c.helium, c.ppo2Limit, number,
                          c.role?.rawValue, c.usage?.rawValue, c.gearUUID, c.gasNameSaysMore ? c.gasName : nil, id, p])
                if c.extensions != nil {
                    writer.report(dive, "store.merge-extensions-not-carried", "the extensions of cylinder \(k + 1) of the merged source are not kept: the logbook's tank \(p + 1) stands for it")
                }
            } else {
                var copy = c
                if let from = c.gasNumber {
                    copy.gasNumber = fresh(from)
                    gasMap[from] = copy.gasNumber
                }
                try writer.insertCylinder(copy, dive: id, position: nextPosition)
                nextPosition += 1
            }
        }
        // Recordings, their gas numbers renumbered to the dive's tanks.
        var recordings = dive.recordings
        for r in recordings.indices {
            guard var p = recordings[r].profile else { continue }
            for k in p.pressures.indices { p.pressures[k].gasNumber = gasMap[p.pressures[k].gasNumber] ?? p.pressures[k].gasNumber }
            for k in p.events.indices { if let g = p.events[k].gasNumber { p.events[k].gasNumber = gasMap[g] ?? g } }
            recordings[r].profile = p
        }
        var parts = Dive(uuid: id, startedAt: nil)
        parts.provenance = dive.provenance
        parts.recordings = recordings
        // People, gear and sightings the logbook's dive does not have yet.
        let people = Set(try String.fetchAll(db, sql: "SELECT person_id FROM dive_person WHERE dive_id = ?", arguments: [id]))
        parts.people = dive.people.filter { !people.contains($0.personUUID) }
        let gear = Set(try String.fetchAll(db, sql: "SELECT gear_id FROM dive_gear WHERE dive_id = ?", arguments: [id]))
        parts.gearUUIDs = dive.gearUUIDs.filter { !gear.contains($0) }
        // A sighting of a species the dive has, as logged or as resolved, is the same sighting.
        let species = Set(try String.fetchAll(db, sql: "SELECT species_id FROM sighting WHERE dive_id = ? UNION SELECT logged_species_id FROM sighting WHERE dive_id = ?", arguments: [id, id]))
        parts.sightings = dive.sightings.filter { s in
            let logged = LogbookState.members(of: s.extensions)["logged_species_uuid"]?.string
            return !species.contains(s.speciesUUID) && !(logged.map(species.contains) ?? false)
        }
        try writer.insertParts(of: parts, appending: true, source: source)
        // What the logbook's dive does not record: a start time only on the same day, with its
        // offset and key; a position as a pair.
        let columns = RowWriter.columns(of: dive).filter { !["date", "tags"].contains($0.0) }
        let assignments = columns.map { (name, _) -> String in
            switch name {
            case "utc_offset", "start_key": return "\(name) = CASE WHEN start_time IS NULL AND date = ? THEN ? ELSE \(name) END"
            case "start_time": return "start_time = CASE WHEN start_time IS NULL AND date = ? THEN ? ELSE start_time END"
            case "entry_lon", "exit_lon":
                let lat = name.replacingOccurrences(of: "lon", with: "lat")
                return "\(name) = CASE WHEN \(lat) IS NULL THEN ? ELSE \(name) END"
            default: return "\(name) = coalesce(\(name), ?)"
            }
        }
        var arguments: [(any DatabaseValueConvertible)?] = []
        for (name, value) in columns {
            if ["utc_offset", "start_key", "start_time"].contains(name) { arguments.append(dive.startedAt?.date.description) }
            arguments.append(value)
        }
        try db.write("UPDATE dive SET \(assignments.joined(separator: ", ")) WHERE id = ?", arguments + [id])
        if try RowWriter.detail(of: dive) != nil {
            writer.report(dive, "store.merge-detail-not-carried", "what the merged source records beyond the logbook's columns (its extensions, a course, a contact, other sites) is not added to the logbook's dive")
        }
        if !dive.tags.isEmpty {
            try db.write("""
                UPDATE dive SET tags = (SELECT json_group_array(value) FROM (SELECT value FROM json_each(dive.tags) UNION SELECT value FROM json_each(?)))
                WHERE id = ?
                """, [RowWriter.json(dive.tags), id])
        }
    }
}
