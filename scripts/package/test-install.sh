#!/usr/bin/env bash
# `make test-install`: `make install` into a fresh temporary DESTDIR (PREFIX /usr/local), then
# checks the installed files by reading them, as a user would meet them:
#   - bin/vrender --help and bin/vrender-worker --help run from the prefix
#   - every man page parses with lexgrog under its own name (mandb's whatis), renders with
#     `man -l` without groff warnings, and `MANPATH=... man vrender-concat` finds and renders
#   - bash: the completion file has no hashbang, and bash's `complete` machinery completes
#     `vrender concat --fi` to --filter (COMP_* set by hand: no tty needed)
#   - zsh -n and fish (parse, and `complete -C` to --filter), when those shells are installed
#   - `make uninstall` from the same DESTDIR leaves no file behind
# Fails with the name of the file and the check that failed. Needs man-db (install-deps --package).
#
# usage: scripts/package/test-install.sh        (run by make: MAKE names the make to call)
set -euo pipefail
[ $# -eq 0 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
cd "$(dirname "$0")/../.."
make=${MAKE:-make}
failures=0
fail() { echo "test-install: FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "test-install: ok: $*"; }
for tool in man lexgrog bash; do
  command -v "$tool" >/dev/null || { echo "test-install: $tool is missing (scripts/install-deps.sh --package)" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
destdir=$tmp/destdir prefix=/usr/local
"$make" --no-print-directory install DESTDIR="$destdir" PREFIX="$prefix" >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; echo "test-install: FAIL: make install DESTDIR=$destdir PREFIX=$prefix" >&2; exit 1; }
p=$destdir$prefix

# The binaries, from the prefix.
if "$p/bin/vrender" --help >"$tmp/help.txt" 2>&1 && grep -q concat "$tmp/help.txt"; then
  ok "$prefix/bin/vrender --help"
else
  fail "$p/bin/vrender --help did not run or did not list concat: $(head -3 "$tmp/help.txt")"
fi
if "$p/bin/vrender-worker" --help >"$tmp/worker.txt" 2>&1 && grep -q render "$tmp/worker.txt"; then
  ok "$prefix/bin/vrender-worker --help"
else
  fail "$p/bin/vrender-worker --help did not run or did not list render: $(head -3 "$tmp/worker.txt")"
fi

# Man pages: the name lexgrog reads must be the file's name, or `man -k`/whatis breaks.
man1=$p/share/man/man1
pages=("$man1"/vrender*.1.gz)
for name in vrender vrender-concat vrender-takes-list vrender-worker vrender-worker-render; do
  [ -f "$man1/$name.1.gz" ] || fail "$man1 lacks $name.1.gz (has: $(ls "$man1" 2>/dev/null | tr '\n' ' '))"
done
for help in vrender-help vrender-worker-help; do
  [ -e "$man1/$help.1.gz" ] && fail "$man1/$help.1.gz: the built-in help command should get no page"
done
before=$failures
for page in "${pages[@]}"; do
  name=$(basename "$page" .1.gz)
  whatis=$(lexgrog "$page" 2>&1) || { fail "lexgrog cannot parse $page: $whatis"; continue; }
  grep -q ": \"$name - " <<<"$whatis" || fail "lexgrog reads $page as '$whatis', not as $name"
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l -P cat "$page" 2>&1 >/dev/null) || fail "man -l $page failed"
  [ -z "$warnings" ] || fail "man -l $page: groff warns: $warnings"
done
[ $failures -eq $before ] && ok "${#pages[@]} man pages parse with lexgrog and render with man -l without warnings"
rendered=$(MANPATH=$p/share/man LC_ALL=C.UTF-8 MANWIDTH=80 man -P cat vrender-concat 2>&1) \
  || fail "MANPATH=$p/share/man man vrender-concat failed: $rendered"
if grep -q 'vrender concat' <<<"$rendered" && grep -q -- '--filter' <<<"$rendered"; then
  ok "man vrender-concat renders (SYNOPSIS reads 'vrender concat', --filter documented)"
else
  fail "man vrender-concat rendered without 'vrender concat' or --filter: $(head -5 <<<"$rendered")"
fi

# bash: what pressing TAB after `vrender concat --fi` runs, without a terminal.
bash_file=$p/share/bash-completion/completions/vrender
head -1 "$bash_file" | grep -q '^#!' && fail "$bash_file starts with a hashbang (it is sourced, not run)"
bash -n "$bash_file" || fail "bash -n $bash_file"
reply=$(bash -c 'source "$1" || exit 1
  spec=$(complete -p vrender) || exit 1
  func=$(sed -n "s/.*-F \([^ ]*\) vrender$/\1/p" <<<"$spec")
  COMP_LINE="vrender concat --fi"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(vrender concat --fi); COMP_CWORD=2
  "$func" vrender --fi concat; echo "${COMPREPLY[*]}"' _ "$bash_file" 2>&1) || reply="(bash failed) $reply"
if [ "$reply" = --filter ]; then
  ok "bash: 'vrender concat --fi<TAB>' completes to --filter"
else
  fail "bash completion from $bash_file of 'vrender concat --fi' gave '$reply', not --filter"
fi

zsh_file=$p/share/zsh/site-functions/_vrender
[ -f "$zsh_file" ] || fail "$zsh_file is missing"
if command -v zsh >/dev/null; then
  zsh -n "$zsh_file" && ok "zsh -n $prefix/share/zsh/site-functions/_vrender" || fail "zsh -n $zsh_file"
else
  echo "test-install: zsh not installed: zsh parse check skipped"
fi
fish_file=$p/share/fish/vendor_completions.d/vrender.fish
[ -f "$fish_file" ] || fail "$fish_file is missing"
if command -v fish >/dev/null; then
  fish_reply=$(fish --no-config -c "source '$fish_file'; complete -C 'vrender concat --fi'" 2>&1 | cut -f1)
  [ "$fish_reply" = --filter ] && ok "fish: 'vrender concat --fi' completes to --filter" \
    || fail "fish completion from $fish_file of 'vrender concat --fi' gave '$fish_reply', not --filter"
else
  echo "test-install: fish not installed: fish check skipped"
fi

# Uninstall removes every file that install wrote.
"$make" --no-print-directory uninstall DESTDIR="$destdir" PREFIX="$prefix" >"$tmp/uninstall.log" 2>&1 \
  || { cat "$tmp/uninstall.log" >&2; fail "make uninstall DESTDIR=$destdir PREFIX=$prefix"; }
left=$(find "$destdir" -type f)
[ -z "$left" ] && ok "make uninstall removed every installed file" || fail "make uninstall left: $left"

if [ $failures -gt 0 ]; then
  echo "test-install: $failures check(s) FAILED (make install DESTDIR=$destdir PREFIX=$prefix)" >&2
  exit 1
fi
echo "test-install: all checks passed"
