/// Receives the bytes a writer produces (a file, standard output, a buffer in a test).
public protocol ByteSink: AnyObject {
    /// Takes the next bytes, in order; throws when they cannot be kept (a full disk, a closed pipe).
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A sink that keeps what it is given in memory (a header row, a test's output).
public final class MemorySink: ByteSink {
    /// Everything written so far, in order.
    public private(set) var bytes: [UInt8] = []
    /// Makes an empty sink.
    public init() {}
    /// Appends the bytes to ``bytes``; never throws.
    public func write(_ b: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: b) }
    /// The bytes as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
