/// A JSON value carried through untouched: a producer's `extensions` content, which a
/// reader keeps and re-emits without understanding it (DiveJSON §5.5). Objects keep their
/// member order and numbers their exact text.
public indirect enum ExtensionValue: Sendable, Hashable {
    /// One `"name": value` pair of an object.
    public struct Member: Sendable, Hashable {
        /// The member's name, as written.
        public var name: String
        /// The member's value.
        public var value: ExtensionValue
        /// Makes the pair `name: value`.
        public init(_ name: String, _ value: ExtensionValue) { self.name = name; self.value = value }
    }

    case object([Member])
    case array([ExtensionValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null
}
