#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with one condition variable (pthread). The building block of the bounded queues:
/// Swift's `Mutex` has no condition variable, and stages block on "not full" / "not empty".
// @unchecked Sendable: the pthread mutex itself serializes every use of the two objects.
package final class ConditionLock: @unchecked Sendable {
    // Heap-allocated so their addresses never move (pthread objects must not be copied).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        // Timed waits count on the monotonic clock, which a clock change cannot move.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if os(Linux)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits on the condition; call only inside `withLock`. Callers re-check their predicate.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits on the condition until `deadline` (CLOCK_MONOTONIC nanoseconds, as
    /// `MonotonicClock.now()`); call only inside `withLock`. Returns false once the deadline passed.
    package func wait(untilNanoseconds deadline: UInt64) -> Bool {
        var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &target) != ETIMEDOUT
    }

    /// Wakes every waiter; call inside `withLock` after changing the guarded state.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
