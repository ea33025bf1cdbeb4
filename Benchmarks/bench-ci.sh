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

# Built in vrender's own .build with `make release`'s flags (RELEASE_FLAGS, which make exports;
# else asked of the Makefile, their one home): vrender's modules compile to the same commands
# there, so its release build serves the benchmarks and only the harness and the suites are
# compiled here.
scratch=../.build
flags=${RELEASE_FLAGS:-$(make -s --no-print-directory -C .. release-flags)}
read -r -a release_flags <<<"$flags"
# Link flags alone (no compile command changes): the suites load the harness's malloc interposer,
# a shared library beside them, which the release flags' --disable-local-rpath would not find.
release_flags+=(-Xlinker -rpath -Xlinker '$ORIGIN')

rm -rf .benchmarkBaselines/*/"$BASELINE"   # never gate on a previous run's results
VRENDER_BENCH_SHORT=1 $SWIFT package --scratch-path "$scratch" "${release_flags[@]}" \
    --allow-writing-to-package-directory benchmark baseline update "$BASELINE" --no-progress --quiet
$SWIFT build --scratch-path "$scratch" "${release_flags[@]}" --product BenchGate --quiet

status=0
"$scratch/release/BenchGate" .benchmarkBaselines "$BASELINE" || status=$?
echo "bench-ci: $(( $(date +%s) - start )) s"
exit $status
