#!/usr/bin/env bash
# A private single-node Slurm cluster (munged, slurmctld, slurmd) living entirely under one
# temporary folder, for scale-out tests on one machine: no systemd, no cgroups, no /etc/slurm.
#
#   usage: scripts/slurm-cluster.sh start DIR           prints `export SLURM_CONF=DIR/slurm.conf`
#          scripts/slurm-cluster.sh stop DIR            safe to repeat, and after a failed start
#          scripts/slurm-cluster.sh run DIR -- CMD...   start, CMD with SLURM_CONF set, stop;
#                                                       exits with CMD's status
#   env:   SLURM_START_TIMEOUT  seconds `start` waits for the cluster to be ready  [30]
#
# Packages: slurmctld slurmd slurm-client munge (scripts/install-deps.sh --slurm). The daemons
# must run as root (slurmd switches to each job's user): when not root, this script runs them,
# and the few commands that touch their files (mungekey, kill, scancel, rm of the state, a
# chown), through sudo, which must not ask for a password in unattended runs. Jobs run as
# whoever submits them. `stop` gives DIR back to the caller so that `rm -rf DIR` works.
#
# DIR holds slurm.conf, munge/ (key, socket, pid, seed, log), state/ (slurmctld), spool/
# (slurmd), log/ (slurmctld.log, slurmd.log, munged.stderr, and jobcomp.log: one line per
# finished job or task with its ExitCode) and run/ (pid files). DIR must be short (checked):
# slurmd binds a unix socket per job step under spool/, and such a path has at most 107 bytes.
# `start` on a stopped cluster's DIR starts over (empty state, job ids from 1).
#
# Use and findings (Slurm 22.05.8 on Debian 12, 2 CPUs; as root and as a user through sudo)
#   dir=$(mktemp -d); eval "$(scripts/slurm-cluster.sh start "$dir")"
#   A=$(sbatch --parsable --array=0-3 -o "$dir/%A_%4a.log" task.sh)   # logs 1_0000.log ...
#   sbatch --parsable --dependency=afterok:$A --kill-on-invalid-dep=yes join.sh
#   ... poll `scontrol -o show job $A` ...; scripts/slurm-cluster.sh stop "$dir"; rm -rf "$dir"
# - Ports: SlurmctldPort and SlurmdPort are drawn at random below the kernel's ephemeral range
#   (10000-32767 here), free by `ss -ltn`; a daemon that still cannot bind makes `start` draw
#   again (5 attempts). Several clusters run side by side: three started at once each ran its
#   own jobs, and cancelling job 1 in one left job 1 of another running: "one slurmd per
#   machine" does not hold for clusters with their own spool, pid files and ports.
# - start: 3.1-3.2 s. The node is idle after 0.2 s, but 22.05 reads batch_sched_delay=0 only
#   in its first scheduling pass, 3 s (the built-in delay) after slurmctld starts, and no job
#   starts before it; `start` waits for that pass (sdiag) so that job timings exclude it.
#   stop: 0.15-0.2 s, jobs still running are cancelled first (KillWait=5 for stubborn ones).
# - Latency: slurmctld starts pending jobs on a 1 s tick only (hard-coded; a submission or a
#   job's end just queues a pass), so a job starts 0-1 s after submission or after what it
#   depends on ends: measured 0.88-0.98 s from submission to the first task right after
#   `start`, 0.04-1.0 s from the last task's end to the join, 4.0-5.1 s for four 1 s tasks on
#   2 CPUs plus the join. scancel of an array: records CANCELLED in 0.08 s.
# - `scontrol -o show job ARRAYID`: one line per task that started, plus one line for the
#   tasks still pending, as a range (ArrayTaskId=2-3, 2-4,6-7%2 with a throttle). The task
#   that starts last takes the array's JobId; the others get new ones: key on ArrayTaskId.
#   A failed task: JobState=FAILED Reason=NonZeroExitCode ExitCode=3:0; killed while running:
#   JobState=CANCELLED ExitCode=0:15 (0:9 after KillWait); cancelled while pending: the range
#   line turns JobState=CANCELLED. A single pending task cancelled alone (scancel A_4)
#   vanishes from scontrol and squeue. `squeue -h -r -j A -o '%i %T'` lists tasks one per
#   line (1_2 PENDING) but shows finished ones only with -t all. After MinJobAge (600 s)
#   scontrol fails with "Invalid job id specified".
# - The afterok join waits with Reason=Dependency Dependency=afterok:A_*(unfulfilled). After a
#   failed task it is cancelled only once every task has ended, not at the failure:
#   JobState=CANCELLED Reason=DependencyNeverSatisfied Dependency=afterok:A_*(failed).
set -euo pipefail

