#!/usr/bin/env bash
# The studio's server against strangers (issue 37 items 4, 9, 10), on the release binary:
#   flood  at `ulimit -n 1024`, while a take records: 1,100 idle connections without a token,
#          then the owner's GET /api/state (answered within 1 s), the idle ones closed by the
#          server (header timeout), the take complete (pictures and sound) and in takes.json
#   open   `--open` with a fake xdg-open on PATH: the token in no process's arguments (`ps`),
#          the browser given a 0600 page in a 0700 folder that leads to the tokened URL, removed
#          on exit; the wildcard address printed as the machine's
#   race   30 rounds of record and export POSTed at the same instant: never both started
source "$(dirname "$0")/lib.sh"
client="python3 $root/scripts/hostile/studio-client.py"

# start_studio NAME ARGS...: `vrender studio` in $work/NAME (its own shell: `ulimit` stays there);
# sets studio_pid, port, token, printed (the URL it printed). Extra environment: studio_env.
start_studio() {
  local name=$1; shift
  mkdir -p "$work/$name"
  out=$work/$name/out; err=$work/$name/err
  : >"$out"   # before the studio starts: studio_url reads it at once, maybe before the child opens it
  ( cd "$work/$name"; ${studio_limit:+ulimit -n "$studio_limit"}
    exec env ${studio_env:-} "$vrender" studio --device synthetic --out takes --port 0 --size 160x120 --codec h264 "$@" ) \
    >"$out" 2>"$err" &
  studio_pid=$!
  track "$studio_pid"
  printed=$(studio_url "$out" "$studio_pid")
  [ -n "$printed" ] || { echo "     the studio did not start:" >&2; sed 's/^/     | /' "$err" >&2; return 1; }
  # Taken apart in the shell: a helper process given the URL would show the token in `ps` for
  # as long as it takes to exit, which a loaded machine made long enough for the "open" check.
  port=${printed#http://*:}; port=${port%%/*}
  token=${printed#*token=}; [ "$token" != "$printed" ] || token=; token=${token%%&*}
  export STUDIO_TOKEN=$token
}
# stop_studio: Ctrl-C; sets status.
stop_studio() { kill -INT "$studio_pid" 2>/dev/null || true; status=0; wait "$studio_pid" || status=$?; }
studio() { $client "$port" "$@"; }
alive() { kill -0 "$studio_pid" 2>/dev/null || { echo "     the studio died; its last words:" >&2; tail -5 "$err" | sed 's/^/     | /' >&2; false; }; }
within() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)' "$1" "$2" || { echo "     $1 s > $2 s" >&2; false; }; }

# --- flood: 1,100 idle strangers at ulimit -n 1024 during a take -------------------------------
studio_limit=1024 start_studio flood --host 0.0.0.0 --audio synthetic || true
check "flood: the studio listens at ulimit -n 1024" test -n "$printed"
studio wait 's["camera"] is not None' 60 || true
check "flood: record is accepted" same "$(studio post record '{"record":true}')" 200
studio wait 's["recording"] and s["takeSeconds"] > 0.5' 30 || true
studio flood 1100 >"$work/flood.out" 2>&1 || true
sed 's/^/     | /' "$work/flood.out"
read -r _ owner_status owner_seconds < <(grep '^owner ' "$work/flood.out" || echo "owner none 99")
read -r _ closed closed_after < <(grep '^closed ' "$work/flood.out" || echo "closed 0 99")
check "flood: the studio survives 1,100 idle connections" alive
check "flood: the owner is answered" same "$owner_status" 200
check "flood: within 1 s" within "$owner_seconds" 1
check "flood: the server closed all 1,100 idle connections" same "$closed" 1100
check "flood: none later than the header timeout (10 s) and a margin" within "$closed_after" 15
check "flood: the take stops" same "$(studio post record '{"record":false}' 2>/dev/null)" 200
studio wait 'not s["recording"] and len(s["takes"]) == 1' 30 || true
stop_studio
check "flood: Ctrl-C exits 130" same "$status" 130
takes=$work/flood/takes
take=$(python3 -c 'import json, sys; print(" ".join(t["file"] for t in json.load(open(sys.argv[1]))["takes"]))' \
  "$takes/takes.json" 2>/dev/null || true)
check "flood: the take is listed in takes.json" test -n "$take" -a -f "$takes/${take:-none}"
streams() { ffprobe -v error -count_frames -show_entries stream=codec_type,nb_read_frames -of csv=p=0 "$takes/$take" | sort; }
frames=$(streams 2>/dev/null | sed -n 's/^video,//p' || true)
check "flood: the take has pictures ($frames)" test "${frames:-0}" -gt 10
check "flood: the take has sound" grep -q '^audio,[1-9]' <(streams 2>/dev/null)
check "flood: the take plays" test -z "$(ffmpeg -v error -i "$takes/$take" -f null - 2>&1)"

# --- open: the token stays out of the process list --------------------------------------------
mkdir -p "$work/bin"
cat >"$work/bin/xdg-open" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$work/xdg-open.args"
stat -c %a "\$1" >"$work/xdg-open.mode" 2>/dev/null
stat -c %a "\$(dirname "\$1")" >"$work/xdg-open.folder-mode" 2>/dev/null
cp "\$1" "$work/xdg-open.page" 2>/dev/null
sleep 60 &
echo \$\$ \$! >"$work/xdg-open.pids"
touch "$work/xdg-open.done"
wait
EOF
chmod 755 "$work/bin/xdg-open"
studio_env="PATH=$work/bin:$PATH" start_studio open --host 0.0.0.0 --audio none --open || true
for _ in $(seq 100); do [ -f "$work/xdg-open.done" ] && break; sleep 0.1; done
# Still running (as a browser would be) while `ps` is read: its arguments are in the list.
for pid in $(cat "$work/xdg-open.pids" 2>/dev/null); do track "$pid"; done
check "open: the browser was opened" test -f "$work/xdg-open.done"
no_token_in_ps() { ps -ww -eo args >"$work/ps.txt"; ! grep -F -- "$token" "$work/ps.txt"; }
check "open: no process shows the token (ps -eo args)" no_token_in_ps
handed=$(head -1 "$work/xdg-open.args" 2>/dev/null)
check "open: xdg-open got a file" test "${handed:0:1}" = /
check "open: the page is 0600" same "$(cat "$work/xdg-open.mode" 2>/dev/null)" 600
check "open: its folder is 0700" same "$(cat "$work/xdg-open.folder-mode" 2>/dev/null)" 700
check "open: the page leads to the tokened URL" grep -qF "url=http://127.0.0.1:$port/?token=$token\"" "$work/xdg-open.page"
check "open: the printed URL names the machine, not 0.0.0.0" test "${printed#http://0.0.0.0}" = "$printed"
stop_studio
check "open: Ctrl-C exits 130" same "$status" 130
check "open: the page is removed on exit" test ! -e "$handed" -a ! -e "$(dirname "${handed:-/nonexistent/x}")"
unset studio_env

# --- race: record and export asked for together ----------------------------------------------
start_studio race --audio none || true
studio wait 's["camera"] is not None' 60 || true
studio post record '{"record":true}' >/dev/null || true
studio wait 's["recording"] and s["takeSeconds"] > 0.6' 30 || true   # past the 0.5 s double press
studio post record '{"record":false}' >/dev/null || true
check "race: a first take is listed" studio wait 'not s["recording"] and len(s["takes"]) == 1' 30
studio race 30 >"$work/race.out" 2>&1 || true
sed 's/^/     | /' "$work/race.out"
read -r _ rounds _ both _ _ _ _ < <(grep '^rounds ' "$work/race.out" || echo "rounds 0 both 99 x x x x")
check "race: 30 rounds ran" same "$rounds" 30
check "race: never both a take and an export" same "$both" 0
check "race: the studio is still up" alive
stop_studio
check "race: Ctrl-C exits 130" same "$status" 130

finish
