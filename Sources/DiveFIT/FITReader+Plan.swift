import DiveCore

/// What one FIT file of a chain says about itself.
struct FITFileFacts {
    var protocolVersion: UInt8
    var fileID: FITMessage?
    /// The first eight `device_info` messages (a device writes one every few minutes).
    var deviceInfos: [FITMessage] = []
    var activity: FITMessage?
    var hasDepth = false
    var firstRecordTime: UInt32?
    /// Developer field names by (developer index, field number), from `field_description`.
    var developerNames: [UInt16: String] = [:]
}

/// One dive to be: a session, or a lap of a freediving session, with the summaries that
/// describe it.
struct DiveWindow {
    var file: Int
    /// FIT seconds; `nil` when nothing states when it began (its first sample does).
    var start: UInt32?
    var session: FITMessage?
    /// Set when the dive is one lap of a session whose laps each carry a `dive_summary`.
    var lap: FITMessage?
    var summary: FITMessage?
    var gases: [FITMessage] = []
    var settings: FITMessage?
    var tankSummaries: [FITMessage] = []
    /// A one-lap session's lap and that lap's `dive_summary`: copies of the session's figures,
    /// read for nothing the session does not say.
    var copies: [FITMessage] = []
}

/// The first pass: every summary message kept, and the dives they describe laid out in time.
struct FITPlan {
    var files: [FITFileFacts] = []
    var windows: [DiveWindow] = []
    /// Every kept message, for the accounting of their fields.
    var kept: [FITMessage] = []
    /// `device_info` messages past the first eight of a file, not read.
    var extraDeviceInfos = 0
    private var ranges: [Int: Range<Int>] = [:]

    init(scanning decoder: FITDecoder) throws {
        decoder.verifiesCRC = false
        var sessions: [[FITMessage]] = []
        var laps: [[FITMessage]] = []
        var summaries: [[FITMessage]] = []
        var gases: [[FITMessage]] = []
        var settings: [[FITMessage]] = []
        var tanks: [[FITMessage]] = []
        while let frame = try decoder.nextFrame() {
            while files.count <= frame.fileIndex {
                files.append(FITFileFacts(protocolVersion: decoder.header?.protocolVersion ?? 0))
                sessions.append([]); laps.append([]); summaries.append([]); gases.append([]); settings.append([]); tanks.append([])
            }
            let f = frame.fileIndex
            if frame.globalNumber == Mesg.record {
                if files[f].firstRecordTime == nil { files[f].firstRecordTime = frame.timestamp }
                if !files[f].hasDepth, decoder.has(92) { files[f].hasDepth = true }
                continue
            }
            guard Mesg.kept.contains(frame.globalNumber), let m = decoder.currentMessage() else { continue }
            switch m.globalNumber {
            case Mesg.fileID:
                if files[f].fileID == nil { files[f].fileID = m }
            case Mesg.deviceInfo:
                guard files[f].deviceInfos.count < 8 else { extraDeviceInfos += 1; continue }
                files[f].deviceInfos.append(m)
            case Mesg.activity: if files[f].activity == nil { files[f].activity = m }
            case Mesg.session: sessions[f].append(m)
            case Mesg.lap: laps[f].append(m)
            case Mesg.diveSummary: summaries[f].append(m)
            case Mesg.diveGas: gases[f].append(m)
            case Mesg.diveSettings: settings[f].append(m)
            case Mesg.tankSummary: tanks[f].append(m)
            case Mesg.fieldDescription:
                if let index = m.value(0)?.uintValue, let number = m.value(1)?.uintValue, index < 256, number < 256,
                   let name = m.value(3)?.stringValue {
                    files[f].developerNames[UInt16(index) << 8 | UInt16(number)] = name
                }
            default: break
            }
            kept.append(m)
        }
        for f in files.indices {
            let first = windows.count
            layOut(file: f, sessions: sessions[f], laps: laps[f], summaries: summaries[f], gases: gases[f],
                   settings: settings[f], tanks: tanks[f])
            if windows.count > first { ranges[f] = first..<windows.count }
        }
    }

    func windowRange(ofFile f: Int) -> Range<Int>? { ranges[f] }
    func firstWindow(ofFile f: Int) -> Int? { ranges[f]?.lowerBound }

    /// A message's own `message_index` (field 254), its low 12 bits.
    static func messageIndex(_ m: FITMessage) -> UInt64? { m.value(254)?.uintValue.map { $0 & 0x0FFF } }

    static func start(of m: FITMessage) -> UInt32? {
        if let v = m.value(2)?.uintValue, v <= UInt64(UInt32.max) { return UInt32(v) }
        if let end = m.timestamp, let elapsed = m.value(7)?.uintValue ?? m.value(8)?.uintValue {
            let s = Int64(end) - Int64(elapsed / 1000)
            return s >= 0 ? UInt32(s) : nil
        }
        return nil
    }

