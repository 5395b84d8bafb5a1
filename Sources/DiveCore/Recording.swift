/// One device's record of one dive (§6.4a).
public struct Recording: Sendable, Hashable {
    /// The device that recorded the dive; `nil` when the source does not say.
    public var device: Device?
    /// How the computer ran; `nil` when the source does not say.
    public var mode: RecordingMode?
    /// The decompression model the device ran.
    public var decoModel: DecoModel?
    /// When this device's record started, where the source states one for it.
    public var startedAt: DiveDateTime?
    /// The water density the device computed depth for.
    public var salinity: Salinity?
    /// Bar.
    public var surfacePressure: Double?
    /// CNS oxygen toxicity at the start, percent.
    public var cnsStart: Double?
    /// CNS oxygen toxicity at the end, percent.
    public var cnsEnd: Double?
    /// Oxygen tolerance units at the start.
    public var otuStart: Double?
    /// Oxygen tolerance units at the end.
    public var otuEnd: Double?
    /// The downloads this recording was read from.
    public var sourceFiles: [StoredFile] = []
    /// The samples; `nil` when the source has none for this device.
    public var profile: Profile?
    /// The recording's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?

    /// Makes a recording of this device with this profile; everything else unset.
    public init(device: Device? = nil, profile: Profile? = nil) { self.device = device; self.profile = profile }

    /// True when the recording describes something (§6.4a): a device, a profile or a readout.
    /// A mode or a deco model alone is a setting nothing recorded a dive with.
    public var hasContent: Bool {
        device.map { !$0.isEmpty } == true || profile != nil || surfacePressure != nil
            || cnsStart != nil || cnsEnd != nil || otuStart != nil || otuEnd != nil || !sourceFiles.isEmpty
    }
}

/// The water density a device computes depth for: fresh, EN 13319 (1020 kg/m³) or salt.
public enum Salinity: String, Sendable, Hashable { case fresh, en13319, salt }

/// How a computer ran.
public enum RecordingMode: String, Sendable, Hashable {
    case openCircuit = "open_circuit", closedCircuit = "closed_circuit", semiClosed = "semi_closed"
    case gauge, freedive
}

/// The hardware that recorded a dive (§6.4b).
public struct Device: Sendable, Hashable {
    /// The maker, as the source names it.
    public var brand: String?
    /// The model, as the source names it.
    public var model: String?
    /// The serial number, as written.
    public var serial: String?
    /// The firmware version, as written.
    public var firmware: String?
    /// The name the diver or the device gives it, as written.
    public var name: String?
    /// The device's own dive counter (not the diver's dive number).
    public var diveNumber: Int?
    /// The device's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a device with nothing recorded.
    public init() {}
    /// True when no member is recorded.
    public var isEmpty: Bool {
        brand == nil && model == nil && serial == nil && firmware == nil && name == nil && diveNumber == nil && extensions == nil
    }
    /// `brand model` or whichever of name/model/brand is known.
    public var displayName: String? {
        if let model { return brand.map { model.hasPrefix($0) ? model : "\($0) \(model)" } ?? model }
        return name ?? brand
    }
}

/// The decompression model a device ran (§6.4c).
public struct DecoModel: Sendable, Hashable {
    /// The model's family (`buhlmann`, `vpm`), as the source or reader names it.
    public var algorithm: String?
    /// The model's own name (`ZHL-16C`), as written.
    public var name: String?
    /// Whole percent.
    public var gfLow: Int?
    /// Whole percent.
    public var gfHigh: Int?
    /// The device's conservatism setting (negative is more liberal).
    public var conservatism: Int?
    /// The model's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a deco model with nothing recorded.
    public init() {}
    /// True when no member is recorded.
    public var isEmpty: Bool { algorithm == nil && name == nil && gfLow == nil && gfHigh == nil && conservatism == nil && extensions == nil }
}

/// A recording's samples: columnar channels on one time axis in milliseconds from the start
/// of the dive. Each channel carries only the instants that actually had a reading for it,
/// so channels are never padded to one another's length (§6.5).
///
/// Values are integer-scaled as in DiveJSON: depth and ceiling in centimetres, temperature
/// in hundredths of a °C, pressures in tenths of a bar, ppO₂ in hundredths of a bar, CNS in
/// tenths of a percent, NDL and TTS in seconds, gradient factors in whole percent.
public struct Profile: Sendable, Hashable {
    /// Milliseconds; at least the last sample time of any channel.
    public var duration: Int = 0
    /// Depth, centimetres.
    public var depth: Series?
    /// The computer's decompression ceiling, centimetres.
    public var ceiling: Series?
    /// Water temperature, hundredths of a °C.
    public var temperature: Series?
    /// One per cylinder with pressure telemetry, keyed by the cylinder's `gasNumber`.
    public var pressures: [PressureSeries] = []
    /// No-decompression limit, seconds.
    public var ndl: Series?
    /// Time to surface, seconds.
    public var tts: Series?
    /// Partial pressure of oxygen, hundredths of a bar.
    public var ppo2: Series?
    /// CNS oxygen toxicity, tenths of a percent.
    public var cns: Series?
    /// Gradient factor, whole percent.
    public var gradientFactor: Series?
    /// Surface gradient factor, whole percent.
    public var surfaceGradientFactor: Series?
    /// Events at instants of the dive, in time order.
    public var events: [Event] = []
    /// The profile's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?

