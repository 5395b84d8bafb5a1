import DiveCore

/// One `<waypoint>` as read, before it is split into channels. Plain data with no
/// references, so that reading millions of them costs no reference counting: its tank
/// pressures live in ``DiveDraft/pressures`` (`pressureStart..<pressureEnd`), its rarer
/// switches, markers and modes in per-dive tables keyed by `order`.
struct WaypointDraft {
    var order: Int
    var time: DecimalNumber?
    var depth: DecimalNumber?
    var temperature: DecimalNumber?
    var ndl: DecimalNumber?
    var ppo2: DecimalNumber?
    var cns: DecimalNumber?
    var gradientFactor: DecimalNumber?
    var pressureStart = 0
    var pressureEnd = 0
    /// This waypoint's rarer readings (TTS, ceiling, settings, and the channels DiveJSON has
    /// no member for): ``DiveDraft/extras``. Kept out of line so that a plain sample stays small.
    var extraStart = 0
    var extraEnd = 0

    init(order: Int, pressureStart: Int, extraStart: Int) {
        self.order = order
        self.pressureStart = pressureStart
        self.pressureEnd = pressureStart
        self.extraStart = extraStart
        self.extraEnd = extraStart
    }
}

/// A sample channel DiveJSON has no member for, carried under the profile's `umilog`
/// extension (`docs/umilog-extension.md`): what it measures, and which sensor, battery or
/// setting it belongs to.
struct ExtraChannel: Hashable {
    enum Kind: String {
        /// Readings of core channels and settings that only some writers record: routed to
        /// the profile's own members, never written as extra channels.
        case tts, ceiling, gfLowSetting = "gf_low_setting", gfHighSetting = "gf_high_setting"
        case sensorPPO2 = "sensor_ppo2", setpoint, heartRate = "heart_rate", otu
        case batteryVoltage = "battery_voltage", batteryCharge = "battery_charge", scrubber
        case heading, bodyTemperature = "body_temperature", remainingBottomTime = "remaining_bottom_time"
        case remainingO2Time = "remaining_o2_time", decoStopTime = "deco_stop_time"
        case safetyStopDepth = "safety_stop_depth", safetyStopTime = "safety_stop_time"

        /// True when a reading of 0 for the whole dive cannot be a measurement: a compass
        /// that never turned, a heart that never beat, a cell, setpoint or battery at nothing.
        var isCore: Bool {
            switch self {
            case .tts, .ceiling, .gfLowSetting, .gfHighSetting: return true
            default: return false
            }
        }

        var zeroIsPlaceholder: Bool {
            switch self {
            case .sensorPPO2, .setpoint, .heartRate, .batteryVoltage, .batteryCharge, .heading, .bodyTemperature: return true
            default: return false
            }
        }

        /// The unit the channel's values are written in.
        var unit: String {
            switch self {
            case .sensorPPO2, .setpoint: return "bar"
            case .heartRate: return "beats/min"
            case .otu: return "OTU"
            case .batteryVoltage: return "V"
            case .batteryCharge: return "%"
            case .scrubber: return ""
            case .heading: return "degrees"
            case .bodyTemperature: return "°C"
            case .remainingBottomTime, .remainingO2Time, .decoStopTime, .safetyStopTime, .tts: return "s"
            case .safetyStopDepth, .ceiling: return "m"
            case .gfLowSetting, .gfHighSetting: return "%"
            }
        }
    }
    var kind: Kind
    /// The `@ref` (sensor, battery, device) or the setting's `@setby`.
    var ref: String?
    /// A unit the source stated beside the value (`<scrubber units=…>`).
    var sourceUnit: String?
    /// The tank a battery charge belongs to (`<batterychargecondition tankref=…>`).
    var tank: String?
}

/// An `<alarm>` or `<info>` of a waypoint: its words, and the `@level` of an alarm or the
/// `@type` of an info.
struct AlarmDraft {
    var text: String
    var qualifier: String?
    var info: Bool
}

/// One reading of an ``ExtraChannel``, in the channel's unit.
struct ExtraReading {
    var channel: Int
    var value: DecimalNumber
}

/// A `<tankpressure>` reading: `ref` indexes ``DiveDraft/refs`` (-1 when it had no `@ref`).
struct PressureReading {
    var ref: Int
    var value: DecimalNumber
}

/// One `<tankdata>` as read.
struct TankDraft {
    var id: String?
    var line: Int
    var links: [String] = []
    var volume: DecimalNumber?
    var begin: DecimalNumber?
    var end: DecimalNumber?
}

