import Foundation
import Testing
import DiveCore
@testable import DiveDL7
import TestSupport

/// Every dive of the DL7 file at `path`, the findings and the header.
func readDL7(_ path: String, samplesPerDive: Int? = nil) throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
    let reader = try DL7Reader(path: path)
    if let samplesPerDive { reader.samplesPerDive = samplesPerDive }
    let (logbook, findings) = try reader.readAll()
    return (logbook.dives, findings, logbook.header)
}

/// DL7 text written to a temporary file.
func dl7File(_ text: String, name: String = "test.zxu") throws -> String {
    let path = try Paths.temporaryDirectory() + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// What one corpus file is pinned to, read off the file by hand (a text editor with the CR
/// line ends shown as lines, and `awk` to count a profile's rows between `ZDP{` and `ZDP}`).
struct DL7CorpusCase: Sendable, CustomStringConvertible {
    let file: String
    let dives: Int
    /// The dive pinned (0-based).
    let index: Int
    let start: String
    let maxDepth: Double
    /// ZDT's reach-surface time less ZDH's leave-surface time, seconds.
    let submerged: Int
    /// The profile's last time, milliseconds, and its rows.
    let duration: Int
    let samples: Int
    /// The cylinders' oxygen percentages.
    let oxygen: [Double?]
    var description: String { file }
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct DL7CorpusTests {
    static let cases: [DL7CorpusCase] = [
        // DiveLogDT, CR lines: 5 ZDH. Dive 1: ZDH …|Q5S|20160320114300|, ZDT|1|1|15.00|20160320121005|9.4|;
        // 326 rows from |0.000| to |27.083| (27.083 min = 1625 s on the 5 s grid), gas "1" (air).
        DL7CorpusCase(file: "dl7/divelogdt__divelog.zxu", dives: 5, index: 0, start: "2016-03-20T11:43:00", maxDepth: 15,
                      submerged: 1625, duration: 1_625_000, samples: 326, oxygen: [21]),
        // Subsurface's hand-made file: 3 ZDH, only the second with a profile: ZDH|2|2|I|V|20180102101000|27|11|FO2|||,
        // rows |0|1|1|, |60|10|, |3300|10|, |3600|0| (seconds: 3600 against the 3000 s to ZDT|…|20180102110000|),
        // gas "1", ZDT max 10.0.
        DL7CorpusCase(file: "dl7/dl7-handmade__DL7.zxu", dives: 3, index: 1, start: "2018-01-02T10:10:00", maxDepth: 10,
                      submerged: 3000, duration: 3_600_000, samples: 4, oxygen: [21]),
        // Submersion's imperial fixture: ZRH FSWG|ThFt|F|PSIA|CF; ZDH …|Q1M|20240401140000|85|; rows 0.00 to 3.00
        // minutes, gas "1.00"; ZDT max 60.0 ft = 18.288 m, surfacing 14:03:00.
        DL7CorpusCase(file: "dl7/dl7-synthetic__dl7_imperial.zxu", dives: 1, index: 0, start: "2024-04-01T14:00:00", maxDepth: 18.288,
                      submerged: 180, duration: 180_000, samples: 4, oxygen: [21]),
        // Diving Log, CR lines: 9 ZDH. Dive 1: |Q20S|20100728104600|28||FO2|; ZDT|1|1|12.8|20100728114200|23|;
        // 167 rows from |0| to |55.33| (3320 s on the 20 s grid), gas "1".
        DL7CorpusCase(file: "other/divinglog__divinglog_9_dives_1.zxu", dives: 9, index: 0, start: "2010-07-28T10:46:00", maxDepth: 12.8,
                      submerged: 3360, duration: 3_320_000, samples: 167, oxygen: [21]),
        // Suunto Dive Manager, CR lines and a CRLF at the end: 9 ZDH. Dive 1: |Q20S|201007281046|28|12|; ZDT|1|1|12.8|201007281141|23|0;
        // 166 rows from |0.0| to |55.0| (3300 s), gas "1.00".
        DL7CorpusCase(file: "other/suunto-dm__Suunto_Dive_Manager_9_dives_1.ZXL", dives: 9, index: 0, start: "2010-07-28T10:46:00", maxDepth: 12.8,
                      submerged: 3300, duration: 3_300_000, samples: 166, oxygen: [21]),
    ]

    @Test(arguments: cases) func corpusFile(_ c: DL7CorpusCase) throws {
        let (dives, findings, header) = try readDL7(Paths.corpus + "/" + c.file)
        #expect(dives.count == c.dives)
        let d = try #require(dives.dropFirst(c.index).first)
        #expect(d.startedAt?.description == c.start)
        #expect(d.maxDepth == c.maxDepth)
        #expect(d.submergedTime == c.submerged)
        #expect(d.profile?.duration == c.duration)
        #expect(d.profile?.sampleCount == c.samples)
        #expect(d.cylinders.map(\.oxygen) == c.oxygen)
        #expect(header.sourceFormat == "dl7")
        #expect(!findings.contains { $0.lostDives > 0 })
    }

    /// The Suunto ZXL's diver (ZPD's date of birth 19800925) and the ZRH device.
    @Test func suuntoZXL() throws {
        let (dives, findings, header) = try readDL7(Paths.corpus + "/other/suunto-dm__Suunto_Dive_Manager_9_dives_1.ZXL")
        #expect(header.diver?.bornOn?.description == "1980-09-25")
        #expect(header.sourceGenerator?.name == "SUUa03")
        #expect(header.sourceGenerator?.writtenAt == "2011-04-10T22:09:51+02:00")
        let dev = try #require(dives.first?.recordings.first?.device)
        #expect(dev.model == "SUU104" && dev.brand == "Suunto" && dev.serial == "2303434")
        #expect(dives.first?.recordings.first?.salinity == .salt)
        #expect(findings.contains { $0.code == "dl7.time-without-seconds" })
        // ZDD and ZSR's codes are reported, counted over the nine dives.
        #expect(findings.contains { $0.code == "dl7.not-carried" && $0.location.path == "dive/0/ZDD/3" && $0.message.contains("9 segments") })
    }

    /// DiveLogDT's nitrox dives: gas code 2.32 is 32 % oxygen.
    @Test func nitroxCode() throws {
        let (dives, findings, _) = try readDL7(Paths.corpus + "/dl7/divelogdt__divelog.zxu")
        #expect(dives[1].cylinders.map(\.oxygen) == [32])
        #expect(findings.contains { $0.code == "dl7.vendor-block-not-carried" && $0.message.contains("DiveLogDT") })
    }
}

@Suite struct DL7ReaderTests {
    /// Every non-empty field of every segment and profile row is carried (the reader's
    /// accounting) or named by a finding at its `SEG/position`.
    @Test func everyFieldIsAccountedFor() throws {
        var files = try FileManager.default.contentsOfDirectory(atPath: Paths.samples + "/dl7").sorted().map { Paths.samples + "/dl7/" + $0 }
        if Paths.sharedAvailable { files += DL7CorpusTests.cases.map { Paths.corpus + "/" + $0.file } }
        for file in files {
            let reader = try DL7Reader(path: file)
            let (_, findings) = try reader.readAll()
            let text = try String(contentsOfFile: file, encoding: .isoLatin1)
            var lost: Set<String> = []
            var inVendor = false
            for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) {
                if inVendor { if line.hasSuffix("}") { inVendor = false }; continue }
                if line.hasPrefix("ZAR{") { inVendor = !line.hasSuffix("}"); continue }
                if line.hasPrefix("ZDP{") || line.hasPrefix("ZDP}") { continue }
                let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                let id = fields[0].isEmpty ? "ZDP" : fields[0]
                for (k, f) in fields.enumerated().dropFirst() where !f.filter({ !"^~&".contains($0) }).trimmingCharacters(in: .whitespaces).isEmpty {
                    let key = "\(id)/\(k)"
                    if reader.accounting.contains(key) { continue }
                    if findings.contains(where: { $0.location.path?.hasSuffix(key) == true }) { continue }
                    lost.insert(key)
                }
            }
            #expect(lost.isEmpty, "\(file): neither carried nor reported: \(lost.sorted())")
        }
    }

    /// LF lines, feet, °F, psi, cubic feet: a Q10S profile in minutes, a switch to nitrox 32,
    /// a violation, a ceiling, PO2 and CNS (made for this test).
    @Test func imperialWithLF() throws {
        let (dives, findings, header) = try readDL7(Paths.samples + "/dl7/imperial-lf.zxu")
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2024-05-10T14:00:00")
        #expect(header.sourceGenerator?.writtenAt == "2024-05-10T18:30:00-05:00")
        #expect(d.maxDepth == 20.117)          // 66 ft
        #expect(d.airTemperature == 26.67)     // 80 °F
        #expect(d.bottomTemperature == 23.89)  // 75 °F
        #expect(d.altitude == 457)             // 1.5 thousand feet
        #expect(d.cylinders.map(\.oxygen) == [21, 32])
        #expect(d.cylinders.first?.volume == nil)
        let p = try #require(d.profile)
        #expect(p.depth?.times == [0, 10_000, 20_000, 30_000, 40_000, 50_000])
        #expect(p.depth?.values == [0, 1006, 2012, 2012, 610, 0])
        #expect(p.ceiling?.values == [305])
        #expect(p.ppo2?.values == [21])
        #expect(p.cns?.values == [0, 10, 20, 30, 40, 50])
        #expect(p.pressures.first?.series.values == [2068, 2034, 1999, 1965, 1931, 1924])
        #expect(p.events.map(\.type) == [.gasSwitch, .ascentRate])
        #expect(p.events.first?.time == 30_000 && p.events.first?.gasNumber == 1)
        #expect(findings.contains { $0.code == "dl7.tank-volume-cubic-feet" })
        #expect(findings.contains { $0.code == "dl7.vendor-block-not-carried" && $0.location.line == 3 })
    }

    /// CRLF lines, a ZXL with the diver, times in seconds by the Q10S interval, ZDD's
    /// apparatus and platform (made for this test).
    @Test func zxlWithCRLF() throws {
        let (dives, findings, header) = try readDL7(Paths.samples + "/dl7/metric-crlf.zxl")
        let d = try #require(dives.first)
        #expect(header.diver?.name == "Dr Ada M Diver")
        #expect(header.diver?.bornOn?.description == "1985-03-12")
        #expect(header.diver?.phone == "+31 20 5550100")
        #expect(d.profile?.depth?.times == [0, 10_000, 20_000, 30_000])
        #expect(d.profile?.temperature?.values == [2200, 2100, 2000, 2000])
        #expect(d.cylinders.first?.oxygen == 50 && d.cylinders.first?.volume == 12)
        #expect(d.type == .openCircuit && d.entryType == .boat)
        #expect(d.recordings.first?.device?.brand == "Cochran")
        let seconds = try #require(findings.first { $0.code == "dl7.profile-in-seconds" })
        #expect(seconds.description == Paths.samples + "/dl7/metric-crlf.zxl:7: resolved[dl7.profile-in-seconds]: dive/0/ZDP/1: the profile's times step by 10 and ZDH's recording interval Q10S is a sample every 10 s: they are seconds, not the spec's minutes")
        #expect(findings.contains { $0.code == "dl7.not-carried" && $0.location.path == "ZPA/1" })
    }

    /// CR lines and no units declared: the magnitude rules, each said.
    @Test func undeclaredUnits() throws {
        let (dives, findings, _) = try readDL7(Paths.samples + "/dl7/no-units-cr.zxu")
        let d = try #require(dives.first)
        #expect(d.maxDepth == 30)
        #expect(d.airTemperature == 27.78)   // 82, above 45: °F
        #expect(d.profile?.pressures.first?.series.values == [2068, 1724])  // 3000 and 2500 psi
        #expect(findings.filter { $0.code == "dl7.unit-undeclared" }.count == 3)
    }

    @Test func notDL7IsAnError() throws {
        let path = try dl7File("ZDH|1|1|I|Q5S|20160320114300|\r")
        #expect {
            _ = try DL7Reader(path: path)
        } throws: { error in
            "\(error)" == path + ":1:1: error[dl7.no-file-header]: the file does not begin with DL7's FSH segment (\"FSH|^~<>{}|…\"), which declares how its fields are separated; it is not a DL7 export"
        }
    }

    @Test func overlongLineIsAnError() throws {
        let path = try dl7File("FSH|^~<>{}|X|ZXU||\r" + String(repeating: "9", count: DL7.lineBytes + 10))
        let reader = try DL7Reader(path: path)
        #expect {
            _ = try reader.next()
        } throws: { error in
            "\(error)" == path + ":2:65537: error[dl7.line-too-long]: line 2 runs past 64 KiB without ending, longer than any DL7 segment can be; the file is damaged or not DL7"
        }
    }

    @Test func samplesOverTheLimitAreCounted() throws {
        let path = try dl7File("FSH|^~<>{}|X|ZXU||\nZRH|^~<>{}|||MSWG|ThM|C|bar|L|\nZDH|1|1|I|Q1M|20240101100000|\nZDP{\n|0|0|1|\n|1|5|\n|2|6|\n|3|0|\nZDP}\nZDT|1|1|6|20240101100300|\n")
        let (dives, findings, _) = try readDL7(path, samplesPerDive: 2)
        #expect(dives.first?.profile?.sampleCount == 2)
        #expect(findings.contains { $0.code == "dl7.samples-over-limit" && $0.message.contains("2 rows") })
    }

    @Test func badStartLosesTheDive() throws {
        let path = try dl7File("FSH|^~<>{}|X|ZXU||\nZRH|^~<>{}|||MSWG|ThM|C|bar|L|\nZDH|1|1|I|Q1M|2024XX01100000|\nZDT|1|1|6||\nZDH|2|2|I|Q1M|20240102100000|\nZDT|2|2|6||\n")
        let (dives, findings, _) = try readDL7(path)
        #expect(dives.count == 1)
        #expect(findings.contains { $0.code == "dl7.start-invalid" && $0.location.line == 3 && $0.location.column == 15 })
        #expect(findings.filter { $0.lostDives > 0 }.count == 1)
    }

    @Test func unknownSegmentsAndGasCodesAreReported() throws {
        let path = try dl7File("FSH|^~<>{}|X|ZXU||\nZRH|^~<>{}|||MSWG|ThM|C|bar|L|\nZXX|a|b|\nZDH|1|1|I|Q1M|20240101100000|\nZDP{\n|0|0|6.3200500|\n|1|5|\n|2|0|\nZDP}\nZDT|1|1|5|20240101100200|\n")
        let (dives, findings, _) = try readDL7(path)
        #expect(dives.first?.cylinders.isEmpty == true)
        #expect(findings.contains { $0.code == "dl7.segment-not-carried" && $0.location.line == 3 })
        #expect(findings.contains { $0.code == "dl7.gas-code-not-carried" && $0.location.path == "dive/0/ZDP/3" })
    }

    @Test func sniff() {
        #expect(DL7.sniff(Array("FSH|^~<>{}|X|ZXU|".utf8)))
        #expect(DL7.sniff([0xEF, 0xBB, 0xBF] + Array("\r\nFSH|^~\\&{}|".utf8)))
        #expect(!DL7.sniff(Array("FSHX|".utf8)))
        #expect(!DL7.sniff(Array("<?xml".utf8)))
    }

    /// A block DL7 does not define, left open at the end of the file, is named as written.
    @Test func anUnknownBlockLeftOpenIsNamedAsWritten() throws {
        let (dives, findings, _) = try readDL7(try dl7File("FSH|^~<>{}|\nZRH{\n"))
        #expect(dives.isEmpty)
        #expect(findings.map(\.code) == ["dl7.block-not-carried", "dl7.block-not-closed", "dl7.no-dives"])
        #expect(findings[1].message == "the ZRH{ block opened at line 2 is not closed before the file ends")
        #expect(findings[1].location.path == "ZRH")
    }

    @Test func gasCodes() {
        #expect(DL7Gas.mix("1")! == (21, 0))
        #expect(DL7Gas.mix("1.00")! == (21, 0))
        #expect(DL7Gas.mix("2.32")! == (32, 0))
        #expect(DL7Gas.mix("2.325")! == (32.5, 0))
        #expect(DL7Gas.mix("4.16")! == (16, 84))
        #expect(DL7Gas.mix("3.13") == nil)
        #expect(DL7Gas.mix("air") == nil)
    }
}
