import Foundation
import Testing
@testable import DiveKit
import TestSupport

/// A one-entry zip archive of stored (not deflated) bytes, written byte by byte; CRC-32 left 0
/// (only sniffing and the refusal of what is not a dive log read it here).
func storedZip(_ name: String, _ data: [UInt8]) -> [UInt8] {
    func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    let n = Array(name.utf8)
    let local = [0x50, 0x4B, 0x03, 0x04] + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) + le(data.count, 4) + le(data.count, 4)
        + le(n.count, 2) + le(0, 2) + n
    let central = [0x50, 0x4B, 0x01, 0x02] + le(20, 2) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) + le(data.count, 4)
        + le(data.count, 4) + le(n.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) + n
    let end = [0x50, 0x4B, 0x05, 0x06] + le(0, 2) + le(0, 2) + le(1, 2) + le(1, 2) + le(central.count, 4) + le(local.count + data.count, 4) + le(0, 2)
    return local + data + central + end
}

@Suite struct SuuntoDM3SampleTests {
    @Test func theSampleReadsAsItsGolden() throws {
        let out = Capture()
        let options = ConvertOptions(to: .json, exportedAt: "1970-01-01T00:00:00+00:00")
        let report = convert(inputs: [Paths.samples + "/suunto-dm3.SDE"], options: options, standardOutput: out)
        #expect(!report.failed && report.inputs.first?.dives == 2)
        #expect(out.text == (try contents(Paths.samples + "/expected/suunto-dm3.divejson")), "re-record with scripts/update-goldens.sh if the change is intended")
    }

    @Test func aDM3ExportIsSniffedFromItsBytes() throws {
        #expect(try detectFormat(path: Paths.samples + "/suunto-dm3.SDE").rawValue == "suunto-dm3")
        // A DM3 document stored rather than deflated, under any file name.
        let dir = try Paths.temporaryDirectory()
        let stored = storedZip("0.xml", Array("<?xml version=\"1.0\" encoding=\"ISO-8859-15\" ?>\n<SUUNTO><MSG/></SUUNTO>".utf8))
        try Data(stored).write(to: URL(fileURLWithPath: dir + "/export.zip"))
        #expect(try detectFormat(path: dir + "/export.zip").rawValue == "suunto-dm3")
    }

    /// A zip that is not a DM3 export is named as a zip, with what its first entry is.
    @Test func anotherZipIsNotADiveLogAndSaysWhatItHolds() throws {
        let dir = try Paths.temporaryDirectory()
        try Data(storedZip("1.xml", Array("<?xml version=\"1.0\"?>\n<pocketnotes/>".utf8))).write(to: URL(fileURLWithPath: dir + "/a.zip"))
        try Data(storedZip("photo.jpg", [0xFF, 0xD8, 0xFF])).write(to: URL(fileURLWithPath: dir + "/b.zip"))
        for (file, what) in [("a.zip", "whose first entry is 1.xml, XML with root element <pocketnotes>"), ("b.zip", "whose first entry is photo.jpg")] {
            do {
                _ = try detectFormat(path: dir + "/" + file)
                Issue.record("\(file) was recognised")
            } catch let e as DiveError {
                #expect(e.code == "format.unknown-zip")
                #expect(e.message.hasPrefix("the file is a zip archive \(what), which is not a dive-log export umilog reads (it reads "))
            }
            guard case .notADiveLog(let e) = try classifyFile(dir + "/" + file) else {
                Issue.record("\(file) is not listed as not a dive log")
                continue
            }
            #expect(e.code == "format.unknown-zip")
        }
    }
}
