import DiveCore

/// Dates as people write them, with the month in a word (`28 March 2004`, `4. Juli 2021`,
/// `3 mars 2019`, `12 de agosto de 2018`, `March 28, 2004`, `28-Mar-04`): the word names the
/// month, so such a date needs no day/month order (docs/csv-formats.md §10.9).
extension CSVValues {
    /// A date that names its month in a word of one of the dictionary's six languages (English,
    /// German, French, Spanish, Italian, Dutch, whole or shortened), with its day and a
    /// four-digit year, or a two-digit one after the day and month (`28-Mar-04`); and the text
    /// after it (a time, if any). `nil` for any other text, a numeric date included.
    static func namedMonthDate(_ text: Substring) -> (date: LocalDate, rest: Substring)? {
        var i = text.startIndex
        var day: Int?, month: Int?, year: Int?
        var end = i
        while day == nil || month == nil || year == nil {
            // Between the parts: spaces, and the marks dates are written with.
            while i < text.endIndex, Self.dateGaps.contains(text[i]) { i = text.index(after: i) }
            guard i < text.endIndex else { break }
            let start = i
            if text[i].isASCII, text[i].isNumber {
                while i < text.endIndex, text[i].isASCII, text[i].isNumber { i = text.index(after: i) }
                let digits = text[start..<i]
                // `10:12` is a time, never a day or a year.
                guard let n = Int(digits), i == text.endIndex || text[i] != ":" else { return nil }
                if digits.count == 4, year == nil {
                    year = n
                } else if digits.count <= 2, day == nil {
                    day = n
                } else if digits.count <= 2, year == nil, month != nil {
                    // `28-Mar-04`: a two-digit year, last, after a day and a month word.
                    year = n <= thisYear % 100 ? 2000 + n : 1900 + n
                } else {
                    return nil
                }
            } else if text[i].isLetter {
                while i < text.endIndex, text[i].isLetter { i = text.index(after: i) }
                let word = CSVColumnDictionary.fold(String(text[start..<i]))
                if Self.dateFillers.contains(word) {
                    // `12 de agosto de 2018`, `28th of March`, `1er mars`.
                } else if let m = Self.monthWords[word], month == nil {
                    month = m
                } else {
                    return nil
                }
            } else {
                return nil
            }
            end = i
        }
        guard let day, let month, let year, let date = LocalDate(year: year, month: month, day: day) else { return nil }
        return (date, text[end...])
    }

    /// What may stand between a date's parts.
    private static let dateGaps: Set<Character> = [" ", "\t", ",", ".", "-", "/"]

    /// Words a date may hold besides its parts: Spanish `de`/`del`, English `of` and ordinal
    /// endings, French `er` (`1er`).
    private static let dateFillers: Set<String> = ["de", "del", "of", "the", "st", "nd", "rd", "th", "er"]

    /// Month names and their usual shortenings, folded as headers are (`März` → `marz`, `août` → `aout`), in
    /// English, German, French, Spanish, Italian and Dutch. No shortening is another month's.
    static let monthWords: [String: Int] = {
        let months: [[String]] = [
            ["january", "jan", "januar", "janner", "janvier", "janv", "enero", "ene", "gennaio", "gen", "januari"],
            ["february", "feb", "februar", "feber", "fevrier", "fevr", "fev", "febrero", "febbraio", "februari"],
            ["march", "mar", "marz", "maerz", "mrz", "mars", "marzo", "maart", "mrt"],
            ["april", "apr", "avril", "avr", "abril", "abr", "aprile"],
            ["may", "mai", "mayo", "maggio", "mag", "mei"],
            ["june", "jun", "juni", "juin", "junio", "giugno", "giu"],
            ["july", "jul", "juli", "juillet", "juil", "julio", "luglio", "lug"],
            ["august", "aug", "aout", "agosto", "ago", "augustus"],
            ["september", "sep", "sept", "septembre", "septiembre", "setiembre", "set", "settembre"],
            ["october", "oct", "oktober", "okt", "octobre", "octubre", "ottobre", "ott"],
            ["november", "nov", "novembre", "noviembre"],
            ["december", "dec", "dezember", "dez", "decembre", "diciembre", "dic", "dicembre"],
        ]
        var words: [String: Int] = [:]
        for (k, names) in months.enumerated() {
            for name in names {
                precondition(words[name] == nil, "\(name) names two months")
                words[name] = k + 1
            }
        }
        return words
    }()
}

extension CSVValues {
    /// `1:4`: minutes and seconds with a one-digit second part, whose minutes and seconds;
    /// `nil` for any other text (`1:04`, `1:05:00`).
    static func unpaddedMinutesSeconds(_ text: Substring) -> (minutes: Int, seconds: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 1, let m = Int(parts[0]), let s = Int(parts[1]), m >= 0, s >= 0 else { return nil }
        return (m, s)
    }
}
