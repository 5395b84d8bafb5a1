import DiveCore
import DiveSSRF
import DiveUDDF
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing

/// The repository's UDDF samples and, when `../shared` is present, every shared UDDF file.
let ssrfWriterInputs: [String] = {
    let samples = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.samples)) ?? [])
        .filter { $0.hasSuffix(".uddf") }.sorted().map { Paths.samples + "/" + $0 }
    return samples + Paths.sharedUDDF.map { Paths.shared + "/" + $0 }
}()

/// What a written file holds, as Foundation's XML parser (not the writer's libxml2) sees it.
final class WrittenSSRF: NSObject, XMLParserDelegate {
    struct Computer {
        var depthMax: String?
        /// `(seconds, attributes)` of each `<sample>`.
        var samples: [(Int, [String: String])] = []
    }
    struct WrittenDive {
        var attributes: [String: String]
        var inTrip: Bool
        var computers: [Computer] = []
    }

    var root: String?
    var rootAttributes: [String: String] = [:]
    var siteIDs: [String] = []
    var dives: [WrittenDive] = []
    /// Elements found directly inside a `<trip>` that are neither a dive nor its notes.
    var strayInTrip: [String] = []
    private var stack: [String] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        defer { stack.append(name) }
        if stack.isEmpty { root = name; rootAttributes = attributes; return }
        switch (stack.last!, name) {
        case ("divesites", "site"): siteIDs.append(attributes["uuid"] ?? "")
        case ("trip", let child) where child != "dive" && child != "notes": strayInTrip.append(child)
        case (_, "dive"): dives.append(WrittenDive(attributes: attributes, inTrip: stack.last == "trip"))
        case ("dive", "divecomputer"): dives[dives.count - 1].computers.append(Computer())
        case ("divecomputer", "depth"):
            dives[dives.count - 1].computers[dives[dives.count - 1].computers.count - 1].depthMax = attributes["max"]
        case ("divecomputer", "sample"):
            let seconds = WrittenSSRF.seconds(attributes["time"] ?? "") ?? -1
            dives[dives.count - 1].computers[dives[dives.count - 1].computers.count - 1].samples.append((seconds, attributes))
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    /// `M:SS min` to seconds, refusing any other shape.
    static func seconds(_ text: String) -> Int? {
        guard text.hasSuffix(" min") else { return nil }
        let parts = text.dropLast(4).split(separator: ":")
        guard parts.count == 2, let m = Int(parts[0]), let s = Int(parts[1]), parts[1].count == 2, s < 60 else { return nil }
        return m * 60 + s
    }

    /// `N unit` to an integer count of `10^-places` units, exactly.
    static func scaled(_ text: String?, unit: String, places: Int) -> Int? {
        guard let text, text.hasSuffix(unit) else { return nil }
        return DecimalNumber(String(text.dropLast(unit.count)))?.scaledInteger(places)
    }

    static func parse(_ text: String) -> WrittenSSRF? {
        let parser = XMLParser(data: Data(text.utf8))
        let doc = WrittenSSRF()
        parser.delegate = doc
        return parser.parse() ? doc : nil
    }
}

@Suite struct SSRFWriterCorpusTests {
    /// Every UDDF file, converted through the writer, is a well-formed Subsurface divelog
    /// whose dives are the model's: one `<dive>` per dive with a start, its date, time,
    /// duration and greatest depth, a `<divecomputer>` per recording, and each recording's
    /// depth and temperature readings at their seconds.
    @Test(arguments: ssrfWriterInputs)
    func convertedUDDFIsTheSameDives(_ path: String) throws {
        let (logbook, _) = try UDDFReader(path: path).readAll()
        let (text, findings) = try renderSSRF(logbook.dives, header: logbook.header)
        let parsed = try #require(WrittenSSRF.parse(text), "not well-formed XML")
        #expect(parsed.root == "divelog")
        #expect(parsed.rootAttributes["version"] == "3")
        #expect(parsed.strayInTrip.isEmpty)

        // Sites: eight hex digits, unique, and every dive's site among them.
        #expect(parsed.siteIDs.allSatisfy { $0.count == 8 && $0.allSatisfy(\.isHexDigit) && $0.first != "0" })
        #expect(Set(parsed.siteIDs).count == parsed.siteIDs.count)
        #expect(parsed.siteIDs.count >= logbook.header.sites.count)
        for d in parsed.dives { if let id = d.attributes["divesiteid"] { #expect(parsed.siteIDs.contains(id)) } }

        let written = logbook.dives.filter { $0.startedAt != nil }
        try #require(parsed.dives.count == written.count)
        for (model, out) in zip(written, parsed.dives) {
            let start = model.startedAt!
            #expect(out.attributes["date"] == start.date.description)
            #expect(out.attributes["time"] == start.time.map { String($0.description.prefix(8)) })
            #expect(out.attributes["duration"] == model.submergedTime.map { "\($0 / 60):\($0 % 60 < 10 ? "0" : "")\($0 % 60) min" })
            #expect(out.attributes["number"] == model.number.map(String.init))
            let figures = model.maxDepth != nil || model.avgDepth != nil || model.bottomTemperature != nil || model.airTemperature != nil
            #expect(out.computers.count == (model.recordings.isEmpty ? (figures ? 1 : 0) : model.recordings.count))
            #expect(WrittenSSRF.scaled(out.computers.first?.depthMax, unit: " m", places: 3)
                    == model.maxDepth.flatMap { DecimalNumber($0)?.scaledInteger(3) })
            for (r, computer) in zip(model.recordings, out.computers) {
                let times = computer.samples.map(\.0)
                #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "sample times must increase")
                for (channel, attribute, unit) in [(r.profile?.depth, "depth", " m"), (r.profile?.temperature, "temp", " C")] {
                    let expected = Self.bySecond(channel)
                    let got = computer.samples.compactMap { s in s.1[attribute].map { (s.0, WrittenSSRF.scaled($0, unit: unit, places: 2)) } }
                    #expect(got.map(\.0) == expected.map(\.0), "\(attribute) instants")
                    #expect(got.map(\.1) == expected.map { Optional($0.1) }, "\(attribute) values")
                }
            }
        }
        // Every writer finding is about something it could not carry, or carried coarser.
        #expect(findings.allSatisfy { $0.code.hasPrefix("ssrf.") && [.dropped, .resolved, .inferred].contains($0.kind) })
    }

    /// A channel's readings at the whole seconds Subsurface keeps: the first reading of each
    /// second (a later one there is a reported collision).
    static func bySecond(_ s: Series?) -> [(Int, Int)] {
        guard let s else { return [] }
        var out: [(Int, Int)] = []
        for (t, v) in zip(s.times, s.values) where t >= 0 {
            let second = (t + 500) / 1000
            if out.last?.0 != second { out.append((second, v)) }
        }
        return out
    }

    /// The same input gives the same bytes.
    @Test func outputIsDeterministic() throws {
        let (logbook, _) = try UDDFReader(path: Paths.samples + "/logbook.uddf").readAll()
        let a = try renderSSRF(logbook.dives, header: logbook.header)
        let b = try renderSSRF(logbook.dives, header: logbook.header)
        #expect(a.text == b.text)
        #expect(a.findings == b.findings)
    }
}
