#!/usr/bin/env bash
# Chunked exports measured on this machine (docs/scale-out.md, the numbers in the notes):
#   1. wall time of the local engine by chunks and workers, against the same export in one pass;
#   2. the join's cost against a plain stream copy of the same chunk bytes (ffmpeg's concat
#      demuxer, -c copy) and against copying the files (cp).
# Every ratio is to a baseline measured in the same run: these machines are noisy.
#
#   usage: scripts/chunk-bench.sh [TAKE_SECONDS]     (three takes of that length, default 20)
#   env:   VRENDER (default .build/release/vrender), EXPORT_ARGS (default: --codec h264 --filter mono)
set -euo pipefail
cd "$(dirname "$0")/.."
vrender=${VRENDER:-.build/release/vrender}
seconds=${1:-20}
read -r -a export_args <<<"${EXPORT_ARGS:---codec h264 --filter mono}"
[ -x "$vrender" ] || { echo "chunk-bench: $vrender not built (make release)" >&2; exit 2; }
work=$(mktemp -d /tmp/chunk-bench.XXXX)
trap 'rm -rf "$work"' EXIT

# Three 720p takes of different rates, with audio: what a session of talking-head takes is like.
for spec in "a 30" "b 25" "c 30000/1001"; do
  set -- $spec
  ffmpeg -v error -f lavfi -i "testsrc2=size=1280x720:rate=$2" -f lavfi -i "sine=f=440:sample_rate=48000" \
    -t "$seconds" -c:v libx264 -preset veryfast -c:a aac -shortest "$work/take_$1.mp4"
done
takes=("$work"/take_*.mp4)

# wall LABEL CMD...: runs CMD, prints its wall time in seconds and keeps it in $last.
wall() {
  local label=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/last.err" || { cat "$work/last.err" >&2; exit 1; }
  end=$(date +%s.%N)
  last=$(awk "BEGIN { print $end - $start }")
  printf '%-34s %7.2f s' "$label" "$last"
}

echo "chunk-bench: ${#takes[@]} takes of ${seconds} s, 1280x720, ${export_args[*]}, $(nproc) processors"
wall "one pass" "$vrender" concat "${takes[@]}" "${export_args[@]}" -o "$work/one.mp4" --progress none
base=$last
echo
for workers in 1 2 4; do
  for chunks in 2 4 8; do
    rm -f "$work/out.mp4"
    wall "local, $workers worker(s), $chunks chunks" "$vrender" concat "${takes[@]}" "${export_args[@]}" \
      -o "$work/out.mp4" --engine local --workers "$workers" --chunks "$chunks"
    awk "BEGIN { printf \"   %.2fx one pass\\n\", $last / $base }"
  done
done

# The join alone: plan and render by hand, then join three ways over the same chunk files.
"$vrender" chunk plan "${takes[@]}" "${export_args[@]}" -o "$work/joined.mp4" --work-dir "$work/w" --chunks 8 >/dev/null
for chunk in $(seq 0 7); do "$vrender" chunk render "$work/w" --chunk "$chunk" --progress none >/dev/null; done
ls "$work"/w/chunks/*.mov | sed "s/.*/file '&'/" >"$work/list.txt"
bytes=$(cat "$work"/w/chunks/*.mov | wc -c)
echo "join of 8 chunks, $((bytes / 1000000)) MB of video:"
wall "  cp of the chunk files" cp "$work"/w/chunks/*.mov "$work/"; echo; copy=$last
wall "  ffmpeg concat -c copy (video)" ffmpeg -v error -f concat -safe 0 -i "$work/list.txt" -c copy "$work/ff.mov"
echo; ffcopy=$last
wall "  vrender concat --codec copy (video)" "$vrender" concat "$work"/w/chunks/*.mov --codec copy -o "$work/vr.mov" --progress none
echo
wall "  vrender chunk join (+ audio)" "$vrender" chunk join "$work/w" -o "$work/joined.mp4" --progress none
awk "BEGIN { printf \"   %.2fx ffmpeg stream copy, %.2fx cp\\n\", $last / $ffcopy, $last / $copy }"
