import VRenderCore
import VRenderFilters


/// Chroma subsampling of a test picture.
enum ChromaLayout: String, Sendable {
    case yuv420, yuv422, yuv444, yuv410

    func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        switch self {
        case .yuv420: return ((width + 1) / 2, (height + 1) / 2)
        case .yuv422: return ((width + 1) / 2, height)
        case .yuv444: return (width, height)
        case .yuv410: return ((width + 3) / 4, (height + 3) / 4)
        }
    }
}

/// A picture size and layout a test runs on.
struct TestGeometry: Sendable, CustomStringConvertible {
    var width: Int
    var height: Int
    var layout: ChromaLayout

    var description: String { "\(width)x\(height) \(layout.rawValue)" }
}

/// A planar picture in memory this object owns, with extra bytes at the end of every row
/// (`padding`) so that copies that ignore strides, or write past a row, show up in tests.
final class TestPicture {
    static let paddingFill: UInt8 = 0xA5
    let storage: UnsafeMutableBufferPointer<UInt8>
    let image: YUVImage

    init(_ geometry: TestGeometry, padding: Int) {
        let chroma = geometry.layout.chromaSize(width: geometry.width, height: geometry.height)
        let lumaStride = geometry.width + padding, chromaStride = chroma.width + padding
        let lumaBytes = lumaStride * geometry.height, chromaBytes = chromaStride * chroma.height
        storage = .allocate(capacity: lumaBytes + 2 * chromaBytes)
        storage.initialize(repeating: Self.paddingFill)
        let base = storage.baseAddress!
        image = YUVImage(
            luma: PlaneView(base: base, stride: lumaStride, width: geometry.width, height: geometry.height),
            cb: PlaneView(base: base + lumaBytes, stride: chromaStride, width: chroma.width, height: chroma.height),
            cr: PlaneView(base: base + lumaBytes + chromaBytes, stride: chromaStride,
                          width: chroma.width, height: chroma.height))
    }

    deinit { storage.deallocate() }

    /// Random samples over the whole 0...255 range (outside limited range too, so the clamps
    /// are exercised), the same for the same seed.
    func fillRandom(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for plane in [image.luma, image.cb, image.cr] {
            for y in 0..<plane.height {
                for x in 0..<plane.width { plane.row(y)[x] = UInt8.random(in: 0...255, using: &generator) }
            }
        }
    }

    func copy(from other: TestPicture) {
        for (source, destination) in zip([other.image.luma, other.image.cb, other.image.cr],
                                         [image.luma, image.cb, image.cr]) {
            for y in 0..<source.height { destination.row(y).update(from: source.row(y), count: source.width) }
        }
    }

    /// Every sample, plane after plane, row after row (no padding).
    var samples: [UInt8] {
        var bytes: [UInt8] = []
        for plane in [image.luma, image.cb, image.cr] {
            for y in 0..<plane.height { bytes += UnsafeBufferPointer(start: UnsafePointer(plane.row(y)), count: plane.width) }
        }
        return bytes
    }

    /// True when no byte outside the planes' samples (row padding) changed since `init`.
    var paddingIsUntouched: Bool {
        for plane in [image.luma, image.cb, image.cr] {
            for y in 0..<plane.height {
                for x in plane.width..<plane.stride where plane.row(y)[x] != Self.paddingFill { return false }
            }
        }
        return true
    }
}

/// Where the first difference between two sample arrays is, for a readable failure.
func firstDifference(_ actual: [UInt8], _ expected: [UInt8]) -> String? {
    guard actual.count == expected.count else { return "sizes differ: \(actual.count) vs \(expected.count)" }
    guard let index = actual.indices.first(where: { actual[$0] != expected[$0] }) else { return nil }
    let count = zip(actual, expected).filter { $0 != $1 }.count
    return "\(count) samples differ; first at byte \(index): GPU \(actual[index]), reference \(expected[index])"
}

/// The reference result of a chain: each program's `referenceApply` in turn, the first reading
/// `source`, the rest working in place, as the definition says a chain runs.
func referenceChain(_ programs: [ColorProgram], source: TestPicture, geometry: TestGeometry) -> [UInt8] {
    let result = TestPicture(geometry, padding: 3)
    guard let first = programs.first else {
        result.copy(from: source)
        return result.samples
    }
    first.referenceApply(source: source.image, destination: result.image)
    for program in programs.dropFirst() {
        program.referenceApply(source: result.image, destination: result.image)
    }
    return result.samples
}
