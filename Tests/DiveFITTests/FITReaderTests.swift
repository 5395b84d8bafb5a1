import Foundation
import Testing
import DiveCore
@testable import DiveFIT
import TestSupport

// MARK: - Hand-built activities

private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

/// FIT time (seconds since 1989-12-31Z) of 2024-05-01T10:00:00Z.
private let t0: UInt32 = 1_083_492_000

private struct Activity {
    var records: [UInt8] = []

    init(gases: [(index: UInt16, o2: UInt8, he: UInt8, status: UInt8)] = [(0, 32, 0, 1), (1, 50, 0, 0)]) {
        records += definition(local: 0, global: 0, [(0, 1, 0x00), (1, 2, 0x84), (8, 8, 0x07)])
        records += [0x00, 4] + le16(1) + Array("Descent".utf8) + [0]
        records += definition(local: 3, global: 259, [(254, 2, 0x84), (1, 1, 0x02), (0, 1, 0x02), (2, 1, 0x00)])
        for g in gases { records += [0x03] + le16(g.index) + [g.o2, g.he, g.status] }
        records += definition(local: 1, global: 20, [(253, 4, 0x86), (92, 4, 0x86), (13, 1, 0x01)])
        records += definition(local: 2, global: 18, [(253, 4, 0x86), (2, 4, 0x86), (5, 1, 0x00), (7, 4, 0x86), (141, 4, 0x86)])
        records += definition(local: 4, global: 34, [(253, 4, 0x86), (5, 4, 0x86)])
    }

    /// One sample every 10 s from `start` for `depths` (millimetres).
    mutating func dive(start: UInt32, depths: [UInt32], maxDepth: UInt32?) {
        for (k, d) in depths.enumerated() { records += [0x01] + le32(start + UInt32(k * 10)) + le32(d) + [20] }
        let end = start + UInt32(depths.count * 10)
        records += [0x02] + le32(end) + le32(start) + [53] + le32(UInt32(depths.count * 10_000)) + le32(maxDepth ?? 0xFFFF_FFFF)
    }

    mutating func activity(offsetHours: Int32) {
        let end = t0 + 100_000
        records += [0x04] + le32(end) + le32(UInt32(Int64(end) + Int64(offsetHours) * 3600))
    }

    func bytes(fileCRC: UInt16? = nil) -> [UInt8] { fitFile(records, fileCRC: fileCRC) }
}

private func readAll(_ bytes: [UInt8]) throws -> (Logbook, [Finding]) {
    try FITReader(bytes: bytes, displayName: "a.fit").readAll()
}

@Suite struct FITReaderTests {
    @Test func twoSessionsAreTwoDivesEachWithItsOwnSamples() throws {
        var a = Activity()
        a.dive(start: t0, depths: [500, 5000, 12_000, 8000, 3000, 1000], maxDepth: 12_000)
        a.dive(start: t0 + 7200, depths: [800, 6000, 9000, 500], maxDepth: nil)
        a.activity(offsetHours: 2)
        let (book, findings) = try readAll(a.bytes())
        #expect(book.dives.count == 2)
        let first = book.dives[0], second = book.dives[1]
        #expect(first.startedAt?.description == "2024-05-01T12:00:00+02:00")
        #expect(second.startedAt?.description == "2024-05-01T14:00:00+02:00")
        #expect(first.uuid != second.uuid)
        #expect(first.maxDepth == 12)
        // The second session states no maximum: the deepest sample, listed as inferred.
        #expect(second.maxDepth == 9)
        #expect(second.inferred.contains("max_depth"))
        #expect(first.profile?.depth?.values == [50, 500, 1200, 800, 300, 100])
        #expect(second.profile?.depth?.times == [0, 10_000, 20_000, 30_000])
        #expect(first.profile?.temperature?.values.first == 2000)
        // Time in the water: the intervals after a sample deeper than 1.2 m (5, 12, 8, 3 m).
        #expect(first.submergedTime == 40)
        #expect(first.inferred == ["submerged_time", "avg_depth"])
        // The disabled gas slot is not a cylinder, and says so.
        #expect(first.cylinders.map(\.oxygen) == [32])
        #expect(findings.contains { $0.code == "fit.gas-disabled" })
        #expect(findings.contains { $0.kind == .inferred && $0.code == "fit.submerged-time-derived" })
    }

    @Test func aDiveWithoutAnActivityIsReadAsUTCAndSaysSo() throws {
        var a = Activity()
        a.dive(start: t0, depths: [3000, 4000], maxDepth: 4000)
        let (book, findings) = try readAll(a.bytes())
        #expect(book.dives.first?.startedAt?.description == "2024-05-01T10:00:00Z")
        #expect(findings.contains { $0.code == "fit.offset-absent" })
    }

