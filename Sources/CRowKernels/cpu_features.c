#include "cpu_features.h"

#if defined(__x86_64__)
#include <cpuid.h>

/// The XCR0 bits the OS sets when it saves the state a kernel's registers live in.
static int os_saves(unsigned state) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & bit_OSXSAVE) || !(ecx & bit_AVX)) return 0;
    unsigned xcr0_low, xcr0_high;
    __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    return (xcr0_low & state) == state;
}

/// CPUID leaf 7's EBX and ECX.
static int leaf7(unsigned *ebx, unsigned *ecx) {
    unsigned eax, edx;
    return __get_cpuid_count(7, 0, &eax, ebx, ecx, &edx);
}

int vr_cpu_avx2(void) {
    unsigned ebx, ecx;
    // XCR0: SSE (bit 1) and AVX (bit 2) state.
    return os_saves(0x6) && leaf7(&ebx, &ecx) && (ebx & bit_AVX2);
}

int vr_cpu_avx512(void) {
    unsigned ebx, ecx;
    // XCR0: SSE, AVX, opmask (5), ZMM_Hi256 (6) and Hi16_ZMM (7) state.
    if (!os_saves(0xE6) || !leaf7(&ebx, &ecx)) return 0;
    const unsigned avx512f = 1u << 16, avx512bw = 1u << 30, avx512vl = 1u << 31, avx512vbmi = 1u << 1;
    return (ebx & avx512f) && (ebx & avx512bw) && (ebx & avx512vl) && (ecx & avx512vbmi);
}

#else

int vr_cpu_avx2(void) { return 0; }
int vr_cpu_avx512(void) { return 0; }

#endif
