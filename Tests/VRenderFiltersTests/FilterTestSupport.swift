#if canImport(Glibc)
import Glibc
#endif
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

    /// `seed` nil: every byte 0xA5 (an output frame, cheap to make); else seeded noise.
    init(width: Int, height: Int, layout: ChromaLayout, seed: UInt64? = 1) {
        self.width = width
        self.height = height
        self.layout = layout
        (chromaWidth, chromaHeight) = layout.chromaSize(width: width, height: height)
        strides = [width + 11, chromaWidth + 5, chromaWidth + 9]
        var state = (seed ?? 0) &* 0x9E37_79B9_7F4A_7C15 | 1
        func noise(_ count: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0xA5, count: count)
            guard seed != nil else { return bytes }
            // Through a raw pointer: tests build without optimization, and 1080p is 3 M bytes.
            bytes.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                for index in 0..<count {
                    state ^= state << 13
                    state ^= state >> 7
                    state ^= state << 17
                    base[index] = UInt8(truncatingIfNeeded: state >> 24)
                }
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
            let differingRow = mine.withUnsafeBufferPointer { a in
                theirs.withUnsafeBufferPointer { b in
                    // memcmp row by row: the comparison loop would be slow in an unoptimized build.
                    (0..<planeHeight).first { memcmp(a.baseAddress! + $0 * stride, b.baseAddress! + $0 * stride, planeWidth) != 0 }
                }
            }
            guard let y = differingRow else { continue }
            let x = (0..<planeWidth).first { mine[y * stride + $0] != theirs[y * stride + $0] }!
            return "\(name) (\(x), \(y)): \(mine[y * stride + x]) vs \(theirs[y * stride + x])"
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

    /// One way to run a chain: thread count and whether the destination is the source.
    struct Run: Sendable {
        var threads: Int
        var inPlace: Bool

        /// Out of place and in place, on one thread and on five (several bands from 160 rows).
        static let all = [Run(threads: 1, inPlace: false), Run(threads: 5, inPlace: false),
                          Run(threads: 1, inPlace: true), Run(threads: 5, inPlace: true)]
        /// For 1080p, where every run costs a quarter of a second in an unoptimized test build:
        /// both placements, both on several bands.
        static let large = [Run(threads: 5, inPlace: false), Run(threads: 2, inPlace: true)]
    }

    /// Runs `chain` each way in `runs` and returns a description of the first result that
    /// differs from `expected`, or nil.
    static func mismatch(running chain: FilterChain, on source: FilterTestFrame, expected: FilterTestFrame,
                         runs: [Run] = Run.all) -> String? {
        for run in runs {
            let output = run.inPlace
                ? source.copy() : FilterTestFrame(width: source.width, height: source.height, layout: source.layout, seed: nil)
            if run.inPlace {
                output.withImage { chain.run(source: $0, destination: $0, threads: run.threads) }
            } else {
                source.withImage { src in output.withImage { chain.run(source: src, destination: $0, threads: run.threads) } }
            }
            if let difference = output.firstDifference(from: expected) {
                return "\(run.inPlace ? "in place" : "out of place"), \(run.threads) threads: \(difference)"
            }
        }
        return nil
    }
}
