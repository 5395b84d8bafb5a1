import DiveCore

/// The low-level reader of the Garmin FIT binary protocol: it walks the file front to back
/// and hands out its data messages one at a time (``next()``), never holding more than the
/// message it returns and the definitions in force. It checks each file header (and its CRC
/// when present) and the CRC at the end of each file, reads chained files (several FIT files
/// back to back) in sequence, honours each definition's byte order, keeps developer data
/// fields as raw bytes, and resolves compressed-timestamp headers against the last full
/// timestamp (field 253).
///
/// Errors are `DiveError`s located at a byte offset (`SourceLocation.path` is `byte N`):
/// `fit.header` (not a FIT file header), `fit.crc` (header or file CRC mismatch),
/// `fit.truncated` (the input ends before the file's data and CRC do), `fit.bad-definition`
/// (a data message with no definition for its local type, a definition that is malformed, or
/// a message that runs past the data).
public final class FITDecoder {
    /// The input as the user named it, for errors.
    public let displayName: String
    /// The header of the FIT file being read (of the last one, after the end).
    public private(set) var header: FITFileHeader?
    /// How many FIT file headers have been read so far.
    public private(set) var fileCount = 0

    private let bytes: UnsafeRawBufferPointer
    private let mapped: MappedFile?
    private let owned: UnsafeMutableRawBufferPointer?

    @exclusivity(unchecked) private var pos = 0
    private var inFile = false
    @exclusivity(unchecked) private var dataEnd = 0
    @exclusivity(unchecked) private var crc = FITCRC()
    private var definitions = [Definition?](repeating: nil, count: 16)
    private var lastTimestamp: UInt32?
    private var messageIndex = 0
    private var releasedUpTo = 0

    struct FieldDefinition {
        var number: UInt8
        var size: Int
        var baseType: UInt8
    }

    struct DeveloperFieldDefinition {
        var number: UInt8
        var size: Int
        var developerIndex: UInt8
    }

    /// A class, so that making it the current frame's definition copies one reference rather
    /// than four arrays (measured: a third of a 50 MB file's read time went to those copies).
    final class Definition {
        let globalNumber: UInt16
        let bigEndian: Bool
        let fields: [FieldDefinition]
        let developerFields: [DeveloperFieldDefinition]
        let dataSize: Int
        /// Each field's offset from the first data byte.
        let offsets: [Int]
        /// Where field 253 (`timestamp`) sits, when it is a 4-byte integer, and whether 0 is its
        /// invalid value (`uint32z`).
        let timestampOffset: Int?
        let timestampIsZ: Bool
        /// The slot of each field number (`fieldSlot[n]` is an index into `fields`, or -1).
        let fieldSlot: [Int16]

        init(globalNumber: UInt16, bigEndian: Bool, fields: [FieldDefinition], developerFields: [DeveloperFieldDefinition], dataSize: Int) {
            self.globalNumber = globalNumber; self.bigEndian = bigEndian; self.fields = fields
            self.developerFields = developerFields; self.dataSize = dataSize
            var offsets: [Int] = [], slots = [Int16](repeating: -1, count: 256)
            var timestamp: Int?, z = false
            var offset = 0
            for (k, f) in fields.enumerated() {
                offsets.append(offset)
                if slots[Int(f.number)] < 0 { slots[Int(f.number)] = Int16(k) }
                if f.number == 253, f.size == 4, timestamp == nil,
                   let t = FITBaseType(definitionByte: f.baseType), t == .uint32 || t == .uint32z || t == .sint32 {
                    timestamp = offset
                    z = t == .uint32z
                }
                offset += f.size
            }
            self.offsets = offsets; fieldSlot = slots; timestampOffset = timestamp; timestampIsZ = z
        }
    }

    /// Whether the file CRC at the end of each file is checked. When it is not fatal, a
    /// mismatch is recorded in ``crcMismatches`` and the data is read on.
    public var crcMismatchIsFatal = true
    /// Whether CRCs are computed at all (a first pass over a file already checked can skip it).
    public var verifiesCRC = true
    /// File CRC mismatches met when ``crcMismatchIsFatal`` is false: the error each would have been.
    public private(set) var crcMismatches: [DiveError] = []

    @exclusivity(unchecked) private var current: Definition?
    @exclusivity(unchecked) private var currentStart = 0
    private var currentFrame: FITFrame?

    /// Reads the file at `path` (mapped; pages already read are handed back as it goes).
    public init(path: String, displayName: String? = nil) throws {
        self.displayName = displayName ?? path
        let file = try MappedFile(path: path, displayName: self.displayName)
        mapped = file
        owned = nil
        bytes = file.bytes
    }

