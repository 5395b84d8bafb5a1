/// Where something was found in a source file: a line and column for text formats, an
/// element or JSON path, or a row and column for CSV. Lines, columns and rows are 1-based.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, as the user named it (`-` or `<stdin>` for standard input).
    public var file: String?
    /// The 1-based line, for text formats.
    public var line: Int?
    /// The 1-based column on ``line``.
    public var column: Int?
    /// A record path in the source, e.g. `dive/3/tankdata/1` or `$.dives[2]`.
    public var path: String?
    /// CSV data row (1-based, counting the header as row 1), when the source is a table.
    public var row: Int?
    /// CSV column name or number, when the source is a table.
    public var field: String?

    /// Makes a location from whichever parts are known.
    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, path: String? = nil,
                row: Int? = nil, field: String? = nil) {
        self.file = file; self.line = line; self.column = column; self.path = path
        self.row = row; self.field = field
    }

    /// `file:line:col`, `file:row N, column X`, or `file` — the compiler-style prefix.
    public var description: String {
        var s = file ?? "<input>"
        if let line {
            s += ":\(line)"
            if let column { s += ":\(column)" }
        } else if let row {
            s += ":row \(row)"
            if let field { s += ", column \(field)" }
        }
        return s
    }
}

/// The four kinds of conversion finding (DiveJSON `docs/converting.md`, *The report*).
public enum FindingKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// The source never recorded this.
    case absent
    /// The converter computed this from readings the source did record.
    case inferred
    /// The source recorded the value with its scale, units or meaning in doubt, and the
    /// converter decided how to read it (or read it onto a coarser scale).
    case resolved
    /// The source recorded this and the converter could not carry it.
    case dropped
}

/// A recoverable observation about a conversion: collected, counted and reported, never
/// thrown. Fatal problems are ``DiveError``s instead.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// Which of the four kinds the finding is: absent, inferred, resolved or dropped.
    public var kind: FindingKind
    /// A stable, dotted code such as `uddf.tankvolume-litres`. Scripts match on it.
    public var code: String
    /// One sentence a diver understands.
    public var message: String
    /// Where in the source the finding points.
    public var location: SourceLocation
    /// Dives this finding says were not carried at all (a dive with no start a format needs,
    /// a damaged entry of an archive): a run with any is not a success (exit 1), though what
    /// was read is still written. Zero for a value not carried.
    public var lostDives = 0

    /// Makes a finding of this kind and code, with its message and place; no dives lost.
    public init(_ kind: FindingKind, _ code: String, _ message: String, at location: SourceLocation) {
        self.kind = kind; self.code = code; self.message = message; self.location = location
    }

    /// This finding, saying it loses `count` dives.
    public func losing(_ count: Int = 1) -> Finding {
        var f = self
        f.lostDives = count
        return f
    }

    /// `file:line:col: resolved[uddf.tankvolume-litres]: dive/0/tankdata/0: message`.
    public var description: String {
        var s = "\(location): \(kind.rawValue)[\(code)]: "
        if let path = location.path { s += "\(path): " }
        return s + message
    }
}

/// A fatal problem with an input: the file cannot be read as the format it claims to be.
///
/// Prints like a compiler diagnostic: `path:line:col: error[code]: message`.
public struct DiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code such as `xml.malformed` or `uddf.doctype`. Scripts match on it.
    public var code: String
    /// One sentence a diver understands.
    public var message: String
    /// Where in the source the error is.
    public var location: SourceLocation

    /// Makes an error with this code and message, at this place.
    public init(_ code: String, _ message: String, at location: SourceLocation) {
        self.code = code; self.message = message; self.location = location
    }

    /// The error as a compiler prints one: `file:line:col: error[code]: message`.
    public var description: String {
        var s = "\(location): error[\(code)]: "
        if let path = location.path, location.line == nil { s += "\(path): " }
        return s + message
    }
}
