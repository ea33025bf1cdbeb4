#!/usr/bin/env python3
"""A smart render in a real browser: Debian's chromium, driven by Playwright (from PyPI, no
browser download), plays `vrender concat`'s smart render of mid-GOP trims (H.264 with B-frames,
a keyframe every 2 s, .mp4) through every join of copied and re-encoded frames: from just before
each join it plays until `currentTime` is past it, with no `error` event and the decoded frame
count rising; then it plays the whole file to its end. `make test-studio` runs it (CI too).

usage: VRENDER=.build/release/vrender scripts/smart-render-browser-test.py [--keep]
"""
import functools
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # CI installs it once; never a browser (Debian's chromium is used)
    subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet', 'playwright'], check=True)
    from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
# (in, out) seconds of take.mp4 (10 s, keyframes every 2 s): cuts inside groups of pictures, one
# piece whose out-point is on a keyframe, one re-encoded whole (no keyframe inside).
TRIMS = [(0.5, 4.7), (2.3, 6.0), (6.2, 7.9), (3.1, 9.4)]
PAGE = """<!doctype html><meta charset="utf-8"><title>smart render</title>
<video id="v" muted preload="auto" width="640"></video>
<script>
window.failures = [];
const v = document.getElementById('v');
v.addEventListener('error', () => window.failures.push('error ' + (v.error && v.error.code) + ' ' + (v.error && v.error.message)));
fetch('smart.mp4').then(r => r.blob()).then(b => { v.src = URL.createObjectURL(b); });
</script>"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


def log(message):
    print(f'smart-render-browser-test: {message}', flush=True)


def run(*arguments, cwd):
    result = subprocess.run(arguments, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f'smart-render-browser-test: {" ".join(arguments)} failed:\n{result.stderr}')
    return result.stdout


def make_export(vrender, work):
    """The take, the list, the smart render; returns the output's join times (seconds)."""
    run('ffmpeg', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30:duration=10',
        '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=10',
        '-c:v', 'libx264', '-g', '60', '-bf', '3', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2', 'take.mp4', cwd=work)
    with open(os.path.join(work, 'list.txt'), 'w', encoding='utf-8') as listing:
        listing.writelines(f"file 'take.mp4'\ninpoint {start}\noutpoint {end}\n" for start, end in TRIMS)
    summary = json.loads(run(vrender, 'concat', 'list.txt', '-o', 'smart.mp4', '--progress', 'none', '--json', cwd=work))
    assert summary['mode'] == 'smart-render', f"planned {summary['mode']}: {summary['reason']}"
    errors = run('ffmpeg', '-v', 'error', '-i', 'smart.mp4', '-f', 'null', '-', cwd=work)
    assert errors.strip() == '', errors
    joins, at, piece_start = [], 0.0, None
    spans = summary['smartSpans']
    for index, span in enumerate(spans):
        if index > 0 and span['piece'] != spans[index - 1]['piece']:
            at += spans[index - 1]['end'] - piece_start
            piece_start = None
        piece_start = span['start'] if piece_start is None else piece_start
        start = at + span['start'] - piece_start
        if start > 0:
            joins.append((round(start, 3), f"{span['kind']} of piece {span['piece'] + 1} at {span['start']:.3f} s"))
    with open(os.path.join(work, 'index.html'), 'w', encoding='utf-8') as page:
        page.write(PAGE)
    return joins, summary['duration']


def play_past(page, start, until):
    """Seeks to `start`, plays until currentTime passes `until`; returns the frames decoded meanwhile."""
    page.evaluate("""t => new Promise(done => {
        const v = document.getElementById('v');
        v.pause();
        v.addEventListener('seeked', () => done(), {once: true});
        v.currentTime = t;
    })""", start)
    before = page.evaluate("() => document.getElementById('v').getVideoPlaybackQuality().totalVideoFrames")
    page.evaluate("() => document.getElementById('v').play()")
    page.wait_for_function(f"() => document.getElementById('v').currentTime > {until} || window.failures.length > 0",
                           timeout=15000)
    failures = page.evaluate('() => window.failures')
    assert not failures, f'chromium: {failures}'
    return page.evaluate("() => document.getElementById('v').getVideoPlaybackQuality().totalVideoFrames") - before


def main():
    vrender = os.path.abspath(os.environ.get('VRENDER', '.build/release/vrender'))
    keep = '--keep' in sys.argv
    work = tempfile.mkdtemp(prefix='vrender-smart-')
    joins, duration = make_export(vrender, work)
    assert len(joins) >= 6, f'only {len(joins)} joins: {joins}'
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(QuietHandler, directory=work))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=['--no-sandbox', '--autoplay-policy=no-user-gesture-required'])
            page = browser.new_page()
            page.goto(f'http://127.0.0.1:{server.server_address[1]}/index.html')
            page.wait_for_function("() => document.getElementById('v').readyState >= 2 || window.failures.length > 0",
                                   timeout=30000)
            for time, what in joins:
                # A join near the end (a last group copied up to its out-point but one frame) is
                # played past up to just before the end, where currentTime stops.
                frames = play_past(page, max(0.0, time - 0.4), min(time + 0.3, duration - 0.1))
                assert frames > 0, f'no frame decoded playing through {time:.3f} s'
                log(f'{time:6.3f} s ({what}): played past it, {frames} frames decoded')
            page.evaluate("() => { document.getElementById('v').playbackRate = 4; }")
            frames = play_past(page, 0.0, duration - 0.2)
            log(f'played 0 to {duration - 0.2:.3f} s at 4x: {frames} frames decoded, no error')
            browser.close()
    finally:
        server.shutdown()
        if not keep:
            subprocess.run(['rm', '-rf', work])
    log(f'chromium played through all {len(joins)} joins of copied and re-encoded frames')


if __name__ == '__main__':
    main()
