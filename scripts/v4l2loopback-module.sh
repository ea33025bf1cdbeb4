#!/usr/bin/env bash
# Builds Debian's v4l2loopback kernel module for the kernel that run-vivid.sh boots in qemu, so a
# guest can `insmod` it: a second, independent V4L2 output→capture loop next to vivid's own.
#
#   usage: scripts/v4l2loopback-module.sh [--install]
#   env:   WORK  run-vivid.sh's cache       [${XDG_CACHE_HOME:-$HOME/.cache}/vivid-vm]
#          KVER  the kernel to build for    [the one kernel under $WORK/kernel/lib/modules]
#
# Prints the path of the module, $WORK/v4l2loopback-$KVER.ko, as the last line on stdout (all
# else goes to stderr); a module already there is reused, delete it to rebuild.
#
# Needs linux-headers-$KVER installed (it brings linux-headers-*-common, linux-kbuild-6.1 and
# the gcc the kernel was built with). Without --install a missing package is named and the script
# exits 2; with --install it is apt-get installed (sudo when not root). The source comes from
# the v4l2loopback-source package: used from /usr/src when installed, otherwise fetched with
# `apt-get download` and unpacked here, nothing installed (installing it would drag in debhelper
# and autotools, which the build does not use).
# exit: 0 built or cached; 2 usage error, kernel not fetched yet or packages missing;
#       3 no headers for exactly $KVER in apt (a module must match the running kernel's ABI).
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin                       # modinfo lives in sbin
me=${0##*/}
usage() { sed -n '2,19s/^# \{0,1\}//p' "$0"; }
install=0
case ${1:-} in
  '') ;;
  --install) install=1 ;;
  -h|--help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac
[ $# -le 1 ] || { usage >&2; exit 2; }
say() { echo "$me: $*" >&2; }

WORK=${WORK:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/vivid-vm}
if [ -z "${KVER:-}" ]; then
  # The kernel run-vivid.sh unpacked is the one the guest runs; any other headers would build a
  # module the guest refuses (vermagic / symbol CRC mismatch).
  kernels=()
  [ -d "$WORK/kernel/lib/modules" ] && mapfile -t kernels < <(ls "$WORK/kernel/lib/modules")
  case ${#kernels[@]} in
    1) KVER=${kernels[0]} ;;
    0) say "no kernel in $WORK/kernel/lib/modules: run run-vivid.sh once first (it fetches the" \
           "kernel the VM boots), or set KVER"; exit 2 ;;
    *) say "several kernels in $WORK/kernel/lib/modules (${kernels[*]}): set KVER"; exit 2 ;;
  esac
fi
ko=$WORK/v4l2loopback-$KVER.ko
if [ -s "$ko" ]; then echo "$ko"; exit 0; fi

# ------------------------------------------------------------ packages ---
headers=/usr/src/linux-headers-$KVER
needed=("linux-headers-$KVER" make bzip2)     # bzip2: the source is a .tar.bz2
sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
# Installing the headers must not pull unrelated upgrades: apt otherwise upgrades installed
# packages built from the same source (linux-libc-dev, which every C build on this host uses).
apt_opts=(-y --no-install-recommends -o APT::Get::Upgrade-By-Source-Package=false)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
known() { [ -n "$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '(none)')" ]; }
missing=()
for p in "${needed[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || { say "needs apt-get (a Debian host) for: ${missing[*]}"; exit 2; }
  if ! known "linux-headers-$KVER" && [ "$install" = 1 ]; then
    say "linux-headers-$KVER unknown to apt; apt-get update"
    "${sudo_cmd[@]}" apt-get update >&2 || true
  fi
  if ! known "linux-headers-$KVER"; then
    say "apt has no linux-headers-$KVER: the module must be built against the headers of exactly" \
        "the kernel the VM boots ($KVER). Try apt-get update, or refetch the VM kernel (remove" \
        "$WORK/kernel) so both come from the same archive state."
    exit 3
  fi
  if [ "$install" = 0 ]; then
    # Name everything apt would add (the headers' own dependencies included), not just the roots.
    all=$(apt-get install -s "${apt_opts[@]}" "${missing[@]}" 2>/dev/null | awk '/^Inst /{print $2}' | xargs || true)
    say "missing packages: ${all:-${missing[*]}}"
    say "  install them with:  ${sudo_cmd[*]:+${sudo_cmd[*]} }apt-get install --no-install-recommends ${missing[*]}"
    say "  or run:             $me --install"
    exit 2
  fi
  say "installing: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get install "${apt_opts[@]}" "${missing[@]}" >&2 ||
    { "${sudo_cmd[@]}" apt-get update >&2 && "${sudo_cmd[@]}" apt-get install "${apt_opts[@]}" "${missing[@]}" >&2; }
fi
[ -f "$headers/Makefile" ] || { say "linux-headers-$KVER is installed but $headers/Makefile is missing"; exit 2; }

# ---------------------------------------------------------------- build ---
mkdir -p "$WORK"
exec 9>"$WORK/.v4l2loopback.lock"; flock 9       # two callers: one builds, the other reuses
if [ -s "$ko" ]; then echo "$ko"; exit 0; fi
tmp=$(mktemp -d "$WORK/v4l2loopback-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tarball=
if installed v4l2loopback-source; then
  tarball=$(dpkg -L v4l2loopback-source | grep -E '^/usr/src/.*\.tar\.(bz2|gz|xz)$' | head -1 || true)
fi
if [ -z "$tarball" ]; then
  say "fetching v4l2loopback-source (apt-get download + dpkg -x, nothing is installed)"
  ( cd "$tmp" && apt-get download -q v4l2loopback-source && dpkg -x v4l2loopback-source_*.deb pkg ) >&2 ||
    { say "could not fetch v4l2loopback-source (try: sudo apt-get update)"; exit 2; }
  tarball=$(find "$tmp/pkg/usr/src" -name '*.tar.*' | head -1)
fi
[ -n "$tarball" ] && [ -f "$tarball" ] || { say "no source tarball in v4l2loopback-source"; exit 2; }
tar -xf "$tarball" -C "$tmp"
file=$(find "$tmp" -name v4l2loopback.c -not -path '*/pkg/*' | head -1)
[ -n "$file" ] || { say "no v4l2loopback.c in $tarball"; exit 2; }
src=${file%/*}
say "building $(basename "$tarball") for $KVER in $src"
# Out of tree against the packaged headers; the headers' kbuild picks the kernel's own compiler.
make -C "$headers" M="$src" modules >&2
built=$src/v4l2loopback.ko
[ -s "$built" ] || { say "make produced no v4l2loopback.ko"; exit 2; }
# The guest's kernel only loads a module whose vermagic equals its own; compare with a module of
# the VM's kernel, where run-vivid.sh has it, so a mismatch fails here and not in the guest.
ref=$(find "$WORK/kernel/lib/modules/$KVER" -name 'videodev.ko*' 2>/dev/null | head -1 || true)
if [ -n "$ref" ] && command -v modinfo >/dev/null; then
  want=$(modinfo -F vermagic "$ref"); got=$(modinfo -F vermagic "$built")
  [ "$want" = "$got" ] || { say "vermagic '$got' is not the VM kernel's '$want'"; exit 3; }
fi
mv "$built" "$ko.tmp" && mv "$ko.tmp" "$ko"
echo "$ko"
