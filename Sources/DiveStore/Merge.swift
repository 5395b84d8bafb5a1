import DiveCore
import GRDB

/// Merging a dive from another source into the logbook's dive: its recordings are added
/// beside the logbook's (each keeps its own profile), its tanks and gases are matched to the
/// dive's or added — never lost — and what the logbook's dive does not record it takes from
/// the new one. What both record is left as the logbook has it.
struct Merge {
    let db: Database

    func merge(_ dive: Dive, into id: String, source: Int64, writer: inout RowWriter) throws {
        // Tanks: the same gas in a tank of the same size (or one whose size is not recorded)
        // is the same tank.
        let existing = try Row.fetchAll(db, sql: "SELECT position, volume, oxygen, helium, gas_number FROM cylinder WHERE dive_id = ? ORDER BY position", arguments: [id])
        var used = Set<Int>()
        var numbers = Set(existing.compactMap { $0["gas_number"] as Int? })
        var nextPosition = (existing.map { $0["position"] as Int }.max() ?? -1) + 1
        var gasMap: [Int: Int] = [:]
        var added: [Cylinder] = []
        let existingRows = try Row.fetchAll(db, sql: "SELECT position, start_pressure FROM cylinder WHERE dive_id = ? ORDER BY position", arguments: [id])
        let startPressures = Dictionary(uniqueKeysWithValues: existingRows.map { ($0["position"] as Int, $0["start_pressure"] as Double?) })
        for (k, c) in dive.cylinders.enumerated() {
            func compatible(_ row: Row) -> Bool {
                let p: Int = row["position"], volume: Double? = row["volume"]
                guard !used.contains(p), volume == nil || c.volume == nil || volume == c.volume else { return false }
                guard let a = startPressures[p] ?? nil, let b = c.startPressure else { return true }
                return abs(a - b) <= 10
            }
            // The same gas in a tank of the same size is the same tank; a tank whose gas the
            // new source did not record is the one in its place, else the first that fits.
            let match: Row?
            if c.oxygen != nil {
                match = existing.first { row in
                    let o2: Double? = row["oxygen"], he: Double? = row["helium"]
                    return compatible(row) && o2 == c.oxygen && (he ?? 0) == (c.helium ?? 0)
                }
            } else {
                match = existing.first { compatible($0) && ($0["position"] as Int) == k } ?? existing.first(where: compatible)
            }
            if let row = match {
                let p: Int = row["position"]
                used.insert(p)
                try db.execute(sql: """
                    UPDATE cylinder SET volume = coalesce(volume, ?), start_pressure = coalesce(start_pressure, ?), end_pressure = coalesce(end_pressure, ?),
                      ppo2_limit = coalesce(ppo2_limit, ?), role = coalesce(role, ?), usage = coalesce(usage, ?), gear_id = coalesce(gear_id, ?), gas_name = coalesce(gas_name, ?)
                    WHERE dive_id = ? AND position = ?
                    """, arguments: [c.volume, c.startPressure, c.endPressure, c.ppo2Limit, c.role?.rawValue, c.usage?.rawValue, c.gearUUID, c.gasNameSaysMore ? c.gasName : nil, id, p])
                if let from = c.gasNumber {
                    if let to = row["gas_number"] as Int? { gasMap[from] = to } else if !numbers.contains(from) {
                        try db.execute(sql: "UPDATE cylinder SET gas_number = ? WHERE dive_id = ? AND position = ?", arguments: [from, id, p])
                        numbers.insert(from)
                        gasMap[from] = from
                    }
                }
            } else {
                var copy = c
                if let from = c.gasNumber {
                    let to = numbers.contains(from) ? (numbers.max() ?? -1) + 1 : from
                    numbers.insert(to)
                    gasMap[from] = to
                    copy.gasNumber = to
                }
                try writer.insertCylinder(copy, dive: id, position: nextPosition)
                nextPosition += 1
                added.append(copy)
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
        parts.recordings = recordings
        // People, gear and sightings the logbook's dive does not have yet.
        let people = Set(try String.fetchAll(db, sql: "SELECT person_id FROM dive_person WHERE dive_id = ?", arguments: [id]))
        parts.people = dive.people.filter { !people.contains($0.personUUID) }
        let gear = Set(try String.fetchAll(db, sql: "SELECT gear_id FROM dive_gear WHERE dive_id = ?", arguments: [id]))
        parts.gearUUIDs = dive.gearUUIDs.filter { !gear.contains($0) }
        let species = Set(try String.fetchAll(db, sql: "SELECT logged_species_id FROM sighting WHERE dive_id = ?", arguments: [id]))
        parts.sightings = dive.sightings.filter { !species.contains($0.speciesUUID) }
        try writer.insertParts(of: parts, cylinders: [], source: source)
        // What the logbook's dive does not record.
        let start = dive.startedAt
        try db.execute(sql: """
            UPDATE dive SET number = coalesce(number, ?), site_id = coalesce(site_id, ?), start_time = coalesce(start_time, ?),
              utc_offset = coalesce(utc_offset, CASE WHEN start_time IS NULL OR start_time = ? THEN ? END),
              max_depth = coalesce(max_depth, ?), avg_depth = coalesce(avg_depth, ?), bottom_time = coalesce(bottom_time, ?),
              water_temperature = coalesce(water_temperature, ?), air_temperature = coalesce(air_temperature, ?),
              visibility = coalesce(visibility, ?), weight = coalesce(weight, ?), notes = coalesce(notes, ?), trip_id = coalesce(trip_id, ?),
              entry_lat = coalesce(entry_lat, ?), entry_lon = CASE WHEN entry_lat IS NULL THEN ? ELSE entry_lon END
            WHERE id = ?
            """, arguments: [dive.number, dive.siteUUIDs.first, start?.time?.description, start?.time?.description, start?.offset?.description,
                             dive.maxDepth, dive.avgDepth, dive.submergedTime, dive.bottomTemperature, dive.airTemperature,
                             dive.visibility, dive.weight, dive.notes, dive.tripUUID,
                             dive.entryPosition?.latitude, dive.entryPosition?.longitude, id])
        if !dive.tags.isEmpty {
            try db.execute(sql: """
                UPDATE dive SET tags = (SELECT json_group_array(value) FROM (SELECT value FROM json_each(dive.tags) UNION SELECT value FROM json_each(?)))
                WHERE id = ?
                """, arguments: [RowWriter.json(dive.tags), id])
        }
    }
}
