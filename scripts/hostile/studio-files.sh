#!/usr/bin/env bash
# The studio's folders under attack by a second local user who can write the takes folder (a
# shared folder, 0777): `vrender studio` records, copies and exports while that user swaps its
# proxies and exports folders for links, replaces a take by a link to a private video, reads a
# root-only file through /media/proxies/, and puts a FIFO where a thumbnail was. Nothing outside
# the studio's folders may be written or served, and the server, the take and Ctrl-C must work
# through all of it.
#
#   usage: scripts/hostile-attack-tests.sh studio-files   (env: VRENDER, KEEP)
source "$(dirname "$0")/lib.sh"

takes=$work/takes            # the shared takes folder
victim=$work/victim          # root's files, in a folder the attacker knows of
secret=$work/secret          # a root-only (0700) folder with a root-only file
private=$work/private        # root's private video (0700 folder, 0600 file)
mkdir -p "$takes" "$victim" "$secret" "$private"
chmod 0777 "$takes"
chmod 0700 "$secret" "$private"

# Root's private video, 352x288, as no take is.
"$vrender" capture --device synthetic:seed=9 --out "$private/rec" --takes 1 --duration 500ms --size 352x288 \
  --codec h264 --audio none >/dev/null 2>&1
mv "$private"/rec/*.mov "$private/private.mov"; rm -rf "$private/rec"; chmod 0600 "$private/private.mov"

log=$work/studio.log; err=$work/studio.err
: >"$log"   # before the studio starts: studio_url reads it at once, maybe before the child opens it
( cd "$work"; exec "$vrender" studio --device synthetic --out takes --port 0 --size 160x120 --codec h264 --audio none ) \
  >"$log" 2>"$err" &
studio=$!; track "$studio"
url=$(studio_url "$log" "$studio")

state() { curl -s --max-time "${1:-2}" "${url}api/state"; }
post() { curl -s -o /dev/null --max-time 5 -w '%{http_code}' -H 'Content-Type: application/json' -d "$2" "${url}$1" || true; }
# py EXPR: EXPR on the state `s` (printed); wait_for COND: polls until COND holds (up to 20 s).
py() { state | python3 -c "import json, sys; s = json.load(sys.stdin); print($1)" 2>/dev/null || true; }
# What a wait saw last, for CI's log: the take, each listed take's copy, the studio's last words.
seen="'state', s['recordingState'], round(s['takeSeconds'], 2), 'takes', [t['proxyState'] for t in s['takes']]"
wait_for() {
  local begun=$SECONDS deadline=$((SECONDS + 20))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if [ "$(py "bool($1)")" = True ]; then
      [ $((SECONDS - begun)) -lt 10 ] || echo "     slow ($((SECONDS - begun)) s): $1" >&2
      return 0
    fi
    sleep 0.2
  done
  echo "     never: $1" >&2
  echo "       it saw: $(py "$seen")" >&2
  tail -n 4 "$err" | sed 's/^/       studio: /' >&2
  false
}
take() { py "s['takes'][$1]['file']"; }          # take N: the file of take N (0-based)
stem() { local f; f=$(take "$1"); echo "${f%.*}"; }
settled() { echo "s['takes'][$1]['proxyState'] in ('ready', 'failed')"; }
# Ends take N-1 and starts take N at once: take N-1's copy then waits while take N records.
# Returns past 0.6 s into take N, so that the next stop is not a double press (ignored under
# 0.5 s: TakeScheduler.shortestStop). 'recording', not 'stopping': take N's own seconds.
next_take() {
  post api/record '{"record":false}' >/dev/null; post api/record '{"record":true}' >/dev/null
  wait_for "len(s['takes']) == $1 and s['recordingState'] == 'recording' and s['takeSeconds'] > 0.6"
}
# swap A B [N]: exchanges the names A and B (a folder and a link to elsewhere) atomically
# (renameat2 RENAME_EXCHANGE), N times (default: over and over until killed): A is the folder
# half the time, the link the other half, and never missing.
swap_py='import ctypes, itertools, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b = (os.fsencode(p) for p in sys.argv[1:3])
for _ in range(int(sys.argv[3])) if len(sys.argv) > 3 else itertools.count():
    if libc.renameat2(-100, a, -100, b, 2) != 0: sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
    time.sleep(0.003)'
swap() { python3 -c "$swap_py" "$@"; }
ffsize() { ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 "$1" 2>/dev/null || true; }

check "the studio listens" test -n "$url"
check "the camera opens" wait_for "s['camera'] is not None"

# --- 1. The proxies folder swapped for a link to another folder, after the studio checked it. ---
post api/record '{"record":true}' >/dev/null
wait_for "s['recording'] and s['takeSeconds'] > 0.6"
next_take 1
printf 'holiday video\n' >"$victim/$(stem 0).mp4"
as_other mv "$takes/proxies" "$takes/proxies.moved"
as_other ln -s "$victim" "$takes/proxies"
post api/record '{"record":false}' >/dev/null
wait_for "len(s['takes']) == 2 and $(settled 0) and $(settled 1)" || true
check "1. a file outside (victim/) is not overwritten through a proxies link" \
  grep -qx "holiday video" "$victim/$(stem 0).mp4"
check "1. nothing new outside" same "$(ls "$victim" | wc -l)" 1
echo "     victim/: $(ls "$victim" | tr '\n' ' ')"

# --- 1. A root-only file read by the second user through /media/proxies/. ---
printf 'TOP SECRET\n' >"$secret/$(stem 0).mp4"; chmod 0700 "$secret/$(stem 0).mp4"
as_other rm "$takes/proxies"
as_other ln -s "$secret" "$takes/proxies"
as_other curl -s --max-time 5 "${url}media/proxies/$(stem 0).mp4" >"$work/got" || true
check "1. a 0700 root-only file is not served through a proxies link" bash -c "! grep -q 'TOP SECRET' '$work/got'"
as_other rm "$takes/proxies"; as_other mv "$takes/proxies.moved" "$takes/proxies"

# --- 2. A listed take replaced by a link to a private video before its copy is made. ---
post api/record '{"record":true}' >/dev/null
wait_for "s['recording'] and s['takeSeconds'] > 0.6"
next_take 3
check "2. (set-up) take 3's copy waits while take 4 records" test "$(py "s['takes'][2]['proxyState']")" != ready
third=$(take 2)
as_other mv "$takes/$third" "$takes/$third.kept"
as_other ln -s "$private/private.mov" "$takes/$third"
post api/record '{"record":false}' >/dev/null
copy=$takes/proxies/${third%.*}.mp4
for ((i = 0; i < 75; i++)); do
  [ -n "$(ffsize "$copy")" ] || [ "$(py "s['takes'][2]['proxyState']")" = failed ] && break; sleep 0.2
done
echo "     take 3's copy: $(ffsize "$copy" | tr , x) $(stat -c %A "$copy" 2>/dev/null || echo none)"
check "2. no playable copy of the private video" test "$(ffsize "$copy")" != "352,288"
unreadable() { ! as_other cat "$1" >/dev/null 2>&1; }
check "2. the second user cannot read one" unreadable "$copy"
check "2. the take's copy failed, naming the link" grep -q "$third: is a symbolic link" "$err"
as_other rm "$takes/$third"; as_other mv "$takes/$third.kept" "$takes/$third"
# The listing refused the link meanwhile: reordering (to the same order) lists the takes again.
post api/takes/order "$(python3 -c "import json; print(json.dumps({'files': [t['file'] for t in json.load(open('$takes/takes.json'))['takes']]}))")" >/dev/null

# --- 1. Exports while a loop swaps the exports folder and a link to victim/. ---
export_once() { # export_once: asks for an export and waits for its end; prints its state
  [ "$(post api/export '{"filter":""}')" = 200 ] || { echo refused; return; }
  wait_for "s['export']['state'] != 'running'" >/dev/null 2>&1 || true
  py "s['export']['state']"
}
wait_for "not s['recording'] and len(s['takes']) == 4" || true
same "$(export_once)" done || echo "     the first export: $(py "s['export']")" >&2
as_other ln -s "$victim" "$takes/exports.link"
# In a process group of its own (setsid), so that killing the group ends the swapper itself,
# not only the runuser in front of it.
export -f as_other sudo_if_needed; export other_user swap_py
setsid bash -c 'as_other python3 -c "$swap_py" "$1" "$2"' swapper "$takes/exports" "$takes/exports.link" \
  2>"$work/swapper.err" &
swapper=$!; track "$swapper"
done_count=0
export_seconds=
for n in 1 2 3 4 5; do
  begun=$SECONDS
  [ "$(export_once)" = done ] && done_count=$((done_count + 1))
  export_seconds+="$((SECONDS - begun))s "
done
# The swapper runs until killed: a group already gone means the attack stopped early.
swapper_ran() { kill -TERM -- "-$swapper" 2>/dev/null || { sed 's/^/     swapper: /' "$work/swapper.err" >&2; false; }; }
check "1. (set-up) the swapper ran through every export" swapper_ran
wait "$swapper" 2>/dev/null || true
if [ -L "$takes/exports" ]; then swap "$takes/exports" "$takes/exports.link" 1; fi
outside=$(find "$victim" -name 'export-*' | wc -l)
echo "     exports: $done_count of 5 done ($export_seconds), $outside outside"
check "1. no export is written outside through an exports link" same "$outside" 0
check "1. every export is made" same "$done_count" 5

# --- 3. A FIFO where a listed thumbnail was, fetched twice while a take records. ---
post api/record '{"record":true}' >/dev/null
wait_for "s['recording'] and s['takeSeconds'] > 0.6"
thumb=$(py "s['takes'][0]['thumbnailURL'].rsplit('/', 1)[1]")
as_other rm "$takes/$thumb"
as_other mkfifo -m 0644 "$takes/$thumb"
codes=
for n in 1 2; do codes+=$(as_other curl -s -o /dev/null -w '%{http_code} ' --max-time 3 "${url}media/thumbnails/$thumb" || true); done
check "3. the FIFO is refused at once, twice (403)" same "$codes" "403 403 "
start=$(date +%s%N)
answer=$(state 1 | head -c 1 || true)
check "3. the server answers /api/state within 1 s" same "$answer" "{"
echo "     /api/state: $((($(date +%s%N) - start) / 1000000)) ms"
check "3. the take stops" same "$(post api/record '{"record":false}')" 200
wait_for "len(s['takes']) == 5 and not s['recording']" || true
start=$(date +%s%N)
kill -INT "$studio"
for ((i = 0; i < 100; i++)); do kill -0 "$studio" 2>/dev/null || break; sleep 0.1; done
stopped_ms=$((($(date +%s%N) - start) / 1000000))
kill -0 "$studio" 2>/dev/null && kill -KILL "$studio"
status=0; wait "$studio" || status=$?
echo "     Ctrl-C: exit $status after $stopped_ms ms"
check "3. Ctrl-C exits (130) within 10 s" same "$status" 130
fifth=$(python3 -c "import json; t = json.load(open('$takes/takes.json'))['takes']; print(t[4]['file'] if len(t) > 4 else '')" || true)
check "3. the take is finished and listed" test -n "$fifth" -a -n "$(ffsize "$takes/$fifth")"
finish
