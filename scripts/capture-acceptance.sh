#!/usr/bin/env bash
# Real-time capture checks that need a release build and wall-clock time, so they live here
# rather than in the unit tests: the synthetic camera paced to real time at 1080p30 must record
# every frame with the normal encoder on a 2-core machine, and keys on a terminal drive a take.
#   usage: scripts/capture-acceptance.sh    (needs .build/release/vrender: make release)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vrender=${VRENDER:-$root/.build/release/vrender}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
passed=0; failed=0
check() { local name=$1; shift; if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi; }
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['takes'][0][sys.argv[2]])" "$1/takes.json" "$2"; }

"$vrender" capture --device synthetic --out "$work/rt" --duration 4s --size 1920x1080 --fps 30 --realtime 2>"$work/rt.err"
check "1080p30 realtime: exit 0" [ $? = 0 ]
check "1080p30 realtime: 120 frames ($(field "$work/rt" frames))" [ "$(field "$work/rt" frames)" = 120 ]
check "1080p30 realtime: no drops ($(field "$work/rt" dropped))" [ "$(field "$work/rt" dropped)" = 0 ]
check "1080p30 realtime: the take decodes cleanly" [ -z "$(ffmpeg -v error -i "$work/rt/$(field "$work/rt" file)" -f null - 2>&1)" ]

python3 -c "import json,sys; l=json.load(open(sys.argv[1]))['takes'][0].get('latency') or {}; print('1080p30 realtime capture-to-file latency: p50 %.1f ms, p99 %.1f ms, max %.1f ms' % (l.get('p50',0), l.get('p99',0), l.get('max',0)))" "$work/rt/takes.json"
# Keys on a terminal: a pseudo-terminal driven by a script, as a person would type.
python3 "$root/scripts/interactive-capture.py" "$vrender" "$work/keys"
check "interactive capture with keys" [ $? = 0 ]

echo "capture acceptance: $passed passed, $failed failed"
[ "$failed" = 0 ]
