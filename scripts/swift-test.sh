#!/bin/bash
# Runs `swift test` with its output as always, kept in a log, and when it fails ends with what
# failed: every failed XCTest case and Swift Testing test, the errors they reported, and any
# crash. CI shows only the end of a run, and `swift test` runs the XCTest cases first, so a
# failure there would otherwise lie thousands of lines above the end.
#   scripts/swift-test.sh [swift test's arguments]     (SWIFT: the swift binary; LOG: the log)
set -uo pipefail

swift=${SWIFT:-swift}
log=${LOG:-.build/swift-test.log}
mkdir -p "$(dirname "$log")"

"$swift" test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo "swift test failed (exit $status). What failed (the whole output is in $log):"
    # XCTest: "FILE:LINE: error: CASE : ..." and "Test Case '...' failed"; Swift Testing: "✘"
    # lines; the build: "FILE:LINE:COLUMN: error:"; a crash: "Fatal error", "Exited with", a
    # signal. The first 80, in the order they came (XCTest's first).
    grep -E ":[0-9]+: error: |Test Case '.*' failed|✘|Fatal error|Exited with|[Ss]ignal [0-9]|Segmentation fault" "$log" \
        | grep -v "^✘ Test run with" | head -n 80
    grep -E "^✘ Test run with|Executed [0-9]+ tests?, with [1-9]" "$log" | tail -n 3
fi
exit "$status"
