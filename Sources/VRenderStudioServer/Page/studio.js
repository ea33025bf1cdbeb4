// vrender studio: the page. Plain JavaScript, no framework, nothing from the network.
// Everything shown comes from the server's state snapshots (so every open page agrees); every
// change is a POST; the WebSocket brings the snapshots and the preview pictures.
'use strict';

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------
// The token (a studio bound beyond loopback) rides on every request: a header on fetches, the
// query on URLs the browser loads by itself (<img>, <video>, the WebSocket).
const token = new URLSearchParams(location.search).get('token');

function withToken(url) {
  if (!token || !url) return url;
  return url + (url.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
}

function headers(json) {
  const h = {};
  if (json) h['Content-Type'] = 'application/json';
  if (token) h['X-VRender-Token'] = token;
  return h;
}

// A POST; a refusal ({"error": …}) or a failed request is shown to the user. Returns ok.
async function post(path, body) {
  try {
    const response = await fetch(path, { method: 'POST', headers: headers(true), body: JSON.stringify(body || {}) });
    if (response.ok) return true;
    let message = response.status + ' ' + response.statusText;
    try { message = (await response.json()).error || message; } catch (_) { /* not JSON: keep the status */ }
    toast(message, 'error');
  } catch (err) {
    toast(path + ': ' + err.message, 'error');
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// State: the newest snapshot wins; an older version (a snapshot overtaken on the way) is dropped.
let state = null;
let stateReceivedAt = 0;

function acceptState(next) {
  if (state && next.version < state.version) return;
  state = next;
  stateReceivedAt = performance.now();
  render();
}

function render() {
  renderTop();
  renderCamera();
  renderPrompter();
  renderTakes();
  renderExport();
  renderNotices();
}

function renderTop() {
  $('device').textContent = state.camera
    ? state.camera.name + ' · ' + state.camera.width + 'x' + state.camera.height + ' · ' + state.camera.position
    : state.device;
  const banner = $('error-banner');
  banner.hidden = !state.error;
  banner.textContent = state.error || '';
  $('timer').hidden = !state.recording;
  const record = $('record');
  record.classList.toggle('recording', state.recording);
  record.querySelector('.label').textContent = state.recording ? 'Stop' : 'Record';
  record.disabled = !!state.error && !state.recording;
  document.body.classList.toggle('recording', state.recording);
}

// The timer runs on locally between snapshots from the last takeSeconds.
function takeSecondsNow() {
  return state && state.recording ? state.takeSeconds + (performance.now() - stateReceivedAt) / 1000 : 0;
}
window.studioTakeSeconds = takeSecondsNow;

function tickTimer() {
  if (state && state.recording) {
    const seconds = takeSecondsNow();
    const m = Math.floor(seconds / 60), s = seconds - m * 60;
    $('timer').textContent = String(m).padStart(2, '0') + ':' + s.toFixed(1).padStart(4, '0');
  }
}

// ---------------------------------------------------------------------------------------------
// Preview: binary WebSocket messages, a 20-byte header (PreviewFrame in StudioBackend.swift) and
// a JPEG. A picture that arrives while another decodes is dropped (counted as skipped): the
// next one to arrive is newer than it would be by the time it had waited, so what shows stays
// as close to the camera as the browser's decoding allows.
const stats = { frames: 0, drawn: 0, skipped: 0, lastSequence: -1, latencyMs: [], width: 0, height: 0 };
window.studioStats = stats;
// The newest snapshot, for tests and the console (read-only use).
Object.defineProperty(window, 'studioState', { get: () => state });
let decoding = false;

function onPreview(buffer) {
  if (buffer.byteLength < 20) return;
  const view = new DataView(buffer);
  if (view.getUint32(0, false) !== 0x56525031) return; // "VRP1"
  stats.frames += 1;
  if (decoding) {
    stats.skipped += 1;
    return;
  }
  decodeAndDraw({
    captured: view.getFloat64(4, true),
    sequence: view.getUint32(12, true),
    width: view.getUint16(16, true),
    height: view.getUint16(18, true),
    jpeg: new Blob([new Uint8Array(buffer, 20)], { type: 'image/jpeg' }),
  });
}

async function decodeAndDraw(frame) {
  decoding = true;
  try {
    const bitmap = await createImageBitmap(frame.jpeg);
    const canvas = $('preview');
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      layoutPicture();
    }
    canvas.getContext('2d').drawImage(bitmap, 0, 0);
    bitmap.close();
    const latency = Date.now() - frame.captured;
    stats.latencyMs.push(latency);
    if (stats.latencyMs.length > 300) stats.latencyMs.shift();
    stats.drawn += 1;
    stats.lastSequence = frame.sequence;
    stats.width = frame.width;
    stats.height = frame.height;
    $('no-picture').hidden = true;
  } catch (_) {
    stats.skipped += 1; // a picture that does not decode is left out; the next one follows
  }
  decoding = false;
}

let socket = null;
let reconnectDelay = 500;

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  socket = new WebSocket(withToken(scheme + location.host + '/ws'));
  socket.binaryType = 'arraybuffer';
  socket.addEventListener('open', () => {
    reconnectDelay = 500;
    state = null; // a restarted server counts versions from 0 again
    setConnection(true);
  });
  socket.addEventListener('message', (event) => {
    if (typeof event.data === 'string') {
      const message = JSON.parse(event.data);
      if (message.type === 'state') acceptState(message.state);
    } else {
      onPreview(event.data);
    }
  });
  socket.addEventListener('close', () => {
    setConnection(false);
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 5000);
  });
}

