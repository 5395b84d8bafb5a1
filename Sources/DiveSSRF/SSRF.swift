import DiveCore

/// Subsurface XML (`.ssrf`, `.xml`): Subsurface's own save file, versions 1 to 3.
public enum SSRF {
    /// The identity namespace of records read from Subsurface XML (DiveJSON's
    /// `docs/ssrf-mapping.md`: `uuid5(NAMESPACE_URL, "https://divejson.org/ns/ssrf")`).
    public static let namespace = "ef2248bf-087c-53cf-8a79-2f6e01f7c90e"
}
