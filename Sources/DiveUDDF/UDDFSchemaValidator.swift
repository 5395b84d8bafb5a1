internal import CLibXML2
import DiveCore
import DiveXML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks UDDF files against the official UDDF 3.2.2 XML Schema (embedded, see
/// ``xsdText``), streaming: libxml2's schema validator is plugged into a SAX2 push parser fed
/// 256 KiB at a time, so no tree is ever built and memory stays flat whatever the file's size.
///
/// Each violation is a ``Diagnostic`` of severity `error` with a stable code, the line libxml2
/// was at, and the element path (`/uddf/profiledata/repetitiongroup/dive/samples/waypoint[3]`):
///
/// | code | what |
/// | --- | --- |
/// | `uddf.schema.root-undeclared` | the root is not UDDF 3.2's `<uddf>` (no namespace, another namespace); nothing else is checked |
/// | `uddf.schema.element-unexpected` | an element the content model does not allow there |
/// | `uddf.schema.element-missing` | an element ends without a child its content model requires |
/// | `uddf.schema.attribute-missing` | a required attribute is absent |
/// | `uddf.schema.attribute-unexpected` | an attribute the element's type does not declare |
/// | `uddf.schema.content-unexpected` | text where only elements may be (or content in an empty element) |
/// | `uddf.schema.value-invalid` | a value outside its datatype (`xs:float`, `xs:ID`, an enumeration, a range…) |
/// | `uddf.schema.id-duplicate` | an `id` already used by another element |
/// | `uddf.schema.idref-unresolved` | a reference (`ref`, `deviceref`…) to an `id` the file defines nowhere |
/// | `uddf.schema.invalid` | any other violation libxml2 reports |
///
/// libxml2's streaming validator checks neither `xs:ID` uniqueness nor `xs:IDREF`
/// resolution (they need a tree); this validator does both itself, keeping only the ids.
/// An unresolved reference is reported once per value, at its first use, with the count.
///
/// A file that is not well-formed gets one `xml.malformed` (or `xml.truncated`) error and
/// the check stops there. A `<!DOCTYPE>` is refused (`xml.doctype`) before any entity is
/// declared; network access is never enabled, and the schema is never looked up from the
/// file's `xsi:schemaLocation`.
///
/// One validator compiles the schema once and checks any number of files, one at a time;
/// it is not thread-safe (use one per thread).
public final class UDDFSchemaValidator {
    /// The namespace of UDDF 3.2.x elements, the only one the schema declares.
    public static let namespace = "http://www.streit.cc/uddf/3.2/"

    /// One line on each code this validator reports, for tools that list rules (SARIF).
    public static let rules: [String: String] = [
        "uddf.schema.root-undeclared": "The root element is not UDDF 3.2's <uddf>, so the schema cannot check the file",
        "uddf.schema.element-unexpected": "An element the UDDF 3.2.2 schema does not allow at that place",
        "uddf.schema.element-missing": "An element without a child element the UDDF 3.2.2 schema requires",
        "uddf.schema.attribute-missing": "An element without an attribute the UDDF 3.2.2 schema requires",
        "uddf.schema.attribute-unexpected": "An attribute the element's UDDF 3.2.2 type does not declare",
        "uddf.schema.content-unexpected": "Text or content where the UDDF 3.2.2 schema allows none",
        "uddf.schema.value-invalid": "A value outside its UDDF 3.2.2 datatype, enumeration or range",
        "uddf.schema.id-duplicate": "An id that more than one element carries",
        "uddf.schema.idref-unresolved": "A reference to an id that no element carries",
        "uddf.schema.invalid": "A violation of the UDDF 3.2.2 schema",
        "xml.malformed": "The file is not well-formed XML",
        "xml.truncated": "The file ends before its XML is complete",
        "xml.doctype": "A document type declaration (<!DOCTYPE>), refused so that no entity is expanded",
    ]

    /// The validation context, reset for each file; owned, freed in `deinit`.
    private let context: OpaquePointer

    /// The embedded schema, compiled once per process: libxml2 only reads a compiled schema
    /// while validating, so every validator shares it, each with a context of its own. Never
    /// freed (it lives as long as the process may validate).
    private nonisolated(unsafe) static let compiled: Result<OpaquePointer, DiveError> = Result { () throws(DiveError) in try compile() }

    /// Makes a validator for the embedded UDDF 3.2.2 schema (compiled on first use).
    /// - Throws: a ``DiveError`` (`uddf.schema.compile`) if libxml2 cannot compile it.
    public init() throws {
        let schema = try Self.compiled.get()
        guard let context = xmlSchemaNewValidCtxt(schema) else {
            throw DiveError("uddf.schema.compile", "cannot create a schema validation context", at: SourceLocation(file: "uddf_3.2.2.xsd"))
        }
        self.context = context
    }

    private static func compile() throws(DiveError) -> OpaquePointer {
        LibXML2.initialized
        let log = MessageLog()
        let logPointer = Unmanaged.passUnretained(log).toOpaque()
        var text = Self.xsdText
        let compiled: OpaquePointer? = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars -> OpaquePointer? in
                guard let parserContext = xmlSchemaNewMemParserCtxt(chars.baseAddress, Int32(chars.count)) else { return nil }
                defer { xmlSchemaFreeParserCtxt(parserContext) }
                xmlSchemaSetParserStructuredErrors(parserContext, { ctx, error in
                    guard let ctx, let error, let message = error.pointee.message else { return }
                    Unmanaged<MessageLog>.fromOpaque(ctx).takeUnretainedValue().messages.append(String(cString: message).trimmingWhitespace())
                }, logPointer)
                return withExtendedLifetime(log) { xmlSchemaParse(parserContext) }
            }
        }
        guard let compiled else {
            throw DiveError("uddf.schema.compile", "the embedded UDDF 3.2.2 schema does not compile: \(log.messages.first ?? "libxml2 gave no reason")",
                            at: SourceLocation(file: "uddf_3.2.2.xsd"))
        }
        return compiled
    }

    deinit {
        xmlSchemaFreeValidCtxt(context)
    }

    /// Validates the file at `path`, handing each diagnostic to `report` as it is found
    /// (the unresolved references come last, when the end of the file proves them so).
    /// - Parameter displayName: the file name diagnostics carry; defaults to `path`.
    /// - Throws: a ``DiveError`` when the file cannot be opened or read (`io.open`,
    ///   `io.read`). Problems with its content are diagnostics, never thrown.
    public func validate(path: String, displayName: String? = nil, report: (Diagnostic) -> Void) throws {
        try withoutActuallyEscaping(report) { report in
            let run = try SchemaRun(path: path, displayName: displayName ?? path, context: context, report: report)
            try run.parse()
        }
    }

    /// Validates the file at `path` and returns every diagnostic, in the order found.
    public func validate(path: String, displayName: String? = nil) throws -> [Diagnostic] {
        var out: [Diagnostic] = []
        try validate(path: path, displayName: displayName) { out.append($0) }
        return out
    }
}

/// Collects the schema compiler's messages.
private final class MessageLog {
    var messages: [String] = []
}