    /// Makes an empty profile: no channel, no event, duration zero.
    public init() {}

    /// Number of distinct sample instants over all channels.
    public var sampleCount: Int {
        let series = allSeries
        if series.count == 1 { return series[0].count }
        // Merge the channels' (increasing) times, counting each instant once.
        var cursors = [Int](repeating: 0, count: series.count)
        var count = 0
        while true {
            var t = Int.max
            for (i, s) in series.enumerated() where cursors[i] < s.count { t = min(t, s.times[cursors[i]]) }
            if t == Int.max { return count }
            count += 1
            for (i, s) in series.enumerated() where cursors[i] < s.count && s.times[cursors[i]] == t { cursors[i] += 1 }
        }
    }

    /// Every channel present, in a fixed order.
    public var allSeries: [Series] { labelledSeries.map(\.series) }

    /// Every channel present with a name a diver reads (`depth`, `NDL`, `cylinder 1
    /// pressure`), in the order of ``allSeries``.
    public var labelledSeries: [(label: String, series: Series)] {
        var out: [(label: String, series: Series)] = []
        for (label, s) in [("depth", depth), ("ceiling", ceiling), ("temperature", temperature), ("NDL", ndl), ("TTS", tts),
                           ("ppO2", ppo2), ("CNS", cns), ("gradient factor", gradientFactor),
                           ("surface gradient factor", surfaceGradientFactor)] {
            if let s { out.append((label, s)) }
        }
        for p in pressures { out.append(("cylinder \(p.gasNumber) pressure", p.series)) }
        return out
    }

    /// True when no channel and no event is present.
    public var isEmpty: Bool { allSeries.isEmpty && events.isEmpty }
}

/// A channel: parallel arrays of sample times (ms) and integer-scaled values.
public struct Series: Sendable, Hashable {
    /// Sample times, milliseconds from the start of the dive, increasing.
    public var times: [Int]
    /// The readings, integer-scaled, one per time.
    public var values: [Int]
    /// The channel's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes a channel of these times and values (parallel arrays of equal length).
    public init(times: [Int] = [], values: [Int] = []) { self.times = times; self.values = values }
    /// The number of readings.
    public var count: Int { times.count }
    /// True when the channel has no reading.
    public var isEmpty: Bool { times.isEmpty }
    /// Appends a reading.
    public mutating func append(_ time: Int, _ value: Int) { times.append(time); values.append(value) }
    /// Appends a reading unless the channel's last one is at the same instant (DiveJSON's
    /// converting.md: two readings of one channel on one millisecond keep the first). False
    /// when it was not appended, for the reader to count and report.
    @discardableResult
    public mutating func appendKeepingFirst(_ time: Int, _ value: Int) -> Bool {
        if let last = times.last, last == time { return false }
        append(time, value)
        return true
    }
    /// The largest value, if any.
    public var maxValue: Int? { values.max() }
    /// The smallest value, if any.
    public var minValue: Int? { values.min() }
}

/// A pressure channel for one cylinder.
public struct PressureSeries: Sendable, Hashable {
    /// The cylinder's `gasNumber`.
    public var gasNumber: Int
    /// The cylinder's pressure readings, tenths of a bar.
    public var series: Series
    /// Makes a pressure channel for the cylinder with this gas number.
    public init(gasNumber: Int, series: Series = Series()) { self.gasNumber = gasNumber; self.series = series }
}

/// Something that happened at an instant of the dive (§6.6).
public struct Event: Sendable, Hashable {
    /// Milliseconds from the start of the dive.
    public var time: Int
    /// What happened; `nil` when only `label` says.
    public var type: EventType?
    /// For a gas switch, the cylinder switched to.
    public var gasNumber: Int?
    /// Free text; required when there is no `type`.
    public var label: String?
    /// The event's DiveJSON `extensions`, carried untouched.
    public var extensions: ExtensionValue?
    /// Makes an event at this time, in milliseconds from the start of the dive.
    public init(time: Int, type: EventType? = nil, gasNumber: Int? = nil, label: String? = nil) {
        self.time = time; self.type = type; self.gasNumber = gasNumber; self.label = label
    }
}

/// What kind of thing an event is (§6.6).
public enum EventType: String, Sendable, Hashable, CaseIterable {
    case gasSwitch = "gas_switch", deepStop = "deep_stop", safetyStop = "safety_stop", bookmark
    case ascentRate = "ascent_rate", safetyStopMandatory = "safety_stop_mandatory"
    case safetyStopViolation = "safety_stop_violation", deepStopViolation = "deep_stop_violation"
    case ceilingViolation = "ceiling_violation", ndlReached = "ndl_reached", ppo2High = "ppo2_high"
    case pressureLow = "pressure_low", depthAlarm = "depth_alarm"
}
