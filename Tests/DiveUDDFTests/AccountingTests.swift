import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import DiveCore
@testable import DiveUDDF
import TestSupport

/// Every element of a file with content of its own, found by a walk that is not the reader:
/// Foundation's `XMLParser` (a DOM-free SAX walk of its own), collecting each element's path
/// (local names from the root's child down), whether it has non-blank text, child elements,
/// and which attributes it carries.
final class ContentWalk: NSObject, XMLParserDelegate {
    struct Element { var path: [String]; var text = false; var children = false; var attributes: [String] = [] }
    private var stack: [Element] = []
    /// Leaf paths with content, and `path/@attribute` for attributes of elements with children.
    var leaves: Set<String> = []
    var containerAttributes: Set<String> = []

    static func walk(_ path: String) throws -> ContentWalk {
        let walk = ContentWalk()
        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        parser.shouldProcessNamespaces = true
        parser.delegate = walk
        #expect(parser.parse(), "\(path): \(parser.parserError.map { "\($0)" } ?? "")")
        return walk
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if !stack.isEmpty { stack[stack.count - 1].children = true }
        let path = (stack.last?.path ?? []) + [name]
        // `id` names an element for references; `xsi:` attributes are hints to a validator.
        let names = attributes.keys.filter { $0.lowercased() != "id" && !$0.hasPrefix("xsi:") && !$0.hasPrefix("xmlns") }
        stack.append(Element(path: path, attributes: names.sorted()))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if !string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, !stack.isEmpty { stack[stack.count - 1].text = true }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if let s = String(data: block, encoding: .utf8), !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, !stack.isEmpty {
            stack[stack.count - 1].text = true
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let e = stack.removeLast()
        guard e.path.count > 1 else { return }   // the root: its version is read
        let path = e.path.dropFirst().joined(separator: "/")
        if e.text || (!e.children && !e.attributes.isEmpty) {
            leaves.insert(path)
        } else {
            for a in e.attributes { containerAttributes.insert(path + "/@" + a) }
        }
    }
}

/// Whether a `uddf.not-carried` finding names the element at `path` (the walk's form). Inside
/// a dive, findings start at `dive/N/`; siblings share one finding at their parent's path
/// that names each of them.
func named(_ path: String, by findings: [Finding]) -> Bool {
    func local(_ p: String) -> String {
        // profiledata/repetitiongroup/dive/samples/… → dive/samples/…; dive/3/samples/… likewise.
        if let r = p.range(of: "dive/") , p.hasPrefix("profiledata/") { return "dive/" + p[r.upperBound...] }
        let parts = p.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count > 1, parts[0] == "dive", Int(parts[1]) != nil { return (["dive"] + parts.dropFirst(2)).joined(separator: "/") }
        return p
    }
    let target = local(path)
    let parent = target.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let last = String(target.split(separator: "/").last ?? "")
    return findings.contains { f in
        guard f.code == "uddf.not-carried", let p = f.location.path else { return false }
        let fp = local(p)
        if fp == target { return true }
        guard fp == parent else { return false }
        return last.hasPrefix("@") ? f.message.contains(" \(last.dropFirst())=\"") : f.message.contains("<\(last)>") || f.message.contains("<\(last) ")
    }
}

/// Every UDDF file the project has that a reader must read: the samples, the shared corpus and
/// the DiveJSON fixtures' reader pairs.
let accountingFiles: [String] = {
    var files = ["logbook.uddf", "rebreather.uddf", "pair/computer-a.uddf"].map { Paths.samples + "/" + $0 }
    if Paths.sharedAvailable { files += Paths.sharedUDDF.map { Paths.shared + "/" + $0 } }
    return files
}()

@Suite struct AccountingTests {
    @Test("every element and attribute with content is carried or named by a finding", arguments: accountingFiles)
    func everyElementIsAccountedFor(_ file: String) throws {
        let walk = try ContentWalk.walk(file)
        let reader = try UDDFReader(path: file)
        reader.recordsAccounting = true
        var findings: [Finding] = []
        while try reader.next() != nil { findings += reader.takeFindings() }
        findings += reader.takeFindings()
        let accounted = reader.accounting.accounted
        let lost = walk.leaves.filter { !accounted.contains($0) && !named($0, by: findings) }
        #expect(lost.isEmpty, "\(file): elements neither carried nor reported: \(lost.sorted())")
        let lostAttributes = walk.containerAttributes.filter { !named($0, by: findings) && !accounted.contains($0) }
        #expect(lostAttributes.isEmpty, "\(file): attributes neither read nor reported: \(lostAttributes.sorted())")
    }

    @Test("the check has teeth: an element the reader never heard of is found by the walk and named by a finding")
    func anUnknownElementIsReportedOncePerDiveWithItsCount() throws {
        let site = "<divesite><site id=\"s\"><name>Reef</name><geography><latitude>1</latitude><longitude>2</longitude></geography><tidetable>x</tidetable></site></divesite>"
        let (_, findings) = try readUDDF(uddf(header: site, dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive>
            <samples>
              <waypoint><divetime>0</divetime><depth>1</depth><sonar beam="wide">12.5</sonar></waypoint>
              <waypoint><divetime>10</divetime><depth>3</depth><sonar beam="wide">13</sonar></waypoint>
            </samples>
            <informationafterdive><greatestdepth>3</greatestdepth><moonphase>full</moonphase></informationafterdive>
            """))
        let notCarried = findings.filter { $0.code == "uddf.not-carried" }
        #expect(notCarried.map(\.location.path) == ["dive/0/samples/waypoint/sonar", "dive/0/informationafterdive/moonphase", "divesite/site/tidetable"])
        #expect(notCarried[0].message == "<sonar beam=\"wide\">12.5</sonar> (the first of 2) has no place in umilog's model; not carried")
        #expect(notCarried.allSatisfy { $0.kind == .dropped })
    }

    @Test("an attribute nobody reads on an element that is read is reported at its own path")
    func anUnreadAttributeIsReported() throws {
        let (_, findings) = try readUDDF(uddf(dive: """
            <informationbeforedive><datetime>2024-01-01T10:00:00</datetime></informationbeforedive>
            <informationafterdive><greatestdepth accuracy="0.1">3</greatestdepth></informationafterdive>
            """))
        let f = try #require(findings.first { $0.code == "uddf.not-carried" })
        #expect(f.location.path == "dive/0/informationafterdive/greatestdepth/@accuracy")
    }
}
