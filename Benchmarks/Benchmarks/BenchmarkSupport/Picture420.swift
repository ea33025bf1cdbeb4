// What the benchmark executables share: a packed 4:2:0 test picture (filters, Vulkan and memcpy
// baselines all measure on the same kind of frame).

import VRenderCore

/// A planar 4:2:0 picture in one block of memory it owns (64-byte aligned, rows packed:
/// at 1920x1080 every stride equals its width, so the whole picture is `byteCount` contiguous
/// bytes and a memcpy of the block copies exactly the frame).
public final class Picture420: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let byteCount: Int
    public let bytes: UnsafeMutableRawPointer
    public let image: YUVImage

    public init(width: Int, height: Int) {
        precondition(width % 2 == 0 && height % 2 == 0, "4:2:0 needs even sizes")
        self.width = width
        self.height = height
        let lumaBytes = width * height
        let chromaWidth = width / 2, chromaHeight = height / 2
        let chromaBytes = chromaWidth * chromaHeight
        byteCount = lumaBytes + 2 * chromaBytes
        bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        let base = bytes.bindMemory(to: UInt8.self, capacity: byteCount)
        image = YUVImage(
            luma: PlaneView(base: base, stride: width, width: width, height: height),
            cb: PlaneView(base: base + lumaBytes, stride: chromaWidth, width: chromaWidth, height: chromaHeight),
            cr: PlaneView(base: base + lumaBytes + chromaBytes, stride: chromaWidth,
                          width: chromaWidth, height: chromaHeight))
        fillPattern()
    }

    deinit { bytes.deallocate() }

    /// Diagonal ramps covering every 8-bit value, so the tone curve sees black, white and all
    /// levels between (the kernel has no data-dependent branches, but keep the data realistic).
    private func fillPattern() {
        for plane in [image.luma, image.cb, image.cr] {
            for y in 0..<plane.height {
                let row = plane.row(y)
                for x in 0..<plane.width { row[x] = UInt8(truncatingIfNeeded: x &+ 3 &* y) }
            }
        }
    }
}
