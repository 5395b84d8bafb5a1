import DiveCore
import DiveXML

/// Streams a Subsurface XML file one dive at a time. (Being written.)
public final class SSRFReader: DiveSource {
    public let displayName: String
    public private(set) var header = LogbookHeader()

    public init(path: String, displayName: String? = nil) throws {
        self.displayName = displayName ?? (path == "-" ? "<stdin>" : path)
        throw DiveError("format.unsupported-input", "Subsurface XML is not read yet", at: SourceLocation(file: self.displayName))
    }

    public func next() throws -> Dive? { nil }
    public func takeFindings() -> [Finding] { [] }
}
