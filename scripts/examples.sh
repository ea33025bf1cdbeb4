#!/usr/bin/env bash
# Usage: scripts/examples.sh
#
# The Examples/ package, built and run as a user would (`make examples`; CI runs it too):
#   1. the DocC tutorial "Export takes from your own Swift program" shows Examples' code: its
#      Package.swift and last step are Examples' files, and every line of its earlier steps is
#      in the program (so the tutorial cannot drift from what runs here);
#   2. builds Examples, in the repository's .build (whose debug build of the libraries it reuses);
#   3. runs export-takes into a temporary folder: two synthetic takes exported with mono;
#   4. judges the export with ffprobe/ffmpeg: 120 frames of 320x180 at 30 fps, HEVC (H.264 where
#      no HEVC encoder opens), 4 s of AAC sound that is not silent, no colour (mono);
#   5. checks it against the committed golden frames (Examples/golden) with `vrender golden check`.
# Environment: VRENDER (default .build/release/vrender, what `make examples` builds first), SWIFT.
# Exits 1 on the first failed check, saying which.
set -euo pipefail
cd "$(dirname "$0")/.."
VRENDER=${VRENDER:-.build/release/vrender}
SWIFT=${SWIFT:-swift}
tutorial=Sources/VRenderExport/VRenderExport.docc/Resources
program=Examples/Sources/export-takes/main.swift

fail() { echo "examples: $*" >&2; exit 1; }
[ -x "$VRENDER" ] || fail "$VRENDER not found: build it first (make release)"
for tool in ffprobe ffmpeg; do command -v $tool >/dev/null || fail "$tool not found (apt-get install ffmpeg)"; done

# 1. The tutorial's code is Examples' code.
diff -u Examples/Package.swift $tutorial/export-takes-package.swift \
    || fail "the tutorial's Package.swift ($tutorial/export-takes-package.swift) differs from Examples/Package.swift"
diff -u $program $tutorial/export-takes-05.swift \
    || fail "the tutorial's last step ($tutorial/export-takes-05.swift) differs from $program"
for step in $tutorial/export-takes-0[1-4].swift; do
    stray=$(grep -vxF -f $program "$step" || true)
    [ -z "$stray" ] || fail "$step has lines that are not in $program (update the step): $stray"
done
echo "examples: the tutorial's code is Examples' code"

# 2. Build, in the repository's own .build: its debug build of vrender's libraries (what `make
# test` left there) serves this one too, as their compile commands are the same; only the program
# is compiled (seconds, against minutes for a build of its own).
start=$SECONDS
$SWIFT build --package-path Examples --scratch-path .build --product export-takes
echo "examples: built Examples in $((SECONDS - start)) s"

# 3. Run.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
start=$SECONDS
.build/debug/export-takes "$scratch/out"
video=$scratch/out/export.mov
[ -f "$video" ] || fail "export-takes wrote no $video"
echo "examples: ran export-takes in $((SECONDS - start)) s"

# 4. ffprobe/ffmpeg.
probe() { ffprobe -v error -of default=noprint_wrappers=1:nokey=1 "$@" "$video"; }
v=$(probe -select_streams v -count_frames -show_entries stream=codec_name,width,height,avg_frame_rate,nb_read_frames | paste -sd,)
case "$v" in
    hevc,320,180,30/1,120 | h264,320,180,30/1,120) ;;
    *) fail "video stream: expected hevc (or h264),320,180,30/1,120 frames; ffprobe says $v" ;;
esac
a=$(probe -select_streams a -show_entries stream=codec_name,duration | paste -sd,)
awk -v a="$a" 'BEGIN { split(a, f, ","); exit !(f[1] == "aac" && f[2] > 3.95 && f[2] < 4.05) }' \
    || fail "audio stream: expected aac of 4 s; ffprobe says '$a'"
duration=$(probe -show_entries format=duration)
awk -v d="$duration" 'BEGIN { exit !(d > 3.95 && d < 4.05) }' || fail "duration: expected 4 s, ffprobe says $duration"
loudest=$(ffmpeg -hide_banner -nostats -i "$video" -map 0:a -af volumedetect -f null - 2>&1 | sed -n 's/.*max_volume: \(.*\) dB/\1/p')
awk -v m="$loudest" 'BEGIN { exit !(m != "" && m > -30) }' || fail "sound: expected speech, the loudest sample is ${loudest:-?} dB"
# Mono: every frame's chroma is neutral (128, give or take the encoder's rounding).
chroma=$(ffprobe -v error -f lavfi "movie=$video,signalstats" -of csv=p=0 \
    -show_entries frame_tags=lavfi.signalstats.UMIN,lavfi.signalstats.UMAX,lavfi.signalstats.VMIN,lavfi.signalstats.VMAX \
    | tr ',' '\n' | sort -n | sed -n '1p;$p' | paste -sd,)
[ "$chroma" = "128,128" ] || awk -v c="$chroma" 'BEGIN { split(c, f, ","); exit !(f[1] >= 126 && f[2] <= 130) }' \
    || fail "mono: expected neutral chroma in every frame, its range is $chroma"
echo "examples: ffprobe: $v; audio $a; duration $duration s; loudest $loudest dB; chroma $chroma (mono)"

# 5. Golden frames (a failure writes heat maps, diff-NNNNNN.png, into Examples/golden).
"$VRENDER" golden check "$video" --golden Examples/golden || fail "the export does not match Examples/golden"
echo "examples: passed"
