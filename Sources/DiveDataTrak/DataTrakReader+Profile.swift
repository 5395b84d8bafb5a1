import DiveCore

/// A record's profile: the Aladin's own bytes, which Subsurface hands to libdivecomputer's
/// Aladin (memomouse) parser behind an 18-byte header of its own. By that parser: a header of
/// 22 bytes (24 for a nitrox computer, 25 for an O2 one), then every 20 s from 20 s a big-endian
/// 16-bit word, its top 10 bits the depth in 1/6.4 m and its low 6 bits warnings; after each
/// word at a whole minute one byte of decompression information, and for an O2 computer one of
/// oxygen. The profile records no temperature and no tank pressure.
extension DataTrakReader {
    func readProfile(_ data: ArraySlice<UInt8>, kind: DataTrakModel.Kind, at start: Int) throws -> Profile? {
        let header = kind.headerBytes
        guard data.count >= header else {
            report(.dropped, "profile-short", "the \(data.count)-byte profile is shorter than the \(header)-byte header a \(kind.rawValue) computer's has; not read", at: start, field: "profile")
            return nil
        }
        let kept = kind == .air ? "" : " (but byte 23, the mix)"
        tally.count(.dropped, "profile-header", "the profile's \(header)-byte header\(kept) has no meaning known from public sources; not carried",
                    example: data.prefix(header).map { hex($0) }.joined(separator: " "), at: start, dive: index + 1)
        var depth = Series()
        var events: [Event] = []
        var previous = 0
        var at = data.startIndex + header
        var seconds = 20
        var dropped = 0
        while at + 2 <= data.endIndex {
            let word = Int(data[at]) << 8 | Int(data[at + 1])
            let wordAt = start + (at - data.startIndex)
            at += 2
            guard depth.count < samplesPerDive else { dropped += 1; seconds += 20; continue }
            let ms = seconds * 1000
            depth.append(ms, ((word >> 6) * 1000 + 32) / 64)  // 1/6.4 m in cm, to the nearest
            let warnings = word & 0x3F
            let risen = warnings & ~previous
            previous = warnings
            if risen & 0x02 != 0 { events.append(Event(time: ms, label: "remaining bottom time too short")) }
            if risen & 0x04 != 0 { events.append(Event(time: ms, type: .ascentRate)) }
            if risen & 0x08 != 0 { events.append(Event(time: ms, type: .ceilingViolation)) }
            if risen & 0x10 != 0 { events.append(Event(time: ms, label: "work too hard")) }
            if warnings & 0x01 != 0 {
                tally.count(.dropped, "deco-flag", "a sample's deco-stop bit (bit 0): the model keeps no deco state without a stop depth or time; not carried", example: "at \(seconds) s", at: wordAt, dive: index + 1, unit: "sample")
            }
            if warnings & 0x20 != 0 {
                tally.count(.dropped, "transmitter-flag", "a sample's bit 5, libdivecomputer's air-pressure transmitter error, which it says is always set but on Air computers; not carried", example: "at \(seconds) s", at: wordAt, dive: index + 1, unit: "sample")
            }
            if seconds % 60 == 0 {
                let extra = kind == .oxygen ? 2 : 1
                guard at + extra <= data.endIndex else {
                    report(.dropped, "profile-cut", "the profile ends inside the byte\(extra == 1 ? "" : "s") that follow the sample at \(seconds) s; the sample is kept", at: start + (at - data.startIndex), field: "profile")
                    at = data.endIndex
                    break
                }
                tally.count(.dropped, "minute-deco", "the byte after each whole minute's sample, libdivecomputer's decompression information, which it does not decode; not carried",
                            example: hex(data[at]), at: start + (at - data.startIndex), dive: index + 1, unit: "sample")
                if kind == .oxygen {
                    tally.count(.dropped, "minute-oxygen", "the O2 computer's oxygen byte after each whole minute's sample, which libdivecomputer does not decode; not carried",
                                example: "\(data[at + 1])", at: start + (at + 1 - data.startIndex), dive: index + 1, unit: "sample")
                }
                at += extra
            }
            seconds += 20
        }
        if at < data.endIndex {
            report(.dropped, "profile-odd-byte", "the profile's last byte is half a sample; not read", at: start + (at - data.startIndex), field: "profile")
        }
        if dropped > 0 {
            report(.dropped, "samples-truncated", "the profile holds more than \(samplesPerDive) samples; the last \(dropped) are not read", at: start, field: "profile")
        }
        guard !depth.isEmpty else { return nil }
        var p = Profile()
        p.duration = depth.times.last!
        p.depth = depth
        p.events = events
        return p
    }
}
