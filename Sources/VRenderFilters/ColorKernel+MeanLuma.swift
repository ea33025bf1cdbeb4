internal import CRowKernels
import VRenderCore

/// The mean luma of each chroma block, which chroma steps that weigh luma read.
extension ColorKernel {
    /// The rounded mean luma of every block of one chroma row (`rows`: its one or two luma
    /// rows), 8 or 16 blocks per step on 16-bit lanes; blocks cut off by an odd width at the
    /// right edge go through the scalar `blockMean`.
    static func meanLumaRow(_ luma: PlaneView, rows: Range<Int>, chroma: ChromaGeometry,
                            into mean: UnsafeMutablePointer<UInt8>, count: Int, instructions: RowInstructions) {
        let top = UnsafeRawPointer(luma.row(rows.lowerBound))
        let bottom = UnsafeRawPointer(luma.row(rows.upperBound - 1))
        let twoRows = rows.count == 2
        let output = UnsafeMutableRawPointer(mean)
        var cx = 0
        if chroma.blockWidth == 2 && instructions != .portable {
            cx = luma.width / 2
            let bottomRow = twoRows ? luma.row(rows.upperBound - 1) : nil
            if instructions == .avx512 {
                vr_mean_of_pairs_avx512(luma.row(rows.lowerBound), bottomRow, mean, cx)
            } else {
                vr_mean_of_pairs_avx2(luma.row(rows.lowerBound), bottomRow, mean, cx)
            }
        } else if chroma.blockWidth == 2 {
            // A 16-bit lane holds two horizontally adjacent samples: (lane & 0xFF) + (lane >> 8)
            // is their sum, whichever byte order the machine has.
            @inline(__always)
            func pairSums(_ row: UnsafeRawPointer) -> SIMD8<UInt16> {
                let lanes = row.loadUnaligned(fromByteOffset: 2 * cx, as: SIMD8<UInt16>.self)
                return (lanes & 0xFF) &+ (lanes &>> 8)
            }
            // Two loops rather than a test per step: the mean of 4 and the mean of 2.
            if twoRows {
                while 2 * (cx + 8) <= luma.width {
                    let rounded = (pairSums(top) &+ pairSums(bottom) &+ 2) &>> 2
                    output.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: rounded), toByteOffset: cx, as: SIMD8<UInt8>.self)
                    cx += 8
                }
            } else {
                while 2 * (cx + 8) <= luma.width {
                    let rounded = (pairSums(top) &+ 1) &>> 1
                    output.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: rounded), toByteOffset: cx, as: SIMD8<UInt8>.self)
                    cx += 8
                }
            }
        } else if twoRows {
            while cx + 16 <= count {
                let a = SIMD16<UInt16>(truncatingIfNeeded: top.loadUnaligned(fromByteOffset: cx, as: SIMD16<UInt8>.self))
                let b = SIMD16<UInt16>(truncatingIfNeeded: bottom.loadUnaligned(fromByteOffset: cx, as: SIMD16<UInt8>.self))
                output.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: (a &+ b &+ 1) &>> 1), toByteOffset: cx,
                                  as: SIMD16<UInt8>.self)
                cx += 16
            }
        } else {
            // One sample per block: its mean is itself.
            mean.update(from: luma.row(rows.lowerBound), count: count)
            return
        }
        while cx < count {
            mean[cx] = blockMean(luma, rows: rows, columns: chroma.lumaColumns(ofChromaColumn: cx, lumaWidth: luma.width))
            cx += 1
        }
    }
}
