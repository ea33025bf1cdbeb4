import Synchronization

/// A free list of reusable objects (frame shells, canvas frames, packets), so the steady state
/// of a pipeline allocates nothing per frame. Thread-safe: one stage takes, another gives back.
/// The pool never holds more than `limit` idle objects; extra ones are released.
package final class ObjectPool<Object: AnyObject>: Sendable {
    private struct State {
        var idle: [Object] = []
        var created = 0
    }

    private let state: Mutex<State>
    private let limit: Int
    private let make: @Sendable () throws -> Object

    package init(limit: Int = 64, make: @escaping @Sendable () throws -> Object) {
        self.limit = limit
        self.make = make
        var initial = State()
        initial.idle.reserveCapacity(limit)
        state = Mutex(initial)
    }

    /// An idle object, or a new one when none is idle.
    package func obtain() throws -> Object {
        let idle = state.withLock { state -> UncheckedObject? in
            if let object = state.idle.popLast() { return UncheckedObject(object) }
            state.created += 1
            return nil
        }
        return try idle?.object ?? make()
    }

    /// Gives an object back for reuse; the caller must not touch it afterwards.
    package func recycle(_ object: Object) {
        let returned = UncheckedObject(object)
        state.withLock { state in
            if state.idle.count < limit { state.idle.append(returned.object) }
        }
    }

    /// Objects made so far: stays flat in the steady state (the pool test checks this).
    package var createdCount: Int { state.withLock { $0.created } }

    /// Carries a pooled object (which need not be Sendable) into and out of the lock.
    // @unchecked Sendable: an object is held by the pool or by the one stage that obtained it,
    // never by two at once, which is what makes the hand-over safe; the compiler cannot see it.
    private struct UncheckedObject: @unchecked Sendable {
        let object: Object
        init(_ object: Object) { self.object = object }
    }
}

/// Moves a value that is not `Sendable` (a class owning C handles) to another thread.
/// The sender gives up the value: only the receiving thread may use it afterwards.
// @unchecked Sendable: the sender gives the value up, so only one thread ever uses it.
package struct OwnershipTransfer<Value>: @unchecked Sendable {
    private let value: Value
    package init(_ value: Value) { self.value = value }
    /// Takes the value on the receiving thread.
    package func take() -> Value { value }
}
