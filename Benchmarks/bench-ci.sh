#!/usr/bin/env bash
# The CI gate over the benchmarks (`make bench-ci`, run by .ci/run): a short run of every suite
# (VRENDER_BENCH_SHORT=1: warm-up and measurement cut to at most 2 iterations and 300 ms per
# benchmark), stored as the harness's baseline 'bench-ci' in .benchmarkBaselines/ (git-ignored),
# then BenchGate prints every benchmark's figures and checks the rules of
# Tools/BenchGate/GateRules.swift.
# Exit status: the harness's when a suite fails to build or a benchmark fails, else BenchGate's
# (0 all rules pass, 1 a rule failed, 2 the results could not be read).
set -euo pipefail
cd "$(dirname "$0")"
SWIFT=${SWIFT:-swift}
BASELINE=bench-ci
start=$(date +%s)

rm -rf .benchmarkBaselines/*/"$BASELINE"   # never gate on a previous run's results
VRENDER_BENCH_SHORT=1 $SWIFT package --disable-sandbox --allow-writing-to-package-directory \
    benchmark baseline update "$BASELINE" --no-progress --quiet
$SWIFT build -c release --product BenchGate --quiet

status=0
.build/release/BenchGate .benchmarkBaselines "$BASELINE" || status=$?
echo "bench-ci: $(( $(date +%s) - start )) s"
exit $status
