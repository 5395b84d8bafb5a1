/// Findings of one kind about many records, counted: a habit of every sample is one finding,
/// located at its first occurrence, whose message gets the count — never one finding per
/// sample. Keys are the reader's (a code and what it is about); the message and the location
/// are built only the first time a key is met.
public struct FindingTally: Sendable {
    private struct Entry {
        var kind: FindingKind
        var code: String
        var location: SourceLocation
        var message: @Sendable (Int) -> String
        var count: Int
    }
    private var entries: [Entry] = []
    private var index: [String: Int] = [:]

    /// Makes an empty tally.
    public init() {}

    /// Counts one occurrence of the finding `key` names; `message` gets the count when the
    /// finding is made.
    public mutating func add(_ key: String, _ kind: FindingKind, _ code: String, at location: @autoclosure () -> SourceLocation,
                             _ message: @escaping @Sendable (Int) -> String) {
        if let i = index[key] { entries[i].count += 1; return }
        index[key] = entries.count
        entries.append(Entry(kind: kind, code: code, location: location(), message: message, count: 1))
    }

    /// How many times `key` was counted.
    public func count(_ key: String) -> Int { index[key].map { entries[$0].count } ?? 0 }

    /// True when nothing was counted.
    public var isEmpty: Bool { entries.isEmpty }

    /// The findings, in the order their keys were first met.
    public func findings() -> [Finding] {
        entries.map { Finding($0.kind, $0.code, $0.message($0.count), at: $0.location) }
    }

    /// Forgets every count, for the tally to be used again.
    public mutating func removeAll() {
        entries.removeAll()
        index.removeAll()
    }
}