    /// Reads `data`, e.g. bytes built by a test.
    public init(bytes data: [UInt8], displayName: String = "<input>") {
        self.displayName = displayName
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 8)
        buffer.copyBytes(from: data)
        owned = buffer
        mapped = nil
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<data.count])
    }

    deinit { owned?.deallocate() }

    /// The input's length in bytes.
    public var inputSize: Int { bytes.count }

    /// Where a finding at byte `offset` is.
    public func location(atByte offset: Int) -> SourceLocation {
        SourceLocation(file: displayName, path: "byte \(offset)")
    }

    private func fail(_ code: String, _ message: String, at offset: Int) -> DiveError {
        DiveError(code, message, at: location(atByte: offset))
    }

    /// The next data message, fully decoded; nil after the last file's CRC.
    public func next() throws -> FITMessage? {
        guard try nextFrame() != nil else { return nil }
        return currentMessage()
    }

    /// The next data message as a frame: its number, place and time, with its fields read on
    /// demand from the input (``value(_:)``, ``currentMessage()``) — no allocation per message.
    /// The frame's fields can be read until the next call.
    public func nextFrame() throws -> FITFrame? {
        while true {
            if !inFile {
                if pos == bytes.count {
                    if fileCount == 0 { throw fail("fit.truncated", "the file is empty", at: 0) }
                    current = nil
                    return nil
                }
                try readHeader()
                continue
            }
            if pos == dataEnd {
                try checkFileCRC()
                continue
            }
            guard pos < bytes.count else {
                throw fail("fit.truncated", "the file ends after \(bytes.count) bytes, where its header promises \(dataEnd - pos) more and a CRC: it looks cut short", at: pos)
            }
            let start = pos
            let recordHeader = bytes[pos]
            if recordHeader & 0x80 == 0, recordHeader & 0x40 != 0 {
                try readDefinition(at: start, header: recordHeader)
                continue
            }
            let frame = try readData(at: start, header: recordHeader)
            if let mapped, start - releasedUpTo >= 1 << 20 { mapped.release(before: start); releasedUpTo = start }
            return frame
        }
    }

    // MARK: - The current frame's fields

    /// The field numbers the current frame's definition lists, in order.
    public var currentFieldNumbers: [UInt8] { current?.fields.map(\.number) ?? [] }

    /// Whether the current frame carries field `number` with a valid (non-sentinel) value.
    public func has(_ number: UInt8) -> Bool {
        guard let d = current else { return false }
        let slot = Int(d.fieldSlot[Int(number)])
        guard slot >= 0 else { return false }
        return isValid(slot: slot, in: d)
    }

    /// Whether field slot `slot` of the current frame holds a valid value.
    func isValid(slot: Int, in d: Definition) -> Bool {
        let f = d.fields[slot]
        let start = currentStart + d.offsets[slot]
        guard let type = FITBaseType(definitionByte: f.baseType), type != .byte, type != .string,
              f.size == type.size else {
            // Arrays, strings and bytes: decode the general way.
            let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + f.size)])
            return FITField.decode([UInt8](raw), as: FITBaseType(definitionByte: f.baseType), bigEndian: d.bigEndian)
                .contains { $0 != nil }
        }
        let raw = readRaw(start, size: f.size, bigEndian: d.bigEndian)
        if raw == type.invalidPattern { return false }
        if type == .float32 { return !Float(bitPattern: UInt32(truncatingIfNeeded: raw)).isNaN }
        if type == .float64 { return !Double(bitPattern: raw).isNaN }
        return true
    }

    /// The scalar value of field `number` of the current frame, decoded by its base type; nil
    /// when the frame has no such field or its value is the invalid sentinel. An array field
    /// gives its first element.
    public func value(_ number: UInt8) -> FITValue? {
        guard let d = current else { return nil }
        let slot = Int(d.fieldSlot[Int(number)])
        guard slot >= 0 else { return nil }
        let f = d.fields[slot]
        let start = currentStart + d.offsets[slot]
        if let type = FITBaseType(definitionByte: f.baseType), type != .byte, type != .string, f.size == type.size {
            let raw = readRaw(start, size: f.size, bigEndian: d.bigEndian)
            if raw == type.invalidPattern { return nil }
            switch type {
            case .sint8: return .sint(Int64(Int8(truncatingIfNeeded: raw)))
            case .sint16: return .sint(Int64(Int16(truncatingIfNeeded: raw)))
            case .sint32: return .sint(Int64(Int32(truncatingIfNeeded: raw)))
            case .sint64: return .sint(Int64(bitPattern: raw))
            case .float32:
                let v = Float(bitPattern: UInt32(truncatingIfNeeded: raw))
                return v.isNaN ? nil : .float(Double(v))
            case .float64:
                let v = Double(bitPattern: raw)
                return v.isNaN ? nil : .float(v)
            default: return .uint(raw)
            }
        }
        let raw = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<(start + f.size)]))
        return FITField(number: f.number, baseTypeByte: f.baseType, bigEndian: d.bigEndian, bytes: raw).value
    }

    /// Calls `body` with the number of every field of the current frame that holds a valid value.
    public func forEachValidField(_ body: (UInt8) -> Void) {
        guard let d = current else { return }
        for slot in d.fields.indices where isValid(slot: slot, in: d) { body(d.fields[slot].number) }
    }

    /// The current frame fully decoded.
    public func currentMessage() -> FITMessage? {
        guard let d = current, let frame = currentFrame else { return nil }
        var fields: [FITField] = []
        fields.reserveCapacity(d.fields.count)
        for (k, f) in d.fields.enumerated() {
            let start = currentStart + d.offsets[k]
            let raw = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<(start + f.size)]))
            fields.append(FITField(number: f.number, baseTypeByte: f.baseType, bigEndian: d.bigEndian, bytes: raw))
        }
        var developerFields: [FITDeveloperField] = []
        var cursor = currentStart + (d.offsets.last.map { $0 + d.fields[d.fields.count - 1].size } ?? 0)
        for f in d.developerFields {
            let raw = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[cursor..<(cursor + f.size)]))
            developerFields.append(FITDeveloperField(number: f.number, developerIndex: f.developerIndex, bytes: raw))
            cursor += f.size
        }
        return FITMessage(globalNumber: frame.globalNumber, localType: frame.localType, fields: fields,
                          developerFields: developerFields, offset: frame.offset, index: frame.index,
                          fileIndex: frame.fileIndex, hasCompressedTimestamp: frame.hasCompressedTimestamp,
                          timestamp: frame.timestamp)
    }

    /// The developer fields of the current frame's definition: (number, developer index, size).
    public var currentDeveloperFields: [(number: UInt8, developerIndex: UInt8)] {
        current?.developerFields.map { ($0.number, $0.developerIndex) } ?? []
    }

    private func readRaw(_ start: Int, size: Int, bigEndian: Bool) -> UInt64 {
        var raw: UInt64 = 0
        if bigEndian {
            for k in 0..<size { raw = raw << 8 | UInt64(bytes[start + k]) }
        } else {
            var k = size - 1
            while k >= 0 { raw = raw << 8 | UInt64(bytes[start + k]); k -= 1 }
        }
        return raw
    }

    // MARK: - File structure

    private func readHeader() throws {
        let start = pos
        let remaining = bytes.count - start
        guard remaining >= 1 else { throw fail("fit.truncated", "the file ends before its header", at: start) }
        let size = Int(bytes[start])
        if remaining >= 12, size >= 12 {
            guard bytes[start + 8] == 0x2E, bytes[start + 9] == 0x46, bytes[start + 10] == 0x49, bytes[start + 11] == 0x54 else {
                throw fail("fit.header", "the file has no \".FIT\" signature where a FIT file has one: it is not a FIT file", at: start)
            }
        } else if remaining < 12 {
            throw fail(fileCount == 0 ? "fit.truncated" : "fit.header",
                       fileCount == 0 ? "the file ends after \(bytes.count) bytes, inside its header: it looks cut short" : "\(remaining) bytes after the end of the FIT data are not a FIT header",
                       at: start)
        } else {
            throw fail("fit.header", "a FIT header is at least 12 bytes, this one says \(size)", at: start)
        }
        guard remaining >= size else { throw fail("fit.truncated", "the file ends after \(bytes.count) bytes, inside its header: it looks cut short", at: start) }
        let dataSize = Int(u32le(start + 4))
        var headerCRC: UInt16?
        if size >= 14 {
            let stored = u16le(start + 12)
            headerCRC = stored
            if stored != 0 {
                let computed = FITCRC.compute(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + 12)]))
                if computed != stored {
                    throw fail("fit.crc", "the header's checksum is \(hex(stored)) and its bytes give \(hex(computed)): the header is damaged", at: start + 12)
                }
            }
        }
        header = FITFileHeader(offset: start, headerSize: size, protocolVersion: bytes[start + 1],
                               profileVersion: u16le(start + 2), dataSize: dataSize, headerCRC: headerCRC)
        crc = FITCRC()
        if verifiesCRC { crc.update(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + size)])) }
        pos = start + size
        dataEnd = pos + dataSize
        definitions = [Definition?](repeating: nil, count: 16)
        lastTimestamp = nil
        inFile = true
        fileCount += 1
    }

    private func checkFileCRC() throws {
        guard dataEnd + 2 <= bytes.count else {
            throw fail("fit.truncated", "the file ends after \(bytes.count) bytes, before the CRC that closes its data: it looks cut short", at: dataEnd)
        }
        let stored = u16le(dataEnd)
        if verifiesCRC, stored != crc.value {
            let error = fail("fit.crc", "the file's checksum is \(hex(stored)) and its bytes give \(hex(crc.value)): the file was damaged in transfer or storage, and values read from it may be wrong", at: dataEnd)
            if crcMismatchIsFatal { throw error }
            crcMismatches.append(error)
        }
        pos = dataEnd + 2
        inFile = false
    }

    /// Checks that `count` bytes from `start` lie inside the data; the message begins at `message`.
    private func need(_ count: Int, from start: Int, message: Int) throws {
        let end = start + count
        if end > dataEnd {
            if end > bytes.count, dataEnd > bytes.count {
                throw fail("fit.truncated", "the file ends after \(bytes.count) bytes, inside a message that begins here: it looks cut short", at: message)
            }
            throw fail("fit.bad-definition", "the message that begins here runs \(end - dataEnd) bytes past the end of the data its header declares: its definition and its data disagree", at: message)
        }
        if end > bytes.count { throw fail("fit.truncated", "the file ends after \(bytes.count) bytes, inside a message that begins here: it looks cut short", at: message) }
    }

    private func consume(to end: Int) {
        if verifiesCRC { crc.update(UnsafeRawBufferPointer(rebasing: bytes[pos..<end])) }
        pos = end
    }

    // MARK: - Records

    private func readDefinition(at start: Int, header recordHeader: UInt8) throws {
        try need(6, from: start, message: start)
        let architecture = bytes[start + 2]
        guard architecture <= 1 else {
            throw fail("fit.bad-definition", "the definition's architecture byte is \(architecture), not 0 or 1", at: start)
        }
        let bigEndian = architecture == 1
        let global = bigEndian ? UInt16(bytes[start + 3]) << 8 | UInt16(bytes[start + 4]) : u16le(start + 3)
        let fieldCount = Int(bytes[start + 5])
        var cursor = start + 6
        try need(fieldCount * 3, from: cursor, message: start)
        var fields: [FieldDefinition] = []
        fields.reserveCapacity(fieldCount)
        var dataSize = 0
        for _ in 0..<fieldCount {
            let f = FieldDefinition(number: bytes[cursor], size: Int(bytes[cursor + 1]), baseType: bytes[cursor + 2])
            dataSize += f.size
            fields.append(f)
            cursor += 3
        }
        var developerFields: [DeveloperFieldDefinition] = []
        if recordHeader & 0x20 != 0 {
            try need(1, from: cursor, message: start)
            let count = Int(bytes[cursor])
            cursor += 1
            try need(count * 3, from: cursor, message: start)
            for _ in 0..<count {
                let f = DeveloperFieldDefinition(number: bytes[cursor], size: Int(bytes[cursor + 1]), developerIndex: bytes[cursor + 2])
                dataSize += f.size
                developerFields.append(f)
                cursor += 3
            }
        }
        let definition = Definition(globalNumber: global, bigEndian: bigEndian, fields: fields,
                                    developerFields: developerFields, dataSize: dataSize)
        definitions[Int(recordHeader & 0x0F)] = definition
        consume(to: cursor)
    }

    private func readData(at start: Int, header recordHeader: UInt8) throws -> FITFrame {
        let compressed = recordHeader & 0x80 != 0
        let local = compressed ? (recordHeader >> 5) & 0x03 : recordHeader & 0x0F
        guard let definition = definitions[Int(local)] else {
            throw fail("fit.bad-definition", "a data message of local type \(local) comes before any definition of that type", at: start)
        }
        try need(1 + definition.dataSize, from: start, message: start)
        consume(to: start + 1 + definition.dataSize)

        var timestamp: UInt32?
        if compressed, let last = lastTimestamp {
            let offset = UInt32(recordHeader & 0x1F)
            timestamp = last &+ ((offset &- (last & 0x1F)) & 0x1F)
            lastTimestamp = timestamp
        }
        if let o = definition.timestampOffset {
            let raw = UInt32(truncatingIfNeeded: readRaw(start + 1 + o, size: 4, bigEndian: definition.bigEndian))
            if raw != 0xFFFF_FFFF, !(raw == 0 && definition.timestampIsZ) {
                timestamp = raw
                lastTimestamp = raw
            }
        }
        current = definition
        currentStart = start + 1
        let frame = FITFrame(globalNumber: definition.globalNumber, localType: local, offset: start, index: messageIndex,
                             fileIndex: fileCount - 1, hasCompressedTimestamp: compressed, timestamp: timestamp)
        currentFrame = frame
        messageIndex += 1
        return frame
    }

    // MARK: - Bytes

    private func u16le(_ i: Int) -> UInt16 { UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 }
    private func u32le(_ i: Int) -> UInt32 {
        UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }
    private func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - s.count) + s
    }
}
