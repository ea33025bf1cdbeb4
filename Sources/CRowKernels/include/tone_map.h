// HDRToneMapper's per-pixel work (VRenderFilters' ToneMappingKernel) written with AVX-512
// intrinsics (16 pixels per step) and with AVX2 (8), the curve tables read with gathers.
// Chosen at run time like the colour filters' row kernels (cpu_features.h).
//
// It performs the portable Swift kernel's Float operations in the same order, without fused
// multiply-adds, so both give the same bytes; the tests check that and bound both against the
// formulas in Double.
#ifndef VRENDER_TONE_MAP_H
#define VRENDER_TONE_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "cpu_features.h"

/// The folded coefficients and the tables of one converter (ToneMappingKernel's fields).
typedef struct {
    /// Curve tables; `ootf` is read only when `is_hlg`.
    const float *eotf, *ootf, *gain, *oetf;
    /// Each table's entry count − 1.
    float eotf_scale, ootf_scale, gain_scale, oetf_scale;
    /// The largest max(R, G, B) the gain table covers.
    float gain_range;
    /// Input code → Y' (0...1) and Cb, Cr (−0.5...0.5): code · scale + offset.
    float luma_scale, luma_offset, chroma_scale, chroma_offset;
    /// BT.2020 NCL Y'CbCr → R'G'B'.
    float red_from_cr, green_from_cb, green_from_cr, blue_from_cb;
    /// BT.2020 luminance weights (HLG's OOTF).
    float kr2020, kg2020, kb2020;
    /// Linear BT.2020 → BT.709, row-major.
    float primaries[9];
    /// BT.709 R'G'B' → 8-bit limited Y'CbCr.
    float kr709, kg709, kb709, cb_from_blue_difference, cr_from_red_difference;
    /// Input codes above this read as it.
    uint32_t max_code;
    int is_hlg;
} vr_tone_map_params;

/// Converts `blocks` whole 2-sample-wide 4:2:0 output blocks of one block row: luma columns
/// 0 ..< 2·blocks of `luma_top` (and of `luma_bottom`, the row below, unless it is NULL: a
/// picture's odd last row), and output chroma samples 0 ..< blocks.
/// `cb_top`/`cr_top` are the input chroma rows of the top luma row, `cb_bottom`/`cr_bottom` of
/// the bottom one (ignored without `luma_bottom`); with `chroma_per_pixel` (4:4:4) they hold a
/// sample per luma column, else one per block (4:2:0, 4:2:2).
void vr_tone_map_blocks_avx512(const vr_tone_map_params *params,
                               const uint16_t *luma_top, const uint16_t *luma_bottom,
                               const uint16_t *cb_top, const uint16_t *cr_top,
                               const uint16_t *cb_bottom, const uint16_t *cr_bottom, int chroma_per_pixel,
                               uint8_t *out_top, uint8_t *out_bottom, uint8_t *out_cb, uint8_t *out_cr,
                               size_t blocks);

/// `vr_tone_map_blocks_avx512`'s work, 8 blocks per step; the same bytes.
void vr_tone_map_blocks_avx2(const vr_tone_map_params *params,
                             const uint16_t *luma_top, const uint16_t *luma_bottom,
                             const uint16_t *cb_top, const uint16_t *cr_top,
                             const uint16_t *cb_bottom, const uint16_t *cr_bottom, int chroma_per_pixel,
                             uint8_t *out_top, uint8_t *out_bottom, uint8_t *out_cb, uint8_t *out_cr,
                             size_t blocks);

#endif
