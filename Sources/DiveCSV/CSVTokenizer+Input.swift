#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiveCore

/// Reading and decoding: raw bytes come from a file descriptor (or memory) one chunk at a
/// time and are appended to `storage` as UTF-8. UTF-8 input is read straight into `storage`
/// and checked in place; UTF-16 and Windows-1252 go through `scratch` and are transcoded.
extension CSVTokenizer {
    /// Calls `body` with the start of the decoded text (up to ``sampleSize`` bytes) and
    /// whether that is the whole input. Only before the first ``next()``.
    public func withSample<R>(_ body: (UnsafeRawBufferPointer, _ isWholeInput: Bool) throws -> R) rethrows -> R {
        precondition(state.pointee.base == 0 && row == 0, "withSample(_:) is for sniffing before the first record is read")
        let n = min(state.pointee.end, Self.sampleSize)
        return try body(UnsafeRawBufferPointer(start: state.pointee.storage, count: n), state.pointee.exhausted && n == state.pointee.end)
    }

    /// ``start()`` for bytes held in memory, whose reading cannot fail (only a file's read
    /// throws); were it ever to, the input reads as empty rather than stopping the process.
    func startInMemory() {
        do { try start() } catch { state.pointee.exhausted = true }
    }

    /// Reads the first bytes, settles the encoding from a byte-order mark, and decodes the
    /// first ``sampleSize`` bytes of text.
    func start() throws {
        if case .decoded = decoding {
            if case .memory(let bytes) = source {
                ensureCapacity(bytes.count)
                bytes.withUnsafeBytes { if let base = $0.baseAddress { state.pointee.storage.copyMemory(from: base, byteCount: $0.count) } }
                state.pointee.end = bytes.count
            }
            state.pointee.exhausted = true
            return
        }
        // A byte-order mark needs the first three bytes (a pipe may hand them over one by one).
        var got = 0
        var inputEnded = false
        while got < 3 {
            let n = try readRaw(into: scratch + got, count: Self.chunkSize - got)
            if n == 0 { inputEnded = true; break }
            got += n
        }
        let head = UnsafeRawBufferPointer(start: scratch, count: got)
        var (detected, markLength) = CSVText.byteOrderMark(head) ?? (.utf8, 0)
        if markLength == 0, let utf16 = CSVEncoding.unmarkedUTF16(head) {
            detected = utf16
            isUnmarkedUTF16 = true
        }
        state.pointee.encoding = detected
        let body = UnsafeRawBufferPointer(rebasing: head[markLength...])
        switch detected {
        case .utf16LE, .utf16BE:
            var transcoder = CSVText.UTF16Transcoder(bigEndian: detected == .utf16BE)
            ensureCapacity(CSVText.UTF16Transcoder.maximumOutput(forInput: body.count))
            state.pointee.end = transcoder.transcode(body, to: state.pointee.storage.assumingMemoryBound(to: UInt8.self), isLast: inputEnded)
            decoding = .utf16(transcoder)
        default:
            decoding = .utf8
            ensureCapacity(body.count * 3 + 16)
            if body.count > 0 { state.pointee.storage.copyMemory(from: body.baseAddress!, byteCount: body.count) }
            acceptUTF8(body.count, inputEnded: inputEnded)
        }
        if inputEnded {
            state.pointee.exhausted = true
        } else {
            while state.pointee.end < Self.sampleSize, try fill() {}
        }
    }

    /// Reads and decodes until more text is available. Returns `false` at the end of the input.
    func fill() throws -> Bool {
        while !state.pointee.exhausted {
            let before = state.pointee.end
            try readChunk()
            if state.pointee.end > before { return true }
        }
        return false
    }

    /// Drops the text before `offset` (in `storage`) to make room. Returns how far the rest moved.
    func compact(keepFrom offset: Int) -> Int {
        guard offset > 0 else { return 0 }
        let keep = state.pointee.end + state.pointee.pending - offset
        if keep > 0 { state.pointee.storage.copyMemory(from: state.pointee.storage + offset, byteCount: keep) }
        state.pointee.base += offset
        state.pointee.end -= offset
        return offset
    }

