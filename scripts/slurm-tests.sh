#!/usr/bin/env bash
# End-to-end checks of `vrender concat --engine slurm` against a real single-node Slurm cluster
# (slurmctld + slurmd + munge from Debian, started by scripts/slurm-cluster.sh under a temporary
# folder on ports of its own, stopped at the end). Outputs are judged with ffprobe/ffmpeg.
#
#   usage: scripts/slurm-tests.sh [--install]     (--install: scripts/install-deps.sh --slurm)
#   env:   VRENDER  vrender binary  [.build/release/vrender]; the jobs run the vrender-worker beside it
#
# 1. N chunks run as one job array and the join job waits for all of them (afterok): a lossless
#    export is the same pictures and audio as one pass; a lossy one has every frame, continuous
#    timestamps and audio as long as the video.
# 2. A planted failure (a folder squatting a chunk's file name) is tried again with a new array,
#    then reported with its log; with the cause gone, --resume submits only that chunk.
# 3. vrender killed (SIGKILL) mid-run: --resume cancels the jobs the killed run left and submits
#    only the chunks missing from the done-list. Ctrl-C (SIGINT) cancels the jobs itself, exits
#    130 and leaves the folder resumable.
# Prints "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
vrender=${VRENDER:-.build/release/vrender}
case $vrender in /*) ;; *) vrender=$root/$vrender ;; esac
[ "${1:-}" = --install ] && scripts/install-deps.sh --slurm
[ -x "$vrender" ] || { echo "slurm-tests: no vrender binary at $vrender (make release, or set VRENDER)" >&2; exit 2; }
# vrender finds its worker beside the file it runs from (/proc/self/exe: links resolved, so
# .build/release/ is .build/<triple>/release/), and the job scripts name it so.
worker=$(dirname "$(readlink -f "$vrender")")/vrender-worker
[ -x "$worker" ] || { echo "slurm-tests: no vrender-worker beside $vrender (make release builds both)" >&2; exit 2; }

# Short: slurmd's unix sockets live under the cluster folder (108-byte limit).
work=$(mktemp -d /tmp/vrs.XXXXXX)
trap 'scripts/slurm-cluster.sh stop "$work/c" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
passed=0; failed=0
check() { # check NAME COMMAND...: one verdict line
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
contains() { grep -qF -- "$2" "$1" || { echo "     $1 lacks: $2" >&2; sed 's/^/     | /' "$1" >&2; false; }; }
same() { [ "$1" = "$2" ] || { echo "     '$1' != '$2'" >&2; false; }; }

# Three takes of three sizes and rates, the middle one without audio.
ffmpeg -v error -f lavfi -i testsrc2=size=640x360:rate=30 -f lavfi -i sine=f=440:sample_rate=48000 -t 4 \
  -c:v libx264 -g 30 -bf 2 -c:a aac -shortest "$work/a.mp4"
ffmpeg -v error -f lavfi -i testsrc=size=480x360:rate=25 -t 3 -c:v libx265 -x265-params log-level=error "$work/b.mkv"
ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=24 -f lavfi -i sine=f=220:sample_rate=44100 -t 5 \
  -c:v libx264 -c:a aac -shortest "$work/c.mov"
takes=("$work/a.mp4" "$work/b.mkv" "$work/c.mov")

pictures() { ffmpeg -v error -i "$1" -map 0:v -f framemd5 - | grep -v '^#' | awk -F, '{ print $NF }' | md5sum; }
sound() { ffmpeg -v error -i "$1" -map 0:a -f md5 -; }
jobs_of() { sed -n 's/^chunks: slurm job \([0-9]*\): array of .*/\1/p' "$1"; }
arrays() { grep -o 'array of [0-9]* task(s), chunks [0-9,-]*' "$1" || true; }
# wait_for SECONDS COMMAND...: until COMMAND succeeds (a condition, never a duration to wait).
wait_for() { local limit=$1 _; shift; for _ in $(seq "$((limit * 10))"); do "$@" && return 0; sleep 0.1; done; false; }
done_count() { find "$1/done" -name 'chunk_*.json' 2>/dev/null | wc -l; }   # chunks, not the sound
has_done() { [ "$(done_count "$1")" -ge "$2" ]; }
no_jobs_left() { [ -z "$(squeue -h -o %j | grep '^vrender-')" ]; }

