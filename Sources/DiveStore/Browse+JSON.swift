import DiveCore
import DiveJSON

/// The `--json` shapes of the browsing commands (documented in the README): one JSON object
/// each, numbers in SI units with the unit in the member's name, absent values as null.
public enum BrowseJSON {
    static func string(_ s: String?) -> JSONNode { s.map { JSONNode(.string($0)) } ?? JSONNode(.null) }
    static func number(_ v: Double?) -> JSONNode { v.map { JSONNode(.number(DecimalNumber($0)?.description ?? String($0))) } ?? JSONNode(.null) }
    static func int(_ v: Int?) -> JSONNode { v.map { JSONNode(.number(String($0))) } ?? JSONNode(.null) }

    /// `{"dives": [{"id", "number", "date", "time", "utc_offset", "site", "max_depth_m", "bottom_time_s", "water_temperature_c", "status"}]}`.
    public static func dives(_ items: [DiveListItem]) -> String {
        JSONNode.object([("dives", JSONNode(.array(items.map { d in
            JSONNode.object([
                ("id", string(d.id)), ("number", int(d.number)), ("date", string(d.date)), ("time", string(d.startTime)),
                ("utc_offset", string(d.utcOffset)), ("site", string(d.siteName)), ("max_depth_m", number(d.maxDepth)),
                ("bottom_time_s", int(d.bottomTime)), ("water_temperature_c", number(d.waterTemperature)), ("status", string(d.status)),
            ])
        })))]).compactText
    }

    /// `{"species": [{"id", "scientific_name", "common_name", "kind", "sightings"}]}`.
    public static func species(_ items: [SpeciesSummary]) -> String {
        JSONNode.object([("species", JSONNode(.array(items.map { s in
            JSONNode.object([("id", string(s.id)), ("scientific_name", string(s.scientificName)), ("common_name", string(s.commonName)),
                             ("kind", string(s.kind)), ("sightings", int(s.sightings))])
        })))]).compactText
    }

    /// `{"species": [...]}` as ``species(_:)`` for the most seen, `kind` null.
    public static func popular(_ items: [SpeciesCount]) -> String {
        JSONNode.object([("species", JSONNode(.array(items.map { s in
            JSONNode.object([("id", string(s.id)), ("scientific_name", string(s.scientificName)), ("common_name", string(s.commonName)),
                             ("kind", JSONNode(.null)), ("sightings", int(s.sightings))])
        })))]).compactText
    }

    /// `{"sites": [{"id", "name", "latitude", "longitude", "kind", "distance_m"}]}` (`distance_m` null for a search).
    public static func sites(_ items: [SiteSummary], distances: [Double]? = nil) -> String {
        JSONNode.object([("sites", JSONNode(.array(items.enumerated().map { i, s in
            JSONNode.object([("id", string(s.id)), ("name", string(s.name)), ("latitude", number(s.latitude)), ("longitude", number(s.longitude)),
                             ("kind", string(s.kind)), ("distance_m", number(distances.map { ($0[i] * 10).rounded() / 10 }))])
        })))]).compactText
    }
}
