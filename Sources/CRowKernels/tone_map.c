#include "tone_map.h"

// Bytes equal to the portable kernel's need its exact operations: no a·b + c fused into one.
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>

#define VR_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

/// The parameters broadcast to 16 lanes, loaded once per call.
typedef struct {
    __m512 eotf_scale, ootf_scale, gain_scale, oetf_scale, gain_range;
    __m512 luma_scale, luma_offset, chroma_scale, chroma_offset;
    __m512 red_from_cr, green_from_cb, green_from_cr, blue_from_cb;
    __m512 kr2020, kg2020, kb2020;
    __m512 p[9];
    __m512 kr709, kg709, kb709;
    __m512i max_code;
} lanes_t;

VR_AVX512 static inline __m512 clamp01(__m512 x) {
    return _mm512_min_ps(_mm512_max_ps(x, _mm512_setzero_ps()), _mm512_set1_ps(1));
}

/// `value` (in 0..<2^23) rounded to nearest, ties to even: adding 2^23 leaves that integer in
/// the significand (ToneMappingKernel.nearestInteger).
VR_AVX512 static inline __m512i nearest(__m512 value) {
    __m512 shifted = _mm512_add_ps(value, _mm512_set1_ps(0x1p23f));
    return _mm512_and_si512(_mm512_castps_si512(shifted), _mm512_set1_epi32(0x7FFFFF));
}

/// The EOTF table at x, interpolated between the entries on either side (ToneMappingKernel.eotf).
VR_AVX512 static inline __m512 eotf_at(const float *table, __m512 x, __m512 scale) {
    __m512 position = _mm512_mul_ps(clamp01(x), scale);
    __m512i lower = _mm512_cvttps_epi32(position);
    __m512 fraction = _mm512_sub_ps(position, _mm512_cvtepi32_ps(lower));
    __m512 below = _mm512_i32gather_ps(lower, table, 4), above = _mm512_i32gather_ps(lower, table + 1, 4);
    return _mm512_add_ps(below, _mm512_mul_ps(fraction, _mm512_sub_ps(above, below)));
}

/// The entry of a table indexed by sqrt(x) (ToneMappingKernel.rootIndex).
VR_AVX512 static inline __m512 at_root(const float *table, __m512 x, __m512 scale) {
    return _mm512_i32gather_ps(nearest(_mm512_mul_ps(_mm512_sqrt_ps(clamp01(x)), scale)), table, 4);
}

/// a·x + b·y + c·z, summed left to right.
VR_AVX512 static inline __m512 dot(__m512 a, __m512 x, __m512 b, __m512 y, __m512 c, __m512 z) {
    return _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(a, x), _mm512_mul_ps(b, y)), _mm512_mul_ps(c, z));
}

/// One pixel per lane: the luma code out, and B' − Y', R' − Y' for the block's chroma
/// (ToneMappingKernel.sdrSignal and the luma part of its block loop).
VR_AVX512 static inline __m512i pixels(const vr_tone_map_params *params, const lanes_t *k, __m512i y_code,
                                       __m512i cb_code, __m512i cr_code, __m512 *blue_difference,
                                       __m512 *red_difference) {
    __m512 y = _mm512_add_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_min_epu32(y_code, k->max_code)), k->luma_scale),
                             k->luma_offset);
    __m512 cb = _mm512_add_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_min_epu32(cb_code, k->max_code)), k->chroma_scale),
                              k->chroma_offset);
    __m512 cr = _mm512_add_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_min_epu32(cr_code, k->max_code)), k->chroma_scale),
                              k->chroma_offset);
    __m512 r = eotf_at(params->eotf, _mm512_add_ps(y, _mm512_mul_ps(k->red_from_cr, cr)), k->eotf_scale);
    __m512 g = eotf_at(params->eotf, _mm512_add_ps(_mm512_add_ps(y, _mm512_mul_ps(k->green_from_cb, cb)),
                                              _mm512_mul_ps(k->green_from_cr, cr)), k->eotf_scale);
    __m512 b = eotf_at(params->eotf, _mm512_add_ps(y, _mm512_mul_ps(k->blue_from_cb, cb)), k->eotf_scale);
    if (params->is_hlg) {
        __m512 scene = dot(k->kr2020, r, k->kg2020, g, k->kb2020, b);
        __m512 factor = at_root(params->ootf, scene, k->ootf_scale);
        r = _mm512_mul_ps(r, factor);
        g = _mm512_mul_ps(g, factor);
        b = _mm512_mul_ps(b, factor);
    }
    __m512 red = dot(k->p[0], r, k->p[1], g, k->p[2], b);
    __m512 green = dot(k->p[3], r, k->p[4], g, k->p[5], b);
    __m512 blue = dot(k->p[6], r, k->p[7], g, k->p[8], b);
    __m512 largest = _mm512_max_ps(_mm512_max_ps(red, green), blue);
    __mmask16 above = _mm512_cmp_ps_mask(largest, k->gain_range, _CMP_GT_OQ);
    __m512 tabled = at_root(params->gain, _mm512_div_ps(largest, k->gain_range), k->gain_scale);
    __m512 gain = _mm512_mask_blend_ps(above, tabled, _mm512_div_ps(_mm512_set1_ps(1), largest));
    r = at_root(params->oetf, _mm512_mul_ps(red, gain), k->oetf_scale);
    g = at_root(params->oetf, _mm512_mul_ps(green, gain), k->oetf_scale);
    b = at_root(params->oetf, _mm512_mul_ps(blue, gain), k->oetf_scale);
    __m512 luma = dot(k->kr709, r, k->kg709, g, k->kb709, b);
    *blue_difference = _mm512_sub_ps(b, luma);
    *red_difference = _mm512_sub_ps(r, luma);
    // ToneMappingKernel.code: (v + 0.5) truncated.
    __m512 code = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(219), luma), _mm512_set1_ps(16)),
                                _mm512_set1_ps(0.5f));
    return _mm512_cvttps_epi32(code);
}

