extension SniffInput {
    /// The root element of the XML text at `start` of `bytes` (single-byte text, no byte-order
    /// mark): its local name (a namespace prefix dropped) and its start tag as written. White
    /// space, the declaration, processing instructions, comments and a DOCTYPE are stepped over;
    /// a DOCTYPE's name stands for the root when the bytes end before it (a file with one is
    /// still recognised, and its reader refuses the DOCTYPE with a located error). `nil` for a
    /// name when the text does not open as XML.
    ///
    /// What ``xmlRoot`` holds, for a sniffer that has bytes of its own to look at (the first
    /// entry of a zip archive).
    public static func xmlRoot(_ bytes: [UInt8], from start: Int = 0) -> (name: String?, tag: String?) {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        func find(_ needle: [UInt8], from: Int) -> Int? {
            guard !needle.isEmpty, from >= 0 else { return nil }
            var i = from
            while i + needle.count <= bytes.count {
                if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
                i += 1
            }
            return nil
        }
        let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">")
        var i = start
        var doctypeRoot: String?
        while i < bytes.count {
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i + 1 < bytes.count, bytes[i] == lt else { break }
            if bytes[i + 1] == UInt8(ascii: "?") {
                guard let end = find([UInt8(ascii: "?"), gt], from: i) else { return (nil, nil) }
                i = end + 2
            } else if bytes[i + 1] == UInt8(ascii: "!") {
                if bytes[i...].starts(with: Array("<!--".utf8)) {
                    guard let end = find(Array("-->".utf8), from: i) else { return (nil, nil) }
                    i = end + 3
                } else if bytes[i...].starts(with: Array("<!DOCTYPE".utf8)) {
                    var j = i + 9
                    while j < bytes.count, isSpace(bytes[j]) { j += 1 }
                    var k = j
                    while k < bytes.count, !(isSpace(bytes[k]) || bytes[k] == gt || bytes[k] == UInt8(ascii: "[")) { k += 1 }
                    let name = String(decoding: bytes[j..<k], as: UTF8.self)
                    if !name.isEmpty { doctypeRoot = name }
                    // An internal subset may hold `>`: the root follows its `]>`.
                    if k < bytes.count, bytes[k] == UInt8(ascii: "["), let end = find(Array("]>".utf8), from: k) {
                        i = end + 2
                    } else if let end = find([gt], from: k) {
                        i = end + 1
                    } else {
                        return (doctypeRoot, nil)
                    }
                } else {
                    guard let end = find([gt], from: i) else { return (doctypeRoot, nil) }
                    i = end + 1
                }
            } else {
                var j = i + 1
                while j < bytes.count, !(isSpace(bytes[j]) || bytes[j] == gt || bytes[j] == UInt8(ascii: "/")) { j += 1 }
                var name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
                if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
                guard !name.isEmpty else { return (doctypeRoot, nil) }
                let tagEnd = find([gt], from: j) ?? min(bytes.count, j + 512)
                return (name, String(decoding: bytes[i..<min(tagEnd + 1, bytes.count)], as: UTF8.self))
            }
        }
        return (doctypeRoot, nil)
    }
}