function setConnection(up) {
  const label = $('connection');
  label.textContent = up ? 'live' : 'reconnecting…';
  label.classList.toggle('bad', !up);
}

// ---------------------------------------------------------------------------------------------
// The picture: as large as the stage allows at the camera's aspect ratio. The overlays (grid,
// prompter box, focus square) are placed in fractions of it, as the server measures them.
function layoutPicture() {
  const stage = $('stage');
  const canvas = $('preview');
  const aspect = canvas.width / canvas.height;
  const maxWidth = stage.clientWidth;
  const maxHeight = Math.max(200, window.innerHeight * 0.66);
  let width = maxWidth, height = width / aspect;
  if (height > maxHeight) { height = maxHeight; width = height * aspect; }
  const picture = $('picture');
  picture.style.width = Math.floor(width) + 'px';
  picture.style.height = Math.floor(height) + 'px';
  if (state) renderPrompter();
}

function pictureFraction(event) {
  const r = $('picture').getBoundingClientRect();
  return [clamp((event.clientX - r.left) / r.width, 0, 1), clamp((event.clientY - r.top) / r.height, 0, 1)];
}

function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }
function round3(v) { return Math.round(v * 1000) / 1000; }

// ---------------------------------------------------------------------------------------------
// Camera controls. Those the camera cannot drive (a webcam without lenses or a torch, or no
// camera at all) are disabled.
let zoomDragging = false;   // the slider is being moved: snapshots do not move it back meanwhile
let gestureZoom = null;     // a pinch or wheel in progress: its zoom, shown until it is sent

function renderCamera() {
  const cam = state.camera;
  const drivable = !!cam && cam.synthetic && !state.error;
  for (const id of ['lens-05', 'lens-1', 'lens-2', 'zoom', 'torch', 'flip']) $(id).disabled = !drivable;
  for (const b of document.querySelectorAll('#quick-zoom button')) {
    b.classList.toggle('on', !!cam && Number(b.dataset.lens) === cam.lens && Math.abs(cam.zoom - cam.lens) < 0.05);
  }
  $('torch').classList.toggle('on', !!cam && cam.torch > 0);
  const zoom = gestureZoom !== null ? gestureZoom : (cam ? cam.zoom : 1);
  if (!zoomDragging) $('zoom').value = Math.log2(zoom);
  $('zoom-value').textContent = zoom.toFixed(1) + 'x';

  $('st-lens').textContent = cam ? 'lens ' + cam.lens + 'x' : 'no camera';
  $('st-zoom').textContent = cam ? 'zoom ' + cam.zoom.toFixed(2) + 'x' : '';
  $('st-torch').textContent = cam ? (cam.torch > 0 ? 'torch ' + Math.round(cam.torch * 100) + '%' : 'torch off') : '';
  $('st-fps').textContent = state.fps.toFixed(1) + ' fps';
  const drops = $('st-drops');
  drops.textContent = state.dropped + ' dropped';
  drops.classList.toggle('warn', state.dropped > 0);
  const behind = $('st-behind');
  behind.textContent = 'behind ' + state.behindSeconds.toFixed(2) + ' s';
  behind.classList.toggle('warn', state.behindSeconds > 0.5);
  renderSound();

  const select = $('filter');
  fillFilters(select, state.filters, state.previewFilter);
}

