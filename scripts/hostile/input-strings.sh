#!/usr/bin/env bash
# Hostile input strings (issue 37, items 7, 8 and 11): names that FFmpeg would read as URLs (a
# concat list's http://, subfile and pipe: entries, each with a decoy local file of that name),
# ALSA device strings that define plugins (alsa:file:PATH, alsa:file:'|cmd', {…}), a --device
# that is no device, and the --audio-drift values that crashed capture. Each must end in the
# local file or a clear error (exit 1 or 2), never a request, a file written, a command run, a
# hang or a crash.
#
#   usage: scripts/hostile-attack-tests.sh input-strings   (env: VRENDER, KEEP as in lib.sh)
source "$(dirname "$0")/lib.sh"

ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
media=$work/media; mkdir -p "$media"
# The decoy (what the local name holds) and the other video differ in size: the output says which was read.
ff -f lavfi -i testsrc2=size=160x90:rate=30:duration=1 -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$media/local.mov"
ff -f lavfi -i testsrc2=size=320x240:rate=30:duration=1 -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$media/remote.mov"
size_of() { ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=s=x:p=0 "$1" 2>/dev/null || true; }

# vr DIR ARGS...: vrender in DIR, 30 s at most, standard input from $stdin (/dev/null unless set);
# sets rc and err (its standard error).
stdin=/dev/null
vr() {
  local dir=$1; shift
  rc=0
  (cd "$dir" && timeout -k 5 30 "$vrender" "$@" <"$stdin" >"$work/out.log" 2>"$work/err.log") || rc=$?
  err=$(cat "$work/err.log")
}
exported() { same "$rc" 0 && same "$(size_of "$1")" "$2"; }          # exported OUT SIZE
refused() { # refused STATUS TEXT...: that exit status and one error line holding every TEXT
  same "$rc" "$1" || { echo "     $err" >&2; return 1; }; shift
  [ "$(grep -c '^vrender: error:' <<<"$err")" = 1 ] || { echo "     $err" >&2; return 1; }
  local text
  for text in "$@"; do grep -qF -- "$text" <<<"$err" || { echo "     no '$text' in: $err" >&2; return 1; }; done
}

# --- Item 8: concat list entries that FFmpeg reads as URLs ---------------------------------------
mkdir "$work/www"; cp "$media/remote.mov" "$work/www/remote.mov"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$work/www" && exec python3 -m http.server --bind 127.0.0.1 "$port" 2>"$work/http.log" >/dev/null) &
track $!; disown $!
python3 - "$port" <<'EOF'   # ready when it accepts (a bare connection is not logged as a request)
import socket, sys, time
for _ in range(100):
    try: socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close(); break
    except OSError: time.sleep(0.1)
EOF
requests() { grep -c 'remote.mov' "$work/http.log" || true; }
url="http://127.0.0.1:$port/remote.mov"

c=$work/http-decoy; mkdir -p "$c/http:/127.0.0.1:$port"; cp "$media/local.mov" "$c/${url}"
printf "ffconcat version 1.0\nfile '%s'\n" "$url" >"$c/list.txt"
vr "$c" concat list.txt -o out.mov --progress none
check "http:// list entry with a local decoy: the decoy is exported" exported "$c/out.mov" 160x90
vr "$c" concat "$url" -o direct.mov --progress none
check "http:// argument with a local decoy: the decoy is exported" exported "$c/direct.mov" 160x90
c=$work/http-bare; mkdir "$c"; printf "file '%s'\n" "$url" >"$c/list.txt"
vr "$c" concat list.txt -o out.mov --progress none
check "http:// list entry without a decoy: no such file" refused 1 "$url" "no such file"
check "no HTTP request was made" same "$(requests)" 0

