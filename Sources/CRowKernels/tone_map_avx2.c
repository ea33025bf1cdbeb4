#include "tone_map.h"

// Bytes equal to the portable kernel's need its exact operations: no a·b + c fused into one.
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#define VR_AVX2 __attribute__((target("avx2")))

/// The parameters broadcast to 8 lanes, loaded once per call.
typedef struct {
    __m256 eotf_scale, ootf_scale, gain_scale, oetf_scale, gain_range;
    __m256 luma_scale, luma_offset, chroma_scale, chroma_offset;
    __m256 red_from_cr, green_from_cb, green_from_cr, blue_from_cb;
    __m256 kr2020, kg2020, kb2020;
    __m256 p[9];
    __m256 kr709, kg709, kb709;
    __m256i max_code;
} lanes_t;

VR_AVX2 static inline __m256 clamp01(__m256 x) {
    return _mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), _mm256_set1_ps(1));
}

/// `value` (in 0..<2^23) rounded to nearest, ties to even (ToneMappingKernel.nearestInteger).
VR_AVX2 static inline __m256i nearest(__m256 value) {
    __m256 shifted = _mm256_add_ps(value, _mm256_set1_ps(0x1p23f));
    return _mm256_and_si256(_mm256_castps_si256(shifted), _mm256_set1_epi32(0x7FFFFF));
}

/// The EOTF table at x, interpolated between the entries on either side (ToneMappingKernel.eotf).
VR_AVX2 static inline __m256 eotf_at(const float *table, __m256 x, __m256 scale) {
    __m256 position = _mm256_mul_ps(clamp01(x), scale);
    __m256i lower = _mm256_cvttps_epi32(position);
    __m256 fraction = _mm256_sub_ps(position, _mm256_cvtepi32_ps(lower));
    __m256 below = _mm256_i32gather_ps(table, lower, 4), above = _mm256_i32gather_ps(table + 1, lower, 4);
    return _mm256_add_ps(below, _mm256_mul_ps(fraction, _mm256_sub_ps(above, below)));
}

/// The entry of a table indexed by sqrt(x) (ToneMappingKernel.rootIndex).
VR_AVX2 static inline __m256 at_root(const float *table, __m256 x, __m256 scale) {
    return _mm256_i32gather_ps(table, nearest(_mm256_mul_ps(_mm256_sqrt_ps(clamp01(x)), scale)), 4);
}

/// a·x + b·y + c·z, summed left to right.
VR_AVX2 static inline __m256 dot(__m256 a, __m256 x, __m256 b, __m256 y, __m256 c, __m256 z) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a, x), _mm256_mul_ps(b, y)), _mm256_mul_ps(c, z));
}

/// An input code on 32-bit lanes → code · scale + offset.
VR_AVX2 static inline __m256 signal(__m256i code, const lanes_t *k, __m256 scale, __m256 offset) {
    return _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_min_epu32(code, k->max_code)), scale), offset);
}

