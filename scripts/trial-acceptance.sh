#!/usr/bin/env bash
# Trial acceptance of `vrender concat` on the kinds of input real users bring, judged by
# ffprobe/ffmpeg (and scripts/trial_judge.py, standard-library python reading their output).
#
#   usage: scripts/trial-acceptance.sh [MEDIA_DIR]
#     MEDIA_DIR  media made by scripts/make-trial-media.sh (made there if missing; default: a
#                temporary directory, removed at the end)
#     VRENDER    the binary (default .build/release/vrender)
#     JOBS       exports run at once (default 2)
#     KEEP=1     keep the work directory (exports and their analysis) and print its path
#     ONLY=REGEX run only the jobs whose name matches (e.g. ONLY='^phone\.')
#
# Every video kind (table KINDS; the second trial's 14 and the third trial's 43 with fewer joins,
# see there) is exported alone and joined with an ordinary H.264 720p30 take
# (kind first, so the canvas and rate are the kind's; the 1080p phone take goes second, into the
# 720p canvas), each to .mov, .mp4, .mkv and .mov with --filter mono; a sample of the third
# trial's kinds also with --loudness and --engine local --chunks (table FEATURES); an ffconcat
# list with in/out points (LISTS) is judged frame by frame against FFmpeg's concat demuxer; the
# 20-take folder and matching takes must stream-copy; non-videos must be refused. Prints
# `ok NAME:CHECK` or `FAIL NAME:CHECK: why` per check, then `trial: N passed, M failed, K known
# wrong` (KNOWN below: printed, counted apart); exits 1
# if anything failed. The third trial's checks (exact frame counts, every video packet decoding,
# stream languages/titles/flags, loudness, the list) are in trial_judge3.py and judge every kind.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export VRENDER=${VRENDER:-$root/.build/release/vrender}
export JUDGE=$root/scripts/trial_judge.py
[ -x "$VRENDER" ] || { echo "trial: no binary at $VRENDER (set VRENDER)" >&2; exit 2; }
export WORK; WORK=$(mktemp -d /tmp/trial.XXXXXX)
[ "${KEEP:-0}" = 1 ] && echo "trial: work directory $WORK" || trap 'rm -rf "$WORK"' EXIT
export MEDIA=${1:-$WORK/media}
start=$SECONDS
bash "$root/scripts/make-trial-media.sh" "$MEDIA" >/dev/null || { echo "trial: cannot make media" >&2; exit 2; }
MEDIA=$(cd "$MEDIA" && pwd)
ORD=ordinary_h264_720p30.mov

