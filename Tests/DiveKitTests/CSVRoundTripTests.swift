import Foundation
import Testing
@testable import DiveKit
import DiveCore
import TestSupport

/// What umilog's own `csv` carries of a dive, as the summary writer writes it.
struct SummaryCarried: Equatable {
    var number: Int?, start: String?, duration: Int?, maxDepth: Double?, avgDepth: Double?
    var water: Double?, air: Double?, site: String?, lat: Double?, lon: Double?, trip: String?
    var gases: [String?], volumes: [Double?], startPressures: [Double?], endPressures: [Double?]
    var visibility: Double?, weight: Double?, rating: Int?, type: DiveType?, buddies: [String], computer: String?
    var notes: String?, uuid: String

    init(_ d: Dive, _ h: LogbookHeader) {
        number = d.number; start = d.startedAt?.description; duration = d.submergedTime
        maxDepth = d.maxDepth; avgDepth = d.avgDepth; water = d.bottomTemperature; air = d.airTemperature
        let s = d.siteUUIDs.first.flatMap { h.site($0) }
        // The latitude and longitude columns hold the site's position, else the dive's entry.
        site = s?.name; lat = (s?.position ?? d.entryPosition)?.latitude; lon = (s?.position ?? d.entryPosition)?.longitude
        trip = d.tripUUID.flatMap { h.trip($0)?.name }
        gases = d.cylinders.map { $0.gasLabel ?? $0.gasName }; volumes = d.cylinders.map(\.volume)
        startPressures = d.cylinders.map(\.startPressure); endPressures = d.cylinders.map(\.endPressure)
        visibility = d.visibility; weight = d.weight; rating = d.rating; type = d.type
        buddies = d.people.compactMap { h.person($0.personUUID)?.name }
        computer = d.recordings.first?.device?.displayName; notes = d.notes; uuid = d.uuid
    }
}

/// What umilog's own `csv-profile` carries: the dive's identity and its primary profile.
struct ProfileCarried: Equatable {
    var number: Int?, start: String?, uuid: String
    var depth: Series?, temperature: Series?, ndl: Series?, tts: Series?, ceiling: Series?, ppo2: Series?, cns: Series?, gf: Series?
    var pressures: [Series]
    var events: [String]

    init(_ d: Dive) {
        number = d.number; start = d.startedAt?.description; uuid = d.uuid
        let p = d.recordings.first?.profile
        depth = p?.depth; temperature = p?.temperature; ndl = p?.ndl; tts = p?.tts; ceiling = p?.ceiling
        ppo2 = p?.ppo2; cns = p?.cns; gf = p?.gradientFactor
        pressures = p?.pressures.sorted { $0.gasNumber < $1.gasNumber }.map(\.series) ?? []
        events = p?.events.map { e in
            // A gas number names a cylinder; where no cylinder has one, it is a position.
            let unnumbered = !d.cylinders.contains { $0.gasNumber != nil }
            let gas = e.gasNumber.flatMap { g in d.cylinders.first { $0.gasNumber == g } ?? (unnumbered && g < d.cylinders.count ? d.cylinders[g] : nil) }
                .flatMap { $0.gasLabel ?? $0.gasName }
            return "\(e.time) \(e.type?.rawValue ?? "") \(gas ?? "") \(e.label ?? "")"
        } ?? []
    }
}

let csvRoundTripInputs: [String] = {
    var out = [Paths.samples + "/logbook.uddf"]
    if Paths.sharedAvailable {
        let dir = Paths.fixtures + "/valid"
        out += ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".divejson") }.sorted().map { dir + "/" + $0 }
    }
    return out
}()

@Suite struct CSVRoundTripTests {
    /// umilog's `csv` output reads back into the same dives, member for member of what it carries.
    @Test(arguments: csvRoundTripInputs)
    func summaryCSVReadsBackToTheSameDives(_ path: String) throws {
        let original = try readAll(path)
        let written = try Paths.temporaryDirectory() + "/out.csv"
        let report = convert(inputs: [path], options: ConvertOptions(to: .csv, output: written), standardOutput: MemorySink())
        #expect(!report.failed)
        let back = try readAll(written)
        let expected = original.dives.filter { $0.startedAt != nil }.map { SummaryCarried($0, original.header) }
        let got = back.dives.map { SummaryCarried($0, back.header) }
        #expect(got.count == expected.count)
        for (g, e) in zip(got, expected) { #expect(g == e) }
    }

    /// umilog's `csv-profile` output reads back into the same profiles.
    @Test(arguments: csvRoundTripInputs)
    func profileCSVReadsBackToTheSameProfiles(_ path: String) throws {
        let original = try readAll(path)
        let written = try Paths.temporaryDirectory() + "/out.profile.csv"
        let report = convert(inputs: [path], options: ConvertOptions(to: .csvProfile, output: written), standardOutput: MemorySink())
        #expect(!report.failed)
        let back = try readAll(written)
        let expected = original.dives.filter { $0.startedAt != nil && !($0.recordings.first?.profile?.isEmpty ?? true) }.map(ProfileCarried.init)
        let got = back.dives.map(ProfileCarried.init)
        #expect(got.count == expected.count)
        for (g, e) in zip(got, expected) { #expect(g == e) }
    }
}