"$vrender" concat "${takes[@]}" --codec ffv1 -o "$work/one.mkv" --progress none 2>/dev/null
eval "$(scripts/slurm-cluster.sh start "$work/c")"

# 1. An array and a join that waits for it.
status=0
"$vrender" concat "${takes[@]}" --codec ffv1 -o "$work/s4.mkv" --engine slurm --chunks 4 2>"$work/s4.err" || status=$?
check "ffv1, 4 chunks: exit 0" same "$status" 0
check "4 chunks run as one array with a join that waits for it" contains "$work/s4.err" "array of 5 task(s), chunks 0-3 and the sound; join job"
check "ffv1, 4 chunks: the same pictures as one pass" same "$(pictures "$work/s4.mkv")" "$(pictures "$work/one.mkv")"
check "ffv1, 4 chunks: the same audio as one pass" same "$(sound "$work/s4.mkv")" "$(sound "$work/one.mkv")"
array=$(jobs_of "$work/s4.err")
check "slurm ran tasks 0-3 (and 4, the sound) of job $array, then the join" python3 - "$work/c/log/jobcomp.log" "$array" <<'PY'
import re, sys
records = [dict(re.findall(r"(\w+)=(\S*)", line)) for line in open(sys.argv[1])]
tasks = [r for r in records if r.get("Name") == "vrender-chunk" and r.get("JobState") == "COMPLETED"]
joins = [r for r in records if r.get("Name") == "vrender-join"]
ok = sorted(t["ArrayTaskId"] for t in tasks if t["ArrayJobId"] == sys.argv[2]) == ["0", "1", "2", "3", "4"] \
    and len(joins) == 1 and joins[0]["JobState"] == "COMPLETED" \
    and all(joins[0]["StartTime"] >= t["EndTime"] for t in tasks)
if not ok: print("     ", records, file=sys.stderr)
sys.exit(0 if ok else 1)
PY
check "the work folder is removed after success" [ ! -e "$work/s4.mkv.chunks" ]

status=0
"$vrender" concat "${takes[@]}" --codec h264 -o "$work/lossy.mp4" --engine slurm --chunks 3 2>"$work/lossy.err" || status=$?
check "h264, 3 chunks: exit 0" same "$status" 0
check "h264: every frame, decodable" same "$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 "$work/lossy.mp4"),$(ffmpeg -v error -i "$work/lossy.mp4" -f null - 2>&1 | wc -l)" "360,0"
check "h264: continuous timestamps, audio within 20 ms of the video" python3 - "$work/lossy.mp4" <<'PY'
import json, subprocess, sys
probe = lambda *a: json.loads(subprocess.run(["ffprobe", "-v", "error", "-of", "json", *a, sys.argv[1]], capture_output=True, text=True).stdout)
packets = probe("-select_streams", "v", "-show_entries", "packet=pts,dts")["packets"]
pts = sorted(p["pts"] for p in packets); dts = [p["dts"] for p in packets]
streams = {s["codec_type"]: float(s["duration"]) for s in probe("-show_entries", "stream=codec_type,duration")["streams"]}
ok = len(set(b - a for a, b in zip(pts, pts[1:]))) == 1 and all(b > a for a, b in zip(dts, dts[1:])) \
    and abs(streams["video"] - 12) < 0.001 and abs(streams["audio"] - streams["video"]) <= 0.020
if not ok: print("     ", streams, file=sys.stderr)
sys.exit(0 if ok else 1)
PY

