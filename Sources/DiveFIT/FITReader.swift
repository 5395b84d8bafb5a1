import DiveCore

/// The identity namespace and the constants of FIT (DiveJSON `docs/fit-mapping.md`).
public enum FIT {
    /// `uuid5(NAMESPACE_URL, "https://divejson.org/ns/fit")`: frozen (the mapping's *Identity*).
    public static let namespace = "1ecddff6-d7c6-58e8-a0ec-337a3338b855"
    /// Seconds from the Unix epoch to FIT's, 1989-12-31T00:00:00Z.
    public static let epochOffset = 631_065_600
    /// The magic at byte 8 of a FIT file.
    public static func sniff(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count >= 12 && bytes.dropFirst(8).prefix(4).elementsEqual(".FIT".utf8)
    }
}

/// Message numbers of the global FIT profile this reader reads.
enum Mesg {
    static let fileID: UInt16 = 0, session: UInt16 = 18, lap: UInt16 = 19, record: UInt16 = 20, event: UInt16 = 21
    static let deviceInfo: UInt16 = 23, activity: UInt16 = 34, fileCreator: UInt16 = 49
    static let developerDataID: UInt16 = 207, fieldDescription: UInt16 = 206
    static let diveSettings: UInt16 = 258, diveGas: UInt16 = 259, diveSummary: UInt16 = 268
    static let tankUpdate: UInt16 = 319, tankSummary: UInt16 = 323
    /// The summary messages the first pass keeps (everything a dive is built from but its samples).
    static let kept: Set<UInt16> = [fileID, session, lap, deviceInfo, activity, diveSettings, diveGas, diveSummary,
                                    tankSummary, fieldDescription, developerDataID]
    /// The messages the second pass reads, sample by sample.
    static let streamed: Set<UInt16> = [record, event, tankUpdate]
}

/// Streams the dives of a Garmin FIT activity file (or a chain of them), by DiveJSON's
/// `docs/fit-mapping.md` and further:
///
/// - a session is a dive; a session whose laps each carry their own `dive_summary` (a
///   freediving session) is one dive per lap, each with its own part of the profile;
/// - a session with no samples (a dive logged by hand in Garmin Connect) is a dive without a
///   profile; a file whose session is missing but whose records carry depths is one dive;
/// - several sessions are several dives.
///
/// The file is read twice, both times mapped and front to back: the first pass keeps the
/// summaries (a FIT file writes its `session` after the samples it summarises, and may write
/// the gas list anywhere), the second streams the samples into one dive at a time, so memory
/// holds one dive's profile whatever the file's size. Every message and field met is carried
/// or reported (`fit.not-carried`, located by message index and byte offset); a file CRC that
/// does not match is a finding (`fit.crc`), the data being read on, as the mapping says.
public final class FITReader: DiveSource {
    public internal(set) var header = LogbookHeader()
    let displayName: String
    var findings: [Finding] = []
    let decoder: FITDecoder
    var plan: FITPlan
    /// The draft of each window not yet emitted, by window index.
    var drafts: [Int: DiveDraft] = [:]
    var nextToEmit = 0
    var ready: [Dive] = []
    var readyHead = 0
    var finished = false
    var tally: FITTally
    let consumption = Consumption()
    /// Field numbers of the streamed messages this reader reads (the rest are reported).
    var fieldBuffer: [UInt8] = []
    var ordinal = 0

    /// Opens the FIT file at `path`.
    public init(path: String, displayName: String? = nil) throws {
        self.displayName = displayName ?? path
        tally = FITTally(file: self.displayName)
        let scan = try FITDecoder(path: path, displayName: self.displayName)
        plan = try FITPlan(scanning: scan)
        decoder = try FITDecoder(path: path, displayName: self.displayName)
        setUp()
    }

    /// Reads FIT bytes (tests).
    public init(bytes: [UInt8], displayName: String = "<input>") throws {
        self.displayName = displayName
        tally = FITTally(file: displayName)
        plan = try FITPlan(scanning: FITDecoder(bytes: bytes, displayName: displayName))
        decoder = FITDecoder(bytes: bytes, displayName: displayName)
        setUp()
    }

