#include "row_kernels.h"
#include "shift_curves.h"

/// The definition of one chroma output sample (the kernels' last samples, and the reference
/// the vector steps must equal).
static inline uint8_t chroma_sample(int32_t y, int32_t u, int32_t v, const int32_t *row, const uint8_t *curve) {
    int32_t index = ((row[0] * (y - 16) + row[1] * (u - 128) + row[2] * (v - 128) + 2048) >> 12) + 128;
    return curve[index < 0 ? 0 : index > 255 ? 255 : index];
}

#if defined(__x86_64__)
#include <immintrin.h>

#define VR_AVX2 __attribute__((target("avx2")))

VR_AVX2 void vr_lookup_row_avx2(const uint8_t *source, uint8_t *destination, size_t count, const uint16_t *pairs,
                                const uint8_t *table) {
    // Bytes 0–1 of each 32-bit lane (the pair's entry), to the low half of each 128-bit lane.
    const __m256i keep = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1,
                                          0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    size_t x = 0;
    for (; x + 32 <= count; x += 32) {
        // Sixteen pairs of samples as 16-bit indices, widened to two sets of eight 32-bit lanes.
        __m256i low = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(source + x)));
        __m256i high = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(source + x + 16)));
        low = _mm256_shuffle_epi8(_mm256_i32gather_epi32((const int *)pairs, low, 2), keep);
        high = _mm256_shuffle_epi8(_mm256_i32gather_epi32((const int *)pairs, high, 2), keep);
        // 64-bit quarters now hold pairs 0–3, 8–11 | 4–7, 12–15: put them in order.
        __m256i out = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(low, high), 0xD8);
        _mm256_storeu_si256((__m256i *)(destination + x), out);
    }
    for (; x < count; x++) destination[x] = table[source[x]];
}

/// One output channel's curve index for 8 samples (ColorProgram's definition; `bias` folds in
/// the offsets as in the AVX-512 kernel).
VR_AVX2 static inline __m256i curve_index(__m256i y, __m256i u, __m256i v, __m256i a, __m256i b, __m256i c,
                                          __m256i bias) {
    __m256i sum = _mm256_add_epi32(_mm256_mullo_epi32(a, y), _mm256_mullo_epi32(b, u));
    sum = _mm256_add_epi32(sum, _mm256_add_epi32(_mm256_mullo_epi32(c, v), bias));
    sum = _mm256_srai_epi32(sum, 12);
    return _mm256_min_epi32(_mm256_max_epi32(sum, _mm256_setzero_si256()), _mm256_set1_epi32(255));
}

/// 8 bytes at `p` widened to 32-bit lanes.
VR_AVX2 static inline __m256i widen(const uint8_t *p) {
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
}

/// curve[index] for 8 indices in 0...255: a 32-bit gather, its low byte kept.
VR_AVX2 static inline __m256i look_up(const uint8_t *curve, __m256i index) {
    return _mm256_and_si256(_mm256_i32gather_epi32((const int *)curve, index, 1), _mm256_set1_epi32(0xFF));
}

