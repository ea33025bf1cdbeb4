#!/usr/bin/env python3
"""The trial's readings of one analysed file (scripts/trial-acceptance.sh's `analyze`: probe.json,
frames.md5, thumbs.rgb, audio.raw, decode.err, stats_*.txt) and the picture arithmetic its judge
(scripts/trial_judge.py) compares them with: what a take or an export is, as ffprobe/ffmpeg see it.
Standard library only.
"""
import json
import math
import os
import re
import struct
import subprocess


THUMB_W, THUMB_H = 64, 36
CORRELATION_MIN = 0.85    # grey correlation of the export's frame with ffmpeg's (sideways: ~0)
LUMA_MAD_MAX = 10.0       # mean |difference| of grey levels between the export's frame and ffmpeg's
CHROMA_DELTA_MAX = 6.0    # mean U / mean V difference, levels (8-bit)
NEUTRAL_TOL = 1.5         # mono: U and V averages within 128 +- this, mean saturation under it
AUDIO_SLACK = 0.050       # audio vs video duration, seconds
HDR_TRC = ("arib-std-b67", "smpte2084")
ASPECT_TOL = 0.01         # display aspect (width x SAR / height) vs the first take's, relative
PSNR_MIN = 30.0           # dB, the export's frame vs ffmpeg's right picture of the take (mirrored selfies)
ONSET_RATE = 8000         # sound onsets are timed on ffmpeg's decode at this rate, mono
ONSET_LOUD = 0.06 * 32768  # a beep (0.5) or the ordinary take's tone (0.125) is over this; silence is not
ONSET_GAP = 0.040         # an onset is a loud sample after this long without one
ONSET_TOL = 0.025         # s, an onset in the export vs where ffmpeg hears it in the take
SIDE_TOL = 0.050          # s, subtitle cue and chapter starts
DAMAGE_WORDS = ("damag", "corrupt", "truncat", "broken", "invalid", "incomplete", "partial", "cut short", "error")


# ---------------------------------------------------------------- reading the analysis
def frac(s):
    try:
        n, d = (s or "0/0").split("/")
        return float(n) / float(d) if float(d) else 0.0
    except ValueError:
        return 0.0