VR_AVX512 static lanes_t broadcast(const vr_tone_map_params *params) {
    lanes_t k;
    k.eotf_scale = _mm512_set1_ps(params->eotf_scale);
    k.ootf_scale = _mm512_set1_ps(params->ootf_scale);
    k.gain_scale = _mm512_set1_ps(params->gain_scale);
    k.oetf_scale = _mm512_set1_ps(params->oetf_scale);
    k.gain_range = _mm512_set1_ps(params->gain_range);
    k.luma_scale = _mm512_set1_ps(params->luma_scale);
    k.luma_offset = _mm512_set1_ps(params->luma_offset);
    k.chroma_scale = _mm512_set1_ps(params->chroma_scale);
    k.chroma_offset = _mm512_set1_ps(params->chroma_offset);
    k.red_from_cr = _mm512_set1_ps(params->red_from_cr);
    k.green_from_cb = _mm512_set1_ps(params->green_from_cb);
    k.green_from_cr = _mm512_set1_ps(params->green_from_cr);
    k.blue_from_cb = _mm512_set1_ps(params->blue_from_cb);
    k.kr2020 = _mm512_set1_ps(params->kr2020);
    k.kg2020 = _mm512_set1_ps(params->kg2020);
    k.kb2020 = _mm512_set1_ps(params->kb2020);
    for (int i = 0; i < 9; i++) k.p[i] = _mm512_set1_ps(params->primaries[i]);
    k.kr709 = _mm512_set1_ps(params->kr709);
    k.kg709 = _mm512_set1_ps(params->kg709);
    k.kb709 = _mm512_set1_ps(params->kb709);
    k.max_code = _mm512_set1_epi32((int)params->max_code);
    return k;
}

/// 2·n 16-bit samples (n ≤ 16) split into the even columns and the odd ones, on 32-bit lanes.
VR_AVX512 static inline void load_pairs(const uint16_t *row, size_t n, __m512i *even, __m512i *odd) {
    __mmask32 mask = n >= 16 ? (__mmask32)0xFFFFFFFF : (__mmask32)((1u << (2 * n)) - 1);
    __m512i both = _mm512_maskz_loadu_epi16(mask, row);
    *even = _mm512_and_si512(both, _mm512_set1_epi32(0xFFFF));
    *odd = _mm512_srli_epi32(both, 16);
}

/// n 16-bit samples (n ≤ 16) on 32-bit lanes.
VR_AVX512 static inline __m512i load_blocks(const uint16_t *row, size_t n) {
    __mmask16 mask = n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1);
    return _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(mask, row));
}

/// Stores the luma codes of n blocks (even and odd columns) as 2·n bytes.
VR_AVX512 static inline void store_pairs(uint8_t *row, size_t n, __m512i even, __m512i odd) {
    __m256i words = _mm512_cvtepi32_epi16(_mm512_or_si512(even, _mm512_slli_epi32(odd, 8)));
    __mmask32 mask = n >= 16 ? (__mmask32)0xFFFFFFFF : (__mmask32)((1u << (2 * n)) - 1);
    _mm256_mask_storeu_epi8(row, mask, words);
}

