#!/usr/bin/env python3
"""An export's captions in a real browser: Debian's chromium, driven by Playwright (from PyPI, no
browser download), plays `vrender concat --captions vtt` output with the .vtt as its <track>, and
at the middle of each cue of the .srt written beside it shows that cue's text, and between cues
none. `make test-studio` runs it (CI too).

usage: VRENDER=.build/release/vrender scripts/captions-browser-test.py [--keep]
"""
import functools
import http.server
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
SCRIPT = ("Good morning, and welcome to this short talk about recording video.\n"
          "Today we look at three things: cameras, sound and takes.\n")
# The video is handed over as a blob: Python's file server answers no range requests, without
# which chromium cannot seek in it.
PAGE = """<!doctype html><meta charset="utf-8"><title>captions</title>
<video id="v" muted preload="auto" width="640">
  <track kind="captions" src="talk.vtt" srclang="en" label="English" default>
</video>
<script>
fetch('talk.mp4').then(r => r.blob()).then(b => { document.getElementById('v').src = URL.createObjectURL(b); });
</script>"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


def log(message):
    print(f'captions-browser-test: {message}', flush=True)


def run(*arguments, cwd):
    result = subprocess.run(arguments, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f'captions-browser-test: {" ".join(arguments)} failed:\n{result.stderr}')
    return result.stdout


def srt_cues(path):
    """(start, end, text) of each cue of a SubRip file."""
    def seconds(stamp):
        hours, minutes, rest = stamp.strip().replace(',', '.').split(':')
        return int(hours) * 3600 + int(minutes) * 60 + float(rest)
    cues = []
    for block in open(path, encoding='utf-8').read().strip().split('\n\n'):
        lines = block.split('\n')
        start, end = lines[1].split(' --> ')
        cues.append((seconds(start), seconds(end), '\n'.join(lines[2:])))
    return cues


def make_export(vrender, work):
    with open(os.path.join(work, 'talk.txt'), 'w', encoding='utf-8') as script:
        script.write(SCRIPT)
    run(vrender, 'capture', '--device', 'synthetic', '--out', 'takes', '--takes', '1', '--duration', '8s',
        '--size', '640x360', '--codec', 'h264', '--prompter', 'talk.txt', cwd=work)
    run('cp', 'talk.txt', 'takes/', cwd=work)
    run(vrender, 'concat', 'takes', '--captions', 'vtt,srt', '--codec', 'h264', '-o', 'talk.mp4', '--progress', 'none',
        cwd=work)
    with open(os.path.join(work, 'index.html'), 'w', encoding='utf-8') as page:
        page.write(PAGE)


def shown_at(page, seconds, expect_some=True):
    """The text of the cues the browser shows once the video is at `seconds` (the track's
    active cues follow a seek a moment later: waited for, up to 5 s, when some are expected)."""
    page.evaluate("""t => new Promise(done => {
        const v = document.getElementById('v');
        v.addEventListener('seeked', () => done(), {once: true});
        v.currentTime = t;
    })""", seconds)
    if expect_some:
        page.wait_for_function("() => (document.getElementById('v').textTracks[0].activeCues || []).length > 0",
                               timeout=5000)
    else:
        page.wait_for_timeout(300)
    return page.evaluate("""() => {
        const track = document.getElementById('v').textTracks[0];
        return [track.mode, Array.from(track.activeCues || []).map(c => c.text)];
    }""")


def check(page, cues):
    page.wait_for_function("""() => {
        const v = document.getElementById('v');
        const t = v.textTracks[0];
        return v.readyState >= 1 && t.cues && t.cues.length > 0;
    }""", timeout=30000)
    count = page.evaluate("() => document.getElementById('v').textTracks[0].cues.length")
    assert count == len(cues), f'the browser read {count} cues from talk.vtt, the .srt has {len(cues)}'
    for start, end, text in cues:
        mode, shown = shown_at(page, (start + end) / 2)
        assert mode == 'showing', f'the track is {mode}, not showing'
        assert shown == [text], f'at {(start + end) / 2:.3f} s the browser shows {shown}, the cue is {text!r}'
        log(f'{(start + end) / 2:6.3f} s: {text!r}')
    for (_, end, _), (start, _, _) in zip(cues, cues[1:]):
        if start - end >= 0.1:
            _, shown = shown_at(page, (end + start) / 2, expect_some=False)
            assert shown == [], f'between cues, at {(end + start) / 2:.3f} s, the browser shows {shown}'


def main():
    vrender = os.path.abspath(os.environ.get('VRENDER', '.build/release/vrender'))
    keep = '--keep' in sys.argv
    work = tempfile.mkdtemp(prefix='vrender-captions-')
    make_export(vrender, work)
    cues = srt_cues(os.path.join(work, 'talk.srt'))
    assert len(cues) >= 2, f'only {len(cues)} cue(s) in talk.srt'
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(QuietHandler, directory=work))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=['--no-sandbox', '--autoplay-policy=no-user-gesture-required'])
            page = browser.new_page()
            page.goto(f'http://127.0.0.1:{server.server_address[1]}/index.html')
            check(page, cues)
            browser.close()
    finally:
        server.shutdown()
        if not keep:
            subprocess.run(['rm', '-rf', work])
    log(f'{len(cues)} cue(s) shown by chromium at their times, none between')


if __name__ == '__main__':
    main()
