import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import DiveCore
import DiveKit
import DivePlot
import TestSupport

/// An SVG read back with Foundation's XML parser: every element in document order, with its
/// attributes, its text and the classes of the groups around it.
final class SVGDocument: NSObject, XMLParserDelegate {
    struct Element {
        let name: String
        let attributes: [String: String]
        var text = ""
        /// Its own class and those of its ancestors, innermost first.
        let classes: [String]
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []
    private(set) var error: Error?

    init(_ bytes: [UInt8]) {
        super.init()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = self
        if !parser.parse() { error = parser.parserError ?? CocoaError(.fileReadCorruptFile) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let inherited = open.last.map { elements[$0].classes } ?? []
        let own = (attributes["class"] ?? "").split(separator: " ").map(String.init)
        elements.append(Element(name: name, attributes: attributes, classes: own + inherited))
        open.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { open.removeLast() }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let i = open.last { elements[i].text += string }
    }

    /// Elements named `name` inside (or being) an element of class `c`.
    func all(_ name: String, in c: String? = nil) -> [Element] {
        elements.filter { $0.name == name && (c == nil || $0.classes.contains(c!)) }
    }

    /// The points of path data made of `M`/`L` commands.
    static func points(_ d: String) -> [(x: Double, y: Double)] {
        d.split(whereSeparator: { $0 == "M" || $0 == "L" }).map { pair in
            let xy = pair.split(separator: " ").map { Double($0)! }
            return (xy[0], xy[1])
        }
    }
}

/// A made dive with every channel the plot draws: 36,000 depth samples (a tenth of a second
/// apart for an hour) with one spike deeper than the rest, a ceiling, an NDL, temperature,
/// two tanks and an event of each kind.
func madeDive() -> (Dive, [Site]) {
    var dive = Dive(uuid: "d1", startedAt: DiveDateTime.parse("2024-05-01T10:12:00")!.0)
    dive.number = 7
    dive.siteUUIDs = ["s1"]
    dive.maxDepth = 41.37
    var air = Cylinder(); air.gasNumber = 1; air.oxygen = 21
    var deco = Cylinder(); deco.gasNumber = 2; deco.oxygen = 50
    dive.cylinders = [air, deco]
    var p = Profile()
    p.duration = 3_600_000
    var depth = Series(), ceiling = Series(), ndl = Series(), temperature = Series()
    var tank1 = Series(), tank2 = Series()
    for i in 0..<36_000 {
        let t = i * 100
        let minutes = Double(t) / 60_000
        // Down to 30 m in 3 min, 30 m until 20, up to 6 m by 50, to the surface by 60.
        var metres = minutes < 3 ? minutes * 10 : minutes < 20 ? 30 : minutes < 50 ? 30 - (minutes - 20) * 0.8 : 6 * (60 - minutes) / 10
        metres += Double((i * 7919) % 13) / 100  // a little noise
        if i == 12_345 { metres = 41.37 }
        depth.append(t, Int((metres * 100).rounded()))
        if i % 100 == 0 {
            let c = minutes > 20 && minutes < 40 ? Int((600 * sin((minutes - 20) / 20 * .pi)).rounded()) : 0
            ceiling.append(t, c)
            ndl.append(t, minutes < 15 ? Int((99 - minutes * 6.6) * 60) : minutes < 42 ? 0 : Int((minutes - 42) * 300))
            temperature.append(t, 2400 - Int(metres * 10))
            tank1.append(t, 2000 - Int(minutes * 25))
            tank2.append(t, minutes < 45 ? 2000 : 2000 - Int((minutes - 45) * 40))
        }
    }
    p.depth = depth; p.ceiling = ceiling; p.ndl = ndl; p.temperature = temperature
    p.pressures = [PressureSeries(gasNumber: 1, series: tank1), PressureSeries(gasNumber: 2, series: tank2)]
    p.events = [
        Event(time: 0, type: .gasSwitch, gasNumber: 1),
        Event(time: 600_000, type: .bookmark, label: "look <here> & \"there\""),
        Event(time: 1_800_000, label: "Fish"),
        Event(time: 2_700_000, type: .gasSwitch, gasNumber: 2),
        Event(time: 3_000_000, type: .ascentRate),
        Event(time: 3_060_000, type: .safetyStop),
    ]
    dive.recordings = [Recording(profile: p)]
    return (dive, [Site(uuid: "s0", name: "Elsewhere"), Site(uuid: "s1", name: "Blue Hole <Dahab>")])
}

@Suite struct ProfilePlotTests {
    let plot = ProfilePlot()
    let location = SourceLocation(file: "made.uddf", path: "dive/0")

