#!/usr/bin/env bash
# `make install` / `make uninstall`: vrender's files (layout: scripts/package/stage.sh) into
# DESTDIR/PREFIX. Run it as yourself, not with sudo: everything is made as you in a temporary
# folder, and only the copy (or the removal) uses sudo, when DESTDIR/PREFIX is not writable.
#
# usage: scripts/package/install.sh BIN DESTDIR PREFIX      (DESTDIR may be empty)
#        scripts/package/install.sh --uninstall DESTDIR PREFIX
set -euo pipefail
usage() { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -eq 3 ] || usage
here=$(cd "$(dirname "$0")" && pwd)
destdir=${2%/} prefix=$3
[[ $prefix == /* ]] || { echo "install: PREFIX must be an absolute path, got '$prefix'" >&2; exit 2; }
# /usr belongs to dpkg (the .deb installs there): writing or removing its files would break it.
if [ -z "$destdir" ] && [ "$(realpath -m -- "$prefix")" = /usr ]; then
  echo "install: PREFIX=/usr without DESTDIR would change files that dpkg owns; use the .deb (make deb) or PREFIX=/usr/local" >&2
  exit 2
fi

# sudo only when the nearest existing folder of DESTDIR/PREFIX is not writable.
sudo_cmd=()
probe=$destdir$prefix
while [ ! -d "$probe" ]; do probe=$(dirname "$probe"); done
if [ ! -w "$probe" ] && [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install: $probe is not writable and sudo is missing" >&2; exit 1; }
  echo "install: $probe is not writable: using sudo for the copy" >&2
  sudo_cmd=(sudo)
fi

if [ "$1" = --uninstall ]; then
  removed=$("${sudo_cmd[@]}" "$here/stage.sh" --remove "$destdir" "$prefix")
  echo "uninstall: removed $(grep -c . <<<"$removed" || true) files from $destdir$prefix" >&2
  exit 0
fi

bin=$1
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
"$here/stage.sh" "$bin" "$stage" "$prefix" > "$stage/.list"
while read -r path; do
  "${sudo_cmd[@]}" install -D -m "$(stat -c %a "$stage$path")" "$stage$path" "$destdir$path" \
    || { echo "install: cannot write $destdir$path" >&2; exit 1; }
done < "$stage/.list"
echo "install: $(grep -c . "$stage/.list") files in $destdir$prefix (bin/vrender, bin/vrender-worker, man pages, bash/zsh/fish completions)" >&2
