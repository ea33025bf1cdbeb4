// What the shift-curve chroma kernels (`vr_chroma_shift_row_avx2`, `vr_chroma_shift_row_baseline`)
// share: the coefficient pairs their multiply-adds take, and the per-sample definition their
// last samples (and the baseline kernel off x86-64) go through. Private to CRowKernels.
#ifndef VRENDER_SHIFT_CURVES_H
#define VRENDER_SHIFT_CURVES_H

#include <stddef.h>
#include <stdint.h>

/// Two 16-bit coefficients as one 32-bit lane: `first` multiplies the pair's first element.
static inline int32_t vr_coefficient_pair(int32_t first, int32_t second) {
    return (int32_t)((uint32_t)(uint16_t)second << 16 | (uint16_t)first);
}

/// One output of a matrix row, then the clamp the shift curve folds into (`limits` is
/// {offset, low, high}).
static inline uint8_t vr_shift_sample(int32_t y, int32_t u, int32_t v, const int32_t *row, const int32_t *limits) {
    int32_t value = ((row[0] * y + row[1] * u + row[2] * v + 2048) >> 12) + limits[0];
    return (uint8_t)(value < limits[1] ? limits[1] : value > limits[2] ? limits[2] : value);
}

/// Samples `from` to `count` of a shift-curve chroma row, one at a time: both outputs of a
/// sample are computed before either is stored (a row may be both an input and an output).
static inline void vr_chroma_shift_samples(const uint8_t *mean, const uint8_t *cb, const uint8_t *cr, uint8_t *to_cb,
                                           uint8_t *to_cr, size_t from, size_t count, const int32_t *rows,
                                           const int32_t *limits) {
    const int reads_mean = rows[0] != 0 || rows[3] != 0;
    for (size_t x = from; x < count; x++) {
        int32_t y = reads_mean ? mean[x] - 16 : 0, u = cb[x] - 128, v = cr[x] - 128;
        uint8_t value = vr_shift_sample(y, u, v, rows, limits);
        to_cr[x] = vr_shift_sample(y, u, v, rows + 3, limits + 3);
        to_cb[x] = value;
    }
}

#endif
