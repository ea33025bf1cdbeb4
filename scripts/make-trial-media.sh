#!/usr/bin/env bash
# Makes the trial media for scripts/trial-acceptance.sh: short clips of the kinds of input real
# users bring (phone HEVC 10-bit rotated, HDR HLG/PQ, VP9/Opus, AV1, 5.1 / 44.1 kHz mono / two
# tracks / PCM audio, 29.97/25/60 fps, odd sizes, 4:2:2, 4:4:4, full-range webcam MJPEG, ProRes 4444,
# late video, one frame, long GOP, a folder of 20 takes), the second trial's kinds (DV PAL 16:9 and
# 4:3, HDV, an edit-list cut, a VFR screen recording, a mirrored selfie, a damaged .ts, a truncated
# and a scrambled .mp4, subtitles mov_text/SRT, chapters, timecode, QuickTime Animation) and
# non-videos, all made by the ffmpeg CLI from lavfi sources (a few then edited byte-wise by
# scripts/trial_media.py) so vrender is judged on files it did not write. Files are named by kind.
# Idempotent: existing files are kept (each file is written to a temporary name, then renamed).
#   usage: scripts/make-trial-media.sh DIR
set -euo pipefail
D=${1:?usage: make-trial-media.sh DIR}
EDIT="python3 $(cd "$(dirname "$0")" && pwd)/trial_media.py"
mkdir -p "$D/takes20" "$D/nonvideo"; cd "$D"

ff() { ffmpeg -hide_banner -nostdin -loglevel error -y "$@"; }
# mk OUT ARGS...: make OUT with `ffmpeg ARGS... OUT` unless it exists.
mk() {
  local out=$1; shift
  [ -s "$out" ] && return 0
  local tmp; tmp="$(dirname "$out")/.tmp.$(basename "$out")"
  ff "$@" "$tmp" && mv -f "$tmp" "$out"
}
# Sources (1 s unless told): video V SIZE RATE [DUR], audio A FREQ RATE [DUR].
V() { echo "testsrc2=size=$1:rate=$2:duration=${3:-1}"; }
A() { echo "sine=frequency=$1:sample_rate=$2:duration=${3:-1}"; }
X264=(-c:v libx264 -preset ultrafast -g 30)
X265=(-c:v libx265 -preset ultrafast -x265-params log-level=error -tag:v hvc1)
BT709=(-color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv)
AAC=(-c:a aac -b:a 96k)

# The ordinary take other kinds are joined with: H.264 1280x720 30 fps + AAC 48 kHz stereo.
ordinary() { mk ordinary_h264_720p30.mov -f lavfi -i "$(V 1280x720 30)" -f lavfi -i "$(A 440 48000)" \
  "${X264[@]}" -pix_fmt yuv420p "${BT709[@]}" "${AAC[@]}" -ac 2; }

# A phone held upright: HEVC main10 1920x1080 stored, rotation 90 as a display matrix, AAC.
phone() {
  [ -s phone_hevc10_rot90.mov ] && return 0
  mk .phone_plain.mov -f lavfi -i "$(V 1920x1080 30)" -f lavfi -i "$(A 550 48000)" \
    "${X265[@]}" -pix_fmt yuv420p10le -profile:v main10 "${BT709[@]}" "${AAC[@]}" -ac 2
  mk phone_hevc10_rot90.mov -i .phone_plain.mov -map 0 -c copy -metadata:s:v:0 rotate=90
  rm -f .phone_plain.mov
}
hdr_hlg() { mk hdr_hlg_hevc10.mov -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 600 48000)" \
  "${X265[@]}" -pix_fmt yuv420p10le -profile:v main10 \
  -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -color_range tv "${AAC[@]}"; }
hdr_pq() { mk hdr_pq_hevc10.mp4 -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 650 48000)" \
  "${X265[@]}" -pix_fmt yuv420p10le -profile:v main10 \
  -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -color_range tv "${AAC[@]}"; }
vp9() { mk vp9_opus.webm -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 700 48000)" \
  -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 500k -pix_fmt yuv420p -c:a libopus -b:a 64k; }
av1() {
  if ffmpeg -hide_banner -encoders 2>/dev/null | grep -q libsvtav1; then
    mk av1_opus.mkv -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 750 48000)" \
      -c:v libsvtav1 -preset 12 -g 30 -pix_fmt yuv420p -c:a libopus -b:a 64k
  else
    mk av1_opus.mkv -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 750 48000)" \
      -c:v libaom-av1 -cpu-used 8 -row-mt 1 -usage realtime -g 30 -pix_fmt yuv420p -c:a libopus -b:a 64k
  fi
}
aac51() { mk aac_5.1.mp4 -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 800 48000)" \
  "${X264[@]}" -pix_fmt yuv420p "${AAC[@]}" -af "aformat=channel_layouts=5.1"; }
