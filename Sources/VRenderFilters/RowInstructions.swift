internal import CRowKernels
import Foundation

/// Which row kernels `ColorKernel` runs: the portable Swift ones (any x86-64 or ARM machine),
/// or the AVX-512 ones in `CRowKernels` where the CPU has AVX-512 F, BW, VL and VBMI (a 256-entry
/// curve then fits in four registers and costs five instructions per 64 samples). Both give
/// the definition's bytes; the tests run every program through each one this machine has.
public enum RowInstructions: String, Sendable, CaseIterable {
    case portable
    case avx512

    /// What this machine runs: AVX-512 where the CPU has it, unless `VRENDER_SIMD=portable`
    /// asks for the portable kernels (to compare them, or to rule the wide ones out).
    public static let detected: RowInstructions = {
        if ProcessInfo.processInfo.environment["VRENDER_SIMD"] == "portable" { return .portable }
        return vr_row_kernels_avx512() != 0 ? .avx512 : .portable
    }()

    /// Every kind this machine can run (the portable kernels always).
    public static var available: [RowInstructions] {
        vr_row_kernels_avx512() != 0 ? [.portable, .avx512] : [.portable]
    }
}
