#include "row_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define VR_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))

/// The first `count` (< 64) lanes set.
VR_AVX512 static inline __mmask64 lanes(size_t count) {
    return count >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << count) - 1);
}

/// table[x] for each byte of x: bits 0–6 pick within a 128-byte half, bit 7 picks the half.
VR_AVX512 static inline __m512i lookup(__m512i x, __m512i t0, __m512i t1, __m512i t2, __m512i t3) {
    __m512i low = _mm512_permutex2var_epi8(t0, x, t1);
    __m512i high = _mm512_permutex2var_epi8(t2, x, t3);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), low, high);
}

VR_AVX512 void vr_lookup_row_avx512(const uint8_t *source, uint8_t *destination, size_t count,
                                    const uint8_t *table) {
    const __m512i t0 = _mm512_loadu_si512(table), t1 = _mm512_loadu_si512(table + 64);
    const __m512i t2 = _mm512_loadu_si512(table + 128), t3 = _mm512_loadu_si512(table + 192);
    size_t x = 0;
    for (; x + 64 <= count; x += 64) {
        __m512i in = _mm512_loadu_si512(source + x);
        _mm512_storeu_si512(destination + x, lookup(in, t0, t1, t2, t3));
    }
    if (x < count) {
        __mmask64 mask = lanes(count - x);
        __m512i in = _mm512_maskz_loadu_epi8(mask, source + x);
        _mm512_mask_storeu_epi8(destination + x, mask, lookup(in, t0, t1, t2, t3));
    }
}

/// One output channel's curve index for 16 samples, as 32-bit lanes in 0...255:
/// clamp(((a·Y + b·Cb + c·Cr + bias) >> 12)), the offsets (−16, −128, +2048, +128) folded
/// into `bias`, which keeps the shift exact (only multiples of 4096 move across it).
VR_AVX512 static inline __m512i curve_index(__m512i y, __m512i u, __m512i v, __m512i a, __m512i b, __m512i c,
                                            __m512i bias) {
    __m512i sum = _mm512_add_epi32(_mm512_mullo_epi32(a, y), _mm512_mullo_epi32(b, u));
    sum = _mm512_add_epi32(sum, _mm512_add_epi32(_mm512_mullo_epi32(c, v), bias));
    sum = _mm512_srai_epi32(sum, 12);
    return _mm512_min_epi32(_mm512_max_epi32(sum, _mm512_setzero_si512()), _mm512_set1_epi32(255));
}

/// Up to 16 bytes at `p` (the first `count`) widened to 32-bit lanes.
VR_AVX512 static inline __m512i widen(const uint8_t *p, size_t count) {
    __mmask16 mask = count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1);
    return _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(mask, p));
}