// The meter: -60 dBFS empty, 0 full; red while clipping.
function renderSound() {
  const sound = state.sound;
  $('st-sound').hidden = !sound;
  if (!sound) return;
  const db = sound.peakDBFS;
  $('meter-bar').style.width = (db === null || db === undefined ? 0 : clamp((db + 60) / 60, 0, 1) * 100) + '%';
  $('meter').classList.toggle('clipping', sound.clipping);
  $('meter-db').textContent = (db === null || db === undefined ? 'silence' : db.toFixed(0) + ' dBFS')
    + (sound.missingMilliseconds > 0 ? ' · ' + sound.missingMilliseconds.toFixed(0) + ' ms missing' : '');
}

// The server's list names the plain picture "none"; the menus offer it once, as '' (no filter).
function filterValue(name) { return name === 'none' ? '' : name; }

function fillFilters(select, filters, chosen) {
  const names = [''].concat(filters.filter((f) => filterValue(f) !== ''));
  const current = Array.from(select.options).map((o) => o.value).join(',');
  if (current !== names.join(',')) {
    select.textContent = '';
    for (const name of names) {
      const option = document.createElement('option');
      option.value = name;
      option.textContent = name || 'none';
      select.appendChild(option);
    }
  }
  if (chosen !== undefined && document.activeElement !== select) select.value = filterValue(chosen);
}

function toggleRecording() {
  if (state) post('/api/record', { record: !state.recording });
}

function setupCameraControls() {
  $('record').addEventListener('click', toggleRecording);
  // The space bar records and stops, unless the user is typing or choosing in a form field.
  document.addEventListener('keydown', (event) => {
    if (event.code !== 'Space' || event.repeat) return;
    const tag = event.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || tag === 'VIDEO') return;
    event.preventDefault();
    toggleRecording();
  });
  // A focused button would also "click" on the space's keyup: that would be a second toggle.
  document.addEventListener('keyup', (event) => {
    if (event.code === 'Space' && event.target.tagName === 'BUTTON') event.preventDefault();
  });
  for (const b of document.querySelectorAll('#quick-zoom button')) {
    b.addEventListener('click', (event) => {
      event.stopPropagation();
      post('/api/camera', { lens: Number(b.dataset.lens) });
    });
  }
  const slider = $('zoom');
  slider.addEventListener('input', () => {
    zoomDragging = true;
    $('zoom-value').textContent = Math.pow(2, Number(slider.value)).toFixed(1) + 'x';
  });
  slider.addEventListener('change', () => {
    zoomDragging = false;
    post('/api/camera', { zoom: round3(Math.pow(2, Number(slider.value))) });
  });
  $('torch').addEventListener('click', () => {
    post('/api/camera', { torch: !(state && state.camera && state.camera.torch > 0) });
  });
  $('flip').addEventListener('click', () => post('/api/camera', { flip: true }));
  $('filter').addEventListener('change', () => post('/api/preview', { filter: $('filter').value }));
  const grid = $('grid');
  grid.hidden = localStorage.getItem('vrender.grid') !== 'on';
  $('grid-toggle').classList.toggle('on', !grid.hidden);
  $('grid-toggle').addEventListener('click', () => {
    grid.hidden = !grid.hidden;
    $('grid-toggle').classList.toggle('on', !grid.hidden);
    localStorage.setItem('vrender.grid', grid.hidden ? 'off' : 'on');
  });
  setupPictureGestures();
}

