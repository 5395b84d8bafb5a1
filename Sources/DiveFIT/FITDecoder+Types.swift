import DiveCore

/// A FIT base type (the low five bits of a field definition's base type byte name it; bit 7
/// says a multi-byte type follows the definition's byte order).
public enum FITBaseType: UInt8, Sendable, Hashable, CaseIterable {
    case enumeration = 0x00, sint8 = 0x01, uint8 = 0x02, sint16 = 0x83, uint16 = 0x84
    case sint32 = 0x85, uint32 = 0x86, string = 0x07, float32 = 0x88, float64 = 0x89
    case uint8z = 0x0A, uint16z = 0x8B, uint32z = 0x8C, byte = 0x0D
    case sint64 = 0x8E, uint64 = 0x8F, uint64z = 0x90

    /// The base type a definition's byte names, by its base type number (bits 0–4); nil for a
    /// number the protocol does not define.
    public init?(definitionByte b: UInt8) {
        let number = Int(b & 0x1F)
        guard number < Self.byNumber.count else { return nil }
        self = Self.byNumber[number]
    }

    private static let byNumber: [FITBaseType] = [
        .enumeration, .sint8, .uint8, .sint16, .uint16, .sint32, .uint32, .string, .float32, .float64,
        .uint8z, .uint16z, .uint32z, .byte, .sint64, .uint64, .uint64z,
    ]

    /// Bytes of one element.
    public var size: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .string, .uint8z, .byte: 1
        case .sint16, .uint16, .uint16z: 2
        case .sint32, .uint32, .float32, .uint32z: 4
        case .float64, .sint64, .uint64, .uint64z: 8
        }
    }

    /// The element's invalid sentinel as an unsigned bit pattern of `size` bytes (for the
    /// floats, all bits set).
    public var invalidPattern: UInt64 {
        switch self {
        case .enumeration, .uint8, .byte: 0xFF
        case .sint8: 0x7F
        case .sint16: 0x7FFF
        case .uint16: 0xFFFF
        case .sint32: 0x7FFF_FFFF
        case .uint32, .float32: 0xFFFF_FFFF
        case .float64, .uint64: 0xFFFF_FFFF_FFFF_FFFF
        case .sint64: 0x7FFF_FFFF_FFFF_FFFF
        case .string, .uint8z, .uint16z, .uint32z, .uint64z: 0
        }
    }
}

/// One decoded element of a field.
public enum FITValue: Sendable, Hashable {
    case uint(UInt64)
    case sint(Int64)
    case float(Double)
    case string(String)

    /// The value as an unsigned integer; `nil` for a negative, a float or a string.
    public var uintValue: UInt64? {
        switch self {
        case .uint(let v): v
        case .sint(let v): v >= 0 ? UInt64(v) : nil
        default: nil
        }
    }

    /// The value as a signed integer; `nil` for one past `Int64.max`, a float or a string.
    public var intValue: Int64? {
        switch self {
        case .sint(let v): v
        case .uint(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        default: nil
        }
    }

    /// The value as a number, whatever its integer or float type; `nil` for a string.
    public var doubleValue: Double? {
        switch self {
        case .uint(let v): Double(v)
        case .sint(let v): Double(v)
        case .float(let v): v
        case .string: nil
        }
    }

    /// The text of a string value; `nil` for a number.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
}

/// One field of a data message: its number and base type from the definition, the raw bytes,
/// and the decoded elements (an element equal to its type's invalid sentinel is nil).
public struct FITField: Sendable, Hashable {
    /// The field definition number within its message (253 is the timestamp).
    public var number: UInt8
    /// The base type the definition names; nil when its number is not one the protocol
    /// defines (the field is then decoded as `byte`s).
    public var baseType: FITBaseType?
    /// The base type byte exactly as the definition gives it.
    public var baseTypeByte: UInt8
    /// True when the message's definition says big-endian (its architecture byte is 1).
    public var bigEndian: Bool
    /// The field's bytes exactly as in the input.
    public var bytes: [UInt8]
    /// The elements: one for a scalar, several for an array. A `string` field is one element
    /// (the text up to its first NUL; nil when empty). A `byte` field is invalid only when
    /// every byte is 0xFF. A field whose size is not a whole number of elements is decoded
    /// as `byte`s.
    public var values: [FITValue?]

    /// The single value of a scalar field (the first element of an array).
    public var value: FITValue? { values.first ?? nil }
    /// True when the field holds more than one element.
    public var isArray: Bool { values.count > 1 }

    /// Makes a field from its definition and bytes, decoding its elements.
    public init(number: UInt8, baseTypeByte: UInt8, bigEndian: Bool, bytes: [UInt8]) {
        self.number = number
        self.baseTypeByte = baseTypeByte
        self.baseType = FITBaseType(definitionByte: baseTypeByte)
        self.bigEndian = bigEndian
        self.bytes = bytes
        self.values = FITField.decode(bytes, as: baseType, bigEndian: bigEndian)
    }

