// Row kernels of the colour programs (VRenderFilters' ColorKernel) written with AVX-512
// intrinsics, for the machines that have them, chosen at run time: the package itself builds
// for the x86-64 baseline, so these functions carry their own target attribute and are called
// only after `vr_row_kernels_avx512()` said yes.
//
// Each computes exactly ColorProgram's definition (integer arithmetic, then a curve lookup), so
// its bytes equal the portable Swift kernels', the Vulkan shaders' and the reference's.
// Every function reads a group of samples before it writes the group's outputs: a source row
// may be its destination row.
#ifndef VRENDER_ROW_KERNELS_H
#define VRENDER_ROW_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU and OS run the AVX-512 kernels below (AVX-512 F, BW, VL and VBMI, with the
/// ZMM state enabled by the OS), else 0. Always 0 off x86-64.
int vr_row_kernels_avx512(void);

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

#endif
