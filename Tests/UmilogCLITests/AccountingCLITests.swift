import Foundation
import Testing
import DiveKit
import TestSupport

/// What `Samples/rebreather.uddf` must produce, read off the file by hand.
@Suite(.serialized) struct AccountingCLITests {
    @Test func theRebreatherSampleReportsEveryHabitAndCarriesEveryChannel() throws {
        let dir = try Paths.temporaryDirectory()
        let r = try umilog(["convert", "Samples/rebreather.uddf", "--to", "json", "-o", dir + "/r.json", "--all-findings"])
        #expect(r.status == 0)
        // Each line of the file that must be reported, by the finding it must make:
        let expected = [
            "resolved[uddf.offset-minutes-as-hours]",   // <datetime>…-00:07: read as -07:00
            "resolved[uddf.ppo2-pascal]",               // <setpo2>70000 and <ppo2 ref="cell3">69000 are Pascal
            "absent[uddf.placeholder]",                 // <setgf…>0.00/0.00, safety stop 0 m for 0 s, heading 0 all dive
            "resolved[uddf.switch-repeated]",           // <switchmix ref="dil"/> twice at divetime 0
            "dropped[uddf.switchmix-no-cylinder]",      // <switchmix ref="bail"/>: no tankdata carries EAN50
            "dropped[uddf.decostop-schedule]",          // 6 m then 3 m mandatory stops at divetime 1500
            "absent[uddf.decostop-zero]",               // a mandatory stop at 0 m at divetime 2400
        ]
        for code in expected {
            #expect(r.stderr.contains(code), "stderr does not name \(code)")
        }
        // The three placeholders: the GF setting, the safety stop, and the heading.
        #expect(r.stderr.contains("1 gradient factor setting is 0/0"))
        #expect(r.stderr.contains("1 safety stop states 0 m for 0 s"))
        #expect(r.stderr.contains("every heading reading is 0 for the whole dive"))
        #expect(r.stderr.contains("2 sensor or setpoint ppO2 values are above 10"))
        #expect(r.stderr.contains("mix \"bail\" (EAN50)"))
        #expect(!r.stderr.contains("[uddf.not-carried]"))
        // 3 resolved (offset, Pascal, repeated switch), 4 absent (3 placeholders, stop at 0 m),
        // 2 dropped (switch without cylinder, stop schedule): nothing else.
        #expect(r.stderr.hasSuffix("umilog: 1 dive from 1 of 1 file → \(dir)/r.json; 9 findings (4 absent, 3 resolved, 2 dropped)\n"))

        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let dive = try #require((json["dives"] as? [[String: Any]])?.first)
        let recording = try #require((dive["recordings"] as? [[String: Any]])?.first)
        let profile = try #require(recording["profile"] as? [String: Any])
        let extensions = try #require(profile["extensions"] as? [String: Any])
        let channels = try #require((extensions["umilog"] as? [String: Any])?["channels"] as? [[String: Any]])
        func key(_ c: [String: Any]) -> String {
            let name = c["name"] as? String ?? "?"
            let owner = (c["ref"] ?? c["set_by"]) as? String
            return owner.map { "\(name)/\($0)" } ?? name
        }
        // Every extra channel the file records, and no heading (0 all dive).
        #expect(Set(channels.map(key)) == [
            "setpoint/computer", "setpoint/user",
            "sensor_ppo2/cell1", "sensor_ppo2/cell2", "sensor_ppo2/cell3",
            "battery_voltage/bat1", "battery_charge/ccr", "heart_rate", "otu", "scrubber/stik",
            "deco_stop_time", "safety_stop_depth", "safety_stop_time",
        ])
        func values(_ k: String) -> [String] {
            guard let c = channels.first(where: { key($0) == k }), let v = c["values"] as? [NSNumber] else { return [] }
            return v.map(\.stringValue)
        }
        // 70000 Pa = 0.7 bar; 69000 Pa = 0.69 bar; 1.2 Hz and 1.5 Hz × 60 = 72 and 90 beats/min.
        #expect(values("setpoint/computer") == ["0.7"])
        #expect(values("sensor_ppo2/cell3") == ["0.69"])
        #expect(values("heart_rate") == ["72", "90"])
        #expect(values("otu") == ["0", "4", "25.5"])
        // <timetosurface> 600 s at 1500 s and 60 s at 2400 s; the 6 m stop is a 600 cm ceiling.
        #expect((profile["tts"] as? [String: Any])?["values"] as? [Int] == [600, 60])
        #expect((profile["ceiling"] as? [String: Any])?["values"] as? [Int] == [600])
        #expect((profile["ceiling"] as? [String: Any])?["times"] as? [Int] == [1_500_000])
        // <highestpo2> 131000 Pa = 1.31 bar; <passedtime> 5400 s.
        let recordingUmilog = (recording["extensions"] as? [String: Any])?["umilog"] as? [String: Any]
        #expect((recordingUmilog?["highest_ppo2"] as? NSNumber)?.stringValue == "1.31")
        let diveUmilog = (dive["extensions"] as? [String: Any])?["umilog"] as? [String: Any]
        #expect((diveUmilog?["surface_interval"] as? NSNumber)?.stringValue == "5400")
    }

    /// `--all-findings` prints every element the reader could not carry: as many
    /// `uddf.not-carried` lines as the library reports, each with its path, for every UDDF of
    /// the shared corpus (the samples' are pinned above and in CLITests).
    @Test(.enabled(if: Paths.sharedAvailable, "needs ../shared (the reference corpus)"))
    func allFindingsListsEveryElementNotCarried() throws {
        let dir = try Paths.temporaryDirectory()
        for relative in Paths.sharedUDDF {
            let path = Paths.shared + "/" + relative
            let report = convert(inputs: [path], options: ConvertOptions(to: .csv, output: dir + "/x.csv"), standardOutput: MemorySink())
            let notCarried = (report.inputs.first?.findings ?? []).filter { $0.code == "uddf.not-carried" }
            let r = try umilog(["convert", path, "--to", "csv", "-o", dir + "/y.csv", "--all-findings"])
            #expect(r.status == 0, "\(relative)")
            let lines = r.stderr.split(separator: "\n").filter { $0.contains("[uddf.not-carried]") }
            #expect(lines.count == notCarried.count, "\(relative)")
            for f in notCarried {
                #expect(lines.contains { $0.contains("]: \(f.location.path ?? ""): ") }, "\(relative): \(f.location.path ?? "")")
            }
        }
    }
}
