#!/usr/bin/env python3
"""The studio page in a real browser: Debian's chromium driven by Playwright (from PyPI, no
browser download) against `vrender studio --device synthetic`.

Checks issue 23's acceptance list: the preview changes frame to frame; 2x changes the picture;
a click on the picture sets the exposure point; two takes recorded by clicking show their
thumbnails and play in the viewer; reordering them and deleting one show in takes.json and on a
second page; the prompter's buttons change its speed and size, and "from the top" pressed
during a take sends it back to 0%; the box resized and dragged is
burned in there by an export (found by ffmpeg: the export with the prompter minus the one without);
the export plays in the page; a camera that cannot open shows the error banner; with --host
0.0.0.0 the page works from its token URL and a request without the token is refused.
--soak: 60 s recordings at 1280x720 30 fps without and with a page open: preview latency
p50/p95/max (p95 <= 150 ms), 0 frames dropped, and the process's CPU share of a core for each.

usage: VRENDER=.build/release/vrender scripts/studio-browser-test.py [--soak] [--screenshots docs/images]
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

try:
    from playwright.sync_api import sync_playwright, TimeoutError as PlaywrightTimeout
except ImportError:  # CI installs it once; never a browser (Debian's chromium is used)
    subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet', 'playwright'], check=True)
    from playwright.sync_api import sync_playwright, TimeoutError as PlaywrightTimeout

CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
SCRIPT = """Welcome to the studio.
This is the teleprompter's script, a few lines long,
so that the box has text to scroll while the takes are recorded.
Look at the camera, not at the words.
Speak slowly and clearly.
The end."""


def log(message):
    print('studio-browser-test: ' + message, flush=True)


class Studio:
    """One `vrender studio` process: started on a free port, its URL read from its output."""

    def __init__(self, vrender, work, device='synthetic', extra=(), name='takes', script=SCRIPT):
        self.out = os.path.join(work, name)
        prompter = os.path.join(work, name + '-script.txt')
        with open(prompter, 'w', encoding='utf-8') as f:
            f.write(script)
        self.command = [vrender, 'studio', '--device', device, '--out', self.out, '--port', '0',
                        '--prompter', prompter, *extra]
        self.lines = []
        self.url = None
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, bufsize=1)
        found = threading.Event()

        def read():
            for line in self.process.stdout:
                self.lines.append(line.rstrip('\n'))
                if line.startswith('studio: http://') and not found.is_set():
                    self.url = line.split(' ', 1)[1].strip()
                    found.set()
            found.set()
        threading.Thread(target=read, daemon=True).start()
        if not found.wait(90) or not self.url:
            self.stop()
            raise AssertionError('no "studio: http://" line from ' + ' '.join(self.command) + ':\n' + self.output())

    def output(self):
        return '\n'.join(self.lines[-30:])

    def api(self, path, body=None):
        base = self.url.split('?')[0].rstrip('/')
        request = urllib.request.Request(base + path, method='POST' if body is not None else 'GET',
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={'Content-Type': 'application/json'})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def wait_for(self, condition, seconds, failure):
        """Polls /api/state until `condition(state)` holds; after `seconds`, fails with
        `failure(state)` (the last state seen)."""
        deadline = time.monotonic() + seconds
        while True:
            state = self.api('/api/state')
            if condition(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(failure(state))
            time.sleep(0.1)

    def takes_json(self):
        with open(os.path.join(self.out, 'takes.json')) as f:
            return json.load(f)['takes']

    def cpu_seconds(self):
        fields = open('/proc/%d/stat' % self.process.pid).read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')  # utime + stime

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# ---------------------------------------------------------------------------------------------
# The picture, read back from the page: the canvas scaled to 64x36 (an average per cell, so a
# JPEG's noise does not count), as luma values.
SAMPLE_JS = """() => {
  const c = document.getElementById('preview');
  const s = document.createElement('canvas'); s.width = 64; s.height = 36;
  const g = s.getContext('2d'); g.drawImage(c, 0, 0, 64, 36);
  const d = g.getImageData(0, 0, 64, 36).data; const out = [];
  for (let i = 0; i < d.length; i += 4) out.push(0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]);
  return out;
}"""


def sample(page, after_frames=3):
    drawn = page.evaluate('window.studioStats.drawn')
    page.wait_for_function('n => window.studioStats.drawn >= n', arg=drawn + after_frames)
    return page.evaluate(SAMPLE_JS)


def difference(a, b):
    return sum(abs(x - y) for x, y in zip(a, b)) / len(a)


def wait_state(page, condition, timeout=30000):
    """Waits until `condition` (JavaScript over `s`, the page's newest state) holds."""
    page.wait_for_function('() => { const s = window.studioState; return !!s && (%s); }' % condition,
                           timeout=timeout)


def check_preview(page):
    page.wait_for_function('() => window.studioStats.drawn > 5', timeout=30000)
    a = sample(page, 1)
    b = sample(page, 2)
    changed = difference(a, b)
    assert changed > 0.05, 'the preview does not change frame to frame (mean difference %.3f)' % changed
    log('ok: the preview changes frame to frame (mean luma difference %.2f, %d frames drawn)'
        % (changed, page.evaluate('window.studioStats.drawn')))
    return changed


def check_lens(page, frame_to_frame):
    before = sample(page)
    page.click('#lens-2')
    wait_state(page, 's.camera.lens === 2 && Math.abs(s.camera.zoom - 2) < 0.01')
    after = sample(page, 10)
    changed = difference(before, after)
    assert changed > max(3 * frame_to_frame, 4), \
        '2x did not change the picture (difference %.2f, frame to frame %.2f)' % (changed, frame_to_frame)
    log('ok: 2x changes the picture (mean luma difference %.2f vs %.2f frame to frame)' % (changed, frame_to_frame))
    page.click('#lens-1')
    wait_state(page, 's.camera.lens === 1 && Math.abs(s.camera.zoom - 1) < 0.01')


def check_exposure_click(page):
    picture = page.locator('#picture').bounding_box()
    with page.expect_request(lambda r: r.url.endswith('/api/camera') and r.method == 'POST') as sent:
        page.mouse.click(picture['x'] + picture['width'] * 0.25, picture['y'] + picture['height'] * 0.8)
    point = json.loads(sent.value.post_data)['exposurePoint']
    assert abs(point[0] - 0.25) < 0.01 and abs(point[1] - 0.8) < 0.01, 'exposure point %s' % point
    assert page.locator('#focus-square').is_visible(), 'no focus square after a click on the picture'
    assert sent.value.response().ok, 'the exposure point was refused'
    log('ok: a click on the picture sets the exposure point %s and shows the focus square' % point)


def record_take(page, count):
    page.click('#record')
    wait_state(page, 's.recording && window.studioTakeSeconds() > 2.2', timeout=30000)  # the page's timer
    page.click('#record')
    wait_state(page, '!s.recording && s.takes.length === %d' % count, timeout=60000)


def check_takes(page, studio):
    record_take(page, 1)
    record_take(page, 2)
    page.wait_for_function("""() => { const imgs = document.querySelectorAll('.take .thumb img');
        return imgs.length === 2 && Array.from(imgs).every(i => i.complete && i.naturalWidth > 0); }""",
                           timeout=60000)
    assert len(studio.takes_json()) == 2, 'takes.json does not list two takes'
    log('ok: two takes recorded by clicking, two thumbnails shown')
    first = page.evaluate('window.studioState.takes[0].file')
    page.click('.take[data-file="%s"] .thumb' % first)
    page.wait_for_function("() => { const v = document.getElementById('take-video'); "
                           "return !v.hidden && v.readyState >= 2 && v.currentTime > 0.3; }", timeout=90000)
    log('ok: take 1 plays in the viewer (its browser-playable copy)')
    # Under the player: the cue being said, from the take's captions (the synthetic presenter
    # reads the script from the take's start).
    page.wait_for_function("() => document.getElementById('viewer-captions').textContent.trim().length > 0", timeout=60000)
    shown = page.inner_text('#viewer-captions').replace('\n', ' ')
    assert ' '.join(shown.split()) in ' '.join(SCRIPT.split()), 'under the player: %r, not the script\'s words' % shown
    log('ok: the take\'s captions show under its player: %r' % shown)


def check_reorder(page, other, studio):
    files = page.evaluate('window.studioState.takes.map(t => t.file)')
    page.click('.take[data-file="%s"] .move-right' % files[0])
    swapped = [files[1], files[0]]
    wait_state(page, 'JSON.stringify(s.takes.map(t => t.file)) === %s' % json.dumps(json.dumps(swapped, separators=(',', ':'))))
    listed = [t['file'] for t in studio.takes_json()]
    assert listed == swapped, 'takes.json lists %s after moving take 1 later' % listed
    other.wait_for_function("f => document.querySelector('.take').dataset.file === f", arg=files[1])
    log('ok: moving take 1 later swaps the takes in the strip, on a second page and in takes.json')


def check_prompter_controls(page):
    before = page.evaluate('window.studioState.prompter')
    page.click('#prompter-faster')
    wait_state(page, 's.prompter.speed > %f' % before['speed'])
    page.click('#prompter-larger')
    wait_state(page, 's.prompter.fontSize > %f' % before['fontSize'])
    changed = page.evaluate('window.studioState.prompter')
    page.click('#prompter-slower')
    page.click('#prompter-smaller')
    wait_state(page, 's.prompter.speed < %f && s.prompter.fontSize < %f' % (changed['speed'], changed['fontSize']))
    log('ok: the prompter\'s faster/larger/slower/smaller buttons change its speed and size')


def check_prompter_restart(page):
    """The prompter's "from the top" button during a take: once the prompter has scrolled (its
    percentage > 0), a click sends it back to the top, 0% in the state and on the page's line."""
    button = page.locator('#prompter-restart')
    assert button.count() == 1, 'the prompter has no "from the top" button (#prompter-restart)'
    assert button.is_visible(), 'the prompter\'s "from the top" button is not shown'
    assert button.get_attribute('data-command') == 'restart', '#prompter-restart does not post "restart"'
    assert (button.get_attribute('title') or '').strip(), '#prompter-restart has no title tooltip'
    before = len(page.evaluate('window.studioState.takes'))
    page.click('#record')
    wait_state(page, 's.recording && s.prompter.percent > 0 && window.studioTakeSeconds() > 1', timeout=30000)
    scrolled = page.evaluate('window.studioState.prompter')
    # Every percentage the page shows from here on (its line: "scrolling · 12% · 40 pt/s").
    page.evaluate("""() => {
      window.restartSeen = [];
      const line = document.getElementById('prompter-state');
      const note = () => window.restartSeen.push(line.textContent);
      new MutationObserver(note).observe(line, {childList: true, characterData: true, subtree: true});
    }""")
    page.click('#prompter-restart')
    try:
        page.wait_for_function("""offset => window.restartSeen.some(t => / 0% /.test(t))
                                  && (window.studioState.prompter.percent === 0 || window.studioState.prompter.offset < offset)""",
                               arg=scrolled['offset'], timeout=10000, polling='raf')
    except PlaywrightTimeout:
        raise AssertionError('"from the top" at %d%% (offset %.1f pt) during a take: the page showed %s, the state %s%%'
                             % (scrolled['percent'], scrolled['offset'], page.evaluate('[...new Set(window.restartSeen)].slice(-4)'),
                                page.evaluate('window.studioState.prompter.percent')))
    assert page.evaluate('window.studioState.recording'), '"from the top" stopped the take'
    page.click('#record')
    wait_state(page, '!s.recording && s.takes.length === %d' % (before + 1), timeout=60000)
    log('ok: "from the top" during a take sent the prompter from %d%% (offset %.0f pt) back to 0%%'
        % (scrolled['percent'], scrolled['offset']))


def check_delete(page, other, studio):
    files = page.evaluate('window.studioState.takes.map(t => t.file)')
    page.once('dialog', lambda dialog: dialog.accept())
    page.click('.take[data-file="%s"] .delete' % files[0])
    page.wait_for_function("() => document.querySelectorAll('.take').length === 1")
    listed = [t['file'] for t in studio.takes_json()]
    assert listed == [files[1]], 'takes.json lists %s after deleting %s' % (listed, files[0])
    other.wait_for_function("() => document.querySelectorAll('.take').length === 1")
    log('ok: deleting take 1 leaves one take, on the page, on a second page and in takes.json')


def check_double_click(page, other, studio):
    """A double click on Record (a second start, or a stop under 0.5 s into the take: a double
    press, ignored) starts one take that goes on, on both pages; then a start and a stop sent
    back to back (the stop surely under 0.5 s): the stop is ignored and said, the take still
    shows recording. A click past 0.5 s stops each: one take more in takes.json each time."""
    for press in ['click', 'post']:
        before = len(studio.takes_json())
        if press == 'click':
            page.dblclick('#record')
        else:
            page.evaluate("""async () => {
                const send = record => fetch('/api/record', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                               body: JSON.stringify({record})});
                await send(true);   // answered once the start is queued: the stop surely follows it
                await send(false);
            }""")
            wait_state(page, "s.notices.some(n => n.text.includes('stop ignored'))")
        for shown in (page, other):
            wait_state(shown, "s.recording && s.recordingState === 'recording'")
        wait_state(page, 'window.studioTakeSeconds() > 0.7')   # still recording, past the shortest stop
        page.click('#record')
        for shown in (page, other):
            wait_state(shown, '!s.recording && s.takes.length === %d' % (before + 1), timeout=60000)
        duration = studio.takes_json()[-1]['duration']
        assert duration >= 0.5, 'the double-pressed take lasted %.2f s' % duration
    log('ok: a double click on Record, and a stop sent right after a start, start one take that goes on '
        '(both pages show it recording, the stop ignored and said); a later click stops it')


def drag(page, selector, grab, by):
    """Presses on `selector` at `grab` (fractions of it) and moves by `by` pixels in steps. The
    element is scrolled into view first: the mouse cannot press what is above the window."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    x, y = box['x'] + box['width'] * grab[0], box['y'] + box['height'] * grab[1]
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + by[0], y + by[1], steps=12)
    page.mouse.up()


def check_prompter_drag(page, other):
    """Resizes the box by its corner to half the width, then drags it by its body to the lower
    right; the server's box must be where the box was left."""
    page.wait_for_selector('#prompter-box', state='visible')
    picture = page.locator('#picture').bounding_box()
    start = page.evaluate('window.studioState.prompter.box')
    size = [0.5, 0.36]
    drag(page, '#prompter-resize', (0.5, 0.5),
         ((size[0] - start[2]) * picture['width'], (size[1] - start[3]) * picture['height']))
    wait_state(page, 'Math.abs(s.prompter.box[2] - %f) < 0.02 && Math.abs(s.prompter.box[3] - %f) < 0.02'
               % tuple(size))
    resized = page.evaluate('window.studioState.prompter.box')
    target = [0.45, 0.55]
    # Grabbed left of centre: its resizing corner is at the bottom right.
    drag(page, '#prompter-box', (0.3, 0.6),
         ((target[0] - resized[0]) * picture['width'], (target[1] - resized[1]) * picture['height']))
    wait_state(page, 'Math.abs(s.prompter.box[0] - %f) < 0.02 && Math.abs(s.prompter.box[1] - %f) < 0.02'
               % tuple(target))
    moved = page.evaluate('window.studioState.prompter.box')
    assert abs(moved[2] - resized[2]) < 0.005 and abs(moved[3] - resized[3]) < 0.005, 'dragging resized the box'
    other.wait_for_function('b => JSON.stringify(window.studioState.prompter.box) === JSON.stringify(b)', arg=moved)
    log('ok: the prompter box resized from %s to %s and dragged to %s (a second page shows it there too)'
        % (fmt(start), fmt(resized), fmt(moved)))
    return moved


def fmt(box):
    return '[' + ', '.join('%.3f' % v for v in box) + ']'


def run_export(page, prompter, captions=False):
    if page.locator('#export-panel').is_hidden():
        page.click('#next')
    page.wait_for_selector('#filter-grid', state='visible')
    page.set_checked('#export-prompter', prompter)
    page.set_checked('#export-captions', captions)
    page.select_option('#export-filter', '')
    page.evaluate("""() => { window.__progressSeen = 0; clearInterval(window.__progressTimer);
        window.__progressTimer = setInterval(() => { const s = window.studioState;
          if (s && s.export && s.export.state === 'running' && !document.getElementById('export-status').hidden)
            window.__progressSeen = Math.max(window.__progressSeen, document.getElementById('export-progress').value + 1e-6);
        }, 20); }""")
    started = time.monotonic()
    with page.expect_response('**/api/export') as answer:
        page.click('#export-start')
    assert answer.value.ok, 'the export was refused: %s' % answer.value.text()
    # Any snapshot newer than the answer shows this export; progress shows while it runs.
    version = page.evaluate('window.studioState.version')
    wait_state(page, 's.version > %d && s.export && s.export.state !== "running"' % version, timeout=300000)
    export = page.evaluate('window.studioState.export')
    assert export['state'] == 'done', 'the export ended %s: %s' % (export['state'], export.get('message'))
    assert os.path.isfile(export['output']), 'the export %s is not there' % export['output']
    seconds = time.monotonic() - started
    progress = page.evaluate('window.__progressSeen')
    assert progress > 0 or seconds < 1.5, 'no progress bar during a %.1f s export' % seconds
    log('ok: export (prompter %s) done in %.1f s, progress bar seen up to %.0f%%: %s'
        % ('burned in' if prompter else 'off', seconds, 100 * progress, export['output']))
    shown = page.inner_text('#export-output')
    assert shown == export['output'], 'the page shows the path %r, not %r' % (shown, export['output'])
    return export['output']


def check_captions(path):
    """The export asked with captions has them as a mov_text track tagged English, and as .srt
    and .vtt files beside it."""
    streams = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 's', '-show_entries',
                              'stream=codec_name:stream_tags=language', '-of', 'csv=p=0', path],
                             capture_output=True, text=True, check=True).stdout.split()
    assert streams == ['mov_text,eng'], 'the export\'s subtitle streams: %s' % streams
    base = os.path.splitext(path)[0]
    for suffix in ('.srt', '.vtt'):
        assert os.path.isfile(base + suffix), 'no %s beside the export' % suffix
    cues = open(base + '.srt', encoding='utf-8').read().count(' --> ')
    log('ok: captions: a mov_text track (eng), %s.srt and .vtt beside the export (%d cue(s))' % (os.path.basename(base), cues))


