package import CLibXML2
import DiveCore

/// The refusals every XML pass over a file reports alike — the streaming reader and the
/// schema validator — so that one file gets one code and one sentence whichever pass met
/// the problem first.
package enum XMLProblem {
    /// A `<!DOCTYPE>`: refused before any entity can be declared, expanded or fetched.
    package static func doctype(at location: SourceLocation) -> DiveError {
        DiveError("xml.doctype",
                  "the file declares a document type (<!DOCTYPE>); dive logs never need one, and it is refused so that no entity is expanded and nothing is fetched",
                  at: location)
    }

    /// Elements nested deeper than ``InputLimits/xmlDepth``: no dive log nests so deep, and the
    /// file is refused before its nesting costs memory.
    package static func tooDeep(at location: SourceLocation) -> DiveError {
        DiveError("xml.too-deep",
                  "the XML nests more than \(InputLimits.xmlDepth) elements deep, which no dive log does; the file is refused",
                  at: location)
    }

    /// libxml2's first error of level `XML_ERR_ERROR` or above, explained: at the end of the
    /// input with elements still open, the file is truncated (`xml.truncated`, naming the
    /// innermost open element); otherwise it is not well-formed (`xml.malformed`).
    /// - Parameters:
    ///   - terminating: the parser was given the end of the input when the error came.
    ///   - openElements: local names of the elements open at that point, outermost first.
    package static func parseError(_ e: xmlError, file: String, terminating: Bool,
                           openElements: ArraySlice<UnsafePointer<UInt8>>) -> DiveError {
        let message = (e.message.map { String(cString: $0) } ?? "XML error").trimmingWhitespace()
        // At the end of input, libxml2's push parser reports an unfinished document as
        // "extra content" or an unfinished tag: either way the file stops too early. But a small
        // file is parsed whole at the end too, so an error there is the file's end only when no
        // complete markup follows where the parser stopped (a mismatched tag never is).
        let truncated = terminating && !openElements.isEmpty
            && e.code != Int32(XML_ERR_TAG_NAME_MISMATCH.rawValue) && !markupFollows(e)
        let code = truncated ? "xml.truncated" : "xml.malformed"
        let explanation: String
        if truncated, let innermost = openElements.last {
            let name = String(cString: innermost)
            let more = openElements.count > 1 ? " (inside \(openElements.count - 1) more open element\(openElements.count == 2 ? "" : "s"))" : ""
            explanation = "the file ends before the XML is complete: <\(name)>\(more) is never closed; the file looks truncated"
        } else if terminating && e.code == Int32(XML_ERR_DOCUMENT_EMPTY.rawValue) {
            explanation = "the file is empty"
        } else {
            explanation = "the file is not well-formed XML: \(message)"
        }
        return DiveError(code, explanation, at: SourceLocation(file: file, line: Int(e.line), column: e.int2 > 0 ? Int(e.int2) : nil))
    }

    /// True when a `>` lies in what the parser had not consumed when it reported `e`: the error
    /// is in the middle of the input, not at its end.
    private static func markupFollows(_ e: xmlError) -> Bool {
        guard e.domain == Int32(XML_FROM_PARSER.rawValue), let raw = e.ctxt else { return false }
        let context = raw.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let input = context.pointee.input, var p = input.pointee.cur, let end = input.pointee.end else { return false }
        while p < end {
            if p.pointee == UInt8(ascii: ">") { return true }
            p += 1
        }
        return false
    }
}
