#!/usr/bin/env bash
# `make deb`: packs the release build (Swift stdlib linked in; `make release`: vrender and the
# vrender-worker beside it) into OUTDIR/vrender_<version>_<arch>.deb and runs lintian --pedantic
# on it (any tag that is not overridden in packaging/lintian-overrides, with the reason beside
# it, fails the build).
#   version   scripts/version.sh (0.9.0, or 0.9.0+gitN.hash between releases: both sort right)
#   Depends   dpkg-shlibdeps on the binaries, plus fonts-dejavu-core (read at run time)
#   files     scripts/package/stage.sh with PREFIX /usr, packaging/copyright, a changelog.gz
# It refuses a binary that needs the Swift toolchain (a libswift* NEEDED or a RUNPATH), and a
# packaging/copyright that does not name every Swift package whose modules are linked.
#
# usage: scripts/package/build-deb.sh BIN BUILD_PATH OUTDIR
#   BIN: .build/release/vrender (vrender-worker beside it); BUILD_PATH: its build folder (.build);
#   OUTDIR: where the .deb goes (out). The package tree is made under BUILD_PATH/deb/.
set -euo pipefail
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -eq 3 ] || usage
bin=$1 build_path=$2 outdir=$3
cd "$(dirname "$0")/../.."
fail() { echo "build-deb: $*" >&2; exit 1; }
for tool in dpkg-shlibdeps dpkg-deb strip readelf lintian; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh --package installs it)"
done
[ -x "$bin" ] || fail "$bin is not an executable (make release builds it)"
worker=$(dirname "$bin")/vrender-worker
[ -x "$worker" ] || fail "$worker is not an executable (make release builds it beside $bin)"
phase_start=$SECONDS
phase() { echo "build-deb: $1 ($((SECONDS - phase_start)) s)" >&2; phase_start=$SECONDS; }

# The toolchain must not be needed at run time.
for program in "$bin" "$worker"; do
  dynamic=$(readelf -d "$program")
  if grep -q 'NEEDED.*libswift\|NEEDED.*libFoundation\|NEEDED.*libdispatch' <<<"$dynamic"; then
    fail "$program links the Swift runtime dynamically (build it with the Swift runtime linked in: make release)"
  fi
  grep -q 'RUNPATH\|RPATH' <<<"$dynamic" && fail "$program has a RUNPATH (build it with --disable-local-rpath)"
done

# Every linked Swift package must be in packaging/copyright: the link list names each module's
# object folder (NIOCore.build); the module's package is the checkout with that source folder,
# or else the one whose Package.swift declares a library or target of that name (swift-system's
# SystemPackage), not one that only depends on it (.build is shared with the benchmarks, whose
# harness names SystemPackage too). The worker's modules are a subset of vrender's.
link_list=$build_path/release/vrender.product/Objects.LinkFileList
[ -f "$link_list" ] || fail "$link_list is missing (is $bin from $build_path?)"
missing=()
for module in $(sed -n 's|.*/release/\([^/]*\)\.build/.*|\1|p' "$link_list" | sort -u); do
  [ -d "Sources/$module" ] && continue
  package=$( (ls -d "$build_path"/checkouts/*/Sources/"$module" 2>/dev/null || true) | head -1 \
    | sed 's|.*/checkouts/\([^/]*\)/.*|\1|')
  [ -n "$package" ] || package=$( (grep -l -E "\.(library|target)\(name: \"$module\"" "$build_path"/checkouts/*/Package.swift || true) \
    | head -1 | sed 's|.*/checkouts/\([^/]*\)/.*|\1|')
  [ -n "$package" ] || fail "cannot tell which package the linked module $module comes from: add it to packaging/copyright and this check"
  grep -q "^Files: \.build/checkouts/$package/\*" packaging/copyright || missing+=("$package ($module)")
done
[ ${#missing[@]} -eq 0 ] || fail "packaging/copyright does not name these linked packages: ${missing[*]}"

version=$(scripts/version.sh)
dpkg --validate-version "$version" 2>/dev/null || fail "scripts/version.sh printed '$version', not a valid Debian version"
arch=$(dpkg --print-architecture)
maintainer=$(sed -n 's/^Maintainer: //p' packaging/control.in)

# The tree dpkg-shlibdeps expects: debian/control beside debian/vrender/ with DEBIAN/ in it.
work=$PWD/$build_path/deb
root=$work/debian/vrender
rm -rf "$work"
mkdir -p "$root/DEBIAN"
printf 'Source: vrender\n\nPackage: vrender\nArchitecture: any\n' > "$work/debian/control"
# .comment holds compiler versions only (lintian: binary-has-unneeded-section).
strip --remove-section=.comment -o "$work/vrender" "$bin"
strip --remove-section=.comment -o "$work/vrender-worker" "$worker"
phase "stripped: vrender $(du -m "$work/vrender" | cut -f1) MB, vrender-worker $(du -m "$work/vrender-worker" | cut -f1) MB"
scripts/package/stage.sh "$work/vrender" "$root" /usr "$build_path" >/dev/null
phase "staged"

doc=$root/usr/share/doc/vrender
install -D -m 644 packaging/copyright "$doc/copyright"
{
  echo "vrender ($version) unstable; urgency=medium"
  echo
  echo "  * Built from commit $(scripts/version.sh --commit | cut -c1-12)."
  echo "    The changes are in CHANGELOG.md of the source."
  echo
  echo " -- $maintainer  $(git log -1 --format=%aD 2>/dev/null || date -R)"
} | gzip -9n > "$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"
install -D -m 644 packaging/lintian-overrides "$root/usr/share/lintian/overrides/vrender"

shlibs=$(cd "$work" && dpkg-shlibdeps -O debian/vrender/usr/bin/vrender debian/vrender/usr/bin/vrender-worker 2>"$work/shlibdeps.log") \
  || { cat "$work/shlibdeps.log" >&2; fail "dpkg-shlibdeps failed on $bin"; }
grep -q "can't extract name and version" "$work/shlibdeps.log" && { cat "$work/shlibdeps.log" >&2; fail "dpkg-shlibdeps found unpackaged libraries"; }
depends="${shlibs#shlibs:Depends=}, fonts-dejavu-core"
phase "Depends: $depends"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
    -e "s/@DEPENDS@/$depends/" packaging/control.in > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$outdir"
rm -f "$outdir"/vrender_*_"$arch".deb     # one .deb, so that `apt install ./out/vrender_*.deb` is one
deb=$outdir/vrender_${version}_${arch}.deb
# SOURCE_DATE_EPOCH: dpkg-deb clamps the files' times to the commit's (the same tree, the same .deb).
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s) \
  dpkg-deb --build --root-owner-group "$root" "$deb" >/dev/null || fail "dpkg-deb failed on $root"
phase "built $(du -m "$deb" | cut -f1) MB"

# lintian: root is fine here (it warns on stderr); --fail-on makes any tag not overridden fail.
lintian --pedantic --display-info --fail-on error,warning,info,pedantic "$deb" 2> >(grep -v 'running with root privileges' >&2) \
  || fail "lintian --pedantic found tags on $deb (fix them, or override one in packaging/lintian-overrides with the reason)"
phase "lintian --pedantic: clean"
echo "build-deb: wrote $deb"
