import Foundation
import Synchronization
import VRenderCore
import VRenderMedia

/// Reads an export's inputs on a few threads: with a thousand short takes, probing (opening
/// each file, decoding its first pictures, reading its last group of pictures) is most of the
/// plan's time, and each take's probe is independent of the others'. Each thread holds one
/// file open at a time.
enum InputProbing {
    /// `body(index)` for every index of `0..<count`, on up to `threads` threads, the results in
    /// index order. The error is that of the first index, in order, that fails, as if they had
    /// been read one after another: once one fails no further index is begun, and every index
    /// before it was begun and finishes.
    static func map<T: Sendable>(_ count: Int, threads: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let workers = Swift.max(1, Swift.min(threads, count))
        guard workers > 1 else { return try (0..<count).map(body) }
        let results = Mutex([Result<T, any Error>?](repeating: nil, count: count))
        let next = Atomic(0)
        let failed = Atomic(false)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while !failed.load(ordering: .relaxed) {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                let result = Result { try body(index) }
                if case .failure = result { failed.store(true, ordering: .relaxed) }
                results.withLock { $0[index] = result }
            }
        }
        var values: [T] = []
        values.reserveCapacity(count)
        for result in results.withLock({ $0 }) {
            guard let result else { preconditionFailure("an index before the first failure was not read") }
            values.append(try result.get())
        }
        return values
    }
}
