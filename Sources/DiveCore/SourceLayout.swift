/// How a source document spelled a record where it differs from how umilog writes one: the
/// order its objects' members came in, the text of its numbers and dates (`20` where umilog
/// would write `20.0`, `…Z` written `…z`), the empty lists it spelled out (`"sightings": []`). A writer of the same format applies it, so that a document read and
/// written back unchanged comes out byte for byte as it was.
///
/// It is presentation, not data: two records that differ only in layout are equal. Paths are
/// relative to the record that holds the layout, components joined by `/` (`""` is the record
/// itself, `cylinders/0`, `recordings/1/profile`, `sites/3/position`); a number's path ends in
/// its member name (`visibility`). Only deviations are kept, so a record read from umilog's
/// own output carries an empty layout.
public struct SourceLayout: Sendable, Hashable {
    /// Member names in source order, per object whose order differs from the writer's.
    public var memberOrders: [String: [String]] = [:]
    /// Number and date text as written in the source, per value the writer would spell otherwise.
    public var texts: [String: String] = [:]
    /// Lists the source wrote out empty, where the writer would leave the member out.
    public var emptyArrays: Set<String> = []

    /// Makes an empty layout: the source spelled everything as umilog writes it.
    public init() {}

    /// True when the source spelled nothing differently from umilog.
    public var isEmpty: Bool { memberOrders.isEmpty && texts.isEmpty && emptyArrays.isEmpty }

    /// Layouts are presentation, not data: any two are equal.
    public static func == (a: SourceLayout, b: SourceLayout) -> Bool { true }
    /// Hashes nothing, as any two layouts are equal.
    public func hash(into hasher: inout Hasher) {}
}