/// One pixel per lane: the luma code out, and B' − Y', R' − Y' for the block's chroma
/// (ToneMappingKernel.sdrSignal and the luma part of its block loop).
VR_AVX2 static inline __m256i pixels(const vr_tone_map_params *params, const lanes_t *k, __m256i y_code,
                                     __m256i cb_code, __m256i cr_code, __m256 *blue_difference,
                                     __m256 *red_difference) {
    __m256 y = signal(y_code, k, k->luma_scale, k->luma_offset);
    __m256 cb = signal(cb_code, k, k->chroma_scale, k->chroma_offset);
    __m256 cr = signal(cr_code, k, k->chroma_scale, k->chroma_offset);
    __m256 r = eotf_at(params->eotf, _mm256_add_ps(y, _mm256_mul_ps(k->red_from_cr, cr)), k->eotf_scale);
    __m256 g = eotf_at(params->eotf, _mm256_add_ps(_mm256_add_ps(y, _mm256_mul_ps(k->green_from_cb, cb)),
                                                   _mm256_mul_ps(k->green_from_cr, cr)), k->eotf_scale);
    __m256 b = eotf_at(params->eotf, _mm256_add_ps(y, _mm256_mul_ps(k->blue_from_cb, cb)), k->eotf_scale);
    if (params->is_hlg) {
        __m256 factor = at_root(params->ootf, dot(k->kr2020, r, k->kg2020, g, k->kb2020, b), k->ootf_scale);
        r = _mm256_mul_ps(r, factor);
        g = _mm256_mul_ps(g, factor);
        b = _mm256_mul_ps(b, factor);
    }
    __m256 red = dot(k->p[0], r, k->p[1], g, k->p[2], b);
    __m256 green = dot(k->p[3], r, k->p[4], g, k->p[5], b);
    __m256 blue = dot(k->p[6], r, k->p[7], g, k->p[8], b);
    __m256 largest = _mm256_max_ps(_mm256_max_ps(red, green), blue);
    __m256 above = _mm256_cmp_ps(largest, k->gain_range, _CMP_GT_OQ);
    __m256 tabled = at_root(params->gain, _mm256_div_ps(largest, k->gain_range), k->gain_scale);
    __m256 gain = _mm256_blendv_ps(tabled, _mm256_div_ps(_mm256_set1_ps(1), largest), above);
    r = at_root(params->oetf, _mm256_mul_ps(red, gain), k->oetf_scale);
    g = at_root(params->oetf, _mm256_mul_ps(green, gain), k->oetf_scale);
    b = at_root(params->oetf, _mm256_mul_ps(blue, gain), k->oetf_scale);
    __m256 luma = dot(k->kr709, r, k->kg709, g, k->kb709, b);
    *blue_difference = _mm256_sub_ps(b, luma);
    *red_difference = _mm256_sub_ps(r, luma);
    // ToneMappingKernel.code: (v + 0.5) truncated.
    __m256 code = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(219), luma), _mm256_set1_ps(16)),
                                _mm256_set1_ps(0.5f));
    return _mm256_cvttps_epi32(code);
}

VR_AVX2 static lanes_t broadcast(const vr_tone_map_params *params) {
    lanes_t k;
    k.eotf_scale = _mm256_set1_ps(params->eotf_scale);
    k.ootf_scale = _mm256_set1_ps(params->ootf_scale);
    k.gain_scale = _mm256_set1_ps(params->gain_scale);
    k.oetf_scale = _mm256_set1_ps(params->oetf_scale);
    k.gain_range = _mm256_set1_ps(params->gain_range);
    k.luma_scale = _mm256_set1_ps(params->luma_scale);
    k.luma_offset = _mm256_set1_ps(params->luma_offset);
    k.chroma_scale = _mm256_set1_ps(params->chroma_scale);
    k.chroma_offset = _mm256_set1_ps(params->chroma_offset);
    k.red_from_cr = _mm256_set1_ps(params->red_from_cr);
    k.green_from_cb = _mm256_set1_ps(params->green_from_cb);
    k.green_from_cr = _mm256_set1_ps(params->green_from_cr);
    k.blue_from_cb = _mm256_set1_ps(params->blue_from_cb);
    k.kr2020 = _mm256_set1_ps(params->kr2020);
    k.kg2020 = _mm256_set1_ps(params->kg2020);
    k.kb2020 = _mm256_set1_ps(params->kb2020);
    for (int i = 0; i < 9; i++) k.p[i] = _mm256_set1_ps(params->primaries[i]);
    k.kr709 = _mm256_set1_ps(params->kr709);
    k.kg709 = _mm256_set1_ps(params->kg709);
    k.kb709 = _mm256_set1_ps(params->kb709);
    k.max_code = _mm256_set1_epi32((int)params->max_code);
    return k;
}

