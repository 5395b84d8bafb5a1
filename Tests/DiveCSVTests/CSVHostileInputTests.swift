import Foundation
import Testing
import DiveCore
@testable import DiveCSV
import TestSupport

/// Reads every dive of a CSV file holding `text` (bytes as given), named `hostile.csv` in
/// findings and errors.
private func read(_ bytes: [UInt8], _ options: CSVReadOptions = CSVReadOptions(), configure: (CSVDiveReader) -> Void = { _ in })
    throws -> (dives: [Dive], findings: [String]) {
    let path = try CSVFixture.file(bytes, name: "hostile.csv")
    let reader = try CSVDiveReader(path: path, displayName: "hostile.csv", options: options)
    configure(reader)
    var dives: [Dive] = []
    var findings: [Finding] = []
    while let d = try reader.next() { dives.append(d); findings += reader.takeFindings() }
    findings += reader.takeFindings()
    return (dives, findings.map(\.description))
}

private func read(_ text: String, _ options: CSVReadOptions = CSVReadOptions(), configure: (CSVDiveReader) -> Void = { _ in })
    throws -> (dives: [Dive], findings: [String]) {
    try read(Array(text.utf8), options, configure: configure)
}

/// The error reading `bytes` stops at, as printed.
private func error(reading bytes: [UInt8], _ options: CSVReadOptions = CSVReadOptions()) -> String? {
    do {
        _ = try read(bytes, options)
        return nil
    } catch {
        return "\(error)"
    }
}

private let start = DiveDateTime.parse("2024-05-01T10:12")!.0

/// One cell that is no reading of what its column holds, and what reading it gives.
struct HostileCell: Sendable, CustomStringConvertible {
    var header: String
    var value: String
    /// The findings, as printed.
    var findings: [String]
    /// What the dive holds of it afterwards.
    var check: @Sendable (Dive) -> Bool
    var description: String { "\(header): \(value)" }
}

