#!/usr/bin/env bash
# The takes folder's lock (DIR/.vrender.lock) under attack, issue 37 items 5 and 6:
#  - another user who can read the folder holds the lock (`flock -s`) while takes record, from
#    `vrender capture` and from the studio: no take is lost, each is listed when the lock frees
#    and the user is told; the lock file is 0600 (an old 0644 one is tightened);
#  - the studio's /api/state answers while two deletes wait for the lock;
#  - a capture that made the folder and fails on a full disk (a small tmpfs) while another process
#    holds the lock leaves the lock file, the same inode, still held by that process alone.
#
#   env: HOLD  seconds the lock is held during a take [12] (more than the 10 s a command used to
#              wait; HOLD=60 for the issue's acceptance run)
#        ONLY  the scenarios to run (function names below), default all
source "$(dirname "$0")/lib.sh"
hold=${HOLD:-12}
lock=.vrender.lock

# A takes folder whose lock file an older vrender left world-readable, as the attack found it.
old_folder() { mkdir -p "$1"; install -m 0644 /dev/null "$1/$lock"; }
mode() { stat -c %a "$1"; }
inode() { stat -c %i "$1"; }
# hold_lock FILE SECONDS [as_other]: holds a shared lock in a process group of its own (its id in
# $holder; release_lock ends it), and returns once it is held.
holders=()
hold_lock() {
  local runner=()
  if [ "${3:-}" = as_other ]; then
    runner=(runuser -u "$other_user" --)
    [ "$(id -u)" = 0 ] || runner=(sudo -n "${runner[@]}")
  fi
  setsid "${runner[@]}" flock -s "$1" sleep "$2" &
  holder=$!; holders+=("$holder")
  local tries
  for ((tries = 0; tries < 100; tries++)); do
    flock -x -n "$1" true 2>/dev/null || return 0
    sleep 0.05
  done
  echo "     the lock was never held" >&2; false
}
# Waits for the whole group: runuser's flock child may outlive runuser by a moment, and its
# open lock file keeps the small tmpfs busy (umount failed on a loaded machine).
release_lock() {
  kill -KILL -- "-$holder" 2>/dev/null || true; wait "$holder" 2>/dev/null || true
  local tries
  for ((tries = 0; tries < 100; tries++)); do kill -0 -- "-$holder" 2>/dev/null || return 0; sleep 0.05; done
  echo "     the lock holder's group outlived SIGKILL by 5 s" >&2
}
release_all() { local pid; for pid in "${holders[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done; }
trap 'release_all; umount "$work/small" 2>/dev/null || true; cleanup' EXIT
other_cannot_lock() { ! as_other flock -s -n "$1" true 2>/dev/null; }
seconds_since() { python3 -c "import time, sys; print(int(time.time() - float(sys.argv[1])))" "$1"; }
listed() { python3 -c "import json, sys; print(len(json.load(open(sys.argv[1]))['takes']))" "$1/takes.json" 2>/dev/null || echo 0; }
movies() { find "$1" -maxdepth 1 -name 'segment_*.mov' | wc -l; }
wait_for_text() { # wait_for_text FILE TEXT PID: until TEXT is in FILE, or PID ends (20 s at most)
  local tries
  for ((tries = 0; tries < 200; tries++)); do
    grep -q "$2" "$1" && return 0
    kill -0 "$3" 2>/dev/null || { grep -q "$2" "$1"; return; }
    sleep 0.1
  done
  false
}

# --- another user cannot open the lock ---------------------------------------------------------
lock_is_private() {
  local dir=$work/private/takes
  "$vrender" capture --device synthetic --out "$dir" --duration 0.2s --size 160x120 --codec h264 --audio none \
    >/dev/null 2>&1
  check "a new lock file is 0600" same "$(mode "$dir/$lock")" 600
  check "another user cannot lock it" other_cannot_lock "$dir/$lock"
}

# --- vrender capture while another user holds the lock ------------------------------------------
capture_while_locked() {
  local dir=$work/capture/takes err=$work/capture.err started status=0
  old_folder "$dir"
  local before; before=$(inode "$dir/$lock")
  hold_lock "$dir/$lock" "$hold" as_other
  started=$(date +%s.%N)
  "$vrender" capture --device synthetic --out "$dir" --duration 1s --size 160x120 --codec h264 --audio none \
    >/dev/null 2>"$err" || status=$?
  local took; took=$(seconds_since "$started")
  echo "     capture with the lock held ${hold} s: exit $status after ${took} s, $(movies "$dir") take file(s), $(listed "$dir") listed"
  check "capture: exits 0 once the lock frees" same "$status" 0
  check "capture: the take is kept and listed" same "$(movies "$dir") $(listed "$dir")" "1 1"
  check "capture: the user is told it is kept" grep -q "is complete and kept, but $dir is in use by another process" "$err"
  check "capture: and that it waits, and how to stop waiting" grep -q "Ctrl-C) leaves it for 'vrender takes recover $dir'" "$err"
  check "capture: and when it is listed" grep -q "listed in takes.json after waiting" "$err"
  check "capture: the old 0644 lock file is 0600, the same file" same "$(mode "$dir/$lock") $(inode "$dir/$lock")" "600 $before"
}

# Ctrl-C while the end waits: the take stays, named with the command that lists it.
capture_gives_up() {
  local dir=$work/give-up/takes err=$work/give-up.err status=0
  old_folder "$dir"
  hold_lock "$dir/$lock" 60 as_other
  "$vrender" capture --device synthetic --out "$dir" --duration 0.5s --size 160x120 --codec h264 --audio none \
    >/dev/null 2>"$err" &
  local pid=$!; track "$pid"
  wait_for_text "$err" "waiting for the lock of" "$pid" && kill -INT "$pid"
  wait "$pid" || status=$?
  release_lock
  local take; take=$(basename "$(find "$dir" -maxdepth 1 -name 'segment_*.mov' | head -1)")
  check "capture, Ctrl-C while waiting: exits 1" same "$status" 1
  check "capture, Ctrl-C while waiting: names the take and takes recover" \
    grep -q "does not list $take, complete and kept on disk.*'vrender takes recover $dir' lists it" "$err"
  "$vrender" takes recover "$dir" >/dev/null 2>&1 || true
  check "capture, Ctrl-C while waiting: takes recover lists it" same "$(listed "$dir")" 1
}

# --- the studio while another user holds the lock -----------------------------------------------
studio_state() { curl -s --max-time 5 "${studio_url}api/state"; }
studio_post() { # studio_post PATH JSON: prints the HTTP status
  curl -s -o /dev/null --max-time 20 -w '%{http_code}' -H 'Content-Type: application/json' -d "$2" "${studio_url}$1"
}
studio_wait() { # studio_wait PYTHON-CONDITION-ON-s [SECONDS]: polls the state
  local tries limit=$((${2:-30} * 5))
  for ((tries = 0; tries < limit; tries++)); do
    studio_state | python3 -c "import json, sys; s = json.load(sys.stdin); sys.exit(0 if ($1) else 1)" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "     the studio never reached: $1" >&2; false
}
noticed() { printf 'any(%s in n["text"] for n in s["notices"])' "$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$1")"; }
studio_while_locked() {
  local dir=$work/studio/takes out=$work/studio.out err=$work/studio.err status=0 tries
  old_folder "$dir"
  : >"$out"
  "$vrender" studio --device synthetic --out "$dir" --port 0 --size 160x120 --codec h264 --audio none >"$out" 2>"$err" &
  local studio=$!; track "$studio"
  studio_url=
  for ((tries = 0; tries < 150; tries++)); do
    studio_url=$(sed -n 's/^studio: \(http:[^ ]*\)$/\1/p' "$out"); [ -n "$studio_url" ] && break; sleep 0.2
  done
  check "studio: listens" test -n "$studio_url"
  studio_wait 's["camera"] is not None' || true
  # Taken while the old file is still 0644: the studio opens the lock only when a take starts.
  hold_lock "$dir/$lock" "$hold" as_other
  local held_at; held_at=$(date +%s.%N)
  check "studio: record is accepted" same "$(studio_post api/record '{"record":true}')" 200
  studio_wait 's["recording"] and s["takeSeconds"] > 1' || true
  studio_post api/record '{"record":false}' >/dev/null
  check "studio: the take is kept and the page told" studio_wait "$(noticed "is complete and kept")"
  check "studio: the camera stays open" studio_wait 's.get("error") is None and s["camera"] is not None'
  check "studio: the take is listed when the lock frees" studio_wait 'len(s["takes"]) == 1' $((hold + 10))
  echo "     studio with the lock held ${hold} s: listed $(seconds_since "$held_at") s after the lock was taken"
  check "studio: and the page told" studio_wait "$(noticed "listed in takes.json after waiting")"

  # Two deletes wait for the lock (held by another process now) while the page reads its state.
  local file; file=$(studio_state | python3 -c 'import json, sys; print(json.load(sys.stdin)["takes"][0]["file"])') || file=none
  hold_lock "$dir/$lock" 30
  local body="{\"file\":\"$file\"}"
  local delete=(curl -s -o /dev/null --max-time 20 -w '%{http_code} %{time_total}' -H 'Content-Type: application/json'
                -d "$body" "${studio_url}api/takes/delete")
  "${delete[@]}" >"$work/delete1" & local d1=$!
  "${delete[@]}" >"$work/delete2" & local d2=$!
  sleep 0.05   # the deletes are in (each waits for the lock 0.2 s now, 10 s before)
  local state_time; state_time=$(curl -s -o /dev/null --max-time 20 -w '%{time_total}' "${studio_url}api/state")
  wait "$d1" "$d2" || true
  release_lock
  local answers; answers="$(cat "$work/delete1") $(cat "$work/delete2")"
  echo "     /api/state beside two waiting deletes: ${state_time} s; the deletes answered (status, s): $answers"
  check "studio: /api/state answers within 1 s beside two waiting deletes" \
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 1 else 1)" "$state_time"
  check "studio: the deletes are refused as busy within 1 s" python3 -c "import sys
a = sys.argv[1].split(); sys.exit(0 if a[0::2] == ['409', '409'] and max(map(float, a[1::2])) < 1 else 1)" "$answers"
  kill -INT "$studio"; wait "$studio" || status=$?
  check "studio: Ctrl-C exits 130" same "$status" 130
  check "studio: the take is still listed" same "$(movies "$dir") $(listed "$dir")" "1 1"
}

