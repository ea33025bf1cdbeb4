// How long each benchmark runs: the full length for `make bench`, a short run for the CI gate
// (`make bench-ci` sets VRENDER_BENCH_SHORT=1). The harness has no command-line option for run
// length, so every suite builds its configurations through these.

import Benchmark
import Foundation

public enum RunLength {
    /// True in the CI gate's short run (`VRENDER_BENCH_SHORT=1`).
    public static let isShort = ProcessInfo.processInfo.environment["VRENDER_BENCH_SHORT"] == "1"

    /// `full`, or at most 300 ms in the short run: still ~700 iterations of a 1080p kernel and
    /// ~15 of a lavapipe 2160p frame, enough for a steady median of the gated figures.
    public static func maxDuration(_ full: Duration) -> Duration {
        isShort ? min(full, .milliseconds(300)) : full
    }

    /// `full`, or at most 2 in the short run (the first iterations of a stage allocate its
    /// buffers; the gate reads medians, which the warm-up only has to keep clear of).
    public static func warmupIterations(_ full: Int) -> Int {
        isShort ? min(full, 2) : full
    }

    /// `full`, or `short` in the short run (for benchmarks whose iteration is a whole export).
    public static func maxIterations(_ full: Int, short: Int) -> Int {
        isShort ? min(full, short) : full
    }

    /// For a benchmark whose allocations differ from one iteration to the next (frames with
    /// different content) but repeat in the same order every run: in the short run, exactly
    /// `iterations` of them (the duration limit is lifted), so the gate always sees the same set
    /// and the same median. Unchanged in a full run.
    public static func fixedInShortRun(_ configuration: Benchmark.Configuration, iterations: Int) -> Benchmark.Configuration {
        guard isShort else { return configuration }
        var fixed = configuration
        fixed.maxIterations = iterations
        fixed.maxDuration = .seconds(60)
        return fixed
    }

    /// A suite's default configuration at this run length.
    public static func suiteDefault(metrics: [BenchmarkMetric] = [.throughput, .wallClock],
                                    warmupIterations: Int = 5, maxDuration: Duration = .seconds(3),
                                    maxIterations: Int = 10_000) -> Benchmark.Configuration {
        .init(metrics: metrics,
              warmupIterations: Self.warmupIterations(warmupIterations),
              maxDuration: Self.maxDuration(maxDuration),
              maxIterations: maxIterations)
    }
}
