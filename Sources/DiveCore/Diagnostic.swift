/// A problem a validator found in a file: how serious it is, a stable code, where it is and
/// a sentence a diver understands. Validators of every format report these, so a pipeline
/// gets one shape whatever it checks (`umilog validate --format json|github|sarif`).
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is, least first.
    public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        /// Worth knowing; nothing is wrong with the file.
        case note
        /// The file is valid but says something unlikely (a writer's habit, an implausible value).
        case warning
        /// The file breaks its format's rules.
        case error

        /// Orders severities from `note` to `error`.
        public static func < (a: Severity, b: Severity) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// How serious the problem is.
    public var severity: Severity
    /// Stable across releases: scripts match on it (`uddf.schema.element-unexpected`, `divejson.gas-over-100`).
    public var code: String
    /// The sentence a diver reads.
    public var message: String
    /// Where in the file the problem is.
    public var location: SourceLocation

    /// Makes a diagnostic of this severity and code, with its message and place.
    public init(_ severity: Severity, _ code: String, _ message: String, at location: SourceLocation) {
        self.severity = severity; self.code = code; self.message = message; self.location = location
    }

    /// `file:line:col: error[code]: path: message`, like a compiler.
    public var description: String {
        "\(location): \(severity.rawValue)[\(code)]: \(location.path.map { "\($0): " } ?? "")\(message)"
    }
}

extension Diagnostic {
    /// A reader's finding as a validation diagnostic, with its code and location: a finding
    /// that loses a dive is an error; a value
    /// whose reading had to be decided (`resolved`, a known writer habit) or that could not
    /// be carried (`dropped`) is a warning; one the source never recorded (`absent`) or
    /// that was computed (`inferred`) is a note.
    public init(_ finding: Finding) {
        let severity: Severity
        switch finding.kind {
        case _ where finding.lostDives > 0: severity = .error
        case .resolved, .dropped: severity = .warning
        case .absent, .inferred: severity = .note
        }
        self.init(severity, finding.code, finding.message, at: finding.location)
    }
}