    static func end(of m: FITMessage) -> UInt32? {
        let start = start(of: m).map(Int64.init)
        let elapsed = (m.value(7)?.uintValue ?? m.value(8)?.uintValue).map { Int64($0 / 1000) }
        let stated = m.timestamp.map(Int64.init)
        let derived = start.flatMap { s in elapsed.map { s + $0 } }
        guard let e = [stated, derived].compactMap({ $0 }).max(), e <= Int64(UInt32.max) else { return nil }
        return UInt32(e)
    }

    private mutating func layOut(file f: Int, sessions: [FITMessage], laps: [FITMessage], summaries: [FITMessage],
                                 gases: [FITMessage], settings: [FITMessage], tanks: [FITMessage]) {
        if sessions.isEmpty {
            // No session: the dive the records describe, if they hold a depth at all.
            guard files[f].hasDepth else { return }
            var w = DiveWindow(file: f, start: files[f].firstRecordTime)
            w.summary = summaries.first
            w.gases = gases
            w.settings = settings.first
            w.tankSummaries = tanks
            windows.append(w)
            return
        }
        let ordered = sessions.sorted { (Self.start(of: $0) ?? 0, $0.index) < (Self.start(of: $1) ?? 0, $1.index) }
        var fileWindows: [DiveWindow] = []
        for (k, session) in ordered.enumerated() {
            let own = Self.laps(of: session, among: laps, single: ordered.count == 1)
            let sessionIndex = Self.messageIndex(session) ?? UInt64(k)
            let sessionSummary = summaries.first { $0.value(0)?.uintValue == 18 && ($0.value(1)?.uintValue).map { $0 & 0x0FFF } == sessionIndex }
                ?? (ordered.count == 1 ? summaries.first { $0.value(0) == nil } : nil)
            let lapSummaries: [(FITMessage, FITMessage?)] = own.enumerated().map { (j, lap) in
                let index = Self.messageIndex(lap) ?? UInt64(j)
                return (lap, summaries.first { $0.value(0)?.uintValue == 19 && ($0.value(1)?.uintValue).map { $0 & 0x0FFF } == index })
            }
            let summarised = lapSummaries.filter { $0.1 != nil }.count
            let owned = Self.owned(by: session, k: k, sessions: ordered, gases: gases, settings: settings, tanks: tanks)
            if summarised >= 2 {
                for (lap, summary) in lapSummaries {
                    var w = DiveWindow(file: f, start: Self.start(of: lap), session: session, lap: lap, summary: summary)
                    (w.gases, w.settings, w.tankSummaries) = owned
                    fileWindows.append(w)
                }
            } else {
                var w = DiveWindow(file: f, start: Self.start(of: session) ?? files[f].firstRecordTime, session: session,
                                   summary: sessionSummary ?? lapSummaries.first(where: { $0.1 != nil })?.1)
                (w.gases, w.settings, w.tankSummaries) = owned
                if own.count == 1, sessionSummary != nil {
                    w.copies = [own[0]] + (lapSummaries[0].1.map { [$0] } ?? [])
                }
                fileWindows.append(w)
            }
        }
        windows += fileWindows.enumerated().sorted { (($0.element.start ?? 0), $0.offset) < (($1.element.start ?? 0), $1.offset) }.map(\.element)
    }

    /// The laps of a session: by its `first_lap_index`/`num_laps` where it states them, else
    /// those that begin within its time, else (one session) all.
    static func laps(of session: FITMessage, among laps: [FITMessage], single: Bool) -> [FITMessage] {
        if let first = session.value(25)?.uintValue, let count = session.value(26)?.uintValue, count > 0 {
            let byIndex = laps.filter { l in Self.messageIndex(l).map { $0 >= first && $0 < first + count } ?? false }
            if !byIndex.isEmpty { return byIndex }
        }
        if let s = start(of: session), let e = end(of: session) {
            let within = laps.filter { l in start(of: l).map { $0 >= s && $0 < e } ?? false }
            if !within.isEmpty || !single { return within }
        }
        return single ? laps : []
    }

    /// The gas list, settings and tank summaries of one of several sessions: a message carries
    /// no time, so it is the session's whose position is the first at or after its own (a device
    /// writes the list before the samples and the session after them), else the last
    /// session's. With one session, all of them.
    static func owned(by session: FITMessage, k: Int, sessions: [FITMessage], gases: [FITMessage],
                      settings: [FITMessage], tanks: [FITMessage]) -> ([FITMessage], FITMessage?, [FITMessage]) {
        if sessions.count == 1 { return (gases, settings.first, tanks) }
        let byPosition = sessions.sorted { $0.index < $1.index }
        func owner(_ m: FITMessage) -> Int { (byPosition.first { $0.index >= m.index } ?? byPosition[byPosition.count - 1]).index }
        let mine = session.index
        return (gases.filter { owner($0) == mine }, settings.first { owner($0) == mine }, tanks.filter { owner($0) == mine })
    }
}