    static func decode(_ bytes: [UInt8], as type: FITBaseType?, bigEndian: Bool) -> [FITValue?] {
        var type = type ?? .byte
        if bytes.isEmpty { return [] }
        if type == .string {
            let text = bytes.prefix { $0 != 0 }
            if text.isEmpty { return [nil] }
            return [.string(String(decoding: text, as: UTF8.self))]
        }
        if bytes.count % type.size != 0 { type = .byte }
        if type == .byte {
            if bytes.allSatisfy({ $0 == 0xFF }) { return bytes.map { _ in nil } }
            return bytes.map { .uint(UInt64($0)) }
        }
        let size = type.size
        var out: [FITValue?] = []
        out.reserveCapacity(bytes.count / size)
        var i = 0
        while i < bytes.count {
            var raw: UInt64 = 0
            for k in 0..<size {
                let b = UInt64(bytes[bigEndian ? i + k : i + size - 1 - k])
                raw = raw << 8 | b
            }
            i += size
            if raw == type.invalidPattern { out.append(nil); continue }
            switch type {
            case .sint8: out.append(.sint(Int64(Int8(truncatingIfNeeded: raw))))
            case .sint16: out.append(.sint(Int64(Int16(truncatingIfNeeded: raw))))
            case .sint32: out.append(.sint(Int64(Int32(truncatingIfNeeded: raw))))
            case .sint64: out.append(.sint(Int64(bitPattern: raw)))
            case .float32:
                let f = Float(bitPattern: UInt32(truncatingIfNeeded: raw))
                out.append(f.isNaN ? nil : .float(Double(f)))
            case .float64:
                let d = Double(bitPattern: raw)
                out.append(d.isNaN ? nil : .float(d))
            default: out.append(.uint(raw))
            }
        }
        return out
    }
}

/// A developer data field of a data message, kept as its raw bytes: what they mean is given by
/// `field_description` messages (global 206), which the layer above reads.
public struct FITDeveloperField: Sendable, Hashable {
    /// The developer field's number, as its `field_description` defines it.
    public var number: UInt8
    /// Which developer's fields these are: the `developer_data_index` of its definitions.
    public var developerIndex: UInt8
    /// The field's bytes exactly as in the input.
    public var bytes: [UInt8]
}

/// One data message.
public struct FITMessage: Sendable, Hashable {
    /// The global message number (0 `file_id`, 20 `record`, 18 `session`, …).
    public var globalNumber: UInt16
    /// The local message type (0–15) the message was written under.
    public var localType: UInt8
    /// The message's fields, in definition order.
    public var fields: [FITField]
    /// The message's developer data fields, in definition order.
    public var developerFields: [FITDeveloperField]
    /// Byte offset of the message's record header in the input.
    public var offset: Int
    /// 0-based position of the message among the data messages of the input.
    public var index: Int
    /// 0-based position of the FIT file this message belongs to in a chain of files.
    public var fileIndex: Int
    /// True when the record header was a compressed-timestamp header.
    public var hasCompressedTimestamp: Bool
    /// The message's timestamp (seconds since 1989-12-31 00:00 UTC): field 253 when the
    /// message has it, else the time a compressed-timestamp header resolves to; nil otherwise.
    public var timestamp: UInt32?

    /// The first field numbered `number`.
    public func field(_ number: UInt8) -> FITField? { fields.first { $0.number == number } }
    /// The single value of field `number`, nil when absent or invalid.
    public func value(_ number: UInt8) -> FITValue? { field(number)?.value }
}

/// One data message as the decoder walks past it: what it is and where, its fields left in
/// the input (``FITDecoder/value(_:)`` reads them until the next frame).
public struct FITFrame: Sendable, Hashable {
    /// The global message number (0 `file_id`, 20 `record`, 18 `session`, …).
    public var globalNumber: UInt16
    /// The local message type (0–15) the message was written under.
    public var localType: UInt8
    /// Byte offset of the message's record header in the input.
    public var offset: Int
    /// 0-based position among the input's data messages.
    public var index: Int
    /// 0-based position of its FIT file in a chain.
    public var fileIndex: Int
    /// True when the record header was a compressed-timestamp header.
    public var hasCompressedTimestamp: Bool
    /// Field 253, else the time a compressed-timestamp header resolves to.
    public var timestamp: UInt32?
}

/// The header of one FIT file.
public struct FITFileHeader: Sendable, Hashable {
    /// Byte offset of the header in the input (non-zero for the second file of a chain).
    public var offset: Int
    /// The header's length in bytes: 12, or 14 with a header CRC.
    public var headerSize: Int
    /// The protocol version byte: major version in the high nibble, minor in the low (`0x20` is 2.0).
    public var protocolVersion: UInt8
    /// The profile version number as the header gives it, unscaled.
    public var profileVersion: UInt16
    /// Bytes of records after the header, before the 2-byte file CRC.
    public var dataSize: Int
    /// The header CRC, when the header is 14 bytes long (0 means none was computed).
    public var headerCRC: UInt16?
}

/// FIT's CRC-16 (the nibble table of the protocol).
public struct FITCRC: Sendable {
    /// The CRC of the bytes given so far.
    public private(set) var value: UInt16 = 0
    /// Makes a CRC of no bytes (0).
    public init() {}

    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    /// Adds one byte to the CRC.
    public mutating func update(_ byte: UInt8) {
        var crc = value
        var tmp = Self.table[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ Self.table[Int(byte & 0xF)]
        tmp = Self.table[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ Self.table[Int((byte >> 4) & 0xF)]
        value = crc
    }

    /// Adds these bytes to the CRC, in order.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { for b in bytes { update(b) } }

    /// The CRC of these bytes.
    public static func compute<S: Sequence>(_ bytes: S) -> UInt16 where S.Element == UInt8 {
        var crc = FITCRC()
        for b in bytes { crc.update(b) }
        return crc.value
    }
}