c=$work/subfile; mkdir "$c"; cp "$media/remote.mov" "$c/secret.mov"
name='subfile,,start,0,end,99999999,,:secret.mov'; cp "$media/local.mov" "$c/$name"
printf "file '%s'\n" "$name" >"$c/list.txt"
vr "$c" concat list.txt -o out.mov --progress none
check "subfile list entry with a decoy: the decoy, not secret.mov" exported "$c/out.mov" 160x90
printf "file 'subfile,,start,0,end,99999999,,:%s'\n" "$media/remote.mov" >"$c/other.txt"
vr "$c" concat other.txt -o other.mov --progress none
check "subfile entry naming another file: no such file" refused 1 "no such file"

# pipe:0 with a standard input that blocks: a FIFO this shell holds open and never writes.
mkfifo "$work/stdin.fifo"; exec 9<>"$work/stdin.fifo"; stdin=$work/stdin.fifo
c=$work/pipe; mkdir "$c"; cp "$media/local.mov" "$c/pipe:0"; printf "file 'pipe:0'\n" >"$c/list.txt"
vr "$c" concat list.txt -o out.mov --progress none
check "pipe:0 list entry with a decoy and a blocking stdin: the decoy, no hang" exported "$c/out.mov" 160x90
c=$work/pipe-bare; mkdir "$c"; printf "file 'pipe:0'\nfile 'pipe:9'\n" >"$c/list.txt"
vr "$c" concat list.txt -o out.mov --progress none
check "pipe:0 list entry without a decoy: no such file, no hang" refused 1 "pipe:0" "no such file"
stdin=/dev/null; exec 9<&-

# --- Item 11: ALSA device strings that define plugins ---------------------------------------------
for device in "file:$work/written" "file:'|touch $work/PWNED'" "{ type file file \"$work/written\" slave.pcm null }" \
              "tee:null,'$work/written',raw" "plug:'file:$work/written'"; do
  vr "$work" capture --device synthetic --realtime --audio "alsa:$device" --duration 300ms --out "$work/alsa-takes"
  check "capture --audio alsa:${device:0:12}…: refused naming --audio" refused 2 "--audio" "alsa:$device"
done
vr "$work" studio --device synthetic --port 0 --out "$work/alsa-takes" --audio "alsa:file:'|touch $work/PWNED'"
check "studio --audio alsa:file:'|cmd': refused before the server starts" refused 2 "--audio"
check "no file written, no command run, no takes folder" same "$(ls "$work" | grep -cE '^(written|PWNED|alsa-takes)$' || true)" 0

# --- --device: not a character device ----------------------------------------------------------
mkfifo "$work/video-fifo"; printf 'not a camera\n' >"$work/video-file"
for device in "$work/video-fifo" "$work/video-file"; do
  vr "$work" capture --device "$device" --duration 1s --out "$work/v4l2-takes" --audio none
  check "--device ${device##*/}: not a character device, no hang" refused 1 "not a character device"
done

# --- Item 7: the drifts that crashed capture (exit 132) -------------------------------------------
take_of() { python3 -c 'import json,sys; t=json.load(open(sys.argv[1]+"/takes.json"))["takes"]; print(sys.argv[1]+"/"+t[0]["file"] if len(t)==1 else "")' "$1" 2>/dev/null || true; }
plays() { # the take decodes without an error, with 4 s of sound
  local take=$1 audio
  [ -n "$take" ] && [ -z "$(ffmpeg -v error -i "$take" -f null - 2>&1)" ] || return 1
  audio=$(ffprobe -v error -select_streams a:0 -show_entries stream=duration -of csv=p=0 "$take")
  python3 -c 'import sys; sys.exit(0 if abs(float(sys.argv[1]) - 4) < 0.1 else 1)' "$audio"
}
for drift in 5 10 16 20; do
  vr "$work" capture --device synthetic --size 160x90 --audio synthetic --audio-drift "$drift" --duration 4s --out "$work/drift$drift"
  check "--audio-drift $drift: the take finishes (exit $rc) and plays with its sound" plays "$( [ "$rc" = 0 ] && take_of "$work/drift$drift")"
done

finish
