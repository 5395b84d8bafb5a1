import DiveCore
import DiveSSRF
import Testing

@Suite struct SSRFNamespaceTests {
    /// The namespace is DiveJSON's: uuid5 of the URL namespace and the format's URL.
    @Test func namespaceIsTheMappingDocsUUID5() {
        #expect(Identity.uuid5(namespace: Identity.urlNamespace, name: "https://divejson.org/ns/ssrf") == SSRF.namespace)
    }
}
