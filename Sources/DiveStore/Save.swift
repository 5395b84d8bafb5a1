import DiveCore
import Foundation
import GRDB

/// What ``LogbookStore/save(_:header:radius:)`` did with the dives it was given.
public struct SaveReport: Sendable {
    /// The ids of the dives added to the logbook, in the order given.
    public var saved: [String] = []
    /// The ids of the dives the logbook already had — a dive of that id, or one an import
    /// keeps that id for as a source: left exactly as they are.
    public var alreadySaved: [String] = []
    /// What placing the added dives changed, in backfill's words (`status`, `visited`,
    /// `site-matched`): each dive's status in the dive list, and its site marked visited.
    public var placed: [BackfillChange] = []
    /// What the logbook could not take of a dive — a value its checks refuse, a reference to a
    /// record neither the logbook nor the header holds — each left out, the rest saved.
    public var findings: [Finding] = []
}

extension LogbookStore {
    /// Saves dives held in memory (the app's dive wizard: a dive, its sightings, its site) in
    /// one transaction: all of them or, when the logbook refuses any, none.
    ///
    /// Each dive is written as ``importLogbooks(_:options:)`` writes a file's: the
    /// same rows, its sightings and cylinders and recordings among them, the records it refers
    /// to stored first from `header` when the logbook lacks them (a species or site that is
    /// already in the logbook, such as the seed catalog's, needs none). A dive is known by its
    /// id: one the logbook already has is left as it is, so saving the same dives again
    /// changes nothing (``SaveReport/alreadySaved``). The dives added are then placed as
    /// ``backfill(_:)`` places dives: a dive at a catalog or user site (or a log site matched
    /// to one) is `matched` and that site is marked `visited` in the site lists; one with only
    /// a position is matched to the one site within `radius` metres, else `unmatched`; one
    /// with neither is `pending`.
    ///
    /// - Throws: a `DiveError` located at the logbook and the dive (`dive/N`, its place in
    ///   `dives`) when the logbook refuses a dive (`store.write`, `store.value-too-long`) or
    ///   cannot be written (`store.database`); nothing is saved then.
    @discardableResult
    public func save(_ dives: [Dive], header: LogbookHeader = LogbookHeader(), radius: Double = 200) throws -> SaveReport {
        var report = SaveReport()
        var at: (index: Int, uuid: String)?
        do {
            report = try pool.write { db in
                var report = SaveReport()
                var writer = RowWriter(db: db, header: header, file: path, textBytes: limits.textBytes)
                for (k, original) in dives.enumerated() {
                    at = (k, original.uuid)
                    if try FileRun.logbookDive(knownAs: original.uuid, in: db) != nil {
                        report.alreadySaved.append(original.uuid)
                        continue
                    }
                    var dive = original
                    // Findings about a dive name its place among the dives given.
                    if dive.provenance == nil { dive.provenance = Provenance(format: "memory", index: k) }
                    try writer.insert(try writer.resolveReferences(dive), source: nil)
                    report.saved.append(dive.uuid)
                }
                at = nil
                report.findings = writer.findings
                if !report.saved.isEmpty {
                    var placing = Backfill(db: db, radius: radius)
                    try placing.placeDives(only: RowWriter.json(report.saved))
                    report.placed = placing.changes
                }
                return report
            }
        } catch let e as ValueTooLarge {
            throw DiveError("store.value-too-long", "a value of dive \(at.map { "\($0.index + 1) (\($0.uuid))" } ?? "") for the logbook's \(e.table) table is \(e.bytes) bytes, more than the \(e.limit) bytes the logbook takes in one value; nothing was saved",
                            at: SourceLocation(file: path, path: at.map { "dive/\($0.index)" }))
        } catch let e as DatabaseError {
            guard let at else { throw located(e) }
            throw DiveError("store.write", "the logbook refused dive \(at.index + 1) (\(at.uuid)): \(e.message ?? e.description); nothing was saved",
                            at: SourceLocation(file: path, path: "dive/\(at.index)"))
        }
        return report
    }
}
