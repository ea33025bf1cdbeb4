import Synchronization

/// Work on many files that are independent of each other, on a few threads, as if done one
/// after another: probing an export's takes (with a thousand short takes, most of the plan's
/// time), a join's checks of its chunk files. Each thread takes its own run of consecutive
/// indices (`RowBands`), one file open at a time.
package enum InOrderMap {
    /// `body(index)` for every index of `0..<count`, on up to `threads` threads, the results in
    /// index order. The error is that of the first index, in order, that fails, as if they had
    /// been read one after another: a thread stops at an index past the first failure found so
    /// far, so every index before the first failure is read.
    package static func map<T: Sendable>(_ count: Int, threads: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let workers = Swift.max(1, Swift.min(threads, count))
        guard workers > 1 else { return try (0..<count).map(body) }
        let results = Mutex([Result<T, any Error>?](repeating: nil, count: count))
        let firstFailure = Atomic(Int.max)
        RowBands(minimumRows: 1).run(rows: count, threads: workers) { indices in
            for index in indices {
                guard index < firstFailure.load(ordering: .relaxed) else { return }
                let result = Result { try body(index) }
                if case .failure = result { firstFailure.min(index, ordering: .relaxed) }
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
