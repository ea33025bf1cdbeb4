/// A free list of reusable objects (frame shells, canvas frames, packets), so the steady state
/// of a pipeline allocates nothing per frame. Thread-safe: one stage takes, another gives back.
/// The pool never holds more than `limit` idle objects; extra ones are released.
public final class ObjectPool<Object: AnyObject>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var idle: [Object] = []
    private let limit: Int
    private let make: @Sendable () throws -> Object
    private var created = 0

    public init(limit: Int = 64, make: @escaping @Sendable () throws -> Object) {
        self.limit = limit
        self.make = make
        idle.reserveCapacity(limit)
    }

    /// An idle object, or a new one when none is idle.
    public func obtain() throws -> Object {
        if let object = lock.withLock({ idle.popLast() }) { return object }
        lock.withLock { created += 1 }
        return try make()
    }

    /// Gives an object back for reuse; the caller must not touch it afterwards.
    public func recycle(_ object: Object) {
        lock.withLock {
            if idle.count < limit { idle.append(object) }
        }
    }

    /// Objects made so far: stays flat in the steady state (the pool test checks this).
    public var createdCount: Int { lock.withLock { created } }
}

/// Moves a value that is not `Sendable` (a class owning C handles) to another thread.
/// The sender gives up the value: only the receiving thread may use it afterwards.
public struct OwnershipTransfer<Value>: @unchecked Sendable {
    private let value: Value
    public init(_ value: Value) { self.value = value }
    /// Takes the value on the receiving thread.
    public func take() -> Value { value }
}
