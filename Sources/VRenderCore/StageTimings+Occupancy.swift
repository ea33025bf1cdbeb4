/// How full a queue was: for every item pushed, the number of items it found waiting
/// (`0...capacity`; `capacity` means the queue was full and, under the blocking policy, the
/// producer had to wait). One counter per depth, allocated once: recording allocates nothing.
///
/// A queue that is often full sits in front of the slowest stage (its consumer cannot keep
/// up); one that is always empty follows it (its producer cannot keep up).
public struct OccupancyHistogram: Sendable, Equatable {
    public let capacity: Int
    /// `arrivals[d]`: pushes that found `d` items waiting.
    public private(set) var arrivals: [Int]

    public init(capacity: Int) {
        precondition(capacity > 0, "a queue holds at least one item")
        self.capacity = capacity
        arrivals = Array(repeating: 0, count: capacity + 1)
    }

    /// Counts one push that found `depth` items waiting (clamped to `0...capacity`).
    public mutating func record(depth: Int) {
        arrivals[Swift.min(Swift.max(depth, 0), capacity)] += 1
    }

    public var samples: Int { arrivals.reduce(0, +) }

    public var mean: Double {
        let total = samples
        guard total > 0 else { return 0 }
        return Double(arrivals.enumerated().reduce(0) { $0 + $1.offset * $1.element }) / Double(total)
    }

    /// The nearest-rank percentile of the depths found (see `Percentile`).
    public func percentile(_ percent: Int) -> Int {
        Percentile.nearestRank(percent, counts: arrivals)
    }

    public var max: Int { arrivals.lastIndex { $0 > 0 } ?? 0 }

    /// The share of pushes that found the queue full.
    public var fullFraction: Double {
        let total = samples
        return total > 0 ? Double(arrivals[capacity]) / Double(total) : 0
    }
}

/// Percentiles by the nearest-rank rule: the p-th percentile of n values is the smallest value
/// such that at least p% of the values are at or below it, i.e. the value at 1-based rank
/// ⌈p·n/100⌉ of the sorted values. It is always one of the values (never interpolated), p100 is
/// the maximum, and for [1, 2, 3, 4]: p50 = 2, p75 = 3, p95 = p99 = 4. Computed in integers, so
/// no rounding of p·n can move a rank.
package enum Percentile {
    /// The 1-based rank of the p-th percentile among `count` values (`count` ≥ 1, p in 1...100).
    package static func rank(_ percent: Int, of count: Int) -> Int {
        precondition((1...100).contains(percent) && count > 0, "percentile \(percent) of \(count) values")
        return Swift.max(1, (percent * count + 99) / 100)
    }

    /// The p-th percentile of values sorted in ascending order; 0 when there are none.
    package static func nearestRank(_ percent: Int, ofSorted sorted: [UInt64]) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        return sorted[rank(percent, of: sorted.count) - 1]
    }

    /// The p-th percentile of a histogram, `counts[v]` being how often value `v` occurred;
    /// 0 when it is empty.
    package static func nearestRank(_ percent: Int, counts: [Int]) -> Int {
        let total = counts.reduce(0, +)
        guard total > 0 else { return 0 }
        let wanted = rank(percent, of: total)
        var seen = 0
        for (value, count) in counts.enumerated() {
            seen += count
            if seen >= wanted { return value }
        }
        return counts.count - 1
    }
}
