internal import CRowKernels
import VRenderCore

/// Chroma by arithmetic alone, for programs whose chroma curves are shifts with a clamp —
/// `curve[i] = clamp(i + shift, low, high)`, as every look's are (`CurveMath.chromaCurve`).
/// Looking a curve up then is `clamp(index + shift, low, high)` on the lanes the matrix ran on:
/// no table, no gather (a gather per 8 samples was half of `process`'s time with AVX2).
struct ShiftCurve: Sendable, Equatable {
    let shift: Int32
    let low: Int32
    let high: Int32

    /// The curve as a shift with a clamp, or nil when it is not one.
    init?(_ curve: [UInt8]) {
        guard curve.count == 256, curve[0] <= curve[255] else { return nil }
        let (low, high) = (Int32(curve[0]), Int32(curve[255]))
        // Any entry strictly inside the clamp says the shift; a constant curve has none (any shift).
        let inside = curve.indices.first { Int32(curve[$0]) > low && Int32(curve[$0]) < high }
        let shift = inside.map { Int32(curve[$0]) - Int32($0) } ?? 0
        for (index, value) in curve.enumerated() where Int32(value) != Swift.min(Swift.max(Int32(index) + shift, low), high) {
            return nil
        }
        (self.shift, self.low, self.high) = (shift, low, high)
    }

    /// `{offset, low, high}` with `curve[clamp(t + 128, 0, 255)] == clamp(t + offset, low, high)`
    /// for every t: a clamp of a clamp is one clamp, its bounds clamped by the outer one.
    var limits: [Int32] {
        let clamp = { (value: Int32) in Swift.min(Swift.max(value, low), high) }
        return [128 + shift, clamp(shift), clamp(255 + shift)]
    }

    /// Both chroma curves of `program` as shifts with a clamp, when they are, and its chroma rows
    /// fit the AVX2 and baseline kernels' 16-bit lanes (every look's do: |m| ≤ 5,120).
    static func chromaLimits(of program: ColorProgram) -> [Int32]? {
        guard program.matrix[3...8].allSatisfy({ abs($0) < 32_768 }),
              let cb = ShiftCurve(program.cbCurve), let cr = ShiftCurve(program.crCurve) else { return nil }
        return cb.limits + cr.limits
    }
}

extension ColorKernel {
    /// Chroma row `cy` of a `.shiftCurves` program: AVX2's kernel, or the baseline one (SSE2's
    /// 16-bit multiply-add on any x86-64, plain C elsewhere).
    @inline(__always)
    func shiftCurvesRow(cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, mean: UnsafeMutablePointer<UInt8>?,
                        toCb: UnsafeMutablePointer<UInt8>, toCr: UnsafeMutablePointer<UInt8>, count: Int) {
        if instructions == .avx2 {
            vr_chroma_shift_row_avx2(mean, cb, cr, toCb, toCr, count, tables.chromaMatrix, tables.chromaLimits)
        } else {
            precondition(instructions == .portable, "shift curves are an AVX2 or portable step")
            vr_chroma_shift_row_baseline(mean, cb, cr, toCb, toCr, count, tables.chromaMatrix, tables.chromaLimits)
        }
    }
}
