import Foundation
import Testing
@testable import DiveKit
import DiveCore
import DiveUDDF
import TestSupport

/// Every shared UDDF file and DiveJSON document the writer can be handed.
let writerInputs: [String] = {
    guard Paths.sharedAvailable else { return [] }
    var out = Paths.sharedUDDF.map { Paths.shared + "/" + $0 }
    for dir in ["valid", "write/uddf"] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Paths.fixtures + "/" + dir)) ?? []
        out += files.filter { $0.hasSuffix(".divejson") }.sorted().map { Paths.fixtures + "/\(dir)/\($0)" }
    }
    return out
}()

/// Reads every dive and the header of a file.
func readAll(_ path: String) throws -> Logbook {
    let reader = try openReader(path: path, format: try detectFormat(path: path))
    var dives: [Dive] = []
    while let d = try reader.next() { dives.append(d) }
    return Logbook(header: reader.header, dives: dives)
}

/// What a dive is as UDDF carries it both ways (`docs/uddf-writing.md`'s self round trip):
/// its identity, start, depths, duration, tanks and sampled channels.
struct CarriedDive: Equatable, CustomStringConvertible {
    var uuid: String
    var start: String?
    var maxDepth: Double?
    var duration: Int?
    var number: Int?
    var cylinders: [String]
    var depth: Series?
    var temperature: Series?
    var pressures: [Series]
    var sites: [String]

    init(_ d: Dive) {
        uuid = d.uuid
        start = d.startedAt?.description
        maxDepth = d.maxDepth
        duration = d.submergedTime
        number = d.number.flatMap { $0 > 0 ? $0 : nil }
        cylinders = d.cylinders.map { "\($0.volume.map { String($0) } ?? "-") \($0.startPressure.map { String($0) } ?? "-")→\($0.endPressure.map { String($0) } ?? "-") O2 \($0.oxygen.map { String($0) } ?? "-") He \($0.helium.map { String($0) } ?? "-")" }
        let p = d.recordings.first?.profile
        depth = p?.depth
        temperature = p?.temperature
        pressures = p?.pressures.map(\.series) ?? []
        sites = d.siteUUIDs
    }

    var description: String { "\(uuid) \(start ?? "-") \(maxDepth ?? -1) m \(duration ?? -1) s \(cylinders)" }
}

