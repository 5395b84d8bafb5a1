import Foundation
import Testing
import DiveCore
@testable import DiveXML
import TestSupport

/// Records what the parser hands over: element names in document order.
final class Recorder: XMLEventHandler {
    var opened: [String] = []
    var text = ""
    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        opened.append(String(cString: localName))
    }
    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        text += String(decoding: bytes, as: UTF8.self)
    }
}

func parse(_ xml: String, lenient: Bool = false, acceptedDoctypeRoot: String? = nil) throws -> (Recorder, XMLPushParser, Error?) {
    let dir = try Paths.temporaryDirectory()
    let path = dir + "/in.xml"
    try xml.write(toFile: path, atomically: true, encoding: .utf8)
    let recorder = Recorder()
    let parser = try XMLPushParser(path: path, displayName: "in.xml", handler: recorder, lenient: lenient,
                                   acceptedDoctypeRoot: acceptedDoctypeRoot)
    do {
        while try parser.step() {}
        return (recorder, parser, nil)
    } catch {
        return (recorder, parser, error)
    }
}

@Suite struct XMLPushParserTests {
    @Test func entitiesInAttributeValuesAreReplaced() throws {
        final class Values: XMLEventHandler {
            var values: [String] = []
            override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
                if let v = attributes.value("name") { values.append(v) }
            }
        }
        let dir = try Paths.temporaryDirectory()
        try "<a name='YO257 &amp; San Pedro &#233;&lt;&gt;&quot;&apos;'><b name=\"x&#38;y\"/></a>".write(toFile: dir + "/e.xml", atomically: true, encoding: .utf8)
        let h = Values()
        let parser = try XMLPushParser(path: dir + "/e.xml", displayName: "e.xml", handler: h)
        while try parser.step() {}
        #expect(h.values == ["YO257 & San Pedro é<>\"'", "x&y"])
    }

    /// Shearwater's export declares `encoding="utf-16"` over single-byte text: trusted, libxml2
    /// refuses the file; checked against the bytes, the declaration is set aside and said so.
    @Test func aDeclaredEncodingTheBytesContradictIsSetAsideWhenChecked() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"utf-16\"?>\n<a>café</a>\n"
        let (_, trusting, trusted) = try parse(xml)
        #expect(trusted is DiveError)
        #expect(trusting.ignoredEncoding == nil)
        let dir = try Paths.temporaryDirectory()
        try xml.write(toFile: dir + "/lying.xml", atomically: true, encoding: .utf8)
        let recorder = Recorder()
        let parser = try XMLPushParser(path: dir + "/lying.xml", displayName: "lying.xml", handler: recorder, checksDeclaredEncoding: true)
        while try parser.step() {}
        #expect(recorder.opened == ["a"] && recorder.text.contains("café"))
        #expect(parser.ignoredEncoding == "utf-16")
    }

    @Test(arguments: [
        ("<?xml version=\"1.0\" encoding=\"utf-16\"?><a/>", "utf-16"),
        ("<?xml version='1.0' encoding = 'UTF-32'?><a/>", "UTF-32"),
        ("<?xml version=\"1.0\" encoding=\"utf-8\"?><a/>", nil),
        ("<?xml version=\"1.0\"?><a/>", nil),
        ("<a encoding=\"utf-16\"/>", nil),
        ("<?xml version=\"1.0\" encoding=\"utf-16\"?><a>\0</a>", nil),
    ] as [(String, String?)])
    func theDeclarationIsCheckedAgainstTheBytes(text: String, contradicted: String?) {
        let found = Array(text.utf8).withUnsafeBufferPointer { XMLPushParser.contradictedEncoding($0) }
        #expect(found == contradicted)
    }

    @Test func aMismatchedEndTagIsAnErrorAtItsLineAndColumn() throws {
        let (_, _, error) = try parse("<a>\n  <b>x</c>\n</a>\n")
        let e = try #require(error as? DiveError)
        #expect(e.code == "xml.malformed")
        #expect(e.location.file == "in.xml" && e.location.line == 2 && e.location.column != nil)
    }

    @Test func theLenientModeReadsPastWhatIsNotWellFormedAndSaysWhere() throws {
        // Ampersands a careless writer did not escape: a strict parse stops at the first.
        let xml = "<log>\n<dive n='1'><site>Fish & Chips</site></dive>\n<dive n='2'><buddy>Tom & Ann</buddy></dive>\n<dive n='3'/>\n</log>\n"
        let (_, _, strict) = try parse(xml)
        #expect((strict as? DiveError)?.code == "xml.malformed")
        let (recorder, parser, error) = try parse(xml, lenient: true)
        #expect(error == nil)
        // Every dive after the problems is still handed over.
        #expect(recorder.opened.filter { $0 == "dive" }.count == 3)
        let recovered = parser.takeRecovered()
        #expect(parser.recoveredCount == 2)
        #expect(recovered.map(\.location.line) == [2, 3])
        #expect(recovered.allSatisfy { $0.code == "xml.malformed" })
    }

    @Test func theLenientModeStillRefusesADoctype() throws {
        let (_, _, error) = try parse("<!DOCTYPE log [<!ENTITY x \"y\">]>\n<log>&x;</log>\n", lenient: true)
        #expect((error as? DiveError)?.code == "xml.doctype")
    }

    /// MacDive's DOCTYPE names its root and an external DTD: read past when the reader accepts
    /// that root (the DTD is not fetched); an internal subset, or another root, still refuses.
    @Test func anAcceptedDoctypeWithoutInternalSubsetIsReadPast() throws {
        let macdive = "<!DOCTYPE dives SYSTEM \"http://127.0.0.1:9/macdive_logbook.dtd\">\n<dives><dive/></dives>\n"
        let (recorder, _, error) = try parse(macdive, acceptedDoctypeRoot: "dives")
        #expect(error == nil && recorder.opened == ["dives", "dive"])
        let (_, _, unaccepted) = try parse(macdive)
        #expect((unaccepted as? DiveError)?.code == "xml.doctype")
        let (_, _, otherRoot) = try parse("<!DOCTYPE log SYSTEM \"x.dtd\">\n<log/>\n", acceptedDoctypeRoot: "dives")
        #expect((otherRoot as? DiveError)?.code == "xml.doctype")
        let (inner, _, subset) = try parse("<!DOCTYPE dives SYSTEM \"x.dtd\" [<!ENTITY x \"y\">]>\n<dives>&x;</dives>\n", acceptedDoctypeRoot: "dives")
        #expect((subset as? DiveError)?.code == "xml.doctype" && !inner.text.contains("y"))
    }

    @Test func nestingPastTheLimitIsRefusedBeforeItCostsMemory() throws {
        let depth = InputLimits.xmlDepth + 1
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let (recorder, _, error) = try parse(xml)
        #expect((error as? DiveError)?.code == "xml.too-deep")
        #expect(recorder.opened.count == InputLimits.xmlDepth)
    }

    @Test func aFileThatEndsEarlyIsTruncatedNamingTheOpenElement() throws {
        let (_, _, error) = try parse("<log>\n<dive>\n<depth>12")
        let e = try #require(error as? DiveError)
        #expect(e.code == "xml.truncated")
        #expect(e.message.contains("<depth>") && e.message.contains("2 more open elements"))
    }

    @Test func namesAreInternedSoEqualNamesShareAnAddress() throws {
        final class Addresses: XMLEventHandler {
            var seen: [UnsafePointer<UInt8>] = []
            override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) { seen.append(localName) }
        }
        let dir = try Paths.temporaryDirectory()
        try "<a><b/><b/><c/></a>".write(toFile: dir + "/n.xml", atomically: true, encoding: .utf8)
        let h = Addresses()
        let parser = try XMLPushParser(path: dir + "/n.xml", displayName: "n.xml", handler: h)
        while try parser.step() {}
        #expect(h.seen[1] == h.seen[2] && h.seen[1] != h.seen[3])
    }
}

