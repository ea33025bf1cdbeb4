#if canImport(Glibc)
import Glibc
#endif
import Testing
import VRenderCore
@testable import VRenderFilters

/// The formulas against published values, then the table-driven kernel against the formulas
/// evaluated in `Double` for every pixel of noise pictures.
@Suite struct ToneMappingMathTests {
    typealias Math = HDRColorMath

    @Test func pqMatchesST2084() {
        #expect(Math.pqEOTF(0) == 0)
        #expect(abs(Math.pqEOTF(1) - 10_000) < 1e-6)
        // Published code values: 100 cd/m² ≈ 0.5081, 203 ≈ 0.5806, 1000 ≈ 0.7518.
        #expect(abs(Math.pqInverseEOTF(100) - 0.5081) < 5e-4)
        #expect(abs(Math.pqInverseEOTF(203) - 0.5806) < 5e-4)
        #expect(abs(Math.pqInverseEOTF(1000) - 0.7518) < 5e-4)
        for luminance in [0.01, 1, 48, 203, 4000] {
            #expect(abs(Math.pqEOTF(Math.pqInverseEOTF(luminance)) / luminance - 1) < 1e-9)
        }
    }

    @Test func hlgMatchesBT2100() {
        #expect(abs(Math.hlgInverseOETF(0.5) - 1.0 / 12) < 1e-12)
        #expect(abs(Math.hlgInverseOETF(0.5 + 1e-9) - 1.0 / 12) < 1e-8, "the two segments meet")
        #expect(abs(Math.hlgInverseOETF(1) - 1) < 1e-6)
        #expect(Math.hlgSystemGamma(peak: 1000) == 1.2)
        // 75 % HLG on a 1000 cd/m² display is BT.2408's 203 cd/m² reference white.
        #expect(abs(1000 * pow(Math.hlgInverseOETF(0.75), 1.2) - 203) < 1)
    }

    @Test func eetfIsIdentityBelowKneeAndLandsOnTarget() {
        for luminance in [0.0, 1, 20, 80] {
            #expect(Math.bt2390EETF(luminance, sourcePeak: 1000, targetPeak: 203) == luminance)
        }
        #expect(abs(Math.bt2390EETF(1000, sourcePeak: 1000, targetPeak: 203) - 203) < 1e-6)
        #expect(abs(Math.bt2390EETF(5000, sourcePeak: 1000, targetPeak: 203) - 203) < 1e-6)
        let curve = stride(from: 0.0, through: 1200, by: 5).map { Math.bt2390EETF($0, sourcePeak: 1000, targetPeak: 203) }
        #expect(zip(curve, curve.dropFirst()).allSatisfy { $0 <= $1 }, "EETF decreases somewhere")
    }

