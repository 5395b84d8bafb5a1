/// The most a reader takes from one file, so that a hostile or broken file costs bounded
/// memory and time: each limit, when passed, is a located error or a `dropped` finding that
/// keeps the rest of the file (the README lists them with what happens at each).
public enum InputLimits {
    /// The longest text one XML element may hold (a note, a name): 1 MiB. Longer text is not
    /// accumulated; the reader reports it (`uddf.text-too-long`) and `validate` refuses the file.
    public static let textBytes = 1 << 20

    /// The deepest an XML document may nest: 256 elements, libxml2's own limit without
    /// `XML_PARSE_HUGE` (which umilog never sets), enforced by umilog's own passes since
    /// libxml2's push parser does not. Deeper is `xml.too-deep` at the line it happens.
    public static let xmlDepth = 256

    /// The most samples (waypoints) one dive keeps: 200,000, over 55 hours at one a second
    /// (the longest logged dives are a day). The rest of such a dive is counted and reported
    /// (`uddf.samples-over-limit`), so that one dive's profile stays within bounded memory
    /// (about 60 MB at the limit).
    public static let samplesPerDive = 200_000

    /// What the physical quantities a dive log records can be. A reading outside is no
    /// reading: the readers report it as `dropped` and never store it (a depth of 1e16 m
    /// would otherwise overflow the arithmetic that follows).
    public enum Range {
        /// Metres below the surface: the deepest sea is under 11 km.
        public static let depthMetres = DecimalNumber(-100)...DecimalNumber(11_000)
        /// Seconds in a dive's time axis: 10 days.
        public static let diveSeconds = DecimalNumber(0)...DecimalNumber(864_000)
        /// Bar in a cylinder: DiveJSON's bound for a cylinder's start and end pressure (350 bar,
        /// past any cylinder's working pressure).
        public static let tankBar = DecimalNumber(0)...DecimalNumber(350)
        /// Bar of air at the surface, where a computer measures it: 0.4 bar is the air above
        /// 7,000 m, 1.2 bar past any weather at sea level. Outside it, a value is not one.
        public static let surfaceBar = DecimalNumber(significand: 4, exponent: -1)...DecimalNumber(significand: 12, exponent: -1)
    }
}
