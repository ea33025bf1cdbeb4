#!/usr/bin/env bash
# Compares whole exports of vrender with the ffmpeg CLI doing the same job, in the same run, on
# the same machine: mono transcode, stream copy, and vrender's peak memory for 3 vs 9 takes.
#
# Usage (from the repository root, or from anywhere):
#   Benchmarks/export-vs-ffmpeg.sh [--json FILE]
#
# Environment:
#   VRENDER      vrender binary (default .build/release/vrender, built with
#                `swift build -c release --product vrender` when missing; a VRENDER that is set
#                must exist: it is never built)
#   FFMPEG       ffmpeg CLI (default: ffmpeg on PATH); FFPROBE likewise
#   RUNS         timed runs of each command, alternating vrender and ffmpeg (default 3)
#   BENCH_MEDIA  work folder for the generated takes and the outputs (default .build/bench-media,
#                relative to the repository root); the takes are made once and reused
#
# Prints a table at the end; with --json FILE also writes the numbers as JSON.
set -euo pipefail

usage() { sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "export-vs-ffmpeg: $*" >&2; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"

json_out=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --json) [[ $# -ge 2 ]] || die "--json needs a file name"; json_out=$2; shift 2 ;;
        --json=*) json_out=${1#--json=}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

# Paths given by the caller are relative to where it was called from; everything else to the
# repository root, where the script then works.
[[ -n $json_out ]] && json_out=$(absolute "$json_out")
bench_tools export-vs-ffmpeg

work=${BENCH_MEDIA:-.build/bench-media}
case "$work" in /*) ;; *) work=$root/$work ;; esac
mkdir -p "$work/out"
logs=$work/logs
mkdir -p "$logs"

bench_gnu_time export-vs-ffmpeg

# --- the takes: 5 s of 1920x1080 30 fps H.264 + 48 kHz stereo AAC each, made once -------------
frequencies=(440 660 880)
takes=()
for i in 1 2 3; do
    take=$work/take$i.mp4
    takes+=("$take")
    [[ -s $take ]] && continue
    echo "export-vs-ffmpeg: making $take" >&2
    "$ffmpeg" -hide_banner -loglevel error -nostdin \
        -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=5" \
        -f lavfi -i "sine=frequency=${frequencies[i-1]}:sample_rate=48000:duration=5" \
        -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p \
        -c:a aac -b:a 128k -ac 2 -shortest -f mp4 -y "$take.partial" \
        && mv "$take.partial" "$take"
done
list=$work/list.txt
for take in "${takes[@]}"; do printf "file '%s'\n" "$take"; done > "$list"
nine_takes=("${takes[@]}" "${takes[@]}" "${takes[@]}")
cat "${takes[@]}" > /dev/null   # warm the page cache so no run pays for the first read

# --- running and timing ----------------------------------------------------------------------

# Duration and video frame count of a file, "12.345 s, 450 frames".
describe() {
    local duration frames
    duration=$("$ffprobe" -v error -show_entries format=duration -of default=nw=1:nk=1 "$1")
    frames=$("$ffprobe" -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets \
        -of default=nw=1:nk=1 "$1")
    printf '%.2f s, %s frames' "$duration" "$frames"
}

out=$work/out
mono_v=() mono_f=() copy_v=() copy_f=() rss_mono3=() rss_ff3=() cpu_v=() cpu_f=()
echo "export-vs-ffmpeg: $runs run(s) of each command; logs in $logs" >&2
for ((run = 1; run <= runs; run++)); do
    # Alternate which tool goes first so neither always runs on a warmer machine.
    order=(vrender ffmpeg)
    ((run % 2 == 0)) && order=(ffmpeg vrender)
    for tool in "${order[@]}"; do
        if [[ $tool == vrender ]]; then
            timed "mono-vrender-$run" "$vrender" concat "${takes[@]}" --filter mono --codec h264 \
                --preset veryfast --crf 23 -o "$out/out.mp4" --overwrite --progress none
            mono_v+=("$seconds"); rss_mono3+=("$rss_kb"); cpu_v+=("$cpu_seconds")
            echo "  run $run: vrender mono  ${seconds} s" >&2
        else
            timed "mono-ffmpeg-$run" "$ffmpeg" -hide_banner -nostdin -f concat -safe 0 -i "$list" \
                -vf hue=s=0 -c:v libx264 -preset veryfast -crf 23 -c:a aac -y "$out/out_ff.mp4"
            mono_f+=("$seconds"); rss_ff3+=("$rss_kb"); cpu_f+=("$cpu_seconds")
            echo "  run $run: ffmpeg  mono  ${seconds} s" >&2
        fi
    done
    for tool in "${order[@]}"; do
        if [[ $tool == vrender ]]; then
            timed "copy-vrender-$run" "$vrender" concat "${takes[@]}" -o "$out/copy.mov" --overwrite --progress none
            copy_v+=("$seconds")
            echo "  run $run: vrender copy  ${seconds} s" >&2
        else
            timed "copy-ffmpeg-$run" "$ffmpeg" -hide_banner -nostdin -f concat -safe 0 -i "$list" \
                -c copy -y "$out/copy_ff.mov"
            copy_f+=("$seconds")
            echo "  run $run: ffmpeg  copy  ${seconds} s" >&2
        fi
    done
done

# Peak memory with 3x the input: the pipeline's queues are bounded, so it should not grow.
rss3_kb="" rss9_kb="" rssff_kb="" nine_seconds=""
if $have_time; then
    rss3_kb=$(max_of "${rss_mono3[@]}")
    rssff_kb=$(max_of "${rss_ff3[@]}")
    timed "mono-vrender-9-takes" "$vrender" concat "${nine_takes[@]}" --filter mono --codec h264 \
        --preset veryfast --crf 23 -o "$out/out9.mp4" --overwrite --progress none
    rss9_kb=$rss_kb nine_seconds=$seconds
    echo "  vrender mono, 9 takes: ${seconds} s" >&2
fi

mono_v_med=$(median "${mono_v[@]}") mono_f_med=$(median "${mono_f[@]}")
copy_v_med=$(median "${copy_v[@]}") copy_f_med=$(median "${copy_f[@]}")
mono_ratio=$(ratio "$mono_v_med" "$mono_f_med")
copy_ratio=$(ratio "$copy_v_med" "$copy_f_med")

echo
echo "vrender $("$vrender" --version 2>/dev/null || echo '?') vs $("$ffmpeg" -version 2>&1 | sed -n 1p | cut -d' ' -f1-3)," \
     "$(nproc) CPU(s), $runs run(s), 3 takes of 5 s 1920x1080 30 fps H.264+AAC"
printf '%-28s %12s %12s %16s\n' "job (median wall time)" "vrender s" "ffmpeg s" "vrender/ffmpeg"
printf '%-28s %12s %12s %16s\n' "mono export, h264 veryfast" "$mono_v_med" "$mono_f_med" "$mono_ratio"
printf '%-28s %12s %12s %16s\n' "stream copy to .mov" "$copy_v_med" "$copy_f_med" "$copy_ratio"
if $have_time; then
    cpu_v_med=$(median "${cpu_v[@]}") cpu_f_med=$(median "${cpu_f[@]}")
    printf '%-28s %12s %12s %16s\n' "mono export, CPU s (u+s)" "$cpu_v_med" "$cpu_f_med" "$(ratio "$cpu_v_med" "$cpu_f_med")"
fi
printf '%-28s %12s %12s\n' "peak RSS, mono (MB)" "vrender" "ffmpeg"
printf '%-28s %12s %12s\n' "  3 takes (15 s)" "$(megabytes "$rss3_kb")" "$(megabytes "$rssff_kb")"
printf '%-28s %12s %12s\n' "  9 takes (45 s)" "$(megabytes "$rss9_kb")" "-"
echo "outputs: vrender mono $(describe "$out/out.mp4"); ffmpeg mono $(describe "$out/out_ff.mp4")"
echo "         vrender copy $(describe "$out/copy.mov"); ffmpeg copy $(describe "$out/copy_ff.mov")"
echo "all runs (s): mono vrender $(joined "${mono_v[@]}") | ffmpeg $(joined "${mono_f[@]}");" \
     "copy vrender $(joined "${copy_v[@]}") | ffmpeg $(joined "${copy_f[@]}")"
$have_time && echo "all runs (CPU s): mono vrender $(joined "${cpu_v[@]}") | ffmpeg $(joined "${cpu_f[@]}")"

if [[ -n $json_out ]]; then
    num_or_null() { [[ -n $1 ]] && printf '%s' "$1" || printf 'null'; }
    mb_or_null() { [[ -n $1 ]] && megabytes "$1" || printf 'null'; }
    cat > "$json_out" <<EOF
{
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "cpus": $(nproc),
  "runs": $runs,
  "takes": {"count": 3, "seconds_each": 5, "size": "1920x1080", "fps": 30, "codec": "h264+aac"},
  "mono": {
    "vrender_seconds": [$(joined "${mono_v[@]}")],
    "ffmpeg_seconds": [$(joined "${mono_f[@]}")],
    "vrender_median_seconds": $mono_v_med,
    "ffmpeg_median_seconds": $mono_f_med,
    "ratio_vrender_over_ffmpeg": $mono_ratio,
    "vrender_cpu_seconds": [$(joined "${cpu_v[@]}")],
    "ffmpeg_cpu_seconds": [$(joined "${cpu_f[@]}")]
  },
  "copy": {
    "vrender_seconds": [$(joined "${copy_v[@]}")],
    "ffmpeg_seconds": [$(joined "${copy_f[@]}")],
    "vrender_median_seconds": $copy_v_med,
    "ffmpeg_median_seconds": $copy_f_med,
    "ratio_vrender_over_ffmpeg": $copy_ratio
  },
  "peak_rss_mb": {
    "vrender_mono_3_takes": $(mb_or_null "$rss3_kb"),
    "vrender_mono_9_takes": $(mb_or_null "$rss9_kb"),
    "ffmpeg_mono_3_takes": $(mb_or_null "$rssff_kb"),
    "vrender_mono_9_takes_seconds": $(num_or_null "$nine_seconds")
  }
}
EOF
    echo "json: $json_out"
fi
