#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``DiveSource`` that reads another one ahead on a thread of its own, so that reading a
/// file (parsing, on one core) and what is done with its dives (writing them, or storing them,
/// on the other) overlap.
///
/// At most `depth` dives wait between the two threads: memory stays flat however long the
/// file. What the caller sees is what the wrapped source would have said at the same point:
/// each dive comes with the findings the source reported up to it and the source's
/// ``header`` as it was when it handed that dive out; an error the source throws is thrown
/// after the dives before it, with the findings before it. Dropping the reader before its
/// end stops the thread after the dive it is reading and waits for it.
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

    /// The queue between the two threads: the only state both touch, under its mutex.
    private final class Channel: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var items: [Item] = []
        private var head = 0
        private let depth: Int
        /// Set by the caller when it lets the reader go: the reading thread stops.
        private var cancelled = false

        init(depth: Int) {
            self.depth = depth
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(changed, nil)
        }

        deinit {
            pthread_cond_destroy(changed); changed.deallocate()
            pthread_mutex_destroy(mutex); mutex.deallocate()
        }

        /// Waits for room, then queues `item`; false when the caller has gone.
        func put(_ item: Item) -> Bool {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while !cancelled && items.count - head >= depth { pthread_cond_wait(changed, mutex) }
            guard !cancelled else { return false }
            items.append(item)
            pthread_cond_broadcast(changed)
            return true
        }

        /// Waits for the next item and takes it.
        func take() -> Item {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while head == items.count { pthread_cond_wait(changed, mutex) }
            let item = items[head]
            head += 1
            if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
            pthread_cond_broadcast(changed)
            return item
        }

        func cancel() {
            pthread_mutex_lock(mutex)
            cancelled = true
            items.removeAll()
            head = 0
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }

        var isCancelled: Bool {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return cancelled
        }
    }

    /// What the reading thread owns: the source, read only there once the thread runs.
    private final class Producer: @unchecked Sendable {
        let source: any DiveSource
        let channel: Channel
        let meter: ProgressMeter?
        init(source: any DiveSource, channel: Channel, meter: ProgressMeter?) {
            self.source = source; self.channel = channel; self.meter = meter
        }

        func run() {
            ProgressMeter.measuring(meter) {
                do {
                    while let dive = try source.next() {
                        guard channel.put(.dive(dive, source.header, source.takeFindings())) else { return }
                        if channel.isCancelled { return }
                    }
                    _ = channel.put(.end(source.header, source.takeFindings()))
                } catch {
                    _ = channel.put(.failure(error, source.header, source.takeFindings()))
                }
            }
        }
    }

    private let channel: Channel
    private var thread: pthread_t?
    /// Findings of the dives handed out since the caller last took them.
    private var pending: [Finding] = []
    /// Set once the end or an error was handed out: there is nothing more.
    private var done = false

    /// The source's header as it was when it handed out the last dive taken.
    public private(set) var header: LogbookHeader

    /// Starts reading `source` ahead, at most `depth` dives (at least 1). The source is the
    /// reading thread's from now on: do not call it yourself.
    public init(_ source: any DiveSource, depth: Int = 4) {
        header = source.header
        channel = Channel(depth: max(1, depth))
        let producer = Producer(source: source, channel: channel, meter: ProgressMeter.current)
        let box = Unmanaged.passRetained(producer).toOpaque()
        #if canImport(Glibc)
        var t = pthread_t()
        #else
        var t: pthread_t?
        #endif
        let started = pthread_create(&t, nil, { raw in
            let producer = Unmanaged<Producer>.fromOpaque(raw!).takeRetainedValue()
            producer.run()
            return nil
        }, box)
        if started == 0 {
            thread = t
        } else {
            // No thread to be had: read on the caller's thread, as if there were one.
            let producer = Unmanaged<Producer>.fromOpaque(box).takeRetainedValue()
            fallback = producer.source
        }
    }

    /// The source, when no thread could be started for it.
    private var fallback: (any DiveSource)?

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
