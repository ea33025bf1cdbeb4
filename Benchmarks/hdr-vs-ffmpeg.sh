#!/usr/bin/env bash
# Compares an HDR → SDR export of vrender with the ffmpeg CLI doing the same job, in the same run,
# on the same machine: an 8 s 1920x1080 30 fps HLG 10-bit HEVC take (made once with libx265,
# tagged BT.2020/HLG) exported with `--filter mono` (tone-mapped to SDR BT.709 first), against
# ffmpeg's zscale + tonemap=mobius + hue=s=0, both encoding with libx265 -preset veryfast
# -crf 28 (what vrender picks for this export: HEVC, its default preset, x265's default CRF)
# and AAC 160 kb/s. Then checks vrender's picture against the exact math: a lossless export
# (--codec ffv1, no filter) compared frame by frame with Benchmarks/hdr_reference.py (numpy).
#
# Usage (from the repository root, or from anywhere):
#   Benchmarks/hdr-vs-ffmpeg.sh [--cpu VARIANT[,VARIANT...]] [--json FILE]
#
#   --cpu        time vrender once per row-kernel variant named (VRENDER_CPU: portable, avx2,
#                avx512; each must run on this CPU), each against the same ffmpeg runs
#                (default: the variant vrender picks here)
#
# Environment:
#   VRENDER      vrender binary (default .build/release/vrender, built with
#                `swift build -c release --product vrender` when missing; a VRENDER that is set
#                must exist: it is never built)
#   FFMPEG       ffmpeg CLI with zscale (libzimg) and libx265 (default: ffmpeg on PATH); FFPROBE
#   PYTHON       python3 with numpy, for the picture check (default python3; skipped without)
#   RUNS         timed runs of each command, alternating vrender and ffmpeg (default 3)
#   BENCH_MEDIA  work folder for the take and the outputs (default .build/bench-media,
#                relative to the repository root); the take is made once and reused
#
# Prints a table at the end; with --json FILE also writes the numbers as JSON.
set -euo pipefail

