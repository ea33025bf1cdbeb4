#!/usr/bin/env bash
# Runs every comparison behind the tables of docs/performance.md, each writing its ratios as JSON,
# then prints the tables (Benchmarks/performance_table.py); with --docs (old name: --readme)
# rewrites them in docs/performance.md between <!-- performance:begin --> and
# <!-- performance:end -->. Run it on a quiet
# machine: each script measures vrender and its baseline (memcpy, ffmpeg, one pass) in the same
# run, alternating, so the ratios hold on a noisy one, but a busy one still blurs them.
#
# Usage:
#   Benchmarks/performance.sh [--docs] [--only NAME[,NAME...]] [--out DIR] [--render-only]
#
#   NAME: filters-vs-ffmpeg, export-vs-ffmpeg, hdr-vs-ffmpeg, chunks-vs-one-pass, many-takes
#   --out DIR       where the JSON goes (default .build/bench-media/performance); --render-only
#                   makes the tables from what DIR holds without running anything
# The comparisons that time the CPU's row kernels (filters-vs-ffmpeg, hdr-vs-ffmpeg) run once per
# variant this CPU runs (VRENDER_CPU: avx512, avx2, portable), so an AVX-512 machine measures its
# AVX2 and portable kernels too: filters-vs-ffmpeg-VARIANT.json, one table each.
# Environment: VRENDER, FFMPEG, RUNS as each script takes them (see their --help); CPUS: the
# variants to run (default: every one this CPU runs).
set -euo pipefail

die() { echo "performance: $*" >&2; exit 1; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
all=(filters-vs-ffmpeg export-vs-ffmpeg hdr-vs-ffmpeg chunks-vs-one-pass many-takes)
only="" out=$root/.build/bench-media/performance readme=false render_only=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --docs|--readme) readme=true; shift ;;
        --only) [[ $# -ge 2 ]] || die "--only needs names"; only=$2; shift 2 ;;
        --out) [[ $# -ge 2 ]] || die "--out needs a folder"; out=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        --render-only) render_only=true; shift ;;
        -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
names=("${all[@]}")
if [[ -n $only ]]; then
    IFS=, read -r -a names <<<"$only"
    for name in "${names[@]}"; do
        [[ " ${all[*]} " == *" $name "* ]] || die "unknown comparison '$name' (known: ${all[*]})"
    done
fi
mkdir -p "$out"
# The variants this CPU runs: `vrender` refuses (exit 2) a VRENDER_CPU it cannot run.
variants() {
    local vrender=${VRENDER:-$root/.build/release/vrender} variant
    [[ -x $vrender ]] || { echo "avx512 avx2 portable"; return; }   # the scripts build it and say so
    for variant in avx512 avx2 portable; do
        VRENDER_CPU=$variant "$vrender" doctor >/dev/null 2>&1 || [[ $? -ne 2 ]] && echo -n "$variant "
    done
}
if ! $render_only; then
    cpus=${CPUS:-$(variants)}
    for name in "${names[@]}"; do
        script=$root/Benchmarks/$name.sh
        [[ -x $script ]] || die "$script is missing or not executable"
        echo "performance: running $name" >&2
        start=$(date +%s)
        case $name in
            filters-vs-ffmpeg)
                rm -f "$out"/filters-vs-ffmpeg*.json
                for variant in $cpus; do VRENDER_CPU=$variant "$script" --json "$out/$name-$variant.json" >&2; done ;;
            hdr-vs-ffmpeg) "$script" --cpu "${cpus// /,}" --json "$out/$name.json" >&2 ;;
            *) "$script" --json "$out/$name.json" >&2 ;;
        esac
        echo "performance: $name took $(( $(date +%s) - start )) s" >&2
    done
fi
if $readme; then
    python3 "$root/Benchmarks/performance_table.py" "$out" --doc "$root/docs/performance.md"
else
    python3 "$root/Benchmarks/performance_table.py" "$out"
fi