// On the picture: a click sets the exposure point; a wheel or a two-finger pinch zooms (sent
// when the gesture rests, the camera ramps to it). A press that moved is not a click.
function setupPictureGestures() {
  const picture = $('picture');
  const pointers = new Map();
  let pinchStart = null;
  let pressedAt = null;

  picture.addEventListener('pointerdown', (event) => {
    if (event.target.closest('#prompter-box, #quick-zoom')) return;
    picture.setPointerCapture(event.pointerId); // its release comes here even off the picture
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    pressedAt = pointers.size === 1 ? [event.clientX, event.clientY] : null;
    if (pointers.size === 2) pinchStart = { distance: pointerDistance(pointers), zoom: currentZoom() };
  });
  picture.addEventListener('pointermove', (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    if (pinchStart && pointers.size === 2) {
      showGestureZoom(pinchStart.zoom * pointerDistance(pointers) / pinchStart.distance);
    }
  });
  const release = (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    if (pinchStart && pointers.size < 2) { pinchStart = null; sendGestureZoom(); }
    if (pressedAt && event.type === 'pointerup' && pointers.size === 0) {
      const moved = Math.hypot(event.clientX - pressedAt[0], event.clientY - pressedAt[1]);
      if (moved < 6) exposeAt(event);
    }
    pressedAt = null;
  };
  picture.addEventListener('pointerup', release);
  picture.addEventListener('pointercancel', release);
  picture.addEventListener('lostpointercapture', release);
  let wheelTimer = null;
  picture.addEventListener('wheel', (event) => {
    if (!state || !state.camera || !state.camera.synthetic) return;
    event.preventDefault();
    showGestureZoom(currentZoom() * Math.pow(2, -event.deltaY / 400));
    clearTimeout(wheelTimer);
    wheelTimer = setTimeout(sendGestureZoom, 200);
  }, { passive: false });
}

function pointerDistance(pointers) {
  const [a, b] = Array.from(pointers.values());
  return Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1]));
}

function currentZoom() {
  if (gestureZoom !== null) return gestureZoom;
  return state && state.camera ? state.camera.zoom : 1;
}

function showGestureZoom(zoom) {
  gestureZoom = clamp(zoom, 0.5, 6);
  $('zoom').value = Math.log2(gestureZoom);
  $('zoom-value').textContent = gestureZoom.toFixed(1) + 'x';
}

function sendGestureZoom() {
  if (gestureZoom === null) return;
  const zoom = round3(gestureZoom);
  gestureZoom = null;
  post('/api/camera', { zoom });
}

function exposeAt(event) {
  if (!state || !state.camera || state.error) return;
  const [x, y] = pictureFraction(event);
  post('/api/camera', { exposurePoint: [round3(x), round3(y)] });
  const square = $('focus-square');
  square.style.left = (x * 100) + '%';
  square.style.top = (y * 100) + '%';
  square.hidden = false;
  square.classList.remove('pulse');
  void square.offsetWidth; // restart the animation
  square.classList.add('pulse');
  clearTimeout(exposeAt.timer);
  exposeAt.timer = setTimeout(() => { square.hidden = true; }, 1200);
}

// ---------------------------------------------------------------------------------------------
// Prompter: the box at prompter.box (fractions of the picture), drawn in points as the export
// draws it (PrompterGeometry: a point is 1/pointsAcrossShorterSide of the shorter side; 16-point
// padding and corners, a 24-point fade). Dragged by its body, resized by its corner; the box is
// sent when the pointer lets go, and shown where the user left it until the server answers.
const PROMPTER_PADDING = 16, PROMPTER_CORNER = 16, PROMPTER_FADE = 24;
const PROMPTER_MIN = [160, 116];
let localBox = null;        // the box while it is dragged or resized (and until the POST answers)
let prompterLinesKey = '';

function pxPerPoint() {
  const p = state.prompter;
  const picture = $('picture');
  return Math.min(picture.clientWidth, picture.clientHeight) / p.pointsAcrossShorterSide;
}

