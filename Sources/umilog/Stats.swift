import ArgumentParser
import DiveCore
import DiveKit
import DiveStore

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Summarise a logbook: dives, bottom time, deepest, longest, sites visited, species seen, per year.")
    @OptionGroup var logbook: LogbookOption
    var db: String { logbook.path }
    @Flag(help: "Print the figures as one JSON object.") var json = false

    func run() throws {
        let s = try open(db, create: false).stats()
        if json { printLine(s.json, colour: false); return }
        func duration(_ seconds: Int) -> String {
            let h = seconds / 3600, m = seconds % 3600 / 60
            return h > 0 ? "\(h) h \(m) min" : "\(m) min \(seconds % 60) s"
        }
        func which(_ e: LogbookStats.Extreme) -> String {
            [e.number.map { "dive \($0)" }, e.date].compactMap { $0 }.joined(separator: ", ")
        }
        printLine("dives:          \(s.dives)\(s.undated > 0 ? " (\(s.undated) undated)" : "")")
        printLine("bottom time:    \(duration(s.bottomTime))")
        if let d = s.deepest { printLine("deepest:        \(HumanNumbers.metres(d.value)) m (\(which(d)))") }
        // Int(exactly:) where the value fits: a logbook an older umilog filled may hold a
        // duration past Int's range, which is printed as recorded rather than trapping.
        if let l = s.longest {
            printLine("longest:        \(Int(exactly: l.value.rounded()).map(duration) ?? "\(l.value) s") (\(which(l)))")
        }
        printLine("sites visited:  \(s.sitesVisited)")
        printLine("species seen:   \(s.speciesSeen)")
        for y in s.years {
            printLine("  \(y.year): \(y.dives) dive\(y.dives == 1 ? "" : "s"), \(duration(y.bottomTime))\(y.deepest.map { ", deepest \(HumanNumbers.metres($0)) m" } ?? "")")
        }
    }
}
