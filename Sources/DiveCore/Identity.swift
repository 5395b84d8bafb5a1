/// Stable record identities (DiveJSON `docs/converting.md`, *Identity*): a UUID the source
/// already holds is reused, otherwise a UUIDv5 over the format's namespace and
/// `"{kind}:{source id}"`.
public enum Identity {
    /// `uuid5(NAMESPACE_URL, "https://divejson.org/ns/uddf")`.
    public static let uddfNamespace = "1b85a949-d5f7-5d67-9d04-dcc78342f907"
    /// RFC 4122's URL namespace.
    public static let urlNamespace = "6ba7b811-9dad-11d1-80b4-00c04fd430c8"

    /// The identity of a record of `kind` with source id `sourceID` in a format whose
    /// namespace is `namespace`. A source id that is a UUID, or a short alphabetic prefix
    /// followed by one (`dive-019fec36-…`), is reused as that UUID.
    public static func uuid(kind: String, sourceID: String, namespace: String) -> String {
        if let embedded = embeddedUUID(sourceID) { return embedded }
        return uuid5(namespace: namespace, name: "\(kind):\(sourceID)")
    }

    /// The canonical lowercase UUID inside `id`, when `id` is one or is a short alphabetic
    /// prefix (with an optional `-` or `_`) followed by one.
    public static func embeddedUUID(_ id: String) -> String? {
        let bytes = Array(id.utf8)
        guard bytes.count >= 36 else { return nil }
        let prefix = bytes[..<(bytes.count - 36)]
        let tail = Array(bytes[(bytes.count - 36)...])
        guard isCanonicalUUID(tail) else { return nil }
        var letters = prefix[...]
        if let last = letters.last, last == UInt8(ascii: "-") || last == UInt8(ascii: "_") { letters = letters.dropLast() }
        guard letters.count <= 16,
              letters.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) else { return nil }
        guard prefix.isEmpty || !letters.isEmpty else { return nil }
        return String(decoding: tail, as: UTF8.self).lowercased()
    }

    /// True when the bytes are a UUID in its 36-character text form (8-4-4-4-12 hex digits, either case).
    public static func isCanonicalUUID(_ b: [UInt8]) -> Bool {
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return false }
            } else if !((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)) {
                return false
            }
        }
        return true
    }

    /// RFC 4122 version-5 UUID (SHA-1) of `name` in `namespace`.
    public static func uuid5(namespace: String, name: String) -> String {
        var data = uuidBytes(namespace)
        data.append(contentsOf: Array(name.utf8))
        var hash = Array(SHA1.digest(data).prefix(16))
        hash[6] = (hash[6] & 0x0F) | 0x50
        hash[8] = (hash[8] & 0x3F) | 0x80
        return format(hash)
    }

    static func uuidBytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var nibble: UInt8?
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case 0x30...0x39: v = c - 0x30
            case 0x61...0x66: v = c - 0x61 + 10
            case 0x41...0x46: v = c - 0x41 + 10
            default: continue
            }
            if let n = nibble { out.append(n << 4 | v); nibble = nil } else { nibble = v }
        }
        return out
    }

    static func format(_ b: [UInt8]) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var s: [UInt8] = []
        s.reserveCapacity(36)
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { s.append(UInt8(ascii: "-")) }
            s.append(hex[Int(byte >> 4)]); s.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: s, as: UTF8.self)
    }
}

/// SHA-1 (FIPS 180-4), used only for RFC 4122 name-based UUIDs.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0)
        var m = message
        let bitLength = UInt64(message.count) * 8
        m.append(0x80)
        while m.count % 64 != 56 { m.append(0) }
        for i in (0..<8).reversed() { m.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: m.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] = UInt32(m[j]) << 24 | UInt32(m[j + 1]) << 16 | UInt32(m[j + 2]) << 8 | UInt32(m[j + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = h
            for i in 0..<80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A827999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC
                default: f = b ^ c ^ d; k = 0xCA62C1D6
                }
                let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                e = d; d = c; c = b << 30 | b >> 2; b = a; a = t
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
        var out: [UInt8] = []
        for v in [h.0, h.1, h.2, h.3, h.4] {
            out += [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
        }
        return out
    }
}