/// Summary rows (`Date,HEADER` / `2024-05-01,VALUE`): each value on row 2, line 2.
let hostileSummaryCells: [HostileCell] = [
    HostileCell(header: "Max Depth (m)", value: "1e999",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "1e999" in column "Max Depth (m)" is too large for any number (it reads as infinity); left out"#],
                check: { $0.maxDepth == nil }),
    HostileCell(header: "Max Depth (m)", value: "-1e999",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "-1e999" in column "Max Depth (m)" is too large for any number (it reads as infinity); left out"#],
                check: { $0.maxDepth == nil }),
    HostileCell(header: "Max Depth (m)", value: "NaN",
                findings: [#"hostile.csv:2: dropped[csv.bad-value]: "NaN" is not a depth; left out (here and wherever the column says the same)"#],
                check: { $0.maxDepth == nil }),
    HostileCell(header: "Max Depth (m)", value: "12000",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "12000" in column "Max Depth (m)" is 12000 m, outside what a depth or distance can be (-100 to 11000 m); left out"#],
                check: { $0.maxDepth == nil }),
    // 1e-400 is closer to 0 than any Double: it reads as 0, and says so.
    HostileCell(header: "Max Depth (m)", value: "1e-400",
                findings: [#"hostile.csv:2: resolved[csv.number-underflow]: "1e-400" in column "Max Depth (m)" is closer to 0 than any number a computer holds apart from 0; read as 0"#],
                check: { $0.maxDepth == 0 }),
    // -0 is 0, not a negative zero a writer would print as `-0`.
    HostileCell(header: "Max Depth (m)", value: "-0", findings: [], check: { $0.maxDepth == 0 && $0.maxDepth?.sign == .plus }),
    HostileCell(header: "Max Depth (m)", value: "-0.0e5", findings: [], check: { $0.maxDepth?.sign == .plus }),
    // Each of these converted to Int trapped before.
    HostileCell(header: "Duration (s)", value: "99999999999999999999",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "99999999999999999999" in column "Duration (s)" is 1e+20 s, outside what a duration can be (0 to 864000 s); left out"#],
                check: { $0.submergedTime == nil }),
    HostileCell(header: "Duration (min)", value: "-1e300",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "-1e300" in column "Duration (min)" is -6e+301 s, outside what a duration can be (0 to 864000 s); left out"#],
                check: { $0.submergedTime == nil }),
    HostileCell(header: "Duration", value: "99999999999999:00:00",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "99999999999999:00:00" in column "Duration" is 3.599999999999964e+17 s, outside what a duration can be (0 to 864000 s); left out"#],
                check: { $0.submergedTime == nil }),
    HostileCell(header: "Dive Number", value: "99999999999999999999",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "99999999999999999999" in column "Dive Number" is 1e+20, outside what a whole number of a dive log can be (-999999999 to 999999999); left out"#],
                check: { $0.number == nil }),
    HostileCell(header: "Water Temp (°C)", value: "-300",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "-300" in column "Water Temp (°C)" is -300 °C, outside what a temperature can be (-273.15 to 1000 °C); left out"#],
                check: { $0.bottomTemperature == nil }),
    HostileCell(header: "Start Pressure (bar)", value: "1e300",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "1e300" in column "Start Pressure (bar)" is 1e+300 bar, outside what a pressure can be (-1 to 10000 bar); left out"#],
                check: { $0.cylinders.isEmpty }),
    HostileCell(header: "O2 (%)", value: "1e999",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "1e999" in column "O2 (%)" is too large for any number (it reads as infinity); left out"#],
                check: { $0.cylinders.isEmpty }),
    HostileCell(header: "Latitude", value: "91",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "91" in column "Latitude" is 91°, outside what a latitude can be (-90 to 90°); left out"#],
                check: { $0.entryPosition == nil }),
]

/// Profile rows (`Time (s),Depth (m),HEADER` / `0,0,VALUE` / `10,5,1`): each value on row 2,
/// line 2, and the dive still read.
let hostileSampleCells: [HostileCell] = [
    HostileCell(header: "Temperature (°C)", value: "1e300",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "1e300" in column "Temperature (°C)" is 1e+300 °C, outside what a temperature can be (-273.15 to 1000 °C); left out"#],
                check: { $0.recordings.first?.profile?.temperature?.values == [100] }),
    // Fifteen digits: the plain-number path, read from the cell's bytes.
    HostileCell(header: "Ceiling (m)", value: "999999999999999",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "999999999999999" in column "Ceiling (m)" is 999999999999999 m, outside what a depth or distance can be (-100 to 11000 m); left out"#],
                check: { $0.recordings.first?.profile?.ceiling?.values == [100] }),
    HostileCell(header: "Pressure (bar)", value: "1e300",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "1e300" in column "Pressure (bar)" is 1e+300 bar, outside what a pressure can be (-1 to 10000 bar); left out"#],
                check: { $0.recordings.first?.profile?.pressures.first?.series.values == [10] }),
    HostileCell(header: "ppO2 (bar)", value: "1e300",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "1e300" in column "ppO2 (bar)" is 1e+300 bar, outside what a pressure can be (-1 to 10000 bar); left out"#],
                check: { $0.recordings.first?.profile?.ppo2?.values == [100] }),
    HostileCell(header: "NDL (min)", value: "1e300",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "1e300" in column "NDL (min)" is 6e+301 s, outside what a duration can be (0 to 864000 s); left out"#],
                check: { $0.recordings.first?.profile?.ndl?.values == [60] }),
    HostileCell(header: "NDL (h)", value: "999999999999999",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "999999999999999" in column "NDL (h)" is 3.5999999999999964e+18 s, outside what a duration can be (0 to 864000 s); left out"#],
                check: { $0.recordings.first?.profile?.ndl?.values == [3600] }),
    HostileCell(header: "CNS (%)", value: "1e300",
                findings: [#"hostile.csv:2: dropped[csv.value-out-of-range]: "1e300" in column "CNS (%)" is 1e+300 %, outside what a percentage can be (0 to 1000 %); left out"#],
                check: { $0.recordings.first?.profile?.cns?.values == [10] }),
]

/// The repository's CSV samples and the shared corpus's CSV files.
let csvFilesToCut: [String] = {
    var files = [Paths.samples + "/csv/spreadsheet-windows-1252.csv", Paths.samples + "/csv/ambiguous-dates.csv"]
    if Paths.sharedAvailable, let names = try? FileManager.default.contentsOfDirectory(atPath: Paths.corpus + "/csv") {
        files += names.sorted().map { Paths.corpus + "/csv/" + $0 }
    }
    return files
}()

@Suite struct CSVHostileInputTests {
    // MARK: Numbers that are no reading

    /// Every number that is not finite or beyond its quantity is a `dropped` finding at its row
    /// and column, never stored; `1e-400` is 0 and says so; `-0` is 0.
    @Test(arguments: hostileSummaryCells)
    func aSummaryValueThatIsNoReading(_ cell: HostileCell) throws {
        let (dives, findings) = try read("Date,\(cell.header)\n2024-05-01,\(cell.value)\n")
        #expect(findings == cell.findings)
        let dive = try #require(dives.first)
        #expect(cell.check(dive), "\(dive)")
    }

    @Test(arguments: hostileSampleCells)
    func aSampleThatIsNoReading(_ cell: HostileCell) throws {
        let (dives, findings) = try read("Time (s),Depth (m),\(cell.header)\n0,0,\(cell.value)\n10,5,1\n", CSVReadOptions(startedAt: start))
        #expect(findings == cell.findings)
        let dive = try #require(dives.first)
        #expect(dive.recordings.first?.profile?.depth?.values == [0, 500])
        #expect(cell.check(dive), "\(dive)")
    }

    /// A sample time beyond ten days (here, each trapped converting it to milliseconds) leaves
    /// its row out, said at the row.
    @Test(arguments: ["1e999", "99999999999999999999", "-1e300"])
    func aSampleTimeThatIsNoTime(_ value: String) throws {
        let (dives, findings) = try read("Time (s),Depth (m)\n0,1\n\(value),2\n20,3\n", CSVReadOptions(startedAt: start))
        #expect(findings.count == 1)
        #expect(findings.first?.hasPrefix("hostile.csv:3: dropped[csv.value-out-of-range]: \"\(value)\" in column \"Time (s)\" ") == true, "\(findings)")
        #expect(dives.first?.recordings.first?.profile?.depth?.times == [0, 20_000])
    }

    /// Hours of fifteen digits: 3.6e18 s, whose milliseconds overflow an Int.
    @Test func aSampleTimeInHoursThatOverflows() throws {
        let (dives, findings) = try read("Time (h),Depth (m)\n0,1\n999999999999999,2\n", CSVReadOptions(startedAt: start))
        #expect(findings == [#"hostile.csv:3: dropped[csv.value-out-of-range]: "999999999999999" in column "Time (h)" is 3.5999999999999964e+18 s, outside what a time into the dive can be (-864000 to 864000 s); left out"#])
        #expect(dives.first?.recordings.first?.profile?.depth?.values == [100])
    }

    /// A sample interval that is no time between samples (Seabear's `Log interval`) is not
    /// taken, said above the table: the profile has none, and says so. (`1e999` trapped.)
    @Test(arguments: [("1e999", "reads as an infinite number"), ("0", "is 0 s"), ("-5 s", "is -5 s"), ("1e300", "is 1e+300 s")])
    func aSampleIntervalThatIsNoInterval(_ value: String, _ what: String) throws {
        // Under the header, Seabear's two rows of column codes and numbers.
        let text = "//SEABEAR DIVING TECHNOLOGY\n//2012.10.01 06:22:30\n//Log interval: \(value)\n\nDepth;Temperature\n1;1\n0;1\n1.0;29\n2.5;28\n"
        let reader = try CSVDiveReader(path: CSVFixture.file(text, name: "hostile.csv"), displayName: "hostile.csv")
        #expect(reader.takeFindings().map(\.description) == [
            "hostile.csv: dropped[csv.value-out-of-range]: the sample interval \"\(value)\" \(what), which no time between samples is (over 0, up to 864000 s); not read",
        ])
        #expect(throws: DiveError.self) { _ = try reader.next() }
        // One that is gives the profile its times.
        let (dives, _) = try read(text.replacingOccurrences(of: "Log interval: \(value)", with: "Log interval: 5 s"))
        #expect(dives.first?.recordings.first?.profile?.depth?.times == [0, 5_000])
    }

    /// Ambient pressure (ReefNet's column, here by --map) into depth: 1e300 mbar trapped.
    @Test func anAmbientPressureThatIsNoPressure() throws {
        let options = CSVReadOptions(startedAt: start, columns: ["abs": CSVColumnMeaning(.sampleAmbientPressure, unit: .millibar)])
        let (dives, findings) = try read("Time (s),abs\n0,1013\n10,1e300\n20,2013\n", options)
        #expect(findings.contains(#"hostile.csv:3: dropped[csv.value-out-of-range]: "1e300" in column "abs" is 1e+297 bar, outside what a pressure can be (-1 to 10000 bar); left out"#), "\(findings)")
        #expect(dives.first?.recordings.first?.profile?.depth?.times == [0, 20_000])
    }

    /// A time of day whose seconds are only a decimal point indexed past its parts.
    @Test(arguments: ["10:12:.", "0:00:.", "10:12:.5"])
    func aTimeOfDayThatIsOnlyPunctuation(_ text: String) {
        #expect(CSVValues.timeOfDay(Substring(text)) == nil)
    }

    // MARK: Encodings

    /// Bytes that are not UTF-8 (and a NUL) in a note: read as Windows-1252 from there, said
    /// at the first such byte.
    @Test func invalidUTF8AndNULInANote() throws {
        let bytes = Array("Date,Max Depth (m),Notes\n2024-05-01,12,o".utf8) + [0x00, 0xFF, 0x80] + Array("k\n".utf8)
        let (dives, findings) = try read(bytes)
        #expect(findings == ["hostile.csv:2:17: resolved[csv.encoding-fallback]: the file is not UTF-8 from here on; read as Windows-1252, the encoding of spreadsheets saved on Windows"])
        #expect(dives.first?.notes == "o\u{0}ÿ€k")
    }

    /// UTF-16 both ways, with a byte-order mark and without one (told by its zero bytes).
    @Test(arguments: [(true, false), (true, true), (false, false), (false, true)])
    func utf16(bigEndian: Bool, marked: Bool) throws {
        let text = "Date,Max Depth (m),Notes\n2024-05-01,12,Blue hole – 12 °C\n"
        var bytes: [UInt8] = marked ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let (dives, findings) = try read(bytes)
        #expect(dives.first?.notes == "Blue hole – 12 °C")
        #expect(dives.first?.maxDepth == 12)
        #expect(findings == (marked ? [] : ["hostile.csv:1: resolved[csv.encoding-utf16-unmarked]: the file has no byte-order mark, and every other byte of its start is 0: read as UTF-16\(bigEndian ? "BE" : "LE")"]))
    }

    /// UTF-16 that is no text: a high surrogate with no low one after it, and an odd last byte.
    @Test func brokenUTF16() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "Date,Max Depth (m),Notes\n2024-05-01,12,o".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        bytes += [0x3D, 0xD8] + [0x6B, 0x00, 0x0A, 0x00] + [0x41]
        let (dives, findings) = try read(bytes)
        #expect(dives.first?.notes == "o\u{FFFD}k")
        #expect(findings == [
            // The odd byte after the last line break is a line of its own.
            #"hostile.csv:3: dropped[csv.trailer-row]: a row of 1 field ("�") is not part of the 3-column table; not read"#,
            "hostile.csv: dropped[csv.encoding-utf16-broken]: 2 units of the file's UTF-16 are no character (a surrogate without its pair, or a last odd byte); each is read as �",
        ])
    }

    // MARK: Truncation

    /// Every CSV umilog has, cut at many places: each is read, or stops at a located error.
    @Test(arguments: csvFilesToCut)
    func aRealFileCutAnywhere(_ file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        // 12 places spread over the file, and either side of the first 8 line ends.
        var cuts = Set((1...12).map { bytes.count * $0 / 13 })
        for k in bytes.indices.filter({ bytes[$0] == 0x0A }).prefix(8) { cuts.insert(k); cuts.insert(k + 1) }
        let options = CSVReadOptions(dateOrder: .dmy, startedAt: start)
        for cut in cuts.sorted() where cut < bytes.count {
            do {
                _ = try read(Array(bytes[..<cut]), options)
            } catch let e as DiveError {
                #expect(e.location.file == "hostile.csv", "cut at \(cut): \(e)")
            }
        }
    }

    // MARK: Limits

    /// A field longer than CSVLimits.fieldBytes stops the read at its first character, quoted
    /// (a note whose quote is never closed) or not.
    @Test func aFieldLongerThanTheLimit() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: CSVLimits.fieldBytes + 1)
        #expect(error(reading: Array("Date,Notes\n2024-05-01,\"".utf8) + long + Array("\"\n".utf8))
            == "hostile.csv:2:12: error[csv.field-too-long]: the quoted field opened here runs past 1 MiB, longer than any value of a dive log (is its quote ever closed?); the file is not read")
        #expect(error(reading: Array("Date,Notes\n2024-05-01,".utf8) + long + Array("\n".utf8))
            == "hostile.csv:2:12: error[csv.field-too-long]: the field starting here runs past 1 MiB, longer than any value of a dive log; the file is not read")
        // Exactly at the limit is a field like any other.
        let atLimit = [UInt8](repeating: UInt8(ascii: "x"), count: CSVLimits.fieldBytes - 2)
        let (dives, _) = try read(Array("Date,Notes\n2024-05-01,\"".utf8) + atLimit + Array("\"\n".utf8))
        #expect(dives.first?.notes?.utf8.count == CSVLimits.fieldBytes - 2)
    }

    /// A record longer than CSVLimits.recordBytes, each of its fields within the limit.
    @Test func aRecordLongerThanTheLimit() throws {
        let field = String(repeating: "x", count: CSVLimits.fieldBytes - 16)
        let fields = CSVLimits.recordBytes / field.utf8.count + 1
        let text = (1...fields).map { "n\($0)" }.joined(separator: ",") + "\n" + Array(repeating: field, count: fields).joined(separator: ",") + "\n"
        #expect(error(reading: Array(text.utf8)) == "hostile.csv:2: error[csv.record-too-long]: the record starting on line 2 runs past 16 MiB without ending")
    }

    /// More fields than CSVLimits.columns in a record stops the read at the first field past
    /// the limit; a header of a million columns (7 MB) is refused as fast, in flat memory.
    @Test(arguments: [CSVLimits.columns + 1, 1_000_000])
    func tooManyColumns(_ count: Int) throws {
        let header = (1...count).map { "c\($0)" }.joined(separator: ",") + "\n"
        let column = (1...CSVLimits.columns).map { "c\($0)," }.joined().count + 1
        #expect(error(reading: Array((header + "1\n").utf8))
            == "hostile.csv:1:\(column): error[csv.too-many-columns]: the record starting on line 1 has more than 4096 fields (field 4097 starts here); no dive log has so many columns, so the file is not read")
        // A row as wide as the limit is a row.
        let wide = (1...CSVLimits.columns).map { "c\($0)" }.joined(separator: ",")
        #expect(error(reading: Array("Date,\(wide)\n2024-05-01\n".utf8)) != nil)
        let (dives, _) = try read("Date,Max Depth (m)\(String(repeating: ",x", count: CSVLimits.columns - 2))\n2024-05-01,12\(String(repeating: ",", count: CSVLimits.columns - 2))\n")
        #expect(dives.first?.maxDepth == 12)
    }

    /// A dive's rows past its readings limit are not read, said once at the first; the next
    /// dive is read.
    @Test func aDiveWithTooManyReadings() throws {
        var text = "Dive Number,Date,Time (s),Depth (m),Temperature (°C)\n"
        for dive in 1...2 { for s in 0..<8 { text += "\(dive),2024-05-0\(dive),\(s * 10),\(s),20\n" } }
        let (dives, findings) = try read(text) { $0.readingLimit = 10 }
        #expect(dives.map { $0.recordings.first?.profile?.depth?.times.count } == [5, 5])
        #expect(findings == [
            "hostile.csv:7: dropped[csv.too-many-readings]: the dive that starts on row 2 reaches 10 readings, the most one dive holds; its 3 rows from here on are not read",
            "hostile.csv:15: dropped[csv.too-many-readings]: the dive that starts on row 10 reaches 10 readings, the most one dive holds; its 3 rows from here on are not read",
        ])
    }

    /// A file of more dives than the limit stops at the first dive past it.
    @Test func aFileWithTooManyDives() throws {
        let text = "Date,Max Depth (m)\n" + (1...5).map { "2024-05-0\($0),\($0)\n" }.joined()
        #expect(throws: DiveError.self) { _ = try read(text) { $0.diveLimit = 3 } }
        do {
            _ = try read(text) { $0.diveLimit = 3 }
        } catch {
            #expect("\(error)" == "hostile.csv:5: error[csv.too-many-dives]: the file holds more than 3 dives, the most umilog reads from one file; split it")
        }
    }

    /// Names past what the records a file names may take are not carried, said at their row.
    @Test func namesPastTheLimit() throws {
        let text = "Date,Buddy,Site\n2024-05-01,Ann,Blue Hole\n2024-05-02,Bo,Blue Hole\n2024-05-03,Ann,Canyon\n"
        // Each record costs its key (`person:Ann`, `site:Blue Hole|||`) and 150 bytes: room for two.
        let (dives, findings) = try read(text) { $0.namedRecordLimit = (10 + 150) + (17 + 150) }
        #expect(dives.map(\.people.count) == [1, 0, 1])
        #expect(dives.map(\.siteUUIDs.count) == [1, 1, 0])
        #expect(findings == [
            #"hostile.csv:3: dropped[csv.too-many-names]: the person "Bo" is not carried: the sites, people, trips and suits the file names take 327 bytes, the most one file's may"#,
            #"hostile.csv:4: dropped[csv.too-many-names]: the site "Canyon" is not carried: the sites, people, trips and suits the file names take 327 bytes, the most one file's may"#,
        ])
    }

    /// A value wrong on every row is listed CSVLimits.findingsPerCode times, then counted.
    @Test func findingsPastTheLimitAreCounted() throws {
        let text = "Date,Max Depth (m)\n" + (1...150).map { "2024-05-01,deep\($0)\n" }.joined()
        let (dives, findings) = try read(text)
        #expect(dives.count == 150)
        #expect(findings.count == CSVLimits.findingsPerCode + 1)
        #expect(findings.first == #"hostile.csv:2: dropped[csv.bad-value]: "deep1" is not a depth; left out (here and wherever the column says the same)"#)
        #expect(findings.last == "hostile.csv: dropped[csv.bad-value]: 50 more findings of this code are not listed (a file lists the first 100 of each)")
    }

    /// A cell listing more than CSVLimits.listItems names: the first are read, the rest said.
    @Test func aListLongerThanTheLimit() throws {
        let names = (1...300).map { "Buddy \($0)" }.joined(separator: "; ")
        let (dives, findings) = try read("Date,Buddy\n2024-05-01,\(names)\n")
        #expect(dives.first?.people.count == CSVLimits.listItems)
        #expect(findings == [#"hostile.csv:2: dropped[csv.list-too-long]: the cell of column "Buddy" lists 300 items, more than a dive has; the first 256 are read"#])
    }

    /// Inputs whose cost grew with the square of their length: a header of opening brackets
    /// (each searched for its closing one), a line of stray quotes (each located from the
    /// line's start), a long value in a message (quoted whole).
    @Test func nothingCostsTheSquareOfItsLength() throws {
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let brackets = String(repeating: "(", count: 300_000)
            _ = try? read("Date,\(brackets)\n2024-05-01,1\n")
            let quotes = String(repeating: "a\"", count: 300_000)
            let (_, findings) = try read("Date,Max Depth (m)\n2024-05-01,\(quotes)\n")
            #expect(findings.first?.count ?? 0 < 300)
        }
        #expect(elapsed < .seconds(10), "\(elapsed)")
    }

    // MARK: Dialect

    /// A quoted note whose lines hold another delimiter (here `;` and tabs, each line a
    /// consistent "table" of its own) is one field of a comma-separated file, whole or
    /// longer than the sniffer's sample.
    @Test(arguments: [(";", 50), ("\t", 50), (";", 20_000), ("\t", 20_000)])
    func aNoteOfManyLinesIsOneField(_ delimiter: String, _ lines: Int) throws {
        let note = (0..<lines).map { "a\(delimiter)b\(delimiter)c \($0)" }.joined(separator: "\n")
        let (dives, _) = try read("Date,Max Depth (m),Notes\n2024-05-01,12,\"\(note)\"\n2024-05-02,14,short\n")
        #expect(dives.map(\.maxDepth) == [12, 14])
        #expect(dives.first?.notes?.utf8.count == note.utf8.count)
    }
}
