internal import CFFmpeg
import VRenderCore

/// Converts an uncompressed picture in an external buffer (a V4L2 capture buffer) into a 4:2:0
/// limited-range `Frame`, optionally cropping a rectangle of the source and scaling it back to
/// the destination's size (digital zoom). One `sws_scale` pass; the source is only read.
///
/// Owns its scaler (see `PictureScaler`). Confined to one thread (the capture thread).
package final class RawPictureConverter {
    /// Memory layouts of the raw formats cameras deliver.
    package enum Layout: String, Sendable, CaseIterable {
        /// Packed 4:2:2, Y0 U Y1 V (V4L2_PIX_FMT_YUYV).
        case yuyv
        /// A luma plane, then one plane of interleaved U/V at half height (V4L2_PIX_FMT_NV12).
        case nv12
        /// Three planes, Y then U then V, chroma at half width and height (V4L2_PIX_FMT_YUV420).
        case yuv420p
    }

    private let scaler = PictureScaler()
    /// Converts the other way, for `write(_:into:layout:bytesPerLine:)`.
    private let packer = SwscaleContext()

    package init() {}

    /// Bytes a picture of this layout needs in a buffer whose (luma) rows are `bytesPerLine` apart.
    package static func requiredBytes(layout: Layout, width: Int, height: Int, bytesPerLine: Int) -> Int {
        let chromaRows = ChromaGeometry.yuv420.chromaSize(lumaWidth: width, lumaHeight: height).height
        switch layout {
        case .yuyv: return bytesPerLine * height
        case .nv12: return bytesPerLine * (height + chromaRows)
        case .yuv420p: return bytesPerLine * height + 2 * (bytesPerLine / 2) * chromaRows
        }
    }

    /// Converts `bytes` (a `width`×`height` picture of `layout`, rows `bytesPerLine` apart, as
    /// V4L2's `v4l2_pix_format.bytesperline` describes) into `destination`.
    ///
    /// - Parameters:
    ///   - crop: the rectangle of the source to keep, scaled up to the destination's size; nil
    ///     keeps all of it. Aligned down to even coordinates.
    ///   - fullRange: the source uses full-range samples (V4L2_QUANTIZATION_FULL_RANGE).
    ///   - destination: a 4:2:0 frame; one without buffers gets a `width`×`height` picture.
    ///     If another owner still references its buffers it is made writable first.
    package func convert(_ bytes: UnsafeRawBufferPointer, layout: Layout, width: Int, height: Int,
                        bytesPerLine: Int, crop: PixelRect? = nil, fullRange: Bool = false,
                        into destination: Frame) throws {
        let needed = Self.requiredBytes(layout: layout, width: width, height: height, bytesPerLine: bytesPerLine)
        guard width > 1, height > 1, let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
              bytes.count >= needed else {
            throw VRenderError(.runtime, subject: "capture buffer",
                               reason: "holds \(bytes.count) bytes; a \(width)x\(height) \(layout.rawValue) picture with \(bytesPerLine) bytes per line needs \(needed)")
        }
        // swscale only reads the source, so dropping `const` here is safe.
        let (planes, format) = Self.planes(at: UnsafeMutablePointer(mutating: start), layout: layout, height: height,
                                           bytesPerLine: bytesPerLine)
        let source = PictureScaler.Source(planes: planes, format: format, width: width, height: height, fullRange: fullRange)
        try scaler.scale(source, crop: crop, into: destination)
    }

    /// Writes `frame` (4:2:0, limited range, the size given) into `bytes` as a `layout` picture
    /// whose rows are `bytesPerLine` apart: what an output device (a V4L2 loopback) shows. To
    /// yuv420p it is a plain copy, so the picture stays the same bytes; to YUYV and NV12 the
    /// chroma is resampled as swscale does.
    package func write(_ frame: Frame, into bytes: UnsafeMutableRawBufferPointer, layout: Layout, bytesPerLine: Int) throws {
        let width = frame.width, height = frame.height
        let needed = Self.requiredBytes(layout: layout, width: width, height: height, bytesPerLine: bytesPerLine)
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count >= needed else {
            throw VRenderError(.runtime, subject: "output buffer",
                               reason: "holds \(bytes.count) bytes; a \(width)x\(height) \(layout.rawValue) picture with \(bytesPerLine) bytes per line needs \(needed)")
        }
        let (planes, format) = Self.planes(at: start, layout: layout, height: height, bytesPerLine: bytesPerLine)
        let conversion = SwscaleContext.Conversion(
            source: .init(width: width, height: height, format: AV_PIX_FMT_YUV420P, fullRange: false),
            destination: .init(width: width, height: height, format: format, fullRange: false),
            filter: .bilinear)
        try packer.scale(conversion, from: Planes(frame), rows: height, into: planes)
    }

    /// Where each plane of a `layout` picture starts in a buffer at `base`, and swscale's name
    /// for the layout.
    private static func planes(at base: UnsafeMutablePointer<UInt8>, layout: Layout, height: Int,
                               bytesPerLine: Int) -> (Planes, AVPixelFormat) {
        var planes = Planes()
        switch layout {
        case .yuyv:
            planes[0] = (base, bytesPerLine)
            return (planes, AV_PIX_FMT_YUYV422)
        case .nv12:
            planes[0] = (base, bytesPerLine)
            planes[1] = (base + bytesPerLine * height, bytesPerLine)
            return (planes, AV_PIX_FMT_NV12)
        case .yuv420p:
            // V4L2's single-buffer YUV420: chroma rows are half the luma row's bytes.
            let chromaStride = bytesPerLine / 2
            let chromaRows = ChromaGeometry.yuv420.chromaSize(lumaWidth: bytesPerLine, lumaHeight: height).height
            let u = base + bytesPerLine * height
            planes[0] = (base, bytesPerLine)
            planes[1] = (u, chromaStride)
            planes[2] = (u + chromaStride * chromaRows, chromaStride)
            return (planes, AV_PIX_FMT_YUV420P)
        }
    }
}