usage() { sed -n '2,28p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "hdr-vs-ffmpeg: $*" >&2; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"

json_out="" variants=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --json) [[ $# -ge 2 ]] || die "--json needs a file name"; json_out=$2; shift 2 ;;
        --json=*) json_out=${1#--json=}; shift ;;
        --cpu) [[ $# -ge 2 ]] || die "--cpu needs variants"; variants=${2//,/ }; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

[[ -n $json_out ]] && json_out=$(absolute "$json_out")
bench_tools hdr-vs-ffmpeg

python=${PYTHON:-python3}
"$ffmpeg" -hide_banner -filters 2>/dev/null | grep -w zscale >/dev/null || die "$ffmpeg has no zscale filter (built without libzimg)"
"$ffmpeg" -hide_banner -encoders 2>/dev/null | grep -w libx265 >/dev/null || die "$ffmpeg has no libx265 encoder"

work=${BENCH_MEDIA:-.build/bench-media}
case "$work" in /*) ;; *) work=$root/$work ;; esac
out=$work/out logs=$work/logs
mkdir -p "$out" "$logs"

bench_gnu_time hdr-vs-ffmpeg

# --- the take: 8 s of 1920x1080 30 fps HLG 10-bit HEVC + 48 kHz stereo AAC, made once ---------
take=$work/take-hlg.mp4
if [[ ! -s $take ]]; then
    echo "hdr-vs-ffmpeg: making $take" >&2
    "$ffmpeg" -hide_banner -loglevel error -nostdin \
        -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=8" \
        -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=8" \
        -vf format=yuv420p10le -c:v libx265 -preset veryfast -crf 20 \
        -x265-params "log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:range=limited" \
        -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -color_range tv -tag:v hvc1 \
        -c:a aac -b:a 128k -shortest -f mp4 -y "$take.partial" \
        && mv "$take.partial" "$take"
fi
cat "$take" > /dev/null   # warm the page cache so no run pays for the first read

# --- running and timing (`timed`, Benchmarks/bench-lib.sh) ------------------------------------

# The same encoder and settings on both sides; tone mapping as each tool does it.
encoder=(-c:v libx265 -preset veryfast -crf 28 -x265-params log-level=error -c:a aac -b:a 160k)
chain="zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=mobius:desat=0"
chain+=",zscale=t=bt709:m=bt709:r=tv,format=yuv420p,hue=s=0"
vrender_command=("$vrender" concat "$take" --filter mono --codec hevc --preset veryfast --crf 28
    -o "$out/hdr.mp4" --overwrite --progress none)
ffmpeg_command=("$ffmpeg" -hide_banner -nostdin -i "$take" -vf "$chain" "${encoder[@]}" -y "$out/hdr_ff.mp4")
# The row kernels' variants timed: each vrender tool is `vrender-VARIANT`.
if [[ -z $variants ]]; then
    variants=$("$vrender" doctor --json 2>/dev/null | python3 -c 'import json, re, sys
cpu = next(f for f in json.load(sys.stdin)["findings"] if f["area"] == "CPU")
print(re.search(r"run the (\w+) ", cpu["detail"]).group(1))') || die "could not read the row kernels from '$vrender doctor --json'"
fi
tools=()
for variant in $variants; do
    VRENDER_CPU=$variant "$vrender" doctor >/dev/null 2>&1 || [[ $? -ne 2 ]] \
        || die "VRENDER_CPU=$variant: this CPU cannot run it (see VRENDER_CPU=$variant $vrender doctor)"
    tools+=("vrender-$variant")
done
tools+=(ffmpeg)
first=${tools[0]}
declare -A wall=() cpu=() rss=()
echo "hdr-vs-ffmpeg: $runs run(s) of each command; logs in $logs" >&2
for ((run = 1; run <= runs; run++)); do
    # Rotate which tool goes first so none always runs on a warmer machine.
    order=("${tools[@]:run % ${#tools[@]}}" "${tools[@]:0:run % ${#tools[@]}}")
    for tool in "${order[@]}"; do
        case $tool in
            ffmpeg) command=("${ffmpeg_command[@]}") ;;
            *) command=(env VRENDER_CPU="${tool#vrender-}" "${vrender_command[@]}") ;;
        esac
        timed "hdr-$tool-$run" "${command[@]}"
        wall[$tool]+="$seconds " cpu[$tool]+="$cpu_seconds " rss[$tool]+="$rss_kb "
        printf '  run %d: %-8s %s s\n' "$run" "$tool" "$seconds" >&2
    done
done

# --- the picture against the exact math --------------------------------------------------------
max_error="" picture_report=""
if "$python" -c 'import numpy' 2>/dev/null; then
    timed "hdr-vrender-lossless" "$vrender" concat "$take" --codec ffv1 -o "$out/hdr_lossless.mkv" --overwrite --progress none
    picture_report=$("$python" "$root/Benchmarks/hdr_reference.py" "$take" "$out/hdr_lossless.mkv" \
        --frames 0,59,119,179,239 --transfer hlg --ffmpeg "$ffmpeg" --ffprobe "$ffprobe") \
        || die "the picture check failed (Benchmarks/hdr_reference.py)"
    max_error=$(awk '/^max_error/ { print $2 }' <<< "$picture_report")
else
    echo "hdr-vs-ffmpeg: warning: $python has no numpy: picture check skipped" >&2
fi

med() { local -a values; read -ra values <<< "${wall[$1]}"; median "${values[@]}"; }
cpu_med() { local -a values; read -ra values <<< "${cpu[$1]}"; median "${values[@]}"; }
rss_max() { local -a values; read -ra values <<< "${rss[$1]}"; max_of "${values[@]}"; }
v_med=$(med "$first") f_med=$(med ffmpeg)
hdr_ratio=$(ratio "$v_med" "$f_med")

echo
echo "vrender $("$vrender" --version 2>/dev/null || echo '?') vs $("$ffmpeg" -version 2>&1 | sed -n 1p | cut -d' ' -f1-3)," \
     "$(nproc) CPU(s), $runs run(s), 8 s 1920x1080 30 fps HLG 10-bit HEVC -> SDR mono, libx265 veryfast crf 28"
printf '%-34s %10s %10s %10s %10s\n' "tool" "wall s" "CPU s" "peak MB" "/ ffmpeg"
for tool in "${tools[@]}"; do
    label=$tool
    [[ $tool == vrender-* ]] && label="vrender VRENDER_CPU=${tool#vrender-}"
    cpu_m=n/a peak=n/a
    $have_time && cpu_m=$(cpu_med "$tool") peak=$(megabytes "$(rss_max "$tool")")
    printf '%-34s %10s %10s %10s %10s\n' "$label" "$(med "$tool")" "$cpu_m" "$peak" "$(ratio "$(med "$tool")" "$f_med")"
done
echo "wall-time ratio vrender ($first)/ffmpeg: $hdr_ratio (target <= 0.8)"
for tool in "${tools[@]}"; do echo "all runs (s) $tool: ${wall[$tool]}"; done
if [[ -n $picture_report ]]; then
    echo "vrender's picture against the exact math (lossless export, frames 0,59,119,179,239):"
    sed 's/^/  /' <<< "$picture_report"
fi

if [[ -n $json_out ]]; then
    tool_json() {
        local -a w c r; read -ra w <<< "${wall[$1]}"; read -ra c <<< "${cpu[$1]}"; read -ra r <<< "${rss[$1]}"
        printf '"%s": {"seconds": [%s], "median_seconds": %s, "cpu_seconds": [%s], "peak_rss_mb": %s}' \
            "$1" "$(joined "${w[@]}")" "$(med "$1")" "$( $have_time && joined "${c[@]}")" \
            "$( $have_time && megabytes "$(rss_max "$1")" || printf null)"
    }
    {
        echo "{"
        echo "  \"date\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\","
        echo "  \"cpus\": $(nproc),"
        echo "  \"runs\": $runs,"
        echo "  \"take\": {\"seconds\": 8, \"size\": \"1920x1080\", \"fps\": 30, \"codec\": \"hevc main10 hlg\"},"
        echo "  \"encoder\": \"libx265 veryfast crf 28, aac 160k\","
        for tool in "${tools[@]}"; do echo "  $(tool_json "$tool"),"; done
        echo "  \"ratio_vrender_over_ffmpeg\": $hdr_ratio,"
        echo "  \"max_error_levels\": ${max_error:-null},"
        # The rows docs/performance.md's table is made from (performance_table.py).
        echo "  \"rows\": ["
        for tool in "${tools[@]}"; do
            [[ $tool == ffmpeg ]] && continue
            variant=${tool#vrender-} target="≤ 0.8"
            [[ $variant == portable ]] && target="—"
            echo "    {\"job\": \"8 s HLG 1080p → SDR mono, x265 veryfast, $variant kernels: wall\", \"vrender\": \"$(med "$tool") s\", \"baseline\": \"ffmpeg zscale+tonemap+hue $f_med s\", \"ratio\": $(ratio "$(med "$tool")" "$f_med"), \"target\": \"$target\"},"
            if $have_time; then
                echo "    {\"job\": \"… CPU (user + system)\", \"vrender\": \"$(cpu_med "$tool") s\", \"baseline\": \"ffmpeg $(cpu_med ffmpeg) s\", \"ratio\": $(ratio "$(cpu_med "$tool")" "$(cpu_med ffmpeg)"), \"target\": \"≤ 1.0\"},"
            fi
        done
        echo "    {\"job\": \"… picture vs the exact math (levels, lossless export)\", \"vrender\": \"${max_error:-n/a}\", \"baseline\": \"Double formulas\", \"ratio\": ${max_error:-null}, \"target\": \"≤ 2\"}"
        echo "  ]"
        echo "}"
    } > "$json_out"
    echo "json: $json_out"
fi
