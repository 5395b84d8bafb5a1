import Foundation
import Testing
import DiveCore
@testable import DiveDataTrak
import TestSupport

/// Reads every dive of `path` and the findings the reader reported.
func readDataTrak(_ path: String) throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
    let reader = try DataTrakReader(path: path)
    var dives: [Dive] = []
    var findings: [Finding] = []
    while let d = try reader.next() {
        dives.append(d)
        findings += reader.takeFindings()
    }
    return (dives, findings + reader.takeFindings(), reader.header)
}

/// Reads `bytes` written to a temporary file.
func readDataTrak(bytes: [UInt8]) throws -> (dives: [Dive], findings: [Finding], header: LogbookHeader) {
    let dir = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/made.log"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try readDataTrak(path)
}

func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
func text(_ s: String) -> [UInt8] { [UInt8(s.utf8.count)] + Array(s.utf8) }

/// A logbook's 12-byte header saying it holds `dives`.
func logHeader(dives: Int) -> [UInt8] { [0xA1, 0x00, 0, 0, 0, 0] + le16(dives) + [0, 0, 0, 0] }

/// One record made here, field by field in the order of docs/datatrak-mapping.md: 2001-07-15
/// 10:30 at "Reef" in "Bay", a misty day (2), air 25.50 °C, a 12.00 l tank, 18.40 m for 41 min,
/// water 22.00 °C, salt water, night, buddy "Anna", dive number 7, model `model`, `profile`.
func record(model: UInt8 = 0xF4, profile: [UInt8]) -> [UInt8] {
    let day = 135_140 + 11_518  // 2001-07-15 is day 11 518 from 1970-01-01
    var r: [UInt8] = [0xA0, 0x00] + le32(day) + le16(10 * 60 + 30)
    r += text("Bay") + text("Reef")
    r += [1] + le16(0x7FFF) + [2] + le16(2550) + [4]          // altitude, interval, weather, air, suit
    r += le16(1200) + le16(1840) + le16(41) + le16(2200) + le16(0x7FFF)  // tank, depth, time, water, air used
    r += [0x80, 0x00, 0x10, 0x00]                              // salt water; night
    r += [0] + text("Anna") + text("Saw a seal")               // other activities, buddies, notes
    r += [0, 0] + le16(7) + le32(12345) + [model] + [UInt8](repeating: 0, count: 7)
    return r + le16(profile.count) + profile
}

/// A nitrox computer's profile: a 24-byte header whose byte 23 says 32 % (low nibble 6), then
/// samples at 20, 40 and 60 s (the last followed by its minute byte), depths 64, 128 and 64
/// sixty-fourths-of-ten metres, the ascent warning (bit 2) rising at 60 s.
let nitroxProfile: [UInt8] = [UInt8](repeating: 0, count: 23) + [0x06]
    + [0x10, 0x00] + [0x20, 0x00] + [0x10, 0x04] + [0x33]

@Suite("DataTrak made files")
struct DataTrakMadeTests {
    @Test func oneNitroxRecord() throws {
        let (dives, findings, header) = try readDataTrak(bytes: logHeader(dives: 1) + record(profile: nitroxProfile))
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2001-07-15T10:30:00")
        #expect(d.maxDepth == 18.4)
        #expect(d.submergedTime == 41 * 60)
        #expect(d.bottomTemperature == 22)
        #expect(d.airTemperature == 25.5)
        #expect(d.weather == nil)
        #expect(d.waterType == .salt)
        #expect(d.tags == ["night"])
        #expect(d.notes == "Saw a seal")
        #expect(d.number == 7)
        #expect(d.cylinders.count == 1)
        #expect(d.cylinders.first?.volume == 12)
        #expect(d.cylinders.first?.oxygen == 32)
        #expect(header.sites.map(\.name) == ["Reef"])
        #expect(header.sites.first?.location?.name == "Bay")
        #expect(header.people.map(\.name) == ["Anna"])
        #expect(d.recordings.first?.device?.model == "Aladin Air X/Z Nitrox")
        let p = try #require(d.profile)
        #expect(p.depth?.times == [20_000, 40_000, 60_000])
        #expect(p.depth?.values == [1000, 2000, 1000])  // 64 × 10/64 m = 10 m
        #expect(p.events.map(\.type) == [.ascentRate])
        let codes = Set(findings.map(\.code))
        #expect(codes.isSuperset(of: ["datatrak.weather-not-carried", "datatrak.suit", "datatrak.minute-deco", "datatrak.profile-header", "datatrak.computer-clock"]))
        #expect(!codes.contains("datatrak.surface-interval"))
    }

