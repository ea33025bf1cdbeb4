import Testing
import VRenderCore
import VRenderFilters

/// `PictureBlend` has one kernel for every sample size: the 8-bit and 16-bit forms, given the
/// same samples (a 16-bit picture at bit depth 8, whose black is the 8-bit one), write the same
/// values, mixing two pictures and fading one to black, in every band split.
@Suite struct PictureBlendTests {
    /// A 4:2:0 picture of odd size (chroma rounds up) with padded rows, as two buffers: bytes
    /// and 16-bit words holding the same pseudo-random samples.
    private struct Picture {
        static let (width, height, chromaWidth, chromaHeight) = (67, 35, 34, 18)
        static let (lumaStride, chromaStride) = (72, 40)
        static let count = lumaStride * height + 2 * chromaStride * chromaHeight
        var bytes: [UInt8]
        var words: [UInt16]

        init(seed: UInt32) {
            var state = seed
            bytes = (0..<Self.count).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223   // a linear congruential generator
                return UInt8(truncatingIfNeeded: state >> 24)
            }
            words = bytes.map(UInt16.init)
        }

        static func image(_ base: UnsafeMutablePointer<UInt8>) -> YUVImage {
            let chroma = lumaStride * height
            return YUVImage(luma: PlaneView(base: base, stride: lumaStride, width: width, height: height),
                            cb: PlaneView(base: base + chroma, stride: chromaStride, width: chromaWidth, height: chromaHeight),
                            cr: PlaneView(base: base + chroma + chromaStride * chromaHeight, stride: chromaStride,
                                          width: chromaWidth, height: chromaHeight))
        }

        static func image16(_ base: UnsafeMutableRawPointer) -> YUVImage16 {
            let chroma = 2 * lumaStride * height
            func plane(_ offset: Int, _ stride: Int, _ width: Int, _ height: Int) -> PlaneView16 {
                PlaneView16(base: base + offset, strideBytes: 2 * stride, width: width, height: height)
            }
            return YUVImage16(luma: plane(0, lumaStride, width, height),
                              cb: plane(chroma, chromaStride, chromaWidth, chromaHeight),
                              cr: plane(chroma + 2 * chromaStride * chromaHeight, chromaStride, chromaWidth, chromaHeight),
                              bitDepth: 8)
        }
    }

    /// `first` blended with `second` (nil: black) at `weight` into `first`, by both forms.
    private func blended(_ first: Picture, _ second: Picture?, weight: Int, threads: Int) -> (bytes: [UInt8], words: [UInt16]) {
        var out = first, other = second ?? first
        out.bytes.withUnsafeMutableBufferPointer { a in
            other.bytes.withUnsafeMutableBufferPointer { b in
                PictureBlend.blend(Picture.image(a.baseAddress!), second.map { _ in Picture.image(b.baseAddress!) },
                                   weight: weight, into: Picture.image(a.baseAddress!), threads: threads)
            }
        }
        out.words.withUnsafeMutableBytes { a in
            other.words.withUnsafeMutableBytes { b in
                PictureBlend.blend(Picture.image16(a.baseAddress!), second.map { _ in Picture.image16(b.baseAddress!) },
                                   weight: weight, into: Picture.image16(a.baseAddress!), threads: threads)
            }
        }
        return (out.bytes, out.words)
    }

    @Test(arguments: [0, 1, 77, 128, 200, 255, 256])
    func eightAndSixteenBitsWriteTheSameSamples(weight: Int) {
        let a = Picture(seed: 7), b = Picture(seed: 11)
        for (second, threads) in [(Optional(b), 1), (b, 3), (nil, 2)] {
            let (bytes, words) = blended(a, second, weight: weight, threads: threads)
            #expect(bytes.map(UInt16.init) == words, "weight \(weight), \(second == nil ? "black" : "mix"), \(threads) threads")
            // The padding past each row's width is left alone.
            #expect(bytes[Picture.width..<Picture.lumaStride] == a.bytes[Picture.width..<Picture.lumaStride])
        }
    }
}
