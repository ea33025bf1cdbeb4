#!/usr/bin/env bash
# Runs the tests of vrender's threaded and C-facing parts under a sanitizer (`make sanitize`, run
# by .ci/run): the frame ring, bounded queues and stage threads, StageTimings, the recorder and
# capture pipeline (synthetic camera), the export (Exporter, pipelined transcode, stream
# copy, cancellation, the timed concat bench), and the alignment's sound read on a thread of its
# own (TakeSound). Fails on any report.
#   address  AddressSanitizer + LeakSanitizer (overflows, use-after-free, leaks)
#   thread   ThreadSanitizer (data races, lock-order inversions)
# Vulkan tests are left out: lavapipe runs Mesa's uninstrumented LLVM JIT, whose threads and
# allocations the sanitizers cannot follow (and the export here never loads Vulkan: --gpu auto
# without a GPU device node stays on the CPU).
# Third-party findings are suppressed in scripts/sanitizers/*.supp, one line of why each.
# Time on 2 cores: a debug build of the package and its tests (~5 CPU-minutes: 3 min idle, 6 min
# measured on a busy machine; seconds when built), then the tests (~30 s).
#   usage: scripts/sanitize.sh address|thread      (SANITIZE_FILTER=REGEX narrows the tests)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
kind=${1:?usage: scripts/sanitize.sh address|thread}
case $kind in address|thread) ;; *) echo "sanitize: unknown sanitizer '$kind' (address or thread)" >&2; exit 2 ;; esac
BUILD=.build/sanitize-$kind
# The suites, by test target (Swift Testing ids are Target.Suite/test): anchored so that e.g.
# ExportTests does not also pick GPUExportTests.
declare -A suites=(
  [VRenderCoreTests]='BoundedQueueTests|QueueLockTests|StageTimingsTests'
  [VRenderRecordingTests]='FrameRingTests|RecorderTests|CaptureJobTests|TakeSchedulerTests|SoundRecordingTests|LockedFolderCaptureTests|PresenterRecordingTests'
  [VRenderCaptureTests]='SyntheticCameraTests|SyntheticMicrophoneTests|SyntheticPresenterTests'
  [VRenderExportTests]='ExportTests|ExportFailureTests|ExportCancellationTests|PacketRetimerTests|AudioAlignerTests|CopyAudioCheckTests|ManyTakesTests'
  [VRenderBenchTests]='ConcatBenchTests'
  [VRenderStudioTests]='StudioSessionTests|MediaPreviewEncoderTests'
  [VRenderAlignmentTests]='TakeSoundTests'
)
# Package.swift then builds only these test targets and what they need (no studio server, no
# SwiftNIO, no command line, no other tests).
export VRENDER_SANITIZE="${!suites[*]}"
SUPP=$PWD/scripts/sanitizers
by_target=()
for target in "${!suites[@]}"; do by_target+=("$target\\.(${suites[$target]})"); done
FILTER=${SANITIZE_FILTER:-"^($(IFS="|"; echo "${by_target[*]}"))[/.]"}

scripts/make-test-media.sh .build/test-media >/dev/null
export VRENDER_TEST_MEDIA=$PWD/.build/test-media

# Line tables only: reports keep file:line, the build skips full debug info. (The index store
# stays: test discovery on Linux reads it.) lld: gold warns ~100 times per ASan link.
flags=(--sanitize="$kind" --scratch-path "$BUILD" -Xswiftc -gline-tables-only -Xswiftc -use-ld=lld)
# Synchronization's Mutex hides its hand-overs from TSan: see Sources/VRenderCore/TSanMutex.swift.
[ "$kind" = thread ] && flags+=(-Xswiftc -DVRENDER_TSAN_MUTEX)
# A file that takes Mutex from Synchronization alone gets the real one here, and TSan then reports
# races on what it guards (a false report failed CI once): every Mutex user imports VRenderCore.
unshadowed=$(grep -rlE '\bMutex(<|\()' Sources --include='*.swift' | grep -v '^Sources/VRenderCore/' |
  xargs -r grep -L '^import VRenderCore$' || true)
if [ -n "$unshadowed" ]; then
  echo "sanitize: these files use Mutex without 'import VRenderCore' (see Sources/VRenderCore/TSanMutex.swift):" >&2
  echo "$unshadowed" >&2
  exit 1
fi
start=$(date +%s)
if ! $SWIFT build --quiet --build-tests "${flags[@]}" 2>&1 | tee "$BUILD.build.log"; then
  grep -q "'Mutex' is ambiguous" "$BUILD.build.log" && echo "sanitize: write Mutex(...) without a" \
    "': Mutex<T>' type annotation outside VRenderCore (see Sources/VRenderCore/TSanMutex.swift)" >&2
  exit 1
fi
built=$(date +%s)
echo "sanitize($kind): built in $(( built - start )) s ($BUILD)"

# The Swift runtime's backtracer would race the sanitizer's own report on a crash.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$SUPP/lsan.supp:print_suppressions=0
export TSAN_OPTIONS=suppressions=$SUPP/tsan.supp:halt_on_error=1:second_deadlock_stack=1:print_suppressions=0
status=0
$SWIFT test --skip-build "${flags[@]}" --filter "$FILTER" 2>&1 | tee "$BUILD/test.log" || status=$?
# A sanitizer report that did not stop the process (leaks are reported at exit) still fails.
if grep -q -E '^(==[0-9]+==ERROR|WARNING: ThreadSanitizer|SUMMARY: (Address|Leak|Thread)Sanitizer)' "$BUILD/test.log"; then
  echo "sanitize($kind): the sanitizer reported a problem (see above, and $BUILD/test.log)" >&2
  status=1
fi
echo "sanitize($kind): tests ran in $(( $(date +%s) - built )) s; $(( $(date +%s) - start )) s in all"
exit $status
