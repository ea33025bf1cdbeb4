#!/usr/bin/env bash
# Makes the trial media for scripts/trial-acceptance.sh: short clips of the kinds of input real
# users bring (phone HEVC 10-bit rotated, HDR HLG/PQ, VP9/Opus, AV1, 5.1 / 44.1 kHz mono / two
# tracks / PCM audio, 29.97/25/60 fps, odd sizes, 4:2:2, 4:4:4, full-range webcam MJPEG, ProRes 4444,
# late video, one frame, long GOP, a folder of 20 takes), the second trial's kinds (DV PAL 16:9 and
# 4:3, HDV, an edit-list cut, a VFR screen recording, a mirrored selfie, a damaged .ts, a truncated
# and a scrambled .mp4, subtitles mov_text/SRT, chapters, timecode, QuickTime Animation), the
# third trial's (camcorder/broadcast/disc, intermediate codecs, web and legacy desktop formats,
# sound codecs, languages and flags, colour ranges and odd rates, streams joined mid-way: see
# there; an ffconcat list) and
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
  [ -s cues1.srt ] || printf '1\n00:00:00,200 --> 00:00:00,700\nune ligne\n\n' > cues1.srt
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

# ---- the third trial's kinds: 1 s or less, small unless the kind is HD, sound of beeps (B) for
# timing. Camcorder / broadcast / legacy: DV NTSC (4:1:1, bottom field first, SAR 8:9), 1080i
# H.264 + AC-3 5.1 in .m2ts (top field first), DVD .vob (MPEG-2 + AC-3 in MPEG-PS), VCD .mpg.
dv_ntsc() { mk dv_ntsc_bff.dv -f lavfi -i "$(V 720x480 30000/1001)" -f lavfi -i "$(B 1)" \
  -vf setsar=10/11,setfield=bff -c:v dvvideo -pix_fmt yuv411p -c:a pcm_s16le; }
m2ts_1080i() { mk h264_1080i_ac3_51.m2ts -f lavfi -i "$(V 1920x1080 25 0.6)" -f lavfi -i "$(B 0.6)" \
  -vf setfield=tff "${SMALL[@]}" -g 25 -flags +ildct+ilme -x264-params tff=1 "${BT709[@]}" \
  -c:a ac3 -b:a 384k -af aformat=channel_layouts=5.1 -mpegts_m2ts_mode 1; }
dvd_vob() { mk dvd_mpeg2_ac3.vob -f lavfi -i "$(V 720x480 30000/1001)" -f lavfi -i "$(B 1)" -vf setsar=8/9 \
  -c:v mpeg2video -b:v 4M -g 15 -bf 2 -pix_fmt yuv420p -c:a ac3 -b:a 192k -f vob; }
