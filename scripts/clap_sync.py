#!/usr/bin/env python3
"""Measures sound against picture in a recorded file, independently of vrender.

The synthetic camera draws a square in the top-left corner (a sixth of the picture's height),
white at each clap and black otherwise, while the synthetic microphone clicks (a 3 ms burst at -1 dBFS, the voice
staying under -12 dBFS). This tool decodes the file with ffmpeg as a player would (edit lists
applied), finds the flash frames and the click onsets, and pairs them.

  clap_sync.py measure FILE [--json] [--limit-ms 5]
      offset = click onset - flash frame time, per flash; exit 1 when any |offset| > limit or a
      flash has no click.
  clap_sync.py clicks FILE [--json] [--expect-every 1.0] [--limit-ms-per-s 1]
      click onsets only (a clap track played into a real device), their spacing against the
      expected one, and the audio and video streams' lengths (equal within one video frame).
  clap_sync.py make-track OUT.wav --seconds N [--rate 48000] [--channels 2] [--first 0.5]
      a WAV with a click every second, the first at --first seconds.

Only python3's standard library and the ffmpeg/ffprobe programs are used.
"""
import argparse
import array
import json
import math
import re
import subprocess
import sys
import wave

CLICK_PEAK = 0.891      # -1 dBFS
CLICK_SECONDS = 0.003
CLICK_HERTZ = 3000.0
ONSET_THRESHOLD = 16384  # half full scale in s16: only a click gets there
CLICK_HOLDOFF = 0.05     # seconds after an onset that belong to the same burst
FLASH_LUMA = 192         # full-range luma of the patch's middle: white (255) on a flash, black (0) else
PAIR_WINDOW = 0.5        # seconds: a click further than this from a flash does not belong to it


class ToolError(Exception):
    pass


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if result.returncode != 0:
        raise ToolError(f"{command[0]} failed: {result.stderr.decode(errors='replace').strip()[-500:]}")
    return result


def probe_streams(path):
    """The first audio and video streams' fields that matter here."""
    out = run(["ffprobe", "-v", "error", "-show_entries",
               "stream=index,codec_type,sample_rate,width,height,avg_frame_rate,r_frame_rate",
               "-of", "json", path]).stdout
    streams = json.loads(out).get("streams", [])
    audio = next((s for s in streams if s.get("codec_type") == "audio"), None)
    video = next((s for s in streams if s.get("codec_type") == "video"), None)
    return audio, video


def decode_audio(path, rate):
    """Mono s16 samples at the stream's own rate, sample i playing at i / rate seconds on the
    file's clock: placed by their timestamps, as a player places them (aresample fills a gap
    between packets with silence and starts the output at time 0). A fragmented QuickTime file
    stretches its first audio sample back to 0 (the AAC priming packet): counting decoded
    samples from the first packet's time instead would put every later one early."""
    raw = run(["ffmpeg", "-v", "error", "-copyts", "-i", path, "-map", "0:a:0",
               "-af", "aresample=async=1:min_hard_comp=0.001:first_pts=0", "-ac", "1", "-ar", str(rate),
               "-f", "s16le", "-acodec", "pcm_s16le", "-"]).stdout
    samples = array.array("h")
    samples.frombytes(raw[: len(raw) - len(raw) % 2])
    if sys.byteorder != "little":
        samples.byteswap()
    return samples


def click_onsets(samples, rate, start):
    """Times of the first sample of each burst over half full scale."""
    onsets = []
    holdoff = int(CLICK_HOLDOFF * rate)
    index, count, block = 0, len(samples), 512
    while index < count:
        # Skip quiet blocks with C-speed max/min: an hour of sound is 170 million samples.
        chunk = samples[index:index + block]
        if max(chunk) <= ONSET_THRESHOLD and min(chunk) >= -ONSET_THRESHOLD:
            index += block
            continue
        end = min(index + block, count)
        while index < end and abs(samples[index]) <= ONSET_THRESHOLD:
            index += 1
        if index < end:
            onsets.append(start + index / rate)
            index += holdoff
    return onsets


SHOWINFO = re.compile(r"pts_time:\s*(-?[0-9.eE+-]+).*?mean:\[\s*([0-9]+)")


