#!/usr/bin/env bash
# `concat --stabilize` against ffmpeg's two vidstab passes, in the same run, on the same file:
# a synthetic take shaken with `capture --shake`, stabilized by both with the same encoder
# settings (libx264, preset veryfast, CRF 23), the same smoothing radius and the same fixed zoom
# (vrender's default strength 0.5: ±30 frames, 8%), then each file's residual motion measured
# without vrender, two ways:
#   - against the unshaken frames of the same seed (the synthetic camera without --shake): the
#     picture's displacement by phase correlation (Benchmarks/stabilize_residual.py: ffmpeg
#     decodes, numpy (python3-numpy) measures), mean |dx| |dy| in pixels. This is the shake the viewer sees, and
#     what the exit status judges.
#   - frame to frame, by ffmpeg's own vidstabdetect (then vidstabtransform's debug file of
#     global motions: mean |dx|, |dy| and |alpha| per frame). It also counts its own measuring
#     noise and the scene's moving parts (0.04-0.06 px on the unshaken take), so it reads higher.
#
# Usage: Benchmarks/stabilize-vs-ffmpeg.sh [SIZE [AMPLITUDE[:SEED] [SECONDS]]]
#        (defaults 640x360, 8:1, 10)
# Environment:
#   VRENDER  vrender binary (default .build/release/vrender, else .build/debug/vrender)
#   FFMPEG   ffmpeg CLI (default: ffmpeg on PATH)
#   WORK     work folder (default: a temporary folder, removed at the end)
#   RUNS     timed runs of each (default 3; the best is reported)
# Prints the table; exit status 1 when vrender's residual against the unshaken frames exceeds
# 20% of the input's on either axis, or when vrender is not faster.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
here=$PWD
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
python3 -c 'import numpy' 2>/dev/null || { echo "stabilize-vs-ffmpeg: needs numpy (apt-get install python3-numpy)" >&2; exit 2; }
vrender=$(realpath "$vrender")
if [[ -n ${WORK:-} ]]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
cd "$work"

rm -rf takes still
"$vrender" capture --device synthetic --size "$size" --duration "${seconds}s" --shake "$shake" --audio none \
    --codec h264 --out takes >/dev/null 2>&1
"$vrender" capture --device synthetic --size "$size" --duration "${seconds}s" --audio none \
    --codec h264 --out still >/dev/null 2>&1
input=$(ls takes/*.mov)
unshaken=$(ls still/*.mov)
fps=30
radius=$(( fps ))  # vrender's default strength 0.5: 2 * 0.5 s of frames each side
zoom=8             # and its zoom: 4% + 8% * 0.5

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
        -vf "vidstabtransform=input=pass1.trf:smoothing=$radius:optzoom=0:zoom=$zoom" -c:v libx264 -preset veryfast \
        -crf 23 ffmpeg.mp4
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
residual() { python3 "$here/Benchmarks/stabilize_residual.py" --ffmpeg "$ffmpeg" "$unshaken" "$@" | cut -d' ' -f2,3; }
read -r in_x in_y in_a < <(motion "$input")
read -r vr_x vr_y vr_a < <(motion vrender.mp4)
read -r ff_x ff_y ff_a < <(motion ffmpeg.mp4)
read -r rin_x rin_y < <(residual "$input")
read -r rvr_x rvr_y < <(residual vrender.mp4 --zoom "$zoom")
read -r rff_x rff_y < <(residual ffmpeg.mp4 --zoom "$zoom")
pct() { echo "scale=1; 100 * $1 / $2" | bc; }
row() { printf '%-26s %8s %8s %9s %8s %8s %8s\n' "$@"; }
printf '%s, shake %s, %s s (vrender %s)\n' "$size" "$shake" "$seconds" "$vrender"
echo "against the unshaken frames (phase correlation), pixels:"
row file "|dx|" "|dy|" "" "dx %" "dy %" seconds
row "input (shaken)" "$rin_x" "$rin_y" ""
row "vrender --stabilize" "$rvr_x" "$rvr_y" "" "$(pct "$rvr_x" "$rin_x")" "$(pct "$rvr_y" "$rin_y")" "$(printf %.2f "$best_vrender")"
row "ffmpeg vidstab 2 passes" "$rff_x" "$rff_y" "" "$(pct "$rff_x" "$rin_x")" "$(pct "$rff_y" "$rin_y")" "$(printf %.2f "$best_ffmpeg")"
echo "frame to frame (ffmpeg vidstabdetect), pixels and radians:"
row file "|dx|" "|dy|" "|alpha|" "dx %" "dy %" "alpha %"
row "input (shaken)" "$in_x" "$in_y" "$in_a"
row "vrender --stabilize" "$vr_x" "$vr_y" "$vr_a" "$(pct "$vr_x" "$in_x")" "$(pct "$vr_y" "$in_y")" "$(pct "$vr_a" "$in_a")"
row "ffmpeg vidstab 2 passes" "$ff_x" "$ff_y" "$ff_a" "$(pct "$ff_x" "$in_x")" "$(pct "$ff_y" "$in_y")" "$(pct "$ff_a" "$in_a")"
status=0
[[ $(echo "$rvr_x <= 0.2 * $rin_x && $rvr_y <= 0.2 * $rin_y" | bc) == 1 ]] || { echo "residual motion above 20% of the input's"; status=1; }
[[ $(echo "$best_vrender < $best_ffmpeg" | bc) == 1 ]] || { echo "vrender not faster than ffmpeg"; status=1; }
exit $status