    private func setUp() {
        decoder.crcMismatchIsFatal = false
        header.sourceFormat = "fit"
        header.sourceVersionKey = "fit_protocol_version"
        if let v = plan.files.first?.protocolVersion { header.sourceVersion = "\(v >> 4).\(v & 0x0F)" }
        if plan.windows.isEmpty {
            report(.dropped, "no-dive", "the file holds no session and no depth sample: it describes no dive", at: nil)
        }
    }

    /// What the reader found since the last call, in order.
    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    /// The next dive of the file (a chain's files in order); `nil` after the last.
    public func next() throws -> Dive? {
        while readyHead == ready.count {
            if finished { return nil }
            try advance()
        }
        let dive = ready[readyHead]
        readyHead += 1
        if readyHead == ready.count { ready.removeAll(keepingCapacity: true); readyHead = 0 }
        return dive
    }

    // MARK: - Findings

    func location(_ frame: (index: Int, offset: Int)?) -> SourceLocation {
        guard let frame else { return SourceLocation(file: displayName) }
        return SourceLocation(file: displayName, path: "message \(frame.index) (byte \(frame.offset))")
    }

    func report(_ kind: FindingKind, _ code: String, _ message: String, at frame: (index: Int, offset: Int)?) {
        findings.append(Finding(kind, "fit.\(code)", message, at: location(frame)))
    }

    func report(_ kind: FindingKind, _ code: String, _ message: String, message m: FITMessage?) {
        report(kind, code, message, at: m.map { ($0.index, $0.offset) })
    }

    // MARK: - The second pass

    /// Reads on until at least one dive is ready or the input ends.
    private func advance() throws {
        var steps = 0
        while ready.isEmpty || steps == 0 {
            steps += 1
            guard let frame = try decoder.nextFrame() else {
                finishAll()
                return
            }
            if frame.fileIndex > 0, let first = plan.firstWindow(ofFile: frame.fileIndex) {
                emit(upTo: first)
            }
            switch frame.globalNumber {
            case Mesg.record: readRecord(frame)
            case Mesg.event: readEvent(frame)
            case Mesg.tankUpdate: readTankUpdate(frame)
            default:
                if !Mesg.kept.contains(frame.globalNumber) { tally.message(frame) }
            }
            if !ready.isEmpty { return }
        }
    }

    /// The window a sample at FIT time `t` in file `file` belongs to, emitting every earlier
    /// window of the file (the samples have moved past them). `nil` when the file has none or
    /// the window was already emitted.
    func window(for t: UInt32?, file: Int, frame: FITFrame) -> Int? {
        guard let range = plan.windowRange(ofFile: file) else { return nil }
        var w = max(range.lowerBound, nextToEmit)
        guard w < range.upperBound else {
            tally.late(frame)
            return nil
        }
        if let t {
            while w + 1 < range.upperBound, let s = plan.windows[w + 1].start, s <= t { w += 1 }
            // Before the window being read, and that one is not the file's first: it belongs
            // to a window already emitted.
            if w == nextToEmit, w > range.lowerBound, let s = plan.windows[w].start, t < s {
                tally.late(frame)
                return nil
            }
        }
        if w > nextToEmit { emit(upTo: w) }
        return w
    }

    func draft(_ w: Int) -> DiveDraft {
        if let d = drafts[w] { return d }
        let d = DiveDraft()
        drafts[w] = d
        return d
    }

    /// Builds and queues every window before `w`.
    func emit(upTo w: Int) {
        while nextToEmit < w && nextToEmit < plan.windows.count {
            let d = drafts.removeValue(forKey: nextToEmit) ?? DiveDraft()
            if let dive = build(window: nextToEmit, draft: d) { ready.append(dive) }
            nextToEmit += 1
        }
    }

    private func finishAll() {
        emit(upTo: plan.windows.count)
        finished = true
        for e in decoder.crcMismatches {
            findings.append(Finding(.resolved, e.code, e.message + "; every message decodes, so the dives are read (check them against the device)", at: e.location))
        }
        reportUnconsumed()
        tally.report(into: &findings)
    }
}
