import Testing
import VRenderCore
@testable import VRenderFilters

/// Every kernel this machine has, over a sweep of the code space in every format it reads,
/// against the formulas in `Double`; and the AVX-512 kernel against the portable one byte for
/// byte, at the widths where its 16-block steps end early or leave an odd column.
@Suite struct ToneMappingKernelTests {
    typealias Support = ToneMappingTestSupport

    /// A picture that sweeps the codes: Cb along x and Cr along y over each one's whole range
    /// (so every pair of a `width × height` grid appears), luma stepping through every code
    /// and 64 past the largest (stray high bits) in an order unrelated to the chroma.
    static func sweep(width: Int, height: Int, subsampling: ChromaGeometry, bitDepth: Int) -> HDRTestPicture {
        let codes = 1 << bitDepth
        let (chromaWidth, chromaHeight) = subsampling.chromaSize(lumaWidth: width, lumaHeight: height)
        return HDRTestPicture(width: width, height: height, subsampling: subsampling) { plane, x, y in
            switch plane {
            case 0: return UInt16((x * 263 + y * 1031) % (codes + 64))
            case 1: return UInt16(x * (codes - 1) / max(chromaWidth - 1, 1))
            default: return UInt16(y * (codes - 1) / max(chromaHeight - 1, 1))
            }
        }
    }

    /// Both transfers, 10 and 12 bits, limited and full range: no sample off by more than one
    /// code (the export's promise is two).
    @Test(arguments: [ChromaGeometry.yuv420, .yuv422, .yuv444], RowInstructions.available)
    func sweepStaysWithinOneCode(subsampling: ChromaGeometry, instructions: RowInstructions) {
        let (width, height) = (96, 64)
        for transfer in [HDRTransfer.pq, .hlg] {
            for bitDepth in [10, 12] {
                for fullRange in [false, true] {
                    let picture = Self.sweep(width: width, height: height, subsampling: subsampling, bitDepth: bitDepth)
                    let mapper = Support.mapper(transfer, fullRange: fullRange, bitDepth: bitDepth,
                                                subsampling: subsampling, instructions: instructions)
                    let output = Support.convert(picture, with: mapper)
                    let expected = ToneMappingMathTests.referenceFrame(picture, transfer, fullRange: fullRange,
                                                                       bitDepth: bitDepth)
                    let (worst, differing, total) = ToneMappingMathTests.difference(output, expected,
                                                                                    width: width, height: height)
                    let what = "\(transfer) \(bitDepth)-bit \(fullRange ? "full" : "limited")"
                    #expect(worst <= 1, "\(what): off by \(worst)")
                    #expect(differing * 50 <= total, "\(what): \(differing) of \(total) samples differ")
                }
            }
        }
    }

    /// Saturated colours at BT.709's gamut edge, where the primaries matrix leaves one channel
    /// near 0 from differences of hundreds of cd/m² and `L^(1/2.4)` magnifies any error there:
    /// around HLG (503, 704, 691), which a nearest-entry EOTF put two codes off (of up to ~5
    /// possible), every luma code within 8 and chroma within 4.
    @Test(arguments: RowInstructions.available)
    func gamutEdgeStaysWithinOneCode(instructions: RowInstructions) {
        let picture = HDRTestPicture(width: 16, height: 81, subsampling: .yuv444) { plane, x, y in
            [UInt16(495 + x), UInt16(700 + y / 9), UInt16(687 + y % 9)][plane]
        }
        let output = Support.convert(picture, with: Support.mapper(.hlg, subsampling: .yuv444, instructions: instructions))
        let expected = ToneMappingMathTests.referenceFrame(picture, .hlg, fullRange: false, bitDepth: 10)
        let (worst, _, _) = ToneMappingMathTests.difference(output, expected, width: 16, height: 81)
        #expect(worst <= 1, "off by \(worst)")
    }

    /// Each kernel writes the portable kernel's bytes, and nothing in the padding, for widths below,
    /// at and past one step (AVX2: 8 blocks, AVX-512: 16; a block is 2 pixels wide), odd ones
    /// included, and odd heights.
    @Test(arguments: RowInstructions.available)
    func kernelsWriteTheSameBytes(instructions: RowInstructions) {
        for subsampling in [ChromaGeometry.yuv420, .yuv422, .yuv444] {
            for (width, height) in [(1, 1), (2, 3), (31, 5), (32, 2), (33, 7), (64, 4), (97, 9)] {
                for transfer in [HDRTransfer.pq, .hlg] {
                    for (bitDepth, fullRange) in [(10, false), (12, true)] {
                        let picture = HDRTestPicture(noiseWidth: width, height: height, subsampling: subsampling,
                                                     maxCode: (1 << bitDepth) + 99, seed: UInt64(width * height))
                        func run(_ kind: RowInstructions) -> FilterTestFrame {
                            Support.convert(picture, with: Support.mapper(transfer, fullRange: fullRange, bitDepth: bitDepth,
                                                                          subsampling: subsampling, instructions: kind))
                        }
                        let (output, portable) = (run(instructions), run(.portable))
                        let what = "\(subsampling) \(width)x\(height) \(transfer) \(bitDepth)-bit"
                        #expect(output.firstDifference(from: portable) == nil, "\(what): \(output.firstDifference(from: portable)!)")
                        // Padding starts as 255 in both: equal whole planes mean neither wrote past the width.
                        #expect(output.luma == portable.luma && output.cb == portable.cb && output.cr == portable.cr, "\(what)")
                    }
                }
            }
        }
    }
}
