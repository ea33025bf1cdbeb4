#!/usr/bin/env bash
# What a chunked export costs over one pass, in the same run on the same machine (docs/scale-out.md;
# issue 26 item 4): a 60 s export (3 takes of 20 s, 1280x720 30 fps H.264 + AAC
# with a keyframe every TAKE_GOP frames, --filter mono, H.264 veryfast) made
#   - in one pass (`vrender concat`) and with `--engine local --chunks 8 --workers 2`: the ratio;
#   - the join of its 8 chunks (`vrender chunk join`, the sound encoded beforehand by its own
#     job) against ffmpeg's concat demuxer copying the same chunk files and the same sound file
#     into the same .mp4 as vrender writes, its index first (`-f concat -i list -i sound.mp4
#     -c copy -movflags +faststart`: faststart rewrites the whole file once its index is known);
#     ffmpeg's copy of the chunks alone, without faststart (the baseline before issue 43), is
#     printed beside it;
#   - each chunk's start-up: from its worker process's start to its first frame, as the worker
#     records it in the done-list (done/chunk_NNNN.json, "startSeconds").
# Targets (issues 26, 43): chunks/one pass <= 1.05, join/ffmpeg copy <= 1.1, start-up <= 0.1 s. A missed
# target is printed, not an error: the exit status is non-zero only when a command fails.
#
# Usage (from the repository root, or from anywhere):
#   Benchmarks/chunks-vs-one-pass.sh [--json FILE]
#
# --json FILE writes the three comparisons as rows (docs/performance.md is made from them).
#
# Environment:
#   VRENDER      vrender binary (default .build/release/vrender, built with
#                `swift build -c release --product vrender` when missing; a VRENDER that is set
#                must exist: it is never built)
#   FFMPEG       ffmpeg CLI (default: ffmpeg on PATH); FFPROBE likewise
#   RUNS         timed runs of each comparison, alternating which goes first (default 3; the
#                joins, a fifth of a second each, at least 7)
#   TAKE_GOP     frames between the takes' keyframes (default 30: a keyframe a second, as vrender
#                records); a chunk starting inside a take decodes from the keyframe before it,
#                so long GOPs (x264's default 250) show in the start-up
#   BENCH_MEDIA  work folder for the generated takes and the outputs (default .build/bench-media,
#                relative to the repository root); the takes are made once and reused
set -euo pipefail

