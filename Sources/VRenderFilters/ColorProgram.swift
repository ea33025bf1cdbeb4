import VRenderCore

/// The shape every colour filter has: an affine colour transform on Y'CbCr followed by
/// per-channel curves, all in integers, so the CPU kernels and the Vulkan shaders compute the
/// same bytes. A filter is a `ColorProgram`; a chain runs programs one after another.
///
/// Exact definition, for 8-bit limited-range planar Y'CbCr (4:2:0, 4:2:2 or 4:4:4, any size):
///
/// Every chroma sample covers a block of luma samples (2×2 for 4:2:0, 2×1 for 4:2:2, 1×1 for
/// 4:4:4; blocks on the right or bottom edge of an odd-sized picture are cut off and cover
/// fewer). With `n` the number of luma samples in the block and `S` their sum,
///
///     Ybar = (S + n / 2) / n                       (integer division: the rounded mean)
///     y = Y - 16,  u = Cb - 128,  v = Cr - 128     (y per luma sample, Ybar - 16 for chroma)
///
/// and with `m` the 3×3 matrix in Q12 fixed point (4096 = 1.0), row-major, and `>>` an
/// arithmetic shift (rounding towards minus infinity),
///
///     Y'  = lumaCurve[ clamp((m[0]*y    + m[1]*u + m[2]*v + 2048) >> 12) + 16  ]   per luma sample
///     Cb' = cbCurve  [ clamp((m[3]*ybar + m[4]*u + m[5]*v + 2048) >> 12) + 128 ]   per chroma sample
///     Cr' = crCurve  [ clamp((m[6]*ybar + m[7]*u + m[8]*v + 2048) >> 12) + 128 ]
///
/// where `clamp` keeps the index (after adding 16 or 128) in 0...255. Every output depends only
/// on the input picture (never on outputs of the same program), so a block can be processed in
/// place. Intermediates fit in 32-bit signed integers for |m[i]| ≤ 2^20.
public struct ColorProgram: Sendable, Hashable {
    /// Q12 fixed-point matrix, row-major: rows produce Y', Cb', Cr'; columns read y, u, v.
    public var matrix: [Int32]
    public var lumaCurve: [UInt8]
    public var cbCurve: [UInt8]
    public var crCurve: [UInt8]

    public static let one: Int32 = 4096
    public static let identityCurve: [UInt8] = (0...255).map { UInt8($0) }

    public init(matrix: [Int32], lumaCurve: [UInt8] = identityCurve, cbCurve: [UInt8] = identityCurve,
                crCurve: [UInt8] = identityCurve) {
        precondition(matrix.count == 9 && lumaCurve.count == 256 && cbCurve.count == 256 && crCurve.count == 256,
                     "a colour program needs a 3x3 matrix and three 256-entry curves")
        precondition(matrix.allSatisfy { abs($0) <= 1 << 20 }, "matrix coefficients out of range")
        self.matrix = matrix
        self.lumaCurve = lumaCurve
        self.cbCurve = cbCurve
        self.crCurve = crCurve
    }

    /// Leaves every sample as it is.
    public static let identity = ColorProgram(matrix: [one, 0, 0, 0, one, 0, 0, 0, one])

    /// True when chroma does not depend on the input at all (a monochrome program): kernels may
    /// fill the chroma planes with a constant.
    public var chromaIsConstant: Bool {
        matrix[3] == 0 && matrix[4] == 0 && matrix[5] == 0 && matrix[6] == 0 && matrix[7] == 0 && matrix[8] == 0
    }

    /// True when luma depends only on luma.
    public var lumaIgnoresChroma: Bool { matrix[1] == 0 && matrix[2] == 0 }

    // MARK: - The definition, sample by sample

    @inline(__always)
    static func index(_ value: Int32, offset: Int32) -> Int {
        Int(Swift.min(Swift.max(value + offset, 0), 255))
    }

    /// Y' for one luma sample, given the chroma sample of its block.
    @inline(__always)
    public func luma(_ y: UInt8, cb: UInt8, cr: UInt8) -> UInt8 {
        let sum = matrix[0] * (Int32(y) - 16) + matrix[1] * (Int32(cb) - 128) + matrix[2] * (Int32(cr) - 128)
        return lumaCurve[Self.index((sum + 2048) >> 12, offset: 16)]
    }

    /// (Cb', Cr') for one chroma sample, given the rounded mean luma of its block.
    @inline(__always)
    public func chroma(meanLuma: UInt8, cb: UInt8, cr: UInt8) -> (cb: UInt8, cr: UInt8) {
        let y = Int32(meanLuma) - 16, u = Int32(cb) - 128, v = Int32(cr) - 128
        let newCb = (matrix[3] * y + matrix[4] * u + matrix[5] * v + 2048) >> 12
        let newCr = (matrix[6] * y + matrix[7] * u + matrix[8] * v + 2048) >> 12
        return (cbCurve[Self.index(newCb, offset: 128)], crCurve[Self.index(newCr, offset: 128)])
    }

    /// The definition applied block by block, with no vectorization or threading: the
    /// reference every kernel (CPU or GPU) is tested against. Works in place.
    public func referenceApply(source: YUVImage, destination: YUVImage) {
        let blocks = source.chroma
        for cy in 0..<source.cb.height {
            for cx in 0..<source.cb.width {
                let cb = source.cb.row(cy)[cx], cr = source.cr.row(cy)[cx]
                var sum = 0, count = 0
                let rows = blocks.lumaRows(ofChromaRow: cy, lumaHeight: source.luma.height)
                let columns = blocks.lumaColumns(ofChromaColumn: cx, lumaWidth: source.luma.width)
                for y in rows { for x in columns { sum += Int(source.luma.row(y)[x]); count += 1 } }
                let mean = UInt8((sum + count / 2) / count)
                for y in rows {
                    for x in columns { destination.luma.row(y)[x] = luma(source.luma.row(y)[x], cb: cb, cr: cr) }
                }
                let out = chroma(meanLuma: mean, cb: cb, cr: cr)
                destination.cb.row(cy)[cx] = out.cb
                destination.cr.row(cy)[cx] = out.cr
            }
        }
    }
}