# ------------------------------------------------------------------------------------ kinds
# kind           file                      alone-flags  join (kind+ord: kind first, the canvas
#                                                       and rate are the kind's; ord+kind: fitted in 720p30)
# The second trial's kinds (dv_pal_169 on) are "lite": exported alone into the three containers
# (mostly stream copies, where the container matters) but joined only into .mp4, .mkv and mono
# .mov (the joins are transcodes, and .mov joins add little to .mp4's; CI time). "lite-hd" (HDV,
# 1440x1080: the slowest transcode) is joined into .mp4 only. The third trial's kinds (dv_ntsc
# on, "new") are exported alone into the three containers and joined once, into the container
# named after the colon (kind+ord:EXT; the containers taken in turn), for CI time: a sample of
# them gets the mono filter in FEATURES.
KINDS="
phone            phone_hevc10_rot90.mov    -            ord+kind
hdr_hlg          hdr_hlg_hevc10.mov        -            kind+ord
hdr_pq           hdr_pq_hevc10.mp4         -            kind+ord
vp9_opus         vp9_opus.webm             -            kind+ord
av1              av1_opus.mkv              -            kind+ord
aac_5.1          aac_5.1.mp4               -            kind+ord
aac_44k1_mono    aac_44k1_mono.mp4         -            kind+ord
two_audio        two_audio_tracks.mov      -            kind+ord
pcm              pcm_s16le.mov             -            kind+ord
fps_29.97        fps_29.97.mp4             -            kind+ord
fps_25           fps_25.mp4                -            kind+ord
fps_60           fps_60.mp4                -            kind+ord
odd_444          odd_853x479_444.mp4       -            kind+ord
odd_420          odd_641x361_420.webm      -            kind+ord
yuv422           yuv422p_h264.mov          -            kind+ord
yuv444           yuv444p_h264.mp4          -            kind+ord
webcam_mkv       webcam_mjpeg.mkv          -            kind+ord
webcam_avi       webcam_mjpeg_pcm.avi      -            kind+ord
prores4444       prores4444_pcm.mov        expect-copy  kind+ord
mjpeg_pcm        mjpeg_pcm.mov             -            kind+ord
late_video       late_video.mov            -            kind+ord
one_frame        one_frame.mp4             -            kind+ord
long_gop         long_gop_bframes.mp4      -            kind+ord
ordinary         ordinary_h264_720p30.mov  expect-copy  kind+ord
dv_pal_169       dv_pal_169.dv             lite         kind+ord
dv_pal_43        dv_pal_43.avi             lite         kind+ord
hdv_1080         hdv_1440x1080.m2ts        lite-hd      kind+ord
editlist_cut     editlist_cut.mp4          lite         kind+ord
vfr_screen       vfr_screen.mp4            lite         kind+ord
selfie_mirror    selfie_mirror.mp4         lite         kind+ord
ts_damaged       ts_damaged.ts             lite         kind+ord
mp4_truncated    mp4_truncated.mp4         lite         kind+ord
mp4_scrambled    mp4_scrambled.mp4         lite         kind+ord
subs_movtext     subs_movtext.mp4          lite         kind+ord
subs_srt         subs_srt.mkv              lite         kind+ord
chapters         chapters.mp4              lite         kind+ord
timecode         timecode.mov              lite         kind+ord
qtrle            qtrle_pcm.mov             lite         kind+ord
dv_ntsc          dv_ntsc_bff.dv            new          kind+ord:mp4
m2ts_1080i       h264_1080i_ac3_51.m2ts    new          kind+ord:mp4
dvd_vob          dvd_mpeg2_ac3.vob         new          kind+ord:mkv
vcd_mpg          vcd_mpeg1_mp2.mpg         new          kind+ord:mov
prores_hq        prores422hq_pcm.mov       new          kind+ord:mov
dnxhr_mxf        dnxhr_sq.mxf              new          kind+ord:mkv
cineform         cineform_pcm.mov          new          kind+ord:mp4
v210             v210_pcm24.mov            new          kind+ord:mkv
utvideo          utvideo_pcm.avi           new          kind+ord:mov
flv_sorenson     flv_sorenson_mp3.flv      new          kind+ord:mp4
flv_h264         flv_h264_aac.flv          new          kind+ord:mkv
wmv2             wmv2_wma2.wmv             new          kind+ord:mov
wmv_late         wmv_late_043.wmv          new          kind+ord:mp4
theora           theora_vorbis.ogv         new          kind+ord:mkv
vp8              vp8_vorbis.webm           new          kind+ord:mp4
av1_aom          av1_aom_aac.mp4           new          kind+ord:mkv
av1_rav1e        av1_rav1e_opus.mkv        new          kind+ord:mov
h263_3gp         h263_qcif_8k_mono.3gp     new          kind+ord:mp4
avi_xvid         xvid_mp3.avi              new          kind+ord:mkv
nut              h264_pcm.nut              new          kind+ord:mov
raw_h264         raw_elementary.h264       new          kind+ord:mp4
gif              animated.gif              new          kind+ord:mkv
eac3             h264_eac3.mp4             new          kind+ord:mov
alac             h264_alac.mov             new          kind+ord:mp4
pcm_f32          pcm_f32le.mov             new          kind+ord:mkv
pcm_s32          pcm_s32le.mkv             new          kind+ord:mov
audio_late       audio_late_0.3.mov        new          kind+ord:mp4
audio_short      audio_ends_0.6.mkv        new          kind+ord:mkv
two_lang_mkv     two_lang_eng_deu.mkv      new          kind+ord:mkv
two_lang_mp4     two_lang_eng_fra.mp4      new          kind+ord:mp4
subs_lang        subs_fra.mkv              new          kind+ord:mkv
video_title      video_title.mkv           new          kind+ord:mov
forced_audio     forced_audio.mkv          new          kind+ord:mkv
full_range       full_range_720p.mp4       new          kind+ord:mp4
bt601_hd         bt601_720p.mov            new          kind+ord:mov
fps_12           fps_12.mp4                new          kind+ord:mkv
fps_1            fps_1.mp4                 new          kind+ord:mp4
timescale600     fps_29.97_ts600.mov       new          kind+ord:mov
start_7s         start_7s.mkv              new          kind+ord:mp4
rot_sar          rot90_sar43.mp4           new          kind+ord:mkv
opengop_ts       opengop_h264_cut.ts       new          kind+ord:mp4
opengop_hevc     opengop_hevc_cut.ts       new          kind+ord:mkv
vp9_cut          vp9_cut_midgop.webm       new          kind+ord:mov
"
# A sample of the third trial's kinds with the export's other features (job NAME: KIND.alone|join
# .FEATURE.EXT): mono; --loudness (only the sound re-encoded; judged by ffmpeg's ebur128);
# --engine local --chunks 2 (judged as the one-pass export is).
FEATURES="
full_range       mono            alone  mov
dv_ntsc          mono            alone  mov
rot_sar          mono            alone  mov
m2ts_1080i       loudness=-18    alone  mkv
wmv2             loudness=-18    alone  mkv
eac3             loudness=-18    join   mp4
flv_sorenson     chunks=2        alone  mp4
dvd_vob          chunks=2        alone  mkv
opengop_ts       chunks=2        alone  mp4
vp9_cut          chunks=2        alone  mkv
"
# An ffconcat list (in/out points on the file's clock) over the WMV whose video starts at 0.043 s,
# judged frame by frame against FFmpeg's concat demuxer.
LISTS="wmv_late_cut.ffconcat"
NONVIDEOS="nonvideo/image.png nonvideo/subtitles_only.mkv nonvideo/subtitles.srt nonvideo/audio_only.m4a nonvideo/cover_art.mp3"

