#!/usr/bin/env bash
# Many takes and one long take: whether planning, stream copy and transcode stay linear in time
# and flat in memory. 1,000 one-second takes (320x240 30 fps H.264 + 48 kHz stereo AAC, ten
# distinct ones copied to 1,000 files) and one take of an hour (160x120 5 fps H.264 + mono AAC)
# with a one-minute take made alike. Prints:
#   plan time of the 1,000 takes (probing and planning, from `--json`'s planSeconds)
#   stream copy of the 1,000 takes vs `ffmpeg -f concat -safe 0 -i list -c copy` (ratio)
#   peak RSS of the 1,000-take copy vs a one-take copy (ratio)
#   transcode of 1,000 takes vs 100 takes, per take (linearity: 1.00 is linear), and peak RSS
#   copy of the hour vs the minute: time per media second and peak RSS (ratios)
#   a chunked export of the 1,000 takes (8 chunks, H.264 veryfast): `vrender chunk plan`'s
#   whole command (probing every take, planning, writing plan.json with their probes), and a
#   chunk's start-up, from its worker's start to its first frame (its done record's
#   startSeconds), against the whole chunk's time (one thread): a worker plans from the plan's
#   1,000 probes instead of probing, so its start-up must not grow with the takes
#
# Usage (from the repository root, or from anywhere):
#   Benchmarks/many-takes.sh [--json FILE]
#
# Environment:
#   VRENDER      vrender binary (default .build/release/vrender, built when missing; a VRENDER
#                that is set must exist: it is never built)
#   FFMPEG       ffmpeg CLI (default: ffmpeg on PATH); FFPROBE likewise
#   RUNS         timed runs of each command, vrender and ffmpeg alternating (default 3)
#   TRANSCODE    1 (default): measure the transcode of 100 and 1,000 takes; 0: skip it
#   BENCH_MEDIA  work folder (default .build/bench-media); the takes go to its many-takes/
#                folder, made once (about 2 minutes, most of it the hour) and reused
#
# Prints a table at the end; with --json FILE also writes the numbers as JSON. Exits non-zero
# only when a command fails or an output is wrong, not on a missed target.
set -euo pipefail