    @Test func svgStructure() throws {
        let (dive, sites) = madeDive()
        let bytes = try plot.svg(of: dive, sites: sites, location: location)
        let svg = SVGDocument(bytes)
        #expect(svg.error == nil, "the SVG is well-formed XML")
        let root = try #require(svg.elements.first)
        #expect(root.name == "svg")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root.attributes["width"] == "960" && root.attributes["height"] == "540" && root.attributes["viewBox"] == "0 0 960 540")

        // The title, its site's name escaped in the bytes and read back whole.
        #expect(svg.all("text", in: "title").map(\.text) == ["Blue Hole <Dahab> — 2024-05-01 10:12 (dive 7)"])
        #expect(String(decoding: bytes, as: UTF8.self).contains("Blue Hole &lt;Dahab&gt;"))
        #expect(svg.all("text", in: "subtitle").map(\.text) == ["max 41.37 m"])

        // The depth line: thinned to at most two points a pixel column of a plot narrower
        // than the drawing, from 36,000 samples; it starts at the surface at the left edge.
        let depth = try #require(svg.all("path", in: "depth").first?.attributes["d"])
        let points = SVGDocument.points(depth)
        #expect(points.count > 200 && points.count <= 2 * 960 + 2, "\(points.count) points")
        #expect(points.first!.y == 76 && points.first!.x == 62)

        // Axes: labels and the right-hand scales' headings, one scale for each quantity.
        let texts = Set(svg.all("text").map(\.text))
        for label in ["depth (m)", "time (min)", "°C", "bar", "NDL min", "0", "30", "60", "40"] {
            #expect(texts.contains(label), "\(label)")
        }
        #expect(svg.all("text", in: "depth-axis").map(\.text) == ["0", "5", "10", "15", "20", "25", "30", "35", "40", "45", "depth (m)"])
        #expect(svg.all("text", in: "time-axis").map(\.text) == ["0", "10", "20", "30", "40", "50", "60", "time (min)"])
        #expect(svg.all("path", in: "pressure").count == 2)
        #expect(svg.all("path", in: "temperature").count == 1)
        #expect(svg.all("path", in: "ndl").count == 1)
        #expect(svg.all("text", in: "legend").map(\.text) == ["depth", "ceiling", "temperature", "tank 1 (Air)", "tank 2 (EAN50)", "NDL"])

        // The ceiling: a shaded area from the surface down to 6 m at its deepest.
        let ceiling = try #require(svg.all("path", in: "ceiling").first?.attributes["d"])
        let ceilingDeepest = SVGDocument.points(String(ceiling.dropLast())).map(\.y).max()!
        let metre = (540.0 - 48 - 76) / 45
        #expect(abs(ceilingDeepest - (76 + 6 * metre)) < 0.2)

        // A marker for each event, gas switches named by their gas.
        func labels(_ kind: String) -> [String] { svg.all("title", in: kind).map(\.text) }
        #expect(labels("gas-switch") == ["0:00 Air", "45:00 EAN50"])
        #expect(labels("bookmark") == ["10:00 look <here> & \"there\""])
        #expect(labels("alarm") == ["50:00 ascent rate"])
        #expect(labels("stop") == ["51:00 safety stop"])
        #expect(labels("other") == ["30:00 Fish"])
        #expect(svg.all("path", in: "event").count == 6)
        #expect(svg.all("text", in: "gas-switch").map(\.text) == ["Air", "EAN50"])
    }

    @Test func sameDiveSameBytes() throws {
        let (dive, sites) = madeDive()
        #expect(try plot.svg(of: dive, sites: sites, location: location) == plot.svg(of: dive, sites: sites, location: location))
    }

    /// The thinned line still reaches the one sample deeper than the rest, where the
    /// max-depth marker (placed from the raw samples) is.
    @Test func decimationKeepsTheDeepestPoint() throws {
        let (dive, sites) = madeDive()
        let depth = dive.profile!.depth!
        let kept = Decimation.indices(depth, start: 0, end: 3_600_000, columns: 880)
        #expect(kept.contains(12_345))
        #expect(kept.count <= 2 * 880 + 2)
        #expect(kept == kept.sorted() && kept.first == 0 && kept.last == depth.count - 1)
        // Every column's shallowest reading is kept too.
        let column = 500
        let inColumn = (0..<depth.count).filter { depth.times[$0] * 880 / 3_600_000 == column }
        let shallowest = inColumn.min { depth.values[$0] < depth.values[$1] }!
        #expect(kept.contains(shallowest))

        let svg = SVGDocument(try plot.svg(of: dive, sites: sites, location: location))
        let line = SVGDocument.points(svg.all("path", in: "depth").first!.attributes["d"]!)
        let marker = try #require(svg.all("circle", in: "max-depth").first)
        let deepest = line.max { $0.y < $1.y }!
        #expect(String(deepest.x) == String(Double(marker.attributes["cx"]!)!) && String(deepest.y) == String(Double(marker.attributes["cy"]!)!))
        #expect(svg.all("text", in: "max-depth").map(\.text) == ["41.37 m"])
    }