# ------------------------------------------------------------------------------------ analysis
# analyze FILE DIR [mono]: probe.json (streams, format, chapters, packet times, sizes and flags), frames.md5 (autorotated
# video + every audio stream), thumbs.rgb (every frame, 64x36 rgb24, converted by ffmpeg from the
# file's own colour tags), audio.raw (first audio track, 8 kHz mono s16), decode.err (ffmpeg -v
# error), and for mono exports stats_{all,right,bottom}.txt (signalstats of the frame, its
# right-most 2 px, its bottom 2 px, in 8-bit 4:4:4).
analyze() {
  local f=$1 d=$2 mono=${3:-}
  mkdir -p "$d"
  ffprobe -v error -show_streams -show_format -show_chapters -show_data_hash MD5 \
    -show_entries packet=stream_index,pts_time,dts_time,duration_time,size,flags -of json "$f" >"$d/probe.json" 2>/dev/null
  local fc="[0:v:0]split=2[m][g];[g]scale=64:36:flags=area,format=rgb24[t]"
  if [ -n "$mono" ]; then
    # Whole frame: averaged down to 160x90 first (same means, a fraction of the work). Edges: an
    # even-aligned strip is cut first (4:2:0 crops snap to even offsets), then the last 2 px of it.
    local ex='2*trunc((iw-6)/2)' ey='2*trunc((ih-6)/2)'
    fc="[0:v:0]split=3[m][g][s];[g]scale=64:36:flags=area,format=rgb24[t];[s]split=3[s0][s1][s2]"
    fc+=";[s0]scale=160:90:flags=area,format=yuv444p,signalstats,metadata=print:file=$d/stats_all.txt,nullsink"
    fc+=";[s1]crop=w=iw-$ex:h=ih:x=$ex:y=0,format=yuv444p,crop=2:ih:iw-2:0,signalstats,metadata=print:file=$d/stats_right.txt,nullsink"
    fc+=";[s2]crop=w=iw:h=ih-$ey:x=0:y=$ey,format=yuv444p,crop=iw:2:0:ih-2,signalstats,metadata=print:file=$d/stats_bottom.txt,nullsink"
  fi
  # times in 1/90000 s: the default, 1/(the frame rate ffmpeg guesses), can give two frames of a
  # variable-rate file one time stamp (a muxer error in decode.err, not the file's)
  local outs=(-map "[m]" -map "0:a?" -fps_mode passthrough -enc_time_base:v 1/90000 -f framemd5 "$d/frames.md5"
              -map "[t]" -fps_mode passthrough -enc_time_base:v 1/90000 -f rawvideo "$d/thumbs.rgb")
  grep -q '"codec_type": "audio"' "$d/probe.json" && outs+=(-map 0:a:0 -ac 1 -ar 8000 -f s16le "$d/audio.raw")
  ffmpeg -nostdin -v error -y -i "$f" -filter_complex "$fc" "${outs[@]}" 2>"$d/decode.err"
}

