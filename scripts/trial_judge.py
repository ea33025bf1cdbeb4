#!/usr/bin/env python3
"""Judge of scripts/trial-acceptance.sh (standard library only).

Reads the analysis the suite made of one export and of its takes (see `analyze` in
trial-acceptance.sh: probe.json, frames.md5, thumbs.rgb, audio.raw, decode.err, stats_*.txt) and
prints one `ok NAME:CHECK` / `FAIL NAME:CHECK: why` line per check. One function per check.

  usage: trial_judge.py judge NAME JOB_DIR OUT_FILE FILTER TAKE_FILE:TAKE_ANALYSIS_DIR...
         trial_judge.py atoms FILE          (prints the top-level box types of an ISO/QuickTime file)
"""
import json
import math
import os
import re
import struct
import subprocess
import sys

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
        self.vspan = self._span([q for q in self.packets if q.get("stream_index") == vi
                                 and "D" not in (q.get("flags") or "")])
        self.aspan_packets = self._span([q for q in self.packets if q.get("stream_index") == ai])
        self._read_md5()
        err = os.path.join(adir, "decode.err")
        self.decode_errors = open(err, errors="replace").read().strip() if os.path.exists(err) else ""

    @staticmethod
    def _span(pkts):
        ts = [(float(q["pts_time"]), float(q.get("duration_time") or 0)) for q in pkts
              if q.get("pts_time") not in (None, "N/A")]
        if not ts:
            return 0.0, 0.0
        start = min(t for t, _ in ts)
        return start, max(t + d for t, d in ts) - start

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
        packets away or ffmpeg cannot decode all (damage), the span of the frames ffmpeg decodes."""
        if (self.edited or self.decode_errors) and self.frames:
            return self.frames[-1][0] + self.frames[-1][1] - self.frames[0][0]
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
        # (from the packets: framemd5 rounds video times to its 1/fps time base)
        t0 = self.vspan[0] - float(self.format.get("start_time") or 0)
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


# ---------------------------------------------------------------- the checks
class Judge:
    def __init__(self, name, jdir, out, filt, takes):
        self.name, self.jdir, self.filter = name, jdir, filt
        self.out = Media(out, jdir)
        self.takes = takes
        self.ext = os.path.splitext(out)[1].lower()
        self.stdout = self._read("stdout")
        self.stderr = self._read("stderr")
        # stream copy of everything, or of the video only (audio re-encoded for the container)
        # (the summary's "(transcode)" wins over a plan that a damaged take turned into a transcode)
        self.copy = any(w in self.stdout for w in ("(stream-copy)", "(video-copy)")) or \
            ("stream copy" in self.stderr and "(transcode)" not in self.stdout)
        self.expected = sum(t.duration() for t in takes)
        self.results = []
        self.psnr = []

    def _read(self, name):
        p = os.path.join(self.jdir, name)
        return open(p, errors="replace").read() if os.path.exists(p) else ""

    def report(self, check, why=None):
        if why:
            self.results.append("FAIL %s:%s: %s" % (self.name, check, why))
        else:
            self.results.append("ok %s:%s" % (self.name, check))

    def frame_slack(self):
        fps = self.out.fps() or self.takes[0].fps() or 30
        return 1.0 / fps + 0.010

    # ffprobe reads the output (only said when it cannot: a file vrender promised to write)
    def check_readable(self):
        if not self.out.readable:
            self.report("readable", "ffprobe cannot read the output")

    # every frame decodes
    def check_decodes(self):
        err = self._read("decode.err").strip()
        self.report("decodes", err and "ffmpeg -v error: " + err.splitlines()[0][:160])

    # video duration = sum of the takes' video durations; the container says so too
    def check_video_duration(self):
        if not self.out.video:
            return self.report("video-duration", "no video stream")
        got, slack = self.out.duration(), self.frame_slack()
        starts = [float(x["start_time"]) for x in self.out.video[:1] + self.out.audio
                  if x.get("start_time") not in (None, "N/A")]
        lead = float(self.out.v.get("start_time", 0) or 0) - min(starts) if starts else 0.0
        why = None
        if lead > slack:
            why = "video starts %.3f s after the file's start (audio plays alone before it)" % lead
        elif abs(got - self.expected) > slack:
            why = "video lasts %.3f s, takes sum to %.3f s" % (got, self.expected)
        else:
            stated = self.out.v.get("duration") or (self.out.v.get("tags", {}) or {}).get("DURATION")
            if stated:
                if ":" in str(stated):
                    hh, mm, ss = str(stated).split(":")
                    stated = int(hh) * 3600 + int(mm) * 60 + float(ss)
                if abs(float(stated) - self.expected) > slack:
                    why = "container states a video duration of %.3f s, takes sum to %.3f s" % (
                        float(stated), self.expected)
        self.report("video-duration", why)

    # frame rate is the first take's, frame count = duration x rate
    def check_frames(self):
        n, fps = len(self.out.frames), self.out.fps()
        want_fps = self.takes[0].fps()
        why = None
        if n == 0:
            why = "no frame decodes"
        elif want_fps and abs(fps - want_fps) > 0.001 * want_fps:
            why = "frame rate %.3f, first take's is %.3f" % (fps, want_fps)
        elif self.out.vfr():
            # variable rate kept (a copy): the frames a player shows of the takes, no more, no less
            want = sum(len(t.frames) for t in self.takes)
            if n != want:
                why = "%d frames decode at a variable rate, the takes show %d" % (n, want)
        else:
            want = self.expected * (fps or want_fps)
            if abs(n - want) > 1.01:
                why = "%d frames decode, %.1f s at %.3f fps is %.0f" % (n, self.expected, fps, want)
        self.report("frames", why)

    # audio as long as the video when any take has audio
    def check_audio_duration(self):
        if not any(t.audio for t in self.takes):
            if self.out.audio and self.out.audio_seconds() > 0 and \
                    abs(self.out.audio_seconds() - self.out.duration()) > AUDIO_SLACK:
                return self.report("audio-duration", "no take has audio, yet the output's audio lasts "
                                   "%.3f s against %.3f s of video" % (self.out.audio_seconds(), self.out.duration()))
            return
        if not self.out.audio:
            return self.report("audio-duration", "no audio stream (a take has audio)")
        a, v = self.out.audio_seconds(), self.out.duration()
        self.report("audio-duration", abs(a - v) > AUDIO_SLACK and
                    "audio decodes to %.3f s, video lasts %.3f s" % (a, v))

    # audible where the take had sound, silent where it had none
    def check_audio_content(self):
        if not any(t.audio for t in self.takes) or not self.out.audio:
            return
        path = os.path.join(self.jdir, "audio.raw")
        raw = open(path, "rb").read() if os.path.exists(path) else b""
        samples = struct.unpack("<%dh" % (len(raw) // 2), raw[:len(raw) // 2 * 2])
        rate, t0, why = 8000, 0.0, []
        for i, t in enumerate(self.takes):
            d = t.duration()
            a, b = int((t0 + 0.2 * d) * rate), int((t0 + 0.8 * d) * rate)
            t0 += d
            seg = samples[a:b]
            if len(seg) < 10:
                continue
            rms = math.sqrt(sum(x * x for x in seg) / len(seg)) / 32768
            db = 20 * math.log10(rms) if rms > 0 else -120
            if t.audio and db < -40:
                why.append("take %d (%s) is silent (%.0f dBFS)" % (i + 1, os.path.basename(t.path), db))
            if not t.audio and db > -60:
                why.append("take %d (%s, no audio) is not silent (%.0f dBFS)" % (i + 1, os.path.basename(t.path), db))
        self.report("audio-content", "; ".join(why))

    # displayed orientation is the first take's
    def check_upright(self):
        want = orientation(*self.takes[0].display_size())
        got = orientation(*self.out.display_size())
        w, h = self.out.stored_size()
        self.report("upright", got != want and "displayed %dx%d (stored %dx%d, rotation %d) is %s, "
                    "first take is %s" % (*self.out.display_size(), w, h, self.out.rotation(), got, want))

    # each take's middle frame looks like ffmpeg's frame of the take: the same picture, upright and
    # fitted to the canvas (grey correlation), and, without a filter, the same colours
    def check_pictures(self):
        thumbs = self.out.thumbs()
        if not thumbs or len(thumbs) != len(self.out.frames):
            return self.report("picture", "cannot read the output's frames")
        canvas = self.out.display_size()
        t_out0 = self.out.frames[0][0]
        offset, why, colour = 0.0, [], []
        for i, t in enumerate(self.takes):
            if not t.frames:
                why.append("take %d has no frames" % (i + 1))
                continue
            k = len(t.frames) // 2
            target = offset + (t.frames[k][0] - t.frames[0][0])
            offset += t.duration()
            j = min(range(len(self.out.frames)), key=lambda x: abs(self.out.frames[x][0] - t_out0 - target))
            tonemapped = t.tag("color_transfer") in HDR_TRC and self.out.tag("color_transfer") not in HDR_TRC
            ref = expected_thumb(t, k, canvas, tonemapped)
            if len(ref) != len(thumbs[j]):
                why.append("ffmpeg could not make take %d's frame" % (i + 1))
                continue
            gr, ur, vr = grey_and_uv(ref)
            go, uo, vo = grey_and_uv(thumbs[j])
            label = "take %d (%s) at %.2f s%s" % (i + 1, os.path.basename(t.path), target,
                                                 " (vs ffmpeg's tone-mapped SDR frame)" if tonemapped else "")
            if t.hflip():
                # the export's frame through the same ffmpeg chain as the reference (the analysis
                # thumbs take another colour path, a few levels off: fine for correlation, not for
                # PSNR); grey only. A filtered (mono) export cannot reach 30 dB against a colour
                # picture's grey (about 21 dB when right): there, the right picture must beat the
                # wrong readings (unmirrored, upside down) by 2 dB.
                got = grey_and_uv(expected_thumb(self.out, j, canvas))[0]
                db = psnr(grey_and_uv(ref)[0], got)
                worst = None
                if self.filter != "none":
                    worst = max((psnr(grey_and_uv(expected_thumb(t, k, canvas, tonemapped, w))[0], got), name)
                                for w, name in (("null", "unmirrored"), ("hflip,vflip", "upside down")))
                self.psnr.append((label, db, worst))
            c = correlation(gr, go)
            if c < CORRELATION_MIN:
                why.append("%s is not ffmpeg's picture of it: grey correlation %.2f < %.2f%s" % (
                    label, c, CORRELATION_MIN, self._turned_hint(t, k, canvas, go)))
                continue
            if self.filter != "none":
                continue
            mad = sum(abs(a - b) for a, b in zip(gr, go)) / len(gr)
            dy = sum(go) / len(go) - sum(gr) / len(gr)
            if abs(dy) > CHROMA_DELTA_MAX or abs(uo - ur) > CHROMA_DELTA_MAX or abs(vo - vr) > CHROMA_DELTA_MAX \
                    or mad > LUMA_MAD_MAX:
                colour.append("%s: mean grey %+.1f, U %+.1f, V %+.1f vs ffmpeg's (limit %.0f), grey MAD %.1f "
                              "(limit %.0f)%s" % (label, dy, uo - ur, vo - vr, CHROMA_DELTA_MAX, mad, LUMA_MAD_MAX,
                                                  self._matrix_hint(j, gr)))
        self.report("picture", "; ".join(why))
        if self.filter == "none":
            self.report("colour", "; ".join(colour))
        if self.psnr:
            why = []
            for label, db, worst in self.psnr:
                if worst is None and db < PSNR_MIN:
                    why.append("%s: PSNR %.1f dB < %.0f dB against ffmpeg's right (mirrored) picture" % (
                        label, db, PSNR_MIN))
                elif worst is not None and db < worst[0] + 2:
                    why.append("%s: PSNR %.1f dB against ffmpeg's right (mirrored) picture, %.1f dB against it %s" % (
                        label, db, worst[0], worst[1]))
            self.report("orientation", "; ".join(why))

    def _matrix_hint(self, j, ref_grey):
        """Says whether frame J matches when read with another matrix/range than its tags say
        (one ffmpeg run: the six readings stacked in one picture)."""
        readings = [(m, rng) for m in ("bt709", "bt601", "bt2020") for rng in ("tv", "pc")]
        fc = "[0:v:0]select=eq(n\\,%d),split=%d%s;" % (j, len(readings), "".join("[i%d]" % i for i in range(len(readings))))
        fc += ";".join("[i%d]scale=%d:%d:flags=area:in_color_matrix=%s:in_range=%s,format=rgb24[o%d]"
                       % (i, THUMB_W, THUMB_H, m, rng, i) for i, (m, rng) in enumerate(readings))
        fc += ";" + "".join("[o%d]" % i for i in range(len(readings))) + "vstack=inputs=%d" % len(readings)
        r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", self.out.path, "-filter_complex", fc,
                            "-frames:v", "1", "-f", "rawvideo", "-"], capture_output=True)
        n = THUMB_W * THUMB_H * 3
        if len(r.stdout) < n * len(readings):
            return ""
        tried = []
        for i, (m, rng) in enumerate(readings):
            g, _, _ = grey_and_uv(r.stdout[i * n:(i + 1) * n])
            tried.append((sum(abs(a - b) for a, b in zip(g, ref_grey)) / len(g), m, rng))
        mad, m, rng = min(tried)
        tags = "%s/%s" % (self.out.tag("color_space") or "untagged matrix", self.out.tag("color_range") or "untagged range")
        if mad <= LUMA_MAD_MAX / 2 and (m, rng) != (self.out.tag("color_space"), self.out.tag("color_range")):
            return " - the pixels are %s %s range but the stream says %s" % (m, rng, tags)
        return ""

    def _turned_hint(self, take, k, canvas, got_grey):
        best = None
        for name, vf in (("sideways (90 deg)", "transpose=1"), ("sideways (-90 deg)", "transpose=2"),
                         ("upside down", "hflip,vflip")):
            w, h = canvas
            r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", take.path, "-map", "0:v:0", "-vf",
                                "select=eq(n\\,%d),format=rgb24,%s,scale=%d:%d:force_original_aspect_ratio=decrease,"
                                "pad=%d:%d:-1:-1:black,scale=%d:%d:flags=area,format=rgb24"
                                % (k, vf, w, h, w, h, THUMB_W, THUMB_H), "-frames:v", "1", "-f", "rawvideo", "-"],
                               capture_output=True)
            if len(r.stdout) < THUMB_W * THUMB_H * 3:
                continue
            g, _, _ = grey_and_uv(r.stdout[:THUMB_W * THUMB_H * 3])
            c = correlation(g, got_grey)
            if c >= CORRELATION_MIN and (best is None or c > best[1]):
                best = (name, c)
        return " (it matches the take turned %s)" % best[0] if best else ""

    # mono: chroma neutral on every frame, in the last 2 columns and the last 2 rows too
    def check_mono_neutral(self):
        if self.filter != "mono":
            return
        why = []
        for part, label in (("all", "frame"), ("right", "right-most 2 px"), ("bottom", "bottom 2 px")):
            path = os.path.join(self.jdir, "stats_%s.txt" % part)
            worst, frame, n, cur = 0.0, None, 0, 0
            for line in open(path) if os.path.exists(path) else []:
                if line.startswith("frame:"):
                    cur = int(line.split()[0].split(":")[1])
                elif "UAVG=" in line or "VAVG=" in line or "SATAVG=" in line:
                    # the U and V averages within 128 +- tol, and the mean saturation (the
                    # per-pixel distance from neutral, which colours that average out cannot hide)
                    n += 1
                    v = float(line.split("=")[1])
                    d = v if "SATAVG=" in line else abs(v - 128)
                    if d > worst:
                        worst, frame = d, cur
            if n == 0:
                why.append("no signalstats for %s" % label)
            elif worst > NEUTRAL_TOL:
                why.append("%s chroma off neutral by %.1f levels (frame %d)" % (label, worst, frame))
        self.report("mono-neutral", "; ".join(why))

    # colour description present (transcodes), kept (copies), HDR kept for HDR takes alone
    def check_colour_tags(self):
        keys = ("color_primaries", "color_transfer", "color_space", "color_range")
        why = []
        for k in keys:
            if self.out.tag(k):
                continue
            if self.copy and all(not t.tag(k) for t in self.takes):
                continue   # a stream copy of untagged takes stays untagged
            why.append("%s missing" % k)
        hdr = [t for t in self.takes if t.tag("color_transfer") in HDR_TRC]
        if hdr and self.out.tag("color_transfer") not in HDR_TRC and "tone-map" not in self.stderr.lower():
            why.append("HDR take %s became SDR %s without a notice" % (
                os.path.basename(hdr[0].path), self.out.tag("color_transfer") or "unknown"))
        # An HDR take alone, unfiltered, keeps HDR (a filter or an SDR take may convert, announced).
        if len(self.takes) == 1 and hdr and self.filter == "none":
            t = self.takes[0]
            for k in ("color_primaries", "color_transfer", "color_space"):
                if self.out.tag(k) != t.tag(k):
                    why.append("HDR take's %s %s became %s" % (k, t.tag(k), self.out.tag(k) or "unknown"))
            if "10" not in self.out.v.get("pix_fmt", "") and "12" not in self.out.v.get("pix_fmt", ""):
                why.append("HDR take's 10-bit became %s" % self.out.v.get("pix_fmt"))
        self.report("colour-tags", "; ".join(why))

    # HEVC in .mp4/.mov tagged hvc1
    def check_hvc1(self):
        if self.ext in (".mp4", ".mov") and self.out.v.get("codec_name") == "hevc":
            tag = self.out.v.get("codec_tag_string")
            self.report("hvc1", tag != "hvc1" and "HEVC tagged %s, players need hvc1" % tag)

    # .mp4/.mov: moov before mdat
    def check_faststart(self):
        if self.ext in (".mp4", ".mov"):
            boxes = top_boxes(self.out.path)
            ok = "moov" in boxes and "mdat" in boxes and boxes.index("moov") < boxes.index("mdat")
            self.report("faststart", not ok and "top-level boxes %s (moov must come before mdat)" % " ".join(boxes))

    # stream copy: the takes' codec parameters and decoded frames unchanged
    def check_copy(self, expect_copy):
        if expect_copy and not self.copy:
            self.report("stream-copy", "matching takes were transcoded, not stream-copied")
            return
        if not self.copy:
            return
        why = []
        t, o = self.takes[0], self.out.v
        # codec tags are per container (MJPEG is 'jpeg' in .mov, 'mp4v' in .mp4): same container only
        same_container = self.ext == os.path.splitext(t.path)[1].lower()
        fields = ["codec_name", "profile", "pix_fmt", "width", "height", "extradata_hash", "level"]
        if same_container:
            fields.insert(1, "codec_tag_string")
        for k in fields:
            if k == "extradata_hash" and not t.v.get(k):
                continue   # no extradata in the take (ProRes in .mov): the container may add its own
            if k == "extradata_hash" and os.path.splitext(t.path)[1].lower() in (".ts", ".m2ts"):
                continue   # parameter sets in the stream (Annex B) become the container's (avcC)
            if str(o.get(k)) != str(t.v.get(k)):
                why.append("%s %s became %s" % (k, t.v.get(k), o.get(k)))
        if t.rotation() != self.out.rotation():
            why.append("rotation %d became %d" % (t.rotation(), self.out.rotation()))
        want = [h for take in self.takes for _, _, h in take.frames]
        got = [h for _, _, h in self.out.frames]
        if want != got:
            bad = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
            why.append("decoded frames differ from the takes' (%d vs %d frames, first difference at frame %d)"
                       % (len(got), len(want), bad))
        self.report("stream-copy", "; ".join(why))

    # takes' order kept: each take's first frame appears in the output in the takes' order
    def check_order(self):
        got = [h for _, _, h in self.out.frames]
        pos = []
        for t in self.takes:
            h = t.frames[0][2] if t.frames else None
            pos.append(got.index(h) if h in got else None)
        if None in pos and self.filter == "none" and self.copy:
            return self.report("order", "take %d's first frame is not in the output" % (pos.index(None) + 1))
        if self.filter != "none" or not self.copy:
            # transcoded: compare each take's tone, by zero crossings in its slot
            return self.report("order", self._order_by_tone())
        self.report("order", pos != sorted(pos) and "takes appear in the order %s" % pos)

    def _order_by_tone(self):
        path = os.path.join(self.jdir, "audio.raw")
        raw = open(path, "rb").read() if os.path.exists(path) else b""
        s = struct.unpack("<%dh" % (len(raw) // 2), raw[:len(raw) // 2 * 2])
        t0, freqs = 0.0, []
        for t in self.takes:
            d = t.duration()
            a, b = int((t0 + 0.2 * d) * 8000), int((t0 + 0.8 * d) * 8000)
            t0 += d
            seg = s[a:b]
            z = sum(1 for x, y in zip(seg, seg[1:]) if (x < 0) != (y < 0))
            freqs.append(z / 2 / (len(seg) / 8000) if seg else 0)
        bad = [i for i in range(1, len(freqs)) if freqs[i] <= freqs[i - 1]]
        return bad and "tones per slot %s Hz are not rising (take i has 200+40i Hz)" % [round(f) for f in freqs]

    # a take with two audio tracks: both kept, or a notice says which was dropped
    def check_audio_tracks(self):
        n = max(len(t.audio) for t in self.takes)
        if n < 2:
            return
        low = self.stderr.lower()
        notice = "audio" in low and any(w in low for w in ("drop", "ignor", "skip", "only the first", "discard"))
        self.report("audio-tracks", len(self.out.audio) < n and not notice and
                    "%d of %d audio tracks kept and no notice on stderr" % (len(self.out.audio), n))

    # ---------------------------------------------------------------- the second trial's checks
    # (each runs only where a take has what it judges, so the first trial's kinds are judged as before)

    # non-square pixels: the export shows the first take's display aspect (width x SAR / height)
    def check_aspect(self):
        if all(abs(t.sar() - 1.0) < 1e-6 for t in self.takes) or not self.out.video:
            return
        want, got = self.takes[0].display_aspect(), self.out.display_aspect()
        w, h = self.out.stored_size()
        self.report("aspect", abs(got - want) > ASPECT_TOL * want and
                    "shown %.3f:1 (%dx%d SAR %s), first take %s is shown %.3f:1" % (
                        got, w, h, self.out.v.get("sample_aspect_ratio", "unset"),
                        os.path.basename(self.takes[0].path), want))

    # sound onsets (beeps, a take's start after silence) where ffmpeg hears them in the takes
    def check_onsets(self):
        if not any(t.audio for t in self.takes):
            return
        refs = [t.onsets() if t.audio else {"onsets": [], "loud": []} for t in self.takes]
        if not any(o > 0.05 for r in refs for o in r["onsets"]):
            return   # no take with beeps: nothing to time
        expected, offset = [], 0.0
        for i, (t, r) in enumerate(zip(self.takes, refs)):
            d = t.duration()
            for o in r["onsets"]:
                if not 0 <= o < d - 0.03:
                    continue
                if o < ONSET_GAP + 0.005 and i > 0:
                    pd = self.takes[i - 1].duration()
                    if any(pd - ONSET_GAP - 0.005 <= x < pd for x in refs[i - 1]["loud"]):
                        continue   # the take before ends loud: this take's start is no onset
                expected.append((offset + o, i))
            offset += d
        if not self.out.audio:
            return self.report("sound-onsets", "no audio stream")
        got = [o for o in self.out.onsets()["onsets"] if 0 <= o < self.expected - 0.03]
        missing, used = [], set()
        for e, i in expected:
            k = min((k for k in range(len(got)) if k not in used), key=lambda k: abs(got[k] - e), default=None)
            if k is None or abs(got[k] - e) > ONSET_TOL:
                near = " (nearest %.3f s)" % got[k] if k is not None else ""
                missing.append("%.3f s (take %d)%s" % (e, i + 1, near))
            else:
                used.add(k)
        extra = ["%.3f s" % got[k] for k in range(len(got)) if k not in used]
        why = []
        if missing:
            why.append("no sound onset within %.0f ms of %s" % (ONSET_TOL * 1000, ", ".join(missing[:4])))
        if extra:
            why.append("sound starts where the takes have none: %s" % ", ".join(extra[:4]))
        self.report("sound-onsets", "; ".join(why))

    # subtitles, chapters and timecode carried (the three containers hold subtitles and chapters;
    # .mov/.mp4 hold timecode, .mkv only as a tag, or vrender names it as dropped)
    def check_side_streams(self):
        said = without_paths(self.stdout + self.stderr).lower()   # ("chapters.mp4" is no notice)
        offsets, o = [], 0.0
        for t in self.takes:
            offsets.append(o)
            o += t.duration()
        if any(t.subtitles for t in self.takes):
            want = sorted(off + c for t, off in zip(self.takes, offsets) for c in t.cue_starts())
            got = self.out.cue_starts()
            why = None
            if not self.out.subtitles:
                why = "no subtitle stream (a take has %d)%s" % (
                    sum(len(t.subtitles) for t in self.takes), "" if "subtitle" in said else ", and no word of it")
            else:
                lost = [w for w in want if not any(abs(g - w) <= SIDE_TOL for g in got)]
                why = lost and "cues at %s s missing (output's start at %s s)" % (
                    ", ".join("%.2f" % x for x in lost), ", ".join("%.2f" % x for x in got) or "none")
            self.report("subtitles", why)
        if any(t.chapters for t in self.takes):
            got = [(float(c["start_time"]) - self.out.vspan[0], (c.get("tags") or {}).get("title"))
                   for c in self.out.chapters]
            lost = []
            for t, off in zip(self.takes, offsets):
                for c in t.chapters:
                    at, title = off + float(c["start_time"]) - t.vspan[0], (c.get("tags") or {}).get("title")
                    if not any(abs(g - at) <= SIDE_TOL and gt == title for g, gt in got):
                        lost.append("%s at %.2f s" % (title, at))
            self.report("chapters", lost and "chapters missing: %s (output has %d%s)" % (
                ", ".join(lost), len(got), "" if got or "chapter" in said else ", and no word of it"))
        # a timecode track (tmcd) of the first take; DV's timecode inside its frames is no side stream
        tc = self.takes[0].timecode() if any(x.get("codec_tag_string") == "tmcd" for x in self.takes[0].streams) \
            else None
        if tc:
            got = self.out.timecode()
            why = None
            if got != tc:
                if self.ext == ".mkv" and not got and "timecode" in said:
                    why = None   # Matroska has no timecode track: named as dropped
                else:
                    why = "timecode %s of the first take became %s%s" % (
                        tc, got or "none", "" if "timecode" in said else " without a word")
            self.report("timecode", why)

    # a take ffmpeg reads with errors (damaged, truncated): the export goes on, with a warning
    # naming the file (the output decoding clean is check_decodes')
    def check_damage_notice(self):
        lines = (self.stdout + "\n" + self.stderr).splitlines()
        for i, t in enumerate(self.takes):
            if not t.decode_errors:
                continue
            name = os.path.basename(t.path)
            # (the words counted outside paths and names: "ts_damaged.ts" says nothing by itself)
            named = [x for x in lines if name in x and any(w in without_paths(x).replace(name, "").lower()
                                                           for w in DAMAGE_WORDS)]
            self.report("damage-notice", not named and "take %d (%s) is damaged (ffmpeg: %s) and nothing says so" % (
                i + 1, name, t.decode_errors.splitlines()[0][:100]))


def top_boxes(path):
    boxes = []
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        pos = 0
        while pos + 8 <= size and len(boxes) < 64:
            f.seek(pos)
            n, typ = struct.unpack(">I4s", f.read(8))
            if n == 1:
                n = struct.unpack(">Q", f.read(8))[0]
            elif n == 0:
                n = size - pos
            boxes.append(typ.decode("latin-1"))
            if n < 8:
                break
            pos += n
    return boxes


def main(argv):
    if argv[1] == "atoms":
        print(" ".join(top_boxes(argv[2])))
        return 0
    _, _, name, jdir, out, filt, flags, *takes = argv
    media = [Media(*t.split(":", 1)) for t in takes]
    j = Judge(name, jdir, out, filt, media)
    j.check_readable()
    j.check_decodes()
    j.check_video_duration()
    j.check_frames()
    j.check_audio_duration()
    j.check_audio_content()
    j.check_upright()
    j.check_pictures()
    j.check_mono_neutral()
    j.check_colour_tags()
    j.check_hvc1()
    j.check_faststart()
    j.check_copy("expect-copy" in flags)
    j.check_audio_tracks()
    j.check_aspect()
    j.check_onsets()
    j.check_side_streams()
    j.check_damage_notice()
    if "order" in flags:
        j.check_order()
    print("\n".join(j.results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
