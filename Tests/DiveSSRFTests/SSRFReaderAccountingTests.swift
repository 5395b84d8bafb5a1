import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import DiveCore
@testable import DiveSSRF
import TestSupport

/// Every element of a file with content of its own, found by a walk that is not the reader:
/// Foundation's `XMLParser`, collecting each element's path (names from the root's child
/// down), whether it has non-blank text, child elements, and which attributes it carries.
final class SSRFContentWalk: NSObject, XMLParserDelegate {
    struct Element { var path: [String]; var text = false; var children = false; var attributes: [String] = [] }
    private var stack: [Element] = []
    /// Leaf paths with content, and `path/@attribute` for attributes of elements with children.
    var leaves: Set<String> = []
    var containerAttributes: Set<String> = []

    static func walk(_ path: String) throws -> SSRFContentWalk {
        let walk = SSRFContentWalk()
        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        parser.delegate = walk
        #expect(parser.parse(), "\(path): \(parser.parserError.map { "\($0)" } ?? "")")
        return walk
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if !stack.isEmpty { stack[stack.count - 1].children = true }
        stack.append(Element(path: (stack.last?.path ?? []) + [name], attributes: attributes.keys.sorted()))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if !string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, !stack.isEmpty { stack[stack.count - 1].text = true }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let e = stack.removeLast()
        guard e.path.count > 1 else { return }   // the root: its attributes are read
        let path = e.path.dropFirst().joined(separator: "/")
        if e.text || (!e.children && !e.attributes.isEmpty) {
            leaves.insert(path)
        } else {
            for a in e.attributes { containerAttributes.insert(path + "/@" + a) }
        }
    }
}

/// Whether an `ssrf.not-carried` finding names the element at `path` (the walk's form). Inside
/// a dive, findings start at `dive/N/`; siblings share one finding at their parent's path.
func ssrfNamed(_ path: String, by findings: [Finding]) -> Bool {
    func local(_ p: String) -> String {
        var parts = p.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // dives/trip/dive/… and dives/dive/… (the walk) and dive/3/… (a finding) → dive/…
        if let k = parts.firstIndex(of: "dive") {
            parts = Array(parts[k...])
            if parts.count > 1, Int(parts[1]) != nil { parts.remove(at: 1) }
        }
        return parts.joined(separator: "/")
    }
    let target = local(path)
    let parent = target.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let last = String(target.split(separator: "/").last ?? "")
    return findings.contains { f in
        guard f.code == "ssrf.not-carried", let p = f.location.path else { return false }
        let fp = local(p)
        if fp == target { return true }
        guard fp == parent else { return false }
        return last.hasPrefix("@") ? f.message.contains(" \(last.dropFirst())=\"") : f.message.contains("<\(last)>") || f.message.contains("<\(last) ")
    }
}

/// Every Subsurface file the reader must read: the shared corpus and the DiveJSON pairs.
let ssrfAccountingFiles: [String] = {
    guard Paths.sharedAvailable else { return [] }
    var files: [String] = []
    for dir in [Paths.corpus + "/ssrf", Paths.fixtures + "/ssrf"] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        files += names.filter { !$0.hasSuffix(".divejson") }.sorted().map { dir + "/" + $0 }
    }
    return files
}()

func readSSRFText(_ xml: String, name: String = "test.ssrf", accounting: Bool = false) throws -> (Logbook, [Finding], SSRFReader) {
    let dir = try Paths.temporaryDirectory()
    let path = dir + "/" + name
    try xml.write(toFile: path, atomically: true, encoding: .utf8)
    let reader = try SSRFReader(path: path, displayName: name)
    reader.recordsAccounting = accounting
    let (book, findings) = try reader.readAll()
    return (book, findings, reader)
}

@Suite struct SSRFReaderAccountingTests {
    @Test("every element and attribute with content is carried or named by a finding", arguments: ssrfAccountingFiles)
    func everyElementIsAccountedFor(_ file: String) throws {
        let walk = try SSRFContentWalk.walk(file)
        let reader = try SSRFReader(path: file)
        reader.recordsAccounting = true
        var findings: [Finding] = []
        while try reader.next() != nil { findings += reader.takeFindings() }
        findings += reader.takeFindings()
        let accounted = reader.accounting.accounted
        #expect(!walk.leaves.isEmpty)
        let lost = walk.leaves.filter { !accounted.contains($0) && !ssrfNamed($0, by: findings) }
        #expect(lost.isEmpty, "\(file): elements neither carried nor reported: \(lost.sorted())")
        let lostAttributes = walk.containerAttributes.filter { !accounted.contains($0) && !ssrfNamed($0, by: findings) }
        #expect(lostAttributes.isEmpty, "\(file): attributes neither read nor reported: \(lostAttributes.sorted())")
    }

    @Test("the check has teeth: what the reader never heard of is found by the walk and named by a finding")
    func anUnknownElementIsReported() throws {
        let xml = """
            <divelog program='subsurface' version='3'>
            <divesites><site uuid='1' name='Reef'><moon phase='full'/></site></divesites>
            <dives>
            <dive number='1' date='2024-01-01' time='10:00:00' mood='happy'>
              <divecomputer model='X'>
              <sample time='0:00 min' depth='1.0 m' sonar='12 m' />
              <sample time='0:10 min' depth='3.0 m' sonar='13 m' />
              <gadget>on</gadget>
              </divecomputer>
            </dive>
            </dives>
            </divelog>
            """
        let (_, findings, _) = try readSSRFText(xml)
        let notCarried = findings.filter { $0.code == "ssrf.not-carried" }
        // Inside the dive at paths below it, once per path with a count; outside, at the file's end.
        #expect(notCarried.map(\.location.path) == ["dive/0/divecomputer/sample/@sonar", "dive/0/divecomputer/gadget", "divesites/site/moon", "dives/dive/@mood"])
        #expect(notCarried[0].message.contains("sonar=\"12 m\" on <sample> (the first of 2)"))
        #expect(notCarried[1].message.contains("<gadget>on</gadget>"))
        #expect(notCarried.allSatisfy { $0.kind == .dropped })
    }
}
