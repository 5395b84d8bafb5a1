import DiveCore

/// What a CSV header names: a ``CSVField``, the ``CSVUnit`` the header states, and for a
/// cylinder's column, which cylinder. Headers in English, German, French, Spanish, Italian
/// and Dutch are known, as the common exports (Subsurface, Shearwater Cloud, APD LogViewer,
/// Seabear, spreadsheets) and umilog's own CSV write them, and the Darwin Core terms (TDWG's
/// published vocabulary for records of an event at a place: `eventDate`, `eventTime`,
/// `locationID`, `locality`, `decimalLatitude`, `decimalLongitude`, `maximumDepthInMeters`,
/// `eventRemarks` …) that a dive has a member for; `docs/csv-formats.md` §10.2 lists them.
///
/// **Normalisation.** A byte-order mark, surrounding white space, surrounding quotes and one
/// leading `#` (`#Nr`) are dropped. Case is ignored and accents are folded (`é`→`e`, `ä`→`a`,
/// `ß`→`ss`, `ø`→`o`, `æ`→`ae`); a header that spells an umlaut `ae`/`oe`/`ue` (`Laenge`) is
/// tried that way too. `_`, `-`, `.`, `/` and any run of spaces separate words; apostrophes
/// join them (`l'eau` → `leau`). `#`, `no`, `nr`, `n°`, `nº`, `num`, `number`, `nummer` and
/// `numero` are one word, "number". Words written together match words written apart
/// (`maxdepth`, `WaterTemp`).
///
/// **Units** are taken from a bracketed group anywhere in the header (`Depth (ft)`,
/// `Tiefe [m]`, `Ambient Temp. (Celsius)`) or from the last word or two (`Temp °F`,
/// `start pressure psi`, `max_depth_ft`, `Tank Size cu ft`), spelled as
/// ``CSVUnit/init(spelling:)`` reads them. The whole header is tried first, so a name ending in
/// a unit's spelling (`water_temp_min`, `GF Min`) keeps its last word. A bracketed group that
/// is not a unit or a number (`(Volts)`, `(2 minute avg)`) is left out. A unit of another
/// dimension than the field's (`Depth (bar)`, `Notes (m)`) makes the header not understood:
/// the result is `nil`. `.ignored` columns keep whatever unit they state; latitude and
/// longitude accept a bare `°` and drop it.
///
/// **Cylinder index** (1-based) comes from a bracketed number (`startpressure (2)`) or one
/// number among the words (`Tank 2 pressure`, `tank pressure 1`, `pressure_2_bar`,
/// `Flasche 2 Anfangsdruck`); a cylinder word with the number glued on is read apart (`T2`,
/// `Tank2`), and a cylinder word in front of a cylinder field is optional (`Flasche
/// Anfangsdruck` is `Anfangsdruck`). Only cylinder fields and ``CSVField/samplePressure`` carry
/// an index, and ``CSVField/diveType``, of which a dive has several at once (`diveType_1`,
/// `diveType_2`: a course, a boat dive, a night dive); `.ignored` drops it (`PPO2 - C1 Cell 2`),
/// and any other field with a number is not understood. No number means no index
/// (`sample pressure (bar)`: the reader's cylinder 1).
///
/// **Ambiguity.** The dictionary sees one header, not the file, so a word used for both a
/// summary and a sample gets one meaning, and the reader re-labels it once it knows whether
/// the file is a dive list or a profile (a dive list's `Depth` is the greatest depth, a
/// profile's `duration` the sample time); a preset names what an export means by it:
/// - `duration`, `dive time`, `bottom time`, `Max Time` and their translations are
///   ``CSVField/duration`` even with a unit (APD's `Dive Time (s)`); `sample time`, `elapsed`,
///   `runtime` are ``CSVField/sampleTime``.
/// - `Time`, `Zeit`, `Heure` … are the time of day (``CSVField/time``, as in Subsurface's and
///   spreadsheets' dive lists; Seabear's sample table means the sample time) unless they state
///   a time unit: `Time (sec)`, `Zeit [s]` are ``CSVField/sampleTime``.
/// - Plain `Depth`, `Tiefe`, `Profondeur` … are ``CSVField/sampleDepth``; `Max Depth` …
///   ``CSVField/maxDepth``.
/// - Plain `Temperature`, `Temp`, `Temperatur` are ``CSVField/sampleTemperature``;
///   `Water Temp`, `Min temp`, `Bottom temp` ``CSVField/waterTemperature`` (Shearwater's sample
///   table calls its temperature `Water Temp`).
/// - Plain `Pressure`, `Druck`, `Tank pressure` are ``CSVField/samplePressure``; start and end
///   pressures are named as such.
/// - `Location` is ``CSVField/location``; `Site`, `Dive Site`, `Ort`, `Lieu`, `Duikstek` …
///   ``CSVField/site``.
/// - `Note` is ``CSVField/notes`` (the English and Italian sense), never a French grade.
/// - `Start Date` (Shearwater: a date and a time) and `Start` are ``CSVField/dateTime``.
/// - The model holds one ppO₂ channel: APD's first controller's measured ppO₂ is read, the
///   second's and the single cells' are `.ignored`. Start and end values of a summary that the
///   model has no member for (`Start CNS %`, `End Date`, `End Surface Pressure`) are `.ignored`.
public enum CSVColumnDictionary {
    /// What a header names, or nil when it names nothing we know.
    public static func meaning(ofHeader header: String) -> CSVColumnMeaning? {
        guard let parsed = ParsedHeader(header), !parsed.words.isEmpty else { return nil }
        for candidate in parsed.candidates() {
            let numbers = candidate.words.filter(isNumber)
            let phrase = candidate.words.filter { !isNumber($0) }
            guard numbers.count <= 1, !phrase.isEmpty, let entry = lookup(phrase) else { continue }
            // The first phrase found decides, whether or not its unit and index fit.
            return resolve(entry, unit: candidate.unit, unitText: candidate.unitText,
                           groupIndex: parsed.index, wordIndex: numbers.first.flatMap { Int($0) })
        }
        return nil
    }

