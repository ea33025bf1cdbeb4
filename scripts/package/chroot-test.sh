#!/usr/bin/env bash
# `make test-deb`: installs the .deb the way a user does, on a minimal Debian 12 without Swift,
# and runs vrender there. Phases (each prints its time):
#   1. debootstrap --variant=minbase bookworm into a temporary folder; apt sources bookworm,
#      bookworm-updates and bookworm-security; /proc, /dev, /dev/pts and /sys mounted (x265
#      reads the CPU list from /sys)
#   2. apt-get install ./vrender_*.deb from the Debian mirror (Depends and Recommends, as
#      `sudo apt install ./out/vrender_*.deb` does)
#   3. in the chroot: no `swift` on PATH; `ldd` of /usr/bin/vrender and /usr/bin/vrender-worker
#      has no "not found" and no Swift toolchain path; vrender --help, --version, doctor (exit 0,
#      no encoder missing), demo --out /tmp/demo, concat of the demo's takes with --filter mono,
#      and the same in 2 chunks (--engine local: the installed vrender-worker renders them)
#   4. on the host, with ffprobe/ffmpeg: the concat has one video and one audio stream, as many
#      video frames as the takes together, durations that add up, decodes without an error,
#      and no colour left (mono)
# The mounts are undone in reverse order on any exit, checked with findmnt, and only then is the
# folder removed (rm --one-file-system). Needs root: uses sudo when not root.
#
# usage: scripts/package/chroot-test.sh [DEB]   (default: the one out/vrender_*_<arch>.deb)
#   MIRROR=http://deb.debian.org/debian   KEEP_CHROOT=1 keeps the folder (unmounted) for a look
set -euo pipefail
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -le 1 ] || usage
[ "${1:-}" = -h ] || [ "${1:-}" = --help ] && usage
cd "$(dirname "$0")/../.."
mirror=${MIRROR:-http://deb.debian.org/debian}
fail() { echo "chroot-test: FAIL: $*" >&2; exit 1; }

arch=$(dpkg --print-architecture)
if [ $# -eq 1 ]; then
  deb=$1
else
  debs=(out/vrender_*_"$arch".deb)
  [ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one out/vrender_*_$arch.deb, found: ${debs[*]} (make deb)"
  deb=${debs[0]}
fi
[ -f "$deb" ] || fail "$deb does not exist (make deb builds it)"
for tool in debootstrap ffprobe ffmpeg findmnt; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh --package)"
done
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
as_root() { "${sudo_cmd[@]}" "$@"; }

start=$SECONDS phase_start=$SECONDS
phase() { echo "chroot-test: $1 took $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }

tmp=$(mktemp -d /tmp/vrender-chroot.XXXXXX)
chroot=$tmp/root
mounted=()
cleanup() {
  local status=$? i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    as_root umount "${mounted[i]}" || as_root umount --lazy "${mounted[i]}" \
      || echo "chroot-test: cannot unmount ${mounted[i]}" >&2
  done
  if findmnt -rn -o TARGET | grep -q "^$tmp/"; then
    echo "chroot-test: mounts remain under $tmp, not removing it:" >&2
    findmnt -rn -o TARGET | grep "^$tmp/" >&2
    exit 1
  fi
  if [ "${KEEP_CHROOT:-}" = 1 ]; then
    echo "chroot-test: kept $chroot (unmounted; remove it with: sudo rm -rf --one-file-system $tmp)" >&2
  else
    as_root rm -rf --one-file-system "$tmp"
  fi
  echo "chroot-test: total $((SECONDS - start)) s"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. A minimal Debian 12.
as_root debootstrap --variant=minbase bookworm "$chroot" "$mirror" >"$tmp/debootstrap.log" 2>&1 \
  || { tail -20 "$tmp/debootstrap.log" >&2; fail "debootstrap bookworm $mirror (log above)"; }
as_root tee "$chroot/etc/apt/sources.list" >/dev/null <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
for m in proc dev dev/pts sys; do
  case $m in
    proc) as_root mount -t proc proc "$chroot/proc" ;;
    *) as_root mount --bind "/$m" "$chroot/$m" ;;
  esac || fail "mount $chroot/$m"
  mounted+=("$chroot/$m")
done
in_chroot() {
  as_root chroot "$chroot" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
phase "debootstrap bookworm (minbase)"

# 2. The .deb, with its dependencies from the mirror.
as_root cp "$deb" "$chroot/tmp/vrender.deb"
in_chroot apt-get update -q >"$tmp/apt.log" 2>&1 || { tail -20 "$tmp/apt.log" >&2; fail "apt-get update in the chroot"; }
in_chroot apt-get install -y -q /tmp/vrender.deb >>"$tmp/apt.log" 2>&1 \
  || { tail -30 "$tmp/apt.log" >&2; fail "apt-get install $deb in the chroot (log above)"; }
echo "chroot-test: $(grep -o '[0-9]* newly installed' "$tmp/apt.log" | tail -1) packages, $(du -sm "$chroot" 2>/dev/null | cut -f1) MB chroot"
phase "apt-get install $(basename "$deb")"

# 3. vrender, with no Swift anywhere.
in_chroot sh -c 'command -v swift' >/dev/null 2>&1 && fail "swift is on PATH in the chroot: the test would prove nothing"
for program in /usr/bin/vrender /usr/bin/vrender-worker; do
  ldd_out=$(in_chroot ldd "$program") || fail "ldd $program in the chroot"
  grep -q 'not found' <<<"$ldd_out" && fail "ldd $program: $(grep 'not found' <<<"$ldd_out")"
  grep -qi 'swift\|/opt/' <<<"$ldd_out" && fail "ldd $program names the Swift toolchain: $(grep -i 'swift\|/opt/' <<<"$ldd_out")"
  echo "chroot-test: ok: ldd $program: $(grep -c '=>' <<<"$ldd_out") libraries, none missing, none from a toolchain"
done
echo "chroot-test: ok: no swift on PATH"
run() {  # run LABEL COMMAND...: in the chroot, output kept in $tmp/LABEL.log
  local label=$1; shift
  in_chroot "$@" >"$tmp/$label.log" 2>&1 || { tail -20 "$tmp/$label.log" >&2; fail "in the chroot: $* (log above)"; }
  echo "chroot-test: ok: $*"
}
run help vrender --help
grep -q concat "$tmp/help.log" || fail "vrender --help does not list concat"
run version vrender --version
echo "chroot-test: vrender --version: $(head -1 "$tmp/version.log")"
grep -q '^FFmpeg 5\.1' "$tmp/version.log" || fail "vrender --version does not name the chroot's FFmpeg 5.1: $(cat "$tmp/version.log")"
# A clean Debian with the .deb's Depends and Recommends: the core works (exit 0), and every
# encoder vrender offers is there.
run doctor vrender doctor --takes /tmp
grep -q '^missing *encoder' "$tmp/doctor.log" && fail "vrender doctor in the chroot: $(grep '^missing *encoder' "$tmp/doctor.log")"
echo "chroot-test: vrender doctor: $(tail -1 "$tmp/doctor.log")"
phase "vrender --help, --version, doctor, ldd"
run demo vrender demo --out /tmp/demo
phase "vrender demo"
run concat sh -c 'vrender concat --output /tmp/concat.mov --filter mono /tmp/demo/takes/*.mov'
phase "vrender concat --filter mono"
run chunked sh -c 'vrender concat --output /tmp/chunked.mov --filter mono --engine local --chunks 2 /tmp/demo/takes/*.mov'
phase "vrender concat --filter mono --engine local --chunks 2"

# 4. Judge the concat on the host.
takes=("$chroot"/tmp/demo/takes/*.mov)
out=$chroot/tmp/concat.mov
[ ${#takes[@]} -ge 2 ] && [ -f "${takes[0]}" ] || fail "the demo left ${#takes[@]} takes in $chroot/tmp/demo/takes"
[ -s "$out" ] || fail "vrender concat wrote no $out"
probe() { ffprobe -v error "$@"; }
streams=$(probe -show_entries stream=codec_type -of csv=p=0 "$out" | sort | tr '\n' ' ')
[ "$streams" = "audio video " ] || fail "$out has streams '$streams', not one video and one audio"
frames() { probe -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }
duration() { probe -select_streams "$2" -show_entries stream=duration -of csv=p=0 "$1"; }
want_frames=0 want_seconds=0
for take in "${takes[@]}"; do
  want_frames=$((want_frames + $(frames "$take")))
  want_seconds=$(awk -v a="$want_seconds" -v b="$(duration "$take" v:0)" 'BEGIN { print a + b }')
done
got_frames=$(frames "$out")
[ "$got_frames" = "$want_frames" ] || fail "$out has $got_frames video frames, the ${#takes[@]} takes have $want_frames"
video_s=$(duration "$out" v:0) audio_s=$(duration "$out" a:0)
awk -v v="$video_s" -v a="$audio_s" -v w="$want_seconds" 'BEGIN { d = v - w; e = a - v; exit !(d < 0.1 && d > -0.1 && e < 0.1 && e > -0.1) }' \
  || fail "$out lasts ${video_s} s (video) and ${audio_s} s (audio); the takes' video lasts ${want_seconds} s"
errors=$(ffmpeg -nostdin -v error -i "$out" -f null - 2>&1) || fail "ffmpeg cannot decode $out: $errors"
[ -z "$errors" ] || fail "ffmpeg decodes $out with errors: $(head -5 <<<"$errors")"
# mono: the mean saturation of the most colourful frame (signalstats SATAVG, 0 = grey).
sat=$(ffmpeg -nostdin -v error -i "$out" -vf signalstats,metadata=print:key=lavfi.signalstats.SATAVG:file=- -f null - 2>/dev/null \
  | sed -n 's/.*SATAVG=//p' | sort -g | tail -1)
awk -v s="${sat:-999}" 'BEGIN { exit !(s < 2) }' || fail "$out is not grey: the most saturated frame has SATAVG ${sat:-?} (mono expected under 2)"
echo "chroot-test: ok: concat judged by ffprobe/ffmpeg: $got_frames frames = the takes', ${video_s} s video, ${audio_s} s audio, decodes cleanly, max SATAVG $sat"
phase "judging the concat on the host"
echo "chroot-test: all checks passed for $deb"
