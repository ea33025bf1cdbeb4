#!/usr/bin/env python3
"""Judges frames a reader got through a V4L2 loop against the frames the camera fed.

    usage: loop_judge.py REFERENCE.framemd5 CAPTURED.framemd5 [--min-distinct N] [--max-lead N]

Both files are ffmpeg's framemd5 output (`ffmpeg -i X -map 0:v -f framemd5 FILE`). REFERENCE is
the camera's frames as a pipe gives them (`vrender camera ... -o - | ffmpeg -i - -f framemd5`),
CAPTURED what a reader recorded from the loop's capture side.

A reader takes the frame that is current at its own clock, so the loop hands over no frame
exactly once: repeats and skips are counted, not failed. What must hold:
- before the writer's first frame arrives the reader may see the device's own picture (at most
  --max-lead frames, default 600); from the first frame that matches on, every frame equals one
  of the camera's frames exactly ("foreign" frames: torn or altered pictures, must be 0);
- the camera's frames arrive in order (never an earlier one after a later one);
- at least --min-distinct different camera frames arrived (default 10).
Prints one summary line and exits 0 when all hold, 1 otherwise.
"""
import argparse
import sys


def sums(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            out.append(line.rsplit(",", 1)[1].strip())
    return out


def judge(reference, captured, min_distinct, max_lead):
    index = {}
    for i, s in enumerate(reference):
        index.setdefault(s, i)
    lead = 0
    while lead < len(captured) and captured[lead] not in index:
        lead += 1
    matched = [index.get(s) for s in captured[lead:]]
    foreign = sum(1 for m in matched if m is None)
    indices = [m for m in matched if m is not None]
    backwards = sum(1 for a, b in zip(indices, indices[1:]) if b < a)
    repeats = sum(1 for a, b in zip(indices, indices[1:]) if b == a)
    skipped = sum(b - a - 1 for a, b in zip(indices, indices[1:]) if b > a + 1)
    distinct = len(set(indices))
    span = (indices[0], indices[-1]) if indices else (None, None)
    problems = []
    if lead > max_lead:
        problems.append(f"{lead} frames before the first camera frame (at most {max_lead})")
    if foreign:
        problems.append(f"{foreign} frames match no camera frame")
    if backwards:
        problems.append(f"{backwards} frames went back in time")
    if distinct < min_distinct:
        problems.append(f"only {distinct} distinct camera frames (at least {min_distinct})")
    line = (f"{len(captured)} captured: {lead} before the writer, {len(indices)} exact ({distinct} distinct camera frames "
            f"{span[0]}..{span[1]}, {repeats} repeats, {skipped} skipped), {foreign} foreign, {backwards} backwards")
    return line, problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("reference")
    parser.add_argument("captured")
    parser.add_argument("--min-distinct", type=int, default=10)
    parser.add_argument("--max-lead", type=int, default=600)
    args = parser.parse_args()
    line, problems = judge(sums(args.reference), sums(args.captured), args.min_distinct, args.max_lead)
    print(line)
    for problem in problems:
        print("  problem: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
