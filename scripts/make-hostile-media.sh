#!/usr/bin/env bash
# Makes the hostile inputs of Tests/vrenderTests/HostileInputTests.swift into DIR/hostile:
# unusual but valid files the ffmpeg CLI can make (10-bit, 4:2:2, 4:4:4, odd sizes, variable
# frame rate, B-frames, absurd time bases and frame rates, zero-length and one-frame takes,
# attachment-only) and headers ffmpeg will not write, made by overwriting bytes of a small
# valid file (perl, which every Debian has): picture sizes of 65535, 0 or over vrender's
# limits, lying durations, damaged codec setup. Every vrender run on one of these must exit 0
# with a sane output or 1 naming the file. Idempotent: existing files are kept.
#   usage: scripts/make-hostile-media.sh DIR
set -euo pipefail
D=${1:?usage: make-hostile-media.sh DIR}
mkdir -p "$D/hostile"; cd "$D/hostile"

ff() { ffmpeg -hide_banner -nostdin -loglevel error -y "$@"; }
# mk OUT ARGS...: `ffmpeg ARGS... OUT` unless OUT exists (written under a temporary name first).
mk() {
  local out=$1; shift
  [ -s "$out" ] && return 0
  ff "$@" ".tmp.$out" && mv -f ".tmp.$out" "$out"
}
# patched OUT FROM ANCHOR OFFSET HEX [all]: OUT is FROM with the bytes HEX written OFFSET bytes
# after the first (or every, with `all`) occurrence of the byte string ANCHOR (perl escapes).
patched() {
  local out=$1 from=$2 anchor=$3 offset=$4 hex=$5 every=${6:-first}
  [ -s "$out" ] && return 0
  perl -e '
    my ($from, $to, $anchor, $offset, $hex, $every) = @ARGV;
    open(my $in, "<:raw", $from) or die "$from: $!"; local $/; my $data = <$in>;
    $anchor = eval "\"$anchor\""; my $bytes = pack("H*", $hex); my ($at, $count) = (0, 0);
    while (($at = index($data, $anchor, $at)) >= 0) {
      substr($data, $at + $offset, length $bytes) = $bytes; $count++; $at++;
      last if $every ne "all";
    }
    die "$from: no anchor $ARGV[2]\n" unless $count;
    open(my $out, ">:raw", $to) or die "$to: $!"; print $out $data;
  ' "$from" ".tmp.$out" "$anchor" "$offset" "$hex" "$every" && mv -f ".tmp.$out" "$out"
}
# flipped OUT FROM ANCHOR OFFSET BIT: OUT is FROM with bit BIT of the big-endian 32-bit word
# OFFSET bytes after the first occurrence of ANCHOR flipped (a bit error in a header field).
flipped() {
  local out=$1 from=$2 anchor=$3 offset=$4 bit=$5
  [ -s "$out" ] && return 0
  perl -e '
    my ($from, $to, $anchor, $offset, $bit) = @ARGV;
    open(my $in, "<:raw", $from) or die "$from: $!"; local $/; my $data = <$in>;
    my $at = index($data, $anchor); die "$from: no anchor $anchor\n" if $at < 0;
    my $word = unpack("N", substr($data, $at + $offset, 4));
    substr($data, $at + $offset, 4) = pack("N", $word ^ (1 << $bit));
    open(my $out, ">:raw", $to) or die "$to: $!"; print $out $data;
  ' "$from" ".tmp.$out" "$anchor" "$offset" "$bit" && mv -f ".tmp.$out" "$out"
}
# truncated OUT FROM BYTES: the first BYTES bytes of FROM.
truncated() { [ -s "$1" ] || { head -c "$3" "$2" > ".tmp.$1" && mv -f ".tmp.$1" "$1"; }; }

SRC="testsrc2=size=320x240:rate=30:duration=1"
TONE="sine=frequency=440:sample_rate=48000:duration=1"
X264=(-c:v libx264 -preset ultrafast -x264-params log-level=error)
X265=(-c:v libx265 -preset ultrafast -x265-params log-level=error -tag:v hvc1)