    @Test func aBadFileCRCIsAFindingAndTheDivesAreRead() throws {
        var a = Activity()
        a.dive(start: t0, depths: [3000, 4000], maxDepth: 4000)
        a.activity(offsetHours: 0)
        let good = a.bytes()
        let stored = UInt16(good[good.count - 2]) | UInt16(good[good.count - 1]) << 8
        let (book, findings) = try readAll(a.bytes(fileCRC: stored ^ 0x5A5A))
        #expect(book.dives.count == 1)
        let crc = try #require(findings.first { $0.code == "fit.crc" })
        #expect(crc.location.path == "byte \(good.count - 2)")
    }

    @Test func aFileCutShortIsALocatedError() throws {
        var a = Activity()
        a.dive(start: t0, depths: [3000, 4000, 5000], maxDepth: 5000)
        let bytes = a.bytes()
        let cut = Array(bytes.prefix(bytes.count / 2))
        do {
            _ = try readAll(cut)
            Issue.record("a truncated file read without error")
        } catch let e as DiveError {
            #expect(e.code == "fit.truncated")
            #expect(e.location.file == "a.fit")
            #expect(e.location.path?.hasPrefix("byte ") == true)
        }
    }

    @Test func aDefinitionTheDataContradictsIsALocatedError() throws {
        // A definition promising 200 bytes of field data where the file has 10 left.
        var records = definition(local: 0, global: 20, [(253, 4, 0x86), (92, 200, 0x0D)])
        let at = records.count + 14
        records += [0x00] + le32(t0) + [1, 2, 3, 4, 5]
        do {
            _ = try readAll(fitFile(records))
            Issue.record("a contradicted definition read without error")
        } catch let e as DiveError {
            #expect(e.code == "fit.bad-definition")
            #expect(e.location.path == "byte \(at)")
        }
    }

    @Test func aMessageTheReaderDoesNotReadIsReportedWithWhereItIs() throws {
        var a = Activity()
        a.dive(start: t0, depths: [3000, 4000], maxDepth: 4000)
        // user_profile (3), which a dive log has no member for.
        let at = a.records.count + 14
        a.records += definition(local: 5, global: 3, [(1, 1, 0x00)]) + [0x05, 1]
        let (_, findings) = try readAll(a.bytes())
        let f = try #require(findings.first { $0.code == "fit.not-carried" && $0.message.contains("user_profile") })
        #expect(f.location.path == "message 6 (byte \(at + 6 + 3))")
    }

    @Test func aValueNoDiveCanHaveIsReportedNotDroppedQuietly() throws {
        // next_stop_depth (93) of 16,711.68 m on the second record — a damaged byte — and the
        // distance (5) and speed (6) every record carries, which a dive log has no member for.
        var records = definition(local: 1, global: 20, [(253, 4, 0x86), (92, 4, 0x86), (93, 4, 0x86), (5, 4, 0x86), (6, 2, 0x84)])
        for (k, stop) in [UInt32(3000), 16_711_680, 3000].enumerated() {
            records += [0x01] + le32(t0 + UInt32(k * 10)) + le32(12_000) + le32(stop) + le32(100) + le16(5)
        }
        records += definition(local: 2, global: 18, [(253, 4, 0x86), (2, 4, 0x86), (5, 1, 0x00)])
        records += [0x02] + le32(t0 + 30) + le32(t0) + [53]
        let (book, findings) = try readAll(fitFile(records))
        #expect(book.dives.first?.profile?.ceiling?.values == [300, 300])
        let f = try #require(findings.first { $0.code == "fit.value-out-of-range" })
        #expect(f.message.hasPrefix("1 record(s) state a next_stop_depth no dive can have (the first: 16711680"))
        // One finding for the record's fields, each named with its count.
        let record = findings.filter { $0.code == "fit.not-carried" && $0.message.hasPrefix("record fields") }
        #expect(record.count == 1)
        #expect(record.first?.message.contains("3 × distance (5), 3 × speed (6)") == true)
        #expect(record.first?.location.path == "message 0 (byte \(14 + 6 + 5 * 3))")
    }

    @Test func aDeveloperDuplicateNeverStandsInForTheNativeField() throws {
        // The session's maximum only as a developer float: read as not recorded, so the
        // maximum is the deepest sample (inferred), never the vendor's float.
        var records = definition(local: 1, global: 20, [(253, 4, 0x86), (92, 4, 0x86)])
        records += [0x01] + le32(t0) + le32(2000) + [0x01] + le32(t0 + 10) + le32(7000) + [0x01] + le32(t0 + 20) + le32(1000)
        records += definition(local: 2, global: 18, [(253, 4, 0x86), (2, 4, 0x86), (5, 1, 0x00)], developer: [(5, 4, 0)])
        records += [0x02] + le32(t0 + 30) + le32(t0) + [53] + Array(withUnsafeBytes(of: Float(45.9).bitPattern.littleEndian, Array.init))
        let (book, findings) = try readAll(fitFile(records))
        #expect(book.dives.first?.maxDepth == 7)
        #expect(book.dives.first?.inferred.contains("max_depth") == true)
        #expect(findings.contains { $0.code == "fit.developer-field" })
    }
}

