internal import CFFmpeg
import VRenderCore

/// Owns one libavutil MD5 context (`av_md5_alloc` / `av_free`): the digest FFmpeg's FATE and
/// `-f framemd5` print. Reused from digest to digest (`av_md5_init` restarts it), so hashing
/// every frame of a video allocates nothing per frame. Confined to one thread.
public final class MD5Digest {
    private let context: OpaquePointer

    public init() {
        guard let context = av_md5_alloc() else { fatalError("av_md5_alloc: out of memory") }
        self.context = context
        av_md5_init(context)
    }

    deinit { av_free(UnsafeMutableRawPointer(context)) }

    /// Adds `bytes` to the digest (`av_md5_update`).
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        av_md5_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// The digest of everything added since the last `finish` (or `init`), as 32 lower-case
    /// hex digits (`av_md5_final`); the context is then ready for the next digest.
    public func finish() -> String {
        var digest = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &digest) { av_md5_final(context, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        av_md5_init(context)
        let hex = Array("0123456789abcdef".utf8)
        let text = withUnsafeBytes(of: digest) { bytes in bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] } }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Frame {
    /// The MD5 of the picture as FFmpeg's rawvideo encoder packs it (`av_image_copy_to_buffer`
    /// with alignment 1: each plane's rows with no padding, then the palette of a paletted
    /// format), which is exactly what `ffmpeg -i VIDEO -f framemd5 -` prints for the frame.
    /// Rows are hashed where the decoder left them: nothing is copied.
    public func packedPlanesMD5(using digest: MD5Digest) throws -> String {
        let format = pixelFormat
        guard let descriptor = av_pix_fmt_desc_get(format)?.pointee,
              descriptor.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0 else {
            throw VRenderError(.runtime, subject: "frame checksum", reason: "cannot hash a \(formatName) picture")
        }
        var rowBytes: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        _ = try withUnsafeMutableBytes(of: &rowBytes) { sizes in
            try check(av_image_fill_linesizes(sizes.baseAddress!.assumingMemoryBound(to: Int32.self), format, pointer.pointee.width),
                      "av_image_fill_linesizes")
        }
        let planes = Planes(self)
        for index in 0..<Int(av_pix_fmt_count_planes(format)) {
            // As libavutil does: planes 1 and 2 are the subsampled ones (for RGB the shift is 0).
            let shift = index == 1 || index == 2 ? Int(descriptor.log2_chroma_h) : 0
            let rows = (height + (1 << shift) - 1) >> shift
            let count = withUnsafeBytes(of: rowBytes) { Int($0.load(fromByteOffset: index * 4, as: Int32.self)) }
            let (base, stride) = planes[index]
            guard let base else { continue }
            for row in 0..<rows { digest.update(UnsafeRawBufferPointer(start: base + row * stride, count: count)) }
        }
        if descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0, let palette = planes[1].base {
            digest.update(UnsafeRawBufferPointer(start: palette, count: 256 * 4))
        }
        return digest.finish()
    }

    /// FFmpeg's name of the frame's pixel format (`av_get_pix_fmt_name`): "yuv420p".
    public var formatName: String { pixelFormatName(pixelFormat) }

    /// The frame's timestamp as FFmpeg best determined it (`best_effort_timestamp`, what the
    /// ffmpeg CLI stamps decoded frames with), in its stream's time base; nil when unknown.
    public var presentationTimestamp: Int64? { bestEffortTimestamp }
}

extension Demuxer {
    /// Index of the file's first video stream that is not a cover picture (what `-map 0:V:0`
    /// names); nil when it has none.
    public var firstVideoStreamIndex: Int? {
        (0..<Int(context.pointee.nb_streams)).first { index in
            stream(index).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                && stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
    }

    /// Index of the file's first audio stream; nil when it has none.
    public var firstAudioStreamIndex: Int? {
        (0..<Int(context.pointee.nb_streams)).first { stream($0).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
    }
}