@Suite struct NameTableTests {
    @Test func aNameIsResolvedOnceByItsLowercasedText() throws {
        var resolved: [String] = []
        var table = NameTable { name in resolved.append(name); return name == "dive" ? 7 : 0 }
        let names = (["DIVE", "dive", "Sample"] as [String]).map { s in s.withCString { strdup($0)! } }
        defer { names.forEach { free($0) } }
        let p = names.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
        #expect(table.code(p[0]) == 7)
        #expect(table.code(p[0]) == 7)
        #expect(table.code(p[1]) == 7)
        #expect(table.code(p[2]) == 0)
        // One lookup by text per address; the second call for the same address is a cache hit.
        #expect(resolved == ["dive", "dive", "sample"])
    }
}

/// The smallest reader on the shared shell: one dive per `<dive>`, numbered by its `@n`.
final class TinyState: XMLEventHandler, XMLDiveState {
    unowned(unsafe) var parser: XMLPushParser?
    let accountant: XMLAccountant
    let accounts: Unmanaged<XMLAccountant>
    var header = LogbookHeader()
    var ready: [Dive] = []
    var readyHead = 0
    var samplesPerDive = InputLimits.samplesPerDive
    var findings: [Finding] = []
    /// It captures no text; the shared accounting calls (``XMLAccountingState``) read this.
    let text: [UInt8] = []

    init(file: String) {
        accountant = XMLAccountant(file: file, format: "tiny")
        accounts = Unmanaged.passUnretained(accountant)
    }

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        pushMarks(parentCapturing: false)
        if String(cString: localName) == "dive" {
            var d = Dive(uuid: "d\(ready.count)", startedAt: nil)
            d.number = attributes.value("n").flatMap { Int($0) }
            ready.append(d)
        }
        noteUnreadAttributes(attributes)
    }
    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) { noteTrailingText(bytes) }
    override func endElement(_ localName: UnsafePointer<UInt8>) { popMarks(ownTextCaptured: false) }
    func finishDocument() throws {
        if let error = parser?.error { throw error }
        reportDrops(dive: false, prefix: "")
    }

}

final class TinyReader: XMLDiveReader {
    init(path: String, lenient: Bool) throws {
        try super.init(path: path, displayName: "tiny.xml", state: TinyState(file: "tiny.xml"), lenient: lenient)
    }
}

@Suite struct XMLDiveReaderTests {
    @Test func aLenientReaderHandsOutEveryDiveAndReportsWhatItReadPast() throws {
        let dir = try Paths.temporaryDirectory()
        try "<log>\n<dive n='1'>Fish & Chips</dive>\n<dive n='2' colour='blue'/>\n</log>\n".write(toFile: dir + "/t.xml", atomically: true, encoding: .utf8)
        let (book, findings) = try TinyReader(path: dir + "/t.xml", lenient: true).readAll()
        #expect(book.dives.map(\.number) == [1, 2])
        let recovered = findings.filter { $0.code == "xml.recovered" }
        #expect(recovered.count == 1 && recovered.first?.location.line == 2 && recovered.first?.kind == .resolved)
        // What no handler read is still accounted for: the unread attribute and the text.
        #expect(findings.contains { $0.code == "tiny.not-carried" && $0.message.contains("colour=\"blue\"") })
        // Strict, the same file is refused where it breaks.
        #expect(throws: DiveError.self) { try TinyReader(path: dir + "/t.xml", lenient: false).readAll() }
    }
}
