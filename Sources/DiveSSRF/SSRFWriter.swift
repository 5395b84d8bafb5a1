import DiveCore
import DiveXML

/// Writes a Subsurface XML (version 3) logbook. (Being written.)
///
/// Streaming like ``UDDFWriter``: dives go to a `body` spool as they come;
/// ``finish(header:to:replayingBody:)`` writes the head (the sites the dives name), the
/// spooled dives, and the end.
public final class SSRFWriter {
    private let body: ByteSink
    private var findings: [Finding] = []

    public init(body: ByteSink, generator: Generator) {
        self.body = body
    }

    public func takeFindings() -> [Finding] {
        defer { findings.removeAll() }
        return findings
    }

    public func write(_ dive: Dive, header: LogbookHeader) throws {}

    public func finish(header: LogbookHeader, to target: ByteSink,
                       replayingBody: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        var out = XMLEmitter()
        out.raw("<divelog program='umilog' version='3'>\n<dives>\n")
        try out.flush(to: target)
        try replayingBody { try target.write($0) }
        out.raw("</dives>\n</divelog>\n")
        try out.flush(to: target)
    }
}
