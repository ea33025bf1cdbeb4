import VRenderCore
@testable import VRenderFilters

/// The chroma layouts the filters accept, with the chroma plane size each gives.
enum ChromaLayout: String, CaseIterable, CustomStringConvertible, Sendable {
    case yuv420p, yuv422p, yuv444p
    /// Not a format vrender produces (4 luma columns per chroma sample): it exercises the
    /// kernel's scalar fallback for block shapes the SIMD rows do not handle.
    case yuv411p

    var description: String { rawValue }

    func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        switch self {
        case .yuv420p: return ((width + 1) / 2, (height + 1) / 2)
        case .yuv422p: return ((width + 1) / 2, height)
        case .yuv444p: return (width, height)
        case .yuv411p: return ((width + 3) / 4, height)
        }
    }

    static let supported: [ChromaLayout] = [.yuv420p, .yuv422p, .yuv444p]
}

/// A planar test frame that owns its memory: rows padded past the width (as FFmpeg pads
/// them), noise over all 256 codes from a seeded xorshift, so every curve entry, clamp and
/// rounding case is hit somewhere.
final class FilterTestFrame {
    let width: Int, height: Int, layout: ChromaLayout
    let chromaWidth: Int, chromaHeight: Int
    let strides: [Int]
    var luma: [UInt8], cb: [UInt8], cr: [UInt8]

    init(width: Int, height: Int, layout: ChromaLayout, seed: UInt64 = 1) {
        self.width = width
        self.height = height
        self.layout = layout
        (chromaWidth, chromaHeight) = layout.chromaSize(width: width, height: height)
        strides = [width + 11, chromaWidth + 5, chromaWidth + 9]
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func noise(_ count: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            for index in 0..<count {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
            }
            return bytes
        }
        luma = noise(strides[0] * height)
        cb = noise(strides[1] * chromaHeight)
        cr = noise(strides[2] * chromaHeight)
    }

    private init(copying other: FilterTestFrame) {
        width = other.width
        height = other.height
        layout = other.layout
        chromaWidth = other.chromaWidth
        chromaHeight = other.chromaHeight
        strides = other.strides
        luma = other.luma
        cb = other.cb
        cr = other.cr
    }

    func copy() -> FilterTestFrame { FilterTestFrame(copying: self) }

    func withImage<T>(_ body: (YUVImage) -> T) -> T {
        luma.withUnsafeMutableBufferPointer { y in
            cb.withUnsafeMutableBufferPointer { u in
                cr.withUnsafeMutableBufferPointer { v in
                    body(YUVImage(
                        luma: PlaneView(base: y.baseAddress!, stride: strides[0], width: width, height: height),
                        cb: PlaneView(base: u.baseAddress!, stride: strides[1], width: chromaWidth, height: chromaHeight),
                        cr: PlaneView(base: v.baseAddress!, stride: strides[2], width: chromaWidth, height: chromaHeight)))
                }
            }
        }
    }

    /// Every chroma sample of one plane (1 = Cb, 2 = Cr), padding left out.
    func chromaSamples(plane: Int) -> [UInt8] {
        let bytes = plane == 1 ? cb : cr, stride = strides[plane]
        return (0..<chromaHeight).flatMap { y in bytes[(y * stride)..<(y * stride + chromaWidth)] }
    }

    /// Where `other` differs from this frame inside the picture (padding is not compared),
    /// as "plane (x, y): a vs b"; nil when every sample is equal.
    func firstDifference(from other: FilterTestFrame) -> String? {
        let planes = [("Y", luma, other.luma, width, height), ("Cb", cb, other.cb, chromaWidth, chromaHeight),
                      ("Cr", cr, other.cr, chromaWidth, chromaHeight)]
        for (index, (name, mine, theirs, planeWidth, planeHeight)) in planes.enumerated() {
            let stride = strides[index]
            for y in 0..<planeHeight {
                for x in 0..<planeWidth where mine[y * stride + x] != theirs[y * stride + x] {
                    return "\(name) (\(x), \(y)): \(mine[y * stride + x]) vs \(theirs[y * stride + x])"
                }
            }
        }
        return nil
    }
}

enum FilterTestReference {
    /// The programs of a chain applied one after another with `referenceApply` (no kernel,
    /// no threads), into a copy of `source`.
    static func apply(_ filters: [any VideoFilter], to source: FilterTestFrame) -> FilterTestFrame {
        let result = source.copy()
        result.withImage { image in
            for filter in filters {
                guard let colour = filter as? any ColorProgramFilter else {
                    preconditionFailure("\(filter.descriptor.name) has no colour program")
                }
                colour.program.referenceApply(source: image, destination: image)
            }
        }
        return result
    }

    /// Every way the chain can run: out of place and in place, on one thread and on several.
    /// Returns a description of the first run that differs from `expected`, or nil.
    static func mismatch(running chain: FilterChain, on source: FilterTestFrame,
                         expected: FilterTestFrame) -> String? {
        for threads in [1, 5] {
            let output = FilterTestFrame(width: source.width, height: source.height, layout: source.layout, seed: 99)
            source.withImage { src in output.withImage { chain.run(source: src, destination: $0, threads: threads) } }
            if let difference = output.firstDifference(from: expected) {
                return "out of place, \(threads) threads: \(difference)"
            }
            let inPlace = source.copy()
            inPlace.withImage { chain.run(source: $0, destination: $0, threads: threads) }
            if let difference = inPlace.firstDifference(from: expected) {
                return "in place, \(threads) threads: \(difference)"
            }
        }
        return nil
    }
}