@Suite(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
struct UDDFWriterTests {
    /// Written and read back, a logbook keeps every dive with what UDDF carries both ways.
    @Test(arguments: writerInputs)
    func writtenUDDFReadsBackToTheSameDives(_ path: String) throws {
        let original = try readAll(path)
        let dir = try Paths.temporaryDirectory()
        let written = dir + "/written.uddf"
        let report = convert(inputs: [path], options: ConvertOptions(to: .uddf, output: written), standardOutput: MemorySink())
        #expect(!report.failed)
        let back = try readAll(written)
        let expected = original.dives.filter { $0.startedAt != nil }.map(CarriedDive.init)
        #expect(back.dives.map(CarriedDive.init) == expected)
        #expect(Set(back.header.sites.map(\.uuid)) == Set(original.header.sites.map(\.uuid)))
        #expect(Set(back.header.people.map(\.uuid)) == Set(original.header.people.map(\.uuid)))
        #expect(Set(back.header.trips.map(\.uuid)) == Set(original.header.trips.map(\.uuid)))
    }

    /// Everything else that differs after the round trip is exactly what the writer reported:
    /// each difference lies within a record a finding names.
    @Test(arguments: writerInputs)
    func everyRoundTripDifferenceIsReported(_ path: String) throws {
        let original = try readAll(path)
        let body = MemorySink(), document = MemorySink()
        let writer = UDDFWriter(body: body, generator: Generator(name: "test"), exportedAt: "2000-01-01T00:00:00Z")
        for d in original.dives { try writer.write(d, header: original.header) }
        try writer.finish(header: original.header, to: document) { consume in try body.bytes.withUnsafeBytes(consume) }
        let findings = writer.takeFindings()
        let written = try Paths.temporaryDirectory() + "/written.uddf"
        try Data(document.bytes).write(to: URL(fileURLWithPath: written))
        let back = try readAll(written)
        let index = Dictionary(original.dives.enumerated().map { ($1.uuid, $0) }, uniquingKeysWith: { a, _ in a })
        let differences = try logbookDifferences(original, back, diveIndex: index)
        let unreported = differences.filter { d in
            !findings.contains { covers($0, d) } && !isDocumentedGain(d, original: original, back: back, diveIndex: index)
        }
        #expect(unreported.isEmpty, "\(unreported.count) unreported: \(unreported.prefix(20))")
    }

    /// What the writer produces validates against the official 3.2.2 XSD. A dive logged with a
    /// date and no time goes out as the bare date (`docs/uddf-writing.md`: a time would be
    /// invented), which the XSD's `xs:dateTime` refuses; as that document prescribes, this
    /// pass widens exactly those dive starts and nothing else.
    @Test(arguments: writerInputs)
    func writtenUDDFValidatesAgainstTheXSD(_ path: String) throws {
        let dir = try Paths.temporaryDirectory()
        let written = dir + "/written.uddf"
        let report = convert(inputs: [path], options: ConvertOptions(to: .uddf, output: written), standardOutput: MemorySink())
        #expect(!report.failed)
        var text = try String(contentsOfFile: written, encoding: .utf8)
        let bareDate = try NSRegularExpression(pattern: #"(</tripmembership>|<link ref="[^"]*" />|<(?:internal)?divenumber>\d+</(?:internal)?divenumber>|<informationbeforedive>)(\s*)<datetime>(\d{4}-\d{2}-\d{2})</datetime>"#)
        let widened = bareDate.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
        text = bareDate.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1$2<datetime>$3T00:00:00</datetime>")
        if widened > 0 {
            #expect(report.inputs.flatMap(\.findings).contains { $0.code == "uddf.date-only-start" })
        }
        try text.write(toFile: written, atomically: true, encoding: .utf8)
        let problems = try UDDFSchemaValidator().validate(path: written).filter { $0.severity == .error }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    /// With `--date-only-start midnight` the writer's output passes the XSD as it stands, with
    /// no widening, and each dive given a midnight is reported.
    @Test(arguments: writerInputs)
    func withMidnightStartsTheOutputValidatesStrictly(_ path: String) throws {
        let written = try Paths.temporaryDirectory() + "/written.uddf"
        let report = convert(inputs: [path], options: ConvertOptions(to: .uddf, output: written, dateOnlyStart: .midnight), standardOutput: MemorySink())
        #expect(!report.failed)
        let findings = report.inputs.flatMap(\.findings)
        #expect(!findings.contains { $0.code == "uddf.date-only-start" })
        let dateOnly = try readAll(path).dives.filter { $0.startedAt != nil && $0.startedAt?.time == nil }.count
        #expect(findings.filter { $0.code == "uddf.date-only-start-midnight" }.count == dateOnly)
        let problems = try UDDFSchemaValidator().validate(path: written).filter { $0.severity == .error }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    /// Every writer pair of the DiveJSON corpus comes out as its expected file, compared as
    /// canonical XML without `<generator>`.
    @Test func theWriterPairsPass() throws {
        let report = conform(directory: Paths.fixtures, only: .uddf)
        let section = try #require(report.sections.first { $0.name == "write/uddf" })
        #expect(section.total == 5)
        #expect(section.passed == section.total, "\(report.failures.map { "\($0.file): \($0.reason)" })")
    }

    /// What UDDF cannot hold is reported where it was, never dropped quietly.
    @Test func whatUDDFCannotHoldIsReported() throws {
        let report = convert(inputs: [Paths.fixtures + "/valid/technical-dive.divejson"], options: ConvertOptions(to: .uddf), standardOutput: MemorySink())
        let findings = report.inputs.flatMap(\.findings)
        let codes = Set(findings.map(\.code))
        for code in ["uddf.course-not-carried", "uddf.certification-not-carried", "uddf.species-not-carried",
                     "uddf.cylinder-member-not-carried", "uddf.recording-member-not-carried", "uddf.person-role-not-carried"] {
            #expect(codes.contains(code), "missing \(code)")
        }
        let role = try #require(findings.first { $0.code == "uddf.person-role-not-carried" })
        #expect(role.kind == .dropped)
        #expect(role.location.file?.hasSuffix("technical-dive.divejson") == true)
        #expect(role.location.path == "dive/0/people/0")
    }
}

@Suite struct UDDFWriterUnitTests {
    /// Units go out in SI, computed in decimal: no binary noise in the text.
    @Test func unitsAreExactDecimals() throws {
        var dive = Dive(uuid: "0198a6f0-0000-7000-8000-000000000001", startedAt: DiveDateTime.parse("2026-01-02T03:04:05+01:00")!.0)
        dive.maxDepth = 18.3
        dive.submergedTime = 2400
        dive.bottomTemperature = 11.5
        var c = Cylinder()
        c.volume = 11.1; c.startPressure = 199.9; c.oxygen = 32; c.ppo2Limit = 1.4; c.gasNumber = 0
        dive.cylinders = [c]
        var profile = Profile()
        profile.depth = Series(times: [0, 1500], values: [0, 1830])
        profile.temperature = Series(times: [750], values: [1150])
        profile.duration = 1500
        dive.recordings = [Recording(profile: profile)]
        let body = MemorySink(), out = MemorySink()
        let writer = UDDFWriter(body: body, generator: Generator(name: "t"), exportedAt: "2026-01-01T00:00:00Z")
        try writer.write(dive, header: LogbookHeader())
        try writer.finish(header: LogbookHeader(), to: out) { consume in try body.bytes.withUnsafeBytes { try consume($0) } }
        let text = out.text
        #expect(text.contains("<tankvolume>0.0111</tankvolume>"))
        #expect(text.contains("<tankpressurebegin>19990000</tankpressurebegin>"))
        #expect(text.contains("<lowesttemperature>284.65</lowesttemperature>"))
        #expect(text.contains("<divetime>1.5</divetime>"))
        #expect(text.contains("<temperature>284.65</temperature>"))
        #expect(text.contains("<name>EAN32</name>"))
        #expect(text.contains("<link ref=\"mix-1\" />"))
        // A temperature between two depth readings is a waypoint of its own, with no depth.
        #expect(text.contains("<waypoint>\n            <divetime>0.75</divetime>\n            <temperature>284.65</temperature>"))
    }

    /// A dive that links an old computer ahead of the one that recorded it comes back with the
    /// profile on the old one, and the writer says so (`docs/uddf-writing.md`, *Devices*).
    @Test func aComputerLinkedAheadOfTheRecordingOneIsReported() throws {
        var header = LogbookHeader()
        var old = GearItem(uuid: "0198a6f0-0000-7000-8000-0000000000a1", name: "Old")
        old.type = .computer
        header.gear = [old]
        var dive = Dive(uuid: "0198a6f0-0000-7000-8000-000000000002", startedAt: DiveDateTime.parse("2026-01-02T03:04:05+01:00")!.0)
        dive.maxDepth = 10; dive.submergedTime = 600
        dive.gearUUIDs = [old.uuid]
        var device = Device()
        device.name = "New"
        dive.recordings = [Recording(device: device)]
        let body = MemorySink(), out = MemorySink()
        let writer = UDDFWriter(body: body, generator: Generator(name: "t"), exportedAt: "2026-01-01T00:00:00Z")
        try writer.write(dive, header: header)
        try writer.finish(header: header, to: out) { consume in try body.bytes.withUnsafeBytes { try consume($0) } }
        let finding = try #require(writer.takeFindings().first { $0.code == "uddf.linked-computer-first" })
        #expect(finding.location.path == "dive/0/recordings/0")
        let path = try Paths.temporaryDirectory() + "/linked.uddf"
        try Data(out.bytes).write(to: URL(fileURLWithPath: path))
        let back = try readAll(path)
        #expect(back.dives.first?.recordings.first?.device?.name == "Old")
    }
}