aac441mono() { mk aac_44k1_mono.mp4 -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 850 44100)" \
  "${X264[@]}" -pix_fmt yuv420p "${AAC[@]}" -ac 1; }
two_audio() { mk two_audio_tracks.mov -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 900 48000)" \
  -f lavfi -i "$(A 300 48000)" -map 0 -map 1 -map 2 "${X264[@]}" -pix_fmt yuv420p "${AAC[@]}" \
  -metadata:s:a:0 title=main -metadata:s:a:1 title=commentary; }
pcm() { mk pcm_s16le.mov -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 950 48000)" \
  "${X264[@]}" -pix_fmt yuv420p -c:a pcm_s16le; }
fps() { # fps NAME RATE
  mk "fps_$1.mp4" -f lavfi -i "$(V 640x360 "$2")" -f lavfi -i "$(A 500 48000)" \
    "${X264[@]}" -pix_fmt yuv420p "${AAC[@]}"
}
# testsrc2 makes even sizes only: crop in 4:4:4 to the odd size.
odd444() { mk odd_853x479_444.mp4 -f lavfi -i "$(V 854x480 30)" -f lavfi -i "$(A 520 48000)" \
  -vf format=yuv444p,crop=853:479:0:0 "${X264[@]}" -pix_fmt yuv444p -profile:v high444 "${AAC[@]}"; }
# x264 refuses odd sizes in 4:2:0; VP9 (as browsers and screen recorders write) takes them.
odd420() { mk odd_641x361_420.webm -f lavfi -i "$(V 642x362 30)" -vf format=yuv444p,crop=641:361:0:0,format=yuv420p \
  -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 300k -pix_fmt yuv420p; }
yuv422() { mk yuv422p_h264.mov -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 540 48000)" \
  "${X264[@]}" -pix_fmt yuv422p -profile:v high422 "${AAC[@]}"; }
yuv444() { mk yuv444p_h264.mp4 -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 560 48000)" \
  "${X264[@]}" -pix_fmt yuv444p -profile:v high444 "${AAC[@]}"; }
# A webcam: full-range 4:2:2 MJPEG tagged BT.601 (bt470bg/smpte170m).
WEBCAM=(-c:v mjpeg -q:v 4 -pix_fmt yuvj422p -color_range pc -color_primaries bt470bg
        -color_trc smpte170m -colorspace bt470bg)
webcam_mkv() { mk webcam_mjpeg.mkv -f lavfi -i "$(V 640x480 30)" "${WEBCAM[@]}"; }
webcam_avi() { mk webcam_mjpeg_pcm.avi -f lavfi -i "$(V 640x480 30)" -f lavfi -i "$(A 580 48000)" \
  "${WEBCAM[@]}" -c:a pcm_s16le; }
prores() { mk prores4444_pcm.mov -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 610 48000)" \
  -c:v prores_ks -profile:v 4444 -pix_fmt yuva444p10le "${BT709[@]}" -c:a pcm_s16le; }
mjpeg_mov() { mk mjpeg_pcm.mov -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 620 48000)" \
  -c:v mjpeg -q:v 4 -pix_fmt yuvj420p -c:a pcm_s16le; }
# Video starts 0.5 s after the audio (1 s of video, 1.5 s of audio).
late_video() { mk late_video.mov -itsoffset 0.5 -f lavfi -i "$(V 640x360 30)" -f lavfi -i "$(A 630 48000 1.5)" \
  "${X264[@]}" -pix_fmt yuv420p -fps_mode:v passthrough "${AAC[@]}"; }
one_frame() { mk one_frame.mp4 -f lavfi -i "$(V 640x360 30)" -frames:v 1 "${X264[@]}" -pix_fmt yuv420p; }
long_gop() { mk long_gop_bframes.mp4 -f lavfi -i "$(V 640x360 30 2)" -f lavfi -i "$(A 640 48000 2)" \
  -c:v libx264 -preset ultrafast -g 300 -bf 3 -x264-params b-adapt=0:scenecut=0 -pix_fmt yuv420p "${AAC[@]}"; }
