// What one gate rule says and how it is checked against a suite's stored results.

import Benchmark

/// "In suite `suite`, benchmark `benchmark`'s `metric` at `percentile` must be at most `limit`."
/// Every gated metric prefers smaller values (counts, costs), so one direction is enough.
struct GateRule {
    let suite: String
    /// The name as registered, without tags.
    let benchmark: String
    let metric: BenchmarkMetric
    /// 50: the median iteration (steady state; a rare slow or allocating iteration does not
    /// count). 100: every iteration (counts that must never be off, such as frames lost).
    let percentile: Double
    let limit: Int
    /// Why this limit: what a clean run measures and what the margin allows.
    let why: String
    /// True when the benchmark may legitimately not run (Vulkan with no device).
    var optional = false

    enum Verdict {
        case pass(measured: Int)
        case fail(measured: Int)
        /// The benchmark or metric is not in the results.
        case missing(String)
        /// Optional and not run.
        case skipped
    }

    func check(_ suites: [String: StoredSuite]) -> Verdict {
        guard let entry = suites[suite]?.entry(benchmark) else {
            return optional ? .skipped : .missing("no result for this benchmark (renamed, or its suite did not run?)")
        }
        guard let result = entry.results.first(where: { $0.metric == metric }) else {
            return .missing("the benchmark did not record '\(metric.description)'")
        }
        let measured = result.value(atPercentile: percentile)
        return measured <= limit ? .pass(measured: measured) : .fail(measured: measured)
    }

    /// "median of 'Malloc (total)'", "max of 'frames lost'", "p90 of ...".
    var measuredName: String {
        let statistic = percentile == 100 ? "max" : percentile == 50 ? "median" : "p\(Int(percentile))"
        return "\(statistic) of '\(metric.description)'"
    }
}