/// The luma codes of one row's n blocks; adds the row's colour differences to the block sums
/// (left sample, then right, as the portable kernel adds them).
VR_AVX512 static inline void row_of_blocks(const vr_tone_map_params *params, const lanes_t *k, const uint16_t *luma,
                                           const uint16_t *cb, const uint16_t *cr, int chroma_per_pixel,
                                           uint8_t *out, size_t n, int first_row, __m512 *blue, __m512 *red) {
    __m512i y_even, y_odd, cb_even, cb_odd, cr_even, cr_odd;
    load_pairs(luma, n, &y_even, &y_odd);
    if (chroma_per_pixel) {
        load_pairs(cb, n, &cb_even, &cb_odd);
        load_pairs(cr, n, &cr_even, &cr_odd);
    } else {
        cb_even = cb_odd = load_blocks(cb, n);
        cr_even = cr_odd = load_blocks(cr, n);
    }
    __m512 blue_left, red_left, blue_right, red_right;
    __m512i left = pixels(params, k, y_even, cb_even, cr_even, &blue_left, &red_left);
    __m512i right = pixels(params, k, y_odd, cb_odd, cr_odd, &blue_right, &red_right);
    store_pairs(out, n, left, right);
    if (first_row) {
        *blue = _mm512_add_ps(blue_left, blue_right);
        *red = _mm512_add_ps(red_left, red_right);
    } else {
        *blue = _mm512_add_ps(_mm512_add_ps(*blue, blue_left), blue_right);
        *red = _mm512_add_ps(_mm512_add_ps(*red, red_left), red_right);
    }
}

/// n chroma codes: (factor · sum) · scale + 128, rounded as ToneMappingKernel.code.
VR_AVX512 static inline void store_chroma(uint8_t *row, size_t n, __m512 sum, float factor, float scale) {
    __m512 value = _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(factor), sum), _mm512_set1_ps(scale));
    value = _mm512_add_ps(_mm512_add_ps(value, _mm512_set1_ps(128)), _mm512_set1_ps(0.5f));
    __mmask16 mask = n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1);
    _mm_mask_storeu_epi8(row, mask, _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(value)));
}

VR_AVX512 void vr_tone_map_blocks_avx512(const vr_tone_map_params *params,
                                         const uint16_t *luma_top, const uint16_t *luma_bottom,
                                         const uint16_t *cb_top, const uint16_t *cr_top,
                                         const uint16_t *cb_bottom, const uint16_t *cr_bottom, int chroma_per_pixel,
                                         uint8_t *out_top, uint8_t *out_bottom, uint8_t *out_cb, uint8_t *out_cr,
                                         size_t blocks) {
    const lanes_t k = broadcast(params);
    // 1/Float(samples in the block): exact for 2 and 4.
    const float scale = luma_bottom ? 0.25f : 0.5f;
    const size_t chroma_step = chroma_per_pixel ? 2 : 1;
    for (size_t block = 0; block < blocks; block += 16) {
        size_t n = blocks - block < 16 ? blocks - block : 16;
        size_t column = 2 * block, chroma = chroma_step * block;
        __m512 blue, red;
        row_of_blocks(params, &k, luma_top + column, cb_top + chroma, cr_top + chroma, chroma_per_pixel,
                      out_top + column, n, 1, &blue, &red);
        if (luma_bottom) {
            row_of_blocks(params, &k, luma_bottom + column, cb_bottom + chroma, cr_bottom + chroma, chroma_per_pixel,
                          out_bottom + column, n, 0, &blue, &red);
        }
        store_chroma(out_cb + block, n, blue, params->cb_from_blue_difference, scale);
        store_chroma(out_cr + block, n, red, params->cr_from_red_difference, scale);
    }
}

#else

// Never called off x86-64 (vr_cpu_avx512() is 0 there).
void vr_tone_map_blocks_avx512(const vr_tone_map_params *params,
                               const uint16_t *luma_top, const uint16_t *luma_bottom,
                               const uint16_t *cb_top, const uint16_t *cr_top,
                               const uint16_t *cb_bottom, const uint16_t *cr_bottom, int chroma_per_pixel,
                               uint8_t *out_top, uint8_t *out_bottom, uint8_t *out_cb, uint8_t *out_cr,
                               size_t blocks) {
    __builtin_trap();
}

#endif
