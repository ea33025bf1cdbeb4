#!/usr/bin/env python3
"""The studio page's layout at a phone's, a tablet's and a laptop's size (390x844, 768x1024,
1280x800) in Debian's chromium driven by Playwright, against one `vrender studio --device
synthetic` with four takes and a prompter script with a long German and a long Japanese line.

Measured from the DOM at each size, with the export panel open (issue 42):
  (a) no two visible controls (buttons, selects, inputs, labels, the prompter's state) overlap,
      and none overlaps the prompter's text (its viewport); boxes are cut to what their
      scrolling or clipping ancestors show, and a control is not compared with one it holds;
  (b) every visible button, select, input and summary is at least 44x44 px, at every size (a
      checkbox's target is its label);
  (c) every visible text's colour against its effective background (the backgrounds of its
      ancestors composited up to the first opaque one, opacity included; over the camera's
      picture, both a black and a white picture) is at least 4.5:1 (WCAG 2 relative luminance);
      disabled controls are held to it too;
  (d) the prompter's text is not cut: its scrollWidth <= clientWidth;
  (e) a take strip that overflows says so: #takes-more visible with "N more", and a fade;
  (f) the filter menus list each option once;
  (g) "burn in the prompter" is unchecked by default.
Screenshots of each size go to --screenshots DIR (default: a temporary folder); their paths are
printed. `make test-studio` runs it (CI too).

usage: VRENDER=.build/release/vrender scripts/studio-layout-test.py [--screenshots DIR] [--keep]
"""
import argparse
import importlib.util
import os
import shutil
import sys
import tempfile
import time
import traceback
import urllib.error

# The studio process, the page helpers and the browser's path come from the studio's browser test.
_spec = importlib.util.spec_from_file_location(
    'studio_browser_test', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'studio-browser-test.py'))
browser_test = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(browser_test)
Studio, wait_state, sync_playwright = browser_test.Studio, browser_test.wait_state, browser_test.sync_playwright

SIZES = [(390, 844), (768, 1024), (1280, 800)]
TAKES = 4
JAPANESE = 'これはとても長い日本語の行で、画面の右端で切れてはいけません。'
SCRIPT = ('Willkommen im Studio.\n'
          'Die Donaudampfschifffahrtsgesellschaftskapitänswitwenversicherung ist ein sehr langes Wort, und '
          'dieser Satz ist mit Absicht so lang, dass er im Kasten mehrmals umbrochen werden muss.\n'
          + JAPANESE * 3 + '\n'
          'The end.')
MIN_TARGET = 44
MIN_CONTRAST = 4.5

MEASURE_JS = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'studio-layout-measure.js')).read()


def log(message):
    print('studio-layout-test: ' + message, flush=True)


def start_recording(studio):
    """Starts a take; a studio still opening its camera refuses (409) for a moment."""
    deadline = time.monotonic() + 30
    while True:
        try:
            studio.api('/api/record', {'record': True})
            return
        except urllib.error.HTTPError as error:
            if error.code != 409 or time.monotonic() > deadline:
                raise AssertionError('recording was refused: %s %s' % (error.code, error.read().decode(errors='replace')))
            time.sleep(0.2)


def record_takes(studio, count):
    """`count` short takes through the page's API, each kept before the next starts."""
    for number in range(1, count + 1):
        start_recording(studio)
        # Past 0.5 s of the take itself (a sooner stop is a double press, ignored:
        # TakeScheduler.shortestStop); the take begins some time after the start is accepted.
        studio.wait_for(lambda s: s.get('recordingState') == 'recording' and s.get('takeSeconds', 0) > 0.6, 30,
                        lambda s: 'take %d never ran 0.6 s: %s' % (number, s.get('recordingState')))
        studio.api('/api/record', {'record': False})
        studio.wait_for(lambda s: len(s.get('takes', [])) >= number, 60,
                        lambda s: 'take %d was not listed within 60 s' % number)


def open_page(browser, url, size):
    page = browser.new_page(viewport={'width': size[0], 'height': size[1]})
    page.on('pageerror', lambda error: log('page error: %s' % error))
    page.goto(url)
    wait_state(page, 's.prompter && s.takes.length === %d' % TAKES)
    page.wait_for_function("""n => { const imgs = document.querySelectorAll('.take .thumb img');
        return imgs.length === n && Array.from(imgs).every(i => i.complete && i.naturalWidth > 0)
          && document.querySelectorAll('#prompter-text > div').length > 0; }""", arg=TAKES, timeout=60000)
    page.wait_for_function('() => window.studioStats.drawn > 0', timeout=30000)
    return page


def check_size(browser, studio, size, folder):
    """The failures at one size (strings), and the measurements for the report."""
    page = open_page(browser, studio.url, size)
    try:
        failures = []
        burn_in = page.is_checked('#export-prompter')
        if burn_in:
            failures.append('(g) "burn in the prompter" is checked by default')
        page.click('#next')
        page.wait_for_selector('#export-panel', state='visible')
        page.evaluate('window.scrollTo(0, 0)')
        page.wait_for_timeout(400)  # the take strip's hint follows a resize and the panel opening
        report = page.evaluate(MEASURE_JS, {'minTarget': MIN_TARGET, 'minContrast': MIN_CONTRAST,
                                           'probeLine': JAPANESE * 4})
        path = os.path.join(folder, 'studio-layout-%dx%d.png' % size)
        page.screenshot(path=path, full_page=True)
        log('%dx%d: screenshot %s' % (size + (path,)))
        for key in 'abcdef':
            failures.extend('(%s) %s' % (key, text) for text in report['failures'][key])
        return failures, report
    finally:
        page.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--vrender', default=os.environ.get('VRENDER', '.build/release/vrender'))
    parser.add_argument('--screenshots', metavar='DIR', help='where the screenshots go (default: a temporary folder)')
    parser.add_argument('--keep', action='store_true', help='keep the temporary folder of takes')
    options = parser.parse_args()
    vrender = os.path.abspath(options.vrender) if os.sep in options.vrender else options.vrender
    work = tempfile.mkdtemp(prefix='vrender-studio-layout-')
    shots = options.screenshots or tempfile.mkdtemp(prefix='vrender-studio-layout-shots-')
    os.makedirs(shots, exist_ok=True)
    started = time.monotonic()
    studio = None
    failures = []
    try:
        studio = Studio(vrender, work, extra=('--size', '640x360', '--audio', 'none'), script=SCRIPT)
        record_takes(studio, TAKES)
        log('studio at %s, %d takes recorded in %.1f s' % (studio.url, TAKES, time.monotonic() - started))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_test.CHROMIUM, headless=True,
                                                 args=['--no-sandbox'])
            for size in SIZES:
                found, report = check_size(browser, studio, size, shots)
                log('%dx%d: smallest target %s; lowest contrast %s; %d overlaps; prompter text %s; strip %s'
                    % (size + (report['smallestTarget'], report['lowestContrast'], report['overlaps'],
                               report['prompterWidth'], report['strip'])))
                failures.extend('%dx%d: %s' % (size + (text,)) for text in found)
            browser.close()
    except Exception as error:
        if not isinstance(error, AssertionError):
            traceback.print_exc()
        failures.append('%s' % error)
        if studio:
            log('vrender said:\n' + studio.output())
    finally:
        if studio:
            studio.stop()
        if options.keep:
            log('kept ' + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        log('FAILED: ' + failure)
    log('%s in %.1f s; screenshots in %s' % ('failed' if failures else 'all checks passed', time.monotonic() - started, shots))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