# --- a full disk's undo and the lock -------------------------------------------------------------
enospc_undo_keeps_the_lock() {
  local small=$work/small err=$work/enospc.err status=0
  mkdir -p "$small"
  mount -t tmpfs -o size=600k tmpfs "$small" || { check "enospc: a small tmpfs (needs root)" false; return; }
  local dir=$small/takes
  "$vrender" capture --device synthetic --realtime --out "$dir" --duration 30s --size 640x480 --codec h264 --audio none \
    >/dev/null 2>"$err" &
  local pid=$! tries; track "$pid"
  for ((tries = 0; tries < 100; tries++)); do [ -e "$dir/$lock" ] && break; sleep 0.05; done
  hold_lock "$dir/$lock" 60
  local held; held=$(inode "$dir/$lock")
  # On a full disk the capture fails; the new one first waits to list what it kept: Ctrl-C.
  wait_for_text "$err" "waiting for the lock of" "$pid" && kill -INT "$pid"
  wait "$pid" || status=$?
  check "enospc: the capture fails on the full disk" grep -q "No space left on device" "$err"
  check "enospc: the lock file stays" test -e "$dir/$lock"
  check "enospc: the same file the other process holds" same "$(inode "$dir/$lock" 2>/dev/null)" "$held"
  check "enospc: no second writer can lock it beside the holder" bash -c "! flock -x -n '$dir/$lock' true"
  release_lock
  umount "$small" || { holders_of "$small"; false; }
}
holders_of() { # holders_of DIR: the processes with a file under DIR open (why umount was busy)
  local fd pid
  for fd in /proc/[0-9]*/fd/* /proc/[0-9]*/cwd; do
    pid=${fd#/proc/}; pid=${pid%%/*}
    case $(readlink "$fd" 2>/dev/null || true) in
      "$1" | "$1"/*) echo "     open under $1: pid $pid $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)" >&2 ;;
    esac
  done
}

for scenario in ${ONLY:-lock_is_private capture_while_locked capture_gives_up studio_while_locked enospc_undo_keeps_the_lock}; do
  "$scenario"
done
finish
