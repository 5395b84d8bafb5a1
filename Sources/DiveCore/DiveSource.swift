/// A reader that hands out one dive at a time, so memory stays flat with file size.
///
/// `header` holds what the file said outside its dives; it is complete for every record the
/// file defines before a dive by the time that dive is returned.
public protocol DiveSource: AnyObject {
    /// The logbook outside its dives, as read so far.
    var header: LogbookHeader { get }
    /// The next dive, or `nil` at the end of the file. Throws a ``DiveError`` on input that
    /// cannot be read.
    func next() throws -> Dive?
    /// Findings reported since the last call, which the caller takes over.
    func takeFindings() -> [Finding]
}

extension DiveSource {
    /// Reads every remaining dive into memory (for small files and tests).
    public func readAll() throws -> (Logbook, [Finding]) {
        var dives: [Dive] = []
        var findings: [Finding] = []
        while let dive = try next() {
            dives.append(dive)
            findings += takeFindings()
        }
        findings += takeFindings()
        return (Logbook(header: header, dives: dives), findings)
    }
}
