import Foundation
import Testing
import DiveCore
@testable import DiveSuunto
import TestSupport

/// Reads every dive of the Suunto app JSON at `path` and the findings the reader reported.
func readSuuntoApp(_ path: String, accounting: Bool = false) throws -> (dives: [Dive], findings: [Finding], reader: SuuntoJSONReader) {
    let reader = try SuuntoJSONReader(path: path, recordingAccounting: accounting)
    var dives: [Dive] = []
    while let d = try reader.next() { dives.append(d) }
    return (dives, reader.takeFindings(), reader)
}

/// Reads `json` written to a temporary file.
func readSuuntoApp(json: String) throws -> (dives: [Dive], findings: [Finding]) {
    let dir = try Paths.temporaryDirectory()
    let path = dir + "/activity.json"
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (dives, findings, _) = try readSuuntoApp(path)
    return (dives, findings)
}

/// The error reading `json` throws, if it throws one.
func suuntoAppError(json: String) -> DiveError? {
    do { _ = try readSuuntoApp(json: json) } catch let e as DiveError { return e } catch { return nil }
    return nil
}

/// A DeviceLog whose header is `header` (members after ActivityType/DateTime) and whose
/// samples are `samples` (a JSON array's elements).
func deviceLog(header: String = "", samples: String = "") -> String {
    #"{"DeviceLog": {"Header": {"ActivityType": 51, "DateTime": "2026-04-17T11:49:23.510+02:00""#
        + (header.isEmpty ? "" : ", " + header) + #"}, "Samples": ["# + samples + "]}}"
}

@Suite struct SuuntoJSONReaderTests {
    // The pinned values of the two corpus exports were read off the files, not off this
    // reader, with this script (python3, the standard library only):
    //
    //   import json, sys; from datetime import datetime; from decimal import Decimal, ROUND_HALF_UP
    //   d = json.load(open(sys.argv[1]), parse_float=Decimal); h = d['DeviceLog']['Header']
    //   t0 = datetime.fromisoformat(h['DateTime'])
    //   def ms(s):
    //       x = datetime.fromisoformat(s['TimeISO8601']) - t0
    //       return int(((x.days * 86400 + x.seconds + Decimal(x.microseconds) / 10**6) * 1000).to_integral_value(ROUND_HALF_UP))
    //   inst = set()
    //   for s in d['DeviceLog']['Samples']:
    //       gf = s.get('RtGradientFactors') or {}; sf = gf.get('gfSurface', gf.get('gtSurface'))
    //       if any([s.get('Depth') is not None and s['Depth'] >= 0, (s.get('Ceiling') or 0) > 0,
    //               s.get('Temperature') is not None, any(c.get('Pressure') is not None for c in s.get('Cylinders') or []),
    //               s.get('NoDecTime') is not None and s['NoDecTime'] >= 0, (s.get('TimeToSurface') or 0) > 0,
    //               gf.get('gf99') is not None and gf['gf99'] >= 0, sf is not None and sf >= 0]):
    //           inst.add(ms(s))
    //   print(h['DateTime'], h['Depth']['Max'], h.get('DiveTime') or h['Duration'],
    //         [(g['Oxygen'] * 100, g['Helium'] * 100) for g in h.get('Diving', {}).get('Gases', [])], len(inst))
    //
    // which prints, for the EON Core file, `2024-10-06T02:33:51.530+02:00 22.65 3970
    // [(Decimal('32.00'), 0)] 398`, and for the Ocean file `2026-01-13T11:05:31.170+05:00 23.4
    // 3011.3 [] 3636` (its one `GasSwitch` is to gas 0). The sample count is the number of
    // distinct instants carrying a reading the mapping keeps (a ceiling, a time to surface above
    // zero, a gradient factor not negative…), which is what `Profile.sampleCount` counts.

    /// A Suunto EON Core export of the D5-era shape: the header's gas block, one EAN32 cylinder.
    @Test(.enabled(if: Paths.sharedAvailable)) func theCorpusEONCoreExport() throws {
        let (dives, findings, _) = try readSuuntoApp(Paths.corpus + "/json/suunto-app__suunto_eon_core_nitrox.json")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2024-10-06T02:33:51.530+02:00")
        #expect(d.maxDepth == 22.65)
        #expect(d.avgDepth == 13.26)
        #expect(d.submergedTime == 3970)
        #expect(d.cylinders.count == 1)
        #expect(d.cylinders.first?.oxygen == 32)
        #expect(d.cylinders.first?.helium == 0)
        #expect(d.cylinders.first?.startPressure == 207.59375)
        #expect(d.cylinders.first?.volume == 12)
        #expect(d.profile?.sampleCount == 398)
        #expect(d.recordings.first?.device?.name == "EON Core")
        #expect(d.recordings.first?.device?.diveNumber == 16)
        #expect(d.recordings.first?.decoModel?.algorithm == "rgbm")
        #expect(!findings.contains { $0.kind == .dropped && $0.code == "suunto-json.wrong-type" })
    }