usage() { sed -n '2,33p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "chunks-vs-one-pass: $*" >&2; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"

json_out=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --json) [[ $# -ge 2 ]] || die "--json needs a file name"; json_out=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

[[ -n $json_out ]] && json_out=$(absolute "$json_out")
bench_tools chunks-vs-one-pass

command -v python3 >/dev/null || die "python3 not found (it reads the done records)"

work=${BENCH_MEDIA:-.build/bench-media}
case "$work" in /*) ;; *) work=$root/$work ;; esac
out=$work/chunks-out
logs=$work/chunks-logs
mkdir -p "$out" "$logs"

# --- the takes: 20 s of 1280x720 30 fps H.264 + 48 kHz stereo AAC each, made once -------------
gop=${TAKE_GOP:-30}
[[ $gop =~ ^[1-9][0-9]*$ ]] || die "TAKE_GOP must be a positive integer, got '$gop'"
frequencies=(440 660 880)
takes=()
for i in 1 2 3; do
    take=$work/long$i-gop$gop.mp4
    takes+=("$take")
    [[ -s $take ]] && continue
    echo "chunks-vs-one-pass: making $take" >&2
    "$ffmpeg" -hide_banner -loglevel error -nostdin \
        -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=20" \
        -f lavfi -i "sine=frequency=${frequencies[i-1]}:sample_rate=48000:duration=20" \
        -c:v libx264 -preset veryfast -crf 20 -g "$gop" -pix_fmt yuv420p \
        -c:a aac -b:a 128k -ac 2 -shortest -f mp4 -y "$take.partial" \
        && mv "$take.partial" "$take"
done
cat "${takes[@]}" > /dev/null   # warm the page cache so no run pays for the first read

export_args=("${takes[@]}" --filter mono --codec h264 --preset veryfast --crf 23 --overwrite --progress none)

# Runs are timed with `timed` (Benchmarks/bench-lib.sh), GNU time or not.
have_time=false
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t ? "meets" : "MISSES") " the target " t }'; }

# --- one pass vs 8 chunks on 2 local workers ---------------------------------------------------
one=() chunked=()
echo "chunks-vs-one-pass: $runs run(s) of each; logs in $logs" >&2
for ((run = 1; run <= runs; run++)); do
    order=(one chunks)
    ((run % 2 == 0)) && order=(chunks one)
    for job in "${order[@]}"; do
        if [[ $job == one ]]; then
            timed "one-pass-$run" "$vrender" concat "${export_args[@]}" -o "$out/one.mp4"
            one+=("$seconds")
        else
            rm -rf "$out/chunked.mp4.chunks"
            timed "chunks-$run" "$vrender" concat "${export_args[@]}" -o "$out/chunked.mp4" \
                --engine local --chunks 8 --workers 2
            chunked+=("$seconds")
        fi
        echo "  run $run: $job ${seconds} s" >&2
    done
done

# --- the join of the same 8 chunk files vs ffmpeg's concat copy --------------------------------
# The chunks and the sound are rendered once by the steps `concat --engine local` runs; only the
# join is timed (it replaces the output each time; the work folder keeps the chunks).
folder=$out/steps.chunks
rm -rf "$folder"
"$vrender" chunk plan "${takes[@]}" --filter mono --codec h264 --preset veryfast --crf 23 --overwrite \
    -o "$out/joined.mp4" --work-dir "$folder" --chunks 8 > "$logs/steps-plan.log" 2>&1 \
    || { tail -n 20 "$logs/steps-plan.log" >&2; die "chunk plan failed"; }
chunk_count=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["chunks"]))' "$folder/plan.json")
for ((k = 0; k < chunk_count; k++)); do
    timed "steps-render-$k" "$vrender" chunk render "$folder" --chunk "$k" --threads 1 --progress none
done
# A vrender whose plans have no sound job (before issue 26 item 4) encodes the sound in the join.
if python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])).get("sound") else 1)' "$folder/plan.json"; then
    timed "steps-sound" "$vrender" chunk sound "$folder" --threads 1
fi
list=$out/chunks.txt
for file in "$folder"/chunks/chunk_*.mov; do printf "file '%s'\n" "$file"; done > "$list"
# ffmpeg writes what the join writes: the chunks' video and the sound file's audio, index first.
sound_file=$(ls "$folder"/chunks/sound.* 2>/dev/null | head -n 1)
with_sound=()
[[ -n $sound_file ]] && with_sound=(-i "$sound_file" -map 0:v -map 1:a)
join_v=() join_f=() join_plain=()
join_runs=$((runs < 7 ? 7 : runs))   # a fifth of a second each: more runs steady the ratio
for ((run = 1; run <= join_runs; run++)); do
    order=(vrender ffmpeg plain)
    ((run % 2 == 0)) && order=(plain ffmpeg vrender)
    for tool in "${order[@]}"; do
        case $tool in
        vrender)
            timed "join-vrender-$run" "$vrender" chunk join "$folder" -o "$out/joined.mp4" --overwrite --progress none
            join_v+=("$seconds") ;;
        ffmpeg)
            timed "join-ffmpeg-$run" "$ffmpeg" -hide_banner -nostdin -f concat -safe 0 -i "$list" "${with_sound[@]}" \
                -c copy -movflags +faststart -y "$out/joined_ff.mp4"
            join_f+=("$seconds") ;;
        plain)
            timed "join-ffmpeg-plain-$run" "$ffmpeg" -hide_banner -nostdin -f concat -safe 0 -i "$list" -c copy -y "$out/joined_ff_plain.mp4"
            join_plain+=("$seconds") ;;
        esac
        echo "  run $run: join ($tool) ${seconds} s" >&2
    done
done

# Each chunk's start-up, as its worker recorded it (the steps' workers, one at a time).
startups=$(python3 - "$folder/done" <<'EOF'
import glob, json, os, sys
values = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "chunk_*.json"))):
    start = json.load(open(path)).get("startSeconds")
    if start is not None:
        values.append(start)
print(" ".join("%.3f" % v for v in values))
EOF
)
startup_med=n/a startup_max=n/a
if [[ -n $startups ]]; then   # none from a vrender that does not record them
    read -r -a startup_list <<< "$startups"
    startup_med=$(median "${startup_list[@]}")
    startup_max=$(printf '%s\n' "${startup_list[@]}" | sort -g | tail -n 1)
fi

# The outputs are checked with ffprobe: the chunked one must have the one pass's frames and sound.
frames() { "$ffprobe" -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of default=nw=1:nk=1 "$1"; }
audio_packets() { "$ffprobe" -v error -select_streams a:0 -count_packets -show_entries stream=nb_read_packets -of default=nw=1:nk=1 "$1"; }
for file in "$out/chunked.mp4" "$out/joined.mp4"; do
    [[ $(frames "$file") == $(frames "$out/one.mp4") ]] || die "$file has $(frames "$file") frames, the one pass $(frames "$out/one.mp4")"
    [[ $(audio_packets "$file") == $(audio_packets "$out/one.mp4") ]] \
        || die "$file has $(audio_packets "$file") audio packets, the one pass $(audio_packets "$out/one.mp4")"
done

one_med=$(median "${one[@]}") chunked_med=$(median "${chunked[@]}")
join_v_med=$(median "${join_v[@]}") join_f_med=$(median "${join_f[@]}") join_plain_med=$(median "${join_plain[@]}")
chunk_ratio=$(ratio "$chunked_med" "$one_med")
join_ratio=$(ratio "$join_v_med" "$join_f_med") join_plain_ratio=$(ratio "$join_v_med" "$join_plain_med")
echo
echo "vrender $("$vrender" --version 2>/dev/null || echo '?'), $(nproc) CPU(s), $runs run(s), medians;" \
     "a 60 s export: 3 takes of 20 s 1280x720 30 fps H.264+AAC (GOP $gop), --filter mono, h264 veryfast"
printf '%-44s %10s %10s %8s  %s\n' "job (median wall time, s)" "this" "baseline" "ratio" ""
printf '%-44s %10s %10s %8s  %s\n' "8 chunks, 2 local workers vs one pass" "$chunked_med" "$one_med" "$chunk_ratio" "$(verdict "$chunk_ratio" 1.05)"
printf '%-44s %10s %10s %8s  %s\n' "join of 8 chunks + sound vs ffmpeg's, faststart" "$join_v_med" "$join_f_med" "$join_ratio" "$(verdict "$join_ratio" 1.1)"
printf '%-44s %10s %10s %8s\n' "  ffmpeg's copy of the chunks alone" "$join_v_med" "$join_plain_med" "$join_plain_ratio"
printf '%-44s %10s %10s\n' "chunk start-up to first frame, median/max" "$startup_med" "$startup_max"
[[ $startup_max == n/a ]] || awk -v m="$startup_max" 'BEGIN { print "  start-up " (m <= 0.1 ? "meets" : "MISSES") " the target 0.1 s (the slowest chunk)" }'
if [[ -n $json_out ]]; then
    startup_number=$([[ $startup_max == n/a ]] && echo null || echo "$startup_max")
    cat > "$json_out" <<EOF
{"script": "chunks-vs-one-pass", "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)", "cpus": $(nproc), "runs": $runs, "rows": [
  {"job": "60 s 720p mono export: 8 chunks on 2 local workers vs one pass", "vrender": "${chunked_med} s", "baseline": "one pass ${one_med} s", "ratio": $chunk_ratio, "target": "≤ 1.05"},
  {"job": "… the join of its 8 chunks and sound vs ffmpeg's concat copy of the same, index first (faststart; of the chunks alone ${join_plain_med} s)", "vrender": "${join_v_med} s", "baseline": "ffmpeg ${join_f_med} s", "ratio": $join_ratio, "target": "≤ 1.1"},
  {"job": "… a chunk's start-up, slowest of 8 (s)", "vrender": "${startup_max} s", "baseline": "median ${startup_med} s", "ratio": $startup_number, "target": "≤ 0.1"}
]}
EOF
    echo "json: $json_out"
fi
