internal import CLibXML2
import DiveCore

/// Canonical XML (C14N 1.0, no comments) of a document, for comparing two UDDF files the way
/// DiveJSON's `docs/uddf-writing.md` compares a written file with its expected one: layout
/// whitespace does not count, and elements that describe the run rather than the logbook
/// (`<generator>`) can be left out. Builds a tree, so it is for fixtures, not logbooks.
public enum CanonicalXML {
    /// The canonical bytes of `bytes`, without the elements whose local name is in `ignoring`.
    public static func of(_ bytes: [UInt8], name: String, ignoring: Set<String> = []) throws -> [UInt8] {
        LibXML2.initialized
        let options = Int32(XML_PARSE_NOBLANKS.rawValue | XML_PARSE_NONET.rawValue)
        guard let doc = bytes.withUnsafeBufferPointer({ buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlReadMemory($0, Int32(buffer.count), name, nil, options)
            }
        }) else {
            throw DiveError("xml.malformed", "the file is not well-formed XML", at: SourceLocation(file: name))
        }
        defer { xmlFreeDoc(doc) }
        if let root = xmlDocGetRootElement(doc) { remove(ignoring, under: root) }
        var out: UnsafeMutablePointer<xmlChar>?
        let n = xmlC14NDocDumpMemory(doc, nil, Int32(XML_C14N_1_0.rawValue), nil, 0, &out)
        guard n >= 0, let out else {
            throw DiveError("xml.c14n", "the document could not be canonicalised", at: SourceLocation(file: name))
        }
        defer { umilog_xml_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(n)))
    }

    private static func remove(_ names: Set<String>, under node: xmlNodePtr) {
        var child = node.pointee.children
        while let c = child {
            child = c.pointee.next
            guard c.pointee.type == XML_ELEMENT_NODE else { continue }
            if names.contains(String(cString: c.pointee.name)) {
                xmlUnlinkNode(c)
                xmlFreeNode(c)
            } else {
                remove(names, under: c)
            }
        }
    }
}
