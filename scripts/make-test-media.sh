#!/usr/bin/env bash
# Makes the media the test suite reads: takes that look like what users bring (codecs,
# containers, sizes, frame rates, rotation, audio) and broken files, all made by the ffmpeg CLI
# so vrender is tested on files it did not write. Names follow the team's shared corpus
# (../shared/corpus/make-corpus.sh), plus a few cases of our own. Idempotent: existing files are
# kept.   usage: scripts/make-test-media.sh DIR
set -euo pipefail
scripts=$(cd "$(dirname "$0")" && pwd)
D=${1:?usage: make-test-media.sh DIR}; mkdir -p "$D/bad"; cd "$D"
# Steps of .ci/run run side by side (both sanitizers make this folder): one waits for the other,
# on a lock of this very script, so no two write the same temporary file.
exec {script_lock}<"$scripts/make-test-media.sh"
flock "$script_lock"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
mk() { local out=$1; shift; [ -s "$out" ] || ff "$@" "$out"; }

for i in 1 2 3; do   # one camera, three takes: stream copy applies
  mk same_$i.mov -f lavfi -i testsrc2=size=1280x720:rate=30:duration=2 \
     -f lavfi -i sine=frequency=$((200*i)):sample_rate=48000:duration=2 \
     -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p -c:a aac -shortest
done
mk h264_720p30_aac48k.mov -f lavfi -i testsrc2=size=1280x720:rate=30:duration=3 \
   -f lavfi -i sine=frequency=440:sample_rate=48000:duration=3 \
   -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -shortest
mk hevc_640x480_25_aac44k_mono.mp4 -f lavfi -i testsrc=size=640x480:rate=25:duration=2 \
   -f lavfi -i sine=frequency=660:sample_rate=44100:duration=2 \
   -c:v libx265 -preset ultrafast -x265-params log-level=error -pix_fmt yuv420p -tag:v hvc1 \
   -c:a aac -ac 1 -shortest
mk mpeg4_854x480_24_noaudio.mkv -f lavfi -i smptebars=size=854x480:rate=24:duration=2 -c:v mpeg4 -q:v 4
if [ ! -s portrait_rot90.mov ]; then   # a phone held upright: 1280x720 stored, rotation 90
  ff -f lavfi -i testsrc2=size=1280x720:rate=30:duration=2 -f lavfi -i sine=frequency=550:sample_rate=48000:duration=2 \
     -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -shortest portrait_tmp.mov
  ff -i portrait_tmp.mov -c copy -metadata:s:v:0 rotate=90 portrait_rot90.mov && rm -f portrait_tmp.mov
fi
# Our own cases: a small take for fast end-to-end tests, full-range 4:2:2 from a webcam-like
# MJPEG stream, and audio that starts late.
mk small_a.mov -f lavfi -i testsrc2=size=320x240:rate=30:duration=1 -f lavfi -i sine=frequency=300:sample_rate=48000:duration=1 \
   -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest
mk small_b.mov -f lavfi -i testsrc2=size=320x240:rate=30:duration=1 -f lavfi -i sine=frequency=600:sample_rate=48000:duration=1 \
   -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest
mk mjpeg_422_full.mkv -f lavfi -i testsrc2=size=320x240:rate=15:duration=1 -c:v mjpeg -pix_fmt yuvj422p -q:v 5
mk late_audio.mov -f lavfi -i testsrc2=size=320x240:rate=30:duration=2 \
   -f lavfi -i "sine=frequency=500:sample_rate=48000:duration=1.5,adelay=500|500" \
   -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac
# Damaged in the middle: readable index, garbage where some frames were.
if [ ! -s damaged_middle.mov ]; then
  cp same_1.mov damaged_middle.mov
  size=$(stat -c %s damaged_middle.mov)
  awk 'BEGIN { for (i = 0; i < 3750; i++) printf "vrender damage!\n" }' | dd of=damaged_middle.mov bs=1 seek=$((size / 2)) conv=notrunc status=none
fi

[ -s bad/truncated.mov ] || head -c 30000 same_1.mov > bad/truncated.mov
[ -e bad/empty.mov ] || : > bad/empty.mov
[ -s bad/notes.mov ] || echo "not a video" > bad/notes.mov
mk bad/audio_only.m4a -f lavfi -i sine=frequency=440:sample_rate=48000:duration=1 -c:a aac
# A small take shaped like `vrender capture`'s: HEVC in fragmented QuickTime (a fragment every
# half second) with AAC; the damaged-copies test damages it.
mk take_hevc_320x240.mov -f lavfi -i testsrc2=size=320x240:rate=30:duration=1 \
   -f lavfi -i sine=frequency=500:sample_rate=48000:duration=1 \
   -c:v libx265 -preset ultrafast -x265-params log-level=error:keyint=15 -tag:v hvc1 -pix_fmt yuv420p \
   -c:a aac -shortest -movflags frag_keyframe+empty_moov+default_base_moof
# Hostile inputs: huge and zero sizes, absurd time bases and lengths, ... (HostileInputTests).
bash "$scripts/make-hostile-media.sh" "$PWD" >/dev/null
echo "test media ready: $D"
