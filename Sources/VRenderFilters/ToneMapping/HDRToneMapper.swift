import VRenderCore

/// The transfer function of an HDR input (BT.2100).
public enum HDRTransfer: Sendable, Equatable, CustomStringConvertible {
    /// SMPTE ST 2084 perceptual quantizer: absolute, signal 1.0 is 10,000 cd/m².
    case pq
    /// ARIB STD-B67 hybrid log-gamma: scene-referred, shown on a nominal 1000 cd/m² display.
    case hlg

    public var description: String { self == .pq ? "pq" : "hlg" }
}

/// The Y'CbCr matrix of an HDR input. Only BT.2020 non-constant luminance exists in practice
/// (phones, cameras and streaming all use it); the parameter makes that assumption visible
/// where the caller maps FFmpeg's `color_space`.
public enum HDRMatrix: Sendable, Equatable {
    /// BT.2020 / BT.2100 non-constant luminance: Kr = 0.2627, Kb = 0.0593.
    case bt2020NonConstantLuminance
}

public enum HDRToneMappingError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedBitDepth(Int)
    case unsupportedChroma(ChromaGeometry)

    public var description: String {
        switch self {
        case .unsupportedBitDepth(let bits):
            return "\(bits)-bit HDR input is not supported: tone mapping reads 10- or 12-bit samples"
        case .unsupportedChroma(let chroma):
            return "HDR input with \(chroma) is not supported: tone mapping reads 4:2:0, 4:2:2 or 4:4:4"
        }
    }
}

