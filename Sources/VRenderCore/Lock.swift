#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with one condition variable (pthread). The building block of the bounded queues:
/// Swift's `Mutex` has no condition variable, and stages block on "not full" / "not empty".
// @unchecked Sendable: the pthread mutex itself serializes every use of the two objects.
public final class ConditionLock: @unchecked Sendable {
    // Heap-allocated so their addresses never move (pthread objects must not be copied).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits on the condition; call only inside `withLock`. Callers re-check their predicate.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiter; call inside `withLock` after changing the guarded state.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