# 20 takes with the same settings, each distinguishable (picture offset by i s, its own tone).
takes20() {
  local i n
  for i in $(seq 1 20); do
    n=$(printf %02d "$i")
    mk "takes20/take_$n.mov" -ss "$i" -f lavfi -i "$(V 320x180 30 $((i + 1)))" \
      -f lavfi -i "$(A $((200 + 40 * i)) 48000)" "${X264[@]}" -pix_fmt yuv420p "${BT709[@]}" \
      "${AAC[@]}" -ac 2 -t 1
  done
}
# ---- the second trial's kinds. Their sound is beeps: 1 kHz for 60 ms at 0.25 s past every second
# (silent between and in each take's last 0.69 s), so that trial_judge.py can time the sound.
B() { echo "aevalsrc=0.5*sin(2*PI*1000*t)*between(mod(t\,1)\,0.25\,0.31):s=48000:c=stereo:d=$1"; }
SMALL=(-c:v libx264 -preset ultrafast -g 30 -pix_fmt yuv420p)
# Camcorder DV PAL (720x576, 25 fps, PCM): 16:9 as raw .dv, 4:3 in .avi.
dv169() { mk dv_pal_169.dv -f lavfi -i "$(V 720x576 25 2)" -f lavfi -i "$(B 2)" -vf setsar=64/45 \
  -c:v dvvideo -pix_fmt yuv420p -c:a pcm_s16le; }
dv43() { mk dv_pal_43.avi -f lavfi -i "$(V 720x576 25 2)" -f lavfi -i "$(B 2)" -vf setsar=16/15 \
  -c:v dvvideo -pix_fmt yuv420p -c:a pcm_s16le; }
# HDV: MPEG-2 1440x1080 SAR 4:3 (shown 16:9) + MPEG audio in .m2ts; 2 s, the one big kind. Tagged
# BT.709 as HDV camcorders write it (untagged, ffmpeg would read it as BT.601 and players as BT.709).
hdv() { mk hdv_1440x1080.m2ts -f lavfi -i "$(V 1440x1080 25 2)" -f lavfi -i "$(B 2)" -vf setsar=4/3 \
  -c:v mpeg2video -b:v 8M -g 12 -bf 2 -pix_fmt yuv420p "${BT709[@]}" -c:a mp2 -b:a 192k; }
# A trimmed phone clip: the first 1.5 s of a one-GOP 4 s clip cut away by an edit list (players
# show 2.5 s, 75 frames; the file holds all 120).
editlist() {
  [ -s editlist_cut.mp4 ] && return 0
  mk .editlist_src.mp4 -f lavfi -i "$(V 640x360 30 4)" -f lavfi -i "$(B 4)" "${SMALL[@]}" -g 120 "${AAC[@]}"
  mk editlist_cut.mp4 -ss 1.5 -i .editlist_src.mp4 -c copy
  rm -f .editlist_src.mp4
}
# A screen recording: 30 fps nominal, still stretches dropped (12 frames 1/30 s apart, then 3 spaced
# out, each second): 15 fps on average, 1/30 s the most common interval.
vfr() { mk vfr_screen.mp4 -f lavfi -i "$(V 640x360 30 4)" -f lavfi -i "$(B 4)" \
  -vf "select='lt(mod(n\,30)\,12)+eq(mod(n\,30)\,15)+eq(mod(n\,30)\,20)+eq(mod(n\,30)\,25)'" -fps_mode vfr \
  "${SMALL[@]}" "${AAC[@]}"; }
