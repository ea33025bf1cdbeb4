# What the comparison scripts in Benchmarks/ share (sourced, never run): the caller's folder,
# the repository root, the tools, and the small numeric helpers of every table. A script
# defines die() before sourcing this, and calls `bench_tools NAME` once its arguments are read.

bench_caller_dir=$PWD
bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# absolute PATH: PATH as the caller meant it, relative to the folder the script was started in.
absolute() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$bench_caller_dir/$1" ;; esac; }

# bench_tools NAME: moves to the repository root and sets `root`, `runs` (RUNS, default 3),
# `ffmpeg`, `ffprobe` (FFMPEG, FFPROBE) and `vrender` (VRENDER, which must exist, or the
# release build, built when missing).
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
        if [[ ! -x $vrender ]]; then
            echo "$1: building $vrender (swift build -c release --product vrender)" >&2
            swift build -c release --product vrender >&2
        fi
    fi
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
max_of() { printf '%s\n' "$@" | sort -g | tail -n 1; }
# kB (GNU time's unit) to MB; "n/a" for nothing.
megabytes() { [[ -n $1 ]] && awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }' || printf 'n/a'; }
joined() { local IFS=,; printf '%s' "$*"; }
