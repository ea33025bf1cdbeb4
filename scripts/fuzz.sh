#!/usr/bin/env bash
# Fuzzes vrender (`make fuzz`, run by .ci/run): builds the libFuzzer targets of Fuzz/ once, with
# AddressSanitizer, then runs each target for FUZZ_SECONDS (default 60), one after the other:
#   media          Probe.probe + demux every packet + decode a few (testdata/fuzz/media/)
#   action-script  ActionScript(text:source:)                       (testdata/fuzz/action-script/)
#   takes-json     TakesFolder.manifest(in:) + takePaths(in:)        (testdata/fuzz/takes-json/)
#   chunk-plan     WorkFolder.loadPlan + ChunkStatus: plan.json, done records, slurm/jobs
#                                                                    (testdata/fuzz/chunk-plan/)
# Fails when any target crashes, trips AddressSanitizer or a target's own check, hangs past
# -timeout or outgrows -rss_limit_mb; the input that did it is kept under .build/fuzz-out/ and the
# command that replays it is printed.
# Time on 2 cores: the build ~1.5 min from clean (seconds when built), then FUZZ_SECONDS per
# target: 5.5 min in all by default.
#   usage: scripts/fuzz.sh [TARGET...]      FUZZ_SECONDS=600 scripts/fuzz.sh media
#          FUZZ_FLAGS="-seed=1" scripts/fuzz.sh    (more libFuzzer flags, after the script's own)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-60}
BUILD=.build/fuzz            # the Fuzz package's scratch path (vrender's libraries, instrumented)
OUT=.build/fuzz-out          # corpora grown by runs, artifacts, logs
declare -A EXECUTABLE=([media]=FuzzMedia [action-script]=FuzzActionScript [takes-json]=FuzzTakesManifest [chunk-plan]=FuzzChunkPlan)
declare -A MAX_LEN=([media]=16384 [action-script]=4096 [takes-json]=4096 [chunk-plan]=8192)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(media action-script takes-json chunk-plan)
for target in "${targets[@]}"; do
  [ -n "${EXECUTABLE[$target]:-}" ] || { echo "fuzz: unknown target '$target' (known: ${!EXECUTABLE[*]})" >&2; exit 2; }
done

# SwiftPM's --sanitize flags make it link libFuzzer's main and the runtimes, but it hands swiftc
# two -sanitize= flags and the Swift driver keeps only the last (fuzzer): the Swift code would
# have no ASan checks. The trailing -sanitize=fuzzer,address is the one swiftc keeps.
# lld: gold prints ~100 "cannot export local symbol" warnings per link of an ASan executable.
start=$(date +%s)
$SWIFT build --quiet --package-path Fuzz --scratch-path "$BUILD" --sanitize=fuzzer --sanitize=address \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
echo "fuzz: built in $(( $(date +%s) - start )) s ($BUILD/debug)"

# The Swift runtime's backtracer would catch a crash before libFuzzer and never save the input.
export SWIFT_BACKTRACE=enable=no
# Leak checks stay on (libFuzzer checks each input that allocates more than it frees); the
# third-party leaks found so far are suppressed in scripts/sanitizers/lsan.supp, each with its why.
export LSAN_OPTIONS=suppressions=$PWD/scripts/sanitizers/lsan.supp:print_suppressions=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=1:strict_string_checks=1}

run_target() {
  local target=$1 binary=$BUILD/debug/${EXECUTABLE[$1]}
  local corpus=$OUT/corpus/$target artifacts=$OUT/artifacts/$target log=$OUT/$target.log
  mkdir -p "$corpus" "$artifacts"
  local flags=(-max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 -max_len="${MAX_LEN[$target]}"
               -artifact_prefix="$artifacts/" -print_final_stats=1)
  [ -f "testdata/fuzz/$target.dict" ] && flags+=(-dict="testdata/fuzz/$target.dict")
  # shellcheck disable=SC2206   # FUZZ_FLAGS is a list of libFuzzer flags, split on spaces
  flags+=(${FUZZ_FLAGS:-})       # e.g. FUZZ_FLAGS="-seed=1 -jobs=2"; later flags win
  # New inputs go to the first folder (git-ignored); the committed seeds are only read.
  local status=0
  "$binary" "${flags[@]}" "$corpus" "testdata/fuzz/$target" >"$log" 2>&1 || status=$?
  local first last
  first=$(grep -m1 -E '^#[0-9]+[[:space:]]+INITED' "$log" || true)
  last=$(grep -E '^#[0-9]+[[:space:]]+(DONE|NEW|REDUCE|pulse|INITED)' "$log" | tail -1 || true)
  echo "fuzz: $target: start ${first:-none}"
  echo "fuzz: $target: end   ${last:-none}"
  if grep -q -E 'no interesting inputs were found|Is the code instrumented' "$log"; then
    echo "fuzz: $target: libFuzzer sees no coverage: the build is not instrumented ($log)" >&2
    return 1
  fi
  if [ $status -ne 0 ]; then
    echo "fuzz: $target FAILED (exit $status); the end of $log:" >&2
    tail -n 60 "$log" >&2
    local input
    input=$(grep -o -E 'Test unit written to [^ ]+' "$log" | tail -1 | sed 's/Test unit written to //' || true)
    echo "fuzz: $target: the input is ${input:-(none written: see $log)}" >&2
    echo "fuzz: replay it: SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=$LSAN_OPTIONS $binary ${input:-INPUT}" >&2
  fi
  return $status
}

failed=()
for target in "${targets[@]}"; do
  run_target "$target" || failed+=("$target")
done
echo "fuzz: $(( $(date +%s) - start )) s in all"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs kept under $OUT/artifacts/)" >&2
  exit 1
fi
