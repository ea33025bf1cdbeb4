import Testing
import VRenderCore
@testable import VRenderFilters

/// What a user sees: black stays black, reference white lands near SDR white, greys stay grey,
/// saturated BT.2020 colours stay saturated and legal, every sample is written, threads agree.
@Suite struct ToneMappingTests {
    typealias Support = ToneMappingTestSupport

    @Test(arguments: [HDRTransfer.pq, .hlg])
    func limitedRangeBlackIsSDRBlack(transfer: HDRTransfer) {
        let out = Support.convertColour(transfer, y: 64)
        #expect(out.y == 16 && out.cb == 128 && out.cr == 128, "\(out)")
    }

    @Test(arguments: [HDRTransfer.pq, .hlg], [10, 12])
    func blackInEveryFormat(transfer: HDRTransfer, bitDepth: Int) {
        let unit = UInt16(1 << (bitDepth - 8))
        for fullRange in [false, true] {
            for subsampling in [ChromaGeometry.yuv420, .yuv422, .yuv444] {
                let picture = HDRTestPicture(width: 5, height: 3, subsampling: subsampling,
                                             y: fullRange ? 0 : 16 * unit, cb: 128 * unit, cr: 128 * unit)
                let mapper = Support.mapper(transfer, fullRange: fullRange, bitDepth: bitDepth, subsampling: subsampling)
                let output = Support.convert(picture, with: mapper)
                #expect(Set(output.luma.prefix(5)) == [16], "\(fullRange) \(subsampling)")
                #expect(Set(output.chromaSamples(plane: 1) + output.chromaSamples(plane: 2)) == [128])
            }
        }
    }

    /// BT.2408 reference white (203 cd/m²): HLG 75 %, PQ ≈ 0.58. It goes to 79 % of SDR
    /// white in light (BT.2390 roll-off toward a 1000 cd/m² peak), code 214; this range
    /// fails for a missing HLG OOTF (222), the BT.709 camera OETF (210) or an absolute
    /// mapping of 1000 cd/m² onto a 100 cd/m² display (224).
    @Test func referenceWhiteIsNearSDRWhite() {
        let hlg = Support.convertColour(.hlg, y: Support.lumaCode(0.75))
        let pq = Support.convertColour(.pq, y: Support.lumaCode(HDRColorMath.pqInverseEOTF(203)))
        for out in [hlg, pq] {
            #expect((212...216).contains(out.y), "\(out)")
            #expect(out.cb == 128 && out.cr == 128, "\(out)")
        }
        #expect(abs(Int(hlg.y) - Int(pq.y)) <= 1, "HLG \(hlg.y) vs PQ \(pq.y) for the same light")
    }

    /// The nominal peak is SDR white; PQ above it clips there.
    @Test func peakIsSDRWhite() {
        #expect(Support.convertColour(.hlg, y: 940).y == 235)
        #expect(Support.convertColour(.pq, y: Support.lumaCode(HDRColorMath.pqInverseEOTF(1000))).y == 235)
        #expect(Support.convertColour(.pq, y: 940).y == 235)
    }

    /// Every 10-bit grey from black to white, in one picture: neutral and increasing.
    @Test(arguments: [HDRTransfer.pq, .hlg])
    func greyRampIsNeutralAndMonotonic(transfer: HDRTransfer) {
        let codes = Array(UInt16(64)...940)
        let picture = HDRTestPicture(width: 2 * codes.count, height: 2, subsampling: .yuv420) { plane, x, _ in
            plane == 0 ? codes[x / 2] : 512
        }
        let output = Support.convert(picture, with: Support.mapper(transfer))
        let luma = (0..<codes.count).map { output.sample(plane: 0, x: 2 * $0, y: 0) }
        #expect(luma.first == 16 && luma.last == 235)
        #expect(zip(luma, luma.dropFirst()).allSatisfy { $0 <= $1 }, "luma decreases somewhere")
        // Strictly brighter every 20 codes, so no flat stretch hides, up to 600 cd/m² of PQ:
        // past it the roll-off flattens toward SDR white (slope 0 at the peak) and PQ clips
        // above 1000 cd/m².
        let rollOff = Int(Support.lumaCode(HDRColorMath.pqInverseEOTF(600))) - 64
        #expect(stride(from: 40, to: rollOff - 20, by: 20).allSatisfy { luma[$0] < luma[$0 + 20] })
        let chroma = output.chromaSamples(plane: 1) + output.chromaSamples(plane: 2)
        #expect(chroma.allSatisfy { (127...129).contains($0) }, "\(Set(chroma))")
    }

