import Testing
import DiveCore
@testable import DiveXML

/// Feeds `bytes` to a parser in chunks of `chunk` bytes, then ends it.
func feedParse(_ bytes: [UInt8], chunk: Int = 7, encoding: String? = nil) throws -> Recorder {
    let recorder = Recorder()
    let parser = XMLPushParser(displayName: "a.zip(0.xml)", handler: recorder, encoding: encoding)
    var i = 0
    while i < bytes.count {
        let end = min(bytes.count, i + chunk)
        try bytes[i..<end].withUnsafeBytes { try parser.feed($0) }
        i = end
    }
    try parser.finish()
    return recorder
}

@Suite struct XMLEncodingTests {
    /// `<n>` holding "5 €, Müll" in ISO-8859-15: the euro sign is 0xA4 there (¤ in Latin-1).
    static let latin9Body: [UInt8] = Array("<n>5 ".utf8) + [0xA4] + Array(", M".utf8) + [0xFC] + Array("ll</n>".utf8)

    @Test func anOwnerFedParserReadsChunkByChunk() throws {
        let r = try feedParse(Array("<a><b>one</b><c x='1'>two</c></a>".utf8), chunk: 3)
        #expect(r.opened == ["a", "b", "c"])
        #expect(r.text == "onetwo")
    }

    @Test func aDeclaredLatin9IsReadByLibxml2() throws {
        let r = try feedParse(Array("<?xml version=\"1.0\" encoding=\"ISO-8859-15\" ?>\n".utf8) + Self.latin9Body)
        #expect(r.text == "5 €, Müll")
    }

    @Test func anUndeclaredInputIsReadInTheEncodingItsOwnerGives() throws {
        let r = try feedParse(Self.latin9Body, encoding: "ISO-8859-15")
        #expect(r.text == "5 €, Müll")
        let withDeclaration = try feedParse(Array("<?xml version=\"1.0\"?>".utf8) + Self.latin9Body, encoding: "ISO-8859-15")
        #expect(withDeclaration.text == "5 €, Müll")
        // Without it, the same bytes are not UTF-8: a located error, not a guess.
        #expect(throws: DiveError.self) { _ = try feedParse(Self.latin9Body) }
    }

    @Test func anUnknownEncodingIsAnError() throws {
        do {
            _ = try feedParse(Array("<a/>".utf8), encoding: "NO-SUCH-ENCODING")
            Issue.record("no error")
        } catch let e as DiveError {
            #expect(e.code == "xml.encoding-unsupported")
        }
    }

    @Test func anUnfinishedFedInputIsTruncated() throws {
        do {
            _ = try feedParse(Array("<a><b>text".utf8))
            Issue.record("no error")
        } catch let e as DiveError {
            #expect(e.code == "xml.truncated")
            #expect(e.location.file == "a.zip(0.xml)")
        }
    }

    @Test func theDeclaredEncodingIsReadOffTheDeclaration() {
        func declared(_ s: String) -> String? { XMLEncoding.declared(in: Array(s.utf8)) }
        #expect(declared("<?xml version=\"1.0\" encoding=\"ISO-8859-15\" ?>\n<SUUNTO/>") == "ISO-8859-15")
        #expect(declared("\u{FEFF}<?xml version='1.0' encoding = 'utf-8'?><a/>") == "utf-8")
        #expect(declared("<?xml version=\"1.0\"?><a encoding=\"x\"/>") == nil)
        #expect(declared("<a/>") == nil)
        #expect(declared("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"") == nil)
        #expect(declared("") == nil)
    }

    @Test func utf8IsCheckedAcrossChunks() {
        func check(_ bytes: [UInt8], chunk: Int) -> XMLEncoding.UTF8Check {
            var c = XMLEncoding.UTF8Check()
            var i = 0
            while i < bytes.count {
                let end = min(bytes.count, i + chunk)
                bytes[i..<end].withUnsafeBytes { c.feed($0) }
                i = end
            }
            return c
        }
        let euro = Array("5 € and 𝄞".utf8)
        for n in 1...5 { #expect(check(euro, chunk: n).isCompleteAndValid) }
        #expect(!check(Self.latin9Body, chunk: 3).isValid)
        #expect(check(Self.latin9Body, chunk: 3).validBytes == 5)
        #expect(!check([0xC0, 0x80], chunk: 1).isValid)        // overlong
        #expect(!check([0xED, 0xA0, 0x80], chunk: 1).isValid)  // a surrogate
        #expect(!check([0xF4, 0x90, 0x80, 0x80], chunk: 2).isValid)  // past U+10FFFF
        #expect(!check([0xE2, 0x82], chunk: 1).isCompleteAndValid)   // cut short
    }
}
