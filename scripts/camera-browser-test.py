#!/usr/bin/env python3
"""vrender's camera as a browser's camera: Debian's chromium, driven by Playwright (from PyPI, no
browser download), reads `vrender camera -o feed.y4m` as its fake camera
(`--use-file-for-fake-video-capture`, the README's recipe) and a page's getUserMedia shows the
camera's picture: drawn into a canvas, it is the camera's frame as ffmpeg converts it to RGB
(within rounding), and not the same camera's through its 2x lens. `make test-studio` runs it (CI too).

usage: VRENDER=.build/release/vrender scripts/camera-browser-test.py [--keep]
"""
import os
import subprocess
import sys
import tempfile

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # CI installs it once; never a browser (Debian's chromium is used)
    subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet', 'playwright'], check=True)
    from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
SIZE = (320, 240)
# getUserMedia needs a secure context: a file:// page is one, about:blank is not.
PAGE = '<!doctype html><meta charset="utf-8"><title>camera</title>'
GRAB = '''async () => {
  const stream = await navigator.mediaDevices.getUserMedia({video: true});
  const video = document.createElement('video');
  video.srcObject = stream; video.muted = true; await video.play();
  await new Promise(done => video.requestVideoFrameCallback(done));
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth; canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  context.drawImage(video, 0, 0);
  return {label: stream.getVideoTracks()[0].label, width: canvas.width, height: canvas.height,
          pixels: Array.from(context.getImageData(0, 0, canvas.width, canvas.height).data)};
}'''


def log(message):
    print(f'camera-browser-test: {message}', flush=True)


def run(*arguments, cwd):
    result = subprocess.run(arguments, cwd=cwd, capture_output=True)
    if result.returncode != 0:
        sys.exit(f'camera-browser-test: {" ".join(arguments)} failed:\n{result.stderr.decode(errors="replace")}')


def one_frame(folder, name, *options):
    """The camera's frame 0 (seed 3, `options`) as a one-frame y4m (chromium loops it), and its RGBA from ffmpeg."""
    y4m, rgba = f'{folder}/{name}.y4m', f'{folder}/{name}.rgba'
    run(os.path.abspath(os.environ.get('VRENDER', '.build/release/vrender')), 'camera', '--device', 'synthetic:seed=3',
        '--size', f'{SIZE[0]}x{SIZE[1]}', '--duration', '30ms', *options, '-o', y4m, cwd=folder)
    run('ffmpeg', '-v', 'error', '-i', y4m, '-f', 'rawvideo', '-pix_fmt', 'rgba', '-y', rgba, cwd=folder)
    return y4m, open(rgba, 'rb').read()


def difference(pixels, reference):
    """Mean absolute difference over R, G and B, and how many samples differ by more than 16."""
    colour = [i for i in range(len(reference)) if i % 4 != 3]
    deltas = [abs(pixels[i] - reference[i]) for i in colour]
    return sum(deltas) / len(deltas), sum(1 for d in deltas if d > 16)


def main():
    keep = '--keep' in sys.argv
    folder = tempfile.mkdtemp(prefix='vrender-camera-browser.')
    feed, expected = one_frame(folder, 'feed')
    _, other = one_frame(folder, 'zoomed', '--lens', '2')
    with open(f'{folder}/camera.html', 'w') as page_file:
        page_file.write(PAGE)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream',
            f'--use-file-for-fake-video-capture={feed}'])
        page = browser.new_page()
        page.goto(f'file://{folder}/camera.html')
        shown = page.evaluate(GRAB)
        browser.close()
    failures = []
    if (shown['width'], shown['height']) != SIZE:
        failures.append(f'the camera is {shown["width"]}x{shown["height"]}, not {SIZE[0]}x{SIZE[1]}')
    if shown['label'] != feed:
        failures.append(f'the camera is "{shown["label"]}", not the file {feed}')
    mean, far = difference(shown['pixels'], expected)
    other_mean, _ = difference(shown['pixels'], other)
    log(f'chromium shows {shown["width"]}x{shown["height"]} from {os.path.basename(feed)}: mean difference {mean:.2f} '
        f'from its frame ({far} samples over 16), {other_mean:.2f} from the 2x lens\'s')
    if mean > 2.5 or far > 0:
        failures.append(f'the picture is not the camera\'s frame (mean difference {mean:.2f}, {far} samples over 16)')
    if other_mean < 10:
        failures.append(f'the 2x lens\'s frame is as close ({other_mean:.2f}): the check cannot tell them apart')
    if keep:
        log(f'kept {folder}')
    else:
        subprocess.run(['rm', '-rf', folder])
    for failure in failures:
        log(f'FAIL {failure}')
    log('passed' if not failures else f'{len(failures)} failure(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
