internal import CFFmpeg
import VRenderCore

/// Owns one `AVFrame` (`av_frame_alloc` / `av_frame_free`). Its pixel buffers are
/// reference-counted by FFmpeg, so handing a frame's *data* on never copies it.
///
/// Ownership: exactly one stage uses a frame at a time. Passing it through a `BoundedQueue`
/// transfers it; the sender must not touch it afterwards.
// @unchecked: safe because one stage owns a frame at a time, and handing it on ends the sender's use.
public final class Frame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>

    public init() {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// A frame with its own writable 4:2:0 buffers of the given size (`av_frame_get_buffer`),
    /// 8-bit or 10-bit (`yuv420p10le`).
    public static func picture(width: Int, height: Int, tenBit: Bool = false) throws -> Frame {
        let frame = Frame()
        frame.pointer.pointee.format = (tenBit ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P).rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        return frame
    }

    /// A frame with its own packed 8-bit RGB buffer (`rgb24`), for colour conversions.
    static func rgb(width: Int, height: Int) throws -> Frame {
        let frame = Frame()
        frame.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer(rgb)")
        return frame
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }

    /// The best timestamp FFmpeg could determine for this frame, in its stream's time base.
    var bestEffortTimestamp: Int64? {
        let value = pointer.pointee.best_effort_timestamp
        return value == vr_nopts_value() ? nil : value
    }

    /// Presentation timestamp in the time base its consumer expects.
    public var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }

    /// Duration field, in the same time base as `pts`.
    public var duration: Int64 {
        get { pointer.pointee.pkt_duration }
        set { pointer.pointee.pkt_duration = newValue }
    }

    /// Audio samples per channel in this frame.
    public var sampleCount: Int { Int(pointer.pointee.nb_samples) }

    /// Audio samples per second (0 for a picture).
    public var sampleRate: Int { Int(pointer.pointee.sample_rate) }

    /// True when the decoder flagged damage (`AV_FRAME_FLAG_CORRUPT` or `decode_error_flags`).
    public var isDamaged: Bool {
        (pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT) != 0 || pointer.pointee.decode_error_flags != 0
    }

    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }

    /// True when this frame is planar 8-bit 4:2:0 limited range: filters and encoders can
    /// take it as it is.
    public var isPlanar420LimitedRange: Bool {
        pixelFormat == AV_PIX_FMT_YUV420P && pointer.pointee.color_range != AVCOL_RANGE_JPEG
    }

    /// Drops the pixel buffers' references so the frame shell can be reused (`av_frame_unref`).
    public func unref() { av_frame_unref(pointer) }

    /// Makes this frame refer to the same buffers as `other` (`av_frame_ref`): no pixel copy.
    public func reference(_ other: Frame) throws {
        av_frame_unref(pointer)
        try check(av_frame_ref(pointer, other.pointer), "av_frame_ref")
    }

    /// Whether every buffer is referenced only by this frame (`av_frame_is_writable`).
    public var isWritable: Bool { av_frame_is_writable(pointer) != 0 }

    /// Ensures the buffers are not shared before writing (`av_frame_make_writable`; copies only
    /// if another owner, such as an encoder's queue, still holds them).
    public func makeWritable() throws {
        try check(av_frame_make_writable(pointer), "av_frame_make_writable")
    }

    /// Copies `source`'s pixels into this frame's own buffers (`av_frame_copy`): same size and
    /// pixel format. For a picture that is drawn on while the original stays as it was.
    public func copyPicture(from source: Frame) throws {
        try check(av_frame_copy(pointer, source.pointer), "av_frame_copy")
    }

    /// A view of the three planes for filters. Valid for planar 8-bit YUV frames only.
    public func yuvImage() -> YUVImage {
        func view(_ index: Int) -> PlaneView {
            let plane = plane(index)
            return PlaneView(base: plane.base.assumingMemoryBound(to: UInt8.self), stride: plane.stride,
                             width: plane.width, height: plane.height)
        }
        return YUVImage(luma: view(0), cb: view(1), cr: view(2))
    }

    /// Plane `index` (0–2) of a planar YUV frame: where it starts, its stride in bytes and its
    /// size in samples (chroma rounded up, so odd sizes keep their last column and row).
    /// Allocates nothing: views are made for every frame.
    func plane(_ index: Int) -> (base: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int) {
        let frame = pointer.pointee
        // A planar YUV frame with its picture (the views' precondition): FFmpeg describes its
        // format, and planes 0-2 are allocated.
        let descriptor = av_pix_fmt_desc_get(pixelFormat)!.pointee
        let base = withUnsafeBytes(of: frame.data) { $0.load(fromByteOffset: index * MemoryLayout<UnsafeMutableRawPointer?>.stride,
                                                             as: UnsafeMutableRawPointer?.self)! }
        let stride = withUnsafeBytes(of: frame.linesize) { $0.load(fromByteOffset: index * 4, as: Int32.self) }
        let blocks = index == 0 ? ChromaGeometry.yuv444
            : ChromaGeometry(blockWidth: 1 << Int(descriptor.log2_chroma_w), blockHeight: 1 << Int(descriptor.log2_chroma_h))
        let size = blocks.chromaSize(lumaWidth: Int(frame.width), lumaHeight: Int(frame.height))
        return (base, Int(stride), size.width, size.height)
    }
}