    /// BT.2020's primaries lie outside BT.709's: each becomes the saturated BT.709 primary
    /// (clipped, hue kept), not a washed-out or wrapped-around colour.
    @Test(arguments: [HDRTransfer.pq, .hlg])
    func bt2020PrimariesStaySaturatedAndLegal(transfer: HDRTransfer) {
        let (kr, kb) = (0.2627, 0.0593)
        func colour(_ r: Double, _ g: Double, _ b: Double) -> (y: UInt8, cb: UInt8, cr: UInt8) {
            let y = kr * r + (1 - kr - kb) * g + kb * b
            return Support.convertColour(transfer, y: Support.lumaCode(y), cb: Support.chromaCode((b - y) / (2 - 2 * kb)),
                                         cr: Support.chromaCode((r - y) / (2 - 2 * kr)))
        }
        let red = colour(1, 0, 0), green = colour(0, 1, 0), blue = colour(0, 0, 1)
        for out in [red, green, blue] {
            #expect((16...235).contains(out.y) && (16...240).contains(out.cb) && (16...240).contains(out.cr), "\(out)")
        }
        // BT.709 red is Y 63, Cb 102, Cr 240; green 173, 42, 26; blue 32, 240, 118.
        #expect(red.cr >= 235 && red.cb < 110 && red.y < 80, "red \(red)")
        #expect(green.cb < 60 && green.cr < 50 && green.y > 150, "green \(green)")
        #expect(blue.cb >= 235 && blue.cr < 130 && blue.y < 50, "blue \(blue)")
    }

    /// Odd sizes: the last column and row (and their 1- or 2-sample chroma blocks) are written,
    /// and nothing past the width.
    @Test(arguments: [ChromaGeometry.yuv420, .yuv422, .yuv444])
    func oddSizesWriteEverySample(subsampling: ChromaGeometry) {
        for (width, height) in [(5, 3), (1, 1), (3, 8), (8, 5)] {
            for transfer in [HDRTransfer.pq, .hlg] {
                let picture = HDRTestPicture(noiseWidth: width, height: height, subsampling: subsampling,
                                             maxCode: 1023, seed: 7)
                let output = Support.convert(picture, with: Support.mapper(transfer, subsampling: subsampling))
                let luma = (0..<height).flatMap { y in (0..<width).map { output.sample(plane: 0, x: $0, y: y) } }
                let chroma = output.chromaSamples(plane: 1) + output.chromaSamples(plane: 2)
                #expect(!luma.contains(255) && !chroma.contains(255), "\(width)x\(height) \(transfer)")
                let lumaPadding = (0..<height).flatMap { y in output.luma[(y * output.strides[0] + width)..<((y + 1) * output.strides[0])] }
                #expect(lumaPadding.allSatisfy { $0 == 255 }, "wrote past the width")
            }
        }
    }

    /// A block at the odd edge averages only the samples that exist: a 3×3 picture whose last
    /// column is red and the rest black gives edge chroma of pure red, interior of a mix.
    @Test func edgeBlocksAverageExistingSamples() {
        let red = (y: Support.lumaCode(0.2627), cb: Support.chromaCode(-0.2627 / 1.8814), cr: UInt16(960))
        let picture = HDRTestPicture(width: 3, height: 3, subsampling: .yuv444) { plane, x, _ in
            x == 2 ? [red.y, red.cb, red.cr][plane] : [64, 512, 512][plane]
        }
        let output = Support.convert(picture, with: Support.mapper(.hlg, subsampling: .yuv444))
        let edge = output.sample(plane: 2, x: 1, y: 0), corner = output.sample(plane: 2, x: 1, y: 1)
        let alone = Support.convertColour(.hlg, y: red.y, cb: red.cb, cr: red.cr).cr
        #expect(edge == alone && corner == alone, "edge \(edge), corner \(corner), red \(alone)")
        #expect(output.sample(plane: 2, x: 0, y: 0) == 128)
    }

    @Test(arguments: [HDRTransfer.pq, .hlg], [ChromaGeometry.yuv420, .yuv422, .yuv444])
    func sameResultOnOneAndFourThreads(transfer: HDRTransfer, subsampling: ChromaGeometry) {
        let picture = HDRTestPicture(noiseWidth: 37, height: 135, subsampling: subsampling, maxCode: 1023, seed: 3)
        let one = Support.convert(picture, with: Support.mapper(transfer, subsampling: subsampling, threads: 1))
        let four = Support.convert(picture, with: Support.mapper(transfer, subsampling: subsampling, threads: 4))
        #expect(RowBands.yuv420.split(rows: 135, threads: 4).count == 4)
        #expect(one.firstDifference(from: four) == nil)
    }

    @Test func rejectsUnsupportedBitDepth() {
        #expect(throws: HDRToneMappingError.unsupportedBitDepth(8)) {
            try HDRToneMapper(transfer: .pq, fullRange: false, bitDepth: 8, subsampling: .yuv420, threads: 1)
        }
    }
}
