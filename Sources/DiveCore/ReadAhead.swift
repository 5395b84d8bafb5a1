#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``DiveSource`` that reads another one ahead on a thread of its own, so that reading a
/// file (parsing, on one core) and what is done with its dives (writing them, or storing them,
/// on the other) overlap.
///
/// At most `depth` dives wait between the two threads (one by default: the reader reads the
/// next dive while the caller handles this one), so memory stays flat however long the file.
/// More buys little speed and costs memory out of proportion: with two, converting a 100 MB
/// Subsurface logbook to Subsurface XML peaked at 76-88 MB resident against 34 MB with one,
/// though its heap never passed 8 MB (what two threads allocating and freeing at once leave
/// in glibc's arenas).
///
/// What the caller sees is what the wrapped source would have said at the same point: each
/// dive comes with the findings the source reported up to it and the source's ``header`` as
/// it was when it handed that dive out; an error the source throws is thrown after the dives
/// before it, with the findings before it. Dropping the reader before its end stops the
/// thread after the dive it is reading and waits for it.
///
/// A ``ProgressMeter`` counting the job on the caller's thread counts the reading thread's
/// bytes too.
public final class ReadAhead: DiveSource {
    /// What the reading thread hands over, in order.
    private enum Item {
        case dive(Dive, LogbookHeader, [Finding])
        case end(LogbookHeader, [Finding])
        case failure(any Error, LogbookHeader, [Finding])
    }

    /// What the reading thread owns: the source, read only there once the thread runs.
    private final class Producer: @unchecked Sendable {
        let source: any DiveSource
        let channel: HandOff<Item>
        let meter: ProgressMeter?
        init(source: any DiveSource, channel: HandOff<Item>, meter: ProgressMeter?) {
            self.source = source; self.channel = channel; self.meter = meter
        }

        func run() {
            ProgressMeter.measuring(meter) {
                do {
                    while let dive = try source.next() {
                        guard channel.put(.dive(dive, source.header, source.takeFindings())) else { return }
                    }
                    _ = channel.put(.end(source.header, source.takeFindings()))
                } catch {
                    _ = channel.put(.failure(error, source.header, source.takeFindings()))
                }
            }
        }
    }

    private let channel: HandOff<Item>
    private var thread: pthread_t?
    /// Findings of the dives handed out since the caller last took them.
    private var pending: [Finding] = []
    /// Set once the end or an error was handed out: there is nothing more.
    private var done = false

    /// The source's header as it was when it handed out the last dive taken.
    public private(set) var header: LogbookHeader

    /// Starts reading `source` ahead, at most `depth` dives (at least 1). The source is the
    /// reading thread's from now on: do not call it yourself.
    public init(_ source: any DiveSource, depth: Int = 1) {
        header = source.header
        channel = HandOff(depth: max(1, depth))
        let producer = Producer(source: source, channel: channel, meter: ProgressMeter.current)
        if let t = startThread({ producer.run() }) {
            thread = t
        } else {
            // No thread to be had: read on the caller's thread, as if there were one.
            fallback = producer.source
        }
    }

    /// The source, when no thread could be started for it.
    private var fallback: (any DiveSource)?

    /// The next dive the source handed out, waiting for it if the reading thread is behind;
    /// `nil` at the end. Throws what the source threw, after the dives before it.
    public func next() throws -> Dive? {
        if let fallback {
            let dive = try fallback.next()
            header = fallback.header
            return dive
        }
        guard !done else { return nil }
        switch channel.take() {
        case .dive(let dive, let h, let found):
            header = h
            pending += found
            return dive
        case .end(let h, let found):
            header = h
            pending += found
            finish()
            return nil
        case .failure(let error, let h, let found):
            header = h
            pending += found
            finish()
            throw error
        }
    }

    /// The findings the source reported up to the last dive taken (or its end), which the
    /// caller takes over.
    public func takeFindings() -> [Finding] {
        if let fallback { return fallback.takeFindings() }
        defer { pending = [] }
        return pending
    }

    /// The reading thread has said its last: wait for it to end.
    private func finish() {
        done = true
        join()
    }

    private func join() {
        guard let t = thread else { return }
        thread = nil
        pthread_join(t, nil)
    }

    deinit {
        if thread != nil {
            channel.cancel()
            join()
        }
    }
}

/// A bounded queue from one thread to another: ``put(_:)`` waits while `depth` items wait,
/// ``take()`` while none does; ``cancel()`` (the taking side going away) makes every put fail.
package final class HandOff<Item>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var items: [Item] = []
    private var head = 0
    private let depth: Int
    private var cancelled = false

    /// A queue holding at most `depth` items.
    package init(depth: Int) {
        self.depth = depth
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed); changed.deallocate()
        pthread_mutex_destroy(mutex); mutex.deallocate()
    }

    /// Waits for room, then queues `item`; false when the taker has gone (``cancel()``).
    package func put(_ item: Item) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !cancelled && items.count - head >= depth { pthread_cond_wait(changed, mutex) }
        guard !cancelled else { return false }
        items.append(item)
        pthread_cond_broadcast(changed)
        return true
    }

    /// Queues `item` if there is room, without waiting; false when there is none.
    @discardableResult package func offer(_ item: Item) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !cancelled, items.count - head < depth else { return false }
        items.append(item)
        pthread_cond_broadcast(changed)
        return true
    }

    /// Waits for the next item and takes it.
    package func take() -> Item {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while head == items.count { pthread_cond_wait(changed, mutex) }
        return dequeue()
    }

    /// The next item if one waits, without waiting.
    package func poll() -> Item? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return head == items.count ? nil : dequeue()
    }

    private func dequeue() -> Item {
        let item = items[head]
        head += 1
        if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        pthread_cond_broadcast(changed)
        return item
    }

    /// The taker is gone: what waits is dropped, and every put from now on fails at once.
    package func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        items.removeAll()
        head = 0
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}

/// What a thread started by ``startThread(_:)`` runs.
private final class ThreadBody {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Starts a thread running `body`; `nil` when the system has none to give (the caller then
/// does the work itself). Join it with `pthread_join`.
package func startThread(_ body: @escaping () -> Void) -> pthread_t? {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Glibc)
    var t = pthread_t()
    #else
    var t: pthread_t?
    #endif
    let started = pthread_create(&t, nil, { raw in
        Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, box)
    guard started == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(box).release()
        return nil
    }
    #if canImport(Glibc)
    return t
    #else
    return t!
    #endif
}

