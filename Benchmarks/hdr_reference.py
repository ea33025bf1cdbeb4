#!/usr/bin/env python3
"""How far a tone-mapped export is from the exact HDR → SDR math, in 8-bit levels.

    hdr_reference.py SOURCE EXPORT [--frames 0,60,120] [--transfer hlg|pq] [--ffmpeg PATH]

SOURCE is a 10-bit 4:2:0 limited-range BT.2020 take (HLG or PQ); EXPORT is vrender's SDR
export of it made losslessly (e.g. `--codec ffv1`, no filter), same size and frame count.
ffmpeg decodes the chosen frames of both to raw planes; numpy computes, in float64, what
vrender's HDRToneMapper documents for each SOURCE pixel (BT.2020 NCL → R'G'B', the HLG
inverse OETF and the BT.2100 OOTF for a 1000 cd/m² display or the PQ EOTF, BT.2020 → BT.709
primaries in linear light, BT.2390's EETF from 1000 cd/m² to reference white 203 cd/m² on
max(R, G, B), clip, the inverse BT.1886 EOTF L^(1/2.4), BT.709 8-bit limited Y'CbCr with the
2×2 block mean for chroma), written here from the standards, independently of vrender.

Prints one line per plane (max |difference|, share of samples equal, within 1, within 2) and
a last line "max_error N". Exit status 0 unless something could not be run.
"""
import argparse
import subprocess
import sys

import numpy as np

from ffprobe_size import probe_size

PEAK, WHITE = 1000.0, 203.0
KR, KB = 0.2627, 0.0593
HLG_A = 0.17883277
HLG_B = 1 - 4 * HLG_A
HLG_C = 0.5 - HLG_A * np.log(4 * HLG_A)
PQ_M1, PQ_M2 = 2610 / 16384, 2523 / 4096 * 128
PQ_C1, PQ_C2, PQ_C3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32


def pq_eotf(e):
    p = np.power(np.clip(e, 0, 1), 1 / PQ_M2)
    return 10000 * np.power(np.maximum(p - PQ_C1, 0) / (PQ_C2 - PQ_C3 * p), 1 / PQ_M1)


def pq_inverse(luminance):
    y = np.power(np.clip(luminance / 10000, 0, 1), PQ_M1)
    return np.power((PQ_C1 + PQ_C2 * y) / (1 + PQ_C3 * y), PQ_M2)


def hlg_inverse_oetf(e):
    e = np.clip(e, 0, 1)
    with np.errstate(over="ignore"):
        high = (np.exp((e - HLG_C) / HLG_A) + HLG_B) / 12
    return np.where(e <= 0.5, e * e / 3, high)


def eetf(luminance):
    """BT.2390 EETF (black 0) from a PEAK display to a WHITE one, in cd/m²."""
    source_max = pq_inverse(PEAK)
    max_lum = pq_inverse(WHITE) / source_max
    knee = 1.5 * max_lum - 0.5
    e1 = np.minimum(pq_inverse(luminance) / source_max, 1)
    t = (e1 - knee) / (1 - knee)
    t2, t3 = t * t, t * t * t
    e2 = (2 * t3 - 3 * t2 + 1) * knee + (t3 - 2 * t2 + t) * (1 - knee) + (-2 * t3 + 3 * t2) * max_lum
    return np.where(e1 > knee, pq_eotf(e2 * source_max), luminance)


def rgb_to_xyz(primaries, white=(0.3127, 0.3290)):
    def xyz(p):
        return np.array([p[0] / p[1], 1, (1 - p[0] - p[1]) / p[1]])
    m = np.stack([xyz(p) for p in primaries], axis=1)
    return m * np.linalg.solve(m, xyz(white))


BT2020_TO_BT709 = np.linalg.inv(rgb_to_xyz([(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)])) @ \
    rgb_to_xyz([(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)])