    @Test func truncatedRecordIsAnErrorAtItsByte() throws {
        let made = logHeader(dives: 1) + record(profile: nitroxProfile)
        let cut = Array(made.prefix(made.count - 5))
        #expect {
            _ = try readDataTrak(bytes: cut)
        } throws: { error in
            guard let e = error as? DiveError else { return false }
            // The profile begins after the 12-byte header and the record's fields: its length
            // says 31 bytes, 26 are left.
            let profileAt = made.count - nitroxProfile.count
            return e.code == "datatrak.truncated" && e.location.path == "byte \(profileAt) (dive 1, profile)"
                && e.message.contains("needs 31 bytes")
        }
    }

    @Test func fewerRecordsThanTheHeaderSays() throws {
        #expect {
            _ = try readDataTrak(bytes: logHeader(dives: 2) + record(profile: nitroxProfile))
        } throws: { ($0 as? DiveError)?.code == "datatrak.truncated" }
    }

    @Test func notADataTrakFile() throws {
        #expect {
            _ = try readDataTrak(bytes: [0x52, 0x02] + [UInt8](repeating: 0, count: 20))
        } throws: { ($0 as? DiveError)?.code == "datatrak.not-datatrak" }
    }

    @Test func handEnteredDiveKeepsNoProfile() throws {
        let (dives, findings, _) = try readDataTrak(bytes: logHeader(dives: 1) + record(model: 0, profile: nitroxProfile))
        #expect(dives.first?.profile == nil)
        #expect(dives.first?.cylinders.first?.oxygen == nil)
        #expect(findings.contains { $0.code == "datatrak.profile-without-computer" })
    }
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct DataTrakCorpusTests {
    static let file = Paths.corpus + "/other/uwatec-datatrak__Example.log"

    /// Read off `xxd -s 12 -l 400` by hand. The header: `A1 00`, bytes 6–7 `4C 00` = 76 dives.
    /// Dive 1 opens `A0 00` at byte 12: date `C9 31 02 00` = 143 817 days from 1600-01-01, less
    /// 135 140 = 8 677 days from 1970-01-01 = 1993-10-04; time `3D 02` = 573 min = 09:33;
    /// "Elba" and "Capo d'Arco"; tank `78 05` = 14.00 l; max depth `68 10` = 4200 cm; time
    /// `25 00` = 37 min; water `D0 07` = 20.00 °C; buddy "Peter"; number `B4 05` = 1460; model
    /// `73` (unknown to Subsurface: air); profile length `45 01` = 325 bytes at byte 84: a
    /// 22-byte header, then 303 bytes = 43 minutes of three words and a minute byte (7 bytes)
    /// and one word more: 130 samples, the last at 130 × 20 s = 2600 s.
    @Test func exampleLog() throws {
        let (dives, findings, header) = try readDataTrak(Self.file)
        #expect(dives.count == 76)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "1993-10-04T09:33:00")
        #expect(d.maxDepth == 42)
        #expect(d.submergedTime == 37 * 60)
        #expect(d.bottomTemperature == 20)
        #expect(d.number == 1460)
        #expect(d.cylinders.map(\.volume) == [14])
        #expect(d.cylinders.map(\.oxygen) == [21])
        #expect(d.profile?.sampleCount == 130)
        #expect(d.profile?.duration == 2_600_000)
        let site = try #require(header.sites.first { $0.uuid == d.siteUUIDs.first })
        #expect(site.name == "Capo d'Arco")
        #expect(site.location?.name == "Elba")
        #expect(header.people.first { $0.uuid == d.people.first?.personUUID }?.name == "Peter")
        // Dive 61, an Aladin Air X/Z Nitrox (model F4): profile byte 23 (byte 20 969) is `8F`,
        // low nibble 15: 20 + 2 × 15 = 50 % O2 in its 3.00 l tank.
        #expect(dives[60].cylinders.map(\.oxygen) == [50])
        #expect(dives[60].cylinders.map(\.volume) == [3])
        #expect(!findings.contains { $0.code == "datatrak.bytes-skipped" || $0.code == "datatrak.trailing-bytes" })
        #expect(findings.contains { $0.code == "datatrak.profile-without-computer" })
    }
}
