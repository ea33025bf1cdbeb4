import VRenderCore

/// A planar Y'CbCr test picture that owns its memory, 8-bit or 10-bit: every plane's rows are
/// padded past their width and fenced by guard rows before and after, all holding a sentinel,
/// so a test can tell that drawing wrote nothing outside the picture.
final class TestPicture {
    private struct Plane {
        let memory: UnsafeMutableRawPointer
        let width: Int, height: Int, strideBytes: Int
        /// Bytes of guard before (and after) the samples.
        let guardBytes: Int
        var start: UnsafeMutableRawPointer { memory + guardBytes }
        var totalBytes: Int { 2 * guardBytes + height * strideBytes }
    }

    static let sentinel: UInt8 = 0xE7
    let width: Int, height: Int, chroma: ChromaGeometry, bitDepth: Int
    private let planes: [Plane]
    private var bytesPerSample: Int { bitDepth > 8 ? 2 : 1 }

    /// A picture filled with `luma`, `cb`, `cr` (8-bit values, scaled to the depth).
    init(width: Int, height: Int, chroma: ChromaGeometry = .yuv420, bitDepth: Int = 8,
         luma: Int = 110, cb: Int = 100, cr: Int = 150) {
        self.width = width
        self.height = height
        self.chroma = chroma
        self.bitDepth = bitDepth
        let chromaSize = chroma.chromaSize(lumaWidth: width, lumaHeight: height)
        let bytes = bitDepth > 8 ? 2 : 1
        planes = [(width, height), chromaSize, chromaSize].map { size in
            let stride = (size.width + 7) * bytes, guardBytes = 2 * stride
            let plane = Plane(memory: .allocate(byteCount: 2 * guardBytes + size.height * stride, alignment: 16),
                              width: size.width, height: size.height, strideBytes: stride, guardBytes: guardBytes)
            plane.memory.initializeMemory(as: UInt8.self, repeating: Self.sentinel, count: plane.totalBytes)
            return plane
        }
        for (plane, value) in zip(0..<3, [luma, cb, cr]) {
            for y in 0..<planes[plane].height {
                for x in 0..<planes[plane].width { set(plane, x, y, value << (bitDepth - 8)) }
            }
        }
    }

    deinit { planes.forEach { $0.memory.deallocate() } }

    var image: YUVImage {
        precondition(bitDepth == 8)
        let views = planes.map { PlaneView(base: $0.start.assumingMemoryBound(to: UInt8.self), stride: $0.strideBytes,
                                           width: $0.width, height: $0.height) }
        return YUVImage(luma: views[0], cb: views[1], cr: views[2])
    }

    var image16: YUVImage16 {
        precondition(bitDepth > 8)
        let views = planes.map { PlaneView16(base: $0.start, strideBytes: $0.strideBytes, width: $0.width, height: $0.height) }
        return YUVImage16(luma: views[0], cb: views[1], cr: views[2], bitDepth: bitDepth)
    }

    /// Plane 0 is Y', 1 Cb, 2 Cr.
    func sample(_ plane: Int, _ x: Int, _ y: Int) -> Int {
        let row = planes[plane].start + y * planes[plane].strideBytes
        return bytesPerSample == 1 ? Int(row.load(fromByteOffset: x, as: UInt8.self))
            : Int(row.load(fromByteOffset: 2 * x, as: UInt16.self))
    }

    func luma(_ x: Int, _ y: Int) -> Int { sample(0, x, y) }

    func planeSize(_ plane: Int) -> (width: Int, height: Int) { (planes[plane].width, planes[plane].height) }

    /// True when every guard and padding byte still holds the sentinel.
    var fencesIntact: Bool {
        planes.allSatisfy { plane in
            let bytes = plane.memory.assumingMemoryBound(to: UInt8.self)
            let used = plane.width * bytesPerSample
            let guards = (0..<plane.guardBytes).allSatisfy { bytes[$0] == Self.sentinel
                && bytes[plane.totalBytes - 1 - $0] == Self.sentinel }
            let padding = (0..<plane.height).allSatisfy { y in
                (used..<plane.strideBytes).allSatisfy { bytes[plane.guardBytes + y * plane.strideBytes + $0] == Self.sentinel }
            }
            return guards && padding
        }
    }

    /// FNV-1a (64-bit) over every sample of the three planes, row by row: a picture's
    /// fingerprint for golden checks.
    var digest: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for plane in 0..<3 {
            for y in 0..<planes[plane].height {
                for x in 0..<planes[plane].width {
                    hash = (hash ^ UInt64(sample(plane, x, y))) &* 0x0000_0100_0000_01B3
                }
            }
        }
        return String(hash, radix: 16)
    }

    private func set(_ plane: Int, _ x: Int, _ y: Int, _ value: Int) {
        let row = planes[plane].start + y * planes[plane].strideBytes
        if bytesPerSample == 1 {
            row.storeBytes(of: UInt8(value), toByteOffset: x, as: UInt8.self)
        } else {
            row.storeBytes(of: UInt16(value), toByteOffset: 2 * x, as: UInt16.self)
        }
    }
}
