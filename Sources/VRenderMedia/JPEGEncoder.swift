internal import CFFmpeg
import VRenderCore

/// Encodes 8-bit 4:2:0 limited-range pictures (the capture's and the filters' format) to JPEG
/// with FFmpeg's `mjpeg` encoder: the studio's live preview, one picture at a time.
///
/// JPEG stores full-range samples, so each picture is first expanded to full range by the one
/// swscale wrapper (`SwscaleContext`) into a frame kept for the next picture. The codec
/// context is opened once per picture size, and the packet is reused: `encode` hands its
/// bytes to the caller without copying them. Confined to one thread.
package final class JPEGEncoder {
    /// The mjpeg quantiser scale, 2 (best, largest) to 31 (worst, smallest).
    package let quality: Int
    package static let qualities = 2...31
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var openSize = (width: 0, height: 0)
    private let packet = Packet()
    /// The picture in full range, as the encoder takes it; reused while the size stays.
    private var fullRange: Frame?
    private let scaler = SwscaleContext()
    private var nextTimestamp: Int64 = 0
    /// Codec contexts opened so far: one per change of picture size (tests check the reuse).
    package private(set) var contextsOpened = 0

    package init(quality: Int = 5) throws {
        guard Self.qualities.contains(quality) else {
            throw VRenderError.option("quality", "JPEG quality \(quality) is out of range: it must be \(Self.qualities.lowerBound) (best) to \(Self.qualities.upperBound)")
        }
        FFmpegLog.applyDefault()
        self.quality = quality
    }

    deinit { closeContext() }

    /// Encodes `frame` (planar 8-bit 4:2:0, limited range) and hands the JPEG to `body`; the
    /// bytes are valid only inside `body`.
    package func encode<T>(_ frame: Frame, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        guard frame.pixelFormat == AV_PIX_FMT_YUV420P, !frame.isFullRange else {
            throw VRenderError(.input, subject: "JPEG encoder",
                               reason: "takes 8-bit 4:2:0 limited-range pictures, not \(pixelFormatName(frame.pixelFormat))\(frame.isFullRange ? " full range" : "")")
        }
        return try encode(Planes(frame), width: frame.width, height: frame.height, body)
    }

    /// Encodes the planes `image` views (8-bit 4:2:0, limited range) and hands the JPEG to
    /// `body`; the bytes are valid only inside `body`.
    package func encode<T>(_ image: YUVImage, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let chroma = ChromaGeometry.yuv420.chromaSize(lumaWidth: image.width, lumaHeight: image.height)
        guard image.cb.width == chroma.width, image.cb.height == chroma.height else {
            throw VRenderError(.input, subject: "JPEG encoder",
                               reason: "takes 4:2:0 pictures: a \(image.width)x\(image.height) picture's chroma must be \(chroma.width)x\(chroma.height), not \(image.cb.width)x\(image.cb.height)")
        }
        var planes = Planes()
        planes[0] = (image.luma.base, image.luma.stride)
        planes[1] = (image.cb.base, image.cb.stride)
        planes[2] = (image.cr.base, image.cr.stride)
        return try encode(planes, width: image.width, height: image.height, body)
    }

    /// The JPEG of `frame` as an array of its own (`encode` without the copy is cheaper).
    package func jpeg(of frame: Frame) throws -> [UInt8] {
        try encode(frame) { Array($0) }
    }

    private func encode<T>(_ source: Planes, width: Int, height: Int, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        // JPEG needs a picture of at least 2x2 for its 4:2:0 chroma; its header holds 16-bit sizes.
        guard width >= 2, height >= 2, width <= 65_535, height <= 65_535 else {
            throw VRenderError(.input, subject: "JPEG encoder",
                               reason: "cannot encode a \(width)x\(height) picture: width and height must be 2 to 65535")
        }
        let context = try openContext(width: width, height: height)
        let picture = try fullRangePicture(width: width, height: height)
        let side = { (fullRange: Bool) in
            SwscaleContext.Picture(width: width, height: height, format: AV_PIX_FMT_YUV420P, fullRange: fullRange)
        }
        try scaler.scale(.init(source: side(false), destination: side(true), filter: .bilinear), from: source, rows: height,
                         into: Planes(picture))
        picture.pointer.pointee.quality = Int32(quality) * FF_QP2LAMBDA
        // mpegvideo refuses a picture whose pts does not increase (it answers -1 then).
        picture.pointer.pointee.pts = nextTimestamp
        nextTimestamp += 1
        try check(avcodec_send_frame(context, picture.pointer), "avcodec_send_frame(mjpeg)")
        packet.unref()
        try check(avcodec_receive_packet(context, packet.pointer), "avcodec_receive_packet(mjpeg)")
        defer { packet.unref() }
        return try body(UnsafeRawBufferPointer(start: packet.pointer.pointee.data, count: packet.size))
    }

    /// The codec context for pictures of this size: the open one, or a new one after a change.
    private func openContext(width: Int, height: Int) throws -> UnsafeMutablePointer<AVCodecContext> {
        if let context, openSize == (width, height) { return context }
        closeContext()
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw VRenderError(.runtime, subject: "mjpeg", reason: "this FFmpeg has no MJPEG encoder")
        }
        guard let fresh = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        fresh.pointee.width = Int32(width)
        fresh.pointee.height = Int32(height)
        // yuv420p tagged full range is what yuvj420p means, without the deprecated format.
        fresh.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        fresh.pointee.color_range = AVCOL_RANGE_JPEG
        fresh.pointee.time_base = AVRational(num: 1, den: 30)
        // A fixed quantiser: each picture's `quality` sets it (no rate control between pictures).
        fresh.pointee.flags |= AV_CODEC_FLAG_QSCALE
        fresh.pointee.global_quality = Int32(quality) * FF_QP2LAMBDA
        fresh.pointee.thread_count = 1
        do {
            try check(avcodec_open2(fresh, codec, nil), "avcodec_open2(mjpeg)")
        } catch {
            var failed: UnsafeMutablePointer<AVCodecContext>? = fresh
            avcodec_free_context(&failed)
            throw error
        }
        context = fresh
        contextsOpened += 1
        openSize = (width, height)
        return fresh
    }

    private func closeContext() {
        var old = context
        avcodec_free_context(&old)
        context = nil
    }

    /// The full-range frame, allocated at this size once, and not shared with the encoder any
    /// more before swscale writes it (`makeWritable` copies only if the codec kept a reference).
    private func fullRangePicture(width: Int, height: Int) throws -> Frame {
        if let fullRange, fullRange.width == width, fullRange.height == height {
            try fullRange.makeWritable()
            return fullRange
        }
        let fresh = try Frame.picture(width: width, height: height)
        fresh.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        fullRange = fresh
        return fresh
    }
}
