#if VRENDER_TSAN_MUTEX
import Glibc

/// ThreadSanitizer builds only (`scripts/sanitize.sh thread` compiles with -DVRENDER_TSAN_MUTEX).
///
/// Synchronization's `Mutex` on Linux hands a contended lock to the next thread inside the kernel
/// (a priority-inheritance futex) or in its uninstrumented spin loop, where ThreadSanitizer cannot
/// see it: TSan then reports races on the very data the lock protects (two threads sharing one
/// `Mutex` in a ten-line program show it on Swift 6.3.1). This stand-in locks a pthread mutex,
/// which TSan follows, so what it reports is a real unprotected access. It shadows
/// `Synchronization.Mutex` in expressions (`Mutex(x)`) wherever VRenderCore is imported (a
/// module's declarations win over those of the modules it imports); a spelled-out `: Mutex<T>`
/// outside VRenderCore is ambiguous here, so let such types be inferred. It offers what vrender
/// uses: `init` and `withLock`, of a copyable value: a `~Copyable` one resolves to
/// Synchronization's `Mutex` even here (SpeechSynthesizer's did, and TSan failed CI on it).
/// Normal builds never compile it.
// @unchecked Sendable: `value` is only touched inside `withLock`, with `mutex` held.
package final class Mutex<Value>: @unchecked Sendable {
    // Heap-allocated so its address never moves (pthread objects must not be copied).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ initialValue: consuming sending Value) {
        value = initialValue
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#endif