/// Converts HDR pictures (PQ or HLG, BT.2020, 10- or 12-bit) to the 8-bit BT.709 SDR that the
/// filters and SDR takes use: 4:2:0, limited range, same size.
///
/// Per pixel, in this order:
/// 1. Y'CbCr (limited or full range) → R'G'B' with the BT.2020 NCL matrix;
/// 2. → display light with the transfer's EOTF: PQ as is (absolute); HLG's inverse OETF then
///    the BT.2100 OOTF (gamma 1.2 on scene luminance) for a `sourcePeakLuminance` display;
/// 3. BT.2020 → BT.709 primaries, in linear light;
/// 4. tone mapping: light is expressed relative to HDR reference white (203 cd/m², BT.2408),
///    which is where SDR's 100 % (`sdrWhiteLuminance`) goes; the BT.2390 EETF then brings
///    the source peak (1000 cd/m²) down to that white, applied to max(R, G, B) and the three
///    channels scaled by the same ratio, so hue and saturation stay while highlights roll
///    off. Below the EETF's knee (about 88 cd/m² of HDR light) nothing is compressed;
/// 5. negative (out-of-BT.709-gamut) channels clip to 0;
/// 6. → R'G'B' with the inverse of BT.1886's EOTF (`L^(1/2.4)`), not the BT.709 camera OETF:
///    the light here is display light (PQ is display-referred and HLG went through its OOTF),
///    so the inverse of what an SDR display does shows that light as it was meant; the camera
///    OETF would add a second system gamma and crush the shadows;
/// 7. → Y'CbCr with the BT.709 matrix, 8-bit limited range, rounded; each output chroma
///    sample is the mean of its 2×2 block (1 or 2 samples at odd edges).
///
/// Input chroma is not interpolated: every pixel takes the chroma sample of the block it lies
/// in. The output is 4:2:0 over the same blocks, so this only matters for 4:2:2 and 4:4:4
/// inputs, which are then averaged over the block like the rest.
///
/// The EOTF, OOTF, tone curve and OETF are sampled into tables in `init` (about 130 KiB
/// together), so a pixel costs a few dozen multiply-adds, and four square roots and ten
/// lookups (PQ) or five and eleven (HLG; the EOTF's three are interpolated, two entries each).
/// With AVX-512 the lookups are gathered 16 pixels at a time (`CRowKernels`' tone_map.c).
/// `convert` splits rows across `threads` with `RowBands.yuv420`; a converter is immutable and
/// may run several conversions at once.
package final class HDRToneMapper: Sendable {
    /// The peak the tone curve assumes for both transfers, in cd/m²: HLG's nominal display
    /// and the mastering peak of most PQ content. Brighter PQ light clips to SDR white.
    package static let sourcePeakLuminance = 1000.0
    /// BT.2408's HDR reference (diffuse) white in cd/m²: 75 % HLG, PQ signal ≈ 0.58.
    package static let hdrReferenceWhiteLuminance = 203.0
    /// SDR reference white in cd/m²: output code 235 (R'G'B' = 1).
    package static let sdrWhiteLuminance = 100.0

    package let transfer: HDRTransfer
    package let matrix: HDRMatrix
    package let fullRange: Bool
    package let bitDepth: Int
    package let subsampling: ChromaGeometry
    package let threads: Int
    let kernel: ToneMappingKernel

    /// - Parameters:
    ///   - fullRange: false for limited range (10-bit Y 64–940, Cb/Cr 64–960), true for full.
    ///   - bitDepth: 10 or 12: the significant bits in each 16-bit sample.
    ///   - threads: the most bands `convert` splits a picture into (at least 1).
    ///   - instructions: the kernel: AVX-512 where this machine has it (the same bytes, several
    ///     times faster), else the portable one.
    package init(transfer: HDRTransfer, matrix: HDRMatrix = .bt2020NonConstantLuminance, fullRange: Bool,
                bitDepth: Int, subsampling: ChromaGeometry, threads: Int,
                instructions: RowInstructions = .detected) throws(HDRToneMappingError) {
        guard bitDepth == 10 || bitDepth == 12 else { throw .unsupportedBitDepth(bitDepth) }
        guard [ChromaGeometry.yuv420, .yuv422, .yuv444].contains(subsampling) else {
            throw .unsupportedChroma(subsampling)
        }
        self.transfer = transfer
        self.matrix = matrix
        self.fullRange = fullRange
        self.bitDepth = bitDepth
        self.subsampling = subsampling
        self.threads = Swift.max(1, threads)
        kernel = ToneMappingKernel(transfer: transfer, fullRange: fullRange, bitDepth: bitDepth,
                                   subsampling: subsampling, instructions: instructions)
    }

    /// Converts `input`, whose bit depth must be this converter's.
    package func convert(_ input: YUVImage16, into output: YUVImage) {
        precondition(input.bitDepth == bitDepth, "\(input.bitDepth)-bit input for a \(bitDepth)-bit converter")
        convert(y: input.luma, cb: input.cb, cr: input.cr, into: output)
    }

    /// Converts one picture. `y` is `width × height`, `cb` and `cr` have the sizes
    /// `subsampling` gives, and `output` is 4:2:0 of the same size (chroma `(w+1)/2 × (h+1)/2`).
    /// Every output sample is written; the input is only read.
    package func convert(y: PlaneView16, cb: PlaneView16, cr: PlaneView16, into output: YUVImage) {
        let width = y.width, height = y.height
        let chroma = subsampling.chromaSize(lumaWidth: width, lumaHeight: height)
        precondition(cb.width == chroma.width && cb.height == chroma.height
                     && cr.width == chroma.width && cr.height == chroma.height,
                     "input chroma planes must be \(chroma.width)x\(chroma.height) for \(width)x\(height)")
        let outChroma = ChromaGeometry.yuv420.chromaSize(lumaWidth: width, lumaHeight: height)
        precondition(output.width == width && output.height == height
                     && output.cb.width == outChroma.width && output.cb.height == outChroma.height,
                     "output must be 4:2:0 \(width)x\(height)")
        let kernel = self.kernel
        RowBands.yuv420.run(rows: height, threads: threads) { rows in
            kernel.convert(y: y, cb: cb, cr: cr, into: output, lumaRows: rows)
        }
    }
}
