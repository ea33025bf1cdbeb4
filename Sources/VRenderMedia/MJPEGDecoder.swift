internal import CFFmpeg
import VRenderCore

/// Decodes Motion-JPEG pictures straight from memory (a V4L2 capture buffer holds one complete
/// JPEG) with a standalone libavcodec MJPEG decoder, no demuxer, then converts the full-range
/// 4:2:x picture into a limited-range 4:2:0 `Frame`, with an optional crop (digital zoom).
///
/// Owns an `AVCodecContext` (`avcodec_alloc_context3` / `avcodec_free_context`), a packet
/// shell, a decoded-frame shell and a scaler. Confined to one thread (the capture thread).
package final class MJPEGDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let packet = Packet()
    private let decoded = Frame()
    private let scaler = PictureScaler()
    /// Pictures the decoder rejected or flagged as damaged (a webcam's truncated JPEGs).
    package private(set) var damaged = 0

    /// `avcodec_find_decoder(AV_CODEC_ID_MJPEG)` + `avcodec_open2`, single-threaded so every
    /// packet in gives its picture out at once (no frame-thread delay).
    package init() throws {
        FFmpegLog.applyDefault()
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_MJPEG) else {
            throw VRenderError(.runtime, subject: "mjpeg", reason: "this FFmpeg has no MJPEG decoder")
        }
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        self.context = context
        context.pointee.thread_count = 1
        try check(avcodec_open2(context, codec, nil), "avcodec_open2(mjpeg)")
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
    }

    /// Decodes the JPEG in `bytes` (`avcodec_send_packet` / `avcodec_receive_frame`) and scales
    /// it, or `crop` of it, into `destination` (allocated at the picture's size if it has no
    /// buffers). Returns false, leaving `destination` untouched and counting it in `damaged`,
    /// when the data does not decode: a damaged picture is skipped, not an error.
    ///
    /// The packet points at `bytes` without a reference-counted buffer, so libavcodec copies
    /// the data before it returns: `bytes` may be reused (re-queued to the driver) right after.
    package func decode(_ bytes: UnsafeRawBufferPointer, crop: PixelRect? = nil, into destination: Frame) throws -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count <= Int(Int32.max) else {
            damaged += 1
            return false
        }
        packet.pointer.pointee.data = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        packet.pointer.pointee.size = Int32(bytes.count)
        packet.pointer.pointee.flags = AV_PKT_FLAG_KEY
        let sent = avcodec_send_packet(context, packet.pointer)
        // Forget the borrowed pointer at once: it is not ours and must never be freed or reused.
        packet.pointer.pointee.data = nil
        packet.pointer.pointee.size = 0
        guard try status(sent, "avcodec_send_packet") == .ok else { return false }

        decoded.unref()
        guard try status(avcodec_receive_frame(context, decoded.pointer), "avcodec_receive_frame") == .ok else {
            return false
        }
        defer { decoded.unref() }
        if decoded.isDamaged {
            damaged += 1
            return false
        }
        let source = PictureScaler.Source(planes: Planes(decoded), format: decoded.pixelFormat,
                                          width: decoded.width, height: decoded.height,
                                          fullRange: decoded.isFullRange || decoded.pixelFormat.isJPEGRange)
        try scaler.scale(source, crop: crop, into: destination)
        return true
    }

    /// Codec status where damaged input is counted and reported as "no picture" instead of
    /// thrown; only resource failures (ENOMEM) throw.
    private func status(_ result: Int32, _ function: String) throws -> CodecStatus {
        do {
            let status = try codecStatus(result, function)
            if status != .ok { damaged += 1 }
            return status
        } catch {
            if error.code == -ENOMEM { throw error }
            damaged += 1
            return .endOfStream
        }
    }
}
