#!/usr/bin/env bash
# Attacks on a running vrender by a hostile local user, a hostile client or hostile input
# strings: every script in scripts/hostile/ (each sources lib.sh and prints its own verdicts).
# Runs them all, then prints the total of what was tried and fails if any did.
#
#   usage: scripts/hostile-attack-tests.sh [NAME...]   (NAME: a script in scripts/hostile/, no .sh)
#   env:   VRENDER, KEEP as in scripts/hostile/lib.sh
set -uo pipefail
cd "$(dirname "$0")/.."
names=("$@")
if [ ${#names[@]} = 0 ]; then
  for script in scripts/hostile/*.sh; do
    [ "$(basename "$script")" = lib.sh ] || names+=("$(basename "$script" .sh)")
  done
fi
total_passed=0; total_failed=0; broken=()
for name in "${names[@]}"; do
  echo "== $name"
  log=$(mktemp)
  bash "scripts/hostile/$name.sh" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  # The verdict lines, not the script's own total: a script stopped early (set -e) prints none.
  p=$(grep -c '^ok   ' "$log" || true); f=$(grep -c '^FAIL ' "$log" || true)
  rm -f "$log"
  total_passed=$((total_passed + p)); total_failed=$((total_failed + f))
  [ "$status" = 0 ] || broken+=("$name")
done
echo "hostile-attack-tests: $total_passed passed, $total_failed failed in ${#names[@]} scripts (${SECONDS}s)"
[ ${#broken[@]} = 0 ] || { echo "hostile-attack-tests: failed: ${broken[*]}" >&2; exit 1; }