# The takes are analysed once, before the exports.
analyze_take() { analyze "$MEDIA/$1" "$WORK/takes/$1"; }

# ------------------------------------------------------------------------------------ checks run here
# (the checks on the export's content are in trial_judge.py, one function each)
say() { if [ -n "${2:-}" ]; then echo "FAIL $1: $2"; else echo "ok $1"; fi; }
check_exit() { say "$1:exit" "$([ "$2" = "$3" ] || echo "exit $2, expected $3; stderr: $(head -c 300 "$4" | tr '\n' ' ')")"; }
check_output_exists() { say "$1:output" "$([ -s "$2" ] || echo "no output file")"; }
check_no_output() { say "$1:no-output" "$([ ! -e "$2" ] || echo "an output file was written")"; }
check_no_partial() {
  local left; left=$(find "$2" -name '*vrender-partial*' | head -3 | xargs -r -n1 basename | tr '\n' ' ')
  say "$1:no-partial" "${left:+temporary file left: $left}"
}
check_names_file() { say "$1:names-file" "$(grep -qF "$3" "$2" || echo "stderr does not name $3: $(head -c 200 "$2" | tr '\n' ' ')")"; }

# Known wrong, and open: each check here still runs and prints, as `known NAME:CHECK: why`, and
# is counted apart; one that passes fails the trial, so the list goes when the fix lands.
#   (none now: list entries as NAME:CHECK, separated by spaces)
export KNOWN=""
mark_known() {
  local known
  for known in $KNOWN; do
    if grep -q "^FAIL $known: " "$1"; then
      sed -i "s/^FAIL $known: /known $known: /" "$1"
    elif grep -q "^ok $known\$" "$1"; then
      sed -i "s/^ok $known\$/FAIL $known: passes now: take it out of KNOWN in trial-acceptance.sh/" "$1"
    fi
  done
}

# ------------------------------------------------------------------------------------ jobs
# A job line: NAME|FLAGS|FILTER|EXT|TAKE... (takes relative to MEDIA). One directory per job, so
# that a temporary file left by one job is not seen by another.
run_job() {
  local name flags filt ext takes
  IFS='|' read -r name flags filt ext takes <<<"$1"
  local jd=$WORK/jobs/$name; mkdir -p "$jd/out"
  local out=$jd/out/export.$ext args=() t refs=()
  for t in $takes; do args+=("$MEDIA/$t"); refs+=("$MEDIA/$t:$WORK/takes/$t"); done
  args+=(-o "$out" --progress none)
  [ "$filt" != none ] && args+=(--filter "$filt")
  [[ $flags =~ loudness=([-0-9.]+) ]] && args+=(--loudness "${BASH_REMATCH[1]}")
  [[ $flags =~ chunks=([0-9]+) ]] && args+=(--engine local --chunks "${BASH_REMATCH[1]}")
  timeout 300 "$VRENDER" concat "${args[@]}" >"$jd/stdout" 2>"$jd/stderr"; local rc=$?   # 124: hung
  {
    if [[ $flags == *refuse* ]]; then
      check_exit "$name" "$rc" 1 "$jd/stderr"
      check_names_file "$name" "$jd/stderr" "$(printf '%s\n' $takes | grep nonvideo/ | head -1)"
      check_no_output "$name" "$out"
      check_no_partial "$name" "$jd/out"
    else
      check_exit "$name" "$rc" 0 "$jd/stderr"
      check_output_exists "$name" "$out"
      check_no_partial "$name" "$jd/out"
      if [ -s "$out" ]; then
        analyze "$out" "$jd" "$([ "$filt" = mono ] && echo mono)"
        if [[ $flags == list ]]; then python3 "$JUDGE" list "$name" "$jd" "$out" "$MEDIA/$takes"
        else python3 "$JUDGE" judge "$name" "$jd" "$out" "$filt" "$flags" "${refs[@]}"; fi
      fi
    fi
  } >"$jd/result" 2>&1
  mark_known "$jd/result"
  cat "$jd/result"
}
export -f analyze analyze_take run_job mark_known say check_exit check_output_exists check_no_output check_no_partial check_names_file

