import DiveCore

/// Subsurface XML (`.ssrf`, `.xml`): Subsurface's own save file, versions 1 to 3.
public enum SSRF {
    /// The identity namespace of records read from Subsurface XML (DiveJSON's
    /// `docs/ssrf-mapping.md`: `uuid5(NAMESPACE_URL, "https://divejson.org/ns/ssrf")`).
    public static let namespace = "ef2248bf-087c-53cf-8a79-2f6e01f7c90e"
}

extension SSRF {
    /// Subsurface XML by its structure: the `<divelog>` root of versions 2 and 3; version 1's
    /// `<dives>` root with Subsurface's `<program>` element, or, without it, the unit inside an
    /// attribute's text that only Subsurface writes (`duration='51:08 min'`).
    public static func sniff(_ input: SniffInput) -> SniffConfidence {
        switch input.root {
        case "divelog": return .certain
        case "dives":
            if input.contains("<program name='subsurface'") || input.contains("<program name=\"subsurface\"") { return .certain }
            return input.contains(" min'") || input.contains(" min\"") ? .likely : .none
        default: return .none
        }
    }
}

extension SSRFWriter: DiveWriter {
    /// True: dives are spooled and the document written at ``SSRFWriter/finish(header:to:replayingBody:)``, its head first.
    public var spoolsBody: Bool { true }
}
