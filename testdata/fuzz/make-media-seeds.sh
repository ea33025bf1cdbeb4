#!/usr/bin/env bash
# Makes the media seeds of the `media` fuzz target (testdata/fuzz/media/): tiny files, each a few
# KB, of the containers and codecs users bring, made once with the ffmpeg CLI and committed, so
# fuzzing starts from valid structure (scripts/fuzz.sh). Rerun only to change the seeds: the
# encoders' bytes vary between FFmpeg versions.   usage: testdata/fuzz/make-media-seeds.sh (~3 s)
set -euo pipefail
cd "$(dirname "$0")/media"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
src=(-f lavfi -i testsrc2=size=64x48:rate=10:duration=0.5)
tone=(-f lavfi -i sine=frequency=440:sample_rate=8000:duration=0.3)
x264=(-c:v libx264 -preset ultrafast -pix_fmt yuv420p)

ff "${src[@]}" "${x264[@]}" -g 3 h264.mp4
ff -f lavfi -i testsrc2=size=64x64:rate=10:duration=0.4 -c:v libx265 -preset ultrafast \
   -x265-params log-level=error -tag:v hvc1 -pix_fmt yuv420p hevc.mov
ff "${src[@]}" -c:v mpeg4 -q:v 10 mpeg4.mkv
ff "${src[@]}" -c:v libvpx-vp9 -deadline realtime -b:v 50k vp9.webm
ff -f lavfi -i testsrc2=size=32x24:rate=10:duration=0.3 -c:v mjpeg -q:v 20 -pix_fmt yuvj420p mjpeg.avi
# With audio: H.264 + AAC (index first, as a phone writes it) and VP9 + Opus.
ff "${src[@]}" "${tone[@]}" "${x264[@]}" -c:a aac -b:a 16k -ac 1 -shortest -movflags +faststart h264_aac.mov
ff "${src[@]}" "${tone[@]}" -c:v libvpx-vp9 -deadline realtime -b:v 50k -c:a libopus -b:a 8k -ac 1 -shortest vp9_opus.webm
# vrender's own take format: fragmented QuickTime, a fragment per keyframe.
ff "${src[@]}" "${x264[@]}" -g 2 -movflags frag_keyframe+empty_moov+default_base_moof frag.mov
# A phone held upright: a display matrix (rotation 90).
ff -i h264.mp4 -c copy -metadata:s:v:0 rotate=90 rotated.mov
# A damaged header: the video track's display matrix all zeros (a regression seed: probing it
# crashed, ProbeTests reads it). In a version-0 'tkhd' the matrix starts 44 bytes after the type.
cp h264.mp4 zero-matrix.mov
tkhd=$(grep -obUa tkhd zero-matrix.mov | head -1 | cut -d: -f1)
dd if=/dev/zero of=zero-matrix.mov bs=1 seek=$(( tkhd + 44 )) count=36 conv=notrunc status=none
# Cut off mid-way: the index is whole, the media data is not.
head -c "$(( $(stat -c %s h264_aac.mov) * 2 / 3 ))" h264_aac.mov > truncated.mov
ls -l