VR_AVX512 void vr_chroma_row_avx512(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr,
                                    uint8_t *to_cb, uint8_t *to_cr, size_t count, const int32_t *rows,
                                    const uint8_t *cb_curve, const uint8_t *cr_curve) {
    const int reads_mean = rows[0] != 0 || rows[3] != 0;
    const __m512i m3 = _mm512_set1_epi32(rows[0]), m4 = _mm512_set1_epi32(rows[1]), m5 = _mm512_set1_epi32(rows[2]);
    const __m512i m6 = _mm512_set1_epi32(rows[3]), m7 = _mm512_set1_epi32(rows[4]), m8 = _mm512_set1_epi32(rows[5]);
    // m·(Y−16) + m'·(Cb−128) + m''·(Cr−128) + 2048, then + 128 after the shift = + 128·4096 before.
    const __m512i cb_bias = _mm512_set1_epi32(2048 + (128 << 12) - 16 * rows[0] - 128 * rows[1] - 128 * rows[2]);
    const __m512i cr_bias = _mm512_set1_epi32(2048 + (128 << 12) - 16 * rows[3] - 128 * rows[4] - 128 * rows[5]);
    const __m512i c0 = _mm512_loadu_si512(cb_curve), c1 = _mm512_loadu_si512(cb_curve + 64);
    const __m512i c2 = _mm512_loadu_si512(cb_curve + 128), c3 = _mm512_loadu_si512(cb_curve + 192);
    const __m512i r0 = _mm512_loadu_si512(cr_curve), r1 = _mm512_loadu_si512(cr_curve + 64);
    const __m512i r2 = _mm512_loadu_si512(cr_curve + 128), r3 = _mm512_loadu_si512(cr_curve + 192);
    for (size_t x = 0; x < count; x += 64) {
        size_t group = count - x < 64 ? count - x : 64;
        __m512i cb_index = _mm512_setzero_si512(), cr_index = _mm512_setzero_si512();
        // Four steps of 16 samples fill the 64 byte lanes of each channel's indices.
        for (size_t part = 0; part < 4 && 16 * part < group; part++) {
            size_t at = x + 16 * part, n = group - 16 * part;
            __m512i y = reads_mean ? widen(mean + at, n) : _mm512_setzero_si512();
            __m512i u = widen(cb + at, n), v = widen(cr + at, n);
            __m128i cb_bytes = _mm512_cvtepi32_epi8(curve_index(y, u, v, m3, m4, m5, cb_bias));
            __m128i cr_bytes = _mm512_cvtepi32_epi8(curve_index(y, u, v, m6, m7, m8, cr_bias));
            cb_index = _mm512_mask_blend_epi64((__mmask8)(3u << (2 * part)), cb_index,
                                               _mm512_broadcast_i32x4(cb_bytes));
            cr_index = _mm512_mask_blend_epi64((__mmask8)(3u << (2 * part)), cr_index,
                                               _mm512_broadcast_i32x4(cr_bytes));
        }
        __mmask64 mask = lanes(group);
        _mm512_mask_storeu_epi8(to_cb + x, mask, lookup(cb_index, c0, c1, c2, c3));
        _mm512_mask_storeu_epi8(to_cr + x, mask, lookup(cr_index, r0, r1, r2, r3));
    }
}

VR_AVX512 void vr_mean_of_pairs_avx512(const uint8_t *top, const uint8_t *bottom, uint8_t *mean, size_t count) {
    const __m512i ones = _mm512_set1_epi8(1);
    const int two_rows = bottom != NULL;
    const __m512i rounding = _mm512_set1_epi16(two_rows ? 2 : 1);
    for (size_t x = 0; x < count; x += 32) {
        size_t group = count - x < 32 ? count - x : 32;
        __mmask64 mask = lanes(2 * group);
        // maddubs: unsigned bytes times signed ones, adjacent products summed on 16-bit lanes.
        __m512i sums = _mm512_maddubs_epi16(_mm512_maskz_loadu_epi8(mask, top + 2 * x), ones);
        if (two_rows) sums = _mm512_add_epi16(sums, _mm512_maddubs_epi16(_mm512_maskz_loadu_epi8(mask, bottom + 2 * x), ones));
        __m512i rounded = _mm512_srli_epi16(_mm512_add_epi16(sums, rounding), two_rows ? 2 : 1);
        _mm256_mask_storeu_epi8(mean + x, (__mmask32)lanes(group), _mm512_cvtepi16_epi8(rounded));
    }
}

#else

// Never called off x86-64 (vr_cpu_avx512() is 0 there).
void vr_lookup_row_avx512(const uint8_t *source, uint8_t *destination, size_t count, const uint8_t *table) {
    __builtin_trap();
}

void vr_chroma_row_avx512(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr,
                          uint8_t *to_cb, uint8_t *to_cr, size_t count, const int32_t *rows,
                          const uint8_t *cb_curve, const uint8_t *cr_curve) {
    __builtin_trap();
}

void vr_mean_of_pairs_avx512(const uint8_t *top, const uint8_t *bottom, uint8_t *mean, size_t count) {
    __builtin_trap();
}

#endif
