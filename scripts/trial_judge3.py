#!/usr/bin/env python3
"""The third trial's checks, for scripts/trial_judge.py (standard library only): exact frame
counts (no frozen frame added), an export whose every video packet decodes (no leading frames a
player cannot show), languages/titles/default and forced flags kept where the container holds
them, loudness, and an ffconcat list's in/out points judged by frame content against FFmpeg's
concat demuxer. Each check is a function of the Judge (trial_judge.py) it reports through.
"""
import json
import os
import re
import subprocess

# ffmpeg's decode of the list's file and of the export, grey, this size: enough to tell any two
# frames of testsrc2 apart (its counter and moving shapes), small enough to compare all pairs.
MATCH_W, MATCH_H = 80, 60
LOUDNESS_TOL = 1.0    # LU, integrated loudness (ffmpeg's ebur128) vs --loudness


def _same_rate(a, b):
    return a and b and abs(a - b) <= 0.001 * b


# exact frame count: each take at the output's rate gives exactly the frames ffmpeg decodes of
# it (ffprobe -count_frames); a take at another rate gives its duration x the rate, +-1
def check_frame_count(j):
    out = j.out
    fps = out.fps()
    if not out.frames or not fps or out.vfr():
        return   # no frames (check_frames says so); a variable-rate copy: check_frames compares frames
    want, slack, parts = 0.0, 0.0, []
    for t in j.takes:
        if t.frames and not t.vfr() and _same_rate(t.fps(), fps):
            want += len(t.frames)
            parts.append("%d" % len(t.frames))
        else:
            want += t.duration() * fps
            slack += 1.01
            parts.append("~%.1f" % (t.duration() * fps))
    n = len(out.frames)
    why = None
    if abs(n - want) > slack + 1e-6:
        why = "%d frames decode, the takes have %s (ffmpeg's count%s)" % (
            n, " + ".join(parts), ", at %.3f fps" % fps if slack else "")
        if n > want and len(out.frames) >= 2 and out.frames[-1][2] == out.frames[-2][2]:
            why += "; the last frame repeats the one before it (a frozen frame added)"
        elif n > want and out.frames[0][2] == out.frames[1][2]:
            held = next((k for k, f in enumerate(out.frames) if f[2] != out.frames[0][2]), n)
            why += "; the first picture is shown %d times" % held
    j.report("frame-count", why)


# every video packet of the export decodes to a picture: none left over from a stream joined
# mid-way (open-GOP leading B/RASL frames, VP9 frames before its keyframe), which ffmpeg drops or
# reports and players show as a frozen or black start
def check_clean_start(j):
    if not j.out.video or not j.out.frames:
        return
    vi = j.out.v.get("index")
    pk = [q for q in j.out.packets if q.get("stream_index") == vi and "D" not in (q.get("flags") or "")]
    n = len(j.out.frames)
    why = None
    if len(pk) > n:
        first = pk[0]
        why = "%d video packets, %d frames decode (%d packets a decoder drops; the first packet, pts %s, is%s a keyframe)" % (
            len(pk), n, len(pk) - n, first.get("pts_time"), "" if "K" in (first.get("flags") or "") else " not")
    j.report("clean-start", why)


# ---------------------------------------------------------------- stream tags
def _fields(s):
    tags = {k.lower(): v for k, v in (s.get("tags") or {}).items()}
    lang = tags.get("language")
    disp = s.get("disposition") or {}
    return {"language": None if lang in (None, "", "und") else lang, "title": tags.get("title") or None,
            "default": int(disp.get("default", 0)), "forced": int(disp.get("forced", 0))}


def _by_type(streams):
    res = {"video": [], "audio": [], "subtitle": []}
    for s in streams:
        t = s.get("codec_type")
        if t in res and not (s.get("disposition") or {}).get("attached_pic"):
            res[t].append(_fields(s))
    return res


def container_tags(take, ext):
    """What ffmpeg itself keeps of TAKE's stream tags and flags when it writes an EXT file
    (re-encoded to codecs every container holds: the tags do not depend on the codec), cached."""
    cache = os.path.join(take.dir, "tags%s.json" % ext)
    if os.path.exists(cache):
        with open(cache) as f:
            return json.load(f)
    tmp = os.path.join(take.dir, "tags.%d%s" % (os.getpid(), ext))
    sub = "mov_text" if ext in (".mp4", ".mov") else "srt"
    r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", take.path, "-map", "0:v:0", "-map", "0:a?",
                        "-map", "0:s?", "-c:v", "mpeg4", "-q:v", "31", "-c:a", "aac", "-c:s", sub, tmp],
                       capture_output=True)
    res = None
    if r.returncode == 0:
        p = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", tmp], capture_output=True, text=True)
        try:
            res = _by_type(json.loads(p.stdout).get("streams", []))
        except ValueError:
            res = None
    if os.path.exists(tmp):
        os.remove(tmp)
    with open(cache + ".%d" % os.getpid(), "w") as f:
        json.dump(res, f)
    os.replace(cache + ".%d" % os.getpid(), cache)
    return res