/// One `<dive>` as read, before its references are resolved.
struct DiveDraft {
    var id: String?
    var index: Int
    var line: Int
    var datetimeText: String?
    var year: Int?, month: Int?, day: Int?
    var hour: Int?, minute: Int?, second: Int?
    var number: Int?
    var internalNumber: Int?
    var links: [String] = []
    var equipmentLinks: [String] = []
    var tripRef: String?
    var altitude: DecimalNumber?
    var airTemperature: DecimalNumber?
    var surfacePressure: DecimalNumber?
    var apparatus: String?
    var platform: String?
    var lead: DecimalNumber?
    var tanks: [TankDraft] = []
    var waypoints: [WaypointDraft] = []
    var pressures: [PressureReading] = []
    /// Distinct `@ref`s of the dive's tank pressures, in order of first use.
    var refs: [String] = []
    /// `<switchmix @ref>` by waypoint order.
    var switches: [Int: [String]] = [:]
    /// `<setmarker>` texts by waypoint order.
    var markers: [Int: [String]] = [:]
    /// `<divemode @type>` by waypoint order (empty for a `<divemode>` with no type).
    var divemodes: [Int: String] = [:]
    /// `<alarm>` and `<info>` texts by waypoint order, as event labels or types.
    var alarms: [Int: [AlarmDraft]] = [:]
    /// The extra channels met in this dive, and their readings (waypoints index them).
    var extraChannels: [ExtraChannel] = []
    var extraIndex: [ExtraChannel: Int] = [:]
    var extras: [ExtraReading] = []
    /// `<safety>` decostops that state 0 m for 0 s: a placeholder, not a stop.
    var placeholderStops = 0
    /// Mandatory decostops at 0 m: no obligation.
    var zeroStops = 0
    /// Mandatory stops below a waypoint's first: the rest of a stop schedule.
    var laterStops = 0
    /// Decostops of a kind UDDF does not define.
    var unknownStopKinds: Set<String> = []
    /// `<surfaceintervalbeforedive>`: seconds, or `<infinity/>` (no dive before this one).
    var surfaceInterval: DecimalNumber?
    var surfaceIntervalInfinite = false
    /// Waypoints past ``InputLimits/samplesPerDive``, not kept.
    var samplesOverLimit = 0
    /// `<informationafterdive><highestpo2>`.
    var highestPO2: DecimalNumber?
    var greatestDepth: DecimalNumber?
    var averageDepth: DecimalNumber?
    var duration: DecimalNumber?
    var lowestTemperature: DecimalNumber?
    var visibilityText: String?
    var current: String?
    var rating: String?
    var notes: [String] = []
    /// Non-numeric text met in numeric elements, by element name: (count, first example, line).
    var badNumbers: [String: (count: Int, example: String, line: Int)] = [:]

    /// True when the element records no dive: no date or time, number, summary value, tank,
    /// sample, link or note, not even a value that failed to read — nothing but its id and the
    /// surface interval before it. Some writers put such a `<dive>` (its surface interval
    /// `<infinity/>`) before the first real one as "the previous dive".
    var recordsNoDive: Bool {
        datetimeText == nil && year == nil && month == nil && day == nil && hour == nil && minute == nil && second == nil
            && number == nil && internalNumber == nil && links.isEmpty && equipmentLinks.isEmpty && tripRef == nil
            && altitude == nil && airTemperature == nil && surfacePressure == nil && apparatus == nil && platform == nil
            && lead == nil && tanks.isEmpty && waypoints.isEmpty && samplesOverLimit == 0 && highestPO2 == nil
            && greatestDepth == nil && averageDepth == nil && duration == nil && lowestTemperature == nil
            && visibilityText == nil && current == nil && rating == nil && notes.isEmpty && badNumbers.isEmpty
    }
}

/// A `<mix>` from `<gasdefinitions>`.
struct MixDraft {
    var id: String
    var name: String?
    var o2: DecimalNumber?
    var he: DecimalNumber?
    var n2: DecimalNumber?
    var maximumPO2: DecimalNumber?
}

/// A `<buehlmann>` model.
struct DecoDraft {
    var id: String
    var gfLow: DecimalNumber?
    var gfHigh: DecimalNumber?
}

/// A `<site>` as read.
struct SiteDraft {
    var id: String?
    var index: Int
    var line: Int
    var name: String?
    var aliases: [String] = []
    var location: String?
    var latitude: DecimalNumber?
    var longitude: DecimalNumber?
    var altitude: DecimalNumber?
    var minimumDepth: DecimalNumber?
    var maximumDepth: DecimalNumber?
    var notes: [String] = []
}

/// A `<buddy>` or the `<owner>`.
struct PersonDraft {
    var id: String?
    var index: Int
    var line: Int
    var first: String?
    var middle: String?
    var last: String?
    var email: String?
    var phone: String?
    var mobile: String?
    var bornOn: String?
    var notes: [String] = []
    var student = false
    var insurances: [(name: String?, validDate: String?)] = []

    var fullName: String? {
        let parts = [first, middle, last].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

/// A piece of `<equipment>`.
struct GearDraft {
    var tag: Tag
    var id: String?
    var index: Int
    var line: Int
    var name: String?
    var brand: String?
    var model: String?
    var serial: String?
    var volume: DecimalNumber?
    var material: String?
    var suitType: String?
    var notes: [String] = []
}

/// A `<trip>` and its parts.
struct TripDraft {
    var id: String?
    var index: Int
    var line: Int
    var name: String?
    var parts: [TripPartDraft] = []
    var notes: [String] = []
}

struct TripPartDraft {
    /// Position among every `<trippart>` in the file.
    var index = 0
    var stay: ContactDraft?
    var links: [String] = []
    var hasVessel = false
    var typeAttribute: String?
    var name: String?
    var location: String?
    var latitude: DecimalNumber?
    var longitude: DecimalNumber?
    var startDate: String?
    var endDate: String?
}

/// A `<divebase>`, a `<shop>`, or a trip part's `<accomodation>` or `<operator>`: the shapes
/// a contact is read from.
struct ContactDraft {
    enum Kind { case base, shop, accommodation, liveaboard }
    var kind: Kind
    var id: String?
    var line: Int
    var name: String?
    var street: String?, city: String?, postcode: String?, province: String?, country: String?
    var hasAddress = false
    var phones: [String] = []
    var mobiles: [String] = []
    var emails: [String] = []
    var homepages: [String] = []
    var notes: [String] = []
    /// Children of the shape this reader does not read, by element name.
    var unread: [String] = []
    var hasContact: Bool { !phones.isEmpty || !mobiles.isEmpty || !emails.isEmpty || !homepages.isEmpty }
    /// For a trip part's shape: the part's position among every `<trippart>` in the file.
    var partIndex = 0
}
