#!/usr/bin/env python3
"""Byte edits for scripts/make-trial-media.sh (standard library only): the trial's kinds that the
ffmpeg CLI cannot make itself, each made from a file ffmpeg wrote, as they come to users.

  usage: trial_media.py hflip FILE              mirror the first video track of an .mp4/.mov in place
                                                (tkhd matrix a = -1, tx = width: a selfie camera's
                                                display matrix; FFmpeg 5.1 has no -display_hflip)
         trial_media.py scramble-ts SRC DST     4 KiB of noise mid-way through a .ts, starting a few
                                                packets before a sound PES, so pictures and sound are hit
         trial_media.py scramble-mdat SRC DST   4 KiB of noise inside an .mp4's mdat, from the sound
                                                packet nearest the middle of the file
         trial_media.py truncate SRC DST FRAC   the first FRAC of SRC's bytes (a copy cut short)
         trial_media.py cut-ts SRC DST          a .ts from the video keyframe nearest its middle on (from
                                                the PAT/PMT ffmpeg writes before it): a recording joined
                                                mid-way, an open GOP's leading frames left without references
The noise is seeded, so the media are the same on every run.
"""
import random
import struct
import subprocess
import sys

NOISE = 4096
SOUND_PID = 0x101      # ffmpeg's mpegts muxer: video 0x100, then sound 0x101


def noise():
    r = random.Random(21)
    return bytes(r.randrange(256) for _ in range(NOISE))


def boxes(data, lo, hi):
    """(offset, size, type) of the ISO boxes in data[lo:hi]."""
    p = lo
    while p + 8 <= hi:
        n, t = struct.unpack(">I4s", data[p:p + 8])
        if n < 8:
            return
        yield p, n, t
        p += n


def hflip(path):
    data = bytearray(open(path, "rb").read())
    moov = next(((p, n) for p, n, t in boxes(data, 0, len(data)) if t == b"moov"), None)
    if moov is None:
        sys.exit("trial_media: no moov in %s" % path)
    for p, n, t in boxes(data, moov[0] + 8, moov[0] + moov[1]):
        if t != b"trak":
            continue
        tkhd = next(pp for pp, _, tt in boxes(data, p + 8, p + n) if tt == b"tkhd")
        version = data[tkhd + 8]
        # after version/flags: times and track id (12 or 20 bytes), reserved 4, duration (4 or 8),
        # reserved 8, layer, group, volume, reserved (8): then the 3x3 matrix, then width, height
        m = tkhd + 8 + 4 + (20 if version else 12) + 4 + (8 if version else 4) + 16
        width = struct.unpack(">I", data[m + 36:m + 40])[0] >> 16
        if width == 0:
            continue   # a sound track
        struct.pack_into(">i", data, m, -0x10000)        # a = -1.0 (16.16)
        struct.pack_into(">i", data, m + 24, width << 16)  # tx = width
        open(path, "wb").write(data)
        return
    sys.exit("trial_media: no video track in %s" % path)


def scramble_ts(src, dst):
    d = bytearray(open(src, "rb").read())
    p = len(d) // 2 // 188 * 188

    def sound_start(q):
        return d[q] == 0x47 and ((d[q + 1] & 0x1F) << 8 | d[q + 2]) == SOUND_PID and d[q + 1] & 0x40

    while p + 188 <= len(d) and not sound_start(p):
        p += 188
    p = max(0, p - 4 * 188)
    d[p:p + NOISE] = noise()
    open(dst, "wb").write(d)


def scramble_mdat(src, dst):
    d = bytearray(open(src, "rb").read())
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos",
                          "-of", "csv=p=0", src], capture_output=True, text=True, check=True).stdout
    pos = [int(x) for x in out.split() if x.strip().isdigit()]
    if not pos:
        sys.exit("trial_media: no sound packets in %s" % src)
    p = min(pos, key=lambda x: abs(x - len(d) // 2))
    d[p:p + NOISE] = noise()
    open(dst, "wb").write(d)


def cut_ts(src, dst):
    d = open(src, "rb").read()
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos,flags",
                          "-of", "csv=p=0", src], capture_output=True, text=True, check=True).stdout
    keys = [int(p) for p, f in (line.split(",")[:2] for line in out.split() if line.count(",") >= 1)
            if p.isdigit() and "K" in f]
    if len(keys) < 2:
        sys.exit("trial_media: fewer than two video keyframes in %s" % src)
    p = min(keys[1:], key=lambda x: abs(x - len(d) // 2))
    for back in range(1, 5):   # ffmpeg's muxer writes PAT and PMT just before a video keyframe
        q = p - back * 188
        if q >= 0 and d[q] == 0x47 and (d[q + 1] & 0x1F) << 8 | d[q + 2] == 0:
            p = q
            break
    open(dst, "wb").write(d[p:])


def truncate(src, dst, frac):
    d = open(src, "rb").read()
    open(dst, "wb").write(d[:int(len(d) * float(frac))])


def main(argv):
    cmds = {"hflip": hflip, "scramble-ts": scramble_ts, "scramble-mdat": scramble_mdat, "truncate": truncate,
            "cut-ts": cut_ts}
    if len(argv) < 3 or argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[argv[1]](*argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