    /// The dimension a field's unit must have; `nil` for a field that takes no unit.
    static func dimension(of field: CSVField) -> CSVUnit.Dimension? {
        switch field {
        case .duration, .utcOffset, .surfaceInterval, .sampleInterval, .sampleTime, .ndl, .tts: return .time
        case .maxDepth, .avgDepth, .visibility, .sampleDepth, .ceiling: return .length
        case .waterTemperature, .airTemperature, .sampleTemperature: return .temperature
        case .surfacePressure, .workingPressure, .startPressure, .endPressure, .samplePressure, .sampleAmbientPressure, .ppo2, .setpoint, .sensorPPO2:
            return .pressure
        case .cylinderSize: return .volume
        case .weight: return .mass
        case .gfLow, .gfHigh, .oxygen, .helium, .nitrogen, .cns, .gradientFactor: return .ratio
        case .diveNumber, .diveID, .date, .time, .dateTime, .year, .month, .day, .hour, .minute, .second, .site, .location, .country, .latitude, .longitude,
             .position, .trip, .buddy, .guide, .notes, .rating, .diveType, .computer, .serial, .tags, .suit,
             .gas, .events, .profile, .ignored:
            return nil
        }
    }

    /// Applies the unit and index rules to the table's meaning for a header's phrase.
    private static func resolve(_ entry: CSVColumnMeaning, unit: CSVUnit?, unitText: String?,
                                groupIndex: Int?, wordIndex: Int?) -> CSVColumnMeaning? {
        var meaning = entry
        var unit = unit
        if unitText == "°", [.latitude, .longitude, .position].contains(meaning.field) { unit = nil }
        if let own = entry.unit {
            if let stated = unit, stated != own { return nil }
            unit = own
        }
        if meaning.field == .time, unit?.dimension == .time { meaning.field = .sampleTime }
        if let unit, meaning.field != .ignored, dimension(of: meaning.field) != unit.dimension { return nil }
        meaning.unit = unit

        if let groupIndex, let wordIndex, groupIndex != wordIndex { return nil }
        let index = groupIndex ?? wordIndex
        if index == 0 { return nil }
        if meaning.field.isCylinder || meaning.field == .samplePressure || meaning.field == .diveType {
            meaning.index = index
        } else if meaning.field != .ignored, index != nil {
            return nil
        }
        return meaning
    }

    /// The table's meaning for a phrase: as written, with its words run together, with
    /// umlauts spelled out collapsed, or without a leading cylinder word.
    private static func lookup(_ words: [String]) -> CSVColumnMeaning? {
        let key = words.joined(separator: " ")
        let squashed = key.filter { $0 != " " }
        if let meaning = phrases.exact[key] ?? phrases.squashed[squashed] ?? phrases.collapsed[collapseUmlauts(squashed)] {
            return meaning
        }
        if words.count > 1, cylinderWords.contains(words[0]), let meaning = lookup(Array(words.dropFirst())),
           meaning.field.isCylinder || meaning.field == .samplePressure {
            return meaning
        }
        return nil
    }

