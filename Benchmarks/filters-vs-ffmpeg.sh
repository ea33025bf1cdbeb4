#!/usr/bin/env bash
# Times every CPU filter of vrender, and two-filter chains, on 1080p pictures against a memcpy
# of the same pictures (`vrender bench filter`, same run) and against libavfilter's nearest
# equivalent filtering the same picture in the ffmpeg CLI, so both figures are ratios measured
# on this machine at this moment:
#
#   filter ÷ memcpy   vrender's frames per second over memcpy's (target ≥ 0.5 with the AVX2 and
#                     AVX-512 row kernels, ≥ 0.25 with the portable ones: issue 43)
#   ffmpeg ÷ vrender  libavfilter's time per frame over vrender's (target ≥ 5)
#
# libavfilter's time per frame is (ffmpeg with the filter − ffmpeg with `null`) ÷ frames, both
# reading the same raw picture in the filter's own pixel format (yuv420p, or gbrp for the RGB
# filters, so no conversion is timed), with -filter_threads set to vrender's thread count.
#
# Usage (from anywhere):
#   Benchmarks/filters-vs-ffmpeg.sh [--json FILE] [--threads N]
#
# Environment:
#   VRENDER   vrender binary (default .build/release/vrender, built when missing; a VRENDER that
#             is set must exist)
#   FFMPEG    ffmpeg CLI (default: ffmpeg on PATH)
#   FRAMES    pictures per run (default 300); RUNS: runs of each, medians taken (default 3)
#   VRENDER_CPU=portable|avx2|avx512   the row kernels timed (default: the widest this CPU runs;
#             performance.sh runs this script once per variant the CPU has)
#
# Prints a table; with --json FILE writes its rows (docs/performance.md is made from them).
set -euo pipefail

