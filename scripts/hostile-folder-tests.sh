#!/usr/bin/env bash
# Hostile folders: vrender writes and deletes only what it created, inside the folder it was given,
# whatever someone planted there. Each scenario builds a sandbox:
#
#     outside/        decoys: files, a folder, a dangling link (nothing here may change)
#     takes/ ...      the folders vrender is given, with symbolic links planted at every name it
#                     may create (temporaries, thumbnails, chunks, logs, heat maps, takes.json),
#                     pointing at the decoys, at names not yet made in outside/, or at outside/
#
# then runs one command and checks that nothing in the sandbox but the folders vrender was given
# changed (names, kinds, modes, sizes, link targets, sha256, mtimes: `snapshot`), and that vrender
# succeeded or failed with a clear error (exit 1 or 2 and a message), never a crash (exit >= 128).
# Temporaries carry the writer's pid (`.NAME.<pid>-<n>.vrender-partial`): `run_planted` starts
# vrender held at a gate, plants the names for its real pid, then lets it run.
#
#   usage: scripts/hostile-folder-tests.sh
#   env:   VRENDER  vrender binary  [.build/release/vrender]
#          KEEP=1   keep the sandboxes (their path is printed)
# Prints "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
source scripts/studio-url.sh
vrender=${VRENDER:-.build/release/vrender}
case $vrender in /*) ;; *) vrender=$root/$vrender ;; esac
[ -x "$vrender" ] || { echo "hostile-folder-tests: no vrender binary at $vrender (make release, or set VRENDER)" >&2; exit 2; }

work=$(mktemp -d /tmp/vrh.XXXXXX)
capture_pid=; gated_pid=   # what a failed run of this script may leave running
cleanup() {
  local pid
  for pid in $capture_pid $gated_pid; do kill -KILL "$pid" 2>/dev/null || true; done
  if [ "${KEEP:-0}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
mkdir "$work/log"
passed=0; failed=0; runs=0
check() { # check NAME COMMAND...: one verdict line
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}

# --- Sandboxes ---------------------------------------------------------------------------------

# sandbox NAME GIVEN...: a fresh $sb with decoys in outside/; GIVEN are the folders (relative to $sb)
# vrender is given, which are made empty and left out of the snapshot.
sandbox() {
  sb=$work/$1; shift
  given=("$@")
  mkdir -p "$sb/outside/dir"
  printf 'ssh-ed25519 AAAAC3Nz decoy@outside\n' >"$sb/outside/authorized_keys"
  printf 'root:x:0:0:decoy:/root:/bin/bash\n' >"$sb/outside/passwd"
  printf '{"takes": []}\n' >"$sb/outside/takes.json"
  head -c 4096 /dev/urandom >"$sb/outside/decoy.mov"
  printf 'inside the decoy folder\n' >"$sb/outside/dir/keep.txt"
  printf 'not a heat map\n' >"$sb/outside/dir/x.png"
  ln -s /nonexistent/vrender-decoy "$sb/outside/dangling"
  local folder
  for folder in "${given[@]}"; do mkdir -p "$sb/$folder"; done
  # An old mtime on everything, so that any write shows as a new one.
  find "$sb/outside" -exec touch -h -d @1577836800 {} +
}

# snapshot: everything in $sb except what is in the given folders (theirs is vrender's to change;
# that they are still there is listed), as a text a diff compares: names, kinds, modes, sizes,
# link targets, mtimes, then contents.
snapshot() {
  local prune=() listed=() folder
  for folder in "${given[@]}"; do
    prune+=(-path "./$folder" -prune -o)
    listed+=(-path "./$folder" -prune -printf '%p %y (a given folder)\n' -o)
  done
  ( cd "$sb"
    find . "${listed[@]}" -printf '%p %y %m %s %T@ -> %l\n' | LC_ALL=C sort
    find . "${prune[@]}" -print0 | LC_ALL=C sort -z | xargs -0r stat -c '%n %Y.%y'
    find . "${prune[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum )
}

# link TARGET NAME...: queues symbolic links NAME -> TARGET (names relative to $sb); plant_queued
# makes them all in one process (a range of pids times five serials is thousands of links, and a
# process per link would take minutes on a busy machine). plant TARGET NAME...: at once.
links=$work/log/links
: >"$links"
link() { local target=$1 name; shift; for name in "$@"; do printf '%s\t%s\n' "$target" "$name" >>"$links"; done; }
plant_queued() {
  (cd "$sb" && python3 -c 'import os, sys
for line in open(sys.argv[1]):
    target, name = line.rstrip("\n").split("\t")
    if not os.path.lexists(name): os.symlink(target, name)' "$links")
  : >"$links"
}
plant() { link "$@"; plant_queued; }

# link_temporaries TARGET DIR NAME FIRST_PID LAST_PID: queues links at the old AtomicFile names of
# NAME in DIR for those pids, serials 1..5 (a process numbers its temporaries from 1).
link_temporaries() {
  local target=$1 dir=$2 name=$3 pid n
  for ((pid = $4; pid <= $5; pid++)); do
    for n in 1 2 3 4 5; do printf '%s\t%s\n' "$target" "$dir/.$name.$pid-$n.vrender-partial" >>"$links"; done
  done
}

# run_planted STEP PLANT ARGS...: runs vrender ARGS in $sb with its pid known before it starts:
# it waits at a gate while `PLANT PID` plants the names of that pid's temporaries. Sets $status,
# $out and $err (its output, in $work/log/). The snapshot is taken before planting (planting touches only
# the given folders) and compared after, so every command gets the same two verdicts.
run_planted() {
  local step=$1 plant_for=$2; shift 2
  runs=$((runs + 1))
  local gate=$work/log/$runs.gate before=$work/log/$runs.before
  out=$work/log/$runs.out; err=$work/log/$runs.err
  snapshot >"$before"
  mkfifo "$gate"
  ( cd "$sb"; read -r _ <"$gate"; exec "$vrender" "$@" ) >"$out" 2>"$err" &
  local pid=$!
  gated_pid=$pid
  "$plant_for" "$pid"
  plant_queued
  echo go >"$gate"
  status=0; wait "$pid" || status=$?
  gated_pid=
  rm -f "$gate"
  check "$step: exit $status is success or a clear error" clean_exit
  check "$step: nothing outside ${given[*]} changed" unchanged "$before"
}
run() { local step=$1; shift; run_planted "$step" plant_nothing "$@"; }
plant_nothing() { :; }

clean_exit() {
  case $status in
    0) return 0 ;;
    1|2) grep -q '^vrender: error: ' "$err" && return 0
         grep -q '^recover: ' "$out" && return 0 ;;   # takes recover: exit 1 with its report
  esac
  echo "     exit $status; stderr:" >&2; sed 's/^/     | /' "$err" | tail -15 >&2; false
}

unchanged() {
  local after=$work/log/after
  snapshot >"$after"
  diff "$1" "$after" >"$after.diff" && return 0
  sed 's/^/     | /' "$after.diff" | head -20 >&2; false
}

same() { [ "$1" = "$2" ] || { echo "     '$1' != '$2'" >&2; false; }; }
# hashes DIR: sha256 of the files directly in DIR, by name.
hashes() { [ -d "$1" ] || { echo "(the folder is gone)"; return; }; (cd "$1" && find . -maxdepth 1 -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum); }
plays() { [ -f "$1" ] && [ -z "$(ffmpeg -v error -i "$1" -f null - 2>&1)" ]; }
survived() { # survived STATUS FILE: a command that succeeded left FILE whole
  [ "$1" != 0 ] || plays "$2" || { echo "     exit 0 but $2 is missing or does not play" >&2; false; }
}

# --- Takes to work on (made once, copied into each sandbox) --------------------------------------

base=$work/base
mkdir -p "$base"
# Two finished takes of different pictures (seed 1, seed 2), and a folder whose second take was
# killed mid-take (SIGKILL): fragmented, no trailer, not in takes.json.
"$vrender" capture --device synthetic --out "$base/takes" --duration 1s --size 160x120 --codec h264 2>/dev/null >/dev/null
"$vrender" capture --device synthetic:seed=2 --out "$base/takes" --duration 1s --size 160x120 --codec h264 2>/dev/null >/dev/null
take1=$(cd "$base/takes" && ls segment_0001_*.mov); take2=$(cd "$base/takes" && ls segment_0002_*.mov)
"$vrender" capture --device synthetic --out "$base/killed" --duration 1s --size 160x120 --codec h264 2>/dev/null >/dev/null
"$vrender" capture --device synthetic --out "$base/killed" --duration 60s --realtime --size 160x120 --codec h264 \
  2>"$work/log/killed.err" >/dev/null &
capture_pid=$!
# The take is worth recovering once a few fragments (a quarter second each) are on disk.
big_enough() { [ "$(find "$base/killed" -name 'segment_0002_*.mov' -size +12k | wc -l)" = 1 ]; }
for _ in $(seq 300); do big_enough && break; kill -0 "$capture_pid" 2>/dev/null || break; sleep 0.1; done
kill -KILL "$capture_pid" 2>/dev/null || true
wait "$capture_pid" 2>/dev/null || true
capture_pid=
big_enough || { echo "hostile-folder-tests: the killed capture never wrote its take" >&2; cat "$work/log/killed.err" >&2; exit 1; }
finished=$(cd "$base/killed" && ls segment_0001_*.mov)
killed=$(cd "$base/killed" && ls segment_0002_*.mov); killed_stem=${killed%.mov}

# copy_takes FROM TO: a takes folder from base into the sandbox.
copy_takes() { rm -rf "${sb:?}/$2"; cp -a "$base/$1" "$sb/$2"; }

# edit_manifest DIR PYTHON: rewrites DIR/takes.json; PYTHON edits `takes` (a list of entries).
edit_manifest() {
  python3 - "$sb/$1/takes.json" "$2" <<'PY'
import json, sys
path, code = sys.argv[1], sys.argv[2]
manifest = json.load(open(path))
takes = manifest["takes"]
exec(code)
json.dump(manifest, open(path, "w"), indent=2)
PY
}

# --- Capture -------------------------------------------------------------------------------------

# A capture into a folder someone prepared: takes.json is a link to a file outside, the
# temporaries of the next takes.json are links to decoys, subfolders lead outside. (Take and
# thumbnail names carry a fresh UUID, so only their folder can be planted; their temporaries are
# planted in the recover scenarios, where the names are known.)
plant_capture() {
  link_temporaries ../outside/authorized_keys takes takes.json "$1" "$1"
  link ../outside/takes.json takes/takes.json
  link ../outside takes/sub
  link ../outside/dir takes/dir
}
capture_into_planted_folder() {
  sandbox capture takes
  run_planted "capture into a planted folder" plant_capture \
    capture --device synthetic --out takes --takes 2 --duration 500ms --size 160x120 --codec h264
}

# The same, with takes.json a dangling link into outside/: writing it must not create the file there.
plant_capture_dangling() {
  link ../outside/takes-made-outside.json takes/takes.json
  link_temporaries ../outside/made-outside takes takes.json "$1" "$1"
}
capture_with_dangling_manifest() {
  sandbox capture-dangling takes
  run_planted "capture, takes.json a dangling link out" plant_capture_dangling \
    capture --device synthetic --out takes --duration 500ms --size 160x120 --codec h264
}

# --- takes recover -------------------------------------------------------------------------------

# The unfinished take is copied beside a temporary for it (the salvage's copy), its thumbnail, the
# rebuilt takes.json and a kept-aside damaged one: every one of those names is planted, and the
# missing thumbnail is a dangling link into outside/ (making it must not write there).
plant_recover() {
  link_temporaries ../outside/decoy.mov takes "$killed" "$1" "$1"
  link_temporaries ../outside/authorized_keys takes "$killed_stem.png" "$1" "$1"
  link_temporaries ../outside/passwd takes takes.json "$1" "$1"
  # takes.json.damaged-<UTC second>: the kept-aside copy of a damaged takes.json, for the next
  # minute; when that name is taken, recover adds "-2".
  local t name
  for ((t = EPOCHSECONDS - 1; t <= EPOCHSECONDS + 60; t++)); do
    TZ=UTC printf -v name 'takes.json.damaged-%(%Y%m%dT%H%M%SZ)T' "$t"
    link ../outside/authorized_keys "takes/$name"
    link ../outside/damaged-made-outside "takes/$name-2"
    link_temporaries ../outside/passwd takes "$name" "$1" "$1"
    link_temporaries ../outside/passwd takes "$name-2" "$1" "$1"
  done
}
recover_killed_take() {
  sandbox recover takes
  copy_takes killed takes
  rm -f "$sb/takes/$killed_stem.png"
  plant ../outside/thumbnail-made-outside.png "takes/$killed_stem.png"
  plant ../outside takes/sub
  run_planted "recover a killed take, names planted" plant_recover takes recover takes
}
recover_damaged_manifest() {
  sandbox recover-damaged takes
  copy_takes killed takes
  printf '{"takes": [ {"file": "seg' >"$sb/takes/takes.json"
  run_planted "recover with a damaged takes.json, names planted" plant_recover takes recover takes
}

# A takes.json from someone else whose thumbnail leads out through a linked subfolder: to a file
# that exists (recover must not read or replace it) and to one that does not (recover makes
# missing thumbnails: never there).
recover_thumbnail_through_link() {
  local thumb
  for thumb in sub/authorized_keys sub/thumbnail-made-outside.png; do
    sandbox "recover-thumb-${thumb//\//-}" takes
    copy_takes killed takes
    plant ../outside takes/sub
    edit_manifest takes "takes[0]['thumbnail'] = '$thumb'"
    run "recover, a thumbnail '$thumb' (sub -> outside)" takes recover takes
  done
}

# Entries that name something other than a take file in the folder.
recover_entries_leading_out() {
  local entry name i=0
  # ABSOLUTE: the decoy's own absolute path, standing for /etc/passwd (this may run as root).
  for entry in ../outside/decoy.mov ABSOLUTE . "./$finished" sub/decoy.mov sub/made-outside.mov; do
    i=$((i + 1))
    sandbox "recover-entry-$i" takes
    copy_takes killed takes                  # a finished take, listed, and the killed one, not
    plant ../outside takes/sub
    name=${entry/#ABSOLUTE/$sb/outside/passwd}
    edit_manifest takes "takes.append(dict(takes[0], file='$name', thumbnail=None))"
    run "recover, an entry '$entry'" takes recover takes
  done
}

# --- takes rm ------------------------------------------------------------------------------------

# Entries reaching outside through links: a linked subfolder to a file, to a dangling link
# (realpath cannot resolve it, yet unlink would remove it), a take that is itself a link out, a
# thumbnail in a linked folder. Both the hostile entry and the real take are removed.
takes_rm_through_links() {
  local entry i=0
  for entry in "file='sub/authorized_keys'" "file='sub/dangling'" "file='link.mov'" \
               "thumbnail='dir/x.png'" "thumbnail='sub/dir'" "file='.'"; do
    i=$((i + 1))
    sandbox "rm-$i" takes
    copy_takes takes takes
    plant ../outside takes/sub
    plant ../outside/dir takes/dir
    plant ../outside/decoy.mov takes/link.mov
    edit_manifest takes "takes[1].update(dict($entry))"
    run "takes rm, an entry $entry" takes rm takes 1 2
  done
}

# --- concat --------------------------------------------------------------------------------------

# The export's temporary in the output's folder, planted: links to a decoy and dangling links out.
plant_export() {
  link_temporaries ../outside/decoy.mov pl out.mov "$1" "$1"
  link_temporaries ../outside/made-outside.mov pl out.mov $(($1 + 1)) $(($1 + 20))
}
concat_planted_output() {
  sandbox concat pl
  copy_takes takes takes
  run_planted "concat -o pl/out.mov, temporaries planted" plant_export concat takes -o pl/out.mov --progress none
  check "concat -o pl/out.mov: the export plays" survived "$status" "$sb/pl/out.mov"
  sandbox concat-link pl
  copy_takes takes takes
  plant ../outside/decoy.mov pl/out.mov
  run_planted "concat --overwrite onto a link out, temporaries planted" plant_export \
    concat takes -o pl/out.mov --overwrite --progress none
}

chunked=(--codec ffv1 --engine local --chunks 2 --workers 2 --progress none)

# A work folder that is not vrender's alone: an unrelated file in it must survive the clean-up.
concat_work_dir_with_a_file() {
  sandbox wd-file wd out
  copy_takes takes takes
  printf 'my notes\n' >"$sb/wd/notes.txt"
  run "chunked export, --work-dir holding an unrelated file" concat takes -o out/x.mkv --work-dir wd "${chunked[@]}"
  check "chunked export: the unrelated file in the work folder survives" same "$(cat "$sb/wd/notes.txt" 2>&1)" "my notes"
  check "chunked export: the export plays" survived "$status" "$sb/out/x.mkv"
}

# The work folder is the takes folder: an export never modifies (or removes) its takes.
concat_work_dir_is_takes() {
  sandbox wd-takes takes out
  copy_takes takes takes
  local before; before=$(hashes "$sb/takes")
  run "chunked export, --work-dir the takes folder" concat takes -o out/x.mkv --work-dir takes "${chunked[@]}"
  check "chunked export into the takes folder: every take and takes.json unchanged" same "$(hashes "$sb/takes")" "$before"
}

# The work folder's subfolders lead outside: no chunk, log, done record or job list may land there,
# and cleaning up must not empty them. (No plan.json: one there stops a run without --resume.)
concat_work_dir_links_out() {
  sandbox wd-links wd out
  copy_takes takes takes
  plant ../outside wd/chunks
  plant ../outside/dir wd/logs
  plant ../outside/dir wd/done
  plant ../outside wd/slurm
  run "chunked export, wd/chunks, logs, done, slurm linked out" concat takes -o out/x.mkv --work-dir wd "${chunked[@]}"
}

# Every name the chunked export creates in a real work folder, planted: the plan and the join's
# summary (this process), chunks, the sound, done records (the workers: pids just after this one)
# and logs.
plant_work_folder() {
  local k last=$(($1 + 120))
  mkdir -p "$sb/wd/chunks" "$sb/wd/done" "$sb/wd/logs" "$sb/wd/slurm"
  link_temporaries ../outside/passwd wd plan.json "$1" "$1"
  link_temporaries ../outside/passwd wd joined.json "$1" "$last"
  for k in 0 1; do
    link_temporaries ../../outside/decoy.mov wd/chunks "chunk_000$k.mov" "$1" "$last"
    link_temporaries ../../outside/decoy.mov wd/chunks "chunk_000$k.mkv" "$1" "$last"
    link_temporaries ../../outside/authorized_keys wd/done "chunk_000$k.json" "$1" "$last"
    link ../../outside/authorized_keys "wd/logs/chunk_000$k.try1.log" "wd/logs/chunk_000$k.try2.log"
  done
  # The sound's job (its own file, done record and logs beside the chunks').
  link_temporaries ../../outside/decoy.mov wd/chunks sound.mp4 "$1" "$last"
  link_temporaries ../../outside/decoy.mov wd/chunks sound.mka "$1" "$last"
  link_temporaries ../../outside/authorized_keys wd/done sound.json "$1" "$last"
  link ../../outside/authorized_keys wd/logs/sound.try1.log wd/logs/sound.try2.log
}
concat_work_dir_planted() {
  sandbox wd-planted wd out
  copy_takes takes takes
  run_planted "chunked export, every work-folder name planted" plant_work_folder \
    concat takes -o out/x.mkv --work-dir wd "${chunked[@]}"
}

# The output inside the work folder: cleaning up the work folder must not take the export with it.
concat_output_in_work_dir() {
  sandbox wd-output wd
  copy_takes takes takes
  run "chunked export, -o inside --work-dir" concat takes -o wd/out.mkv --work-dir wd "${chunked[@]}"
  check "chunked export -o wd/out.mkv: the export survives the clean-up" survived "$status" "$sb/wd/out.mkv"
}

# --- golden --------------------------------------------------------------------------------------

# The golden's files (frames.txt, frame-N.png references, diff-N.png heat maps) and their
# temporaries, planted: links to decoys for every frame of the 30-frame take.
plant_golden() {
  local f name
  link_temporaries ../outside/passwd g frames.txt "$1" "$1"
  for ((f = 0; f < 30; f++)); do
    printf -v name '%06d' "$f"
    link_temporaries ../outside/authorized_keys g "frame-$name.png" "$1" "$1"
    link_temporaries ../outside/decoy.mov g "diff-$name.png" "$1" "$1"
  done
}
golden_commands() {
  sandbox golden g
  copy_takes takes takes
  plant ../outside/dir/x.png g/frame-000007.png    # a stale reference: record removes it (the link only)
  plant ../outside g/sub
  run_planted "golden record, names planted" plant_golden golden record "takes/$take1" --golden g
  plant ../outside/dir/x.png g/diff-000015.png     # a heat map of an earlier failure, a link out
  run_planted "golden check (fails, heat maps), names planted" plant_golden golden check "takes/$take2" --golden g
  plant ../outside/dir/x.png g/diff-000003.png
  run_planted "golden check (passes, removes heat maps), names planted" plant_golden golden check "takes/$take1" --golden g
}

# --- takes thumbs --------------------------------------------------------------------------------

plant_sheet() {
  link_temporaries ../outside/authorized_keys sheets sheet.png "$1" "$1"
}
takes_thumbs_planted() {
  sandbox thumbs sheets
  copy_takes takes takes
  run_planted "takes thumbs -o sheets/sheet.png, temporaries planted" plant_sheet takes thumbs takes -o sheets/sheet.png
}

# --- studio --------------------------------------------------------------------------------------

# `vrender studio` makes takes/proxies/ and takes/exports/: both planted as links out. It records a
# take through its page's API (curl), is asked for an export, then stopped with Ctrl-C: the links
# are refused (said on the terminal and the page), the take is kept, nothing outside changes.
studio_state() { curl -s --max-time 5 "${studio_url}api/state"; }
studio_post() { # studio_post PATH JSON: prints the HTTP status
  curl -s -o /dev/null --max-time 5 -w '%{http_code}' -H 'Content-Type: application/json' -d "$2" "${studio_url}$1"
}
studio_wait() { # studio_wait PYTHON-CONDITION-ON-s: polls the state (up to 60 s)
  local tries
  for ((tries = 0; tries < 300; tries++)); do
    studio_state | python3 -c "import json, sys; s = json.load(sys.stdin); sys.exit(0 if ($1) else 1)" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "     the studio never reached: $1" >&2; false
}
studio_through_links() {
  sandbox studio takes
  plant ../outside/dir takes/proxies
  plant ../outside takes/exports
  runs=$((runs + 1))
  local before=$work/log/$runs.before
  out=$work/log/$runs.out; err=$work/log/$runs.err
  snapshot >"$before"
  : >"$out"   # before the studio starts: studio_url reads it at once, maybe before the child opens it
  ( cd "$sb"; exec "$vrender" studio --device synthetic --out takes --port 0 --size 160x120 --codec h264 --audio none ) \
    >"$out" 2>"$err" &
  capture_pid=$!
  studio_url=$(studio_url "$out" "$capture_pid")
  check "studio: listens" test -n "$studio_url"
  check "studio: records a take" studio_wait 's["camera"] is not None'
  check "studio: record is accepted" same "$(studio_post api/record '{"record":true}')" 200
  studio_wait 's["recording"] and s["takeSeconds"] > 0.5' || true
  studio_post api/record '{"record":false}' >/dev/null
  check "studio: the take is listed" studio_wait 'len(s["takes"]) == 1'
  check "studio: an export into a linked exports folder is refused" same "$(studio_post api/export '{"filter":"mono"}')" 409
  kill -INT "$capture_pid"
  status=0; wait "$capture_pid" || status=$?
  capture_pid=
  check "studio: Ctrl-C exits 130" same "$status" 130
  check "studio: the proxies link is named" grep -q 'takes/proxies: is a symbolic link' "$err"
  check "studio: nothing outside takes changed" unchanged "$before"
}

for scenario in capture_into_planted_folder capture_with_dangling_manifest \
                recover_killed_take recover_damaged_manifest recover_thumbnail_through_link recover_entries_leading_out \
                takes_rm_through_links \
                concat_planted_output concat_work_dir_with_a_file concat_work_dir_is_takes concat_work_dir_links_out \
                concat_work_dir_planted concat_output_in_work_dir \
                golden_commands takes_thumbs_planted studio_through_links; do
  echo "-- $scenario (${SECONDS}s)"
  "$scenario"
done

echo "hostile-folder-tests: $passed passed, $failed failed (${SECONDS}s)"
[ "$failed" -eq 0 ]