script=slurm-cluster
start_timeout=${SLURM_START_TIMEOUT:-30}

die() { echo "$script: $*" >&2; exit 2; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# The daemons live in /usr/sbin, which a user's PATH may lack (sudo's secure_path has it).
PATH=$PATH:/usr/sbin:/sbin

need_slurm() {
  local tool
  for tool in munged mungekey slurmctld slurmd sinfo sdiag squeue scancel ss; do
    command -v "$tool" >/dev/null || die "$tool not found: run scripts/install-deps.sh --slurm"
  done
}

# free_port: a random TCP port nobody listens on, outside the kernel's ephemeral range so that
# no outgoing connection can be holding it. Two runs may still draw the same port between the
# check and the bind; `start` then retries with new ports.
free_port() {
  local low high first count port _
  read -r low high </proc/sys/net/ipv4/ip_local_port_range
  if [ "$low" -gt 11024 ]; then first=10000 count=$((low - 10000))
  else first=$((high + 1)) count=$((65535 - high)); fi
  [ "$count" -gt 0 ] || die "no TCP ports outside the ephemeral range $low-$high"
  for _ in $(seq 50); do
    port=$((first + (RANDOM * 32768 + RANDOM) % count))
    [ -z "$(ss -Hltn "sport = :$port")" ] && { echo "$port"; return 0; }
  done
  die "no free TCP port found in $first-$((first + count - 1))"
}

# write_conf DIR CTLD_PORT SLURMD_PORT: slurm.conf for one node named after this host (slurmd
# finds its node by `hostname -s`), reached on 127.0.0.1 whatever the host's name resolves to.
write_conf() {
  local dir=$1 host cpus memory
  host=$(hostname -s)
  cpus=$(nproc)
  # What slurmd itself reports (MemTotal in MiB): a larger RealMemory would drain the node,
  # the default (1 MiB) would reject every job that asks for memory.
  memory=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
  cat >"$dir/slurm.conf" <<CONF
# Written by scripts/slurm-cluster.sh: a private single-node cluster under $dir
ClusterName=vrender
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$2
SlurmdPort=$3
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.log
# No systemd, no cgroups: track job processes through /proc, bind no CPUs, gather no usage.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
# A submission or a job's end brings a scheduling pass at the controller's next 1 s tick
# (by default, submissions are batched for 3 s).
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# Finished jobs and tasks stay visible to scontrol for ten minutes.
MinJobAge=600
# The node comes back by itself if it was marked down, e.g. by a slow start.
ReturnToService=2
# A cancelled job that ignores SIGTERM gets SIGKILL after 5 s rather than 30, within the
# 10 s that slurm-cluster.sh stop waits for jobs to end.
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

# ours DIR PID: PID is a live process of this cluster (its command line mentions DIR), so a
# recycled pid, a zombie or another cluster's daemon is never taken for ours.
ours() {
  [ -n "$2" ] && tr '\0' ' ' 2>/dev/null <"/proc/$2/cmdline" | grep -qF "$1/"
}

# alive DIR PIDFILE: the pid file names a live process of this cluster.
alive() {
  ours "$1" "$(cat "$2" 2>/dev/null)"
}

# start_munge DIR: munged with its own key, socket, pid and seed file, so that neither the
# host's /etc/munge nor another cluster's munged is involved. munged returns once it listens.
# Its terminal output goes to log/munged.stderr: under sudo it warns that DIR belongs to the
# caller rather than root, which --force accepts.
start_munge() {
  local m=$1/munge
  alive "$1" "$m/munged.pid" && return 0
  [ -s "$m/munge.key" ] || as_root mungekey --create --keyfile="$m/munge.key"
  as_root munged --force --key-file="$m/munge.key" --socket="$m/munge.socket" \
    --pid-file="$m/munged.pid" --seed-file="$m/munged.seed" --log-file="$m/munged.log" \
    2>"$1/log/munged.stderr"
}

# start_slurm DIR: slurmctld and slurmd (both daemonize) on the ports in DIR/slurm.conf.
start_slurm() {
  as_root slurmctld -f "$1/slurm.conf"
  as_root slurmd -f "$1/slurm.conf"
}

# ready: the node is idle and the scheduler has made its first pass. Each probe is bounded:
# whoever else holds a port we drew may accept and never answer, and the clients would wait
# MessageTimeout (10 s) before wait_ready notices the bind error in the logs.
ready() {
  local cycles
  [ "$(timeout 2 sinfo -h -N -o %t 2>/dev/null)" = idle ] || return 1
  cycles=$(timeout 2 sdiag 2>/dev/null | awk '/Total cycles:/ { print $3; exit }')
  [ "${cycles:-0}" -gt 0 ]
}

# wait_ready DIR: 0 once ready, 1 when a daemon could not bind its port (start again on other
# ports), 2 when a daemon died otherwise or the cluster is not ready in time. Slurm 22.05 reads
# batch_sched_delay only in its first scheduling pass, which comes 3 s (the built-in delay)
# after slurmctld starts: a job submitted earlier would wait for it anyway, and waiting here
# keeps the callers' job timings free of it.
wait_ready() {
  local dir=$1 deadline=$((SECONDS + start_timeout)) daemon
  local -x SLURM_CONF=$dir/slurm.conf
  while [ "$SECONDS" -lt "$deadline" ]; do
    for daemon in slurmctld slurmd; do
      grep -qs 'Address already in use' "$dir/log/$daemon.log" && return 1
      grep -qs 'fatal:' "$dir/log/$daemon.log" && return 2
    done
    ready && return 0
    sleep 0.1
  done
  return 2
}

# fresh_log FILE [SUFFIX]: an empty log readable by all; the old one is kept as FILE.SUFFIX or
# removed (rm and mv need only the folder, which is the caller's, even when root owns the file).
# The daemons would create their logs readable by root only but keep an existing file's mode,
# so the caller can read them (and this script check them) without sudo.
fresh_log() {
  if [ -n "${2:-}" ] && [ -e "$1" ]; then mv "$1" "$1.$2"; else rm -f "$1"; fi
  touch "$1"
  chmod 644 "$1"
}

# fresh_slurm DIR ATTEMPT: empty state, spool and logs for slurmctld and slurmd, so that a DIR
# used before starts over at job 1; a failed attempt's logs stay as NAME.log.ATTEMPT.
fresh_slurm() {
  local previous=
  [ "$2" = 1 ] || previous=$(($2 - 1))
  as_root rm -rf "$1/state" "$1/spool" "$1/log/jobcomp.log"
  mkdir -p "$1/state" "$1/spool"
  fresh_log "$1/log/slurmctld.log" "$previous"
  fresh_log "$1/log/slurmd.log" "$previous"
}

show_logs() {
  local log
  for log in "$1"/log/{slurmctld.log,slurmd.log,munged.stderr} "$1/munge/munged.log"; do
    [ -s "$log" ] || continue
    echo "---- last lines of $log" >&2
    tail -15 "$log" | sed 's/^/    /' >&2
  done
}

# stop_daemon DIR NAME PIDFILE: SIGTERM, up to 10 s to exit, then SIGKILL. Waits on the pid,
# not the pid file: slurmd removes its pid file first and may then take seconds to exit.
stop_daemon() {
  local dir=$1 name=$2 pid _
  pid=$(cat "$3" 2>/dev/null) && ours "$dir" "$pid" || return 0
  as_root kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do
    ours "$dir" "$pid" || return 0
    sleep 0.1
  done
  echo "$script: $name ($pid) ignored SIGTERM for 10 s: killing it" >&2
  as_root kill -KILL "$pid" 2>/dev/null || true
}

# cancel_jobs DIR: ends this cluster's jobs first, so that no job's processes outlive slurmd
# (slurmstepd keeps running without it), then waits up to 10 s for them to finish completing.
cancel_jobs() {
  local conf=$1/slurm.conf _
  alive "$1" "$1/run/slurmctld.pid" || return 0
  as_root env SLURM_CONF="$conf" scancel --quiet --partition=debug 2>/dev/null || true
  for _ in $(seq 100); do
    [ -z "$(SLURM_CONF=$conf squeue -h -t R,CG,CF -o %i 2>/dev/null)" ] && return 0
    sleep 0.1
  done
}

stop_cluster() {
  local dir=$1
  [ -d "$dir" ] || return 0
  cancel_jobs "$dir"
  stop_daemon "$dir" slurmd "$dir/run/slurmd.pid"
  stop_daemon "$dir" slurmctld "$dir/run/slurmctld.pid"
  stop_daemon "$dir" munged "$dir/munge/munged.pid"
  # The daemons ran as root: give their files back so that the caller can remove DIR.
  [ "$(id -u)" -eq 0 ] || sudo chown -R "$(id -u):$(id -g)" "$dir"
}

# start_cluster DIR (absolute): munged, then slurmctld and slurmd on fresh random ports until
# they bind; on any other failure shows the daemons' logs, stops everything and fails.
start_cluster() {
  local dir=$1 attempt ctld_port slurmd_port status=2
  alive "$dir" "$dir/run/slurmctld.pid" && die "a cluster is already running in $dir"
  # From here on, whatever fails stops what was started (DIR expanded now: it is a local).
  # shellcheck disable=SC2064
  trap "stop_cluster $(printf %q "$dir")" EXIT
  mkdir -p "$dir"/{munge,log,run}
  fresh_log "$dir/munge/munged.log"
  start_munge "$dir" || { show_logs "$dir"; die "munged did not start"; }
  for attempt in 1 2 3 4 5; do
    fresh_slurm "$dir" "$attempt"
    ctld_port=$(free_port)
    slurmd_port=$(free_port)
    [ "$ctld_port" != "$slurmd_port" ] || continue
    write_conf "$dir" "$ctld_port" "$slurmd_port"
    start_slurm "$dir"
    status=0; wait_ready "$dir" || status=$?
    [ "$status" = 0 ] && { trap - EXIT; return 0; }
    [ "$status" = 1 ] || break
    echo "$script: port $ctld_port or $slurmd_port was taken: starting again on others" >&2
    stop_daemon "$dir" slurmd "$dir/run/slurmd.pid"
    stop_daemon "$dir" slurmctld "$dir/run/slurmctld.pid"
  done
  show_logs "$dir"
  [ "$status" = 1 ] && die "every port drawn in $attempt attempts was taken (logs above)"
  die "the cluster was not ready within ${start_timeout} s, or a daemon died (logs above," \
    "in $dir/log)"
}

# check_dir DIR: slurm.conf cannot hold a path with blanks, and slurmd binds a unix socket per
# job step at DIR/spool/HOST_JOBID.STEPID, which must fit in 107 bytes.
check_dir() {
  case $1 in *[[:space:]]*) die "DIR must not contain blanks: '$1'" ;; esac
  local host longest
  host=$(hostname -s)
  longest=$((${#1} + ${#host} + 29))
  [ "$longest" -le 107 ] || die "DIR is too long for slurmd's step sockets ($longest > 107" \
    "bytes): use a shorter one, e.g. mktemp -d /tmp/slurm.XXXXXX"
}

usage() {
  sed -n '5,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

main() {
  [ $# -ge 2 ] || usage
  local command=$1 dir=$2
  shift 2
  case $command in
    start|run) need_slurm; mkdir -p "$dir" ;;
    stop) ;;
    *) usage ;;
  esac
  # Absolute, so that the printed SLURM_CONF holds from any working directory.
  [ -d "$dir" ] && dir=$(cd "$dir" && pwd -P)
  case $command in
    start)
      check_dir "$dir"
      start_cluster "$dir"
      echo "export SLURM_CONF=$dir/slurm.conf" ;;
    stop)
      stop_cluster "$dir" ;;
    run)
      [ "${1:-}" = -- ] && shift
      [ $# -gt 0 ] || usage
      check_dir "$dir"
      trap 'exit 130' INT
      trap 'exit 143' TERM
      start_cluster "$dir"
      # shellcheck disable=SC2064
      trap "stop_cluster $(printf %q "$dir")" EXIT
      export SLURM_CONF=$dir/slurm.conf
      local status=0
      "$@" || status=$?
      exit "$status" ;;
  esac
}

main "$@"
