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

    init(order: Int, pressureStart: Int) {
        self.order = order
        self.pressureStart = pressureStart
        self.pressureEnd = pressureStart
    }
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
    var switches: [Int: String] = [:]
    /// `<setmarker>` texts by waypoint order.
    var markers: [Int: [String]] = [:]
    /// `<divemode @type>` by waypoint order (empty for a `<divemode>` with no type).
    var divemodes: [Int: String] = [:]
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
}

/// A `<mix>` from `<gasdefinitions>`.
struct MixDraft {
    var id: String
    var name: String?
    var o2: DecimalNumber?
    var he: DecimalNumber?
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
