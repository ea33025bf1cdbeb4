#!/usr/bin/env bash
# The one home of vrender's installed file layout: `make install` and `make deb` both stage with it.
# Writes under ROOT/PREFIX:
#   bin/vrender                                       BIN, mode 755
#   bin/vrender-worker                                the chunk worker beside BIN, mode 755 (the
#                                                     engines run it from vrender's own folder)
#   share/man/man1/vrender.1.gz, vrender-<cmd>.1.gz   one page per subcommand (man-pages.sh), and
#   share/man/man1/vrender-worker.1.gz, ...           the worker's (vrender-worker-render.1.gz, ...)
#   share/bash-completion/completions/vrender         bash (no hashbang: the file is sourced)
#   share/zsh/vendor-completions/_vrender             zsh, when PREFIX is /usr (Debian's place
#   share/zsh/site-functions/_vrender                   for packages); any other PREFIX gets
#                                                     site-functions, which zsh searches there
#   share/fish/vendor_completions.d/vrender.fish      fish
# Fonts are not copied: vrender reads Debian's fonts-dejavu-core (and fonts-wqy-microhei).
#
# usage: scripts/package/stage.sh BIN ROOT PREFIX [BUILD_PATH]     (vrender-worker beside BIN)
#        scripts/package/stage.sh --remove ROOT PREFIX     (what `make uninstall` runs)
#   ROOT may be empty (install straight into PREFIX); PREFIX is absolute, e.g. /usr/local or /usr.
#   BUILD_PATH: the SwiftPM build folder BIN came from (default .build), for the man page tool.
# Prints each path it installs (or removes), without ROOT, on stdout.
set -euo pipefail
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
remove=false
[ "${1:-}" = --remove ] && { remove=true; shift; set -- - "$@"; }
[ $# -ge 3 ] && [ $# -le 4 ] || usage
bin=$1 root=$2 prefix=$3 build_path=${4:-.build}
# Paths are taken from the caller's folder; the script then works from the repository root.
[ "$bin" = - ] || bin=$(realpath -m -- "$bin")
[ -z "$root" ] || root=$(realpath -m -- "$root")
[ $# -lt 4 ] || build_path=$(realpath -m -- "$build_path")
cd "$(dirname "$0")/../.."
[[ $prefix == /* ]] || { echo "stage: PREFIX must be an absolute path, got '$prefix'" >&2; exit 2; }
prefix=${prefix%/}
dest=$root$prefix

zsh_dir=share/zsh/site-functions
[ "$prefix" = /usr ] && zsh_dir=share/zsh/vendor-completions
completions=(share/bash-completion/completions/vrender "$zsh_dir/_vrender"
             share/fish/vendor_completions.d/vrender.fish)

if $remove; then
  # Only names vrender installs; the man page glob matches this layout's vrender-<cmd>.1.gz (and
  # vrender-worker's), so pages of subcommands that a later version dropped go too.
  for path in "$dest/bin/vrender" "$dest/bin/vrender-worker" "${completions[@]/#/$dest/}" "$dest"/share/man/man1/vrender.1.gz \
              "$dest"/share/man/man1/vrender-*.1.gz; do
    [ -e "$path" ] || [ -L "$path" ] || continue
    rm -f -- "$path" || { echo "stage: cannot remove $path" >&2; exit 1; }
    echo "${path#"$root"}"
  done
  exit 0
fi
[ -x "$bin" ] || { echo "stage: $bin is not an executable (build vrender first)" >&2; exit 1; }
worker=$(dirname "$bin")/vrender-worker
[ -x "$worker" ] || { echo "stage: $worker is missing: chunked exports run it from vrender's folder (make release builds both; swift build --product vrender-worker)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Everything is made in $work first, so that a failure installs nothing.
mkdir -p "$work/man1"
SWIFT=${SWIFT:-swift} scripts/package/man-pages.sh "$bin" "$work/man1" "$build_path"
for shell in bash zsh fish; do
  "$bin" --generate-completion-script "$shell" > "$work/completion.$shell" \
    || { echo "stage: $bin --generate-completion-script $shell failed" >&2; exit 1; }
done
sed -i '1{/^#!/d}' "$work/completion.bash"

put() {  # put MODE SOURCE RELATIVE-PATH
  install -D -m "$1" "$2" "$dest/$3" || { echo "stage: cannot write $dest/$3" >&2; exit 1; }
  echo "$prefix/$3"
}
put 755 "$bin" bin/vrender
put 755 "$worker" bin/vrender-worker
for page in "$work"/man1/*.1.gz; do
  put 644 "$page" "share/man/man1/$(basename "$page")"
done
put 644 "$work/completion.bash" "${completions[0]}"
put 644 "$work/completion.zsh" "${completions[1]}"
put 644 "$work/completion.fish" "${completions[2]}"