def patch_lumas(path, video):
    """(pts_time, mean luma) of a band across the top of the top-left patch, every decoded frame.

    The band (rows 1/16 to 3/16 of the patch, 1 % to 3 % of the picture's height; columns 1/8 to
    7/8) keeps clear of the patch's blurred edges after encoding and stays above a prompter box
    burned in at its default place (from 4 % of the height down)."""
    side = max(2, (int(video["height"]) // 6) & ~1)
    width, height = max(1, side * 3 // 4), max(1, side // 8)
    crop = f"format=gray,crop={width}:{height}:{side // 8}:{side // 16},showinfo"
    err = run(["ffmpeg", "-hide_banner", "-copyts", "-i", path, "-map", "0:v:0", "-vf", crop,
               "-f", "null", "-"]).stderr.decode(errors="replace")
    return [(float(m.group(1)), int(m.group(2))) for m in SHOWINFO.finditer(err)]


def flash_times(lumas):
    """The first frame of each run of bright patches."""
    flashes, previous = [], False
    for time, luma in lumas:
        bright = luma >= FLASH_LUMA
        if bright and not previous:
            flashes.append(time)
        previous = bright
    return flashes


def pair(flashes, clicks):
    """Each flash with its nearest click; the clicks nobody claimed."""
    pairs, unpaired_flashes, claimed = [], [], set()
    for flash in flashes:
        best = min(range(len(clicks)), key=lambda i: abs(clicks[i] - flash), default=None)
        if best is None or abs(clicks[best] - flash) > PAIR_WINDOW:
            unpaired_flashes.append(flash)
            continue
        claimed.add(best)
        pairs.append({"flash": round(flash, 6), "click": round(clicks[best], 6),
                      "offset_ms": round((clicks[best] - flash) * 1000, 3)})
    return pairs, unpaired_flashes, len(clicks) - len(claimed)


def measure(path, limit_ms):
    audio, video = probe_streams(path)
    if audio is None or video is None:
        raise ToolError(f"{path}: needs an audio and a video stream")
    rate = int(audio["sample_rate"])
    clicks = click_onsets(decode_audio(path, rate), rate, 0.0)
    lumas = patch_lumas(path, video)
    flashes = flash_times(lumas)
    pairs, unpaired_flashes, unpaired_clicks = pair(flashes, clicks)
    # A vrender take's sound starts after AAC's first 1024 samples, its priming (a fragmented
    # file has no edit list to skip them), so a clap on the take's very first frame is not
    # heard: a flash there without a click is excused, and counted apart.
    sound_starts = (lumas[0][0] if lumas else 0.0) + 1024 / rate
    early = [f for f in unpaired_flashes if f < sound_starts]
    unpaired_flashes = [f for f in unpaired_flashes if f >= sound_starts]
    offsets = [p["offset_ms"] for p in pairs]
    worst = max((abs(o) for o in offsets), default=0.0)
    ok = bool(pairs) and not unpaired_flashes and worst <= limit_ms
    return {
        "file": path, "flashes": len(flashes), "clicks": len(clicks), "pairs": pairs,
        "start_ms": offsets[0] if offsets else None,
        "middle_ms": offsets[len(offsets) // 2] if offsets else None,
        "end_ms": offsets[-1] if offsets else None,
        "max_abs_offset_ms": worst, "unpaired_flashes": [round(f, 6) for f in unpaired_flashes],
        "unpaired_clicks": unpaired_clicks, "flashes_in_priming": len(early), "limit_ms": limit_ms, "ok": ok,
    }


def stream_length(path, selector):
    """Seconds from the stream's first presentation time to the end of its last packet (video:
    no priming, so its packets are what a player shows)."""
    out = run(["ffprobe", "-v", "error", "-select_streams", selector, "-show_entries",
               "packet=pts_time,duration_time", "-of", "csv=p=0", path]).stdout.decode()
    first, end = None, None
    for line in out.split():
        fields = line.split(",")
        if len(fields) < 2 or "N/A" in fields[:2]:
            continue
        pts, duration = float(fields[0]), float(fields[1])
        first = pts if first is None else min(first, pts)
        end = pts + duration if end is None else max(end, pts + duration)
    return None if first is None else end - first


def frame_interval(video):
    for key in ("avg_frame_rate", "r_frame_rate"):
        num, _, den = video.get(key, "0/0").partition("/")
        if float(num or 0) > 0 and float(den or 0) > 0:
            return float(den) / float(num)
    raise ToolError("the video stream has no frame rate")


def spacing_report(clicks, every, limit):
    """Each spacing's error against a whole number of `every`, in ms per second."""
    errors, missing = [], 0
    for before, after in zip(clicks, clicks[1:]):
        spacing = after - before
        periods = max(1, round(spacing / every))
        missing += periods - 1
        errors.append(round((spacing - periods * every) / (periods * every) * 1000, 4))
    worst = max((abs(e) for e in errors), default=0.0)
    mean = sum(errors) / len(errors) if errors else 0.0
    return {"spacing_errors_ms_per_s": errors, "max_abs_spacing_error_ms_per_s": worst,
            "mean_spacing_error_ms_per_s": round(mean, 4), "missing_clicks": missing,
            "spacing_ok": worst <= limit and missing == 0 and len(clicks) >= 2}


def clicks_command(path, every, limit):
    audio, video = probe_streams(path)
    if audio is None:
        raise ToolError(f"{path}: has no audio stream")
    rate = int(audio["sample_rate"])
    samples = decode_audio(path, rate)
    clicks = click_onsets(samples, rate, 0.0)
    report = {"file": path, "clicks": len(clicks), "onsets": [round(c, 6) for c in clicks], "expect_every": every,
              "limit_ms_per_s": limit}
    report.update(spacing_report(clicks, every, limit))
    report["ok"] = report["spacing_ok"]
    if video is not None:
        # The sound's length as a player hears it: decoded samples, encoder priming trimmed.
        audio_length, video_length = len(samples) / rate, stream_length(path, "v:0")
        interval = frame_interval(video)
        lengths_ok = audio_length is not None and video_length is not None \
            and abs(audio_length - video_length) <= interval + 1e-6
        report.update({"audio_seconds": audio_length, "video_seconds": video_length,
                       "frame_seconds": interval, "lengths_ok": lengths_ok})
        report["ok"] = report["ok"] and lengths_ok
    return report


def click_samples(rate):
    """One click: a decaying 3 kHz cosine whose first sample is the loudest (the onset)."""
    length = max(1, round(CLICK_SECONDS * rate))
    decay = CLICK_SECONDS * rate / 4
    return [CLICK_PEAK * math.exp(-i / decay) * math.cos(2 * math.pi * CLICK_HERTZ * i / rate) for i in range(length)]


def make_track(out, seconds, rate, channels, first, every=1.0):
    total = int(round(seconds * rate))
    mono = array.array("h", bytes(2 * total))
    click = [int(round(v * 32767)) for v in click_samples(rate)]
    instant = first
    while instant < seconds:
        onset = int(round(instant * rate))
        for i, value in enumerate(click):
            if onset + i < total:
                mono[onset + i] = value
        instant += every
    frames = array.array("h", (v for v in mono for _ in range(channels)))
    if sys.byteorder != "little":
        frames.byteswap()
    with wave.open(out, "wb") as handle:
        handle.setnchannels(channels)
        handle.setsampwidth(2)
        handle.setframerate(rate)
        handle.writeframes(frames.tobytes())


def print_measure(report):
    print(f"{report['file']}: {report['flashes']} flashes, {report['clicks']} clicks, "
          f"{len(report['unpaired_flashes'])} flashes without a click, {report['unpaired_clicks']} clicks without a flash")
    for label in ("start", "middle", "end"):
        value = report[f"{label}_ms"]
        print(f"  offset at the {label}: " + ("-" if value is None else f"{value:+.3f} ms"))
    print(f"  max |offset| {report['max_abs_offset_ms']:.3f} ms (limit {report['limit_ms']} ms): "
          + ("ok" if report["ok"] else "FAIL"))


def print_clicks(report):
    print(f"{report['file']}: {report['clicks']} clicks, {report['missing_clicks']} missing, spacing error "
          f"max {report['max_abs_spacing_error_ms_per_s']:.3f} ms/s, mean {report['mean_spacing_error_ms_per_s']:+.3f} "
          f"ms/s (limit {report['limit_ms_per_s']})")
    if "audio_seconds" in report:
        print(f"  audio {report['audio_seconds']:.6f} s, video {report['video_seconds']:.6f} s, "
              f"one frame {report['frame_seconds']:.6f} s: " + ("ok" if report["lengths_ok"] else "FAIL"))
    print("  " + ("ok" if report["ok"] else "FAIL"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    measure_parser = commands.add_parser("measure", help="click onsets against flash frames")
    measure_parser.add_argument("file")
    measure_parser.add_argument("--json", action="store_true")
    measure_parser.add_argument("--limit-ms", type=float, default=5.0)
    clicks_parser = commands.add_parser("clicks", help="click onsets, their spacing, stream lengths")
    clicks_parser.add_argument("file")
    clicks_parser.add_argument("--json", action="store_true")
    clicks_parser.add_argument("--expect-every", type=float, default=1.0)
    clicks_parser.add_argument("--limit-ms-per-s", type=float, default=1.0)
    track_parser = commands.add_parser("make-track", help="a WAV with a click every second")
    track_parser.add_argument("out")
    track_parser.add_argument("--seconds", type=float, required=True)
    track_parser.add_argument("--rate", type=int, default=48000)
    track_parser.add_argument("--channels", type=int, default=2)
    track_parser.add_argument("--first", type=float, default=0.5, help="time of the first click (seconds)")
    args = parser.parse_args(argv)
    try:
        if args.command == "make-track":
            if args.seconds <= 0 or args.rate < 8000 or not 1 <= args.channels <= 8:
                raise ToolError("make-track needs --seconds > 0, --rate >= 8000 and 1 to 8 --channels")
            make_track(args.out, args.seconds, args.rate, args.channels, args.first)
            return 0
        if args.command == "measure":
            report = measure(args.file, args.limit_ms)
            print(json.dumps(report, indent=1)) if args.json else print_measure(report)
        else:
            report = clicks_command(args.file, args.expect_every, args.limit_ms_per_s)
            print(json.dumps(report, indent=1)) if args.json else print_clicks(report)
        return 0 if report["ok"] else 1
    except ToolError as error:
        print(f"clap_sync.py: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
