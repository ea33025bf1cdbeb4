/// The lock, the condition and the two endings every queue between two threads has: the
/// producer finishes (the consumer drains what is left, then stops) or either side cancels
/// (both return at once). `BoundedQueue` and the recorder's `FrameRing` keep their contents;
/// this keeps the waiting and waking, so the rules for ending live in one place.
///
/// Every member except `finish()` and `cancel(discarding:)` is for use inside `withLock` or
/// `update`: `isFinished` and `isCancelled` are guarded by the lock.
// @unchecked Sendable: `finished` and `cancelled` are only read or written with `lock` held.
package final class QueueLock: @unchecked Sendable {
    private let lock = ConditionLock()
    private var finished = false
    private var cancelled = false

    package init() {}

    /// True once the producer said it will add nothing more. Read with the lock held.
    package var isFinished: Bool { finished }

    /// True once either side cancelled. Read with the lock held.
    package var isCancelled: Bool { cancelled }

    /// Runs `body` with the lock held.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }

    /// Runs `body` with the lock held, then wakes every waiter: for a change of the queue's
    /// contents that a waiter on the other side may be waiting for.
    package func update<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock {
            defer { lock.broadcast() }
            return try body()
        }
    }

    /// Waits, with the lock held, while `blocked()` holds and the queue has neither finished
    /// nor been cancelled. The caller then checks which of the three ended the wait.
    package func wait(while blocked: () -> Bool) {
        while blocked() && !finished && !cancelled { lock.wait() }
    }

    /// Waits once for a change, with the lock held; the caller re-checks its own condition
    /// (for a side that must keep waiting after the producer finished).
    package func waitForChange() { lock.wait() }

    /// As `waitForChange()`, giving up at `deadline` (`MonotonicClock.now()` nanoseconds).
    /// Returns false once the deadline passed.
    @discardableResult
    package func waitForChange(untilNanoseconds deadline: UInt64) -> Bool { lock.wait(untilNanoseconds: deadline) }

    /// The producer will add nothing more: the consumer drains what is left.
    package func finish() {
        update { finished = true }
    }

    /// Stops both sides: `discard` empties the queue's contents with the lock held, and every
    /// waiter returns.
    package func cancel(discarding discard: () -> Void = {}) {
        update {
            cancelled = true
            discard()
        }
    }
}