/// Four sets of eight 32-bit lanes holding bytes, as 32 bytes in order.
VR_AVX2 static inline __m256i pack(__m256i a, __m256i b, __m256i c, __m256i d) {
    // Per 128-bit lane: a0–3 b0–3 c0–3 d0–3 | a4–7 b4–7 c4–7 d4–7, as bytes.
    __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
    return _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

VR_AVX2 void vr_chroma_row_avx2(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr,
                                uint8_t *to_cb, uint8_t *to_cr, size_t count, const int32_t *rows,
                                const uint8_t *cb_curve, const uint8_t *cr_curve) {
    const int reads_mean = rows[0] != 0 || rows[3] != 0;
    const __m256i m3 = _mm256_set1_epi32(rows[0]), m4 = _mm256_set1_epi32(rows[1]), m5 = _mm256_set1_epi32(rows[2]);
    const __m256i m6 = _mm256_set1_epi32(rows[3]), m7 = _mm256_set1_epi32(rows[4]), m8 = _mm256_set1_epi32(rows[5]);
    const __m256i cb_bias = _mm256_set1_epi32(2048 + (128 << 12) - 16 * rows[0] - 128 * rows[1] - 128 * rows[2]);
    const __m256i cr_bias = _mm256_set1_epi32(2048 + (128 << 12) - 16 * rows[3] - 128 * rows[4] - 128 * rows[5]);
    size_t x = 0;
    for (; x + 32 <= count; x += 32) {
        __m256i to_cb_parts[4], to_cr_parts[4];
        for (int part = 0; part < 4; part++) {
            size_t at = x + 8 * part;
            __m256i y = reads_mean ? widen(mean + at) : _mm256_setzero_si256();
            __m256i u = widen(cb + at), v = widen(cr + at);
            to_cb_parts[part] = look_up(cb_curve, curve_index(y, u, v, m3, m4, m5, cb_bias));
            to_cr_parts[part] = look_up(cr_curve, curve_index(y, u, v, m6, m7, m8, cr_bias));
        }
        _mm256_storeu_si256((__m256i *)(to_cb + x), pack(to_cb_parts[0], to_cb_parts[1], to_cb_parts[2], to_cb_parts[3]));
        _mm256_storeu_si256((__m256i *)(to_cr + x), pack(to_cr_parts[0], to_cr_parts[1], to_cr_parts[2], to_cr_parts[3]));
    }
    for (; x < count; x++) {
        int32_t y = reads_mean ? mean[x] : 16, u = cb[x], v = cr[x];
        to_cb[x] = chroma_sample(y, u, v, rows, cb_curve);
        to_cr[x] = chroma_sample(y, u, v, rows + 3, cr_curve);
    }
}

/// Eight 32-bit lanes holding 16-bit values, twice, as 16 bytes of low halves and 16 of high
/// halves, in order.
VR_AVX2 static inline void split_words(__m256i first, __m256i second, __m128i *low, __m128i *high) {
    const __m256i word = _mm256_set1_epi32(0xFFFF);
    // 16 words in order, then the low bytes of each 128-bit lane to its first 8 bytes.
    __m256i words = _mm256_permute4x64_epi64(
        _mm256_packus_epi32(_mm256_and_si256(first, word), _mm256_and_si256(second, word)), 0xD8);
    const __m256i deinterleave = _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15,
                                                  0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    __m256i bytes = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(words, deinterleave), 0xD8);
    *low = _mm256_castsi256_si128(bytes);
    *high = _mm256_extracti128_si256(bytes, 1);
}

VR_AVX2 void vr_chroma_pairs_row_avx2(const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb, uint8_t *to_cr,
                                      size_t count, const uint16_t *pairs) {
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        __m128i u = _mm_loadu_si128((const __m128i *)(cb + x)), v = _mm_loadu_si128((const __m128i *)(cr + x));
        // cb | cr << 8 for samples 0–7 and 8–15, on 32-bit lanes.
        __m256i first = _mm256_cvtepu16_epi32(_mm_unpacklo_epi8(u, v));
        __m256i second = _mm256_cvtepu16_epi32(_mm_unpackhi_epi8(u, v));
        first = _mm256_i32gather_epi32((const int *)pairs, first, 2);
        second = _mm256_i32gather_epi32((const int *)pairs, second, 2);
        __m128i out_cb, out_cr;
        split_words(first, second, &out_cb, &out_cr);
        _mm_storeu_si128((__m128i *)(to_cb + x), out_cb);
        _mm_storeu_si128((__m128i *)(to_cr + x), out_cr);
    }
    for (; x < count; x++) {
        uint16_t pair = pairs[cb[x] | cr[x] << 8];
        to_cb[x] = (uint8_t)pair;
        to_cr[x] = (uint8_t)(pair >> 8);
    }
}

/// table[low | high << 8] for 8 samples, on 32-bit lanes.
VR_AVX2 static inline __m256i look_up_pair(const uint8_t *table, const uint8_t *low, const uint8_t *high) {
    __m256i index = _mm256_or_si256(widen(low), _mm256_slli_epi32(widen(high), 8));
    return _mm256_and_si256(_mm256_i32gather_epi32((const int *)table, index, 1), _mm256_set1_epi32(0xFF));
}

