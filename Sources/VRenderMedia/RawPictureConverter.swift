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
        let base = UnsafeMutablePointer(mutating: start)
        var planes = Planes()
        let format: AVPixelFormat
        switch layout {
        case .yuyv:
            format = AV_PIX_FMT_YUYV422
            planes[0] = (base, bytesPerLine)
        case .nv12:
            format = AV_PIX_FMT_NV12
            planes[0] = (base, bytesPerLine)
            planes[1] = (base + bytesPerLine * height, bytesPerLine)
        case .yuv420p:
            // V4L2's single-buffer YUV420: chroma rows are half the luma row's bytes.
            format = AV_PIX_FMT_YUV420P
            let chromaStride = bytesPerLine / 2
            let u = base + bytesPerLine * height
            planes[0] = (base, bytesPerLine)
            planes[1] = (u, chromaStride)
            planes[2] = (u + chromaStride * ChromaGeometry.yuv420.chromaSize(lumaWidth: width, lumaHeight: height).height,
                         chromaStride)
        }
        let source = PictureScaler.Source(planes: planes, format: format, width: width, height: height, fullRange: fullRange)
        try scaler.scale(source, crop: crop, into: destination)
    }
}
