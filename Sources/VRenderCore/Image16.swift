/// One plane of 16-bit samples (10- or 12-bit values in the low bits, little-endian as FFmpeg's
/// `yuv420p10le` stores them) in memory owned by someone else.
///
/// `@unchecked Sendable`: as `PlaneView`, handed to workers that touch disjoint rows while the
/// owner keeps the memory alive.
public struct PlaneView16: @unchecked Sendable {
    public var base: UnsafeMutableRawPointer
    /// Bytes from the start of one row to the next.
    public var strideBytes: Int
    /// Samples per row and rows.
    public var width: Int
    public var height: Int

    public init(base: UnsafeMutableRawPointer, strideBytes: Int, width: Int, height: Int) {
        precondition(strideBytes >= 2 * width && width > 0 && height > 0, "invalid plane geometry")
        self.base = base
        self.strideBytes = strideBytes
        self.width = width
        self.height = height
    }

    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        (base + y * strideBytes).assumingMemoryBound(to: UInt16.self)
    }
}

/// Planar high-bit-depth Y'CbCr picture (4:2:0, 4:2:2 or 4:4:4).
public struct YUVImage16: PlanarYUV, Sendable {
    public var luma: PlaneView16
    public var cb: PlaneView16
    public var cr: PlaneView16
    /// Bits used per sample (10 or 12).
    public var bitDepth: Int

    public init(luma: PlaneView16, cb: PlaneView16, cr: PlaneView16, bitDepth: Int) {
        precondition(cb.width == cr.width && cb.height == cr.height, "chroma planes differ")
        self.luma = luma
        self.cb = cb
        self.cr = cr
        self.bitDepth = bitDepth
    }
}

/// `ImageOps` for 16-bit canvases (10-bit HDR exports): bars and quarter turns, by the same
/// generic plane code.
package enum ImageOps16 {
    /// Paints everything outside `rect` (even origin and size) limited-range black.
    package static func fillBlack(_ image: YUVImage16, outside rect: PixelRect) {
        let black = UInt16(16 << (image.bitDepth - 8)), neutral = UInt16(128 << (image.bitDepth - 8))
        ImageOps.fillBlack(image, outside: rect, black: black, neutral: neutral)
    }

    /// Writes `source` turned clockwise by `rotation` into `destination` at (`x`, `y`) (even).
    package static func rotate(_ source: YUVImage16, by rotation: Rotation, into destination: YUVImage16, x: Int, y: Int) {
        ImageOps.rotatePlanes(source, by: rotation, into: destination, x: x, y: y)
    }

    /// Writes `source` turned and flipped as `orientation` says into `destination` at (`x`, `y`) (even).
    package static func orient(_ source: YUVImage16, by orientation: Orientation, into destination: YUVImage16, x: Int, y: Int) {
        ImageOps.rotatePlanes(source, by: orientation.rotation, mirrored: orientation.mirrored, into: destination, x: x, y: y)
    }
}