# languages, titles, default and forced flags of the first take's streams kept (stream k of a kind
# in the export is the take's stream k), where ffmpeg keeps them in this container; a join keeps
# the first take's unless a later take says otherwise
def check_stream_tags(j):
    if j.ext not in (".mkv", ".mp4", ".mov") or not j.takes:
        return
    first = _by_type(j.takes[0].streams)
    if not any(f["language"] or f["title"] or f["forced"] for fs in first.values() for f in fs) and \
            len({f["default"] for f in first["audio"]}) < 2:
        return   # the take says nothing: nothing to keep
    held = container_tags(j.takes[0], j.ext)
    if not held:
        return
    out = _by_type(j.out.streams)
    later = [_by_type(t.streams) for t in j.takes[1:]]
    why = []
    for kind, outs in out.items():
        mine, kept = first[kind], held.get(kind, [])
        for k in range(min(len(outs), len(mine), len(kept))):
            for field in ("language", "title"):
                want = mine[k][field]
                if not want or kept[k][field] != want:
                    continue   # none, or ffmpeg cannot keep it in this container
                if any(len(o[kind]) > k and o[kind][k][field] not in (None, want) for o in later):
                    continue   # the takes disagree
                if outs[k][field] != want:
                    why.append("%s %d %s %r became %r" % (kind, k + 1, field, want, outs[k][field]))
            if mine[k]["forced"] and kept[k]["forced"] and not outs[k]["forced"]:
                why.append("%s %d lost its forced flag" % (kind, k + 1))
            # default flags: only where the take chose among several tracks and the export kept several
            if len(outs) >= 2 and len({f["default"] for f in mine}) > 1 and \
                    len({f["default"] for f in kept}) > 1 and outs[k]["default"] != kept[k]["default"]:
                why.append("%s %d default flag %d became %d" % (kind, k + 1, kept[k]["default"], outs[k]["default"]))
    j.report("stream-tags", "; ".join(why))


# --loudness L: the export's integrated loudness (ffmpeg's ebur128) within LOUDNESS_TOL of L
def check_loudness(j, flags):
    m = re.search(r"loudness=(-?[0-9.]+)", flags)
    if not m or not j.out.audio:
        return
    target = float(m.group(1))
    r = subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-i", j.out.path, "-map", "0:a:0", "-af",
                        "ebur128=framelog=verbose", "-f", "null", "-"], capture_output=True, text=True)
    got = re.findall(r"I:\s+(-?[0-9.]+) LUFS", r.stderr)
    if not got:
        return j.report("loudness", "ffmpeg's ebur128 gave no integrated loudness")
    i = float(got[-1])
    j.report("loudness", abs(i - target) > LOUDNESS_TOL and
             "integrated loudness %.1f LUFS, asked for %.1f (tolerance %.1f LU)" % (i, target, LOUDNESS_TOL))


# ---------------------------------------------------------------- an ffconcat list
def _grey_frames(path):
    r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                        "-vf", "scale=%d:%d:flags=area,format=gray" % (MATCH_W, MATCH_H), "-f", "rawvideo", "-"],
                       capture_output=True)
    n = MATCH_W * MATCH_H
    return [r.stdout[i:i + n] for i in range(0, len(r.stdout) - n + 1, n)]


def _hashes(args):
    r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error"] + args + ["-map", "0:v:0", "-fps_mode", "passthrough",
                       "-enc_time_base:v", "1/90000", "-f", "framemd5", "-"], capture_output=True, text=True)
    rows = [[x.strip() for x in line.split(",")] for line in r.stdout.splitlines() if line and not line.startswith("#")]
    return [(int(c[2]), c[5]) for c in rows if len(c) >= 6]


def _spans(idx):
    """[5, 6, 7, 9] -> '5-7, 9'"""
    out, start = [], None
    for k, x in enumerate(idx):
        if start is None:
            start = x
        if k + 1 == len(idx) or idx[k + 1] != x + 1:
            out.append(str(start) if start == x else "%s-%s" % (start, x))
            start = None
    return ", ".join(out) or "none"


def check_list_frames(j, listfile):
    """The export of a one-file ffconcat list shows exactly the frames FFmpeg's concat demuxer
    gives from the inpoint to the outpoint (times on the file's clock; of the frames it decodes
    from the keyframe before the inpoint, timed before 0, only the one on screen at the inpoint
    is shown): compared by content, each
    frame matched to the nearest frame of ffmpeg's decode of the file."""
    names = [m.group(1).strip("'") for m in re.finditer(r"^\s*file\s+(.+?)\s*$", open(listfile).read(), re.M)]
    src = os.path.join(os.path.dirname(listfile), names[0])
    src_h = [h for _, h in _hashes(["-i", src])]
    # -copyts keeps the demuxer's times: the file's pts less the inpoint. Kept: the frame on
    # screen at the inpoint (the last at or before 0) and every one after it.
    listed = sorted(_hashes(["-copyts", "-f", "concat", "-safe", "0", "-i", listfile]), key=lambda f: f[0])
    first = max((i for i, (pts, _) in enumerate(listed) if pts <= 0), default=0)
    ref = [src_h.index(h) if h in src_h else None for _, h in listed[first:]]
    s_grey, o_grey = _grey_frames(src), _grey_frames(j.out.path)
    if not s_grey or not o_grey or None in ref:
        return j.report("list-frames", "cannot read the frames (list's file %d, export %d, ffmpeg's %d)" % (
            len(s_grey), len(o_grey), len(ref)))
    got = []
    for f in o_grey:
        d = [sum((a - b) ** 2 for a, b in zip(f, s)) for s in s_grey]
        got.append(min(range(len(d)), key=d.__getitem__))
    j.report("list-frames", got != ref and "the export shows frames %s of %s, FFmpeg's concat demuxer gives %s" % (
        _spans(got), os.path.basename(src), _spans(ref)))
