// The studio page's layout, measured from the DOM for scripts/studio-layout-test.py (issue 42):
// evaluated by Playwright as `(limits) => report`. Boxes are in document pixels.
({ minTarget, minContrast, probeLine }) => {
  const failures = { a: [], b: [], c: [], d: [], e: [], f: [] };

  const shown = (e) => {
    if (!e.getClientRects().length) return false;
    const style = getComputedStyle(e);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const describe = (e) => {
    const take = e.closest('.take');
    const shownText = e.tagName === 'SELECT' ? (e.selectedOptions[0] || {}).textContent : e.textContent || e.value;
    const text = (shownText || '').trim().replace(/\s+/g, ' ').slice(0, 24);
    return (take ? 'take ' + take.dataset.file + ' ' : '')
      + (e.id ? '#' + e.id : e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : ''))
      + (text ? ' "' + text + '"' : '');
  };
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY };
  };
  const intersect = (a, b) => ({ left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) });
  const empty = (r) => r.right - r.left < 0.5 || r.bottom - r.top < 0.5;
  // What of an element shows: its box cut by every ancestor that clips (scrolls or hides overflow).
  const visibleBox = (e) => {
    let r = box(e);
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') r = intersect(r, box(a));
    }
    return r;
  };
  const size = (r) => Math.round(r.right - r.left) + 'x' + Math.round(r.bottom - r.top);

  // (b) Touch targets: a checkbox or radio is tapped by its label.
  const targets = [];
  for (const e of document.querySelectorAll('button, select, input, summary, [role=button]')) {
    if (!shown(e) || e.type === 'hidden') continue;
    const target = (e.type === 'checkbox' || e.type === 'radio') && e.closest('label') ? e.closest('label') : e;
    if (!targets.includes(target)) targets.push(target);
  }
  let smallest = null;
  for (const t of targets) {
    const r = box(t);
    const w = r.right - r.left, h = r.bottom - r.top;
    if (!smallest || Math.min(w, h) < smallest.side) smallest = { side: Math.min(w, h), what: describe(t) + ' ' + size(r) };
    if (w < minTarget - 0.5 || h < minTarget - 0.5) failures.b.push(describe(t) + ' is ' + size(r) + ' px');
  }

  // (a) Overlaps: controls with each other (not with what they hold) and with the prompter's text.
  const controls = targets.slice();
  for (const e of document.querySelectorAll('label, #prompter-state')) if (shown(e) && !controls.includes(e)) controls.push(e);
  const boxes = controls.map((e) => ({ e, r: visibleBox(e) })).filter((c) => !empty(c.r));
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
      const o = intersect(a.r, b.r);
      if (!empty(o)) {
        overlaps += 1;
        failures.a.push(describe(a.e) + ' overlaps ' + describe(b.e) + ' by ' + size(o) + ' px');
      }
    }
  }
  const prompterView = document.getElementById('prompter-viewport');
  if (prompterView && shown(prompterView)) {
    const text = visibleBox(prompterView);
    for (const c of boxes) {
      const o = intersect(c.r, text);
      if (!empty(o)) {
        overlaps += 1;
        failures.a.push(describe(c.e) + ' overlaps the prompter text by ' + size(o) + ' px');
      }
    }
  }

  // (c) Contrast: each element with text of its own, its colour against its backgrounds.
  const rgba = (text) => {
    const m = text.match(/rgba?\(([^)]*)\)/);
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3]));
  const opacityOf = (e) => {
    let o = 1;
    for (let a = e; a; a = a.parentElement) o *= Number(getComputedStyle(a).opacity);
    return o;
  };
  // The backgrounds under `e`, composited up to the first opaque one. Over the camera's picture
  // (drawn in a canvas beside, not under, its overlays) anything may show: both a black and a
  // white picture are tried.
  const backgrounds = (e) => {
    const layers = [];
    let bases = [[255, 255, 255]];  // the canvas under an html without a background
    for (let a = e; a; a = a.parentElement) {
      if (a.id === 'picture') { bases = [[0, 0, 0], [255, 255, 255]]; break; }
      const c = rgba(getComputedStyle(a).backgroundColor);
      if (!c || c[3] === 0) continue;
      const alpha = c[3] * opacityOf(a);
      layers.push([c[0], c[1], c[2], alpha]);
      if (alpha >= 0.999) break;
    }
    return bases.map((base) => layers.reduceRight((colour, layer) => over(layer, colour), base));
  };
  const luminance = (c) => {
    const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const hex = (c) => '#' + c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  let lowest = null;
  for (const e of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'OPTION', 'CANVAS', 'VIDEO', 'IMG'].includes(e.tagName) || !shown(e)) continue;
    const ownText = Array.from(e.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())
      || e.tagName === 'SELECT';
    if (!ownText || empty(visibleBox(e))) continue;
    const style = getComputedStyle(e);
    const colour = rgba(style.color);
    let ratio = Infinity, pair = '';
    for (const back of backgrounds(e)) {
      const fore = over([colour[0], colour[1], colour[2], colour[3] * opacityOf(e)], back);
      const [l1, l2] = [luminance(fore), luminance(back)].sort((x, y) => y - x);
      if ((l1 + 0.05) / (l2 + 0.05) < ratio) {
        ratio = (l1 + 0.05) / (l2 + 0.05);
        pair = describe(e) + ' ' + hex(fore) + ' on ' + hex(back) + ' ' + ratio.toFixed(2) + ':1';
      }
    }
    if (!lowest || ratio < lowest.ratio) lowest = { ratio, pair };
    if (ratio < minContrast - 0.005) failures.c.push(pair);
  }

  // (d) The prompter's text: no line runs past the box's text width (the export's) or is cut.
  // A probe line wider than any box (as another font would make one) is added for the
  // measurement and removed: it must wrap too, not run out of the box.
  const text = document.getElementById('prompter-text');
  let prompterWidth = 'none';
  if (text && shown(text)) {
    const edge = text.getBoundingClientRect().right + 0.5;
    const probe = document.createElement('div');
    probe.textContent = probeLine;
    text.appendChild(probe);
    const lineHeight = parseFloat(getComputedStyle(text).lineHeight);
    let rewrapped = 0;
    for (const line of text.children) {
      const range = document.createRange();
      range.selectNodeContents(line);
      const right = range.getBoundingClientRect().right;
      const what = line === probe ? 'a probe line wider than the box' : 'prompter line "' + line.textContent.slice(0, 16) + '…"';
      if (right > edge || line.scrollWidth > line.clientWidth) {
        failures.d.push(what + ' is cut: it ends ' + Math.round(right - edge) + ' px past the text\'s edge');
      }
      if (line !== probe && line.getBoundingClientRect().height > lineHeight * 1.5) rewrapped += 1;
    }
    if (text.scrollWidth > text.clientWidth) failures.d.push('the prompter text is cut: scrollWidth ' + text.scrollWidth + ' > clientWidth ' + text.clientWidth);
    probe.remove();
    prompterWidth = 'scrollWidth ' + text.scrollWidth + ' clientWidth ' + text.clientWidth + ', '
      + rewrapped + ' of the server\'s lines wrapped again';
  }

  // (e) The take strip: when it scrolls, a hint says how many more, and its edge fades.
  const strip = document.getElementById('takes');
  const overflowing = strip.scrollWidth > strip.clientWidth + 1;
  const hint = document.getElementById('takes-more');
  const hintText = hint && shown(hint) ? hint.textContent.trim() : '';
  if (overflowing) {
    if (!/\d+ more/.test(hintText)) failures.e.push('the strip scrolls (' + strip.scrollWidth + ' px in ' + strip.clientWidth + ') with no "N more" hint');
    const mask = getComputedStyle(strip).webkitMaskImage || getComputedStyle(strip).maskImage;
    if (!mask || mask === 'none') failures.e.push('the strip scrolls with no fade at its edge');
  }

  // (f) The filter menus: each option once.
  for (const id of ['filter', 'export-filter']) {
    const labels = Array.from(document.getElementById(id).options).map((o) => o.textContent.trim());
    const twice = labels.filter((l, i) => labels.indexOf(l) !== i);
    if (twice.length) failures.f.push('#' + id + ' lists ' + twice.join(', ') + ' more than once: ' + labels.join(', '));
  }

  return {
    failures, overlaps,
    smallestTarget: smallest ? smallest.what : 'none',
    lowestContrast: lowest ? lowest.pair : 'none',
    prompterWidth,
    strip: (overflowing ? 'scrolls' : 'fits') + (hintText ? ' (hint "' + hintText + '")' : ''),
  };
}
