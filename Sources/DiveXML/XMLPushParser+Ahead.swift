import DiveCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Parsing ahead: libxml2 tokenises a file on one thread while the reader's handler builds dives
// from the events on another. Tokenising is about half of reading UDDF (libxml2's own work), the
// handler the other half, so the two together take about as long as the slower one.
//
// The parsing thread runs a second XMLPushParser over the same file, as the first was made to
// parse it, whose handler records each chunk's events — start tags with their attributes, end
// tags, text, each with the line and column libxml2 was at — into one block. The handler's thread
// replays a block per ``XMLPushParser/step()``: the same events in the same chunks, the same
// positions, and at the end of the chunk what the chunk ended with (libxml2's error, the
// problems a lenient parse read past, the position after it). What the handler decides stops
// the parse there, as it would in one thread, and the parsing thread with it.

/// The events of one chunk, recorded on the parsing thread for the handler's thread to replay:
/// 8-byte words — a kind with a count, a name (libxml2's interned pointer, valid while its
/// parser lives), a line and column — and the bytes of text and attribute values, padded to 8.
final class XMLEventBlock: @unchecked Sendable {
    static let startTag: UInt64 = 1, endTag: UInt64 = 2, text: UInt64 = 3
    /// An attribute value's length word, when libxml2 gave no value pointers.
    static let noValue: UInt64 = 1 << 63

    /// The events, `count` bytes of the `capacity` allocated.
    var storage: UnsafeMutableRawPointer
    var capacity: Int
    var count = 0
    /// What stopped the parse in this chunk (libxml2's error, the file unreadable), if anything.
    var thrown: (any Error)?
    /// The parse ended with this chunk.
    var last = false
    /// Bytes of the input read by the end of this chunk.
    var bytesRead = 0
    /// Where libxml2 was after the chunk.
    var line = 0, column = 0
    /// What a lenient parse read past in this chunk (the first few) and in all so far.
    var recovered: [DiveError] = []
    var recoveredCount = 0
    /// The declared encoding set aside (``XMLPushParser/ignoredEncoding``), once known.
    var ignoredEncoding: String?

    init() {
        capacity = 1 << 20
        storage = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { storage.deallocate() }
}

/// The parsing thread's handler: records each event into the block being filled. The block's
/// storage is held here while it fills, as plain fields, so that recording an event costs no
/// reference counting.
final class XMLEventRecorder: XMLEventHandler {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private var count = 0
    private var block: XMLEventBlock
    /// The parser calling this handler, for the position of each event; set right after it is
    /// made, and it outlives every callback.
    var parser: Unmanaged<XMLPushParser>?

    override init() {
        block = XMLEventBlock()
        storage = block.storage
        capacity = block.capacity
    }

    /// Starts filling `next`.
    func fill(_ next: XMLEventBlock) {
        block = next
        storage = next.storage
        capacity = next.capacity
        count = 0
    }

    /// The block filled, its storage as it grew.
    func filled() -> XMLEventBlock {
        block.storage = storage
        block.capacity = capacity
        block.count = count
        return block
    }

    @inline(__always) private func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: c, alignment: 8)
        bigger.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = bigger
        capacity = c
        block.storage = bigger
        block.capacity = c
    }

    @inline(__always) private func word(_ w: UInt64) {
        reserve(8)
        storage.storeBytes(of: w, toByteOffset: count, as: UInt64.self)
        count += 8
    }

    @inline(__always) private func pointer(_ p: UnsafePointer<UInt8>?) {
        word(UInt64(UInt(bitPattern: p)))
    }

    @inline(__always) private func bytes(_ p: UnsafePointer<UInt8>?, _ n: Int) {
        let padded = (n + 7) & ~7
        reserve(padded)
        if n > 0, let p { (storage + count).copyMemory(from: p, byteCount: n) }
        count += padded
    }

    @inline(__always) private func position() -> UInt64 {
        guard let parser else { return 0 }
        return parser._withUnsafeGuaranteedRef {
            UInt64(UInt32(truncatingIfNeeded: $0.line)) | UInt64(UInt32(truncatingIfNeeded: $0.column)) << 32
        }
    }

    override func startElement(_ localName: UnsafePointer<UInt8>, _ attributes: XMLAttributes) {
        word(XMLEventBlock.startTag | UInt64(attributes.count) << 8)
        pointer(localName)
        word(position())
        guard let base = attributes.base else { return }
        for i in 0..<attributes.count {
            pointer(base[i * 5])
            pointer(base[i * 5 + 1])
            pointer(base[i * 5 + 2])
            if let start = base[i * 5 + 3], let end = base[i * 5 + 4] {
                word(UInt64(end - start))
                bytes(start, end - start)
            } else {
                word(XMLEventBlock.noValue)
            }
        }
    }

    override func endElement(_ localName: UnsafePointer<UInt8>) {
        word(XMLEventBlock.endTag)
        pointer(localName)
        word(position())
    }

    override func characters(_ text: UnsafeBufferPointer<UInt8>) {
        word(XMLEventBlock.text | UInt64(text.count) << 8)
        word(position())
        bytes(text.baseAddress, text.count)
    }
}

/// The thread parsing ahead, and the blocks it hands over (at most `depth` waiting, so memory
/// stays flat) and gets back to fill again.
final class XMLParseAhead: @unchecked Sendable {
    let full = HandOff<XMLEventBlock>(depth: 2)
    let spare = HandOff<XMLEventBlock>(depth: 2)
    /// Owned by the parsing thread once it runs.
    private let tokenizer: XMLPushParser
    private let recorder: XMLEventRecorder
    var thread: pthread_t?

