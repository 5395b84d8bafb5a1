import DiveCore

/// MacDive's free-text fields read onto the model's closed vocabularies: only a word that means
/// the model's value (case-folded, English as MacDive offers them) is read; anything else (a
/// diver's own word, another language's: `Sole`, `Da Barca`) is kept as written by the caller.
enum MacDiveWords {
    static let weather: [String: Weather] = [
        "clear": .clear, "sunny": .clear, "sun": .clear, "fair": .clear,
        "partly cloudy": .partlyCloudy, "partly sunny": .partlyCloudy,
        "cloudy": .overcast, "overcast": .overcast,
        "rain": .rain, "rainy": .rain, "showers": .rain, "storm": .storm, "stormy": .storm, "thunderstorm": .storm,
        "snow": .snow, "snowy": .snow, "fog": .fog, "foggy": .fog, "mist": .fog, "misty": .fog,
    ]
    static let current: [String: Current] = [
        "none": .none, "no current": .none, "light": .light, "weak": .light, "mild": .light, "slight": .light,
        "moderate": .moderate, "medium": .moderate, "strong": .strong, "extreme": .extreme, "very strong": .extreme,
    ]
    static let waves: [String: Waves] = [
        "calm": .calm, "flat": .calm, "slight": .slight, "small": .slight, "light": .slight,
        "moderate": .moderate, "medium": .moderate, "rough": .rough, "choppy": .rough,
    ]
    static let entry: [String: EntryType] = [
        "shore": .shore, "beach": .shore, "boat": .boat, "liveaboard": .boat, "pier": .pier, "jetty": .pier, "dock": .pier, "pool": .pool,
    ]
    static let water: [String: WaterType] = [
        "salt water": .salt, "salt": .salt, "saltwater": .salt, "sea": .salt, "ocean": .salt,
        "fresh water": .fresh, "fresh": .fresh, "freshwater": .fresh, "brackish": .brackish, "brackish water": .brackish,
    ]

    /// A gear item's type from MacDive's word: the model's type where the word names one
    /// (`Octopus` and `Regulator` are regulators, `Torch` a light), else `other`.
    static func gearType(_ text: String) -> GearType {
        let t = text.folded
        if let exact = GearType(rawValue: t) { return exact }
        let words: [String: GearType] = [
            "octopus": .regulator, "octo": .regulator, "reg": .regulator, "bc": .bcd, "jacket": .bcd, "dry suit": .drysuit,
            "wet suit": .wetsuit, "semi-dry": .wetsuit, "semidry": .wetsuit, "torch": .light, "lamp": .light, "flashlight": .light,
            "dsmb": .smb, "buoy": .smb, "spool": .reel, "tank": .cylinder, "dpv": .scooter, "ccr": .rebreather,
            "line cutter": .lineCutter, "cutter": .lineCutter, "fin": .fins, "glove": .gloves, "boot": .boots, "booties": .boots,
            "watch": .computer, "dive computer": .computer, "plate": .backplate, "strobe": .camera, "housing": .camera,
        ]
        return words[t] ?? .other
    }

    /// `<decoModel>` (`ZHL-16C GF 40/85`): kept as the model's name, with Bühlmann's algorithm
    /// where the name says ZHL or Bühlmann, RGBM where it says so, and the gradient factors
    /// where it states `GF low/high`.
    static func decoModel(_ text: String) -> DecoModel {
        var m = DecoModel()
        m.name = text.count > 64 ? String(text.prefix(64)) : text
        let lower = text.lowercased()
        if lower.contains("zhl") || lower.contains("bühlmann") || lower.contains("buhlmann") || lower.contains("buehlmann") {
            m.algorithm = "buhlmann"
        } else if lower.contains("rgbm") {
            m.algorithm = "rgbm"
        }
        let chars = Array(lower)
        if let gf = chars.indices.dropLast().first(where: { chars[$0] == "g" && chars[$0 + 1] == "f" }) {
            let rest = chars[(gf + 2)...].drop(while: { $0 == " " || $0 == ":" })
            let parts = rest.split(separator: "/", maxSplits: 1)
            if parts.count == 2, let low = Int(String(parts[0])), let high = Int(String(parts[1].prefix(while: { $0.isNumber }))),
               (0...100).contains(low), (0...100).contains(high), low <= high {
                m.gfLow = low
                m.gfHigh = high
            }
        }
        return m
    }

    /// A `<sample><alarm>` as an event, by the names Subsurface's MacDive.xslt reads.
    static func alarm(_ text: String) -> (EventType?, String?) {
        switch text.folded {
        case "ascent_rate": return (.ascentRate, nil)
        case "deep_stop": return (.deepStop, nil)
        case "po2_high": return (.ppo2High, nil)
        case "user_depth_alarm": return (.depthAlarm, nil)
        default: return (nil, text)
        }
    }
}
