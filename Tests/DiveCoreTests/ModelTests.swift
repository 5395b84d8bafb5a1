import Testing
@testable import DiveCore

@Suite struct ModelTests {
    @Test(arguments: [(21.0, 0.0, "Air"), (32.0, 0.0, "EAN32"), (100.0, 0.0, "O2"), (18.0, 45.0, "Tx18/45"), (20.5, 0.0, "EAN20.5")])
    func gasLabels(o2: Double, he: Double, label: String) {
        var c = Cylinder()
        c.oxygen = o2
        c.helium = he
        #expect(c.gasLabel == label)
    }

    /// A percentage computed from a fraction is named to a tenth; one the source recorded to
    /// two decimals as recorded; a helium rounding to nothing is no trimix.
    @Test(arguments: [(32.000000000000004, 0.0, "EAN32"), (20.999999999999996, 0.0, "Air"), (32.51234, 0.0, "EAN32.5"),
                      (32.55, 0.0, "EAN32.55"), (99.99999, 0.0, "O2"), (18.0, 45.0000001, "Tx18/45"), (32.0, 0.00001, "EAN32")])
    func computedPercentagesAreNamedToATenth(o2: Double, he: Double, label: String) {
        var c = Cylinder()
        c.oxygen = o2
        c.helium = he
        #expect(c.gasLabel == label)
    }

    @Test func aCylinderWithNoRecordedGasHasNoLabel() {
        #expect(Cylinder().gasLabel == nil)
    }

    @Test func findingsAndErrorsPrintLikeACompiler() {
        let e = DiveError("xml.truncated", "the file ends early", at: SourceLocation(file: "a.uddf", line: 12, column: 3))
        #expect(e.description == "a.uddf:12:3: error[xml.truncated]: the file ends early")
        let f = Finding(.resolved, "uddf.tankvolume-litres", "read as litres", at: SourceLocation(file: "a.uddf", line: 40, path: "dive/0/tankdata/1"))
        #expect(f.description == "a.uddf:40: resolved[uddf.tankvolume-litres]: dive/0/tankdata/1: read as litres")
        let csv = SourceLocation(file: "log.csv", row: 7, field: "Depth")
        #expect(csv.description == "log.csv:row 7, column Depth")
    }

    @Test func sampleCountCountsDistinctInstants() {
        var p = Profile()
        p.depth = Series(times: [0, 10_000, 20_000], values: [0, 500, 0])
        p.temperature = Series(times: [10_000, 15_000], values: [2000, 1990])
        #expect(p.sampleCount == 4)
    }
}

@Suite struct TextFormTests {
    @Test(arguments: [("diver@example.org", true), ("a@b", true), ("n/a", false), ("-", false), ("Sam Reef", false), ("sam reef@x.org", false), ("a@b@c", false), ("@x.org", false)])
    func emailAddresses(text: String, valid: Bool) {
        #expect(TextForms.isEmailAddress(text) == valid)
    }

    @Test(arguments: [("https://bluehole.example/", true), ("mailto:a@b", true), ("www.reefside.example", false), ("http:", false), ("1http://x", false), ("https://a b", false)])
    func absoluteURIs(text: String, valid: Bool) {
        #expect(TextForms.isAbsoluteURI(text) == valid)
    }
}

@Suite struct GasNameTests {
    /// A gas's name and its mix are one fact two ways: every label reads back as its mix.
    @Test(arguments: [(21.0, nil as Double?), (21, 0), (32, 0), (50, 0), (100, 0), (18, 45), (10.5, 70)])
    func labelsReadBackAsTheirMix(oxygen: Double, helium: Double?) throws {
        var c = Cylinder()
        c.oxygen = oxygen
        c.helium = helium
        let label = try #require(c.gasLabel)
        let mix = try #require(Cylinder.mix(named: label))
        #expect(mix.oxygen == oxygen && mix.helium == (helium ?? 0), "\(label)")
    }

    @Test(arguments: [("Nitrox 32", 32.0, 0.0), ("nx36", 36, 0), ("Trimix 21/35", 21, 35), ("32%", 32, 0), ("Luft", 21, 0)])
    func namesPeopleWrite(name: String, oxygen: Double, helium: Double) {
        #expect(Cylinder.mix(named: name).map { [$0.oxygen, $0.helium] } == [oxygen, helium])
    }

    @Test func aNameWithoutAMixHasNone() {
        #expect(Cylinder.mix(named: "Deco bottle") == nil)
        #expect(Cylinder.mix(named: "EAN") == nil)
    }
}