// MARK: - The corpus, pinned

/// One dive of a corpus file, read off it with `scripts/fit-facts.py` (the independent
/// `fitdecode` 0.11.0 decoder): the session/lap `start_time` plus the offset `activity`'s
/// `local_timestamp` states; `max_depth` of the session (of the lap's `dive_summary` for a
/// freediving lap, of the deepest record where neither states one); the `dive_summary`'s
/// `bottom_time` (where there is none, the derivation of converting.md over the records'
/// depths, computed in Python); the enabled `dive_gas` slots in `message_index` order; and the
/// records carrying a depth within the dive.
struct FITCorpusDive: Sendable, CustomStringConvertible {
    var file: String
    var dives: Int
    var index: Int
    var start: String
    var maxDepth: Double
    var duration: Int
    var gases: [String]
    var samples: Int
    var description: String { file }
}

let fitCorpusDives: [FITCorpusDive] = [
    FITCorpusDive(file: "garmin-connect-manual__TestDive.fit", dives: 1, index: 0, start: "2024-08-05T10:00:22+08:00",
                  maxDepth: 18, duration: 3480, gases: ["21/5"], samples: 0),
    // Seven laps, each with its own dive_summary: the third lap (01:20:35Z to 01:30:35Z).
    FITCorpusDive(file: "garmin-descent-g1__18478819822_ACTIVITY.fit", dives: 7, index: 2, start: "2025-03-09T09:20:35+08:00",
                  maxDepth: 47.967, duration: 89, gases: [], samples: 600),
    FITCorpusDive(file: "garmin-descent-mk1__2018-04-11-10-56-59.fit", dives: 1, index: 0, start: "2018-04-11T10:56:59+02:00",
                  maxDepth: 68.884, duration: 5115, gases: ["16/45", "50/0", "99/0"], samples: 4601),
    FITCorpusDive(file: "garmin-descent-mk1__garmin_2023-10-21-12-13-38.fit", dives: 1, index: 0, start: "2023-10-21T12:13:38+13:00",
                  maxDepth: 62.02, duration: 6044, gases: ["17/30 diluent", "17/30", "52/0", "52/0 diluent"], samples: 6275),
    FITCorpusDive(file: "garmin-descent-mk3i__005_oc-trimix-two-deco-gases.fit", dives: 1, index: 0, start: "2026-03-26T11:02:51+01:00",
                  maxDepth: 58.909, duration: 4415, gases: ["19/34", "32/0", "72/0"], samples: 3921),
    // One session, no laps, no dive_summary: one dive (the file does not say its nine
    // descents are dives); time in the water derived, 252 s.
    FITCorpusDive(file: "suunto-ocean__FreeDiving_2024-10-16T16_33_30.fit", dives: 1, index: 0, start: "2024-10-16T16:33:30+03:00",
                  maxDepth: 11.42, duration: 252, gases: [], samples: 2915),
]

@Suite(.enabled(if: Paths.sharedAvailable, "the shared corpus (../shared) is absent"))
struct FITReaderCorpusTests {
    @Test func everyCorpusFileIsPinned() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Paths.corpus + "/fit").filter { $0.hasSuffix(".fit") }
        #expect(Set(files) == Set(fitCorpusDives.map(\.file)))
    }

    @Test(arguments: fitCorpusDives)
    func readsAsAnIndependentDecoderSays(_ expected: FITCorpusDive) throws {
        let (book, _) = try FITReader(path: Paths.corpus + "/fit/" + expected.file, displayName: expected.file).readAll()
        #expect(book.dives.count == expected.dives)
        let dive = try #require(book.dives[safe: expected.index])
        #expect(dive.startedAt?.description == expected.start)
        #expect(dive.maxDepth == expected.maxDepth)
        #expect(dive.submergedTime == expected.duration)
        #expect(dive.cylinders.map { c in
            "\(Int(c.oxygen ?? 0))/\(Int(c.helium ?? 0))" + (c.role == .diluent ? " diluent" : "")
        } == expected.gases)
        #expect((dive.profile?.depth?.count ?? 0) == expected.samples)
    }

    @Test func theApneaSessionsLapsAreSevenDivesInOrder() throws {
        let (book, _) = try FITReader(path: Paths.corpus + "/fit/garmin-descent-g1__18478819822_ACTIVITY.fit").readAll()
        #expect(book.dives.map(\.maxDepth) == [17.257, 21.012, 47.967, 50.82, 20.522, 8.305, 24.053])
        #expect(book.dives.allSatisfy { $0.recordings.first?.mode == .freedive })
        #expect(Set(book.dives.map(\.uuid)).count == 7)
    }
}