    init(for parser: XMLPushParser) {
        recorder = XMLEventRecorder()
        tokenizer = XMLPushParser(parsingFor: parser, handler: recorder)
        recorder.parser = Unmanaged.passUnretained(tokenizer)
    }

    /// The parsing thread: one block per chunk, until the parse ends or the handler's side goes.
    func run() {
        while true {
            recorder.fill(spare.poll() ?? XMLEventBlock())
            var last = false
            var thrown: (any Error)?
            do {
                last = try !tokenizer.step()
            } catch {
                thrown = error
                last = true
            }
            let block = recorder.filled()
            block.thrown = thrown
            block.last = last
            block.bytesRead = tokenizer.bytesRead
            block.line = tokenizer.line
            block.column = tokenizer.column
            block.recovered = tokenizer.takeRecovered()
            block.recoveredCount = tokenizer.recoveredCount
            block.ignoredEncoding = tokenizer.ignoredEncoding
            guard full.put(block), !block.last else { return }
        }
    }
}

extension XMLPushParser {
    /// ``step()`` for a parser that ``parsesAhead``: replays the next chunk's events.
    func stepAhead() throws -> Bool {
        if ahead == nil {
            let started = XMLParseAhead(for: self)
            guard let thread = startThread({ started.run() }) else {
                // No thread to be had: parse here.
                parsesAhead = false
                return try step()
            }
            started.thread = thread
            ahead = started
        }
        guard let ahead else { return false }
        let block = ahead.full.take()
        bytesRead = block.bytesRead
        if let e = block.ignoredEncoding { ignoredEncoding = e }
        for problem in block.recovered where recovered.count < Self.recoveredLimit { recovered.append(problem) }
        recoveredCount = block.recoveredCount
        replay(block)
        replayedLine = block.line
        replayedColumn = block.column
        let thrown = block.thrown
        let last = block.last
        ahead.spare.offer(block)
        // What the handler stopped the parse with came before anything libxml2 met later in
        // the chunk (whose events were not replayed).
        if let error {
            finished = true
            stopParsingAhead()
            throw error
        }
        if let thrown {
            finished = true
            stopParsingAhead()
            throw thrown
        }
        if last {
            finished = true
            stopParsingAhead()
        }
        return !finished
    }

    /// Ends the parsing thread, if one runs: it stops at the chunk it is parsing.
    func stopParsingAhead() {
        guard let ahead, let thread = ahead.thread else { return }
        ahead.thread = nil
        ahead.full.cancel()
        pthread_join(thread, nil)
    }

    /// Hands the block's events to the handler as the SAX callbacks would have, until the
    /// handler stops the parse.
    private func replay(_ block: XMLEventBlock) {
        let base = UnsafeRawPointer(block.storage)
        let end = block.count
        var at = 0
        @inline(__always) func word(_ offset: Int) -> UInt64 { base.load(fromByteOffset: offset, as: UInt64.self) }
        @inline(__always) func name(_ offset: Int) -> UnsafePointer<UInt8>? { UnsafePointer(bitPattern: UInt(word(offset))) }
        @inline(__always) func position(_ offset: Int) {
            let p = word(offset)
            replayedLine = Int(UInt32(truncatingIfNeeded: p))
            replayedColumn = Int(UInt32(truncatingIfNeeded: p >> 32))
        }
        while at < end && !failed {
            let head = word(at)
            let n = Int(head >> 8)
            switch head & 0xFF {
            case XMLEventBlock.startTag:
                guard let localName = name(at + 8) else { return }
                position(at + 16)
                at += 24
                if n * 5 > replayedAttributesCapacity {
                    replayedAttributes.deallocate()
                    replayedAttributesCapacity = max(n * 5, 40)
                    replayedAttributes = .allocate(capacity: replayedAttributesCapacity)
                }
                for i in 0..<n {
                    replayedAttributes[i * 5] = name(at)
                    replayedAttributes[i * 5 + 1] = name(at + 8)
                    replayedAttributes[i * 5 + 2] = name(at + 16)
                    let length = word(at + 24)
                    at += 32
                    if length == XMLEventBlock.noValue {
                        replayedAttributes[i * 5 + 3] = nil
                        replayedAttributes[i * 5 + 4] = nil
                    } else {
                        let start = (base + at).assumingMemoryBound(to: UInt8.self)
                        replayedAttributes[i * 5 + 3] = start
                        replayedAttributes[i * 5 + 4] = start + Int(length)
                        at += (Int(length) + 7) & ~7
                    }
                }
                openElements.append(localName)
                let attributes = XMLAttributes(base: n > 0 ? replayedAttributes : nil, count: n, readMask: attributeMask)
                handler._withUnsafeGuaranteedRef { $0.startElement(localName, attributes) }
            case XMLEventBlock.endTag:
                guard let localName = name(at + 8) else { return }
                position(at + 16)
                at += 24
                handler._withUnsafeGuaranteedRef { $0.endElement(localName) }
                if !openElements.isEmpty { openElements.removeLast() }
            default:
                position(at + 8)
                let text = UnsafeBufferPointer(start: (base + at + 16).assumingMemoryBound(to: UInt8.self), count: n)
                at += 16 + ((n + 7) & ~7)
                handler._withUnsafeGuaranteedRef { $0.characters(text) }
            }
        }
    }
}