    @Test func aDiveWithoutAProfileIsAnError() {
        var (dive, sites) = madeDive()
        dive.recordings = []
        #expect {
            try plot.svg(of: dive, sites: sites, location: location)
        } throws: { error in
            (error as? DiveError)?.description == "made.uddf: error[plot.no-profile]: dive/0: the dive has no depth profile to plot (its log recorded no depth samples)"
        }
    }

    /// rsvg-convert (librsvg) draws the SVG: a PNG of the drawing's size whose plot area
    /// holds the depth line's blue where the SVG puts the deepest point, background below
    /// the profile, and ink in every pixel column of the plot.
    @Test(.enabled(if: Paths.rsvgConvertAvailable, "rsvg-convert is not on PATH (apt-get install librsvg2-bin)"))
    func rendersThroughLibrsvg() throws {
        let (dive, sites) = madeDive()
        let bytes = try plot.svg(of: dive, sites: sites, location: location)
        let out = try Paths.temporaryDirectory() + "/profile.png"
        try DiveKit.writePlot(bytes, to: out, png: true)
        // UMILOG_KEEP_PLOT=PATH keeps the image, to look at.
        if let keep = ProcessInfo.processInfo.environment["UMILOG_KEEP_PLOT"] { try? FileManager.default.copyItem(atPath: out, toPath: keep) }
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(png.count > 20_000)
        let pixels = try PNGPixels(png)
        #expect(pixels.width == 960 && pixels.height == 540)

        let svg = SVGDocument(bytes)
        let marker = svg.all("circle", in: "max-depth").first!
        let (cx, cy) = (Int(Double(marker.attributes["cx"]!)!), Int(Double(marker.attributes["cy"]!)!))
        let (r, g, b) = pixels.rgb(cx, cy)
        #expect(b > 140 && r < 80 && g < 130, "the deepest point is drawn in the depth line's blue, not (\(r), \(g), \(b))")
        // The plot area, and where 10 min and 30 m (the profile's bottom then) are in it.
        let frame = svg.all("rect", in: "frame").first!.attributes.mapValues { Double($0) ?? 0 }
        let (left, top, width, height) = (frame["x"]!, frame["y"]!, frame["width"]!, frame["height"]!)
        let deepestLabel = Double(svg.all("text", in: "depth-axis").compactMap { Double($0.text) }.max()!)
        let x10 = Int(left + width / 6) + 4, y30 = Int(top + height * 30 / deepestLabel)
        // Below the profile, the column is mostly background (a grid line or the temperature
        // may cross it); above it the water is shaded (the depth area), none of it background.
        let below = (y30 + 6)..<Int(top + height - 2)
        #expect(below.filter { pixels.isBackground(x10, $0) }.count * 10 > below.count * 8)
        let above = Int(top + 2)..<(y30 - 6)
        #expect(above.filter { pixels.isBackground(x10, $0) }.isEmpty)
        // Every pixel column of the plot area has something drawn in it.
        let columns = (Int(left) + 2..<Int(left + width) - 2).filter { x in (Int(top) + 2..<Int(top + height) - 2).contains { !pixels.isBackground(x, $0) } }
        #expect(columns.count == Int(left + width) - 2 - (Int(left) + 2))
    }
}

@Suite struct WritePlotTests {
    @Test func withoutTheRendererNothingIsWritten() throws {
        let dir = try Paths.temporaryDirectory()
        #expect {
            try DiveKit.writePlot(Array("<svg/>".utf8), to: dir + "/p.png", png: true, searchPath: dir)
        } throws: { error in
            (error as? DiveError)?.description == "\(dir)/p.png: error[plot.no-renderer]: a PNG is rendered by rsvg-convert, which is not on PATH; install it (Debian, Ubuntu: apt-get install librsvg2-bin) or write the SVG"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// A renderer that fails leaves no output and no temporary behind, and says what it said.
    @Test(.enabled(if: Paths.rsvgConvertAvailable, "rsvg-convert is not on PATH (apt-get install librsvg2-bin)"))
    func aFailedRenderingLeavesNothing() throws {
        let dir = try Paths.temporaryDirectory()
        #expect {
            try DiveKit.writePlot(Array("not an svg".utf8), to: dir + "/p.png", png: true)
        } throws: { error in
            let e = error as? DiveError
            return e?.code == "plot.render-failed" && e?.message.hasPrefix("rsvg-convert failed (exit status 1): ") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
