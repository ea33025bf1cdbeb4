#include "row_kernels.h"
#include "shift_curves.h"

#if defined(__x86_64__)
#include <emmintrin.h>

/// One channel for 8 samples: (y, u) and (v, 1) pairs on 16-bit lanes times (a, b) and
/// (c, 2048) with SSE2's multiply-add, summed on 32-bit lanes, shifted, packed back to 16 bits,
/// offset and clamped.
static inline __m128i shift_channel(__m128i yu_low, __m128i yu_high, __m128i v1_low, __m128i v1_high,
                                    __m128i ab, __m128i c2048, __m128i offset, __m128i floor, __m128i ceiling) {
    __m128i low = _mm_add_epi32(_mm_madd_epi16(yu_low, ab), _mm_madd_epi16(v1_low, c2048));
    __m128i high = _mm_add_epi32(_mm_madd_epi16(yu_high, ab), _mm_madd_epi16(v1_high, c2048));
    __m128i words = _mm_packs_epi32(_mm_srai_epi32(low, 12), _mm_srai_epi32(high, 12));
    return _mm_min_epi16(_mm_max_epi16(_mm_add_epi16(words, offset), floor), ceiling);
}

/// 8 bytes at `p` as 16-bit lanes, less `center`.
static inline __m128i widen_less(const uint8_t *p, __m128i center) {
    return _mm_sub_epi16(_mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p), _mm_setzero_si128()), center);
}

void vr_chroma_shift_row_baseline(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb,
                                  uint8_t *to_cr, size_t count, const int32_t *rows, const int32_t *limits) {
    const int reads_mean = rows[0] != 0 || rows[3] != 0;
    const __m128i cb_ab = _mm_set1_epi32(vr_coefficient_pair(rows[0], rows[1]));
    const __m128i cb_c = _mm_set1_epi32(vr_coefficient_pair(rows[2], 2048));
    const __m128i cr_ab = _mm_set1_epi32(vr_coefficient_pair(rows[3], rows[4]));
    const __m128i cr_c = _mm_set1_epi32(vr_coefficient_pair(rows[5], 2048));
    const __m128i ones = _mm_set1_epi16(1), center = _mm_set1_epi16(128), black = _mm_set1_epi16(16);
    // In registers before the loop: stores through uint8_t pointers may alias `limits`.
    const __m128i cb_offset = _mm_set1_epi16((short)limits[0]), cb_floor = _mm_set1_epi16((short)limits[1]);
    const __m128i cb_ceiling = _mm_set1_epi16((short)limits[2]), cr_offset = _mm_set1_epi16((short)limits[3]);
    const __m128i cr_floor = _mm_set1_epi16((short)limits[4]), cr_ceiling = _mm_set1_epi16((short)limits[5]);
    size_t x = 0;
    for (; x + 8 <= count; x += 8) {
        __m128i y = reads_mean ? widen_less(mean + x, black) : _mm_setzero_si128();
        __m128i u = widen_less(cb + x, center), v = widen_less(cr + x, center);
        __m128i yu_low = _mm_unpacklo_epi16(y, u), yu_high = _mm_unpackhi_epi16(y, u);
        __m128i v1_low = _mm_unpacklo_epi16(v, ones), v1_high = _mm_unpackhi_epi16(v, ones);
        __m128i out_cb = shift_channel(yu_low, yu_high, v1_low, v1_high, cb_ab, cb_c, cb_offset, cb_floor, cb_ceiling);
        __m128i out_cr = shift_channel(yu_low, yu_high, v1_low, v1_high, cr_ab, cr_c, cr_offset, cr_floor, cr_ceiling);
        // Cb' 0–7 in the low 8 bytes, Cr' 0–7 in the high 8.
        __m128i bytes = _mm_packus_epi16(out_cb, out_cr);
        _mm_storel_epi64((__m128i *)(to_cb + x), bytes);
        _mm_storel_epi64((__m128i *)(to_cr + x), _mm_unpackhi_epi64(bytes, bytes));
    }
    vr_chroma_shift_samples(mean, cb, cr, to_cb, to_cr, x, count, rows, limits);
}

#else

// Plain C: 32-bit lanes, which NEON and other vector units multiply natively.
void vr_chroma_shift_row_baseline(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb,
                                  uint8_t *to_cr, size_t count, const int32_t *rows, const int32_t *limits) {
    vr_chroma_shift_samples(mean, cb, cr, to_cb, to_cr, 0, count, rows, limits);
}

#endif
