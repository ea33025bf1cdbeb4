#!/usr/bin/env python3
"""Renders the tables of docs/performance.md from the JSON the comparison scripts write.

    performance_table.py DIR              print the tables (markdown) made from DIR/*.json
    performance_table.py DIR --doc FILE   also replace FILE's text between the markers
                                          <!-- performance:begin --> and <!-- performance:end -->
                                          (performance.sh passes docs/performance.md; --readme
                                          is the option's old name)

DIR holds what `Benchmarks/performance.sh` ran: filters-vs-ffmpeg-VARIANT.json (one per row-kernel
variant: avx512, avx2, portable), export-vs-ffmpeg.json, hdr-vs-ffmpeg.json,
chunks-vs-one-pass.json, many-takes.json. A file that is missing is left
out of the tables (and named on stderr); one that cannot be read stops the script.
Every figure is a ratio measured in one run of its script; each row names its target.
"""
import glob
import json
import os
import sys

BEGIN, END = "<!-- performance:begin -->", "<!-- performance:end -->"


def load(folder, name):
    path = os.path.join(folder, name + ".json")
    if not os.path.exists(path):
        print(f"performance_table: {path} missing: its rows are left out", file=sys.stderr)
        return None
    with open(path) as file:
        return json.load(file)


def verdict(value, target):
    """'✓' or '✗' for `value` against a target written '≥ 0.3' or '≤ 1.05' ('—': none)."""
    if target == "—":
        return ""
    if value is None:
        return "n/a"
    sign, limit = target.split()
    met = value >= float(limit) if sign == "≥" else value <= float(limit)
    return "✓" if met else "**✗**"


def fmt(value, digits=2, suffix=""):
    return "n/a" if value is None else f"{value:.{digits}f}{suffix}"


# Issue 43's targets for a filter's speed over memcpy's, by row-kernel variant.
MEMCPY_TARGETS = {"avx512": "≥ 0.5", "avx2": "≥ 0.5", "portable": "≥ 0.25"}
VARIANT_ORDER = ["avx512", "avx2", "portable"]


def filter_reports(folder):
    """Every filters-vs-ffmpeg*.json in DIR, widest variant first."""
    reports = [json.load(open(path)) for path in glob.glob(os.path.join(folder, "filters-vs-ffmpeg*.json"))]
    if not reports:
        print(f"performance_table: no {folder}/filters-vs-ffmpeg*.json: the filter tables are left out", file=sys.stderr)
    rank = lambda report: VARIANT_ORDER.index(report["rowKernels"]) if report["rowKernels"] in VARIANT_ORDER else 99
    return sorted(reports, key=rank)


def filter_table(report):
    target = MEMCPY_TARGETS.get(report["rowKernels"], "≥ 0.3")
    cpu = f" on {report['cpu']}" if report.get("cpu") else ""
    lines = [
        f"CPU filters with the **{report['rowKernels']}** row kernels (`VRENDER_CPU={report['rowKernels']}`){cpu}, "
        f"1920x1080 4:2:0, {report['threads']} threads "
        f"(`Benchmarks/filters-vs-ffmpeg.sh`, median of {report['runs']} runs of {report['frames']} pictures):",
        "",
        f"| filter | vrender ms/frame | ÷ memcpy (target {target}) | libavfilter's nearest | its ms/frame | vrender × faster (target ≥ 5) |",
        "| --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for row in report["rows"]:
        ratio, faster = row["memcpyRatio"], row.get("timesFaster")
        graph = (row.get("ffmpegFilter") or "").replace("|", "\\|")
        shown = f"`{graph}`" if graph else "—"
        lines.append(
            f"| `{row['filter']}` | {fmt(row['vrenderMs'], 3)} | {fmt(ratio)} {verdict(ratio, target)} "
            f"| {shown} | {fmt(row.get('ffmpegMs'), 3)} "
            f"| {(fmt(faster, 1, '×') + ' ' + verdict(faster, '≥ 5')) if faster is not None else '—'} |")
    return lines


def job_rows(folder):
    """(job, vrender, baseline, ratio, target) for every whole-job comparison present."""
    rows = []
    export = load(folder, "export-vs-ffmpeg")
    if export:
        mono, copy, rss = export["mono"], export["copy"], export["peak_rss_mb"]
        median = lambda values: sorted(values)[len(values) // 2] if values else None
        cpu_v, cpu_f = median(export["mono"].get("vrender_cpu_seconds", [])), median(export["mono"].get("ffmpeg_cpu_seconds", []))
        rows += [
            ("3 × 5 s 1080p, mono, x264 veryfast: wall", f"{mono['vrender_median_seconds']:.2f} s",
             f"ffmpeg {mono['ffmpeg_median_seconds']:.2f} s", mono["ratio_vrender_over_ffmpeg"], "≤ 1.0"),
            ("… CPU (user + system)", fmt(cpu_v, 2, " s"), f"ffmpeg {fmt(cpu_f, 2, ' s')}",
             cpu_v / cpu_f if cpu_v and cpu_f else None, "≤ 1.0"),
            ("… peak memory", fmt(rss["vrender_mono_3_takes"], 0, " MB"), f"ffmpeg {fmt(rss['ffmpeg_mono_3_takes'], 0, ' MB')}",
             rss["vrender_mono_3_takes"] / rss["ffmpeg_mono_3_takes"]
             if rss["vrender_mono_3_takes"] and rss["ffmpeg_mono_3_takes"] else None, "≤ 1.0"),
            # A tenth of a second each: process start-up, not copying (the 1,000-take row measures that).
            ("3 × 5 s stream copy to .mov", f"{copy['vrender_median_seconds']:.2f} s",
             f"ffmpeg concat {copy['ffmpeg_median_seconds']:.2f} s", copy["ratio_vrender_over_ffmpeg"], "—"),
        ]
    for name in ("hdr-vs-ffmpeg", "chunks-vs-one-pass", "many-takes"):
        report = load(folder, name)
        # These scripts write their comparisons as rows already: {job, vrender, baseline, ratio, target}.
        for row in (report or {}).get("rows", []):
            rows.append((row["job"], row["vrender"], row["baseline"], row["ratio"], row["target"]))
    return rows


def job_table(rows):
    lines = ["| job | vrender | baseline | ratio | target |", "| --- | ---: | ---: | ---: | --- |"]
    for job, mine, baseline, ratio, target in rows:
        lines.append(f"| {job} | {mine} | {baseline} | {fmt(ratio)} | {target} {verdict(ratio, target)} |")
    return lines


def render(folder):
    lines = []
    for report in filter_reports(folder):
        lines += filter_table(report) + [""]
    jobs = job_rows(folder)
    if jobs:
        lines += ["Whole jobs, vrender ÷ its baseline measured in the same run (`Benchmarks/performance.sh`):", ""]
        lines += job_table(jobs)
    return "\n".join(lines) + "\n"


def main(arguments):
    if not arguments or arguments[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if arguments else 2
    table = render(arguments[0])
    print(table, end="")
    if len(arguments) == 3 and arguments[1] in ("--doc", "--readme"):
        with open(arguments[2]) as file:
            text = file.read()
        if BEGIN not in text or END not in text:
            print(f"performance_table: {arguments[2]} has no {BEGIN} … {END} markers", file=sys.stderr)
            return 1
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        with open(arguments[2], "w") as file:
            file.write(head + BEGIN + "\n" + table + END + tail)
        print(f"performance_table: rewrote the tables in {arguments[2]}", file=sys.stderr)
    elif len(arguments) != 1:
        print("usage: performance_table.py DIR [--doc FILE]", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