# --- Sources the crafted files start from.
mk base_h264.mov -f lavfi -i "$SRC" -f lavfi -i "$TONE" "${X264[@]}" -pix_fmt yuv420p -c:a aac -shortest
mk base_h264.mkv -f lavfi -i "$SRC" -f lavfi -i "$TONE" "${X264[@]}" -pix_fmt yuv420p -c:a aac -shortest
# MJPEG: every frame states its own size in a fixed-width field (SOF0: FF C0, length, precision,
# height, width), so sizes ffmpeg would never write can be patched in.
mk base_mjpeg.mov -f lavfi -i "testsrc2=size=64x48:rate=5:duration=1" -c:v mjpeg -pix_fmt yuvj420p

# --- Picture sizes. Both places a QuickTime MJPEG file states its size are patched: the
# sample description (stsd: the first entry's width and height are 44 bytes after `stsd`) and
# every frame's SOF0 marker (FF C0 00 11 08, then height and width).
SOF='\xff\xc0\x00\x11\x08'
sized_mjpeg() { # sized_mjpeg OUT WWWWHHHH(hex)
  local hw=${2:4:4}${2:0:4}
  [ -s "$1" ] && return 0   # (the intermediate is gone: do not make it again)
  patched ".sof.$1" base_mjpeg.mov "$SOF" 5 "$hw" all && patched "$1" ".sof.$1" 'stsd' 44 "$2" && rm -f ".sof.$1"
}
sized_mjpeg size_65535x65535_mjpeg.mov ffffffff   # FFmpeg itself refuses it
sized_mjpeg size_20000x12000_mjpeg.mov 4e202ee0   # FFmpeg takes it; over 16384 per side
sized_mjpeg size_8200x8200_mjpeg.mov 20082008     # under 16384 per side, over the pixel budget
patched size_64x0_mjpeg.mov base_mjpeg.mov "$SOF" 5 00000040 all   # frames of height 0
# A real 16400-wide stream (FFV1 takes any size): valid, but over the limit per side.
mk size_16400x16_ffv1.mkv -f lavfi -i "testsrc2=size=1640x16:rate=2:duration=1" -vf scale=16400:16 -c:v ffv1
# The container's size disagrees with the codec's (H.264's SPS says 320x240); Matroska's
# PixelWidth is B0 82 0140.
patched stsd_65535x65535_h264.mov base_h264.mov 'stsd' 44 ffffffff
patched stsd_0x0_h264.mov base_h264.mov 'stsd' 44 00000000
patched mkv_pixelwidth_65535_h264.mkv base_h264.mkv '\xb0\x82\x01\x40' 2 ffff
patched mkv_pixelwidth_0_h264.mkv base_h264.mkv '\xb0\x82\x01\x40' 2 0000

# --- Time: absurd time bases, frame rates and durations.
mk timebase_1e-9.mov -f lavfi -i "$SRC" "${X264[@]}" -video_track_timescale 1000000000
mk timebase_1_fps_1e-6.mov -f lavfi -i "$SRC" -vf "setpts=N*1000000/TB" "${X264[@]}" -video_track_timescale 1 -fps_mode passthrough
mk fps_1e6.mov -f lavfi -i "$SRC" -vf "setpts=N/1000000/TB" "${X264[@]}" -video_track_timescale 1000000 -fps_mode passthrough
# ... whose last frame ffmpeg gave 1/30 s: its stts's second entry (24 bytes after `stts`) says 1 µs too.
patched fps_1e6_all.mov fps_1e6.mov 'stts' 24 00000001
mk fps_1_per_2h.mov -f lavfi -i "testsrc2=size=320x240:rate=30" -frames:v 3 -vf "setpts=N*7200/TB" "${X264[@]}" \
   -video_track_timescale 1 -fps_mode passthrough