extension Frame {
    /// True for planar YUV with more than 8 bits per sample (stored in 16-bit words).
    public var isHighBitDepth: Bool {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat)?.pointee else { return false }
        return descriptor.comp.0.depth > 8 && descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0
            && descriptor.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 && descriptor.nb_components >= 3
    }

    /// A view of the three planes of a planar high-bit-depth YUV frame (`yuv420p10le`, ...).
    public func yuvImage16() -> YUVImage16 {
        func view(_ index: Int) -> PlaneView16 {
            let plane = plane(index)
            return PlaneView16(base: plane.base, strideBytes: plane.stride, width: plane.width, height: plane.height)
        }
        let bitDepth = Int(av_pix_fmt_desc_get(pixelFormat)!.pointee.comp.0.depth)   // `plane` unwrapped it already
        return YUVImage16(luma: view(0), cb: view(1), cr: view(2), bitDepth: bitDepth)
    }

    /// True when the frame's samples are full range (`AVCOL_RANGE_JPEG`).
    public var isFullRange: Bool { pointer.pointee.color_range == AVCOL_RANGE_JPEG }
}

/// Owns one `AVPacket` (`av_packet_alloc` / `av_packet_free`); same ownership rule as `Frame`.
// @unchecked: safe because one stage owns a packet at a time, and handing it on ends the sender's use.
public final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVPacket>

    public init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    public var streamIndex: Int {
        get { Int(pointer.pointee.stream_index) }
        set { pointer.pointee.stream_index = Int32(newValue) }
    }

    public var size: Int { Int(pointer.pointee.size) }
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    /// True when the demuxer knows the packet is damaged (`AV_PKT_FLAG_CORRUPT`): a transport
    /// stream's lost pieces, a sample the file was cut short in.
    public var isCorrupt: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }
    /// A packet an edit list hides (`AV_PKT_FLAG_DISCARD`): decoded as a reference, never shown.
    public var isDiscarded: Bool { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }

    public func unref() { av_packet_unref(pointer) }

    /// Makes this packet a second reference to `other`'s data (`av_packet_ref`): the bytes of a
    /// demuxed (refcounted) packet are shared, not copied, and stay valid when `other` is
    /// written (a muxer takes the written packet's reference) or its demuxer closed.
    public func reference(_ other: Packet) throws {
        av_packet_unref(pointer)
        try check(av_packet_ref(pointer, other.pointer), "av_packet_ref")
    }
}

extension Frame {
    /// Readies a frame for an encoder: its timestamp in the encoder's time base, and no
    /// picture type left over from decoding (libx264 would otherwise obey the source's I/P/B
    /// decisions). `keyframe`: asks for a keyframe here (an IDR picture where the encoder was
    /// opened with `forced-idr`), the encoder's own choices aside.
    public func prepareForEncoding(pts: Int64, keyframe: Bool = false) {
        pointer.pointee.pts = pts
        pointer.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
    }

    /// Paints the whole picture black (limited range).
    public func fillBlack() {
        ImageOps.fillBlack(yuvImage(), outside: PixelRect(x: 0, y: 0, width: 0, height: 0))
    }
}