def expected(y10, cb10, cr10, transfer):
    """The 8-bit Y, Cb, Cr planes for 10-bit limited-range 4:2:0 planes."""
    h, w = y10.shape
    y = (y10.astype(np.float64) - 64) / 876
    cb = np.repeat(np.repeat((cb10.astype(np.float64) - 512) / 896, 2, 0), 2, 1)[:h, :w]
    cr = np.repeat(np.repeat((cr10.astype(np.float64) - 512) / 896, 2, 0), 2, 1)[:h, :w]
    kg = 1 - KR - KB
    signal = np.stack([y + 2 * (1 - KR) * cr, y - (2 * KB * (1 - KB) * cb + 2 * KR * (1 - KR) * cr) / kg,
                       y + 2 * (1 - KB) * cb])
    if transfer == "pq":
        light = pq_eotf(signal)
    else:
        scene = hlg_inverse_oetf(signal)
        ys = KR * scene[0] + kg * scene[1] + KB * scene[2]
        light = PEAK * np.power(ys, 0.2) * scene
    rgb = np.tensordot(BT2020_TO_BT709, light, axes=1)
    largest = rgb.max(axis=0)
    safe = np.where(largest > 0, largest, 1)
    gain = np.where(largest > 0, eetf(safe) / safe, 1)
    out = np.power(np.clip(rgb * gain / WHITE, 0, 1), 1 / 2.4)
    luma = 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]
    y8 = np.floor(219 * luma + 16.5)

    def block_mean(plane):
        padded = np.pad(plane, ((0, h % 2), (0, w % 2)), constant_values=np.nan)
        blocks = padded.reshape(padded.shape[0] // 2, 2, padded.shape[1] // 2, 2)
        return np.nanmean(blocks, axis=(1, 3))
    cb8 = np.floor(112 / 0.9278 * block_mean(out[2] - luma) + 128.5)
    cr8 = np.floor(112 / 0.7874 * block_mean(out[0] - luma) + 128.5)
    return y8, cb8, cr8


def decode(ffmpeg, path, frames, pix_fmt, dtype, width, height):
    """The given frames of `path` as lists of (Y, Cb, Cr) arrays."""
    select = "+".join(f"eq(n\\,{n})" for n in frames)
    raw = subprocess.run([ffmpeg, "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-vf", f"select={select}",
                          "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", pix_fmt, "-"],
                         check=True, capture_output=True).stdout
    data = np.frombuffer(raw, dtype=dtype)
    cw, ch = (width + 1) // 2, (height + 1) // 2
    size = width * height + 2 * cw * ch
    if data.size != size * len(frames):
        sys.exit(f"hdr_reference: {path}: got {data.size} samples, expected {size * len(frames)}")
    pictures = []
    for i in range(len(frames)):
        frame = data[i * size:(i + 1) * size]
        y = frame[:width * height].reshape(height, width)
        cb = frame[width * height:width * height + cw * ch].reshape(ch, cw)
        cr = frame[width * height + cw * ch:].reshape(ch, cw)
        pictures.append((y, cb, cr))
    return pictures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source")
    parser.add_argument("export")
    parser.add_argument("--frames", default="0,60,120")
    parser.add_argument("--transfer", choices=["hlg", "pq"], default="hlg")
    parser.add_argument("--ffmpeg", default="ffmpeg")
    parser.add_argument("--ffprobe", default="ffprobe")
    args = parser.parse_args()
    frames = [int(n) for n in args.frames.split(",")]
    width, height = probe_size(args.ffprobe, args.source)
    if probe_size(args.ffprobe, args.export) != (width, height):
        sys.exit("hdr_reference: the export's size differs from the source's")
    sources = decode(args.ffmpeg, args.source, frames, "yuv420p10le", "<u2", width, height)
    exports = decode(args.ffmpeg, args.export, frames, "yuv420p", np.uint8, width, height)
    worst = 0
    stats = {name: [0, 0, 0, 0, 0] for name in ("Y", "Cb", "Cr")}  # max, equal, ≤1, ≤2, total
    for source, export in zip(sources, exports):
        for name, want, got in zip(("Y", "Cb", "Cr"), expected(*source, args.transfer), export):
            error = np.abs(got.astype(np.int64) - want.astype(np.int64))
            s = stats[name]
            s[0] = max(s[0], int(error.max()))
            s[1] += int((error == 0).sum())
            s[2] += int((error <= 1).sum())
            s[3] += int((error <= 2).sum())
            s[4] += error.size
    for name, (most, equal, one, two, total) in stats.items():
        print(f"{name}: max |difference| {most}, equal {100 * equal / total:.3f} %, within 1 "
              f"{100 * one / total:.3f} %, within 2 {100 * two / total:.4f} %")
        worst = max(worst, most)
    print(f"max_error {worst}")


if __name__ == "__main__":
    main()