def check_export_plays(page):
    page.wait_for_selector('#export-video', state='visible')
    page.evaluate("() => { const v = document.getElementById('export-video'); v.muted = true; return v.play(); }")
    page.wait_for_function("() => document.getElementById('export-video').currentTime > 0.5", timeout=60000)
    log('ok: the export plays in the page (currentTime %.2f s)'
        % page.evaluate("document.getElementById('export-video').currentTime"))


def gray_frame(path, at):
    size = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height',
                           '-of', 'csv=p=0', path], capture_output=True, text=True, check=True).stdout.strip()
    width, height = (int(v) for v in size.split(',')[:2])
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-ss', str(at), '-i', path, '-frames:v', '1', '-f', 'rawvideo',
                          '-pix_fmt', 'gray', '-'], capture_output=True, check=True).stdout
    assert len(raw) == width * height, 'could not decode a frame of %s' % path
    return raw, width, height


def check_burn_in(plain, burned, box):
    """The export with the prompter minus the one without: where they differ is the box."""
    a, width, height = gray_frame(plain, 1.0)
    b, _, _ = gray_frame(burned, 1.0)
    x0, y0 = round(box[0] * width), round(box[1] * height)
    x1, y1 = round((box[0] + box[2]) * width), round((box[1] + box[3]) * height)
    inside = outside = inside_changed = outside_changed = 0
    inside_luma = outside_luma = 0
    column_changes, row_changes = [0] * width, [0] * height
    for y in range(height):
        row = y * width
        for x in range(width):
            changed = abs(a[row + x] - b[row + x]) > 12
            if x0 <= x < x1 and y0 <= y < y1:
                inside += 1
                inside_changed += changed
                inside_luma += b[row + x]
            else:
                outside += 1
                outside_changed += changed
                outside_luma += b[row + x]
            if changed:
                column_changes[x] += 1
                row_changes[y] += 1
    # The box's rows and columns: where a good share of pixels changed. Single pixels the
    # encoder placed differently elsewhere (two encodes of different pictures) do not count.
    xs = [x for x in range(width) if column_changes[x] > 0.1 * height]
    ys = [y for y in range(height) if row_changes[y] > 0.1 * width]
    assert xs and ys, 'the export with the prompter does not differ from the one without'
    found = [min(xs) / width, min(ys) / height, (max(xs) + 1 - min(xs)) / width, (max(ys) + 1 - min(ys)) / height]
    log('burn-in: box expected %s, found %s; %.0f%% of the box changed, %.2f%% outside; mean luma inside %.0f, '
        'outside %.0f' % (fmt(box), fmt(found), 100 * inside_changed / inside, 100 * outside_changed / outside,
                          inside_luma / inside, outside_luma / outside))
    assert all(abs(f - e) < 0.03 for f, e in zip(found, box)), 'the burned-in box is not where it was dragged'
    assert inside_changed / inside > 0.3 and outside_changed / outside < 0.01, 'the burn-in is not the box'
    log('ok: the export burns the prompter in where the box was dragged')