/// 16 samples of 16 bits split into the even columns and the odd ones, on 32-bit lanes.
VR_AVX2 static inline void load_pairs(const uint16_t *row, __m256i *even, __m256i *odd) {
    __m256i both = _mm256_loadu_si256((const __m256i *)row);
    *even = _mm256_and_si256(both, _mm256_set1_epi32(0xFFFF));
    *odd = _mm256_srli_epi32(both, 16);
}

/// The luma codes of 8 blocks (even and odd columns) as 16 bytes.
VR_AVX2 static inline void store_pairs(uint8_t *row, __m256i even, __m256i odd) {
    __m256i words = _mm256_or_si256(even, _mm256_slli_epi32(odd, 8));
    // Bytes 0–1 of each 32-bit lane (truncation, as the AVX-512 kernel's), then quarters 0 and 2.
    const __m256i keep = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1,
                                          0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i bytes = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(words, keep), 0x08);
    _mm_storeu_si128((__m128i *)row, _mm256_castsi256_si128(bytes));
}

/// One row's 8 blocks: their luma codes, and the row's colour differences added to the block
/// sums (left sample, then right, as the portable kernel adds them).
VR_AVX2 static inline void row_of_blocks(const vr_tone_map_params *params, const lanes_t *k, const uint16_t *luma,
                                         const uint16_t *cb, const uint16_t *cr, int chroma_per_pixel,
                                         uint8_t *out, int first_row, __m256 *blue, __m256 *red) {
    __m256i y_even, y_odd, cb_even, cb_odd, cr_even, cr_odd;
    load_pairs(luma, &y_even, &y_odd);
    if (chroma_per_pixel) {
        load_pairs(cb, &cb_even, &cb_odd);
        load_pairs(cr, &cr_even, &cr_odd);
    } else {
        cb_even = cb_odd = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)cb));
        cr_even = cr_odd = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)cr));
    }
    __m256 blue_left, red_left, blue_right, red_right;
    __m256i left = pixels(params, k, y_even, cb_even, cr_even, &blue_left, &red_left);
    __m256i right = pixels(params, k, y_odd, cb_odd, cr_odd, &blue_right, &red_right);
    store_pairs(out, left, right);
    if (first_row) {
        *blue = _mm256_add_ps(blue_left, blue_right);
        *red = _mm256_add_ps(red_left, red_right);
    } else {
        *blue = _mm256_add_ps(_mm256_add_ps(*blue, blue_left), blue_right);
        *red = _mm256_add_ps(_mm256_add_ps(*red, red_left), red_right);
    }
}

/// 8 chroma codes: (factor · sum) · scale + 128, rounded as ToneMappingKernel.code.
VR_AVX2 static inline void store_chroma(uint8_t *row, __m256 sum, float factor, float scale) {
    __m256 value = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(factor), sum), _mm256_set1_ps(scale));
    value = _mm256_add_ps(_mm256_add_ps(value, _mm256_set1_ps(128)), _mm256_set1_ps(0.5f));
    // Byte 0 of each 32-bit lane (truncation), then 32-bit lanes 0 and 4.
    const __m256i keep = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                          0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i bytes = _mm256_shuffle_epi8(_mm256_cvttps_epi32(value), keep);
    bytes = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1));
    _mm_storel_epi64((__m128i *)row, _mm256_castsi256_si128(bytes));
}

/// The rows of one group of blocks, as `vr_tone_map_blocks_avx2` takes them.
typedef struct {
    const uint16_t *luma_top, *luma_bottom, *cb_top, *cr_top, *cb_bottom, *cr_bottom;
    uint8_t *out_top, *out_bottom, *out_cb, *out_cr;
} group_t;

