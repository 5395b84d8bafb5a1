import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Issue 18, habit 4: dates, times and durations as people write them (docs/csv-formats.md §10.11).
@Suite struct CSVDatesAsWrittenTests {
    /// A month in a word, in each of the six dictionary languages, whole or shortened: the word
    /// settles day and month, whatever order the caller asks for.
    @Test(arguments: [
        ("28 March 2004", "2004-03-28"), ("4. Juli 2021", "2021-07-04"), ("3 mars 2019", "2019-03-03"),
        ("12 de agosto de 2018", "2018-08-12"), ("5 maggio 2017", "2017-05-05"), ("14 mei 2016", "2016-05-14"),
        ("March 28, 2004", "2004-03-28"), ("28-Mar-04", "2004-03-28"), ("1er août 2020", "2020-08-01"),
        ("2. März 2022", "2022-03-02"), ("15 déc. 2019", "2019-12-15"), ("  28th of March 2004 ", "2004-03-28"),
        ("9 mrt 2015", "2015-03-09"), ("20 ene 2023", "2023-01-20"),
    ])
    func aMonthNameSettlesTheOrder(text: String, date: String) {
        for order in [DateOrder.dmy, .mdy, nil] {
            #expect(CSVValues.date(Substring(text), order: order)?.description == date)
        }
    }

    /// What is not such a date stays unread: no day, a day that does not exist, two months, an
    /// unknown word, a time where the day would be.
    @Test(arguments: ["March 2004", "31 February 2021", "3 March April 2004", "Sunday 4 July 2021", "March 2004 10:12", "3 marsh 2019"])
    func notADateWithAMonthName(text: String) {
        #expect(CSVValues.date(Substring(text), order: .dmy) == nil)
    }

    /// The time after such a date is its time of day; the date part alone has none.
    @Test func aTimeAfterAMonthName() {
        let s = CSVValues.start("4. Juli 2021 10:12 +02", order: nil)
        #expect(s?.date.description == "2021-07-04")
        #expect(s?.time?.description == "10:12:00")
        #expect(s?.offset == UTCOffset(lenient: "+02"))
        #expect(CSVValues.timeOfDay("28 March 2004") == nil)
        #expect(CSVValues.timeOfDay("March 28, 2004, 9:05 PM")?.description == "21:05:00")
    }

    /// One-digit parts with dots: read in the column's order, decided by the values when one
    /// can (`31.8.2024`), else by the dots.
    @Test func dottedOneDigitDates() {
        #expect(CSVValues.date("31.8.2024", order: .dmy)?.description == "2024-08-31")
        var decided = DateOrderDecision()
        decided.observe("31.8.2024")
        decided.observe("1.8.2024")
        #expect(decided.order == .dmy && !decided.isDayFirstByDots)
        var dots = DateOrderDecision()
        dots.observe("1.8.2024")
        dots.observe(" 4.7.2021")
        #expect(dots.order == .dmy && dots.isDayFirstByDots && dots.dottedExample == "1.8.2024")
        var slashes = DateOrderDecision()
        slashes.observe("1/8/2024")
        #expect(slashes.order == nil && !slashes.isDayFirstByDots)
        // A month name is a date seen that says nothing of the others' order.
        var named = DateOrderDecision()
        named.observe("4. Juli 2021")
        named.observe("1/8/2024")
        #expect(named.datesSeen == 2 && named.order == nil)
    }

    /// Durations: `M:S` unpadded, hours and minutes with `h` and `'`, minutes in words, spaces.
    @Test(arguments: [
        ("1:4", 64.0), ("00h38'", 2280), ("1h05", 3900), ("38'", 2280), ("38 min", 2280), ("  42 ", 2520),
        ("\t45:00 ", 2700), ("38 min.", 2280), ("1 h 5 m", 3900), ("38\u{2019}", 2280), ("1h 05'", 3900),
    ])
    func durationsAsWritten(text: String, seconds: Double) {
        #expect(CSVValues.duration(Substring(text), unit: nil) == seconds)
    }

    @Test func unpaddedSecondsAreOneDigit() {
        #expect(CSVValues.unpaddedMinutesSeconds("1:4")! == (1, 4))
        #expect(CSVValues.unpaddedMinutesSeconds("1:04") == nil)
        #expect(CSVValues.unpaddedMinutesSeconds("1:05:0") == nil)
    }

    /// The sample: every habit in one column each, and each rule said once.
    @Test func theSampleReads() throws {
        let path = Paths.samples + "/csv/dates-as-written.csv"
        let (dives, findings, reader) = try readCSV(path)
        #expect(reader.layout.dateOrder == .dmy)
        #expect(dives.map { $0.startedAt?.description ?? "" } == [
            "2004-03-28T10:12:00", "2021-07-04T09:05:00", "2019-03-03T14:30:00", "2018-08-12T11:00:00",
            "2017-05-05T16:20:00", "2016-05-14T08:15:00", "2024-08-01T07:40:00", "2023-09-07T12:00:00",
        ])
        #expect(dives.map(\.submergedTime) == [2280, 3900, 2280, 2280, 64, 2520, 2700, 2700])
        #expect(findings.map(\.description) == [
            "\(path): resolved[csv.date-order-dotted]: every date could be day-first or month-first (1.8.2024 is 2024-08-01 or 2024-01-08); dates written with dots are day-first by the convention of the countries that write them so (German, Dutch, most of Europe), so they are read day-first; --date-order mdy reads them the other way",
            "\(path): resolved[csv.date-month-named]: \"28 March 2004\" names its month in a word, so it is 2004-03-28 whatever the day/month order of the file's other dates; the column's dates so written are read as they say",
            "\(path): resolved[csv.duration-unpadded]: \"1:4\" writes its seconds without a leading zero; read as 1 min 4 s (64 s), minutes and seconds as a dive's length is written, not 1 min 40 s",
            "\(path): resolved[csv.unit-assumed]: the column \"Duration\" states no unit; its plain numbers are read as minutes, how logbooks state a dive's length",
        ])
        #expect(findings.first?.location.field == "Date")
        #expect(findings.last?.location.field == "Duration")
        // `--date-order` wins over the dots, never over a month's name.
        let mdy = try readCSV(path, CSVReadOptions(dateOrder: .mdy))
        #expect(mdy.dives.first?.startedAt?.description == "2004-03-28T10:12:00")
        #expect(mdy.dives[6].startedAt?.description == "2024-01-08T07:40:00")
        #expect(!mdy.findings.contains { $0.code == "csv.date-order-dotted" })
    }

    /// A column of month names only needs no order at all.
    @Test func monthNamesAloneNeedNoOrder() throws {
        let (dives, findings, _) = try readCSVText("Date,Max Depth [m]\n3 mars 2019,12\n12 de agosto de 2018,15\n")
        #expect(dives.map { $0.startedAt?.description ?? "" } == ["2019-03-03", "2018-08-12"])
        #expect(findings.map(\.code) == ["csv.date-month-named"])
    }
}
