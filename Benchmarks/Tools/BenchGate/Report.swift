// What the gate prints: the run's figures, then one line per rule.

import Benchmark
import Foundation

enum Report {
    /// Every benchmark's iteration count, median wall-clock time and median of every other
    /// metric it recorded except throughput (the inverse of the time), suite by suite.
    static func printFigures(_ suites: [String: StoredSuite]) {
        for suite in GateRules.suites {
            guard let stored = suites[suite] else { continue }
            print("\n\(suite) (medians; wall-clock times are shown, never gated)")
            for entry in stored.entries {
                var figures: [String] = []
                if let wall = entry.results.first(where: { $0.metric == .wallClock }) {
                    figures.append("\(wall.statistics.measurementCount) it")
                    figures.append(formatTime(wall.value(atPercentile: 50)))
                }
                for result in entry.results where ![.wallClock, .throughput].contains(result.metric) {
                    figures.append("\(result.metric.description) \(result.value(atPercentile: 50))")
                }
                print("  " + pad(entry.name, 72) + figures.joined(separator: "  "))
            }
        }
    }

    /// Checks every rule, prints one line each, and returns the failures' messages.
    static func printVerdicts(_ suites: [String: StoredSuite]) -> [String] {
        print("\nGate rules (Benchmarks/Tools/BenchGate/GateRules.swift)")
        var failures: [String] = []
        for suite in GateRules.suites where suites[suite] == nil {
            failures.append("\(suite): no results stored: the suite did not run")
        }
        for rule in GateRules.rules {
            let subject = "\(rule.suite) / \(rule.benchmark): \(rule.measuredName)"
            switch rule.check(suites) {
            case .pass(let measured):
                print("  ok    \(subject) = \(measured) (limit \(rule.limit))")
            case .fail(let measured):
                print("  FAIL  \(subject) = \(measured) (limit \(rule.limit))")
                failures.append("\(subject) is \(measured), above its threshold \(rule.limit): \(rule.why)")
            case .missing(let reason):
                print("  FAIL  \(subject): \(reason)")
                failures.append("\(subject): \(reason)")
            case .skipped:
                print("  skip  \(subject): not run (no Vulkan device)")
            }
        }
        return failures
    }

    private static func formatTime(_ nanoseconds: Int) -> String {
        switch nanoseconds {
        case ..<10_000: return "\(nanoseconds) ns"
        case ..<10_000_000: return String(format: "%.1f µs", Double(nanoseconds) / 1e3)
        default: return String(format: "%.1f ms", Double(nanoseconds) / 1e6)
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