usage() { sed -n '2,30p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "many-takes: $*" >&2; exit 1; }
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

[[ -n $json_out ]] && json_out=$(absolute "$json_out")
bench_tools many-takes

transcode=${TRANSCODE:-1}
[[ $transcode == 0 || $transcode == 1 ]] || die "TRANSCODE must be 0 or 1, got '$transcode'"
command -v python3 >/dev/null || die "python3 not found (it reads vrender's --json summary)"
bench_gnu_time many-takes required

work=${BENCH_MEDIA:-.build/bench-media}
case "$work" in /*) ;; *) work=$root/$work ;; esac
media=$work/many-takes out=$work/many-takes-out logs=$work/many-takes-logs
mkdir -p "$media" "$out" "$logs"

# --- the media, made once ---------------------------------------------------------------------
# make_media FILE FFMPEG-ARGS...: writes FILE with ffmpeg unless it exists (atomically).
make_media() {
    local file=$1; shift
    [[ -s $file ]] && return 0
    echo "many-takes: making $file" >&2
    "$ffmpeg" -hide_banner -loglevel error -nostdin "$@" -f mp4 -y "$file.partial" && mv "$file.partial" "$file"
}
for i in 0 1 2 3 4 5 6 7 8 9; do
    make_media "$media/source$i.mp4" -f lavfi -i "testsrc2=size=320x240:rate=30:duration=1" \
        -f lavfi -i "sine=frequency=$((300 + i * 50)):sample_rate=48000:duration=1" -vf "hue=h=$((i * 36))" \
        -c:v libx264 -preset veryfast -crf 28 -pix_fmt yuv420p -c:a aac -b:a 64k -ac 2 -shortest
done
# take_list N FILE: a concat list of takes 0..N-1 (read by ffmpeg and by vrender alike).
take_list() {
    local i
    for ((i = 0; i < $1; i++)); do printf "file '%s/take%04d.mp4'\n" "$media" "$i"; done > "$2"
}
for ((i = 0; i < 1000; i++)); do
    take=$(printf '%s/take%04d.mp4' "$media" "$i")
    [[ -s $take ]] || cp "$media/source$((i % 10)).mp4" "$take"
done
take_list 1000 "$media/list1000.txt"
take_list 100 "$media/list100.txt"
take_list 1 "$media/list1.txt"
long() {  # long FILE SECONDS
    make_media "$1" -f lavfi -i "testsrc2=size=160x120:rate=5:duration=$2" -f lavfi -i "sine=frequency=500:sample_rate=48000:duration=$2" \
        -c:v libx264 -preset veryfast -crf 30 -g 50 -pix_fmt yuv420p -c:a aac -b:a 32k -ac 1 -shortest
}
long "$media/minute.mp4" 60
long "$media/hour.mp4" 3600
cat "$media"/take*.mp4 "$media/hour.mp4" "$media/minute.mp4" > /dev/null   # warm the page cache

# --- running and timing (`timed`, Benchmarks/bench-lib.sh) ------------------------------------
# vrender_run NAME ARGS...: `timed` for `vrender concat ARGS --json`; also sets `plan_seconds`
# and `write_seconds` from the summary (a vrender without planSeconds: the whole command's
# time less its writing, which counts the process's start too).
plan_seconds="" write_seconds=""
vrender_run() {
    local name=$1; shift
    timed "$name" "$vrender" concat "$@" --overwrite --progress none --json
    read -r plan_seconds write_seconds < <(python3 -c '
import json, sys
summary = json.load(open(sys.argv[1]))
plan = summary.get("planSeconds", float(sys.argv[2]) - summary["wallSeconds"])
print("%.3f %.3f" % (plan, summary["wallSeconds"]))' "$logs/$name.out" "$seconds") \
        || die "no summary in $logs/$name.out"
}
# Video packets and duration of a file ("30000 frames, 1000.00 s"), by ffprobe.
describe() {
    local duration frames
    duration=$("$ffprobe" -v error -show_entries format=duration -of default=nw=1:nk=1 "$1")
    frames=$("$ffprobe" -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets \
        -of default=nw=1:nk=1 "$1")
    printf '%s frames, %.2f s' "$frames" "$duration"
}
# expect_frames FILE N: the output has N video frames (ffprobe), or the script fails.
expect_frames() {
    local frames
    frames=$("$ffprobe" -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets \
        -of default=nw=1:nk=1 "$1")
    [[ $frames == "$2" ]] || die "$1 has $frames video frames, expected $2"
}

copy_v=() copy_f=() plan_v=() write_v=() rss_many=() rss_one=() one_v=()
hour_v=() hour_rss=() minute_v=() minute_rss=() hour_f=() hour_f_rss=() minute_f_rss=()
echo "many-takes: $runs run(s) of each command; logs in $logs" >&2
for ((run = 1; run <= runs; run++)); do
    order=(vrender ffmpeg)
    ((run % 2 == 0)) && order=(ffmpeg vrender)
    for tool in "${order[@]}"; do
        if [[ $tool == vrender ]]; then
            vrender_run "copy1000-vrender-$run" "$media/list1000.txt" -o "$out/copy1000.mov"
            copy_v+=("$seconds") plan_v+=("$plan_seconds") write_v+=("$write_seconds") rss_many+=("$rss_kb")
            echo "  run $run: vrender copy of 1000 takes ${seconds} s (plan ${plan_seconds} s)" >&2
            vrender_run "copy1-vrender-$run" "$media/list1.txt" -o "$out/copy1.mov"
            one_v+=("$seconds") rss_one+=("$rss_kb")
            vrender_run "hour-vrender-$run" "$media/hour.mp4" -o "$out/hour.mov"
            hour_v+=("$seconds") hour_rss+=("$rss_kb")
            vrender_run "minute-vrender-$run" "$media/minute.mp4" -o "$out/minute.mov"
            minute_v+=("$seconds") minute_rss+=("$rss_kb")
            echo "  run $run: vrender copy of the hour ${hour_v[-1]} s, of the minute ${minute_v[-1]} s" >&2
        else
            timed "copy1000-ffmpeg-$run" "$ffmpeg" -hide_banner -nostdin -loglevel error -f concat -safe 0 \
                -i "$media/list1000.txt" -c copy -y "$out/copy1000_ff.mov"
            copy_f+=("$seconds")
            echo "  run $run: ffmpeg  copy of 1000 takes ${seconds} s" >&2
            timed "hour-ffmpeg-$run" "$ffmpeg" -hide_banner -nostdin -loglevel error -i "$media/hour.mp4" \
                -c copy -y "$out/hour_ff.mov"
            hour_f+=("$seconds") hour_f_rss+=("$rss_kb")
            timed "minute-ffmpeg-$run" "$ffmpeg" -hide_banner -nostdin -loglevel error -i "$media/minute.mp4" \
                -c copy -y "$out/minute_ff.mov"
            minute_f_rss+=("$rss_kb")
        fi
    done
done
expect_frames "$out/copy1000.mov" 30000
expect_frames "$out/hour.mov" 18000

# --- a chunked export of the 1,000 takes: its plan, and a chunk's start-up ---------------------
# Chunk 3 of 8 starts inside the takes (its worker seeks to take 375). startSeconds and seconds
# come from its done record (docs/scale-out.md).
chunk_plan=() chunk_start=() chunk_whole=()
chunks=$out/chunks1000.chunks
for ((run = 1; run <= runs; run++)); do
    rm -rf "$chunks"
    timed "chunk-plan1000-$run" "$vrender" chunk plan "$media/list1000.txt" --codec h264 --preset veryfast --overwrite \
        -o "$out/chunks1000.mp4" --work-dir "$chunks" --chunks 8
    chunk_plan+=("$seconds")
    timed "chunk-render1000-$run" "$vrender" chunk render "$chunks" --chunk 3 --threads 1 --progress none
    read -r start whole < <(python3 -c '
import json, sys
record = json.load(open(sys.argv[1]))
print("%.3f %.3f" % (record["startSeconds"], record["seconds"]))' "$chunks/done/chunk_0003.json") \
        || die "no startSeconds in $chunks/done/chunk_0003.json"
    chunk_start+=("$start") chunk_whole+=("$whole")
    echo "  run $run: chunk plan of 1000 takes ${chunk_plan[-1]} s, chunk 3's start-up $start s of $whole s" >&2
done
chunk_plan_med=$(median "${chunk_plan[@]}") chunk_start_med=$(median "${chunk_start[@]}") chunk_whole_med=$(median "${chunk_whole[@]}")
chunk_start_ratio=$(awk -v s="$chunk_start_med" -v w="$chunk_whole_med" 'BEGIN { printf "%.3f", s / w }')

t100=() t1000=() r100=() r1000=()
if [[ $transcode == 1 ]]; then
    for ((run = 1; run <= runs; run++)); do
        order=(100 1000)
        ((run % 2 == 0)) && order=(1000 100)
        for count in "${order[@]}"; do
            vrender_run "transcode$count-$run" "$media/list$count.txt" --codec h264 --preset veryfast \
                -o "$out/transcode$count.mp4"
            if [[ $count == 100 ]]; then t100+=("$seconds") r100+=("$rss_kb"); else t1000+=("$seconds") r1000+=("$rss_kb"); fi
            echo "  run $run: vrender transcode of $count takes ${seconds} s" >&2
        done
    done
    expect_frames "$out/transcode1000.mp4" 30000
fi

plan_med=$(median "${plan_v[@]}") copy_v_med=$(median "${copy_v[@]}") copy_f_med=$(median "${copy_f[@]}")
write_med=$(median "${write_v[@]}") one_med=$(median "${one_v[@]}")
rss_many_med=$(median "${rss_many[@]}") rss_one_med=$(median "${rss_one[@]}")
hour_med=$(median "${hour_v[@]}") minute_med=$(median "${minute_v[@]}") hour_f_med=$(median "${hour_f[@]}")
hour_rss_med=$(median "${hour_rss[@]}") minute_rss_med=$(median "${minute_rss[@]}")
copy_ratio=$(ratio "$copy_v_med" "$copy_f_med")
rss_ratio=$(ratio "$rss_many_med" "$rss_one_med")
# Seconds per media second of the hour over the minute's: 1.00 is linear (the minute's
# process start weighs more, so below 1 is usual).
hour_linearity=$(awk -v h="$hour_med" -v m="$minute_med" 'BEGIN { printf "%.2f", (h / 3600) / (m / 60) }')
hour_rss_ratio=$(ratio "$hour_rss_med" "$minute_rss_med")

echo
echo "vrender $("$vrender" --version 2>/dev/null || echo '?') vs $("$ffmpeg" -version 2>&1 | sed -n 1p | cut -d' ' -f1-3)," \
     "$(nproc) CPU(s), $runs run(s) (medians)"
printf '%-46s %10s %10s %8s\n' "1000 one-second takes (320x240 30 fps)" "vrender" "ffmpeg" "ratio"
printf '%-46s %10s %10s %8s\n' "  plan: probe and plan (s, target <= 2)" "$plan_med" "-" "-"
printf '%-46s %10s %10s %8s\n' "  stream copy, whole command (s, target 1.2)" "$copy_v_med" "$copy_f_med" "$copy_ratio"
printf '%-46s %10s %10s %8s\n' "    of which writing (s)" "$write_med" "-" "-"
printf '%-46s %10s %10s %8s\n' "  peak RSS, 1000 vs 1 take (MB, target 1.2)" "$(megabytes "$rss_many_med")" "$(megabytes "$rss_one_med")" "$rss_ratio"
if [[ $transcode == 1 ]]; then
    t100_med=$(median "${t100[@]}") t1000_med=$(median "${t1000[@]}")
    printf '%-46s %10s %10s %8s\n' "  transcode, 1000 vs 100 takes (s; /10 per take)" "$t1000_med" "$t100_med" \
        "$(awk -v a="$t1000_med" -v b="$t100_med" 'BEGIN { printf "%.2f", a / 10 / b }')"
    r100_med=$(median "${r100[@]}") r1000_med=$(median "${r1000[@]}")
    printf '%-46s %10s %10s %8s\n' "  transcode peak RSS, 1000 vs 100 takes (MB)" "$(megabytes "$r1000_med")" \
        "$(megabytes "$r100_med")" "$(ratio "$r1000_med" "$r100_med")"
fi
printf '%-46s %10s %10s %8s\n' "  chunk plan, whole command (s, target <= 2)" "$chunk_plan_med" "-" "-"
printf '%-46s %10s %10s %8s\n' "  a chunk's start-up vs its time (s, <= 0.1)" "$chunk_start_med" "$chunk_whole_med" "$chunk_start_ratio"
printf '%-46s %10s %10s %8s\n' "one take of an hour vs a minute (160x120 5 fps)" "hour" "minute" "ratio"
printf '%-46s %10s %10s %8s\n' "  copy (s; ratio per media second)" "$hour_med" "$minute_med" "$hour_linearity"
printf '%-46s %10s %10s %8s\n' "  peak RSS (MB)" "$(megabytes "$hour_rss_med")" "$(megabytes "$minute_rss_med")" "$hour_rss_ratio"
printf '%-46s %10s %10s %8s\n' "  hour copy, vrender vs ffmpeg (s)" "$hour_med" "$hour_f_med" "$(ratio "$hour_med" "$hour_f_med")"
hour_f_rss_med=$(median "${hour_f_rss[@]}") minute_f_rss_med=$(median "${minute_f_rss[@]}")
printf '%-46s %10s %10s %8s\n' "  ffmpeg's peak RSS (MB; a .mov holds its index)" "$(megabytes "$hour_f_rss_med")" \
    "$(megabytes "$minute_f_rss_med")" "$(ratio "$hour_f_rss_med" "$minute_f_rss_med")"
echo "outputs: copy of 1000 takes $(describe "$out/copy1000.mov"), ffmpeg's $(describe "$out/copy1000_ff.mov");" \
     "hour $(describe "$out/hour.mov")"
echo "all runs (s): copy vrender $(joined "${copy_v[@]}") | ffmpeg $(joined "${copy_f[@]}") | plan $(joined "${plan_v[@]}")"

if [[ -n $json_out ]]; then
    cat > "$json_out" <<EOF
{
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "cpus": $(nproc),
  "runs": $runs,
  "many": {
    "takes": 1000, "seconds_each": 1, "size": "320x240", "fps": 30, "codec": "h264+aac",
    "plan_seconds": [$(joined "${plan_v[@]}")],
    "plan_median_seconds": $plan_med,
    "copy_vrender_seconds": [$(joined "${copy_v[@]}")],
    "copy_ffmpeg_seconds": [$(joined "${copy_f[@]}")],
    "copy_ratio_vrender_over_ffmpeg": $copy_ratio,
    "copy_write_median_seconds": $write_med,
    "peak_rss_mb_1000_takes": $(megabytes "$rss_many_med"),
    "peak_rss_mb_1_take": $(megabytes "$rss_one_med"),
    "peak_rss_ratio": $rss_ratio,
    "transcode_100_seconds": [$(joined "${t100[@]}")],
    "transcode_1000_seconds": [$(joined "${t1000[@]}")],
    "transcode_peak_rss_kb_100": [$(joined "${r100[@]}")],
    "transcode_peak_rss_kb_1000": [$(joined "${r1000[@]}")],
    "chunk_plan_seconds": [$(joined "${chunk_plan[@]}")],
    "chunk_start_seconds": [$(joined "${chunk_start[@]}")],
    "chunk_seconds": [$(joined "${chunk_whole[@]}")]
  },
  "long": {
    "size": "160x120", "fps": 5,
    "hour_copy_seconds": [$(joined "${hour_v[@]}")],
    "minute_copy_seconds": [$(joined "${minute_v[@]}")],
    "hour_ffmpeg_copy_seconds": [$(joined "${hour_f[@]}")],
    "time_per_media_second_ratio": $hour_linearity,
    "peak_rss_mb_hour": $(megabytes "$hour_rss_med"),
    "peak_rss_mb_minute": $(megabytes "$minute_rss_med"),
    "peak_rss_ratio": $hour_rss_ratio,
    "ffmpeg_peak_rss_mb_hour": $(megabytes "$hour_f_rss_med"),
    "ffmpeg_peak_rss_mb_minute": $(megabytes "$minute_f_rss_med")
  },
  "rows": [
    {"job": "1,000 one-second takes: plan (s)", "vrender": "$plan_med s", "baseline": "—", "ratio": $plan_med, "target": "≤ 2"},
    {"job": "… stream copy vs ffmpeg's concat demuxer", "vrender": "$(median "${copy_v[@]}") s", "baseline": "ffmpeg $(median "${copy_f[@]}") s", "ratio": $copy_ratio, "target": "≤ 1.2"},
    {"job": "… peak memory vs a one-take export", "vrender": "$(megabytes "$rss_many_med") MB", "baseline": "$(megabytes "$rss_one_med") MB", "ratio": $rss_ratio, "target": "≤ 1.2"},
    {"job": "… a chunked export (8 chunks): chunk plan, whole command (s)", "vrender": "$chunk_plan_med s", "baseline": "—", "ratio": $chunk_plan_med, "target": "≤ 2"},
    {"job": "… a chunk's start-up to its first frame vs the chunk's time (one thread)", "vrender": "$chunk_start_med s", "baseline": "chunk $chunk_whole_med s", "ratio": $chunk_start_ratio, "target": "≤ 0.1"},
    {"job": "a take of an hour vs one of a minute: copy time per media second", "vrender": "$(median "${hour_v[@]}") s", "baseline": "$(median "${minute_v[@]}") s", "ratio": $hour_linearity, "target": "≤ 1.2"},
    {"job": "… peak memory (ffmpeg's own: $(ratio "$hour_f_rss_med" "$minute_f_rss_med"))", "vrender": "$(megabytes "$hour_rss_med") MB", "baseline": "$(megabytes "$minute_rss_med") MB", "ratio": $hour_rss_ratio, "target": "≤ 1.5"}
  ]
}
EOF
    echo "json: $json_out"
fi