jobs_list() {
  local kind file flags ext
  # the slow ones (1080p HEVC) first, so that they do not finish last
  while read -r kind file flags join; do
    [ -n "$kind" ] || continue
    local pair="$file $ORD"; [[ $join == ord+kind* ]] && pair="$ORD $file"
    for ext in mov mp4 mkv; do
      local f=$flags; [ "$ext" = mp4 ] && [ "$kind" = prores4444 ] && f=-   # mp4 holds no ProRes
      echo "$kind.alone.$ext|$f|none|$ext|$file"
      if [ "$flags" = new ]; then   # joined into the one container named (kind+ord:EXT)
        [ "$ext" = "${join#*:}" ] && echo "$kind.join.$ext|-|none|$ext|$pair"
        continue
      fi
      [[ $flags == lite* ]] && [ "$ext" = mov ] && continue
      [ "$flags" = lite-hd ] && [ "$ext" = mkv ] && continue
      echo "$kind.join.$ext|$([ "$kind" = ordinary ] && echo expect-copy || echo -)|none|$ext|$pair"
    done
    [[ $flags == lite* || $flags == new ]] || echo "$kind.alone.mono.mov|-|mono|mov|$file"
    [[ $flags == lite-hd || $flags == new ]] || echo "$kind.join.mono.mov|-|mono|mov|$pair"
  done <<<"$KINDS"
  local feature how
  while read -r kind feature how ext; do
    [ -n "$kind" ] || continue
    read -r _ file _ join < <(echo "$KINDS" | awk -v k="$kind" '$1 == k')
    local takes=$file; [ "$how" = join ] && { takes="$file $ORD"; [[ $join == ord+kind* ]] && takes="$ORD $file"; }
    if [ "$feature" = mono ]; then echo "$kind.$how.mono.$ext|-|mono|$ext|$takes"
    else echo "$kind.$how.${feature%%=*}.$ext|$feature|none|$ext|$takes"; fi
  done <<<"$FEATURES"
  for t in $LISTS; do echo "list.${t%.*}.mp4|list|none|mp4|$t"; done
  local takes; takes=$(cd "$MEDIA" && echo takes20/*.mov)
  for ext in mov mp4 mkv; do echo "takes20.$ext|expect-copy order|none|$ext|$takes"; done
  echo "takes20.mono.mov|order|mono|mov|$takes"
  for t in $NONVIDEOS; do
    local b; b=$(basename "$t")
    echo "nonvideo.$b.alone|refuse|none|mov|$t"
    echo "nonvideo.$b.second|refuse|none|mov|$ORD $t"
  done
}

# ------------------------------------------------------------------------------------ main
P=${JOBS:-2}
all_takes=$( (echo "$KINDS" | awk 'NF {print $2}'; cd "$MEDIA" && ls takes20/*.mov) | sort -u)
printf '%s\n' $all_takes | xargs -P "$P" -I{} bash -c 'analyze_take "$1"' _ {}
jobs_list | grep -E -- "${ONLY:-.}" | tr '\n' '\0' | xargs -0 -P "$P" -I{} bash -c 'run_job "$1"' _ {}

passed=$(cat "$WORK"/jobs/*/result 2>/dev/null | grep -c '^ok ')
failed=$(cat "$WORK"/jobs/*/result 2>/dev/null | grep -c '^FAIL ')
known=$(cat "$WORK"/jobs/*/result 2>/dev/null | grep -c '^known ')
other=$(cat "$WORK"/jobs/*/result 2>/dev/null | grep -v -c -E '^(ok|FAIL|known) ')
[ "$other" -gt 0 ] && { echo "FAIL judge: $other unexpected line(s) from the judge:"; cat "$WORK"/jobs/*/result | grep -v -E '^(ok|FAIL|known) ' | head -5; failed=$((failed + 1)); }
echo "trial: time $((SECONDS - start)) s" >&2
echo "trial: $passed passed, $failed failed, $known known wrong (KNOWN)"
[ "$failed" = 0 ]