function renderPrompter() {
  const p = state && state.prompter;
  const box = $('prompter-box');
  box.hidden = !p;
  $('prompter-bar').hidden = !p;
  if (!p) return;
  const ppp = pxPerPoint();
  const [x, y, w, h] = localBox || p.box;
  box.style.left = (x * 100) + '%';
  box.style.top = (y * 100) + '%';
  box.style.width = (w * 100) + '%';
  box.style.height = (h * 100) + '%';
  box.style.borderRadius = (PROMPTER_CORNER * ppp) + 'px';
  const viewport = $('prompter-viewport');
  viewport.style.top = viewport.style.bottom = (PROMPTER_PADDING * ppp) + 'px';
  viewport.style.setProperty('--fade', (PROMPTER_FADE * ppp) + 'px');
  const text = $('prompter-text');
  text.style.left = text.style.right = (PROMPTER_PADDING * ppp) + 'px';  // the export's text width
  text.style.fontSize = (p.fontSize * ppp) + 'px';
  text.style.lineHeight = (p.lineHeight * ppp) + 'px';
  const key = p.lines.join('\n');
  if (key !== prompterLinesKey) {
    prompterLinesKey = key;
    text.textContent = '';
    for (const line of p.lines) {
      const div = document.createElement('div');
      div.textContent = line || '\u00a0';
      text.appendChild(div);
    }
  }
  $('prompter-state').textContent = p.state + ' · ' + p.percent + '% · ' + Math.round(p.speed) + ' pt/s';
  $('prompter-hold').textContent = p.state === 'held' ? 'go on' : 'hold';
  scrollPrompter();
}

// While scrolling the text moves on locally from the last snapshot's offset at its speed.
function scrollPrompter() {
  const p = state && state.prompter;
  if (!p) return;
  let offset = p.offset;
  if (p.state === 'scrolling') offset = Math.min(p.maxOffset, p.offset + p.speed * (Date.now() - p.sentAt) / 1000);
  $('prompter-text').style.transform = 'translateY(' + (-offset * pxPerPoint()) + 'px)';
}

function setupPrompter() {
  const box = $('prompter-box');
  for (const b of document.querySelectorAll('#prompter-bar button')) {
    b.addEventListener('click', () => post('/api/prompter', { command: b.dataset.command }));
  }
  let drag = null;
  box.addEventListener('pointerdown', (event) => {
    if (!state || !state.prompter || event.target.closest('button')) return;
    event.preventDefault();
    event.stopPropagation();
    const r = $('picture').getBoundingClientRect();
    drag = {
      resize: event.target.id === 'prompter-resize',
      start: [event.clientX, event.clientY],
      box: (localBox || state.prompter.box).slice(),
      size: [r.width, r.height],
    };
    box.setPointerCapture(event.pointerId);
    box.classList.add('moving');
  });
  box.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const dx = (event.clientX - drag.start[0]) / drag.size[0];
    const dy = (event.clientY - drag.start[1]) / drag.size[1];
    localBox = drag.resize ? resizedBox(drag.box, dx, dy, drag.size) : movedBox(drag.box, dx, dy);
    renderPrompter();
  });
  const release = async (event) => {
    if (!drag) return;
    drag = null;
    box.classList.remove('moving');
    if (box.hasPointerCapture(event.pointerId)) box.releasePointerCapture(event.pointerId);
    if (!localBox) return;
    const sent = localBox.map(round3);
    localBox = sent;
    await post('/api/prompter', { box: sent });
    if (localBox === sent) { localBox = null; renderPrompter(); }
  };
  box.addEventListener('pointerup', release);
  box.addEventListener('pointercancel', release);
}

function movedBox([x, y, w, h], dx, dy) {
  return [clamp(x + dx, 0, 1 - w), clamp(y + dy, 0, 1 - h), w, h];
}

// The corner follows the pointer; never smaller than the export's minimum, never past the picture.
function resizedBox([x, y, w, h], dx, dy, size) {
  const ppp = Math.min(size[0], size[1]) / state.prompter.pointsAcrossShorterSide;
  const minW = Math.min(1, PROMPTER_MIN[0] * ppp / size[0]);
  const minH = Math.min(1, PROMPTER_MIN[1] * ppp / size[1]);
  return [x, y, clamp(w + dx, minW, 1 - x), clamp(h + dy, minH, 1 - y)];
}

