#!/usr/bin/env bash
# Writes vrender's man pages, gzipped, into OUTDIR: vrender.1.gz and one page per subcommand
# (vrender-concat.1.gz, vrender-takes-list.1.gz, ...), and the same for the chunk worker beside
# BIN (vrender-worker.1.gz, vrender-worker-render.1.gz, ...), made by swift-argument-parser's
# generate-manual tool from BIN's own help (the same tool as `swift package generate-manual`,
# whose plugin would first rebuild the whole package; the tool alone takes a fraction of a second).
#
# usage: scripts/package/man-pages.sh BIN OUTDIR [BUILD_PATH]
#   BIN         a built vrender (dynamic or static: the pages only come from its --help),
#               with the vrender-worker of the same build beside it
#   OUTDIR      created if missing; existing vrender pages in it are replaced
#   BUILD_PATH  the SwiftPM build folder whose checkouts/swift-argument-parser is used
#               (default .build); the tool is built once under BUILD_PATH/generate-manual/
#
# generate-manual names pages with dots (vrender.concat.1) and `.Nm "vrender concat"`; `man
# vrender-concat` needs the file vrender-concat.1 and lexgrog (mandb's whatis, lintian's
# bad-whatis-entry) cannot parse a name with a space, so each page is renamed and its NAME made
# `vrender-concat`, while SYNOPSIS still reads `vrender concat ...`. Blank lines are dropped
# (groff warns "Empty input line"). ArgumentParser's built-in `help` gets no page.
# The date in the pages is the last commit's (reproducible output), or today outside git.
set -euo pipefail
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
bin=$(realpath -m -- "$1") outdir=$(realpath -m -- "$2") build_path=${3:-.build}
[ $# -lt 3 ] || build_path=$(realpath -m -- "$build_path")
cd "$(dirname "$0")/../.."
[ -x "$bin" ] || { echo "man-pages: $bin is not an executable (build vrender first)" >&2; exit 1; }
worker=$(dirname "$bin")/vrender-worker
[ -x "$worker" ] || { echo "man-pages: $worker is not an executable (build vrender-worker first)" >&2; exit 1; }

parser=$build_path/checkouts/swift-argument-parser
[ -f "$parser/Package.swift" ] || {
  echo "man-pages: $parser is missing (run a swift build with --build-path $build_path first)" >&2; exit 1; }
tool_build=$build_path/generate-manual
tool=$tool_build/debug/generate-manual
if [ ! -x "$tool" ] || [ "$parser/Package.swift" -nt "$tool" ]; then
  echo "man-pages: building generate-manual from $parser" >&2
  "${SWIFT:-swift}" build --package-path "$parser" --build-path "$tool_build" --product generate-manual >&2 \
    || { echo "man-pages: building generate-manual in $tool_build failed" >&2; exit 1; }
fi

date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
for program in "$bin" "$worker"; do
  "$tool" "$program" --multi-page --date "$date" --authors "the vrender authors" -o "$raw" \
    || { echo "man-pages: generate-manual failed on $program" >&2; exit 1; }
done
for page in vrender vrender-worker; do
  [ -f "$raw/$page.1" ] || { echo "man-pages: generate-manual wrote no $page.1 (from $bin and $worker)" >&2; exit 1; }
done

mkdir -p "$outdir"
rm -f "$outdir"/vrender.1.gz "$outdir"/vrender-*.1.gz
count=0
for page in "$raw"/vrender*.1; do
  base=$(basename "$page" .1)            # vrender.takes.list
  [ "${base##*.}" = help ] && continue   # vrender.help, vrender-worker.help
  name=${base//./-}                      # vrender-takes-list
  # awk: the first .Nm (NAME) gets the dashed name, the bare .Nm lines (SYNOPSIS) the spaced
  # command; the one-line description loses its quotes (whatis would show them); cross
  # references point at the dashed pages; the help page's reference goes, and a list of
  # references still ends without a comma.
  awk -v dotted="$base" -v dashed="$name" -v spaced="${base//./ }" '
    function flush() { if (held != "") print held; held = "" }
    /^$/ { next }
    /^\.Dt / { sub(toupper(dotted), toupper(dashed)) }
    /^\.Nm "/ && !named { print ".Nm " dashed; named = 1; next }
    /^\.Nd "[^"]*"$/ { sub(/^\.Nd "/, ".Nd "); sub(/"$/, "") }
    /^\.Nm$/ && dotted != "vrender" { $0 = ".Nm \"" spaced "\"" }
    /^\.Xr vrender(-worker)?\.help 1/ { next }
    /^\.Xr vrender/ { flush(); gsub(/\./, "-", $2); held = $0; next }
    { if (held != "" && $0 ~ /^\.Sh/) sub(/ ,$/, "", held); flush(); print }
    END { flush() }
  ' "$page" | gzip -9n > "$outdir/$name.1.gz"
  count=$((count + 1))
done
echo "man-pages: $count pages in $outdir" >&2
