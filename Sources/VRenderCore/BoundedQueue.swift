/// A first-in first-out queue between two pipeline stages, each on its own thread.
///
/// - Capacity: fixed at creation; the queue never holds more than `capacity` elements.
/// - When full: `.block` makes `push` wait for space (batch work: nothing is lost);
///   `.dropOldest` discards the oldest element, counts it in `dropped` and returns at once
///   (live capture: the producer never stalls).
/// - Ending from the producer side: `finish()`. The consumer drains what is left, then `pop`
///   returns nil.
/// - Ending from the consumer side (error, or the user stopped): `cancel()`. Every blocked or
///   later `push` returns false at once and `pop` returns nil, so neither side can hang.
/// - Occupancy: after `trackOccupancy()`, every push counts the depth it found (for
///   `vrender bench`); until then a push pays one nil check.
// @unchecked Sendable: `slots`, `head`, `count`, `droppedCount` and `depths` are only touched
// with `lock` held.
public final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    public enum FullPolicy: Sendable { case block, dropOldest }

    public let capacity: Int
    public let policy: FullPolicy

    private let lock = QueueLock()
    // A ring of fixed size: no allocation after init.
    private var slots: [Element?]
    private var head = 0
    private var count = 0
    private var droppedCount = 0
    private var depths: OccupancyHistogram?

    public init(capacity: Int, policy: FullPolicy = .block) {
        precondition(capacity > 0, "a queue needs room for at least one element")
        self.capacity = capacity
        self.policy = policy
        self.slots = Array(repeating: nil, count: capacity)
    }

    /// Adds an element. Returns false when the queue was cancelled (the element is discarded)
    /// or already finished by its producer.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        lock.update {
            depths?.record(depth: count)  // before waiting: a full queue is what a blocked producer met
            lock.wait(while: { count == capacity && policy == .block })
            guard !lock.isCancelled && !lock.isFinished else { return false }
            if count == capacity {  // only reachable with .dropOldest
                slots[head] = nil
                head = (head + 1) % capacity
                count -= 1
                droppedCount += 1
            }
            slots[(head + count) % capacity] = element
            count += 1
            return true
        }
    }

    /// Removes the oldest element, waiting while the queue is empty. Returns nil once the
    /// producer finished and everything was consumed, or at once after `cancel()`.
    public func pop() -> Element? {
        lock.update {
            lock.wait(while: { count == 0 })
            guard !lock.isCancelled, count > 0 else { return nil }
            let element = slots[head]
            slots[head] = nil
            head = (head + 1) % capacity
            count -= 1
            return element
        }
    }

    /// The producer will push nothing more.
    public func finish() { lock.finish() }

    /// Stops both sides: pending elements are discarded, waiters return at once.
    public func cancel() {
        lock.cancel {
            for index in slots.indices { slots[index] = nil }
            count = 0
        }
    }

    /// Elements discarded by the `.dropOldest` policy so far.
    public var dropped: Int { lock.withLock { droppedCount } }

    /// Elements waiting now.
    public var depth: Int { lock.withLock { count } }

    public var isCancelled: Bool { lock.withLock { lock.isCancelled } }

    /// From now on, counts the depth every push finds (`occupancy`).
    public func trackOccupancy() {
        lock.withLock {
            if depths == nil { depths = OccupancyHistogram(capacity: capacity) }
        }
    }

    /// The depths pushes found since `trackOccupancy()`; nil when not tracked.
    public var occupancy: OccupancyHistogram? { lock.withLock { depths } }
}
