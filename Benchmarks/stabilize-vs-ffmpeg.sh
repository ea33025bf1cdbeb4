#!/usr/bin/env bash
# `concat --stabilize` against ffmpeg's two vidstab passes, in the same run, on the same file:
# a synthetic take shaken with `capture --shake`, stabilized by both with the same encoder
# settings (libx264, preset veryfast, CRF 23, the same smoothing radius), then every file's
# residual motion measured by ffmpeg alone (vidstabdetect, then vidstabtransform's debug file
# of global motions: mean |dx|, |dy| in pixels and |alpha| in radians per frame).
#
# Usage: Benchmarks/stabilize-vs-ffmpeg.sh [SIZE [AMPLITUDE[:SEED] [SECONDS]]]
#        (defaults 640x360, 8:1, 10)
# Environment:
#   VRENDER  vrender binary (default .build/release/vrender, else .build/debug/vrender)
#   FFMPEG   ffmpeg CLI (default: ffmpeg on PATH)
#   WORK     work folder (default: a temporary folder, removed at the end)
#   RUNS     timed runs of each (default 3; the best is reported)
# Prints the table; exit status 1 when vrender's residual exceeds 20% of the input's on either
# axis, or when vrender is not faster.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
size=${1:-640x360}
shake=${2:-8:1}
seconds=${3:-10}
runs=${RUNS:-3}
ffmpeg=${FFMPEG:-ffmpeg}
vrender=${VRENDER:-}
if [[ -z $vrender ]]; then
    vrender=.build/release/vrender
    [[ -x $vrender ]] || vrender=.build/debug/vrender
fi
[[ -x $vrender ]] || { echo "stabilize-vs-ffmpeg: no vrender binary (swift build --product vrender)" >&2; exit 2; }
vrender=$(realpath "$vrender")
if [[ -n ${WORK:-} ]]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
cd "$work"

rm -rf takes
"$vrender" capture --device synthetic --size "$size" --duration "${seconds}s" --shake "$shake" --audio none \
    --codec h264 --out takes >/dev/null 2>&1
input=$(ls takes/*.mov)
fps=30
radius=$(( fps ))  # vrender's default strength 0.5: 2 * 0.5 s of frames each side

now() { date +%s.%N; }
best_vrender=999999 best_ffmpeg=999999
for ((run = 0; run < runs; run++)); do
    start=$(now)
    "$vrender" concat takes -o vrender.mp4 --overwrite --stabilize --codec h264 --preset veryfast --crf 23 \
        --progress none 2>/dev/null >/dev/null
    t=$(echo "$(now) - $start" | bc); best_vrender=$(echo "if ($t < $best_vrender) $t else $best_vrender" | bc)
    start=$(now)
    "$ffmpeg" -nostdin -hide_banner -loglevel error -y -i "$input" -vf vidstabdetect=result=pass1.trf -f null -
    "$ffmpeg" -nostdin -hide_banner -loglevel error -y -i "$input" \
        -vf "vidstabtransform=input=pass1.trf:smoothing=$radius" -c:v libx264 -preset veryfast -crf 23 ffmpeg.mp4
    t=$(echo "$(now) - $start" | bc); best_ffmpeg=$(echo "if ($t < $best_ffmpeg) $t else $best_ffmpeg" | bc)
done

# Mean |dx| |dy| |alpha| of ffmpeg's own measurement of a file's frame-to-frame motion.
motion() {
    local dir; dir=$(mktemp -d -p .)
    (cd "$dir" && "$ffmpeg" -nostdin -hide_banner -loglevel error -i "../$1" -vf vidstabdetect=result=m.trf -f null - \
        && "$ffmpeg" -nostdin -hide_banner -loglevel error -i "../$1" -vf vidstabtransform=input=m.trf:debug=1 -f null - \
        && awk '!/^#/ && NF >= 5 { n++; x += ($2 < 0 ? -$2 : $2); y += ($3 < 0 ? -$3 : $3); a += ($4 < 0 ? -$4 : $4) }
                END { printf "%.3f %.3f %.5f\n", x / n, y / n, a / n }' global_motions.trf)
    rm -rf "$dir"
}
read -r in_x in_y in_a < <(motion "$input")
read -r vr_x vr_y vr_a < <(motion vrender.mp4)
read -r ff_x ff_y ff_a < <(motion ffmpeg.mp4)
pct() { echo "scale=1; 100 * $1 / $2" | bc; }
printf '%s, shake %s, %s s (vrender %s)\n' "$size" "$shake" "$seconds" "$vrender"
printf '%-26s %8s %8s %9s %8s %8s %8s\n' file "|dx|" "|dy|" "|alpha|" "dx %" "dy %" seconds
printf '%-26s %8s %8s %9s\n' "input (shaken)" "$in_x" "$in_y" "$in_a"
printf '%-26s %8s %8s %9s %8s %8s %8s\n' "vrender --stabilize" "$vr_x" "$vr_y" "$vr_a" "$(pct "$vr_x" "$in_x")" \
    "$(pct "$vr_y" "$in_y")" "$best_vrender"
printf '%-26s %8s %8s %9s %8s %8s %8s\n' "ffmpeg vidstab 2 passes" "$ff_x" "$ff_y" "$ff_a" "$(pct "$ff_x" "$in_x")" \
    "$(pct "$ff_y" "$in_y")" "$best_ffmpeg"
status=0
[[ $(echo "$vr_x <= 0.2 * $in_x && $vr_y <= 0.2 * $in_y" | bc) == 1 ]] || { echo "residual motion above 20% of the input's"; status=1; }
[[ $(echo "$best_vrender < $best_ffmpeg" | bc) == 1 ]] || { echo "vrender not faster than ffmpeg"; status=1; }
exit $status