    /// A Suunto Ocean export of the 2026 shape: no gas block, one cylinder from a gas switch,
    /// no mixture recorded anywhere, and a route origin at 0, 0.
    @Test(.enabled(if: Paths.sharedAvailable)) func theCorpusOceanExport() throws {
        let (dives, findings, _) = try readSuuntoApp(Paths.corpus + "/json/suunto-app__suunto_ocean_air.json")
        #expect(dives.count == 1)
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2026-01-13T11:05:31.170+05:00")
        #expect(d.maxDepth == 23.4)
        #expect(d.avgDepth == 15.09)
        #expect(d.submergedTime == 3011)
        #expect(d.cylinders.count == 1)
        #expect(d.cylinders.first?.oxygen == nil)
        #expect(d.cylinders.first?.helium == nil)
        #expect(d.profile?.sampleCount == 3636)
        #expect(d.entryPosition == nil)
        #expect(d.exitPosition != nil)
        #expect(findings.contains { $0.code == "suunto-json.position-zero" })
        #expect(findings.contains { $0.code == "suunto-json.gas-absent" })
    }

    /// Pascal, cubic metres, 0–1 fractions, Kelvin and radians, and an axis in milliseconds
    /// from the header's own fraction, computed in decimal.
    @Test func unitsFollowTheMapping() throws {
        let (dives, _) = try readSuuntoApp(json: deviceLog(
            header: #""Depth": {"Max": 46.29, "Avg": 17.79}, "Duration": 4683, "Device": {"Name": "Suunto D5", "Info": {"SW": "3.0.2143"}},"#
                + #""Diving": {"DiveMode": "Mixed", "Algorithm": "Suunto Fused RGBM 2", "Conservatism": -1, "SurfacePressure": 104900,"#
                + #""StartTissue": {"CNS": 0.072, "OTU": 23.09649658203125}, "EndTissue": {"CNS": 0, "OTU": 0},"#
                + #""Gases": [{"Oxygen": 0.21, "Helium": 0, "PO2": 140000, "TankSize": 0.022, "StartPressure": 20714062, "EndPressure": 12243750, "State": "Primary"}]}"#,
            samples: #"{"Depth": 1.1, "Temperature": 293.75, "Cylinders": [{"GasNumber": 1, "Pressure": 20714000}], "TimeISO8601": "2026-04-17T11:49:23.670+02:00"},"#
                + #"{"Depth": 2.6, "TimeISO8601": "2026-04-17T09:49:24.000Z"},"#
                + #"{"Latitude": 0.49859222167449974, "Longitude": 0.6027186224443467, "TimeISO8601": "2026-04-17T11:59:00.000+02:00"}"#))
        let d = try #require(dives.first)
        #expect(d.submergedTime == 4683)
        let c = try #require(d.cylinders.first)
        #expect(c.oxygen == 21 && c.helium == 0 && c.volume == 22 && c.ppo2Limit == 1.4 && c.role == .bottom)
        #expect(c.startPressure == 207.14062 && c.endPressure == 122.4375)
        let r = try #require(d.recordings.first)
        #expect(r.surfacePressure == 1.049 && r.cnsStart == 7.2 && r.otuStart == 23.09649658203125 && r.cnsEnd == 0)
        #expect(r.mode == .openCircuit && r.decoModel?.algorithm == "rgbm" && r.decoModel?.conservatism == -1)
        let p = try #require(r.profile)
        #expect(p.depth?.times == [160, 490] && p.depth?.values == [110, 260])
        #expect(p.temperature?.values == [2060])
        #expect(p.pressures.first?.gasNumber == 0 && p.pressures.first?.series.values == [2071])
        // The one fix is at the split's far side: the exit, at six places.
        #expect(d.exitPosition?.latitude == 28.56723 && d.exitPosition?.longitude == 34.533233)
    }

    /// A member nothing reads is reported at its path, once however many samples carry it.
    @Test func anUnknownMemberIsReportedAtItsPath() throws {
        let (dives, findings) = try readSuuntoApp(json: deviceLog(
            header: #""Mood": "happy""#,
            samples: #"{"Depth": 3, "Sparkle": 7, "TimeISO8601": "2026-04-17T11:49:24.510+02:00"},"#
                + #"{"Depth": 4, "Sparkle": 8, "TimeISO8601": "2026-04-17T11:49:25.510+02:00"}"#))
        #expect(dives.count == 1)
        let mood = try #require(findings.first { $0.location.path == "$.DeviceLog.Header.Mood" })
        #expect(mood.kind == .dropped && mood.code == "suunto-json.not-carried")
        #expect(mood.message == #""Mood": "happy" has no place in umilog's model; not carried"#)
        let sparkle = findings.filter { $0.message.contains("Sparkle") }
        #expect(sparkle.count == 1)
        #expect(sparkle.first?.location.path == "$.DeviceLog.Samples[0].Sparkle")
        #expect(sparkle.first?.message.contains("(the first of 2)") == true)
        #expect(sparkle.first?.location.line == 1)
    }

    /// A finding that quotes a temperature gives its °C beside the app's Kelvin.
    @Test func aQuotedTemperatureSaysItsCelsius() throws {
        let (_, findings) = try readSuuntoApp(json: deviceLog(
            header: #""Temperature": {"Max": 296.8, "Min": 299.1}"#,
            samples: #"{"Depth": 3, "Temperature": 5, "DeviceInternalTemperature": 297.52, "TimeISO8601": "2026-04-17T11:49:24.510+02:00"}"#))
        let header = try #require(findings.first { $0.location.path == "$.DeviceLog.Header.Temperature" })
        #expect(header.message == #""Temperature": {"Max": 296.8 K (23.65 °C), "Min": 299.1 K (25.95 °C)} has no place in umilog's model; not carried"#)
        let device = try #require(findings.first { $0.location.path == "$.DeviceLog.Samples[0].DeviceInternalTemperature" })
        #expect(device.message == #""DeviceInternalTemperature": 297.52 K (24.37 °C) has no place in umilog's model; not carried"#)
        let water = try #require(findings.first { $0.location.path == "$.DeviceLog.Samples[0].Temperature" })
        #expect(water.message == #"a "Temperature" of 5 K (-268.15 °C) is no water temperature (outside −100 to 200 °C); not carried"#)
    }

    /// Text that is not JSON: the shared parser's located error, printed like a compiler's.
    @Test func notJSONIsALocatedError() throws {
        let e = try #require(suuntoAppError(json: "{\"DeviceLog\": {\n  \"Header\": hello}}"))
        #expect(e.code == "json.syntax")
        #expect(e.location.line == 2 && e.location.column == 13)
        #expect(e.description.hasSuffix(":2:13: error[json.syntax]: expected a JSON value, found 'h'"))
    }

    static let wrongShapes: [(json: String, code: String)] = [
        ("[]", "suunto-json.not-device-log"),
        (#"{"format": "divejson"}"#, "suunto-json.not-device-log"),
        (#"{"DeviceLog": "x"}"#, "suunto-json.wrong-shape"),
        (#"{"DeviceLog": {"Samples": []}}"#, "suunto-json.no-header"),
        (#"{"DeviceLog": {"Header": [1]}}"#, "suunto-json.wrong-shape"),
        (#"{"DeviceLog": {"Header": {}, "Samples": 12}}"#, "suunto-json.wrong-shape"),
    ]

    /// The skeleton in the wrong shape is refused with a stable code and where it went wrong.
    @Test(arguments: wrongShapes) func aWrongShapeIsALocatedError(_ c: (json: String, code: String)) throws {
        let e = try #require(suuntoAppError(json: c.json))
        #expect(e.code == c.code)
        #expect(e.location.line == 1 && e.location.column != nil)
    }

    /// A file cut short (the bundled sample, halfway) is the parser's `json.truncated`, at its end.
    @Test func aTruncatedFileIsALocatedError() throws {
        let text = try String(contentsOfFile: Paths.samples + "/suunto-app.json", encoding: .utf8)
        let cut = String(decoding: Array(text.utf8.prefix(text.utf8.count / 2)), as: UTF8.self)
        let e = try #require(suuntoAppError(json: cut))
        #expect(e.code == "json.truncated")
        #expect(e.location.line == cut.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(e.message.contains("truncated"))
    }

    /// Values no reading can be are findings, never a trap, and the rest of the dive reads.
    @Test func valuesOutOfRangeAreFindingsNotCrashes() throws {
        let (dives, findings) = try readSuuntoApp(json: deviceLog(
            header: #""Depth": {"Max": 1e308, "Avg": 1e400}, "DiveTime": 1e15, "Diving": {"SurfacePressure": 1e9, "NumberInSeries": 1e300,"#
                + #""StartTissue": {"CNS": -0.5}, "Gases": [{"Oxygen": 2, "Helium": 0.5, "PO2": 1e30, "TankSize": 1e20, "StartPressure": -1}]}"#,
            samples: #"{"Depth": 1e400, "Temperature": 5, "NoDecTime": 1e20, "RtGradientFactors": {"gf99": 1e12}, "Cylinders": [{"GasNumber": 1, "Pressure": 1e30}],"#
                + #""Latitude": 10, "Longitude": 10, "TimeISO8601": "2026-04-17T11:49:24.510+02:00"},"#
                + #"{"Depth": 99999, "TimeISO8601": "9999-12-31T23:59:59.999+02:00"},"#
                + #"{"Depth": 5, "TimeISO8601": "2026-04-17T11:50:23.510+02:00"}"#))
        let d = try #require(dives.first)
        #expect(d.maxDepth == nil && d.avgDepth == nil && d.submergedTime == nil)
        #expect(d.cylinders.first?.oxygen == nil && d.cylinders.first?.ppo2Limit == nil && d.cylinders.first?.volume == nil)
        #expect(d.recordings.first?.surfacePressure == nil && d.recordings.first?.device?.diveNumber == nil)
        #expect(d.profile?.depth?.values == [500] && d.profile?.depth?.times == [60000])
        #expect(d.profile?.temperature == nil && d.profile?.ndl == nil && d.profile?.gradientFactor == nil)
        #expect(d.profile?.pressures.isEmpty == true)
        #expect(d.exitPosition == nil)
        let codes = Set(findings.map(\.code))
        for code in ["value-out-of-range", "surface-pressure-out-of-range", "mix-invalid", "ppo2-limit-out-of-range",
                     "pressure-out-of-range", "position-out-of-range"] {
            #expect(codes.contains("suunto-json." + code), "\(code)")
        }
        #expect(findings.allSatisfy { $0.location.path != nil && $0.location.line != nil })
    }

    /// An activity of another type is skipped and reported; its device still names the file's writer.
    @Test func anActivityThatIsNotADiveIsSkipped() throws {
        let (dives, findings) = try readSuuntoApp(json: #"{"DeviceLog": {"Header": {"ActivityType": 3, "Distance": 10480, "#
            + #""Device": {"Name": "Suunto Ocean", "Info": {"SW": "2.40.56"}}}, "Samples": [{"Speed": 3.26}]}}"#)
        #expect(dives.isEmpty)
        #expect(findings.map(\.code) == ["suunto-json.not-a-dive"])
    }

    /// Readout sentinels, the `DiveTime` bound on a transmitter's last reading, switch order.
    @Test func sentinelsAndTheDiveTimeBound() throws {
        let (dives, findings) = try readSuuntoApp(json: deviceLog(
            header: #""DiveTime": 60.2"#,
            samples: #"{"DiveEvents": [{"GasSwitch": {"GasNumber": 3}}], "TimeISO8601": "2026-04-17T11:49:23.510+02:00"},"#
                + #"{"Depth": 10, "Ceiling": 0, "NoDecTime": -1, "TimeToSurface": 0, "RtGradientFactors": {"gf99": -100, "gtSurface": 12},"#
                + #""Cylinders": [{"GasNumber": 3, "Pressure": 20000000}, {"GasNumber": 4, "Pressure": null}], "TimeISO8601": "2026-04-17T11:49:33.510+02:00"},"#
                + #"{"Depth": 2, "NoDecTime": 6000, "Cylinders": [{"GasNumber": 3, "Pressure": 15000000}], "TimeISO8601": "2026-04-17T11:50:23.510+02:00"},"#
                + #"{"Cylinders": [{"GasNumber": 3, "Pressure": 14062}], "TimeISO8601": "2026-04-17T11:56:23.510+02:00"}"#))
        let d = try #require(dives.first)
        #expect(d.cylinders.count == 1)
        #expect(d.cylinders[0].startPressure == 200 && d.cylinders[0].endPressure == 150 && d.cylinders[0].gasNumber == 0)
        let p = try #require(d.profile)
        #expect(p.pressures.first?.series.values == [2000, 1500, 1])
        #expect(p.ceiling == nil && p.tts == nil && p.gradientFactor == nil)
        #expect(p.ndl?.values == [6000] && p.surfaceGradientFactor?.values == [12])
        #expect(p.events.first?.gasNumber == 0 && p.events.first?.type == .gasSwitch)
        #expect(p.duration == 420_000)
        for code in ["ceiling-zero", "ndl-absent-marker", "tts-absent-marker", "gf99-absent-marker", "gas-absent"] {
            #expect(findings.contains { $0.code == "suunto-json." + code && $0.kind == .absent }, "\(code)")
        }
    }

    /// The bundled sample reads as `scripts/make-sample-suunto-app.py` made it.
    @Test func theBundledSampleReads() throws {
        let (dives, findings, _) = try readSuuntoApp(Paths.samples + "/suunto-app.json")
        let d = try #require(dives.first)
        #expect(d.startedAt?.description == "2025-10-04T09:12:05.250+03:00")
        #expect(d.maxDepth == 24 && d.submergedTime == 2701)
        #expect(d.cylinders.count == 2 && d.cylinders[0].startPressure == 205)
        #expect(d.entryPosition?.latitude == 27.287436)
        #expect(d.exitPosition?.latitude == 27.287561)
        #expect(findings.contains { $0.kind == .resolved && $0.code == "suunto-json.fix-vouched" })
        #expect(d.profile?.events.map(\.type) == [.gasSwitch, .ascentRate, .gasSwitch, .safetyStop])
    }

    /// Every member with content in the pairs, the corpus exports and the sample is carried or
    /// named by a `suunto-json.not-carried` finding, checked against a walk that is not the
    /// reader's (Foundation's JSON parser).
    @Test(.enabled(if: Paths.sharedAvailable)) func everyMemberIsAccountedFor() throws {
        let dir = Paths.fixtures + "/suunto_json"
        var files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted().map { dir + "/" + $0 }
        files += ["suunto-app__suunto_eon_core_nitrox.json", "suunto-app__suunto_ocean_air.json"].map { Paths.corpus + "/json/" + $0 }
        files.append(Paths.samples + "/suunto-app.json")
        #expect(files.count == 15)
        for file in files {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
            var leaves: Set<[String]> = []
            walkLeaves(object, ["$"], into: &leaves)
            #expect(!leaves.isEmpty)
            let (_, findings, reader) = try readSuuntoApp(file, accounting: true)
            let reported = findings.filter { $0.code == "suunto-json.not-carried" }.map { f in
                (path: folded(f.location.path ?? ""), message: f.message)
            }
            let lost = leaves.filter { leaf in
                // The leaf or an ancestor carried whole, or named by a finding at its own path or,
                // among its siblings, at its holder's.
                for n in stride(from: leaf.count, through: 2, by: -1) {
                    let path = leaf[0..<n].joined()
                    if reader.accounted.contains(path) { return false }
                    let holder = leaf[0..<(n - 1)].joined(), name = leaf[n - 1].dropFirst()
                    if reported.contains(where: { $0.path == path || $0.path == holder && $0.message.contains("\"\(name)\": ") }) { return false }
                }
                return true
            }.map { $0.joined() }
            #expect(lost.isEmpty, "\(file): neither carried nor reported: \(lost.sorted())")
        }
    }
}

/// `$.DeviceLog.Samples[12].Depth` as `$.DeviceLog.Samples[].Depth`.
private func folded(_ path: String) -> String {
    var out = ""
    var inIndex = false
    for c in path {
        if c == "[" { inIndex = true; out.append("[") } else if c == "]" { inIndex = false; out.append("]") } else if !inIndex { out.append(c) }
    }
    return out
}

/// The paths (as `.name` and `[]` components) of every value that records something.
private func walkLeaves(_ value: Any, _ path: [String], into leaves: inout Set<[String]>) {
    switch value {
    case let d as [String: Any]:
        for (k, v) in d { walkLeaves(v, path + ["." + k], into: &leaves) }
    case let a as [Any]:
        // An array's elements fold into one path; an array of values is one leaf, its member.
        for v in a {
            if v is [String: Any] || v is [Any] { walkLeaves(v, path + ["[]"], into: &leaves) } else if !(v is NSNull) { leaves.insert(path) }
        }
    case is NSNull: break
    case let s as String: if !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { leaves.insert(path) }
    default: leaves.insert(path)
    }
}