    @Test func primariesMatrixMatchesBT2087() {
        let published = [1.6605, -0.5876, -0.0728, -0.1246, 1.1329, -0.0083, -0.0182, -0.1006, 1.1187]
        for (derived, value) in zip(Math.bt2020ToBT709, published) { #expect(abs(derived - value) < 1e-3) }
        for row in 0..<3 {
            #expect(abs(Math.bt2020ToBT709[(3 * row)..<(3 * row + 3)].reduce(0, +) - 1) < 1e-9, "row \(row)")
        }
    }

    // MARK: - Kernel against the formulas

    /// One pixel's BT.709 R'G'B' straight from the formulas (no tables, no `Float`).
    static func referenceSignal(_ transfer: HDRTransfer, fullRange: Bool, bitDepth: Int,
                                codes: (Int, Int, Int)) -> (Double, Double, Double) {
        let maxCode = (1 << bitDepth) - 1, unit = Double(1 << (bitDepth - 8))
        let (yc, cbc, crc) = (min(codes.0, maxCode), min(codes.1, maxCode), min(codes.2, maxCode))
        let y = fullRange ? Double(yc) / Double(maxCode) : (Double(yc) - 16 * unit) / (219 * unit)
        func chroma(_ c: Int) -> Double {
            fullRange ? (Double(c) - Double(1 << (bitDepth - 1))) / Double(maxCode) : (Double(c) - 128 * unit) / (224 * unit)
        }
        let (cb, cr) = (chroma(cbc), chroma(crc))
        let (kr, kb) = (0.2627, 0.0593), kg = 1 - kr - kb
        let signal = [y + 2 * (1 - kr) * cr, y - (2 * kb * (1 - kb) * cb + 2 * kr * (1 - kr) * cr) / kg, y + 2 * (1 - kb) * cb]
        var light: [Double]  // BT.2020, cd/m²
        switch transfer {
        case .pq:
            light = signal.map(Math.pqEOTF)
        case .hlg:
            let scene = signal.map(Math.hlgInverseOETF)
            let ys = kr * scene[0] + kg * scene[1] + kb * scene[2]
            light = scene.map { 1000 * pow(ys, 0.2) * $0 }
        }
        let m = Math.bt2020ToBT709
        let rgb = (0..<3).map { row in (0..<3).reduce(0.0) { $0 + m[3 * row + $1] * light[$1] } }
        let largest = rgb.max()!
        let gain = largest > 0 ? Math.bt2390EETF(largest, sourcePeak: 1000, targetPeak: 203) / largest : 1
        let out = rgb.map { pow(min(max($0 * gain / 203, 0), 1), 1 / 2.4) }
        return (out[0], out[1], out[2])
    }

    /// The whole picture from `referenceSignal`, rounded as documented.
    static func referenceFrame(_ picture: HDRTestPicture, _ transfer: HDRTransfer, fullRange: Bool,
                               bitDepth: Int) -> FilterTestFrame {
        let output = FilterTestFrame.toneMappingOutput(width: picture.width, height: picture.height)
        for blockY in 0..<output.chromaHeight {
            for blockX in 0..<output.chromaWidth {
                var (blue, red, count) = (0.0, 0.0, 0.0)
                for y in (2 * blockY)..<min(2 * blockY + 2, picture.height) {
                    for x in (2 * blockX)..<min(2 * blockX + 2, picture.width) {
                        // The input chroma sample of the block the pixel lies in.
                        let cx = picture.subsampling == .yuv444 ? x : x / 2
                        let cy = picture.subsampling == .yuv420 ? y / 2 : y
                        let codes = (Int(picture.sample(plane: 0, x: x, y: y)),
                                     Int(picture.sample(plane: 1, x: cx, y: cy)), Int(picture.sample(plane: 2, x: cx, y: cy)))
                        let (r, g, b) = referenceSignal(transfer, fullRange: fullRange, bitDepth: bitDepth, codes: codes)
                        let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
                        output.luma[y * output.strides[0] + x] = UInt8((219 * luma + 16.5).rounded(.down))
                        (blue, red, count) = (blue + b - luma, red + r - luma, count + 1)
                    }
                }
                output.cb[blockY * output.strides[1] + blockX] = UInt8((112 / 0.9278 * blue / count + 128.5).rounded(.down))
                output.cr[blockY * output.strides[2] + blockX] = UInt8((112 / 0.7874 * red / count + 128.5).rounded(.down))
            }
        }
        return output
    }

    /// The largest difference between two frames over the first `width × height` luma samples
    /// and their chroma, and how many samples differ at all, of how many.
    static func difference(_ a: FilterTestFrame, _ b: FilterTestFrame, width: Int, height: Int)
        -> (worst: Int, differing: Int, total: Int) {
        var (worst, differing, total) = (0, 0, 0)
        for (plane, w, h) in [(0, width, height), (1, (width + 1) / 2, (height + 1) / 2), (2, (width + 1) / 2, (height + 1) / 2)] {
            for y in 0..<h {
                for x in 0..<w {
                    let error = abs(Int(a.sample(plane: plane, x: x, y: y)) - Int(b.sample(plane: plane, x: x, y: y)))
                    worst = max(worst, error)
                    differing += error > 0 ? 1 : 0
                    total += 1
                }
            }
        }
        return (worst, differing, total)
    }

    /// Tables and `Float` may move a sample that sits on a rounding edge by one code, rarely;
    /// anything more is a bug. (Measured: under 1 % of samples differ, never by more than 1.)
    @Test(arguments: [HDRTransfer.pq, .hlg], [ChromaGeometry.yuv420, .yuv422, .yuv444])
    func kernelMatchesFormulas(transfer: HDRTransfer, subsampling: ChromaGeometry) {
        for instructions in RowInstructions.available {
            for (bitDepth, fullRange) in [(10, false), (12, false), (10, true)] {
                let picture = HDRTestPicture(noiseWidth: 33, height: 21, subsampling: subsampling,
                                             maxCode: (1 << bitDepth) - 1, seed: UInt64(bitDepth))
                let mapper = ToneMappingTestSupport.mapper(transfer, fullRange: fullRange, bitDepth: bitDepth,
                                                           subsampling: subsampling, instructions: instructions)
                let output = ToneMappingTestSupport.convert(picture, with: mapper)
                let expected = Self.referenceFrame(picture, transfer, fullRange: fullRange, bitDepth: bitDepth)
                let (worst, differing, total) = Self.difference(output, expected, width: 33, height: 21)
                let what = "\(instructions) \(bitDepth)-bit \(fullRange ? "full" : "limited")"
                #expect(worst <= 1, "\(what): off by \(worst)")
                #expect(differing * 50 <= total, "\(what): \(differing) of \(total) samples differ")
            }
        }
    }
}
