# What the comparison scripts in Benchmarks/ share (sourced, never run): the caller's folder,
# the repository root, the tools, and the small numeric helpers of every table. A script
# defines die() before sourcing this, and calls `bench_tools NAME` once its arguments are read.

bench_caller_dir=$PWD
bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# absolute PATH: PATH as the caller meant it, relative to the folder the script was started in.
absolute() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$bench_caller_dir/$1" ;; esac; }

# bench_tools NAME: moves to the repository root and sets `root`, `runs` (RUNS, default 3),
# `ffmpeg`, `ffprobe` (FFMPEG, FFPROBE) and `vrender` (VRENDER, which must exist, or the
# release build, built when missing with the vrender-worker beside it).
bench_tools() {
    root=$bench_root
    cd "$root"
    runs=${RUNS:-3}
    [[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$runs'"
    ffmpeg=${FFMPEG:-ffmpeg}
    ffprobe=${FFPROBE:-ffprobe}
    command -v "$ffmpeg" >/dev/null || die "ffmpeg not found (apt-get install ffmpeg, or set FFMPEG)"
    command -v "$ffprobe" >/dev/null || die "ffprobe not found (apt-get install ffmpeg, or set FFPROBE)"
    if [[ -n ${VRENDER:-} ]]; then
        vrender=$(absolute "$VRENDER")
        [[ -x $vrender ]] || die "VRENDER=$VRENDER is not an executable file"
    else
        vrender=$root/.build/release/vrender
        # And the chunk worker beside it, which chunked exports run (docs/scale-out.md).
        for product in vrender vrender-worker; do
            if [[ ! -x $root/.build/release/$product ]]; then
                echo "$1: building $root/.build/release/$product (swift build -c release --product $product)" >&2
                swift build -c release --product "$product" >&2
            fi
        done
    fi
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
max_of() { printf '%s\n' "$@" | sort -g | tail -n 1; }
# kB (GNU time's unit) to MB; "n/a" for nothing.
megabytes() { [[ -n $1 ]] && awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }' || printf 'n/a'; }
joined() { local IFS=,; printf '%s' "$*"; }

# bench_gnu_time NAME [required]: finds GNU time (/usr/bin/time, installed with apt-get when
# missing and this is root), which `timed` uses for CPU time and peak memory; sets `have_time`.
# With `required` its absence is an error, else a warning.
bench_gnu_time() {
    gnu_time=/usr/bin/time
    if [[ ! -x $gnu_time && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        echo "$1: installing GNU time (apt-get install -y time)" >&2
        apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y time >/dev/null 2>&1; } || true
    fi
    have_time=false
    if [[ -x $gnu_time ]] && "$gnu_time" -v true >/dev/null 2>&1; then have_time=true; fi
    $have_time && return 0
    [[ ${2:-} == required ]] && die "GNU time ($gnu_time) is needed for peak memory (apt-get install time)"
    echo "$1: warning: GNU time ($gnu_time) unavailable: CPU time and peak memory not measured" >&2
}

# timed NAME CMD...: runs CMD with its standard output in $logs/NAME.out and its standard error
# in $logs/NAME.log; sets `seconds` (wall time), and `rss_kb` (peak resident set size) and
# `cpu_seconds` (user + system, every thread), both empty without GNU time (`bench_gnu_time`).
# A failing command stops the script, showing the end of its log.
seconds="" rss_kb="" cpu_seconds="" have_time=false
timed() {
    local name=$1; shift
    local log=$logs/$name.log rss_file=$logs/$name.time start end
    local prefix=()
    $have_time && prefix=("$gnu_time" -v -o "$rss_file")
    start=$(date +%s%N)
    if ! "${prefix[@]}" "$@" > "$logs/$name.out" 2> "$log"; then
        echo "$(basename "$0" .sh): '$name' failed: $*" >&2
        tail -n 20 "$log" >&2
        exit 1
    fi
    end=$(date +%s%N)
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    rss_kb="" cpu_seconds=""
    if $have_time; then
        rss_kb=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$rss_file")
        cpu_seconds=$(awk -F: '/User time|System time/ { sum += $2 } END { printf "%.2f", sum }' "$rss_file")
    fi
    return 0
}
