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
        with open(os.path.join(adir, "probe.json")) as f:
            p = json.load(f)
        self.streams = p.get("streams", [])
        self.format = p.get("format", {})
        self.video = [s for s in self.streams if s.get("codec_type") == "video"
                      and not s.get("disposition", {}).get("attached_pic")]
        self.audio = [s for s in self.streams if s.get("codec_type") == "audio"]
        self.v = self.video[0] if self.video else {}
        vi = self.v.get("index", -1)
        ai = self.audio[0]["index"] if self.audio else -2
        self.vspan = self._span([q for q in p.get("packets", []) if q.get("stream_index") == vi])
        self.aspan_packets = self._span([q for q in p.get("packets", []) if q.get("stream_index") == ai])
        self._read_md5()

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

    def display_size(self):
        w, h = self.stored_size()
        return (h, w) if self.rotation() in (90, 270) else (w, h)

    def fps(self):
        return frac(self.v.get("avg_frame_rate")) or frac(self.v.get("r_frame_rate"))

    def duration(self):
        return self.vspan[1]

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


def expected_thumb(take, frame_index, canvas, tonemap=False):
    """ffmpeg's own frame FRAME_INDEX of TAKE (autorotated, tone-mapped to SDR if asked), fitted
    into the canvas with black bars, as a 64x36 rgb24 thumb; the colour conversion follows the
    take's tags."""
    w, h = canvas
    cache = os.path.join(take.dir, "expected_%d_%dx%d%s.rgb" % (frame_index, w, h, "_sdr" if tonemap else ""))
    if os.path.exists(cache):
        return open(cache, "rb").read()
    vf = ("select=eq(n\\,%d),%sformat=rgb24,scale=%d:%d:force_original_aspect_ratio=decrease,"
          "pad=%d:%d:-1:-1:black,scale=%d:%d:flags=area,format=rgb24"
          % (frame_index, TONEMAP if tonemap else "", w, h, w, h, THUMB_W, THUMB_H))
    r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", take.path, "-map", "0:v:0",
                        "-vf", vf, "-frames:v", "1", "-f", "rawvideo", "-"],
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
        self.copy = any(w in self.stdout for w in ("(stream-copy)", "(video-copy)")) or "stream copy" in self.stderr
        self.expected = sum(t.duration() for t in takes)
        self.results = []

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
    if "order" in flags:
        j.check_order()
    print("\n".join(j.results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