    static func isNumber(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

// MARK: - Normalisation

extension CSVColumnDictionary {
    /// A header split into its words, its bracketed unit and its bracketed index.
    struct ParsedHeader {
        var words: [String] = []
        var unit: CSVUnit?
        /// The unit as spelled, folded (`°` tells latitude's degrees from °C).
        var unitText: String?
        var index: Int?

        /// One reading of the header: its words, and the unit they go with.
        struct Candidate {
            var words: [String]
            var unit: CSVUnit?
            var unitText: String?
        }

        /// `nil` when two bracketed groups state different units or indices.
        init?(_ header: String) {
            let scalars = Array(fold(clean(header)).unicodeScalars)
            var outside = String.UnicodeScalarView()
            // Closing brackets found nowhere after some point are not looked for again: a header
            // of opening brackets would otherwise be searched to its end once for each.
            var unclosed: Set<Unicode.Scalar> = []
            var i = 0
            while i < scalars.count {
                let c = scalars[i]
                let close: Unicode.Scalar? = c == "(" ? ")" : c == "[" ? "]" : c == "{" ? "}" : nil
                guard let close, !unclosed.contains(close), let end = scalars[(i + 1)...].firstIndex(of: close) else {
                    if let close { unclosed.insert(close) }
                    outside.append(c)
                    i += 1
                    continue
                }
                var inner = String.UnicodeScalarView()
                inner.append(contentsOf: scalars[(i + 1)..<end])
                let text = String(inner).trimmingWhitespace()
                if let u = CSVUnit(spelling: text) {
                    if let unit, unit != u { return nil }
                    unit = u
                    unitText = text
                } else if isNumber(text), let n = Int(text) {
                    if let index, index != n { return nil }
                    index = n
                }
                outside.append(" ")
                i = end + 1
            }
            words = CSVColumnDictionary.words(String(outside))
        }

        /// The readings to try, in order: every word as a name, then the last word or two
        /// as a unit.
        func candidates() -> [Candidate] {
            var out = [Candidate(words: words, unit: unit, unitText: unitText)]
            for n in [2, 1] where words.count > n {
                let text = words.suffix(n).joined(separator: " ")
                if let u = CSVUnit(spelling: text), unit == nil || unit == u {
                    out.append(Candidate(words: Array(words.dropLast(n)), unit: u, unitText: text))
                    break
                }
            }
            return out
        }
    }

    /// The header without a byte-order mark, surrounding white space and quotes, and one
    /// leading `#`.
    static func clean(_ header: String) -> String {
        var s = Substring(header.filter { $0 != "\u{FEFF}" })
        func trim() {
            while s.first?.isWhitespace == true { s.removeFirst() }
            while s.last?.isWhitespace == true { s.removeLast() }
        }
        trim()
        while s.first == "\"" || s.last == "\"" || (s.count > 1 && s.first == "'" && s.last == "'") {
            if s.first == "'" { s.removeFirst(); s.removeLast() }
            else {
                if s.first == "\"" { s.removeFirst() }
                if s.last == "\"" { s.removeLast() }
            }
            trim()
        }
        if s.count > 1, s.first == "#" {
            s.removeFirst()
            trim()
        }
        return String(s)
    }

    /// Lower case, accents folded, combining marks and invisible marks dropped.
    static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for s in text.lowercased().unicodeScalars {
            if (0x300...0x36F).contains(s.value) || s.value == 0x200B || s.value == 0xFEFF { continue }
            if let plain = foldings[s] { out.append(contentsOf: plain.unicodeScalars) } else { out.append(s) }
        }
        return String(out)
    }

    private static let foldings: [Unicode.Scalar: String] = {
        let groups: [(String, String)] = [
            ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđ", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"), ("ĥħ", "h"),
            ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"), ("òóôõöøōŏő", "o"),
            ("ŕŗř", "r"), ("śŝşšș", "s"), ("ţťŧț", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"), ("ýÿŷ", "y"),
            ("źżž", "z"), ("æ", "ae"), ("œ", "oe"), ("ß", "ss"), ("þ", "th"), ("ð", "d"),
        ]
        var map: [Unicode.Scalar: String] = [:]
        for (letters, plain) in groups {
            for s in letters.unicodeScalars { map[s] = plain }
        }
        return map
    }()

    /// The words of folded text outside brackets. Letters and digits make words; `#` and `%`
    /// are words of their own; a degree sign starts a word before a letter (`temp°c`) and
    /// ends one otherwise (`n°`); apostrophes are dropped; anything else separates.
    static func words(_ text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var words: [String] = []
        var word = String.UnicodeScalarView()
        func flush() {
            if !word.isEmpty { words.append(String(word)) }
            word = String.UnicodeScalarView()
        }
        for (i, s) in scalars.enumerated() {
            switch s {
            case "'", "\u{2019}", "\u{02BC}", "`":
                continue
            case "#", "%":
                flush()
                words.append(String(s))
            case "°", "º":
                if i + 1 < scalars.count, scalars[i + 1].properties.isAlphabetic { flush() }
                word.append(s)
            case "℃", "℉":
                word.append(s)
            default:
                if s.properties.isAlphabetic || s.properties.numericType != nil { word.append(s) } else { flush() }
            }
        }
        flush()
        return words.flatMap(canonicalWords)
    }

    /// A word in the table's terms: "number" markers become `nr`; a cylinder word with its
    /// number glued on (`t2`, `tank2`) becomes two words.
    private static func canonicalWords(_ word: String) -> [String] {
        if numberMarkers.contains(word) { return ["nr"] }
        if let digit = word.firstIndex(where: { $0.isASCII && $0.isNumber }), digit != word.startIndex,
           isNumber(String(word[digit...])), let prefix = cylinderPrefixes[String(word[..<digit])] {
            return [prefix, String(word[digit...])]
        }
        return [word]
    }

    private static let numberMarkers: Set<String> = ["#", "no", "nr", "n°", "nº", "num", "nro", "number", "nummer", "numero"]

    /// Cylinder words that may have a number glued on, and how they are read.
    private static let cylinderPrefixes: [String: String] = [
        "t": "tank", "tank": "tank", "cyl": "cylinder", "cylinder": "cylinder", "flasche": "flasche",
        "bottle": "bottle", "bouteille": "bouteille", "bloc": "bloc", "botella": "botella", "tanque": "tanque",
        "bombola": "bombola", "fles": "fles",
    ]

    /// Words naming a cylinder, optional in front of a cylinder field.
    private static let cylinderWords = Set(cylinderPrefixes.values)

    /// Spelled-out umlauts collapsed (`laenge` → `lange`), to match the table's folded `ä`.
    static func collapseUmlauts(_ key: String) -> String {
        var out = ""
        var previous: Character?
        for c in key {
            if c == "e", let p = previous, p == "a" || p == "o" || p == "u" {
                out.append(p)
                previous = nil
                continue
            }
            if let p = previous { out.append(p) }
            previous = c
        }
        if let p = previous { out.append(p) }
        return out
    }
}

// MARK: - The table

extension CSVColumnDictionary {
    /// The table's phrases, normalised as headers are.
    struct PhraseTable: Sendable {
        var exact: [String: CSVColumnMeaning] = [:]
        /// Keyed by the phrase without spaces; a key two meanings share is left out.
        var squashed: [String: CSVColumnMeaning] = [:]
        /// Keyed by the squashed phrase with `ae`/`oe`/`ue` collapsed; shared keys left out.
        var collapsed: [String: CSVColumnMeaning] = [:]
        /// Phrases listed with two meanings: a mistake in the table (tested to be empty).
        var conflicts: [String] = []

