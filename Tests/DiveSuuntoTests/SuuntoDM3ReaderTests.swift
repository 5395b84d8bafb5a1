import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import DiveArchive
import DiveCore
@testable import DiveSuunto
import TestSupport
import ZIPFoundation

/// An `.SDE` written to a temporary file: each entry's name and bytes, deflated by ZIPFoundation.
func makeSDE(_ entries: [(String, [UInt8])]) throws -> String {
    let archive = try Archive(data: Data(), accessMode: .create)
    for (name, bytes) in entries {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count),
                             modificationDate: Date(timeIntervalSince1970: 1_300_000_000), compressionMethod: .deflate,
                             provider: { position, size in Data(bytes[Int(position)..<(Int(position) + size)]) })
    }
    let path = try Paths.temporaryDirectory() + "/test.SDE"
    try #require(archive.data).write(to: URL(fileURLWithPath: path))
    return path
}

/// Every dive of the `.SDE` at `path` and the findings.
func readDM3(_ path: String, displayName: String? = nil) throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
    let reader = try SuuntoDM3Reader(path: path, displayName: displayName)
    let (logbook, findings) = try reader.readAll()
    return (logbook.dives, findings, logbook.header)
}

/// A DM3 document: the declaration (ISO-8859-15 declared unless `declared` is false), then
/// `<SUUNTO><HEADER>…</HEADER><MSG>` + `msg` + `</MSG></SUUNTO>`, in ISO-8859-15.
func dm3(_ msg: String, declared: Bool = true) -> [UInt8] {
    let head = declared ? #"<?xml version="1.0" encoding="ISO-8859-15" ?>"# : #"<?xml version="1.0" ?>"#
    let text = head + "\n<SUUNTO><HEADER><MSGNAME>SDM001A</MSGNAME>\n</HEADER>\n<MSG>" + msg + "</MSG>\n</SUUNTO>\n"
    return text.unicodeScalars.map { latin9[$0] ?? UInt8($0.value) }
}

/// The characters where ISO-8859-15 differs from Latin-1 (the rest of U+0000–U+00FF is itself).
let latin9: [Unicode.Scalar: UInt8] = ["€": 0xA4, "Š": 0xA6, "š": 0xA8, "Ž": 0xB4, "ž": 0xB8, "Œ": 0xBC, "œ": 0xBD, "Ÿ": 0xBE]

let dm3Start = "<DATE>02.03.2024</DATE>\n<TIME>09:15:00</TIME>\n"

@Suite struct SuuntoDM3ReaderTests {
    /// The corpus's one DM3 export, read off the file with Python's own zip and XML readers,
    /// not this reader (run in `../shared/corpus/suunto`):
    ///
    ///     python3 -c "import zipfile,xml.etree.ElementTree as E;z=zipfile.ZipFile('suunto-dm3__TestDiveDM3.SDE');m=E.fromstring(z.read('0.xml')).find('MSG');s=m.findall('SAMPLE');print(z.namelist(),m.findtext('DATE'),m.findtext('TIME'),m.findtext('MAXDEPTH'),m.findtext('MEANDEPTH'),m.findtext('DIVETIMESEC'),m.findtext('O2PCT'),m.findtext('HEPCT_0'),m.findtext('CYLINDERSIZE'),m.findtext('CYLINDERUNITS'),m.findtext('CYLINDERWORKPRESSURE'),len(s),s[-1].findtext('SAMPLETIME'),[x.findtext('PRESSURE') for x in s][::63])"
    ///     ['0.xml'] 17.05.2011 11:01:00 24,69 11,89 1890 32 0 100 1 237326 65 1920 ['165480', '68950']
    ///
    /// One entry, so one dive; 65 samples, the last at 1920 s; nitrox 32 with no helium in a
    /// 100 cu ft cylinder rated 237,326 bar: 100 × 28.316846592 ÷ (237.326 ÷ 1.01325) = 12.0897
    /// litres; pressures from 165,480 to 68,950 mbar (no transmitter: the straight line).
    @Test(.enabled(if: Paths.sharedAvailable, "needs ../shared")) func theCorpusExport() throws {
        let path = Paths.corpus + "/suunto/suunto-dm3__TestDiveDM3.SDE"
        let (dives, findings, header) = try readDM3(path)
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2011-05-17T11:01:00")
        #expect(d.maxDepth == 24.69)
        #expect(d.avgDepth == 11.89)
        #expect(d.submergedTime == 1890)
        let p = try #require(d.profile)
        #expect(p.sampleCount == 65)
        #expect(p.duration == 1_920_000)
        #expect(d.cylinders.count == 1)
        let c = try #require(d.cylinders.first)
        #expect(c.oxygen == 32 && c.helium == 0)
        #expect(c.volume == 12.09)
        #expect(c.startPressure == 165.48 && c.endPressure == 68.95)
        #expect(p.pressures.isEmpty)
        #expect(d.recordings.first?.device?.model == "Vyper")
        #expect(header.sourceFormat == "suunto_dm3" && header.sourceVersion == "SDM001A")
        // The notes' CRLF line ends are XML's to normalise; none is left.
        #expect(d.notes?.hasPrefix("Second deep dive\nLinus") == true)
        #expect(d.notes?.contains("\r") == false)
        #expect(findings.contains { $0.code == "suunto-dm3.pressure-interpolated" })
        #expect(findings.allSatisfy { $0.location.file == path + "(0.xml)" })
    }

