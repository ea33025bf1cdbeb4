#!/usr/bin/env python3
"""Smart rendering's acceptance (issue 43): random trims over 1080p takes, H.264 (a keyframe
every 2 s, B-frames) and HEVC, exported by `vrender concat` to .mp4 and .mkv as a smart render
and as the same export transcoded (`--codec h264`/`--codec hevc`), both timed. For each smart
render: the copied frames' framemd5 against ffmpeg's decode of the take (bit-identical), the
re-encoded frames' PSNR against it (>= 45 dB), and `ffmpeg -v error -i out -f null -` (nothing).

usage: VRENDER=.build/release/vrender scripts/smart-render-acceptance.py [--seconds 20] [--trims 10]
       [--seed 43] [--codecs h264,hevc] [--containers mp4,mkv] [--keep]
Prints one line per export and a table; exits 1 when a check fails.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

MAKE = {
    'h264': ['-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-bf', '3'],
    'hevc': ['-c:v', 'libx265', '-preset', 'ultrafast', '-tag:v', 'hvc1',
             '-x265-params', 'keyint=60:min-keyint=60:open-gop=0:bframes=4:log-level=error'],
}


def run(arguments, cwd=None):
    result = subprocess.run(arguments, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f'smart-render-acceptance: {" ".join(arguments)} failed:\n{result.stderr}')
    return result


def make_take(work, codec, seconds):
    path = os.path.join(work, f'{codec}.mp4')
    run(['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i', f'testsrc2=size=1920x1080:rate=30:duration={seconds}',
         '-f', 'lavfi', '-i', f'sine=frequency=440:sample_rate=48000:duration={seconds}',
         '-pix_fmt', 'yuv420p'] + MAKE[codec] + ['-c:a', 'aac', '-ac', '2', path])
    return path


def framemd5(path, start=None, frames=None):
    seek = [] if start is None else ['-ss', f'{(start - 0.5) / 30:.6f}']
    count = [] if frames is None else ['-frames:v', str(frames)]
    out = run(['ffmpeg', '-v', 'error'] + seek + ['-i', path, '-map', '0:v'] + count
              + ['-fps_mode', 'passthrough', '-f', 'framemd5', '-']).stdout
    return [line.split(',')[-1].strip() for line in out.splitlines() if line and not line.startswith('#')]


def psnr(output, at, source, first, frames, log):
    """Per-frame PSNR of output frames at.. against source frames first.., `frames` of them."""
    run(['ffmpeg', '-v', 'error', '-ss', f'{(at - 0.5) / 30:.6f}', '-i', output, '-ss', f'{(first - 0.5) / 30:.6f}',
         '-i', source, '-lavfi', f'[0:v]settb=1/30,setpts=N[o];[1:v]settb=1/30,setpts=N[r];[o][r]psnr=stats_file={log}',
         '-frames:v', str(frames), '-f', 'null', '-'])
    values = []
    for line in open(log, encoding='utf-8'):
        field = next(f for f in line.split() if f.startswith('psnr_avg:'))[9:]
        values.append(float('inf') if field == 'inf' else float(field))
    return values


def export(vrender, listing, output, extra):
    if os.path.exists(output):
        os.remove(output)
    start = time.monotonic()
    summary = json.loads(run([vrender, 'concat', listing, '-o', output, '--progress', 'none', '--json'] + extra).stdout)
    return summary, time.monotonic() - start


def judge(summary, output, source, work):
    """(copied frames, identical, re-encoded frames, minimum PSNR, ffmpeg's errors)."""
    errors = subprocess.run(['ffmpeg', '-v', 'error', '-i', output, '-f', 'null', '-'], capture_output=True, text=True).stderr
    copied = identical = reencoded = 0
    lowest = float('inf')
    at = 0
    for span in summary['smartSpans']:
        first, frames = round(span['start'] * 30), span['frames']
        if span['kind'] == 'copy':
            got, want = framemd5(output, at, frames), framemd5(source, first, frames)
            copied += frames
            identical += sum(1 for a, b in zip(got, want) if a == b)
        else:
            # The psnr filter's frame sync repeats the last pair once: the first `frames` count.
            values = psnr(output, at, source, first, frames, os.path.join(work, 'psnr.log'))[:frames]
            reencoded += frames
            lowest = min([lowest] + values) if len(values) == frames else -1
        at += frames
    return copied, identical, reencoded, lowest, errors.strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--seconds', type=int, default=20)
    parser.add_argument('--trims', type=int, default=10)
    parser.add_argument('--seed', type=int, default=43)
    parser.add_argument('--codecs', default='h264,hevc')
    parser.add_argument('--containers', default='mp4,mkv')
    parser.add_argument('--keep', action='store_true')
    arguments = parser.parse_args()
    vrender = os.path.abspath(os.environ.get('VRENDER', '.build/release/vrender'))
    work = tempfile.mkdtemp(prefix='vrender-smart-acceptance-')
    failed = False
    rows = []
    for codec in arguments.codecs.split(','):
        source = make_take(work, codec, arguments.seconds)
        generator = random.Random(f'{arguments.seed}-{codec}')
        listing = os.path.join(work, f'{codec}.txt')
        with open(listing, 'w', encoding='utf-8') as f:
            for _ in range(arguments.trims):
                first = generator.randrange(0, (arguments.seconds - 5) * 30)
                last = generator.randrange(first + 4 * 30, arguments.seconds * 30)
                f.write(f"file '{source}'\ninpoint {first / 30:.6f}\noutpoint {last / 30:.6f}\n")
        for container in arguments.containers.split(','):
            smart_out = os.path.join(work, f'{codec}-smart.{container}')
            summary, smart_time = export(vrender, listing, smart_out, [])
            if summary['mode'] != 'smart-render':
                print(f'{codec} .{container}: planned {summary["mode"]}: {summary["reason"]}')
                failed = True
                continue
            _, transcode_time = export(vrender, listing, os.path.join(work, f'{codec}-transcode.{container}'), ['--codec', codec])
            copied, identical, reencoded, lowest, errors = judge(summary, smart_out, source, work)
            ok = identical == copied and lowest >= 45 and errors == ''
            failed |= not ok
            rows.append((codec, container, summary['frames'], copied, identical, reencoded, lowest, smart_time, transcode_time, errors))
            print(f'{codec} .{container}: {summary["frames"]} frames, {copied} copied ({identical} bit-identical), '
                  f'{reencoded} re-encoded (PSNR min {lowest:.2f} dB), smart {smart_time:.2f} s, transcode {transcode_time:.2f} s '
                  f'({100 * smart_time / transcode_time:.1f}%), ffmpeg -v error: {errors or "nothing"}', flush=True)
    print('\ncodec container frames copied identical re-encoded psnr-min smart-s transcode-s ratio')
    for codec, container, frames, copied, identical, reencoded, lowest, smart, transcode, _ in rows:
        print(f'{codec:5} {container:9} {frames:6} {copied:6} {identical:9} {reencoded:10} {lowest:8.2f} {smart:7.2f} '
              f'{transcode:11.2f} {100 * smart / transcode:5.1f}%')
    if not arguments.keep:
        subprocess.run(['rm', '-rf', work])
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
