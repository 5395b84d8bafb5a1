import Testing
@testable import DiveCore

@Suite struct SummaryDepthsTests {
    func judge(_ max: String?, _ mean: String?) -> SummaryDepths {
        SummaryDepths(max: max.flatMap(DecimalNumber.init), mean: mean.flatMap(DecimalNumber.init), maxName: "max", meanName: "mean")
    }

    @Test func depthsInRangeAreCarried() {
        let d = judge("28.3", "16.8")
        #expect(d.max == 28.3 && d.mean == 16.8 && d.findings.isEmpty)
    }

    @Test func zeroIsAPlaceholderAndBeyondTheDeepestSeaIsDropped() {
        let d = judge("0", "11000.5")
        #expect(d.max == nil && d.mean == nil)
        #expect(d.findings.map(\.code) == ["zero-max-depth", "value-out-of-range"])
        #expect(d.findings.map(\.kind) == [.absent, .dropped])
    }

    @Test func aMeanDeeperThanTheMaximumIsDropped() {
        let d = judge("18.4", "22.0")
        #expect(d.max == 18.4 && d.mean == nil)
        #expect(d.findings.map(\.code) == ["avg-depth-exceeds-max"])
        #expect(d.findings.first?.message == "mean 22.0 m is deeper than max 18.4 m, which no dive can be; not carried")
    }
}
