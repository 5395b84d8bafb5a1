/// Receives the bytes a writer produces (a file, standard output, a buffer in a test).
public protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}
