// BenchGate: the CI gate over a benchmark run (Benchmarks/bench-ci.sh runs it).
//
//     BenchGate [BASELINES_FOLDER [BASELINE_NAME]]     (defaults: .benchmarkBaselines bench-ci)
//
// Prints every benchmark's median wall-clock time (for reading, never gated) and the row kernels
// the filter suites ran (VRENDER_CPU, or the widest this CPU has), then checks every rule of
// GateRules.swift. Exit status 0 when all pass; 1 with one line per failure naming the
// suite, benchmark, metric, threshold and measured value; 2 when the results cannot be read.

import Benchmark
import Foundation
import VRenderFilters

let arguments = CommandLine.arguments.dropFirst()
let folder = URL(fileURLWithPath: arguments.first ?? ".benchmarkBaselines", isDirectory: true)
let baseline = arguments.dropFirst().first ?? "bench-ci"

var suites: [String: StoredSuite] = [:]
do {
    for suite in GateRules.suites {
        suites[suite] = try StoredSuite.read(folder: folder, suite: suite, baseline: baseline)
    }
} catch {
    print("bench gate: cannot read the results in \(folder.path) (\(error))")
    exit(2)
}

Report.printFigures(suites)
print("\nrow kernels: \(RowInstructions.summary): the filter cost limits are theirs (GateRules.kernels)")
let failures = Report.printVerdicts(suites)
if failures.isEmpty {
    print("\nbench gate: PASS (\(GateRules.rules.count) rules over \(suites.count) suites)")
} else {
    print("\nbench gate: FAIL")
    for failure in failures { print("  " + failure) }
    exit(1)
}
