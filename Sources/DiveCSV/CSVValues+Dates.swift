import DiveCore

/// Dates as people write them, with the month in a word (`28 March 2004`, `4. Juli 2021`,
/// `3 mars 2019`, `12 de agosto de 2018`, `March 28, 2004`, `28-Mar-04`): the word names the
/// month, so such a date needs no day/month order (docs/csv-formats.md §10.11).
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

/// A start written in a file's name, as programs and people name exports
/// (`…_20210704_1145.txt`, `…_2011-06-16_…csv`): the start of a profile that records none
/// (docs/csv-formats.md §10.12).
extension CSVValues {
    /// The one date in `path`'s base name (its extension dropped) — `YYYYMMDD`, `YYYY-MM-DD`,
    /// `YYYY_MM_DD` or `YYYY.MM.DD`, standing apart from other digits, a year from 1900 to next
    /// year — with the time right after it, if one is (`HHMM`, `HHMMSS`, `HH-MM`, `HH-MM-SS`,
    /// after `_`, `-`, a space or `T`), and the text they were read from. `nil` when the name
    /// holds no such date, or two different ones (then which is the start is not known).
    public static func startInFileName(_ path: String) -> (start: DiveDateTime, text: String)? {
        var base = Substring(path)
        if let slash = base.lastIndex(where: { $0 == "/" || $0 == "\\" }) { base = base[base.index(after: slash)...] }
        if let dot = base.lastIndex(of: "."), dot > base.startIndex { base = base[..<dot] }
        let b = Array(base.utf8)
        func isDigit(_ i: Int) -> Bool { i >= 0 && i < b.count && b[i] &- 0x30 < 10 }
        /// The digits from `i` on when exactly `n` of them stand there (no digit before or after).
        func run(_ i: Int, _ n: Int) -> Int? {
            guard !isDigit(i - 1), i + n <= b.count, (i..<(i + n)).allSatisfy(isDigit), !isDigit(i + n) else { return nil }
            return b[i..<(i + n)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let lastYear = thisYear + 1
        var found: [(start: DiveDateTime, from: Int, to: Int)] = []
        var i = 0
        while i < b.count {
            guard isDigit(i), !isDigit(i - 1) else { i += 1; continue }
            var date: LocalDate?, end = i
            if let n = run(i, 8) {
                date = LocalDate(year: n / 10000, month: n / 100 % 100, day: n % 100)
                end = i + 8
            } else if let y = run(i, 4), i + 10 <= b.count, [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ".")].contains(b[i + 4]),
                      b[i + 7] == b[i + 4], let m = run(i + 5, 2), let d = run(i + 8, 2) {
                date = LocalDate(year: y, month: m, day: d)
                end = i + 10
            }
            guard let date, (1900...lastYear).contains(date.year) else {
                while isDigit(i) { i += 1 }
                continue
            }
            var time: TimeOfDay?
            if end < b.count, [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "T")].contains(b[end]) {
                let t = end + 1
                if let n = run(t, 4), let hm = TimeOfDay(hour: n / 100, minute: n % 100) {
                    time = hm; end = t + 4
                } else if let n = run(t, 6), let hms = TimeOfDay(hour: n / 10000, minute: n / 100 % 100, second: n % 100) {
                    time = hms; end = t + 6
                } else if let h = run(t, 2), t + 5 <= b.count, [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ".")].contains(b[t + 2]),
                          let m = run(t + 3, 2) {
                    let sep = b[t + 2]
                    if t + 8 <= b.count, b[t + 5] == sep, let s = run(t + 6, 2), let hms = TimeOfDay(hour: h, minute: m, second: s) {
                        time = hms; end = t + 8
                    } else if let hm = TimeOfDay(hour: h, minute: m) {
                        time = hm; end = t + 5
                    }
                }
            }
            found.append((DiveDateTime(date: date, time: time), i, end))
            i = end
        }
        guard let first = found.first, found.allSatisfy({ $0.start == first.start }) else { return nil }
        return (first.start, String(decoding: b[first.from..<first.to], as: UTF8.self))
    }
}