    /// Every element with content in the corpus export and the sample is carried or named by a
    /// `suunto-dm3.not-carried` finding, checked against Foundation's parser walking the entry.
    @Test func everyElementIsAccountedFor() throws {
        var files = [Paths.samples + "/suunto-dm3.SDE"]
        if Paths.sharedAvailable { files.append(Paths.corpus + "/suunto/suunto-dm3__TestDiveDM3.SDE") }
        for file in files {
            let archive = try ZipArchive(path: file)
            let reader = try SuuntoDM3Reader(path: file)
            reader.recordsAccounting = true
            let (_, findings) = try reader.readAll()
            for entry in archive.entries {
                var bytes: [UInt8] = []
                try archive.read(entry) { bytes += $0 }
                // Foundation's parser takes a declared encoding only: say what the reader decided.
                if !bytes.starts(with: Array(#"<?xml version="1.0" encoding"#.utf8)) {
                    bytes = Array(#"<?xml version="1.0" encoding="ISO-8859-15"?>"#.utf8) + bytes.drop { $0 != UInt8(ascii: "\n") }
                }
                let walk = SuuntoContentWalk()
                let parser = XMLParser(data: Data(bytes))
                parser.delegate = walk
                #expect(parser.parse())
                #expect(!walk.leaves.isEmpty)
                let lost = walk.leaves.filter { leaf in
                    if reader.accounting.accounted.contains(leaf) { return false }
                    let parts = leaf.split(separator: "/").map(String.init)
                    return !findings.contains { f in
                        guard f.code == "suunto-dm3.not-carried" || f.code.hasSuffix("-not-carried"),
                              f.location.file == SuuntoDM3Reader.entryName(file, entry.name), let p = f.location.path else { return false }
                        let parent = parts.dropLast().joined(separator: "/")
                        return p == leaf || (p.hasSuffix("/") ? String(p.dropLast()) : p) == parent && f.message.contains("<\(parts.last!)>")
                    }
                }
                #expect(lost.isEmpty, "\(file)(\(entry.name)): neither carried nor reported: \(lost.sorted())")
            }
        }
    }

    @Test func decimalCommasAndDatesAreRead() throws {
        let path = try makeSDE([("0.xml", dm3(dm3Start + """
            <MAXDEPTH>30,25</MAXDEPTH><MEANDEPTH>17,5</MEANDEPTH><WEIGTH>6,5</WEIGTH><AIRTEMP>21,5</AIRTEMP>
            <CYLINDERSIZE>11,1</CYLINDERSIZE><CYLINDERUNITS>0</CYLINDERUNITS><CYLINDERSTARTPRESSURE>200500</CYLINDERSTARTPRESSURE>
            <O2PCT>21</O2PCT><HEPCT_0>0</HEPCT_0>
            <SAMPLE><SAMPLETIME>0</SAMPLETIME><DEPTH>0</DEPTH></SAMPLE>
            <SAMPLE><SAMPLETIME>30</SAMPLETIME><DEPTH>12,37</DEPTH><TEMPERATURE>18,5</TEMPERATURE></SAMPLE>
            <SAMPLE><SAMPLETIME>60</SAMPLETIME><DEPTH>30.25</DEPTH></SAMPLE>
            """))])
        let (dives, _, _) = try readDM3(path)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2024-03-02T09:15:00")
        #expect(d.maxDepth == 30.25 && d.avgDepth == 17.5 && d.weight == 6.5 && d.airTemperature == 21.5)
        #expect(d.cylinders.first?.volume == 11.1 && d.cylinders.first?.startPressure == 200.5)
        #expect(d.profile?.depth?.values == [0, 1237, 3025])
        #expect(d.profile?.temperature?.values == [1850])
        let bad = try makeSDE([("0.xml", dm3(dm3Start + "<MAXDEPTH>1.234,5</MAXDEPTH>"))])
        let (_, findings, _) = try readDM3(bad)
        #expect(findings.contains { $0.code == "suunto-dm3.not-a-number" && $0.message == #"<MAXDEPTH> holds "1.234,5", which is not a number; not carried"# })
    }

    /// Latin-9 in the notes, declared or not: 0xA4 is the euro sign there (Latin-1's ¤).
    @Test func latin9TextIsReadDeclaredOrNot() throws {
        let notes = "<LOGNOTES>Boat 25 €\r\nCaf\u{E9} after\nŠ</LOGNOTES>"
        for declared in [true, false] {
            let path = try makeSDE([("0.xml", dm3(dm3Start + notes, declared: declared))])
            let (dives, findings, _) = try readDM3(path, displayName: "t.SDE")
            #expect(dives.first?.notes == "Boat 25 €\nCafé after\nŠ")
            let fallback = findings.filter { $0.code == "suunto-dm3.encoding-latin9" }
            #expect(fallback.count == (declared ? 0 : 1))
            if !declared {
                #expect(fallback.first?.description == "t.SDE(0.xml):1: resolved[suunto-dm3.encoding-latin9]: the entry declares no encoding and is not UTF-8 (byte 146 is not); read as ISO-8859-15, the encoding Dive Manager writes")
            }
        }
        // Undeclared and UTF-8: read as UTF-8, no finding.
        let utf8 = Array(("<?xml version=\"1.0\"?><SUUNTO><MSG>" + dm3Start + "<LOGNOTES>Boat 25 €</LOGNOTES></MSG></SUUNTO>").utf8)
        let (dives, findings, _) = try readDM3(try makeSDE([("0.xml", utf8)]))
        #expect(dives.first?.notes == "Boat 25 €")
        #expect(!findings.contains { $0.code == "suunto-dm3.encoding-latin9" })
    }

    /// A DM3 document whose notes are 8 MiB of spaces (generated as ZIPFoundation deflates
    /// them, never held): about 1000:1, refused when the archive is opened.
    @Test func aZipBombIsRefusedBeforeItIsInflated() throws {
        let head = Array((#"<?xml version="1.0" encoding="ISO-8859-15" ?>"# + "\n<SUUNTO><MSG>" + dm3Start + "<LOGNOTES>").utf8)
        let archive = try Archive(data: Data(), accessMode: .create)
        try archive.addEntry(with: "0.xml", type: .file, uncompressedSize: Int64(8 << 20), compressionMethod: .deflate) { position, size in
            Data((Int(position)..<(Int(position) + size)).map { $0 < head.count ? head[$0] : 0x20 })
        }
        let path = try Paths.temporaryDirectory() + "/bomb.SDE"
        try #require(archive.data).write(to: URL(fileURLWithPath: path))
        do {
            _ = try readDM3(path, displayName: "bomb.SDE")
            Issue.record("no error")
        } catch let e as DiveError {
            #expect(e.code == "zip.bomb")
            #expect(e.location.file == "bomb.SDE" && e.location.path == "0.xml")
        }
    }

    /// Broken XML in one entry of several loses that entry's dives, located in it at its line
    /// (a finding that loses a dive: the run fails), and the other entries are read; in the
    /// only entry it is an error.
    @Test func brokenXMLIsALocatedErrorNamingTheEntry() throws {
        let path = try makeSDE([("0.xml", dm3(dm3Start)), ("1.xml", Array("<SUUNTO><MSG>\n<DATE>02.03.2024</DATE>\n<TIME>09:15</DAT>\n</MSG></SUUNTO>".utf8)),
                                ("2.xml", dm3(dm3Start))])
        let reader = try SuuntoDM3Reader(path: path, displayName: "broken.SDE")
        var dives = 0
        while try reader.next() != nil { dives += 1 }
        #expect(dives == 2)
        let e = try #require(reader.takeFindings().first { $0.code == "xml.malformed" })
        #expect(e.lostDives == 1)
        #expect(e.location.file == "broken.SDE(1.xml)")
        #expect(e.location.line == 3)
        #expect(e.description.hasPrefix("broken.SDE(1.xml):3:"))
        let truncated = try makeSDE([("0.xml", Array("<SUUNTO><MSG><DATE>02.03.2024</DATE>".utf8))])
        #expect(throws: DiveError.self) { try readDM3(truncated) }
        do { _ = try readDM3(truncated, displayName: "cut.SDE") } catch let e as DiveError {
            #expect(e.code == "xml.truncated" && e.location.file == "cut.SDE(0.xml)")
        }
    }

    @Test func entriesAreDivesInArchiveOrderWithStableIdentities() throws {
        let path = try makeSDE([
            ("0.xml", dm3("<DATE>01.03.2024</DATE><TIME>09:00:00</TIME><DIVENUMBER>7</DIVENUMBER><SITE>Jackfish Alley</SITE><LOCATION>Ras Mohammed</LOCATION><PARTNER>Leila</PARTNER>")),
            ("1.xml", dm3("<DATE>02.03.2024</DATE><TIME>10:30</TIME><DIVENUMBER>8</DIVENUMBER><SITE>Jackfish Alley</SITE><LOCATION>Ras Mohammed</LOCATION><PARTNER>leila</PARTNER><DIVEMASTER>Omar</DIVEMASTER>")),
            ("readme.txt", Array("not a dive".utf8)),
        ])
        let (dives, findings, header) = try readDM3(path)
        #expect(dives.map(\.number) == [7, 8])
        #expect(dives.map { $0.startedAt?.description } == ["2024-03-01T09:00:00", "2024-03-02T10:30:00"])
        #expect(dives.map(\.uuid) == [Identity.uuid5(namespace: SuuntoDM3.namespace, name: "dive:0.xml#0"),
                                     Identity.uuid5(namespace: SuuntoDM3.namespace, name: "dive:1.xml#0")])
        #expect(try readDM3(path).dives.map(\.uuid) == dives.map(\.uuid))
        // One site and one buddy for both dives.
        #expect(header.sites.count == 1 && header.sites.first?.location?.name == "Ras Mohammed")
        #expect(Set(dives.map(\.siteUUIDs)).count == 1)
        #expect(header.people.map(\.name) == ["Leila", "Omar"])
        #expect(dives[1].people.map(\.role) == [.buddy, .guide])
        #expect(findings.contains { $0.code == "suunto-dm3.time-without-seconds" })
        #expect(findings.contains { $0.code == "suunto-dm3.entry-not-read" && $0.location.path == "readme.txt" })
    }

    @Test func anArchiveOfOtherXMLIsRefused() throws {
        let other = try makeSDE([("1.xml", Array("<?xml version=\"1.0\"?><DIVELOGSDATA><DATE>17.05.2011</DATE></DIVELOGSDATA>".utf8))])
        do { _ = try readDM3(other, displayName: "o.SDE") } catch let e as DiveError {
            #expect(e.code == "suunto-dm3.not-dm3" && e.location.file == "o.SDE(1.xml)")
        }
        let none = try makeSDE([("readme.txt", Array("x".utf8))])
        do { _ = try readDM3(none) } catch let e as DiveError { #expect(e.code == "suunto-dm3.no-dives") }
    }

    @Test func gasSlotsSwitchesAndATransmittersReadings() throws {
        let path = try makeSDE([("0.xml", dm3(dm3Start + """
            <CYLINDERSIZE>80</CYLINDERSIZE><CYLINDERUNITS>1</CYLINDERUNITS><CYLINDERWORKPRESSURE>0</CYLINDERWORKPRESSURE>
            <HPTRANSMITTER>1</HPTRANSMITTER>
            <O2PCT>32</O2PCT><HEPCT_0>0</HEPCT_0><MIXTYPE_0>0</MIXTYPE_0><O2PCT_2>50</O2PCT_2><HEPCT_1>0</HEPCT_1><MIXTYPE_1>0</MIXTYPE_1>
            <O2PCT_3>0</O2PCT_3><HEPCT_2>0</HEPCT_2><MIXTYPE_2>0</MIXTYPE_2>
            <GASCHANGE><MIXTIME>0</MIXTIME><MIXVALUE>32</MIXVALUE><MIXHEVALUE>0</MIXHEVALUE></GASCHANGE>
            <GASCHANGE><MIXTIME>60</MIXTIME><MIXVALUE>50</MIXVALUE><MIXHEVALUE>0</MIXHEVALUE></GASCHANGE>
            <SAMPLE><SAMPLETIME>0</SAMPLETIME><DEPTH>0</DEPTH><PRESSURE>200000</PRESSURE><BOOKMARK></BOOKMARK></SAMPLE>
            <SAMPLE><SAMPLETIME>30</SAMPLETIME><DEPTH>20</DEPTH><PRESSURE>190000</PRESSURE><BOOKMARK>Heading: 120°</BOOKMARK></SAMPLE>
            <SAMPLE><SAMPLETIME>60</SAMPLETIME><DEPTH>6</DEPTH><PRESSURE>150000</PRESSURE></SAMPLE>
            """))])
        let (dives, findings, _) = try readDM3(path)
        let d = try #require(dives.first)
        #expect(d.cylinders.map(\.oxygen) == [32, 50])
        #expect(d.cylinders.map(\.gasNumber) == [0, 1])
        #expect(d.cylinders.first?.volume == nil)
        #expect(findings.contains { $0.code == "suunto-dm3.cylinder-size-unconvertible" })
        let p = try #require(d.profile)
        #expect(p.pressures.first?.gasNumber == 0 && p.pressures.first?.series.values == [2000, 1900, 1500])
        #expect(p.events.map(\.time) == [30_000, 60_000])
        #expect(p.events.first?.label == "Heading: 120°")
        #expect(p.events.last?.type == .gasSwitch && p.events.last?.gasNumber == 1)
    }

    /// A habit of every sample is one finding per dive, at the first sample, with the count:
    /// 2,000 depths above the surface and 2,000 temperatures that are no number are two
    /// findings, not 4,000.
    @Test func aHabitOfEverySampleIsOneFindingWithItsCount() throws {
        let samples = (0..<2000).map { "<SAMPLE><SAMPLETIME>\($0 * 10)</SAMPLETIME><DEPTH>-3</DEPTH><TEMPERATURE>n/a</TEMPERATURE></SAMPLE>\n" }
        let path = try makeSDE([("0.xml", dm3(dm3Start + samples.joined()))])
        let (dives, findings, _) = try readDM3(path, displayName: "t.SDE")
        #expect(dives.count == 1)
        let depth = findings.filter { $0.code == "suunto-dm3.depth-out-of-range" }
        #expect(depth.map(\.description) == ["t.SDE(0.xml):6: dropped[suunto-dm3.depth-out-of-range]: MSG/SAMPLE/0/DEPTH: <DEPTH> -3 m is above the surface or deeper than any sea; not carried (2000 of them; the first is here)"])
        let temperature = findings.filter { $0.code == "suunto-dm3.not-a-number" }
        #expect(temperature.map(\.description) == [#"t.SDE(0.xml):6: dropped[suunto-dm3.not-a-number]: MSG/SAMPLE/0/TEMPERATURE: <TEMPERATURE> holds "n/a", which is not a number; not carried (2000 of them; the first is here)"#])
        #expect(findings.count < 20)
    }

    @Test func theSnifferKnowsADM3ExportFromAnotherZip() throws {
        let sde = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.samples + "/suunto-dm3.SDE")))
        #expect(SuuntoDM3.sniff(Array(sde.prefix(64 << 10))))
        let other = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try makeSDE([("1.xml", Array("<?xml version=\"1.0\"?>\n<DIVELOGSDATA/>".utf8))]))))
        #expect(!SuuntoDM3.sniff(other))
        #expect(!SuuntoDM3.sniff(Array("<SUUNTO/>".utf8)))
        // A DOCTYPE, comments and a namespace prefix before the root are stepped over.
        let dressed = "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- Dive Manager -->\n<!DOCTYPE SUUNTO [<!ENTITY c \"x>y\">]>\n<dm:SUUNTO xmlns:dm=\"urn:x\"><MSG/></dm:SUUNTO>"
        let sniffed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try makeSDE([("0.xml", Array(dressed.utf8))]))))
        #expect(SuuntoDM3.sniff(sniffed))
    }
}