# 2. A planted failure: tried again, then reported with its log; resumed once the cause is gone.
plan_args=("${takes[@]}" --codec ffv1 -o "$work/f.mkv" --work-dir "$work/f")
"$vrender" chunk plan "${plan_args[@]}" --chunks 3 >/dev/null
mkdir -p "$work/f/chunks/chunk_0002.mov"
status=0
"$vrender" concat "${plan_args[@]}" --engine slurm --resume --max-tries 2 2>"$work/f.err" || status=$?
check "a chunk failing twice fails the export (exit 1)" same "$status" 1
check "the failed chunk is tried again in a new array" same "$(arrays "$work/f.err" | tr '\n' '|')" "array of 4 task(s), chunks 0-2|array of 1 task(s), chunks 2|"
second=$(jobs_of "$work/f.err" | tail -1)
check "the error names the chunk and its log" contains "$work/f.err" "vrender: error: chunk 2: failed 2 time(s); its log is $work/f/logs/chunk_0002.job$second.log"
check "the log says why (the worker's error)" contains "$work/f/logs/chunk_0002.job$second.log" "vrender-worker: error:"
check "the join job is given its output on its command line" contains "$work/f/slurm/join.sh" "exec '$worker' join '$work/f' -o '$work/f.mkv'"
check "the array's tasks run vrender-worker" contains "$work/f/slurm/render.sh" "exec '$worker' render '$work/f' --chunk"
rmdir "$work/f/chunks/chunk_0002.mov"
"$vrender" concat "${plan_args[@]}" --engine slurm --resume 2>"$work/f2.err" || true
check "--resume submits only the failed chunk" same "$(arrays "$work/f2.err")" "array of 1 task(s), chunks 2"
check "the resumed export is whole" same "$(pictures "$work/f.mkv")" "$(pictures "$work/one.mkv")"

# 3. Killed mid-run, then resumed; Ctrl-C.
kill_args=("${takes[@]}" --codec ffv1 -o "$work/k.mkv" --work-dir "$work/k" --engine slurm --chunks 12)
"$vrender" concat "${kill_args[@]}" 2>"$work/k.err" &
pid=$!
wait_for 120 has_done "$work/k" 2 || true
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
before=$(done_count "$work/k")
check "killed with chunks still to render" test "$before" -lt 12
"$vrender" concat "${kill_args[@]}" --resume 2>"$work/k2.err" || true
check "--resume cancels the jobs the killed run left" contains "$work/k2.err" "cancelled the jobs an earlier run left"
resumed=$(sed -n 's/.*resumed: \([0-9]*\) already rendered.*/\1/p' "$work/k2.err")
check "--resume keeps at least the $before chunks rendered before it" test "${resumed:-0}" -ge "$before"
sound_task=0   # the sound's task, when the killed run had not encoded it yet
grep -q "and the sound" "$work/k2.err" && sound_task=1
check "--resume submits only the missing chunks" contains "$work/k2.err" "array of $((12 - ${resumed:-0} + sound_task)) task(s)"
check "the resumed export is whole" same "$(pictures "$work/k.mkv")" "$(pictures "$work/one.mkv")"

"$vrender" concat "${takes[@]}" --codec ffv1 -o "$work/i.mkv" --work-dir "$work/i" --engine slurm --chunks 12 2>"$work/i.err" &
pid=$!
wait_for 120 has_done "$work/i" 1 || true
kill -INT "$pid" 2>/dev/null || true
status=0; wait "$pid" || status=$?
check "Ctrl-C exits 130" same "$status" 130
check "Ctrl-C cancels the jobs it submitted" wait_for 10 no_jobs_left
check "Ctrl-C leaves the work folder resumable" test -f "$work/i/plan.json"
"$vrender" concat "${takes[@]}" --codec ffv1 -o "$work/i.mkv" --work-dir "$work/i" --engine slurm --resume 2>"$work/i2.err" || true
check "after Ctrl-C, --resume finishes the export" same "$(pictures "$work/i.mkv")" "$(pictures "$work/one.mkv")"

echo "slurm-tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
