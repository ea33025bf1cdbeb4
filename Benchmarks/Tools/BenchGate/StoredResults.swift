// Reading a baseline the harness stored (`swift package benchmark baseline update NAME` writes
// `.benchmarkBaselines/<suite>/<NAME>/results.json` per suite) with the harness's own result
// types, so percentiles come from the same histograms its tables print.

import Benchmark
import Foundation

/// One suite's stored results: every benchmark's recorded metrics.
struct StoredSuite {
    /// The benchmark's name as printed, tags included ("mono 1080p all threads (threads: 2)").
    struct Entry {
        let name: String
        let results: [BenchmarkResult]
    }

    let name: String
    let entries: [Entry]

    /// The entry for `benchmark`, a name as registered: tags, which may name this machine's
    /// thread count or GPU, are ignored.
    func entry(_ benchmark: String) -> Entry? {
        entries.first { $0.name == benchmark || $0.name.hasPrefix(benchmark + " (") }
    }

    /// Reads `<folder>/<suite>/<baseline>/results.json`; nil when the suite stored none.
    static func read(folder: URL, suite: String, baseline: String) throws -> StoredSuite? {
        let file = folder.appendingPathComponent(suite).appendingPathComponent(baseline)
            .appendingPathComponent("results.json")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let stored = try JSONDecoder().decode(StoredBaseline.self, from: Data(contentsOf: file))
        let entries = stored.results.filter { $0.key.target == suite }
            .map { Entry(name: $0.key.name, results: $0.value) }
            .sorted { $0.name < $1.name }
        return StoredSuite(name: suite, entries: entries)
    }
}

/// The part of the harness's stored baseline the gate reads (its `BenchmarkBaseline` is not
/// public; a dictionary with a struct key is stored as [key, value, key, value, ...]).
private struct StoredBaseline: Decodable {
    struct Identifier: Decodable, Hashable {
        let target: String
        let name: String
    }

    let results: [Identifier: [BenchmarkResult]]
}

extension BenchmarkResult {
    /// The value at `percentile` of what the iterations recorded, unscaled (nanoseconds for
    /// times, counts for counts). 50 is the median iteration, 100 the worst.
    func value(atPercentile percentile: Double) -> Int {
        // `percentiles(for:)` mirrors percentiles of metrics that prefer larger values
        // (throughput) so that high percentiles are the bad end; undo that to read the value.
        let asked = statistics.prefersLarger ? 100 - percentile : percentile
        return statistics.percentiles(for: [asked])[0]
    }
}
