import Testing
@testable import DiveCore

@Suite struct IdentityTests {
    @Test func sha1KnownVectors() {
        func hex(_ b: [UInt8]) -> String { b.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    @Test func uddfNamespaceIsDerivedFromItsURL() {
        #expect(Identity.uuid5(namespace: Identity.urlNamespace, name: "https://divejson.org/ns/uddf") == Identity.uddfNamespace)
    }

    @Test func recordIdentityMatchesTheConformanceCorpus() {
        // fixtures/uddf/subsurface.divejson gives the site with id " ff47210" this uuid.
        #expect(Identity.uuid(kind: "site", sourceID: "ff47210", namespace: Identity.uddfNamespace) == "a2f279fa-7d08-5be8-b6a0-8360779ca203")
    }

    @Test func aUUIDTheSourceHoldsIsReused() {
        #expect(Identity.uuid(kind: "dive", sourceID: "dive-019FEC36-b9ec-71c6-a03e-64f59b8b92b1", namespace: Identity.uddfNamespace)
                == "019fec36-b9ec-71c6-a03e-64f59b8b92b1")
        #expect(Identity.embeddedUUID("019fec36-b9ec-71c6-a03e-64f59b8b92b1") == "019fec36-b9ec-71c6-a03e-64f59b8b92b1")
        #expect(Identity.embeddedUUID("x1-019fec36-b9ec-71c6-a03e-64f59b8b92b1") == nil)
        #expect(Identity.embeddedUUID("-019fec36-b9ec-71c6-a03e-64f59b8b92b1") == nil)
    }

    @Test func theKindIsPartOfTheHash() {
        let a = Identity.uuid(kind: "dive", sourceID: "1", namespace: Identity.uddfNamespace)
        let b = Identity.uuid(kind: "site", sourceID: "1", namespace: Identity.uddfNamespace)
        #expect(a != b)
    }
}