VR_AVX2 void vr_chroma_tables_row_avx2(const uint8_t *cb_low, const uint8_t *cb_high, const uint8_t *cr_low,
                                       const uint8_t *cr_high, uint8_t *to_cb, uint8_t *to_cr, size_t count,
                                       const uint8_t *cb_table, const uint8_t *cr_table) {
    size_t x = 0;
    for (; x + 32 <= count; x += 32) {
        __m256i cb_parts[4], cr_parts[4];
        for (int part = 0; part < 4; part++) {
            size_t at = x + 8 * part;
            cb_parts[part] = look_up_pair(cb_table, cb_low + at, cb_high + at);
            cr_parts[part] = look_up_pair(cr_table, cr_low + at, cr_high + at);
        }
        _mm256_storeu_si256((__m256i *)(to_cb + x), pack(cb_parts[0], cb_parts[1], cb_parts[2], cb_parts[3]));
        _mm256_storeu_si256((__m256i *)(to_cr + x), pack(cr_parts[0], cr_parts[1], cr_parts[2], cr_parts[3]));
    }
    for (; x < count; x++) {
        uint8_t value = cb_table[cb_low[x] | cb_high[x] << 8];
        to_cr[x] = cr_table[cr_low[x] | cr_high[x] << 8];
        to_cb[x] = value;
    }
}

/// One channel of `vr_chroma_shift_row_avx2` for 16 samples: (y, u) and (v, 1) pairs on 16-bit
/// lanes times (a, b) and (c, 2048), summed on 32-bit lanes, shifted, packed back to 16 bits
/// (in order: unpacklo/hi split each 128-bit lane, packs joins them), offset and clamped.
VR_AVX2 static inline __m256i shift_channel(__m256i yu_low, __m256i yu_high, __m256i v1_low, __m256i v1_high,
                                            __m256i ab, __m256i c2048, __m256i offset, __m256i floor, __m256i ceiling) {
    __m256i low = _mm256_add_epi32(_mm256_madd_epi16(yu_low, ab), _mm256_madd_epi16(v1_low, c2048));
    __m256i high = _mm256_add_epi32(_mm256_madd_epi16(yu_high, ab), _mm256_madd_epi16(v1_high, c2048));
    __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(low, 12), _mm256_srai_epi32(high, 12));
    return _mm256_min_epi16(_mm256_max_epi16(_mm256_add_epi16(words, offset), floor), ceiling);
}

VR_AVX2 void vr_chroma_shift_row_avx2(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb,
                                      uint8_t *to_cr, size_t count, const int32_t *rows, const int32_t *limits) {
    const int reads_mean = rows[0] != 0 || rows[3] != 0;
    const __m256i cb_ab = _mm256_set1_epi32(vr_coefficient_pair(rows[0], rows[1]));
    const __m256i cb_c = _mm256_set1_epi32(vr_coefficient_pair(rows[2], 2048));
    const __m256i cr_ab = _mm256_set1_epi32(vr_coefficient_pair(rows[3], rows[4]));
    const __m256i cr_c = _mm256_set1_epi32(vr_coefficient_pair(rows[5], 2048));
    const __m256i ones = _mm256_set1_epi16(1), center = _mm256_set1_epi16(128), black = _mm256_set1_epi16(16);
    // In registers before the loop: the stores through uint8_t pointers may alias `limits`, so
    // read inside it they were loaded and broadcast again every step (a fifth of its time).
    const __m256i cb_offset = _mm256_set1_epi16((short)limits[0]), cb_floor = _mm256_set1_epi16((short)limits[1]);
    const __m256i cb_ceiling = _mm256_set1_epi16((short)limits[2]), cr_offset = _mm256_set1_epi16((short)limits[3]);
    const __m256i cr_floor = _mm256_set1_epi16((short)limits[4]), cr_ceiling = _mm256_set1_epi16((short)limits[5]);
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        __m256i y = reads_mean
            ? _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(mean + x))), black)
            : _mm256_setzero_si256();
        __m256i u = _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cb + x))), center);
        __m256i v = _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cr + x))), center);
        __m256i yu_low = _mm256_unpacklo_epi16(y, u), yu_high = _mm256_unpackhi_epi16(y, u);
        __m256i v1_low = _mm256_unpacklo_epi16(v, ones), v1_high = _mm256_unpackhi_epi16(v, ones);
        __m256i out_cb = shift_channel(yu_low, yu_high, v1_low, v1_high, cb_ab, cb_c, cb_offset, cb_floor, cb_ceiling);
        __m256i out_cr = shift_channel(yu_low, yu_high, v1_low, v1_high, cr_ab, cr_c, cr_offset, cr_floor, cr_ceiling);
        // Per 128-bit lane: Cb' 0–7, Cr' 0–7 | Cb' 8–15, Cr' 8–15; then Cb' 0–15 | Cr' 0–15.
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(out_cb, out_cr), 0xD8);
        _mm_storeu_si128((__m128i *)(to_cb + x), _mm256_castsi256_si128(bytes));
        _mm_storeu_si128((__m128i *)(to_cr + x), _mm256_extracti128_si256(bytes, 1));
    }
    vr_chroma_shift_samples(mean, cb, cr, to_cb, to_cr, x, count, rows, limits);
}