def screenshot(page, directory, name):
    if directory:
        os.makedirs(directory, exist_ok=True)
        page.screenshot(path=os.path.join(directory, 'studio-%s.png' % name), full_page=True)


def new_page(browser, url):
    page = browser.new_page(viewport={'width': 1280, 'height': 900})
    page.on('pageerror', lambda error: log('page error: %s' % error))
    page.on('console', lambda message: message.type == 'error' and log('console: %s' % message.text))
    page.goto(url)
    return page


def check_camera_error(browser, vrender, work, directory):
    studio = Studio(vrender, work, device='/dev/video99', name='takes-no-camera')
    try:
        page = new_page(browser, studio.url)
        page.wait_for_selector('#error-banner', state='visible', timeout=30000)
        text = page.inner_text('#error-banner')
        assert '/dev/video99' in text, 'the banner does not name the camera: %r' % text
        assert page.locator('#record').is_disabled(), 'Record is enabled with no camera'
        screenshot(page, directory, 'error')
        log('ok: a camera that cannot open shows the banner: %s' % text)
        page.close()
    finally:
        studio.stop()


def check_token(browser, vrender, work):
    """Bound beyond loopback the page works from the printed URL (its token carried on every
    fetch, the WebSocket and the media), and a request without the token is refused."""
    studio = Studio(vrender, work, extra=('--host', '0.0.0.0'), name='takes-token')
    try:
        assert '?token=' in studio.url, 'no token in the URL %s' % studio.url
        # The printed URL names the machine (never 0.0.0.0, which is no address to browse to);
        # the page is opened on loopback, which the server answers to as well.
        printed = urllib.parse.urlsplit(studio.url)
        assert printed.hostname != '0.0.0.0', 'the printed URL names 0.0.0.0: %s' % studio.url
        url = printed._replace(netloc='127.0.0.1:%d' % printed.port).geturl()
        page = new_page(browser, url)
        page.wait_for_function('() => window.studioStats && window.studioStats.drawn > 3', timeout=30000)
        page.click('#grid-toggle')
        page.click('#lens-2')
        wait_state(page, 's.camera.lens === 2')
        bare = url.split('?')[0].rstrip('/') + '/api/state'
        try:
            urllib.request.urlopen(bare, timeout=10)
            raise AssertionError('GET /api/state without the token was answered')
        except urllib.error.HTTPError as error:
            assert error.code in (401, 403), 'GET /api/state without the token: %d' % error.code
        log('ok: with --host 0.0.0.0 the page works from its token URL; without the token: refused')
        page.close()
    finally:
        studio.stop()


