/// libxml2's interned names (element or attribute) to a small code, cached by address. libxml2
/// interns every name in its parser dictionary, so the pointer identifies the name: one lookup
/// by text per distinct name, then a hit in a small cache per element. libxml2 packs names byte
/// by byte, so neighbouring short names differ only in their low address bits: the slot is a
/// multiplicative hash of the whole address, and a name whose slot is taken goes to the next.
/// Names are resolved lowercased (readers match names case-insensitively).
package struct NameTable<Code> {
    @usableFromInline var keys = [UInt](repeating: 0, count: 256)
    @usableFromInline var values: [Code]
    @usableFromInline let resolve: (String) -> Code

    /// - Parameter resolve: the code of a lowercased name.
    package init(default value: Code, resolve: @escaping (String) -> Code) {
        values = [Code](repeating: value, count: 256)
        self.resolve = resolve
    }

    @inlinable @inline(__always) package mutating func code(_ name: UnsafePointer<UInt8>) -> Code {
        let key = UInt(bitPattern: name)
        let first = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if keys[first] == key { return values[first] }
        let second = (first + 1) & 255
        if keys[second] == key { return values[second] }
        return miss(name, key: key, first: first, second: second)
    }

    @usableFromInline mutating func miss(_ name: UnsafePointer<UInt8>, key: UInt, first: Int, second: Int) -> Code {
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
