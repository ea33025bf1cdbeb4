internal import CFFmpeg
import VRenderCore

/// Scales a rectangle of a picture held in memory vrender does not own (a V4L2 mmap buffer, a
/// decoder's frame) into a writable 4:2:0 limited-range `Frame`: format conversion, crop (digital
/// zoom) and scaling in one `sws_scale` pass, so a capture frame is touched once.
///
/// Owns a `SwscaleContext`, rebuilt only when the source geometry, format, crop size or range
/// changes. Confined to one thread.
final class PictureScaler {
    private let scaler = SwscaleContext()

    /// A source picture: its planes (swscale only reads them), format and full size.
    struct Source {
        var planes: Planes
        var format: AVPixelFormat
        var width: Int
        var height: Int
        /// Full ("JPEG") range samples, e.g. an MJPEG webcam's: squeezed to limited range.
        var fullRange: Bool
    }

    /// `sws_scale` of `crop` (default: the whole picture) of `source` into all of `destination`.
    /// The crop is aligned down to even coordinates so 4:2:x chroma starts on a sample.
    func scale(_ source: Source, crop requestedCrop: PixelRect?, into destination: Frame) throws {
        let crop = Self.aligned(requestedCrop, width: source.width, height: source.height)
        try destination.prepareAsPicture(width: source.width, height: source.height)
        let conversion = SwscaleContext.Conversion(
            source: .init(width: crop.width, height: crop.height, format: source.format, fullRange: source.fullRange),
            destination: .init(width: destination.width, height: destination.height, format: AV_PIX_FMT_YUV420P,
                               fullRange: false),
            filter: .bilinear)
        try scaler.scale(conversion, from: try source.planes.moved(to: crop, format: source.format), rows: crop.height,
                         into: Planes(destination))
    }

    /// The crop inside the picture with even origin and size (the whole picture when nil).
    static func aligned(_ crop: PixelRect?, width: Int, height: Int) -> PixelRect {
        guard let crop else { return PixelRect(x: 0, y: 0, width: width, height: height) }
        let x = max(0, min(crop.x, width - 2)) & ~1
        let y = max(0, min(crop.y, height - 2)) & ~1
        let cropWidth = max(2, min(crop.width, width - x)) & ~1
        let cropHeight = max(2, min(crop.height, height - y)) & ~1
        return PixelRect(x: x, y: y, width: cropWidth, height: cropHeight)
    }

}

extension Frame {
    /// Makes this frame a writable 4:2:0 picture: allocates one of `width`×`height` if it has no
    /// buffers yet, keeps its size otherwise, and un-shares buffers another owner still holds
    /// (`av_frame_get_buffer` / `av_frame_make_writable`).
    func prepareAsPicture(width: Int, height: Int) throws {
        if pointer.pointee.data.0 == nil {
            pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            pointer.pointee.width = Int32(width)
            pointer.pointee.height = Int32(height)
            try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer")
            return
        }
        guard pixelFormat == AV_PIX_FMT_YUV420P else {
            throw VRenderError(.runtime, subject: "capture",
                               reason: "destination frame is \(pixelFormatName(pixelFormat)), not yuv420p")
        }
        try makeWritable()
        // A recycled frame may carry a decoder's full-range tag; what is written now is limited.
        pointer.pointee.color_range = AVCOL_RANGE_MPEG
    }
}