# ---------------------------------------------------------------------------------------------
# Soak: one take of `seconds` with no page open, then one with a page open, at 1280x720 30 fps.
def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def soak(browser, vrender, work, seconds):
    studio = Studio(vrender, work, extra=('--size', '1280x720'), name='takes-soak')
    try:
        # The camera opens after the URL is printed.
        studio.wait_for(lambda s: s.get('camera'), 60, lambda s: 'the camera did not open in 60 s')
        studio.api('/api/record', {'record': True})
        cpu0, wall0 = studio.cpu_seconds(), time.monotonic()
        time.sleep(seconds)
        alone = (studio.cpu_seconds() - cpu0) / (time.monotonic() - wall0)
        studio.api('/api/record', {'record': False})

        page = new_page(browser, studio.url)
        page.wait_for_function('() => window.studioStats.drawn > 30', timeout=30000)
        # The first take's playable copy is made off the critical path, but it costs CPU: let it
        # finish so that it is not counted as the preview's.
        wait_state(page, '!s.recording && s.takes.length === 1 && ["ready", "failed"].includes(s.takes[0].proxyState)',
                   timeout=600000)
        page.click('#record')
        wait_state(page, 's.recording')
        cpu0, wall0 = studio.cpu_seconds(), time.monotonic()
        latencies, seen = [], page.evaluate('window.studioStats.drawn')
        drawn0 = seen
        while time.monotonic() - wall0 < seconds:
            time.sleep(min(4, max(0.1, seconds - (time.monotonic() - wall0))))
            drawn, recent = page.evaluate('[window.studioStats.drawn, window.studioStats.latencyMs]')
            new = drawn - seen
            latencies += recent[-new:] if 0 < new <= len(recent) else recent
            seen = drawn
        watched = (studio.cpu_seconds() - cpu0) / (time.monotonic() - wall0)
        drawn_rate = (seen - drawn0) / (time.monotonic() - wall0)
        page.click('#record')
        wait_state(page, '!s.recording && s.takes.length === 2', timeout=60000)
        takes = studio.takes_json()
        p50, p95, worst = percentile(latencies, 0.5), percentile(latencies, 0.95), max(latencies)
        log('soak: preview latency over %d frames drawn (%.1f/s): p50 %.0f ms, p95 %.0f ms, max %.0f ms'
            % (len(latencies), drawn_rate, p50, p95, worst))
        log('soak: takes of %.0f s: %s' % (seconds, ', '.join('%s %d frames, %d dropped'
                                                              % (t['file'], t['frames'], t['dropped']) for t in takes)))
        log('soak: vrender CPU while recording: %.1f%% of a core without a page, %.1f%% with one page open: '
            'the preview costs %.1f%% of a core' % (100 * alone, 100 * watched, 100 * (watched - alone)))
        assert p95 <= 150, 'preview latency p95 %.0f ms is over 150 ms' % p95
        assert takes[-1]['dropped'] == 0, 'the take with a page open dropped %d frames' % takes[-1]['dropped']
        page.close()
    finally:
        studio.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--vrender', default=os.environ.get('VRENDER', '.build/release/vrender'))
    parser.add_argument('--soak', action='store_true', help='the 60 s latency, drop and CPU measurement')
    parser.add_argument('--soak-seconds', type=float, default=60)
    parser.add_argument('--screenshots', metavar='DIR', help='save studio-*.png full-page screenshots there')
    parser.add_argument('--keep', action='store_true', help='keep the temporary folder')
    options = parser.parse_args()
    vrender = os.path.abspath(options.vrender) if os.sep in options.vrender else options.vrender
    work = tempfile.mkdtemp(prefix='vrender-studio-test-')
    studio = None
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True,
                args=['--no-sandbox', '--autoplay-policy=no-user-gesture-required'])
            studio = Studio(vrender, work)
            log('studio at %s' % studio.url)
            page = new_page(browser, studio.url)
            other = new_page(browser, studio.url)
            frame_to_frame = check_preview(page)
            check_lens(page, frame_to_frame)
            check_exposure_click(page)
            check_takes(page, studio)
            screenshot(page, options.screenshots, 'takes')
            check_reorder(page, other, studio)
            check_delete(page, other, studio)
            check_prompter_controls(page)
            box = check_prompter_drag(page, other)
            page.click('#grid-toggle')
            assert page.locator('#grid').is_visible(), 'the grid does not show'
            screenshot(page, options.screenshots, 'live')
            plain = run_export(page, prompter=False)
            kept = os.path.join(work, 'export-plain' + os.path.splitext(plain)[1])
            shutil.copyfile(plain, kept)  # the next export may take its name
            burned = run_export(page, prompter=True, captions=True)
            check_burn_in(kept, burned, box)
            check_captions(burned)
            check_export_plays(page)
            screenshot(page, options.screenshots, 'export')
            check_double_click(page, other, studio)
            check_prompter_restart(page)
            other.close()
            page.close()
            studio.stop()
            studio = None
            check_camera_error(browser, vrender, work, options.screenshots)
            check_token(browser, vrender, work)
            if options.soak:
                soak(browser, vrender, work, options.soak_seconds)
            browser.close()
        log('all checks passed')
    except Exception as error:
        if not isinstance(error, AssertionError):
            traceback.print_exc()
        log('FAILED: %s' % error)
        if studio:
            log('vrender said:\n' + studio.output())
        return 1
    finally:
        if studio:
            studio.stop()
        if options.keep:
            log('kept ' + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