VR_AVX2 void vr_mean_of_pairs_avx2(const uint8_t *top, const uint8_t *bottom, uint8_t *mean, size_t count) {
    const __m256i ones = _mm256_set1_epi8(1);
    const int two_rows = bottom != NULL;
    const __m256i rounding = _mm256_set1_epi16(two_rows ? 2 : 1);
    const __m128i shift = _mm_cvtsi32_si128(two_rows ? 2 : 1);
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        // maddubs: unsigned bytes times signed ones, adjacent products summed on 16-bit lanes.
        __m256i sums = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(top + 2 * x)), ones);
        if (two_rows) {
            sums = _mm256_add_epi16(sums, _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(bottom + 2 * x)), ones));
        }
        __m256i rounded = _mm256_srl_epi16(_mm256_add_epi16(sums, rounding), shift);
        // Per 128-bit lane the 8 means twice; quarters 0 and 2 hold means 0–7 and 8–15.
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(rounded, rounded), 0x08);
        _mm_storeu_si128((__m128i *)(mean + x), _mm256_castsi256_si128(bytes));
    }
    for (; x < count; x++) {
        int sum = top[2 * x] + top[2 * x + 1];
        mean[x] = two_rows ? (uint8_t)((sum + bottom[2 * x] + bottom[2 * x + 1] + 2) >> 2) : (uint8_t)((sum + 1) >> 1);
    }
}

#else

// Never called off x86-64 (vr_cpu_avx2() is 0 there).
void vr_lookup_row_avx2(const uint8_t *source, uint8_t *destination, size_t count, const uint16_t *pairs,
                        const uint8_t *table) {
    __builtin_trap();
}

void vr_chroma_row_avx2(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr,
                        uint8_t *to_cb, uint8_t *to_cr, size_t count, const int32_t *rows,
                        const uint8_t *cb_curve, const uint8_t *cr_curve) {
    __builtin_trap();
}

void vr_mean_of_pairs_avx2(const uint8_t *top, const uint8_t *bottom, uint8_t *mean, size_t count) {
    __builtin_trap();
}

void vr_chroma_pairs_row_avx2(const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb, uint8_t *to_cr,
                              size_t count, const uint16_t *pairs) {
    __builtin_trap();
}

void vr_chroma_shift_row_avx2(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb,
                              uint8_t *to_cr, size_t count, const int32_t *rows, const int32_t *limits) {
    __builtin_trap();
}

void vr_chroma_tables_row_avx2(const uint8_t *cb_low, const uint8_t *cb_high, const uint8_t *cr_low,
                               const uint8_t *cr_high, uint8_t *to_cb, uint8_t *to_cr, size_t count,
                               const uint8_t *cb_table, const uint8_t *cr_table) {
    __builtin_trap();
}

#endif
