#!/usr/bin/env bash
# Acceptance checks of `vrender concat` on a corpus made by a corpus script (by default the
# team's shared one), checked with ffprobe/ffmpeg as an independent judge.
#   usage: scripts/acceptance.sh [CORPUS_SCRIPT]    (needs .build/release/vrender: make release)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
script=${1:-$root/../shared/corpus/make-corpus.sh}
vrender=${VRENDER:-$root/.build/release/vrender}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
bash "$script" "$work/corpus" >/dev/null
cd "$work/corpus"
passed=0; failed=0
check() { # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
probe() { ffprobe -v error -select_streams "$2" -show_entries "$3" -of default=nw=1:nk=1 "$1" | head -1; }
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# Stream copy of matching takes.
"$vrender" concat same_*.mov -o "$work/out.mov" --progress none >/dev/null 2>"$work/copy.err"
check "same_*: stream copy chosen" grep -q "stream copy" "$work/copy.err"
check "same_*: 180 frames" [ "$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of default=nw=1:nk=1 "$work/out.mov")" = 180 ]
check "same_*: video 6.0 s" near "$(probe "$work/out.mov" v stream=duration)" 6.0 0.034
check "same_*: audio 6.0 s" near "$(probe "$work/out.mov" a stream=duration)" 6.0 0.05
check "same_*: decodes cleanly" [ -z "$(ffmpeg -v error -i "$work/out.mov" -f null - 2>&1)" ]

# Mixed takes with mono.
"$vrender" concat h264_720p30_aac48k.mov hevc_640x480_25_aac44k_mono.mp4 mpeg4_854x480_24_noaudio.mkv \
  portrait_rot90.mov --filter mono -o "$work/mixed.mov" --progress none >/dev/null 2>&1
check "mixed: exit 0 and output exists" [ -s "$work/mixed.mov" ]
check "mixed: duration 9 s within a frame" near "$(probe "$work/mixed.mov" v stream=duration)" 9.0 0.034
check "mixed: audio as long as video within 50 ms" near "$(probe "$work/mixed.mov" a stream=duration)" "$(probe "$work/mixed.mov" v stream=duration)" 0.05
check "mixed: 1280x720 canvas" [ "$(probe "$work/mixed.mov" v stream=width),$(probe "$work/mixed.mov" v stream=height)" = "1280,720" ]
check "mixed: every frame decodes" [ -z "$(ffmpeg -v error -i "$work/mixed.mov" -f null - 2>&1)" ]
ffmpeg -v error -i "$work/mixed.mov" -vf signalstats,metadata=print:file="$work/stats.txt" -f null - 2>/dev/null
check "mixed: chroma neutral on every frame (128±1.5)" awk -F= '/UAVG|VAVG/ { n++; if ($2 < 126.5 || $2 > 129.5) bad++ } END { exit !(n > 0 && bad == 0) }' "$work/stats.txt"
# The portrait take fills the centre column only: pillarboxed, upright (taller than wide).
ffmpeg -v error -ss 8 -i "$work/mixed.mov" -frames:v 1 -vf "crop=300:720:0:0,signalstats,metadata=print:file=$work/bar.txt" -f null - 2>/dev/null
check "mixed: portrait take pillarboxed (left bar black)" awk -F= '/YAVG/ { exit !($2 < 20) }' "$work/bar.txt"

# Uniform rotation stays metadata.
"$vrender" concat portrait_rot90.mov portrait_rot90.mov -o "$work/p.mov" --progress none >/dev/null 2>&1
rotation=$(ffprobe -v error -select_streams v -show_entries stream_side_data=rotation -of default=nw=1:nk=1 "$work/p.mov" | head -1)
check "portrait x2: rotation kept as metadata ($rotation)" [ "${rotation#-}" = 90 ]

# Broken inputs: exit 1, message names the file, no output left.
for bad in bad/*; do
  rm -f "$work/bad.mov"
  "$vrender" concat "$bad" same_1.mov -o "$work/bad.mov" --progress none >/dev/null 2>"$work/bad.err"; rc=$?
  check "$bad: exit 1" [ "$rc" = 1 ]
  check "$bad: message names it" grep -q "$bad" "$work/bad.err"
  check "$bad: no output file" [ ! -e "$work/bad.mov" ]
  check "$bad: no temporary file left" [ -z "$(ls -A "$work" | grep vrender-partial)" ]
done

echo "acceptance: $passed passed, $failed failed"
[ "$failed" = 0 ]