// ---------------------------------------------------------------------------------------------
// Takes: thumbnails in takes.json's order. The strip is rebuilt only when the takes change, so
// a thumbnail does not reload (or a drag break) at every snapshot.
let takesKey = '';
let gridKey = '';
let viewerFile = null;
let dragFile = null;

function renderTakes() {
  const takes = state.takes;
  $('takes-count').textContent = takes.length ? '(' + takes.length + ')' : '';
  $('next').hidden = takes.length === 0;
  // A proxy becoming ready changes only the viewer; thumbnails are not reloaded for it.
  const key = JSON.stringify(takes.map((t) => [t.number, t.file, t.duration, t.frames, t.dropped, t.hasSound,
    t.thumbnailURL, t.problem]));
  if (key !== takesKey) {
    takesKey = key;
    const list = $('takes');
    list.textContent = '';
    takes.forEach((take, index) => list.appendChild(takeItem(take, index, takes.length)));
    if (takes.length === 0) {
      const empty = document.createElement('li');
      empty.className = 'empty';
      empty.textContent = 'No takes yet: press Record (or the space bar).';
      list.appendChild(empty);
    }
  }
  renderTakesHint();
  const files = takes.map((t) => t.file).join('/');
  if (files !== gridKey) { gridKey = files; refreshFilterGrid(); }
  renderViewer();
}

// A strip wider than the page: its right edge fades and "N more →" (which scrolls it) counts the
// takes not wholly in view to the right.
function renderTakesHint() {
  const strip = $('takes');
  const right = strip.scrollLeft + strip.clientWidth + 1;
  const more = Array.from(strip.querySelectorAll('.take')).filter((li) => li.offsetLeft + li.offsetWidth > right).length;
  strip.classList.toggle('more-right', more > 0);
  const hint = $('takes-more');
  hint.hidden = more === 0;
  hint.textContent = more + ' more →';
}

function takeItem(take, index, count) {
  const li = document.createElement('li');
  li.className = 'take' + (take.problem ? ' has-problem' : '') + (take.file === viewerFile ? ' viewing' : '');
  li.dataset.file = take.file;
  li.draggable = true;
  const thumb = document.createElement('button');
  thumb.className = 'thumb';
  thumb.title = 'play take ' + take.number;
  if (take.thumbnailURL) {
    const img = document.createElement('img');
    img.src = withToken(take.thumbnailURL);
    img.alt = 'take ' + take.number;
    img.draggable = false;
    thumb.appendChild(img);
  }
  const number = document.createElement('span');
  number.className = 'number';
  number.textContent = take.number;
  const duration = document.createElement('span');
  duration.className = 'duration';
  duration.textContent = formatDuration(take.duration);
  thumb.append(number, duration);
  thumb.addEventListener('click', () => openViewer(take.file));
  li.appendChild(thumb);
  const info = document.createElement('div');
  info.className = 'info';
  info.textContent = take.frames + ' frames' + (take.dropped ? ', ' + take.dropped + ' dropped' : '')
    + (take.hasSound ? ', sound' : '');
  if (take.problem) {
    const problem = document.createElement('div');
    problem.className = 'problem';
    problem.textContent = '⚠ ' + take.problem;
    info.appendChild(problem);
  }
  li.appendChild(info);
  const tools = document.createElement('div');
  tools.className = 'tools';
  tools.append(
    toolButton('move-left', '←', 'earlier', index === 0, () => moveTake(take.file, index - 1)),
    toolButton('move-right', '→', 'later', index === count - 1, () => moveTake(take.file, index + 1)),
    toolButton('delete', '✕', 'delete take ' + take.number, false, () => deleteTake(take)));
  li.appendChild(tools);
  li.addEventListener('dragstart', (event) => {
    dragFile = take.file;
    event.dataTransfer.setData('text/plain', take.file);
    event.dataTransfer.effectAllowed = 'move';
    li.classList.add('dragging');
  });
  li.addEventListener('dragend', () => { dragFile = null; li.classList.remove('dragging'); });
  li.addEventListener('dragover', (event) => {
    if (dragFile && dragFile !== take.file) { event.preventDefault(); li.classList.add('drop-target'); }
  });
  li.addEventListener('dragleave', () => li.classList.remove('drop-target'));
  li.addEventListener('drop', (event) => {
    event.preventDefault();
    li.classList.remove('drop-target');
    if (dragFile && dragFile !== take.file) moveTake(dragFile, index);
  });
  return li;
}