# Matroska has no per-stream length: the Segment's Duration (44 89 88 + a double, in ms) is all.
patched mkv_duration_1e9ms.mkv base_h264.mkv '\x44\x89\x88' 3 41cdcd6500000000   # 1e6 s
patched mkv_duration_1ms.mkv base_h264.mkv '\x44\x89\x88' 3 3ff0000000000000      # 0.001 s
# Matroska's TimecodeScale (2A D7 B1 83 + 3 bytes, ns per tick) from 1 ms to 1 ns: every
# timestamp a millionth of what it was, the whole take a microsecond long.
patched mkv_timescale_1ns.mkv base_h264.mkv '\x2a\xd7\xb1\x83' 4 000001
# mdhd's duration (20 bytes after `mdhd`): the mov demuxer trusts its sample table instead.
patched mdhd_duration_huge.mov base_h264.mov 'mdhd' 20 7fffffff
mk one_frame.mov -f lavfi -i "$SRC" "${X264[@]}" -frames:v 1
# A fragmented take (as `vrender capture` writes) killed before its first fragment: a track,
# no samples.
mk .frag.mov -f lavfi -i "$SRC" "${X264[@]}" -movflags frag_keyframe+empty_moov -g 30
[ -s zero_frames.mov ] || truncated zero_frames.mov .frag.mov "$(perl -e 'local $/; $_ = <STDIN>; print index($_, "moof") - 4' < .frag.mov)"
# Variable frame rate: 60 fps for half a second, then 10 fps; in Matroska (1 ms time base).
mk vfr.mkv -f lavfi -i "testsrc2=size=320x240:rate=60:duration=1" -vf "select='lt(t,0.5)+not(mod(n,6))'" \
   "${X264[@]}" -fps_mode vfr
# B-frames, with the edit list QuickTime needs for them, and audio.
mk bframes_h264.mp4 -f lavfi -i "$SRC" -f lavfi -i "$TONE" "${X264[@]}" -bf 3 -g 15 -c:a aac -shortest
mk bframes_hevc.mov -f lavfi -i "$SRC" "${X265[@]}" -x265-params log-level=error:bframes=4
# One bit flipped in a composition offset (bit 20 of `ctts` entry 10's offset, 16 bytes past
# `ctts` plus 8 per entry): one frame's pts 68 s late while every length field says 2 s.
mk ctts_base_hevc.mov -f lavfi -i testsrc2=size=320x240:rate=30:duration=2 -c:v libx265 -preset ultrafast \
   -x265-params log-level=error:bframes=3 -tag:v hvc1 -pix_fmt yuv420p
flipped ctts_bit20_hevc.mov ctts_base_hevc.mov 'ctts' $((16 + 8 * 10)) 20

# --- Pixel formats and odd sizes.
mk hevc_10bit.mov -f lavfi -i "$SRC" "${X265[@]}" -pix_fmt yuv420p10le -profile:v main10
mk h264_422.mov -f lavfi -i "$SRC" "${X264[@]}" -pix_fmt yuv422p -profile:v high422
mk h264_444.mp4 -f lavfi -i "$SRC" "${X264[@]}" -pix_fmt yuv444p -profile:v high444
mk prores_422_10bit.mov -f lavfi -i "$SRC" -c:v prores_ks -profile:v 2 -pix_fmt yuv422p10le
mk odd_321x241_444.mp4 -f lavfi -i "testsrc2=size=322x242:rate=30:duration=1" -vf format=yuv444p,crop=321:241:0:0 "${X264[@]}" -pix_fmt yuv444p
mk odd_321x241_420.webm -f lavfi -i "testsrc2=size=322x242:rate=30:duration=1" -vf format=yuv444p,crop=321:241:0:0,format=yuv420p \
   -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -pix_fmt yuv420p
mk tiny_2x2.mkv -f lavfi -i "testsrc2=size=2x2:rate=30:duration=1" -c:v ffv1

# --- Not videos, or damaged ones.
mk audio_only.m4a -f lavfi -i "$TONE" -c:a aac
# What ffmpeg writes when asked for a Matroska file holding only an attachment (a font).
[ -s .font.ttf ] || echo "not a font" > .font.ttf
mk attachment_only.mkv -f lavfi -i anullsrc -t 0.1 -vn -an -attach .font.ttf -metadata:s:t mimetype=application/x-truetype-font
truncated truncated_half.mkv base_h264.mkv "$(( $(stat -c %s base_h264.mkv) / 2 ))"
truncated truncated_half_frag.mov .frag.mov "$(( $(stat -c %s .frag.mov) / 2 ))"
truncated truncated_no_index.mov base_h264.mov "$(( $(stat -c %s base_h264.mov) / 2 ))"
# The SPS's first bytes after avcC's header zeroed: the codec setup is unreadable.
patched avcc_zeroed.mov base_h264.mov 'avcC' 12 0000000000000000
echo "hostile media ready: $D/hostile"