class Media:
    """One analysed file: a take or an export."""

    def __init__(self, path, adir):
        self.path, self.dir = path, adir
        try:
            with open(os.path.join(adir, "probe.json")) as f:
                p = json.load(f)
            self.readable = True
        except (OSError, ValueError):
            p, self.readable = {}, False   # ffprobe cannot read the file (it stops mid-JSON)
        self.streams = p.get("streams", [])
        self.format = p.get("format", {})
        self.video = [s for s in self.streams if s.get("codec_type") == "video"
                      and not s.get("disposition", {}).get("attached_pic")]
        self.audio = [s for s in self.streams if s.get("codec_type") == "audio"]
        self.subtitles = [s for s in self.streams if s.get("codec_type") == "subtitle"]
        self.chapters = p.get("chapters", [])
        self.v = self.video[0] if self.video else {}
        vi = self.v.get("index", -1)
        ai = self.audio[0]["index"] if self.audio else -2
        self.packets = p.get("packets", [])
        # packets an edit list cuts away (flag D) are not shown by players: not part of the span
        self.edited = any("D" in (q.get("flags") or "") for q in self.packets if q.get("stream_index") == vi)
        self.vpackets = [q for q in self.packets if q.get("stream_index") == vi and "D" not in (q.get("flags") or "")]
        # (FLV and ASF packets have no duration: the last frame lasts 1/rate, as ffmpeg plays it)
        rate = frac(self.v.get("avg_frame_rate")) or frac(self.v.get("r_frame_rate"))
        self.frame_time = 1.0 / rate if rate else 0.0
        self.vspan = self._span(self.vpackets, self.frame_time)
        self.aspan_packets = self._span([q for q in self.packets if q.get("stream_index") == ai])
        self._read_md5()
        err = os.path.join(adir, "decode.err")
        self.decode_errors = open(err, errors="replace").read().strip() if os.path.exists(err) else ""

    @staticmethod
    def _span(pkts, default_duration=0.0):
        """(start, length) of packets, by pts (dts where a packet has none: AVI B-frames)."""
        ts = []
        for q in pkts:
            t = q.get("pts_time") if q.get("pts_time") not in (None, "N/A") else q.get("dts_time")
            if t not in (None, "N/A"):
                d = q.get("duration_time")
                ts.append((float(t), float(d) if d not in (None, "N/A") and float(d) > 0 else default_duration))
        if not ts:
            # a raw elementary stream (.h264) has no times at all: its packets at the rate
            return 0.0, len(pkts) * default_duration
        start = min(t for t, _ in ts)
        return start, max(t + d for t, d in ts) - start

    def leading_loss(self):
        """Video packets before the first frame that decodes, when they are all the packets that
        do not decode: a stream joined mid-way (open-GOP leading frames, VP9 before its
        keyframe), 0 otherwise. Frame times count from the file's start."""
        lost = len(self.vpackets) - len(self.frames)
        if lost <= 0 or not self.frames:
            return 0
        first = self.frames[0][0] + float(self.format.get("start_time") or 0)
        before = sum(1 for q in self.vpackets if q.get("pts_time") not in (None, "N/A")
                     and float(q["pts_time"]) < first - 0.0005)
        return lost if before == lost else 0

    def _read_md5(self):
        """frames.md5: stream 0 = the (autorotated) first video stream, then the audio streams."""
        self.tb, self.frames, self.asamples, self.ahashes = {}, [], {}, {}
        path = os.path.join(self.dir, "frames.md5")
        if not os.path.exists(path):
            return
        for line in open(path):
            if line.startswith("#tb "):
                k, v = line[4:].split(":")
                self.tb[int(k)] = frac(v.strip())
                continue
            if line.startswith("#") or not line.strip():
                continue
            c = [x.strip() for x in line.split(",")]
            st, pts, dur, h = int(c[0]), int(c[2]), int(c[3]), c[5]
            if st == 0:
                self.frames.append((pts * self.tb[0], dur * self.tb[0], h))
            else:
                self.asamples[st] = self.asamples.get(st, 0.0) + dur * self.tb[st]

    def rotation(self):
        for sd in self.v.get("side_data_list", []) or []:
            if "rotation" in sd:
                return int(round(float(sd["rotation"]))) % 360
        return 0

    def stored_size(self):
        return int(self.v.get("width", 0)), int(self.v.get("height", 0))

    def sar(self):
        """Sample (pixel) aspect ratio; 1.0 when square or unset."""
        n, _, d = str(self.v.get("sample_aspect_ratio") or "").partition(":")
        try:
            r = float(n) / float(d)
        except (ValueError, ZeroDivisionError):
            return 1.0
        return r if r > 0 else 1.0

    def display_size(self):
        w, h = self.stored_size()
        if abs(self.sar() - 1.0) > 1e-6:
            w = int(round(w * self.sar()))
        return (h, w) if self.rotation() in (90, 270) else (w, h)

    def display_aspect(self):
        w, h = self.display_size()
        return w / h if h else 0.0

    def hflip(self):
        """A display matrix that mirrors left-right (a < 0, d > 0: a selfie camera's)."""
        for sd in self.v.get("side_data_list", []) or []:
            m = sd.get("displaymatrix")
            if not m:
                continue
            vals = [int(x) for line in m.strip().splitlines() for x in line.split(":", 1)[1].split()]
            return len(vals) == 9 and vals[0] < 0 < vals[4] and vals[1] == 0 and vals[3] == 0
        return False

    def intervals(self):
        return [b[0] - a[0] for a, b in zip(self.frames, self.frames[1:])]

    def vfr(self):
        """Frame intervals that vary (a screen recording dropping still frames)."""
        iv = [x for x in self.intervals() if x > 0]
        return len(iv) >= 2 and max(iv) > 1.5 * min(iv)

    def fps(self):
        if self.vfr():
            # the nominal rate: the most common frame interval, not the average
            # (intervals within 5% count as one: .mkv's millisecond times make 1/30 s 33 or 34 ms)
            iv = [x for x in self.intervals() if x > 0]
            mode = max(iv, key=lambda x: sum(1 for y in iv if abs(y - x) <= 0.05 * x))
            common = [y for y in iv if abs(y - mode) <= 0.05 * mode]
            return len(common) / sum(common)
        return frac(self.v.get("avg_frame_rate")) or frac(self.v.get("r_frame_rate"))

    def duration(self):
        """Video length as a player shows it: the packets' span, or, where an edit list cuts
        packets away or ffmpeg cannot decode all (damage, a stream joined mid-way), the span of
        the frames ffmpeg decodes."""
        if (self.edited or self.decode_errors or len(self.frames) < len(self.vpackets)) and self.frames:
            return self.frames[-1][0] + (self.frames[-1][1] or self.frame_time) - self.frames[0][0]
        return self.vspan[1]

    def timecode(self):
        for tags in [x.get("tags", {}) or {} for x in self.streams] + [self.format.get("tags", {}) or {}]:
            for k, v in tags.items():
                if k.lower() == "timecode":
                    return v
        return None

    def cue_starts(self):
        """Subtitle cue starts, seconds after the first shown video packet."""
        idx = {x["index"] for x in self.subtitles}
        # (an empty mov_text sample, 2 bytes, ends a cue: no cue starts there)
        return sorted(float(q["pts_time"]) - self.vspan[0] for q in self.packets
                      if q.get("stream_index") in idx and q.get("pts_time") not in (None, "N/A")
                      and int(q.get("size") or 3) > 2)

    def onsets(self):
        """Sound onsets (s after the first decoded video frame) and the loud samples' times, as
        ffmpeg plays the first audio stream: timestamps kept, holes filled with silence."""
        cache = os.path.join(self.dir, "onsets.json")
        if os.path.exists(cache):
            with open(cache) as f:
                return json.load(f)
        r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", self.path, "-map", "0:a:0", "-af",
                            "aresample=async=1:min_hard_comp=0.01:first_pts=0", "-ac", "1", "-ar", str(ONSET_RATE),
                            "-f", "s16le", "-"], capture_output=True)
        raw = r.stdout
        x = struct.unpack("<%dh" % (len(raw) // 2), raw[:len(raw) // 2 * 2])
        # ffmpeg counts time from the file's start; the first shown video packet is this much later
        # (from the packets: an AVI's B-frames decode with times a frame late), or, for a stream
        # joined mid-way, the first frame that decodes (the packets before it show nothing)
        t0 = self.frames[0][0] if self.leading_loss() else self.vspan[0] - float(self.format.get("start_time") or 0)
        onsets, loud, last = [], [], None
        for i, v in enumerate(x):
            if abs(v) <= ONSET_LOUD:
                continue
            if last is None or i - last > ONSET_GAP * ONSET_RATE:
                onsets.append(i / ONSET_RATE - t0)
            if last is None or i - last > 8:
                loud.append(i / ONSET_RATE - t0)   # thinned: one time per run of loud samples
            last = i
        res = {"onsets": onsets, "loud": loud}
        tmp = "%s.%d" % (cache, os.getpid())
        with open(tmp, "w") as f:
            json.dump(res, f)
        os.replace(tmp, cache)
        return res

    def audio_seconds(self):
        """Decoded length of the first audio stream (framemd5 stream 1)."""
        return self.asamples.get(1, 0.0)

    def thumbs(self):
        path = os.path.join(self.dir, "thumbs.rgb")
        data = open(path, "rb").read() if os.path.exists(path) else b""
        n = THUMB_W * THUMB_H * 3
        return [data[i:i + n] for i in range(0, len(data) - n + 1, n)]

    def tag(self, key):
        v = self.v.get(key)
        return v if v not in (None, "", "unknown", "unspecified", "reserved") else None


def without_paths(text):
    """TEXT less its paths (words with a /), so that file names are not read as words."""
    return re.sub(r"\S*/\S*", "", text)


def psnr(a, b):
    """PSNR (dB) of two equal sequences of 8-bit levels (grey thumbs)."""
    mse = sum((x - y) ** 2 for x, y in zip(a, b)) / max(1, len(a))
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def orientation(w, h):
    return "landscape" if w > h else "portrait" if h > w else "square"


def grey_and_uv(rgb):
    """Per-pixel BT.601 grey, mean U, mean V of a packed rgb24 thumb."""
    grey, su, sv = [], 0.0, 0.0
    for i in range(0, len(rgb), 3):
        r, g, b = rgb[i], rgb[i + 1], rgb[i + 2]
        grey.append(0.299 * r + 0.587 * g + 0.114 * b)
        su += -0.168736 * r - 0.331264 * g + 0.5 * b
        sv += 0.5 * r - 0.418688 * g - 0.081312 * b
    n = len(rgb) // 3
    return grey, 128 + su / n, 128 + sv / n


def correlation(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    saa = sum((x - ma) ** 2 for x in a)
    sbb = sum((y - mb) ** 2 for y in b)
    return sab / math.sqrt(saa * sbb) if saa > 0 and sbb > 0 else (1.0 if saa == sbb else 0.0)


# ffmpeg's HDR -> SDR BT.709 (vrender announces "HDR tone-mapped to SDR" when it does this).
# Every transfer function gets non-negative input: the RGB is clipped (an integer format) after
# the matrix and after the primaries. zimg 3.0.4's AVX-512 transfer functions turn negative
# input (saturated colours outside the other gamut) into garbage, which on a CPU with AVX-512
# darkened this reference by 40 levels (zimg issue #227, fixed after 3.0.5); other CPUs clip.
TONEMAP = ("zscale,format=gbrp16le,zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,"
           "tonemap=tonemap=mobius:desat=0,format=gbrp16le,zscale=t=bt709:m=bt709:r=tv,format=yuv420p,")


def expected_thumb(take, frame_index, canvas, tonemap=False, wrong=None):
    """ffmpeg's own frame FRAME_INDEX of TAKE (autorotated, tone-mapped to SDR if asked), fitted
    into the canvas with black bars, as a 64x36 rgb24 thumb; the colour conversion follows the
    take's tags. WRONG, for a mirrored take: its stored picture turned by these filters instead."""
    w, h = canvas
    cache = os.path.join(take.dir, "expected_%d_%dx%d%s%s.rgb" % (frame_index, w, h, "_sdr" if tonemap else "",
                                                                 "_" + wrong.replace(",", "_") if wrong else ""))
    if os.path.exists(cache):
        return open(cache, "rb").read()
    # Non-square pixels are made square first (scale's aspect fit reads width/height, not SAR);
    # a mirrored take is flipped by hand (explicit rather than trusting autorotate with flips).
    square = "scale='trunc(iw*sar/2)*2':ih,setsar=1," if abs(take.sar() - 1.0) > 1e-6 else ""
    flip = (wrong + ",") if wrong else "hflip," if take.hflip() else ""
    vf = ("select=eq(n\\,%d),%s%s%sformat=rgb24,scale=%d:%d:force_original_aspect_ratio=decrease,"
          "pad=%d:%d:-1:-1:black,scale=%d:%d:flags=area,format=rgb24"
          % (frame_index, flip, TONEMAP if tonemap else "", square, w, h, w, h, THUMB_W, THUMB_H))
    r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error"] + (["-noautorotate"] if flip else []) +
                       ["-i", take.path, "-map", "0:v:0", "-vf", vf, "-frames:v", "1", "-f", "rawvideo", "-"],
                       capture_output=True)
    thumb = r.stdout[:THUMB_W * THUMB_H * 3]
    tmp = "%s.%d" % (cache, os.getpid())
    with open(tmp, "wb") as f:
        f.write(thumb)
    os.replace(tmp, cache)
    return thumb
