#!/usr/bin/env python3
"""Residual camera motion of a video against the unshaken frames of the same scene.

    stabilize_residual.py REFERENCE CANDIDATE [--zoom PERCENT] [--ffmpeg PATH]

REFERENCE is the synthetic camera's take without --shake; CANDIDATE is the same seed's take
shaken (zoom 0), or a stabilized export of it (zoomed in PERCENT about the centre, as
libvidstab zooms). Frame n of each is decoded by ffmpeg to grey, the reference zoomed by
PERCENT here (bilinear, about the centre), and the translation between the two measured by
phase correlation over the middle 80% of the picture (Hann-windowed, the peak refined to
sub-pixel by a parabola through it and its neighbours). The scene's own movement is the same
in both, so what is left is the camera's: the shake, or what stabilization left of it.

Prints one line: frames, mean |dx|, mean |dy| in pixels, and the RMS of the displacement
(--per-frame FILE also writes each frame's dx dy).
Independent of vrender: ffmpeg decodes, numpy measures.
"""
import argparse
import subprocess
import sys

import numpy as np

from ffprobe_size import probe_size


def frames(ffmpeg, path, width, height):
    """Yields the luma of each frame as a float32 array."""
    process = subprocess.Popen([ffmpeg, "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0",
                                "-f", "rawvideo", "-pix_fmt", "gray", "-"], stdout=subprocess.PIPE)
    size = width * height
    while True:
        data = process.stdout.read(size)
        if len(data) < size:
            break
        yield np.frombuffer(data, dtype=np.uint8).reshape(height, width).astype(np.float32)
    process.wait()


def zoom(image, percent):
    """The picture zoomed in by `percent` about its centre (bilinear, edges clamped)."""
    if percent == 0:
        return image
    height, width = image.shape
    scale = 1 + percent / 100
    ys = (np.arange(height) - height / 2) / scale + height / 2
    xs = (np.arange(width) - width / 2) / scale + width / 2
    y0 = np.clip(np.floor(ys).astype(int), 0, height - 2)
    x0 = np.clip(np.floor(xs).astype(int), 0, width - 2)
    fy = (ys - y0)[:, None]
    fx = (xs - x0)[None, :]
    top = image[y0][:, x0] * (1 - fx) + image[y0][:, x0 + 1] * fx
    bottom = image[y0 + 1][:, x0] * (1 - fx) + image[y0 + 1][:, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


def parabola(minus, centre, plus):
    denominator = minus - 2 * centre + plus
    return 0.0 if denominator == 0 else 0.5 * (minus - plus) / denominator


def shift(reference, candidate, window):
    """(dx, dy): how far the candidate's content lies from the reference's, in pixels."""
    a = np.fft.rfft2((reference - reference.mean()) * window)
    b = np.fft.rfft2((candidate - candidate.mean()) * window)
    cross = b * np.conj(a)
    cross /= np.maximum(np.abs(cross), 1e-9)
    surface = np.fft.irfft2(cross, s=reference.shape)
    height, width = surface.shape
    py, px = np.unravel_index(np.argmax(surface), surface.shape)
    dy = py + parabola(surface[(py - 1) % height, px], surface[py, px], surface[(py + 1) % height, px])
    dx = px + parabola(surface[py, (px - 1) % width], surface[py, px], surface[py, (px + 1) % width])
    if dy > height / 2:
        dy -= height
    if dx > width / 2:
        dx -= width
    return dx, dy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference")
    parser.add_argument("candidate")
    parser.add_argument("--zoom", type=float, default=0.0, help="the candidate's zoom in percent")
    parser.add_argument("--ffmpeg", default="ffmpeg")
    parser.add_argument("--ffprobe", default="ffprobe")
    parser.add_argument("--per-frame", metavar="FILE", help="also write each frame's dx dy to FILE")
    args = parser.parse_args()

    width, height = probe_size(args.ffprobe, args.reference)
    if probe_size(args.ffprobe, args.candidate) != (width, height):
        sys.exit(f"stabilize_residual: {args.candidate} is not {width}x{height} like {args.reference}")
    top, left = height // 10, width // 10
    middle = (slice(top, height - top), slice(left, width - left))
    window = np.outer(np.hanning(height - 2 * top), np.hanning(width - 2 * left)).astype(np.float32)

    shifts = []
    for reference, candidate in zip(frames(args.ffmpeg, args.reference, width, height),
                                    frames(args.ffmpeg, args.candidate, width, height)):
        shifts.append(shift(zoom(reference, args.zoom)[middle], candidate[middle], window))
    if not shifts:
        sys.exit("stabilize_residual: no frames decoded")
    shifts = np.array(shifts)
    if args.per_frame:
        np.savetxt(args.per_frame, shifts, fmt="%.3f")
    mean_abs = np.abs(shifts).mean(axis=0)
    rms = np.sqrt((shifts ** 2).sum(axis=1).mean())
    print(f"{len(shifts)} {mean_abs[0]:.3f} {mean_abs[1]:.3f} {rms:.3f}")


if __name__ == "__main__":
    main()
