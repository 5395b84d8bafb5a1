import Foundation
import Testing
import TestSupport

/// The CSV writers' precision rule (`schemas/csv-columns.md`, "Precision") through the built
/// binary: a value a unit conversion computed is rounded to its column's precision, a value
/// the source recorded to at most two decimals is written as recorded.
@Suite(.serialized) struct CSVPrecisionCLITests {
    /// A UDDF whose SI values come out of the converting arithmetic with long fractions:
    /// 45.17175 m, 285.7414631 K (12.5914631 °C), 23 603 906.25 Pa (236.0390625 bar), a
    /// 32.51234 % mix; beside them readings of two decimals (26.34 m, 281.47 K = 8.32 °C).
    static func convertedUDDF(in dir: String) throws -> String {
        let path = dir + "/converted.uddf"
        try """
            <uddf xmlns="http://www.streit.cc/uddf/3.2/" version="3.2.2">
            <gasdefinitions><mix id="m"><o2>0.3251234</o2><he>0</he></mix></gasdefinitions>
            <profiledata><repetitiongroup id="g">
            <dive id="a"><informationbeforedive><datetime>2024-05-01T10:00:00</datetime>
            <airtemperature>281.47</airtemperature></informationbeforedive>
            <tankdata><link ref="m"/><tankvolume>0.011098</tankvolume>
            <tankpressurebegin>23603906.25</tankpressurebegin><tankpressureend>5000000</tankpressureend></tankdata>
            <informationafterdive><greatestdepth>45.17175</greatestdepth><averagedepth>26.34</averagedepth>
            <lowesttemperature>285.7414631</lowesttemperature><diveduration>2400</diveduration></informationafterdive></dive>
            </repetitiongroup></profiledata></uddf>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The cells of the one dive row, by column name.
    static func row(_ csv: String) -> [String: String] {
        let lines = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard lines.count == 2 else { return [:] }
        let names = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let cells = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return Dictionary(uniqueKeysWithValues: zip(names, cells))
    }

    @Test func convertedValuesAreRoundedAndRecordedOnesKept() throws {
        let dir = try Paths.temporaryDirectory()
        let uddf = try Self.convertedUDDF(in: dir)
        let metric = try umilog(["convert", uddf, "--to", "csv", "-q"])
        #expect(metric.status == 0, "\(metric.stderr)")
        let m = Self.row(metric.stdout)
        #expect(m["max_depth_m"] == "45.2" && m["avg_depth_m"] == "26.34", "\(metric.stdout)")
        #expect(m["water_temp_min_c"] == "12.6" && m["air_temp_c"] == "8.32")
        #expect(m["start_pressure_bar"] == "236" && m["end_pressure_bar"] == "50")
        #expect(m["cylinder_size_l"] == "11.1" && m["gas"] == "EAN32.5")

        let imperial = try umilog(["convert", uddf, "--to", "csv", "--units", "imperial", "-q"])
        #expect(imperial.status == 0, "\(imperial.stderr)")
        let i = Self.row(imperial.stdout)
        // 148.203… ft, 86.417… ft, 54.664… °F, 46.976 °F, 3423.46… psi, 725.19 psi.
        #expect(i["max_depth_ft"] == "148" && i["avg_depth_ft"] == "86", "\(imperial.stdout)")
        #expect(i["water_temp_min_f"] == "55" && i["air_temp_f"] == "47")
        #expect(i["start_pressure_psi"] == "3423" && i["end_pressure_psi"] == "725")
    }

    /// `export` writes through the same writer: the logbook keeps the value, the table rounds it.
    @Test func exportRoundsAsConvertDoes() throws {
        let dir = try Paths.temporaryDirectory()
        let uddf = try Self.convertedUDDF(in: dir)
        let db = dir + "/logbook.sqlite"
        #expect(try umilog(["import", uddf, "--db", db, "-q"]).status == 0)
        let export = try umilog(["export", "--db", db, "--to", "csv", "-q"])
        #expect(export.status == 0, "\(export.stderr)")
        let e = Self.row(export.stdout)
        #expect(e["max_depth_m"] == "45.2" && e["water_temp_min_c"] == "12.6" && e["start_pressure_bar"] == "236", "\(export.stdout)")
    }

    /// An imperial MacDive log: its feet, °F, psi and pounds come back as the diver logged
    /// them in imperial output, and as metric values to the column's precision.
    @Test(.enabled(if: Paths.sharedAvailable))
    func anImperialLogRoundsToItsOwnNumbers() throws {
        let path = Paths.corpus + "/macdive/macdive-synthetic__imperial_small.xml"
        let metric = Self.row(try umilog(["convert", path, "--to", "csv", "-q"]).stdout)
        // 18.288 m, 21.111… °C, 206.84… bar, 4.5359… kg; 100 ft is exactly 30.48 m.
        #expect(metric["max_depth_m"] == "30.48" && metric["avg_depth_m"] == "18.3" && metric["water_temp_min_c"] == "21.1")
        #expect(metric["start_pressure_bar"] == "207" && metric["end_pressure_bar"] == "69" && metric["weight_kg"] == "4.5")
        let imperial = Self.row(try umilog(["convert", path, "--to", "csv", "--units", "imperial", "-q"]).stdout)
        #expect(imperial["max_depth_ft"] == "100" && imperial["avg_depth_ft"] == "60" && imperial["water_temp_min_f"] == "70")
        #expect(imperial["start_pressure_psi"] == "3000" && imperial["end_pressure_psi"] == "1000" && imperial["weight_lb"] == "10")
    }
}