        init(_ entries: [(CSVColumnMeaning, [String])]) {
            var squashedAmbiguous: Set<String> = []
            var collapsedAmbiguous: Set<String> = []
            for (meaning, spellings) in entries {
                for spelling in spellings {
                    let key = CSVColumnDictionary.words(CSVColumnDictionary.fold(spelling)).joined(separator: " ")
                    if let known = exact[key], known != meaning { conflicts.append(spelling) }
                    exact[key] = exact[key] ?? meaning
                    let squashedKey = key.filter { $0 != " " }
                    if let known = squashed[squashedKey], known != meaning { squashedAmbiguous.insert(squashedKey) }
                    squashed[squashedKey] = squashed[squashedKey] ?? meaning
                    let collapsedKey = CSVColumnDictionary.collapseUmlauts(squashedKey)
                    if let known = collapsed[collapsedKey], known != meaning { collapsedAmbiguous.insert(collapsedKey) }
                    collapsed[collapsedKey] = collapsed[collapsedKey] ?? meaning
                }
            }
            for key in squashedAmbiguous { squashed[key] = nil }
            for key in collapsedAmbiguous { collapsed[key] = nil }
        }
    }

    static let phrases = PhraseTable(entries)

    /// Every known name, by meaning, in the order English, German, French, Spanish, Italian,
    /// Dutch, written as people write them (normalised when the table is built). Units and
    /// cylinder numbers are not part of a name.
    private static let entries: [(CSVColumnMeaning, [String])] = [
        (.init(.diveNumber), [
            "dive number", "dive nr", "dive #", "nr", "log number", "dive log number", "tauchgang nr", "tauchgang",
            "tauchgangnummer", "tg nr", "lfd nr", "plongée n°", "numéro de plongée", "n° plongée", "inmersión nº",
            "número de inmersión", "buceo nº", "immersione n", "numero immersione", "numero di immersione", "duik nr",
            "duiknummer",
        ]),
        (.init(.diveID), ["dive id", "dive uuid", "uuid", "event id"]),
        (.init(.date), [
            "date", "dive date", "datum", "tauchdatum", "date de plongee", "fecha", "fecha de inmersion", "data",
            "data immersione", "duikdatum", "event date",
        ]),
        (.init(.time), [
            "time", "start time", "entry time", "time in", "time of day", "zeit", "uhrzeit", "startzeit",
            "beginnzeit", "heure", "heure de debut", "heure debut", "hora", "hora de inicio", "hora inicio", "ora",
            "ora di inizio", "ora inizio", "tijd", "begintijd", "starttijd", "event time",
        ]),
        (.init(.dateTime), [
            "datetime", "date time", "date and time", "start date", "start", "start datetime", "datum zeit",
            "datum uhrzeit", "datum und uhrzeit", "date et heure", "date heure", "fecha y hora", "fecha hora",
            "data e ora", "data ora", "datum tijd", "datum en tijd",
        ]),
        // The parts of a start. German `Tag` is not a day: it is read as tags; Spanish `Hora`,
        // French `Heure` and Italian `Ora` are a time of day.
        (.init(.year), ["year", "jahr", "annee", "año", "anno", "jaar"]),
        (.init(.month), ["month", "monat", "mois", "mes", "mese", "maand"]),
        (.init(.day), ["day", "jour", "día", "giorno", "dag"]),
        (.init(.hour), ["hour", "stunde", "uur"]),
        (.init(.minute), ["minute", "minuto", "minuut"]),
        (.init(.second), ["second", "sekunde", "seconde", "segundo", "secondo"]),
        (.init(.utcOffset), [
            "utc offset", "gmt offset", "time zone", "tz", "zeitzone", "fuseau horaire", "zona horaria",
            "fuso orario", "tijdzone",
        ]),
        (.init(.duration), [
            "duration", "dive time", "bottom time", "max time", "total time", "dive duration", "dauer", "tauchzeit",
            "tauchdauer", "grundzeit", "duree", "duree de plongee", "temps de plongee", "duracion",
            "tiempo de inmersion", "tiempo de fondo", "durata", "durata immersione", "tempo di immersione", "duur",
            "duiktijd",
        ]),
        (.init(.maxDepth), [
            "max depth", "maximum depth", "depth max", "deepest", "max tiefe", "maximale tiefe", "tiefe max",
            "maximaltiefe", "tiefe maximal", "profondeur max", "profondeur maximale", "prof max",
            "profundidad maxima", "profundidad max", "profondita massima", "profondita max", "prof massima",
            "max diepte", "maximale diepte", "diepte max",
        ]),
        (.init(.maxDepth, unit: .metres), ["maximum depth in meters", "maximum depth in metres"]),
        (.init(.avgDepth), [
            "avg depth", "average depth", "mean depth", "depth avg", "mittlere tiefe", "durchschnittstiefe",
            "durchschnittliche tiefe", "tiefe durchschnitt", "profondeur moyenne", "prof moyenne",
            "profundidad media", "profundidad promedio", "prof media", "profondita media", "gemiddelde diepte",
            "gem diepte",
        ]),
        (.init(.waterTemperature), [
            "water temp", "water temperature", "water temp min", "min temp", "min temperature", "minimum temperature",
            "temp min", "temperature min", "bottom temp", "bottom temperature", "low temp", "wassertemperatur",
            "wassertemp", "wasser temp", "temperatur wasser", "temperatur min", "min temperatur",
            "minimale temperatur", "wassertemperatur min", "temperature de l'eau", "temperature eau", "temp eau",
            "temperature minimale", "temperatura del agua", "temperatura agua", "temp agua", "temperatura minima",
            "temperatura acqua", "temperatura dell'acqua", "temp acqua", "watertemperatuur", "temperatuur water",
            "min temperatuur", "minimale temperatuur",
        ]),
        (.init(.airTemperature), [
            "air temp", "air temperature", "surface temp", "surface temperature", "lufttemperatur", "lufttemp",
            "luft temp", "temperatur luft", "temperature de l'air", "temperature air", "temp air",
            "temperatura del aire", "temperatura aire", "temp aire", "temperatura aria", "temperatura dell'aria",
            "temp aria", "luchttemperatuur", "lucht temp", "temperatuur lucht",
        ]),
        (.init(.site), [
            "site", "dive site", "site name", "spot", "dive spot", "tauchplatz", "tauchplatzname", "ort", "tauchort",
            "tauchspot", "site de plongee", "lieu", "lieu de plongee", "spot de plongee", "lugar",
            "lugar de inmersion", "sitio", "sitio de buceo", "punto de buceo", "punto de inmersion", "sito",
            "sito di immersione", "punto d'immersione", "punto di immersione", "luogo", "duikstek", "duikplaats",
            "stek", "location id",
        ]),
        (.init(.location), [
            "location", "locality", "region", "area", "gebiet", "lokalität", "localite", "ubicacion", "localidad",
            "zona", "localita", "locatie", "gebied", "regio",
        ]),
        (.init(.country), ["country", "land", "pays", "pais", "paese", "country code"]),
        (.init(.latitude), [
            "lat", "latitude", "gps lat", "gps latitude", "site lat", "breite", "breitengrad", "latitud",
            "latitudine", "breedte", "breedtegraad", "decimal latitude",
        ]),
        (.init(.longitude), [
            "lon", "lng", "long", "longitude", "gps lon", "gps lng", "gps long", "gps longitude", "site lon", "länge",
            "längengrad", "longitud", "longitudine", "lengte", "lengtegraad", "decimal longitude",
        ]),
        (.init(.position), [
            "gps", "coordinates", "coords", "position", "gps position", "gps coordinates", "lat lon", "lat long",
            "lat lng", "koordinaten", "gps koordinaten", "coordonnees", "coordonnees gps", "coordenadas",
            "coordenadas gps", "coordinate", "coordinate gps", "coordinaten", "positie",
        ]),
        (.init(.trip), [
            "trip", "trip name", "dive trip", "reise", "tauchreise", "voyage", "sejour", "viaje", "viaggio", "reis",
            "duikreis",
        ]),
        (.init(.buddy), [
            "buddy", "buddies", "buddy's", "dive buddy", "partner", "dive partner", "companion", "tauchpartner",
            "tauchbuddy", "binome", "compagnon", "compagnon de plongee", "companero", "companeros",
            "companero de buceo", "compagno", "compagni", "compagno di immersione", "maat", "duikmaat", "duikbuddy",
            "duikpartner", "buddy name", "partner name",
        ]),
        (.init(.guide), [
            "divemaster", "dive master", "guide", "dive guide", "instructor", "dive leader", "tauchguide",
            "tauchlehrer", "tauchführer", "guide de plongee", "moniteur", "instructeur", "guia", "guia de buceo",
            "instructor de buceo", "guida", "istruttore", "gids", "duikgids", "duikinstructeur",
        ]),
        (.init(.notes), [
            "notes", "note", "comments", "comment", "remarks", "description", "memo", "bemerkungen", "bemerkung",
            "notizen", "notiz", "kommentar", "kommentare", "beschreibung", "remarques", "remarque", "commentaires",
            "commentaire", "notas", "nota", "comentarios", "comentario", "observaciones", "commenti", "commento",
            "annotazioni", "opmerkingen", "opmerking", "notities", "notitie", "commentaar", "event remarks",
            "field notes",
        ]),
        (.init(.visibility), [
            "visibility", "vis", "viz", "sicht", "sichtweite", "visibilite", "visibilidad", "visibilita", "zicht",
            "zichtbaarheid",
        ]),
        (.init(.weight), [
            "weight", "weights", "lead", "ballast", "blei", "gewicht", "bleigewicht", "lest", "plomb", "plombs",
            "lastre", "plomo", "plomos", "zavorra", "piombi", "piombo", "lood", "loodgewicht", "extra weight",
        ]),
        (.init(.rating), [
            "rating", "stars", "score", "bewertung", "sterne", "evaluation", "appreciation", "valoracion",
            "puntuacion", "calificacion", "valutazione", "voto", "beoordeling", "waardering",
        ]),
        (.init(.diveType), [
            "mode", "dive mode", "type", "dive type", "tauchart", "tauchmodus", "modus", "type de plongee",
            "mode de plongee", "tipo", "tipo de inmersion", "modo", "tipo di immersione", "tipo immersione",
            "modalita", "duiktype", "soort duik",
        ]),
        (.init(.computer), [
            "dive computer", "computer", "computer model", "model", "product", "device", "tauchcomputer", "modell",
            "gerät", "ordinateur", "ordinateur de plongee", "modele", "ordenador", "ordenador de buceo",
            "computadora", "modelo", "computer subacqueo", "modello", "duikcomputer",
        ]),
        (.init(.serial), [
            "serial", "serial number", "computer serial number", "device serial", "sn", "seriennummer", "serien nr",
            "numero de serie", "numero di serie", "matricola", "serienummer",
        ]),
        (.init(.tags), [
            "tags", "tag", "keywords", "labels", "schlagworte", "schlagwörter", "stichworte", "etiquettes",
            "etiquetas", "etichette", "trefwoorden",
        ]),
        (.init(.suit), [
            "suit", "exposure suit", "wetsuit", "anzug", "tauchanzug", "combinaison", "traje", "muta", "pak",
            "duikpak",
        ]),
        (.init(.surfaceInterval), [
            "surface interval", "surface time", "oberflächenpause", "oberflächenintervall", "intervalle de surface",
            "intervalle surface", "intervalo en superficie", "intervalo de superficie", "intervallo di superficie",
            "intervallo superficie", "oppervlakte-interval",
        ]),
        // A whole profile in one cell (§10.14); umilog's own `samples` column counts them (its
        // preset says so).
        (.init(.profile), [
            "profile", "dive profile", "profile data", "profile json", "samples", "samples json", "sample data",
            "waypoints", "tauchprofil", "profildaten", "profil", "profil de plongee", "perfil", "perfil de buceo",
            "profilo", "profilo immersione", "duikprofiel", "profiel",
        ]),
        (.init(.sampleInterval), [
            "sample interval", "sampling interval", "log interval", "recording interval",
            "profile interval", "messintervall", "abtastintervall", "intervalle d echantillonnage", "intervalo de muestreo",
            "intervallo di campionamento", "meetinterval",
        ]),
        (.init(.surfacePressure), [
            "surface pressure", "start surface pressure", "atmospheric pressure", "air pressure",
            "barometric pressure", "luftdruck", "oberflächendruck", "pression atmospherique", "pression de surface",
            "presion atmosferica", "presion en superficie", "pressione atmosferica", "pressione superficiale",
            "luchtdruk", "oppervlaktedruk",
        ]),
        (.init(.gfLow), ["gf low", "gf minimum", "gf min", "gf lo", "gradient factor low"]),
        (.init(.gfHigh), ["gf high", "gf maximum", "gf max", "gf hi", "gradient factor high"]),
        (.init(.cylinderSize), [
            "cylinder size", "cylinder volume", "cylinder capacity", "tank size", "tank volume", "tank capacity",
            "bottle size", "size", "volume", "flaschengröße", "flaschenvolumen", "volume bouteille", "volume du bloc",
            "taille bouteille", "capacite bouteille", "volumen botella", "volumen de botella", "capacidad botella",
            "volume bombola", "capacita bombola", "fles inhoud", "fles volume", "inhoud",
        ]),
        (.init(.workingPressure), [
            "working pressure", "work pressure", "rated pressure", "wp", "betriebsdruck", "nenndruck",
            "pression de service", "presion de trabajo", "pressione di esercizio", "pressione d'esercizio",
            "werkdruk",
        ]),
        (.init(.startPressure), [
            "start pressure", "pressure start", "begin pressure", "initial pressure", "pressure in", "anfangsdruck",
            "startdruck", "druck anfang", "pression debut", "pression de debut", "pression initiale",
            "pression depart", "presion inicial", "presion de inicio", "pressione iniziale", "pressione inizio",
            "begindruk", "startdruk",
        ]),
        (.init(.startPressure, unit: .psi), ["psi in"]),
        (.init(.startPressure, unit: .bar), ["bar in"]),
        (.init(.endPressure), [
            "end pressure", "pressure end", "final pressure", "pressure out", "enddruck", "druck ende", "restdruck",
            "pression fin", "pression de fin", "pression finale", "presion final", "presion de fin",
            "pressione finale", "pressione fine", "einddruk", "restdruk",
        ]),
        (.init(.endPressure, unit: .psi), ["psi out"]),
        (.init(.endPressure, unit: .bar), ["bar out"]),
        (.init(.oxygen), [
            "o2", "fo2", "oxygen", "nitrox", "o2 mix", "sauerstoff", "sauerstoffanteil", "o2 anteil", "oxygene",
            "oxigeno", "ossigeno", "zuurstof",
        ]),
        (.init(.oxygen, unit: .fraction), ["fraction o2"]),
        (.init(.helium), ["he", "fhe", "helium", "heliumanteil", "he anteil", "helio", "elio"]),
        (.init(.helium, unit: .fraction), ["fraction he"]),
        (.init(.nitrogen), ["n2", "fn2", "nitrogen", "stickstoff", "azote", "nitrogeno", "azoto", "stikstof"]),
        (.init(.nitrogen, unit: .fraction), ["fraction n2"]),
        (.init(.gas), [
            "gas", "gas name", "gas mix", "gas mixture", "mix", "breathing gas", "gemisch", "atemgas", "melange",
            "mezcla", "miscela", "mengsel",
        ]),
        (.init(.sampleTime), [
            "sample time", "elapsed", "elapsed time", "runtime", "run time", "laufzeit", "temps ecoule",
            "tiempo transcurrido", "tempo trascorso", "verstreken tijd", "temps", "tempo", "tiempo",
        ]),
        (.init(.sampleDepth), [
            "depth", "sample depth", "current depth", "tiefe", "profondeur", "profundidad", "profondita", "diepte",
        ]),
        (.init(.sampleTemperature), [
            "temperature", "temp", "sample temperature", "sample temp", "ambient temp", "ambient temperature",
            "temperatur", "temperatura", "temperatuur",
        ]),
        (.init(.samplePressure), [
            "pressure", "sample pressure", "tank pressure", "cylinder pressure", "druck", "flaschendruck",
            "tankdruck", "pression", "pression bouteille", "presion", "presion botella", "pressione",
            "pressione bombola", "druk", "flesdruk",
        ]),
        (.init(.sampleAmbientPressure), [
            "ambient pressure", "absolute pressure", "sample ambient pressure", "umgebungsdruck", "pression ambiante",
            "presion ambiente", "pressione ambiente", "omgevingsdruk",
        ]),
        (.init(.ndl), [
            "ndl", "ndt", "no deco time", "no deco", "no decompression limit", "no decompression time", "current ndl",
            "sample ndl", "nullzeit", "temps sans palier", "tiempo sin descompresion", "tempo di non decompressione",
            "nultijd",
        ]),
        (.init(.tts), [
            "tts", "time to surface", "total time to surface", "sample tts", "austauchzeit", "aufstiegszeit", "dtr",
            "temps de remontee", "tiempo hasta superficie", "tiempo de ascenso", "tempo di risalita", "opstijgtijd",
        ]),
        (.init(.ceiling), [
            "ceiling", "deco ceiling", "decompression ceiling", "ceil", "sample ceiling", "plafond",
            "plafond de decompression", "techo", "techo de descompresion",
        ]),
        (.init(.ppo2), [
            "ppo2", "po2", "average ppo2", "sample ppo2", "measured ppo2", "ppo2 c1 measured", "o2 partial pressure",
            "sauerstoffpartialdruck", "pression partielle o2", "presion parcial o2", "pressione parziale o2",
        ]),
        (.init(.cns), ["cns", "cns exposure", "cns toxicity", "cns load", "sample cns"]),
        (.init(.gradientFactor), ["gf", "gradient factor", "current gf", "sample gf"]),
        (.init(.events), [
            "events", "event", "sample events", "ereignisse", "ereignis", "evenements", "evenement", "eventos",
            "evento", "eventi", "gebeurtenissen",
        ]),
        (.init(.ignored), [
            // Rates, body and electronics.
            "sac", "sac rate", "rmv", "heartrate", "heart rate", "sample heartrate", "sample heart rate", "pulse",
            "puls", "battery", "battery voltage", "start battery voltage", "end battery voltage", "c1 battery",
            "c2 battery", "otu", "otu exposure", "co2mbar", "co2", "ascent rate", "gas time remaining",
            // Vertical speed, signed or not: it follows from the depth over time.
            "speed", "vertical speed", "descent rate", "descent speed", "ascent speed", "vertical rate",
            // CCR control.
            "setpoint", "set point", "ppo2 setpoint", "low set point", "high set point", "start low set point",
            "start high set point", "end low set point", "end high set point", "set point type", "ppo2 c1 cell",
            "ppo2 c2 cell", "ppo2 c2 measured", "external ppo2", "external o2 sensor",
            "start external o2 sensor status", "end external o2 sensor status", "current circuit mode",
            "current ccr mode", "circuit switch type", "gas switch needed",
            // Decompression beyond the model's channels.
            "first stop depth", "first stop time", "safe ascent depth", "deco model",
            "vpm b conservatism", "conservatism",
            // Summary values without a member, and file bookkeeping.
            "start cns", "end cns", "end date", "end surface pressure", "imperial units", "error history", "firmware",
            "firmware version", "computer firmware version", "log version", "dive log version", "deco code version",
        ]),
        // Darwin Core: the shallower end of a range of depths, which a dive has no member for.
        (.init(.ignored, unit: .metres), ["minimum depth in meters", "minimum depth in metres"]),
    ]
}
