import DiveCore
internal import DiveSQLite

/// The identity namespace, the sniff and the clock of a Seac Sync database (the SQLite file the
/// Seac Sync app keeps a Seac Action's or Screen's dives in: `headers_dive` and `dive_data`).
/// By `docs/seac-sync-mapping.md`.
public enum SeacSync {
    /// `uuid5(NAMESPACE_URL, "https://umilog.example/ns/seac_sync")`: frozen (DiveJSON names no
    /// namespace for this format; changing it would renumber every dive read from one).
    public static let namespace = "4d922609-6903-5ecf-a78d-829521710b5c"

    /// The table of dives and the table of their samples.
    static let diveTable = "headers_dive"
    static let sampleTable = "dive_data"

    /// SQLite's magic and the CREATE TABLE text of both Seac tables in the file's first bytes
    /// (SQLite keeps its schema as SQL text in its first pages): any other SQLite file is left to
    /// the generic `sqlite` entry, and the reader confirms the tables through SQLite.
    public static func sniff(_ input: SniffInput) -> SniffConfidence {
        SQLiteLogbookFile.sniff(input.bytes, containing: ["CREATE TABLE \(diveTable)", "CREATE TABLE \(sampleTable)"]) ? .certain : .none
    }

    /// `headers_dive.timezone`, an index into the computer's table of zones, as minutes east of
    /// UTC: 0 is UTC−12, 15 UTC, 41 UTC+14 (libdivecomputer's `seac_screen_parser.c`, which
    /// reads the same index from the computer's memory).
    static let zoneMinutes: [Int] = [
        -720, -660, -600, -570, -540, -480, -420, -360, -300, -270, -240, -210, -180, -120, -60,
        0, 60, 120, 180, 210, 240, 270, 300, 330, 345, 360, 390, 420, 480, 525, 540, 570, 585,
        600, 630, 660, 690, 720, 765, 780, 825, 840,
    ]

    /// `headers_dive.date` and `.time`: the computer's UTC clock as the app writes it, `d/m/yy`
    /// (day first, two-digit year after 2000; a four-digit year is taken as written) and
    /// `hh:mm:ss`. `nil` when either is not in that form or names no real day or time.
    static func utcSeconds(date: String, time: String) -> Int? {
        let d = date.split(separator: "/", omittingEmptySubsequences: false)
        let t = time.split(separator: ":", omittingEmptySubsequences: false)
        guard d.count == 3, t.count == 3,
              let day = Int(d[0]), let month = Int(d[1]), let y = Int(d[2]), d[2].count == 2 || d[2].count == 4,
              let hour = Int(t[0]), let minute = Int(t[1]), let second = Int(t[2]),
              let local = LocalDate(year: d[2].count == 2 ? 2000 + y : y, month: month, day: day),
              let clock = TimeOfDay(hour: hour, minute: minute, second: second) else { return nil }
        return DiveDateTime(date: local, time: clock).wallClockSeconds
    }

    /// `headers_dive.created_at`, `21 Jul 2020 at 19:04:00 UTC`: when the app stored the dive.
    static func createdAt(_ text: String) -> DiveDateTime? {
        let w = text.split(separator: " ")
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard w.count == 6, w[3] == "at", w[5] == "UTC" || w[5] == "GMT",
              let day = Int(w[0]), let m = months.firstIndex(of: w[1].prefix(3).lowercased()), let year = Int(w[2]), w[2].count == 4 else { return nil }
        let t = w[4].split(separator: ":")
        guard t.count == 3, let h = Int(t[0]), let mi = Int(t[1]), let s = Int(t[2]),
              let date = LocalDate(year: year, month: m + 1, day: day), let time = TimeOfDay(hour: h, minute: mi, second: s) else { return nil }
        return DiveDateTime(date: date, time: time, offset: .utc)
    }
}

extension SeacSync {
    /// What a column the reader does not carry holds, for its `seac-sync.not-carried` finding
    /// (`docs/seac-sync-mapping.md` gives each its source); a column the mapping does not know
    /// is said to be one.
    static func meaning(_ table: String, _ column: String) -> String {
        if table == sampleTable, column.hasPrefix("tissue"), column.hasSuffix("_n2_mb"),
           let n = Int(column.dropFirst("tissue".count).dropLast("_n2_mb".count)) {
            return "tissue compartment \(n)'s nitrogen pressure in mbar"
        }
        return meanings[column] ?? "a column this reader does not know"
    }

    private static let meanings: [String: String] = [
        "start_address": "the computer's memory address of the dive's record",
        "elapsed_surface_time": "the surface interval before the dive in seconds",
        "residual_desat_time": "the desaturation time left as the dive began, seconds",
        "residual_nofly_time": "the no-fly time left as the dive began, seconds",
        "new_desat_time": "the desaturation time after the dive, seconds",
        "new_nofly_time": "the no-fly time after the dive, seconds",
        "start_mode": "how the dive was started (codes not documented)",
        "water_type": "the water setting (150 for fresh and salt water alike in the dives Subsurface met; codes not documented)",
        "safety_stop_dm": "the safety stop's depth setting in decimetres",
        "safety_stop_min": "the safety stop's length setting in minutes",
        "date_end": "the computer's UTC date at the dive's end",
        "time_end": "the computer's UTC time at the dive's end",
        "allowed_altitude": "an altitude figure (unit and meaning not documented)",
        "max_temperature": "the warmest water of the dive in 1/100 °C",
        "start_active_o2": "a gas setting at the start (1 in every dive met; not an oxygen percentage)",
        "deco_violation": "the decompression violation the computer recorded",
        "suggested_o2_fr": "the oxygen percentage the computer suggests (meaning not documented)",
        "first_stop_depth_cm": "the first decompression stop's depth in cm",
        "first_stop_time_s": "the first decompression stop's time in seconds",
        "ndl_tts_s": "the NDL or TTS while a stop is shown (which of the two is not documented)",
        "gf_l": "a low gradient factor other than the dive's first",
        "gf_h": "a high gradient factor other than the dive's first",
        "dive_number": "a dive counter other than its dive's",
    ]
}
