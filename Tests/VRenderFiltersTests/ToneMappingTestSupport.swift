import VRenderCore
@testable import VRenderFilters

/// A 10- or 12-bit planar HDR test picture that owns its memory, with rows padded past the
/// width as FFmpeg pads them.
final class HDRTestPicture {
    let width: Int, height: Int
    let subsampling: ChromaGeometry
    let chromaWidth: Int, chromaHeight: Int
    /// Row strides in samples (the views get them in bytes).
    let strides: [Int]
    var planes: [[UInt16]]

    /// `sample(plane, x, y)` gives every sample: plane 0 is Y, 1 Cb, 2 Cr.
    init(width: Int, height: Int, subsampling: ChromaGeometry, sample: (Int, Int, Int) -> UInt16) {
        self.width = width
        self.height = height
        self.subsampling = subsampling
        (chromaWidth, chromaHeight) = subsampling.chromaSize(lumaWidth: width, lumaHeight: height)
        let strides = [width + 3, chromaWidth + 5, chromaWidth + 1]
        let sizes = [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
        self.strides = strides
        planes = (0..<3).map { plane in
            // Padding holds a code no test uses, so reading it would show in the results.
            var samples = [UInt16](repeating: 0xFFFF, count: strides[plane] * sizes[plane].1)
            for y in 0..<sizes[plane].1 {
                for x in 0..<sizes[plane].0 { samples[y * strides[plane] + x] = sample(plane, x, y) }
            }
            return samples
        }
    }

    /// One colour everywhere.
    convenience init(width: Int, height: Int, subsampling: ChromaGeometry = .yuv420,
                     y: UInt16, cb: UInt16, cr: UInt16) {
        self.init(width: width, height: height, subsampling: subsampling) { plane, _, _ in [y, cb, cr][plane] }
    }

    /// Seeded xorshift noise over `0...maxCode` in every plane.
    convenience init(noiseWidth width: Int, height: Int, subsampling: ChromaGeometry, maxCode: Int, seed: UInt64) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        self.init(width: width, height: height, subsampling: subsampling) { _, _, _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt16(truncatingIfNeeded: (state >> 20) % UInt64(maxCode + 1))
        }
    }

    func sample(plane: Int, x: Int, y: Int) -> UInt16 { planes[plane][y * strides[plane] + x] }

    func withViews<T>(_ body: (PlaneView16, PlaneView16, PlaneView16) -> T) -> T {
        let sizes = [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
        // `PlaneView16` takes a mutable pointer, but the converter only reads: read access to
        // the three arrays may overlap, where nested mutable accesses to `planes` would conflict.
        func view(_ plane: Int, _ buffer: UnsafeRawBufferPointer) -> PlaneView16 {
            PlaneView16(base: UnsafeMutableRawPointer(mutating: buffer.baseAddress!), strideBytes: 2 * strides[plane],
                        width: sizes[plane].0, height: sizes[plane].1)
        }
        return planes[0].withUnsafeBytes { y in
            planes[1].withUnsafeBytes { cb in
                planes[2].withUnsafeBytes { cr in body(view(0, y), view(1, cb), view(2, cr)) }
            }
        }
    }
}

extension FilterTestFrame {
    /// A 4:2:0 output frame with every byte, padding included, set to 255: a code the
    /// converter never writes (its output is limited range), so a sample it missed shows.
    static func toneMappingOutput(width: Int, height: Int) -> FilterTestFrame {
        let frame = FilterTestFrame(width: width, height: height, layout: .yuv420p, seed: nil)
        frame.luma = [UInt8](repeating: 255, count: frame.luma.count)
        frame.cb = [UInt8](repeating: 255, count: frame.cb.count)
        frame.cr = [UInt8](repeating: 255, count: frame.cr.count)
        return frame
    }
}

enum ToneMappingTestSupport {
    static func mapper(_ transfer: HDRTransfer, fullRange: Bool = false, bitDepth: Int = 10,
                       subsampling: ChromaGeometry = .yuv420, threads: Int = 1,
                       instructions: RowInstructions = .detected) -> HDRToneMapper {
        // The arguments are valid: a throw here is a test failure that names itself.
        try! HDRToneMapper(transfer: transfer, fullRange: fullRange, bitDepth: bitDepth,
                           subsampling: subsampling, threads: threads, instructions: instructions)
    }

    static func convert(_ picture: HDRTestPicture, with mapper: HDRToneMapper) -> FilterTestFrame {
        let output = FilterTestFrame.toneMappingOutput(width: picture.width, height: picture.height)
        picture.withViews { y, cb, cr in
            output.withImage { mapper.convert(y: y, cb: cb, cr: cr, into: $0) }
        }
        return output
    }

    /// The (Y, Cb, Cr) a uniform picture of one 10-bit limited-range colour becomes.
    static func convertColour(_ transfer: HDRTransfer, y: UInt16, cb: UInt16 = 512, cr: UInt16 = 512)
        -> (y: UInt8, cb: UInt8, cr: UInt8) {
        let output = convert(HDRTestPicture(width: 4, height: 2, y: y, cb: cb, cr: cr), with: mapper(transfer))
        return (output.sample(plane: 0, x: 0, y: 0), output.sample(plane: 1, x: 0, y: 0),
                output.sample(plane: 2, x: 0, y: 0))
    }

    /// The 10-bit limited-range code of a signal in 0...1 (luma) or −0.5...0.5 (chroma).
    static func lumaCode(_ signal: Double) -> UInt16 { UInt16((64 + 876 * signal).rounded()) }
    static func chromaCode(_ signal: Double) -> UInt16 { UInt16((512 + 896 * signal).rounded()) }
}
