import DiveCore

/// The database's profile: five columns of fixed-width digit records, record *i* of each the
/// sample at *i* × `ProfileInt` seconds (layouts read from Subsurface's `core/import-divinglog.c`,
/// `docs/divinglog-mapping.md`):
///
/// | column | width | layout |
/// | --- | --- | --- |
/// | `Profile` | 12 | `DDDDD` depth, cm; `C` in deco; `R` RBT warning; `A` ascent warning; `S` deco stop ignored; `W` workload warning; `EE` the computer's own |
/// | `Profile2` | 11 | `TTT` temperature, 0.1 °C; `FFFF` tank pressure, 0.1 bar; `I` the tank breathed (0–9); `RRR` RBT, minutes |
/// | `Profile3` | 14 | `HHH` at 8–10 heart rate; the rest unpublished |
/// | `Profile4` | 9 | `NNN` NDL (TTS in deco), minutes; `SSS` stop time, minutes; `DDD` stop depth, m |
/// | `Profile5` | 19 | `AAA` `BBB` `CCC` three cells' ppO₂, 0.01 bar; `OOOO` OTU, 0.1; `NNNN` CNS, 0.1 %; `SS` setpoint, 0.1 bar |
enum DivingLogProfileStrings {
    static let widths: [(key: String, width: Int)] = [("profile", 12), ("profile2", 11), ("profile3", 14), ("profile4", 9), ("profile5", 19)]

    /// Takes the five columns out of `record` and puts their samples in it.
    static func decode(into record: inout DivingLogRecord, builder: DivingLogBuilder) {
        var columns: [String: (value: DivingLogValue, bytes: [UInt8])] = [:]
        for (key, width) in widths {
            guard let v = record.take(key) else { continue }
            let bytes = Array(v.text.utf8)
            guard bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                builder.report(.dropped, "profile-not-digits", "\(v.name) holds characters other than digits; it is not a profile string, not carried", at: v.location)
                continue
            }
            if bytes.count % width != 0 {
                builder.report(.dropped, "profile-length", "\(v.name) is \(bytes.count) digits, not whole records of \(width); the last \(bytes.count % width) are not carried", at: v.location)
            }
            columns[key] = (v, bytes)
        }
        guard let depths = columns["profile"] else {
            if let other = columns.values.first {
                builder.report(.dropped, "profile-without-depths", "\(other.value.name) is given and the dive has no Profile (depths) to place it at; not carried", at: other.value.location)
            }
            return
        }
        guard let intervalValue = record.values["profileint"], let interval = Int(intervalValue.text), interval > 0 else {
            builder.report(.dropped, "profile-without-interval", "Profile has no ProfileInt (seconds between samples) to place its depths at; not carried", at: depths.value.location)
            return
        }
        func digits(_ b: [UInt8], _ from: Int, _ count: Int) -> Int {
            var n = 0
            for k in from..<(from + count) { n = n * 10 + Int(b[k] - 0x30) }
            return n
        }
        let count = depths.bytes.count / 12
        for i in 0..<count {
            guard record.samples.count < InputLimits.samplesPerDive else { record.samplesOverLimit += count - i; break }
            var s = DivingLogSample(time: i * interval, location: SourceLocation(file: depths.value.location.file, path: "\(depths.value.name)/\(i)", row: depths.value.location.row))
            let p = depths.bytes, o = i * 12
            s.depth = Double(digits(p, o, 5)) / 100
            s.inDeco = p[o + 5] != 0x30
            s.rbtWarning = p[o + 6] != 0x30
            s.ascentWarning = p[o + 7] != 0x30
            s.decoStopIgnored = p[o + 8] != 0x30
            s.workWarning = p[o + 9] != 0x30
            let extra = digits(p, o + 10, 2)
            if extra != 0 {
                builder.tally("profile-extra", .dropped, "profile-extra-not-carried", at: s.location) { n in
                    "\(n) samples give the computer's own extra digits (Profile's last two), whose meaning Diving Log does not publish; not carried"
                }
            }
            if let c = columns["profile2"], c.bytes.count >= (i + 1) * 11 {
                let b = c.bytes, o = i * 11
                s.temperature = Double(digits(b, o, 3)) / 10
                s.pressures = [(digits(b, o + 7, 1), Double(digits(b, o + 3, 4)) / 10)]
                s.tank = digits(b, o + 7, 1)
                s.rbt = digits(b, o + 8, 3)
            }
            if let c = columns["profile3"], c.bytes.count >= (i + 1) * 14 {
                let b = c.bytes, o = i * 14
                s.heartRate = digits(b, o + 8, 3)
                if digits(b, o, 8) != 0 || digits(b, o + 11, 3) != 0 {
                    builder.tally("profile3", .dropped, "profile3-not-carried", at: s.location) { n in
                        "\(n) samples hold digits in Profile3 beside the heart rate, whose meaning is not published; not carried"
                    }
                }
            }
            if let c = columns["profile4"], c.bytes.count >= (i + 1) * 9 {
                let b = c.bytes, o = i * 9
                s.ndlOrTTS = digits(b, o, 3)
                s.stopTime = digits(b, o + 3, 3)
                s.stopDepth = digits(b, o + 6, 3)
            }
            if let c = columns["profile5"], c.bytes.count >= (i + 1) * 19 {
                let b = c.bytes, o = i * 19
                s.cells = [digits(b, o, 3), digits(b, o + 3, 3), digits(b, o + 6, 3)].map { Double($0) / 100 }
                s.otu = Double(digits(b, o + 9, 4)) / 10
                s.cns = Double(digits(b, o + 13, 4)) / 10
                s.setpoint = Double(digits(b, o + 17, 2)) / 10
            }
            record.samples.append(s)
        }
    }
}
