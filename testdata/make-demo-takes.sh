#!/usr/bin/env bash
# Regenerates testdata/takes/: three small takes for `make demo`, made by the ffmpeg CLI (an
# independent encoder) so vrender is exercised on files it did not write. The outputs are
# committed; run this only to change them.   usage: testdata/make-demo-takes.sh
set -euo pipefail
cd "$(dirname "$0")/takes"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
# Take 1: the opening, landscape.
ff -f lavfi -i "testsrc2=size=640x360:rate=30:duration=2" -f lavfi -i "sine=frequency=330:sample_rate=48000:duration=2" \
   -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest take1.mov
# Take 2: a different scene and pitch.
ff -f lavfi -i "smptehdbars=size=640x360:rate=30:duration=2" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=2" \
   -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest take2.mov
# Take 3: recorded on another device: 4:3, 25 fps, no audio.
ff -f lavfi -i "testsrc=size=480x360:rate=25:duration=2" \
   -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p take3.mp4
ls -l