# A front-camera selfie: shown mirrored by a display matrix with a horizontal flip.
selfie() {
  [ -s selfie_mirror.mp4 ] && return 0
  mk .selfie_plain.mp4 -f lavfi -i "$(V 640x360 30 2)" -f lavfi -i "$(B 2)" "${SMALL[@]}" "${AAC[@]}" -movflags +faststart
  $EDIT hflip .selfie_plain.mp4 && mv -f .selfie_plain.mp4 selfie_mirror.mp4
}
# Broadcast .ts with 4 KiB scrambled mid-way (pictures broken, 0.38 s of sound lost).
ts_damaged() {
  [ -s ts_damaged.ts ] && return 0
  mk .ts_plain.ts -f lavfi -i "$(V 640x360 30 4)" -f lavfi -i "$(B 4)" "${SMALL[@]}" "${AAC[@]}"
  $EDIT scramble-ts .ts_plain.ts .ts_damaged.ts && mv -f .ts_damaged.ts ts_damaged.ts && rm -f .ts_plain.ts
}
# A faststart .mp4 cut at 60% (a copy that stopped): the index names samples past the end.
mp4_truncated() {
  [ -s mp4_truncated.mp4 ] && return 0
  mk .mp4_whole.mp4 -f lavfi -i "$(V 640x360 30 3)" -f lavfi -i "$(B 3)" "${SMALL[@]}" "${AAC[@]}" -movflags +faststart
  $EDIT truncate .mp4_whole.mp4 .mp4_truncated.mp4 0.6 && mv -f .mp4_truncated.mp4 mp4_truncated.mp4 && rm -f .mp4_whole.mp4
}
# An .mp4 whose mdat has 4 KiB of noise from a sound packet on (corrupt AAC and H.264 packets).
mp4_scrambled() {
  [ -s mp4_scrambled.mp4 ] && return 0
  mk .mp4_clean.mp4 -f lavfi -i "$(V 640x360 30 3)" -f lavfi -i "$(B 3)" "${SMALL[@]}" "${AAC[@]}"
  $EDIT scramble-mdat .mp4_clean.mp4 .mp4_scrambled.mp4 && mv -f .mp4_scrambled.mp4 mp4_scrambled.mp4 && rm -f .mp4_clean.mp4
}
# Side streams: two subtitle cues (0.5-1.2 s, 1.7-2.6 s), two chapters (0-1.5 s, 1.5-3 s), a timecode.
# `cues` writes the cue and chapter files once, before the jobs.
cues() {
  [ -s cues.srt ] || printf '1\n00:00:00,500 --> 00:00:01,200\nfirst line\n\n2\n00:00:01,700 --> 00:00:02,600\nsecond line\n\n' > cues.srt
  [ -s chapters.ffmeta ] || printf ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1500\ntitle=Opening\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1500\nEND=3000\ntitle=Ending\n' > chapters.ffmeta
}
subs_movtext() { mk subs_movtext.mp4 -f lavfi -i "$(V 640x360 30 3)" -f lavfi -i "$(B 3)" -i cues.srt \
  -map 0 -map 1 -map 2 "${SMALL[@]}" "${AAC[@]}" -c:s mov_text -metadata:s:s:0 language=eng; }
subs_srt() { mk subs_srt.mkv -f lavfi -i "$(V 640x360 30 3)" -f lavfi -i "$(B 3)" -i cues.srt \
  -map 0 -map 1 -map 2 "${SMALL[@]}" -c:a libopus -b:a 64k -c:s srt -metadata:s:s:0 language=eng; }
chapters() { mk chapters.mp4 -f lavfi -i "$(V 640x360 30 3)" -f lavfi -i "$(B 3)" -i chapters.ffmeta \
  -map 0 -map 1 -map_chapters 2 "${SMALL[@]}" "${AAC[@]}"; }
timecode() { mk timecode.mov -f lavfi -i "$(V 640x360 30 3)" -f lavfi -i "$(B 3)" "${SMALL[@]}" "${AAC[@]}" \
  -timecode 01:00:00:00; }
# QuickTime Animation (lossless RGB run-length) + PCM, as motion-graphics tools export.
qtrle() { mk qtrle_pcm.mov -f lavfi -i "$(V 320x240 30 2)" -f lavfi -i "$(B 2)" -c:v qtrle -pix_fmt rgb24 -c:a pcm_s16le; }

nonvideo() {
  mk nonvideo/image.png -f lavfi -i "$(V 320x180 30)" -frames:v 1
  [ -s nonvideo/subtitles.srt ] || printf '1\n00:00:00,000 --> 00:00:01,000\nhello\n\n' > nonvideo/subtitles.srt
  mk nonvideo/subtitles_only.mkv -i nonvideo/subtitles.srt -c:s srt
  mk nonvideo/audio_only.m4a -f lavfi -i "$(A 440 48000)" "${AAC[@]}"
  mk nonvideo/cover_art.mp3 -f lavfi -i "$(A 440 48000)" -i nonvideo/image.png -map 0 -map 1 \
    -c:a libmp3lame -b:a 64k -c:v copy -disposition:v attached_pic -id3v2_version 3
}

# Two at a time (the machine is shared); the slow HEVC 1080p one starts first.
jobs=(phone hdr_hlg hdr_pq vp9 av1 ordinary aac51 aac441mono two_audio pcm "fps 29.97 30000/1001"
      "fps 25 25" "fps 60 60" odd444 odd420 yuv422 yuv444 webcam_mkv webcam_avi prores mjpeg_mov
      late_video one_frame long_gop takes20 nonvideo hdv dv169 dv43 editlist vfr selfie ts_damaged
      mp4_truncated mp4_scrambled subs_movtext subs_srt chapters timecode qtrle)
cues
pids=(); failed=0
for j in "${jobs[@]}"; do
  $j & pids+=($!)
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}" || failed=1; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
[ "$failed" = 0 ] || { echo "make-trial-media: some media could not be made" >&2; exit 1; }
echo "trial media ready: $D"