function toolButton(cls, text, title, disabled, action) {
  const b = document.createElement('button');
  b.className = cls;
  b.textContent = text;
  b.title = title;
  b.disabled = disabled;
  b.addEventListener('click', (event) => { event.stopPropagation(); action(); });
  return b;
}

function formatDuration(seconds) {
  const m = Math.floor(seconds / 60), s = Math.round(seconds - m * 60);
  return m + ':' + String(s).padStart(2, '0');
}

// Every take, in the new order (the server writes it to takes.json).
function moveTake(file, to) {
  const files = state.takes.map((t) => t.file).filter((f) => f !== file);
  files.splice(clamp(to, 0, files.length), 0, file);
  post('/api/takes/order', { files });
}

function deleteTake(take) {
  if (!confirm('Delete take ' + take.number + ' (' + take.file + ')? Its file is removed.')) return;
  post('/api/takes/delete', { file: take.file });
}

// The viewer plays a take's browser-playable copy, once there is one.
function openViewer(file) {
  viewerFile = file;
  for (const li of document.querySelectorAll('.take')) li.classList.toggle('viewing', li.dataset.file === file);
  renderViewer();
  $('viewer').scrollIntoView({ block: 'nearest' });
}

function renderViewer() {
  const take = viewerFile && state.takes.find((t) => t.file === viewerFile);
  const video = $('take-video');
  if (!take) {
    viewerFile = null;
    $('viewer').hidden = true;
    if (video.getAttribute('src')) { video.pause(); video.removeAttribute('src'); video.load(); }
    return;
  }
  $('viewer').hidden = false;
  $('viewer-title').textContent = 'Take ' + take.number + ' · ' + formatDuration(take.duration);
  const ready = take.proxyState === 'ready' && take.proxyURL;
  const wait = $('viewer-wait');
  wait.hidden = ready;
  wait.textContent = take.proxyState === 'failed'
    ? 'No playable copy could be made of this take.' : 'making a playable copy…';
  video.hidden = !ready;
  if (ready) {
    const src = withToken(take.proxyURL);
    if (video.getAttribute('src') !== src) {
      video.src = src;
      setViewerCaptions(video, take);
      video.play().catch(() => {});
    }
  }
}

// Under the viewer: the take's captions from the prompter's script (/media/captions/TAKE.vtt,
// made by the studio on first request), the cue being said, as the video plays.
function setViewerCaptions(video, take) {
  for (const old of video.querySelectorAll('track')) old.remove();
  const line = $('viewer-captions');
  line.textContent = '';
  if (!state.prompter) return;
  const track = document.createElement('track');
  track.kind = 'captions';
  track.default = true;
  track.src = withToken('/media/captions/' + encodeURIComponent(take.file.replace(/\.[^.]*$/, '') + '.vtt'));
  video.appendChild(track);
  track.track.mode = 'hidden';   // shown under the picture, not over it
  track.track.addEventListener('cuechange', () => {
    line.textContent = Array.from(track.track.activeCues || []).map((cue) => cue.text).join('\n');
  });
}

function setupTakes() {
  $('viewer-close').addEventListener('click', () => { viewerFile = null; renderViewer(); });
  const strip = $('takes');
  strip.addEventListener('scroll', renderTakesHint, { passive: true });
  new ResizeObserver(renderTakesHint).observe(strip);
  $('takes-more').addEventListener('click', () => strip.scrollBy({ left: strip.clientWidth * 0.8, behavior: 'smooth' }));
}

// ---------------------------------------------------------------------------------------------
// Export ("Next"): the filter grid (every filter on the latest take, reloaded when the takes
// change), a filter, the prompter burned in or not (not unless asked: a video to publish rarely
// wants it), then progress and the finished video.
let gridVersion = 0;
let gridStale = true;

