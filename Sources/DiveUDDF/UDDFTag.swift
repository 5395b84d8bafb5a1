/// The UDDF element names the reader acts on, matched on their lowercased local name.
enum Tag: UInt8, CaseIterable {
    case other
    case uddf
    case generator
    case name
    case version
    case manufacturer
    case diver
    case owner
    case buddy
    case personal
    case firstname
    case middlename
    case lastname
    case contact
    case email
    case phone
    case mobilephone
    case birthdate
    case datetime
    case equipment
    case mask
    case fins
    case gloves
    case boots
    case compass
    case knife
    case light
    case camera
    case regulator
    case rebreather
    case scooter
    case buoyancycontroldevice
    case divecomputer
    case tank
    case videocamera
    case suit
    case variouspieces
    case lead
    case compressor
    case watch
    case model
    case serialnumber
    case tankvolume
    case tankmaterial
    case suittype
    case notes
    case para
    case text
    case student
    case divesite
    case site
    case aliasname
    case geography
    case location
    case latitude
    case longitude
    case altitude
    case sitedata
    case minimumdepth
    case maximumdepth
    case divetrip
    case trip
    case trippart
    case dateoftrip
    case gasdefinitions
    case mix
    case o2
    case he
    case maximumpo2
    case decomodel
    case buehlmann
    case gradientfactorlow
    case gradientfactorhigh
    case profiledata
    case repetitiongroup
    case dive
    case informationbeforedive
    case divenumber
    case internaldivenumber
    case link
    case airtemperature
    case surfacepressure
    case apparatus
    case platform
    case equipmentused
    case leadquantity
    case tripmembership
    case date
    case time
    case year
    case month
    case day
    case hour
    case minute
    case second
    case tankdata
    case tankpressurebegin
    case tankpressureend
    case samples
    case waypoint
    case divetime
    case depth
    case temperature
    case tankpressure
    case switchmix
    case setmarker
    case nodecotime
    case calculatedpo2
    case cns
    case gradientfactor
    case divemode
    case informationafterdive
    case greatestdepth
    case averagedepth
    case diveduration
    case lowesttemperature
    case visibility
    case current
    case rating
    case ratingvalue
    case guide
    case divebase
    case business
    case shop
    case accomodation
    case accommodation
    case `operator`
    case vessel
    case address
    case street
    case city
    case postcode
    case province
    case country
    case homepage
    case diveinsurances
    case insurance
    case validdate
    // Waypoint readings beyond the core channels, and the rest a dive records.
    case timetosurface
    case type
    case decostop
    case alarm
    case info
    case setgfhigh
    case setgflow
    case setpo2
    case otu
    case pulserate
    case measuredpo2
    case ppo2
    case batteryvoltage
    case batterychargecondition
    case scrubber
    case heading
    case bodytemperature
    case remainingbottomtime
    case remainingo2time
    case highestpo2
    case surfaceintervalbeforedive
    case passedtime
    case infinity
    case n2
    case ar
    case h2
}

extension Tag {
    /// The element's lowercased local name.
    var name: String { String(describing: self) }

    /// Lowercased local name → tag.
    static let byName: [String: Tag] = {
        var table: [String: Tag] = [:]
        for tag in Tag.allCases where tag != .other { table[String(describing: tag)] = tag }
        return table
    }()

    /// True for the gear elements under `<equipment>`.
    var isGearPiece: Bool {
        switch self {
        case .mask, .fins, .gloves, .boots, .compass, .knife, .light, .camera, .regulator, .rebreather,
             .scooter, .buoyancycontroldevice, .divecomputer, .tank, .videocamera, .suit, .variouspieces,
             .lead, .compressor, .watch:
            return true
        default:
            return false
        }
    }
}

