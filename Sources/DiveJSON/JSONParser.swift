import DiveCore

/// A parsed JSON value with where it started in the text. Objects keep their members in
/// document order (DiveJSON's `format`/`version` rule is about order), numbers keep their
/// exact text (so a value round-trips digit for digit).
public struct JSONNode: Sendable, Hashable {
    /// What the value is, and what it holds.
    public enum Value: Sendable, Hashable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        /// The number exactly as written.
        case number(String)
        case bool(Bool)
        case null
    }

    /// One `"name": value` pair.
    public struct Member: Sendable, Hashable {
        /// The member's name, unescaped.
        public var name: String
        /// The 1-based line of the member's name.
        public var line: Int
        /// The 1-based column of the member's name.
        public var column: Int
        /// The member's value.
        public var value: JSONNode
    }

    /// The value.
    public var value: Value
    /// 1-based line and column of the value's first character.
    public var line: Int
    /// 1-based column of the value's first character.
    public var column: Int

    /// The member named `name` (the first, if a document repeats it).
    public subscript(name: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// The object's members in document order; empty for any other value.
    public var members: [Member] { if case .object(let m) = value { return m } else { return [] } }
    /// The array's elements in order; empty for any other value.
    public var elements: [JSONNode] { if case .array(let e) = value { return e } else { return [] } }
    /// The string, unescaped; `nil` for any other value.
    public var string: String? { if case .string(let s) = value { return s } else { return nil } }
    /// The number's text exactly as written; `nil` for any other value.
    public var numberText: String? { if case .number(let n) = value { return n } else { return nil } }
    /// The number as an integer when it is one — JSON Schema's sense, so `5520.0` and `5.52e3`
    /// are `5520` — else `nil`.
    public var integer: Int? {
        guard case .number(let n) = value else { return nil }
        return DecimalNumber.exactInteger(n)
    }
    /// True for an object.
    public var isObject: Bool { if case .object = value { return true } else { return false } }

    /// The JSON type's name, for messages.
    public var typeName: String {
        switch value {
        case .object: return "object"
        case .array: return "array"
        case .string: return "string"
        case .number: return "number"
        case .bool: return "boolean"
        case .null: return "null"
        }
    }

    /// The type's name with its article, for messages: `an object`, `a string`, `null`.
    public var typeNameWithArticle: String {
        switch value {
        case .object, .array: return "an \(typeName)"
        case .null: return "null"
        default: return "a \(typeName)"
        }
    }
}

/// A member name that occurs twice in one object: most parsers keep the last silently.
public struct DuplicateMember: Sendable, Hashable {
    /// The repeated member's name.
    public var name: String
    /// JSON path of the object, e.g. `$.dives[0]`.
    public var path: String
    /// The 1-based line of the repeated name.
    public var line: Int
    /// The 1-based column of the repeated name.
    public var column: Int
    /// The 1-based line where the name first occurs in the object.
    public var firstLine: Int
}

/// Parses JSON text (RFC 8259, UTF-8, an optional byte-order mark) over raw bytes. Errors
/// are ``DiveError``s located by line and column; repeated member names are collected in
/// ``duplicates`` rather than failing the parse.
public struct JSONParser {
    private let bytes: UnsafeRawBufferPointer
    private let file: String
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private var path = JSONPath()
    /// Repeated member names met so far.
    public private(set) var duplicates: [DuplicateMember] = []

    static let maximumDepth = 512