    /// Grows `storage` so that `count` bytes fit after the text held.
    func ensureCapacity(_ count: Int) {
        let needed = state.pointee.end + state.pointee.pending + count
        guard needed > state.pointee.capacity else { return }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: max(needed, state.pointee.capacity * 2), alignment: 16)
        grown.copyMemory(from: state.pointee.storage, byteCount: state.pointee.end + state.pointee.pending)
        state.pointee.storage.deallocate()
        state.pointee.storage = grown
        state.pointee.capacity = max(needed, state.pointee.capacity * 2)
    }

    /// Reads one chunk and appends what it decodes to.
    private func readChunk() throws {
        switch decoding {
        case .decoded:
            state.pointee.exhausted = true
        case .utf8:
            // Read in place; Windows-1252 may need three bytes for each one read.
            ensureCapacity(Self.chunkSize * 3 + 16)
            let n = try readRaw(into: state.pointee.storage + state.pointee.end + state.pointee.pending, count: Self.chunkSize)
            acceptUTF8(state.pointee.pending + n, inputEnded: n == 0)
            if n == 0 { state.pointee.exhausted = true }
        case .windows1252:
            ensureCapacity(Self.chunkSize * 3 + 16)
            let n = try readRaw(into: scratch, count: Self.chunkSize)
            if n == 0 { state.pointee.exhausted = true; return }
            state.pointee.end += CSVText.transcodeWindows1252(UnsafeRawBufferPointer(start: scratch, count: n),
                                                to: (state.pointee.storage + state.pointee.end).assumingMemoryBound(to: UInt8.self))
        case .utf16(var transcoder):
            ensureCapacity(CSVText.UTF16Transcoder.maximumOutput(forInput: Self.chunkSize))
            let n = try readRaw(into: scratch, count: Self.chunkSize)
            state.pointee.end += transcoder.transcode(UnsafeRawBufferPointer(start: scratch, count: n),
                                        to: (state.pointee.storage + state.pointee.end).assumingMemoryBound(to: UInt8.self), isLast: n == 0)
            decoding = .utf16(transcoder)
            if n == 0 { state.pointee.exhausted = true }
        }
    }

    /// Checks the `count` raw bytes at `storage[end...]` as UTF-8 and makes the valid ones
    /// text. An incomplete sequence at the end waits for the next read; the first invalid
    /// byte turns the rest of the input to Windows-1252.
    private func acceptUTF8(_ count: Int, inputEnded: Bool) {
        switch CSVText.validateUTF8(UnsafeRawBufferPointer(start: state.pointee.storage + state.pointee.end, count: count)) {
        case .valid:
            state.pointee.end += count; state.pointee.pending = 0
        case .incomplete(let tail):
            state.pointee.end += count - tail; state.pointee.pending = tail
            if inputEnded { switchToWindows1252(count: tail) }
        case .invalid(let offset):
            state.pointee.end += offset; state.pointee.pending = 0
            switchToWindows1252(count: count - offset)
        }
    }

    /// Re-reads the `count` raw bytes at `storage[end...]` as Windows-1252, and everything after.
    private func switchToWindows1252(count: Int) {
        state.pointee.pending = 0
        decoding = .windows1252
        state.pointee.encoding = .windows1252
        state.pointee.windows1252Offset = state.pointee.base + state.pointee.end
        guard count > 0 else { return }
        // `count` is at most a chunk and three bytes, which `scratch` holds.
        scratch.copyMemory(from: state.pointee.storage + state.pointee.end, byteCount: count)
        ensureCapacity(count * 3)
        state.pointee.end += CSVText.transcodeWindows1252(UnsafeRawBufferPointer(start: scratch, count: count),
                                            to: (state.pointee.storage + state.pointee.end).assumingMemoryBound(to: UInt8.self))
    }

    /// Reads up to `count` raw bytes into `buffer`; 0 at the end of the input.
    private func readRaw(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        switch source {
        case .memory(let bytes):
            let n = min(count, bytes.count - memoryOffset)
            if n > 0 {
                bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + memoryOffset, byteCount: n) }
            }
            memoryOffset += n
            return n
        case .file(let file):
            return try file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
        }
    }
}
