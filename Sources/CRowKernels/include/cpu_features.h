// What the CPU and the OS let the row kernels use, asked once per call of CPUID and XGETBV.
// The package builds for the x86-64 baseline (SSE2); the AVX2 and AVX-512 kernels carry their
// own target attributes and are called only after these said yes.
#ifndef VRENDER_CPU_FEATURES_H
#define VRENDER_CPU_FEATURES_H

/// 1 when the AVX2 kernels run here (x86-64-v3's vector part: AVX and AVX2, with the YMM state
/// enabled by the OS), else 0. Always 0 off x86-64.
int vr_cpu_avx2(void);

/// 1 when the AVX-512 kernels run here (AVX-512 F, BW, VL and VBMI, with the ZMM state enabled
/// by the OS), else 0. Always 0 off x86-64.
int vr_cpu_avx512(void);

#endif