/// Converts 8 whole blocks.
VR_AVX2 static void convert_group(const vr_tone_map_params *params, const lanes_t *k, const group_t *g,
                                  int chroma_per_pixel) {
    // 1/Float(samples in the block): exact for 2 and 4.
    const float scale = g->luma_bottom ? 0.25f : 0.5f;
    __m256 blue, red;
    row_of_blocks(params, k, g->luma_top, g->cb_top, g->cr_top, chroma_per_pixel, g->out_top, 1, &blue, &red);
    if (g->luma_bottom) {
        row_of_blocks(params, k, g->luma_bottom, g->cb_bottom, g->cr_bottom, chroma_per_pixel, g->out_bottom, 0,
                      &blue, &red);
    }
    store_chroma(g->out_cb, blue, params->cb_from_blue_difference, scale);
    store_chroma(g->out_cr, red, params->cr_from_red_difference, scale);
}

VR_AVX2 void vr_tone_map_blocks_avx2(const vr_tone_map_params *params,
                                     const uint16_t *luma_top, const uint16_t *luma_bottom,
                                     const uint16_t *cb_top, const uint16_t *cr_top,
                                     const uint16_t *cb_bottom, const uint16_t *cr_bottom, int chroma_per_pixel,
                                     uint8_t *out_top, uint8_t *out_bottom, uint8_t *out_cb, uint8_t *out_cr,
                                     size_t blocks) {
    const lanes_t k = broadcast(params);
    const size_t chroma_step = chroma_per_pixel ? 2 : 1;
    size_t block = 0;
    for (; block + 8 <= blocks; block += 8) {
        size_t column = 2 * block, chroma = chroma_step * block;
        group_t g = {luma_top + column, luma_bottom ? luma_bottom + column : NULL, cb_top + chroma, cr_top + chroma,
                     cb_bottom + chroma, cr_bottom + chroma, out_top + column, out_bottom ? out_bottom + column : NULL,
                     out_cb + block, out_cr + block};
        convert_group(params, &k, &g, chroma_per_pixel);
    }
    if (block == blocks) return;
    // The last 1–7 blocks through the same vector code, on copies padded to a whole group (AVX2
    // has no masked loads of 16-bit samples): the lanes past the end are converted and dropped.
    size_t n = blocks - block, column = 2 * block, chroma = chroma_step * block, chroma_count = chroma_step * n;
    uint16_t in[6][16] = {{0}};
    uint8_t out[4][16];
    memcpy(in[0], luma_top + column, 2 * n * sizeof(uint16_t));
    memcpy(in[2], cb_top + chroma, chroma_count * sizeof(uint16_t));
    memcpy(in[3], cr_top + chroma, chroma_count * sizeof(uint16_t));
    if (luma_bottom) {
        memcpy(in[1], luma_bottom + column, 2 * n * sizeof(uint16_t));
        memcpy(in[4], cb_bottom + chroma, chroma_count * sizeof(uint16_t));
        memcpy(in[5], cr_bottom + chroma, chroma_count * sizeof(uint16_t));
    }
    group_t g = {in[0], luma_bottom ? in[1] : NULL, in[2], in[3], in[4], in[5], out[0], out[1], out[2], out[3]};
    convert_group(params, &k, &g, chroma_per_pixel);
    memcpy(out_top + column, out[0], 2 * n);
    if (luma_bottom) memcpy(out_bottom + column, out[1], 2 * n);
    memcpy(out_cb + block, out[2], n);
    memcpy(out_cr + block, out[3], n);
}

#else

// Never called off x86-64 (vr_cpu_avx2() is 0 there).
void vr_tone_map_blocks_avx2(const vr_tone_map_params *params,
                             const uint16_t *luma_top, const uint16_t *luma_bottom,
                             const uint16_t *cb_top, const uint16_t *cr_top,
                             const uint16_t *cb_bottom, const uint16_t *cr_bottom, int chroma_per_pixel,
                             uint8_t *out_top, uint8_t *out_bottom, uint8_t *out_cb, uint8_t *out_cr,
                             size_t blocks) {
    __builtin_trap();
}

#endif