    /// Makes a parser of `bytes` (a leading UTF-8 byte-order mark is skipped); `file` names the file in errors.
    public init(bytes: UnsafeRawBufferPointer, file: String) {
        self.bytes = bytes
        self.file = file
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3; lineStart = 3 }
    }

    /// Reads and parses the file at `path`: its document and the member names it repeats.
    public static func parse(file path: String, displayName: String) throws -> (document: JSONNode, duplicates: [DuplicateMember]) {
        let bytes = try InputFile.contents(of: path, displayName: displayName)
        return try bytes.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw, file: displayName)
            let document = try parser.parseDocument()
            return (document, parser.duplicates)
        }
    }

    /// Where a value lies in the text, to be parsed later (see ``parseDocument(deferring:release:)``).
    struct Mark: Sendable {
        var offset: Int
        var line: Int
        var lineStart: Int
        /// Just past the value's last byte.
        var end: Int
    }

    /// A parser for the value at `mark`, whose path is `path` (for the members it repeats).
    init(bytes: UnsafeRawBufferPointer, file: String, at mark: Mark, path components: [JSONPath.Component]) {
        self.bytes = bytes
        self.file = file
        i = mark.offset
        line = mark.line
        lineStart = mark.lineStart
        for c in components { path.push(c) }
        depth = components.count
    }

    /// Parses the one value the parser was made for (``init(bytes:file:at:path:)``), which must
    /// end where the scan found it ending: else the file changed while it was read.
    mutating func parseValue(endingAt end: Int) throws -> JSONNode {
        let node = try parseValue()
        guard i == end else {
            throw DiveError("io.changed", "the file changed while it was being read; read it again once nothing writes to it", at: SourceLocation(file: file, line: line, column: column))
        }
        return node
    }

    /// Parses the whole text as ``parseDocument()`` does, except that the elements of the
    /// top-level object's array member `deferred` are only scanned for where they lie: the
    /// member reads as an empty array, and the marks let a reader parse one element at a
    /// time. `release` is told how far the text has been read, so that a mapped file's pages
    /// can go back. Elements are checked for their JSON syntax when they are parsed.
    mutating func parseDocument(deferring deferred: String, release: (Int) -> Void) throws -> (document: JSONNode, marks: [Mark]) {
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return (try parseDocument(), []) }
        let l = line, c = column
        var marks: [Mark] = []
        let value = try parseObject(deferring: deferred, marks: &marks, release: release)
        skipSpace()
        guard i == bytes.count else { throw error("json.trailing", "there is more text after the JSON value ends") }
        return (JSONNode(value: value, line: l, column: c), marks)
    }

    /// Parses the whole text as one value.
    public mutating func parseDocument() throws -> JSONNode {
        skipSpace()
        let node = try parseValue()
        skipSpace()
        guard i == bytes.count else { throw error("json.trailing", "there is more text after the JSON value ends") }
        return node
    }

    private var column: Int { i - lineStart + 1 }

    private func error(_ code: String, _ message: String) -> DiveError {
        DiveError(code, message, at: SourceLocation(file: file, line: line, column: column))
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A: i += 1; line += 1; lineStart = i
            default: return
            }
        }
    }

    private mutating func parseValue() throws -> JSONNode {
        guard i < bytes.count else { throw error("json.truncated", "the JSON text ends where a value should be; the file looks truncated") }
        let l = line, c = column
        switch bytes[i] {
        case UInt8(ascii: "{"): return JSONNode(value: try parseObject(), line: l, column: c)
        case UInt8(ascii: "["): return JSONNode(value: try parseArray(), line: l, column: c)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), line: l, column: c)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(value: .bool(true), line: l, column: c)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(value: .bool(false), line: l, column: c)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(value: .null, line: l, column: c)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), line: l, column: c)
        default:
            throw error("json.syntax", "expected a JSON value, found \(describe(bytes[i]))")
        }
    }

    private func describe(_ b: UInt8) -> String {
        b >= 0x21 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x" + String(b, radix: 16)
    }

    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw error("json.truncated", "the JSON text ends inside a literal; the file looks truncated") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] {
            throw error("json.syntax", "expected \(word)")
        }
        i += n
    }

    private mutating func parseObject() throws -> JSONNode.Value {
        var none: [Mark] = []
        return try parseObject(deferring: nil, marks: &none, release: { _ in })
    }

    private mutating func parseObject(deferring deferred: String?, marks: inout [Mark], release: (Int) -> Void) throws -> JSONNode.Value {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("json.too-deep", "the JSON nests deeper than \(Self.maximumDepth) levels") }
        i += 1
        var members: [JSONNode.Member] = []
        var seen: [String: Int] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object([]) }
        while true {
            skipSpace()
            guard i < bytes.count else { throw error("json.truncated", "the JSON text ends inside an object; the file looks truncated") }
            guard bytes[i] == UInt8(ascii: "\"") else { throw error("json.syntax", "expected a member name in double quotes, found \(describe(bytes[i]))") }
            let l = line, c = column
            let name = try parseString()
            skipSpace()
            guard i < bytes.count else { throw error("json.truncated", "the JSON text ends inside an object; the file looks truncated") }
            guard bytes[i] == UInt8(ascii: ":") else { throw error("json.syntax", "expected ':' after the member name \"\(name)\"") }
            i += 1
            skipSpace()
            let value: JSONNode
            if name == deferred, seen[name] == nil, i < bytes.count, bytes[i] == UInt8(ascii: "[") {
                let l = line, c = column
                marks = try scanArray(release: release)
                value = JSONNode(value: .array([]), line: l, column: c)
            } else {
                path.push(.member(name))
                value = try parseValue()
                path.pop()
            }
            if let first = seen[name] {
                duplicates.append(DuplicateMember(name: name, path: path.text, line: l, column: c, firstLine: first))
            } else {
                seen[name] = l
            }
            members.append(JSONNode.Member(name: name, line: l, column: c, value: value))
            skipSpace()
            guard i < bytes.count else { throw error("json.truncated", "the JSON text ends inside an object; the file looks truncated") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("json.syntax", "expected ',' or '}' after a member, found \(describe(bytes[i]))")
        }
    }

    private mutating func parseArray() throws -> JSONNode.Value {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("json.too-deep", "the JSON nests deeper than \(Self.maximumDepth) levels") }
        i += 1
        var elements: [JSONNode] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array([]) }
        while true {
            skipSpace()
            path.push(.index(elements.count))
            elements.append(try parseValue())
            path.pop()
            skipSpace()
            guard i < bytes.count else { throw error("json.truncated", "the JSON text ends inside an array; the file looks truncated") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
            throw error("json.syntax", "expected ',' or ']' after an array element, found \(describe(bytes[i]))")
        }
    }

    /// Where each element of the array at `i` lies, without parsing them.
    private mutating func scanArray(release: (Int) -> Void) throws -> [Mark] {
        i += 1
        var marks: [Mark] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return [] }
        while true {
            skipSpace()
            var mark = Mark(offset: i, line: line, lineStart: lineStart, end: 0)
            try skipValue()
            mark.end = i
            marks.append(mark)
            release(i)
            skipSpace()
            guard i < bytes.count else { throw error("json.truncated", "the JSON text ends inside an array; the file looks truncated") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return marks }
            throw error("json.syntax", "expected ',' or ']' after an array element, found \(describe(bytes[i]))")
        }
    }

    /// The bytes the scan of an array or object stops at (brackets, quotes, line feeds), and
    /// those the scan of a string stops at (its quote, a backslash, a raw line feed); every
    /// other byte is passed over in a tight loop.
    private static let stopsInValue: [Bool] = (0..<256).map { [0x7B, 0x7D, 0x5B, 0x5D, 0x22, 0x0A].contains($0) }
    private static let stopsInString: [Bool] = (0..<256).map { [0x22, 0x5C, 0x0A].contains($0) }

    /// Moves past one value, counting lines: strings and brackets are followed, nothing is
    /// built or checked beyond that (the value is parsed, and checked, later).
    private mutating func skipValue() throws {
        guard i < bytes.count else { throw error("json.truncated", "the JSON text ends where a value should be; the file looks truncated") }
        switch bytes[i] {
        case UInt8(ascii: "{"), UInt8(ascii: "["): break
        case UInt8(ascii: "\""): try skipString(); return
        default: _ = try parseValue(); return
        }
        // The closing brackets expected, innermost last.
        var closers: [UInt8] = []
        let b = bytes, n = b.count
        try Self.stopsInValue.withUnsafeBufferPointer { stops in
            repeat {
                while i < n && !stops[Int(b[i])] { i += 1 }
                guard i < n else {
                    throw error("json.truncated", "the JSON text ends inside an \(closers.last == UInt8(ascii: "}") ? "object" : "array"); the file looks truncated")
                }
                switch b[i] {
                case UInt8(ascii: "{"): closers.append(UInt8(ascii: "}")); i += 1
                case UInt8(ascii: "["): closers.append(UInt8(ascii: "]")); i += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard b[i] == closers.last else {
                        throw error("json.syntax", "found \(describe(b[i])) where \(describe(closers.last!)) closes the \(closers.last == UInt8(ascii: "}") ? "object" : "array")")
                    }
                    closers.removeLast()
                    i += 1
                case UInt8(ascii: "\""): try skipString()
                default: i += 1; line += 1; lineStart = i // a line feed
                }
            } while !closers.isEmpty
        }
    }

    private mutating func skipString() throws {
        i += 1
        let b = bytes, n = b.count
        try Self.stopsInString.withUnsafeBufferPointer { stops in
            while true {
                while i < n && !stops[Int(b[i])] { i += 1 }
                guard i < n else { throw error("json.truncated", "the JSON text ends inside a string; the file looks truncated") }
                switch b[i] {
                case UInt8(ascii: "\""): i += 1; return
                case UInt8(ascii: "\\"): i = min(i + 2, n)
                default: throw error("json.syntax", "a string holds an unescaped control character (a raw line break?)")
                }
            }
        }
    }

    private mutating func parseNumber() throws -> String {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        guard i < bytes.count else { throw error("json.truncated", "the JSON text ends inside a number") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            throw error("json.syntax", "a number needs digits")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw error("json.syntax", "a number needs digits after its decimal point") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw error("json.syntax", "a number needs digits in its exponent") }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    }

    private mutating func parseString() throws -> String {
        i += 1
        var out: [UInt8] = []
        var start = i
        while true {
            guard i < bytes.count else { throw error("json.truncated", "the JSON text ends inside a string; the file looks truncated") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
                i += 1
                break
            }
            if b < 0x20 { throw error("json.syntax", "a string holds an unescaped control character (a raw line break?)") }
            if b == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
                i += 1
                guard i < bytes.count else { throw error("json.truncated", "the JSON text ends inside a string") }
                switch bytes[i] {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") else {
                            throw error("json.syntax", "a \\u escape holds half a surrogate pair")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("json.syntax", "a \\u escape holds half a surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("json.syntax", "a \\u escape holds half a surrogate pair")
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    throw error("json.syntax", "a string holds an unknown escape \\\(describe(bytes[i]))")
                }
                i += 1
                start = i
                continue
            }
            i += 1
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw error("json.encoding", "a string is not valid UTF-8")
        }
        return s
    }

    /// Reads the four hex digits after `\u`, leaving `i` on the last one.
    private mutating func hex4() throws -> UInt32 {
        guard i + 4 < bytes.count else { throw error("json.truncated", "the JSON text ends inside a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            i += 1
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            default: throw error("json.syntax", "a \\u escape needs four hexadecimal digits")
            }
            v = v * 16 + d
        }
        return v
    }
}