usage() { sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "filters-vs-ffmpeg: $*" >&2; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"

json_out="" threads=2
while [[ $# -gt 0 ]]; do
    case "$1" in
        --json) [[ $# -ge 2 ]] || die "--json needs a file name"; json_out=$2; shift 2 ;;
        --threads) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || die "--threads needs a positive integer"; threads=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[[ -n $json_out ]] && json_out=$(absolute "$json_out")
bench_tools filters-vs-ffmpeg

frames=${FRAMES:-300}
[[ $frames =~ ^[1-9][0-9]*$ ]] || die "FRAMES must be a positive integer, got '$frames'"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# vrender filter | libavfilter's nearest equivalent | the pixel format it filters natively.
# mono/noir/tonal drop the colour as hue=s=0 or a luma lut does; the colour looks are tone
# curves on RGB (curves' presets), sepia a channel mix.
comparisons=(
    "mono|hue=s=0|yuv420p"
    "noir|lutyuv=y='clip((val-40)*1.4,0,255)':u=128:v=128|yuv420p"
    "tonal|lutyuv=y='clip(val*0.9+12,0,255)':u=128:v=128|yuv420p"
    "sepia|colorchannelmixer=.393:.769:.189:0:.349:.686:.168:0:.272:.534:.131|gbrp"
    "chrome|curves=preset=increase_contrast|gbrp"
    "fade|curves=preset=lighter|gbrp"
    "instant|curves=preset=vintage|gbrp"
    "process|curves=preset=cross_process|gbrp"
    "transfer|curves=preset=strong_contrast|gbrp"
)
chains=("mono,noir" "process,sepia" "chrome,fade")

# vrender_run FILTER: sets `ms` (mean ms per picture) and `memcpy_ratio` from one bench run.
vrender_run() {
    "$vrender" bench filter --filter "$1" --gpu cpu --threads "$threads" --frames "$frames" \
        --json "$work/bench.json" >/dev/null 2>"$work/bench.err" || { cat "$work/bench.err" >&2; die "vrender bench filter --filter $1 failed"; }
    read -r ms memcpy_ratio < <(python3 -c '
import json, sys
report = json.load(open(sys.argv[1]))
stage = next(s for s in report["stages"] if s["name"] == "filter")
print(stage["meanMs"], report["baseline"]["ratio"])' "$work/bench.json")
}

# ffmpeg_seconds FORMAT FILTERGRAPH: wall seconds (-benchmark's rtime) of filtering $frames pictures.
ffmpeg_seconds() {
    "$ffmpeg" -hide_banner -nostdin -benchmark -filter_threads "$threads" -f rawvideo -pix_fmt "$1" -s 1920x1080 \
        -stream_loop $((frames - 1)) -i "$work/picture.$1" -vf "$2" -f null - 2>&1 \
        | sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' | tail -n 1
}

for format in yuv420p gbrp; do
    "$ffmpeg" -hide_banner -loglevel error -nostdin -f lavfi -i "testsrc2=size=1920x1080:rate=1" -frames:v 1 \
        -pix_fmt "$format" -f rawvideo -y "$work/picture.$format"
done

rows=()
printf '%-16s %9s %8s  %-44s %9s %9s\n' "filter" "vrender" "÷memcpy" "libavfilter" "ffmpeg" "×faster" >&2
measure() {   # measure FILTER [FFMPEG_GRAPH FORMAT]
    local name=$1 graph=${2:-} format=${3:-} vr=() ratios=() ff=() run with without
    for ((run = 1; run <= runs; run++)); do
        vrender_run "$name"; vr+=("$ms"); ratios+=("$memcpy_ratio")
        if [[ -n $graph ]]; then
            with=$(ffmpeg_seconds "$format" "$graph")
            without=$(ffmpeg_seconds "$format" null)
            ff+=("$(awk -v a="$with" -v b="$without" -v n="$frames" 'BEGIN { printf "%.6f", (a - b) * 1000 / n }')")
        fi
    done
    local vr_ms ratio ff_ms="" faster=""
    vr_ms=$(median "${vr[@]}") ratio=$(median "${ratios[@]}")
    if [[ -n $graph ]]; then
        ff_ms=$(median "${ff[@]}")
        faster=$(awk -v a="$ff_ms" -v b="$vr_ms" 'BEGIN { printf "%.1f", a / b }')
    fi
    printf '%-16s %7.3fms %8.2f  %-44.44s %7s%s %9s\n' "$name" "$vr_ms" "$ratio" "${graph:--}" \
        "${ff_ms:+$(printf '%.3f' "$ff_ms")}" "${ff_ms:+ms}" "${faster:--}" >&2
    rows+=("$(printf '{"filter": "%s", "vrenderMs": %s, "memcpyRatio": %s, "ffmpegFilter": "%s", "ffmpegMs": %s, "timesFaster": %s}' \
        "$name" "$vr_ms" "$ratio" "${graph//\"/\\\"}" "${ff_ms:-null}" "${faster:-null}")")
}
for comparison in "${comparisons[@]}"; do
    IFS='|' read -r name graph format <<<"$comparison"
    measure "$name" "$graph" "$format"
done
for chain in "${chains[@]}"; do measure "$chain"; done

kernels=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["settings"].get("rowKernels", "?"))' "$work/bench.json")
echo "1920x1080, $threads threads, $frames pictures, median of $runs runs, vrender row kernels: $kernels," \
     "$("$ffmpeg" -version | sed -n 1p | cut -d' ' -f1-3)" >&2
if [[ -n $json_out ]]; then
    cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
    { printf '{"script": "filters-vs-ffmpeg", "threads": %s, "frames": %s, "runs": %s, "rowKernels": "%s", "cpu": "%s", "rows": [\n' \
        "$threads" "$frames" "$runs" "$kernels" "${cpu_model//\"/}"
      (IFS=$'\n'; printf '%s\n' "${rows[*]}") | sed '$!s/$/,/'
      printf ']}\n'; } > "$json_out"
    echo "filters-vs-ffmpeg: wrote $json_out" >&2
fi