function refreshFilterGrid() {
  gridStale = true;
  if (!$('export-panel').hidden) loadFilterGrid();
}

function loadFilterGrid() {
  if (!gridStale) return;
  gridStale = false;
  gridVersion += 1;
  $('filter-grid').src = withToken('/api/filter-grid.png?v=' + gridVersion);
}

function openExport() {
  const panel = $('export-panel');
  panel.hidden = false;
  $('export-filter').value = filterValue(state.previewFilter);
  loadFilterGrid();
  panel.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

function renderExport() {
  fillFilters($('export-filter'), state.filters, undefined);
  const checkbox = $('export-prompter');
  checkbox.disabled = !state.prompter;
  $('export-prompter-label').classList.toggle('disabled', !state.prompter);
  // Captions and retakes are found with the prompter's script: without one there is nothing to align.
  for (const name of ['captions', 'retakes']) {
    $('export-' + name).disabled = !state.prompter;
    $('export-' + name + '-label').classList.toggle('disabled', !state.prompter);
  }
  const e = state.export;
  const running = !!e && e.state === 'running';
  if (running && $('export-panel').hidden) openExport(); // started on another page
  $('export-start').disabled = running || state.recording || state.takes.length === 0;
  $('export-cancel').hidden = !running;
  $('export-status').hidden = !e;
  $('export-done').hidden = !e || e.state !== 'done';
  if (!e) return;
  $('export-progress').value = e.fraction;
  $('export-fraction').textContent = Math.round(e.fraction * 100) + '%';
  $('export-eta').textContent = running && e.etaSeconds !== null && e.etaSeconds !== undefined
    ? 'about ' + formatDuration(e.etaSeconds) + ' left' : '';
  const message = $('export-message');
  message.textContent = e.state === 'running' ? 'exporting' + (e.filter ? ' with ' + e.filter : '') + '…'
    : e.state === 'done' ? (e.message || 'done') : e.state + (e.message ? ': ' + e.message : '');
  message.classList.toggle('error', e.state === 'failed');
  if (e.state === 'done' && e.url) {
    const video = $('export-video');
    const src = withToken(e.url);
    if (video.getAttribute('src') !== src) video.src = src;
    $('export-output').textContent = e.output || '';
  }
}

function setupExport() {
  $('next').addEventListener('click', openExport);
  $('export-start').addEventListener('click', () => {
    const script = !!state.prompter;
    post('/api/export', { filter: $('export-filter').value, prompter: $('export-prompter').checked && script,
                          captions: $('export-captions').checked && script, cutRetakes: $('export-retakes').checked && script });
  });
  $('export-cancel').addEventListener('click', () => post('/api/export/cancel', {}));
}

// ---------------------------------------------------------------------------------------------
// Messages: each notice once, as a toast and in the log; POST refusals as error toasts.
let lastNoticeId = -1;

// Notices older than the page go to the log only: a page opened late does not pop up twenty.
function renderNotices() {
  const first = lastNoticeId < 0;
  for (const notice of state.notices) {
    if (notice.id <= lastNoticeId) continue;
    lastNoticeId = notice.id;
    toast(notice.text, notice.level, first);
  }
  if (first) lastNoticeId = Math.max(lastNoticeId, 0);
}

function toast(text, level, logOnly) {
  const item = document.createElement('li');
  item.className = level === 'error' ? 'error' : 'info';
  item.textContent = new Date().toLocaleTimeString() + '  ' + text;
  $('notices').prepend(item);
  if (logOnly) return;
  const div = document.createElement('div');
  div.className = 'toast ' + item.className;
  div.textContent = text;
  $('toasts').appendChild(div);
  setTimeout(() => div.remove(), level === 'error' ? 8000 : 4000);
}

// ---------------------------------------------------------------------------------------------
function frameLoop() {
  tickTimer();
  scrollPrompter();
  requestAnimationFrame(frameLoop);
}

setupCameraControls();
setupPrompter();
setupTakes();
setupExport();
new ResizeObserver(layoutPicture).observe($('stage'));
window.addEventListener('resize', layoutPicture);
layoutPicture();
connect();
requestAnimationFrame(frameLoop);
