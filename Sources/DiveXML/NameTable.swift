/// libxml2's interned names (element or attribute) to a small code, cached by address. libxml2
/// interns every name in its parser dictionary, so the pointer identifies the name: one lookup
/// by text per distinct name, then a hit in a small cache per element. libxml2 packs names byte
/// by byte, so neighbouring short names differ only in their low address bits: the slot is a
/// multiplicative hash of the whole address, and a name whose slot is taken goes to the next.
/// Names are resolved lowercased (readers match names case-insensitively). The code is a byte (a
/// reader's enum's raw value): a generic table was called unspecialised across the module
/// boundary, 1 % of a conversion.
@frozen package struct NameTable {
    @usableFromInline var keys = [UInt](repeating: 0, count: 256)
    @usableFromInline var values = [UInt8](repeating: 0, count: 256)
    @usableFromInline let resolve: (String) -> UInt8

    /// - Parameter resolve: the code of a lowercased name.
    package init(resolve: @escaping (String) -> UInt8) {
        self.resolve = resolve
    }

    @inlinable @inline(__always) package mutating func code(_ name: UnsafePointer<UInt8>) -> UInt8 {
        let key = UInt(bitPattern: name)
        let first = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if keys[first] == key { return values[first] }
        let second = (first + 1) & 255
        if keys[second] == key { return values[second] }
        return miss(name, key: key, first: first, second: second)
    }

    @usableFromInline mutating func miss(_ name: UnsafePointer<UInt8>, key: UInt, first: Int, second: Int) -> UInt8 {
        var bytes: [UInt8] = []
        var p = name
        while p.pointee != 0 {
            let b = p.pointee
            bytes.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
            p += 1
        }
        let value = resolve(String(decoding: bytes, as: UTF8.self))
        let slot = keys[first] == 0 ? first : second
        keys[slot] = key
        values[slot] = value
        return value
    }
}
