#!/usr/bin/env python3
"""Judge of scripts/trial-acceptance.sh (standard library only).

Reads the analysis the suite made of one export and of its takes (see `analyze` in
trial-acceptance.sh: probe.json, frames.md5, thumbs.rgb, audio.raw, decode.err, stats_*.txt) and
prints one `ok NAME:CHECK` / `FAIL NAME:CHECK: why` line per check. One function per check; the
readings themselves (`Media`) and the picture arithmetic are in trial_analysis.py.

  usage: trial_judge.py judge NAME JOB_DIR OUT_FILE FILTER FLAGS TAKE_FILE:TAKE_ANALYSIS_DIR...
         trial_judge.py list NAME JOB_DIR OUT_FILE LIST   (the export of an ffconcat list)
         trial_judge.py atoms FILE          (prints the top-level box types of an ISO/QuickTime file)
"""
import math
import os
import struct
import subprocess
import sys

import trial_judge3
from trial_analysis import (
    THUMB_W, THUMB_H, CORRELATION_MIN, LUMA_MAD_MAX, CHROMA_DELTA_MAX, NEUTRAL_TOL, AUDIO_SLACK,
    HDR_TRC, ASPECT_TOL, PSNR_MIN, ONSET_GAP, ONSET_TOL, SIDE_TOL, DAMAGE_WORDS, Media,
    without_paths, psnr, orientation, grey_and_uv, correlation, expected_thumb,
)


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
        t = self.takes[0]
        if self.copy and len(self.takes) == 1 and t.audio_seconds() < t.duration() - AUDIO_SLACK:
            # a copy of a take whose sound starts late or stops early keeps its sound as it is
            return self.report("audio-duration", abs(a - t.audio_seconds()) > AUDIO_SLACK and
                               "audio decodes to %.3f s, the take's (copied) to %.3f s" % (a, t.audio_seconds()))
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
            if k == "extradata_hash" and os.path.splitext(t.path)[1].lower() in (".ts", ".m2ts", ".nut", ".h264"):
                continue   # parameter sets in the stream (Annex B) become the container's (avcC)
            if k == "extradata_hash" and os.path.splitext(t.path)[1].lower() in (".ogv", ".ogg"):
                continue   # Ogg's Theora/Vorbis headers are packed otherwise in Matroska (Xiph lacing)
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
            if not t.decode_errors or t.leading_loss():
                continue   # (a stream joined mid-way: its undecodable start is no damage to name)
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
    if argv[1] == "list":
        _, _, name, jdir, out, listfile = argv
        j = Judge(name, jdir, out, "none", [])
        j.check_readable()
        j.check_decodes()
        trial_judge3.check_clean_start(j)
        trial_judge3.check_list_frames(j, listfile)
        if j.out.audio:
            a, v = j.out.audio_seconds(), j.out.duration()
            j.report("audio-duration", abs(a - v) > AUDIO_SLACK and "audio decodes to %.3f s, video lasts %.3f s" % (a, v))
        print("\n".join(j.results))
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
    trial_judge3.check_frame_count(j)
    trial_judge3.check_clean_start(j)
    trial_judge3.check_stream_tags(j)
    trial_judge3.check_loudness(j, flags)
    if "order" in flags:
        j.check_order()
    print("\n".join(j.results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
