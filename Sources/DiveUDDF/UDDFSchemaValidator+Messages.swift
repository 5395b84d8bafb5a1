internal import CLibXML2
import DiveXML

/// Turns libxml2's schema-validity errors into a stable code and a sentence: the UDDF
/// namespace dropped from names, elements written `<name>`, the expected elements kept.
///
/// `Element '{http://www.streit.cc/uddf/3.2/}equipment': This element is not expected.
/// Expected is ( {http://www.streit.cc/uddf/3.2/}personal ).` becomes
/// `uddf.schema.element-unexpected` and `<equipment> is not expected here; expected <personal>`.
enum SchemaMessage {
    /// The code for libxml2's error number (`xmlParserErrors`) and message.
    static func code(for error: Int, message: String) -> String {
        func is_(_ e: xmlParserErrors) -> Bool { error == Int(e.rawValue) }
        func within(_ a: xmlParserErrors, _ b: xmlParserErrors) -> Bool { error >= Int(a.rawValue) && error <= Int(b.rawValue) }
        if is_(XML_SCHEMAV_CVC_ELT_1) { return "uddf.schema.root-undeclared" }
        if is_(XML_SCHEMAV_ELEMENT_CONTENT) || is_(XML_SCHEMAV_UNDECLAREDELEM) || is_(XML_SCHEMAV_WRONGELEM)
            || is_(XML_SCHEMAV_EXTRACONTENT) || is_(XML_SCHEMAV_INVALIDELEM) || is_(XML_SCHEMAV_ELEMCONT) {
            return message.contains("Missing child element") ? "uddf.schema.element-missing" : "uddf.schema.element-unexpected"
        }
        if is_(XML_SCHEMAV_CVC_COMPLEX_TYPE_4) || is_(XML_SCHEMAV_MISSING) { return "uddf.schema.attribute-missing" }
        if is_(XML_SCHEMAV_CVC_COMPLEX_TYPE_3_2_1) || is_(XML_SCHEMAV_CVC_COMPLEX_TYPE_3_2_2)
            || is_(XML_SCHEMAV_CVC_TYPE_3_1_1) || is_(XML_SCHEMAV_CVC_TYPE_3_1_2)
            || is_(XML_SCHEMAV_ATTRUNKNOWN) || is_(XML_SCHEMAV_INVALIDATTR) {
            return "uddf.schema.attribute-unexpected"
        }
        if within(XML_SCHEMAV_CVC_COMPLEX_TYPE_2_1, XML_SCHEMAV_CVC_COMPLEX_TYPE_2_4) || is_(XML_SCHEMAV_NOTEMPTY) {
            return "uddf.schema.content-unexpected"
        }
        if within(XML_SCHEMAV_VALUE, XML_SCHEMAV_CVC_ENUMERATION_VALID) || within(XML_SCHEMAV_CVC_ATTRIBUTE_1, XML_SCHEMAV_CVC_ATTRIBUTE_4)
            || is_(XML_SCHEMAV_ATTRINVALID) || is_(XML_SCHEMAV_NOTSIMPLE) || is_(XML_SCHEMAV_CVC_AU) {
            return "uddf.schema.value-invalid"
        }
        return "uddf.schema.invalid"
    }