vcd_mpg() { mk vcd_mpeg1_mp2.mpg -f lavfi -i "$(V 352x240 30000/1001)" -f lavfi -i "$(B 1)" -target ntsc-vcd; }
# Intermediate codecs: ProRes 422 HQ, DNxHR SQ in MXF, CineForm, v210, Ut Video (in .avi).
prores_hq() { mk prores422hq_pcm.mov -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" \
  -c:v prores_ks -profile:v 3 -pix_fmt yuv422p10le "${BT709[@]}" -c:a pcm_s16le; }
dnxhr() { mk dnxhr_sq.mxf -f lavfi -i "$(V 640x360 25)" -f lavfi -i "$(B 1)" \
  -c:v dnxhd -profile:v dnxhr_sq -pix_fmt yuv422p "${BT709[@]}" -c:a pcm_s16le; }
cineform() { mk cineform_pcm.mov -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" \
  -c:v cfhd -pix_fmt yuv422p10le -c:a pcm_s16le; }
v210() { mk v210_pcm24.mov -f lavfi -i "$(V 256x144 30)" -f lavfi -i "$(B 1)" -c:v v210 -c:a pcm_s24le; }
utvideo() { mk utvideo_pcm.avi -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" -c:v utvideo -pix_fmt yuv422p -c:a pcm_s16le; }
# Web and legacy desktop: FLV (Sorenson + MP3 running 0.1 s past the video, as FLV recorders
# leave it; H.264 + AAC), WMV2/WMA2 (25 fps; and 30 fps with a
# keyframe every 10 frames, for the concat list: both start their video at 0.043 s, as ffmpeg's
# ASF muxer writes them), Theora/Vorbis, VP8/Vorbis, AV1 (libaom in .mp4, rav1e in .mkv), 3GP
# H.263 QCIF with 8 kHz mono AAC (no AMR encoder in Debian's ffmpeg), MPEG-4 ASP (XVID) + MP3 in
# .avi (B-frames: packets without times), NUT, a raw H.264 elementary stream (no container times),
# an animated GIF.
flv_sorenson() { mk flv_sorenson_mp3.flv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1.1)" \
  -c:v flv -q:v 4 -c:a libmp3lame -b:a 64k -ar 44100; }
flv_h264() { mk flv_h264_aac.flv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" "${SMALL[@]}" "${AAC[@]}"; }
wmv2() { mk wmv2_wma2.wmv -f lavfi -i "$(V 320x240 25)" -f lavfi -i "$(B 1)" -c:v wmv2 -b:v 1M -c:a wmav2 -b:a 64k; }
wmv_late() { mk wmv_late_043.wmv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" -c:v wmv2 -b:v 1M -g 10 \
  -c:a wmav2 -b:a 64k; }
theora() { mk theora_vorbis.ogv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" -c:v libtheora -q:v 6 -c:a libvorbis; }
vp8() { mk vp8_vorbis.webm -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" \
  -c:v libvpx -deadline realtime -cpu-used 8 -b:v 300k -c:a libvorbis; }
av1_aom() { mk av1_aom_aac.mp4 -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" \
  -c:v libaom-av1 -cpu-used 8 -row-mt 1 -usage realtime -g 30 -pix_fmt yuv420p "${AAC[@]}"; }
av1_rav1e() { mk av1_rav1e_opus.mkv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" \
  -c:v librav1e -speed 10 -g 30 -pix_fmt yuv420p -c:a libopus -b:a 48k; }
h263_3gp() { mk h263_qcif_8k_mono.3gp -f lavfi -i "$(V 176x144 15)" -f lavfi -i "$(B 1)" \
  -c:v h263 -q:v 4 -c:a aac -b:a 12k -ac 1 -ar 8000; }
avi_xvid() { mk xvid_mp3.avi -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" \
  -c:v mpeg4 -vtag XVID -q:v 4 -bf 2 -g 30 -c:a libmp3lame -b:a 96k; }
nut() { mk h264_pcm.nut -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" "${SMALL[@]}" -c:a pcm_s16le; }
raw_h264() { mk raw_elementary.h264 -f lavfi -i "$(V 320x240 30)" "${SMALL[@]}"; }
gif() { mk animated.gif -f lavfi -i "$(V 320x180 10)" -vf "split[a][b];[a]palettegen[p];[b][p]paletteuse"; }
# Sound: E-AC-3, ALAC, PCM float and 32-bit; audio that starts 0.3 s late or ends 0.4 s early.
eac3() { mk h264_eac3.mp4 -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" "${SMALL[@]}" -c:a eac3 -b:a 96k; }
alac() { mk h264_alac.mov -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" "${SMALL[@]}" -c:a alac; }
pcm_f32() { mk pcm_f32le.mov -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" "${SMALL[@]}" -c:a pcm_f32le; }
pcm_s32() { mk pcm_s32le.mkv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" "${SMALL[@]}" -c:a pcm_s32le; }
audio_late() { mk audio_late_0.3.mov -f lavfi -i "$(V 320x240 30)" -itsoffset 0.3 -f lavfi -i "$(B 0.7)" \
  "${SMALL[@]}" "${AAC[@]}"; }
audio_short() { mk audio_ends_0.6.mkv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 0.6)" "${SMALL[@]}" "${AAC[@]}"; }
# Languages, titles and flags: two audio languages (eng default with a title, deu) in .mkv and
# (eng, fra) in .mp4; a subtitle track in French; a titled video track; a forced second track.
LANG2=(-map 0 -map 1 -map 2 -metadata:s:a:0 language=eng -disposition:a:0 default -disposition:a:1 0)
two_lang_mkv() { mk two_lang_eng_deu.mkv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" -f lavfi -i "$(A 700 48000)" \
  "${LANG2[@]}" -metadata:s:a:0 "title=English stereo" -metadata:s:a:1 language=deu -metadata:s:a:1 title=Deutsch \
  "${SMALL[@]}" "${AAC[@]}"; }
two_lang_mp4() { mk two_lang_eng_fra.mp4 -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" -f lavfi -i "$(A 700 48000)" \
  "${LANG2[@]}" -metadata:s:a:1 language=fra "${SMALL[@]}" "${AAC[@]}"; }
subs_lang() { mk subs_fra.mkv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" -i cues1.srt -map 0 -map 1 -map 2 \
  "${SMALL[@]}" "${AAC[@]}" -c:s srt -metadata:s:s:0 language=fra -metadata:s:s:0 title=Français; }
video_title() { mk video_title.mkv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" "${SMALL[@]}" "${AAC[@]}" \
  -metadata:s:v:0 "title=Camera A" -metadata:s:a:0 language=eng; }
forced_audio() { mk forced_audio.mkv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" -f lavfi -i "$(A 700 48000)" \
  "${LANG2[@]}" -metadata:s:a:1 language=spa -metadata:s:a:1 "title=Spanish (forced)" -disposition:a:1 forced \
  "${SMALL[@]}" "${AAC[@]}"; }
# Picture: full-range and BT.601-tagged 720p, 12 fps and 1 fps, 29.97 fps on a 600 timescale
# (20/21-tick frames, as iPhones write), a first timestamp at 7 s, rotation 90 with SAR 4:3.
full_range() { mk full_range_720p.mp4 -f lavfi -i "$(V 1280x720 30)" -f lavfi -i "$(B 1)" \
  -c:v libx264 -preset ultrafast -g 30 -pix_fmt yuvj420p -color_range pc -color_primaries bt709 \
  -color_trc bt709 -colorspace bt709 "${AAC[@]}"; }
bt601_hd() { mk bt601_720p.mov -f lavfi -i "$(V 1280x720 30)" -f lavfi -i "$(B 1)" -vf scale=out_color_matrix=bt601 \
  "${SMALL[@]}" -color_range tv -color_primaries smpte170m -color_trc smpte170m -colorspace smpte170m "${AAC[@]}"; }
fps_12() { mk fps_12.mp4 -f lavfi -i "$(V 320x240 12)" -f lavfi -i "$(B 1)" "${SMALL[@]}" -g 12 "${AAC[@]}"; }
fps_1() { mk fps_1.mp4 -f lavfi -i "$(V 320x240 1 3)" -f lavfi -i "$(B 3)" "${SMALL[@]}" -g 1 "${AAC[@]}"; }
timescale600() { mk fps_29.97_ts600.mov -f lavfi -i "$(V 320x240 30000/1001)" -f lavfi -i "$(B 1)" "${SMALL[@]}" \
  "${AAC[@]}" -video_track_timescale 600; }
start_7s() { mk start_7s.mkv -f lavfi -i "$(V 320x240 30)" -f lavfi -i "$(B 1)" "${SMALL[@]}" "${AAC[@]}" -output_ts_offset 7; }
rot_sar() { mk rot90_sar43.mp4 -f lavfi -i "$(V 480x360 30)" -f lavfi -i "$(B 1)" -vf setsar=4/3 "${SMALL[@]}" \
  "${AAC[@]}" -metadata:s:v:0 rotate=90; }
# Streams joined mid-way: open-GOP H.264 (x264 open-gop, B-frames) and HEVC (x265 CRA + RASL) in
# .ts cut at the keyframe nearest the middle (the leading B/RASL frames after it reference
# pictures cut away), and a VP9 .webm whose first 12 frames (up to the keyframe) reference pictures
# before it (copied with -copyinkf).
opengop_ts() {
  [ -s opengop_h264_cut.ts ] && return 0
  mk .opengop_full.ts -f lavfi -i "$(V 320x240 30 2)" -f lavfi -i "$(B 2)" -c:v libx264 -preset ultrafast -bf 3 -g 15 \
    -x264-params open-gop=1:b-adapt=0:scenecut=0 -pix_fmt yuv420p "${AAC[@]}"
  $EDIT cut-ts .opengop_full.ts .opengop_cut.ts && mv -f .opengop_cut.ts opengop_h264_cut.ts && rm -f .opengop_full.ts
}
hevc_opengop() {
  [ -s opengop_hevc_cut.ts ] && return 0
  mk .hevc_og_full.ts -f lavfi -i "$(V 320x240 30 2)" -f lavfi -i "$(B 2)" -c:v libx265 -preset ultrafast \
    -x265-params log-level=error:keyint=15:min-keyint=15:open-gop=1:bframes=3:b-adapt=0:scenecut=0 -pix_fmt yuv420p "${AAC[@]}"
  $EDIT cut-ts .hevc_og_full.ts .hevc_og_cut.ts && mv -f .hevc_og_cut.ts opengop_hevc_cut.ts && rm -f .hevc_og_full.ts
}
vp9_cut() {
  [ -s vp9_cut_midgop.webm ] && return 0
  mk .vp9_full.webm -f lavfi -i "$(V 320x240 30 1.6)" -f lavfi -i "$(B 1.6)" -c:v libvpx-vp9 -deadline realtime \
    -cpu-used 8 -b:v 300k -g 30 -keyint_min 30 -pix_fmt yuv420p -c:a libopus -b:a 48k
  mk vp9_cut_midgop.webm -i .vp9_full.webm -ss 0.6 -map 0 -c copy -copyinkf
  rm -f .vp9_full.webm
}
# An ffconcat list taking 0.2-0.8 s of the 30 fps WMV (times on the file's clock, as FFmpeg reads them).
concat_list() { [ -s wmv_late_cut.ffconcat ] || printf 'ffconcat version 1.0\nfile wmv_late_043.wmv\ninpoint 0.2\noutpoint 0.8\n' > wmv_late_cut.ffconcat; }

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
      mp4_truncated mp4_scrambled subs_movtext subs_srt chapters timecode qtrle
      m2ts_1080i full_range bt601_hd av1_rav1e dv_ntsc dvd_vob vcd_mpg prores_hq dnxhr cineform v210 utvideo
      flv_sorenson flv_h264 wmv2 wmv_late theora vp8 av1_aom h263_3gp avi_xvid nut raw_h264 gif eac3 alac
      pcm_f32 pcm_s32 audio_late audio_short two_lang_mkv two_lang_mp4 subs_lang video_title forced_audio
      fps_12 fps_1 timescale600 start_7s rot_sar opengop_ts hevc_opengop vp9_cut)
cues; concat_list
pids=(); failed=0
for j in "${jobs[@]}"; do
  $j & pids+=($!)
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}" || failed=1; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
[ "$failed" = 0 ] || { echo "make-trial-media: some media could not be made" >&2; exit 1; }
echo "trial media ready: $D"
