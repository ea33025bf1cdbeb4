# Shared by the attack scripts in scripts/hostile/ (sourced, never run): verdicts, a scratch
# folder, a second local user, and the vrender binary. Each script sources this, runs its own
# attacks, and ends with `finish`, which prints "NAME: N passed, N failed" and sets the exit status.
#
#   env: VRENDER  vrender binary  [.build/release/vrender]
#        KEEP=1   keep the scratch folder (its path is printed)
set -eEuo pipefail         # -E: the ERR trap below also fires inside functions
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
suite=$(basename "$0" .sh)
vrender=${VRENDER:-.build/release/vrender}
case $vrender in /*) ;; *) vrender=$root/$vrender ;; esac
[ -x "$vrender" ] || { echo "$suite: no vrender binary at $vrender (make release, or set VRENDER)" >&2; exit 2; }

source "$root/scripts/studio-url.sh"
work=$(mktemp -d "/tmp/vrh-$suite.XXXXXX")
chmod 755 "$work"          # the second user must reach what a test shares with it
background_pids=()         # killed on exit: `track PID`
track() { background_pids+=("$1"); }
cleanup() {
  local pid
  for pid in "${background_pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  if [ "${KEEP:-0}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
# A step that fails outside a check ends the script (set -e): say where, so that CI's log shows it.
trap 'echo "FAIL $suite stopped at line $LINENO (in ${FUNCNAME[0]:-the script}, from line ${BASH_LINENO[0]}): $BASH_COMMAND" >&2' ERR

passed=0; failed=0
check() { # check NAME COMMAND...: one verdict line
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
same() { [ "$1" = "$2" ] || { echo "     '$1' != '$2'" >&2; false; }; }
finish() {
  echo "$suite: $passed passed, $failed failed (${SECONDS}s)"
  [ "$failed" -eq 0 ]
}

# The second local user the attacks run as ("a hostile local user"): made once, without a login
# shell or home. `as_other CMD...` runs CMD as that user (root runs it with runuser; anyone else
# needs sudo).
other_user=vrender-hostile
sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
if ! id "$other_user" >/dev/null 2>&1; then
  sudo_if_needed useradd --system --no-create-home --shell /usr/sbin/nologin "$other_user"
fi
as_other() { sudo_if_needed runuser -u "$other_user" -- "$@"; }