    /// The code and the sentence for one libxml2 error.
    /// - Parameter rootNamespace: the root element's namespace URI (`nil`: none), for
    ///   explaining why the root is not declared.
    static func explain(code error: Int, message raw: String, rootNamespace: String?) -> (code: String, message: String) {
        let code = code(for: error, message: raw)
        var text = raw.replacing("{\(UDDFSchemaValidator.namespace)}", with: "").trimmingWhitespace()
        if text.hasSuffix(".") { text.removeLast() }

        // "Element 'NAME'[, attribute 'ATTR']: REST"
        guard text.hasPrefix("Element '") else { return (code, text) }
        var rest = text.dropFirst(9)
        guard let nameEnd = rest.firstIndex(of: "'") else { return (code, text) }
        let name = String(rest[..<nameEnd])
        rest = rest[rest.index(after: nameEnd)...]
        var attribute: String?
        if rest.hasPrefix(", attribute '") {
            rest = rest.dropFirst(13)
            guard let end = rest.firstIndex(of: "'") else { return (code, text) }
            attribute = String(rest[..<end])
            rest = rest[rest.index(after: end)...]
        }
        guard rest.hasPrefix(": ") else { return (code, text) }
        rest = rest.dropFirst(2)
        let element = "<\(name)>"
        let subject = attribute.map { "the attribute \($0) of \(element)" } ?? element

        if rest.hasPrefix("No matching global declaration available for the validation root") {
            let schema = "the UDDF 3.2.2 schema cannot check the file"
            if let ns = rootNamespace {
                return (code, "the root \(element) is in the namespace \(ns), not UDDF 3.2's \(UDDFSchemaValidator.namespace), so \(schema)")
            }
            return (code, "the root \(element) has no namespace (UDDF 3.2 needs xmlns=\"\(UDDFSchemaValidator.namespace)\"), so \(schema)")
        }
        if rest.hasPrefix("This element is not expected") {
            return (code, "\(element) is not expected here\(expected(rest))")
        }
        if rest.hasPrefix("Missing child element(s)") {
            return (code, "\(element) ends without a child it requires\(expected(rest))")
        }
        if let quoted = between(rest, "The attribute '", "' is required but missing") {
            return (code, "\(element) lacks its required attribute \(quoted)")
        }
        if let quoted = between(rest, "The attribute '", "' is not allowed") {
            return (code, "\(element) may not carry the attribute \(quoted)")
        }
        if rest.hasPrefix("Character content other than whitespace is not allowed") {
            return (code, "\(element) holds text, but it may hold only elements")
        }
        // "'V' is not a valid value of the atomic type 'T'" (also list, union, local types).
        if rest.hasPrefix("'"), let valueEnd = rest.dropFirst().firstIndex(of: "'"),
           rest[valueEnd...].hasPrefix("' is not a valid value of the ") {
            let value = rest[rest.index(after: rest.startIndex)..<valueEnd]
            var type = "value"
            if let t = rest[valueEnd...].dropFirst().firstIndex(of: "'"), let tEnd = rest[rest.index(after: t)...].firstIndex(of: "'") {
                type = String(rest[rest.index(after: t)..<tEnd])
            }
            var sentence = "\(subject) holds \"\(value)\", which is not a valid \(type)"
            if value.isEmpty {
                sentence += attribute == nil ? " (an empty element records nothing; leave it out)" : " (an empty attribute records nothing)"
            } else if type == "xs:ID" || type == "xs:IDREF" {
                sentence += " (an id is an XML name: a letter or _ first, no spaces or colons)"
            }
            return (code, sentence)
        }
        // "[facet 'F'] The value 'V' is not an element of the set {'a', 'b'}" and the like.
        if rest.hasPrefix("[facet '"), let close = rest.firstIndex(of: "]") {
            let detail = rest[rest.index(after: close)...].drop(while: { $0 == " " })
            if let value = between(detail, "The value '", "'") {
                var after = detail.dropFirst("The value '".count + value.count + 1).drop(while: { $0 == " " })
                if after.hasPrefix("is not an element of the set {"), after.hasSuffix("}") {
                    after = after.dropFirst("is not an element of the set {".count).dropLast()
                    return (code, "\(subject) holds \"\(value)\", which is not one of \(after)")
                }
                return (code, "\(subject) holds \"\(value)\", which \(after)")
            }
            return (code, "\(subject): \(lowercasingFirst(detail))")
        }
        return (code, "\(subject): \(lowercasingFirst(rest))")
    }

    /// `; expected <a>` or `; expected one of <a>, <b>` from libxml2's `Expected is ( a )`
    /// or `Expected is one of ( a, b )`; empty when it names nothing.
    private static func expected(_ rest: Substring) -> String {
        guard let expected = rest.firstRange(of: "Expected is"),
              let open = rest[expected.upperBound...].firstIndex(of: "("), let close = rest.lastIndex(of: ")"), open < close else { return "" }
        let names = rest[rest.index(after: open)..<close].split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return "" }
        let list = names.map { $0.hasPrefix("##") ? "an element \($0)" : "<\($0)>" }.joined(separator: ", ")
        return "; expected " + (names.count == 1 ? list : "one of \(list)")
    }

    /// The text between `prefix` (at the start of `s`) and the next `suffix`.
    private static func between(_ s: Substring, _ prefix: String, _ suffix: String) -> String? {
        guard s.hasPrefix(prefix) else { return nil }
        let body = s.dropFirst(prefix.count)
        guard let end = body.firstRange(of: suffix) else { return nil }
        return String(body[..<end.lowerBound])
    }

    private static func lowercasingFirst(_ s: Substring) -> String {
        guard let first = s.first else { return "" }
        return first.lowercased() + s.dropFirst()
    }
}
