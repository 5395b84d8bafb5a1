import Testing
@testable import DiveCore

@Suite struct DateTimeTests {
    @Test(arguments: [
        ("2024-06-27T15:45:44", "2024-06-27T15:45:44"),
        ("2024-06-27T15:45:44+03:00", "2024-06-27T15:45:44+03:00"),
        ("2024-06-27T15:45:44+0300", "2024-06-27T15:45:44+03:00"),
        ("2024-06-27T15:45:44-09:30", "2024-06-27T15:45:44-09:30"),
        ("2024-06-27T15:45:44z", "2024-06-27T15:45:44Z"),
        ("2024-06-27 15:45:44", "2024-06-27T15:45:44"),
        ("2024-06-27T15:45:44.6", "2024-06-27T15:45:44.6"),
        ("2026-09-02T18:27:26.302137+00:00", "2026-09-02T18:27:26.302137+00:00"),
        ("2024-06-27T15:45", "2024-06-27T15:45:00"),
        ("2002-06-18T", "2002-06-18"),
        ("2002-06-18", "2002-06-18"),
    ])
    func parsesLenientISO8601(text: String, expected: String) throws {
        let (value, _) = try #require(DiveDateTime.parse(text))
        #expect(value.description == expected)
    }

    @Test(arguments: ["2023-02-29T10:00:00", "2024-13-01", "2024-06-27T25:00:00", "27.06.2024", "2024-06-27T10:00:00+2", "yesterday"])
    func rejectsWhatIsNoDate(text: String) {
        #expect(DiveDateTime.parse(text) == nil)
    }

    @Test func notesWhatItHadToAssume() throws {
        #expect(try #require(DiveDateTime.parse("2024-06-27T15:45")).1.secondsMissing)
        #expect(try #require(DiveDateTime.parse("2002-06-18T")).1.dateOnly)
        let offsetOnDate = try #require(DiveDateTime.parse("2002-06-18+02:00"))
        #expect(offsetOnDate.1.offsetOnDateDropped)
        #expect(offsetOnDate.0.offset == nil)
    }

    @Test func offsetIsNeverSupplied() throws {
        let (naive, _) = try #require(DiveDateTime.parse("2024-06-27T15:45:44"))
        #expect(naive.offset == nil)
        #expect(naive.utcSeconds == nil)
        let (aware, _) = try #require(DiveDateTime.parse("2024-06-27T15:45:44+03:00"))
        #expect(aware.utcSeconds == aware.wallClockSeconds - 3 * 3600)
    }

    @Test func daysSinceEpoch() throws {
        #expect(LocalDate(year: 1970, month: 1, day: 1)?.daysSinceEpoch == 0)
        #expect(LocalDate(year: 2000, month: 3, day: 1)?.daysSinceEpoch == 11017)
        #expect(LocalDate(year: 1969, month: 12, day: 31)?.daysSinceEpoch == -1)
    }
}

@Suite struct HumanNumbersTests {
    @Test func aTenthOfAMetreAndADegreeAWholeBar() {
        #expect(HumanNumbers.metres(45.17175) == "45.2")
        #expect(HumanNumbers.metres(30) == "30")
        #expect(HumanNumbers.metres(29.96) == "30")
        #expect(HumanNumbers.celsius(12.5914631) == "12.6")
        #expect(HumanNumbers.celsius(-0.04) == "0")
        #expect(HumanNumbers.celsius(-1.25) == "-1.3")
        #expect(HumanNumbers.bar(236.0390625) == "236")
        #expect(HumanNumbers.rounded(27.78610001, places: 5) == "27.7861")
        #expect(HumanNumbers.duration(4680) == "1 h 18 min" && HumanNumbers.duration(2680) == "44 min 40 s" && HumanNumbers.duration(2820) == "47 min")
    }

    /// A table's rule: up to two fraction digits is the source's reading, kept; more is a
    /// computed value, rounded to the column's places in decimal (halves away from zero).
    @Test(arguments: [
        (45.17175, 1, "45.2"), (26.34, 1, "26.34"), (8.32, 1, "8.32"), (12.5914631, 1, "12.6"), (23.888889, 1, "23.9"),
        (236.0390625, 0, "236"), (199.8, 0, "199.8"), (-1.25, 1, "-1.25"), (-1.255, 1, "-1.3"), (-0.0412, 1, "0"),
        (-0.0, 1, "0"), (0.05, 0, "0.05"), (0.051, 0, "0"), (2.5001, 0, "3"), (30, 1, "30"), (1e-7, 1, "0"),
        (32.000000000000004, 1, "32"), (0.15000000000000002, 1, "0.2"),
    ])
    func readingsAsATableWritesThem(value: Double, places: Int, expected: String) {
        #expect(HumanNumbers.reading(value, places: places) == expected)
    }
}
