// Row kernels of the colour programs (VRenderFilters' ColorKernel) written with AVX2 and
// AVX-512 intrinsics, for the machines that have them, chosen at run time (cpu_features.h):
// the package itself builds for the x86-64 baseline, so these functions carry their own
// target attribute and are called only after `vr_cpu_avx2()` or `vr_cpu_avx512()` said yes.
// The baseline ones (SSE2, part of every x86-64; plain C elsewhere) run on any CPU.
//
// Each computes exactly ColorProgram's definition (integer arithmetic, then a curve lookup), so
// its bytes equal the portable Swift kernels', the Vulkan shaders' and the reference's.
// Every function reads a group of samples before it writes the group's outputs: a source row
// may be its destination row.
#ifndef VRENDER_ROW_KERNELS_H
#define VRENDER_ROW_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "cpu_features.h"

// MARK: AVX-512 (F, BW, VL, VBMI)

/// destination[i] = table[source[i]] for i < count: a 256-entry byte table held in four ZMM
/// registers, 64 samples per step (two two-register byte permutes and a blend on bit 7).
void vr_lookup_row_avx512(const uint8_t *source, uint8_t *destination, size_t count, const uint8_t *table);

/// One chroma row of a colour program, 16 samples per 32-bit step:
///   Cb' = cbCurve[clamp(((m3·(Ybar−16) + m4·(Cb−128) + m5·(Cr−128) + 2048) >> 12) + 128)]
///   Cr' = crCurve[clamp(((m6·(Ybar−16) + m7·(Cb−128) + m8·(Cr−128) + 2048) >> 12) + 128)]
/// `rows` is the program's matrix rows 2 and 3: {m3, m4, m5, m6, m7, m8} (|m| ≤ 2^20).
/// `mean` (the blocks' rounded mean luma) is read only when m3 or m6 is not 0, and may then
/// be NULL otherwise.
void vr_chroma_row_avx512(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr,
                          uint8_t *to_cb, uint8_t *to_cr, size_t count, const int32_t *rows,
                          const uint8_t *cb_curve, const uint8_t *cr_curve);

/// The rounded mean of each horizontal pair of luma samples over one or two rows: the mean
/// luma of `count` chroma blocks two samples wide (4:2:0 with `bottom`, 4:2:2 or a 4:2:0
/// picture's odd last row with `bottom` NULL), 32 blocks per step. Reads `2 · count` bytes of
/// each row: blocks cut off by an odd width are the caller's.
void vr_mean_of_pairs_avx512(const uint8_t *top, const uint8_t *bottom, uint8_t *mean, size_t count);

// MARK: AVX2 (x86-64-v3)
//
// AVX2 has no byte permute across more than 16 entries, so a curve is looked up with gathers:
// 32-bit loads at the entry's address, of which the low byte (or two) are kept. The tables
// must therefore be readable 3 bytes past their last entry (KernelTables and ComposedLuma pad
// them).

/// destination[i] = table[source[i]] for i < count, 32 samples per step: two samples at a time
/// from `pairs` (65,536 entries, `table[a] | table[b] << 8` at `a | b << 8`, 128 KiB: stays in
/// L2), 8 pairs per gather; the last samples from `table`.
void vr_lookup_row_avx2(const uint8_t *source, uint8_t *destination, size_t count, const uint16_t *pairs,
                        const uint8_t *table);

/// `vr_chroma_row_avx512`'s definition, 8 samples per 32-bit step, 32 per store.
void vr_chroma_row_avx2(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr,
                        uint8_t *to_cb, uint8_t *to_cr, size_t count, const int32_t *rows,
                        const uint8_t *cb_curve, const uint8_t *cr_curve);

/// A chroma row of a program whose chroma reads only chroma: (Cb', Cr') from `pairs`
/// (65,536 entries, `cb' | cr' << 8` at `cb | cr << 8`), 8 samples per gather.
void vr_chroma_pairs_row_avx2(const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb, uint8_t *to_cr,
                              size_t count, const uint16_t *pairs);

/// A chroma row of a program whose outputs each read two of (mean luma, Cb, Cr):
/// Cb' = cb_table[cb_low | cb_high << 8], Cr' = cr_table[cr_low | cr_high << 8] (65,536-entry
/// byte tables), 8 samples per gather. Both outputs of a sample are read before either is
/// written (a row may be both an input and an output).
void vr_chroma_tables_row_avx2(const uint8_t *cb_low, const uint8_t *cb_high, const uint8_t *cr_low,
                               const uint8_t *cr_high, uint8_t *to_cb, uint8_t *to_cr, size_t count,
                               const uint8_t *cb_table, const uint8_t *cr_table);

/// A chroma row of a program whose curves are shifts with a clamp, `curve[i] = clamp(i + shift,
/// low, high)` (every look's chroma curves are): the curve folds into one clamp, so nothing is
/// looked up. Cb' = clamp(((m3·(Ybar−16) + m4·(Cb−128) + m5·(Cr−128) + 2048) >> 12) + limits[0],
/// limits[1], limits[2]), Cr' likewise with m6–m8 and limits[3–5]; 16 samples per step, the
/// matrix on 16-bit lanes (|m| < 2^15, products summed on 32). `mean` is read only when m3 or
/// m6 is not 0, and may then be NULL otherwise.
void vr_chroma_shift_row_avx2(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb,
                              uint8_t *to_cr, size_t count, const int32_t *rows, const int32_t *limits);

/// `vr_mean_of_pairs_avx512`'s definition, 16 blocks per step.
void vr_mean_of_pairs_avx2(const uint8_t *top, const uint8_t *bottom, uint8_t *mean, size_t count);

// MARK: Baseline (any CPU)

/// `vr_chroma_shift_row_avx2`'s definition for the portable kernels: 8 samples per step with
/// SSE2's 16-bit multiply-add (part of every x86-64), a plain C loop elsewhere.
void vr_chroma_shift_row_baseline(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb,
                                  uint8_t *to_cr, size_t count, const int32_t *rows, const int32_t *limits);

#endif
