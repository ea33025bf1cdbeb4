#!/usr/bin/env bash
# The loop closed: `vrender camera --v4l2-out` feeds a V4L2 output device inside the qemu VM of
# run-vivid.sh while `vrender capture --codec ffv1` and `ffmpeg -f v4l2` record the matching
# capture device; what they recorded is judged on the host against the camera's frames as a pipe
# gives them (scripts/loop_judge.py: every frame after the first the camera sent equals one of
# its frames exactly, in order; repeats and skips counted, since a reader takes the frame current
# at its own clock).
#
#   usage: scripts/vivid-loop-tests.sh [--install]
#   env:   VRENDER       vrender binary     [.build/release/vrender]
#          VIVID_SCRIPT  run-vivid.sh       [../shared/tools/vivid/run-vivid.sh]
#          TIMEOUT       qemu limit (s)     [300]
#
# Two loops in one boot:
# - vivid's own: its output node (/dev/video1) on output 1 (HDMI) with the capture node's DV
#   timings (640x480p59.94, input 3), and on the capture node loop_video=1 and osd_text_mode=2
#   (else vivid draws its text over the looped picture); the writer negotiates YU12, which
#   capture prefers too (vivid loops only equal fourccs and sizes);
# - v4l2loopback, built for the VM's kernel by scripts/v4l2loopback-module.sh (--install lets it
#   apt-get install the kernel headers) and insmod-ed from the host's path as /dev/video10.
# vivid's output is fed by mmap streaming (it refuses write()), v4l2loopback by write() (its
# mmap output hands the writer back the buffer readers are copying: see V4L2Output).
# Also in the guest: a capture node given as output, and a second writer on a busy output node,
# must each fail naming the device.
# Prints "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
vivid=${VIVID_SCRIPT:-../shared/tools/vivid/run-vivid.sh}
vrender=${VRENDER:-.build/release/vrender}
case $vivid in /*) ;; *) vivid=$root/$vivid ;; esac
case $vrender in /*) ;; *) vrender=$root/$vrender ;; esac
install=; [ "${1:-}" = --install ] && install=--install
[ -x "$vivid" ] || { echo "vivid-loop-tests: no run-vivid.sh at $vivid (set VIVID_SCRIPT)" >&2; exit 2; }
[ -x "$vrender" ] || { echo "vivid-loop-tests: no vrender binary at $vrender (make release, or set VRENDER)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/vrender-loop.XXXXXX")
trap '[ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT
passed=0; failed=0
check() { # check NAME COMMAND...: one verdict line
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
rc_is() { [ "$(cat "$work/$1.rc" 2>/dev/null)" = "$2" ]; }
says() { grep -q -- "$2" "$work/$1" 2>/dev/null || { echo "     $1: $(head -3 "$work/$1" 2>/dev/null)"; return 1; }; }

# The camera every reader is judged against: seed 3, 640x480 at 30 fps, with a script that moves
# the picture (lens, zoom ramp, torch), as long as qemu may run (the writers in the guest run
# until they are stopped, however slow a busy host makes the readers).
cat > "$work/moves.actions" <<'EOF'
at 2s lens 0.5
at 4s zoom 3 ramp 2
at 8s torch on
at 12s lens 2
EOF
camera=(camera --device synthetic:seed=3 --size 640x480 --fps 30 --script "$work/moves.actions")
"$vrender" "${camera[@]}" --duration "${TIMEOUT:-300}s" -o - 2>/dev/null | ffmpeg -v error -i - -f framemd5 -y "$work/reference.md5"

# The loopback module, when it can be built for the VM's kernel (the VM boots once first so that
# run-vivid.sh has fetched that kernel).
MODULES= TIMEOUT=120 "$vivid" --out "$work" -- true > "$work/first-boot.log" 2>&1 || true
module=; module_note=
if module=$(scripts/v4l2loopback-module.sh $install 2> "$work/module.log" | tail -1); then
  [ -s "$module" ] || { module_note="v4l2loopback-module.sh printed no module"; module=; }
else
  module_note="v4l2loopback was not built ($(tail -1 "$work/module.log")): only vivid's loop is tried"; module=
fi

# feed DEVICE NAME [OPTION...]: starts the writer in the background (its pid in $feed), waits until
# it has negotiated (its report line), as the guest's shell.
guest=$(cat <<EOF
set -u
feed() {
  device=\$1 name=\$2; shift 2
  '$vrender' ${camera[*]} --v4l2-out \$device "\$@" > "$work/\$name-camera.out" 2> "$work/\$name-camera.err" & feed=\$!
  i=0; until grep -q 'v4l2 output' "$work/\$name-camera.err" || [ \$i -ge 300 ]; do sleep 0.1; i=\$((i+1)); done
}
stop_feed() { kill -INT \$feed; wait \$feed; echo \$? > "$work/\$1-camera.rc"; }
# vivid: the output node joins the capture node's HDMI timings (run-vivid.sh set input 3 and them)
dv=\$(v4l2-ctl -d /dev/video1 --list-dv-timings | awk '/Index:/{i=\$2} /Active width/{w=\$3} /Active height/{h=\$3}
  /Pixelclock/{if (w "x" h == "640x480" && int(substr(\$4,2)+0.5) == 60) {print i; exit}}')
v4l2-ctl -d /dev/video1 --set-output 1 && v4l2-ctl -d /dev/video1 --set-dv-bt-timings index=\$dv
v4l2-ctl -d /dev/video0 --set-ctrl loop_video=1,osd_text_mode=2
feed /dev/video1 vivid
'$vrender' camera --v4l2-out /dev/video1 --duration 1s > /dev/null 2> '$work/busy.err'; echo \$? > '$work/busy.rc'
'$vrender' camera --v4l2-out /dev/video0 --duration 1s > /dev/null 2> '$work/wrong-kind.err'; echo \$? > '$work/wrong-kind.rc'
'$vrender' capture --device /dev/video0 --codec ffv1 --audio none --fps 60 --size 640x480 --duration 4s --out '$work/vivid-capture' \
  > '$work/vivid-capture.out' 2>&1; echo \$? > '$work/vivid-capture.rc'
ffmpeg -nostdin -v error -f v4l2 -input_format yuv420p -video_size 640x480 -i /dev/video0 -frames:v 180 \
  -f framemd5 -y '$work/vivid-ffmpeg.md5' 2> '$work/vivid-ffmpeg.err'; echo \$? > '$work/vivid-ffmpeg.rc'
stop_feed vivid
if [ -n '$module' ]; then
  insmod '$module' video_nr=10 card_label=vrender exclusive_caps=1 max_buffers=8 2> '$work/insmod.err'; echo \$? > '$work/insmod.rc'
  feed /dev/video10 loopback
  # exclusive_caps=1: readers see a camera once the writer has set its format and streams
  i=0; until [ -n "\$(cat /sys/class/video4linux/video10/format 2>/dev/null)" ] || [ \$i -ge 100 ]; do sleep 0.1; i=\$((i+1)); done
  '$vrender' capture --device /dev/video10 --codec ffv1 --audio none --duration 4s --out '$work/loopback-capture' \
    > '$work/loopback-capture.out' 2>&1; echo \$? > '$work/loopback-capture.rc'
  ffmpeg -nostdin -v error -f v4l2 -i /dev/video10 -frames:v 90 -fps_mode passthrough \
    -f framemd5 -y '$work/loopback-ffmpeg.md5' 2> '$work/loopback-ffmpeg.err'; echo \$? > '$work/loopback-ffmpeg.rc'
  stop_feed loopback
fi
true
EOF
)
status=0
MODULES= TIMEOUT=${TIMEOUT:-300} "$vivid" --input 3 --dv 640x480p60 --out "$work" -- sh -c "$guest" > "$work/loop.log" 2>&1 || status=$?
[ "$status" = 0 ] || { echo "---- run-vivid.sh exited $status; last lines:"; tail -20 "$work/loop.log" | sed 's/^/     /'; }
check "qemu boot and guest commands (exit $status)" [ "$status" = 0 ]

# take_md5 FOLDER: the framemd5 of the folder's one take.
take_md5() {
  local file
  file=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["takes"][0]["file"])' "$1/takes.json" 2>/dev/null) || return 1
  ffmpeg -v error -i "$1/$file" -map 0:v -f framemd5 -y "$2"
}
# judged NAME MD5 MIN: the loop judge's verdict, its summary shown.
judged() {
  python3 scripts/loop_judge.py "$work/reference.md5" "$2" --min-distinct "$3" | sed "s/^/     $1: /"
  return "${PIPESTATUS[0]}"
}

loop_checks() { # loop_checks NAME DEVICE IO: one loop's verdicts
  local name=$1 device=$2 io=$3
  check "$name: the writer says what it negotiated (YU12 640x480, $io)" \
    says "$name-camera.err" "v4l2 output $device .*YU12 640x480 by $io"
  check "$name: the writer ended by Ctrl-C as asked (exit 130)" rc_is "$name-camera" 130
  check "$name: vrender capture recorded it (exit 0)" rc_is "$name-capture" 0
  if take_md5 "$work/$name-capture" "$work/$name-capture.md5"; then
    check "$name: vrender capture's frames are the camera's, exact and in order (at least 40 distinct in 4 s)" \
      judged "vrender capture" "$work/$name-capture.md5" 40
  else
    check "$name: vrender capture's take decodes" false
  fi
  check "$name: ffmpeg -f v4l2 recorded it (exit 0)" rc_is "$name-ffmpeg" 0
  check "$name: ffmpeg's frames are the camera's, exact and in order (at least 30 distinct)" \
    judged "ffmpeg -f v4l2" "$work/$name-ffmpeg.md5" 30
  echo "     $name writer: $(tail -1 "$work/$name-camera.err" 2>/dev/null)"
}

loop_checks vivid /dev/video1 "mmap streaming"
check "busy: a second writer on the streaming output node fails naming it" says busy.err "/dev/video1: device is busy"
check "busy: exit 1" rc_is busy 1
check "wrong kind: a capture node given as output fails naming it" says wrong-kind.err "/dev/video0: is a video capture device"
check "wrong kind: exit 1" rc_is wrong-kind 1
if [ -n "$module" ]; then
  check "v4l2loopback: insmod of the module built for the VM's kernel (exit 0)" rc_is insmod 0
  loop_checks loopback /dev/video10 "write()"
else
  echo "note v4l2loopback: $module_note"
fi

if [ "$failed" -gt 0 ]; then
  for log in vivid-camera.err vivid-capture.out vivid-ffmpeg.err loopback-camera.err loopback-capture.out loopback-ffmpeg.err insmod.err module.log; do
    [ -s "$work/$log" ] && { echo "---- $log"; sed 's/^/     /' "$work/$log" | tail -15; }
  done
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
