/// What a reader needs to decide an XML input's encoding when the input may not say: the
/// encoding its declaration names, and whether its bytes are UTF-8 (XML's default). libxml2
/// reads a declared encoding by itself; an undeclared input that is not UTF-8 is a format's
/// own habit (Suunto Dive Manager 3 writes ISO-8859-15 with or without saying so), which that
/// format's reader states as a rule and passes to ``XMLPushParser/init(displayName:handler:lenient:encoding:)``.
package enum XMLEncoding {
    /// The encoding named by the XML declaration that opens `head` (`<?xml version="1.0"
    /// encoding="ISO-8859-15"?>`, a UTF-8 byte-order mark allowed before it), as written;
    /// `nil` when there is no declaration or it names no encoding.
    package static func declared(in head: [UInt8]) -> String? {
        var i = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard head[i...].starts(with: Array("<?xml".utf8)), i + 5 < head.count, isSpace(head[i + 5]) else { return nil }
        i += 5
        // The declaration ends at the first `?>`; its pseudo-attributes hold no `?`.
        var end = i
        while end + 1 < head.count, !(head[end] == UInt8(ascii: "?") && head[end + 1] == UInt8(ascii: ">")) { end += 1 }
        guard end + 1 < head.count else { return nil }
        let declaration = Array(head[i..<end])
        let key = Array("encoding".utf8)
        var k = 0
        while k + key.count <= declaration.count {
            if declaration[k..<(k + key.count)].elementsEqual(key), k == 0 || isSpace(declaration[k - 1]) {
                var j = k + key.count
                while j < declaration.count, isSpace(declaration[j]) { j += 1 }
                guard j < declaration.count, declaration[j] == UInt8(ascii: "=") else { return nil }
                j += 1
                while j < declaration.count, isSpace(declaration[j]) { j += 1 }
                guard j < declaration.count, declaration[j] == UInt8(ascii: "\"") || declaration[j] == UInt8(ascii: "'") else { return nil }
                let quote = declaration[j]
                guard let close = declaration[(j + 1)...].firstIndex(of: quote) else { return nil }
                let name = String(decoding: declaration[(j + 1)..<close], as: UTF8.self)
                return name.isEmpty ? nil : name
            }
            k += 1
        }
        return nil
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Checks that bytes fed in chunks of any size are well-formed UTF-8 (RFC 3629: no overlong
    /// forms, no surrogates, nothing past U+10FFFF), a sequence split between chunks included.
    package struct UTF8Check {
        package init() {}
        /// Continuation bytes still owed by the sequence being read.
        private var owed = 0
        /// The range the next continuation byte must fall in.
        private var low: UInt8 = 0x80, high: UInt8 = 0xBF
        /// False from the first byte that breaks UTF-8 on.
        package private(set) var isValid = true
        /// Bytes checked before the first invalid one.
        package private(set) var validBytes = 0

        package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
            guard isValid else { return }
            for b in bytes {
                if owed > 0 {
                    guard b >= low && b <= high else { isValid = false; return }
                    owed -= 1
                    low = 0x80; high = 0xBF
                } else {
                    switch b {
                    case 0x00...0x7F: break
                    case 0xC2...0xDF: owed = 1
                    case 0xE0: owed = 2; low = 0xA0
                    case 0xE1...0xEC, 0xEE, 0xEF: owed = 2
                    case 0xED: owed = 2; high = 0x9F
                    case 0xF0: owed = 3; low = 0x90
                    case 0xF1...0xF3: owed = 3
                    case 0xF4: owed = 3; high = 0x8F
                    default: isValid = false; return
                    }
                }
                validBytes += 1
            }
        }

        /// True when everything fed was UTF-8 and no sequence is left unfinished.
        package var isCompleteAndValid: Bool { isValid && owed == 0 }
    }
}
