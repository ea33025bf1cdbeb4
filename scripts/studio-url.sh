# Sourced (never run) by the hostile suites that start `vrender studio` (hostile-folder-tests.sh,
# and scripts/hostile/lib.sh for the attack scripts): one function.
#
# studio_url LOG PID: waits up to 30 s for the "studio: URL" line `vrender studio` prints into
# LOG, while PID still runs, and prints the URL (nothing when it never came). The caller empties
# LOG before it starts the studio: this reads it at once, maybe before the child has opened it.
studio_url() {
  local log=$1 pid=$2 tries url=
  for ((tries = 0; tries < 300; tries++)); do
    url=$(sed -n 's/^studio: \(http:[^ ]*\)$/\1/p' "$log")
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  printf '%s' "$url"
}
